/* fit_scaling.c — a dwarf's thread scaling law fitted on measured time-vs-cores runs, and written
 * into its dwarf file (see dcsim/import_cpu.h, dcsim/model_threads.h, doc/models.md "Thread
 * scaling").
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "calib/internal.h"
#include "dcsim/dwarf.h"
#include "dcsim/fit.h"
#include "dcsim/fit_scaling.h"
#include "dcsim/hwprofile.h"
#include "dcsim/model.h"
#include "util/csv.h"
#include "util/xmlio.h"

/* One run of the CSV. */
typedef struct run {
  const char *case_name; /* borrowed from the CSV */
  unsigned nodes, threads;
  dcsim_cpu_state st;
  double time_s;
  int line;
} run;

static int same_group(const run *a, const run *b) {
  return a->nodes == b->nodes && a->st.ghz == b->st.ghz && !a->st.label == !b->st.label &&
         (!a->st.label || strcmp(a->st.label, b->st.label) == 0) &&
         strcmp(a->case_name, b->case_name) == 0;
}

/* The runs of the CSV (columns case, threads, freq_ghz, time_s[, nodes]). */
static int read_runs(const char *path, const dcsim_cpu_profile_t *cpu, dcsim_csv_t *t, run *r,
                     size_t *n, dcsim_error *err) {
  size_t cc, ct, cf, cs, cn = 0;
  int rc, has_nodes = dcsim__csv_col(t, "nodes", &cn, NULL) == 0;
  if ((rc = dcsim__csv_col(t, "case", &cc, err)) || (rc = dcsim__csv_col(t, "threads", &ct, err)) ||
      (rc = dcsim__csv_col(t, "freq_ghz", &cf, err)) ||
      (rc = dcsim__csv_col(t, "time_s", &cs, err)))
    return rc;
  *n = dcsim__csv_rows(t);
  for (size_t i = 0; i < *n; i++) {
    run *x = &r[i];
    double th, no = 1;
    x->line = dcsim__csv_line(t, i);
    x->case_name = dcsim__csv_cell(t, i, cc);
    if ((rc = dcsim__csv_num(t, i, ct, &th, err)) ||
        (rc = dcsim__csv_num(t, i, cs, &x->time_s, err)) ||
        (has_nodes && (rc = dcsim__csv_num(t, i, cn, &no, err))))
      return rc;
    if (!(th >= 1 && th <= 100000 && th == floor(th)) || !(no >= 1 && no <= 1e6 && no == floor(no)))
      return DCSIM_ERR(err, DCSIM_ERANGE, path, x->line,
                       "threads and nodes must be whole numbers >= 1 (a count the source does not "
                       "state is an assumption to write down, doc/models.md \"Thread scaling\")");
    if (!(x->time_s > 0)) return DCSIM_ERR(err, DCSIM_ERANGE, path, x->line, "time_s must be > 0");
    x->threads = (unsigned)th;
    x->nodes = (unsigned)no;
    if ((rc = dcsim_cpu_profile_freq(cpu, dcsim__csv_cell(t, i, cf), &x->st, err))) {
      dcsim_error_at(err, path, x->line);
      return rc;
    }
    x->st.threads = x->threads;
  }
  return 0;
}

/* A node's computation time by the per-loop model alone (no thread law). */
static int hw_time(const dcsim_dwarf_t *d, const dcsim_cpu_profile_t *cpu, const run *x,
                   unsigned threads, const char *path, double *t_s, dcsim_error *err) {
  dcsim_dwarf_eval *ev = NULL;
  int rc = dcsim_dwarf_evaluate(d, x->case_name, NULL, 0, &ev, err);
  if (rc) {
    dcsim_error_at(err, path, x->line);
    return rc;
  }
  dcsim_model_req rq = { 0 };
  rq.ev = ev;
  rq.cpu = cpu;
  rq.nodes = x->nodes;
  rq.state = x->st;
  rq.state.threads = threads;
  rq.energy_form = DCSIM_ENERGY_NONE;
  rq.flags = DCSIM_MODEL_HW_THREADS;
  dcsim_prediction p;
  if ((rc = dcsim_model_run(&rq, &p, err))) {
    dcsim_error_at(err, path, x->line);
  } else {
    *t_s = p.threads.hw_time_s;
    dcsim_prediction_release(&p);
  }
  dcsim_dwarf_eval_free(ev);
  return rc;
}

