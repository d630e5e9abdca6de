/* dcsim/workflow.h — workflow inputs: a workflow (a DAG of dwarf calls, schemas/workflow.xsd)
 * expanded into task instances, and a workload (workflow submissions over time,
 * schemas/workload.xsd).
 *
 * Ownership: the load and build functions store in *out a heap object the caller frees with the
 * matching _free() (NULL-safe); every string and array in it is owned by it. On failure *out is
 * NULL. dcsim_workflow_build() copies what it is given and keeps no pointer to it.
 *
 * Structure (D3.5 sec. 5.7, sec. 6.2). A workflow is a list of items; an item is
 *   - a task: one call of a dwarf (a task template);
 *   - <steps count overlap>: its tasks repeated for steps 1..count. overlap="false": in each step
 *     a task without after= depends on the task before it (document order), so the dwarfs run one
 *     after the other; overlap="true": no implicit dependency inside a step (dwarfs run
 *     concurrently). Across steps, the source tasks of step k+1 (no predecessor in the step)
 *     depend on the sink tasks of step k (no successor in the step): with overlap="false" and no
 *     after= the first task waits for the last, with overlap="true" every task waits for all;
 *   - <ensemble members>: its items (tasks and steps) replicated as independent members 1..M;
 *     only at the top level.
 * after="a b" names items of the same scope (siblings: tasks, or blocks with a name=). Depending
 * on a block means depending on all its sink tasks; after= on a block makes its source tasks
 * wait. Siblings have no implicit dependency on each other except the steps rule above.
 * Task names are unique in the whole workflow, block names unique in their scope.
 *
 * Expansion order (deterministic): document order, steps outermost-first, i.e. an ensemble emits
 * member 1 completely, then member 2...; a steps block emits step 1's tasks, then step 2's...
 * Each instance stores its template and its member/step numbers (1-based, 0 = not inside an
 * ensemble / steps block); names are built on demand: "m2.s17.bifft", "s3.rad", "post".
 * Dependencies are stored in CSR form over nodes 0 .. n_tasks + n_barriers - 1: the predecessors
 * of node i are deps[dep_start[i] .. dep_start[i+1]-1], ascending, without duplicates. A
 * predecessor may come later in the order than its successor (after= naming a later sibling).
 * Nodes 0 .. n_tasks-1 are the task instances; nodes n_tasks .. n_tasks + n_barriers - 1 are step
 * barriers: when the sources of step k+1 would each wait for every sink of step k and that is
 * more edges than going through one node (sources x sinks > sources + sinks, e.g. overlap="true"
 * with two or more tasks), the sinks of step k are the predecessors of a barrier node (no work,
 * no resource: it ends when the last of them ends) and the barrier is the one predecessor of each
 * source of step k+1 (O(tasks) edges, not O(tasks^2)). Barriers are numbered in
 * expansion order; a barrier never waits for a barrier.
 * Memory: 16 bytes per task and 4 per barrier, plus 4 per dependency edge. */
#ifndef DCSIM_WORKFLOW_H
#define DCSIM_WORKFLOW_H

#include <stddef.h>
#include <stdint.h>

#include "dcsim/error.h"

struct dcsim_budget;

#define DCSIM_WORKFLOW_MAX_TASKS 50000000u  /* expanded task instances */
#define DCSIM_WORKFLOW_MAX_DEPS  500000000u /* expanded dependency edges (2 GB) */

typedef enum { DCSIM_DEV_CPU, DCSIM_DEV_GPU, DCSIM_DEV_ANY } dcsim_device;

typedef struct dcsim_param_set {
  char *name;
  double value;
} dcsim_param_set;

typedef struct dcsim_task_template {
  char *name;
  char *dwarf;     /* dwarf name, resolved by the engine; NULL for a recorded-runtime task */
  char *case_name; /* NULL if none */
  dcsim_device device;
  char *group;             /* node group; NULL = any suitable group */
  unsigned nodes;          /* >= 1; a GPU task uses exactly one node */
  unsigned cores_per_node; /* 0 = all cores of the node */
  unsigned gpus;           /* 0 for CPU tasks; >= 1 for GPU and "any" tasks (default 1) */
  double freq_ghz;         /* 0 = the profile's nominal frequency (or freq_label) */
  char *freq_label;        /* NULL unless a label like "turbo" */
  double deadline_s;       /* 0 = none */
  size_t n_sets;           /* dwarf parameter overrides */
  dcsim_param_set *sets;
  int line; /* line of <task> */
  /* A recorded-runtime task (dwarf == NULL; runtime-s=, trace imports): it lasts runtime_s,
   * recorded on a CPU clocked at ref_ghz (0 = the simulated node's nominal frequency: no scaling),
   * and its power follows the rule of dcsim/recorded.h. CPU only. */
  double runtime_s; /* >= 0; 0 for a modelled call */
  double ref_ghz;   /* >= 0 */
  double delay_s;   /* >= 0: latency between the end of its last predecessor (or the job
                     * start) and its start, holding no resource (workflow-system overhead) */
  /* Files, for a workflow management system that stages them (dcsim/wms.h): bytes the task reads
   * and writes, and whether it reads some of the workflow's input files. */
  double input_byte, output_byte;     /* >= 0 */
  unsigned input_files, output_files; /* how many files those are (0: not recorded) */
  double priority; /* the job priority the WMS recorded (WfCommons priority), 0 if none */
  int reads_inputs;
} dcsim_task_template;

