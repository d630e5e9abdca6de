/* test_perf_fit.c - fitting the parametric CPU model (dcsim/fit_perf.h): parameters recovered
 * from cells the model itself generated (every one fitted with three frequencies and 1..10
 * threads), what one frequency cannot determine taken from the reference, a datasheet-only
 * machine derived from the reference, turbo bins from a turbo column, and the errors when a
 * figure is missing. */
#include <stdlib.h>

#include "check.h"
#include "dcsim/cpu_rates.h"
#include "dcsim/fit_perf.h"
#include "dcsim/lib.h"

static const dcsim_cpu_perf_level TRUTH[DCSIM_CPU_NQTY] = {
  { 1, 16, 1, 0, 0, 0, 0, "spec: truth", 0 },             /* peak */
  { 1, 47.5, 1.02, 0, 0, 0, 0, "spec: truth", 0 },        /* L1 */
  { 1, 29.25, 0.97, 0, 0, 0, 0, "spec: truth", 0 },       /* L2 */
  { 1, 12.5, 0.85, 1, 150e9, 0.55, 6, "spec: truth", 0 }, /* L3 */
  { 1, 5.25, 0.45, 1, 61e9, 0.05, 9, "spec: truth", 0 }   /* DRAM */
};

/* cells of the true model: threads 1..10 (one socket of 10) at the given frequencies */
static size_t make_cells(const dcsim_perf_machine *m, const double *ghz, size_t nf,
                         dcsim_perf_obs *obs) {
  dcsim_cpu_perf_model pm = { 0 };
  memcpy(pm.q, TRUTH, sizeof pm.q);
  dcsim_cpu_shape sh = { m->cores_per_socket, m->sockets, m->nominal_ghz, 0 };
  size_t n = 0;
  for (int q = 0; q < DCSIM_CPU_NQTY; q++)
    for (size_t f = 0; f < nf; f++)
      for (unsigned t = 1; t <= 10; t++)
        obs[n++] =
            (dcsim_perf_obs){ (dcsim_cpu_qty)q, ghz[f], 0, t,
                              dcsim_cpu_model_eval(&pm, &sh, (dcsim_cpu_qty)q, ghz[f], 0, t) };
  return n;
}

static void test_recover(dcsim_perf_fit *fit) {
  dcsim_perf_machine m = {
    .name = "synthetic", .cores_per_socket = 10, .sockets = 2, .nominal_ghz = 2.0
  };
  m.ds.mem_peak_bps = 80e9;
  m.ds.mem_source = "test";
  for (int q = 0; q < DCSIM_CPU_NQTY; q++) m.table_source[q] = "synthetic table";
  static const double ghz[] = { 1.5, 2.0, 2.5 };
  dcsim_perf_obs obs[5 * 3 * 10];
  size_t n = make_cells(&m, ghz, 3, obs);
  dcsim_error err = { 0 };
  CHECK_INT(dcsim_perf_fit_run(&m, obs, n, NULL, fit, &err), 0);
  for (int q = 0; q < DCSIM_CPU_NQTY; q++) {
    const dcsim_cpu_perf_level *lv = &fit->model.q[q], *t = &TRUTH[q];
    CHECK(lv->present);
    CHECK_REL(lv->per_cycle, t->per_cycle, 1e-4);
    CHECK_REL(lv->freq_exp, t->freq_exp, 1e-4);
    CHECK_INT(lv->saturates, t->saturates);
    if (t->saturates) {
      CHECK_REL(lv->sat_bps, t->sat_bps, 1e-3);
      CHECK_ABS(lv->sat_freq_exp, t->sat_freq_exp, 1e-3);
      CHECK_REL(lv->knee, t->knee, 1e-2);
    }
    CHECK(fit->rep[q].n_cells == 30 && fit->rep[q].max_rel < 1e-6);
    CHECK(strncmp(lv->source, "fitted to synthetic table", 25) == 0);
  }
  CHECK_STR(fit->rep[DCSIM_CPU_L3].fitted, "per-cycle, freq-exp, sat-bps, sat-freq-exp, knee");
  CHECK_STR(fit->rep[DCSIM_CPU_L3].assumed, "");
}

/* One frequency: the exponents cannot be fitted and come from the reference, named as assumed. */
static void test_one_frequency(const dcsim_perf_fit *ref) {
  dcsim_perf_machine m = {
    .name = "one-freq", .cores_per_socket = 10, .sockets = 2, .nominal_ghz = 2.0
  };
  static const double ghz[] = { 2.0 };
  dcsim_perf_obs obs[5 * 10];
  size_t n = make_cells(&m, ghz, 1, obs);
  dcsim_perf_fit *fit = malloc(sizeof *fit);
  dcsim_error err = { 0 };
  CHECK(fit && dcsim_perf_fit_run(&m, obs, n, ref, fit, &err) == 0);
  if (fit) {
    CHECK_REL(fit->model.q[DCSIM_CPU_DRAM].freq_exp, ref->model.q[DCSIM_CPU_DRAM].freq_exp, 1e-12);
    CHECK_REL(fit->model.q[DCSIM_CPU_DRAM].per_cycle, TRUTH[DCSIM_CPU_DRAM].per_cycle, 1e-4);
    CHECK_REL(fit->model.q[DCSIM_CPU_DRAM].sat_bps, TRUTH[DCSIM_CPU_DRAM].sat_bps, 1e-3);
    CHECK(strstr(fit->rep[DCSIM_CPU_DRAM].assumed, "freq-exp 0.45 (synthetic: one frequency)"));
    CHECK(strstr(fit->rep[DCSIM_CPU_DRAM].assumed, "sat-freq-exp"));
  }
  free(fit);
}

