/* test_cpu_rates.c - the parametric CPU model beneath the tables (dcsim/cpu_rates.h): thread
 * placement, the saturating socket rate, measured cells kept exact, the model anchored on the
 * nearest cell outside them, the second socket adding its bandwidth, turbo bins, spec-only
 * profiles, frequency names, and --d35's table-only rates. Run from the source root. */
#include <stdlib.h>

#include "check.h"
#include "dcsim/cpu_rates.h"
#include "dcsim/lib.h"

#define CPU "hw-profiles/cpu/"

static dcsim_cpu_profile_t *load_cpu(const char *path) {
  dcsim_error err = { 0 };
  dcsim_cpu_profile_t *p = NULL;
  int rc = dcsim_cpu_profile_load(path, &p, &err);
  CHECK_INT(rc, 0);
  if (rc) fprintf(stderr, "  %s:%d: %s\n", err.file, err.line, err.msg);
  return p;
}

/* one quantity at a state, with its provenance kind */
static double rate(const dcsim_cpu_profile_t *p, dcsim_cpu_qty q, double ghz, const char *label,
                   unsigned n, int want_kind) {
  dcsim_cpu_state s = { ghz, label, n };
  dcsim_prov pv;
  double v = 0;
  dcsim_error err = { 0 };
  int rc = dcsim_cpu_rate_at(p, q, &s, 0, &v, &pv, &err);
  CHECK_INT(rc, 0);
  if (rc) fprintf(stderr, "  %s %g GHz %u threads: %s\n", dcsim_cpu_qty_name(q), ghz, n, err.msg);
  if (!rc) CHECK_INT(pv.kind, want_kind);
  return v;
}

static double model(const dcsim_cpu_profile_t *p, dcsim_cpu_qty q, double ghz, const char *label,
                    unsigned n) {
  dcsim_cpu_state s = { ghz, label, n };
  double v = 0;
  dcsim_error err = { 0 };
  CHECK_INT(dcsim_cpu_model_value(p, q, &s, &v, &err), 0);
  return v;
}

static void test_placement_and_knee(void) {
  unsigned per[3];
  dcsim_cpu_split_threads(20, 14, 2, 0, per); /* compact: one socket full, then the next */
  CHECK_INT(per[0], 14);
  CHECK_INT(per[1], 6);
  dcsim_cpu_split_threads(5, 14, 2, 1, per); /* scatter: spread evenly */
  CHECK_INT(per[0], 3);
  CHECK_INT(per[1], 2);
  dcsim_cpu_split_threads(7, 4, 3, 0, per);
  CHECK_INT(per[0] + per[1] + per[2], 7);
  CHECK_INT(per[2], 0);
  /* private level: n x per-cycle x f; at f_nom/2 with freq-exp 0.5 the rate is 1/sqrt(2) */
  dcsim_cpu_perf_level lv = { 1, 48.5, 1, 0, 0, 0, 0, "spec: test", 0 };
  CHECK_REL(dcsim_cpu_level_socket(&lv, 2.6, 2.6, 3), 3 * 48.5 * 2.6e9, 1e-12);
  lv.freq_exp = 0.5;
  CHECK_REL(dcsim_cpu_level_socket(&lv, 2.6, 1.3, 1), 48.5 * 2.6e9 / sqrt(2), 1e-12);
  /* shared level: (x^-k + S^-k)^(-1/k): x at the ceiling gives S 2^(-1/k); far below, x; far above,
   * S; no overflow with a sharp knee */
  dcsim_cpu_perf_level sh = { 1, 10, 1, 1, 50e9, 0, 4, "spec: test", 0 };
  double x1 = 10 * 2.0e9;
  CHECK_REL(dcsim_cpu_level_socket(&sh, 2.0, 2.0, 1), x1 * pow(1 + pow(x1 / 50e9, 4), -0.25),
            1e-12);
  dcsim_cpu_perf_level at = sh;
  at.per_cycle = 12.5; /* 2 cores x 12.5 byte x 2 GHz = the 50 GB/s ceiling */
  CHECK_REL(dcsim_cpu_level_socket(&at, 2.0, 2.0, 2), 50e9 * pow(2, -0.25), 1e-12);
  sh.knee = 64;
  CHECK_REL(dcsim_cpu_level_socket(&sh, 2.0, 2.0, 1000), 50e9, 1e-9);
  CHECK_REL(dcsim_cpu_level_socket(&sh, 2.0, 2.0, 1), x1, 1e-9);
}

