/* realcode_model.c — the real codes' rows, predictions and fit (see realcode_model.h and
 * tools/derive/realcode.c). */
#include "realcode_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "calib/internal.h"
#include "dcsim/catalog.h"
#include "dcsim/fit.h"
#include "dcsim/model.h"
#include "dcsim/strutil.h"
#include "toolutil.h"
#include "util/xmledit.h"

#define MAX_BIND 8

const char *const RC_CODES[4] = { "ectrans-global", "ectrans-lam", "cloudsc", "cloudsc-c" };

static const char *cell(const dcsim_csv_t *t, size_t r, const char *col) {
  size_t c;
  dcsim_error e;
  if (dcsim__csv_col(t, col, &c, &e)) return "";
  return dcsim__csv_cell(t, r, c);
}

int rc_is_gpu_variant(const char *v) { return dcsim__realcode_gpu_variant(v); }

/* one measurements.csv: its rows appended to c->rows */
static int load_rows(rc_ctx *c, rc_machine *m, dcsim_error *err) {
  if (dcsim__csv_load(m->path, &m->rows, err)) return -1;
  size_t col;
  static const char *const need[] = { "code",         "threads", "cpu_s_min",
                                      "cpu_s_median", "role",    "variant" };
  for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
    if (dcsim__csv_col(m->rows, need[i], &col, err)) return -1;
  for (size_t r = 0; r < dcsim__csv_rows(m->rows); r++) {
    if (c->n_rows == RC_MAX_ROWS)
      return DCSIM_ERR(err, DCSIM_ERANGE, m->path, dcsim__csv_line(m->rows, r), "more than %d rows",
                       RC_MAX_ROWS);
    rc_row *w = &c->rows[c->n_rows];
    w->m = m;
    w->r = r;
    w->code = cell(m->rows, r, "code");
    w->variant = cell(m->rows, r, "variant");
    w->dwarf = dcsim__realcode_dwarf(w->code, w->variant);
    const char *role = cell(m->rows, r, "role");
    if (strcmp(role, "fit") && strcmp(role, "test"))
      return DCSIM_ERR(err, DCSIM_EPARSE, m->path, dcsim__csv_line(m->rows, r),
                       "role '%s': fit or test", role);
    w->fit = strcmp(role, "fit") == 0;
    const char *ct = cell(m->rows, r, "contended");
    w->contended = !strcasecmp(ct, "yes") || !strcmp(ct, "1") || !strcasecmp(ct, "true");
    double th, cpu;
    if (dcsim__csv_col(m->rows, "threads", &col, err) ||
        dcsim__csv_num(m->rows, r, col, &th, err) ||
        dcsim__csv_col(m->rows, "cpu_s_min", &col, err) ||
        dcsim__csv_num(m->rows, r, col, &cpu, err))
      return -1;
    if (!(th >= 1 && th <= 4096 && th == floor(th)) || !(cpu > 0))
      return DCSIM_ERR(err, DCSIM_ERANGE, m->path, dcsim__csv_line(m->rows, r),
                       "threads %g and cpu_s_min %g: a positive thread count and time", th, cpu);
    w->threads = (unsigned)th;
    w->measured_s = cpu / th;
    double med;
    if (dcsim__csv_col(m->rows, "cpu_s_median", &col, err) ||
        dcsim__csv_num(m->rows, r, col, &med, err))
      return -1;
    w->median_s = med / th;
    c->n_rows++;
  }
  return 0;
}

/* A profile named by the manifest (a path relative to it or a catalogue name) at ghz_cell's clock;
 * an empty cell: the profile's first frequency state, the clock `dcsim bench` measured */
static int load_profile(const char *manifest, int line, const char *ref, const char *ghz_cell,
                        dcsim_cpu_profile_t **cpu, double *ghz, dcsim_error *err) {
  char *path = NULL;
  int rc = dcsim_catalog_find(DCSIM_KIND_CPU, ref, manifest, line, &path, err);
  if (!rc) rc = dcsim_cpu_profile_load(path, cpu, err);
  free(path);
  if (rc) return -1;
  if (*ghz_cell) {
    char *end;
    *ghz = strtod(ghz_cell, &end);
    if (*end || !(*ghz > 0))
      return DCSIM_ERR(err, DCSIM_EPARSE, manifest, line, "clock '%s': a positive GHz value",
                       ghz_cell);
    return 0;
  }
  dcsim_cpu_state st;
  if (dcsim_cpu_profile_freq_at(*cpu, 0, &st))
    return DCSIM_ERR(err, DCSIM_EREF, path, 0, "profile has no frequency state");
  *ghz = st.ghz;
  return 0;
}

