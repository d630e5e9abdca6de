/* fit_coeffs.c — loop (§4.3, §6.1.2) and energy (§5.3) coefficients from measurements, and writing
 * them into dwarf files (see dcsim/import_cpu.h, doc/calibration.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "calib/internal.h"
#include "dcsim/fit_coeffs.h"
#include "dcsim/fit_power.h"
#include "dcsim/hwprofile.h"
#include "util/csv.h"
#include "util/xmlio.h"

typedef struct obs {
  size_t loop;
  dcsim_cpu_state st;
  double R, M; /* measured byte/s and flop/s */
  double w;    /* weight (the CSV's optional weight column; 1 without it) */
  double rates[5];
  int line;
  char freq[32];
} obs;

static void print_stats(FILE *f, const char *what, const dcsim_fit_stats *s) {
  fprintf(
      f, "  %-5s max rel err %6.2f %%  mean %6.2f %%  leave-one-out max %s%.2f %%  mean %.2f %%\n",
      what, 100 * s->max_rel_err, 100 * s->mean_rel_err, isnan(s->loo_max_rel_err) ? "(n/a) " : "",
      isnan(s->loo_max_rel_err) ? 0 : 100 * s->loo_max_rel_err,
      isnan(s->loo_mean_rel_err) ? 0 : 100 * s->loo_mean_rel_err);
}

/* The observations of one CSV file and the work arrays of the fits (one loop at a time). */
typedef struct fit_work {
  const char *csv_path;
  const dcsim_cpu_profile_t *cpu;
  const dcsim_loop_fit_opts *o;
  dcsim_csv_t *t;
  size_t cl, cf, ct, cq, cw, cti; /* columns */
  size_t cwt;                     /* the optional weight column, or (size_t)-1 */
  obs *ob;                        /* no observations */
  size_t no;
  dcsim_loop_fit *fits; /* nf loops */
  size_t nf;
  double *A, *b, *pred, *loo, *reg; /* one loop's system, its fit and held-out predictions */
  double *w;                        /* its weights */
} fit_work;

/* The CSV's columns and the arrays for its rows. */
static int fit_work_alloc(fit_work *W, dcsim_error *err) {
  dcsim_csv_t *t = W->t;
  int rc;
  if ((rc = dcsim__csv_col(t, "loop", &W->cl, err)) ||
      (rc = dcsim__csv_col(t, "frequency", &W->cf, err)) ||
      (rc = dcsim__csv_col(t, "threads", &W->ct, err)) ||
      (rc = dcsim__csv_col(t, "traffic_byte", &W->cq, err)) ||
      (rc = dcsim__csv_col(t, "work_flop", &W->cw, err)) ||
      (rc = dcsim__csv_col(t, "time_s", &W->cti, err)))
    return rc;
  dcsim_error none;
  if (dcsim__csv_col(t, "weight", &W->cwt, &none) != 0) W->cwt = (size_t)-1;
  size_t n = dcsim__csv_rows(t);
  W->ob = calloc(n ? n : 1, sizeof *W->ob);
  W->fits = calloc(n ? n : 1, sizeof *W->fits);
  size_t nmax = n ? n : 1;
  W->A = calloc(nmax * 4, sizeof *W->A);
  W->b = calloc(nmax, sizeof *W->b);
  W->pred = calloc(nmax, sizeof *W->pred);
  W->loo = calloc(nmax, sizeof *W->loo);
  W->w = calloc(nmax, sizeof *W->w);
  W->reg = calloc(4, sizeof *W->reg);
  if (!W->ob || !W->fits || !W->A || !W->b || !W->pred || !W->loo || !W->reg || !W->w)
    return DCSIM_ERR(err, DCSIM_ENOMEM, W->csv_path, 0, "out of memory");
  return 0;
}

/* Row r: checked, its loop found or added, its state's rates from the profile (skipped when its
 * thread count is excluded). */
