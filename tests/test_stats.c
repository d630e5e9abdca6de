/* test_stats — the order statistics of dcsim/stats.h: the median and the quantile band with its
 * stated coverage. */
#include "check.h"
#include "dcsim/stats.h"

#include <math.h>

/* n errors -0.19, -0.17, ..., spread so that each rank is a distinct value */
static void fill(double *lo, double *hi, size_t n) {
  for (size_t i = 0; i < n; i++) lo[i] = hi[i] = 0.0237 * (double)((i * 7) % n) - 0.19;
}

/* the one sort of the printed tables (--sort): increasing, ties in row order, NaN last */
static void test_sort_order(void) {
  const double key[7] = { 2.385, NAN, -1.25, 2.385, 0.5, NAN, -7.75 };
  size_t order[7];
  CHECK(dcsim_sort_order(key, 7, order) == 0);
  const size_t want[7] = { 6, 2, 4, 0, 3, 1, 5 };
  for (size_t i = 0; i < 7; i++) CHECK(order[i] == want[i]);
  CHECK(dcsim_sort_order(key, 0, order) == 0);
  static const char *const names[] = { "time", "energy", "cost" };
  CHECK(dcsim_sort_key_index("energy", names, 3) == 1);
  CHECK(dcsim_sort_key_index("Energy", names, 3) == -1);
  CHECK(dcsim_sort_key_index(NULL, names, 3) == -1);
}

int main(void) {
  test_sort_order();
  double v[5] = { 3.1, -2.2, 7.7, 0.4, 1.9 };
  CHECK_REL(dcsim_median(v, 5), 1.9, 1e-15);
  double w[4] = { 4, 1, 3, 2 };
  CHECK_REL(dcsim_median(w, 4), 2.5, 1e-15);

  double lo[80], hi[80];
  dcsim_quantile_band q;
  /* DCSIM_BAND_COVERAGE is 90 %: 19 conditions, k = 1 (1 - 2/20 = 0.9 exactly) */
  CHECK_REL(DCSIM_BAND_COVERAGE, 0.9, 1e-15);
  fill(lo, hi, 19);
  dcsim_quantile_band_of(lo, hi, 19, &q);
  CHECK(q.k == 1 && q.n == 19);
  CHECK_REL(q.coverage, 0.9, 1e-12);
  CHECK_REL(q.low, -0.19, 1e-12);
  CHECK_REL(q.high, -0.19 + 0.0237 * 18, 1e-12);
  /* 4 conditions: too few for 90 %, the smallest and the largest, 1 - 2/5 = 60 % */
  fill(lo, hi, 4);
  dcsim_quantile_band_of(lo, hi, 4, &q);
  CHECK(q.k == 1);
  CHECK_REL(q.coverage, 0.6, 1e-12);
  CHECK_REL(q.low, -0.19, 1e-12);
  CHECK_REL(q.high, -0.19 + 0.0237 * 3, 1e-12);
  /* 39 conditions: k = 2 (1 - 4/40 = 0.9), the 2nd smallest and the 2nd largest */
  fill(lo, hi, 39);
  dcsim_quantile_band_of(lo, hi, 39, &q);
  CHECK(q.k == 2);
  CHECK_REL(q.low, -0.19 + 0.0237, 1e-12);
  CHECK_REL(q.high, -0.19 + 0.0237 * 37, 1e-12);
  /* 79 conditions: k = 4 (1 - 8/80 = 0.9) */
  fill(lo, hi, 79);
  dcsim_quantile_band_of(lo, hi, 79, &q);
  CHECK(q.k == 4);
  /* a statistic of errors counts as -|e| below and +|e| above: the two ends are sorted apart */
  double sl[3] = { -0.3, 0.05, -0.1 }, sh[3] = { 0.3, 0.05, -0.1 };
  dcsim_quantile_band_of(sl, sh, 3, &q);
  CHECK_REL(q.low, -0.3, 1e-15);
  CHECK_REL(q.high, 0.3, 1e-15);
  CHECK_REL(q.coverage, 0.5, 1e-12);
  CHECK_DONE();
}
