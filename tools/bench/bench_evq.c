/* bench_evq.c — event queue "hold model" benchmark: keep N events queued; repeatedly pop the first
 * and push one at its time plus a random increment (uniform in [0, 2 ms): many distinct times,
 * ties at 10^6 events and more). Events without handles, as the engine queues them. Then the same
 * queue size with a handle on every event, rescheduling a random queued event before each pop and
 * push (what a simulator does when a task's end moves). For the monotone queue (the engine's) and
 * the binary heap (the reference), each the best of REPEAT rounds of PAIRS pairs; prints rates (per
 * CPU second) and the bytes the queue holds per queued event.
 *
 * usage: bench_evq [N [PAIRS [QUEUE [REPEAT]]]]   (defaults: 1000000, 20000000, both, 3;
 *        QUEUE: monotone, heap or both) */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
#include "dcsim/evq.h"
#include "dcsim/lib.h"
#include "util/clock.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t rng_state = UINT64_C(0x2385D1CE5EED1234);
static uint64_t rng_next(void) { /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * UINT64_C(2685821657736338717);
}

/* Times are CPU seconds of this process (dcsim__clock_cpu_s): on a shared machine, less inflated
 * by other processes than wall time (the benchmark is single-threaded). */

/* increments uniform in [0, 2 ms): mean 1 ms */
#define INC_NS() ((int64_t)(rng_next() >> 43))

static int report(const char *what, dcsim_error *err) {
  char buf[1600];
  dcsim_error_format(err, buf, sizeof buf);
  fprintf(stderr, "bench_evq: %s: %s\n", what, buf);
  return 1;
}

/* N events (with handles in hs when hs is not NULL); the time of the fill in *t. */
static int fill(dcsim_evq_t *q, long n, dcsim_evh *hs, double *t) {
  dcsim_error err = { 0 };
  double t0 = dcsim__clock_cpu_s();
  for (long i = 0; i < n; i++)
    if (dcsim_evq_push(q, INC_NS(), 0, 1, (uint32_t)i, 0, hs ? &hs[i] : NULL, &err))
      return report("push", &err);
  *t = dcsim__clock_cpu_s() - t0;
  return 0;
}

/* pairs x (pop + push at the popped time plus an increment); the seconds it took in *t */
static int hold(dcsim_evq_t *q, long pairs, uint64_t *check, double *t) {
  dcsim_error err = { 0 };
  dcsim_event e;
  double t0 = dcsim__clock_cpu_s();
  for (long i = 0; i < pairs; i++) {
    if (dcsim_evq_pop(q, &e) != 1) return report("pop", &err);
    *check += (uint64_t)e.time_ns;
    if (dcsim_evq_push(q, e.time_ns + INC_NS(), (int32_t)(e.target & 1), e.kind, e.target,
                       e.payload, NULL, &err))
      return report("push", &err);
  }
  *t = dcsim__clock_cpu_s() - t0;
  return 0;
}

/* rounds x (reschedule a random queued event to a later time, then pop + push with a handle) */
static int resched(dcsim_evq_t *q, long n, long rounds, dcsim_evh *hs, double *t) {
  dcsim_error err = { 0 };
  dcsim_event e;
  dcsim_evq_peek(q, &e);
  int64_t tnow = e.time_ns;
  double t0 = dcsim__clock_cpu_s();
  for (long i = 0; i < rounds; i++) {
    uint32_t target = (uint32_t)(rng_next() % (uint64_t)n);
    if (dcsim_evq_reschedule(q, hs[target], tnow + INC_NS(), &err))
      return report("reschedule", &err);
    if (dcsim_evq_pop(q, &e) != 1) return report("pop", &err);
    tnow = e.time_ns;
    if (dcsim_evq_push(q, tnow + INC_NS(), 0, e.kind, e.target, 0, &hs[e.target], &err))
      return report("push", &err);
  }
  *t = dcsim__clock_cpu_s() - t0;
  return 0;
}

static int bench(int mono, long n, long pairs, int repeat) {
  const char *name = mono ? "monotone" : "heap";
  dcsim_evh *hs = malloc((size_t)n * sizeof *hs);
  dcsim_evq_t *q = mono ? dcsim_evq_new_monotone() : dcsim_evq_new(0); /* grows as in a run */
  int rc = 1;
  double t_fill = 0, best = 1e300, t = 0, best_r = 1e300;
  uint64_t check = 0;
  if (!q || !hs) {
    fprintf(stderr, "bench_evq: out of memory\n");
    goto out;
  }
  if (fill(q, n, NULL, &t_fill)) goto out;
  for (int r = 0; r < repeat; r++) {
    if (hold(q, pairs, &check, &t)) goto out;
    if (t < best) best = t;
  }
  double bytes = (double)dcsim_evq_bytes(q) / (double)dcsim_evq_size(q);
  dcsim_evq_free(q);
  if (!(q = mono ? dcsim_evq_new_monotone() : dcsim_evq_new(0)) || fill(q, n, hs, &t)) goto out;
  for (int r = 0; r < repeat; r++) {
    if (resched(q, n, pairs / 4, hs, &t)) goto out;
    if (t < best_r) best_r = t;
  }
  double bytes_h = (double)dcsim_evq_bytes(q) / (double)dcsim_evq_size(q);
  printf("%-9s %10ld %8.2f M/s %10.3f M/s %8.1f ns %8.1f B %10.3f M/s %8.1f B   (%llu)\n", name, n,
         n / t_fill * 1e-6, pairs / best * 1e-6, best / pairs * 1e9, bytes,
         pairs / 4 / best_r * 1e-6, bytes_h, (unsigned long long)(check % 1000003));
  fflush(stdout);
  rc = 0;
out:
  dcsim_evq_free(q);
  free(hs);
  return rc;
}

int main(int argc, char **argv) {
  if (dcsim_lib_init() != 0) return 1;
  long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000000L;
  long pairs = argc > 2 ? strtol(argv[2], NULL, 10) : 20000000L;
  const char *which = argc > 3 ? argv[3] : "both";
  int repeat = argc > 4 ? atoi(argv[4]) : 3;
  int mono = strcmp(which, "monotone") == 0, heap = strcmp(which, "heap") == 0;
  if (strcmp(which, "both") == 0) mono = heap = 1;
  if (n < 1 || pairs < 4 || repeat < 1 || (!mono && !heap)) {
    fprintf(stderr, "usage: bench_evq [N [PAIRS [monotone|heap|both [REPEAT]]]]\n");
    return 2;
  }
  printf("event queue hold model: N queued events, best of %d x %ld pop+push pairs\n", repeat,
         pairs);
  printf("%-9s %10s %12s %14s %11s %10s %14s %10s\n", "queue", "N", "fill", "hold pop+push",
         "per pair", "memory/ev", "resched+pop+push", "with handles");
  if (mono && bench(1, n, pairs, repeat)) return 1;
  if (heap && bench(0, n, pairs, repeat)) return 1;
  return 0;
}
