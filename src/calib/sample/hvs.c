/* hvs.c — Hierarchical Variance Sampling over a finite design space (see dcsim/hvs.h). */
#include "dcsim/hvs.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "calib/sample/internal.h"
#include "dcsim/strutil.h"

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
    if (DCSIM_RESIZE(h->sp, c) || DCSIM_RESIZE(h->sy, c))
      return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
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
    if (DCSIM_RESIZE(h->reg, c) || (h->dim && c > SIZE_MAX / 2 / h->dim) ||
        DCSIM_RESIZE(h->bounds, c * 2 * h->dim))
      return -1;
    double *b = h->bounds;
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

/* idx: sample indices in this node */
static int grow(build *b, size_t *idx, size_t n, double *lo, double *hi, int depth) {
  dcsim_hvs_t *h = b->h;
  int dim = -1;
  double best_thr = 0, gain = 0;
  if (n >= 4 && depth < 12) {
    dcsim__tree_data t = { h->dim, h->x, h->sp, h->sy, NULL, b->key };
    dcsim__tree_best_split(&t, idx, n, 2, &dim, &best_thr, &gain);
  }
  if (dim < 0 || gain < b->min_gain) return add_region(h, lo, hi, idx, n);
  size_t best_d = (size_t)dim;
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

/* the CART partition of the samples listed in idx[0..n-1] (indices into sp/sy; a bootstrap
 * resample may repeat them); idx is reordered */
static int fit_idx(dcsim_hvs_t *h, size_t *idx, size_t n, dcsim_error *err) {
  h->n_reg = 0;
  size_t *tmp = malloc((n + 1) * sizeof *tmp);
  double *key = malloc((h->n_s + 1) * sizeof *key), *lo = malloc(2 * h->dim * sizeof *lo);
  int rc = 0;
  if (!tmp || !key || !lo) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    goto out;
  }
  double *hi = lo + h->dim;
  for (size_t d = 0; d < h->dim; d++) {
    lo[d] = -INFINITY;
    hi[d] = INFINITY;
  }
  build b = { h, 0.001 * sse(h->sy, idx, n, NULL), tmp, key };
  if (grow(&b, idx, n, lo, hi, 0) != 0) {
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
  free(tmp);
  free(key);
  free(lo);
  return rc;
}

int dcsim_hvs_fit(dcsim_hvs_t *h, dcsim_error *err) {
  size_t *idx = malloc((h->n_s + 1) * sizeof *idx);
  if (!idx) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  for (size_t i = 0; i < h->n_s; i++) idx[i] = i;
  int rc = fit_idx(h, idx, h->n_s, err);
  free(idx);
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

/* HVS (seed §4): samples per region proportional to its variance upper bound x its size; the
 * relative variant (HVSrelative) divides the bound by the region's squared mean */
static size_t next_by_regions(dcsim_hvs_t *h, size_t k, size_t *out, int relative) {
  if (h->n_s < 4 || dcsim_hvs_fit(h, NULL) != 0 || h->n_reg == 0)
    return dcsim_hvs_next_random(h, k, out);
  size_t nr = h->n_reg, got = 0;
  double maxub = 0, wsum = 0;
  double *ub = calloc(nr, sizeof *ub), *w = calloc(nr, sizeof *w);
  size_t *cand = malloc(h->n * sizeof *cand), *free_n = calloc(nr, sizeof *free_n),
         *want = calloc(nr, sizeof *want);
  if (!ub || !w || !cand || !free_n || !want) goto out;
  for (size_t r = 0; r < nr; r++) {
    double m2 = h->reg[r].mean * h->reg[r].mean;
    ub[r] = relative && m2 > 0 ? h->reg[r].ub2 / m2 : h->reg[r].ub2; /* seed §4 */
    if (isfinite(ub[r]) && ub[r] > maxub) maxub = ub[r];
  }
  for (size_t p = 0; p < h->n; p++)
    if (!h->measured[p])
      for (size_t r = 0; r < nr; r++)
        if (in_box(h, &h->reg[r], p)) {
          free_n[r]++;
          break;
        }
  for (size_t r = 0; r < nr; r++) { /* seed §4: samples proportional to sigma_ub^2 x region size */
    double u = isnan(ub[r]) || !isfinite(ub[r]) ? maxub : ub[r];
    w[r] = free_n[r] ? (u > 0 ? u : 1e-300) * (double)h->reg[r].size : 0;
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
out:
  free(ub);
  free(w);
  free(cand);
  free(free_n);
  free(want);
  if (got < k) got += dcsim_hvs_next_random(h, k - got, out + got);
  return got;
}

size_t dcsim_hvs_next(dcsim_hvs_t *h, size_t k, size_t *out) {
  return next_by_regions(h, k, out, 0);
}

/* coordinates scaled to [0, 1] per dimension by rank: with m distinct values along a dimension,
 * the i-th smallest is at (i + 0.5)/m, so the strata of a Latin hypercube of m hold one grid value
 * each, whatever the values' spacing (log-spaced working sets, GHz) */
static void scaled(const dcsim_hvs_t *h, size_t p, double *u) {
  for (size_t d = 0; d < h->dim; d++) {
    double v = h->x[p * h->dim + d];
    size_t below = 0, m = 0;
    for (size_t q = 0; q < h->n; q++) {
      double w = h->x[q * h->dim + d];
      int first = 1; /* count each distinct value once: at its first point */
      for (size_t r = 0; r < q && first; r++) first = h->x[r * h->dim + d] != w;
      if (!first) continue;
      m++;
      below += w < v;
    }
    u[d] = ((double)below + 0.5) / (double)(m ? m : 1);
  }
}

static double uniform(dcsim_hvs_t *h) { return (double)(next_u64(h) >> 11) * 0x1.0p-53; }

/* the unmeasured, unchosen design point nearest to the scaled target t */
static size_t nearest_free(const dcsim_hvs_t *h, const double *u_all, const double *t) {
  size_t best = h->n;
  double bd = INFINITY;
  for (size_t p = 0; p < h->n; p++) {
    if (h->measured[p]) continue;
    double dd = 0;
    for (size_t d = 0; d < h->dim; d++)
      dd += (u_all[p * h->dim + d] - t[d]) * (u_all[p * h->dim + d] - t[d]);
    if (dd < bd) {
      bd = dd;
      best = p;
    }
  }
  return best;
}

size_t dcsim_hvs_next_lhs(dcsim_hvs_t *h, size_t k, size_t *out) {
  double *u = malloc(h->n * h->dim * sizeof *u), *t = malloc(h->dim * sizeof *t);
  size_t *perm = malloc((k ? k : 1) * h->dim * sizeof *perm), got = 0;
  if (!u || !t || !perm) goto out;
  for (size_t p = 0; p < h->n; p++) scaled(h, p, u + p * h->dim);
  for (size_t d = 0; d < h->dim; d++) { /* Latin hypercube: one sample per stratum per axis */
    size_t *pd = perm + d * k;
    for (size_t i = 0; i < k; i++) pd[i] = i;
    for (size_t i = 0; i + 1 < k; i++) {
      size_t j = i + (size_t)(next_u64(h) % (k - i)), tmp = pd[i];
      pd[i] = pd[j];
      pd[j] = tmp;
    }
  }
  for (size_t i = 0; i < k; i++) {
    for (size_t d = 0; d < h->dim; d++) t[d] = ((double)perm[d * k + i] + uniform(h)) / (double)k;
    size_t p = nearest_free(h, u, t); /* the design space is a grid: its nearest point */
    if (p == h->n) break;
    h->measured[p] = 2; /* chosen */
    out[got++] = p;
  }
out:
  free(u);
  free(t);
  free(perm);
  return got;
}

#define QBC_COMMITTEE 20 /* ASK §6: AMART with a committee of twenty */

/* prediction of every point by committee members fitted on bootstrap resamples: pred[c * n + p] */
static int committee(dcsim_hvs_t *h, double *pred) {
  size_t *idx = malloc(h->n_s * sizeof *idx);
  if (!idx) return -1;
  int rc = 0;
  for (int c = 0; c < QBC_COMMITTEE && !rc; c++) {
    for (size_t i = 0; i < h->n_s; i++) idx[i] = (size_t)(next_u64(h) % h->n_s);
    if ((rc = fit_idx(h, idx, h->n_s, NULL))) break;
    for (size_t p = 0; p < h->n; p++) pred[(size_t)c * h->n + p] = dcsim_hvs_predict(h, p);
  }
  free(idx);
  return rc;
}

size_t dcsim_hvs_next_qbc(dcsim_hvs_t *h, size_t k, size_t *out) {
  if (h->n_s < 4) return dcsim_hvs_next_random(h, k, out);
  double *pred = malloc(QBC_COMMITTEE * h->n * sizeof *pred), *dis = malloc(h->n * sizeof *dis),
         *u = malloc(h->n * h->dim * sizeof *u);
  size_t got = 0;
  if (!pred || !dis || !u || committee(h, pred)) goto out;
  for (size_t p = 0; p < h->n; p++) { /* disagreement: the committee's variance */
    double m = 0, v = 0;
    for (int c = 0; c < QBC_COMMITTEE; c++) m += pred[(size_t)c * h->n + p] / QBC_COMMITTEE;
    for (int c = 0; c < QBC_COMMITTEE; c++)
      v += (pred[(size_t)c * h->n + p] - m) * (pred[(size_t)c * h->n + p] - m);
    dis[p] = isfinite(v) ? v : 0;
    scaled(h, p, u + p * h->dim);
  }
  /* non-clustered: a point closer than r (scaled) to one already chosen waits */
  double r = 0.5 / pow((double)(k ? k : 1), 1.0 / (double)h->dim);
  for (int pass = 0; pass < 2 && got < k; pass++)
    while (got < k) {
      size_t best = h->n;
      for (size_t p = 0; p < h->n; p++) {
        if (h->measured[p]) continue;
        int near = 0;
        for (size_t j = 0; j < got && pass == 0; j++) {
          double dd = 0;
          for (size_t d = 0; d < h->dim; d++)
            dd += (u[p * h->dim + d] - u[out[j] * h->dim + d]) *
                  (u[p * h->dim + d] - u[out[j] * h->dim + d]);
          near |= dd < r * r;
        }
        if (!near && (best == h->n || dis[p] > dis[best])) best = p;
      }
      if (best == h->n) break;
      h->measured[best] = 2;
      out[got++] = best;
    }
out:
  free(pred);
  free(dis);
  free(u);
  dcsim_hvs_fit(h, NULL); /* the tree of every sample again */
  if (got < k) got += dcsim_hvs_next_random(h, k - got, out + got);
  return got;
}

size_t dcsim_hvs_next_with(dcsim_hvs_t *h, dcsim_sampler s, size_t k, size_t *out) {
  switch (s) {
    case DCSIM_SAMPLER_LHS: return dcsim_hvs_next_lhs(h, k, out);
    case DCSIM_SAMPLER_HVS: return next_by_regions(h, k, out, 0);
    case DCSIM_SAMPLER_HVS_RELATIVE: return next_by_regions(h, k, out, 1);
    case DCSIM_SAMPLER_QBC: return dcsim_hvs_next_qbc(h, k, out);
    default: return dcsim_hvs_next_random(h, k, out);
  }
}

static const char *const SAMPLER_NAMES[] = { "random", "lhs", "hvs", "hvs-relative", "qbc" };

const char *dcsim_sampler_name(dcsim_sampler s) { return (unsigned)s < 5 ? SAMPLER_NAMES[s] : "?"; }

int dcsim_sampler_parse(const char *name, dcsim_sampler *out) {
  for (int i = 0; i < 5; i++)
    if (strcmp(name, SAMPLER_NAMES[i]) == 0) return *out = (dcsim_sampler)i, 0;
  return -1;
}

int dcsim_hvs_weights(const dcsim_hvs_t *h, double *w) {
  if (h->n_reg == 0) return -1;
  for (size_t i = 0; i < h->n_s; i++) {
    w[i] = 1;
    for (size_t r = 0; r < h->n_reg; r++)
      if (in_box(h, &h->reg[r], h->sp[i])) { /* ASK §5: w_r = s_r / n_r */
        double s_r = (double)h->reg[r].size / (double)h->n,
               n_r = (double)h->reg[r].n_samples / (double)h->n_s;
        w[i] = n_r > 0 ? s_r / n_r : 1;
        break;
      }
  }
  return 0;
}