static int read_observation(fit_work *W, size_t r, dcsim_error *err) {
  dcsim_csv_t *t = W->t;
  const char *csv_path = W->csv_path;
  int line = dcsim__csv_line(t, r), rc;
  const char *name = dcsim__csv_cell(t, r, W->cl);
  double th, q, w, ti;
  if ((rc = dcsim__csv_num(t, r, W->ct, &th, err)) || (rc = dcsim__csv_num(t, r, W->cq, &q, err)) ||
      (rc = dcsim__csv_num(t, r, W->cw, &w, err)) || (rc = dcsim__csv_num(t, r, W->cti, &ti, err)))
    return rc;
  if (th < 1 || th > 1e6 || th != floor(th) || !(q > 0 && q <= 1e30) || !(w >= 0 && w <= 1e30) ||
      !(ti >= DCSIM_CALIB_TIME_MIN_S && ti <= DCSIM_CALIB_TIME_MAX_S))
    return DCSIM_ERR(err, DCSIM_ERANGE, csv_path, line,
                     "need threads 1..1000000 (whole), traffic_byte in (0, 1e30], "
                     "work_flop in [0, 1e30], time_s in [1e-9, 1e9]");
  double wt = 1;
  if (W->cwt != (size_t)-1) {
    if ((rc = dcsim__csv_num(t, r, W->cwt, &wt, err))) return rc;
    if (!(wt > 0 && wt <= 1e6))
      return DCSIM_ERR(err, DCSIM_ERANGE, csv_path, line, "weight must be in (0, 1e6]");
  }
  if (W->o->exclude_threads && (unsigned)th == W->o->exclude_threads) return 0;
  dcsim_loop_fit *fits = W->fits;
  if (strlen(name) >= sizeof fits[0].name || !*name)
    return DCSIM_ERR(err, DCSIM_ERANGE, csv_path, line, "loop name empty or too long");
  size_t k = 0;
  while (k < W->nf && strcmp(fits[k].name, name) != 0) k++;
  if (k == W->nf) {
    snprintf(fits[W->nf].name, sizeof fits[W->nf].name, "%s", name);
    W->nf++;
  }
  obs *x = &W->ob[W->no];
  x->loop = k;
  x->line = line;
  snprintf(x->freq, sizeof x->freq, "%s", dcsim__csv_cell(t, r, W->cf));
  if ((rc = dcsim_cpu_profile_freq(W->cpu, x->freq, &x->st, err))) {
    dcsim_error_at(err, csv_path, line);
    return rc;
  }
  x->st.threads = (unsigned)th;
  dcsim_cpu_rates rt;
  if ((rc = dcsim_cpu_profile_rates(W->cpu, &x->st, &rt, err))) return rc;
  x->rates[0] = rt.flops;
  x->rates[1] = rt.l1_bps;
  x->rates[2] = rt.l2_bps;
  x->rates[3] = rt.l3_bps;
  x->rates[4] = rt.dram_bps;
  x->R = q / ti; /* §6.1.2: R(f,n), measured bandwidth of the loop */
  x->M = w / ti; /* §6.1.2: M(f,n), measured performance of the loop */
  x->w = wt;
  if (w > 0) fits[k].has_flop = 1;
  W->no++;
  return 0;
}

/* The report of loop k's Tmop fit x over its m states. */
static void report_mop(const fit_work *W, size_t k, const double *x, size_t m) {
  FILE *rep = W->o->report;
  const dcsim_loop_fit *fl = &W->fits[k];
  const double *b = W->b, *pred = W->pred, *loo = W->loo;
  fprintf(rep, "loop %s: %zu state(s); Tmop: V %.6g  X %.6g  Y %.6g  Z %.6g (%s)\n", fl->name, m,
          x[0], x[1], x[2], x[3], dcsim_fit_method_name(W->o->mop_method));
  fprintf(rep, "  %-8s %7s %14s %14s %9s %14s %9s\n", "freq", "threads", "R meas [B/s]",
          "R fit [B/s]", "err", "R held-out", "err");
  size_t mm = 0;
  for (size_t i = 0; i < W->no; i++) {
    if (W->ob[i].loop != k) continue;
    fprintf(rep, "  %-8s %7u %14.5e %14.5e %8.2f%% %14.5e %8.2f%%\n", W->ob[i].freq,
            W->ob[i].st.threads, b[mm], pred[mm], 100 * (pred[mm] - b[mm]) / b[mm], loo[mm],
            isnan(loo[mm]) ? NAN : 100 * (loo[mm] - b[mm]) / b[mm]);
    mm++;
  }
  print_stats(rep, "Tmop", &fl->mop_stats);
}

