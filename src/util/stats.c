/* stats.c — order statistics (see dcsim/stats.h). */
#include "dcsim/stats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int dcsim_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int dcsim_cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

typedef struct sort_row {
  double key;
  size_t row;
} sort_row;

/* by key, NaN last, then by row: a total order, so qsort gives a stable, deterministic result */
static int cmp_sort_row(const void *a, const void *b) {
  const sort_row *x = a, *y = b;
  int nx = isnan(x->key), ny = isnan(y->key);
  if (nx != ny) return nx - ny;
  if (!nx && x->key != y->key) return x->key < y->key ? -1 : 1;
  return (x->row > y->row) - (x->row < y->row);
}

int dcsim_sort_order(const double *key, size_t n, size_t *order) {
  for (size_t i = 0; i < n; i++) order[i] = i;
  if (n < 2) return 0;
  sort_row *r = malloc(n * sizeof *r);
  if (!r) return -1;
  for (size_t i = 0; i < n; i++) r[i] = (sort_row){ key[i], i };
  qsort(r, n, sizeof *r, cmp_sort_row);
  for (size_t i = 0; i < n; i++) order[i] = r[i].row;
  free(r);
  return 0;
}

int dcsim_sort_key_index(const char *name, const char *const *names, size_t n) {
  for (size_t i = 0; name && i < n; i++)
    if (strcmp(name, names[i]) == 0) return (int)i;
  return -1;
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
