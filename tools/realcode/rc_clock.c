/* rc-clock — prints this CPU's measured clock in GHz for tools/realcode/measure.sh: the fastest of
 * 31 short runs (4 Mi cycles, about 2 ms each) of dcsim's clock probe (dependent register adds,
 * one per cycle; dcsim/bench.h, doc/calibration.md "dcsim bench"), so the real-code records and
 * `dcsim bench` share one probe. The fastest, not the median: on a shared machine another process
 * preempts some probes, and preemption only ever makes a probe slower (the probe reads wall time).
 * usage: rc-clock    (prints e.g. "2.493"; exit 1 where the probe reads no clock) */
#include <stdio.h>

#include "dcsim/bench.h"
#include "dcsim/lib.h"

#define PROBES 31

int main(void) {
  double ghz[PROBES];
  if (dcsim_lib_init() != 0) return 1;
  double max_ghz = 0;
  for (int i = 0; i < PROBES; i++) {
    ghz[i] = dcsim_bench_clock_probe_ghz(1u << 22);
    if (ghz[i] > max_ghz) max_ghz = ghz[i];
  }
  if (!(max_ghz > 0)) {
    fprintf(stderr, "rc-clock: the clock probe read nothing on this CPU\n");
    return 1;
  }
  printf("%.3f\n", max_ghz);
  return 0;
}
