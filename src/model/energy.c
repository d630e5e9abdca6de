/* energy.c — D3.5 §5 energy models (see dcsim/energy.h). */
#include "dcsim/energy.h"

#include <math.h>

dcsim_cpu_energy dcsim_energy_cpu_53(const dcsim_energy_coeffs *c, const dcsim_cpu_power *pw,
                                     double time_s) {
  dcsim_cpu_energy e;
  e.pkg_j = (c->pkg_U * pw->pkg_w + c->pkg_S * pw->pkg_idle_w) * time_s;      /* §5.3 PKG */
  e.dram_j = (c->dram_X * pw->dram_w + c->dram_Y * pw->dram_idle_w) * time_s; /* §5.3 DRAM */
  e.energy_j = e.pkg_j + e.dram_j;
  return e;
}

dcsim_cpu_energy dcsim_energy_cpu_52(const dcsim_cpu_power *pw, const dcsim_loop_part *parts,
                                     size_t n_parts) {
  dcsim_cpu_energy e = { 0, 0, 0 };
  for (size_t i = 0; i < n_parts; i++) {
    double tf = parts[i].flop_time_s, tm = parts[i].mem_time_s;
    e.pkg_j += pw->pkg_w * tf;   /* §5.2: E_pkg(f,n)*W*Tflop */
    e.dram_j += pw->dram_w * tm; /* §5.2: E_dram(f,n)*Q*Tmop */
    if (tf > tm)
      e.dram_j += pw->dram_idle_w * (tf - tm); /* §5.2: E_const, compute-bound */
    else if (tm > tf)
      e.pkg_j += pw->pkg_idle_w * (tm - tf); /* §5.2: E_const, memory-bound */
  }
  e.energy_j = e.pkg_j + e.dram_j;
  return e;
}

double dcsim_energy_gpu(double time_s, double host_pkg_idle_w, double fraction_S,
                        double power_limit_w) {
  return time_s * (host_pkg_idle_w + fraction_S * power_limit_w); /* §5.5 */
}

double dcsim_energy_gpu_board_w(const dcsim_gpu_spec *g, double activity, double busy) {
  double p0 = g->active_idle_w > 0 ? g->active_idle_w : g->idle_w;
  return p0 + activity * fmin(1, busy) * (g->power_limit_w - p0);
}

double dcsim_energy_gpu_activity_w(const dcsim_gpu_spec *g, const dcsim_gpu_activity *a) {
  /* doc/models.md "GPU power by activity": a linear model in the resources' use, fitted on
   * labelled power phases (dcsim calibrate gpu), in the spirit of Hong and Kim's integrated
   * power model (ISCA 2010: idle + per-unit access rates x unit powers) */
  double p = g->active_idle_w + fmin(1, fmax(0, a->busy)) * g->pm_busy_w +
             a->u_fp64 * g->pm_fp64_w + a->u_fp32 * g->pm_fp32_w + a->u_int * g->pm_int_w +
             a->u_dram * g->pm_dram_w + a->u_l2 * g->pm_l2_w + a->u_issue * g->pm_issue_w +
             a->u_scatter * g->pm_scatter_w;
  return fmin(p, g->power_limit_w);
}

double dcsim_energy_nwp_nooverlap(double e1_j, double e1const_w, double t1_s, double e2_j,
                                  double e2const_w, double t2_s) {
  return e1_j + e1const_w * t2_s + e2_j + e2const_w * t1_s; /* §5.7 no overlap */
}

double dcsim_energy_nwp_overlap(double e1_j, double e1const_w, double t1_s, double e2_j,
                                double e2const_w, double t2_s) {
  double econst = 0; /* §5.7 overlap: the shorter side idles while the longer finishes */
  if (t1_s < t2_s)
    econst = (t2_s - t1_s) * e1const_w;
  else if (t1_s > t2_s)
    econst = (t1_s - t2_s) * e2const_w;
  return e1_j + e2_j + econst;
}
