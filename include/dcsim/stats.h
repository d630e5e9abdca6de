/* dcsim/stats.h — small order statistics (one home for the qsort comparators of plain values
 * and the median).
 * Ownership: the arrays are the caller's; the functions sort them in place. */
#ifndef DCSIM_STATS_H
#define DCSIM_STATS_H

#include <stddef.h>

/* qsort comparators, ascending: doubles (NaN is not ordered and must not be sorted), uint32_t,
 * unsigned. */
int dcsim_cmp_double(const void *a, const void *b);
int dcsim_cmp_u32(const void *a, const void *b);
int dcsim_cmp_uint(const void *a, const void *b);
/* The median of v[0..n), n >= 1 (the mean of the middle two for an even n); sorts v. */
double dcsim_median(double *v, size_t n);

/* The one sort of the printed tables (--sort of run, sweep and pareto; doc/cli.md "Sorting"):
 * fills order[0..n-1] with the row indices 0..n-1 by increasing key[row]; equal keys keep their
 * row order, and NaN keys (unknown, infeasible) come last. Returns 0, or -1 when out of memory
 * (order is then 0..n-1). */
int dcsim_sort_order(const double *key, size_t n, size_t *order);
/* The index of `name` among the `n` names of a table's sort keys, or -1 when it is not one. */
int dcsim_sort_key_index(const char *name, const char *const *names, size_t n);

/* The quantile band of n >= 1 errors (doc/models.md "Uncertainty bands"): with n
 * exchangeable errors, a new one falls between the k-th smallest and the k-th largest with
 * probability at least 1 - 2k/(n + 1) (order statistics: each of the n + 1 ranks of the new error
 * is equally likely). k is the largest giving at least DCSIM_BAND_COVERAGE, and at least 1 (the
 * smallest and the largest) when n is too small for that. lo[] and hi[] are the errors' lower and
 * upper ends (equal for a plain error; -|e| and +|e| for a statistic of errors); both are sorted.
 * Fills *low = the k-th smallest lo, *high = the k-th largest hi, *k and the coverage that n and k
 * support (below DCSIM_BAND_COVERAGE: too few rows for it). */
/* 90 %: the share of new errors inside scatters around the probability; the target is 80 %
 * (doc/validation.md) */
#define DCSIM_BAND_COVERAGE 0.9
typedef struct dcsim_quantile_band {
  double low, high, coverage;
  size_t k, n;
} dcsim_quantile_band;
void dcsim_quantile_band_of(double *lo, double *hi, size_t n, dcsim_quantile_band *out);

#endif
