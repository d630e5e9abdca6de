/* clock.c — the monotonic clock and the CPU-time clocks (see util/clock.h). */
#include "util/clock.h"

#include <time.h>

static double seconds_of(clockid_t id) {
  struct timespec t;
  if (clock_gettime(id, &t) != 0) return 0;
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double dcsim__clock_s(void) { return seconds_of(CLOCK_MONOTONIC); }
double dcsim__clock_cpu_s(void) { return seconds_of(CLOCK_PROCESS_CPUTIME_ID); }
double dcsim__clock_thread_cpu_s(void) { return seconds_of(CLOCK_THREAD_CPUTIME_ID); }
