/* hvs.c — Hierarchical Variance Sampling over a finite design space (see dcsim/hvs.h). */
#include "dcsim/hvs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

typedef struct region {
  double *lo, *hi;  /* box: lo < x <= hi per coordinate */
  double mean, ub2; /* sample mean, variance upper bound */
  size_t n_samples, size;
} region;

struct dcsim_hvs {
  size_t n, dim;
  double *x; /* n x dim */
  double alpha;
  uint64_t rng;
  size_t n_s, cap_s;
  size_t *sp; /* sample points */
  double *sy; /* sample values */
  unsigned char *measured;
  size_t n_reg, cap_reg;
  region *reg;
  double *bounds; /* storage for region boxes */
};

static uint64_t next_u64(dcsim_hvs_t *h) { /* splitmix64 */
  uint64_t z = (h->rng += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

void dcsim_hvs_free(dcsim_hvs_t *h) {
  if (!h) return;
  free(h->x);
  free(h->sp);
  free(h->sy);
  free(h->measured);
  free(h->reg);
  free(h->bounds);
  free(h);
}

int dcsim_hvs_new(size_t n, size_t dim, const double *coords, double alpha, uint64_t seed,
                  dcsim_hvs_t **out, dcsim_error *err) {
  if (n == 0 || dim == 0 || !(alpha > 0 && alpha < 1))
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "HVS: need points, coordinates and 0 < alpha < 1");
  dcsim_hvs_t *h = calloc(1, sizeof *h);
  if (!h) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  h->n = n;
  h->dim = dim;
  h->alpha = alpha;
  h->rng = seed;
  h->x = malloc(n * dim * sizeof *h->x);
  h->measured = calloc(n, 1);
  if (!h->x || !h->measured) {
    dcsim_hvs_free(h);
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  }
  memcpy(h->x, coords, n * dim * sizeof *h->x);
  *out = h;
  return 0;
}

int dcsim_hvs_add(dcsim_hvs_t *h, size_t p, double y, dcsim_error *err) {
  if (p >= h->n || !isfinite(y))
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "HVS: bad point or response");
  if (h->n_s == h->cap_s) {
    size_t c = h->cap_s ? 2 * h->cap_s : 64;
    size_t *sp = realloc(h->sp, c * sizeof *sp);
    if (sp) h->sp = sp;
    double *sy = realloc(h->sy, c * sizeof *sy);
    if (sy) h->sy = sy;
    if (!sp || !sy) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    h->cap_s = c;
  }
  h->sp[h->n_s] = p;
  h->sy[h->n_s++] = y;
  h->measured[p] = 1;
  return 0;
}

size_t dcsim_hvs_n_measured(const dcsim_hvs_t *h) { return h->n_s; }
size_t dcsim_hvs_n_regions(const dcsim_hvs_t *h) { return h->n_reg; }

static int in_box(const dcsim_hvs_t *h, const region *r, size_t p) {
  for (size_t d = 0; d < h->dim; d++) {
    double v = h->x[p * h->dim + d];
    if (!(v > r->lo[d] && v <= r->hi[d])) return 0;
  }
  return 1;
}

static double sse(const double *y, const size_t *idx, size_t n, double *mean) {
  double m = 0, s = 0;
  for (size_t i = 0; i < n; i++) m += y[idx[i]];
  m /= (double)(n ? n : 1);
  for (size_t i = 0; i < n; i++) s += (y[idx[i]] - m) * (y[idx[i]] - m);
  if (mean) *mean = m;
  return s;
}

typedef struct build {
  dcsim_hvs_t *h;
  double min_gain;
  size_t *tmp;
  double *key;
} build;

