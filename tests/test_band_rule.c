/* test_band_rule.c — the one band rule (dcsim/band_rule.h): each provenance
 * class, a transferred CPU, a GPU, both devices, the cover of a thread law's continuation, and
 * the basis helpers. A bands file with a different band for every part and class, so that a
 * class or a part taken for another shows. */
#include "dcsim/band_rule.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "dcsim/lib.h"
#include "dcsim/scenario.h"
#include "dcsim/sweep.h"

/* [part][class] -> {low, high}; every number distinct */
static const double BAND[3][4][2] = {
  { { -0.11, 0.13 }, { -0.17, 0.19 }, { -0.23, 0.29 }, { -0.31, 0.37 } }, /* cpu-time */
  { { -0.07, 0.41 }, { -0.13, 0.43 }, { -0.19, 0.47 }, { -0.29, 0.53 } }, /* gpu-time */
  { { -0.05, 0.06 }, { -0.08, 0.09 }, { -0.12, 0.14 }, { -0.21, 0.24 } }, /* power */
};

static dcsim_bands_t *load_bands(void) {
  static const char *const parts[] = { "cpu-time", "gpu-time", "power" };
  static const char *const cls[] = { "table", "interpolated", "extrapolated", "spec" };
  char path[] = "/tmp/dcsim_band_ruleXXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return NULL;
  FILE *f = fdopen(fd, "w");
  fputs("part,class,low,high,rows,source\n", f);
  for (int p = 0; p < 3; p++)
    for (int k = 0; k < 4; k++)
      fprintf(f, "%s,%s,%g,%g,1,test\n", parts[p], cls[k], BAND[p][k][0], BAND[p][k][1]);
  fclose(f);
  dcsim_bands_t *b = NULL;
  dcsim_error e;
  CHECK(dcsim_bands_load(path, &b, &e) == 0);
  unlink(path);
  return b;
}

static const double T = 2.385, E = 97.1; /* s, J */

/* the rule on q gives the time the relative band trel and the energy trel times prel */
static void expect(const dcsim_bands_t *b, const dcsim_band_basis *q, const double trel[2],
                   const double prel[2]) {
  double tb[2], eb[2];
  dcsim_band_rule(b, q, tb, eb);
  for (int s = 0; s < 2; s++) {
    CHECK_REL(tb[s], q->time_s * (1 + trel[s]), 1e-14);
    CHECK_REL(eb[s], q->energy_j * (1 + trel[s]) * (1 + prel[s]), 1e-14);
  }
}

/* a CPU with its own tables at each class: the cpu-time band of that class; the energy's is the
 * time's times the power band of the energy's own class (here extrapolated); a transferred CPU:
 * the cpu-time spec band at every class (its energy class unchanged) */
static void test_classes(const dcsim_bands_t *b) {
  for (int k = 0; k < 4; k++) {
    dcsim_band_basis q = { .cpu = DCSIM_BAND_CPU_OWN,
                           .time_kind = (dcsim_prov_kind)k,
                           .energy_kind = DCSIM_PROV_EXTRAPOLATED,
                           .time_s = T,
                           .energy_j = E };
    expect(b, &q, BAND[0][k], BAND[2][2]);
    q.cpu = DCSIM_BAND_CPU_TRANSFERRED;
    expect(b, &q, BAND[0][3], BAND[2][2]);
    /* borrowed per-core rates (a sibling's or an estimate): the spec band twice, (1 + low)^2 and
     * (1 + high)^2 (doc/models.md "Per-core rates") */
    q.cpu = DCSIM_BAND_CPU_BORROWED;
    const double twice[2] = { (1 + BAND[0][3][0]) * (1 + BAND[0][3][0]) - 1,
                              (1 + BAND[0][3][1]) * (1 + BAND[0][3][1]) - 1 };
    expect(b, &q, twice, BAND[2][2]);
    double tb[2], tt[2];
    dcsim_band_rule(b, &q, tb, NULL);
    q.cpu = DCSIM_BAND_CPU_TRANSFERRED;
    dcsim_band_rule(b, &q, tt, NULL);
    CHECK(tb[0] < tt[0] && tb[1] > tt[1]); /* strictly wider than the transferred band */
  }
}

