/* dcsim/fit.h — fitting model inputs to measurements with GLPK (linear programming) and GSL.
 *
 * dcsim_fit_split(): D3.5 gives BiFFT's per-loop coefficients but only the totals W and Q of a run
 * (Tables 38-39). This LP distributes the totals over the loops so that the §4.3 model reproduces
 * the measured time, staying as close as possible (L1 distance) to an even split:
 *   variables  a_l >= 0 (share of W, loops with Tflop), b_l >= 0 (share of Q, all loops)
 *   sum a = 1, sum b = 1
 *   W*a_l/F_l <= Q*b_l/M_l               every loop memory-bound (D3.5 §6.1.2: I = 0.12-0.13)
 *   sum Q*b_l/M_l + e+ - e- = T          modelled time = measured time
 *   minimise 1000*(e+ + e-)/T + sum |b_l - 1/n_q| + sum |a_l - 1/n_w|
 * where F_l = P*U+S and M_l = L1*V+L2*X+L3*Y+DRAM*Z at the measured state.
 * Ownership: outputs are caller arrays of n entries. */
#ifndef DCSIM_FIT_H
#define DCSIM_FIT_H

#include <stddef.h>

#include "dcsim/error.h"

typedef struct dcsim_split_loop {
  double flop_rate; /* 1/Tflop in flop/s; 0 if the loop does no work */
  double byte_rate; /* 1/Tmop in byte/s */
} dcsim_split_loop;

typedef struct dcsim_split_result {
  double model_time_s; /* sum of loop times with the split */
  double residual_s;   /* model - measured */
  double distance;     /* L1 distance of the shares from the even split */
} dcsim_split_result;

int dcsim_fit_split(const dcsim_split_loop *loops, size_t n, double work_flop, double traffic_byte,
                    double time_s, double *work_out, double *traffic_out, dcsim_split_result *res,
                    dcsim_error *err);

/* ---- linear fits: b ~ A x (D3.5 §5.3, §6.1.2) ----
 *
 * One observation per row of A (n_obs x n_coef, row-major). Methods:
 *  LAD (least absolute deviation) by linear programming with GLPK — D3.5 §6.1.2 fits V, X, Y, Z
 *    "by the linear programming (LP) method". The LP (doc/calibration.md "The LAD LP"):
 *      variables  x_j (>= 0 where nonneg[j], else free), e+_i >= 0, e-_i >= 0
 *      rows       sum_j A_ij x_j / s_i - e+_i + e-_i = b_i / s_i      (one per observation)
 *      minimise   sum_i w_i (e+_i + e-_i) + 1e-6 * sum_j reg_j x_j
 *    with s_i = |b_i| when `relative` (relative deviations), else s_i = max_i |b_i|. reg (may be
 *    NULL) only breaks ties between equally good solutions (underdetermined fits).
 *  LSQ (weighted least squares, GSL gsl_multifit_wlinear): minimise sum_i w_i (r_i / s_i)^2.
 *    Coefficients marked nonneg are kept >= 0 by trying every subset of them fixed at 0 and
 *    keeping the best feasible solution (exact non-negative least squares; n_coef <= 12).
 *  ENDPOINTS: the exact solution through the first and last observation (n_coef = 2 only); the
 *    fit that reproduces D3.5 Tables 42-43 (doc/calibration.md).
 * Columns are scaled to unit maximum before solving. Ownership: coef/pred/loo are caller arrays. */
typedef enum { DCSIM_FIT_LAD = 0, DCSIM_FIT_LSQ = 1, DCSIM_FIT_ENDPOINTS = 2 } dcsim_fit_method;

typedef struct dcsim_linfit {
  size_t n_obs, n_coef;
  const double *A;             /* n_obs x n_coef */
  const double *b;             /* n_obs */
  const double *w;             /* weights, NULL = 1 */
  const unsigned char *nonneg; /* per coefficient, NULL = all free */
  const double *reg;           /* LAD tie-break cost per unit of x_j, NULL = none */
  int relative;                /* deviations relative to b */
} dcsim_linfit;

typedef struct dcsim_fit_stats {
  double max_rel_err, mean_rel_err;         /* |pred - b| / |b| over the observations */
  double loo_max_rel_err, loo_mean_rel_err; /* leave-one-out: refit without i, predict i; NAN if
                                              fewer than 2 observations */
} dcsim_fit_stats;

const char *dcsim_fit_method_name(dcsim_fit_method m);
int dcsim_fit_method_parse(const char *s, dcsim_fit_method *m);

int dcsim_fit_linear(const dcsim_linfit *p, dcsim_fit_method m, double *coef, dcsim_error *err);
/* pred (n_obs, may be NULL): A coef; loo (n_obs, may be NULL): held-out predictions (NAN where a
 * refit is impossible). */
int dcsim_fit_evaluate(const dcsim_linfit *p, dcsim_fit_method m, const double *coef, double *pred,
                       double *loo, dcsim_fit_stats *st, dcsim_error *err);

#endif
