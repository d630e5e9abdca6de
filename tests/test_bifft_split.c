/* test_bifft_split.c - dwarfs/bifft.xml holds what its documented derivation produces: for every
 * single-core run of calibration/xeon-e5-2697v3/bifft-runs.csv (D3.5 Table 38) the LP split of
 * dcsim_fit_split(), computed exactly as tools/derive/derive_bifft_split.c does, equals the W and Q
 * per loop that the dwarf gives for that case. Also: the 200x180_525 formulas scale to the "alaro"
 * case (640 fields, 1 iteration). Run from the source root. */
#include <stdlib.h>

#include "check.h"
#include "dcsim/dwarf.h"
#include "dcsim/fit.h"
#include "dcsim/hwprofile.h"
#include "dcsim/lib.h"
#include "util/csv.h"

#define DWARF "dwarfs/bifft.xml"
#define CPU   "hw-profiles/cpu/xeon-e5-2697v3.xml"
#define RUNS  "calibration/xeon-e5-2697v3/bifft-runs.csv"

/* a equals b to 1e-6 relative, or both are below 1e-6 of the total (LP round-off set to zero) */
static void check_same(const char *what, const char *cs, const char *loop, double got, double want,
                       double total) {
  check_count++;
  double d = fabs(got - want);
  if (d <= 1e-6 * fabs(want) || (fabs(got) < 1e-6 * total && fabs(want) < 1e-6 * total)) return;
  check_failures++;
  fprintf(stderr, "%s:%d: case %s loop %s: %s in " DWARF " = %.10g, LP split = %.10g\n", __FILE__,
          __LINE__, cs, loop, what, got, want);
}

static int split_case(const dcsim_dwarf_t *d, const dcsim_cpu_profile_t *cpu, const char *cs,
                      double ghz, double w_gflop, double q_gb, double t_s, int *n_checked) {
  dcsim_error err = { 0 };
  dcsim_dwarf_eval *ev = NULL;
  dcsim_split_loop *sl = NULL;
  double *wo = NULL, *qo = NULL;
  int rc = dcsim_dwarf_evaluate(d, cs, NULL, 0, &ev, &err);
  if (rc) goto out;
  dcsim_cpu_state st = { ghz, NULL, 1 };
  dcsim_cpu_rates rt;
  if ((rc = dcsim_cpu_profile_rates(cpu, &st, &rt, &err))) goto out;
  size_t n = ev->n_loops;
  sl = calloc(n, sizeof *sl);
  wo = calloc(n, sizeof *wo);
  qo = calloc(n, sizeof *qo);
  if (!sl || !wo || !qo) {
    rc = -1;
    goto out;
  }
  for (size_t l = 0; l < n; l++) { /* as derive_bifft_split.c */
    const dcsim_cpu_loop *lp = &ev->loops[l];
    sl[l].flop_rate = lp->has_flop ? rt.flops * lp->U + lp->S_flops : 0; /* §6.1.2: 1/Tflop */
    sl[l].byte_rate = rt.l1_bps * lp->V + rt.l2_bps * lp->X + rt.l3_bps * lp->Y +
                      rt.dram_bps * lp->Z; /* §4.3: 1/Tmop */
  }
  dcsim_split_result res;
  if ((rc = dcsim_fit_split(sl, n, w_gflop * 1e9, q_gb * 1e9, t_s, wo, qo, &res, &err))) goto out;
  CHECK(fabs(res.residual_s) < 1e-9 * t_s); /* the model reproduces the measured time */
  double points = 1;
  const char *pn[] = { "NX", "NY", "FIELDS", "ITER" };
  for (size_t p = 0; p < 4; p++) {
    double v;
    if ((rc = dcsim_dwarf_case_value(d, cs, pn[p], &v, &err))) goto out;
    points *= v;
  }
  double wsum = 0, qsum = 0;
  for (size_t l = 0; l < n; l++) {
    if (wo[l] < 1e-6 * points)
      wo[l] = 0; /* as the derivation: LP round-off below 1e-6 B/point is zero */
    if (qo[l] < 1e-6 * points) qo[l] = 0;
    check_same("W", cs, ev->loops[l].name, ev->loops[l].work_flop, wo[l], w_gflop * 1e9);
    check_same("Q", cs, ev->loops[l].name, ev->loops[l].traffic_byte, qo[l], q_gb * 1e9);
    /* every loop memory-bound (D3.5 §6.1.2) */
    if (sl[l].flop_rate > 0) CHECK(wo[l] / sl[l].flop_rate <= qo[l] / sl[l].byte_rate * (1 + 1e-9));
    wsum += ev->loops[l].work_flop;
    qsum += ev->loops[l].traffic_byte;
  }
  CHECK_REL(wsum, w_gflop * 1e9, 1e-6); /* D3.5 Table 38 totals */
  CHECK_REL(qsum, q_gb * 1e9, 1e-6);
  (*n_checked)++;
out:
  if (rc) fprintf(stderr, "case %s: %s:%d: %s\n", cs, err.file, err.line, err.msg);
  CHECK_INT(rc, 0);
  free(sl);
  free(wo);
  free(qo);
  dcsim_dwarf_eval_free(ev);
  return rc;
}

