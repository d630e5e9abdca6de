/* sg_tasks.c — the SimGrid side of tools/bench/vs-simgrid/run (doc/performance.md): ACTORS actors,
 * actor i on host i of PLATFORM, each running TASKS compute tasks one after the other
 * (sg_actor_execute of FLOPS flops), with the host energy plugin on. Prints one line:
 *   simgrid actors=A tasks=N makespan_s=T energy_j=E wall_s=W run_s=R
 * wall_s: the whole program after exec (init, platform, actors, run, energy); run_s: simgrid_run()
 * alone. Written against SimGrid 3.32's C API (Debian libsimgrid-dev). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/plugins/energy.h>

static long tasks_per_actor;
static double flops_per_task;

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void worker(int argc, char **argv) {
  (void)argc;
  (void)argv;
  for (long k = 0; k < tasks_per_actor; k++) sg_actor_execute(flops_per_task);
}

int main(int argc, char **argv) {
  double t0 = now_s();
  sg_host_energy_plugin_init();
  simgrid_init(&argc, argv);
  if (argc != 5) {
    fprintf(stderr, "usage: sg_tasks PLATFORM.xml ACTORS TASKS_PER_ACTOR FLOPS_PER_TASK\n");
    return 2;
  }
  long actors = atol(argv[2]);
  tasks_per_actor = atol(argv[3]);
  flops_per_task = atof(argv[4]);
  simgrid_load_platform(argv[1]);
  sg_host_t *hosts = sg_host_list();
  size_t n_hosts = sg_host_count();
  if (actors < 1 || (size_t)actors > n_hosts) {
    fprintf(stderr, "sg_tasks: %ld actors on %zu hosts\n", actors, n_hosts);
    return 2;
  }
  for (long i = 0; i < actors; i++) sg_actor_create("worker", hosts[i], worker, 0, NULL);
  double r0 = now_s();
  simgrid_run();
  double run_s = now_s() - r0;
  double energy = 0;
  for (size_t i = 0; i < n_hosts; i++) energy += sg_host_get_consumed_energy(hosts[i]);
  free(hosts);
  printf("simgrid actors=%ld tasks=%ld makespan_s=%.10g energy_j=%.10g wall_s=%.6f run_s=%.6f\n",
         actors, actors * tasks_per_actor, simgrid_get_clock(), energy, now_s() - t0, run_s);
  return 0;
}
