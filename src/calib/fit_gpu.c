/* fit_gpu.c — fitting the GPU small-domain correction (see dcsim/fit_gpu.h). */
#include "dcsim/fit_gpu.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multimin.h>

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
  gsl_multimin_function f = { nm_f, 2, &d };
  gsl_vector *x = gsl_vector_alloc(2), *step = gsl_vector_alloc(2);
  gsl_multimin_fminimizer *m = gsl_multimin_fminimizer_alloc(gsl_multimin_fminimizer_nmsimplex2, 2);
  int rc = 0;
  if (!x || !step || !m) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    goto out;
  }
  gsl_vector_set(x, 0, bl);
  gsl_vector_set(x, 1, bs);
  gsl_vector_set(step, 0, 0.0125);
  gsl_vector_set(step, 1, log(65536.0) / 320);
  if (gsl_multimin_fminimizer_set(m, &f, x, step)) {
    rc = DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0, "GSL simplex setup failed");
    goto out;
  }
  for (int it = 0; it < 10000; it++) {
    if (gsl_multimin_fminimizer_iterate(m)) break;
    if (gsl_multimin_test_size(gsl_multimin_fminimizer_size(m), 1e-10) == GSL_SUCCESS) break;
  }
  double l = gsl_vector_get(m->x, 0), ls = gsl_vector_get(m->x, 1);
  if (!(m->fval <= best)) {
    l = bl;
    ls = bs;
  }
  out->launch_s = l * 1e-3;
  out->saturation_threads_per_sm = exp(ls);
  out->rss = rss(&d, l, ls);
  out->mean_abs_rel = 0;
  for (size_t i = 0; i < n; i++)
    out->mean_abs_rel += fabs(dcsim_gpu_small_time(obs[i].model_s, obs[i].domain_size, sm, launches,
                                                   out->launch_s, out->saturation_threads_per_sm) -
                              obs[i].measured_s) /
                         obs[i].measured_s / n;
out:
  if (m) gsl_multimin_fminimizer_free(m);
  if (x) gsl_vector_free(x);
  if (step) gsl_vector_free(step);
  return rc;
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