/* A datasheet only: the peak from the ISA, rates carried from the reference, the DRAM ceiling its
 * sustained fraction of peak times this peak; every level flagged spec. Missing figures are
 * errors naming them. */
static void test_datasheet(const dcsim_perf_fit *ref) {
  dcsim_perf_machine m = {
    .name = "sheet", .cores_per_socket = 40, .sockets = 2, .nominal_ghz = 2.5
  };
  m.ds.isa_flop_per_cycle = 32;
  m.ds.isa_source = "test isa";
  m.ds.mem_peak_bps = 200e9;
  m.ds.mem_source = "test memory";
  dcsim_perf_fit *fit = malloc(sizeof *fit);
  dcsim_error err = { 0 };
  CHECK(fit && dcsim_perf_fit_run(&m, NULL, 0, ref, fit, &err) == 0);
  if (fit) {
    const dcsim_cpu_perf_model *pm = &fit->model;
    CHECK_REL(pm->q[DCSIM_CPU_FLOPS].per_cycle, 32, 0);
    CHECK_REL(pm->q[DCSIM_CPU_DRAM].sat_bps, 200e9 * 61e9 / 80e9, 1e-3);
    CHECK_REL(pm->q[DCSIM_CPU_L3].sat_bps, 150e9 * 4 * pow(2.5 / 2.0, 0.55), 1e-3);
    /* the reference's per-core law r(f) carried: at 2.5 GHz, pc_ref (2.5/2)^(d-1) per cycle */
    CHECK_REL(pm->q[DCSIM_CPU_L2].per_cycle, 29.25 * pow(1.25, 0.97 - 1), 1e-4);
    for (int q = 0; q < DCSIM_CPU_NQTY; q++) CHECK(strncmp(pm->q[q].source, "spec: ", 6) == 0);
  }
  m.ds.isa_flop_per_cycle = 0;
  CHECK_INT(dcsim_perf_fit_run(&m, NULL, 0, ref, fit, &err), DCSIM_EREF);
  CHECK(strstr(err.msg, "flop-per-cycle") != NULL);
  m.ds.isa_flop_per_cycle = 32;
  CHECK_INT(dcsim_perf_fit_run(&m, NULL, 0, NULL, fit, &err), DCSIM_EREF);
  CHECK(strstr(err.msg, "reference") != NULL);
  free(fit);
}

/* Turbo bins from the peak's turbo column: clock = cell / (cores x flop per cycle), equal clocks
 * merged. */
static void test_turbo(void) {
  dcsim_perf_machine m = {
    .name = "turbo", .cores_per_socket = 14, .sockets = 2, .nominal_ghz = 2.6
  };
  dcsim_perf_obs obs[2 + 14];
  size_t n = 0;
  obs[n++] = (dcsim_perf_obs){ DCSIM_CPU_FLOPS, 2.6, 0, 1, 20.8e9 };
  obs[n++] = (dcsim_perf_obs){ DCSIM_CPU_FLOPS, 2.6, 0, 14, 291.2e9 };
  static const double clk[] = {
    3.6, 3.6, 3.4, 3.4, 3.2, 3.2, 3.2, 3.2, 3.2, 3.2, 3.2, 3.2, 3.2, 3.2
  };
  for (unsigned t = 1; t <= 14; t++)
    obs[n++] = (dcsim_perf_obs){ DCSIM_CPU_FLOPS, 0, 1, t, t * 8 * clk[t - 1] * 1e9 };
  dcsim_perf_fit *fit = malloc(sizeof *fit);
  dcsim_error err = { 0 };
  /* no DRAM cells and no reference: an error naming what is missing */
  CHECK(fit && dcsim_perf_fit_run(&m, obs, n, NULL, fit, &err) == DCSIM_EREF);
  m.ds.mem_peak_bps = 68e9;
  dcsim_perf_obs more[2 + 14 + 1];
  memcpy(more, obs, sizeof obs);
  more[n] = (dcsim_perf_obs){ DCSIM_CPU_DRAM, 2.6, 0, 1, 13e9 };
  if (fit && dcsim_perf_fit_run(&m, more, n + 1, NULL, fit, &err) == 0) {
    CHECK_INT(fit->model.n_turbo, 3);
    CHECK_INT(fit->model.turbo[0].cores, 2);
    CHECK_REL(fit->model.turbo[0].ghz, 3.6, 1e-12);
    CHECK_INT(fit->model.turbo[2].cores, 14);
    CHECK_REL(fit->model.turbo[2].ghz, 3.2, 1e-12);
    /* one DRAM cell: the ceiling is the highest measured rate (nothing else known), assumed */
    CHECK_REL(fit->model.q[DCSIM_CPU_DRAM].sat_bps, 13e9, 1e-12);
    CHECK(strstr(fit->rep[DCSIM_CPU_DRAM].assumed, "highest measured") != NULL);
  } else {
    CHECK(0);
  }
  free(fit);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  dcsim_perf_fit *ref = malloc(sizeof *ref);
  if (ref) {
    test_recover(ref);
    test_one_frequency(ref);
    test_datasheet(ref);
  }
  test_turbo();
  free(ref);
  CHECK_DONE();
}
