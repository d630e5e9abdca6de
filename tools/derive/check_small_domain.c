/* check_small_domain.c — the `small-domain` checker of validate (validate.h): the profiled
 * whole-dwarf times of D3.5 Table 4 / Table 18 (T prof) against D3.5's GPU model, the fitted
 * small-domain correction of doc/models.md (in sample: its two parameters are fitted on these
 * very times) and its leave-one-out prediction (refitted without the size, then predicted).
 *
 * Columns: dwarf, hw, runs (the profiled times the correction is fitted on), case, quantity:
 *   d35_s        D3.5's model time (Table 11)
 *   corrected_s  with the correction of the GPU profile (<small-domain>, the fit on every size)
 *   loo_s        with the correction refitted without this size
 *   diff         D3.5's "Difference": model time / profiled - 1
 * The extra table sums the errors up: mean and largest |error| without the correction, in
 * sample and leave-one-out. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"
#include "dcsim/fit_gpu.h"
#include "dcsim/model.h"
#include "toolutil.h"
#include "validate.h"

#define MAX_RUNS 64

typedef struct sd_state {
  char key[1024]; /* dwarf, hw, runs of the loaded fit */
  size_t n;
  char cases[MAX_RUNS][32];
  dcsim_gpu_size_obs obs[MAX_RUNS];
  double corrected_s[MAX_RUNS], loo_s[MAX_RUNS];
  double loo_launch_s[MAX_RUNS], loo_sat[MAX_RUNS]; /* the parameters refitted without the size */
  const char *gpu_name;
  unsigned sm;
  double launch_s, sat;
  int have;
} sd_state;

/* the fit with every size, and without each one (leave-one-out) */
static int fit_all(sd_state *s, const dcsim_dwarf_t *d, const dcsim_gpu_profile_t *gpu,
                   dcsim_error *err) {
  dcsim_dwarf_eval *ev0 = NULL;
  int rc = dcsim_dwarf_evaluate(d, s->cases[0], NULL, 0, &ev0, err);
  if (rc) return rc;
  double launches = (double)ev0->n_kernels * ev0->invocations; /* kernel launches per call */
  dcsim_dwarf_eval_free(ev0);
  const dcsim_gpu_spec *g = dcsim_gpu_profile_spec(gpu);
  s->sm = g->sm;
  s->launch_s = g->launch_s;
  s->sat = g->saturation_threads_per_sm;
  for (size_t r = 0; r < s->n; r++) {
    dcsim_gpu_size_obs c = s->obs[r];
    if ((rc = dcsim_gpu_size_obs_of(d, s->cases[r], gpu, 1, &c, err))) return rc;
    s->corrected_s[r] = c.model_s;
    dcsim_gpu_size_obs rest[MAX_RUNS];
    size_t k = 0;
    for (size_t q = 0; q < s->n; q++)
      if (q != r) rest[k++] = s->obs[q];
    dcsim_gpu_small_fit lf;
    if ((rc = dcsim_fit_gpu_small_domain(rest, k, g->sm, launches, &lf, err))) return rc;
    s->loo_launch_s[r] = lf.launch_s;
    s->loo_sat[r] = lf.saturation_threads_per_sm;
    s->loo_s[r] = dcsim_gpu_small_time(s->obs[r].model_s, s->obs[r].domain_size, g->sm, launches,
                                       lf.launch_s, lf.saturation_threads_per_sm);
  }
  return 0;
}

static int load(sd_state *s, const val_row *w, dcsim_error *err) {
  char key[1024];
  snprintf(key, sizeof key, "%s|%s|%s", val_col(w, "dwarf"), val_col(w, "hw"), val_col(w, "runs"));
  if (s->have && strcmp(key, s->key) == 0) return 0;
  dcsim_dwarf_t *d = NULL;
  dcsim_gpu_profile_t *gpu = NULL;
  dcsim_csv_t *csv = NULL;
  size_t c_case, c_t;
  int rc;
  if ((rc = tool_load_dwarf(val_col(w, "dwarf"), &d, err)) ||
      (rc = tool_load_gpu(val_col(w, "hw"), &gpu, err)) ||
      (rc = dcsim__csv_load(val_col(w, "runs"), &csv, err)) ||
      (rc = dcsim__csv_col(csv, "case", &c_case, err)) ||
      (rc = dcsim__csv_col(csv, "time_s", &c_t, err)))
    goto out;
  s->n = dcsim__csv_rows(csv) < MAX_RUNS ? dcsim__csv_rows(csv) : MAX_RUNS;
  for (size_t r = 0; r < s->n && !rc; r++) {
    snprintf(s->cases[r], sizeof s->cases[r], "%s", dcsim__csv_cell(csv, r, c_case));
    if (!(rc = dcsim__csv_num(csv, r, c_t, &s->obs[r].measured_s, err)))
      rc = dcsim_gpu_size_obs_of(d, s->cases[r], gpu, 0, &s->obs[r], err);
  }
  if (!rc && !(rc = fit_all(s, d, gpu, err))) {
    snprintf(s->key, sizeof s->key, "%s", key);
    s->have = 1;
  }
out:
  dcsim__csv_free(csv);
  dcsim_dwarf_free(d);
  dcsim_gpu_profile_free(gpu);
  return rc;
}

