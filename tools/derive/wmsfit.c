/* wmsfit.c — fitting a WMS description on recorded instances, and its errors (see wmsfit.h). */
#include "wmsfit.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"
#include "dcsim/sched.h"
#include "dcsim/trace.h"

const char *wmsfit_base(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.json files of dir, sorted (NULL-terminated, malloc'd). */
static char **list_json(const char *dir, size_t *n) {
  DIR *d = opendir(dir);
  char **l = NULL;
  *n = 0;
  if (!d) return NULL;
  for (struct dirent *e; (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0) continue;
    char **nl = realloc(l, (*n + 2) * sizeof *nl);
    if (!nl) break;
    l = nl;
    if (!(l[*n] = dcsim_path_in(dir, e->d_name))) break;
    l[++*n] = NULL;
  }
  closedir(d);
  if (l) qsort(l, *n, sizeof *l, cmp_str);
  return l;
}

void wmsfit_release(wmsfit *f) {
  for (size_t i = 0; i < f->n; i++) {
    free(f->inst[i].path);
    dcsim_scenario_free(f->inst[i].s);
  }
  free(f->inst);
  free(f->fit_v);
  free(f->fit_se);
  free(f->fitted);
  free(f->members);
  free(f->evaluations);
  dcsim_wms_conf_free(f->conf);
  memset(f, 0, sizeof *f);
}

/* One instance under the WMS its runtime system selects; *keep = 0 if it has none or no
 * recorded makespan. */
static int load_inst(wmsfit *f, const char *path, const char *wms_file, int *keep,
                     dcsim_error *err) {
  dcsim_scenario_opts so = { .wms_file = wms_file };
  dcsim_scenario *s = NULL;
  int rc = dcsim_scenario_load(path, &so, &s, err);
  *keep = 0;
  if (rc) return rc;
  if (!s->trace || !(s->trace->recorded_makespan_s > 0) || s->n_wfs != 1 || !s->wfs[0].wms) {
    dcsim_scenario_free(s);
    return 0;
  }
  wmsfit_inst *in = &f->inst[f->n];
  memset(in, 0, sizeof *in);
  in->s = s;
  in->prof = (dcsim_wms_profile *)s->wfs[0].wms; /* s's own copy of the description */
  in->recorded_s = s->trace->recorded_makespan_s;
  for (size_t k = 0; k < f->conf->n_profiles; k++)
    if (strcmp(f->conf->profiles[k].name, in->prof->name) == 0) in->profile = k;
  if (!(in->path = dcsim_strdup(path)))
    return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  f->n++;
  *keep = 1;
  return 0;
}

int wmsfit_load(const char *dir, const char *wms_file, wmsfit *f, dcsim_error *err) {
  size_t n = 0;
  char **files = list_json(dir, &n);
  char def[4096];
  int rc = 0;
  memset(f, 0, sizeof *f);
  if (!wms_file) {
    snprintf(def, sizeof def, "%s/workflows/wms/pegasus-htcondor.xml", dcsim_catalog_root());
    wms_file = def;
  }
  if (!n) rc = 77;
  if (!rc && (rc = dcsim_wms_conf_load(wms_file, &f->conf, err))) goto out;
  f->inst = calloc(n ? n : 1, sizeof *f->inst);
  f->fit_v = calloc(f->conf ? f->conf->n_profiles : 1, sizeof *f->fit_v);
  f->fit_se = calloc(f->conf ? f->conf->n_profiles : 1, sizeof *f->fit_se);
  f->fitted = calloc(f->conf ? f->conf->n_profiles : 1, sizeof *f->fitted);
  f->members = calloc(f->conf ? f->conf->n_profiles : 1, sizeof *f->members);
  f->evaluations = calloc(f->conf ? f->conf->n_profiles : 1, sizeof *f->evaluations);
  if (!rc && (!f->inst || !f->fit_v || !f->fit_se || !f->fitted || !f->members || !f->evaluations))
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  for (size_t i = 0; i < n && !rc; i++) {
    int keep;
    rc = load_inst(f, files[i], wms_file, &keep, err);
    if (!rc && !keep) f->n_skipped++;
  }
out:
  for (size_t i = 0; i < n; i++) free(files[i]);
  free(files);
  return rc;
}

/* ---- grids ---- */

static int is_bps(int k) {
  const char *nm = dcsim_wms_param_name((dcsim_wms_param)k);
  size_t l = strlen(nm);
  return l > 4 && strcmp(nm + l - 4, "-bps") == 0;
}

/* Point i of parameter k's grid (fit.steps points, plus 0 = unlimited first for bandwidths,
 * which then run from the largest to the smallest). */
static double grid_value(const dcsim_wms_fit *g, int k, size_t i) {
  if (is_bps(k)) {
    if (i == 0) return 0;
    double x = (double)(g->steps - i) / (g->steps - 1);
    return g->min * pow(g->max / g->min, x);
  }
  return g->min + (g->max - g->min) * (double)i / (g->steps - 1);
}

static size_t grid_size(const dcsim_wms_fit *g, int k) { return g->steps + (is_bps(k) ? 1 : 0); }

/* The fitted parameters of profile p and the number of grid points. */
static size_t grid_of(const dcsim_wms_profile *p, int *ks, size_t *nk) {
  size_t total = 1;
  *nk = 0;
  for (int k = 0; k < DCSIM_WMS_N_PARAMS; k++)
    if (p->fit[k].steps) {
      ks[(*nk)++] = k;
      total *= grid_size(&p->fit[k], k);
    }
  return *nk ? total : 0;
}

/* ---- simulation and fit ---- */

/* Simulated makespan of instance in with the values v of its profile's fitted parameters. */
static int simulate(wmsfit_inst *in, const int *ks, size_t nk, const double *v, double *out,
                    dcsim_error *err) {
  for (size_t q = 0; q < nk; q++) in->prof->p.v[ks[q]] = v[ks[q]];
  dcsim_wf_rt *w = &in->s->wfs[0];
  dcsim_sched_plan_release(w);
  int rc =
      dcsim_sched_plan(in->s, w, (dcsim_task_policy)in->s->task_policy, in->s->deadline_s, err);
  *out = rc ? 0 : (double)w->plan.makespan_ns * 1e-9;
  return rc;
}

/* The points a profile's fit has simulated: grid indices, log errors per member, their SSE. */
typedef struct point {
  size_t idx[DCSIM_WMS_N_PARAMS];
  double sse;
  double *e; /* nm log errors */
} point;

typedef struct fitctx {
  wmsfit *f;
  const dcsim_wms_profile *p;
  int ks[DCSIM_WMS_N_PARAMS];
  size_t nk, nm, *mem;
  point *pts;
  size_t n_pts, cap;
} fitctx;

/* The point at grid indices idx, simulated on every member unless done before. */
static int eval_point(fitctx *c, const size_t *idx, const point **out, dcsim_error *err) {
  for (size_t i = 0; i < c->n_pts; i++)
    if (memcmp(c->pts[i].idx, idx, c->nk * sizeof *idx) == 0) {
      *out = &c->pts[i];
      return 0;
    }
  if (DCSIM_GROW(c->pts, c->cap, c->n_pts + 1))
    return DCSIM_ERR(err, DCSIM_ENOMEM, c->f->conf->path, 0, "out of memory");
  point *pt = &c->pts[c->n_pts];
  memset(pt, 0, sizeof *pt);
  memcpy(pt->idx, idx, c->nk * sizeof *idx);
  if (!(pt->e = malloc((c->nm ? c->nm : 1) * sizeof *pt->e)))
    return DCSIM_ERR(err, DCSIM_ENOMEM, c->f->conf->path, 0, "out of memory");
  double v[DCSIM_WMS_N_PARAMS];
  for (size_t q = 0; q < c->nk; q++)
    v[c->ks[q]] = grid_value(&c->p->fit[c->ks[q]], c->ks[q], idx[q]);
  int rc = 0;
  for (size_t m = 0; m < c->nm && !rc; m++) {
    wmsfit_inst *in = &c->f->inst[c->mem[m]];
    double sim = 0;
    rc = simulate(in, c->ks, c->nk, v, &sim, err);
    pt->e[m] = log(sim / in->recorded_s);
    pt->sse += pt->e[m] * pt->e[m];
  }
  if (rc) {
    free(pt->e);
    return rc;
  }
  c->n_pts++;
  *out = pt;
  return 0;
}

/* The grid index nearest value v of parameter k (the start of the descent). */
static size_t nearest_index(const dcsim_wms_fit *g, int k, double v) {
  size_t best = 0;
  double bd = INFINITY;
  for (size_t i = 0; i < grid_size(g, k); i++) {
    double x = grid_value(g, k, i);
    double d =
        is_bps(k) ? (x > 0 && v > 0 ? fabs(log(x / v)) : (x == v ? 0 : INFINITY)) : fabs(x - v);
    if (d < bd) {
      bd = d;
      best = i;
    }
  }
  return best;
}

/* Coordinate descent from the description's values to a point no single coordinate improves. */
static int descend(fitctx *c, size_t *idx, dcsim_error *err) {
  const point *pt;
  int rc = 0;
  for (size_t q = 0; q < c->nk; q++)
    idx[q] = nearest_index(&c->p->fit[c->ks[q]], c->ks[q], c->p->p.v[c->ks[q]]);
  for (int round = 0, moved = 1; moved && round < WMSFIT_MAX_ROUNDS && !rc; round++) {
    moved = 0;
    for (size_t q = 0; q < c->nk && !rc; q++) {
      size_t try[DCSIM_WMS_N_PARAMS], best = idx[q];
      memcpy(try, idx, sizeof try);
      double bs = INFINITY;
      for (size_t i = 0; i < grid_size(&c->p->fit[c->ks[q]], c->ks[q]) && !rc; i++) {
        try[q] = i;
        if ((rc = eval_point(c, try, &pt, err))) break;
        if (pt->sse < bs) {
          bs = pt->sse;
          best = i;
        }
      }
      if (best != idx[q]) moved = 1;
      idx[q] = best;
    }
  }
  return rc;
}

/* The coordinate of parameter k's grid point i: ln(value) for bandwidths, else the value. */
static double coord(const dcsim_wms_fit *g, int k, size_t i) {
  double v = grid_value(g, k, i);
  return is_bps(k) ? log(v) : v;
}

/* Inverts the symmetric n x n matrix a in place (Gauss-Jordan); 0 when singular. */
static int invert(double *a, size_t n) {
  double inv[DCSIM_WMS_N_PARAMS * DCSIM_WMS_N_PARAMS] = { 0 };
  for (size_t i = 0; i < n; i++) inv[i * n + i] = 1;
  for (size_t col = 0; col < n; col++) {
    size_t piv = col;
    for (size_t r = col + 1; r < n; r++)
      if (fabs(a[r * n + col]) > fabs(a[piv * n + col])) piv = r;
    if (!(fabs(a[piv * n + col]) > 1e-12)) return 0;
    for (size_t k = 0; k < n; k++) {
      double t = a[col * n + k];
      a[col * n + k] = a[piv * n + k];
      a[piv * n + k] = t;
      t = inv[col * n + k];
      inv[col * n + k] = inv[piv * n + k];
      inv[piv * n + k] = t;
    }
    double d = a[col * n + col];
    for (size_t k = 0; k < n; k++) {
      a[col * n + k] /= d;
      inv[col * n + k] /= d;
    }
    for (size_t r = 0; r < n; r++) {
      if (r == col) continue;
      double m = a[r * n + col];
      for (size_t k = 0; k < n; k++) {
        a[r * n + k] -= m * a[col * n + k];
        inv[r * n + k] -= m * inv[col * n + k];
      }
    }
  }
  memcpy(a, inv, n * n * sizeof *a);
  return 1;
}

/* Standard errors at the optimum idx (wmsfit.h): J by differences over the neighbours. */
static int std_errors(fitctx *c, const size_t *idx, double sse, double *se, dcsim_error *err) {
  size_t nm = c->nm, use[DCSIM_WMS_N_PARAMS], nu = 0;
  double *J = calloc(nm * c->nk + 1, sizeof *J);
  int rc = 0;
  if (!J) return DCSIM_ERR(err, DCSIM_ENOMEM, c->f->conf->path, 0, "out of memory");
  for (size_t q = 0; q < c->nk; q++) se[c->ks[q]] = NAN;
  for (size_t q = 0; q < c->nk && !rc; q++) {
    const dcsim_wms_fit *g = &c->p->fit[c->ks[q]];
    size_t n = grid_size(g, c->ks[q]), lo = idx[q], hi = idx[q];
    size_t first = is_bps(c->ks[q]) ? 1 : 0; /* unlimited has no coordinate */
    if (idx[q] < first) continue;
    if (lo > first) lo--;
    if (hi + 1 < n) hi++;
    if (lo == hi) continue;
    size_t a[DCSIM_WMS_N_PARAMS], b[DCSIM_WMS_N_PARAMS];
    memcpy(a, idx, sizeof a);
    memcpy(b, idx, sizeof b);
    a[q] = lo;
    b[q] = hi;
    const point *pa, *pb;
    if ((rc = eval_point(c, a, &pa, err)) || (rc = eval_point(c, b, &pb, err))) break;
    double du = coord(g, c->ks[q], hi) - coord(g, c->ks[q], lo), norm = 0;
    for (size_t m = 0; m < nm; m++) {
      J[nu * nm + m] = (pb->e[m] - pa->e[m]) / du;
      norm += J[nu * nm + m] * J[nu * nm + m];
    }
    if (norm > 0) use[nu++] = q;
  }
  if (!rc && nu && nm > nu) {
    double A[DCSIM_WMS_N_PARAMS * DCSIM_WMS_N_PARAMS];
    for (size_t i = 0; i < nu; i++)
      for (size_t j = 0; j < nu; j++) {
        A[i * nu + j] = 0;
        for (size_t m = 0; m < nm; m++) A[i * nu + j] += J[i * nm + m] * J[j * nm + m];
      }
    double s2 = sse / (double)(nm - nu);
    if (invert(A, nu))
      for (size_t i = 0; i < nu; i++) {
        int k = c->ks[use[i]];
        double sd = sqrt(s2 * A[i * nu + i]);
        se[k] = is_bps(k) ? grid_value(&c->p->fit[k], k, idx[use[i]]) * sd : sd;
      }
  }
  free(J);
  return rc;
}

/* Fit of profile k on all its instances. */
static int fit_profile(wmsfit *f, size_t k, dcsim_error *err) {
  fitctx c;
  memset(&c, 0, sizeof c);
  c.f = f;
  c.p = &f->conf->profiles[k];
  c.mem = calloc(f->n + 1, sizeof *c.mem);
  int rc = 0;
  if (!c.mem) return DCSIM_ERR(err, DCSIM_ENOMEM, f->conf->path, 0, "out of memory");
  for (size_t i = 0; i < f->n; i++)
    if (f->inst[i].profile == k) c.mem[c.nm++] = i;
  size_t idx[DCSIM_WMS_N_PARAMS] = { 0 };
  if (grid_of(c.p, c.ks, &c.nk) && c.nm) {
    const point *pt = NULL;
    if (!(rc = descend(&c, idx, err)) && !(rc = eval_point(&c, idx, &pt, err))) {
      double sse = pt->sse;
      f->fitted[k] = 1;
      f->members[k] = c.nm;
      for (size_t q = 0; q < c.nk; q++)
        f->fit_v[k][c.ks[q]] = grid_value(&c.p->fit[c.ks[q]], c.ks[q], idx[q]);
      for (size_t m = 0; m < c.nm; m++)
        f->inst[c.mem[m]].fit_s = exp(pt->e[m]) * f->inst[c.mem[m]].recorded_s;
      rc = std_errors(&c, idx, sse, f->fit_se[k], err);
    }
    f->evaluations[k] = c.n_pts;
  }
  for (size_t i = 0; i < c.n_pts; i++) free(c.pts[i].e);
  free(c.pts);
  free(c.mem);
  return rc;
}

int wmsfit_predict(wmsfit *f, dcsim_error *err) {
  int ks[DCSIM_WMS_N_PARAMS], rc = 0;
  for (size_t i = 0; i < f->n && !rc; i++) {
    wmsfit_inst *in = &f->inst[i];
    const dcsim_wms_profile *p = &f->conf->profiles[in->profile];
    size_t nk;
    grid_of(p, ks, &nk);
    rc = simulate(in, ks, nk, p->p.v, &in->file_s, err);
    in->fit_s = in->file_s; /* profiles without fitted parameters */
  }
  return rc;
}

int wmsfit_fit(wmsfit *f, dcsim_error *err) {
  int rc = 0;
  for (size_t k = 0; k < f->conf->n_profiles && !rc; k++) rc = fit_profile(f, k, err);
  return rc;
}

int wmsfit_apply(const wmsfit *from, wmsfit *to, dcsim_error *err) {
  int ks[DCSIM_WMS_N_PARAMS], rc = 0;
  for (size_t i = 0; i < to->n && !rc; i++) {
    wmsfit_inst *in = &to->inst[i];
    size_t k = in->profile, nk;
    if (k >= from->conf->n_profiles || !from->fitted[k] ||
        strcmp(from->conf->profiles[k].name, to->conf->profiles[k].name) != 0)
      continue;
    grid_of(&to->conf->profiles[k], ks, &nk);
    rc = simulate(in, ks, nk, from->fit_v[k], &in->fit_s, err);
  }
  return rc;
}

/* ---- reports ---- */

double wmsfit_rel(double sim, double rec) { return sim / rec - 1; }

size_t wmsfit_family_len(const char *path) {
  const char *b = wmsfit_base(path), *dash = strchr(b, '-');
  return dash ? (size_t)(dash - b) : strlen(b);
}

static int cmp_dbl(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double wmsfit_quantile(const double *a, size_t n, double q) {
  if (!n) return NAN;
  size_t r = (size_t)ceil(q * (double)n); /* nearest rank */
  return a[(r ? r : 1) - 1];
}

static double sim_of(const wmsfit_inst *in, int fit) { return fit ? in->fit_s : in->file_s; }

size_t wmsfit_abs_errors(const wmsfit *f, int fit, const char *prefix, double *e) {
  size_t n = 0;
  for (size_t i = 0; i < f->n; i++) {
    const dcsim_wms_profile *p = &f->conf->profiles[f->inst[i].profile];
    if (prefix && strcmp(p->version_prefix, prefix) != 0) continue;
    e[n++] = fabs(wmsfit_rel(sim_of(&f->inst[i], fit), f->inst[i].recorded_s));
  }
  qsort(e, n, sizeof *e, cmp_dbl);
  return n;
}

size_t wmsfit_log_errors(const wmsfit *f, int fit, const char *prefix, double *e) {
  size_t n = 0;
  for (size_t i = 0; i < f->n; i++) {
    const dcsim_wms_profile *p = &f->conf->profiles[f->inst[i].profile];
    if (prefix && strcmp(p->version_prefix, prefix) != 0) continue;
    e[n++] = fabs(log(sim_of(&f->inst[i], fit) / f->inst[i].recorded_s));
  }
  qsort(e, n, sizeof *e, cmp_dbl);
  return n;
}

static void print_se(double se) {
  if (isnan(se))
    printf(" none |");
  else
    printf(" %.3g |", se);
}

void wmsfit_print_values(const wmsfit *f, int *same) {
  printf(
      "| profile | parameter | fit | standard error | instances | in %s |\n"
      "|---|---|---|---|---|---|\n",
      wmsfit_base(f->conf->path));
  *same = 1;
  for (size_t k = 0; k < f->conf->n_profiles; k++) {
    const dcsim_wms_profile *p = &f->conf->profiles[k];
    for (int q = 0; q < DCSIM_WMS_N_PARAMS; q++) {
      if (!p->fit[q].steps) continue;
      if (!f->fitted[k]) {
        printf("| %s | %s | (no instance) | | 0 | %.6g |\n", p->name,
               dcsim_wms_param_name((dcsim_wms_param)q), p->p.v[q]);
        continue;
      }
      double fv = f->fit_v[k][q], v = p->p.v[q];
      if (fabs(fv - v) > 1e-6 * fmax(fabs(fv), 1e-12)) *same = 0;
      printf("| %s | %s | %.6g |", p->name, dcsim_wms_param_name((dcsim_wms_param)q), fv);
      print_se(f->fit_se[k][q]);
      printf(" %zu | %.6g |\n", f->members[k], v);
    }
  }
}

void wmsfit_print_instances(const wmsfit *f, int fit) {
  printf("| instance | profile | recorded [s] | model [s] | error |\n|---|---|---|---|---|\n");
  for (size_t i = 0; i < f->n; i++) {
    const wmsfit_inst *in = &f->inst[i];
    printf("| %s | %s | %.0f | %.1f | %+.1f %% |\n", wmsfit_base(in->path),
           f->conf->profiles[in->profile].name, in->recorded_s, sim_of(in, fit),
           100 * wmsfit_rel(sim_of(in, fit), in->recorded_s));
  }
}

void wmsfit_print_groups(const wmsfit *f, int fit) {
  printf(
      "| family | profile | instances | median error | median abs | P90 abs | worst abs |\n"
      "|---|---|---|---|---|---|---|\n");
  double *e = malloc((f->n + 1) * sizeof *e), *a = malloc((f->n + 1) * sizeof *a);
  char *done = calloc(f->n + 1, 1);
  for (size_t i = 0; e && a && done && i < f->n; i++) {
    if (done[i]) continue;
    const char *b = wmsfit_base(f->inst[i].path);
    size_t len = wmsfit_family_len(b), n = 0;
    for (size_t k = i; k < f->n; k++) {
      const char *c = wmsfit_base(f->inst[k].path);
      if (done[k] || wmsfit_family_len(c) != len || strncmp(c, b, len) != 0 ||
          f->inst[k].profile != f->inst[i].profile)
        continue;
      done[k] = 1;
      e[n] = wmsfit_rel(sim_of(&f->inst[k], fit), f->inst[k].recorded_s);
      a[n] = fabs(e[n]);
      n++;
    }
    qsort(e, n, sizeof *e, cmp_dbl);
    qsort(a, n, sizeof *a, cmp_dbl);
    double med = n % 2 ? e[n / 2] : 0.5 * (e[n / 2 - 1] + e[n / 2]);
    double amed = n % 2 ? a[n / 2] : 0.5 * (a[n / 2 - 1] + a[n / 2]);
    printf("| %.*s | %s | %zu | %+.1f %% | %.1f %% | %.1f %% | %.1f %% |\n", (int)len, b,
           f->conf->profiles[f->inst[i].profile].name, n, 100 * med, 100 * amed,
           100 * wmsfit_quantile(a, n, 0.9), 100 * a[n - 1]);
  }
  free(e);
  free(a);
  free(done);
}

size_t wmsfit_bands(const wmsfit *f, wmsfit_band *out, size_t max) {
  double *e = malloc((f->n + 1) * sizeof *e);
  size_t nb = 0;
  for (size_t k = 0; e && k < f->conf->n_profiles && nb < max; k++) {
    const dcsim_wms_profile *p = &f->conf->profiles[k];
    int seen = 0;
    for (size_t i = 0; i < nb; i++)
      seen |= strcmp(out[i].prefix, p->version_prefix) == 0 &&
              strcmp(out[i].system, p->runtime_system) == 0;
    size_t n = wmsfit_abs_errors(f, 1, p->version_prefix, e);
    if (seen || !n) continue;
    wmsfit_band *b = &out[nb++];
    b->system = p->runtime_system;
    b->prefix = p->version_prefix;
    b->n = n;
    b->median_abs = wmsfit_quantile(e, n, 0.5);
    b->p90_abs = wmsfit_quantile(e, n, 0.9);
    wmsfit_log_errors(f, 1, p->version_prefix, e);
    b->band = round(1000 * (exp(wmsfit_quantile(e, n, 0.9)) - 1)) / 1000;
  }
  free(e);
  return nb;
}

static void record_instances(FILE *o, const wmsfit *f, const char *share) {
  for (size_t i = 0; i < f->n; i++) {
    const wmsfit_inst *in = &f->inst[i];
    fprintf(o, "instance\t%s\t%s\t%s\t%.0f\t%.1f\t%+.4f\n", wmsfit_base(in->path), share,
            f->conf->profiles[in->profile].name, in->recorded_s, in->fit_s,
            wmsfit_rel(in->fit_s, in->recorded_s));
  }
}

void wmsfit_write_record(FILE *o, const wmsfit *fit, const wmsfit *test) {
  fprintf(o, "kind\tprofile\tparameter\tvalue\tstandard_error\tn_instances\tinstances\n");
  for (size_t k = 0; k < fit->conf->n_profiles; k++) {
    const dcsim_wms_profile *p = &fit->conf->profiles[k];
    if (!fit->fitted[k]) continue;
    for (int q = 0; q < DCSIM_WMS_N_PARAMS; q++) {
      if (!p->fit[q].steps) continue;
      fprintf(o, "param\t%s\t%s\t%.6g\t", p->name, dcsim_wms_param_name((dcsim_wms_param)q),
              fit->fit_v[k][q]);
      if (isnan(fit->fit_se[k][q]))
        fprintf(o, "none");
      else
        fprintf(o, "%.3g", fit->fit_se[k][q]);
      fprintf(o, "\t%zu\t", fit->members[k]);
      for (size_t i = 0, first = 1; i < fit->n; i++)
        if (fit->inst[i].profile == k) {
          fprintf(o, "%s%s", first ? "" : ",", wmsfit_base(fit->inst[i].path));
          first = 0;
        }
      fprintf(o, "\n");
    }
  }
  fprintf(o, "kind\tfile\tshare\tprofile\trecorded_s\tsimulated_s\terror\n");
  record_instances(o, fit, "fit");
  if (!test) return;
  record_instances(o, test, "test");
  wmsfit_band b[16];
  size_t nb = wmsfit_bands(test, b, 16);
  fprintf(o,
          "kind\truntime_system\tversion_prefix\ttest_instances\tmedian_abs_error\t"
          "p90_abs_error\tband\n");
  for (size_t i = 0; i < nb; i++)
    fprintf(o, "band\t%s\t%s\t%zu\t%.4f\t%.4f\t%.3f\n", b[i].system, b[i].prefix, b[i].n,
            b[i].median_abs, b[i].p90_abs, b[i].band);
}
