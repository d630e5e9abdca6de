/* fit_power.c — fits of the default power model (see dcsim/fit_power.h). */
#include "dcsim/fit_power.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calib/internal.h"
#include "dcsim/fit.h"
#include "input/internal.h"

enum { MAX_ROWS = 64 };

/* b_i - offset_i = sum_j A_ij x_j over the rows whose keep flag is set, x >= 0, least squares. */
static int solve(const double *A, const double *meas, const double *offset, size_t n, size_t k,
                 size_t skip, double *x, dcsim_error *err) {
  double Ak[MAX_ROWS * 2], bk[MAX_ROWS];
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    if (i == skip) continue;
    for (size_t j = 0; j < k; j++) Ak[m * k + j] = A[i * k + j];
    bk[m++] = meas[i] - offset[i];
  }
  const unsigned char nonneg[2] = { 1, 1 };
  dcsim_linfit p = { m, k, Ak, bk, NULL, nonneg, NULL, 0 };
  return dcsim_fit_linear(&p, DCSIM_FIT_LSQ, x, err);
}

/* The fit on every row, its errors on the measured totals and the leave-one-out errors. */
static int fit_rows(const double *A, const double *meas, const double *offset, size_t n, size_t k,
                    double *x, dcsim_power_fit_stats *st, dcsim_error *err) {
  if (n > MAX_ROWS || n < k)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "%zu measured states: need %zu to %d", n, k,
                     MAX_ROWS);
  for (size_t i = 0; i < n; i++)
    if (!(meas[i] > 0) || !isfinite(meas[i]))
      return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "measured power %g W must be positive", meas[i]);
  int rc = solve(A, meas, offset, n, k, (size_t)-1, x, err);
  if (rc) return rc;
  memset(st, 0, sizeof *st);
  st->n = n;
  size_t n_loo = 0;
  for (size_t i = 0; i < n; i++) {
    double p = offset[i];
    for (size_t j = 0; j < k; j++) p += A[i * k + j] * x[j];
    double e = fabs(p - meas[i]) / meas[i];
    st->pred_w[i] = p;
    st->rms_w += (p - meas[i]) * (p - meas[i]) / (double)n;
    if (e > st->max_rel_err) st->max_rel_err = e;
    st->loo_w[i] = NAN;
    double xl[2];
    dcsim_error ignored;
    if (n - 1 < k || solve(A, meas, offset, n, k, i, xl, &ignored)) continue;
    double q = offset[i];
    for (size_t j = 0; j < k; j++) q += A[i * k + j] * xl[j];
    double el = fabs(q - meas[i]) / meas[i];
    st->loo_w[i] = q;
    if (el > st->loo_max_rel_err) st->loo_max_rel_err = el;
    st->loo_mean_rel_err += el;
    n_loo++;
  }
  st->rms_w = sqrt(st->rms_w);
  if (n_loo)
    st->loo_mean_rel_err /= (double)n_loo;
  else
    st->loo_max_rel_err = st->loo_mean_rel_err = NAN;
  return 0;
}

int dcsim_fit_package(double idle_w, const unsigned *cores, const double *pkg_w, size_t n,
                      double *awake_w, double *core_w, dcsim_power_fit_stats *st,
                      dcsim_error *err) {
  double A[MAX_ROWS * 2], off[MAX_ROWS], x[2];
  if (n > MAX_ROWS) return fit_rows(NULL, NULL, NULL, n, 2, NULL, st, err); /* refused */
  for (size_t i = 0; i < n; i++) {
    A[2 * i] = 1;            /* awake: once any core is active */
    A[2 * i + 1] = cores[i]; /* one core's full-load power each */
    off[i] = idle_w;
  }
  int rc = fit_rows(A, pkg_w, off, n, 2, x, st, err);
  if (rc) return rc;
  *awake_w = x[0];
  *core_w = x[1];
  return 0;
}

int dcsim_fit_dram(double idle_w, const double *bw_bps, const double *dram_w, size_t n,
                   double *j_per_byte, dcsim_power_fit_stats *st, dcsim_error *err) {
  double A[MAX_ROWS], off[MAX_ROWS];
  if (n > MAX_ROWS) return fit_rows(NULL, NULL, NULL, n, 1, NULL, st, err); /* refused */
  for (size_t i = 0; i < n; i++) {
    A[i] = bw_bps[i] * 1e-9; /* scaled to nJ per byte, so that the columns are of order 1 */
    off[i] = idle_w;
  }
  double x[1];
  int rc = fit_rows(A, dram_w, off, n, 1, x, st, err);
  if (rc) return rc;
  *j_per_byte = x[0] * 1e-9;
  return 0;
}

