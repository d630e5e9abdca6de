/* dcsim/fit_coeffs.h — loop (D3.5 §4.3, §6.1.2) and energy (§5.3) coefficients fitted on
 * measurements against a CPU profile's tables, and written back into dwarf files
 * (doc/calibration.md). Ownership: *fits is malloc'd, the caller frees it. */
#ifndef DCSIM_FIT_COEFFS_H
#define DCSIM_FIT_COEFFS_H

#include <stddef.h>
#include <stdio.h>

#include "dcsim/error.h"
#include "dcsim/fit.h"
#include "dcsim/fit_power.h"

/* ---- loop coefficients (§4.3, §6.1.2) ----
 * Measurements: CSV with columns loop, frequency (GHz or a state label), threads, traffic_byte,
 * work_flop, time_s. R = traffic/time is fitted as L1*V + L2*X + L3*Y + DRAM*Z (V..Z >= 0, LAD LP
 * by default), M = work/time as P*U + S (U, S >= 0, least squares by default) over the states,
 * with the profile's tables at each state. */
typedef struct dcsim_loop_fit {
  char name[128];
  size_t n_states;
  double V, X, Y, Z;
  int has_flop;
  double U, S_flops;
  dcsim_fit_stats mop_stats, flop_stats;
} dcsim_loop_fit;

typedef struct dcsim_loop_fit_opts {
  dcsim_fit_method mop_method;  /* default DCSIM_FIT_LAD */
  dcsim_fit_method flop_method; /* default DCSIM_FIT_LSQ */
  FILE *report;                 /* residuals per state and summary; may be NULL */
  unsigned exclude_threads;     /* rows with this thread count are left out (held out); 0 = none */
} dcsim_loop_fit_opts;

struct dcsim_cpu_profile;
/* *fits: malloc'd array of *n_fits loops (in order of first appearance). */
int dcsim_calib_fit_loops(const char *csv_path, const struct dcsim_cpu_profile *cpu,
                          const dcsim_loop_fit_opts *o, dcsim_loop_fit **fits, size_t *n_fits,
                          dcsim_error *err);
/* Rewrites the <mop>/<flop> coefficients of the named loops of dwarf file in_path into out_path
 * (other content kept; a loop of fits that the dwarf lacks is an error). */
int dcsim_calib_update_dwarf(const char *in_path, const char *out_path, const dcsim_loop_fit *fits,
                             size_t n_fits, const char *source, dcsim_error *err);

/* ---- energy coefficients (§5.3) ----
 * Measurements: CSV with columns cores, pkg_j, dram_j (energy over one-second RAPL samples = W),
 * fitted against the profile's energy table: E_mpkg(n) = U*E_pkg(n) + S*E_pkg(idle) and
 * E_mdram(n) = X*E_dram(n) + Y*E_dram(idle). */
typedef struct dcsim_energy_fit {
  double pkg_U, pkg_S, dram_X, dram_Y;
  size_t n_states;
  dcsim_fit_stats pkg_stats, dram_stats;
  /* the default power model's <power-activity> from the same PKG column (dcsim/fit_power.h);
   * has_activity 0 when the states do not start with 1 core */
  int has_activity;
  double act_first, act_extra;
  dcsim_power_fit_stats act_stats;
} dcsim_energy_fit;
int dcsim_calib_fit_energy(const char *csv_path, const struct dcsim_cpu_profile *cpu,
                           const char *freq, dcsim_fit_method method, FILE *report,
                           dcsim_energy_fit *out, dcsim_error *err);

#endif
