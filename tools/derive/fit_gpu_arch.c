/* fit-gpu-arch — fits the launch and occupancy terms of the default GPU model (the dwarf's
 * <launch>, dcsim/model_gpu.h, dcsim/fit_gpu.h) to the profiled whole-dwarf times of ONE GPU
 * (calibration/geforce-gtx970/acraneb2-runs.csv, D3.5 Table 4) and reports the fit, its
 * leave-one-size-out error and the predictions for other GPUs (doc/validation.md).
 *
 * usage: fit-gpu-arch DWARF GPU RUNS.csv (--xml | --check | --report) [OTHER-GPU ...]
 *   --xml     prints the <launch> element for the dwarf
 *   --check   exits 1 unless the dwarf holds the fitted parameters (to 1e-3, relative)
 *   --report  Markdown: per size the profiled time, D3.5's model, the default model and its
 *             leave-one-out error (refitted without that size); then the default model's times
 *             for the OTHER-GPUs at every size of RUNS.csv (predictions, nothing to compare). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"
#include "dcsim/csv.h"
#include "dcsim/fit_gpu.h"
#include "dcsim/model.h"

#define MAX_RUNS 64

typedef struct runs {
  size_t n;
  const char *cases[MAX_RUNS];
  double N[MAX_RUNS], t[MAX_RUNS];
  dcsim_dwarf_eval *ev; /* of the first case (kernels and launch are the same for all) */
} runs;

static int die(const dcsim_error *e) {
  char b[2048];
  dcsim_error_format(e, b, sizeof b);
  fprintf(stderr, "fit-gpu-arch: %s\n", b);
  return 2;
}

static int load_gpu(const char *ref, dcsim_gpu_profile_t **g, dcsim_error *err) {
  char path[4096];
  int rc = dcsim_catalog_resolve(DCSIM_KIND_GPU, ref, NULL, 0, path, sizeof path, err);
  return rc ? rc : dcsim_gpu_profile_load(path, g, err);
}

/* Time of the dwarf case on gpu by dcsim_model_run in the mode given. */
static int model_time(const dcsim_dwarf_t *d, const char *cs, const dcsim_gpu_profile_t *gpu,
                      unsigned flags, double *t, dcsim_error *err) {
  dcsim_dwarf_eval *ev = NULL;
  int rc = dcsim_dwarf_evaluate(d, cs, NULL, 0, &ev, err);
  if (rc) return rc;
  dcsim_model_req rq;
  memset(&rq, 0, sizeof rq);
  rq.ev = ev;
  rq.gpu = gpu;
  rq.flags = flags;
  rq.energy_form = DCSIM_ENERGY_NONE;
  dcsim_prediction p;
  if (!(rc = dcsim_model_run(&rq, &p, err))) {
    *t = p.time_s;
    dcsim_prediction_release(&p);
  }
  dcsim_dwarf_eval_free(ev);
  return rc;
}

static int load_runs(const dcsim_dwarf_t *d, dcsim_csv_t *csv, runs *r, dcsim_error *err) {
  size_t c_case, c_t;
  int rc;
  if ((rc = dcsim_csv_col(csv, "case", &c_case, err)) ||
      (rc = dcsim_csv_col(csv, "time_s", &c_t, err)))
    return rc;
  r->n = dcsim_csv_rows(csv) < MAX_RUNS ? dcsim_csv_rows(csv) : MAX_RUNS;
  for (size_t i = 0; i < r->n; i++) {
    dcsim_dwarf_eval *ev = NULL;
    r->cases[i] = dcsim_csv_cell(csv, i, c_case);
    if ((rc = dcsim_csv_num(csv, i, c_t, &r->t[i], err)) ||
        (rc = dcsim_dwarf_evaluate(d, r->cases[i], NULL, 0, &ev, err)))
      return rc;
    r->N[i] = ev->domain_size;
    if (i == 0)
      r->ev = ev;
    else
      dcsim_dwarf_eval_free(ev);
  }
  return 0;
}

static int report(const dcsim_dwarf_t *d, const dcsim_gpu_profile_t *gpu, const runs *r,
                  unsigned tpb, const dcsim_gpu_launch_fit *fit, dcsim_error *err) {
  printf(
      "| case | N | profiled [s] | D3.5 model [s] | error | default model [s] | error | "
      "leave-one-out error |\n|---|---|---|---|---|---|---|---|\n");
  double s0 = 0, s1 = 0, s2 = 0, m0 = 0, m1 = 0, m2 = 0;
  int rc;
  for (size_t i = 0; i < r->n; i++) {
    double t0, t1, t2, N[MAX_RUNS], t[MAX_RUNS];
    size_t k = 0;
    for (size_t q = 0; q < r->n; q++)
      if (q != i) N[k] = r->N[q], t[k++] = r->t[q];
    dcsim_gpu_launch_fit lf;
    if ((rc = model_time(d, r->cases[i], gpu, DCSIM_MODEL_D35, &t0, err)) ||
        (rc = model_time(d, r->cases[i], gpu, 0, &t1, err)) ||
        (rc = dcsim_fit_gpu_launch(r->ev, gpu, N, t, k, tpb, &lf, err)) ||
        (rc = dcsim_gpu_launch_time(r->ev, gpu, r->N[i], tpb, lf.launch_s,
                                    lf.inflight_byte_per_thread, &t2, err)))
      return rc;
    double e0 = t0 / r->t[i] - 1, e1 = t1 / r->t[i] - 1, e2 = t2 / r->t[i] - 1;
    s0 += fabs(e0) / r->n, s1 += fabs(e1) / r->n, s2 += fabs(e2) / r->n;
    m0 = fmax(m0, fabs(e0)), m1 = fmax(m1, fabs(e1)), m2 = fmax(m2, fabs(e2));
    printf("| %s | %.6g | %.3g | %.4g | %+.2f%% | %.4g | %+.2f%% | %+.2f%% |\n", r->cases[i],
           r->N[i], r->t[i], t0, 100 * e0, t1, 100 * e1, 100 * e2);
  }
  printf(
      "\nMean |error|: D3.5 %.2f%%, default %.2f%% in sample, %.2f%% leave-one-out; largest "
      "%.2f%%, %.2f%%, %.2f%%. Fit on %s: launch-s %.4g, inflight-byte-per-thread %.4g "
      "(threads per block %u).\n",
      100 * s0, 100 * s1, 100 * s2, 100 * m0, 100 * m1, 100 * m2, dcsim_gpu_profile_name(gpu),
      fit->launch_s, fit->inflight_byte_per_thread, tpb);
  return 0;
}

