/* fit-gpu-small-domain — fits the small-domain correction of the GPU model (dcsim/fit_gpu.h) to
 * the profiled whole-dwarf times of one GPU (calibration/geforce-gtx970/acraneb2-runs.csv, D3.5
 * Tables 4/18) and reports the error per size before and after the correction.
 *
 * usage: fit-gpu-small-domain DWARF GPU RUNS.csv (--xml | --check | --report)
 *   --xml     prints the <small-domain> element for the GPU profile
 *   --check   exits 1 unless the profile holds the fitted parameters (to 1e-3, relative)
 *   --report  prints the Markdown table of doc/validation.md: per size the profiled time, the
 *             D3.5 model and the corrected model (with the profile's parameters) and their errors,
 *             and the leave-one-out error (refitted without that size, then predicted) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"
#include "dcsim/csv.h"
#include "dcsim/fit_gpu.h"
#include "dcsim/model.h"

#define MAX_RUNS 64

static int die(const dcsim_error *e) {
  char b[2048];
  dcsim_error_format(e, b, sizeof b);
  fprintf(stderr, "fit-gpu-small-domain: %s\n", b);
  return 2;
}

static int model_time(const dcsim_dwarf_t *d, const char *cs, const dcsim_gpu_profile_t *gpu,
                      int small, double *n_out, double *t_out, dcsim_error *err) {
  dcsim_dwarf_eval *ev = NULL;
  int rc = dcsim_dwarf_evaluate(d, cs, NULL, 0, &ev, err);
  if (rc) return rc;
  dcsim_model_req rq;
  memset(&rq, 0, sizeof rq);
  rq.ev = ev;
  rq.gpu = gpu;
  rq.gpu_small_domain = small;
  rq.flags = DCSIM_MODEL_D35; /* the correction belongs to D3.5's model */
  rq.energy_form = DCSIM_ENERGY_NONE;
  dcsim_prediction p;
  if (!(rc = dcsim_model_run(&rq, &p, err))) {
    *t_out = p.time_s;
    *n_out = ev->domain_size;
    dcsim_prediction_release(&p);
  }
  dcsim_dwarf_eval_free(ev);
  return rc;
}

