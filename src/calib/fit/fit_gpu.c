/* fit_gpu.c — fitting the GPU small-domain correction (see dcsim/fit_gpu.h). */
#include "dcsim/fit_gpu.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multimin.h>

#include "dcsim/dwarf.h"
#include "dcsim/model.h"
#include "dcsim/model_gpu.h"

double dcsim_gpu_small_time(double model_s, double domain_size, unsigned sm, double launches,
                            double launch_s, double saturation_threads_per_sm) {
  /* doc/models.md "GPU: small domains": T/occupancy + launches*launch */
  return model_s / dcsim_gpu_occupancy(domain_size, sm, saturation_threads_per_sm) +
         launches * launch_s;
}

typedef struct fit_data {
  const dcsim_gpu_size_obs *obs;
  size_t n;
  unsigned sm;
  double launches;
} fit_data;

/* x = (launch in ms, log of saturation threads per SM) */
static double rss(const fit_data *d, double launch_ms, double log_sat) {
  if (launch_ms < 0) return HUGE_VAL;
  double s = 0;
  for (size_t i = 0; i < d->n; i++) {
    const dcsim_gpu_size_obs *o = &d->obs[i];
    double r = (dcsim_gpu_small_time(o->model_s, o->domain_size, d->sm, d->launches,
                                     launch_ms * 1e-3, exp(log_sat)) -
                o->measured_s) /
               o->measured_s;
    s += r * r;
  }
  return s;
}

static double nm_f(const gsl_vector *x, void *p) {
  return rss(p, gsl_vector_get(x, 0), gsl_vector_get(x, 1));
}

/* GSL's Nelder-Mead simplex on a 2-parameter f from (*x0, *y0) with the given steps, until the
 * simplex is smaller than tol; (*x0, *y0) becomes its end when that is no worse than the start. */
static int simplex2(double (*f)(const gsl_vector *, void *), void *data, double *x0, double *y0,
                    double step0, double step1, double tol, int iters, dcsim_error *err) {
  gsl_multimin_function fn = { f, 2, data };
  gsl_vector *x = gsl_vector_alloc(2), *step = gsl_vector_alloc(2);
  gsl_multimin_fminimizer *m = gsl_multimin_fminimizer_alloc(gsl_multimin_fminimizer_nmsimplex2, 2);
  int rc = 0;
  if (!x || !step || !m) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    goto out;
  }
  gsl_vector_set(x, 0, *x0);
  gsl_vector_set(x, 1, *y0);
  gsl_vector_set(step, 0, step0);
  gsl_vector_set(step, 1, step1);
  if (gsl_multimin_fminimizer_set(m, &fn, x, step)) {
    rc = DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0, "GSL simplex setup failed");
    goto out;
  }
  double start = f(x, data);
  for (int it = 0; it < iters; it++) {
    if (gsl_multimin_fminimizer_iterate(m)) break;
    if (gsl_multimin_test_size(gsl_multimin_fminimizer_size(m), tol) == GSL_SUCCESS) break;
  }
  if (m->fval <= start) {
    *x0 = gsl_vector_get(m->x, 0);
    *y0 = gsl_vector_get(m->x, 1);
  }
out:
  if (m) gsl_multimin_fminimizer_free(m);
  if (x) gsl_vector_free(x);
  if (step) gsl_vector_free(step);
  return rc;
}

int dcsim_fit_gpu_small_domain(const dcsim_gpu_size_obs *obs, size_t n, unsigned sm,
                               double launches, dcsim_gpu_small_fit *out, dcsim_error *err) {
  if (n < 2 || sm == 0 || !(launches > 0))
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0,
                     "small-domain fit: needs at least 2 sizes, SMs and launches");
  for (size_t i = 0; i < n; i++)
    if (!(obs[i].domain_size > 0) || !(obs[i].model_s > 0) || !(obs[i].measured_s > 0))
      return DCSIM_ERR(err, DCSIM_ERANGE, "", 0,
                       "small-domain fit: size %zu has a non-positive value", i);
  fit_data d = { obs, n, sm, launches };
  /* grid: launch 0..5 ms, saturation 1..65536 threads per SM (log grid) */
  double best = HUGE_VAL, bl = 0, bs = 0;
  for (int i = 0; i <= 200; i++)
    for (int j = 0; j <= 160; j++) {
      double l = 0.025 * i, ls = log(65536.0) * j / 160;
      double v = rss(&d, l, ls);
      if (v < best) {
        best = v;
        bl = l;
        bs = ls;
      }
    }
  int rc = simplex2(nm_f, &d, &bl, &bs, 0.0125, log(65536.0) / 320, 1e-10, 10000, err);
  if (rc) return rc;
  double l = bl, ls = bs;
  out->launch_s = l * 1e-3;
  out->saturation_threads_per_sm = exp(ls);
  out->rss = rss(&d, l, ls);
  out->mean_abs_rel = 0;
  for (size_t i = 0; i < n; i++)
    out->mean_abs_rel += fabs(dcsim_gpu_small_time(obs[i].model_s, obs[i].domain_size, sm, launches,
                                                   out->launch_s, out->saturation_threads_per_sm) -
                              obs[i].measured_s) /
                         obs[i].measured_s / n;
  return 0;
}