/* E5-2697 v3: cells exact, interpolation between them, the model beyond them anchored on the
 * nearest cell; the second socket doubles a one-socket rate; turbo bins of the second socket. */
static void test_haswell(void) {
  dcsim_cpu_profile_t *p = load_cpu(CPU "xeon-e5-2697v3.xml");
  if (!p) return;
  CHECK_REL(rate(p, DCSIM_CPU_DRAM, 2.6, NULL, 14, DCSIM_PROV_TABLE), 56.768e9, 1e-12);
  CHECK_REL(rate(p, DCSIM_CPU_L3, 2.2, NULL, 5, DCSIM_PROV_INTERPOLATED),
            (125.238e9 + 140.721e9) / 2, 1e-12);
  /* 20 threads = 14 + 6 on the second socket: table(14) x model(20) / model(14) */
  for (int q = 0; q < DCSIM_CPU_NQTY; q++) {
    double want = rate(p, (dcsim_cpu_qty)q, 2.6, NULL, 14, DCSIM_PROV_TABLE) *
                  model(p, (dcsim_cpu_qty)q, 2.6, NULL, 20) /
                  model(p, (dcsim_cpu_qty)q, 2.6, NULL, 14);
    CHECK_REL(rate(p, (dcsim_cpu_qty)q, 2.6, NULL, 20, DCSIM_PROV_EXTRAPOLATED), want, 1e-12);
  }
  /* a full second socket adds exactly the first socket's bandwidth (NUMA, compact placement) */
  CHECK_REL(rate(p, DCSIM_CPU_DRAM, 2.6, NULL, 28, DCSIM_PROV_EXTRAPOLATED), 2 * 56.768e9, 1e-12);
  CHECK_REL(rate(p, DCSIM_CPU_FLOPS, 2.0, NULL, 28, DCSIM_PROV_EXTRAPOLATED), 2 * 224e9, 1e-12);
  /* beyond the highest column: the peak scales with the clock from the 2.6 GHz cell */
  CHECK_REL(rate(p, DCSIM_CPU_FLOPS, 3.0, NULL, 7, DCSIM_PROV_EXTRAPOLATED), 145.6e9 * 3.0 / 2.6,
            1e-12);
  /* below the lowest: more slowly than the clock for DRAM (latency-bound single core) */
  double d1 = rate(p, DCSIM_CPU_DRAM, 1.0, NULL, 1, DCSIM_PROV_EXTRAPOLATED);
  CHECK(d1 < 8.639e9 && d1 > 8.639e9 * 1.0 / 1.2);
  /* turbo at 16 threads: the turbo column's 14-thread cell, the second socket's 2 cores at their
   * bin (3.6 GHz; Table 25: 28.8 GFLOP/s for 1 thread) */
  CHECK_REL(rate(p, DCSIM_CPU_FLOPS, 3.6, "turbo", 16, DCSIM_PROV_EXTRAPOLATED),
            358.4e9 + 2 * 8 * 3.6e9, 1e-9);
  CHECK_REL(
      dcsim_cpu_turbo_ghz(dcsim_cpu_profile_perf_model(p), &(dcsim_cpu_shape){ 14, 2, 2.6, 0 }, 3),
      3.4, 1e-12);
  /* --d35: D3.5's table-only rates, the state outside the table stays an error */
  dcsim_cpu_state s = { 2.6, NULL, 20 };
  dcsim_cpu_rates r;
  dcsim_error err = { 0 };
  CHECK_INT(dcsim_cpu_rates_at(p, &s, 1, &r, &err), DCSIM_ERANGE);
  CHECK(strstr(err.msg, "state outside table") != NULL);
  CHECK_INT(dcsim_cpu_rates_at(p, &s, 0, &r, &err), 0);
  CHECK_INT(r.prov.kind, DCSIM_PROV_EXTRAPOLATED);
  CHECK(r.has_l1 && r.has_l2 && r.has_l3);
  s.threads = 29; /* beyond the node: an error in both modes */
  CHECK_INT(dcsim_cpu_rates_at(p, &s, 0, &r, &err), DCSIM_ERANGE);
  /* frequency names resolved for this CPU */
  dcsim_cpu_state st = { 0, NULL, 1 };
  CHECK_INT(dcsim_cpu_profile_freq(p, "min", &st, &err), 0);
  CHECK_REL(st.ghz, 1.2, 0);
  CHECK_INT(dcsim_cpu_profile_freq(p, "max", &st, &err), 0);
  CHECK_REL(st.ghz, 2.6, 0);
  CHECK(st.label == NULL);
  CHECK_INT(dcsim_cpu_profile_freq(p, "nominal", &st, &err), 0);
  CHECK_REL(st.ghz, 2.6, 0);
  CHECK_INT(dcsim_cpu_profile_freq(p, "turbo", &st, &err), 0);
  CHECK_STR(st.label, "turbo");
  dcsim_cpu_profile_free(p);
}