static int add_region(dcsim_hvs_t *h, const double *lo, const double *hi, const size_t *idx,
                      size_t n) {
  if (h->n_reg == h->cap_reg) {
    size_t c = h->cap_reg ? 2 * h->cap_reg : 16;
    region *r = realloc(h->reg, c * sizeof *r);
    if (!r) return -1;
    h->reg = r;
    double *b = realloc(h->bounds, c * 2 * h->dim * sizeof *b);
    if (!b) return -1;
    h->bounds = b;
    for (size_t i = 0; i < h->n_reg; i++) {
      h->reg[i].lo = b + i * 2 * h->dim;
      h->reg[i].hi = h->reg[i].lo + h->dim;
    }
    h->cap_reg = c;
  }
  region *r = &h->reg[h->n_reg];
  r->lo = h->bounds + h->n_reg * 2 * h->dim;
  r->hi = r->lo + h->dim;
  memcpy(r->lo, lo, h->dim * sizeof *lo);
  memcpy(r->hi, hi, h->dim * sizeof *hi);
  double s = sse(h->sy, idx, n, &r->mean);
  r->n_samples = n;
  r->ub2 = NAN;
  if (n >= 2) { /* seed §4: sigma^2 < (n-1) s^2 / chi2_{1-alpha/2, n-1} (lower alpha/2 quantile) */
    double q = gsl_cdf_chisq_Pinv(h->alpha / 2, (double)(n - 1));
    r->ub2 = q > 0 ? s / q : INFINITY; /* (n-1) s^2 = SSE */
  }
  r->size = 0;
  h->n_reg++;
  return 0;
}

static void sort_by(size_t *idx, size_t n, const double *key) { /* insertion sort: n is small */
  for (size_t i = 1; i < n; i++) {
    size_t v = idx[i];
    size_t j = i;
    while (j > 0 && key[idx[j - 1]] > key[v]) {
      idx[j] = idx[j - 1];
      j--;
    }
    idx[j] = v;
  }
}

/* idx: sample indices in this node */
static int grow(build *b, size_t *idx, size_t n, double *lo, double *hi, int depth) {
  dcsim_hvs_t *h = b->h;
  double total = sse(h->sy, idx, n, NULL);
  size_t best_d = 0, best_k = 0;
  double best = total, best_thr = 0;
  if (n >= 4 && depth < 12) {
    for (size_t d = 0; d < h->dim; d++) {
      for (size_t i = 0; i < n; i++) b->key[idx[i]] = h->x[h->sp[idx[i]] * h->dim + d];
      sort_by(idx, n, b->key);
      double sl = 0, sl2 = 0, sr = 0, sr2 = 0;
      for (size_t i = 0; i < n; i++) {
        double y = h->sy[idx[i]];
        sr += y;
        sr2 += y * y;
      }
      for (size_t k = 1; k < n; k++) { /* left = first k */
        double y = h->sy[idx[k - 1]];
        sl += y;
        sl2 += y * y;
        sr -= y;
        sr2 -= y * y;
        if (k < 2 || n - k < 2) continue;
        double a = b->key[idx[k - 1]], c = b->key[idx[k]];
        if (a == c) continue;
        double cost = (sl2 - sl * sl / (double)k) + (sr2 - sr * sr / (double)(n - k));
        if (cost < best - 1e-12 * fabs(best)) {
          best = cost;
          best_d = d;
          best_k = k;
          best_thr = 0.5 * (a + c);
        }
      }
    }
  }
  if (best_k == 0 || total - best < b->min_gain) return add_region(h, lo, hi, idx, n);
  /* partition idx by the threshold on best_d */
  size_t nl = 0;
  for (size_t i = 0; i < n; i++)
    if (h->x[h->sp[idx[i]] * h->dim + best_d] <= best_thr) b->tmp[nl++] = idx[i];
  size_t nr = nl;
  for (size_t i = 0; i < n; i++)
    if (h->x[h->sp[idx[i]] * h->dim + best_d] > best_thr) b->tmp[nr++] = idx[i];
  memcpy(idx, b->tmp, n * sizeof *idx);
  double save = hi[best_d];
  hi[best_d] = best_thr;
  int rc = grow(b, idx, nl, lo, hi, depth + 1);
  hi[best_d] = save;
  if (rc) return rc;
  save = lo[best_d];
  lo[best_d] = best_thr;
  rc = grow(b, idx + nl, n - nl, lo, hi, depth + 1);
  lo[best_d] = save;
  return rc;
}

int dcsim_hvs_fit(dcsim_hvs_t *h, dcsim_error *err) {
  h->n_reg = 0;
  size_t *idx = malloc((h->n_s + 1) * sizeof *idx), *tmp = malloc((h->n_s + 1) * sizeof *tmp);
  double *key = malloc((h->n_s + 1) * sizeof *key), *lo = malloc(2 * h->dim * sizeof *lo);
  int rc = 0;
  if (!idx || !tmp || !key || !lo) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    goto out;
  }
  double *hi = lo + h->dim;
  for (size_t d = 0; d < h->dim; d++) {
    lo[d] = -INFINITY;
    hi[d] = INFINITY;
  }
  for (size_t i = 0; i < h->n_s; i++) idx[i] = i;
  build b = { h, 0.001 * sse(h->sy, idx, h->n_s, NULL), tmp, key };
  if (grow(&b, idx, h->n_s, lo, hi, 0) != 0) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    goto out;
  }
  for (size_t p = 0; p < h->n; p++)
    for (size_t r = 0; r < h->n_reg; r++)
      if (in_box(h, &h->reg[r], p)) {
        h->reg[r].size++;
        break;
      }