static void test_alaro(const dcsim_dwarf_t *d) {
  dcsim_error err = { 0 };
  dcsim_dwarf_eval *e525 = NULL, *ea = NULL;
  if (dcsim_dwarf_evaluate(d, "200x180_525", NULL, 0, &e525, &err) ||
      dcsim_dwarf_evaluate(d, "alaro", NULL, 0, &ea, &err)) {
    fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.msg);
    CHECK(0);
  } else {
    CHECK_INT(ea->n_loops, e525->n_loops);
    for (size_t l = 0; l < ea->n_loops; l++) {
      /* §6.2: 640 fields instead of 525, the same 100 iterations (doc/models.md) */
      CHECK_REL(ea->loops[l].work_flop + 1, e525->loops[l].work_flop * 640.0 / 525 + 1, 1e-12);
      CHECK_REL(ea->loops[l].traffic_byte + 1, e525->loops[l].traffic_byte * 640.0 / 525 + 1,
                1e-12);
    }
  }
  dcsim_dwarf_eval_free(e525);
  dcsim_dwarf_eval_free(ea);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  dcsim_error err = { 0 };
  dcsim_dwarf_t *d = NULL;
  dcsim_cpu_profile_t *cpu = NULL;
  dcsim_csv_t *csv = NULL;
  if (dcsim_dwarf_load(DWARF, &d, &err) || dcsim_cpu_profile_load(CPU, &cpu, &err) ||
      dcsim__csv_load(RUNS, &csv, &err)) {
    fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.msg);
    CHECK(0);
    goto out;
  }
  size_t c_case, c_thr, c_f, c_w, c_q, c_t;
  if (dcsim__csv_col(csv, "case", &c_case, &err) || dcsim__csv_col(csv, "threads", &c_thr, &err) ||
      dcsim__csv_col(csv, "freq_ghz", &c_f, &err) ||
      dcsim__csv_col(csv, "work_gflop", &c_w, &err) ||
      dcsim__csv_col(csv, "traffic_gb", &c_q, &err) || dcsim__csv_col(csv, "time_s", &c_t, &err)) {
    fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.msg);
    CHECK(0);
    goto out;
  }
  int n_checked = 0;
  for (size_t r = 0; r < dcsim__csv_rows(csv); r++) {
    double thr, f, w, q, t;
    if (dcsim__csv_num(csv, r, c_thr, &thr, &err) || dcsim__csv_num(csv, r, c_f, &f, &err) ||
        dcsim__csv_num(csv, r, c_w, &w, &err) || dcsim__csv_num(csv, r, c_q, &q, &err) ||
        dcsim__csv_num(csv, r, c_t, &t, &err)) {
      fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.msg);
      CHECK(0);
      continue;
    }
    if (thr != 1) continue; /* the split is fitted on the single-core runs */
    split_case(d, cpu, dcsim__csv_cell(csv, r, c_case), f, w, q, t, &n_checked);
  }
  CHECK_INT(n_checked, 3); /* 200x180_20, 200x180_525, 800x720_20 (D3.5 Table 38) */
  test_alaro(d);
out:
  dcsim__csv_free(csv);
  dcsim_cpu_profile_free(cpu);
  dcsim_dwarf_free(d);
  CHECK_DONE();
}
