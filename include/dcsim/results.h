/* dcsim/results.h — the SQLite results database (schema in doc/results.md).
 *
 * One run = one transaction: dcsim_results_begin() opens it (WAL journal), the engine streams
 * task and power rows through dcsim_results_sink(), dcsim_results_finish() adds the summary,
 * workflows, node energies and input hashes and commits. Any failure, or dcsim_results_close()
 * without finish, rolls back: an interrupted or failed run leaves no row behind.
 *
 * Ownership: dcsim_results_open() returns a handle closed by dcsim_results_close(). */
#ifndef DCSIM_RESULTS_H
#define DCSIM_RESULTS_H

#include <stdint.h>

#include "dcsim/engine.h"
#include "dcsim/error.h"
#include "dcsim/scenario.h"

typedef struct dcsim_results dcsim_results_t;

typedef struct dcsim_run_info {
  const char *input;
  const char *job_policy, *task_policy;
  double deadline_s; /* --deadline-s (0 = none): runs.deadline_s and runs.deadline_met */
} dcsim_run_info;

int dcsim_results_open(const char *path, dcsim_results_t **out, dcsim_error *err);
void dcsim_results_close(dcsim_results_t *r);
int dcsim_results_begin(dcsim_results_t *r, const dcsim_scenario *s, const dcsim_run_info *info,
                        dcsim_error *err);
/* the sink to give the engine while a run is open */
const dcsim_engine_sink *dcsim_results_sink(dcsim_results_t *r);
int dcsim_results_finish(dcsim_results_t *r, const dcsim_run_stats *st, int64_t *run_id,
                         dcsim_error *err);

#endif
