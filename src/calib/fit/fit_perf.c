/* fit_perf.c — the parametric CPU model fitted to table cells, or derived from a datasheet and a
 * reference fit (see dcsim/fit_perf.h, doc/calibration.md "The parametric model"). */
#include "dcsim/fit_perf.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/cpu_rates.h"
#include "dcsim/numfmt.h"
#include "dcsim/strutil.h"
#include "util/xmledit.h"

/* Defaults without a reference (assumptions, doc/calibration.md): per-core cache rates follow the
 * core clock (ECM: cache transfers are counted in core cycles); a core's DRAM rate half-way between
 * latency-bound (0) and clock-bound (1); an L3 ceiling following the clock (the uncore clock
 * follows the cores), a DRAM ceiling that does not; a knee of sharpness 4. */
static const double default_freq_exp[DCSIM_CPU_NQTY] = { 1, 1, 1, 1, 0.5 };
static const double default_sat_freq_exp[DCSIM_CPU_NQTY] = { 0, 0, 0, 1, 0 };
#define DEFAULT_KNEE 4.0
#define KNEE_MIN     0.5
#define KNEE_MAX     64.0
#define EXP_MAX      2.0 /* frequency exponents stay in [0, 2] (rates never fall with the clock) */

static double clamp(double v, double lo, double hi) { return v < lo ? lo : v > hi ? hi : v; }

/* what one level's fit works on */
typedef struct lvl_ctx {
  const dcsim_perf_machine *m;
  dcsim_cpu_qty q;
  const dcsim_perf_obs **cells;
  size_t n;
  int free_delta, free_sat, free_gamma, free_knee;
  dcsim_cpu_perf_model pm; /* the level being fitted sits in pm.q[q]; fixed values preset */
} lvl_ctx;

static dcsim_cpu_shape shape_of(const dcsim_perf_machine *m) {
  dcsim_cpu_shape sh = { m->cores_per_socket, m->sockets, m->nominal_ghz, 0 };
  return sh;
}

/* Bounded parameters without flat regions: v = lo + (hi - lo) / (1 + e^-u), and back. */
static double squash(double u, double lo, double hi) { return lo + (hi - lo) / (1 + exp(-u)); }
static double unsquash(double v, double lo, double hi) {
  double t = clamp((v - lo) / (hi - lo), 1e-6, 1 - 1e-6);
  return log(t / (1 - t));
}

/* parameter vector -> level: the rate and ceiling in logs (positive), the frequency exponents in
 * [0, EXP_MAX], the knee's log in [log KNEE_MIN, log KNEE_MAX] */
static void unpack(const gsl_vector *x, lvl_ctx *c) {
  dcsim_cpu_perf_level *lv = &c->pm.q[c->q];
  size_t i = 0;
  lv->per_cycle = exp(gsl_vector_get(x, i++));
  if (c->free_delta) lv->freq_exp = squash(gsl_vector_get(x, i++), 0, EXP_MAX);
  if (c->free_sat) lv->sat_bps = exp(gsl_vector_get(x, i++));
  if (c->free_gamma) lv->sat_freq_exp = squash(gsl_vector_get(x, i++), 0, EXP_MAX);
  if (c->free_knee) lv->knee = exp(squash(gsl_vector_get(x, i++), log(KNEE_MIN), log(KNEE_MAX)));
}

static int resid(const gsl_vector *x, void *params, gsl_vector *f) {
  lvl_ctx *c = params;
  unpack(x, c);
  dcsim_cpu_shape sh = shape_of(c->m);
  for (size_t i = 0; i < c->n; i++) {
    const dcsim_perf_obs *o = c->cells[i];
    double v = dcsim_cpu_model_eval(&c->pm, &sh, c->q, o->ghz, 0, o->threads);
    gsl_vector_set(f, i, v > 0 && isfinite(v) ? log(v / o->value) : 50.0); /* relative error */
  }
  return GSL_SUCCESS;
}

