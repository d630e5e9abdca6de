/* test_hvs.c — Hierarchical Variance Sampling (dcsim/hvs.h) on the seed paper's synthetic
 * piecewise response s(x) (adaptive-sampling-kit.txt §5): with the same surrogate (the CART
 * regions' means), HVS reaches a given error with fewer samples than random sampling. Fixed
 * seeds, no timing. */
#include <stdlib.h>

#include <gsl/gsl_errno.h>

#include "check.h"
#include "dcsim/hvs.h"
#include "dcsim/lib.h"

static double s_of(double x) { return x <= 20 ? 1 : x <= 40 ? x - 20 : 20; }

/* samples needed until the RMSE over the 100 design points is <= target (batches of 5 after a
 * random bootstrap of 10); 0 if never within max_samples */
static size_t samples_to_reach(int hvs, uint64_t seed, double target, size_t max_samples) {
  double xs[100];
  for (int i = 0; i < 100; i++) xs[i] = i + 1;
  dcsim_hvs_t *h = NULL;
  dcsim_error err = { 0 };
  if (dcsim_hvs_new(100, 1, xs, 0.1, seed, &h, &err) != 0) return 0;
  size_t pts[16], n = dcsim_hvs_next_random(h, 10, pts), reached = 0;
  for (;;) {
    for (size_t i = 0; i < n; i++) dcsim_hvs_add(h, pts[i], s_of(xs[pts[i]]), &err);
    dcsim_hvs_fit(h, &err);
    double se = 0;
    for (int p = 0; p < 100; p++) {
      double d = dcsim_hvs_predict(h, (size_t)p) - s_of(xs[p]);
      se += d * d;
    }
    if (sqrt(se / 100) <= target) {
      reached = dcsim_hvs_n_measured(h);
      break;
    }
    if (dcsim_hvs_n_measured(h) >= max_samples) break;
    n = hvs ? dcsim_hvs_next(h, 5, pts) : dcsim_hvs_next_random(h, 5, pts);
    if (n == 0) break;
  }
  dcsim_hvs_free(h);
  return reached;
}

static int cmp(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return x < y ? -1 : x > y;
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  size_t nh[9], nr[9];
  for (uint64_t s = 0; s < 9; s++) {
    nh[s] = samples_to_reach(1, 2385 + s, 0.75, 100);
    nr[s] = samples_to_reach(0, 2385 + s, 0.75, 100);
    if (!nh[s]) nh[s] = 101;
    if (!nr[s]) nr[s] = 101;
    fprintf(stderr, "seed %llu: HVS %zu samples, random %zu\n", (unsigned long long)(2385 + s),
            nh[s], nr[s]);
  }
  qsort(nh, 9, sizeof *nh, cmp);
  qsort(nr, 9, sizeof *nr, cmp);
  fprintf(stderr, "median samples to RMSE <= 0.75: HVS %zu, random %zu\n", nh[4], nr[4]);
  CHECK(nh[4] < nr[4]);
  CHECK(nh[4] <= 100);
  /* a flat response: every region has zero variance, sampling still proceeds */
  double xs[10];
  for (int i = 0; i < 10; i++) xs[i] = i;
  dcsim_hvs_t *h = NULL;
  dcsim_error err = { 0 };
  CHECK(dcsim_hvs_new(10, 1, xs, 0.1, 1, &h, &err) == 0);
  size_t pts[10], n = dcsim_hvs_next(h, 6, pts);
  CHECK_INT(n, 6);
  for (size_t i = 0; i < n; i++) CHECK(dcsim_hvs_add(h, pts[i], 3.0, &err) == 0);
  CHECK_INT(dcsim_hvs_next(h, 10, pts), 4); /* only 4 unmeasured points remain */
  CHECK(dcsim_hvs_fit(h, &err) == 0);
  CHECK_ABS(dcsim_hvs_predict(h, 0), 3.0, 1e-12);
  CHECK(dcsim_hvs_add(h, 99, 1.0, &err) == DCSIM_ERANGE);
  dcsim_hvs_free(h);
  CHECK_DONE();
}
