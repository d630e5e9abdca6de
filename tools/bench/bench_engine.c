/* bench_engine — the engine on a synthetic workload: JOBS workflow instances of TASKS tasks each
 * submitted every INTERVAL seconds (0: all at t = 0) to a platform of NODES nodes; TASKS >= 2 is
 * a chain of BiFFT and Spherical Harmonics calls on single nodes of two groups (Haswell, Skylake),
 * TASKS = 1 one BiFFT call on one Haswell node (JOBS = NODES, INTERVAL = 0: JOBS concurrent tasks,
 * the shape of tools/bench/vs-simgrid). Prints the load+plan time, the engine's time (wall:
 * events/s, tasks/s and ns per task; and CPU time, which other processes do not inflate), and the
 * peak memory per task (peak resident size / tasks, and the same above the resident size of the
 * process at its start). Defaults: 10,000 jobs x 100 tasks = 1,000,000 tasks on 10,000 nodes, one
 * job every 0.05 s.
 *
 * usage: bench_engine [JOBS [TASKS [NODES [INTERVAL_S]]]]   (run from the source root; the scaling
 *        table of doc/performance.md: tools/bench/engine-scaling.sh) */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "benchutil.h"
#include "dcsim/engine.h"
#include "dcsim/lib.h"
#include "dcsim/scenario.h"
#include "util/clock.h"

static int write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f || fputs(text, f) < 0) {
    if (f) fclose(f);
    return -1;
  }
  return fclose(f);
}

/* The platform, workflow and workload files in dir. */
static int write_inputs(const char *dir, long jobs, long tasks, long nodes, double interval) {
  char path[512], text[2048];
  if (tasks == 1)
    snprintf(text, sizeof text,
             "<platform name=\"bench\" source=\"synthetic\">\n  <node-group name=\"hsw\" "
             "count=\"%ld\" cpu=\"xeon-e5-2697v3\" sockets=\"2\"/>\n</platform>\n",
             nodes);
  else
    snprintf(text, sizeof text,
             "<platform name=\"bench\" source=\"synthetic\">\n"
             "  <node-group name=\"hsw\" count=\"%ld\" cpu=\"xeon-e5-2697v3\" sockets=\"2\"/>\n"
             "  <node-group name=\"skl\" count=\"%ld\" cpu=\"xeon-gold-6148\" "
             "sockets=\"2\"/>\n</platform>\n",
             nodes / 2, nodes - nodes / 2);
  snprintf(path, sizeof path, "%s/platform.xml", dir);
  if (write_file(path, text)) return -1;
  const char *fft =
      "<task name=\"fft\" dwarf=\"bifft\" case=\"200x180_20\" device=\"cpu\" "
      "group=\"hsw\" cores-per-node=\"1\"/>";
  if (tasks == 1)
    snprintf(text, sizeof text, "<workflow name=\"one\" source=\"synthetic\">\n  %s\n</workflow>\n",
             fft);
  else
    snprintf(text, sizeof text,
             "<workflow name=\"chain\" source=\"synthetic\">\n  <steps count=\"%ld\" "
             "overlap=\"false\">\n    %s\n"
             "    <task name=\"sh\" dwarf=\"spherical-harmonics\" case=\"TL159\" device=\"cpu\" "
             "group=\"skl\" cores-per-node=\"4\" freq=\"2.4\">\n"
             "      <set name=\"ITER\" value=\"1\"/>\n    </task>\n  </steps>\n</workflow>\n",
             tasks / 2, fft);
  snprintf(path, sizeof path, "%s/wf.xml", dir);
  if (write_file(path, text)) return -1;
  if (interval > 0)
    snprintf(text, sizeof text,
             "<workload name=\"bench\" platform=\"platform.xml\" source=\"synthetic\">\n"
             "  <submit workflow=\"wf.xml\" at-s=\"0\" count=\"%ld\" interval-s=\"%g\"/>\n"
             "</workload>\n",
             jobs, interval);
  else
    snprintf(text, sizeof text,
             "<workload name=\"bench\" platform=\"platform.xml\" source=\"synthetic\">\n"
             "  <submit workflow=\"wf.xml\" at-s=\"0\" members=\"%ld\"/>\n</workload>\n",
             jobs);
  snprintf(path, sizeof path, "%s/load.xml", dir);
  return write_file(path, text);
}

