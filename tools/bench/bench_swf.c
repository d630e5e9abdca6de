/* bench_swf — SWF traces end to end: parse (zlib), import (jobs -> shared single-task workflows,
 * plans), simulate with FCFS, EASY and SJF. Two workloads:
 *   - the NASA iPSC/860 trace of ../shared/data (18,239 jobs on 128 nodes), when present;
 *   - a synthetic trace of JOBS jobs on PROCS single-processor nodes (default 200,000 jobs on
 *     25,000 processors), written to a temporary gzip file: power-of-two job sizes from 1 to
 *     PROCS/8 (smaller ones more likely), run times log-uniform between 10 s and 24 h, requested
 *     times 1-3x the run time, Poisson arrivals at LOAD (default 0.85) of the machine. The random
 *     generator is a fixed-seed xorshift, so the trace is the same on every run.
 *
 * usage: bench_swf [JOBS [PROCS [LOAD [NODES [KEEP]]]]]   (run from the source root; figures in
 *        doc/performance.md). NODES: nodes the PROCS processors are spread over (default PROCS,
 *        one processor per node); KEEP: also write the synthetic trace to this file. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <zlib.h>

#include "benchutil.h"
#include "dcsim/engine.h"
#include "dcsim/lib.h"
#include "dcsim/metrics.h"
#include "dcsim/scenario.h"
#include "dcsim/swf.h"
#include "util/clock.h"

static uint64_t rng = 0x2545f4914f6cdd1dull;
static double uniform(void) { /* xorshift64*, in (0, 1) */
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return ((double)((rng * 0x2545f4914f6cdd1dull) >> 11) + 0.5) / 9007199254740992.0;
}

static int write_trace(const char *path, long jobs, long procs, long nodes, double load) {
  gzFile f = gzopen(path, "wb1");
  if (!f) return -1;
  rng = 0x2545f4914f6cdd1dull; /* the same trace every time */
  gzprintf(f,
           "; Version: 2.2\n; Computer: synthetic (bench_swf)\n; MaxJobs: %ld\n; MaxNodes: %ld\n; "
           "MaxProcs: %ld\n",
           jobs, nodes, procs);
  int max_log = 0;
  while ((2L << max_log) <= procs / 8) max_log++;
  /* mean work per job, for the arrival rate: E[size] x E[run] (independent) */
  double e_size = 0, wsum = 0;
  for (int k = 0; k <= max_log; k++) {
    double w = 1.0 / (k + 1);
    e_size += w * (double)(1L << k);
    wsum += w;
  }
  e_size /= wsum;
  double e_run = (86400.0 - 10.0) / log(86400.0 / 10.0);
  double mean_gap = e_size * e_run / (load * (double)procs);
  double t = 0;
  for (long j = 1; j <= jobs; j++) {
    double u = uniform() * wsum, acc = 0;
    int k = 0;
    for (; k < max_log; k++) {
      acc += 1.0 / (k + 1);
      if (u <= acc) break;
    }
    long size = 1L << k;
    double run = floor(10.0 * pow(8640.0, uniform()));
    double req = floor(run * (1 + 2 * uniform()));
    gzprintf(f, "%ld %.0f -1 %.0f %ld -1 -1 %ld %.0f -1 1 %ld 1 1 1 1 -1 -1\n", j, floor(t), run,
             size, size, req, 1 + j % 97);
    t += -mean_gap * log(uniform());
  }
  return gzclose(f) == Z_OK ? 0 : -1;
}

static int bench(const char *label, const char *path) {
  dcsim_error err;
  double t0 = dcsim__clock_s();
  dcsim_swf *t = NULL;
  if (dcsim_swf_load(path, &t, &err)) {
    fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.msg);
    return 1;
  }
  double t1 = dcsim__clock_s();
  printf("%s: %zu jobs, parse %.3f s\n", label, t->n_jobs, t1 - t0);
  dcsim_swf_free(t);
  static const dcsim_job_policy pol[] = { DCSIM_JOB_FCFS, DCSIM_JOB_EASY, DCSIM_JOB_SJF };
  for (int k = 0; k < 3; k++) {
    double a = dcsim__clock_s(), ca = dcsim__clock_cpu_s();
    dcsim_scenario *s = NULL;
    dcsim_scenario_opts so = { .task_policy = DCSIM_TASK_HEFT };
    if (dcsim_scenario_load(path, &so, &s, &err)) {
      fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.msg);
      return 1;
    }
    double b = dcsim__clock_s();
    dcsim_engine_opts eo = { .job_policy = pol[k] };
    dcsim_engine_t *e = dcsim_engine_new(s, &eo, &err);
    if (!e || dcsim_engine_run(e, &err)) {
      fprintf(stderr, "engine: %s\n", err.msg);
      return 1;
    }
    double c = dcsim__clock_s(), cc = dcsim__clock_cpu_s();
    const dcsim_run_stats *st = dcsim_engine_stats(e);
    dcsim_metrics_summary ms;
    dcsim_metrics_summarise(st, &ms, &err);
    printf(
        "  %-4s load+import %.3f s (%zu shapes), engine %.3f s (%.3g events/s), total %.3f s "
        "(CPU %.3f s); utilisation %.1f %%, mean wait %.0f s, mean bounded slowdown %.2f\n",
        dcsim_sched_job_name(pol[k]), b - a, s->n_wfs, c - b, (double)st->events / (c - b), c - a,
        cc - ca, 100 * ms.utilisation, ms.wait_s.mean, ms.bounded_slowdown.mean);
    dcsim_engine_free(e);
    dcsim_scenario_free(s);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (dcsim_lib_init() != 0) return 1;
  long jobs = argc > 1 ? atol(argv[1]) : 200000, procs = argc > 2 ? atol(argv[2]) : 25000;
  double load = argc > 3 ? atof(argv[3]) : 0.85;
  long nodes = argc > 4 ? atol(argv[4]) : procs;
  const char *keep = argc > 5 ? argv[5] : NULL;
  if (jobs < 1 || procs < 8 || !(load > 0) || nodes < 1 || nodes > procs) {
    fprintf(stderr, "bad arguments\n");
    return 2;
  }
  const char *nasa = "../shared/data/swf/NASA-iPSC-1993-3.1-cln.swf.gz";
  int rc = 0;
  if (access(nasa, R_OK) == 0)
    rc = bench("NASA iPSC/860", nasa);
  else
    printf("NASA iPSC/860: %s not found, skipped\n", nasa);
  char path[] = "/tmp/dcsim-bench-swf-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) {
    perror("mkstemp");
    return 1;
  }
  close(fd);
  double t0 = dcsim__clock_s();
  if (write_trace(path, jobs, procs, nodes, load) ||
      (keep && write_trace(keep, jobs, procs, nodes, load))) {
    fprintf(stderr, "cannot write %s\n", path);
    unlink(path);
    return 1;
  }
  printf("synthetic trace written in %.2f s\n", dcsim__clock_s() - t0);
  char label[128];
  snprintf(label, sizeof label, "synthetic %ld jobs on %ld processors (%ld nodes)", jobs, procs,
           nodes);
  if (!rc) rc = bench(label, path);
  unlink(path);
  printf("peak memory %.1f MiB\n", bench_peak_rss_kib() / 1024.0);
  return rc;
}