/* The point of run i (n > 1 threads) against its group's 1-thread run. */
static int make_point(const char *path, const dcsim_dwarf_t *d, const dcsim_cpu_profile_t *cpu,
                      const run *r, size_t n, size_t i, dcsim_scaling_point *p, dcsim_error *err) {
  const run *x = &r[i], *ref = NULL;
  for (size_t j = 0; j < n && !ref; j++)
    if (r[j].threads == 1 && same_group(&r[j], x)) ref = &r[j];
  if (!ref) {
    char *fs = dcsim_cpu_state_freq_text(&x->st);
    int rc = fs ? DCSIM_ERR(err, DCSIM_EREF, path, x->line,
                            "no 1-thread run of case %s on %u node(s) at %s GHz: thread scaling is "
                            "fitted on time ratios to it",
                            x->case_name, x->nodes, fs)
                : DCSIM_ERR(err, DCSIM_ENOMEM, path, x->line, "out of memory");
    free(fs);
    return rc;
  }
  double t1, tn;
  int rc;
  if ((rc = hw_time(d, cpu, x, 1, path, &t1, err)) ||
      (rc = hw_time(d, cpu, x, x->threads, path, &tn, err)))
    return rc;
  snprintf(p->case_name, sizeof p->case_name, "%s", x->case_name);
  p->nodes = x->nodes;
  p->cores = x->threads;
  p->freq_ghz = x->st.ghz;
  p->line = x->line;
  p->hw_ratio = tn / t1;
  p->measured = x->time_s / ref->time_s;
  return 0;
}

/* Every 1-thread run once per group; the points of the runs on more threads. */
static int make_points(const char *path, const dcsim_dwarf_t *d, const dcsim_cpu_profile_t *cpu,
                       const run *r, size_t n, dcsim_scaling_fit *f, dcsim_error *err) {
  int rc;
  for (size_t i = 0; i < n; i++) {
    for (size_t j = 0; j < i; j++)
      if (r[i].threads == r[j].threads && same_group(&r[i], &r[j]))
        return DCSIM_ERR(err, DCSIM_ESCHEMA, path, r[i].line,
                         "a second run of case %s on %u node(s) x %u thread(s) at the same "
                         "frequency (the first is line %d)",
                         r[i].case_name, r[i].nodes, r[i].threads, r[j].line);
    if (r[i].threads == 1) continue;
    if ((rc = make_point(path, d, cpu, r, n, i, &f->points[f->n_points], err))) return rc;
    f->n_points++;
    if (r[i].threads > f->cores_max) f->cores_max = r[i].threads;
  }
  if (f->n_points == 0)
    return DCSIM_ERR(err, DCSIM_ERANGE, path, 0, "no run on more than one thread: nothing to fit");
  return 0;
}

/* The law's ratio at point p. */
static double law_ratio(double sigma, double kappa, const dcsim_scaling_point *p) {
  /* dcsim/model_threads.h on times relative to T_hw(1) */
  return sigma + (1 - sigma) * p->hw_ratio + kappa * (double)(p->cores - 1);
}

/* Weighted least squares (relative errors of the ratios) on k coefficients, >= 0 (GSL through
 * dcsim_fit_linear): y = ratio - offset, columns col[0..k-1]. */
