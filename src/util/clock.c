/* clock.c — the monotonic clock (see util/clock.h). */
#include "util/clock.h"

#include <time.h>

double dcsim__clock_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
