/* dcsim/trace.h — real-world workloads as simulation inputs (doc/workloads.md): SWF job traces
 * (dcsim/swf.h) and WfCommons workflow instances (dcsim/wfcommons.h), run directly
 * (`dcsim run trace.swf.gz`, `dcsim run instance.json`) or from a workload's <submit workflow=>.
 *
 * SWF jobs. Every job of the trace is one job (workflow instance) of one task, submitted at its
 * submit time (plus the submission's at-s):
 *   - processors -> nodes: with P processors per node (the platform group's cores; for the
 *     platform built from the header, MaxProcs / MaxNodes), a job of p processors gets
 *     n = ceil(p / P) whole nodes and uses ceil(p / n) cores on each;
 *   - its task lasts the recorded run time (field 4) with the recorded-runtime power rule
 *     (dcsim/recorded.h), unless an SWF map (dcsim/swfmap.h) turns it into a dwarf call;
 *   - its runtime estimate (EASY, SJF) is the requested time (field 9) when known, else its run
 *     time;
 *   - skipped, with a count in the notes: lines of partial executions (status 2, 3, 4: the job's
 *     own line carries it whole), jobs whose run time, processors or submit time is unknown (-1)
 *     -- among them cancelled jobs that never ran (status 5, run time -1) -- and, with
 *     unmatched="skip", jobs no map rule matches. Failed jobs (status 0) and cancelled jobs with
 *     a run time are replayed: they held their nodes for that time.
 * Jobs of equal shape (nodes, cores per node, map rule) share one single-task workflow, planned
 * once; each job scales it to its own run time (dcsim_job.time_scale). A run time of 0 (under
 * half a second, the format says) replays as 0 s.
 *
 * Ownership: functions that fill *out store heap objects the caller frees with the matching
 * _free/_release (NULL-safe). */
#ifndef DCSIM_TRACE_H
#define DCSIM_TRACE_H

#include <stddef.h>

#include "dcsim/error.h"
#include "dcsim/platform.h"
#include "dcsim/scenario_types.h"
#include "dcsim/swf.h"
#include "dcsim/swfmap.h"
#include "dcsim/workflow.h"

typedef enum {
  DCSIM_TRACE_NONE = 0,
  DCSIM_TRACE_SWF = 1,
  DCSIM_TRACE_WFCOMMONS = 2
} dcsim_trace_kind;

/* By content: gzip data or a first line starting with ';' or a digit is SWF, '{' is a WfCommons
 * instance, anything else (XML, unreadable) NONE — the XML loader then reports it. */
dcsim_trace_kind dcsim_trace_detect(const char *path);

/* The stand-in node of the platforms built for traces: workflows/platforms/trace-node.xml under
 * the data root (dcsim/catalog.h). Traces record no power, so their nodes take this node's CPU
 * profile and power states. On success *path_out (may be NULL) gets the file's path, malloc'd. */
int dcsim_trace_node_load(dcsim_platform **out, char **path_out, dcsim_error *err);

/* What an import read and left out (reported by `dcsim run` and validate-traces). */
typedef struct dcsim_trace_info {
  dcsim_trace_kind kind;
  double recorded_makespan_s; /* WfCommons: the instance's makespan; -1 if none */
  long long max_nodes, max_procs, unix_start_time; /* SWF header, -1 if absent */
  unsigned procs_per_node; /* SWF: processors per node used for the conversion */
  size_t jobs_read, jobs_kept, mapped, failed, cancelled_run;
  size_t skipped_partial, skipped_unknown, skipped_cancelled, skipped_unmatched;
  double recorded_proc_s; /* SWF: sum of run time x processors of the kept jobs */
  double recorded_first_s,
      recorded_last_end_s; /* SWF: first submit, last submit + wait + run (wait -1 = 0) */
} dcsim_trace_info;

/* The homogeneous platform an SWF trace runs on without --platform: MaxNodes nodes (else
 * MaxProcs, else the largest job's processors) of P = MaxProcs / MaxNodes cores each (rounded,
 * at least 1), one socket of the CPU profile of `node` (the stand-in node), with its power states.
 * Named after the header's Computer. */
int dcsim_trace_swf_platform(const dcsim_swf *t, const dcsim_node_group *node, dcsim_platform **out,
                             dcsim_error *err);

typedef struct dcsim_trace_jobs {
  size_t n_wfs;
  dcsim_workflow **wfs; /* one single-task workflow per shape */
  size_t n_jobs;
  dcsim_job *jobs; /* .wf indexes wfs; .instance = order in the trace */
} dcsim_trace_jobs;

/* The jobs of SWF trace t on node group `group` (nodes of it: group_nodes, cores per node: ppn),
 * submitted offset_s later than recorded. map may be NULL (recorded run times). Counts go to
 * *info (added to what it holds). Errors name the trace line of a job larger than the group. */
int dcsim_trace_swf_jobs(const dcsim_swf *t, const dcsim_swf_map *map, const char *group,
                         unsigned group_nodes, unsigned ppn, double offset_s, dcsim_trace_jobs *out,
                         dcsim_trace_info *info, dcsim_error *err);
void dcsim_trace_jobs_release(dcsim_trace_jobs *j);

/* One line of notes about what an import left out or ignored (NULL if nothing): malloc'd. */
char *dcsim_trace_swf_note(const dcsim_trace_info *info, const char *path);

#endif
