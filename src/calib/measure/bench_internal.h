/* calib/measure/bench_internal.h — what the files of `dcsim bench` share; not a public header.
 *   bench_run.c     the run: set-up, the phases in order, the results
 *   bench_measure.c timed regions, repetitions, robust statistics, outliers, the budget clock
 *   bench_phases.c  warm-up, thread counts, peak and bandwidth tables, loops, HVS map, RAPL
 *   bench_cells.c   a point, a loop fit, a held-out prediction as records: rows, field tables
 *   bench_tables.c  the calibration directory: table CSVs, machine.xml, loops.csv, the dwarf
 *   bench_fit.c     loop fits (weighted by spread) and the held-out test
 *   bench_db.c      the SQLite record (--db)
 *   bench_report.c  the report and --compare
 *   bench_check.c   --check WORKFLOW
 * Ownership: a bench_run owns its points, clock probes and --db connection (freed by
 * dcsim_bench_run). */
#ifndef DCSIM_CALIB_BENCH_INTERNAL_H
#define DCSIM_CALIB_BENCH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dcsim/bench.h"
#include "dcsim/energymeter.h"
#include "dcsim/error.h"
#include "dcsim/fit_coeffs.h"
#include "dcsim/hwprofile.h"
#include "dcsim/strutil.h"

enum { BENCH_MAXT = 256, BENCH_MAXREP = 32, BENCH_NQ = 5 /* peak, L1, L2, L3, DRAM */ };
enum { BENCH_PROBE_REPS = 31 }; /* --probe: calls per level */
enum { BENCH_MAXLOOK = 400 };   /* second look: looks at one table cell, the first included */

typedef struct bench_point {
  char phase[8], kernel[32], level[8];
  double ws_byte;
  unsigned threads, reps, remeasured; /* remeasured: outlying repetitions measured again */
  double min, med, max;               /* rate (GFLOP/s, GB/s) or time (loops: s) */
  double disp; /* 1.4826 x median absolute deviation / median (robust relative s.d.) */
  char unit[16];
  char flag[320]; /* "" or why the point is suspect ("non-monotone: ...", "left out: ...") */
  double clock_ghz;
  double work_flop, traffic_byte; /* loops: per measurement */
  uint64_t passes;
  size_t n_elem;
  double weight; /* loops: fit weight from the spread (mean 1 per loop) */
  /* interference (doc/calibration.md "Interference"): of the repetitions kept, the lowest CPU
   * share and the clock probes' range; the CPUs' stolen share over the whole point; repetitions
   * still disturbed, and those measured again because they were */
  double cpu_share, clk_min, clk_max, steal;
  unsigned disturbed, redone;
  int rejected; /* left out of the tables (flag says why) */
} bench_point;

/* A point as its outputs write it (bench_cells.c): the bench_points row of --db and raw.csv
 * (the field table of util/dbschema_bench.h), the table CSVs and loops.csv. Made from a point by
 * dcsim__bench_cell_of; its text members point into the point and the run. */
typedef struct bench_cell {
  const char *phase, *kernel, *level, *unit;
  const char *flag;      /* NULL when the point is not suspect */
  const char *status;    /* "kept", "flagged", "left-out" */
  const char *frequency; /* the run's frequency id */
  long long threads, reps, passes, n_elem, remeasured, redone, disturbed;
  long long remeasured_all; /* remeasured + redone: the table CSVs' remeasured */
  double ws_byte, min, median, max, clock_ghz, traffic_byte, work_flop, disp;
  double weight; /* NaN but for a loop */
  double cpu_share, clock_min_ghz, clock_max_ghz, steal;
} bench_cell;

/* a level's line of probe.csv (--probe, doc/calibration.md): the harness's 1-thread bandwidth
 * against its kernel called directly, in GB/s; triad_best_gbps (L1, DRAM) and read_best_gbps
 * (DRAM): NaN (an empty cell) at the other levels; ratio = harness / direct best, ratio_median =
 * harness median / direct median */