int dcsim_fit_activity(double idle_w, const unsigned *cores, const double *full_w,
                       const double *meas_w, size_t n, double *first_core, double *extra_core,
                       dcsim_power_fit_stats *st, dcsim_error *err) {
  if (n == 0 || cores[0] != 1)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0,
                     "the activity fit needs the 1-core state first (its full-load step)");
  double A[MAX_ROWS * 2], off[MAX_ROWS], x[2];
  if (n > MAX_ROWS) return fit_rows(NULL, NULL, NULL, n, 2, NULL, st, err); /* refused */
  for (size_t i = 0; i < n; i++) {
    A[2 * i] = full_w[0] - idle_w;        /* the first core's step: awake + one core */
    A[2 * i + 1] = full_w[i] - full_w[0]; /* the further cores' */
    off[i] = idle_w;
  }
  int rc = fit_rows(A, meas_w, off, n, 2, x, st, err);
  if (rc) return rc;
  *first_core = x[0];
  *extra_core = x[1];
  return 0;
}

void dcsim_power_fit_report(FILE *f, const char *what, const unsigned *cores, const double *meas_w,
                            const dcsim_power_fit_stats *st) {
  fprintf(f, "  %-8s %5s %10s %10s %8s %10s\n", what, "cores", "meas [W]", "fit [W]", "err",
          "held-out");
  for (size_t i = 0; i < st->n && i < MAX_ROWS; i++)
    fprintf(f, "  %-8s %5u %10.4g %10.4g %7.2f%% %10.4g\n", "", cores[i], meas_w[i], st->pred_w[i],
            100 * (st->pred_w[i] - meas_w[i]) / meas_w[i], st->loo_w[i]);
  fprintf(f, "  %-8s rms %.3g W, worst %.2f%%, held-out worst %.2f%% mean %.2f%%\n", what,
          st->rms_w, 100 * st->max_rel_err, 100 * st->loo_max_rel_err, 100 * st->loo_mean_rel_err);
}

/* ---- the profile's <power-spec> and <power-model> (dcsim calibrate cpu) ---- */

/* source= of a fitted element: machine.xml's words, then what the fit did and how well. */
static void fit_source(FILE *f, const char *source, const char *csv,
                       const dcsim_power_fit_stats *st) {
  fputs(" source=\"", f);
  dcsim__xml_escape(f, source);
  fputs("; fitted by dcsim calibrate cpu (least squares) on ", f);
  dcsim__xml_escape(f, csv);
  fprintf(f, ", %zu states: rms %.3g W, worst %.2f%%, leave-one-out worst %.2f%%\"", st->n,
          st->rms_w, 100 * st->max_rel_err, 100 * st->loo_max_rel_err);
}

static int emit_package(FILE *f, const dcsim__calib_machine *m, const dcsim__power_table *T,
                        dcsim_error *err) {
  const dcsim__cm_package *pk = &m->power_model.package;
  fputs("    <package", f);
  if (!pk->fit) {
    dcsim__xml_put_attr(f, "idle-w", pk->idle_w);
    dcsim__xml_put_attr(f, "awake-w", pk->awake_w);
    dcsim__xml_put_attr(f, "core-w", pk->core_w);
    dcsim__xml_put_attr(f, "voltage-slope", pk->voltage_slope);
    dcsim__xml_put_attr(f, "source", pk->source);
    fputs("/>\n", f);
    return 0;
  }
  if (!T)
    return DCSIM_ERR(err, DCSIM_EREF, m->path, pk->line,
                     "<package fit=\"energy\">: machine.xml has no <energy> table to fit");
  double awake, core;
  dcsim_power_fit_stats st;
  int rc = dcsim_fit_package(T->pkg_idle_w, T->cores, T->pkg_w, T->n, &awake, &core, &st, err);
  if (rc) {
    dcsim_error_at_if_unset(err, T->path, 0);
    return rc;
  }
  fprintf(f, " idle-w=\"%.6g\" awake-w=\"%.4g\" core-w=\"%.4g\"", T->pkg_idle_w, awake, core);
  dcsim__xml_put_attr(f, "voltage-slope", pk->voltage_slope);
  fit_source(f, pk->source, T->path, &st);
  fputs("/>\n", f);
  return 0;
}

