/* bench_sweep — configurations evaluated per second by `dcsim sweep` on the full ALARO design space
 * of D3.5 §6.2 (2 CPUs x 3 GPUs x nodes 1..16 x cores 1..14 x the 8 frequency
 * states of the E5-2697v3 = 10752 points, every one simulated by the engine), at 1 thread and at N
 * threads, and the speed-up. Each measurement is the best of REPEAT runs of a fresh sweep (inputs
 * loaded once per sweep, as the command does; loading is reported apart). The outputs of all runs
 * must be the same bytes.
 *
 * usage: bench_sweep [THREADS [REPEAT [BATCH]]]   (run from the source root; default 2 threads, 5
 * repeats, batches of 32 points per thread) */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "benchutil.h"
#include "dcsim/lib.h"
#include "dcsim/sweep.h"
#include "util/clock.h"

static const unsigned NODES[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };

/* one sweep: returns the run time (excluding the load), the load time, and the JSON output */
static int one(int threads, size_t batch, double *run_s, double *load_s, size_t *points,
               size_t *feasible, char **json) {
  dcsim_sweep_def d = bench_alaro_def(NODES, 16);
  dcsim_sweep_t *sw = NULL;
  dcsim_error err;
  double t0 = dcsim__clock_s();
  if (dcsim_sweep_new(&d, &sw, &err)) {
    fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.msg);
    return 1;
  }
  double t1 = dcsim__clock_s();
  dcsim_sweep_run_opts o = { threads, 0, batch, NULL };
  if (dcsim_sweep_run(sw, &o, &err)) {
    fprintf(stderr, "sweep: %s\n", err.msg);
    dcsim_sweep_free(sw);
    return 1;
  }
  double t2 = dcsim__clock_s();
  *load_s = t1 - t0;
  *run_s = t2 - t1;
  *points = dcsim_sweep_n_points(sw);
  *feasible = 0;
  for (size_t i = 0; i < *points; i++) *feasible += dcsim_sweep_points(sw)[i].feasible != 0;
  size_t len = 0;
  FILE *f = open_memstream(json, &len);
  dcsim_sweep_write_json(f, dcsim_sweep_points(sw), *points, NULL);
  fclose(f);
  dcsim_sweep_free(sw);
  return 0;
}

int main(int argc, char **argv) {
  if (dcsim_lib_init() != 0) return 1;
  int nt = argc > 1 ? atoi(argv[1]) : 2, rep = argc > 2 ? atoi(argv[2]) : 5;
  size_t batch = argc > 3 ? (size_t)atol(argv[3]) : 0; /* 0 = the default, 32 per thread */
  if (nt < 1 || rep < 1) {
    fprintf(stderr, "usage: bench_sweep [THREADS [REPEAT [BATCH]]]\n");
    return 2;
  }
  double best[2] = { 1e30, 1e30 }, load = 1e30;
  size_t points = 0, feasible = 0;
  char *ref = NULL;
  int threads[2] = { 1, nt };
  /* 1 thread and N threads alternate, so that a drift of the machine's speed (a shared VM) falls
   * on both */
  for (int r = 0; r < rep; r++)
    for (int k = 0; k < 2; k++) {
      double run_s, load_s;
      char *json = NULL;
      if (one(threads[k], batch, &run_s, &load_s, &points, &feasible, &json)) return 1;
      if (run_s < best[k]) best[k] = run_s;
      if (load_s < load) load = load_s;
      if (!ref)
        ref = json;
      else {
        if (strcmp(ref, json) != 0) {
          fprintf(stderr, "output differs between runs\n");
          return 1;
        }
        free(json);
      }
    }
  free(ref);
  printf("ALARO design space: %zu points (%zu feasible, %zu infeasible), inputs loaded in %.4f s\n",
         points, feasible, points - feasible, load);
  printf("1 thread:   %.4f s, %.0f configurations/s\n", best[0], (double)points / best[0]);
  printf("%d threads:  %.4f s, %.0f configurations/s\n", nt, best[1], (double)points / best[1]);
  printf("speed-up 1 -> %d threads: %.2f (same bytes at every thread count)\n", nt,
         best[0] / best[1]);
  return 0;
}
