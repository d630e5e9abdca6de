/* dcsim/hvs.h — Hierarchical Variance Sampling (de Oliveira Castro et al., "Adaptive Sampling for
 * Performance Characterization of Application Kernels", the seed adaptive-sampling-kit.txt §4):
 * which points of a design space to measure next.
 *
 * The design space is a finite set of points with `dim` numeric coordinates (e.g. threads,
 * log2 working-set bytes, GHz). After each batch of measurements HVS
 *   1. partitions the space with a CART regression tree over the measured points (ANOVA split:
 *      least sum of squared errors; a split must leave >= 2 measured points on each side and
 *      reduce the SSE by >= 0.1 % of the root's; depth <= 12 — a fixed complexity limit instead of
 *      the paper's cross-validated pruning),
 *   2. bounds each region's variance from above: sigma_ub^2 = (n-1) s^2 / chi2_{alpha/2, n-1}
 *      (confidence 1 - alpha = 0.9 as in the paper; regions with < 2 points get the largest bound),
 *   3. draws the next points at random inside the regions, their number proportional to
 *      sigma_ub^2 x region size (number of design points in the region).
 * The surrogate model is the tree itself (region means). A random sampler with the same surrogate
 * is provided for comparison. Ownership: dcsim_hvs_new() returns a handle freed by
 * dcsim_hvs_free(); coordinates are copied. Deterministic for a given seed. */
#ifndef DCSIM_HVS_H
#define DCSIM_HVS_H

#include <stddef.h>
#include <stdint.h>

#include "dcsim/error.h"

typedef struct dcsim_hvs dcsim_hvs_t;

int dcsim_hvs_new(size_t n_points, size_t dim, const double *coords, double alpha, uint64_t seed,
                  dcsim_hvs_t **out, dcsim_error *err);
void dcsim_hvs_free(dcsim_hvs_t *h);
/* records the measured response at a point (a point may be measured more than once) */
int dcsim_hvs_add(dcsim_hvs_t *h, size_t point, double y, dcsim_error *err);
/* up to k not yet measured points chosen by HVS (random before 4 measurements); returns count */
size_t dcsim_hvs_next(dcsim_hvs_t *h, size_t k, size_t *points);
/* up to k not yet measured points chosen uniformly at random */
size_t dcsim_hvs_next_random(dcsim_hvs_t *h, size_t k, size_t *points);
/* surrogate prediction (mean of the point's region) from the tree of the last dcsim_hvs_fit() */
int dcsim_hvs_fit(dcsim_hvs_t *h, dcsim_error *err);
double dcsim_hvs_predict(const dcsim_hvs_t *h, size_t point);
size_t dcsim_hvs_n_regions(const dcsim_hvs_t *h);
size_t dcsim_hvs_n_measured(const dcsim_hvs_t *h);

#endif
