/* dcsim/scenario_types.h — the structures of a loaded scenario (dcsim/scenario.h): platform groups
 * with their profiles, workflows with their placement options and plans, jobs, input files, and the
 * options and overrides of loading. Types only, apart from the operations on them, so that the
 * modules dcsim_scenario_load() calls (dcsim/sched.h, dcsim/trace.h, dcsim/recorded.h) include
 * this and not the loader (SQLite's sqliteInt.h).
 *
 * Ownership: a dcsim_scenario owns every structure below that it points to (dcsim/scenario.h);
 * the engine reads them. */
#ifndef DCSIM_SCENARIO_TYPES_H
#define DCSIM_SCENARIO_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "dcsim/dwarf.h"
#include "dcsim/hwprofile.h"
#include "dcsim/platform.h"
#include "dcsim/workflow.h"

typedef struct dcsim_group_rt {
  const dcsim_node_group *g;
  const dcsim_cpu_profile_t *cpu;
  const dcsim_gpu_profile_t *gpu; /* NULL without GPUs */
  unsigned cores_per_node;
  double pkg_idle_w, dram_idle_w, gpu_idle_w; /* per socket / per GPU */
  double idle_w;                              /* whole node, on and unused */
  unsigned model_flags; /* DCSIM_MODEL_* it was loaded with: without DCSIM_MODEL_D35 the powers
                           are node wall powers of the default model (dcsim/cpu_power.h) */
  double base_w, load_overhead; /* default model: its node base power (platform or profile) */
  /* "" when the group's power is known; else why it is not (a profile without a <power-model>
   * or <energy> table, such as one written by dcsim bench): its tasks' times are modelled alone
   * and every energy it contributes is NaN, "unknown" in the outputs */
  char energy_unknown[512];
} dcsim_group_rt;

/* One way to run a task template: on `nodes` nodes of `group` (GPU tasks: one GPU of one node). */
typedef struct dcsim_option {
  uint32_t group;
  uint32_t nodes;
  int gpu;             /* 1: uses one GPU of the node; 0: uses the node exclusively (CPU tasks,
                          and GPU tasks on several GPUs: gpus > 1) */
  uint32_t gpus;       /* GPUs the task uses (0 for CPU tasks) */
  int64_t duration_ns; /* model time, rounded to the ns */
  double energy_j;     /* model energy of the whole task (D3.5 §5.3/§5.5, §5.6 sum) */
  double node_delta_w; /* node power above idle while the task runs, per node */
  uint32_t cores;      /* > 0: it occupies this many cores of each node and shares the node with
                        * other such tasks (recorded-runtime tasks); 0: it holds its nodes */
  double ghz;          /* CPU frequency it runs at (0 for GPU options) */
  dcsim_prov time_prov, energy_prov; /* where its duration and energy come from (provenance.h) */
  /* > 1: the duration's band must reach this multiple of it (a thread law continued beyond its
   * measured cores: dcsim_prediction.time_cover_s over time_s); 0 or 1: no such range */
  double time_cover;
  /* its CPU clock is a turbo not measured at its active cores (dcsim_prediction.turbo_unmeasured):
   * time_cover reaches its time at the nominal clock */
  int turbo_unmeasured;
} dcsim_option;

typedef struct dcsim_tmpl_rt {
  uint32_t n_opts;
  dcsim_option opts[2]; /* a device="any" task has a CPU and a GPU option */
} dcsim_tmpl_rt;