/* §6.1.2: L1*V + L2*X + L3*Y + DRAM*Z = R over the states of loop k. */
static int fit_mop(fit_work *W, size_t k, dcsim_error *err) {
  dcsim_loop_fit *fl = &W->fits[k];
  double *A = W->A, *b = W->b, *reg = W->reg;
  const obs *ob = W->ob;
  size_t m = 0;
  int rc;
  reg[0] = reg[1] = reg[2] = reg[3] = 0;
  for (size_t i = 0; i < W->no; i++) {
    if (ob[i].loop != k) continue;
    for (int j = 0; j < 4; j++) {
      A[m * 4 + j] = ob[i].rates[1 + j];
      /* tie-break (doc/calibration.md): prefer the level whose bandwidth is closest to R */
      reg[j] += fabs(log(ob[i].rates[1 + j] / ob[i].R)) * ob[i].rates[1 + j] / ob[i].R;
    }
    W->w[m] = ob[i].w;
    b[m++] = ob[i].R;
  }
  fl->n_states = m;
  const unsigned char nn4[4] = { 1, 1, 1, 1 };
  dcsim_linfit p = { m, 4, A, b, W->cwt != (size_t)-1 ? W->w : NULL, nn4, reg, 1 };
  double x[4];
  if ((rc = dcsim_fit_linear(&p, W->o->mop_method, x, err))) return rc;
  fl->V = x[0];
  fl->X = x[1];
  fl->Y = x[2];
  fl->Z = x[3];
  if ((rc = dcsim_fit_evaluate(&p, W->o->mop_method, x, W->pred, W->loo, &fl->mop_stats, err)))
    return rc;
  if (W->o->report) report_mop(W, k, x, m);
  return 0;
}

/* §6.1.2: P*U + S = M over the states of loop k (one state: S = 0, doc/calibration.md). */
static int fit_flop(fit_work *W, size_t k, dcsim_error *err) {
  dcsim_loop_fit *fl = &W->fits[k];
  double *A = W->A, *b = W->b;
  size_t m = 0;
  int rc;
  for (size_t i = 0; i < W->no; i++) {
    if (W->ob[i].loop != k) continue;
    A[m * 2] = W->ob[i].rates[0];
    A[m * 2 + 1] = 1;
    W->w[m] = W->ob[i].w;
    b[m++] = W->ob[i].M;
  }
  const unsigned char nn2[2] = { 1, 1 };
  dcsim_linfit pf = { m, 2, A, b, W->cwt != (size_t)-1 ? W->w : NULL, nn2, NULL, 1 };
  double us[2];
  if (m == 1) {
    us[0] = b[0] / A[0];
    us[1] = 0;
  } else if ((rc = dcsim_fit_linear(&pf, W->o->flop_method, us, err))) {
    return rc;
  }
  fl->U = us[0];
  fl->S_flops = us[1];
  if ((rc = dcsim_fit_evaluate(&pf, W->o->flop_method, us, W->pred, W->loo, &fl->flop_stats, err)))
    return rc;
  if (W->o->report) {
    fprintf(W->o->report, "  Tflop: U %.6g  S %.6g flop/s (%s)\n", us[0], us[1],
            m == 1 ? "one state: S = 0" : dcsim_fit_method_name(W->o->flop_method));
    print_stats(W->o->report, "Tflop", &fl->flop_stats);
  }
  return 0;
}

int dcsim_calib_fit_loops(const char *csv_path, const dcsim_cpu_profile_t *cpu,
                          const dcsim_loop_fit_opts *o, dcsim_loop_fit **fits_out, size_t *n_out,
                          dcsim_error *err) {
  fit_work W = { .csv_path = csv_path, .cpu = cpu, .o = o };
  int rc = dcsim__csv_load(csv_path, &W.t, err);
  if (rc) return rc;
  if ((rc = fit_work_alloc(&W, err))) goto out;
  for (size_t r = 0; r < dcsim__csv_rows(W.t); r++)
    if ((rc = read_observation(&W, r, err))) goto out;
  if (W.nf == 0) {
    rc = DCSIM_ERR(err, DCSIM_ERANGE, csv_path, 0, "no measurements");
    goto out;
  }
  for (size_t k = 0; k < W.nf; k++)
    if ((rc = fit_mop(&W, k, err)) || (W.fits[k].has_flop && (rc = fit_flop(&W, k, err)))) goto out;
  *fits_out = W.fits;
  *n_out = W.nf;
  W.fits = NULL;
out:
  free(W.ob);
  free(W.fits);
  free(W.A);
  free(W.b);
  free(W.pred);
  free(W.loo);
  free(W.w);
  free(W.reg);
  dcsim__csv_free(W.t);
  return rc;
}

