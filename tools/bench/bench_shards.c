/* bench_shards — how evenly `dcsim sweep --shard I/N` splits the work of a sweep, for three ways of
 * choosing a point's shard: cyclic (index mod N), contiguous blocks of indices, a random hash of
 * the index (splitmix64), and dcsim's golden-ratio sequence (dcsim_sweep_shard_of). A point's cost
 * is its evaluation time (best of REPEAT); a shard's cost is the sum over its points. Printed for N
 * = 2..8: the largest shard's cost over the mean (1.00 = perfect balance; a job array ends with its
 * slowest shard).
 *
 * usage: bench_shards [REPEAT]   (run from the source root; default 3)
 * Design spaces: ALARO over 2 CPUs x 3 GPUs x nodes 1, 2, 4, 8, 16 x cores 1-14 x 8 frequencies
 * (3360 points), the data-centre day of doc/scaling.md (768 points), and the same day at 8
 * frequencies (6144 points). Which points are feasible, and so costly, is what the current models
 * say; doc/scaling.md gives the figures and when they were measured. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "benchutil.h"
#include "dcsim/lib.h"
#include "dcsim/sweep.h"
#include "util/clock.h"

static const unsigned NODES5[] = { 1, 2, 4, 8, 16 };
static const char *const NOMINAL[] = { "nominal" };

static unsigned long long splitmix64(unsigned long long z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static int one(const char *name, const dcsim_sweep_def *d, int rep) {
  dcsim_sweep_t *sw = NULL;
  dcsim_error err;
  if (dcsim_sweep_new(d, &sw, &err)) {
    fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.msg);
    return 1;
  }
  size_t n = dcsim_sweep_n_points(sw);
  double *cost = malloc(n * sizeof *cost), total = 0;
  if (!cost) {
    dcsim_sweep_free(sw);
    return 1;
  }
  for (size_t i = 0; i < n; i++) {
    cost[i] = 1e30;
    for (int r = 0; r < rep; r++) {
      double t0 = dcsim__clock_s();
      if (dcsim_sweep_eval(sw, i, &dcsim_sweep_points(sw)[i], &err)) {
        fprintf(stderr, "point %zu: %s\n", i, err.msg);
        return 1;
      }
      double t = dcsim__clock_s() - t0;
      if (t < cost[i]) cost[i] = t;
    }
    total += cost[i];
  }
  printf("%s: %zu points, %.3f s of evaluation\n", name, n, total);
  printf("  N   cyclic (i mod N)   blocks   random hash   golden ratio (dcsim)\n");
  for (unsigned s = 2; s <= 8; s++) {
    double cy[8] = { 0 }, bl[8] = { 0 }, hs[8] = { 0 }, fb[8] = { 0 }, m[4] = { 0, 0, 0, 0 };
    for (size_t i = 0; i < n; i++) {
      cy[i % s] += cost[i];
      bl[i * s / n] += cost[i];
      hs[splitmix64(i) % s] += cost[i];
      fb[dcsim_sweep_shard_of(i, s)] += cost[i];
    }
    for (unsigned k = 0; k < s; k++) {
      if (cy[k] > m[0]) m[0] = cy[k];
      if (bl[k] > m[1]) m[1] = bl[k];
      if (hs[k] > m[2]) m[2] = hs[k];
      if (fb[k] > m[3]) m[3] = fb[k];
    }
    double mean = total / s;
    printf("  %u   %16.2f   %6.2f   %11.2f   %20.2f\n", s, m[0] / mean, m[1] / mean, m[2] / mean,
           m[3] / mean);
  }
  free(cost);
  dcsim_sweep_free(sw);
  return 0;
}

int main(int argc, char **argv) {
  if (dcsim_lib_init() != 0) return 1;
  int rep = argc > 1 ? atoi(argv[1]) : 3;
  if (rep < 1) {
    fprintf(stderr, "usage: bench_shards [REPEAT]\n");
    return 2;
  }
  dcsim_sweep_def alaro = bench_alaro_def(NODES5, 5);
  unsigned nodes64[64], cores4[] = { 1, 2, 3, 4 };
  for (unsigned k = 0; k < 64; k++) nodes64[k] = k + 1;
  dcsim_sweep_def day = { .input = "workflows/datacentre-day.xml",
                          .n_gpus = 3,
                          .gpus = bench_alaro_gpus,
                          .n_nodes = 64,
                          .nodes = nodes64,
                          .n_cores = 4,
                          .cores = cores4,
                          .n_freqs = 1,
                          .freqs = NOMINAL };
  dcsim_sweep_def day8 = day; /* at 8 frequencies */
  day8.n_freqs = 8;
  day8.freqs = bench_alaro_freqs;
  return one("ALARO, nodes 1-16 in powers of 2", &alaro, rep) ||
         one("data-centre day (doc/scaling.md)", &day, rep) ||
         one("data-centre day at 8 frequencies", &day8, rep);
}
