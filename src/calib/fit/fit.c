/* fit.c — LP/regression fits (see dcsim/fit.h). */
#include "dcsim/fit.h"

#include <glpk.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* The constraint matrix of the split LP as GLPK's triplets (1-based). */
typedef struct lp_triplets {
  int *ia, *ja;
  double *ar;
  int k; /* entries so far */
} lp_triplets;

/* Room for cap entries (GLPK counts from 1); 0, or -1 when out of memory. */
static int triplets_init(lp_triplets *m, size_t cap) {
  *m = (lp_triplets){ malloc((cap + 1) * sizeof *m->ia), malloc((cap + 1) * sizeof *m->ja),
                      malloc((cap + 1) * sizeof *m->ar), 0 };
  return m->ia && m->ja && m->ar ? 0 : -1;
}

static void triplets_release(lp_triplets *m) {
  free(m->ia);
  free(m->ja);
  free(m->ar);
}

static void entry(lp_triplets *m, int row, int col, double val) {
  m->k++;
  m->ia[m->k] = row;
  m->ja[m->k] = col;
  m->ar[m->k] = val;
}

/* Loads the matrix m into lp and solves it by the simplex method, presolved and quiet; `what`
 * names the LP in the error. */
static int solve_lp(glp_prob *lp, const lp_triplets *m, const char *what, dcsim_error *err) {
  glp_load_matrix(lp, m->k, m->ia, m->ja, m->ar);
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.presolve = GLP_ON;
  int s = glp_simplex(lp, &parm);
  if (s != 0 || glp_get_status(lp) != GLP_OPT)
    return DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0,
                     "%s: GLPK found no optimal solution (code %d, status %d)", what, s,
                     glp_get_status(lp));
  return 0;
}

/* Inputs checked; *nw: loops that compute. */
static int split_check(const dcsim_split_loop *loops, size_t n, double W, double Q, double T,
                       size_t *nw, dcsim_error *err) {
  if (n == 0 || !(Q > 0) || !(T > 0) || W < 0 || !isfinite(W) || !isfinite(Q) || !isfinite(T))
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "split: need loops, Q > 0, T > 0 and W >= 0");
  *nw = 0;
  for (size_t l = 0; l < n; l++) {
    if (!(loops[l].byte_rate > 0))
      return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "split: loop %zu has no byte rate", l);
    if (loops[l].flop_rate > 0) (*nw)++;
  }
  if (W > 0 && *nw == 0)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "split: W > 0 but no loop computes");
  return 0;
}

/* columns: a_l (n), b_l (n), da_l (n), db_l (n), e+, e- */
static void split_columns(glp_prob *lp, const dcsim_split_loop *loops, int na, double W) {
  glp_set_obj_dir(lp, GLP_MIN);
  glp_add_cols(lp, 4 * na + 2);
  for (int l = 0; l < na; l++) {
    int a = 1 + l, b = 1 + na + l, da = 1 + 2 * na + l, db = 1 + 3 * na + l;
    if (loops[l].flop_rate > 0 && W > 0)
      glp_set_col_bnds(lp, a, GLP_LO, 0, 0);
    else
      glp_set_col_bnds(lp, a, GLP_FX, 0, 0);
    glp_set_col_bnds(lp, b, GLP_LO, 0, 0);
    glp_set_col_bnds(lp, da, GLP_LO, 0, 0);
    glp_set_col_bnds(lp, db, GLP_LO, 0, 0);
    glp_set_obj_coef(lp, da, loops[l].flop_rate > 0 && W > 0 ? 1 : 0);
    glp_set_obj_coef(lp, db, 1);
  }
  glp_set_col_bnds(lp, 4 * na + 1, GLP_LO, 0, 0);
  glp_set_col_bnds(lp, 4 * na + 2, GLP_LO, 0, 0);
  glp_set_obj_coef(lp, 4 * na + 1, 1000);
  glp_set_obj_coef(lp, 4 * na + 2, 1000);
}