/* a fitted coefficient: ten significant digits, a negative fit written as 0 */
static void set_num(xmlNode *n, const char *name, double v) {
  dcsim__xml_set_num(n, name, v < 0 ? 0 : v, 10);
}

int dcsim_calib_update_dwarf(const char *in_path, const char *out_path, const dcsim_loop_fit *fits,
                             size_t n_fits, const char *source, dcsim_error *err) {
  xmlDoc *doc = NULL;
  int rc = dcsim__xml_edit_open(in_path, &doc, err);
  if (rc) return rc;
  xmlNode *root = xmlDocGetRootElement(doc);
  xmlNode *loops = dcsim__xml_child(root, "loops");
  if (!loops) {
    rc = DCSIM_ERR(err, DCSIM_EREF, in_path, 0, "dwarf has no <loops>");
    goto out;
  }
  for (size_t k = 0; k < n_fits; k++) {
    const dcsim_loop_fit *fl = &fits[k];
    xmlNode *lp = dcsim__xml_named(loops, "loop", fl->name);
    if (!lp) {
      rc = DCSIM_ERR(err, DCSIM_EREF, in_path, 0, "no <loop name=\"%s\"> in the dwarf", fl->name);
      goto out;
    }
    xmlNode *mop = dcsim__xml_child(lp, "mop");
    set_num(mop, "V", fl->V);
    set_num(mop, "X", fl->X);
    set_num(mop, "Y", fl->Y);
    set_num(mop, "Z", fl->Z);
    xmlSetProp(mop, BAD_CAST "source", BAD_CAST source);
    if (fl->has_flop) {
      xmlNode *fp = dcsim__xml_child(lp, "flop");
      if (!fp) {
        fp = xmlNewNode(NULL, BAD_CAST "flop");
        xmlAddNextSibling(mop, fp);
      }
      set_num(fp, "U", fl->U);
      set_num(fp, "s-flops", fl->S_flops);
      xmlSetProp(fp, BAD_CAST "source", BAD_CAST source);
    }
  }
  rc = dcsim__xml_save(doc, out_path, err);
out:
  xmlFreeDoc(doc);
  return rc;
}

/* The default model's <power-activity> (dcsim/fit_power.h) from the same measured PKG column
 * against the same full-load table: needs the 1-core state first; skipped (has_activity 0,
 * a line in the report) without it. A: rows [E_pkg(n), E_pkg(idle)]. */
static int fit_activity(const dcsim_csv_t *t, size_t cc, const double *A, const double *mp,
                        size_t n, FILE *rep, dcsim_energy_fit *out, dcsim_error *err) {
  unsigned cores[64];
  double full[64];
  out->has_activity = 0;
  if (n == 0 || n > 64 || strcmp(dcsim__csv_cell(t, 0, cc), "1") != 0) {
    if (rep) fprintf(rep, "activity: not fitted (needs the 1-core state first, at most 64)\n");
    return 0;
  }
  for (size_t r = 0; r < n; r++) {
    double c = 0;
    dcsim_parse_double(dcsim__csv_cell(t, r, cc), &c); /* checked by the caller */
    cores[r] = (unsigned)c;
    full[r] = A[2 * r];
  }
  dcsim_power_fit_stats st;
  int rc = dcsim_fit_activity(A[1], cores, full, mp, n, &out->act_first, &out->act_extra, &st, err);
  if (rc) return rc;
  out->has_activity = 1;
  out->act_stats = st;
  if (rep) {
    fprintf(rep,
            "activity: first core %.4g, extra cores %.4g of the full-load step (least squares)\n",
            out->act_first, out->act_extra);
    dcsim_power_fit_report(rep, "PKG", cores, mp, &st);
  }
  return 0;
}

