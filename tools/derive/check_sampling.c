/* check_sampling.c — the `sampling` checker of validate (validate.h): the adaptive sampling kit
 * (seed adaptive-sampling-kit.txt, "ASK") on its synthetic examples, and, as the extra table,
 * ASK's protocol applied to dcsim's own problem (dcsim/sampling.h: which (frequency, cores)
 * states of a CPU to measure), on the profile of `study-cpu`.
 *
 * Columns: test, and for the extra table the first row's study-cpu and study-quantity. Tests
 * (1 when the statement holds):
 *   hvs_avoids_flat   Fig. 2: on f(x) = x^5 |sin(6 pi x)| over 1000 points of [0, 1], fifteen
 *                     draws of ten samples: HVS puts fewer of them in the flat [0, 0.5] than
 *                     half (random sampling's share)
 *   weights_help      §5, Fig. 3: on s(x) (1 on (0, 20], x - 20 on (20, 40], 20 on (40, 100])
 *                     sampled ten times more densely in R2, boosted trees weighted by ASK's
 *                     w_r = s_r/n_r fit R1 and R3 better than unweighted ones */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"
#include "dcsim/gbm.h"
#include "dcsim/hvs.h"
#include "dcsim/sampling.h"
#include "toolutil.h"
#include "validate.h"

static const double PI = 3.14159265358979323846;

typedef struct sp_state {
  char cpu[128], quantity[16];
  double ew, eu;      /* weights_help: summed |error| on R1 and R3, weighted and not */
  size_t region_n[3]; /* weights_help: samples in R1, R2, R3 */
} sp_state;

static int init(void **st, dcsim_error *err) {
  if (!(*st = calloc(1, sizeof(sp_state))))
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  return 0;
}

static void fini(void *st) { free(st); }

/* Fig. 2: the share of HVS's 150 samples in the flat half */
static int avoids_flat(double *out, dcsim_error *err) {
  enum { N = 1000 };
  double x[N], y[N];
  for (int i = 0; i < N; i++) {
    x[i] = (i + 0.5) / N;
    y[i] = pow(x[i], 5) * fabs(sin(6 * PI * x[i])); /* ASK Fig. 2 */
  }
  dcsim_hvs_t *h = NULL;
  int rc = dcsim_hvs_new(N, 1, x, 0.1, 1, &h, err);
  if (rc) return rc;
  size_t pts[10], flat = 0, total = 0;
  for (int b = 0; b < 15 && !rc; b++) { /* "fifteen drawings of ten samples each" */
    size_t k = b == 0 ? dcsim_hvs_next_random(h, 10, pts) : dcsim_hvs_next(h, 10, pts);
    for (size_t j = 0; j < k && !rc; j++) {
      rc = dcsim_hvs_add(h, pts[j], y[pts[j]], err);
      flat += x[pts[j]] <= 0.5;
      total++;
    }
  }
  dcsim_hvs_free(h);
  *out = total && (double)flat / (double)total < 0.5;
  return rc;
}

/* §5: weighted against unweighted boosted trees on R1 and R3 (every region sampled: 20, 200
 * and 60 points; a buffer of 200 once stopped at x = 38 and never sampled R3) */
static int weights_help(sp_state *s, double *out, dcsim_error *err) {
  enum { CAP = 280 };
  double x[CAP], y[CAP], w[CAP];
  size_t *region_n = s->region_n;
  size_t n = val_ask_fig3_samples(x, y, w, CAP, region_n);
  if (!region_n[0] || !region_n[1] || !region_n[2])
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "ASK Fig. 3: a region without samples");
  dcsim_gbm_params p = { 500, 2, 2, 0.05 };
  dcsim_gbm_t *mw = NULL, *mu = NULL;
  int rc = dcsim_gbm_fit(n, 1, x, y, w, &p, &mw, err);
  if (!rc) rc = dcsim_gbm_fit(n, 1, x, y, NULL, &p, &mu, err);
  double ew = 0, eu = 0;
  for (int i = 1; !rc && i <= 100; i++) {
    if (i > 20 && i <= 40) continue;
    double xi = i, yi = i <= 20 ? 1 : 20;
    ew += fabs(dcsim_gbm_predict(mw, &xi) - yi);
    eu += fabs(dcsim_gbm_predict(mu, &xi) - yi);
  }
  dcsim_gbm_free(mw);
  dcsim_gbm_free(mu);
  s->ew = ew / 80; /* mean |error| over the 80 integer points of R1 and R3 */
  s->eu = eu / 80;
  *out = ew < eu;
  return rc;
}