static const char *opt_cell(const dcsim_csv_t *t, size_t r, const char *col) {
  size_t c;
  dcsim_error e;
  return dcsim__csv_col(t, col, &c, &e) ? "" : dcsim__csv_cell(t, r, c);
}

/* the optional columns catalogue_cpu, catalogue_ghz and check_profiles of one machine */
static int load_other_profiles(rc_machine *m, const dcsim_csv_t *t, size_t r, const char *manifest,
                               dcsim_error *err) {
  int line = dcsim__csv_line(t, r);
  const char *cat = opt_cell(t, r, "catalogue_cpu"), *cg = opt_cell(t, r, "catalogue_ghz");
  if (dcsim_bufprintf(m->cat_cpu, sizeof m->cat_cpu, "%s", cat))
    return DCSIM_ERR(err, DCSIM_ERANGE, manifest, line, "catalogue_cpu too long");
  if (*cat) {
    char *end;
    m->cat_ghz = strtod(cg, &end);
    if (!*cg || *end || !(m->cat_ghz > 0))
      return DCSIM_ERR(err, DCSIM_EPARSE, manifest, line,
                       "catalogue_ghz '%s': the clock of catalogue_cpu, a positive GHz value", cg);
  }
  const char *s = opt_cell(t, r, "check_profiles");
  while (*s) {
    size_t n = strcspn(s, " ");
    if (n) {
      if (m->n_check == RC_MAX_CHECK || n >= sizeof m->check[0])
        return DCSIM_ERR(err, DCSIM_ERANGE, manifest, line,
                         "check_profiles: at most %d paths of at most %zu characters", RC_MAX_CHECK,
                         sizeof m->check[0] - 1);
      memcpy(m->check[m->n_check], s, n);
      m->check[m->n_check++][n] = 0;
    }
    s += n + (s[n] == ' ');
  }
  return 0;
}

int rc_ctx_load(rc_ctx *c, const char *manifest, dcsim_error *err) {
  dcsim_csv_t *t = NULL;
  int rc = -1;
  size_t cm, cc, cg;
  if (dcsim_bufprintf(c->manifest, sizeof c->manifest, "%s", manifest))
    return DCSIM_ERR(err, DCSIM_ERANGE, manifest, 0, "path too long");
  if (dcsim__csv_load(manifest, &t, err) || dcsim__csv_col(t, "machine", &cm, err) ||
      dcsim__csv_col(t, "cpu", &cc, err) || dcsim__csv_col(t, "ghz", &cg, err))
    goto out;
  for (size_t r = 0; r < dcsim__csv_rows(t); r++) {
    if (c->n_m == RC_MAX_MACHINES) {
      rc = DCSIM_ERR(err, DCSIM_ERANGE, manifest, dcsim__csv_line(t, r), "too many machines");
      goto out;
    }
    rc_machine *m = &c->m[c->n_m++];
    if (dcsim_bufprintf(m->name, sizeof m->name, "%s", dcsim__csv_cell(t, r, cm)) ||
        dcsim_bufprintf(m->cpu_name, sizeof m->cpu_name, "%s", dcsim__csv_cell(t, r, cc))) {
      rc = DCSIM_ERR(err, DCSIM_ERANGE, manifest, dcsim__csv_line(t, r), "name too long");
      goto out;
    }
    m->line = dcsim__csv_line(t, r);
    if (load_profile(manifest, dcsim__csv_line(t, r), m->cpu_name, dcsim__csv_cell(t, r, cg),
                     &m->cpu, &m->ghz, err) ||
        load_other_profiles(m, t, r, manifest, err))
      goto out;
    char rel[200];
    if (dcsim_bufprintf(rel, sizeof rel, "%s/measurements.csv", m->name)) goto out;
    char *p = dcsim_path_join(manifest, rel);
    if (!p || dcsim_bufprintf(m->path, sizeof m->path, "%s", p)) {
      free(p);
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, manifest, 0, "path");
      goto out;
    }
    free(p);
    if (load_rows(c, m, err)) goto out;
  }
  rc = dcsim_bands_load_default(&c->bands, err);