/* One least-squares run from x0; the cost (sum of squared log-ratios), or INFINITY. */
static double solve(lvl_ctx *c, gsl_vector *x0, gsl_vector *best) {
  size_t p = x0->size;
  gsl_multifit_nlinear_fdf fdf = { resid, NULL, NULL, c->n, p, c, 0, 0, 0 };
  gsl_multifit_nlinear_parameters fp = gsl_multifit_nlinear_default_parameters();
  gsl_multifit_nlinear_workspace *w =
      gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &fp, c->n, p);
  if (!w) return INFINITY;
  double cost = INFINITY;
  int info = 0;
  if (gsl_multifit_nlinear_init(x0, &fdf, w) == GSL_SUCCESS) {
    int st = gsl_multifit_nlinear_driver(300, 1e-12, 1e-12, 1e-12, NULL, NULL, &info, w);
    if (st == GSL_SUCCESS || st == GSL_EMAXITER) {
      gsl_vector *r = gsl_multifit_nlinear_residual(w);
      double s = 0;
      for (size_t i = 0; i < r->size; i++) s += gsl_vector_get(r, i) * gsl_vector_get(r, i);
      if (isfinite(s)) {
        cost = s;
        gsl_vector_memcpy(best, gsl_multifit_nlinear_position(w));
      }
    }
  }
  gsl_multifit_nlinear_free(w);
  return cost;
}

/* the highest measured rate of one socket (a cell's value over the sockets its threads use) */
static double max_socket_rate(const lvl_ctx *c) {
  double mx = 0;
  for (size_t i = 0; i < c->n; i++) {
    unsigned per[64], used = 0;
    unsigned ns = c->m->sockets < 64 ? c->m->sockets : 64;
    dcsim_cpu_split_threads(c->cells[i]->threads, c->m->cores_per_socket, ns, c->m->scatter, per);
    for (unsigned k = 0; k < ns; k++) used += per[k] > 0;
    double v = c->cells[i]->value / (used ? used : 1);
    if (v > mx) mx = v;
  }
  return mx;
}

/* Fits the free parameters of c from a few fixed starts (deterministic); 0, or -1 on failure. */
static int fit_free(lvl_ctx *c) {
  size_t p = 1 + (size_t)c->free_delta + (size_t)c->free_sat + (size_t)c->free_gamma +
             (size_t)c->free_knee;
  if (c->n < p) return -1;
  gsl_vector *x0 = gsl_vector_alloc(p), *xb = gsl_vector_alloc(p), *xt = gsl_vector_alloc(p);
  if (!x0 || !xb || !xt) {
    gsl_vector_free(x0);
    gsl_vector_free(xb);
    gsl_vector_free(xt);
    return -1;
  }
  /* start: the per-cycle rate of the smallest cell, the ceiling above the highest socket rate */
  double pc0 = INFINITY;
  for (size_t i = 0; i < c->n; i++) {
    const dcsim_perf_obs *o = c->cells[i];
    double v = o->value / (o->threads * o->ghz * 1e9);
    if (v < pc0) pc0 = v;
  }
  static const double knees[] = { 2, 6, 16 };
  double best = INFINITY, smax = max_socket_rate(c);
  for (size_t s = 0; s < (c->free_knee ? 3u : 1u); s++) {
    size_t i = 0;
    gsl_vector_set(x0, i++, log(pc0));
    if (c->free_delta) gsl_vector_set(x0, i++, unsquash(1.0, 0, EXP_MAX));
    if (c->free_sat) gsl_vector_set(x0, i++, log(1.1 * smax));
    if (c->free_gamma) gsl_vector_set(x0, i++, unsquash(0.5, 0, EXP_MAX));
    if (c->free_knee)
      gsl_vector_set(x0, i++, unsquash(log(knees[s]), log(KNEE_MIN), log(KNEE_MAX)));
    double cost = solve(c, x0, xt);
    if (cost < best) {
      best = cost;
      gsl_vector_memcpy(xb, xt);
    }
  }
  if (isfinite(best)) unpack(xb, c);
  gsl_vector_free(x0);
  gsl_vector_free(xb);
  gsl_vector_free(xt);
  return isfinite(best) ? 0 : -1;
}

/* The reference's per-core law r_ref(f) = pc_ref f_ref (f/f_ref)^d carried to this machine's
 * nominal clock: per cycle pc = pc_ref (f_nom/f_ref)^(d-1). */
