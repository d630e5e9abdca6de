/* stats.c — order statistics (see dcsim/stats.h). */
#include "dcsim/stats.h"

#include <stdlib.h>

int dcsim_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double dcsim_median(double *v, size_t n) {
  qsort(v, n, sizeof *v, dcsim_cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
