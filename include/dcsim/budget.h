/* dcsim/budget.h — one resource budget for every way into a simulation (doc/robustness.md,
 * "One budget"): work (task instances, dependency edges, trace jobs) and memory, both known from
 * the input's counts BEFORE anything that size is allocated. `dcsim run`, `sweep`, `validate` and
 * the MPI sweep fill one from --max-tasks / --max-memory (dcsim_cli_budget) and hand it to the
 * loaders (workflows, SWF traces, the scenario), which refuse an input that would pass it with
 * the figure and the option that raises it.
 *
 * Ownership: a plain value owned by the caller; a loader given NULL applies only its own fixed
 * caps. Nothing here allocates. */
#ifndef DCSIM_BUDGET_H
#define DCSIM_BUDGET_H

#include <stddef.h>
#include <stdint.h>

#include "dcsim/error.h"

/* Default of --max-tasks: about 8 s of simulation at the engine's measured rate (10^8 tasks of a
 * workload took 7.6 s; doc/engine.md). */
#define DCSIM_BUDGET_DEFAULT_WORK 100000000ull

typedef struct dcsim_budget {
  uint64_t max_work;      /* task instances of a run, edges of one workflow, jobs of a trace;
                           * 0 = no limit */
  uint64_t max_bytes;     /* estimated peak memory; 0 = no limit */
  uint64_t machine_bytes; /* the machine's memory when max_bytes is its default half, else 0
                           * (the refusal says so) */
  uint64_t job_bytes;     /* what a run keeps per job beyond a loader's own record of it (the
                           * scenario's job, the engine's records): a trace loader charges it per
                           * job; 0 = not counted */
} dcsim_budget;

/* 0 when `work` units of `what` ("tasks", "dependency edges", "jobs") fit max_work, else
 * DCSIM_ERANGE at path:line: "PREFIX N WHAT; the limit is M (--max-tasks N raises it)", where
 * PREFIX is e.g. "the workflow expands to". b may be NULL (no limit). */
int dcsim_budget_work(const dcsim_budget *b, uint64_t work, const char *prefix, const char *what,
                      const char *path, int line, dcsim_error *err);
/* 0 when `bytes` fit max_bytes, else DCSIM_ERANGE at path:line: "PREFIX need about 1.2 GiB of
 * memory; the limit is 512 MiB (--max-memory SIZE raises it)". b may be NULL. */
int dcsim_budget_bytes(const dcsim_budget *b, uint64_t bytes, const char *prefix, const char *path,
                       int line, dcsim_error *err);
/* The suffix both append: which option raises the limit (and, for the default memory limit, that
 * it is half of this machine's memory). */
void dcsim_budget_hint(const dcsim_budget *b, int memory, dcsim_error *err);

/* "1.23 GiB", "512 bytes" (powers of 1024). */
void dcsim_human_bytes(uint64_t bytes, char *buf, size_t size);

#endif