static double carried_per_cycle(const dcsim_perf_fit *ref, dcsim_cpu_qty q, double fnom) {
  const dcsim_cpu_perf_level *r = &ref->model.q[q];
  return r->per_cycle * pow(fnom / ref->machine.nominal_ghz, r->freq_exp - 1);
}

/* A ceiling the cells do not determine: the reference's scaled by the datasheets (L3: cores per
 * socket and clock; DRAM: sustained memory bandwidth, else the reference's sustained fraction of
 * its peak times this peak), else the highest measured socket rate. *why says which. */
static double assumed_ceiling(const dcsim_perf_machine *m, const dcsim_perf_fit *ref,
                              dcsim_cpu_qty q, double measured_max, char *why, size_t wsize) {
  const dcsim_cpu_perf_level *r = ref ? &ref->model.q[q] : NULL;
  if (q == DCSIM_CPU_DRAM && m->ds.mem_sustained_bps > 0) {
    snprintf(why, wsize, "ceiling %.4g GB/s = the datasheet's sustained memory bandwidth (%s)",
             m->ds.mem_sustained_bps / 1e9, m->ds.mem_source);
    return m->ds.mem_sustained_bps;
  }
  if (r && r->present && r->saturates) {
    if (q == DCSIM_CPU_DRAM && m->ds.mem_peak_bps > 0 && ref->machine.ds.mem_peak_bps > 0) {
      double frac = r->sat_bps / ref->machine.ds.mem_peak_bps;
      snprintf(why, wsize,
               "ceiling %.4g GB/s = %.3g (sustained/peak of reference %s) x peak %.4g GB/s (%s)",
               frac * m->ds.mem_peak_bps / 1e9, frac, ref->machine.name, m->ds.mem_peak_bps / 1e9,
               m->ds.mem_source);
      return frac * m->ds.mem_peak_bps;
    }
    if (q == DCSIM_CPU_L3) {
      double s = r->sat_bps * ((double)m->cores_per_socket / ref->machine.cores_per_socket) *
                 pow(m->nominal_ghz / ref->machine.nominal_ghz, r->sat_freq_exp);
      snprintf(why, wsize,
               "ceiling %.4g GB/s = reference %s's x %u/%u cores per socket (L3 slices) at this "
               "clock",
               s / 1e9, ref->machine.name, m->cores_per_socket, ref->machine.cores_per_socket);
      return s;
    }
  }
  if (measured_max > 0) {
    snprintf(why, wsize,
             "ceiling %.4g GB/s = the highest measured socket rate (no saturation in "
             "the cells)",
             measured_max / 1e9);
    return measured_max;
  }
  why[0] = '\0';
  return 0;
}

/* fixed values before the fit: the reference's where it has the level, else the defaults */
static void preset(lvl_ctx *c, const dcsim_perf_fit *ref, dcsim_str *assumed) {
  dcsim_cpu_perf_level *lv = &c->pm.q[c->q];
  const dcsim_cpu_perf_level *r = ref ? &ref->model.q[c->q] : NULL;
  int use_ref = r && r->present;
  lv->present = 1;
  lv->freq_exp = c->q == DCSIM_CPU_FLOPS ? 1 : use_ref ? r->freq_exp : default_freq_exp[c->q];
  lv->sat_freq_exp = use_ref && r->saturates ? r->sat_freq_exp : default_sat_freq_exp[c->q];
  lv->knee = use_ref && r->saturates ? r->knee : DEFAULT_KNEE;
  const char *from = use_ref ? ref->machine.name : "default";
  if (c->q != DCSIM_CPU_FLOPS && !c->free_delta)
    dcsim_str_addf(assumed, "%sfreq-exp %.3g (%s: one frequency)", assumed->len ? "; " : "",
                   lv->freq_exp, from);
  if (c->free_sat && !c->free_gamma)
    dcsim_str_addf(assumed, "%ssat-freq-exp %.3g (%s: one frequency)", assumed->len ? "; " : "",
                   lv->sat_freq_exp, from);
  if (c->free_sat && !c->free_knee)
    dcsim_str_addf(assumed, "%sknee %.3g (%s: fewer than 4 thread counts per socket)",
                   assumed->len ? "; " : "", lv->knee, from);
}