out:
  dcsim__csv_free(t);
  return rc;
}

int rc_ctx_profile(const rc_ctx *c, int which, rc_ctx *b, dcsim_error *err) {
  memset(b, 0, sizeof *b);
  b->bands = c->bands;
  for (size_t i = 0; i < c->n_m; i++) {
    const rc_machine *o = &c->m[i];
    const char *ref = which == RC_PROFILE_CATALOGUE ? o->cat_cpu
                      : (size_t)which < o->n_check  ? o->check[which]
                                                    : "";
    if (!*ref) continue;
    rc_machine *m = &b->m[b->n_m];
    *m = *o;
    m->cpu = NULL;
    char ghz[32] = "";
    if (which == RC_PROFILE_CATALOGUE) snprintf(ghz, sizeof ghz, "%.17g", o->cat_ghz);
    snprintf(m->cpu_name, sizeof m->cpu_name, "%s", ref);
    b->n_m++; /* rc_ctx_profile_free frees its profile even when loading it fails */
    if (load_profile(c->manifest, o->line, ref, ghz, &m->cpu, &m->ghz, err)) return -1;
    for (size_t r = 0; r < c->n_rows; r++)
      if (c->rows[r].m == o) {
        b->rows[b->n_rows] = c->rows[r];
        b->rows[b->n_rows++].m = m;
      }
  }
  return 0;
}

void rc_ctx_profile_free(rc_ctx *b) {
  for (size_t i = 0; i < b->n_m; i++) dcsim_cpu_profile_free(b->m[i].cpu);
}

void rc_ctx_free(rc_ctx *c) {
  for (size_t i = 0; i < c->n_m; i++) {
    dcsim_cpu_profile_free(c->m[i].cpu);
    dcsim__csv_free(c->m[i].rows);
  }
  dcsim_bands_free(c->bands);
}

static int bindings(const dcsim_dwarf_t *d, const rc_row *w, dcsim_binding *b, size_t *n,
                    dcsim_error *err) {
  return dcsim__realcode_bindings(d, w->m->rows, w->r, w->m->path, b, MAX_BIND, n, err);
}

/* Which coefficient of each loop is fitted, as the file says ("the file says which"):
 * the <flop U> whose source starts with "fitted", else the <mop Z> whose source does; 0 when
 * neither (the loop is counted with the file's coefficients). */
int rc_fitted_terms(const dcsim_dwarf_t *d, char *kind, size_t *n, dcsim_error *err) {
  xmlDoc *doc = NULL;
  if (dcsim__xml_edit_open(dcsim_dwarf_path(d), &doc, err)) return -1;
  *n = 0;
  for (xmlNode *x = xmlDocGetRootElement(doc)->children; x; x = x->next) {
    if (x->type != XML_ELEMENT_NODE || xmlStrcmp(x->name, BAD_CAST "loops")) continue;
    for (xmlNode *lp = x->children; lp; lp = lp->next) {
      if (lp->type != XML_ELEMENT_NODE) continue;
      if (*n == RC_MAX_LOOPS) break;
      char k = 0;
      for (xmlNode *y = lp->children; y; y = y->next) {
        if (y->type != XML_ELEMENT_NODE) continue;
        xmlChar *src = xmlGetProp(y, BAD_CAST "source");
        int fitted = src && !strncmp((const char *)src, "fitted", 6);
        xmlFree(src);
        if (fitted && !xmlStrcmp(y->name, BAD_CAST "flop")) k = 'U';
        if (fitted && !xmlStrcmp(y->name, BAD_CAST "mop") && !k) k = 'Z';
      }
      kind[(*n)++] = k;
    }
  }
  xmlFreeDoc(doc);
  return 0;
}

