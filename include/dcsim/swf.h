/* dcsim/swf.h — Standard Workload Format traces (version 2.2 of the Parallel Workloads Archive's
 * definition, https://www.cs.huji.ac.il/labs/parallel/workload/swf.html).
 *
 * A trace is a header of comment lines ("; Key: value") followed by one line per job of 18
 * whitespace-separated numeric fields; -1 means "unknown" in every field. Plain and gzip-compressed
 * files are read the same way (zlib reads uncompressed input transparently). The parser keeps every
 * field and header line; what the fields mean for a simulation is decided by dcsim/trace.h.
 *
 * Errors name the file and line: a job line without exactly 18 fields, a field that is not a
 * finite number or is below -1, a non-integral count or identifier, a status above 5, more than
 * DCSIM_SWF_MAX_JOBS jobs.
 *
 * Ownership: dcsim_swf_load() stores a heap object in *out that the caller frees with
 * dcsim_swf_free() (NULL-safe); every string and array in it is owned by it. */
#ifndef DCSIM_SWF_H
#define DCSIM_SWF_H

#include <stddef.h>

#include "dcsim/error.h"

struct dcsim_budget;

#define DCSIM_SWF_MAX_JOBS 50000000u

/* SWF field 11 */
enum {
  DCSIM_SWF_FAILED = 0,
  DCSIM_SWF_COMPLETED = 1,
  DCSIM_SWF_PARTIAL = 2,
  DCSIM_SWF_LAST_PARTIAL = 3,
  DCSIM_SWF_PARTIAL_FAILED = 4,
  DCSIM_SWF_CANCELLED = 5
};

typedef struct dcsim_swf_job {
  long long id;        /*  1 job number */
  double submit_s;     /*  2 submit time, seconds from the start of the log */
  double wait_s;       /*  3 wait time */
  double run_s;        /*  4 run time (wall clock) */
  long long procs;     /*  5 number of allocated processors */
  double cpu_s;        /*  6 average CPU time used per processor */
  double mem_kb;       /*  7 used memory per processor, KB */
  long long req_procs; /*  8 requested number of processors */
  double req_time_s;   /*  9 requested time (the user's runtime estimate) */
  double req_mem_kb;   /* 10 requested memory per processor, KB */
  int status;          /* 11 1 completed, 0 failed, 5 cancelled, 2-4 partial executions */
  long long user;      /* 12 user id */
  long long group;     /* 13 group id */
  long long app;       /* 14 executable (application) number */
  long long queue;     /* 15 queue number */
  long long partition; /* 16 partition number */
  long long prev_job;  /* 17 preceding job number */
  double think_s;      /* 18 think time from the preceding job */
  int line;            /* line in the file */
} dcsim_swf_job;

typedef struct dcsim_swf_header_line {
  char *key, *value;
} dcsim_swf_header_line;

typedef struct dcsim_swf {
  char *path;
  /* header values used by dcsim (-1 when absent) */
  long long max_nodes, max_procs, max_jobs, max_records, unix_start_time;
  const char *computer; /* value of "; Computer:", NULL if absent (points into header) */
  size_t n_header;
  dcsim_swf_header_line *header; /* every "; Key: value" comment, in file order */
  size_t n_jobs;
  dcsim_swf_job *jobs; /* in file order (ascending submit time) */
} dcsim_swf;

int dcsim_swf_load(const char *path, dcsim_swf **out, dcsim_error *err);
/* The same within a budget (dcsim/budget.h; NULL: the fixed caps only). The file is read twice:
 * first its job lines are counted, refused past the budget's work (one job is one unit) or memory
 * (the stored job, sizeof(dcsim_swf_job), plus budget->job_bytes each), then stored in one array of
 * exactly that size. Either pass refuses: a line longer than 64 KiB, more than 4096 "; Key:
 * value" lines or 1 MiB of them, more than 10^6 comment or blank lines or 4 MiB of comments, a NUL
 * byte; a path that is
 * not a regular file (dcsim__file_check_input). */
int dcsim_swf_load_budget(const char *path, const struct dcsim_budget *budget, dcsim_swf **out,
                          dcsim_error *err);
void dcsim_swf_free(dcsim_swf *t);

/* Value of the header comment `key` (case-sensitive, e.g. "MaxNodes"), or NULL. */
const char *dcsim_swf_header(const dcsim_swf *t, const char *key);

#endif
