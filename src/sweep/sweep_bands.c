/* sweep_bands.c — a sweep's bands and the points indistinguishable from its front (see
 * dcsim/sweep_bands.h). */
#include "dcsim/sweep_bands.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/band_rule.h"
#include "dcsim/catalog.h"
#include "dcsim/scenario.h"

/* The band of a point's objective k (0 time, 1 energy, 2 cost) as [lo, hi]. */
static void band_of(const dcsim_sweep_point *p, int k, double b[2]) {
  const double *v = k == 0 ? p->time_band : k == 1 ? p->energy_band : p->cost_band;
  b[0] = v[0];
  b[1] = v[1];
}

/* Whether p has a band on every objective of obj (cost: only when its cost is known). */
static int banded(const dcsim_sweep_point *p, unsigned obj) {
  return p->has_band && (!(obj & DCSIM_OBJ_COST) || p->has_cost_band);
}

/* p is surely better than q on every objective: p's band ends where q's begins, or below */
static int surely_dominates(const dcsim_sweep_point *p, const dcsim_sweep_point *q, unsigned obj) {
  for (int k = 0; k < 3; k++) {
    if (!(obj & (1u << k))) continue;
    double a[2], b[2];
    band_of(p, k, a);
    band_of(q, k, b);
    if (!(a[1] <= b[0])) return 0;
  }
  return 1;
}

/* the bands of p and q meet on every objective: within them, either may be the better */
static int overlaps(const dcsim_sweep_point *p, const dcsim_sweep_point *q, unsigned obj) {
  for (int k = 0; k < 3; k++) {
    if (!(obj & (1u << k))) continue;
    double a[2], b[2];
    band_of(p, k, a);
    band_of(q, k, b);
    if (a[0] > b[1] || b[0] > a[1]) return 0;
  }
  return 1;
}

/* A point of known cost gets its cost band (dcsim_bands_cost, the one rule). */
static void cost_band(dcsim_sweep_point *p) {
  p->has_cost_band = p->has_band && isfinite(p->cost_usd);
  if (p->has_cost_band)
    dcsim_bands_cost(p->cost_usd, p->time_s, p->time_band, p->energy_j, p->energy_band,
                     p->cost_band);
}

void dcsim_sweep_bands_mark(dcsim_sweep_point *pts, size_t n, const dcsim_bands_t *b,
                            const unsigned char *transferred, unsigned obj) {
  for (size_t i = 0; i < n; i++) {
    dcsim_sweep_point *p = &pts[i];
    p->has_band = p->done && p->feasible;
    p->near_front = p->has_cost_band = 0;
    if (!p->has_band) continue;
    /* the point's basis for the band rule (dcsim/band_rule.h): the devices it names, its
     * provenance, its thread law's cover */
    dcsim_band_basis q = { .gpu = p->gpu[0] != '\0',
                           .time_kind = (dcsim_prov_kind)p->time_prov,
                           .energy_kind = (dcsim_prov_kind)p->energy_prov,
                           .time_s = p->time_s,
                           .energy_j = p->energy_j };
    if (p->cpu[0] != '\0' || !q.gpu)
      dcsim_band_basis_add_cpu(
          &q, (dcsim_band_cpu)(DCSIM_BAND_CPU_OWN + (transferred ? transferred[i] : 0)));
    dcsim_band_basis_cover_factor(&q, p->time_cover);
    dcsim_band_rule(b, &q, p->time_band, p->energy_band);
    cost_band(p);
  }
  /* indistinguishable: off the front, its bands meet a front point's on every objective, and no
   * point at all is surely better on every objective (that one would rule it out) */
  for (size_t i = 0; i < n; i++) {
    dcsim_sweep_point *q = &pts[i];
    if (!banded(q, obj) || q->pareto || !isfinite(q->energy_j)) continue; /* energy unknown */
    int meets = 0, ruled_out = 0;
    for (size_t k = 0; k < n && !ruled_out; k++) {
      const dcsim_sweep_point *p = &pts[k];
      if (k == i || !banded(p, obj)) continue;
      meets |= p->pareto && overlaps(p, q, obj);
      ruled_out = surely_dominates(p, q, obj);
    }
    q->near_front = meets && !ruled_out;
  }
}

int dcsim_sweep_bands_mark_run(dcsim_sweep_t *sw, dcsim_error *err) {
  size_t n = dcsim_sweep_n_points(sw);
  unsigned char *tr = calloc(n ? n : 1, 1);
  if (!tr) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  for (size_t i = 0; i < n; i++) tr[i] = (unsigned char)dcsim_sweep_point_transferred(sw, i);
  dcsim_bands_t *b = NULL;
  int rc = dcsim_bands_load_default(&b, err);
  if (!rc) dcsim_sweep_bands_mark(dcsim_sweep_points(sw), n, b, tr, dcsim_sweep_objectives(sw));
  dcsim_bands_free(b);
  free(tr);
  return rc;
}

int dcsim_sweep_bands_mark_default(dcsim_sweep_point *pts, size_t n, unsigned obj,
                                   dcsim_error *err) {
  dcsim_bands_t *b = NULL;
  int rc = dcsim_bands_load_default(&b, err);
  if (rc) return rc;
  unsigned char *tr = calloc(n ? n : 1, 1);
  /* each CPU name's answer, found once: a sweep names a few CPUs over many points */
  enum { SEEN_MAX = 64 };
  struct {
    const char *cpu;
    unsigned char tr;
  } seen[SEEN_MAX];
  size_t n_seen = 0;
  if (!tr) {
    dcsim_bands_free(b);
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  }
  for (size_t i = 0; i < n && !rc; i++) {
    if (!(pts[i].done && pts[i].feasible)) continue;
    if (!pts[i].cpu[0]) {
      tr[i] = 1; /* the platform it ran on is not known here */
      continue;
    }
    size_t k = 0;
    while (k < n_seen && strcmp(seen[k].cpu, pts[i].cpu) != 0) k++;
    if (k < n_seen) {
      tr[i] = seen[k].tr;
      continue;
    }
    char *path = NULL;
    dcsim_cpu_profile_t *cpu = NULL;
    dcsim_error none;
    /* a CPU the catalogue does not hold (points read from a file of another data root): no
     * tables of its own can be vouched for, so the wider band of a transferred CPU */
    if (dcsim_catalog_find(DCSIM_KIND_CPU, pts[i].cpu, NULL, 0, &path, &none))
      tr[i] = 1;
    else if (!(rc = dcsim_cpu_profile_load(path, &cpu, err)))
      tr[i] = (unsigned char)dcsim_bands_cpu_transferred(cpu);
    free(path);
    dcsim_cpu_profile_free(cpu);
    if (!rc && n_seen < SEEN_MAX) seen[n_seen].cpu = pts[i].cpu, seen[n_seen++].tr = tr[i];
  }
  if (!rc) dcsim_sweep_bands_mark(pts, n, b, tr, obj);
  free(tr);
  dcsim_bands_free(b);
  return rc;
}

/* the groups the CPU tasks run on (dcsim_scenario_cpu_group_used, by the one group rule) */
int dcsim_sweep_scenario_transferred(const struct dcsim_scenario *s) {
  int tr = 0;
  for (size_t g = 0; g < s->n_groups; g++)
    if (dcsim_scenario_cpu_group_used(s, g)) {
      int t = dcsim_bands_cpu_transferred(s->groups[g].cpu);
      if (t > tr) tr = t; /* the weakest group's */
    }
  return tr;
}