/* rows: the sums, every loop memory-bound, the modelled time, the distances to the even split */
static void split_rows(glp_prob *lp, lp_triplets *m, const dcsim_split_loop *loops, int na,
                       size_t nw, double W, double Q, double T) {
  int r = 0;
  glp_add_rows(lp, 2 + na + 1 + 4 * na);
  double ew = 1.0 / (double)(nw ? nw : 1), eq = 1.0 / (double)na;
  r++; /* sum a = 1 (or 0 without work) */
  glp_set_row_bnds(lp, r, GLP_FX, W > 0 ? 1 : 0, W > 0 ? 1 : 0);
  for (int l = 0; l < na; l++) entry(m, r, 1 + l, 1);
  r++; /* sum b = 1 */
  glp_set_row_bnds(lp, r, GLP_FX, 1, 1);
  for (int l = 0; l < na; l++) entry(m, r, 1 + na + l, 1);
  for (int l = 0; l < na; l++) { /* memory-bound: W a/F - Q b/M <= 0, scaled by 1/T */
    r++;
    glp_set_row_bnds(lp, r, GLP_UP, 0, 0);
    if (loops[l].flop_rate > 0) entry(m, r, 1 + l, W / loops[l].flop_rate / T);
    entry(m, r, 1 + na + l, -Q / loops[l].byte_rate / T);
  }
  r++; /* sum Q b/M /T + e+ - e- = 1 */
  glp_set_row_bnds(lp, r, GLP_FX, 1, 1);
  for (int l = 0; l < na; l++) entry(m, r, 1 + na + l, Q / loops[l].byte_rate / T);
  entry(m, r, 4 * na + 1, -1); /* e+ = model above measured */
  entry(m, r, 4 * na + 2, 1);
  for (int l = 0; l < na; l++) { /* |a - ew| <= da, |b - eq| <= db */
    double target = loops[l].flop_rate > 0 && W > 0 ? ew : 0;
    r++;
    glp_set_row_bnds(lp, r, GLP_LO, -target, 0);
    entry(m, r, 1 + 2 * na + l, 1);
    entry(m, r, 1 + l, -1);
    r++;
    glp_set_row_bnds(lp, r, GLP_LO, target, 0);
    entry(m, r, 1 + 2 * na + l, 1);
    entry(m, r, 1 + l, 1);
    r++;
    glp_set_row_bnds(lp, r, GLP_LO, -eq, 0);
    entry(m, r, 1 + 3 * na + l, 1);
    entry(m, r, 1 + na + l, -1);
    r++;
    glp_set_row_bnds(lp, r, GLP_LO, eq, 0);
    entry(m, r, 1 + 3 * na + l, 1);
    entry(m, r, 1 + na + l, 1);
  }
}

/* The shares of the optimum as work and traffic per loop, and the model's time with them. */
static void split_result(glp_prob *lp, const dcsim_split_loop *loops, int na, double W, double Q,
                         double T, double *w_out, double *q_out, dcsim_split_result *res) {
  double t = 0, dist = 0;
  for (int l = 0; l < na; l++) {
    double a = glp_get_col_prim(lp, 1 + l), b = glp_get_col_prim(lp, 1 + na + l);
    if (a < 0) a = 0;
    if (b < 0) b = 0;
    w_out[l] = a * W;
    q_out[l] = b * Q;
    double tf = loops[l].flop_rate > 0 ? w_out[l] / loops[l].flop_rate : 0;
    double tm = q_out[l] / loops[l].byte_rate;
    t += tf > tm ? tf : tm;
    dist += glp_get_col_prim(lp, 1 + 2 * na + l) + glp_get_col_prim(lp, 1 + 3 * na + l);
  }
  if (res) {
    res->model_time_s = t;
    res->residual_s = t - T;
    res->distance = dist;
  }
}

int dcsim_fit_split(const dcsim_split_loop *loops, size_t n, double W, double Q, double T,
                    double *w_out, double *q_out, dcsim_split_result *res, dcsim_error *err) {
  size_t nw = 0;
  int rc = split_check(loops, n, W, Q, T, &nw, err);
  if (rc) return rc;
  glp_prob *lp = glp_create_prob();
  int na = (int)n;
  split_columns(lp, loops, na, W);
  lp_triplets m;
  /* entries: 2n sums + 2n bound rows + n+2 time row + 8n deviations */
  if (triplets_init(&m, (size_t)(16 * na + 8))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    goto out;
  }
  split_rows(lp, &m, loops, na, nw, W, Q, T);
  if ((rc = solve_lp(lp, &m, "split LP", err))) goto out;
  split_result(lp, loops, na, W, Q, T, w_out, q_out, res);
out:
  triplets_release(&m);
  glp_delete_prob(lp);
  return rc;
}

