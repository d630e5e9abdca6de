/* dcsim/hvs.h — adaptive sampling (de Oliveira Castro et al., "Adaptive Sampling for Performance
 * Characterization of Application Kernels", the seed adaptive-sampling-kit.txt, "ASK"): which
 * points of a design space to measure next. Hierarchical Variance Sampling (HVS, ASK §4) and the
 * family ASK compares it with (§6): HVSrelative, a query-by-committee sampler in the spirit of
 * AMART, Latin hypercube and random sampling.
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
 * HVSrelative (ASK §4) weighs regions by their relative variance: the same upper bound divided by
 * the square of the region's mean (ASK bounds the coefficient of variation with McKay's interval;
 * dividing the chi-square bound by the squared mean is the approximation used here).
 * qbc: query by committee (ASK §2, AMART): 20 CART trees fitted on bootstrap resamples of the
 * measured points predict every unmeasured one; the points they disagree on most (largest
 * variance) are chosen, none closer than 0.5/k^(1/dim) (coordinates scaled to [0,1]) to one
 * already chosen in the batch ("non-clustered"). AMART's committee members are boosted models;
 * CART trees are the closest design that needs no separate model. lhs: a Latin hypercube of k
 * strata per coordinate, each target moved to the nearest unmeasured design point. random:
 * uniform. The surrogate of the tree itself is the region means; dcsim/gbm.h is ASK's boosted
 * surrogate, weighted by dcsim_hvs_weights (ASK §5). Ownership: dcsim_hvs_new() returns a handle
 * freed by dcsim_hvs_free(); coordinates are copied. Deterministic for a given seed. */
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
typedef enum {
  DCSIM_SAMPLER_RANDOM = 0,
  DCSIM_SAMPLER_LHS,
  DCSIM_SAMPLER_HVS,
  DCSIM_SAMPLER_HVS_RELATIVE,
  DCSIM_SAMPLER_QBC
} dcsim_sampler;
/* "random", "lhs", "hvs", "hvs-relative", "qbc"; parse returns -1 for another name */
const char *dcsim_sampler_name(dcsim_sampler s);
int dcsim_sampler_parse(const char *name, dcsim_sampler *out);
/* up to k not yet measured points chosen by sampler s (the adaptive ones need 4 measurements,
 * random before); returns count */
size_t dcsim_hvs_next_with(dcsim_hvs_t *h, dcsim_sampler s, size_t k, size_t *points);
size_t dcsim_hvs_next_lhs(dcsim_hvs_t *h, size_t k, size_t *points);
size_t dcsim_hvs_next_qbc(dcsim_hvs_t *h, size_t k, size_t *points);
/* ASK §5's weight of every measured sample, in the order added: w = (region's share of the design
 * space) / (its share of the samples), over the tree of the last dcsim_hvs_fit(); -1 if none */
int dcsim_hvs_weights(const dcsim_hvs_t *h, double *w);
/* up to k not yet measured points chosen uniformly at random */
size_t dcsim_hvs_next_random(dcsim_hvs_t *h, size_t k, size_t *points);
/* surrogate prediction (mean of the point's region) from the tree of the last dcsim_hvs_fit() */
int dcsim_hvs_fit(dcsim_hvs_t *h, dcsim_error *err);
double dcsim_hvs_predict(const dcsim_hvs_t *h, size_t point);
size_t dcsim_hvs_n_regions(const dcsim_hvs_t *h);
size_t dcsim_hvs_n_measured(const dcsim_hvs_t *h);

#endif
