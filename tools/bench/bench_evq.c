/* bench_evq.c — event queue "hold model" benchmark: keep N events queued; repeatedly pop the first
 * and push one at its time plus a random increment. Then the same with reschedules of random
 * queued events (what the engine does when a task's end moves). Prints rates and bytes/event.
 *
 * usage: bench_evq [N [pairs]]   (defaults: N = 1000000, pairs = 20000000) */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */
#include "dcsim/evq.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t rng_state = UINT64_C(0x2385D1CE5EED1234);
static uint64_t rng_next(void) { /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * UINT64_C(2685821657736338717);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* increments uniform in [0, 2 ms): mean 1 ms, many distinct times, few exact ties */
#define INC_NS() ((int64_t)(rng_next() >> 43))

static int report(const char *what, dcsim_error *err) {
  char buf[1600];
  dcsim_error_format(err, buf, sizeof buf);
  fprintf(stderr, "bench_evq: %s: %s\n", what, buf);
  return 1;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000000L;
  long pairs = argc > 2 ? strtol(argv[2], NULL, 10) : 20000000L;
  if (n < 1 || pairs < 1) {
    fprintf(stderr, "usage: bench_evq [N [pairs]]\n");
    return 2;
  }
  int rc = 1;
  dcsim_error err = { 0 };
  dcsim_evh *hs = malloc((size_t)n * sizeof *hs); /* handle of each target's event */
  dcsim_evq_t *q = dcsim_evq_new(0);              /* grows by doubling, as in a real run */
  if (!q || !hs) {
    fprintf(stderr, "bench_evq: out of memory\n");
    goto out;
  }

  double t0 = now_s();
  for (long i = 0; i < n; i++)
    if (dcsim_evq_push(q, INC_NS(), 0, 1, (uint32_t)i, 0, &hs[i], &err)) {
      rc = report("push", &err);
      goto out;
    }
  double t_fill = now_s() - t0;

  /* hold: pop + push */
  dcsim_event e;
  uint64_t check = 0;
  t0 = now_s();
  for (long i = 0; i < pairs; i++) {
    dcsim_evq_pop(q, &e);
    check += (uint64_t)e.time_ns;
    if (dcsim_evq_push(q, e.time_ns + INC_NS(), (int32_t)(e.seq & 1), e.kind, e.target, e.seq,
                       &hs[e.target], &err)) {
      rc = report("push", &err);
      goto out;
    }
  }
  double t_hold = now_s() - t0;

  /* reschedule a random queued event to a random later time, then pop + push once */
  int64_t tnow = e.time_ns;
  long rpairs = pairs / 4;
  t0 = now_s();
  for (long i = 0; i < rpairs; i++) {
    uint32_t target = (uint32_t)(rng_next() % (uint64_t)n);
    if (dcsim_evq_reschedule(q, hs[target], tnow + INC_NS(), &err)) {
      rc = report("reschedule", &err);
      goto out;
    }
    dcsim_evq_pop(q, &e);
    tnow = e.time_ns;
    if (dcsim_evq_push(q, tnow + INC_NS(), 0, e.kind, e.target, 0, &hs[e.target], &err)) {
      rc = report("push", &err);
      goto out;
    }
  }
  double t_resched = now_s() - t0;

  size_t bytes = dcsim_evq_bytes(q), size = dcsim_evq_size(q);
  printf("event queue hold model, N = %zu queued events (checksum %llu)\n", size,
         (unsigned long long)(check % 1000003));
  printf("  fill:       %10.3f M pushes/s      (%ld pushes in %.3f s)\n", n / t_fill * 1e-6, n,
         t_fill);
  printf("  hold:       %10.3f M pop+push/s    (%ld pairs in %.3f s, %.1f ns per pair)\n",
         pairs / t_hold * 1e-6, pairs, t_hold, t_hold / pairs * 1e9);
  printf("              %10.3f M events/s      (pops)\n", pairs / t_hold * 1e-6);
  printf("  reschedule: %10.3f M resched+pop+push/s (%ld in %.3f s, %.1f ns each)\n",
         rpairs / t_resched * 1e-6, rpairs, t_resched, t_resched / rpairs * 1e9);
  printf("  memory:     %zu bytes held, %.1f bytes per queued event\n", bytes,
         (double)bytes / (double)size);
  rc = 0;
out:
  dcsim_evq_free(q);
  free(hs);
  return rc;
}
