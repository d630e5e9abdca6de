/* pareto.c — Pareto front and knee of (time, energy) points (see dcsim/pareto.h). */
#include "dcsim/pareto.h"

#include <math.h>
#include <stdlib.h>

typedef struct key {
  double t, e;
  size_t i;
} key;

static int cmp_key(const void *a, const void *b) {
  const key *x = a, *y = b;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  if (x->e != y->e) return x->e < y->e ? -1 : 1;
  return (x->i > y->i) - (x->i < y->i);
}

/* a and b equal to DCSIM_PARETO_REL_TOL (relative): the rounding of sums taken in another order */
static int same(double a, double b) {
  return fabs(a - b) <= DCSIM_PARETO_REL_TOL * fmax(fabs(a), fabs(b));
}

/* a better (smaller) than b beyond the tolerance */
static int better(double a, double b) { return a < b && !same(a, b); }

long dcsim_pareto_front(size_t n, const double *time_s, const double *energy_j,
                        const unsigned char *valid, unsigned char *front) {
  key *k = malloc((n ? n : 1) * sizeof *k);
  double *pmin = malloc((n ? n : 1) * sizeof *pmin);
  if (!k || !pmin) {
    free(k);
    free(pmin);
    return -1;
  }
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    front[i] = 0;
    if ((!valid || valid[i]) && isfinite(time_s[i]) && isfinite(energy_j[i]))
      k[m++] = (key){ time_s[i], energy_j[i], i };
  }
  qsort(k, m, sizeof *k, cmp_key);
  for (size_t a = 0; a < m; a++) /* pmin[a]: least energy of k[0..a] */
    pmin[a] = a && pmin[a - 1] < k[a].e ? pmin[a - 1] : k[a].e;
  /* q is dominated when a point no slower (its time better or the same) has less energy, or a
   * strictly faster point has no more energy (the same or less). Sorted by time, the first are
   * k[0..hi) (hi: the end of q's group of the same time) and the second k[0..lo) (lo: its start) */
  long count = 0;
  size_t lo = 0, hi = 0;
  for (size_t a = 0; a < m; a++) {
    while (lo < a && better(k[lo].t, k[a].t)) lo++;
    if (hi < a + 1) hi = a + 1;
    while (hi < m && !better(k[a].t, k[hi].t)) hi++;
    int dominated = better(pmin[hi - 1], k[a].e) || (lo > 0 && !better(k[a].e, pmin[lo - 1]));
    if (!dominated) {
      front[k[a].i] = 1;
      count++;
    }
  }
  free(k);
  free(pmin);
  return count;
}

long dcsim_pareto_knee(size_t n, const double *time_s, const double *energy_j,
                       const unsigned char *front) {
  double tmin = INFINITY, tmax = -INFINITY, emin = INFINITY, emax = -INFINITY;
  for (size_t i = 0; i < n; i++) {
    if (!front[i]) continue;
    if (time_s[i] < tmin) tmin = time_s[i];
    if (time_s[i] > tmax) tmax = time_s[i];
    if (energy_j[i] < emin) emin = energy_j[i];
    if (energy_j[i] > emax) emax = energy_j[i];
  }
  long knee = -1;
  double best = INFINITY;
  for (size_t i = 0; i < n; i++) {
    if (!front[i]) continue;
    double t = tmax > tmin ? (time_s[i] - tmin) / (tmax - tmin) : 0;
    double e = emax > emin ? (energy_j[i] - emin) / (emax - emin) : 0;
    double d = sqrt(t * t + e * e);
    /* ties (e.g. the two ends of a two-point front): the smaller energy-delay product, then the
     * lower index */
    if (knee < 0 || d < best ||
        (d == best && time_s[i] * energy_j[i] < time_s[knee] * energy_j[knee])) {
      knee = (long)i;
      best = d;
    }
  }
  return knee;
}

/* ---- three objectives (time, energy, cost: dcsim sweep --objectives time,energy,cost) ---- */

/* p no worse than q in every objective (to the tolerance) and better in one */
static int dominates3(const double *const v[3], size_t p, size_t q) {
  int strictly = 0;
  for (int k = 0; k < 3; k++) {
    if (better(v[k][q], v[k][p])) return 0;
    strictly |= better(v[k][p], v[k][q]);
  }
  return strictly;
}

typedef struct key3 {
  double v[3];
  size_t i;
} key3;

static int cmp3(const void *a, const void *b) {
  const key3 *x = a, *y = b;
  for (int k = 0; k < 3; k++)
    if (x->v[k] != y->v[k]) return x->v[k] < y->v[k] ? -1 : 1;
  return (x->i > y->i) - (x->i < y->i);
}

/* The simple cull (Kung, Luccio and Preparata, "On finding the maxima of a set of vectors", JACM
 * 1975, the naive archive method): points are taken in lexicographic order; each is compared with
 * the archive of points not dominated so far, dropped when one dominates it, else added and the
 * archive members it dominates dropped. O(n x front size); the order only makes drops rare. */
long dcsim_pareto_front3(size_t n, const double *a, const double *b, const double *c,
                         const unsigned char *valid, unsigned char *front) {
  const double *const v[3] = { a, b, c };
  key3 *idx = malloc((n ? n : 1) * sizeof *idx);
  size_t *arch = malloc((n ? n : 1) * sizeof *arch);
  if (!idx || !arch) {
    free(idx);
    free(arch);
    return -1;
  }
  size_t m = 0, na = 0;
  for (size_t i = 0; i < n; i++) {
    front[i] = 0;
    if ((!valid || valid[i]) && isfinite(a[i]) && isfinite(b[i]) && isfinite(c[i]))
      idx[m++] = (key3){ { a[i], b[i], c[i] }, i };
  }
  qsort(idx, m, sizeof *idx, cmp3);
  for (size_t t = 0; t < m; t++) {
    size_t p = idx[t].i, keep = 0;
    int dominated = 0;
    for (size_t j = 0; j < na && !dominated; j++) dominated = dominates3(v, arch[j], p);
    if (dominated) continue;
    for (size_t j = 0; j < na; j++)
      if (!dominates3(v, p, arch[j])) arch[keep++] = arch[j];
    na = keep;
    arch[na++] = p;
  }
  for (size_t j = 0; j < na; j++) front[arch[j]] = 1;
  free(idx);
  free(arch);
  return (long)na;
}

long dcsim_pareto_knee3(size_t n, const double *a, const double *b, const double *c,
                        const unsigned char *front) {
  const double *const v[3] = { a, b, c };
  double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < 3 && front[i]; k++) {
      if (v[k][i] < lo[k]) lo[k] = v[k][i];
      if (v[k][i] > hi[k]) hi[k] = v[k][i];
    }
  long knee = -1;
  double best = INFINITY, best_prod = INFINITY;
  for (size_t i = 0; i < n; i++) {
    if (!front[i]) continue;
    double d2 = 0;
    for (int k = 0; k < 3; k++) {
      double x = hi[k] > lo[k] ? (v[k][i] - lo[k]) / (hi[k] - lo[k]) : 0;
      d2 += x * x;
    }
    double d = sqrt(d2), prod = a[i] * b[i] * c[i];
    if (knee < 0 || d < best || (d == best && prod < best_prod)) { /* ties: as in two objectives */
      knee = (long)i;
      best = d;
      best_prod = prod;
    }
  }
  return knee;
}
