/* derive-bifft-split — distributes BiFFT's measured totals W, Q (D3.5 Table 38) over its 20 loops
 * with the LP of dcsim/fit.h so the §4.3 model reproduces the measured single-core times.
 *
 * usage: derive-bifft-split DWARF.xml CPU.xml RUNS.csv [--xml|--report]
 *   --xml     prints the per-loop formulas (from the case named by FORMULA_CASE) and the <override>
 *             elements of the other cases, to paste into dwarfs/bifft.xml
 *   --report  prints a Markdown table of the split and its residuals (doc/bifft-split.md) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/dwarf.h"
#include "dcsim/fit.h"
#include "dcsim/hwprofile.h"
#include "dcsim/lib.h"
#include "toolutil.h"
#include "util/csv.h"

#define FORMULA_CASE "200x180_525"

static int die(const dcsim_error *e) { return tool_die("derive-bifft-split", e, 1); }

int main(int argc, char **argv) {
  if (dcsim_lib_init() != 0) return 1;
  if (argc < 4) {
    fprintf(stderr, "usage: derive-bifft-split DWARF.xml CPU.xml RUNS.csv [--xml|--report]\n");
    return 2;
  }
  int xml = argc > 4 && strcmp(argv[4], "--xml") == 0;
  dcsim_error err;
  dcsim_dwarf_t *d = NULL;
  dcsim_cpu_profile_t *cpu = NULL;
  dcsim_csv_t *csv = NULL;
  if (dcsim_dwarf_load(argv[1], &d, &err) || dcsim_cpu_profile_load(argv[2], &cpu, &err) ||
      dcsim__csv_load(argv[3], &csv, &err))
    return die(&err);
  size_t c_case, c_thr, c_f, c_w, c_q, c_t;
  if (dcsim__csv_col(csv, "case", &c_case, &err) || dcsim__csv_col(csv, "threads", &c_thr, &err) ||
      dcsim__csv_col(csv, "freq_ghz", &c_f, &err) ||
      dcsim__csv_col(csv, "work_gflop", &c_w, &err) ||
      dcsim__csv_col(csv, "traffic_gb", &c_q, &err) || dcsim__csv_col(csv, "time_s", &c_t, &err))
    return die(&err);
  if (!xml) {
    printf(
        "| case | loop | W [flop] | Q [byte] | W*Tflop [s] | Q*Tmop [s] "
        "|\n|---|---|---|---|---|---|\n");
  }
  for (size_t r = 0; r < dcsim__csv_rows(csv); r++) {
    double thr, f, w, q, t;
    if (dcsim__csv_num(csv, r, c_thr, &thr, &err) || dcsim__csv_num(csv, r, c_f, &f, &err) ||
        dcsim__csv_num(csv, r, c_w, &w, &err) || dcsim__csv_num(csv, r, c_q, &q, &err) ||
        dcsim__csv_num(csv, r, c_t, &t, &err))
      return die(&err);
    if (thr != 1) continue; /* the split is fitted on the single-core runs */
    const char *cs = dcsim__csv_cell(csv, r, c_case);
    dcsim_dwarf_eval *ev = NULL;
    if (dcsim_dwarf_evaluate(d, cs, NULL, 0, &ev, &err)) return die(&err);
    dcsim_cpu_state st = { f, NULL, 1 };
    dcsim_cpu_rates rt;
    if (dcsim_cpu_profile_rates(cpu, &st, &rt, &err)) return die(&err);
    size_t n = ev->n_loops;
    dcsim_split_loop *sl = calloc(n, sizeof *sl);
    double *wo = calloc(n, sizeof *wo), *qo = calloc(n, sizeof *qo);
    if (!sl || !wo || !qo) return 3;
    for (size_t l = 0; l < n; l++) {
      const dcsim_cpu_loop *lp = &ev->loops[l];
      sl[l].flop_rate = lp->has_flop ? rt.flops * lp->U + lp->S_flops : 0; /* §6.1.2: 1/Tflop */
      sl[l].byte_rate = rt.l1_bps * lp->V + rt.l2_bps * lp->X + rt.l3_bps * lp->Y +
                        rt.dram_bps * lp->Z; /* §4.3: 1/Tmop */
    }
    dcsim_split_result res;
    if (dcsim_fit_split(sl, n, w * 1e9, q * 1e9, t, wo, qo, &res, &err)) return die(&err);
    /* per grid point, field and iteration: the formulas scale the split with NX*NY*FIELDS*ITER */
    double points = 1;
    const char *pn[] = { "NX", "NY", "FIELDS", "ITER" };
    for (size_t p = 0; p < 4; p++) {
      double v;
      if (dcsim_dwarf_case_value(d, cs, pn[p], &v, &err)) return die(&err);
      points *= v;
    }
    for (size_t l = 0; l < n;
         l++) { /* LP round-off: below a millionth of a byte per point is zero */
      if (wo[l] < 1e-6 * points) wo[l] = 0;
      if (qo[l] < 1e-6 * points) qo[l] = 0;
    }
    if (xml) {
      printf(
          "<!-- case %s: measured %.6g s, model %.6g s, residual %.3g s, L1 distance from even "
          "split %.4f -->\n",
          cs, t, res.model_time_s, res.residual_s, res.distance);
      for (size_t l = 0; l < n; l++) {
        if (strcmp(cs, FORMULA_CASE) == 0) {
          printf("FORMULA\t%s\tNX*NY*FIELDS*ITER*%.10g\tNX*NY*FIELDS*ITER*%.10g\n",
                 ev->loops[l].name, wo[l] / points, qo[l] / points);
        } else {
          printf(
              "    <override loop=\"%s\" work-flop=\"%.10g\" traffic-byte=\"%.10g\" "
              "source=\"derived: LP split of D3.5 Table 38 totals "
              "(tools/derive/derive_bifft_split.c, doc/bifft-split.md)\"/>\n",
              ev->loops[l].name, wo[l], qo[l]);
        }
      }
    } else {
      for (size_t l = 0; l < n; l++)
        printf("| %s | %s | %.4e | %.4e | %.4e | %.4e |\n", cs, ev->loops[l].name, wo[l], qo[l],
               sl[l].flop_rate > 0 ? wo[l] / sl[l].flop_rate : 0, qo[l] / sl[l].byte_rate);
      /* round-off below a nanosecond per second is printed as 0 so the report is stable */
      double resid = fabs(res.residual_s) < 1e-9 * t ? 0 : res.residual_s;
      printf(
          "| %s | **total** | %.4e | %.4e | model %.6g s | measured %.6g s (residual %.3g s) |\n",
          cs, w * 1e9, q * 1e9, res.model_time_s, t, resid);
    }
    free(sl);
    free(wo);
    free(qo);
    dcsim_dwarf_eval_free(ev);
  }
  dcsim__csv_free(csv);
  dcsim_cpu_profile_free(cpu);
  dcsim_dwarf_free(d);
  return 0;
}