static int lsq(const dcsim_scaling_point *pt, size_t n, size_t skip, size_t k,
               double (*col)(const dcsim_scaling_point *, size_t), double sigma_fixed, double *x,
               dcsim_error *err) {
  double A[2 * 64], b[64], w[64];
  unsigned char nonneg[2] = { 1, 1 };
  size_t m = 0;
  for (size_t i = 0; i < n && m < 64; i++) {
    if (i == skip) continue;
    const dcsim_scaling_point *p = &pt[i];
    /* sigma fixed (at 1): y = ratio - 1 = kappa (n - 1); free: y = ratio - h */
    b[m] = p->measured -
           (sigma_fixed >= 0 ? sigma_fixed + (1 - sigma_fixed) * p->hw_ratio : p->hw_ratio);
    for (size_t j = 0; j < k; j++) A[m * k + j] = col(p, j);
    w[m] = 1 / (p->measured * p->measured);
    m++;
  }
  dcsim_linfit lf = { m, k, A, b, w, nonneg, NULL, 0 };
  return dcsim_fit_linear(&lf, DCSIM_FIT_LSQ, x, err);
}

static double col_free(const dcsim_scaling_point *p, size_t j) {
  return j == 0 ? 1 - p->hw_ratio : (double)(p->cores - 1); /* sigma, kappa */
}
static double col_kappa(const dcsim_scaling_point *p, size_t j) {
  (void)j;
  return (double)(p->cores - 1);
}

/* sigma, kappa from the points but `skip` (SIZE_MAX: all); *none = 1 if no point is left. */
static int fit_law(const dcsim_scaling_point *pt, size_t n, size_t skip, double *sigma,
                   double *kappa, int *none, dcsim_error *err) {
  unsigned counts[64];
  size_t nc = 0, used = 0;
  for (size_t i = 0; i < n; i++) {
    if (i == skip) continue;
    used++;
    size_t c = 0;
    while (c < nc && counts[c] != pt[i].cores) c++;
    if (c == nc && nc < 64) counts[nc++] = pt[i].cores;
  }
  *none = used == 0;
  if (*none) return 0;
  double x[2] = { 0, 0 };
  /* two thread counts or more: both; one: sigma first, kappa only beyond sigma = 1 */
  int rc = lsq(pt, n, skip, nc >= 2 ? 2 : 1, col_free, -1, x, err);
  if (rc) return rc;
  *sigma = x[0];
  *kappa = nc >= 2 ? x[1] : 0;
  if (*sigma > 1) { /* the bound: the optimum of the bounded problem has sigma = 1 */
    *sigma = 1;
    if ((rc = lsq(pt, n, skip, 1, col_kappa, 1, kappa, err))) return rc;
  }
  return 0;
}

/* Fitted and leave-one-out ratios and their relative errors. */
static int evaluate(dcsim_scaling_fit *f, dcsim_error *err) {
  double lsum = 0;
  size_t nl = 0;
  f->loo_max_rel_err = f->loo_mean_rel_err = NAN;
  for (size_t i = 0; i < f->n_points; i++) {
    dcsim_scaling_point *p = &f->points[i];
    p->fitted = law_ratio(f->sigma, f->kappa, p);
    double e = fabs(p->fitted - p->measured) / p->measured, s, k;
    if (e > f->max_rel_err) f->max_rel_err = e;
    f->mean_rel_err += e / (double)f->n_points;
    p->loo = NAN;
    int none, rc = fit_law(f->points, f->n_points, i, &s, &k, &none, err);
    if (rc) return rc;
    if (none) continue;
    p->loo = law_ratio(s, k, p);
    double el = fabs(p->loo - p->measured) / p->measured;
    if (nl == 0 || el > f->loo_max_rel_err) f->loo_max_rel_err = el;
    lsum += el;
    nl++;
  }
  if (nl) f->loo_mean_rel_err = lsum / (double)nl;
  return 0;
}

