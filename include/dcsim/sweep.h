/* dcsim/sweep.h — design-space sweeps: one workflow simulated by the engine for every combination
 * of CPU profile x GPU profile x nodes x cores per node x frequency (doc/sweep.md).
 *
 * The workflow, platform, profiles and dwarfs are read once (dcsim_scenario_load_inputs) and
 * shared read-only; each point is a scenario derived from them (dcsim_scenario_derive) and run
 * by its own engine. Points are evaluated in parallel with OpenMP, each result stored at the
 * point's index, so the output is the same at any thread count. A point whose state lies outside
 * a profile's tables is infeasible, with the reason; it never stops the sweep.
 *
 * Point order: cpu (outermost), gpu, host cpu, gpus, nodes, cores, freq, threading (innermost),
 * each in list
 * order.
 *
 * Ownership: dcsim_sweep_new() returns a heap object freed by dcsim_sweep_free(); the points
 * returned by dcsim_sweep_points() belong to it. The point type and reading and writing points
 * are in dcsim/sweep_io.h (included here). */
#ifndef DCSIM_SWEEP_H
#define DCSIM_SWEEP_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dcsim/error.h"
#include "dcsim/repro.h"
#include "dcsim/sweep_io.h"
#include "dcsim/workflow.h"

#define DCSIM_SWEEP_MAX_LIST   64 /* values per list */
#define DCSIM_SWEEP_MAX_POINTS 10000000u
#define DCSIM_SWEEP_MAX_SHARDS 1000000u
/* one limit per list, the same in the option parser and the sweep (--nodes said "at most
 * 10000000" and then "not from 1 to 1000000"); a point's node count must fit a platform. The
 * planner places a task on k of N nodes in O(k log N), so a point of alaro.xml at 10^6 nodes
 * planned for 10 min and 849 MB; at 10^5, 5.8 s of CPU and 93 MB (doc/robustness.md). */
#define DCSIM_SWEEP_MAX_NODES 100000u
#define DCSIM_SWEEP_MAX_CORES 100000u

typedef struct dcsim_sweep_def {
  const char *input;    /* a <workflow> (or <workload>) file */
  const char *platform; /* NULL = the one the input names */
  const char *policy;   /* dcsim run's --policy; NULL = fcfs+heft */
  double deadline_s;    /* for the energy task policy; 0 = none */
  /* each list may be empty: the workflow's own value is kept */
  size_t n_cpus;
  const char *const *cpus; /* CPU profiles (name or path) */
  size_t n_gpus;
  const char *const *gpus; /* GPU profiles */
  size_t n_nodes;
  const unsigned *nodes; /* nodes of every CPU task */
  size_t n_cores;
  const unsigned *cores; /* cores per node of every CPU task */
  size_t n_freqs;
  const char *const *freqs; /* GHz, a state label, or "nominal" */
  unsigned model_flags;     /* DCSIM_MODEL_* of dcsim/model.h (--d35, --strict) */
  /* dwarf parameters set on every task whose dwarf has them (after the task's own <set>s); each
   * name must be a parameter of some task's dwarf. Not a list: one value per name. */
  size_t n_sets;
  const dcsim_param_set *sets;
  /* CPU thread-scaling variants (--threading measured,ideal): each 0 (measured, the dwarfs' laws)
   * or DCSIM_MODEL_HW_THREADS (ideal); empty = the model_flags' own */
  size_t n_threadings;
  const unsigned *threadings;
  /* cost (dcsim/cost.h): NULL = the defaults; what the front is taken over
   * (DCSIM_OBJ_*; 0 = time and energy) */
  const struct dcsim_cost_opts *cost;
  unsigned objectives;
  /* GPUs per GPU node (each GPU task split over them, the multi-GPU model) and the CPU
   * profiles of the GPU node groups; each list may be empty (the platform's) */
  size_t n_gpu_counts;
  const unsigned *gpu_counts;
  size_t n_host_cpus;
  const char *const *host_cpus;
  /* loading the inputs stops between its steps when this answers non-zero (DCSIM_EINTR; the
   * scenario loader's stop_loading, dcsim/scenario_types.h); NULL = never */
  int (*stop_loading)(void *ctx);
  void *stop_loading_ctx;
  /* planning every point stops before its next task when this answers non-zero (the point is
   * left undone: dcsim_scenario_opts.stop_planning; called from several threads) */
  int (*stop_planning)(void *ctx);
  void *stop_planning_ctx;
} dcsim_sweep_def;

/* The most threads a sweep runs: 4 per online processor, at least 16, at most 4096 (more only
 * wait for a processor; tens of thousands make libgomp fail). --threads above it is refused; an
 * OMP_NUM_THREADS above it is cut to it. */
int dcsim_sweep_max_threads(void);

typedef struct dcsim_sweep dcsim_sweep_t;

/* Loads the inputs, resolves every profile of the lists and checks the lists (values >= 1, no
 * duplicates, frequencies that are a number, "nominal" or a label of one of the CPUs). */
int dcsim_sweep_new(const dcsim_sweep_def *def, dcsim_sweep_t **out, dcsim_error *err);
/* The same within a resource budget (dcsim/budget.h; NULL = the fixed caps only): the inputs'
 * loaders check it, then every point's tasks, and the memory of `threads` points at once (0 = the
 * default count of dcsim_sweep_run()). dcsim_sweep_new() is this with NULL and 0. */