out:
  free(idx);
  free(tmp);
  free(key);
  free(lo);
  return rc;
}

double dcsim_hvs_predict(const dcsim_hvs_t *h, size_t p) {
  for (size_t r = 0; r < h->n_reg; r++)
    if (in_box(h, &h->reg[r], p)) return h->reg[r].mean;
  return NAN;
}

/* k random unmeasured points among `cand` (shuffled in place) */
static size_t pick(dcsim_hvs_t *h, size_t *cand, size_t nc, size_t k, size_t *out) {
  size_t got = 0;
  for (size_t i = 0; i < nc && got < k; i++) {
    size_t j = i + (size_t)(next_u64(h) % (nc - i));
    size_t t = cand[i];
    cand[i] = cand[j];
    cand[j] = t;
    out[got++] = cand[i];
    h->measured[cand[i]] = 2; /* chosen: not offered twice before it is measured */
  }
  return got;
}

size_t dcsim_hvs_next_random(dcsim_hvs_t *h, size_t k, size_t *out) {
  size_t *cand = malloc(h->n * sizeof *cand), nc = 0;
  if (!cand) return 0;
  for (size_t p = 0; p < h->n; p++)
    if (!h->measured[p]) cand[nc++] = p;
  size_t got = pick(h, cand, nc, k, out);
  free(cand);
  return got;
}

size_t dcsim_hvs_next(dcsim_hvs_t *h, size_t k, size_t *out) {
  if (h->n_s < 4 || dcsim_hvs_fit(h, NULL) != 0 || h->n_reg == 0)
    return dcsim_hvs_next_random(h, k, out);
  size_t nr = h->n_reg, got = 0;
  double maxub = 0, wsum = 0;
  for (size_t r = 0; r < nr; r++)
    if (isfinite(h->reg[r].ub2) && h->reg[r].ub2 > maxub) maxub = h->reg[r].ub2;
  double *w = calloc(nr, sizeof *w);
  size_t *cand = malloc(h->n * sizeof *cand), *free_n = calloc(nr, sizeof *free_n),
         *want = calloc(nr, sizeof *want);
  if (!w || !cand || !free_n || !want) {
    free(w);
    free(cand);
    free(free_n);
    free(want);
    return 0;
  }
  for (size_t p = 0; p < h->n; p++)
    if (!h->measured[p])
      for (size_t r = 0; r < nr; r++)
        if (in_box(h, &h->reg[r], p)) {
          free_n[r]++;
          break;
        }
  for (size_t r = 0; r < nr; r++) { /* seed §4: samples proportional to sigma_ub^2 x region size */
    double ub = isnan(h->reg[r].ub2) || !isfinite(h->reg[r].ub2) ? maxub : h->reg[r].ub2;
    w[r] = free_n[r] ? (ub > 0 ? ub : 1e-300) * (double)h->reg[r].size : 0;
    wsum += w[r];
  }
  size_t left = k;
  while (left > 0 && wsum > 0) { /* largest share first, one at a time (deterministic rounding) */
    size_t best = nr;
    double bv = -1;
    for (size_t r = 0; r < nr; r++) {
      if (want[r] >= free_n[r]) continue;
      double deficit = (double)k * w[r] / wsum - (double)want[r];
      if (deficit > bv) {
        bv = deficit;
        best = r;
      }
    }
    if (best == nr) break;
    want[best]++;
    left--;
  }
  for (size_t r = 0; r < nr; r++) {
    if (!want[r]) continue;
    size_t nc = 0;
    for (size_t p = 0; p < h->n; p++)
      if (!h->measured[p] && in_box(h, &h->reg[r], p)) cand[nc++] = p;
    got += pick(h, cand, nc, want[r], out + got);
  }
  free(w);
  free(cand);
  free(free_n);
  free(want);
  if (got < k) got += dcsim_hvs_next_random(h, k - got, out + got);
  return got;
}