/* thread counts per socket the cells show (distinct), and distinct plain frequencies */
static void count_spread(const lvl_ctx *c, size_t *n_threads, size_t *n_freqs) {
  unsigned seen_t[256];
  double seen_f[256];
  size_t nt = 0, nf = 0;
  for (size_t i = 0; i < c->n; i++) {
    unsigned per[64], ns = c->m->sockets < 64 ? c->m->sockets : 64;
    dcsim_cpu_split_threads(c->cells[i]->threads, c->m->cores_per_socket, ns, c->m->scatter, per);
    size_t k = 0;
    while (k < nt && seen_t[k] != per[0]) k++;
    if (k == nt && nt < 256) seen_t[nt++] = per[0];
    k = 0;
    while (k < nf && fabs(seen_f[k] - c->cells[i]->ghz) > 1e-9) k++;
    if (k == nf && nf < 256) seen_f[nf++] = c->cells[i]->ghz;
  }
  *n_threads = nt;
  *n_freqs = nf;
}

/* errors of the level at its cells, into the report */
static void level_errors(lvl_ctx *c, dcsim_perf_level_report *rep) {
  dcsim_cpu_shape sh = shape_of(c->m);
  double ss = 0;
  rep->n_cells = c->n;
  rep->max_rel = 0;
  for (size_t i = 0; i < c->n; i++) {
    const dcsim_perf_obs *o = c->cells[i];
    double e = dcsim_cpu_model_eval(&c->pm, &sh, c->q, o->ghz, 0, o->threads) / o->value - 1;
    ss += e * e;
    if (fabs(e) >= rep->max_rel) {
      rep->max_rel = fabs(e);
      rep->worst_threads = o->threads;
      rep->worst_ghz = o->ghz;
    }
  }
  rep->rms_rel = c->n ? sqrt(ss / c->n) : 0;
}

/* A ceiling the cells do not determine (shared levels): assumed, never below the highest measured
 * socket rate, with the knee still fitted when the cells have the thread counts for it. */
static int fixed_ceiling(lvl_ctx *c, const dcsim_perf_fit *ref, size_t nt, dcsim_str *assumed) {
  dcsim_cpu_perf_level *lv = &c->pm.q[c->q];
  char why[320];
  double smax = max_socket_rate(c), s = assumed_ceiling(c->m, ref, c->q, smax, why, sizeof why);
  if (s < smax) {
    snprintf(why, sizeof why,
             "ceiling %.4g GB/s = the highest measured socket rate (the datasheet's is lower)",
             smax / 1e9);
    s = smax;
  }
  c->free_sat = c->free_gamma = 0;
  c->free_knee = nt >= 4;
  dcsim_str_release(assumed);
  preset(c, ref, assumed);
  lv->saturates = 1;
  lv->sat_bps = s;
  dcsim_str_addf(assumed, "%s%s; sat-freq-exp %.3g (%s)", assumed->len ? "; " : "", why,
                 lv->sat_freq_exp,
                 ref && ref->model.q[c->q].present ? ref->machine.name : "default");
  if (!c->free_knee)
    dcsim_str_addf(assumed, "; knee %.3g (%s)", lv->knee,
                   ref && ref->model.q[c->q].present ? ref->machine.name : "default");
  return fit_free(c);
}

/* errors, fitted and assumed into the report and the level's source */
static void level_source(lvl_ctx *c, const char *assumed, dcsim_perf_fit *out) {
  dcsim_cpu_qty q = c->q;
  dcsim_perf_level_report rep = { 0 };
  snprintf(rep.fitted, sizeof rep.fitted, "per-cycle%s%s%s%s", c->free_delta ? ", freq-exp" : "",
           c->free_sat ? ", sat-bps" : "", c->free_gamma ? ", sat-freq-exp" : "",
           c->free_knee ? ", knee" : "");
  snprintf(rep.assumed, sizeof rep.assumed, "%s", assumed);
  level_errors(c, &rep);
  snprintf(out->src[q], sizeof out->src[q],
           "fitted to %s (%s; %zu cells, rms %.2f %%, worst %.2f %% at %u threads, %g GHz)%s%s",
           c->m->table_source[q] ? c->m->table_source[q] : "table", rep.fitted, c->n,
           100 * rep.rms_rel, 100 * rep.max_rel, rep.worst_threads, rep.worst_ghz,
           *assumed ? "; assumed: " : "", assumed);
  out->rep[q] = rep;
}

