/* tree.c — the least-squares split of a regression tree's samples (see calib/sample/internal.h):
 * one search for hvs.c and gbm.c. */
#include "calib/sample/internal.h"

#include <math.h>

static double key_of(const dcsim__tree_data *t, size_t i, size_t d) {
  return t->x[(t->row ? t->row[i] : i) * t->dim + d];
}

static void sort_by_key(size_t *idx, size_t n, const double *key) { /* insertion: n is small */
  for (size_t i = 1; i < n; i++) {
    size_t v = idx[i], j = i;
    while (j > 0 && key[idx[j - 1]] > key[v]) {
      idx[j] = idx[j - 1];
      j--;
    }
    idx[j] = v;
  }
}

void dcsim__tree_best_split(const dcsim__tree_data *t, size_t *idx, size_t n, size_t min_leaf,
                            int *dim, double *thr, double *gain) {
  /* the weighted squared error around the weighted mean, two passes */
  double sw = 0, s = 0, total = 0;
  for (size_t i = 0; i < n; i++) {
    double w = t->w ? t->w[idx[i]] : 1;
    sw += w;
    s += w * t->y[idx[i]];
  }
  double mean = sw > 0 ? s / sw : 0;
  for (size_t i = 0; i < n; i++) {
    double w = t->w ? t->w[idx[i]] : 1, e = t->y[idx[i]] - mean;
    total += w * e * e;
  }
  double best = total;
  *dim = -1;
  *gain = 0;
  size_t ml = min_leaf ? min_leaf : 1;
  for (size_t d = 0; d < t->dim; d++) {
    for (size_t i = 0; i < n; i++) t->key[idx[i]] = key_of(t, idx[i], d);
    sort_by_key(idx, n, t->key);
    double lw = 0, ls = 0, ls2 = 0, rw = 0, rs = 0, rs2 = 0;
    for (size_t i = 0; i < n; i++) {
      double w = t->w ? t->w[idx[i]] : 1, y = t->y[idx[i]];
      rw += w;
      rs += w * y;
      rs2 += w * y * y;
    }
    for (size_t k = 1; k < n; k++) { /* left: the first k */
      double w = t->w ? t->w[idx[k - 1]] : 1, y = t->y[idx[k - 1]];
      lw += w;
      ls += w * y;
      ls2 += w * y * y;
      rw -= w;
      rs -= w * y;
      rs2 -= w * y * y;
      double a = t->key[idx[k - 1]], b = t->key[idx[k]];
      if (k < ml || n - k < ml || a == b || !(lw > 0) || !(rw > 0)) continue;
      /* the weighted SSE of the two sides: sum w y^2 - (sum w y)^2 / sum w, each */
      double cost = (ls2 - ls * ls / lw) + (rs2 - rs * rs / rw);
      if (cost < best - 1e-12 * fabs(best)) {
        best = cost;
        *dim = (int)d;
        *thr = 0.5 * (a + b);
      }
    }
  }
  *gain = total - best;
}
