/* output/results_records.h — the records of a run in its SQLite results database (results.c,
 * util/record.h; doc/results.md): the run's totals (table runs), a job's row (workflows; also
 * the job rows of `dcsim run`'s reports), a node's row (nodes), a bucket of the utilisation
 * timeline (utilisation), a task's row (tasks), a step of the power timeline (power) and an input
 * file (inputs); and the record of a node group in `dcsim run`'s reports. Their columns must be the
 * schema's (util/dbschema.c, checked by tests/test_record.c). Static data. */
#ifndef DCSIM_OUTPUT_RESULTS_RECORDS_H
#define DCSIM_OUTPUT_RESULTS_RECORDS_H

#include "dcsim/cost.h"
#include "dcsim/engine.h"
#include "dcsim/metrics.h"
#include "dcsim/scenario.h"
#include "util/record.h"

/* the run's totals: its row of the runs table (util/dbschema_run.h's DCSIM_RUN_TOTALS_COLUMNS),
 * set when the run ends, and the values `dcsim run`'s reports print of them (output/run_totals.h)
 */
typedef struct dcsim__run_totals {
  double time_to_solution_s, energy_to_solution_j, unallocated_idle_j;
  long long nodes, jobs, tasks, events;
  double utilisation, allocated, mean_wait_s, max_wait_s, mean_flow_s;
  double mean_slowdown; /* NaN (NULL) when no job has a slowdown */
  double mean_bounded_slowdown, max_bounded_slowdown;
  long long boots, shutdowns;
} dcsim__run_totals;

extern const dcsim__record dcsim__run_totals_record;

/* The run's totals from its stats and their job metrics (dcsim_metrics_summarise). */
void dcsim__run_totals_of(const dcsim_run_stats *st, const dcsim_metrics_summary *ms,
                          dcsim__run_totals *t);
extern const dcsim__record dcsim__node_record;
/* a bucket of the utilisation timeline: its row of the utilisation table and of the JSON's
 * "utilisation_over_time" arrays (busy, allocated: the fields from "busy" on) */
typedef struct dcsim__bucket_row {
  long long bucket;
  double t0_s, t1_s, busy, allocated;
} dcsim__bucket_row;

extern const dcsim__record dcsim__bucket_record;
/* Bucket k of the run's stats (a const dcsim_run_stats *) into buf (a dcsim__bucket_row),
 * returned: a dcsim__record_row_at (dcsim_metrics_bucket). */
const void *dcsim__bucket_row_at(const void *stats, size_t k, void *buf);
extern const dcsim__record dcsim__task_record;  /* tasks: a task as it ends */
extern const dcsim__record dcsim__power_record; /* power: a step of a node's power timeline */
extern const dcsim__record dcsim__input_record; /* inputs: a file the run read, its hash */

/* a job (workflow instance): its row of the workflows table and of `dcsim run`'s reports (JSON
 * "workflows", CSV, the text table), one field table for both (output/run_records.c) */
typedef struct dcsim__job_row {
  long long job;
  const char *name;
  long long instance;
  double submit_s, start_s, end_s, wait_s, time_to_solution_s, energy_to_solution_j, task_energy_j,
      held_idle_j;
  long long tasks;
  double flow_s, slowdown, bounded_slowdown, boot_wait_s; /* slowdown: NaN (NULL) when undefined */
  long long trace_job, procs;                             /* 0 (NULL): not from a trace */
  /* the report's: the cost (NaN: unknown) and why, the row's kind, the bands (NaN: none) */
  double cost_usd;
  const char *cost_note, *kind;
  double time_band_low_s, time_band_high_s, energy_band_low_j, energy_band_high_j;
  /* the text table's energy, task energy and held idle energy rounded to the energy's place
   * (10^shown_place) so that they add up as printed */
  double shown_j[3];
  int shown_place;
} dcsim__job_row;

extern const dcsim__record dcsim__job_record;

/* what the report adds to a job's row: the cost (cost NULL: none), its note written into note
 * (note_size bytes; NULL: none) (factors of the time and the energy; NULL: none) */
typedef struct dcsim__job_row_opts {
  const dcsim_cost_opts *cost;
  char *note;
  size_t note_size;
  const double *band_t, *band_e;
} dcsim__job_row_opts;

/* Job k's row of the run: o NULL for the database's columns alone. */
void dcsim__job_row_of(const dcsim_scenario *s, const dcsim_run_stats *st, size_t k,
                       const dcsim__job_row_opts *o, dcsim__job_row *row);

/* a node group of the run: its object of `dcsim run`'s JSON "groups" and its line of the text
 * report's node-group table (output/run_records.c; no SQLite table: the database keeps the
 * nodes). The JSON writer puts the CPU's rates (dcsim__rates_json) before turbo_unmeasured. */
typedef struct dcsim__group_row {
  const char *name;
  long long nodes;
  const char *cpu;            /* a GPU node's CPU is its host */
  int turbo_unmeasured;       /* DCSIM_GROUP_TURBO_UNMEASURED: a JSON key only when set */
  const char *gpu, *host_cpu; /* NULL (no key): not a GPU group */
  double energy_j, busy_node_s, utilisation, allocated, mean_node_power_w;
  /* the text table's energy: rounded to the run's energy's place (10^shown_place) when shown,
   * so that the groups add up as printed; else with the digits of its band */
  int shown;
  double shown_j;
  int shown_place;
  double energy_band_low_j, energy_band_high_j;
} dcsim__group_row;

extern const dcsim__record dcsim__group_record;

/* Group g's row of the run: band_e the factors of the energy band (NULL: none); the text's
 * rounded energy is the caller's (shown, shown_j, shown_place; 0 here). */
void dcsim__group_row_of(const dcsim_scenario *s, const dcsim_run_stats *st, size_t g,
                         const double *band_e, dcsim__group_row *row);

#endif
