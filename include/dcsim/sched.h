/* dcsim/sched.h — scheduling policies.
 *
 * Two levels (doc/engine.md): a job is one workflow instance holding an allocation of whole nodes
 * from its start to its end (like an MPI application, and as D3.5 §5.7 charges the idle power of
 * the resources a workflow holds); the job queue policy decides when jobs start, the task policy
 * places the job's tasks inside its allocation.
 *   job policies:  fcfs  first come, first served (no overtaking)
 *                  easy  EASY backfilling: the first waiting job gets a reservation; later jobs
 *                        start early when they finish before it or use none of its nodes
 *                  sjf   shortest job first: the waiting job with the smallest runtime estimate
 *                        starts first (ties: submission order); it blocks those behind it
 *   Runtime estimates are the jobs' own (SWF requested time) when they have one, else the
 *   exact makespan of their plan.
 *   task policies: heft  list scheduling by upward rank, each task where it finishes first
 *                        (a device="any" task goes to the CPU or the GPU, whichever ends first)
 *                  energy  the placement that costs the job least energy: the task's model
 *                        energy plus the idle power of the whole allocation for as long as the
 *                        choice keeps the job running (its projected finish), among the
 *                        placements that still meet the deadline (per task deadline-s, or the
 *                        run's --deadline-s; none = no constraint); if none does, heft's choice
 * --policy NAME is one of fcfs, easy, sjf, heft, energy, or JOB+TASK (e.g. easy+energy); a lone job
 * policy uses heft for tasks, a lone task policy uses fcfs for jobs.
 *
 * Ownership: dcsim_sched_plan() fills wf->plan (owned by the scenario). */
#ifndef DCSIM_SCHED_H
#define DCSIM_SCHED_H

#include "dcsim/error.h"

typedef enum { DCSIM_JOB_FCFS = 0, DCSIM_JOB_EASY = 1, DCSIM_JOB_SJF = 2 } dcsim_job_policy;
typedef enum { DCSIM_TASK_HEFT = 0, DCSIM_TASK_ENERGY = 1 } dcsim_task_policy;

struct dcsim_scenario;
struct dcsim_wf_rt;

int dcsim_sched_parse_policy(const char *name, dcsim_job_policy *job, dcsim_task_policy *task,
                             dcsim_error *err);
const char *dcsim_sched_job_name(dcsim_job_policy p);
const char *dcsim_sched_task_name(dcsim_task_policy p);

/* Computes the allocation (nodes per group) and the static schedule of one instance of the
 * workflow inside it. Every instance of a workflow gets the same plan. */
int dcsim_sched_plan(const struct dcsim_scenario *s, struct dcsim_wf_rt *wf,
                     dcsim_task_policy policy, double deadline_s, dcsim_error *err);
void dcsim_sched_plan_release(struct dcsim_wf_rt *wf);

#endif