/* Gold 6148 (one measured column, threads spread over both sockets): other clocks extrapolated,
 * 2.0 GHz slower than 2.4 in every quantity; a datasheet turbo state. */
static void test_gold(void) {
  dcsim_cpu_profile_t *p = load_cpu(CPU "xeon-gold-6148.xml");
  if (!p) return;
  CHECK(dcsim_cpu_profile_perf_model(p) && dcsim_cpu_profile_perf_model(p)->scatter);
  for (int q = 0; q < DCSIM_CPU_NQTY; q++) {
    double a = rate(p, (dcsim_cpu_qty)q, 2.4, NULL, 20, DCSIM_PROV_TABLE);
    double b = rate(p, (dcsim_cpu_qty)q, 2.0, NULL, 20, DCSIM_PROV_EXTRAPOLATED);
    CHECK(b < a);
  }
  CHECK_REL(rate(p, DCSIM_CPU_FLOPS, 2.0, NULL, 20, DCSIM_PROV_EXTRAPOLATED), 1536e9 * 2.0 / 2.4,
            1e-12);
  dcsim_cpu_state st = { 0, NULL, 1 };
  dcsim_error err = { 0 };
  CHECK_INT(dcsim_cpu_profile_freq(p, "turbo", &st, &err), 0);
  CHECK_REL(st.ghz, 3.7, 0); /* Intel ARK max turbo, calibration/xeon-gold-6148/machine.xml */
  CHECK_INT(dcsim_cpu_profile_freq(p, "min", &st, &err), 0);
  CHECK_REL(st.ghz, 2.4, 0); /* the lowest state is the measured nominal one */
  /* turbo is extrapolated (the model beneath the tables), faster in flops than 2.4 GHz */
  CHECK(rate(p, DCSIM_CPU_FLOPS, 3.7, "turbo", 20, DCSIM_PROV_EXTRAPOLATED) >
        rate(p, DCSIM_CPU_FLOPS, 2.4, NULL, 20, DCSIM_PROV_TABLE));
  dcsim_cpu_profile_free(p);
}

/* A profile without tables: the peak from the datasheet (spec) = cores x f x flop/cycle, DRAM
 * anchored on published measurements (extrapolated: <datasheet><measured>), at most the two
 * sockets' ceilings; a profile without model keeps D3.5's errors. */
