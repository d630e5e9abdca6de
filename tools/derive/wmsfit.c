/* wmsfit.c — fitting a WMS description on recorded instances, with leave-one-out (see wmsfit.h). */
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
  free(f->fitted);
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
  f->fitted = calloc(f->conf ? f->conf->n_profiles : 1, sizeof *f->fitted);
  if (!rc && (!f->inst || !f->fit_v || !f->fitted))
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

/* Grid point g of profile p into v (mixed radix, the first fitted parameter slowest). */
static void grid_point(const dcsim_wms_profile *p, const int *ks, size_t nk, size_t g, double *v) {
  for (size_t q = nk; q-- > 0;) {
    size_t m = grid_size(&p->fit[ks[q]], ks[q]);
    v[ks[q]] = grid_value(&p->fit[ks[q]], ks[q], g % m);
    g /= m;
  }
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

/* The grid point of least sum of squared log errors over the members except `skip`. */
static size_t best_point(const double *e, size_t npts, const size_t *mem, size_t nm, size_t skip) {
  size_t best = 0;
  double bs = INFINITY;
  for (size_t g = 0; g < npts; g++) {
    double sum = 0;
    for (size_t m = 0; m < nm; m++)
      if (mem[m] != skip) sum += fabs(e[g * nm + m]);
    if (sum < bs) {
      bs = sum;
      best = g;
    }
  }
  return best;
}

/* Fit of profile k: log errors of every member at every grid point, then the best points. */
static int fit_profile(wmsfit *f, size_t k, int loo, dcsim_error *err) {
  const dcsim_wms_profile *p = &f->conf->profiles[k];
  int ks[DCSIM_WMS_N_PARAMS];
  size_t nk, npts = grid_of(p, ks, &nk), nm = 0, *mem = calloc(f->n + 1, sizeof *mem);
  double v[DCSIM_WMS_N_PARAMS], *e = NULL;
  int rc = 0;
  for (size_t i = 0; mem && i < f->n; i++)
    if (f->inst[i].profile == k) mem[nm++] = i;
  if (!mem || !npts || !nm) goto out;
  if (!(e = malloc(npts * nm * sizeof *e))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, f->conf->path, 0, "out of memory");
    goto out;
  }
  for (size_t g = 0; g < npts && !rc; g++) {
    grid_point(p, ks, nk, g, v);
    for (size_t m = 0; m < nm && !rc; m++) {
      double sim = 0;
      rc = simulate(&f->inst[mem[m]], ks, nk, v, &sim, err);
      e[g * nm + m] = log(sim / f->inst[mem[m]].recorded_s);
    }
  }
  if (rc) goto out;
  f->fitted[k] = 1;
  grid_point(p, ks, nk, best_point(e, npts, mem, nm, SIZE_MAX), f->fit_v[k]);
  for (size_t m = 0; m < nm && !rc; m++) {
    wmsfit_inst *in = &f->inst[mem[m]];
    in->fit_s = exp(e[best_point(e, npts, mem, nm, SIZE_MAX) * nm + m]) * in->recorded_s;
    if (!loo) continue;
    size_t g = best_point(e, npts, mem, nm, nm > 1 ? mem[m] : SIZE_MAX);
    if (nm == 1) g = 0; /* nobody else: the least-overhead point */
    in->loo_refit = nm > 1;
    grid_point(p, ks, nk, g, in->loo_v);
    in->loo_s = exp(e[g * nm + m]) * in->recorded_s;
  }
out:
  free(e);
  free(mem);
  return rc;
}

/* Every instance with the values of the description as written. */
static int simulate_file(wmsfit *f, dcsim_error *err) {
  int ks[DCSIM_WMS_N_PARAMS], rc = 0;
  for (size_t i = 0; i < f->n && !rc; i++) {
    wmsfit_inst *in = &f->inst[i];
    const dcsim_wms_profile *p = &f->conf->profiles[in->profile];
    size_t nk;
    grid_of(p, ks, &nk);
    rc = simulate(in, ks, nk, p->p.v, &in->file_s, err);
    in->fit_s = in->loo_s = in->file_s; /* profiles without fitted parameters */
  }
  return rc;
}