typedef struct bench_probe_row {
  const char *level, *kernel;
  long long ws_byte;
  double harness_gbps, direct_best_gbps, direct_median_gbps, triad_best_gbps, read_best_gbps;
  double ratio, ratio_median;
} bench_probe_row;

/* a run as bench_runs stores it (after id and created_utc); heldout_*: NaN (NULL) without a
 * held-out test; the texts point into the run (thread counts: the caller's strings) */
typedef struct bench_run_row {
  const char *dcsim_version, *host, *cpu_model, *profile_name, *out_dir, *profile_path, *isa;
  long long threads, quick, reps, budget;
  double clock_ghz;
  const char *clock_note;
  double l1d_byte, l2_byte, l3_byte;
  const char *energy_note, *gpu_note;
  double heldout_mean_abs_err, heldout_max_abs_err, time_budget_s, elapsed_s;
  long long reps_max;
  const char *cache_source, *thread_counts, *loop_thread_counts, *warmup_note;
  long long flagged_points;
} bench_run_row;

/* a loop's fit as bench_fits stores it (NaN: NULL; U and S_flops NaN for a loop without flops) */
typedef struct bench_fit_row {
  const char *loop;
  long long states;
  double V, X, Y, Z, U, S_flops, mop_max_rel_err, mop_mean_rel_err, mop_loo_mean_rel_err;
} bench_fit_row;

/* a held-out prediction as bench_heldout stores it */
typedef struct bench_heldout_row {
  const char *loop;
  long long threads;
  double measured_s, predicted_s, rel_err, insample_s;
} bench_heldout_row;

/* what one timed region saw besides its time */
typedef struct bench_obs {
  double clk_ghz; /* mean core clock probed on the threads just before, over wall time (0: none) */
  double clk_run_ghz; /* the same probes over the threads' CPU time: the clock while they ran
                         (a probe preempted reads low over wall time, not over CPU time) */
  double cpu_share;   /* CPU time in the kernel / (threads x wall time) */
  double steal;       /* injected timer: stolen share; real runs: 0 (read per point) */
} bench_obs;

/* a held-out prediction (bench_fit.c): loop allocated, freed by dcsim__bench_heldout_free */
typedef struct bench_heldout {
  char *loop;
  unsigned threads;
  double measured_s, predicted_s, insample_s;
} bench_heldout;

typedef struct bench_run {
  const dcsim_bench_opts *o;
  unsigned cpus[BENCH_MAXT], ncpu, nthreads, socket_cpus;
  unsigned reps_min, reps_max;
  double tol;      /* repetitions stop when the dispersion is below this */
  double target_s; /* seconds per repetition */
  dcsim_bench_isa isa;
  dcsim_bench_caches c;
  double budget_s, t0_s, fake_s; /* the budget; its start; seconds spent by an injected timer */
  double deadline_tables_s, deadline_loops_s; /* elapsed seconds at which the phase stops */
  double deadline_looks_s;                  /* an unstable table cell takes more looks until then */
  unsigned tc[BENCH_MAXT], ntc;             /* thread counts measured in the tables, ascending */
  unsigned tc_loops[BENCH_MAXT], ntc_loops; /* ... and for the loops */
  unsigned n_mandatory;                     /* tc[0..] includes 1, a socket, the node */
  double loop_dram_total_byte; /* > 0: the loops' DRAM-sized working set (all threads) capped */
  dcsim_str loop_ws_note;      /* why, or "" */
  bench_point *pts;
  size_t np, cap;
  double *clk;
  size_t nclk, capclk;
  int short_team, tty;
  int quick; /* --quick or a budget of at most 60 s: smaller DRAM sets, shorter repetitions */
  char model[256], name[128], host[128], freq_id[32];
  dcsim_str freq_note, warm_note; /* how the clock was found; what the warm-up saw */
  double ghz, cpuinfo_mhz;
  dcsim_str energy_note, gpu_note; /* the energy meters found, or why none */
  dcsim_rapl_t *rapl;
  /* interference: limits, and what the run saw (doc/calibration.md "Interference") */
  double min_share, max_steal, max_disp_accept, clk_drop;
  double look_tol; /* second look: a 1-thread cell's look agrees with the highest within this */
  double look_tol_multi; /* ... a cell's at more threads (relative) */
  dcsim_str look_note;   /* what the second looks found, for the report (empty before them) */
  double load_start, load_max, steal_max, share_min; /* share_min: lowest of any repetition */
  unsigned n_disturbed, n_redone, n_rejected;
  unsigned cover_n;   /* every table keeps a cell at this many threads or more: the loops, their
                         fits and --check stay within 1..cover_n (the node's count when all kept) */
  char refusal[1024]; /* "" or why no profile was written */
  /* --probe at 1 thread: L1..DRAM with the load kernel called directly (best and median of its
   * repetitions), and the plain triad loop at the L1 and DRAM sizes (best), GB/s */
  double probe_best[4], probe_med[4], probe_triad[2], probe_read_dram;
  int probed;
  struct sqlite3 *db; /* --db, open from the start (dcsim__bench_open_db), or NULL */
} bench_run;

