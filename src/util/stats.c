/* stats.c — order statistics (see dcsim/stats.h). */
#include "dcsim/stats.h"

#include <stdint.h>
#include <stdlib.h>

int dcsim_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int dcsim_cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

int dcsim_cmp_uint(const void *a, const void *b) {
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return (x > y) - (x < y);
}

double dcsim_median(double *v, size_t n) {
  qsort(v, n, sizeof *v, dcsim_cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void dcsim_quantile_band_of(double *lo, double *hi, size_t n, dcsim_quantile_band *out) {
  qsort(lo, n, sizeof *lo, dcsim_cmp_double);
  qsort(hi, n, sizeof *hi, dcsim_cmp_double);
  /* the largest k with 1 - 2k/(n + 1) >= DCSIM_BAND_COVERAGE (a tiny margin for rounding) */
  size_t k = (size_t)((1 - DCSIM_BAND_COVERAGE) * (double)(n + 1) / 2 + 1e-9);
  if (k < 1) k = 1;
  out->k = k;
  out->n = n;
  out->low = lo[k - 1];
  out->high = hi[n - k];
  out->coverage = 1 - 2.0 * (double)k / (double)(n + 1);
}