static int emit_dram(FILE *f, const char *dir, const dcsim__calib_machine *m,
                     const dcsim__power_table *T, dcsim_error *err) {
  const dcsim__cm_dram *dr = &m->power_model.dram;
  fputs("    <dram", f);
  if (!dr->fit) {
    dcsim__xml_put_attr(f, "idle-w", dr->idle_w);
    dcsim__xml_put_attr(f, "j-per-byte", dr->j_per_byte);
    dcsim__xml_put_attr(f, "source", dr->source);
    fputs("/>\n", f);
    return 0;
  }
  if (!T || !dr->bandwidth)
    return DCSIM_ERR(err, DCSIM_EREF, m->path, dr->line,
                     "<dram fit=\"energy\">: needs machine.xml's <energy> table and "
                     "bandwidth=\"CSV\" (the DRAM bandwidth of the measured states)");
  double *bw = calloc(T->n ? T->n : 1, sizeof *bw), *meas = calloc(T->n ? T->n : 1, sizeof *meas);
  double e = 0;
  char *bpath = NULL;
  int rc = !bw || !meas || !(bpath = dcsim_path_in(dir, dr->bandwidth))
               ? DCSIM_ERR(err, DCSIM_ENOMEM, T->path, 0, "out of memory")
               : dcsim__power_table_bandwidths(T, bpath, bw, err);
  size_t n = 0;
  for (size_t i = 0; !rc && i < T->n; i++)
    if (bw[i] > 0) {
      bw[n] = bw[i];
      meas[n++] = T->dram_w[i];
    }
  dcsim_power_fit_stats st;
  if (!rc && n == 0)
    rc = DCSIM_ERR(err, DCSIM_ERANGE, bpath, 0, "no bandwidth at the power table's core counts");
  if (!rc && !(rc = dcsim_fit_dram(T->dram_idle_w, bw, meas, n, &e, &st, err))) {
    fprintf(f, " idle-w=\"%.6g\" j-per-byte=\"%.4g\"", T->dram_idle_w, e);
    fit_source(f, dr->source, T->path, &st);
    fputs("/>\n", f);
  }
  free(bw);
  free(meas);
  free(bpath);
  return rc;
}

int dcsim__calib_emit_power(FILE *f, const char *dir, const dcsim__calib_machine *m,
                            dcsim_error *err) {
  const dcsim__cm_power_model *pm = &m->power_model;
  if (m->tdp_w) {
    fputs("  <power-spec", f);
    dcsim__xml_put_attr(f, "tdp-w", m->tdp_w);
    dcsim__xml_put_attr(f, "source", m->power_spec_source);
    fputs("/>\n", f);
  }
  if (!pm->line) return 0;
  int rc;
  fputs("  <power-model", f);
  dcsim__xml_put_attr(f, "basis", pm->basis);
  dcsim__xml_put_attr(f, "source", pm->source);
  fputs(">\n", f);
  /* the table of <energy file>, read by the input layer (input/power_table.c) */
  int en = m->energy.line != 0;
  dcsim__power_table T;
  memset(&T, 0, sizeof T);
  char *path = en ? dcsim_path_in(dir, m->energy.file) : NULL;
  if (en && !path) return DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  rc = en ? dcsim__power_table_load(path, m->energy.freq, NULL, NULL, &T, err) : 0;
  if (!rc) rc = emit_package(f, m, en ? &T : NULL, err);
  if (!rc) rc = emit_dram(f, dir, m, en ? &T : NULL, err);
  dcsim__power_table_free(&T);
  free(path);
  if (rc) return rc;
  fputs("    <node", f);
  dcsim__xml_put_attr(f, "base-w", pm->node.base_w);
  dcsim__xml_put_attr(f, "load-overhead", pm->node.load_overhead);
  dcsim__xml_put_attr(f, "source", pm->node.source);
  fputs("/>\n  </power-model>\n", f);
  return 0;
}
