/* dcsim/energy.h — the energy models of D3.5 §5. Pure functions of plain numbers.
 *
 *   §5.3 (the form that reproduces Table 35), per node:
 *     E = (U*E_pkg(f,n) + S*E_pkg(f,idle))*T + (X*E_dram(f,n) + Y*E_dram(f,idle))*T
 *   §5.2, per node, summed over loops:
 *     E = E_pkg(f,n)*W*Tflop + E_dram(f,n)*Q*Tmop + E_const,
 *     E_const = E_dram(f,idle)*(W*Tflop - Q*Tmop) if compute-bound, E_pkg(f,idle)*(Q*Tmop -
 * W*Tflop) if memory-bound §5.5 GPU: E = T*(E_pkg(f,idle) + S*E_gpu) §5.6 multinode: E = sum over
 * nodes §5.7 two dwarfs: no overlap E1 + E1const*T2 + E2 + E2const*T1; overlap    E1 + E2 +
 * (T2-T1)*E1const if T1<T2, (T1-T2)*E2const if T1>T2 "E_pkg" values of D3.5 are energies of a
 * one-second RAPL sample, i.e. powers in W. */
#ifndef DCSIM_ENERGY_H
#define DCSIM_ENERGY_H

#include <stddef.h>

#include "dcsim/dwarf.h"
#include "dcsim/hwprofile.h"
#include "dcsim/model_cpu.h"

typedef struct dcsim_cpu_energy {
  double pkg_j, dram_j, energy_j;
} dcsim_cpu_energy;

dcsim_cpu_energy dcsim_energy_cpu_53(const dcsim_energy_coeffs *c, const dcsim_cpu_power *pw,
                                     double time_s);
dcsim_cpu_energy dcsim_energy_cpu_52(const dcsim_cpu_power *pw, const dcsim_loop_part *parts,
                                     size_t n_parts);
double dcsim_energy_gpu(double time_s, double host_pkg_idle_w, double fraction_S,
                        double power_limit_w);
/* Board power of a GPU in dcsim's default energy model (doc/models.md "GPU power"), for a GPU
 * without a measured fraction: P = P0 + activity x busy x (limit - P0), P0 the active idle (P0
 * state; the lowest idle when the profile has none), busy the share of the time spent computing or
 * transferring (clipped to 1): never above the limit. */
double dcsim_energy_gpu_board_w(const dcsim_gpu_spec *g, double activity, double busy);
/* The activity of a GPU over a run (dcsim/model_gpu.h dcsim_gpu_activity_of): busy share and
 * utilisations (instruction rates over peaks; traffic over the memory bandwidth; may exceed 1). */
typedef struct dcsim_gpu_activity {
  double busy, u_fp64, u_fp32, u_int, u_dram, u_l2;
  double u_issue;   /* warp instructions issued over the SMs' issue slots (lanes ignored) */
  double u_scatter; /* DRAM bytes moved beyond those requested (uncoalesced access), over the
                       memory bandwidth */
} dcsim_gpu_activity;
/* Board power by activity (doc/models.md "GPU power by activity"), the profile's <power-model>:
 * P = P_ctx + busy*busy_w + u_fp64*fp64_w + u_fp32*fp32_w + u_int*int_w + u_dram*dram_w +
 * u_l2*l2_w + u_issue*issue_w + u_scatter*scatter_w, P_ctx the active idle; never above the
 * limit. */
double dcsim_energy_gpu_activity_w(const dcsim_gpu_spec *g, const dcsim_gpu_activity *a);
double dcsim_energy_nwp_nooverlap(double e1_j, double e1const_w, double t1_s, double e2_j,
                                  double e2const_w, double t2_s);
double dcsim_energy_nwp_overlap(double e1_j, double e1const_w, double t1_s, double e2_j,
                                double e2const_w, double t2_s);

#endif