/* One level from its cells: what they determine is fitted, the rest assumed. */
static int fit_level(lvl_ctx *c, const dcsim_perf_fit *ref, dcsim_perf_fit *out, dcsim_error *err) {
  dcsim_cpu_qty q = c->q;
  size_t nt, nf;
  count_spread(c, &nt, &nf);
  int shared = q == DCSIM_CPU_L3 || q == DCSIM_CPU_DRAM;
  c->free_delta = q != DCSIM_CPU_FLOPS && nf >= 2;
  c->free_sat = shared && nt >= 3;
  c->free_gamma = c->free_sat && nf >= 2;
  c->free_knee = c->free_sat && nt >= 4;
  dcsim_str assumed = DCSIM_STR_INIT;
  dcsim_cpu_perf_level *lv = &c->pm.q[q];
  preset(c, ref, &assumed);
  double smax = max_socket_rate(c);
  lv->saturates = c->free_sat;
  lv->sat_bps = 1.1 * smax;
  int rc = fit_free(c);
  /* a fitted ceiling beyond twice the highest socket rate: the cells never reach it */
  if (!rc && shared && (!c->free_sat || lv->sat_bps > 2 * smax))
    rc = fixed_ceiling(c, ref, nt, &assumed);
  if (rc)
    rc = DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0, "%s: the fit of %s did not converge", c->m->name,
                   dcsim_cpu_qty_name(q));
  else if (assumed.oom)
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "%s: out of memory", c->m->name);
  else
    level_source(c, dcsim_str_cstr(&assumed), out);
  dcsim_str_release(&assumed);
  return rc;
}

/* A provenance text that did not fit its buffer ends in "..." rather than mid-word unmarked. */
static void mark_cut(char *buf, size_t size) {
  if (size >= 4) memcpy(buf + size - 4, "...", 4);
}

/* A level without cells anchored on a published measurement (<datasheet><measured>): the rate
 * of one core from the one-core figure, carried from its clock to the nominal one by the
 * reference's frequency exponent; for a shared level the socket's ceiling solved from the socket
 * figure, S = (B^-k - x^-k)^(-1/k) with x = socket_cores x the one-core rate, so that the smooth
 * minimum (dcsim/cpu_rates.h) gives that figure at that core count. A socket figure above what
 * the one-core rate can give (x <= B) is not used: no core count of the level gives it (the
 * Sapphire Rapids "L3" socket figure is of a working set that fits the 52 cores' L2s; the
 * one-core figure is what dcsim bench measures on an Emerald Rapids core); the ceiling is then
 * assumed as for a datasheet-only level, and the source says so. Exponents and the knee stay the
 * reference's. The source starts "published:", so the level is extrapolated, not spec
 * (dcsim/provenance.h). */
