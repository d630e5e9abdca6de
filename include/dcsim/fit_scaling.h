/* dcsim/fit_scaling.h — a dwarf's thread scaling law fitted on measured time-vs-threads runs
 * (doc/models.md "Thread scaling"). Ownership: dcsim_scaling_fit_release() frees a fit's points. */
#ifndef DCSIM_FIT_SCALING_H
#define DCSIM_FIT_SCALING_H

#include <stddef.h>
#include <stdio.h>

#include "dcsim/error.h"

/* ---- thread scaling (doc/models.md "Thread scaling", dcsim/model_threads.h) ----
 * Measurements: CSV with columns case (a case of the dwarf), threads, freq_ghz (GHz or a state
 * label of the profile), time_s and optionally nodes (default 1); other columns are ignored. Each
 * run on n > 1 threads gives the measured ratio T(n)/T(1) to the 1-thread run of the same case,
 * nodes and frequency (which must be there), and the per-loop model's computation ratio h =
 * T_hw(n)/T_hw(1) (without the dwarf's own law; measured runs are taken as computation, the
 * communication hidden as D3.5 §6.1.2 assumes). The law's ratio sigma + (1 - sigma) h +
 * kappa (n - 1) is fitted to the measured ratios by least squares on relative errors (GSL,
 * dcsim_fit_linear), 0 <= sigma <= 1, kappa >= 0. With two or more thread counts (besides 1) both
 * are fitted; with one, the two cannot be told apart and one parameter is: sigma first (kappa =
 * 0), and kappa only for what sigma = 1 cannot explain (a run slower on n threads than on one:
 * retrograde scaling, which only USL's coherence term gives). Every point gets its leave-one-out
 * prediction (the law refitted without it). */
typedef struct dcsim_scaling_point {
  char case_name[128];
  unsigned nodes, cores;
  double freq_ghz;
  int line;        /* of the n-thread run in the CSV */
  double hw_ratio; /* T_hw(n)/T_hw(1), the per-loop model */
  double measured; /* T(n)/T(1) measured */
  double fitted;   /* the law */
  double loo;      /* the law refitted without this point; NAN when nothing is left */
} dcsim_scaling_point;

typedef struct dcsim_scaling_fit {
  double sigma, kappa;
  unsigned cores_max;   /* the largest thread count measured */
  size_t n_core_counts; /* distinct thread counts above 1 */
  size_t n_points;
  dcsim_scaling_point *points; /* malloc'd: dcsim_scaling_fit_release */
  double max_rel_err, mean_rel_err, loo_max_rel_err, loo_mean_rel_err; /* loo: NAN if none */
} dcsim_scaling_fit;

struct dcsim_dwarf;
struct dcsim_cpu_profile;
int dcsim_calib_fit_scaling(const char *csv_path, const struct dcsim_dwarf *dwarf,
                            const struct dcsim_cpu_profile *cpu, dcsim_scaling_fit *out,
                            dcsim_error *err);
void dcsim_scaling_fit_release(dcsim_scaling_fit *f);
/* The data, the law, each point's fit and leave-one-out error. */
void dcsim_calib_scaling_report(FILE *f, const dcsim_scaling_fit *fit, const char *dwarf,
                                const char *cpu, const char *csv_path);
/* The <thread-scaling cpu=...> element (indented as in a dwarf file, with its <fit-point>s). */
void dcsim_calib_scaling_xml(FILE *f, const dcsim_scaling_fit *fit, const char *cpu,
                             const char *source);
/* Writes dwarf file in_path with the law for cpu (replacing the one it had for that CPU, else
 * after its last element) into out_path; the rest of the file is kept. */
int dcsim_calib_update_dwarf_scaling(const char *in_path, const char *out_path,
                                     const dcsim_scaling_fit *fit, const char *cpu,
                                     const char *source, dcsim_error *err);

#endif