/* Predictions of the default model (and D3.5's) for GPUs without a measurement here. */
static int predict(const dcsim_dwarf_t *d, char **refs, int n, const runs *r, dcsim_error *err) {
  for (int g = 0; g < n; g++) {
    dcsim_gpu_profile_t *gpu = NULL;
    int rc = load_gpu(refs[g], &gpu, err);
    if (rc) return rc;
    printf(
        "\n%s (predicted; not measured here):\n\n| case | D3.5 model [s] | default model [s] "
        "|\n|---|---|---|\n",
        dcsim_gpu_profile_name(gpu));
    for (size_t i = 0; i < r->n && !rc; i++) {
      double t0 = NAN, t1;
      if (dcsim_gpu_profile_spec(gpu)->has_characteristics)
        rc = model_time(d, r->cases[i], gpu, DCSIM_MODEL_D35, &t0, err);
      if (!rc) rc = model_time(d, r->cases[i], gpu, 0, &t1, err);
      if (!rc) printf("| %s | %.4g | %.4g |\n", r->cases[i], t0, t1);
    }
    dcsim_gpu_profile_free(gpu);
    if (rc) return rc;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 5 ||
      (strcmp(argv[4], "--xml") && strcmp(argv[4], "--check") && strcmp(argv[4], "--report"))) {
    fprintf(stderr,
            "usage: fit-gpu-arch DWARF GPU RUNS.csv (--xml | --check | --report) "
            "[OTHER-GPU ...]\n");
    return 2;
  }
  dcsim_error err;
  char dpath[4096];
  dcsim_dwarf_t *d = NULL;
  dcsim_gpu_profile_t *gpu = NULL;
  dcsim_csv_t *csv = NULL;
  runs r = { 0 };
  if (dcsim_catalog_resolve(DCSIM_KIND_DWARF, argv[1], NULL, 0, dpath, sizeof dpath, &err) ||
      dcsim_dwarf_load(dpath, &d, &err) || load_gpu(argv[2], &gpu, &err) ||
      dcsim_csv_load(argv[3], &csv, &err) || load_runs(d, csv, &r, &err))
    return die(&err);
  const dcsim_gpu_launch *have = &r.ev->launch;
  unsigned tpb = have->present ? have->threads_per_block : 128;
  dcsim_gpu_launch_fit fit;
  if (dcsim_fit_gpu_launch(r.ev, gpu, r.N, r.t, r.n, tpb, &fit, &err)) return die(&err);
  int status = 0;
  if (strcmp(argv[4], "--xml") == 0) {
    printf(
        "    <launch threads-per-block=\"%u\" launch-s=\"%.4g\" inflight-byte-per-thread=\"%.4g\" "
        "fitted-on=\"%s\" source=\"fitted: tools/derive/fit_gpu_arch.c on the %zu profiled "
        "times of %s (D3.5 Table 4), least squares of the relative errors, mean |error| "
        "%.2f %%\"/>\n",
        tpb, fit.launch_s, fit.inflight_byte_per_thread, dcsim_gpu_profile_name(gpu), r.n,
        dcsim_gpu_profile_name(gpu), 100 * fit.mean_abs_rel);
  } else if (strcmp(argv[4], "--check") == 0) {
    if (!have->present || fabs(have->launch_s - fit.launch_s) > 1e-3 * fit.launch_s ||
        fabs(have->inflight_byte_per_thread - fit.inflight_byte_per_thread) >
            1e-3 * fit.inflight_byte_per_thread) {
      fprintf(stderr,
              "%s: <launch> holds launch-s %g, inflight %g; the fit gives %.4g, %.4g "
              "(rerun with --xml)\n",
              dpath, have->launch_s, have->inflight_byte_per_thread, fit.launch_s,
              fit.inflight_byte_per_thread);
      status = 1;
    } else {
      printf("%s holds the fitted launch terms\n", dpath);
    }
  } else if (report(d, gpu, &r, tpb, &fit, &err) || predict(d, argv + 5, argc - 5, &r, &err)) {
    return die(&err);
  }
  dcsim_dwarf_eval_free(r.ev);
  dcsim_csv_free(csv);
  dcsim_dwarf_free(d);
  dcsim_gpu_profile_free(gpu);
  return status;
}