/* The static schedule of one workflow instance inside its allocation (same for every instance). */
typedef struct dcsim_wf_plan {
  uint32_t *alloc; /* nodes held per group, n_groups entries */
  int64_t makespan_ns;
  int64_t *start_ns; /* per task, relative to the job start */
  uint8_t *opt;      /* chosen option per task */
  uint32_t
      *node_start; /* per task + 1: its nodes are node_list[node_start[i] .. node_start[i+1]-1] */
  uint32_t *node_list;  /* node offsets inside the job's allocation of the option's group */
  uint8_t *gpu_slot;    /* GPU index on the node for GPU tasks */
  double task_energy_j; /* sum of the chosen options' energies */
  /* under a workflow management system (dcsim_wf_rt.wms): its auxiliary jobs, the bytes it
   * staged and its negotiation waits; makespan_ns runs to DAGMan's exit */
  size_t wms_aux_jobs;
  double wms_staged_byte, wms_idle_s;
  /* the plan's task starts and ends in time order (starts first at equal times, then by task):
   * the engine merges the lists of the running jobs instead of queueing every event up front */
  size_t n_events;
  int64_t *ev_ns;    /* relative to the job start */
  uint32_t *ev_code; /* task * 2 + (1 for an end) */
} dcsim_wf_plan;

typedef struct dcsim_wf_rt {
  dcsim_workflow *wf;
  /* the workflow management system it runs under (dcsim/wms.h), borrowed from the scenario's
   * description; NULL: none (tasks start when their predecessors end and resources are free) */
  const struct dcsim_wms_profile *wms;
  dcsim_tmpl_rt *tmpls;         /* per template */
  const dcsim_dwarf_t **dwarfs; /* per template: its dwarf (one of the scenario's) */
  dcsim_wf_plan plan;           /* filled by dcsim_sched_plan() */
} dcsim_wf_rt;

typedef struct dcsim_job {
  uint32_t wf;       /* index into workflows */
  uint32_t instance; /* 1-based instance number among the jobs of this workflow */
  int64_t submit_ns;
  /* trace jobs (dcsim/trace.h) share one workflow per shape, so these are per job: */
  double time_scale;    /* > 0: every time of the job's plan is multiplied by it (0 = 1) */
  int64_t estimate_ns;  /* > 0: the user's runtime estimate (EASY, SJF); 0 = the plan's makespan */
  uint32_t trace_job;   /* the job's number in its trace (SWF field 1), 0 = none */
  uint32_t trace_procs; /* processors it asked for in its trace, 0 = none */
} dcsim_job;

typedef struct dcsim_input_file {
  char *path;
  char sha256[65];
} dcsim_input_file;

typedef struct dcsim_scenario {
  char *input_path;
  dcsim_platform *platform;
  size_t n_groups;
  dcsim_group_rt *groups;
  size_t n_wfs;
  dcsim_wf_rt *wfs;
  size_t n_jobs;
  dcsim_job *jobs; /* sorted by submit time, then submission order */
  size_t n_inputs;
  dcsim_input_file *inputs; /* every file read, with its hash */
  struct dcsim_trace_info
      *trace; /* what trace imports read and left out (dcsim/trace.h), NULL if none */
  size_t n_notes;
  char **notes; /* warnings of the importers, one line each (the CLI prints them) */
  /* owned profile and dwarf objects */
  size_t n_cpus, n_gpus, n_dwarfs;
  dcsim_cpu_profile_t **cpus;
  dcsim_gpu_profile_t **gpus;
  dcsim_dwarf_t **dwarfs;
  struct dcsim_wms_conf *wms_conf; /* the WMS description workflows use, NULL if none */
  int task_policy;                 /* as loaded (dcsim_scenario_opts) */
  double deadline_s;
  unsigned model_flags;              /* as loaded (dcsim_scenario_opts) */
  const struct dcsim_scenario *base; /* derived scenarios: the one they borrow from, else NULL */
  /* derived scenarios: dwarf parameters set on every task whose dwarf has them (after the task's
   * own <set>s; borrowed from the override) */
  size_t n_extra_sets;
  const dcsim_param_set *extra_sets;
  /* dcsim_scenario_opts.stop_planning, kept for the planner; derived scenarios copy the base's */
  int (*stop_planning)(void *ctx);
  void *stop_planning_ctx;
} dcsim_scenario;

