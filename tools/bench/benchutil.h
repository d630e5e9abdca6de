/* benchutil.h — what the benchmarks of tools/bench share: the peak memory of the process, and the
 * ALARO design space of D3.5 §6.2 that bench_sweep and bench_shards sweep over. (Clocks are
 * src/util/clock.h's.) Nothing here allocates. */
#ifndef DCSIM_BENCHUTIL_H
#define DCSIM_BENCHUTIL_H

#include <stddef.h>

#include "dcsim/sweep.h"

/* The peak resident set size of this process so far, in KiB (getrusage's ru_maxrss). */
long bench_peak_rss_kib(void);

/* The ALARO design space (D3.5 §6.2) over the given node counts: workflows/alaro.xml on its two
 * CPUs, three GPUs, 1..14 cores and the 8 frequency states of the Xeon E5-2697v3. The arrays are
 * static; nodes must outlive the result. */
dcsim_sweep_def bench_alaro_def(const unsigned *nodes, size_t n_nodes);

/* The three GPUs and the 8 frequency states of that space, for other designs. */
extern const char *const bench_alaro_gpus[3];
extern const char *const bench_alaro_freqs[8];

#endif