static int init(void **st, dcsim_error *err) {
  if (!(*st = calloc(1, sizeof(sd_state))))
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  return 0;
}

static void fini(void *st) { free(st); }

static int compute(void *st, const val_row *w, double *out, dcsim_error *err) {
  sd_state *s = st;
  int rc = load(s, w, err);
  if (rc) return rc;
  const char *cs = val_col(w, "case"), *q = val_col(w, "quantity");
  for (size_t r = 0; r < s->n; r++) {
    if (strcmp(s->cases[r], cs) != 0) continue;
    if (strcmp(q, "d35_s") == 0)
      *out = s->obs[r].model_s;
    else if (strcmp(q, "corrected_s") == 0)
      *out = s->corrected_s[r];
    else if (strcmp(q, "loo_s") == 0)
      *out = s->loo_s[r];
    else if (strcmp(q, "diff") == 0)
      *out = s->obs[r].model_s / s->obs[r].measured_s - 1; /* D3.5 §3.5 */
    else
      return DCSIM_ERR(err, DCSIM_EREF, w->path, dcsim__csv_line(w->t, w->r), "unknown quantity %s",
                       q);
    return 0;
  }
  return DCSIM_ERR(err, DCSIM_EREF, w->path, dcsim__csv_line(w->t, w->r), "no profiled run %s", cs);
}

static void label(const val_row *w, char *buf, size_t size) {
  const char *q = val_col(w, "quantity");
  snprintf(buf, size, "%s %s on %s: %s", val_col(w, "dwarf"), val_col(w, "case"), val_col(w, "hw"),
           strcmp(q, "d35_s") == 0         ? "profiled time by D3.5's model"
           : strcmp(q, "corrected_s") == 0 ? "profiled time by the corrected model"
           : strcmp(q, "loo_s") == 0       ? "profiled time by the correction fitted without it"
                                           : "D3.5's difference, model / profiled - 1");
}

static int extra(void *st, FILE *f, dcsim_error *err) {
  (void)err;
  const sd_state *s = st;
  double sum[3] = { 0 }, mx[3] = { 0 };
  for (size_t r = 0; r < s->n; r++) {
    double m = s->obs[r].measured_s;
    double e[3] = { s->obs[r].model_s / m - 1, s->corrected_s[r] / m - 1, s->loo_s[r] / m - 1 };
    for (int k = 0; k < 3; k++) {
      sum[k] += fabs(e[k]) / (double)s->n;
      mx[k] = fmax(mx[k], fabs(e[k]));
    }
  }
  fprintf(f,
          "| error over the %zu profiled sizes | D3.5 model (no correction) | corrected, in "
          "sample | corrected, leave-one-out |\n|---|---|---|---|\n"
          "| mean abs. | %.2f%% | %.2f%% | %.2f%% |\n| largest abs. | %.2f%% | %.2f%% | %.2f%% |\n",
          s->n, 100 * sum[0], 100 * sum[1], 100 * sum[2], 100 * mx[0], 100 * mx[1], 100 * mx[2]);
  fprintf(f,
          "\nIn sample: the profile's parameters (launch-s %.4g, saturation-threads-per-sm %.4g; "
          "%u SM: full occupancy from N = %.0f) were fitted on these %zu times, so the in-sample "
          "error is no evidence of accuracy; the leave-one-out column is the only out-of-sample "
          "evidence the project copy of D3.5 allows.\n",
          s->launch_s, s->sat, s->sm, s->sm * s->sat, s->n);
  return 0;
}

/* A leave-one-out row: what the refit without its size moves, and the error it leaves there. */
static int note(void *st, const val_row *w, char *buf, size_t size, dcsim_error *err) {
  (void)err;
  const sd_state *s = st;
  if (strcmp(val_col(w, "quantity"), "loo_s") != 0) return 0;
  for (size_t r = 0; r < s->n; r++)
    if (strcmp(s->cases[r], val_col(w, "case")) == 0)
      snprintf(buf, size,
               "refitted without %s, launch-s %.4g -> %.4g ms, saturation-threads-per-sm %.4g -> "
               "%.4g; the prediction there is %+.1f %% of the profiled time",
               s->cases[r], 1e3 * s->launch_s, 1e3 * s->loo_launch_s[r], s->sat, s->loo_sat[r],
               100 * (s->loo_s[r] / s->obs[r].measured_s - 1));
  return 0;
}

const val_checker val_small_domain = VAL_CHECKER(
    "small-domain", init, fini, label, compute, extra, note,
    "the profiled GPU times of D3.5 Table 4 against D3.5's GPU model and the small-domain "
    "correction, in sample and leave-one-out");