static int anchored_level(const dcsim_perf_machine *m, dcsim_cpu_qty q, const dcsim_perf_fit *ref,
                          dcsim_perf_fit *out) {
  const dcsim_cpu_measured_bw *b = &m->ds.measured[q];
  dcsim_cpu_perf_level *lv = &out->model.q[q];
  const double f = m->nominal_ghz;
  double one = b->one_core_bps * pow(f / b->ghz, lv->freq_exp); /* at the nominal clock */
  char why[400] = "";
  if (b->socket_bps > 0) {
    double x = b->socket_cores * one;
    if (x <= b->socket_bps * (1 + 1e-9)) {
      char ceil[320] = "";
      if (lv->saturates) lv->sat_bps = assumed_ceiling(m, ref, q, 0, ceil, sizeof ceil);
      if (dcsim_bufprintf(
              why, sizeof why,
              "; the socket's %.4g GB/s at %u cores is above %u x the one-core figure, which no "
              "core count of this level can give (per-core rates do not grow with the load; a "
              "working set that fits the cores' private caches at that count would): not used%s%s",
              b->socket_bps / 1e9, b->socket_cores, b->socket_cores, *ceil ? "; " : "", ceil) < 0)
        mark_cut(why, sizeof why);
    } else if (lv->saturates) {
      double k = lv->knee;
      /* (B^-k - x^-k)^(-1/k) = B (1 - (B/x)^k)^(-1/k), in ratios so that no power underflows */
      lv->sat_bps = b->socket_bps * pow(1 - pow(b->socket_bps / x, k), -1 / k);
      snprintf(why, sizeof why, "; ceiling %.4g GB/s from the socket's %.4g GB/s at %u cores",
               lv->sat_bps / 1e9, b->socket_bps / 1e9, b->socket_cores);
    }
  } else if (lv->saturates) {
    char ceil[320] = "";
    lv->sat_bps = assumed_ceiling(m, ref, q, 0, ceil, sizeof ceil);
    snprintf(why, sizeof why, "; %s", ceil);
  }
  lv->per_cycle = one / (f * 1e9);
  if (dcsim_bufprintf(
          out->src[q], sizeof out->src[q],
          "published: one core %.4g GB/s at %g GHz (%.4g byte/cycle at %g GHz by freq-exp %.3g "
          "of reference %s)%s; %s",
          b->one_core_bps / 1e9, b->ghz, lv->per_cycle, f, lv->freq_exp, ref->machine.name, why,
          b->source) < 0)
    mark_cut(out->src[q], sizeof out->src[q]);
  snprintf(out->rep[q].assumed, sizeof out->rep[q].assumed, "%s", out->src[q]);
  return 0;
}

/* A level without cells, from the datasheet (peak) or the reference carried per core (spec). */
static int derive_level(const dcsim_perf_machine *m, dcsim_cpu_qty q, const dcsim_perf_fit *ref,
                        dcsim_perf_fit *out, dcsim_error *err) {
  dcsim_cpu_perf_level *lv = &out->model.q[q];
  dcsim_perf_level_report *rep = &out->rep[q];
  if (q == DCSIM_CPU_FLOPS) {
    if (!(m->ds.isa_flop_per_cycle > 0))
      return DCSIM_ERR(err, DCSIM_EREF, "", 0,
                       "%s: no flops table and no <datasheet><isa flop-per-cycle> to derive the "
                       "peak from",
                       m->name);
    *lv = (dcsim_cpu_perf_level){ .present = 1,
                                  .per_cycle = m->ds.isa_flop_per_cycle,
                                  .freq_exp = 1 };
    snprintf(out->src[q], sizeof out->src[q],
             "spec: peak = cores x f x %g flop/cycle of the ISA (%s)", m->ds.isa_flop_per_cycle,
             m->ds.isa_source);
    snprintf(rep->assumed, sizeof rep->assumed, "%s", out->src[q]);
    return 0;
  }
  if (!ref || !ref->model.q[q].present) {
    if (q != DCSIM_CPU_DRAM) return 0; /* an optional level stays absent */
    return DCSIM_ERR(err, DCSIM_EREF, "", 0,
                     "%s: no DRAM table and no <perf-fit reference> to derive the memory "
                     "bandwidth from",
                     m->name);
  }
  const dcsim_cpu_perf_level *r = &ref->model.q[q];
  *lv = *r;
  if (m->ds.measured[q].source) return anchored_level(m, q, ref, out);
  lv->per_cycle = carried_per_cycle(ref, q, m->nominal_ghz);
  char why[320] = "";
  if (r->saturates) {
    if (q == DCSIM_CPU_DRAM && !(m->ds.mem_peak_bps > 0) && !(m->ds.mem_sustained_bps > 0))
      return DCSIM_ERR(err, DCSIM_EREF, "", 0,
                       "%s: no DRAM table and no <datasheet><memory peak-bps> to scale the "
                       "memory bandwidth by",
                       m->name);
    lv->sat_bps = assumed_ceiling(m, ref, q, 0, why, sizeof why);
  }
  snprintf(out->src[q], sizeof out->src[q],
           "spec: per core %.4g byte/cycle at %g GHz, freq-exp %.3g, carried from the fit of "
           "reference %s%s%s",
           lv->per_cycle, m->nominal_ghz, lv->freq_exp, ref->machine.name, *why ? "; " : "", why);
  snprintf(rep->assumed, sizeof rep->assumed, "%s", out->src[q]);
  return 0;
}