int dcsim_calib_fit_energy(const char *csv_path, const dcsim_cpu_profile_t *cpu, const char *freq,
                           dcsim_fit_method method, FILE *rep, dcsim_energy_fit *out,
                           dcsim_error *err) {
  dcsim_csv_t *t = NULL;
  int rc = dcsim__csv_load(csv_path, &t, err);
  if (rc) return rc;
  size_t cc, cp, cd, n = dcsim__csv_rows(t);
  double *A = calloc(2 * (n ? n : 1), sizeof *A), *B = calloc(2 * (n ? n : 1), sizeof *B);
  double *mp = calloc(n ? n : 1, sizeof *mp), *md = calloc(n ? n : 1, sizeof *md);
  double *pred = calloc(n ? n : 1, sizeof *pred), *loo = calloc(n ? n : 1, sizeof *loo);
  if (!A || !B || !mp || !md || !pred || !loo) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, csv_path, 0, "out of memory");
    goto out;
  }
  if ((rc = dcsim__csv_col(t, "cores", &cc, err)) || (rc = dcsim__csv_col(t, "pkg_j", &cp, err)) ||
      (rc = dcsim__csv_col(t, "dram_j", &cd, err)))
    goto out;
  dcsim_cpu_state st = { 0, NULL, 0 };
  if ((rc = dcsim_cpu_profile_freq(cpu, freq, &st, err))) goto out;
  for (size_t r = 0; r < n; r++) {
    double c;
    if ((rc = dcsim__csv_num(t, r, cc, &c, err)) || (rc = dcsim__csv_num(t, r, cp, &mp[r], err)) ||
        (rc = dcsim__csv_num(t, r, cd, &md[r], err)))
      goto out;
    if (c < 1 || c > 1e6 || c != floor(c)) {
      rc = DCSIM_ERR(err, DCSIM_ERANGE, csv_path, dcsim__csv_line(t, r),
                     "cores: expected a whole number from 1 to 1000000");
      goto out;
    }
    if (!(mp[r] >= 0 && mp[r] <= 1e6 && md[r] >= 0 && md[r] <= 1e6)) {
      rc = DCSIM_ERR(err, DCSIM_ERANGE, csv_path, dcsim__csv_line(t, r),
                     "pkg_j, dram_j: expected 0 to 1e6 J per one-second sample");
      goto out;
    }
    st.threads = (unsigned)c;
    dcsim_cpu_power pw;
    if ((rc = dcsim_cpu_profile_power(cpu, &st, &pw, err))) goto out;
    A[2 * r] = pw.pkg_w; /* §5.3: E_pkg(f,n) * U + S * E_pkg(f,idle) = E_mpkg(f,n) */
    A[2 * r + 1] = pw.pkg_idle_w;
    B[2 * r] = pw.dram_w; /* §5.3: E_dram(f,n) * X + Y * E_dram(f,idle) = E_mdram(f,n) */
    B[2 * r + 1] = pw.dram_idle_w;
  }
  dcsim_linfit pp = { n, 2, A, mp, NULL, NULL, NULL, 0 }, pd = { n, 2, B, md, NULL, NULL, NULL, 0 };
  double x[2], y[2];
  if ((rc = dcsim_fit_linear(&pp, method, x, err)) || (rc = dcsim_fit_linear(&pd, method, y, err)))
    goto out;
  out->pkg_U = x[0];
  out->pkg_S = x[1];
  out->dram_X = y[0];
  out->dram_Y = y[1];
  out->n_states = n;
  const struct {
    const char *head, *name, *u, *s, *col; /* "PKG:", "PKG", its two coefficients, E column */
    const dcsim_linfit *f;
    const double *c;
    dcsim_fit_stats *st;
  } part[2] = { { "PKG:", "PKG", "U", "S", "E_pkg [J]", &pp, x, &out->pkg_stats },
                { "DRAM:", "DRAM", "X", "Y", "E_dram [J]", &pd, y, &out->dram_stats } };
  for (int k = 0; k < 2; k++) {
    const dcsim_linfit *f = part[k].f;
    if ((rc = dcsim_fit_evaluate(f, method, part[k].c, pred, loo, part[k].st, err))) goto out;
    if (!rep) continue;
    fprintf(rep, "%-5s %s %.7g  %s %.7g (%s, %zu states)\n  %5s %10s %10s %10s %9s %10s\n",
            part[k].head, part[k].u, part[k].c[0], part[k].s, part[k].c[1],
            dcsim_fit_method_name(method), n, "cores", part[k].col, "meas [J]", "fit [J]", "err",
            "held-out");
    for (size_t r = 0; r < n; r++)
      fprintf(rep, "  %5s %10.4g %10.4g %10.4g %8.2f%% %10.4g\n", dcsim__csv_cell(t, r, cc),
              f->A[2 * r], f->b[r], pred[r], 100 * (pred[r] - f->b[r]) / f->b[r], loo[r]);
    print_stats(rep, part[k].name, part[k].st);
  }
  rc = fit_activity(t, cc, A, mp, n, rep, out, err);
out:
  free(A);
  free(B);
  free(mp);
  free(md);
  free(pred);
  free(loo);
  dcsim__csv_free(t);
  return rc;
}
