/* dcsim/taskcsv.h — the per-task trace of a run as a CSV file, without SQLite (dcsim run
 * --tasks-csv FILE, doc/engine.md): one line per task in the order tasks end, with the columns of
 * the database's tasks table (doc/results.md) plus the workflow and its instance:
 *   job,workflow,instance,task,name,dwarf,device,node_group,start_s,end_s,nodes,gpu,energy_j,
 *   freq_ghz
 * nodes is the space-separated list of node numbers, gpu the GPU slot (empty for CPU tasks),
 * freq_ghz empty for GPU tasks. The file starts with the "# " lines of dcsim_repro_csv().
 * It is written to a temporary file beside FILE and renamed over it only when the run finished
 * (dcsim_taskcsv_finish): an interrupted or failed run leaves no half-written trace.
 *
 * Ownership: dcsim_taskcsv_open() returns a writer freed by dcsim_taskcsv_close(), which removes
 * the temporary file unless the trace was finished; it borrows the scenario. */
#ifndef DCSIM_TASKCSV_H
#define DCSIM_TASKCSV_H

#include "dcsim/engine.h"
#include "dcsim/error.h"
#include "dcsim/repro.h"
#include "dcsim/scenario.h"

typedef struct dcsim_taskcsv dcsim_taskcsv_t;

/* Every call of the returned sink is passed on to `next` (may be NULL) after the line is written.
 */
int dcsim_taskcsv_open(const char *path, const dcsim_scenario *s, const dcsim_repro *rp,
                       const dcsim_engine_sink *next, dcsim_taskcsv_t **out, dcsim_error *err);
const dcsim_engine_sink *dcsim_taskcsv_sink(dcsim_taskcsv_t *t);
int dcsim_taskcsv_finish(dcsim_taskcsv_t *t, dcsim_error *err);
void dcsim_taskcsv_close(dcsim_taskcsv_t *t);

#endif