int dcsim_sweep_new_within(const dcsim_sweep_def *def, const struct dcsim_budget *budget,
                           unsigned threads, dcsim_sweep_t **out, dcsim_error *err);
void dcsim_sweep_free(dcsim_sweep_t *sw);

size_t dcsim_sweep_n_points(const dcsim_sweep_t *sw);
dcsim_sweep_point *dcsim_sweep_points(dcsim_sweep_t *sw);
/* A sentence for the user when a point's result is not what the lists suggest (the workflow's CPU
 * tasks differ in nodes, cores or frequency: a point runs all of them), else NULL. Borrowed. */
const char *dcsim_sweep_note(const dcsim_sweep_t *sw);
/* SHA-256 of the definition and of every input file: a sweep resumes only when this matches. */
const char *dcsim_sweep_hash(const dcsim_sweep_t *sw);
/* The canonical definition text that is hashed (stored with the sweep in the database). */
const char *dcsim_sweep_definition(const dcsim_sweep_t *sw);
/* The loaded inputs every point derives from (read only). */
const struct dcsim_scenario *dcsim_sweep_base(const dcsim_sweep_t *sw);
/* Whether point i's CPU work ran on a CPU whose rates were carried from another
 * (dcsim_bands_cpu_transferred): its --cpu profile, else the CPU the workflow's CPU tasks run on
 * (dcsim_sweep_scenario_transferred) — the profiles the sweep loaded, never a name looked up
 * again. */
int dcsim_sweep_point_transferred(const dcsim_sweep_t *sw, size_t i);
/* The sweep's hash and every input file with its SHA-256, added to r (dcsim/repro.h). */
int dcsim_sweep_repro(const dcsim_sweep_t *sw, dcsim_repro *r, dcsim_error *err);

/* Shards (job arrays, doc/scaling.md): restricts the points dcsim_sweep_run evaluates to shard i of
 * n, the points whose dcsim_sweep_shard_of(index, n) is i: the golden-ratio sequence
 * floor(n x frac(index x 0.618...)), which gives every shard an equal share of every part of the
 * design space. n = 0 or 1: every point. The definition
 * and its hash do not change: the shards of one sweep are stored as the same sweep, and `dcsim
 * merge` joins their databases. */
int dcsim_sweep_set_shard(dcsim_sweep_t *sw, unsigned i, unsigned n, dcsim_error *err);
unsigned dcsim_sweep_shard_of(size_t index, unsigned n);
int dcsim_sweep_in_shard(const dcsim_sweep_t *sw, size_t index);

typedef struct dcsim_sweep_sink {
  void *ctx;
  /* called on the calling thread after each batch of newly evaluated points (e.g. one database
   * transaction); `idx` lists them in ascending order. May be NULL. */
  int (*batch)(void *ctx, const dcsim_sweep_point *pts, const size_t *idx, size_t n,
               dcsim_error *err);
  /* progress: points done (restored ones included) out of all; called from one thread. May be NULL.
   */
  void (*progress)(void *ctx, size_t done, size_t total);
} dcsim_sweep_sink;

typedef struct dcsim_sweep_run_opts {
  int threads;       /* 0 = OpenMP's default (OMP_NUM_THREADS) */
  size_t stop_after; /* evaluate at most this many new points, then return (0 = all) */
  size_t batch;      /* points per batch; 0 = 32 per thread */
  const dcsim_sweep_sink *sink;
} dcsim_sweep_run_opts;

/* Evaluates every point not yet done (of the shard, when one is set), in batches, then (when all
 * points are done) marks the Pareto front and its knee. Infeasible points are results, not errors;
 * an error (out of memory, internal) stops the sweep and names the lowest failing point. */
int dcsim_sweep_run(dcsim_sweep_t *sw, const dcsim_sweep_run_opts *o, dcsim_error *err);

/* Makes dcsim_sweep_run() poll *flag before each point and the engines of the points poll it as
 * they simulate: once it is non-zero no new point starts, the points in progress stop and stay
 * undone (a point could simulate for minutes), the batch's finished points go to the sink
 * (one last transaction) and the run returns DCSIM_EINTR. The flag is the caller's (the CLI's
 * signal flag, doc/design.md); NULL = never stop. */
void dcsim_sweep_set_interrupt(dcsim_sweep_t *sw, const volatile sig_atomic_t *flag);

/* Evaluates one point of the sweep (the same code dcsim_sweep_run uses). */
int dcsim_sweep_eval(const dcsim_sweep_t *sw, size_t index, dcsim_sweep_point *pt,
                     dcsim_error *err);

/* Marks pareto/knee over the done, feasible points of an array (dcsim/pareto.h's rule). */
/* Marks the Pareto front, its knee, and the balance point of every series of points that differ
 * only by their node count (same CPU, GPU, cores, frequency): the node count after which adding
 * nodes no longer reduces the time-to-solution (D3.5 §6.1.2, §7), when that happens inside the
 * series. */
void dcsim_sweep_mark_front(dcsim_sweep_point *pts, size_t n);
/* The same over the objectives obj (DCSIM_OBJ_*; dcsim/pareto.h's rule in two or three
 * dimensions): with cost among them, a point whose cost is unknown is on no front. */
void dcsim_sweep_mark_front_on(dcsim_sweep_point *pts, size_t n, unsigned obj);
/* The objectives the sweep's front is taken over. */
unsigned dcsim_sweep_objectives(const dcsim_sweep_t *sw);

#endif
