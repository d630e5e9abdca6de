/* dcsim/model_gpu.h — the GPU instruction-counter model of D3.5 §3.4, Table 11.
 *
 *   T_i   = P_i*I_e*N/(IPC_e*C_G*SM)     inactive        T_cf = N*i_f*2/O_f   single precision
 *   T_m   = P_m*I_e*N/(IPC_e*C_G*SM)     miscellaneous   T_cd = N*i_d*2/O_d   double precision
 *   T_cfl = P_cfl*I_e*N/(IPC_e*C_G*SM)   control flow    T_ci = N*i_i/O_i     integer
 *   T_t   = G_r*N/(G_max*G_e)            transfer (G_e adjusted on Fermi, §3.4)
 *   T_sim = sum; each kernel runs `invocations` times per call of the dwarf.
 * Reported groups follow Tables 12-17: compute = T_cf+T_cd+T_ci, transfer = T_t,
 * inactive = T_i+T_m+T_cfl.
 *
 * Ownership: the result is freed with dcsim_gpu_result_free(); names are borrowed. */
#ifndef DCSIM_MODEL_GPU_H
#define DCSIM_MODEL_GPU_H

#include <stddef.h>

#include "dcsim/dwarf.h"
#include "dcsim/energy.h"
#include "dcsim/hwprofile.h"

typedef struct dcsim_kernel_part {
  const char *name;
  double inactive_only_s, misc_s, cfl_s, sp_s, dp_s, int_s; /* Table 11 terms, per call */
  double compute_s, transfer_s, inactive_s, time_s;
  double G_e_used;         /* after the Fermi adjustment */
  double occupancy;        /* small-domain correction: min(1, N/(SM*sat)); 1 without it */
  double ramp_s, launch_s; /* its terms: Table 11 sum*(1/occupancy - 1), invocations*launch */
  double latency_s;        /* architecture model: invocations x the latency floor of the longest
                            * thread (chain-inst x dependent-issue cycles / clock), 0 without */
} dcsim_kernel_part;

typedef struct dcsim_gpu_result {
  size_t n_kernels;
  dcsim_kernel_part *parts;
  double compute_s, transfer_s, inactive_s, time_s;
  double overhead_s;    /* small-domain correction: sum of ramp_s + launch_s (0 without it) */
  double launch_only_s; /* the launches alone (no kernel on the SMs): sum of launch_s */
} dcsim_gpu_result;

/* Small-domain correction (opt-in; doc/models.md "GPU: small domains"), with the profile's
 * fitted <small-domain> parameters, one thread per domain point:
 *   occupancy = min(1, N/(SM*saturation-threads-per-sm))
 *   T_k' = T_k/occupancy + invocations*launch-s
 * It is off by default so that D3.5's Tables 12, 15 and 18 are reproduced as published. */
typedef struct dcsim_gpu_opts {
  int small_domain;   /* 1: apply the correction (the profile must have <small-domain>) */
  double domain_size; /* > 0: use this N instead of the dwarf's (a part of a split domain) */
  int arch;           /* 1: the architecture model (the default; dcsim_model_gpu_arch) */
} dcsim_gpu_opts;

/* The architecture model (doc/models.md "GPU: architecture model"), the default without --d35.
 * Per kernel and invocation, with the profile's <device> (SM, clock f, bandwidth B) and its
 * architecture's per-clock throughput (dcsim/gpuarch.h):
 *   bulk  T_b = N*i_d/(SM*fp64*f) + N*i_f/(SM*fp32*f) + N*i_i/(SM*int*f)      compute
 *             + G_r*N/(B*G_e)                                                 transfer
 *             + (P_i+P_m+P_cfl)*I_e*N/(IPC_e*f*SM)                            inactive
 *   waves: one thread per point, blocks of b threads (<launch>), r = min(max blocks,
 *     max threads/b) resident per SM; each wave of at most SM*r blocks takes
 *     p*SM*(T_b/N)/min(1, p/s) for p points on its busiest SM, where
 *     s = L*(B/SM)/beta threads per SM hide the DRAM latency L (Little's law, beta bytes in
 *     flight per thread);
 *   T_k = launch-s + sum over waves.
 * Without the dwarf's <launch> it is the bulk alone. */
int dcsim_model_gpu_arch(const dcsim_dwarf_eval *ev, const dcsim_gpu_profile_t *gpu, double N,
                         dcsim_gpu_result **out, dcsim_error *err);
/* Launch and latency (doc/models.md "Launch and latency"): on a GPU whose profile has <launch>,
 * each invocation costs the profile's synchronous launch plus the latency floor of the kernel's
 * longest thread, chain-inst x <issue-latency dependent-cycles> / clock (Brent's bound: time <=
 * work/throughput + span); elsewhere the dwarf's fitted launch-s, as before. A kernel with
 * time-form="roofline" has bulk max(N I_e/(IPC_e f SM), N i_d/(SM fp64 f), N i_f/(SM fp32 f),
 * N dram/B) instead of D3.5's sum. */

/* What one call does on one GPU for the power model (doc/models.md "GPU power by activity"),
 * over the call's modelled time T: busy = 1 - launches/T; the FP64, FP32 and integer/other
 * instruction rates over the architecture's peaks; DRAM and L2 traffic over the device's memory
 * bandwidth. N: the points one GPU computes. Errors when a kernel has no activity counts. */
int dcsim_gpu_activity_of(const dcsim_dwarf_eval *ev, const dcsim_gpu_spec *g,
                          const dcsim_gpu_result *r, double N, dcsim_gpu_activity *out,
                          dcsim_error *err);

/* Threads per SM that saturate the GPU by Little's law: L*(B/SM)/beta (0 without <launch>). */
double dcsim_gpu_saturation_threads(const dcsim_dwarf_eval *ev, const dcsim_gpu_spec *g);

/* The occupancy of the small-domain correction: min(1, N/(sm*saturation_threads_per_sm)). */
double dcsim_gpu_occupancy(double domain_size, unsigned sm, double saturation_threads_per_sm);

int dcsim_model_gpu(const dcsim_dwarf_eval *ev, const dcsim_gpu_profile_t *gpu,
                    dcsim_gpu_result **out, dcsim_error *err);
/* The same with options (NULL = dcsim_model_gpu). */
int dcsim_model_gpu_opts(const dcsim_dwarf_eval *ev, const dcsim_gpu_profile_t *gpu,
                         const dcsim_gpu_opts *opts, dcsim_gpu_result **out, dcsim_error *err);
void dcsim_gpu_result_free(dcsim_gpu_result *r);

#endif