int main(int argc, char **argv) {
  if (argc != 5 ||
      (strcmp(argv[4], "--xml") && strcmp(argv[4], "--check") && strcmp(argv[4], "--report"))) {
    fprintf(stderr,
            "usage: fit-gpu-small-domain DWARF GPU RUNS.csv (--xml | --check | --report)\n");
    return 2;
  }
  dcsim_error err;
  char dpath[4096], gpath[4096];
  dcsim_dwarf_t *d = NULL;
  dcsim_gpu_profile_t *gpu = NULL;
  dcsim_csv_t *csv = NULL;
  if (dcsim_catalog_resolve(DCSIM_KIND_DWARF, argv[1], NULL, 0, dpath, sizeof dpath, &err) ||
      dcsim_dwarf_load(dpath, &d, &err) ||
      dcsim_catalog_resolve(DCSIM_KIND_GPU, argv[2], NULL, 0, gpath, sizeof gpath, &err) ||
      dcsim_gpu_profile_load(gpath, &gpu, &err) || dcsim_csv_load(argv[3], &csv, &err))
    return die(&err);
  size_t c_case, c_t;
  if (dcsim_csv_col(csv, "case", &c_case, &err) || dcsim_csv_col(csv, "time_s", &c_t, &err))
    return die(&err);
  size_t n = dcsim_csv_rows(csv);
  if (n > MAX_RUNS) n = MAX_RUNS;
  dcsim_gpu_size_obs obs[MAX_RUNS];
  for (size_t r = 0; r < n; r++) {
    if (dcsim_csv_num(csv, r, c_t, &obs[r].measured_s, &err) ||
        model_time(d, dcsim_csv_cell(csv, r, c_case), gpu, 0, &obs[r].domain_size, &obs[r].model_s,
                   &err))
      return die(&err);
  }
  const dcsim_gpu_spec *g = dcsim_gpu_profile_spec(gpu);
  dcsim_dwarf_eval *ev0 = NULL;
  if (dcsim_dwarf_evaluate(d, dcsim_csv_cell(csv, 0, c_case), NULL, 0, &ev0, &err))
    return die(&err);
  double launches = (double)ev0->n_kernels * ev0->invocations; /* kernel launches per call */
  dcsim_dwarf_eval_free(ev0);
  dcsim_gpu_small_fit fit;
  if (dcsim_fit_gpu_small_domain(obs, n, g->sm, launches, &fit, &err)) return die(&err);
  int status = 0;
  if (strcmp(argv[4], "--xml") == 0) {
    printf(
        "  <small-domain launch-s=\"%.4g\" saturation-threads-per-sm=\"%.4g\" source=\"fitted: "
        "tools/derive/fit_gpu_small_domain.c, %s on %s, the %zu profiled times of D3.5 Table 4 (= "
        "Table 18 T prof); "
        "least squares of the relative errors, mean |error| %.2f %%\"/>\n",
        fit.launch_s, fit.saturation_threads_per_sm, dcsim_dwarf_name(d),
        dcsim_gpu_profile_name(gpu), n, 100 * fit.mean_abs_rel);
  } else if (strcmp(argv[4], "--check") == 0) {
    if (!g->has_small_domain || fabs(g->launch_s - fit.launch_s) > 1e-3 * fit.launch_s ||
        fabs(g->saturation_threads_per_sm - fit.saturation_threads_per_sm) >
            1e-3 * fit.saturation_threads_per_sm) {
      fprintf(stderr,
              "%s: <small-domain> holds launch-s %g, saturation %g; the fit gives %.4g, %.4g "
              "(rerun with --xml)\n",
              gpath, g->launch_s, g->saturation_threads_per_sm, fit.launch_s,
              fit.saturation_threads_per_sm);
      status = 1;
    } else {
      printf("%s holds the fitted small-domain parameters\n", gpath);
    }
  } else {
    printf(
        "| case | N | profiled [s] | D3.5 model [s] | error | corrected [s] | error | "
        "leave-one-out error |\n"
        "|---|---|---|---|---|---|---|---|\n");
    double sum0 = 0, sum1 = 0, sum2 = 0, max0 = 0, max1 = 0, max2 = 0;
    for (size_t r = 0; r < n; r++) {
      double nn, t1;
      if (model_time(d, dcsim_csv_cell(csv, r, c_case), gpu, 1, &nn, &t1, &err)) return die(&err);
      /* leave-one-out: refit without size r, predict it */
      dcsim_gpu_size_obs rest[MAX_RUNS];
      size_t k = 0;
      for (size_t q = 0; q < n; q++)
        if (q != r) rest[k++] = obs[q];
      dcsim_gpu_small_fit lf;
      if (dcsim_fit_gpu_small_domain(rest, k, g->sm, launches, &lf, &err)) return die(&err);
      double t2 = dcsim_gpu_small_time(obs[r].model_s, obs[r].domain_size, g->sm, launches,
                                       lf.launch_s, lf.saturation_threads_per_sm);
      double e0 = (obs[r].model_s - obs[r].measured_s) / obs[r].measured_s,
             e1 = (t1 - obs[r].measured_s) / obs[r].measured_s,
             e2 = (t2 - obs[r].measured_s) / obs[r].measured_s;
      sum0 += fabs(e0) / n;
      sum1 += fabs(e1) / n;
      sum2 += fabs(e2) / n;
      if (fabs(e0) > max0) max0 = fabs(e0);
      if (fabs(e1) > max1) max1 = fabs(e1);
      if (fabs(e2) > max2) max2 = fabs(e2);
      printf("| %s | %.6g | %.3g | %.4g | %+.2f%% | %.4g | %+.2f%% | %+.2f%% |\n",
             dcsim_csv_cell(csv, r, c_case), nn, obs[r].measured_s, obs[r].model_s, 100 * e0, t1,
             100 * e1, 100 * e2);
    }
    printf(
        "\nMean |error| %.2f%% before, %.2f%% after (%.2f%% leave-one-out); largest %.2f%% before, "
        "%.2f%% after "
        "(%.2f%% leave-one-out). Profile parameters: launch-s %.4g, saturation-threads-per-sm %.4g "
        "(%u SM: full "
        "occupancy from N = %.0f).\n",
        100 * sum0, 100 * sum1, 100 * sum2, 100 * max0, 100 * max1, 100 * max2, g->launch_s,
        g->saturation_threads_per_sm, g->sm, g->sm * g->saturation_threads_per_sm);
  }
  dcsim_csv_free(csv);
  dcsim_dwarf_free(d);
  dcsim_gpu_profile_free(gpu);
  return status;
}
