/* dcsim/plot.h — pictures for reports, drawn by gnuplot (Debian package gnuplot-nox; its pngcairo
 * and svg terminals). Each function writes its data and a gnuplot script into a fresh temporary
 * directory, runs gnuplot on it and removes the directory. gnuplot is found as $DCSIM_GNUPLOT,
 * else /usr/bin/gnuplot, else the first `gnuplot` on PATH; without it the functions fail with
 * DCSIM_EIO and say so. Nothing that computes numbers depends on this module.
 *
 * Pictures (doc/sweep.md shows one of each):
 *   pareto   time vs energy of the feasible points of a sweep, one colour per CPU+GPU (or per
 *            node count), the front as a line, the knee circled, labels N / NxC as in D3.5
 *            Figures 16, 19, 28-30;
 *   roofline log-log roofline / cache-aware roofline with the placed loops or kernels;
 *   gantt    the tasks of a `dcsim run` per node over time;
 *   power    the power of the centre over time, stacked by node group;
 *   heatmap  a sweep's energy or time over nodes x cores, one panel per CPU + GPU + frequency.
 *
 * Ownership: dcsim_plot_trace_new() returns a recorder freed by dcsim_plot_trace_free(); it
 * borrows the scenario. */
#ifndef DCSIM_PLOT_H
#define DCSIM_PLOT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "dcsim/engine.h"
#include "dcsim/error.h"
#include "dcsim/roofline.h"
#include "dcsim/sampling.h"
#include "dcsim/scenario.h"
#include "dcsim/sweep.h"

typedef enum { DCSIM_PLOT_PNG = 0, DCSIM_PLOT_SVG = 1 } dcsim_plot_format;

/* The format named by `fmt` ("png"/"svg"), else by the extension of `path`. */
int dcsim_plot_format_of(const char *path, const char *fmt, dcsim_plot_format *out,
                         dcsim_error *err);
/* The gnuplot that would run: $DCSIM_GNUPLOT, else /usr/bin/gnuplot, else the first on $PATH.
 * DCSIM_EIO when there is none. *path (when path is not NULL): its path, malloc'd, which the
 * caller frees (NULL on error); path NULL only checks that there is one. */
int dcsim_plot_find_gnuplot(char **path, dcsim_error *err);

/* `caption` (may be NULL): a small line at the bottom of every picture, what made it
 * (dcsim_repro_caption of dcsim/repro.h: version, commit, input hashes). `stop` (may be NULL): the
 * command's SIGINT/SIGTERM flag (dcsim_cli_catch_interrupts), polled every 10 ms while gnuplot
 * draws: when it is set gnuplot is killed and reaped, nothing is written and the function returns
 * DCSIM_EINTR (a signal was not answered while gnuplot ran). */
int dcsim_plot_pareto(const dcsim_sweep_point *pts, size_t n, const char *title,
                      const char *caption, const char *out, dcsim_plot_format fmt,
                      const volatile sig_atomic_t *stop, dcsim_error *err);
/* The front over the objectives obj (DCSIM_OBJ_* of dcsim/sweep_io.h): time against
 * energy (as dcsim_plot_pareto), time or energy against cost (USD), or, for all three, time against
 * cost with the three-objective front marked. Points without a cost are not drawn. */
int dcsim_plot_pareto_on(const dcsim_sweep_point *pts, size_t n, unsigned obj, const char *title,
                         const char *caption, const char *out, dcsim_plot_format fmt,
                         const volatile sig_atomic_t *stop, dcsim_error *err);
/* ASK's protocol (dcsim/sampling.h): the median mean relative error of each sampler against the
 * number of samples, log scale, with the target as a dashed line. */
int dcsim_plot_sampling(const dcsim_sampling_curve *c, size_t n, const char *title, double target,
                        const char *caption, const char *out, dcsim_plot_format fmt,
                        const volatile sig_atomic_t *stop, dcsim_error *err);
int dcsim_plot_roofline(const dcsim_roofline *r, int cache_aware, const char *caption,
                        const char *out, dcsim_plot_format fmt, const volatile sig_atomic_t *stop,
                        dcsim_error *err);

/* The sweep as heat maps: x nodes, y cores per node, colour the energy (time = 0) or the time
 * (time = 1) of each point on a logarithmic scale shared by every panel, one panel per CPU + GPU +
 * frequency combination (at most DCSIM_PLOT_HEAT_MAX_PANELS), infeasible cells crossed, each
 * panel's least value framed. */
#define DCSIM_PLOT_HEAT_MAX_PANELS 12
int dcsim_plot_heatmap(const dcsim_sweep_point *pts, size_t n, int time, const char *title,
                       const char *caption, const char *out, dcsim_plot_format fmt,
                       const volatile sig_atomic_t *stop, dcsim_error *err);

/* Recording a run for the Gantt and power charts: give the engine dcsim_plot_trace_sink(), which
 * forwards every call to `next` (e.g. the results database) when not NULL. */
typedef struct dcsim_plot_trace dcsim_plot_trace_t;
dcsim_plot_trace_t *dcsim_plot_trace_new(const dcsim_scenario *s, const dcsim_engine_sink *next,
                                         dcsim_error *err);
void dcsim_plot_trace_free(dcsim_plot_trace_t *t);
const dcsim_engine_sink *dcsim_plot_trace_sink(dcsim_plot_trace_t *t);
/* An upper estimate of the bytes a recorder holds for a run of task_nodes (task, node) pairs
 * (dcsim_run_size): a bar and about two power segments each, arrays grown by doubling. */
uint64_t dcsim_plot_trace_bytes(uint64_t task_nodes);
int dcsim_plot_gantt(const dcsim_plot_trace_t *t, const char *caption, const char *out,
                     dcsim_plot_format fmt, const volatile sig_atomic_t *stop, dcsim_error *err);
int dcsim_plot_power(const dcsim_plot_trace_t *t, const char *caption, const char *out,
                     dcsim_plot_format fmt, const volatile sig_atomic_t *stop, dcsim_error *err);

#endif
