/* benchutil.c — what the benchmarks share (see benchutil.h). */
#include "benchutil.h"

#include <sys/resource.h>

long bench_peak_rss_kib(void) {
  struct rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) != 0) return -1;
  return ru.ru_maxrss;
}

static const char *const cpus[] = { "xeon-e5-2697v3", "xeon-gold-6148" };
const char *const bench_alaro_gpus[3] = { "geforce-gtx970", "tesla-k20m", "tesla-m2070q" };
static const unsigned cores[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 };
const char *const bench_alaro_freqs[8] = {
  "1.2", "1.4", "1.6", "1.8", "2.0", "2.4", "2.6", "turbo"
};

dcsim_sweep_def bench_alaro_def(const unsigned *nodes, size_t n_nodes) {
  dcsim_sweep_def d = { .input = "workflows/alaro.xml",
                        .n_cpus = 2,
                        .cpus = cpus,
                        .n_gpus = 3,
                        .gpus = bench_alaro_gpus,
                        .n_nodes = n_nodes,
                        .nodes = nodes,
                        .n_cores = 14,
                        .cores = cores,
                        .n_freqs = 8,
                        .freqs = bench_alaro_freqs };
  return d;
}