/* Turbo bins from the peak table's turbo column: clock = cell / (cores x flop per cycle). */
static void turbo_bins(const dcsim_perf_machine *m, const dcsim_perf_obs *obs, size_t n,
                       dcsim_perf_fit *out) {
  dcsim_cpu_perf_model *pm = &out->model;
  double pc = pm->q[DCSIM_CPU_FLOPS].per_cycle;
  for (size_t i = 0; i < n; i++) {
    const dcsim_perf_obs *o = &obs[i];
    if (o->q != DCSIM_CPU_FLOPS || !o->turbo || !(pc > 0)) continue;
    unsigned per[64], ns = m->sockets < 64 ? m->sockets : 64;
    dcsim_cpu_split_threads(o->threads, m->cores_per_socket, ns, m->scatter, per);
    double ghz = round(o->value / (o->threads * pc * 1e9) * 100) / 100;
    size_t k = pm->n_turbo;
    if (k && pm->turbo[k - 1].cores >= per[0]) continue; /* cells in increasing thread order */
    if (k && fabs(pm->turbo[k - 1].ghz - ghz) < 1e-9) {
      pm->turbo[k - 1].cores = per[0]; /* the same clock: the bin grows */
      continue;
    }
    if (k == DCSIM_CPU_MAX_TURBO_BINS) break;
    pm->turbo[k] = (dcsim_cpu_turbo_bin){ per[0], ghz };
    pm->n_turbo++;
  }
  if (pm->n_turbo)
    snprintf(out->turbo_src, sizeof out->turbo_src,
             "fitted to the turbo column of %s: clock = cell / (cores x %g flop/cycle), per active "
             "cores of a socket",
             m->table_source[DCSIM_CPU_FLOPS], pc);
}

static int cmp_obs(const void *a, const void *b) {
  const dcsim_perf_obs *x = a, *y = b;
  if (x->q != y->q) return x->q < y->q ? -1 : 1;
  if (x->turbo != y->turbo) return x->turbo < y->turbo ? -1 : 1;
  if (x->threads != y->threads) return x->threads < y->threads ? -1 : 1;
  return (x->ghz > y->ghz) - (x->ghz < y->ghz);
}

int dcsim_perf_fit_run(const dcsim_perf_machine *m, const dcsim_perf_obs *obs, size_t n,
                       const dcsim_perf_fit *ref, dcsim_perf_fit *out, dcsim_error *err) {
  memset(out, 0, sizeof *out);
  out->machine = *m;
  out->model.scatter = m->scatter;
  dcsim_perf_obs *sorted = malloc((n ? n : 1) * sizeof *sorted);
  const dcsim_perf_obs **cells = malloc((n ? n : 1) * sizeof *cells);
  int rc = 0;
  if (!sorted || !cells) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    goto out;
  }
  if (n) memcpy(sorted, obs, n * sizeof *obs);
  qsort(sorted, n, sizeof *sorted, cmp_obs);
  for (int q = 0; q < DCSIM_CPU_NQTY && !rc; q++) {
    lvl_ctx c = { .m = m, .q = (dcsim_cpu_qty)q, .cells = cells };
    for (size_t i = 0; i < n; i++)
      if ((int)sorted[i].q == q && !sorted[i].turbo && sorted[i].value > 0 && sorted[i].ghz > 0)
        cells[c.n++] = &sorted[i];
    if (c.n == 0) {
      rc = derive_level(m, (dcsim_cpu_qty)q, ref, out, err);
      continue;
    }
    c.pm.scatter = m->scatter;
    if (!(rc = fit_level(&c, ref, out, err))) out->model.q[q] = c.pm.q[q];
  }
  if (rc) goto out;
  for (int q = 0; q < DCSIM_CPU_NQTY; q++) out->model.q[q].source = out->src[q];
  turbo_bins(m, sorted, n, out);
  snprintf(out->model_src, sizeof out->model_src,
           "dcsim calibrate cpu: GSL nonlinear least squares of log rates on the table cells "
           "(doc/calibration.md); the tables where they cover a state, this model beyond them "
           "(doc/models.md)");
  out->model.source = out->model_src;