int wmsfit_run(wmsfit *f, int loo, dcsim_error *err) {
  int rc = simulate_file(f, err);
  for (size_t k = 0; k < f->conf->n_profiles && !rc; k++) rc = fit_profile(f, k, loo, err);
  return rc;
}

/* ---- reports ---- */

double wmsfit_rel(double sim, double rec) { return sim / rec - 1; }

/* The fitted parameters: the fit's value and the file's; *same = 0 when one differs. */
void wmsfit_print_values(const wmsfit *f, int *same) {
  printf("| profile | parameter | fit | in %s |\n|---|---|---|---|\n", wmsfit_base(f->conf->path));
  *same = 1;
  for (size_t k = 0; k < f->conf->n_profiles; k++) {
    const dcsim_wms_profile *p = &f->conf->profiles[k];
    for (int q = 0; q < DCSIM_WMS_N_PARAMS; q++) {
      if (!p->fit[q].steps) continue;
      if (!f->fitted[k]) {
        printf("| %s | %s | (no instance) | %.6g |\n", p->name,
               dcsim_wms_param_name((dcsim_wms_param)q), p->p.v[q]);
        continue;
      }
      double fv = f->fit_v[k][q], v = p->p.v[q];
      if (fabs(fv - v) > 1e-6 * fmax(fabs(fv), 1e-12)) *same = 0;
      printf("| %s | %s | %.6g | %.6g |\n", p->name, dcsim_wms_param_name((dcsim_wms_param)q), fv,
             v);
    }
  }
}

/* Mean and worst |error| and the count within 15 % of sim[i] against the records. */
static void summary(const char *what, const wmsfit *f, int loo) {
  double sum = 0, worst = -1;
  size_t within = 0, wi = 0;
  for (size_t i = 0; i < f->n; i++) {
    double e = fabs(wmsfit_rel(loo ? f->inst[i].loo_s : f->inst[i].fit_s, f->inst[i].recorded_s));
    sum += e;
    within += e <= 0.15;
    if (e > worst) {
      worst = e;
      wi = i;
    }
  }
  printf("%s: mean |error| %.1f %%, worst %.1f %% (%s); within 15 %%: %zu of %zu.\n", what,
         100 * sum / (double)f->n, 100 * worst, wmsfit_base(f->inst[wi].path), within, f->n);
}

void wmsfit_print_fit(const wmsfit *f) {
  printf(
      "\n| instance | profile | recorded [s] | fitted model [s] | error | leave-one-out [s] "
      "| error | leave-one-out values |\n|---|---|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < f->n; i++) {
    const wmsfit_inst *in = &f->inst[i];
    const dcsim_wms_profile *p = &f->conf->profiles[in->profile];
    char vals[512] = "";
    size_t pos = 0;
    for (int q = 0; q < DCSIM_WMS_N_PARAMS && pos < sizeof vals - 80; q++)
      if (p->fit[q].steps && is_bps(q) && in->loo_v[q] == 0)
        pos += (size_t)snprintf(vals + pos, sizeof vals - pos, "%s%s unlimited", pos ? ", " : "",
                                dcsim_wms_param_name((dcsim_wms_param)q));
      else if (p->fit[q].steps)
        pos += (size_t)snprintf(vals + pos, sizeof vals - pos, "%s%s %.3g", pos ? ", " : "",
                                dcsim_wms_param_name((dcsim_wms_param)q), in->loo_v[q]);
    printf("| %s | %s | %.0f | %.1f | %+.1f %% | %.1f | %+.1f %% | %s%s |\n", wmsfit_base(in->path),
           p->name, in->recorded_s, in->fit_s, 100 * wmsfit_rel(in->fit_s, in->recorded_s),
           in->loo_s, 100 * wmsfit_rel(in->loo_s, in->recorded_s), vals,
           in->loo_refit ? "" : " (no other instance of its profile)");
  }
  printf("\n");
  summary("Fitted model", f, 0);
  printf("\n");
  summary("Leave-one-out", f, 1);
}
