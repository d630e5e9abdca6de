/* dcsim/gbm.h — a gradient-boosted regression-tree model (Friedman 2001; Ridgeway's gbm, the
 * surrogate of the adaptive sampling kit, seed adaptive-sampling-kit.txt §5-§6): the prediction
 * is F(x) = mean + shrinkage x sum of trees, each tree fitted by least squares to the residuals
 * of the ones before, with optional weights per point (ASK §5: w = region share of the design
 * space / region share of the samples, which removes the bias of adaptive sampling).
 *
 * Trees split on one coordinate at a threshold halfway between two distinct values, choosing the
 * split that lowers the weighted squared error most; a node is a leaf at the depth limit, below
 * 2 x min_leaf points, or when no split leaves min_leaf points on each side.
 *
 * Ownership: dcsim_gbm_fit() returns a model freed by dcsim_gbm_free(); inputs are copied where
 * needed. Deterministic (no randomness). */
#ifndef DCSIM_GBM_H
#define DCSIM_GBM_H

#include <stddef.h>

#include "dcsim/error.h"

typedef struct dcsim_gbm dcsim_gbm_t;

typedef struct dcsim_gbm_params {
  unsigned n_trees;  /* boosting iterations (ASK: 3000 with shrinkage 0.01) */
  unsigned depth;    /* tree depth (ASK: 8) */
  unsigned min_leaf; /* points per leaf at least (ASK: 10, gbm's minobsinnode) */
  double shrinkage;  /* learning rate (ASK: 0.01) */
} dcsim_gbm_params;

/* n points of dim coordinates (x: row-major n x dim), responses y, weights w (NULL: all 1). */
int dcsim_gbm_fit(size_t n, size_t dim, const double *x, const double *y, const double *w,
                  const dcsim_gbm_params *p, dcsim_gbm_t **out, dcsim_error *err);
double dcsim_gbm_predict(const dcsim_gbm_t *m, const double *x);
void dcsim_gbm_free(dcsim_gbm_t *m);

#endif
