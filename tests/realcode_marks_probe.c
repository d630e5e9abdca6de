/* realcode_marks_probe — a stand-in for a driver's timed loop, for tests/realcode-marks.sh: two
 * calls of omp_get_wtime() around about 0.2 s of CPU work (a dependent chain of multiplications
 * the compiler cannot remove), as CLOUDSC's C driver brackets its loop over blocks. Prints the
 * chain's result so that it is used. */
#include <omp.h>
#include <stdio.h>
#include <time.h>

static double cpu_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(void) {
  double x = 1.000001, t0 = omp_get_wtime(), c0 = cpu_s();
  while (cpu_s() - c0 < 0.2)
    for (int i = 0; i < 100000; i++) x = x * 1.0000001 + 1e-9;
  double t1 = omp_get_wtime();
  printf("%.6f %.6f\n", t1 - t0, x);
  return 0;
}