/* the widest CPU class of the CPUs that ran wins, in either order */
static void test_add_cpu(void) {
  dcsim_band_basis q = { 0 };
  dcsim_band_basis_add_cpu(&q, DCSIM_BAND_CPU_TRANSFERRED);
  dcsim_band_basis_add_cpu(&q, DCSIM_BAND_CPU_OWN);
  CHECK(q.cpu == DCSIM_BAND_CPU_TRANSFERRED);
  dcsim_band_basis r = { 0 };
  dcsim_band_basis_add_cpu(&r, DCSIM_BAND_CPU_OWN);
  CHECK(r.cpu == DCSIM_BAND_CPU_OWN);
  dcsim_band_basis_add_cpu(&r, DCSIM_BAND_CPU_TRANSFERRED);
  CHECK(r.cpu == DCSIM_BAND_CPU_TRANSFERRED);
  dcsim_band_basis_add_cpu(&r, DCSIM_BAND_CPU_BORROWED);
  dcsim_band_basis_add_cpu(&r, DCSIM_BAND_CPU_TRANSFERRED);
  CHECK(r.cpu == DCSIM_BAND_CPU_BORROWED);
}

/* a GPU alone: the gpu-time band; a GPU and a CPU: the union of both; neither: the CPU's */
static void test_gpu(const dcsim_bands_t *b) {
  double tb[2], eb[2];
  dcsim_band_basis q = { .gpu = 1,
                         .time_kind = DCSIM_PROV_INTERPOLATED,
                         .energy_kind = DCSIM_PROV_SPEC,
                         .time_s = T,
                         .energy_j = E };
  dcsim_band_rule(b, &q, tb, eb);
  CHECK_REL(tb[0], T * (1 + BAND[1][1][0]), 1e-14);
  CHECK_REL(tb[1], T * (1 + BAND[1][1][1]), 1e-14);
  CHECK_REL(eb[0], E * (1 + BAND[1][1][0]) * (1 + BAND[2][3][0]), 1e-14);
  q.cpu = DCSIM_BAND_CPU_OWN; /* cpu interpolated -0.17 is lower, gpu 0.43 higher */
  dcsim_band_rule(b, &q, tb, eb);
  CHECK_REL(tb[0], T * (1 + BAND[0][1][0]), 1e-14);
  CHECK_REL(tb[1], T * (1 + BAND[1][1][1]), 1e-14);
  q.gpu = 0, q.cpu = DCSIM_BAND_CPU_NONE;
  dcsim_band_rule(b, &q, tb, NULL); /* no energy band asked for */
  CHECK_REL(tb[1], T * (1 + BAND[0][1][1]), 1e-14);
}

/* a range to cover (a thread law continued to 3.2 times the time): the time band's high end
 * reaches 3.2 T with the class's relative width, the energy's stretches by the same factor; a
 * factor of 1 or less covers nothing */
static void test_cover(const dcsim_bands_t *b) {
  dcsim_band_basis q = { .cpu = DCSIM_BAND_CPU_OWN,
                         .time_kind = DCSIM_PROV_TABLE,
                         .energy_kind = DCSIM_PROV_TABLE,
                         .time_s = T,
                         .energy_j = E };
  dcsim_band_basis_cover_factor(&q, 1);
  CHECK(q.cover_s[0] == 0 && q.cover_s[1] == 0);
  dcsim_band_basis_cover_factor(&q, 3.2);
  CHECK_REL(q.cover_s[0], T, 0);
  CHECK_REL(q.cover_s[1], 3.2 * T, 1e-15);
  double tb[2], eb[2];
  dcsim_band_rule(b, &q, tb, eb);
  CHECK_REL(tb[0], T * (1 + BAND[0][0][0]), 1e-14);
  CHECK_REL(tb[1], 3.2 * T * (1 + BAND[0][0][1]), 1e-14);
  CHECK_REL(eb[0], E * (1 + BAND[0][0][0]) * (1 + BAND[2][0][0]), 1e-14);
  CHECK_REL(eb[1], 3.2 * E * (1 + BAND[0][0][1]) * (1 + BAND[2][0][1]), 1e-14);
  /* a cover below the time (an unmeasured turbo state, dcsim model) widens the low end */
  q.cover_s[0] = 0.5 * T, q.cover_s[1] = T;
  dcsim_band_rule(b, &q, tb, eb);
  CHECK_REL(tb[0], 0.5 * T * (1 + BAND[0][0][0]), 1e-14);
  CHECK_REL(tb[1], T * (1 + BAND[0][0][1]), 1e-14);
  CHECK_REL(eb[0], 0.5 * E * (1 + BAND[0][0][0]) * (1 + BAND[2][0][0]), 1e-14);
}

/* the CPU class of real profiles (doc/models.md "Per-core rates"): the E5-2697 v3 and the Gold
 * 6148 (measured tables) have their own; the 8480+ (no tables, a close variant's figures) and the
 * A64FX (its own published figures) are transferred; the EPYCs (a Zen 2 sibling's one-core
 * figures) and Grace (none: an estimate) are transferred on borrowed rates */