out:
  free(sorted);
  free(cells);
  return rc;
}

void dcsim_perf_fit_report(const dcsim_perf_fit *f, FILE *out) {
  fprintf(out, "parametric model of %s (placement %s)\n", f->machine.name,
          f->model.scatter ? "scatter" : "compact");
  for (int q = 0; q < DCSIM_CPU_NQTY; q++) {
    const dcsim_cpu_perf_level *lv = &f->model.q[q];
    const dcsim_perf_level_report *r = &f->rep[q];
    if (!lv->present) {
      fprintf(out, "  %-5s none (no table, nothing to derive it from)\n",
              dcsim_cpu_qty_name((dcsim_cpu_qty)q));
      continue;
    }
    fprintf(out, "  %-5s %s %s/cycle, freq-exp %s", dcsim_cpu_qty_name((dcsim_cpu_qty)q),
            DCSIM_SIG(lv->per_cycle), q == DCSIM_CPU_FLOPS ? "flop" : "byte",
            DCSIM_SIG(lv->freq_exp));
    if (lv->saturates)
      fprintf(out, ", ceiling %s per socket, sat-freq-exp %s, knee %s",
              DCSIM_SI(lv->sat_bps, "B/s"), DCSIM_SIG(lv->sat_freq_exp), DCSIM_SIG(lv->knee));
    fputc('\n', out);
    if (r->n_cells)
      fprintf(out, "        fitted %s on %zu cells: rms %.2f %%, worst %.2f %% (%u %s, %s GHz)\n",
              r->fitted, r->n_cells, 100 * r->rms_rel, 100 * r->max_rel, r->worst_threads,
              dcsim_plural(r->worst_threads, "thread", "threads"), DCSIM_SIG(r->worst_ghz));
    if (r->assumed[0]) fprintf(out, "        assumed: %s\n", r->assumed);
  }
  for (size_t i = 0; i < f->model.n_turbo; i++)
    fprintf(out, "  turbo up to %u active %s per socket: %s GHz\n", f->model.turbo[i].cores,
            dcsim_plural(f->model.turbo[i].cores, "core", "cores"),
            DCSIM_SIG(f->model.turbo[i].ghz));
}

/* an attribute value, XML-escaped */
static void xml_attr(FILE *f, const char *name, const char *v) {
  fprintf(f, " %s=\"", name);
  dcsim__xml_escape(f, v);
  fputc('"', f);
}

void dcsim_perf_fit_xml(FILE *f, const dcsim_perf_fit *fit) {
  const dcsim_cpu_perf_model *pm = &fit->model;
  fprintf(f, "  <perf-model placement=\"%s\"", pm->scatter ? "scatter" : "compact");
  xml_attr(f, "source", fit->model_src);
  fputs(">\n", f);
  for (int q = 0; q < DCSIM_CPU_NQTY; q++) {
    const dcsim_cpu_perf_level *lv = &pm->q[q];
    if (!lv->present) continue;
    fprintf(f, "    <level name=\"%s\" per-cycle=\"%.5g\" freq-exp=\"%.4g\"",
            dcsim_cpu_qty_name((dcsim_cpu_qty)q), lv->per_cycle, lv->freq_exp);
    if (lv->saturates)
      fprintf(f, " sat-bps=\"%.5g\" sat-freq-exp=\"%.4g\" knee=\"%.4g\"", lv->sat_bps,
              lv->sat_freq_exp, lv->knee);
    xml_attr(f, "source", fit->src[q]);
    fputs("/>\n", f);
  }
  for (size_t i = 0; i < pm->n_turbo; i++) {
    fprintf(f, "    <turbo cores=\"%u\" ghz=\"%.4g\"", pm->turbo[i].cores, pm->turbo[i].ghz);
    xml_attr(f, "source", fit->turbo_bin_src[i] ? fit->turbo_bin_src[i] : fit->turbo_src);
    fputs("/>\n", f);
  }
  fputs("  </perf-model>\n", f);
}
