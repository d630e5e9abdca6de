/* fit.c — LP/regression fits (see dcsim/fit.h). */
#include "dcsim/fit.h"

#include <glpk.h>
#include <math.h>
#include <stdlib.h>


int dcsim_fit_split(const dcsim_split_loop *loops, size_t n, double W, double Q, double T,
                    double *w_out, double *q_out, dcsim_split_result *res, dcsim_error *err) {
  if (n == 0 || !(Q > 0) || !(T > 0) || W < 0 || !isfinite(W) || !isfinite(Q) || !isfinite(T))
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "split: need loops, Q > 0, T > 0 and W >= 0");
  size_t nw = 0;
  for (size_t l = 0; l < n; l++) {
    if (!(loops[l].byte_rate > 0)) return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "split: loop %zu has no byte rate", l);
    if (loops[l].flop_rate > 0) nw++;
  }
  if (W > 0 && nw == 0) return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "split: W > 0 but no loop computes");
  glp_prob *lp = glp_create_prob();
  glp_set_obj_dir(lp, GLP_MIN);
  /* columns: a_l (n), b_l (n), da_l (n), db_l (n), e+, e- */
  int na = (int)n, ncol = 4 * na + 2;
  glp_add_cols(lp, ncol);
  for (int l = 0; l < na; l++) {
    int a = 1 + l, b = 1 + na + l, da = 1 + 2 * na + l, db = 1 + 3 * na + l;
    if (loops[l].flop_rate > 0 && W > 0) glp_set_col_bnds(lp, a, GLP_LO, 0, 0);
    else glp_set_col_bnds(lp, a, GLP_FX, 0, 0);
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
  /* rows */
  int nrow = 2 + na + 1 + 4 * na;
  glp_add_rows(lp, nrow);
  size_t cap = (size_t)(16 * na + 8); /* entries: 2n sums + 2n bound rows + n+2 time row + 8n deviations */
  int *ia = malloc((cap + 1) * sizeof *ia), *ja = malloc((cap + 1) * sizeof *ja);
  double *ar = malloc((cap + 1) * sizeof *ar);
  int rc = 0, k = 0, r = 0;
  if (!ia || !ja || !ar) { rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory"); goto out; }
#define ENTRY(row, col, val) do { k++; ia[k] = (row); ja[k] = (col); ar[k] = (val); } while (0)
  double ew = 1.0 / (double)(nw ? nw : 1), eq = 1.0 / (double)n;
  r++; /* sum a = 1 (or 0 without work) */
  glp_set_row_bnds(lp, r, GLP_FX, W > 0 ? 1 : 0, W > 0 ? 1 : 0);
  for (int l = 0; l < na; l++) ENTRY(r, 1 + l, 1);
  r++; /* sum b = 1 */
  glp_set_row_bnds(lp, r, GLP_FX, 1, 1);
  for (int l = 0; l < na; l++) ENTRY(r, 1 + na + l, 1);
  for (int l = 0; l < na; l++) { /* memory-bound: W a/F - Q b/M <= 0, scaled by 1/T */
    r++;
    glp_set_row_bnds(lp, r, GLP_UP, 0, 0);
    if (loops[l].flop_rate > 0) ENTRY(r, 1 + l, W / loops[l].flop_rate / T);
    ENTRY(r, 1 + na + l, -Q / loops[l].byte_rate / T);
  }
  r++; /* sum Q b/M /T + e+ - e- = 1 */
  glp_set_row_bnds(lp, r, GLP_FX, 1, 1);
  for (int l = 0; l < na; l++) ENTRY(r, 1 + na + l, Q / loops[l].byte_rate / T);
  ENTRY(r, 4 * na + 1, -1); /* e+ = model above measured */
  ENTRY(r, 4 * na + 2, 1);
  for (int l = 0; l < na; l++) { /* |a - ew| <= da, |b - eq| <= db */
    double target = loops[l].flop_rate > 0 && W > 0 ? ew : 0;
    r++; glp_set_row_bnds(lp, r, GLP_LO, -target, 0); ENTRY(r, 1 + 2 * na + l, 1); ENTRY(r, 1 + l, -1);
    r++; glp_set_row_bnds(lp, r, GLP_LO, target, 0);  ENTRY(r, 1 + 2 * na + l, 1); ENTRY(r, 1 + l, 1);
    r++; glp_set_row_bnds(lp, r, GLP_LO, -eq, 0);     ENTRY(r, 1 + 3 * na + l, 1); ENTRY(r, 1 + na + l, -1);
    r++; glp_set_row_bnds(lp, r, GLP_LO, eq, 0);      ENTRY(r, 1 + 3 * na + l, 1); ENTRY(r, 1 + na + l, 1);
  }
#undef ENTRY
  glp_load_matrix(lp, k, ia, ja, ar);
  glp_smcp parm;
  glp_init_smcp(&parm);
  parm.msg_lev = GLP_MSG_OFF;
  parm.presolve = GLP_ON;
  int s = glp_simplex(lp, &parm);
  if (s != 0 || glp_get_status(lp) != GLP_OPT) {
    rc = DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0, "split LP: GLPK found no optimal solution (code %d, status %d)", s, glp_get_status(lp));
    goto out;
  }
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
out:
  free(ia);
  free(ja);
  free(ar);
  glp_delete_prob(lp);
  return rc;
}
