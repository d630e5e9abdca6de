/* bench_engine — the engine on a synthetic workload: JOBS workflow instances of TASKS tasks each
 * (a chain of BiFFT and Spherical Harmonics calls on single nodes) submitted every INTERVAL
 * seconds to a platform of NODES nodes. Prints load/plan time, engine events/s and tasks/s, and
 * peak memory per task. Defaults: 10,000 jobs x 100 tasks = 1,000,000 tasks on 10,000 nodes.
 *
 * usage: bench_engine [JOBS [TASKS [NODES [INTERVAL_S]]]]   (run from the source root) */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "dcsim/engine.h"
#include "dcsim/scenario.h"

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static long peak_rss_kib(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

int main(int argc, char **argv) {
  long jobs = argc > 1 ? atol(argv[1]) : 10000, tasks = argc > 2 ? atol(argv[2]) : 100;
  long nodes = argc > 3 ? atol(argv[3]) : 10000;
  double interval = argc > 4 ? atof(argv[4]) : 0.05;
  if (jobs < 1 || tasks < 2 || nodes < 2 || !(interval >= 0)) {
    fprintf(stderr, "bad arguments\n");
    return 2;
  }
  char dir[] = "/tmp/dcsim-bench-XXXXXX";
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  char p[256], w[256], l[256];
  snprintf(p, sizeof p, "%s/platform.xml", dir);
  snprintf(w, sizeof w, "%s/wf.xml", dir);
  snprintf(l, sizeof l, "%s/load.xml", dir);
  FILE *f = fopen(p, "w");
  fprintf(f,
          "<platform name=\"bench\" source=\"synthetic\">\n"
          "  <node-group name=\"hsw\" count=\"%ld\" cpu=\"xeon-e5-2697v3\" sockets=\"2\"/>\n"
          "  <node-group name=\"skl\" count=\"%ld\" cpu=\"xeon-gold-6148\" "
          "sockets=\"2\"/>\n</platform>\n",
          nodes / 2, nodes - nodes / 2);
  fclose(f);
  f = fopen(w, "w");
  fprintf(
      f,
      "<workflow name=\"chain\" source=\"synthetic\">\n  <steps count=\"%ld\" overlap=\"false\">\n"
      "    <task name=\"fft\" dwarf=\"bifft\" case=\"200x180_20\" device=\"cpu\" group=\"hsw\" "
      "cores-per-node=\"1\"/>\n"
      "    <task name=\"sh\" dwarf=\"spherical-harmonics\" case=\"TL159\" device=\"cpu\" "
      "group=\"skl\" cores-per-node=\"4\" freq=\"2.4\">\n"
      "      <set name=\"ITER\" value=\"1\"/>\n    </task>\n  </steps>\n</workflow>\n",
      tasks / 2);
  fclose(f);
  f = fopen(l, "w");
  fprintf(
      f,
      "<workload name=\"bench\" platform=\"platform.xml\" source=\"synthetic\">\n"
      "  <submit workflow=\"wf.xml\" at-s=\"0\" count=\"%ld\" interval-s=\"%g\"/>\n</workload>\n",
      jobs, interval > 0 ? interval : 1e-9);
  fclose(f);
  dcsim_error err;
  double t0 = now_s();
  dcsim_scenario *s = NULL;
  dcsim_scenario_opts o = { .task_policy = DCSIM_TASK_HEFT };
  if (dcsim_scenario_load(l, &o, &s, &err)) {
    fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.msg);
    return 1;
  }
  double t1 = now_s();
  long rss_loaded = peak_rss_kib();
  dcsim_engine_opts eo = { .job_policy = DCSIM_JOB_FCFS };
  dcsim_engine_t *e = dcsim_engine_new(s, &eo, &err);
  if (!e || dcsim_engine_run(e, &err)) {
    fprintf(stderr, "engine: %s\n", err.msg);
    return 1;
  }
  double t2 = now_s();
  const dcsim_run_stats *st = dcsim_engine_stats(e);
  long rss = peak_rss_kib();
  printf("workload      %ld jobs x %ld tasks = %llu tasks on %u nodes, %llu events\n", jobs, tasks,
         (unsigned long long)st->tasks, st->n_nodes, (unsigned long long)st->events);
  printf("load+plan     %.3f s\n", t1 - t0);
  printf("engine        %.3f s: %.3g events/s, %.3g tasks/s\n", t2 - t1,
         (double)st->events / (t2 - t1), (double)st->tasks / (t2 - t1));
  printf("simulated     %.6g s, %.6g J\n", (double)st->makespan_ns * 1e-9, st->energy_j);
  printf("peak memory   %.1f MiB (%.1f MiB after loading): %.0f bytes per task overall\n",
         rss / 1024.0, rss_loaded / 1024.0, rss * 1024.0 / (double)st->tasks);
  dcsim_engine_free(e);
  dcsim_scenario_free(s);
  unlink(p);
  unlink(w);
  unlink(l);
  rmdir(dir);
  return 0;
}
