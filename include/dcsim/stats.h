/* dcsim/stats.h — small order statistics shared by the calibrations (one home for the comparator
 * and the median).
 * Ownership: the arrays are the caller's; the functions sort them in place. */
#ifndef DCSIM_STATS_H
#define DCSIM_STATS_H

#include <stddef.h>

/* qsort comparator of doubles, ascending. */
int dcsim_cmp_double(const void *a, const void *b);
/* The median of v[0..n), n >= 1 (the mean of the middle two for an even n); sorts v. */
double dcsim_median(double *v, size_t n);

#endif