int dcsim_calib_fit_scaling(const char *csv_path, const dcsim_dwarf_t *dwarf,
                            const dcsim_cpu_profile_t *cpu, dcsim_scaling_fit *out,
                            dcsim_error *err) {
  memset(out, 0, sizeof *out);
  dcsim_csv_t *t = NULL;
  run *r = NULL;
  size_t n = 0;
  int rc = dcsim__csv_load(csv_path, &t, err);
  if (rc) return rc;
  size_t rows = dcsim__csv_rows(t);
  if (rows > 64) {
    rc = DCSIM_ERR(err, DCSIM_ERANGE, csv_path, 0, "%zu runs: at most 64", rows);
    goto out;
  }
  r = calloc(rows ? rows : 1, sizeof *r);
  out->points = calloc(rows ? rows : 1, sizeof *out->points);
  if (!r || !out->points) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, csv_path, 0, "out of memory");
    goto out;
  }
  if ((rc = read_runs(csv_path, cpu, t, r, &n, err)) ||
      (rc = make_points(csv_path, dwarf, cpu, r, n, out, err)))
    goto out;
  for (size_t i = 0; i < out->n_points; i++) {
    size_t j = 0;
    while (j < i && out->points[j].cores != out->points[i].cores) j++;
    if (j == i) out->n_core_counts++;
  }
  int none;
  if ((rc = fit_law(out->points, out->n_points, SIZE_MAX, &out->sigma, &out->kappa, &none, err)) ||
      (rc = evaluate(out, err)))
    dcsim_error_at(err, csv_path, 0);
out:
  free(r);
  dcsim__csv_free(t);
  if (rc) dcsim_scaling_fit_release(out);
  return rc;
}

void dcsim_scaling_fit_release(dcsim_scaling_fit *f) {
  if (!f) return;
  free(f->points);
  f->points = NULL;
  f->n_points = 0;
}

static double pct(double fitted, double measured) { return 100 * (fitted - measured) / measured; }

void dcsim_calib_scaling_report(FILE *f, const dcsim_scaling_fit *fit, const char *dwarf,
                                const char *cpu, const char *csv_path) {
  fprintf(f, "thread scaling of %s on %s from %s\n", dwarf, cpu, csv_path);
  fprintf(f,
          "law       T(n) = sigma*T_hw(1) + (1-sigma)*T_hw(n) + kappa*(n-1)*T_hw(1)  (USL on the "
          "per-loop model)\n");
  fprintf(f, "data      %zu ratio(s) T(n)/T(1) at %zu thread count(s) besides 1: %s\n",
          fit->n_points, fit->n_core_counts,
          fit->n_core_counts >= 2
              ? "sigma and kappa fitted together"
              : "one parameter (sigma first; kappa only for what sigma = 1 cannot explain)");
  fprintf(f, "\n%-16s %5s %5s %6s %10s %9s %9s %8s %9s %8s\n", "case", "nodes", "cores", "GHz",
          "per-loop", "measured", "fitted", "error", "held out", "error");
  for (size_t i = 0; i < fit->n_points; i++) {
    const dcsim_scaling_point *p = &fit->points[i];
    fprintf(f, "%-16s %5u %5u %6.3g %10.4f %9.4f %9.4f %7.2f%%", p->case_name, p->nodes, p->cores,
            p->freq_ghz, p->hw_ratio, p->measured, p->fitted, pct(p->fitted, p->measured));
    if (isnan(p->loo))
      fprintf(f, " %9s %8s\n", "-", "-");
    else
      fprintf(f, " %9.4f %7.2f%%\n", p->loo, pct(p->loo, p->measured));
  }
  fprintf(f, "\nsigma     %.7g\nkappa     %.7g\n", fit->sigma, fit->kappa);
  fprintf(f, "error     max %.2f %%, mean %.2f %%", 100 * fit->max_rel_err,
          100 * fit->mean_rel_err);
  if (isnan(fit->loo_max_rel_err))
    fprintf(f, "; leave-one-out: n/a\n");
  else
    fprintf(f, "; leave-one-out max %.2f %%, mean %.2f %%\n", 100 * fit->loo_max_rel_err,
            100 * fit->loo_mean_rel_err);
}

