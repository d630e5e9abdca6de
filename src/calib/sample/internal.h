/* calib/sample/internal.h — what the files of the sample job share: the one split search of their
 * regression trees (tree.c), used by hvs.c (the CART partition of the design space) and gbm.c (the
 * boosted trees). Not a public header. */
#ifndef DCSIM_CALIB_SAMPLE_INTERNAL_H
#define DCSIM_CALIB_SAMPLE_INTERNAL_H

#include <stddef.h>

/* The samples a tree is grown on: sample i has the point x[row(i) * dim ...] (row(i) = row[i], or i
 * when row is NULL), the value y[i] and the weight w[i] (1 when w is NULL). key: scratch of one
 * double per sample. */
typedef struct dcsim__tree_data {
  size_t dim;
  const double *x;
  const size_t *row;
  const double *y, *w;
  double *key;
} dcsim__tree_data;

/* The least-squares split of the samples idx[0..n-1] (Breiman, Friedman, Olshen and Stone,
 * "Classification and Regression Trees", 1984, §8.3): the coordinate and threshold (*dim, *thr:
 * the midpoint of two neighbouring different values) whose two sides have the least weighted
 * squared error around their means, sum w y^2 - (sum w y)^2 / sum w each, with at least min_leaf
 * samples a side; the first of splits equal within 1e-12. *gain: the error of all the samples
 * around their mean (two passes) less that of the split. *dim < 0 (and *gain 0) when no split
 * lowers the error. idx is reordered. */
void dcsim__tree_best_split(const dcsim__tree_data *t, size_t *idx, size_t n, size_t min_leaf,
                            int *dim, double *thr, double *gain);

#endif