/* ---- linear fits (see dcsim/fit.h) ---- */

#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>

static const char *const method_names[] = { "lad", "lsq", "endpoints" };

const char *dcsim_fit_method_name(dcsim_fit_method m) {
  return (unsigned)m < 3 ? method_names[m] : "?";
}

int dcsim_fit_method_parse(const char *s, dcsim_fit_method *m) {
  for (int i = 0; i < 3; i++)
    if (s && strcmp(s, method_names[i]) == 0) {
      *m = (dcsim_fit_method)i;
      return 0;
    }
  return -1;
}

static double row_scale(const dcsim_linfit *p, size_t i, double bmax) {
  if (!p->relative) return bmax > 0 ? bmax : 1;
  double s = fabs(p->b[i]);
  return s > 0 ? s : (bmax > 0 ? bmax : 1);
}

/* skip: observation left out (or SIZE_MAX). colscale: per column 1/max|A_ij|. */
static int fit_lad(const dcsim_linfit *p, size_t skip, const double *cs, double *x,
                   dcsim_error *err) {
  size_t n = p->n_obs, k = p->n_coef, m = 0;
  double bmax = 0;
  for (size_t i = 0; i < n; i++)
    if (fabs(p->b[i]) > bmax) bmax = fabs(p->b[i]);
  glp_prob *lp = glp_create_prob();
  glp_set_obj_dir(lp, GLP_MIN);
  int ncol = (int)(k + 2 * n);
  glp_add_cols(lp, ncol);
  for (size_t j = 0; j < k; j++) {
    int nn = p->nonneg && p->nonneg[j];
    glp_set_col_bnds(lp, (int)j + 1, nn ? GLP_LO : GLP_FR, 0, 0);
    if (p->reg)
      glp_set_obj_coef(lp, (int)j + 1,
                       1e-6 * p->reg[j] * cs[j]); /* per unit of the scaled variable */
  }
  for (size_t i = 0; i < n; i++) {
    double w = p->w ? p->w[i] : 1;
    int used = i != skip;
    glp_set_col_bnds(lp, (int)(k + 2 * i) + 1, GLP_LO, 0, 0);
    glp_set_col_bnds(lp, (int)(k + 2 * i) + 2, GLP_LO, 0, 0);
    glp_set_obj_coef(lp, (int)(k + 2 * i) + 1, used ? w : 0);
    glp_set_obj_coef(lp, (int)(k + 2 * i) + 2, used ? w : 0);
    if (used) m++;
  }
  lp_triplets t;
  int rc = 0, r = 0;
  if (triplets_init(&t, m * (k + 2) + 1)) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    goto out;
  }
  if (m) glp_add_rows(lp, (int)m);
  for (size_t i = 0; i < n; i++) {
    if (i == skip) continue;
    double s = row_scale(p, i, bmax);
    r++;
    glp_set_row_bnds(lp, r, GLP_FX, p->b[i] / s, p->b[i] / s);
    for (size_t j = 0; j < k; j++) {
      double a = p->A[i * k + j] * cs[j] / s;
      if (a != 0) entry(&t, r, (int)j + 1, a);
    }
    entry(&t, r, (int)(k + 2 * i) + 1, -1);
    entry(&t, r, (int)(k + 2 * i) + 2, 1);
  }
  if ((rc = solve_lp(lp, &t, "LAD LP", err))) goto out;
  for (size_t j = 0; j < k; j++) {
    double v = glp_get_col_prim(lp, (int)j + 1);
    if (p->nonneg && p->nonneg[j] && v < 0) v = 0;
    x[j] = v * cs[j];
  }
out:
  triplets_release(&t);
  glp_delete_prob(lp);
  return rc;
}

