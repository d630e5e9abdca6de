/* cpu_rates.c — tables where measured, the parametric model elsewhere (see dcsim/cpu_rates.h,
 * doc/models.md "Parametric CPU model"). */
#include "dcsim/cpu_rates.h"

#include <math.h>
#include <string.h>

void dcsim_cpu_split_threads(unsigned n, unsigned cores_per_socket, unsigned sockets, int scatter,
                             unsigned *per_socket) {
  for (unsigned s = 0; s < sockets; s++) per_socket[s] = 0;
  if (sockets == 0) return;
  if (scatter) { /* spread evenly, the first sockets take the remainder */
    for (unsigned s = 0; s < sockets; s++) per_socket[s] = n / sockets + (s < n % sockets);
    return;
  }
  for (unsigned s = 0; s < sockets && n > 0; s++) { /* compact: one socket full, then the next */
    unsigned k = n < cores_per_socket ? n : cores_per_socket;
    per_socket[s] = k;
    n -= k;
  }
  per_socket[sockets - 1] += n; /* beyond the node: the caller refuses it */
}

double dcsim_cpu_level_socket(const dcsim_cpu_perf_level *lv, double nominal_ghz, double ghz,
                              unsigned n_s) {
  if (n_s == 0) return 0;
  double rel = ghz / nominal_ghz;
  /* one core: per-cycle rate at the nominal clock, scaled by (f/f_nom)^freq_exp (doc/models.md) */
  double x = n_s * lv->per_cycle * nominal_ghz * 1e9 * pow(rel, lv->freq_exp);
  if (!lv->saturates) return x; /* private levels and the peak grow with the cores */
  /* shared levels: the smooth minimum (x^-k + S^-k)^(-1/k) = x (1 + (x/S)^k)^(-1/k) of demand and
   * the socket's ceiling (ECM-like saturation, doc/models.md), in logs so that no power
   * overflows */
  double S = lv->sat_bps * pow(rel, lv->sat_freq_exp), k = lv->knee;
  double v = k * log(x / S);
  double l1p = v > 40 ? v : log1p(exp(v));
  return x * exp(-l1p / k);
}

double dcsim_cpu_turbo_ghz(const dcsim_cpu_perf_model *pm, const dcsim_cpu_shape *sh,
                           unsigned n_s) {
  if (pm && pm->n_turbo) {
    for (size_t i = 0; i < pm->n_turbo; i++)
      if (n_s <= pm->turbo[i].cores) return pm->turbo[i].ghz;
    return pm->turbo[pm->n_turbo - 1].ghz;
  }
  return sh->turbo_ghz;
}

double dcsim_cpu_model_eval(const dcsim_cpu_perf_model *pm, const dcsim_cpu_shape *sh,
                            dcsim_cpu_qty q, double ghz, int turbo, unsigned threads) {
  unsigned per[64], ns = sh->sockets < 64 ? sh->sockets : 64;
  dcsim_cpu_split_threads(threads, sh->cores_per_socket, ns, pm->scatter, per);
  double sum = 0;
  for (unsigned k = 0; k < ns; k++) {
    if (!per[k]) continue;
    double f = turbo ? dcsim_cpu_turbo_ghz(pm, sh, per[k]) : ghz;
    if (!(f > 0)) return 0;
    sum += dcsim_cpu_level_socket(&pm->q[q], sh->nominal_ghz, f, per[k]); /* sockets add up */
  }
  return sum;
}

int dcsim_cpu_model_value(const dcsim_cpu_profile_t *p, dcsim_cpu_qty q, const dcsim_cpu_state *s,
                          double *out, dcsim_error *err) {
  const dcsim_cpu_perf_model *pm = dcsim_cpu_profile_perf_model(p);
  const char *path = dcsim_cpu_profile_path(p);
  if (!pm || !pm->q[q].present)
    return DCSIM_ERR(err, DCSIM_EREF, path, 0, "profile %s has no parametric model of %s",
                     dcsim_cpu_profile_name(p), dcsim_cpu_qty_name(q));
  dcsim_cpu_shape sh = { dcsim_cpu_profile_cores_per_socket(p), dcsim_cpu_profile_sockets(p),
                         dcsim_cpu_profile_nominal_ghz(p), dcsim_cpu_profile_turbo_ghz(p) };
  if (s->threads == 0 || s->threads > sh.cores_per_socket * sh.sockets)
    return DCSIM_ERR(err, DCSIM_ERANGE, path, 0, "%u threads: a %s node has 1..%u cores",
                     s->threads, dcsim_cpu_profile_name(p), sh.cores_per_socket * sh.sockets);
  if (sh.sockets > 64) return DCSIM_ERR(err, DCSIM_ERANGE, path, 0, "more than 64 sockets");
  int turbo = s->label && strcmp(s->label, "turbo") == 0;
  double v = dcsim_cpu_model_eval(pm, &sh, q, s->ghz, turbo, s->threads);
  if (!(v > 0))
    return DCSIM_ERR(err, DCSIM_ERANGE, path, pm->line,
                     "profile %s has no turbo clock (<turbo> bins or a turbo state)",
                     dcsim_cpu_profile_name(p));
  *out = v;
  return 0;
}