/* ---- bench_cells.c (calls no other file of the bench) ---- */
/* the field tables of a cell (util/record.h): the bench_points table of --db and raw.csv (one
 * table, util/dbschema_bench.h), a table CSV (flops.csv, L1.csv ..., DRAM.csv), loops.csv */
extern const struct dcsim__record dcsim__bench_points_record, dcsim__bench_table_record,
    dcsim__bench_loops_record;
/* the bench_runs, bench_fits and bench_heldout tables of --db (util/dbschema_bench.h) */
extern const struct dcsim__record dcsim__bench_run_record, dcsim__bench_fit_record,
    dcsim__bench_heldout_record;
/* probe.csv's columns (bench_probe_row) */
extern const struct dcsim__record dcsim__bench_probe_record;
/* the cell of point p of run R */
void dcsim__bench_cell_of(const bench_run *R, const bench_point *p, bench_cell *c);

/* ---- bench_measure.c (the lowest file: the others call it and it calls none of them) ---- */
/* "L1", "L2", "L3", "DRAM" */
const char *dcsim__bench_level_name(int lv);
/* DIR/file of the run's output directory opened for writing, else NULL (err set); closed by
 * dcsim__bench_close_out(R, file, f, rc, err): rc, or an error naming DIR/file when the close
 * fails and rc is 0 (the file is closed either way) */
