/* dcsim/fit_gpu.h — fitting the small-domain correction of the GPU model (dcsim/model_gpu.h) to
 * measured whole-dwarf times at several domain sizes (D3.5 Tables 4/18 for the GTX 970).
 *
 * The corrected time of a run whose Table 11 time is T at domain size N is
 *   T'(N) = T/min(1, N/(SM*sat)) + launches*launch_s       (launches = kernels x invocations)
 * and the fit minimises the sum of squared relative errors (T'(N_i) - T_meas,i)/T_meas,i over
 * launch_s >= 0 and sat > 0: a grid search, then a Nelder-Mead simplex (GSL) from its best point.
 *
 * Ownership: plain values in and out; nothing is allocated that outlives a call. */
#ifndef DCSIM_FIT_GPU_H
#define DCSIM_FIT_GPU_H

#include <stddef.h>

#include "dcsim/dwarf.h"
#include "dcsim/error.h"
#include "dcsim/hwprofile.h"

typedef struct dcsim_gpu_size_obs {
  double domain_size; /* N */
  double model_s;     /* Table 11 time of the whole dwarf */
  double measured_s;
} dcsim_gpu_size_obs;

typedef struct dcsim_gpu_small_fit {
  double launch_s, saturation_threads_per_sm;
  double rss;          /* sum of squared relative errors at the optimum */
  double mean_abs_rel; /* mean |relative error| at the optimum */
} dcsim_gpu_small_fit;

/* The observation of one profiled case: its domain size N and the model time of the dwarf on the
 * GPU (D3.5's model in --d35 mode; with small_domain the correction of the profile) in o->model_s
 * (o->measured_s is left to the caller). */
int dcsim_gpu_size_obs_of(const dcsim_dwarf_t *d, const char *case_name,
                          const dcsim_gpu_profile_t *gpu, int small_domain, dcsim_gpu_size_obs *o,
                          dcsim_error *err);

/* T'(N) of the formula above. */
double dcsim_gpu_small_time(double model_s, double domain_size, unsigned sm, double launches,
                            double launch_s, double saturation_threads_per_sm);

int dcsim_fit_gpu_small_domain(const dcsim_gpu_size_obs *obs, size_t n, unsigned sm,
                               double launches, dcsim_gpu_small_fit *out, dcsim_error *err);

/* The launch and occupancy terms of the architecture model (dcsim/model_gpu.h, the dwarf's
 * <launch>) fitted to whole-dwarf times measured on one GPU at several domain sizes: launch-s >= 0
 * and inflight-byte-per-thread > 0 minimising the sum of squared relative errors of
 * dcsim_model_gpu_arch (grid search, then a Nelder-Mead simplex from its best point), with
 * threads_per_block fixed. ev's own <launch> is ignored. */
typedef struct dcsim_gpu_launch_fit {
  double launch_s, inflight_byte_per_thread;
  double rss, mean_abs_rel;
} dcsim_gpu_launch_fit;

int dcsim_fit_gpu_launch(const dcsim_dwarf_eval *ev, const dcsim_gpu_profile_t *gpu,
                         const double *domain_size, const double *measured_s, size_t n,
                         unsigned threads_per_block, dcsim_gpu_launch_fit *out, dcsim_error *err);
/* The architecture model's time of ev at N points with these launch terms. */
int dcsim_gpu_launch_time(const dcsim_dwarf_eval *ev, const dcsim_gpu_profile_t *gpu, double N,
                          unsigned threads_per_block, double launch_s, double inflight_byte,
                          double *time_s, dcsim_error *err);

#endif