static void remove_inputs(const char *dir) {
  static const char *const names[] = { "platform.xml", "wf.xml", "load.xml" };
  char path[512];
  for (int i = 0; i < 3; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    unlink(path);
  }
  rmdir(dir);
}

int main(int argc, char **argv) {
  if (dcsim_lib_init() != 0) return 1;
  long jobs = argc > 1 ? atol(argv[1]) : 10000, tasks = argc > 2 ? atol(argv[2]) : 100;
  long nodes = argc > 3 ? atol(argv[3]) : 10000;
  double interval = argc > 4 ? atof(argv[4]) : 0.05;
  if (jobs < 1 || tasks < 1 || nodes < 2 || !(interval >= 0)) {
    fprintf(stderr, "bad arguments\n");
    return 2;
  }
  long rss_start = bench_peak_rss_kib(); /* the process before any input: libraries, schemas */
  char dir[] = "/tmp/dcsim-bench-XXXXXX", load[512];
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  snprintf(load, sizeof load, "%s/load.xml", dir);
  if (write_inputs(dir, jobs, tasks, nodes, interval)) {
    fprintf(stderr, "cannot write the inputs in %s\n", dir);
    remove_inputs(dir);
    return 1;
  }
  dcsim_error err;
  double t0 = dcsim__clock_s();
  dcsim_scenario *s = NULL;
  dcsim_scenario_opts o = { .task_policy = DCSIM_TASK_HEFT };
  int rc = dcsim_scenario_load(load, &o, &s, &err);
  remove_inputs(dir);
  if (rc) {
    fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.msg);
    return 1;
  }
  double t1 = dcsim__clock_s(), c1 = dcsim__clock_cpu_s();
  long rss_loaded = bench_peak_rss_kib();
  dcsim_engine_opts eo = { .job_policy = DCSIM_JOB_FCFS };
  dcsim_engine_t *e = dcsim_engine_new(s, &eo, &err);
  if (!e || dcsim_engine_run(e, &err)) {
    fprintf(stderr, "engine: %s\n", err.msg);
    return 1;
  }
  double t2 = dcsim__clock_s(), c2 = dcsim__clock_cpu_s();
  const dcsim_run_stats *st = dcsim_engine_stats(e);
  long rss = bench_peak_rss_kib();
  double n = (double)st->tasks;
  printf("workload      %ld jobs x %ld tasks = %llu tasks on %u nodes, %llu events\n", jobs, tasks,
         (unsigned long long)st->tasks, st->n_nodes, (unsigned long long)st->events);
  printf("load+plan     %.3f s\n", t1 - t0);
  printf("engine        %.3f s: %.3g events/s, %.3g tasks/s, %.1f ns per task\n", t2 - t1,
         (double)st->events / (t2 - t1), n / (t2 - t1), (t2 - t1) / n * 1e9);
  printf("engine CPU    %.3f s: %.1f ns per task\n", c2 - c1, (c2 - c1) / n * 1e9);
  printf("simulated     %.6g s, %.6g J\n", (double)st->makespan_ns * 1e-9, st->energy_j);
  printf(
      "peak memory   %.1f MiB (%.1f MiB after loading, %.1f MiB at start): %.0f bytes per "
      "task, %.0f above the start\n",
      rss / 1024.0, rss_loaded / 1024.0, rss_start / 1024.0, rss * 1024.0 / n,
      (rss - rss_start) * 1024.0 / n);
  dcsim_engine_free(e);
  dcsim_scenario_free(s);
  return 0;
}
