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

#endif
