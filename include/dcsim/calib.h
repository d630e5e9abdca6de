/* dcsim/calib.h — calibration: benchmark tables in calibration/<machine>/ turned into hardware
 * profiles, fits of loop and energy coefficients (D3.5 §4.3, §5.3, §6.1.2), GPU profiler counters
 * turned into kernel characteristics (§3.4, Tables 7-9), and importers for likwid-bench output and
 * Kerncraft machine files. Formats: doc/calibration.md.
 *
 * A calibration directory holds machine.xml (schemas/calibration-machine.xsd: spec, frequency
 * states, provenance, which CSV holds which table) and one CSV per quantity with the columns
 * frequency, threads, value, unit[, source]. Cell texts are copied into the profile unchanged, so
 * a profile generated from the D3.5 tables keeps the paper's digits.
 *
 * Ownership: functions returning text (char **) give a malloc'd, NUL-terminated string the caller
 * frees. Reports are written to a caller FILE. */
#ifndef DCSIM_CALIB_H
#define DCSIM_CALIB_H

#include <stddef.h>
#include <stdio.h>

#include "dcsim/calib_power.h"
#include "dcsim/error.h"
#include "dcsim/fit.h"

/* The CPU profile XML for calibration directory `dir` (doc/calibration.md "From tables to a
 * profile"). Deterministic: the same directory gives the same bytes. */
int dcsim_calib_cpu_profile(const char *dir, char **text, dcsim_error *err);
/* The same, with the parametric model's report (what was fitted, what assumed, the errors at the
 * cells; dcsim/perf_fit.h) written to `report` (NULL = none). machine.xml's <perf-fit reference>
 * directory is fitted first (its profile is not written). */
int dcsim_calib_cpu_profile_report(const char *dir, char **text, FILE *report, dcsim_error *err);

/* Writes text to path through a temporary file and rename (never half a file). */
int dcsim_calib_write_file(const char *path, const char *text, dcsim_error *err);

/* XML-escapes s for an attribute value or element text into f. */
void dcsim_calib_xml_escape(FILE *f, const char *s);

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
  /* the default power model's <power-activity> from the same PKG column (dcsim/calib_power.h);
   * has_activity 0 when the states do not start with 1 core */
  int has_activity;
  double act_first, act_extra;
  dcsim_power_fit_stats act_stats;
} dcsim_energy_fit;
int dcsim_calib_fit_energy(const char *csv_path, const struct dcsim_cpu_profile *cpu,
                           const char *freq, dcsim_fit_method method, FILE *report,
                           dcsim_energy_fit *out, dcsim_error *err);

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

/* ---- GPU kernel characteristics (§3.4, Tables 7-9) ----
 * Profiler exports, one per GPU: nvprof --csv (metric, event, summary or GPU-trace tables, several
 * tables per file allowed) or ncu --csv. Each export is normalised by its domain size N (Table 7)
 * and the per-GPU characteristics of Table 8 are averaged over the GPUs. An argument may also be a
 * manifest CSV with the columns export, domain_size (paths relative to the manifest). */
typedef struct dcsim_gpu_chars {
  char name[256]; /* kernel name as the dwarf writes it (letters, digits, _ . : + -) */
  double P_inactive, P_misc, P_cfl, G_e, G_r_byte, i_int, i_sp, i_dp, I_e, IPC_e;
} dcsim_gpu_chars;

typedef struct dcsim_gpu_calib {
  size_t n_kernels, n_gpus;
  dcsim_gpu_chars *mean;    /* n_kernels, in order of first appearance: the averages */
  dcsim_gpu_chars *per_gpu; /* n_gpus * n_kernels, GPU-major */
  char (*gpu_label)[256];   /* n_gpus: device name from the export, or the file name */
  char (*gpu_file)[1024];   /* n_gpus: the export */
  char (*gpu_how)[256];     /* n_gpus: layout and the derivations used (IPC, bytes) */
  double *domain_size;      /* n_gpus: N of each export */
} dcsim_gpu_calib;

/* paths: exports or manifests; domain_size: N of every export not listed in a manifest (0 = none
 * given, an error for such an export). *out is freed by dcsim_gpu_calib_free(). */
int dcsim_calib_gpu(const char *const *paths, size_t n_paths, double domain_size,
                    dcsim_gpu_calib **out, dcsim_error *err);
void dcsim_gpu_calib_free(dcsim_gpu_calib *c);
/* Per-GPU and mean characteristics, one block per kernel. */
void dcsim_calib_gpu_report(FILE *f, const dcsim_gpu_calib *c);
/* A dwarf <kernels> element (with a leading comment) holding the means; *text is malloc'd. */
int dcsim_calib_gpu_kernels_xml(const dcsim_gpu_calib *c, const char *source, char **text,
                                dcsim_error *err);
/* Rewrites the characteristics of the named kernels of dwarf file in_path into out_path (other
 * content kept; a calibrated kernel the dwarf lacks is an error). */
int dcsim_calib_update_dwarf_kernels(const char *in_path, const char *out_path,
                                     const dcsim_gpu_calib *c, const char *source,
                                     dcsim_error *err);

/* ---- importers: other tools' measurements into a calibration directory ----
 * likwid-bench text output (one or more runs per file): bandwidth runs go to L1/L2/L3/DRAM.csv by
 * their working set against the cache sizes of DIR/machine.xml (which must exist), peakflops runs
 * to flops.csv; machine.xml gets the matching <table> elements. test: the bandwidth test family
 * (load, copy, stream...; NULL = the only one present); freq: a <freq id> of machine.xml (NULL =
 * its only one). Kerncraft machine file (YAML): a new machine.xml, flops.csv (theoretical peak)
 * and L1..DRAM.csv from benchmarks/measurements (test: the kernel, NULL = load). A report of what
 * went where is written to report (may be NULL). */
int dcsim_calib_import_likwid(const char *const *paths, size_t n_paths, const char *dir,
                              const char *test, const char *freq, FILE *report, dcsim_error *err);
int dcsim_calib_import_kerncraft(const char *path, const char *dir, const char *test, FILE *report,
                                 dcsim_error *err);

#endif