/* The model of one row: its time, its band (as dcsim model prints it) and, per loop, the loop's
 * time with its fitted coefficient set to 1 (x). coef (NULL: the file's) replaces the fitted
 * coefficients. */
int rc_predict(const rc_ctx *c, const dcsim_dwarf_t *d, const rc_row *w, const double *coef,
               double *x, size_t *n_loops, rc_pred *out, dcsim_error *err) {
  char kind[RC_MAX_LOOPS];
  size_t nk;
  if (rc_fitted_terms(d, kind, &nk, err)) return -1;
  dcsim_binding b[MAX_BIND];
  size_t nb;
  dcsim_dwarf_eval *ev = NULL, *ev1 = NULL;
  dcsim_prediction p = { 0 }, p1 = { 0 };
  int rc = -1;
  if (bindings(d, w, b, &nb, err) || dcsim_dwarf_evaluate(d, NULL, b, nb, &ev, err) ||
      dcsim_dwarf_evaluate(d, NULL, b, nb, &ev1, err))
    goto out;
  if (ev->n_loops > RC_MAX_LOOPS) {
    rc = DCSIM_ERR(err, DCSIM_ERANGE, dcsim_dwarf_path(d), 0, "more than %d loops", RC_MAX_LOOPS);
    goto out;
  }
  *n_loops = ev->n_loops;
  if (nk != ev->n_loops) {
    rc = DCSIM_ERR(err, DCSIM_EPARSE, dcsim_dwarf_path(d), 0, "loops of the file and of the dwarf");
    goto out;
  }
  for (size_t k = 0; k < ev->n_loops; k++) {
    dcsim_cpu_loop *l = &ev->loops[k], *l1 = &ev1->loops[k];
    if (kind[k] == 'U') {
      l1->U = 1, l1->S_flops = 0;
      if (coef) l->U = coef[k], l->S_flops = 0;
    } else if (kind[k] == 'Z') {
      if (l->V > 0 || l->X > 0 || l->Y > 0 || l->irregular) {
        rc = DCSIM_ERR(err, DCSIM_EPARSE, dcsim_dwarf_path(d), 0,
                       "loop %s: a fitted memory loop uses DRAM only (mop Z)", l->name);
        goto out;
      }
      l1->Z = 1;
      if (coef) l->Z = coef[k];
    }
  }
  dcsim_model_req rq = { 0 };
  rq.cpu = w->m->cpu;
  rq.nodes = 1;
  rq.state.ghz = w->m->ghz;
  rq.state.threads = w->threads;
  rq.energy_form = DCSIM_ENERGY_NONE;
  rq.ev = ev;
  if (dcsim_model_run(&rq, &p, err)) goto out;
  rq.ev = ev1;
  if (dcsim_model_run(&rq, &p1, err)) goto out;
  out->fixed_s = 0;
  out->unbound = 0;
  out->flop_bound_s = out->mem_bound_s = 0;
  for (size_t k = 0; k < ev->n_loops; k++) {
    if (p.cpu->parts[k].compute_bound)
      out->flop_bound_s += p.cpu->parts[k].time_s;
    else
      out->mem_bound_s += p.cpu->parts[k].time_s;
    const dcsim_loop_part *q = &p1.cpu->parts[k];
    /* the fitted term's time at coefficient 1; a loop without one is counted as it is */
    if (x) x[k] = kind[k] == 'U' ? q->flop_time_s : kind[k] == 'Z' ? q->mem_time_s : 0;
    out->fixed_s += kind[k] ? 0 : p.cpu->parts[k].time_s;
    /* a fitted term that does not bind (the loop's other, counted term is longer) */
    const dcsim_loop_part *f = &p.cpu->parts[k];
    if (kind[k] &&
        (kind[k] == 'U' ? f->mem_time_s > f->flop_time_s : f->flop_time_s > f->mem_time_s))
      out->unbound++;
  }
  out->time_s = p.time_s;
  out->kind = p.time_prov.kind;
  out->transferred = dcsim_bands_cpu_transferred(w->m->cpu);
  dcsim_bands_apply(c->bands, 1 + out->transferred, 0, p.time_prov.kind, p.time_prov.kind, p.time_s,
                    0, out->band, NULL);
  rc = 0;
out:
  dcsim_prediction_release(&p);
  dcsim_prediction_release(&p1);
  dcsim_dwarf_eval_free(ev);
  dcsim_dwarf_eval_free(ev1);
  return rc;
}

