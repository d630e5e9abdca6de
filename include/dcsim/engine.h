/* dcsim/engine.h — the discrete-event engine (doc/engine.md).
 *
 * Time is an integer number of nanoseconds; events are ordered by (time, priority, insertion
 * counter) in dcsim/evq.h's heap: at one instant task starts come first, then task ends, job ends,
 * and arrivals, so a scheduling pass sees every node released at that instant. Jobs (workflow
 * instances) arrive, wait in the queue of the job policy, start on an allocation of whole nodes,
 * run their tasks as planned by dcsim/sched.h and release the nodes. Every node carries a power
 * timeline: idle power while on and unused, plus each running task's power above idle
 * (D3.5 §5.3/§5.5); the energy of a node while a job holds it is the job's (D3.5 §5.7: a workflow
 * pays for the idle power of what it holds while waiting for its other part), the rest is the
 * centre's idle energy. Deterministic: the same scenario gives the same results, bit for bit.
 *
 * Node power management (opts.power_off, doc/workloads.md): a node of a group with <power-states>
 * that stays idle and unallocated for power_off_after_s shuts down (shutdown-s at
 * shutdown-j/shutdown-s W, then off-w); the scheduler counts off and shutting-down nodes as free,
 * prefers powered-on nodes (lowest number first) and then off ones (lowest number first); a job
 * given an off node holds it while it boots (boot-s at boot-j/boot-s W, after the end of a
 * shutdown in progress) and its tasks start when the last of its nodes is up: the boot delays the
 * job (it counts in its wait) and its energy is the job's. Off by default: every node always on.
 *
 * Ownership: dcsim_engine_new() returns a heap object freed by dcsim_engine_free(); it borrows the
 * scenario (keep it alive). Stats returned by dcsim_engine_stats() belong to the engine. */
#ifndef DCSIM_ENGINE_H
#define DCSIM_ENGINE_H

#include <signal.h>
#include <stdint.h>

#include "dcsim/error.h"
#include "dcsim/scenario.h"
#include "dcsim/sched.h"

typedef struct dcsim_engine dcsim_engine_t;

/* One finished task, passed to the sink (results database). Pointers valid during the call. */
typedef struct dcsim_task_record {
  uint32_t job, task;
  const dcsim_wf_rt *wf;
  const dcsim_option *opt;
  int64_t start_ns, end_ns;
  const uint32_t *nodes; /* global node numbers */
  uint32_t n_nodes;
  int gpu_slot;    /* -1 for CPU tasks */
  double energy_j; /* the option's model energy, times the job's time scale */
} dcsim_task_record;

typedef struct dcsim_engine_sink {
  void *ctx;
  int (*task)(void *ctx, const dcsim_task_record *r, dcsim_error *err); /* may be NULL */
  int (*power)(void *ctx, uint32_t node, int64_t t0_ns, int64_t t1_ns, double power_w,
               dcsim_error *err); /* may be NULL */
} dcsim_engine_sink;

typedef struct dcsim_engine_opts {
  dcsim_job_policy job_policy;
  const dcsim_engine_sink *sink; /* NULL = statistics only */
  int power_off;                 /* node power management (see above) */
  double power_off_after_s;      /* idle time before a node shuts down, >= 0 */
  double bucket_s;               /* width of the utilisation-over-time buckets; 0 = 3600 s */
} dcsim_engine_opts;

typedef struct dcsim_job_stats {
  int64_t submit_ns, start_ns, end_ns; /* start: its tasks may start (after any boot) */
  int64_t alloc_ns;     /* when it took its nodes (= start_ns unless it waited for a boot) */
  int64_t estimate_ns;  /* the runtime estimate the job policy used */
  double energy_j;      /* all the power of its nodes while it held them */
  double task_energy_j; /* the model energies of its tasks */
  uint32_t tasks;
} dcsim_job_stats;

typedef struct dcsim_group_stats {
  double energy_j;
  double busy_node_s;  /* node-seconds running at least one task */
  double alloc_node_s; /* node-seconds held by jobs */
} dcsim_group_stats;