/* A model level's evidence: a datasheet ("spec: ...") or a fit carried beyond its data. */
static dcsim_prov model_prov(const dcsim_cpu_perf_level *lv) {
  int spec = strncmp(lv->source, "spec", 4) == 0;
  return dcsim_prov_make(spec ? DCSIM_PROV_SPEC : DCSIM_PROV_EXTRAPOLATED, lv->source);
}

/* Outside table q: the model's shape anchored on the nearest covered state. */
static int anchored(const dcsim_cpu_profile_t *p, dcsim_cpu_qty q, const dcsim_cpu_state *s,
                    double *out, dcsim_prov *prov, dcsim_error *err) {
  dcsim_cpu_state a;
  dcsim_prov ap;
  double va, ma, ms;
  int rc;
  if ((rc = dcsim_cpu_profile_anchor(p, q, s, &a, err)) ||
      (rc = dcsim_cpu_profile_lookup(p, q, &a, &va, &ap, err)) ||
      (rc = dcsim_cpu_model_value(p, q, &a, &ma, err)) ||
      (rc = dcsim_cpu_model_value(p, q, s, &ms, err)))
    return rc;
  *out = va * ms / ma; /* table(a) x model(s)/model(a): continuous at the table's edge */
  *prov = dcsim_prov_make(DCSIM_PROV_EXTRAPOLATED, dcsim_cpu_profile_perf_model(p)->q[q].source);
  return 0;
}

int dcsim_cpu_rate_at(const dcsim_cpu_profile_t *p, dcsim_cpu_qty q, const dcsim_cpu_state *s,
                      int table_only, double *out, dcsim_prov *prov, dcsim_error *err) {
  const dcsim_cpu_perf_model *pm = dcsim_cpu_profile_perf_model(p);
  int has_model = !table_only && pm && pm->q[q].present;
  dcsim_cpu_table_info ti;
  dcsim_cpu_profile_table_info(p, q, &ti);
  if (!ti.present) {
    if (!has_model) return dcsim_cpu_profile_lookup(p, q, s, out, prov, err); /* "no table" */
    int rc = dcsim_cpu_model_value(p, q, s, out, err);
    if (!rc) *prov = model_prov(&pm->q[q]);
    return rc;
  }
  if (!has_model) return dcsim_cpu_profile_lookup(p, q, s, out, prov, err);
  dcsim_error inside;
  int rc = dcsim_cpu_profile_lookup(p, q, s, out, prov, &inside);
  if (rc != DCSIM_ERANGE || s->threads == 0) {
    if (rc && err) *err = inside;
    return rc;
  }
  return anchored(p, q, s, out, prov, err);
}

double dcsim_cpu_highest_ghz(const dcsim_cpu_profile_t *p) {
  double t = dcsim_cpu_profile_turbo_ghz(p), m = dcsim_cpu_profile_max_ghz(p);
  return t > m ? t : m;
}

int dcsim_cpu_rates_at(const dcsim_cpu_profile_t *p, const dcsim_cpu_state *s, int table_only,
                       dcsim_cpu_rates *out, dcsim_error *err) {
  if (table_only) return dcsim_cpu_profile_rates(p, s, out, err);
  /* no part runs faster than its highest clock: the model is not asked beyond it */
  double top = dcsim_cpu_highest_ghz(p);
  if (!s->label && s->ghz > top * (1 + 1e-9))
    return DCSIM_ERR(err, DCSIM_ERANGE, dcsim_cpu_profile_path(p), 0,
                     "frequency %g GHz is beyond the highest clock of %s (%g GHz, %s)", s->ghz,
                     dcsim_cpu_profile_name(p), top,
                     dcsim_cpu_profile_turbo_ghz(p) > 0
                         ? "its turbo"
                         : "its highest state; no turbo state known");
  dcsim_cpu_rates r;
  memset(&r, 0, sizeof r);
  for (int q = 0; q < DCSIM_CPU_NQTY; q++) r.qprov[q] = dcsim_prov_make(DCSIM_PROV_TABLE, "");
  const dcsim_cpu_perf_model *pm = dcsim_cpu_profile_perf_model(p);
  double *dst[DCSIM_CPU_NQTY] = { &r.flops, &r.l1_bps, &r.l2_bps, &r.l3_bps, &r.dram_bps };
  int *has[DCSIM_CPU_NQTY] = { NULL, &r.has_l1, &r.has_l2, &r.has_l3, NULL };
  for (int q = 0; q < DCSIM_CPU_NQTY; q++) {
    dcsim_cpu_table_info ti;
    dcsim_cpu_profile_table_info(p, (dcsim_cpu_qty)q, &ti);
    int avail = ti.present || (pm && pm->q[q].present);
    if (has[q] && !(*has[q] = avail)) continue; /* optional cache levels stay 0, flag cleared */
    dcsim_prov here;
    int rc = dcsim_cpu_rate_at(p, (dcsim_cpu_qty)q, s, 0, dst[q], &here, err);
    if (rc) return rc;
    r.prov = q == 0 ? here : dcsim_prov_weakest(r.prov, here);
    r.qprov[q] = here;
  }
  *out = r;
  return 0;
}
