/* dcsim/wfcommons.h — WfCommons workflow instances (WfFormat JSON,
 * https://github.com/wfcommons/WfFormat): recorded executions of real workflows (task runtimes, the
 * machines they ran on, the makespan).
 *
 * Both layouts are read:
 *   schema 1.4 (and older spellings): workflow.tasks[] with name, id, runtimeInSeconds (or
 * runtime), parents/children by name or id, cores, machine, files[] {link input|output, name,
 *     sizeInBytes (or size)}; workflow.machines[] with cpu {coreCount|count, speedInMHz|speed};
 *     workflow.makespanInSeconds (or makespan);
 *   schema 1.5/1.6: workflow.specification {tasks[] {id, name, parents, children, inputFiles,
 *     outputFiles}, files[] {id, sizeInBytes}} and workflow.execution {makespanInSeconds,
 *     tasks[] {id, runtimeInSeconds, coreCount, machines[]}, machines[]}; runtimeSystem {name,
 *     version} (1.4: wms) at the top level.
 * Dependencies are the union of the parents and children lists. A task without coreCount uses
 * one core. Errors name the file (JSON syntax errors also the line and column) and the JSON path
 * of what is wrong (workflow.execution.tasks[3].runtimeInSeconds).
 *
 * Ownership: dcsim_wfc_load() stores a heap object in *out freed by dcsim_wfc_free()
 * (NULL-safe); the build functions store heap objects freed by their own _free(). */
#ifndef DCSIM_WFCOMMONS_H
#define DCSIM_WFCOMMONS_H

#include <stddef.h>
#include <stdint.h>

#include "dcsim/error.h"
#include "dcsim/platform.h"
#include "dcsim/workflow.h"

struct dcsim_budget;

typedef struct dcsim_wfc_machine {
  char *name;
  unsigned cores;     /* coreCount, 0 if unknown */
  double speed_mhz;   /* speedInMHz, 0 if unknown */
  double memory_byte; /* 0 if unknown */
} dcsim_wfc_machine;

typedef struct dcsim_wfc_task {
  char *id; /* the name the dcsim workflow uses for it */
  double runtime_s;
  unsigned cores;               /* >= 1 */
  long machine;                 /* index into machines, -1 if not recorded */
  double read_byte, write_byte; /* total size of its input and output files */
  unsigned n_read, n_write;     /* the number of its input and output files */
  double priority;              /* its recorded job priority (Pegasus: 10 x depth), 0 if none */
  int reads_inputs; /* some of its input files are workflow inputs (no task writes them) */
  size_t n_parents;
  uint32_t *parents; /* indices, ascending, no duplicates */
  int line; /* where its name is first written after the first "tasks" key, in task order (the
             * JSON reader keeps no positions); 0 when not found, for messages only */
} dcsim_wfc_task;

typedef struct dcsim_wfc {
  char *path, *name;
  char *schema_version;
  double makespan_s; /* recorded makespan, -1 if absent */
  size_t n_machines;
  dcsim_wfc_machine *machines;
  size_t n_tasks;
  dcsim_wfc_task *tasks;
  int has_files; /* some task has input or output file sizes */
  /* files no task writes (the workflow's inputs) and files no task reads (its final outputs),
   * each file counted once */
  double stage_in_byte, stage_out_byte;
  /* the workflow management system that ran it: runtimeSystem (1.5) or wms (1.4) name and
   * version, NULL if not recorded */
  char *wms_name, *wms_version;
} dcsim_wfc;

/* A JSON tree costs more memory than its text: a 62.4 MB instance of 200 000 tasks peaked at
 * 841 MB resident in `dcsim validate` (13.5 x, doc/robustness.md), so the file's size times
 * DCSIM_WFC_BYTES_PER_BYTE is what loading is charged before jansson reads a byte. */
#define DCSIM_WFC_BYTES_PER_BYTE 14u
/* Reading an instance takes longer per task than simulating one: 10^6 independent tasks in a
 * 153 MB file took 23.6 s of CPU (jansson's parse and free, the index, the plan: linear, 2.2 s at
 * 10^5), 0.154 us per byte, where the engine takes 0.076 us per task (DCSIM_BUDGET_DEFAULT_WORK).
 * So loading is charged to --max-tasks as DCSIM_WFC_WORK_PER_BYTE tasks per byte of the file,
 * before jansson reads a byte: the default budget reads about 50 MB (~8 s). */
#define DCSIM_WFC_WORK_PER_BYTE 2u
/* Without a budget, a file larger than this is refused (about 14 GiB of memory). */
#define DCSIM_WFC_MAX_FILE_BYTE (1ull << 30)

int dcsim_wfc_load(const char *path, dcsim_wfc **out, dcsim_error *err);
/* The same within a budget (dcsim/budget.h; NULL: the fixed cap DCSIM_WFC_MAX_FILE_BYTE only):
 * refused with the figure and the option that raises it when the file's size times
 * DCSIM_WFC_BYTES_PER_BYTE passes the budget's memory, or times DCSIM_WFC_WORK_PER_BYTE its work.
 */
int dcsim_wfc_load_budget(const char *path, const struct dcsim_budget *budget, dcsim_wfc **out,
                          dcsim_error *err);
void dcsim_wfc_free(dcsim_wfc *w);

typedef struct dcsim_wfc_opts {
  /* 1: the run is on the recorded machines (dcsim_wfc_platform): every task is pinned to the node
   * group of the machine it ran on and keeps its runtime. 0: tasks go to the first CPU group of
   * the platform and their runtime is scaled by the clock ratio (ref-ghz = the recorded
   * machine's speedInMHz / 1000; dcsim/recorded.h). */
  int pin;
  double delay_s;    /* workflow-system latency before each task (dcsim_task_template.delay_s) */
  double dispatch_s; /* at most one task start per dispatch_s (dcsim_workflow.dispatch_s) */
  double io_bw_bps;  /* > 0: each task also reads its inputs and writes its outputs at this rate */
} dcsim_wfc_opts;

/* The instance as a dcsim workflow of recorded-runtime tasks (one template per task, named by
 * its id). The workflow's path is the instance's path. */
int dcsim_wfc_workflow(const dcsim_wfc *w, const dcsim_wfc_opts *o, dcsim_workflow **out,
                       dcsim_error *err);

/* A platform equal to the recorded machines: one node group per machine, named after it, with the
 * machine's cores (node-group cores=) and memory, two sockets of the CPU profile of `node` (the
 * stand-in node of dcsim/trace.h) and its power states: the instances record no power data
 * (doc/workloads.md). An instance without machines gets one node with as many cores as its
 * widest task. */
int dcsim_wfc_platform(const dcsim_wfc *w, const dcsim_node_group *node, dcsim_platform **out,
                       dcsim_error *err);

#endif