/* Unconstrained weighted LSQ on the columns in `use` (bit mask); 0 ok, -1 not solvable. */
static int lsq_subset(const dcsim_linfit *p, size_t skip, const double *cs, unsigned use, double *x,
                      double *chi2) {
  size_t n = p->n_obs, k = p->n_coef, m = 0, q = 0;
  double bmax = 0;
  for (size_t i = 0; i < n; i++)
    if (fabs(p->b[i]) > bmax) bmax = fabs(p->b[i]);
  for (size_t j = 0; j < k; j++)
    if (use >> j & 1u) q++;
  for (size_t i = 0; i < n; i++)
    if (i != skip) m++;
  for (size_t j = 0; j < k; j++) x[j] = 0;
  if (q == 0) { /* all coefficients zero */
    double c = 0;
    for (size_t i = 0; i < n; i++)
      if (i != skip) {
        double s = row_scale(p, i, bmax), r = p->b[i] / s;
        c += (p->w ? p->w[i] : 1) * r * r;
      }
    *chi2 = c;
    return 0;
  }
  if (m < q) return -1;
  gsl_matrix *X = gsl_matrix_alloc(m, q);
  gsl_vector *y = gsl_vector_alloc(m), *w = gsl_vector_alloc(m), *c = gsl_vector_alloc(q);
  gsl_matrix *cov = gsl_matrix_alloc(q, q);
  gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(m, q);
  int rc = -1;
  if (!X || !y || !w || !c || !cov || !ws) goto out;
  size_t r = 0;
  for (size_t i = 0; i < n; i++) {
    if (i == skip) continue;
    double s = row_scale(p, i, bmax);
    size_t cc = 0;
    for (size_t j = 0; j < k; j++)
      if (use >> j & 1u) gsl_matrix_set(X, r, cc++, p->A[i * k + j] * cs[j] / s);
    gsl_vector_set(y, r, p->b[i] / s);
    gsl_vector_set(w, r, p->w ? p->w[i] : 1);
    r++;
  }
  double chisq = 0;
  if (gsl_multifit_wlinear(X, w, y, c, cov, &chisq, ws) != GSL_SUCCESS) goto out;
  size_t cc = 0;
  for (size_t j = 0; j < k; j++)
    if (use >> j & 1u) x[j] = gsl_vector_get(c, cc++) * cs[j];
  for (size_t j = 0; j < k; j++)
    if (!isfinite(x[j])) goto out;
  *chi2 = chisq;
  rc = 0;
out:
  gsl_matrix_free(X);
  gsl_vector_free(y);
  gsl_vector_free(w);
  gsl_vector_free(c);
  gsl_matrix_free(cov);
  if (ws) gsl_multifit_linear_free(ws);
  return rc;
}

static int fit_lsq(const dcsim_linfit *p, size_t skip, const double *cs, double *x,
                   dcsim_error *err) {
  size_t k = p->n_coef;
  if (k > 12) return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "least squares: at most 12 coefficients");
  unsigned all = (1u << k) - 1, fixed = 0; /* coefficients that may be forced to 0 */
  for (size_t j = 0; j < k; j++)
    if (p->nonneg && p->nonneg[j]) fixed |= 1u << j;
  double best = INFINITY, tmp[12];
  int found = 0;
  for (unsigned sub = 0; sub <= fixed; sub++) {
    if ((sub & ~fixed) != 0) continue; /* sub = set of constrained coefficients put at 0 */
    double chi2;
    if (lsq_subset(p, skip, cs, all & ~sub, tmp, &chi2) != 0) continue;
    int ok = 1;
    for (size_t j = 0; j < k; j++)
      if ((fixed >> j & 1u) && tmp[j] < 0) ok = 0;
    if (ok && chi2 < best * (1 - 1e-12)) {
      best = chi2;
      memcpy(x, tmp, k * sizeof *x);
      found = 1;
    }
  }
  if (!found)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0,
                     "least squares: no solution (%zu observations for %zu coefficients)",
                     p->n_obs - (skip < p->n_obs), k);
  return 0;
}

static int fit_endpoints(const dcsim_linfit *p, size_t skip, double *x, dcsim_error *err) {
  if (p->n_coef != 2)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "endpoints fit: needs exactly 2 coefficients");
  size_t i0 = SIZE_MAX, i1 = SIZE_MAX;
  for (size_t i = 0; i < p->n_obs; i++) {
    if (i == skip) continue;
    if (i0 == SIZE_MAX) i0 = i;
    i1 = i;
  }
  if (i0 == SIZE_MAX || i0 == i1)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "endpoints fit: needs 2 observations");
  const double *a = p->A + i0 * 2, *c = p->A + i1 * 2;
  double det = a[0] * c[1] - a[1] * c[0]; /* Cramer's rule for the 2x2 system */
  if (det == 0 || !isfinite(det))
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0,
                     "endpoints fit: the two observations are not independent");
  x[0] = (p->b[i0] * c[1] - a[1] * p->b[i1]) / det;
  x[1] = (a[0] * p->b[i1] - p->b[i0] * c[0]) / det;
  return 0;
}