static void test_cpu_of(void) {
  static const struct {
    const char *name;
    dcsim_band_cpu cls;
    dcsim_rates_basis basis;
  } cases[] = {
    { "xeon-e5-2697v3", DCSIM_BAND_CPU_OWN, DCSIM_RATES_OWN },
    { "xeon-gold-6148", DCSIM_BAND_CPU_OWN, DCSIM_RATES_OWN },
    { "xeon-platinum-8480+", DCSIM_BAND_CPU_TRANSFERRED, DCSIM_RATES_VARIANT },
    { "fujitsu-a64fx", DCSIM_BAND_CPU_TRANSFERRED, DCSIM_RATES_OWN },
    { "epyc-9654", DCSIM_BAND_CPU_BORROWED, DCSIM_RATES_SIBLING },
    { "epyc-7763", DCSIM_BAND_CPU_BORROWED, DCSIM_RATES_SIBLING },
    { "nvidia-grace", DCSIM_BAND_CPU_BORROWED, DCSIM_RATES_ESTIMATE },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char path[512];
    snprintf(path, sizeof path, "%s/hw-profiles/cpu/%s.xml", DCSIM_SOURCE_DIR, cases[i].name);
    dcsim_cpu_profile_t *p = NULL;
    dcsim_error e;
    CHECK(dcsim_cpu_profile_load(path, &p, &e) == 0);
    if (!p) continue;
    unsigned levels = 0;
    CHECK(dcsim_band_cpu_of(p) == cases[i].cls);
    CHECK(dcsim_cpu_profile_rates_basis(p, &levels) == cases[i].basis);
    /* the levels resting on the weakest basis: none for its own tables, all four here else */
    CHECK(levels == (cases[i].cls == DCSIM_BAND_CPU_OWN ? 0u
                     : cases[i].basis == DCSIM_RATES_OWN
                         ? (1u << DCSIM_CPU_L1 | 1u << DCSIM_CPU_L2 | 1u << DCSIM_CPU_DRAM)
                         : (1u << DCSIM_CPU_L1 | 1u << DCSIM_CPU_L2 | 1u << DCSIM_CPU_L3 |
                            1u << DCSIM_CPU_DRAM)));
    dcsim_cpu_profile_free(p);
  }
}

/* a run's basis (dcsim_scenario_band_basis): ALARO's operational grid with ACRANEB2 on an A100
 * node, BiFFT on the Haswell group (its own D3.5 tables); the group rule puts CPU work on hsw
 * only (dcsim_scenario_cpu_group_used) */
static void test_scenario(void) {
  dcsim_error e;
  dcsim_scenario_opts o = { 0 };
  dcsim_scenario *s = NULL;
  CHECK(dcsim_scenario_load("workflows/alaro-operational-a100.xml", &o, &s, &e) == 0);
  if (!s) return;
  dcsim_band_basis q;
  dcsim_scenario_band_basis(s, &q);
  CHECK(q.cpu == DCSIM_BAND_CPU_OWN);
  CHECK(q.gpu == 1);
  CHECK(q.time_s == 1 && q.energy_j == 1);
  CHECK(q.cover_s[0] == 0 && q.cover_s[1] == 0); /* no thread law continued */
  CHECK(s->n_groups == 2);
  CHECK(dcsim_scenario_cpu_group_used(s, 0) == 1);
  CHECK(dcsim_scenario_cpu_group_used(s, 1) == 0);
  dcsim_scenario_free(s);
}

/* a sweep's point takes the class of the profile it ran on, also one given by a path that the
 * catalogue does not hold (a recorded bench profile with its own tables), never a name looked up */
static void test_sweep_point(void) {
  static const char *const cpus[] = { "tests/data/bench/recorded/intel-r-xeon-r-processor.xml",
                                      "epyc-9654", "xeon-e5-2697v3" };
  dcsim_sweep_def d = { .input = "workflows/bifft.xml", .n_cpus = 3, .cpus = cpus };
  dcsim_sweep_t *sw = NULL;
  dcsim_error e;
  CHECK(dcsim_sweep_new(&d, &sw, &e) == 0);
  if (!sw) return;
  CHECK(dcsim_sweep_n_points(sw) == 3);
  for (size_t i = 0; i < dcsim_sweep_n_points(sw); i++) {
    const dcsim_sweep_point *p = &dcsim_sweep_points(sw)[i];
    /* the EPYC 9654: transferred on a sibling's per-core rates (2) */
    CHECK(dcsim_sweep_point_transferred(sw, i) == (strcmp(p->cpu, "epyc-9654") == 0 ? 2 : 0));
  }
  dcsim_sweep_free(sw);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  test_scenario();
  test_sweep_point();
  dcsim_bands_t *b = load_bands();
  CHECK(b != NULL);
  if (b) {
    test_classes(b);
    test_gpu(b);
    test_cover(b);
  }
  dcsim_bands_free(b);
  test_add_cpu();
  test_cpu_of();
  CHECK_DONE();
}