void dcsim_calib_scaling_xml(FILE *f, const dcsim_scaling_fit *fit, const char *cpu,
                             const char *source) {
  fprintf(f, "  <thread-scaling cpu=\"");
  dcsim__xml_escape(f, cpu);
  fprintf(f, "\" sigma=\"%.7g\" kappa=\"%.7g\" cores-max=\"%u\" source=\"", fit->sigma, fit->kappa,
          fit->cores_max);
  dcsim__xml_escape(f, source);
  fprintf(f, "\">\n");
  for (size_t i = 0; i < fit->n_points; i++) {
    const dcsim_scaling_point *p = &fit->points[i];
    fprintf(f, "    <fit-point case=\"");
    dcsim__xml_escape(f, p->case_name);
    fprintf(f,
            "\" nodes=\"%u\" cores=\"%u\" freq-ghz=\"%.6g\" per-loop-ratio=\"%.6g\" "
            "measured-ratio=\"%.6g\" fitted-ratio=\"%.6g\"",
            p->nodes, p->cores, p->freq_ghz, p->hw_ratio, p->measured, p->fitted);
    if (!isnan(p->loo)) fprintf(f, " leave-one-out-ratio=\"%.6g\"", p->loo);
    fprintf(f, "/>\n");
  }
  fprintf(f, "  </thread-scaling>\n");
}

/* The element as a node of doc (parsed from the text dcsim_calib_scaling_xml prints). */
static xmlNode *scaling_node(xmlDoc *doc, const dcsim_scaling_fit *fit, const char *cpu,
                             const char *source) {
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  if (!m) return NULL;
  dcsim_calib_scaling_xml(m, fit, cpu, source);
  if (fclose(m) != 0) {
    free(buf);
    return NULL;
  }
  xmlDoc *frag = xmlReadMemory(buf, (int)len, NULL, "UTF-8", XML_PARSE_NONET);
  free(buf);
  xmlNode *n = frag ? xmlDocCopyNode(xmlDocGetRootElement(frag), doc, 1) : NULL;
  xmlFreeDoc(frag);
  return n;
}

int dcsim_calib_update_dwarf_scaling(const char *in_path, const char *out_path,
                                     const dcsim_scaling_fit *fit, const char *cpu,
                                     const char *source, dcsim_error *err) {
  xmlDoc *doc = NULL;
  int rc = dcsim__xml_edit_open(in_path, &doc, err);
  if (rc) return rc;
  xmlNode *root = xmlDocGetRootElement(doc), *old = NULL;
  for (xmlNode *n = dcsim__xml_child(root, "thread-scaling"); n && !old;
       n = dcsim__xml_next(n, "thread-scaling")) {
    xmlChar *c = xmlGetProp(n, BAD_CAST "cpu");
    if (c && strcmp((const char *)c, cpu) == 0) old = n;
    xmlFree(c);
  }
  xmlNode *el = scaling_node(doc, fit, cpu, source);
  if (!el) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, in_path, 0, "out of memory");
    goto out;
  }
  if (old) {
    xmlReplaceNode(old, el);
    xmlFreeNode(old);
  } else { /* after the last element, on a line of its own */
    xmlNode *last = xmlGetLastChild(root);
    xmlNode *indent = xmlNewDocText(doc, BAD_CAST "\n  ");
    if (last && last->type == XML_TEXT_NODE) { /* el first: libxml2 merges adjacent texts */
      xmlAddPrevSibling(last, el);
      xmlAddPrevSibling(el, indent);
    } else {
      xmlAddChild(root, indent);
      xmlAddChild(root, el);
      xmlAddChild(root, xmlNewDocText(doc, BAD_CAST "\n"));
    }
  }
  rc = dcsim__xml_save(doc, out_path, err);
out:
  xmlFreeDoc(doc);
  return rc;
}
