/* test_recorded.c — recorded-runtime tasks: clock scaling of the duration, the per-core power rule
 * from the §5.2 tables (dcsim/recorded.h), task energy, and DVFS among frequency states with
 * frequency-dependent power (tests/data/hwprofile/dvfs.xml). Numbers are worked out by hand from
 * the profile's tables. */
#include <stdio.h>

#include "check.h"
#include "dcsim/lib.h"
#include "dcsim/model.h"
#include "dcsim/recorded.h"
#include "dcsim/scenario.h"

static dcsim_scenario *load(const char *path, int dvfs, double slowdown) {
  dcsim_error err = { 0 };
  /* the per-core rule of the §5.2 tables (D3.5 mode; the default is test_cpu_power.c's) */
  dcsim_scenario_opts o = { .dvfs = dvfs,
                            .dvfs_slowdown = slowdown,
                            .model_flags = DCSIM_MODEL_D35 };
  dcsim_scenario *s = NULL;
  if (dcsim_scenario_load(path, &o, &s, &err))
    fprintf(stderr, "  %s:%d: %s\n", err.file, err.line, err.msg);
  CHECK(s != NULL);
  return s;
}

/* p_core at 2.4 GHz: (52.61 + 5.83 - 7.85 - 1.53) / 4 W; idle of the one-socket node 9.38 W */
#define P24  ((52.61 + 5.83 - 7.85 - 1.53) / 4)
#define IDLE 9.38

static void test_rule(void) {
  dcsim_scenario *s = load("tests/data/recorded/fork.xml", 0, 0);
  if (!s) return;
  const dcsim_wf_rt *w = &s->wfs[0];
  const dcsim_option *a = &w->tmpls[1].opts[0], *d = &w->tmpls[4].opts[0],
                     *e = &w->tmpls[5].opts[0];
  CHECK_REL(s->groups[0].idle_w, IDLE, 1e-12);
  CHECK_INT(a->duration_ns, 100000000000LL);
  CHECK_INT(a->cores, 1);
  CHECK_REL(a->node_delta_w, P24, 1e-12);
  CHECK_REL(a->energy_j, 100 * (P24 + IDLE / 4), 1e-12);
  CHECK_REL(d->node_delta_w, 2 * P24, 1e-12); /* two cores add up */
  CHECK_INT(e->duration_ns, 25000000000LL);   /* 50 s recorded at 1.2 GHz, run at 2.4 */
  CHECK_REL(e->ghz, 2.4, 0);
  double core_w = 0;
  dcsim_error err;
  dcsim_cpu_state st = { 2.4, NULL, 1 };
  CHECK_INT(dcsim_recorded_core_power(s->groups[0].cpu, &st, &core_w, NULL, &err), 0);
  CHECK_REL(core_w, P24, 1e-12);
  dcsim_scenario_free(s);
  /* more cores than the node has */
  dcsim_scenario_opts o = { .model_flags = DCSIM_MODEL_D35 };
  s = NULL;
  CHECK_INT(dcsim_scenario_load("tests/data/recorded/bad-cores.xml", &o, &s, &err), DCSIM_ERANGE);
  CHECK_INT(err.line, 3);
  CHECK(strstr(err.msg, "asks for 6 cores per node, nodes of 'n' have 4") != NULL);
}

/* DVFS: energy(f) = T(f) x (p_core(f) + IDLE / 4) for a one-core task of 100 s at 2.4 GHz. */
static void test_dvfs(void) {
  double p18 = ((52.61 + 19.1) / 2 + (5.83 + 4.40) / 2 - (7.85 + 5.97) / 2 - (1.53 + 1.41) / 2) / 4;
  double p12 = (19.1 + 4.40 - 5.97 - 1.41) / 4;
  double e24 = 100 * (P24 + IDLE / 4), e18 = 100 * 2.4 / 1.8 * (p18 + IDLE / 4),
         e12 = 200 * (p12 + IDLE / 4);
  CHECK(e12 < e18 && e18 < e24); /* the test profile makes slower cheaper */
  static const struct {
    double slowdown, ghz;
  } cases[] = { { 0.2, 2.4 }, { 0.5, 1.8 }, { 1.0, 1.2 } };
  for (int k = 0; k < 3; k++) {
    dcsim_scenario *s = load("tests/data/recorded/dvfs-1core.xml", 1, cases[k].slowdown);
    if (!s) continue;
    const dcsim_option *o = &s->wfs[0].tmpls[0].opts[0];
    CHECK_REL(o->ghz, cases[k].ghz, 0);
    CHECK_REL(o->energy_j, k == 0 ? e24 : k == 1 ? e18 : e12, 1e-9);
    CHECK_INT(o->duration_ns, llround(100e9 * 2.4 / cases[k].ghz));
    dcsim_scenario_free(s);
  }
  /* without DVFS: nominal; an explicit freq= is kept even with DVFS */
  dcsim_scenario *s = load("tests/data/recorded/dvfs-1core.xml", 0, 0);
  if (s) CHECK_REL(s->wfs[0].tmpls[0].opts[0].ghz, 2.4, 0);
  dcsim_scenario_free(s);
  s = load("tests/data/recorded/freq.xml", 1, 0.1);
  if (s) {
    CHECK_REL(s->wfs[0].tmpls[0].opts[0].ghz, 1.2, 0);
    CHECK_INT(s->wfs[0].tmpls[0].opts[0].duration_ns, 200000000000LL);
  }
  dcsim_scenario_free(s);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  test_rule();
  test_dvfs();
  CHECK_DONE();
}