/* The file's fitted coefficients (the default case's loops: they are constants). */
int rc_file_coefs(const dcsim_dwarf_t *d, double *coef, size_t *n, dcsim_error *err) {
  dcsim_dwarf_eval *ev = NULL;
  char kind[RC_MAX_LOOPS];
  size_t nk;
  if (rc_fitted_terms(d, kind, &nk, err) || dcsim_dwarf_evaluate(d, "default", NULL, 0, &ev, err))
    return -1;
  *n = ev->n_loops < nk ? ev->n_loops : nk;
  for (size_t k = 0; k < *n; k++)
    coef[k] = kind[k] == 'U' ? ev->loops[k].U : kind[k] == 'Z' ? ev->loops[k].Z : 0;
  dcsim_dwarf_eval_free(ev);
  return 0;
}

/* The fit of one dwarf on its role=fit rows: T = fixed + sum_k a_k x_k over the fitted loops
 * (rc_fitted_terms), minimising the relative errors sum ((T - measured) / measured)^2 with a >= 0;
 * coef[k] = 1 / a_k (0 for a loop that is not fitted). */
int rc_fit(const rc_ctx *c, const dcsim_dwarf_t *d, double *coef, size_t *n_loops, size_t *n_fit,
           dcsim_error *err) {
  static double A[RC_MAX_ROWS * RC_MAX_LOOPS], bv[RC_MAX_ROWS];
  unsigned char nonneg[RC_MAX_LOOPS];
  double a[RC_MAX_LOOPS];
  char kind[RC_MAX_LOOPS];
  size_t n = 0, nk, col[RC_MAX_LOOPS], nc = 0;
  if (rc_fitted_terms(d, kind, &nk, err)) return -1;
  for (size_t k = 0; k < nk; k++)
    if (kind[k]) col[nc++] = k;
  *n_loops = nk;
  for (size_t i = 0; i < c->n_rows; i++) {
    const rc_row *w = &c->rows[i];
    if (strcmp(w->dwarf, dcsim_dwarf_name(d)) || rc_is_gpu_variant(w->variant)) continue;
    if (!w->fit) continue; /* the fit reads role=fit rows only */
    double x[RC_MAX_LOOPS];
    rc_pred pr;
    size_t nl;
    if (rc_predict(c, d, w, NULL, x, &nl, &pr, err)) return -1;
    for (size_t j = 0; j < nc; j++) A[n * nc + j] = x[col[j]] / w->measured_s;
    bv[n++] = (w->measured_s - pr.fixed_s) / w->measured_s;
  }
  *n_fit = n;
  if (!n)
    return DCSIM_ERR(err, DCSIM_ERANGE, dcsim_dwarf_path(d), 0, "no role=fit row of %s",
                     dcsim_dwarf_name(d));
  if (n < nc)
    return DCSIM_ERR(err, DCSIM_ERANGE, dcsim_dwarf_path(d), 0, "%zu fit rows for %zu coefficients",
                     n, nc);
  memset(nonneg, 1, sizeof nonneg);
  /* rows already divided by the measured time: plain least squares of the relative errors */
  dcsim_linfit lf = { n, nc, A, bv, NULL, nonneg, NULL, 0 };
  if (dcsim_fit_linear(&lf, DCSIM_FIT_LSQ, a, err)) return -1;
  for (size_t k = 0; k < nk; k++) coef[k] = 0;
  for (size_t j = 0; j < nc; j++) {
    if (!(a[j] > 0))
      return DCSIM_ERR(err, DCSIM_ERANGE, dcsim_dwarf_path(d), 0,
                       "loop %zu: the fit rows give it no time (coefficient 0); they do not "
                       "determine it",
                       col[j] + 1);
    coef[col[j]] = 1 / a[j];
  }
  return 0;
}

int rc_load_dwarf(const char *name, dcsim_dwarf_t **d, dcsim_error *err) {
  return tool_load_dwarf(name, d, err);
}
