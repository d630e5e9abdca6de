/* dcsim/fit_power.h — fitting the default power model (dcsim/cpu_power.h) to measured power
 * (doc/calibration.md, "Power model"). Least squares with GSL (dcsim_fit_linear, coefficients kept
 * >= 0); every fit reports its errors on the measured powers themselves and its leave-one-out
 * errors (refit without a row, predict it).
 *
 *   package   P(n) = idle + awake + n * core            (full-load RAPL table, n >= 1 cores)
 *   DRAM      D(n) = idle + j_per_byte * B(n)           (B: DRAM bandwidth at that state)
 *   activity  M(n) = idle + a1 (F(1) - idle) + aN (F(n) - F(1))   (a dwarf's measured package
 *             power M against the full-load F of the same processor, D3.5 Tables 33 and 42)
 *
 * Ownership: inputs are caller arrays of n entries; nothing is kept. */
#ifndef DCSIM_FIT_POWER_H
#define DCSIM_FIT_POWER_H

#include <stddef.h>
#include <stdio.h>

#include "dcsim/error.h"

typedef struct dcsim_power_fit_stats {
  size_t n;
  double rms_w;           /* root mean square of fit - measured, W */
  double max_rel_err;     /* worst |fit - measured| / measured */
  double loo_max_rel_err; /* worst held-out error; NAN when no row can be left out */
  double loo_mean_rel_err;
  double pred_w[64], loo_w[64]; /* per row (the first 64), loo NAN where impossible */
} dcsim_power_fit_stats;

int dcsim_fit_package(double idle_w, const unsigned *cores, const double *pkg_w, size_t n,
                      double *awake_w, double *core_w, dcsim_power_fit_stats *st, dcsim_error *err);
int dcsim_fit_dram(double idle_w, const double *bw_bps, const double *dram_w, size_t n,
                   double *j_per_byte, dcsim_power_fit_stats *st, dcsim_error *err);
/* full_w and meas_w at the same core counts; the first row must be 1 core. */
int dcsim_fit_activity(double idle_w, const unsigned *cores, const double *full_w,
                       const double *meas_w, size_t n, double *first_core, double *extra_core,
                       dcsim_power_fit_stats *st, dcsim_error *err);

/* One line per row (cores, measured, fit, error, held-out) and the summary. */
void dcsim_power_fit_report(FILE *f, const char *what, const unsigned *cores, const double *meas_w,
                            const dcsim_power_fit_stats *st);

#endif