typedef struct dcsim_task_inst {
  uint32_t tmpl;   /* index into templates */
  uint32_t member; /* 1..M, 0 = not in an ensemble */
  uint32_t step;   /* 1..N, 0 = not in a steps block */
} dcsim_task_inst; /* 12 bytes */

typedef struct dcsim_workflow {
  char *path; /* the file, or the name given to dcsim_workflow_build() */
  char *name;
  char *platform; /* resolved against the workflow's directory, or NULL */
  size_t n_templates;
  dcsim_task_template *templates;
  size_t n_tasks;
  dcsim_task_inst *tasks;
  size_t n_barriers;   /* step barrier nodes, numbered from n_tasks (above) */
  uint32_t *dep_start; /* n_tasks + n_barriers + 1 entries */
  uint32_t *deps;
  double dispatch_s; /* >= 0: the workflow system starts at most one task per dispatch_s
                      * seconds (0 = no limit); set by importers or dispatch-s= */
  /* The workflow management system it runs under (doc/wms.md): wms "none" or "pegasus" as
   * stated by wms=, NULL if not stated; the runtime system an instance records (WfCommons
   * runtimeSystem name and version, or wms-version=), NULL if none; the bytes of its input files
   * and of its final outputs, which the WMS stages in and out. */
  char *wms;
  char *wms_system, *wms_version;
  double stage_in_byte, stage_out_byte; /* >= 0 */
} dcsim_workflow;

/* Loads, checks and expands a workflow file. Errors (file:line): unknown or duplicate names,
 * a cycle (the message lists it), counts < 1, more than DCSIM_WORKFLOW_MAX_TASKS instances or
 * DCSIM_WORKFLOW_MAX_DEPS edges (found before anything is allocated), a GPU task with nodes > 1
 * or gpus = 0, a CPU task with gpus > 0, a <set> given twice, a task with both or neither of
 * dwarf= and runtime-s=, a recorded-runtime task that is not a CPU task or has <set>s. */
int dcsim_workflow_load(const char *path, dcsim_workflow **out, dcsim_error *err);
/* The same, checking the expansion's tasks, edges and memory against budget (may be NULL) before
 * expanding it (dcsim/budget.h). */
int dcsim_workflow_load_budget(const char *path, const struct dcsim_budget *budget,
                               dcsim_workflow **out, dcsim_error *err);

/* The in-memory form of the structure, for benchmarks and generators. */
typedef enum { DCSIM_WF_TASK, DCSIM_WF_STEPS, DCSIM_WF_ENSEMBLE } dcsim_wf_kind;
typedef struct dcsim_wf_item {
  dcsim_wf_kind kind;
  uint32_t tmpl;     /* TASK: index into the templates; each is used exactly once */
  const char *name;  /* STEPS/ENSEMBLE: name for after= (NULL = none); TASK: unused */
  const char *after; /* space-separated sibling names; NULL or "" = none */
  unsigned count;    /* STEPS: steps; ENSEMBLE: members */
  int overlap;       /* STEPS */
  size_t n_items;    /* STEPS (tasks only) / ENSEMBLE (tasks and steps): the body */
  const struct dcsim_wf_item *items;
  int line; /* for messages, 0 if unknown */
} dcsim_wf_item;

/* Builds a workflow from memory with the same checks as the loader; `name` also stands for the
 * file in messages. */
int dcsim_workflow_build(const char *name, const dcsim_task_template *templates, size_t n_templates,
                         const dcsim_wf_item *items, size_t n_items, dcsim_workflow **out,
                         dcsim_error *err);
void dcsim_workflow_free(dcsim_workflow *wf);

/* Writes the name of task i ("m2.s17.bifft") into buf like snprintf: returns the length of the
 * whole name, or DCSIM_ERANGE when i is out of range. */
int dcsim_workflow_task_name(const dcsim_workflow *wf, size_t i, char *buf, size_t size);

typedef struct dcsim_submission {
  char *workflow_path; /* resolved against the workload's directory; the file exists */
  double at_s;         /* first submission time, >= 0 */
  unsigned count;      /* submissions, >= 1 (default 1) */
  double interval_s;   /* between submissions; > 0 when count > 1 */
  unsigned members;    /* independent copies submitted each time, >= 1 (default 1) */
  int line;            /* line of <submit> */
} dcsim_submission;

typedef struct dcsim_workload {
  char *path;
  char *name;
  char *platform; /* resolved against the workload's directory, or NULL */
  size_t n_submissions;
  dcsim_submission *subs;
} dcsim_workload;

int dcsim_workload_load(const char *path, dcsim_workload **out, dcsim_error *err);
void dcsim_workload_free(dcsim_workload *wl);

#endif