FILE *dcsim__bench_open_out(const bench_run *R, const char *file, dcsim_error *err);
int dcsim__bench_close_out(const bench_run *R, const char *file, FILE *f, int rc, dcsim_error *err);
double dcsim__bench_elapsed_s(const bench_run *R); /* since the start (injected: its seconds) */
double dcsim__bench_left_s(const bench_run *R);
void dcsim__bench_progress(bench_run *R, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
typedef void (*bench_region_fn)(void *ctx, unsigned tid, uint64_t passes);
/* One timed region: n pinned threads run fn (or the injected timer answers); *obs (may be NULL:
 * no clock probe): the clock probed on the threads just before and the CPU share they got. */
double dcsim__bench_timed(bench_run *R, const dcsim_bench_region *what, bench_region_fn fn,
                          void *ctx, bench_obs *obs);
/* the 1-minute load average (/proc/loadavg), -1 if unreadable */
double dcsim__bench_loadavg(void);
/* fn on n pinned threads, untimed (allocation, first touch); nothing with an injected timer */
void dcsim__bench_on_threads(bench_run *R, unsigned n, bench_region_fn fn, void *ctx);
/* min, median, max and the robust relative dispersion of v[0..n) (sorted in place) */
void dcsim__bench_stats(double *v, unsigned n, double *min, double *med, double *max, double *disp);
/* Calibrates the passes to R->target_s, then repeats until the spread is below R->tol (at least
 * reps_min, at most reps_max repetitions, no longer than allowance_s), measures outlying
 * repetitions again, and appends the point. amount_per_pass: flop or byte of all threads per
 * pass; rates are amount/s x scale; as_time: the values are times (loops). */
int dcsim__bench_measure(bench_run *R, bench_point *p, bench_region_fn fn, void *ctx,
                         double amount_per_pass, uint64_t first_passes, int as_time, double scale,
                         double allowance_s, dcsim_error *err);

/* ---- bench_phases.c ---- */
size_t dcsim__bench_level_ws(const bench_run *R, int lv, unsigned threads); /* bytes per thread */
int dcsim__bench_warmup(bench_run *R, dcsim_error *err);
int dcsim__bench_phase_tables(bench_run *R, dcsim_error *err); /* peak and bandwidth */
int dcsim__bench_phase_loops(bench_run *R, dcsim_error *err);
/* loop kernel k at the L2- (ci 0) or DRAM-sized (ci 1) working set on n threads, as a point of
 * `phase` ("loop", "check") */
int dcsim__bench_loop_point(bench_run *R, int ci, int k, unsigned n, double allowance_s,
                            const char *phase, dcsim_error *err);
int dcsim__bench_phase_hvs(bench_run *R, dcsim_error *err); /* --budget N */
int dcsim__bench_phase_energy(bench_run *R, FILE *csv, dcsim_error *err);
/* The tables' cells against the interference limits: a failing cell is measured again while the
 * tables' time lasts, then left out (rejected, unless --keep-suspect); R->refusal says why when a
 * quantity keeps no 1-thread cell. */
int dcsim__bench_accept_tables(bench_run *R, dcsim_error *err);
/* --probe: the harness's 1-thread cells against the kernels called directly and a plain triad */
int dcsim__bench_phase_probe(bench_run *R, dcsim_error *err);
/* the point of phase/level at n threads, or NULL */
const bench_point *dcsim__bench_find(const bench_run *R, const char *phase, const char *level,
                                     unsigned n);

/* ---- bench_tables.c ---- */
int dcsim__bench_write_tables(bench_run *R, int have_energy, dcsim_error *err);
int dcsim__bench_write_loops(bench_run *R, dcsim_error *err);
/* raw.csv: every point measured, accepted or not, with what the interference checks saw */
int dcsim__bench_write_raw(bench_run *R, dcsim_error *err);

/* ---- bench_fit.c ---- */
int dcsim__bench_fit_heldout(bench_run *R, const dcsim_cpu_profile_t *cpu, const char *profile_path,
                             bench_heldout **ho, size_t *nho, dcsim_loop_fit **fits, size_t *nfits,
                             dcsim_error *err);
/* frees the n held-out predictions ho (their loop names) and ho; NULL-safe */
void dcsim__bench_heldout_free(bench_heldout *ho, size_t n);

/* each loop point's fit weight from its spread (mean 1 per loop) */
void dcsim__bench_loop_weights(bench_run *R);

/* ---- bench_db.c ---- */
/* Opens --db into R->db before anything is measured (a database not dcsim's is refused, left
 * byte-identical) and gives it the bench tables; dcsim__bench_close_db closes it (NULL-safe). */
int dcsim__bench_open_db(bench_run *R, dcsim_error *err);
void dcsim__bench_close_db(bench_run *R);
/* The run into R->db in one transaction; *run_id its bench_runs id. */
int dcsim__bench_write_db(bench_run *R, const char *profile_path, const bench_heldout *ho,
                          size_t nho, const dcsim_loop_fit *fits, size_t nf, int64_t *run_id,
                          dcsim_error *err);

/* ---- bench_check.c ---- */
/* The real codes measured on a machine of the profile's CPU (calibration/realcode/MACHINE/, its
 * machine.csv): their test rows predicted with the profile, printed to out; nothing when the data
 * root holds none. */
int dcsim__bench_check_realcode(const char *profile_path, FILE *out, dcsim_error *err);
/* --check: the loops of the workflow's first CPU task replayed here into DIR/check.csv */
int dcsim__bench_check_replay(bench_run *R, const char *workflow, const char *profile_path,
                              dcsim_error *err);

/* ---- bench_report.c ---- */
void dcsim__bench_report(bench_run *R, const char *profile_path, const bench_heldout *ho,
                         size_t nho, const dcsim_loop_fit *fits, size_t nf, int64_t run_id);

#endif
