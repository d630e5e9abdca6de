/* sampling.c — ASK's protocol: error of the surrogate against samples, median over seeds (see
 * dcsim/sampling.h). */
#include "dcsim/sampling.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/stats.h"

void dcsim_sampling_default_opts(dcsim_sampling_opts *o) {
  memset(o, 0, sizeof *o);
  o->budget = 64;
  o->batch = 8;
  o->seeds = 9; /* ASK §6: "the median error, among nine different runs" */
  o->seed0 = 1;
  o->gbm = (dcsim_gbm_params){ 300, 3, 2, 0.1 };
  o->target = 0.05;
}

typedef struct one_run {
  size_t *pts; /* drawn so far */
  size_t n;
  double *xs, *ys, *w, *pred;
} one_run;

/* the surrogate on the points drawn so far; its errors over the whole space */
static int evaluate(const dcsim_sampling_problem *p, const dcsim_sampling_opts *o, dcsim_hvs_t *h,
                    one_run *r, double *rmse, double *mre, dcsim_error *err) {
  for (size_t i = 0; i < r->n; i++) {
    memcpy(r->xs + i * p->dim, p->x + r->pts[i] * p->dim, p->dim * sizeof *r->xs);
    r->ys[i] = p->y[r->pts[i]];
  }
  int rc = dcsim_hvs_fit(h, err);
  if (rc) return rc;
  const double *w = dcsim_hvs_weights(h, r->w) == 0 ? r->w : NULL; /* ASK §5 */
  dcsim_gbm_t *m = NULL;
  if ((rc = dcsim_gbm_fit(r->n, p->dim, r->xs, r->ys, w, &o->gbm, &m, err))) return rc;
  double se = 0, re = 0;
  for (size_t q = 0; q < p->n; q++) {
    double e = dcsim_gbm_predict(m, p->x + q * p->dim) - p->y[q];
    se += e * e;
    re += p->y[q] != 0 ? fabs(e / p->y[q]) : fabs(e);
  }
  dcsim_gbm_free(m);
  *rmse = sqrt(se / (double)p->n);
  *mre = re / (double)p->n;
  return 0;
}

/* one sampler, one seed: draws batches until the budget; errors after each (rmse/mre[step]) */
static int run_one(const dcsim_sampling_problem *p, const dcsim_sampling_opts *o, dcsim_sampler s,
                   uint64_t seed, one_run *r, double *rmse, double *mre, size_t *counts,
                   size_t *steps, dcsim_error *err) {
  dcsim_hvs_t *h = NULL;
  int rc = dcsim_hvs_new(p->n, p->dim, p->x, 0.1, seed, &h, err); /* ASK: 1 - alpha = 0.9 */
  if (rc) return rc;
  size_t budget = o->budget < p->n ? o->budget : p->n;
  r->n = 0;
  *steps = 0;
  while (r->n < budget && *steps < DCSIM_SAMPLING_MAX_STEPS) {
    size_t k = budget - r->n < o->batch ? budget - r->n : o->batch, got;
    if (r->n == 0) /* ASK §6: the same Latin hypercube bootstrap, random for random sampling */
      got = s == DCSIM_SAMPLER_RANDOM ? dcsim_hvs_next_random(h, k, r->pts)
                                      : dcsim_hvs_next_lhs(h, k, r->pts);
    else
      got = dcsim_hvs_next_with(h, s, k, r->pts + r->n);
    if (got == 0) break;
    for (size_t i = r->n; i < r->n + got && !rc; i++)
      rc = dcsim_hvs_add(h, r->pts[i], p->y[r->pts[i]], err);
    r->n += got;
    if (rc || (rc = evaluate(p, o, h, r, &rmse[*steps], &mre[*steps], err))) break;
    counts[(*steps)++] = r->n;
  }
  dcsim_hvs_free(h);
  return rc;
}

