/* dcsim/metrics.h — job and centre statistics of a finished run (doc/workloads.md).
 *
 * Per job (times from dcsim_job_stats):
 *   wait     = start - submit (start: when its tasks may start, after any node boot)
 *   flow     = end - submit   (response time, the job's time-to-solution)
 *   run      = end - start
 *   slowdown = flow / run; undefined for a job of run time 0 (NaN: left out of the summary)
 *   bounded slowdown = max(1, flow / max(run, 10 s)) — the 10 s bound keeps very short jobs from
 *     dominating the mean (Feitelson, Rudolph, Schwiegelshohn, Sevcik and Wong, "Theory and
 *     practice in parallel job scheduling", JSSPP 1997, sec. 4.2, which uses 10 s).
 * Summaries give the mean, median (the lower middle value for an even count), 95th percentile
 * (nearest rank) and maximum over the jobs. Utilisation is the fraction of node time running at
 * least one task over the whole platform from 0 to the makespan; "allocated" the fraction held by
 * jobs; over time, the same fractions per bucket of dcsim_run_stats.
 *
 * Ownership: plain values; dcsim_metrics_summarise() allocates only temporarily. */
#ifndef DCSIM_METRICS_H
#define DCSIM_METRICS_H

#include <stddef.h>

#include "dcsim/cost.h"
#include "dcsim/engine.h"
#include "dcsim/error.h"

#define DCSIM_BSLD_BOUND_S 10.0

typedef struct dcsim_job_metrics {
  double wait_s, flow_s, run_s, slowdown, bounded_slowdown;
} dcsim_job_metrics;

dcsim_job_metrics dcsim_metrics_job(const dcsim_job_stats *js);

typedef struct dcsim_stat {
  size_t n;
  double mean, median, p95, max;
} dcsim_stat;

typedef struct dcsim_metrics_summary {
  size_t n_jobs;
  dcsim_stat wait_s, flow_s, slowdown, bounded_slowdown;
  double utilisation, allocated; /* fractions of node time, 0 to the makespan */
  double busy_node_s, alloc_node_s;
} dcsim_metrics_summary;

int dcsim_metrics_summarise(const dcsim_run_stats *st, dcsim_metrics_summary *out,
                            dcsim_error *err);

/* --sort KEY of dcsim run's per-workflow table (text and CSV; doc/cli.md "Sorting"): fills
 * order[0..st->n_jobs-1] with the job indices by increasing KEY: "submit" (the scenario's job
 * order, by submission), "wait", "time" (time-to-solution, end - submit), "energy" (energy of the
 * nodes the job held) or "cost" (dcsim_cost_of_job with `co`; unknown costs last); equal keys keep
 * the job order. An unknown KEY is a DCSIM_EUSAGE error naming the keys (st may then be NULL: a
 * check before the run). */
int dcsim_run_job_order(const dcsim_scenario *s, const dcsim_run_stats *st,
                        const dcsim_cost_opts *co, const char *key, size_t *order,
                        dcsim_error *err);

/* Fractions of bucket k of the utilisation-over-time series (its length is bucket_s, the last
 * one ends at the makespan). */
void dcsim_metrics_bucket(const dcsim_run_stats *st, size_t k, double *t0_s, double *t1_s,
                          double *busy, double *allocated);

/* The run's deadline (--deadline-s, doc/engine.md): every job must run within deadline_s of its
 * start (end - start, the span the energy-aware policy plans against). */
typedef struct dcsim_deadline_report {
  size_t missed;    /* jobs that ran longer */
  double longest_s; /* the longest end - start of any job */
  size_t longest;   /* that job's index */
} dcsim_deadline_report;

/* Nothing is missed when deadline_s <= 0 (no deadline). */
dcsim_deadline_report dcsim_metrics_deadline(const dcsim_run_stats *st, double deadline_s);

#endif
