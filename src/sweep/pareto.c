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

long dcsim_pareto_front(size_t n, const double *time_s, const double *energy_j,
                        const unsigned char *valid, unsigned char *front) {
  key *k = malloc((n ? n : 1) * sizeof *k);
  if (!k) return -1;
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    front[i] = 0;
    if ((!valid || valid[i]) && isfinite(time_s[i]) && isfinite(energy_j[i]))
      k[m++] = (key){ time_s[i], energy_j[i], i };
  }
  qsort(k, m, sizeof *k, cmp_key);
  /* by time, then energy: a point is on the front when its energy is below every energy seen at a
   * strictly smaller time and equal to the least energy of its own time */
  long count = 0;
  double best = INFINITY; /* least energy at strictly smaller times */
  for (size_t a = 0; a < m;) {
    size_t b = a;
    while (b < m && k[b].t == k[a].t) b++;
    double group_min = k[a].e; /* sorted: the first of the group has its least energy */
    if (group_min < best)
      for (size_t c = a; c < b && k[c].e == group_min; c++) {
        front[k[c].i] = 1;
        count++;
      }
    if (group_min < best) best = group_min;
    a = b;
  }
  free(k);
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
