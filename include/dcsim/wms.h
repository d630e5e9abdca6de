/* dcsim/wms.h — the workflow management system as a simulated mechanism (doc/wms.md): Pegasus
 * planning auxiliary jobs around the workflow's tasks, DAGMan releasing them in cycles, HTCondor
 * matching them to the slots of the machines in negotiation cycles, and the jobs' files moving over
 * the machines' network interfaces and the staging site. The numbers come from a WMS description
 * (dcsim/wmsconf.h); sched.c places the tasks where and when this simulation starts them.
 *
 * The mechanisms, in the order a job meets them:
 *   - DAGMan wakes every dagman_cycle_s, the first time dagman_start_s after the workflow starts.
 *     In each cycle it first submits ready nodes — at most max_submits_per_cycle, while fewer than
 *     max_jobs are in the queue and fewer than max_idle wait there (0: no limit), each submission
 *     taking submit_s of DAGMan's time one after the other (the next cycle waits for the last) —
 *     then reads the job log: terminated jobs start their POST script, finished POST scripts
 *     complete their node, and nodes whose parents are all complete become ready (they are
 *     submitted in the next cycle, after their PRE script if pre_script_s > 0). Scripts last
 *     pre_script_s / post_script_s, at most max_pre / max_post at once (the others queue); a
 *     script of 0 s is no script. Ready nodes are submitted in the order they became ready (then
 *     by node); with job_priorities, the highest task priority first (auxiliary jobs: 1000, as
 *     Pegasus gives them 700-1000), and the negotiator and claim reuse then take idle jobs by
 *     priority, then submission order. DAGMan exits in the cycle that completes the last node: the
 * workflow's end.
 *   - A submitted job waits in the schedd's queue for the next negotiation cycle (cycles at the
 *     multiples of negotiator_cycle_s while jobs are idle). A cycle takes the idle jobs in
 *     submission order and gives each the lowest-numbered machine of its node group with enough
 *     free cores that has not yet received matches_per_machine jobs in this cycle (0: no limit);
 *     a job that finds none waits for the next cycle. Slots are cores: a machine runs jobs while
 *     their cores fit. With claim_reuse, a job that ends hands its claim at once to the first idle
 *     job of its group that fits its cores, unless the claim is claim_worklife_s old.
 *   - A matched job holds its cores for job_wrapper_s (the job wrapper: kickstart, PegasusLite)
 *     plus file_s per file it stages, then the transfer of its input bytes, then its runtime, then
 * the transfer of its output bytes, and terminates. Transfers happen only for data configurations
 * that stage job files (not sharedfs); each crosses the machine's network interface
 * (worker_nic_bps) and the staging site (staging_bps), which the transfers in flight share max-min
 * fairly (0: unlimited; with both unlimited a transfer takes no time).
 *   - Auxiliary jobs run in the local universe of the submit host (no negotiation, no slot) and
 *     last aux_job_s plus their transfer over the input link (input_bps, shared max-min fairly):
 *     create_dir (parent of every root task), stage_in of the workflow's input files (child of
 *     create_dir, parent of every task that reads them; only when there are some), stage_out of
 *     its final outputs (child of every task without children; only when there are some), then
 *     register (child of stage_out) and cleanup (child of stage_out, else of every task without
 *     children). Like every node they go through DAGMan's cycles and POST scripts.
 * Times are integer nanoseconds from the workflow's start; equal times resolve in a fixed order
 * (phase ends and transfers, submissions, negotiation, DAGMan), so the result is deterministic.
 *
 * Ownership: dcsim_wms_simulate() fills a caller-owned result whose arrays the caller frees with
 * dcsim_wms_result_release() (also after a failure). The input is borrowed. */
#ifndef DCSIM_WMS_H
#define DCSIM_WMS_H

#include <stddef.h>
#include <stdint.h>

#include "dcsim/error.h"
#include "dcsim/wmsconf.h"

/* One task of the workflow as an HTCondor job. */
typedef struct dcsim_wms_task {
  int64_t run_ns;               /* its runtime */
  uint32_t group;               /* the node group (machine pool) it runs in */
  uint32_t cores;               /* cores it holds on one machine, >= 1 */
  double in_byte, out_byte;     /* its input and output files (staged unless sharedfs) */
  unsigned in_files, out_files; /* how many files those are */
  double priority;              /* its job priority (served highest first with job-priorities) */
  int reads_inputs; /* it reads some of the workflow's input files (child of stage_in) */
} dcsim_wms_task;

typedef struct dcsim_wms_dag {
  const char *name; /* for messages */
  size_t n_tasks;
  const dcsim_wms_task *tasks;
  const uint32_t *dep_start, *deps; /* predecessors in CSR form, as in dcsim_workflow */
  size_t n_groups;
  const uint32_t *group_nodes; /* machines of each group */
  const uint32_t *group_cores; /* cores of each machine of the group */
  double stage_in_byte;        /* the workflow's input files (moved by stage_in) */
  double stage_out_byte;       /* its final outputs (moved by stage_out) */
  /* asked before each job starts on a machine (NULL: never): nonzero stops the simulation with
   * DCSIM_EINTR (dcsim_scenario_opts.stop_planning, as the list scheduler asks it per task) */
  int (*stop)(void *ctx);
  void *stop_ctx;
} dcsim_wms_dag;

typedef struct dcsim_wms_result {
  int64_t *start_ns; /* per task: start of its runtime */
  uint32_t *node;    /* per task: its machine inside its group (0-based) */
  int64_t end_ns;    /* DAGMan exits: the workflow's end */
  size_t aux_jobs;   /* auxiliary jobs added */
  uint64_t dagman_cycles, negotiation_cycles;
  double staged_byte; /* bytes moved by per-job staging and the stage jobs */
  double idle_s;      /* summed over tasks: submission to match (waiting for negotiation) */
} dcsim_wms_result;

/* Simulates the workflow under the WMS of p. Errors (naming dag->name): a task that needs more
 * cores than a machine of its group has, a group without machines, a run past 10^9 s;
 * DCSIM_EINTR "planning stopped on request" when dag->stop says so. */
int dcsim_wms_simulate(const dcsim_wms_params *p, const dcsim_wms_dag *dag, dcsim_wms_result *out,
                       dcsim_error *err);
void dcsim_wms_result_release(dcsim_wms_result *r);

#endif