typedef struct dcsim_scenario_opts {
  const char *platform_path; /* overrides the one named by the input; NULL = use it */
  int task_policy;           /* DCSIM_TASK_* of dcsim/sched.h */
  double deadline_s;         /* energy-aware policy; 0 = per-task deadlines only */
  unsigned model_flags;      /* DCSIM_MODEL_* of dcsim/model.h (--d35, --strict) */
  /* DVFS: with dvfs set, every CPU task without an explicit freq= runs at the plain frequency
   * state of its profile that gives the least task energy among those whose duration stays within
   * (1 + dvfs_slowdown) x its nominal-frequency duration (ties: the higher frequency). Labelled
   * states (turbo) are never chosen; states outside the energy tables are skipped. */
  int dvfs;
  double dvfs_slowdown;
  /* trace imports (dcsim/trace.h) */
  const char *swf_map; /* SWF job -> dwarf rules (schemas/swf-map.xsd); NULL = recorded runtimes */
  double wms_delay_s;  /* WfCommons: latency before every task (workflow-system overhead) */
  double wms_dispatch_s; /* WfCommons: at most one task start per this many seconds */
  double io_bw_bps;      /* WfCommons: > 0 adds (input + output bytes) / io_bw_bps to each task */
  /* The workflow management system (doc/wms.md): "none", "pegasus", or NULL = what the workflow
   * states or records, else what the platform states, else none; with wms_delay_s,
   * wms_dispatch_s or io_bw_bps (the legacy two-number model) NULL means none. wms_file: the
   * description of the Pegasus model, NULL = workflows/wms/pegasus-htcondor.xml under the data
   * root. */
  const char *wms;
  const char *wms_file;
  /* The resource budget the loaders check before allocating (dcsim/budget.h): workflows'
   * expansions, SWF traces' jobs; NULL = only the fixed caps. The run's whole size is checked
   * after loading with dcsim_engine_size()/dcsim_engine_check_size(). */
  const struct dcsim_budget *budget;
  /* Asked between the steps of loading (after the main input is read, after the platform, after
   * each workflow is prepared): a non-zero answer stops loading with DCSIM_EINTR, everything
   * loaded so far freed. NULL = never stop. dcsim run and sweep answer from their SIGINT/SIGTERM
   * flag (and their test hook raises a signal from here, doc/robustness.md). */
  int (*stop_loading)(void *ctx);
  void *stop_loading_ctx;
  /* Asked by the planner (dcsim_sched_plan) before each task it places, in loading and in every
   * scenario derived from this one (a sweep's points, from several threads at once: it must be
   * thread-safe): a non-zero answer stops planning with DCSIM_EINTR (a sweep point of
   * 10^6 nodes planned for minutes deaf to SIGTERM). NULL = never stop. */
  int (*stop_planning)(void *ctx);
  void *stop_planning_ctx;
} dcsim_scenario_opts;

/* What one point of a sweep changes in a base scenario (dcsim_scenario_derive(), dcsim/scenario.h).
 */
typedef struct dcsim_scenario_override {
  const dcsim_cpu_profile_t *cpu; /* NULL = keep */
  const dcsim_gpu_profile_t *gpu; /* NULL = keep */
  unsigned nodes;                 /* 0 = keep */
  unsigned cores;                 /* cores per node, 0 = keep */
  const char *freq;               /* "2.4", "2.4GHz", a label ("turbo") or "nominal"; NULL = keep */
  size_t n_sets;                  /* dwarf parameters of every task whose dwarf has them, after */
  const dcsim_param_set *sets;    /* the task's own <set>s (dcsim sweep --set) */
  unsigned
      threading; /* 0 = keep; 1 = measured, 2 = ideal (DCSIM_MODEL_HW_THREADS, dcsim/model.h) */
  /* dcsim sweep --gpus, --host-cpu: GPUs per node of the GPU node groups, each GPU task
   * split over all of them (the multi-GPU model with its memory check), 0 = keep; the CPU of the
   * GPU node groups, NULL = keep */
  unsigned gpus;
  const dcsim_cpu_profile_t *host_cpu;
} dcsim_scenario_override;

#endif
