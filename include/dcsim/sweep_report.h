/* dcsim/sweep_report.h — reports on a finished sweep's points (doc/sweep.md): the listing of its
 * Pareto front as text, and one picture per value of an axis (--facet).
 *
 * Ownership: nothing is kept; the functions borrow the caller's points (the facets mark and then
 * restore their done flags) and write to the caller's stream. */
#ifndef DCSIM_SWEEP_REPORT_H
#define DCSIM_SWEEP_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "dcsim/cost.h"
#include "dcsim/error.h"
#include "dcsim/format.h"
#include "dcsim/repro.h"
#include "dcsim/scenario.h"
#include "dcsim/sweep_axis.h"
#include "dcsim/sweep_io.h"
#include "dcsim/sweepdb.h"

/* What the text output of a sweep says after its table. */
typedef struct dcsim_sweep_text_notes {
  const dcsim_cost_opts *cost; /* the tariff and lifetime the costs are at */
  int kwh_default;             /* the tariff is the default: said with its year and source */
  int host_cpu_chosen;         /* the sweep chose the GPU nodes' CPU: the platform's is not said */
  const char *db_path;         /* the results database (NULL: none) and the sweep's id in it */
  int64_t sweep_id;
  const dcsim_repro *rp; /* what made the points */
} dcsim_sweep_text_notes;

/* After a sweep's text table (dcsim_sweep_write_text of dcsim/sweep_io.h): the knee over obj,
 * the cores each CPU's node has (base: the sweep's scenario), the GPU nodes' host CPU, the tariff,
 * the results database and what made the points. */
void dcsim_sweep_summary_text(FILE *f, const dcsim_scenario *base, const dcsim_sweep_point *pts,
                              size_t n, unsigned obj, const dcsim_sweep_text_notes *tn);

/* The text listing of a front (dcsim_sweep_front_listing of dcsim/sweep_results.h made it): a
 * paragraph saying how many of the n_read points were kept by the filters (kept; `filters` names
 * them: "--gpus, --host-cpu, --threading"), how many of
 * them are feasible, how many of the listed are on the front over obj and how many near it (near),
 * in which order (`order`: "time" or the sort key), then the table of the listed points and what
 * made them (rp). */
void dcsim_sweep_front_text(FILE *f, const dcsim_sweep_point *pts, size_t n_read, size_t kept,
                            const char *filters, size_t listed, size_t near, unsigned obj,
                            const char *order, const dcsim_repro *rp);

/* The listed points of a front into out (NULL: stdout) as CSV, JSON or (else) the text of
 * dcsim_sweep_front_text; DCSIM_EIO naming out when it cannot be written. */
int dcsim_sweep_front_write(const char *out, dcsim_format fmt, const dcsim_sweep_point *pts,
                            size_t n_read, size_t kept, const char *filters, size_t listed,
                            size_t near, unsigned obj, const char *order, const dcsim_repro *rp,
                            dcsim_error *err);

/* What `dcsim merge` says on f: the sweep merged, each of the n inputs with its rows (per_input),
 * and what the database out holds. */
void dcsim_sweepdb_merge_text(FILE *f, const dcsim_sweepdb_merge_report *rep,
                              const char *const *inputs, const size_t *per_input, size_t n,
                              const char *out);

/* Draws the done points of pts into out (a picture); ctx is the caller's. */
typedef int (*dcsim_facet_draw_fn)(void *ctx, dcsim_sweep_point *pts, size_t n, const char *out,
                                   dcsim_error *err);

/* One picture per value of an axis. */
typedef struct dcsim_sweep_facets {
  dcsim_sweep_axis axis;
  const char *what;     /* how messages name the choice of axis ("--facet gpus") */
  const char *out_what; /* how messages name out ("--out", dcsim_path_check_writable) */
  FILE *report;         /* each picture written, or not drawn, is said here */
  dcsim_facet_draw_fn draw;
  void *ctx;
} dcsim_sweep_facets;

/* The file of one facet: out with "-AXIS-VALUE" before its extension, the value's characters
 * other than letters, digits and . + _ - written as '_' (an unset value: "platform"). *path is
 * malloc'd, the caller frees it. */
int dcsim_sweep_facet_path(const char *out, const char *axis, const char *v, char **path,
                           dcsim_error *err);

/* One picture per value of the facets' axis among the done points of pts (in point order, at
 * most DCSIM_SWEEP_MAX_LIST values), each drawn with only that value's points done into its
 * dcsim_sweep_facet_path and said on report; a value none of whose points is feasible is said and
 * not drawn. DCSIM_EUSAGE about parameter "facet" when there are too many values or two values
 * would write one file; DCSIM_ERANGE when no value has a feasible point. The done flags are
 * restored. */
int dcsim_sweep_draw_facets(dcsim_sweep_point *pts, size_t n, const char *out,
                            const dcsim_sweep_facets *fc, dcsim_error *err);

#endif