static int fit_one(const dcsim_linfit *p, dcsim_fit_method m, size_t skip, double *x,
                   dcsim_error *err) {
  size_t k = p->n_coef;
  double cs[64];
  if (k == 0 || k > 64) return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "fit: 1 to 64 coefficients");
  for (size_t j = 0; j < k; j++) { /* column scaling: unit maximum */
    double mx = 0;
    for (size_t i = 0; i < p->n_obs; i++)
      if (fabs(p->A[i * k + j]) > mx) mx = fabs(p->A[i * k + j]);
    cs[j] = mx > 0 ? 1 / mx : 1;
  }
  switch (m) {
    case DCSIM_FIT_LAD: return fit_lad(p, skip, cs, x, err);
    case DCSIM_FIT_LSQ: return fit_lsq(p, skip, cs, x, err);
    case DCSIM_FIT_ENDPOINTS: return fit_endpoints(p, skip, x, err);
  }
  return DCSIM_ERR(err, DCSIM_EUSAGE, "", 0, "fit: unknown method");
}

/* A value the solvers can scale: zero or a magnitude in [1e-60, 1e60]. GLPK aborts the process on
 * a scale factor that under- or overflows (found by fuzz_calib_fit with a 4.6e209 traffic). */
static int in_range(double v) { return v == 0 || (fabs(v) >= 1e-60 && fabs(v) <= 1e60); }

static int check_problem(const dcsim_linfit *p, dcsim_error *err) {
  if (p->n_obs == 0) return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "fit: no observations");
  for (size_t i = 0; i < p->n_obs; i++) {
    if (!isfinite(p->b[i]) || (p->w && !(p->w[i] >= 0 && isfinite(p->w[i]))))
      return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "fit: observation %zu is not finite", i + 1);
    int ok = in_range(p->b[i]) && (!p->w || in_range(p->w[i]));
    for (size_t j = 0; j < p->n_coef; j++) {
      if (!isfinite(p->A[i * p->n_coef + j]))
        return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "fit: observation %zu is not finite", i + 1);
      ok &= in_range(p->A[i * p->n_coef + j]);
    }
    if (!ok)
      return DCSIM_ERR(err, DCSIM_ERANGE, "", 0,
                       "fit: observation %zu has a value beyond 1e-60..1e60", i + 1);
  }
  return 0;
}

int dcsim_fit_linear(const dcsim_linfit *p, dcsim_fit_method m, double *coef, dcsim_error *err) {
  int rc = check_problem(p, err);
  return rc ? rc : fit_one(p, m, SIZE_MAX, coef, err);
}

static double predict(const dcsim_linfit *p, size_t i, const double *x) {
  double s = 0;
  for (size_t j = 0; j < p->n_coef; j++) s += p->A[i * p->n_coef + j] * x[j];
  return s;
}

static double rel_err(double pred, double b) {
  return b != 0 ? fabs(pred - b) / fabs(b) : fabs(pred - b);
}

int dcsim_fit_evaluate(const dcsim_linfit *p, dcsim_fit_method m, const double *coef, double *pred,
                       double *loo, dcsim_fit_stats *st, dcsim_error *err) {
  int rc = check_problem(p, err);
  if (rc) return rc;
  dcsim_fit_stats s = { 0, 0, NAN, NAN };
  double xl[64];
  size_t nl = 0;
  double lmax = 0, lsum = 0;
  for (size_t i = 0; i < p->n_obs; i++) {
    double y = predict(p, i, coef), e = rel_err(y, p->b[i]);
    if (pred) pred[i] = y;
    if (e > s.max_rel_err) s.max_rel_err = e;
    s.mean_rel_err += e / (double)p->n_obs;
    double yl = NAN;
    if (p->n_obs >= 2 && fit_one(p, m, i, xl, NULL) == 0) {
      yl = predict(p, i, xl);
      double el = rel_err(yl, p->b[i]);
      if (el > lmax) lmax = el;
      lsum += el;
      nl++;
    }
    if (loo) loo[i] = yl;
  }
  if (nl) {
    s.loo_max_rel_err = lmax;
    s.loo_mean_rel_err = lsum / (double)nl;
  }
  if (st) *st = s;
  return 0;
}
