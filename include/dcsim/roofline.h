/* dcsim/roofline.h — roofline data (Williams, Waterman & Patterson, CACM 2009) for a CPU state
 * or a GPU, with a dwarf's loops or kernels placed on it (D3.5 §3.3 Figures 4-9 and Table 1;
 * §6.1 Figures 17-18, 21-22 and 24-25).
 *
 * Ceilings: attainable performance = min(peak, I x bandwidth) for operational intensity I in
 * flop/byte; below them a CPU profile's optimisation ceilings (<ceilings>: without ILP, SIMD or
 * multiply-add balance; without memory affinity or software prefetch). CPU: peak P(f,n) and the L1,
 * L2, L3 and DRAM bandwidths of the profile's tables at the state (f, n) — the cache-aware
 * roofline; the classic roofline is peak and DRAM only. GPU: peak double and single precision and
 * the memory bandwidth of D3.5 Table 10.
 *
 * Points: each loop / kernel at (I = W/Q, W/T) with T its model time:
 *   CPU loop  W, Q of the dwarf file; T = max(W*Tflop, Q*Tmop) of the §4.3 model on one node;
 *   GPU kernel W = 2 * i_dp * N * invocations (Table 11 counts a DP instruction as 2 flop, as in
 *             T_cd = 2*N*i_d/O_d), Q = G_r * N * invocations, T = the Table 11 model time.
 *   plus the whole dwarf: sum W / sum Q at sum W / T. Loops without work (W = 0) have no place on
 *   a log-log roofline: they are counted in n_unplaced.
 *
 * Ownership: the constructors return a heap object freed by dcsim_roofline_free(); names are
 * copied into it. */
#ifndef DCSIM_ROOFLINE_H
#define DCSIM_ROOFLINE_H

#include <stddef.h>
#include <stdio.h>

#include "dcsim/dwarf.h"
#include "dcsim/error.h"
#include "dcsim/hwprofile.h"
#include "dcsim/repro.h"

typedef struct dcsim_roofline_ceiling {
  char name[16]; /* "L1", "L2", "L3", "DRAM", "memory" */
  double bw_bps;
} dcsim_roofline_ceiling;

typedef struct dcsim_roofline_point {
  char name[96];
  double work_flop, traffic_byte, time_s;
  double intensity;  /* W/Q, flop/byte */
  double perf_flops; /* W/T */
  int is_total;      /* the whole dwarf */
} dcsim_roofline_point;

typedef struct dcsim_roofline {
  char device[96];      /* profile name */
  char state[64];       /* "2.6 GHz, 1 core" / "" for a GPU */
  char dwarf[96];       /* "bifft 200x180_525" or "" */
  double peak_flops;    /* CPU: P(f,n); GPU: double precision */
  double peak_sp_flops; /* GPU only, else 0 */
  size_t n_ceilings;
  dcsim_roofline_ceiling ceilings[4];
  size_t n_points;
  dcsim_roofline_point *points;
  size_t n_unplaced; /* loops with W = 0 */
  /* the profile's optimisation ceilings (CACM 2009; CPU profiles with <ceilings>): in-core
   * ceilings are drawn as min(I x DRAM bandwidth, value), memory ceilings as min(I x value, peak)
   */
  size_t n_optim;
  dcsim_profile_ceiling optim[DCSIM_MAX_CEILINGS];
} dcsim_roofline;

/* ev may be NULL (ceilings only). The CPU loops are placed with the model on one node. */
int dcsim_roofline_cpu(const dcsim_cpu_profile_t *cpu, const dcsim_cpu_state *st,
                       const dcsim_dwarf_eval *ev, const char *dwarf_label, dcsim_roofline **out,
                       dcsim_error *err);
int dcsim_roofline_gpu(const dcsim_gpu_profile_t *gpu, const dcsim_dwarf_eval *ev,
                       const char *dwarf_label, dcsim_roofline **out, dcsim_error *err);
void dcsim_roofline_free(dcsim_roofline *r);

/* Attainable performance at intensity I under ceiling c (c >= n_ceilings: the lowest, DRAM/memory).
 */
double dcsim_roofline_attainable(const dcsim_roofline *r, size_t c, double intensity);

#endif
