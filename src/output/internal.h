/* output/internal.h — what the chart files of src/output share (plot.c and plot_*.c): the gnuplot
 * script's plumbing, the colours and units of every chart, and the run recorder the Gantt and
 * power charts read; and what the report writers share (run_report.c, model_report.c). Not a public
 * header. Ownership: a dcsim_plot_gp is the caller's; its files are removed and its strings freed
 * by dcsim__plot_run or dcsim__plot_cleanup (a failed dcsim__plot_open leaves nothing to free). */
#ifndef DCSIM_OUTPUT_INTERNAL_H
#define DCSIM_OUTPUT_INTERNAL_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dcsim/error.h"
#include "dcsim/hwprofile.h"
#include "dcsim/json.h"
#include "dcsim/plot.h"
#include "dcsim/strutil.h"
#include "dcsim/sweep_io.h"

/* A gnuplot script being written in a temporary directory (dcsim__plot_open .. _run). */
typedef struct dcsim_plot_gp {
  char *dir;     /* the temporary directory (malloc'd, as are script, picture and meta) */
  char *script;  /* dir/plot.gp */
  char *picture; /* what gnuplot draws into, in dir; published to the output by _run */
  const volatile sig_atomic_t *stop; /* SIGINT/SIGTERM flag polled while gnuplot runs (or NULL) */
  FILE *f;                           /* the script */
  int oom;
  dcsim_plot_format fmt; /* what made the picture goes into its metadata */
  char *meta;            /* the caption: version, commit, input hashes */
} dcsim_plot_gp;

/* What dcsim_plot_trace records of a run: a bar per (task, node), a power segment per node. */
typedef struct dcsim_plot_bar {
  uint32_t node;
  int64_t t0, t1;
  uint32_t label;
  int gpu;
} dcsim_plot_bar;
typedef struct dcsim_plot_seg {
  uint32_t node;
  int64_t t0, t1;
  double w;
} dcsim_plot_seg;

struct dcsim_plot_trace {
  const dcsim_scenario *s;
  const dcsim_engine_sink *next;
  dcsim_engine_sink sink;
  dcsim_plot_bar *bars;
  size_t n_bars, cap_bars;
  dcsim_plot_seg *segs;
  size_t n_segs, cap_segs;
  const char **labels;
  size_t n_labels;
  int64_t end_ns;
};

/* Opens the script of a picture of width x height pixels to be written to out (a temporary
 * directory; the terminal, the output and the caption set; stop: polled while gnuplot runs). An out
 * that exists and is not a regular file (a FIFO, a device) is refused before anything is made. */
int dcsim__plot_open(dcsim_plot_gp *g, const char *out, dcsim_plot_format fmt, int width,
                     int height, const char *caption, const volatile sig_atomic_t *stop,
                     dcsim_error *err);
/* Runs gnuplot on the script (dcsim_plot_find_gnuplot), checks that it drew the picture, publishes
 * it at out atomically (a temporary file beside out, then rename: an existing picture stays whole
 * when anything fails) and removes the temporary files; an error quotes gnuplot's first
 * complaint. */
int dcsim__plot_run(dcsim_plot_gp *g, const char *out, dcsim_error *err);
/* Removes the temporary files (the script not run) and frees g's strings; may be called again. */
void dcsim__plot_cleanup(dcsim_plot_gp *g);
/* s as a gnuplot string expression in which nothing is substituted (single-quoted lines): every
 * text that reaches a script (names, titles, paths) goes through it, and nothing else does. */
void dcsim__plot_str(FILE *f, const char *s);
/* Colour i of n series: the palette's for n <= 10, else distinct hues (buf holds "#rrggbb"). */
const char *dcsim__plot_color_n(size_t i, size_t n, char buf[8]);
/* The i-th colour of the charts' palette (it repeats). */
const char *dcsim__plot_color(size_t i);
/* A point's frequency for a picture: GHz with its unit ("2.4 GHz"), a state label as it is;
 * appended to out (out->oom when out of memory). */
void dcsim__plot_freq_text(const char *freq, dcsim_str *out);
/* A point's hardware as pictures name it: "CPU + GPU xN on HOST", with " @ 2.4
 * GHz" when with_freq, and ", ideal threads" for the ideal thread-scaling variant (the measured
 * one, the default, is not named); parts the point leaves unset ("" / 0) are left out. Appended to
 * out, which the caller releases: 0, or -1 when out of memory. */
int dcsim__plot_hw_name(const dcsim_sweep_point *p, int with_freq, dcsim_str *out);
/* The unit (J, kJ, MJ) energies up to emax are drawn in, and its scale. */
const char *dcsim__plot_energy_unit(double emax, double *scale);
/* The unit (s, h, d) times up to t_s are drawn in, and its scale. */
const char *dcsim__plot_time_unit(double t_s, double *scale);
/* The node group of a global node number. */
size_t dcsim__plot_group_of(const dcsim_scenario *s, uint32_t node);

/* The JSON members naming the model mode of flags (DCSIM_MODEL_*, dcsim/model.h): "model" ("d35"
 * or "default"), then "threading": "ideal" only under DCSIM_MODEL_HW_THREADS (earlier outputs
 * unchanged). One rule for a run, a prediction and a node scan (model_report.c). */
void dcsim__json_model_mode(dcsim_json *j, unsigned flags);

/* Borrowed per-core rates, the reason a CPU's time band takes the cpu-time spec band twice
 * (doc/models.md "Per-core rates", dcsim_band_cpu_of): one wording for a prediction, a node scan
 * and a run (rates_report.c). dcsim__rates_borrowed: whether cpu's band is so widened (0 for NULL).
 * dcsim__rates_text: one line, label then "per-core rates of A rest on ... (L1 L2 L3 DRAM), of B on
 * ... (...; sources in their profiles): the time band takes the cpu-time spec band twice (...)",
 * naming each borrowed CPU of cpus once (NULL entries skipped); nothing when none is borrowed.
 * dcsim__rates_csv: a "# rates_basis CPU BASIS LEVELS" comment line per borrowed CPU, likewise.
 * dcsim__rates_json: the members "rates_basis" (own, variant, sibling, estimate) and, unless own,
 * "rates_levels" (the levels resting on that basis). */
int dcsim__rates_borrowed(const dcsim_cpu_profile_t *cpu);
void dcsim__rates_text(FILE *f, const char *label, const dcsim_cpu_profile_t *const *cpus,
                       size_t n);
void dcsim__rates_csv(FILE *f, const dcsim_cpu_profile_t *const *cpus, size_t n);
void dcsim__rates_json(dcsim_json *j, const dcsim_cpu_profile_t *cpu);
/* An unmeasured turbo clock, the other reason a CPU's time band is wider (doc/models.md "Turbo",
 * dcsim_prediction.turbo_unmeasured): one wording for a prediction, a node scan, a run and a
 * sweep (rates_report.c). Writes label, then "turbo T GHz is CPU's maximum boost, not a clock
 * measured on ON: BANDS the time at the nominal N GHz", without an end of line: ON is "K active
 * cores" when cores > 0, else the text on ("the cores a task of G uses"); BANDS the subject and
 * its verb ("the band reaches", "each band reaches", "their time bands reach"). */
void dcsim__turbo_text(FILE *f, const char *label, const dcsim_cpu_profile_t *cpu, unsigned cores,
                       const char *on, const char *bands);

#endif