typedef struct dcsim_run_stats {
  int64_t makespan_ns;
  double energy_j;           /* every node from 0 to the makespan */
  double unallocated_idle_j; /* nodes held by no job */
  uint64_t events, tasks;
  size_t n_jobs;
  const dcsim_job_stats *jobs; /* in scenario job order */
  size_t n_groups;
  const dcsim_group_stats *groups;
  unsigned n_nodes;
  const double *node_energy_j;
  const double *node_busy_s;
  /* power management */
  uint64_t boots, shutdowns;
  const double *node_off_s; /* time off (after the shutdown) */
  const uint32_t *node_boots;
  /* utilisation over time: bucket k covers [k, k+1) x bucket_s, the last one ends at the makespan
   */
  double bucket_s;
  size_t n_buckets;
  const double *bucket_busy_node_s;  /* node-seconds running at least one task */
  const double *bucket_alloc_node_s; /* node-seconds held by jobs */
} dcsim_run_stats;

dcsim_engine_t *dcsim_engine_new(const dcsim_scenario *s, const dcsim_engine_opts *o,
                                 dcsim_error *err);
int dcsim_engine_run(dcsim_engine_t *e, dcsim_error *err);
/* Makes dcsim_engine_run() poll *flag (every 1024 events, and before the first): once it is
 * non-zero the run stops with DCSIM_EINTR, its statistics incomplete. The flag is the caller's
 * (the CLI's signal flag, doc/design.md); NULL = never stop. */
void dcsim_engine_set_interrupt(dcsim_engine_t *e, const volatile sig_atomic_t *flag);

/* The size of a run, known before it starts (doc/engine.md, "The size of a run"): jobs, task
 * instances (every task of every job's workflow), (task, node) pairs (what per-task records such
 * as the pictures' hold), and an upper estimate of its peak memory in bytes: the loaded scenario,
 * the engine at its fullest (every job that can run at once running) and the summary of the
 * jobs. Depends on the inputs only, never on the machine. */
typedef struct dcsim_run_size {
  uint64_t jobs, tasks, task_nodes, bytes;
} dcsim_run_size;
void dcsim_engine_size(const dcsim_scenario *s, const dcsim_engine_opts *o, dcsim_run_size *out);
/* The bytes a run keeps per job besides the job's workflow (what a trace loader charges to the
 * budget per job before storing it: dcsim/budget.h's job_bytes). */
uint64_t dcsim_engine_job_bytes(void);

/* Limits on a run's size; 0 = none. */
typedef struct dcsim_run_limits {
  uint64_t max_tasks, max_bytes;
} dcsim_run_limits;
/* 0 when the run fits the limits, else DCSIM_ERANGE with both numbers (tasks and memory) and the
 * limit crossed in the message: "the run would simulate T tasks of J jobs and need about M of
 * memory; the limit is ...". */
int dcsim_engine_check_size(const dcsim_run_size *sz, const dcsim_run_limits *lim,
                            dcsim_error *err);

/* Where a run is: simulated time, tasks ended, jobs ended of all, events handled. */
typedef struct dcsim_engine_progress {
  int64_t now_ns;
  uint64_t tasks;
  size_t jobs_done, jobs;
  uint64_t events;
} dcsim_engine_progress;
typedef void (*dcsim_engine_progress_fn)(void *ctx, const dcsim_engine_progress *p);
#define DCSIM_ENGINE_PROGRESS_EVENTS 65536u /* events between two calls (a power of two) */
/* Makes dcsim_engine_run() call fn(ctx, progress) every DCSIM_ENGINE_PROGRESS_EVENTS events and
 * once at the end (the CLI's progress line); fn must not touch the engine. NULL = never. */
void dcsim_engine_set_progress(dcsim_engine_t *e, dcsim_engine_progress_fn fn, void *ctx);
const dcsim_run_stats *dcsim_engine_stats(const dcsim_engine_t *e);
void dcsim_engine_free(dcsim_engine_t *e);

#endif