/* the median over seeds of each step */
static void summarise(const dcsim_sampling_opts *o, size_t steps, const size_t *counts,
                      const double *rm, const double *mr, double *tmp, dcsim_sampling_curve *c) {
  c->n_steps = steps;
  c->to_target = 0;
  for (size_t t = 0; t < steps; t++) {
    c->samples[t] = counts[t];
    for (unsigned k = 0; k < o->seeds; k++) tmp[k] = rm[k * DCSIM_SAMPLING_MAX_STEPS + t];
    c->rmse[t] = dcsim_median(tmp, o->seeds);
    for (unsigned k = 0; k < o->seeds; k++) tmp[k] = mr[k * DCSIM_SAMPLING_MAX_STEPS + t];
    c->mre[t] = dcsim_median(tmp, o->seeds);
    if (!c->to_target && o->target > 0 && c->mre[t] <= o->target) c->to_target = c->samples[t];
  }
}

static int alloc_run(const dcsim_sampling_problem *p, one_run *r) {
  r->pts = malloc(p->n * sizeof *r->pts);
  r->xs = malloc(p->n * p->dim * sizeof *r->xs);
  r->ys = malloc(p->n * sizeof *r->ys);
  r->w = malloc(p->n * sizeof *r->w);
  return r->pts && r->xs && r->ys && r->w ? 0 : -1;
}

static void free_run(one_run *r) {
  free(r->pts);
  free(r->xs);
  free(r->ys);
  free(r->w);
}

int dcsim_sampling_study(const dcsim_sampling_problem *p, const dcsim_sampling_opts *o,
                         const dcsim_sampler *samplers, size_t n_samplers,
                         dcsim_sampling_curve *out, dcsim_error *err) {
  if (p->n == 0 || o->batch == 0 || o->seeds == 0 || o->budget == 0)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0,
                     "sampling study: empty space, batch, seeds or budget");
  one_run r = { 0 };
  double *rm = calloc((size_t)o->seeds * DCSIM_SAMPLING_MAX_STEPS, sizeof *rm),
         *mr = calloc((size_t)o->seeds * DCSIM_SAMPLING_MAX_STEPS, sizeof *mr),
         *tmp = malloc(o->seeds * sizeof *tmp);
  int rc = 0;
  if (!rm || !mr || !tmp || alloc_run(p, &r)) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    goto out;
  }
  for (size_t s = 0; s < n_samplers && !rc; s++) {
    size_t steps = DCSIM_SAMPLING_MAX_STEPS, counts[DCSIM_SAMPLING_MAX_STEPS];
    for (unsigned k = 0; k < o->seeds && !rc; k++) {
      size_t st = 0;
      rc = run_one(p, o, samplers[s], o->seed0 + k, &r, rm + k * DCSIM_SAMPLING_MAX_STEPS,
                   mr + k * DCSIM_SAMPLING_MAX_STEPS, counts, &st, err);
      if (st < steps) steps = st;
    }
    out[s].sampler = samplers[s];
    if (!rc) summarise(o, steps, counts, rm, mr, tmp, &out[s]);
  }
out:
  free_run(&r);
  free(rm);
  free(mr);
  free(tmp);
  return rc;
}

int dcsim_sampling_plan(const dcsim_sampling_problem *p, dcsim_sampler s,
                        const dcsim_sampling_opts *o, size_t *points, size_t *n, dcsim_error *err) {
  one_run r = { 0 };
  double rm[DCSIM_SAMPLING_MAX_STEPS], mr[DCSIM_SAMPLING_MAX_STEPS];
  size_t steps = 0, counts[DCSIM_SAMPLING_MAX_STEPS];
  int rc = alloc_run(p, &r) ? DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory")
                            : run_one(p, o, s, o->seed0, &r, rm, mr, counts, &steps, err);
  if (!rc) {
    memcpy(points, r.pts, r.n * sizeof *points);
    *n = r.n;
  }
  free_run(&r);
  return rc;
}