static int compute(void *st, const val_row *w, double *out, dcsim_error *err) {
  sp_state *s = st;
  if (*val_col(w, "study-cpu")) {
    snprintf(s->cpu, sizeof s->cpu, "%s", val_col(w, "study-cpu"));
    snprintf(s->quantity, sizeof s->quantity, "%s", val_col(w, "study-quantity"));
  }
  const char *t = val_col(w, "test");
  if (strcmp(t, "hvs_avoids_flat") == 0) return avoids_flat(out, err);
  if (strcmp(t, "weights_help") == 0) return weights_help(s, out, err);
  return DCSIM_ERR(err, DCSIM_EREF, w->path, dcsim__csv_line(w->t, w->r), "unknown test %s", t);
}

static void label(const val_row *w, char *buf, size_t size) {
  snprintf(buf, size, "%s", val_col(w, "claim"));
}

/* weights_help's numbers: the verdict and the samples it rests on */
static int note(void *st, const val_row *w, char *buf, size_t size, dcsim_error *err) {
  (void)err;
  const sp_state *s = st;
  if (strcmp(val_col(w, "test"), "weights_help") == 0)
    snprintf(buf, size,
             "mean absolute error on R1 and R3: weighted %.3g, unweighted %.3g; samples R1 %zu, R2 "
             "%zu, "
             "R3 %zu",
             s->ew, s->eu, s->region_n[0], s->region_n[1], s->region_n[2]);
  return 0;
}

/* dcsim's own problem: the study of `dcsim calibrate sampling` on the row's profile */
static int extra(void *st, FILE *f, dcsim_error *err) {
  static const dcsim_sampler all[] = { DCSIM_SAMPLER_RANDOM, DCSIM_SAMPLER_LHS, DCSIM_SAMPLER_HVS,
                                       DCSIM_SAMPLER_HVS_RELATIVE, DCSIM_SAMPLER_QBC };
  sp_state *s = st;
  if (!s->cpu[0]) return 0;
  char what[256];
  dcsim_cpu_profile_t *cpu = NULL;
  double *x = NULL, *y = NULL;
  size_t n = 0;
  dcsim_sampling_opts o;
  dcsim_sampling_curve c[5];
  dcsim_sampling_default_opts(&o);
  int rc;
  if ((rc = tool_load_cpu(s->cpu, &cpu, err)) ||
      (rc = dcsim_sampling_profile_problem(cpu, s->quantity, &x, &y, &n, err)))
    goto out;
  dcsim_sampling_problem p = { n, 2, x, y };
  if ((rc = dcsim_sampling_study(&p, &o, all, 5, c, err))) goto out;
  snprintf(what, sizeof what, "%s %s over (frequency, cores)", s->cpu, s->quantity);
  fprintf(f, "`dcsim calibrate sampling %s --quantity %s` (doc/calibration.md):\n\n```\n", s->cpu,
          s->quantity);
  dcsim_sampling_write_text(f, what, &p, &o, c, 5, NULL, 0, DCSIM_SAMPLER_HVS);
  fputs("```\n", f);
out:
  free(x);
  free(y);
  dcsim_cpu_profile_free(cpu);
  return rc;
}

const val_checker val_sampling = VAL_CHECKER("sampling", init, fini, label, compute, extra, note,
                                             "the adaptive sampling kit (ASK) on its synthetic "
                                             "examples, and ASK's protocol applied to which "
                                             "(frequency, cores) states of a CPU to measure");
