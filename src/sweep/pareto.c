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