static void test_spec(void) {
  dcsim_cpu_profile_t *p = load_cpu(CPU "epyc-9654.xml");
  if (!p) return;
  CHECK_REL(rate(p, DCSIM_CPU_FLOPS, 2.4, NULL, 192, DCSIM_PROV_SPEC), 192 * 2.4e9 * 16, 1e-12);
  const dcsim_cpu_perf_model *pm = dcsim_cpu_profile_perf_model(p);
  double dram = rate(p, DCSIM_CPU_DRAM, 2.4, NULL, 192, DCSIM_PROV_EXTRAPOLATED);
  CHECK(pm && dram <= 2 * pm->q[DCSIM_CPU_DRAM].sat_bps * (1 + 1e-12) &&
        dram > 1.5 * pm->q[DCSIM_CPU_DRAM].sat_bps);
  /* the turbo state with published bins: 3.7 GHz on one core, the measured 3.18 GHz
   * up to 48 and 2.86 GHz up to 96 active cores of a socket; compact: 192 = two full sockets */
  CHECK_REL(rate(p, DCSIM_CPU_FLOPS, 3.7, "turbo", 1, DCSIM_PROV_SPEC), 3.7e9 * 16, 1e-12);
  CHECK_REL(rate(p, DCSIM_CPU_FLOPS, 3.7, "turbo", 20, DCSIM_PROV_SPEC), 20 * 3.18e9 * 16, 1e-12);
  CHECK_REL(rate(p, DCSIM_CPU_FLOPS, 3.7, "turbo", 96, DCSIM_PROV_SPEC), 96 * 2.86e9 * 16, 1e-12);
  CHECK_REL(rate(p, DCSIM_CPU_FLOPS, 3.7, "turbo", 192, DCSIM_PROV_SPEC), 192 * 2.86e9 * 16, 1e-12);
  /* the turbo state without bins (EPYC 7763: no all-core clock found): one clock everywhere */
  dcsim_cpu_profile_t *m = load_cpu(CPU "epyc-7763.xml");
  if (m) {
    CHECK_REL(rate(m, DCSIM_CPU_FLOPS, 3.5, "turbo", 64, DCSIM_PROV_SPEC), 64 * 3.5e9 * 16, 1e-12);
    dcsim_cpu_profile_free(m);
  }
  dcsim_cpu_rates r;
  dcsim_error err = { 0 };
  CHECK_INT(dcsim_cpu_rates_at(p, &(dcsim_cpu_state){ 2.4, NULL, 8 }, 0, &r, &err), 0);
  CHECK_INT(r.prov.kind, DCSIM_PROV_SPEC);
  CHECK_INT(r.qprov[DCSIM_CPU_FLOPS].kind, DCSIM_PROV_SPEC); /* each quantity its own */
  CHECK_INT(r.qprov[DCSIM_CPU_DRAM].kind, DCSIM_PROV_EXTRAPOLATED);
  CHECK(r.has_l1 && r.has_l2 && r.has_l3);
  /* under --d35 a spec-only profile has no tables to answer from */
  CHECK_INT(dcsim_cpu_rates_at(p, &(dcsim_cpu_state){ 2.4, NULL, 8 }, 1, &r, &err), DCSIM_EREF);
  dcsim_cpu_profile_free(p);
  /* the roofline-fd Xeon has tables but no model: outside them, D3.5's error as before */
  p = load_cpu(CPU "xeon-e5-2697v2.xml");
  if (!p) return;
  CHECK_INT(dcsim_cpu_rates_at(p, &(dcsim_cpu_state){ 2.7, NULL, 12 }, 0, &r, &err), DCSIM_ERANGE);
  dcsim_cpu_profile_free(p);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  test_placement_and_knee();
  test_haswell();
  test_gold();
  test_spec();
  CHECK_DONE();
}