/* ---- launch and occupancy terms of the architecture model ---- */

int dcsim_gpu_launch_time(const dcsim_dwarf_eval *ev, const dcsim_gpu_profile_t *gpu, double N,
                          unsigned threads_per_block, double launch_s, double inflight_byte,
                          double *time_s, dcsim_error *err) {
  dcsim_dwarf_eval e = *ev; /* shallow: only the launch terms differ */
  e.launch.present = 1;
  e.launch.threads_per_block = threads_per_block;
  e.launch.launch_s = launch_s;
  e.launch.inflight_byte_per_thread = inflight_byte;
  dcsim_gpu_result *r = NULL;
  int rc = dcsim_model_gpu_arch(&e, gpu, N, &r, err);
  if (!rc) *time_s = r->time_s;
  dcsim_gpu_result_free(r);
  return rc;
}

typedef struct launch_data {
  const dcsim_dwarf_eval *ev;
  const dcsim_gpu_profile_t *gpu;
  const double *N, *t;
  size_t n;
  unsigned tpb;
  int failed;
} launch_data;

/* x = (launch in ms, log of bytes in flight per thread) */
static double launch_rss(launch_data *d, double launch_ms, double log_b) {
  if (launch_ms < 0 || log_b < -10 || log_b > 20) return HUGE_VAL;
  double s = 0;
  for (size_t i = 0; i < d->n; i++) {
    double m;
    dcsim_error e;
    if (dcsim_gpu_launch_time(d->ev, d->gpu, d->N[i], d->tpb, launch_ms * 1e-3, exp(log_b), &m,
                              &e)) {
      d->failed = 1;
      return HUGE_VAL;
    }
    double r = (m - d->t[i]) / d->t[i];
    s += r * r;
  }
  return s;
}

static double launch_nm_f(const gsl_vector *x, void *p) {
  return launch_rss(p, gsl_vector_get(x, 0), gsl_vector_get(x, 1));
}

int dcsim_fit_gpu_launch(const dcsim_dwarf_eval *ev, const dcsim_gpu_profile_t *gpu,
                         const double *domain_size, const double *measured_s, size_t n,
                         unsigned threads_per_block, dcsim_gpu_launch_fit *out, dcsim_error *err) {
  if (n < 2 || threads_per_block == 0)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0,
                     "launch fit: needs at least 2 sizes and a block size");
  for (size_t i = 0; i < n; i++)
    if (!(domain_size[i] > 0) || !(measured_s[i] > 0))
      return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "launch fit: size %zu has a non-positive value",
                       i);
  launch_data d = { ev, gpu, domain_size, measured_s, n, threads_per_block, 0 };
  double best = HUGE_VAL, bl = 0, bb = 0; /* grid: 0..3 ms, 1/16..4096 B (log) */
  for (int i = 0; i <= 60; i++)
    for (int j = 0; j <= 64; j++) {
      double l = 0.05 * i, lb = log(1.0 / 16) + log(65536.0) * j / 64, v = launch_rss(&d, l, lb);
      if (v < best) {
        best = v;
        bl = l;
        bb = lb;
      }
    }
  if (d.failed || !(best < HUGE_VAL))
    return DCSIM_ERR(err, DCSIM_ERANGE, dcsim_gpu_profile_path(gpu), 0,
                     "launch fit: the architecture model fails on %s", dcsim_gpu_profile_name(gpu));
  int rc = simplex2(launch_nm_f, &d, &bl, &bb, 0.0125, 0.05, 1e-9, 5000, err);
  if (rc) return rc;
  out->launch_s = bl * 1e-3;
  out->inflight_byte_per_thread = exp(bb);
  out->rss = launch_rss(&d, bl, bb);
  out->mean_abs_rel = 0;
  for (size_t i = 0; i < n; i++) {
    double m = 0;
    if ((rc = dcsim_gpu_launch_time(ev, gpu, domain_size[i], threads_per_block, out->launch_s,
                                    out->inflight_byte_per_thread, &m, err)))
      return rc;
    out->mean_abs_rel += fabs(m - measured_s[i]) / measured_s[i] / n;
  }
  return 0;
}

int dcsim_gpu_size_obs_of(const dcsim_dwarf_t *d, const char *case_name,
                          const dcsim_gpu_profile_t *gpu, int small_domain, dcsim_gpu_size_obs *o,
                          dcsim_error *err) {
  dcsim_dwarf_eval *ev = NULL;
  int rc = dcsim_dwarf_evaluate(d, case_name, NULL, 0, &ev, err);
  if (rc) return rc;
  dcsim_model_req rq;
  memset(&rq, 0, sizeof rq);
  rq.ev = ev;
  rq.gpu = gpu;
  rq.gpu_small_domain = small_domain;
  rq.energy_form = DCSIM_ENERGY_NONE;
  rq.flags = DCSIM_MODEL_D35; /* D3.5's GPU model, corrected only where asked */
  dcsim_prediction p;
  if (!(rc = dcsim_model_run(&rq, &p, err))) {
    o->model_s = p.time_s;
    o->domain_size = ev->domain_size;
    dcsim_prediction_release(&p);
  }
  dcsim_dwarf_eval_free(ev);
  return rc;
}
