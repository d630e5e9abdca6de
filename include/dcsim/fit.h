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
  double flop_rate;  /* 1/Tflop in flop/s; 0 if the loop does no work */
  double byte_rate;  /* 1/Tmop in byte/s */
} dcsim_split_loop;

typedef struct dcsim_split_result {
  double model_time_s;   /* sum of loop times with the split */
  double residual_s;     /* model - measured */
  double distance;       /* L1 distance of the shares from the even split */
} dcsim_split_result;

int dcsim_fit_split(const dcsim_split_loop *loops, size_t n, double work_flop,
                    double traffic_byte, double time_s, double *work_out, double *traffic_out,
                    dcsim_split_result *res, dcsim_error *err);

#endif