int dcsim_sampling_profile_problem(const dcsim_cpu_profile_t *cpu, const char *quantity, double **x,
                                   double **y, size_t *n, dcsim_error *err) {
  int k = dcsim_cpu_qty_parse(quantity);
  if (k < 0)
    return DCSIM_PERR(err, DCSIM_EUSAGE, "quantity", -1, "'%s': flops, L1, L2, L3 or DRAM",
                      quantity);
  size_t nf = dcsim_cpu_profile_n_freqs(cpu), cap = nf * dcsim_cpu_profile_max_threads(cpu);
  *n = 0;
  *x = malloc((cap ? cap : 1) * 2 * sizeof **x);
  *y = malloc((cap ? cap : 1) * sizeof **y);
  if (!*x || !*y) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  for (size_t f = 0; f < nf; f++) {
    dcsim_cpu_state s;
    dcsim_cpu_profile_freq_at(cpu, f, &s);
    if (s.label) continue; /* a labelled state has no GHz to interpolate in */
    for (unsigned t = 1; t <= dcsim_cpu_profile_max_threads(cpu); t++) {
      dcsim_cpu_rates rt;
      s.threads = t;
      int rc = dcsim_cpu_profile_rates(cpu, &s, &rt, err);
      if (rc) return rc;
      const int has[] = { 1, rt.has_l1, rt.has_l2, rt.has_l3, 1 };
      const double v[] = { rt.flops, rt.l1_bps, rt.l2_bps, rt.l3_bps, rt.dram_bps };
      if (!has[k])
        return DCSIM_ERR(err, DCSIM_EREF, dcsim_cpu_profile_path(cpu), 0,
                         "profile %s has no %s table", dcsim_cpu_profile_name(cpu), quantity);
      (*x)[2 * *n] = s.ghz;
      (*x)[2 * *n + 1] = t;
      (*y)[(*n)++] = v[k];
    }
  }
  return 0;
}

void dcsim_sampling_write_text(FILE *f, const char *what, const dcsim_sampling_problem *p,
                               const dcsim_sampling_opts *o, const dcsim_sampling_curve *c,
                               size_t n_curves, const size_t *plan, size_t n_plan,
                               dcsim_sampler planned) {
  fprintf(f,
          "sampling study: %s, %zu states; batches of %zu, median over %u seeds, surrogate: "
          "boosted trees (ASK)\nmean relative error of the surrogate over all states [%%]\n\n%8s",
          what, p->n, o->batch, o->seeds, "samples");
  for (size_t s = 0; s < n_curves; s++) fprintf(f, " %13s", dcsim_sampler_name(c[s].sampler));
  fputc('\n', f);
  for (size_t t = 0; n_curves && t < c[0].n_steps; t++) {
    fprintf(f, "%8zu", c[0].samples[t]);
    for (size_t s = 0; s < n_curves; s++)
      fprintf(f, " %13.3f", t < c[s].n_steps ? 100 * c[s].mre[t] : NAN);
    fputc('\n', f);
  }
  fprintf(f, "\nsamples for %.3g %% (the full grid: %zu):\n", 100 * o->target, p->n);
  for (size_t s = 0; s < n_curves; s++)
    if (c[s].to_target)
      fprintf(f, "  %-13s %zu (%.1fx fewer)\n", dcsim_sampler_name(c[s].sampler), c[s].to_target,
              (double)p->n / (double)c[s].to_target);
    else
      fprintf(f, "  %-13s not reached within %zu\n", dcsim_sampler_name(c[s].sampler), o->budget);
  if (!n_plan) return;
  fprintf(f, "\nplan (%s, seed %llu): measure these %zu states (GHz x threads), in this order:\n",
          dcsim_sampler_name(planned), (unsigned long long)o->seed0, n_plan);
  for (size_t i = 0; i < n_plan; i++)
    fprintf(f, "%s%g x %g", i % 8 ? ", " : (i ? "\n  " : "  "), p->x[plan[i] * p->dim],
            p->x[plan[i] * p->dim + 1]);
  fputc('\n', f);
}
