/* check_papers.c — the `papers` checker of validate (validate.h): numbers of the seed papers
 * beyond D3.5 that dcsim's models recompute (tests/reference/roofline-fd.csv, fv-irregular.csv).
 *
 * Columns: dwarf, case, hw (a CPU profile, else a GPU profile), threads, set, item, quantity,
 * and optionally ref, scale, offset. `set` holds extra bindings "NAME=VALUE;NAME=VALUE". Every
 * value is then value x scale + offset (default 1 and 0). Quantities (one run on one node of
 * `hw` at `threads`; a GPU runs the dwarf's irregular loops, dcsim/model_irregular.h):
 *   work_gflop         W of all loops / 1e9
 *   intensity          W / Q of all loops
 *   mem_roof_gflops    W / (sum of Q*Tmop) / 1e9: the bandwidth roof of the roofline
 *   runtime_ceil_s     the model time rounded up to whole seconds
 *   min_compute_order  smallest even order (stencil size K = order + 1) whose loops are all
 *                      compute-bound, scanning orders 2..100
 *   level_gflops       W / (traffic/bandwidth) of level `item` of the cache-line model; item
 *                      "min": W / model time (GFLOP/s)
 *   level_byte         Q of level `item` / W (bytes per flop: scale 11 gives FV's bytes per
 *                      tetrahedron)
 *   level_intensity    W / Q of level `item`
 *   perf_at_bw         GFLOP/s of the loop's traffic at level `item` moved at `ref` GB/s
 *   bw_at              GB/s the traffic of level `item` needs at `ref` GFLOP/s
 *   level_bw           bandwidth of level `item`, GB/s
 *   level_capacity_word  capacity above level `item` for one thread, in words
 *   footprint_byte     the loop's footprint (bytes of one pass)
 *   gpu_dp_ops         SM x DP operations per clock and SM x clock of the GPU (op/s)
 *   gflops_ratio       W/T at `threads` over W/T at `ref` threads
 *   ref_over_gflops    `ref` GFLOP/s over the model's W/T
 *   gflops_at_time     W / `ref` seconds, GFLOP/s (a run time the paper quotes)
 *   compute_bound      1 when every loop is compute-bound, else 0
 *   balance            the machine balance P / DRAM bandwidth of the CPU profile, flop/byte
 *   peak_gflops, dram_gbs  the CPU profile's peak and DRAM bandwidth at `threads`
 *   ceiling            the CPU profile's roofline ceiling named `item` (GFLOP/s or GB/s) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"
#include "dcsim/model.h"
#include "dcsim/model_irregular.h"
#include "toolutil.h"
#include "util/csv.h"
#include "validate.h"

typedef struct row_in {
  const char *dwarf, *cs, *hw, *set, *item, *qty;
  unsigned threads;
  double ref;
} row_in;

typedef struct run_ctx {
  dcsim_dwarf_t *d;
  dcsim_cpu_profile_t *cpu;
  dcsim_gpu_profile_t *gpu;
  dcsim_binding b[9];
  size_t nb;
  char setbuf[512];
  dcsim_dwarf_eval *ev;
  dcsim_prediction p;
} run_ctx;

/* "A=1;B=2" into bindings (names point into buf). */
static int parse_set(const char *set, char *buf, size_t size, dcsim_binding *b, size_t max,
                     size_t *n, dcsim_error *err) {
  *n = 0;
  snprintf(buf, size, "%s", set);
  char *save = NULL;
  for (char *tok = strtok_r(buf, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
    char *eq = strchr(tok, '=');
    if (!eq || *n >= max) return DCSIM_ERR(err, DCSIM_EPARSE, "", 0, "bad set '%s'", set);
    *eq = '\0';
    b[*n] = (dcsim_binding){ tok, atof(eq + 1), "reference", 0 };
    (*n)++;
  }
  return 0;
}

/* One model run with nb bindings; c->ev and c->p are released by the caller. */
static int run_model(run_ctx *c, const char *cs, size_t nb, unsigned threads, dcsim_error *err) {
  int rc = dcsim_dwarf_evaluate(c->d, *cs ? cs : NULL, c->b, nb, &c->ev, err);
  if (rc) return rc;
  dcsim_model_req rq;
  memset(&rq, 0, sizeof rq);
  rq.ev = c->ev;
  rq.cpu = c->cpu;
  rq.gpu = c->gpu;
  rq.nodes = 1;
  if (c->cpu) rq.state = (dcsim_cpu_state){ dcsim_cpu_profile_nominal_ghz(c->cpu), NULL, threads };
  rq.energy_form = DCSIM_ENERGY_NONE;
  return dcsim_model_run(&rq, &c->p, err);
}

static void release(run_ctx *c) {
  dcsim_prediction_release(&c->p);
  dcsim_dwarf_eval_free(c->ev);
  c->ev = NULL;
}

/* the dwarf, the profile (CPU if the catalog has one of that name, else GPU), the bindings */
static int load(run_ctx *c, const row_in *r, dcsim_error *err) {
  char *hpath = NULL;
  dcsim_error ignored;
  int rc;
  if ((rc = tool_load_dwarf(r->dwarf, &c->d, err))) return rc;
  if (dcsim_catalog_find(DCSIM_KIND_CPU, r->hw, NULL, 0, &hpath, &ignored) == 0)
    rc = dcsim_cpu_profile_load(hpath, &c->cpu, err);
  else
    rc = tool_load_gpu(r->hw, &c->gpu, err);
  free(hpath);
  return rc ? rc : parse_set(r->set, c->setbuf, sizeof c->setbuf, c->b, 8, &c->nb, err);
}

static int min_order(run_ctx *c, const row_in *r, double *out, dcsim_error *err) {
  *out = NAN;
  for (unsigned order = 2; order <= 100 && isnan(*out); order += 2) {
    c->b[c->nb] = (dcsim_binding){ "K", order + 1.0, "scan", 0 };
    int rc = run_model(c, r->cs, c->nb + 1, r->threads, err);
    if (rc) return rc;
    int all = 1;
    for (size_t l = 0; l < c->p.cpu->n_loops; l++) all &= c->p.cpu->parts[l].compute_bound;
    if (all) *out = order;
    release(c);
  }
  return 0;
}

/* the cache-line model's level `item` of the first loop at the row's state */
static int level(run_ctx *c, const row_in *r, dcsim_irregular_level *out, double *cap_word,
                 dcsim_error *err) {
  dcsim_irregular_machine m;
  dcsim_irregular_level lv[DCSIM_IRREGULAR_MAX_LEVELS];
  size_t n = 0, bn = 0;
  int rc;
  if (c->cpu) {
    dcsim_cpu_state st = { dcsim_cpu_profile_nominal_ghz(c->cpu), NULL, r->threads };
    dcsim_cpu_rates rt;
    if ((rc = dcsim_cpu_profile_rates(c->cpu, &st, &rt, err)) ||
        (rc = dcsim_irregular_machine_cpu(c->cpu, &st, &rt, &m, err)))
      return rc;
  } else if ((rc = dcsim_irregular_machine_gpu(c->gpu, &m, err))) {
    return rc;
  }
  if ((rc = dcsim_model_irregular(&c->ev->loops[0], 1, &m, lv, &n, &bn, err))) return rc;
  for (size_t i = 0; i < n; i++)
    if (strcmp(lv[i].name, r->item) == 0) {
      *out = lv[i];
      *cap_word = i < m.n_levels ? m.levels[i].above_byte / c->ev->loops[0].word_byte : 0;
      return 0;
    }
  return DCSIM_ERR(err, DCSIM_EREF, "", 0, "no level %s", r->item);
}

static int level_quantity(run_ctx *c, const row_in *r, double W, double *out, dcsim_error *err) {
  dcsim_irregular_level lv = { 0 };
  double cap = 0;
  int rc = level(c, r, &lv, &cap, err);
  if (rc) return rc;
  const char *q = r->qty;
  *out = strcmp(q, "level_gflops") == 0          ? W / lv.time_s / 1e9
         : strcmp(q, "level_byte") == 0          ? lv.traffic_byte / W
         : strcmp(q, "level_intensity") == 0     ? W / lv.traffic_byte
         : strcmp(q, "perf_at_bw") == 0          ? r->ref * W / lv.traffic_byte
         : strcmp(q, "bw_at") == 0               ? r->ref * lv.traffic_byte / W
         : strcmp(q, "level_bw") == 0            ? lv.bw_bps / 1e9
         : strcmp(q, "level_capacity_word") == 0 ? cap
                                                 : NAN;
  return isnan(*out) ? DCSIM_ERR(err, DCSIM_EREF, "", 0, "unknown quantity %s", q) : 0;
}

/* figures of the CPU profile itself at the row's state */
static int profile_quantity(const dcsim_cpu_profile_t *cpu, const row_in *r, double *out,
                            dcsim_error *err) {
  dcsim_cpu_rates rt;
  dcsim_cpu_state st = { dcsim_cpu_profile_nominal_ghz(cpu), NULL, r->threads };
  int rc = dcsim_cpu_profile_rates(cpu, &st, &rt, err);
  if (rc) return rc;
  if (strcmp(r->qty, "ceiling") == 0) {
    size_t n = 0;
    const dcsim_profile_ceiling *cl = dcsim_cpu_profile_ceilings(cpu, &n);
    for (size_t i = 0; i < n; i++)
      if (strcmp(cl[i].name, r->item) == 0) return *out = cl[i].value / 1e9, 0;
    return DCSIM_ERR(err, DCSIM_EREF, "", 0, "no ceiling '%s'", r->item);
  }
  *out = strcmp(r->qty, "balance") == 0       ? rt.flops / rt.dram_bps
         : strcmp(r->qty, "peak_gflops") == 0 ? rt.flops / 1e9
                                              : rt.dram_bps / 1e9;
  return 0;
}

static int quantity(run_ctx *c, const row_in *r, double *out, dcsim_error *err) {
  double W = 0, Q = 0, tm = 0;
  for (size_t l = 0; l < c->p.cpu->n_loops; l++) {
    W += c->p.cpu->parts[l].work_flop;
    Q += c->p.cpu->parts[l].traffic_byte;
    tm += c->p.cpu->parts[l].mem_time_s;
  }
  const char *q = r->qty;
  if (strcmp(q, "work_gflop") == 0)
    *out = W / 1e9;
  else if (strcmp(q, "intensity") == 0)
    *out = W / Q;
  else if (strcmp(q, "mem_roof_gflops") == 0)
    *out = W / tm / 1e9;
  else if (strcmp(q, "runtime_ceil_s") == 0)
    *out = ceil(c->p.time_s * (1 - 1e-12)); /* whole seconds, up */
  else if ((strcmp(q, "level_gflops") == 0 && strcmp(r->item, "min") == 0))
    *out = W / c->p.time_s / 1e9;
  else if (strcmp(q, "ref_over_gflops") == 0)
    *out = r->ref / (W / c->p.time_s / 1e9);
  else if (strcmp(q, "gflops_at_time") == 0)
    *out = W / r->ref / 1e9;
  else if (strcmp(q, "compute_bound") == 0) {
    *out = 1;
    for (size_t l = 0; l < c->p.cpu->n_loops; l++) *out = *out && c->p.cpu->parts[l].compute_bound;
  } else if (c->cpu && (!strcmp(q, "balance") || !strcmp(q, "peak_gflops") ||
                        !strcmp(q, "dram_gbs") || !strcmp(q, "ceiling"))) {
    return profile_quantity(c->cpu, r, out, err);
  } else if (strcmp(q, "footprint_byte") == 0)
    *out = c->ev->loops[0].footprint_byte;
  else if (strcmp(q, "gpu_dp_ops") == 0 && c->gpu) {
    const dcsim_gpu_spec *g = dcsim_gpu_profile_spec(c->gpu);
    *out = g->sm * g->dp_per_clock_sm * g->clock_hz;
  } else
    return level_quantity(c, r, W, out, err);
  return 0;
}

/* W/T at `threads` over W/T at `ref` threads (the time ratio, W being the same) */
static int ratio(run_ctx *c, const row_in *r, double *out, dcsim_error *err) {
  int rc = run_model(c, r->cs, c->nb, (unsigned)r->ref, err);
  if (rc) return rc;
  double t_ref = c->p.time_s;
  release(c);
  if ((rc = run_model(c, r->cs, c->nb, r->threads, err))) return rc;
  *out = t_ref / c->p.time_s;
  return 0;
}

static int compute(const row_in *r, double *out, dcsim_error *err) {
  run_ctx c;
  memset(&c, 0, sizeof c);
  int rc = load(&c, r, err);
  if (!rc && strcmp(r->qty, "min_compute_order") == 0)
    rc = min_order(&c, r, out, err);
  else if (!rc && strcmp(r->qty, "gflops_ratio") == 0)
    rc = ratio(&c, r, out, err);
  else if (!rc && !(rc = run_model(&c, r->cs, c.nb, r->threads, err)))
    rc = quantity(&c, r, out, err);
  release(&c);
  dcsim_dwarf_free(c.d);
  dcsim_cpu_profile_free(c.cpu);
  dcsim_gpu_profile_free(c.gpu);
  return rc;
}

static int compute_row(void *st, const val_row *w, double *out, dcsim_error *err) {
  (void)st;
  double threads = 1, scale = 1, offset = 0, ref = 0;
  int rc;
  if ((*val_col(w, "threads") && (rc = val_num(w, "threads", &threads, err))) ||
      (*val_col(w, "ref") && (rc = val_num(w, "ref", &ref, err))) ||
      (*val_col(w, "scale") && (rc = val_num(w, "scale", &scale, err))) ||
      (*val_col(w, "offset") && (rc = val_num(w, "offset", &offset, err))))
    return rc;
  row_in in = { val_col(w, "dwarf"), val_col(w, "case"),     val_col(w, "hw"),  val_col(w, "set"),
                val_col(w, "item"),  val_col(w, "quantity"), (unsigned)threads, ref };
  if ((rc = compute(&in, out, err))) {
    dcsim_error_at(err, w->path, dcsim__csv_line(w->t, w->r));
    return rc;
  }
  *out = *out * scale + offset;
  return 0;
}

static void label(const val_row *w, char *buf, size_t size) {
  const char *set = val_col(w, "set"), *item = val_col(w, "item"), *th = val_col(w, "threads");
  if (!*val_col(w, "dwarf")) return;
  snprintf(buf, size, "%s %s%s%s on %s%s%s%s: %s%s%s", val_col(w, "dwarf"), val_col(w, "case"),
           *set ? " " : "", set, val_col(w, "hw"), *th ? ", " : "", th, *th ? " thread(s)" : "",
           strcmp(item, "*") ? item : "", strcmp(item, "*") ? " " : "", val_col(w, "quantity"));
}

/* The binding level of the cache-line model at the row's state: name, bandwidth, GFLOP/s. */
static int binding_level(const row_in *r, char *buf, size_t size, dcsim_error *err) {
  run_ctx c;
  memset(&c, 0, sizeof c);
  int rc = load(&c, r, err);
  if (!rc) rc = run_model(&c, r->cs, c.nb, r->threads, err);
  if (!rc) {
    dcsim_irregular_machine m;
    dcsim_irregular_level lv[DCSIM_IRREGULAR_MAX_LEVELS];
    size_t n = 0, bn = 0;
    if (c.cpu) {
      dcsim_cpu_state st = { dcsim_cpu_profile_nominal_ghz(c.cpu), NULL, r->threads };
      dcsim_cpu_rates rt;
      if (!(rc = dcsim_cpu_profile_rates(c.cpu, &st, &rt, err)))
        rc = dcsim_irregular_machine_cpu(c.cpu, &st, &rt, &m, err);
    } else {
      rc = dcsim_irregular_machine_gpu(c.gpu, &m, err);
    }
    if (!rc && !(rc = dcsim_model_irregular(&c.ev->loops[0], 1, &m, lv, &n, &bn, err)) && n) {
      size_t b = 0;
      for (size_t i = 1; i < n; i++)
        if (lv[i].time_s > lv[b].time_s) b = i;
      /* Q_i = W x WpF_i x word (dcsim/model_irregular.h), so W / T_i = BW_i / (WpF_i x word) */
      double wb = lv[b].word_per_flop * c.ev->loops[0].word_byte;
      char on[48] = "";
      if (c.cpu) snprintf(on, sizeof on, " on %u thread(s)", r->threads);
      snprintf(buf, size, "the model is bound by %s at %.4g GB/s%s: %.4g GFLOP/s", lv[b].name,
               lv[b].bw_bps / 1e9, on, wb > 0 ? lv[b].bw_bps / wb / 1e9 : 0);
    }
  }
  release(&c);
  dcsim_dwarf_free(c.d);
  dcsim_cpu_profile_free(c.cpu);
  dcsim_gpu_profile_free(c.gpu);
  return rc;
}

/* A measured GFLOP/s the model does not reproduce: which level binds, at what bandwidth. */
static int note(void *st, const val_row *w, char *buf, size_t size, dcsim_error *err) {
  (void)st;
  if (strcmp(val_col(w, "quantity"), "level_gflops") || strcmp(val_col(w, "item"), "min") ||
      strcmp(val_col(w, "evidence"), "measured") || strcmp(val_col(w, "expect"), "not-reproduced"))
    return 0;
  double threads = 1;
  int rc;
  if (*val_col(w, "threads") && (rc = val_num(w, "threads", &threads, err))) return rc;
  row_in in = { val_col(w, "dwarf"), val_col(w, "case"),     val_col(w, "hw"),  val_col(w, "set"),
                val_col(w, "item"),  val_col(w, "quantity"), (unsigned)threads, 0 };
  return binding_level(&in, buf, size, err);
}

const val_checker val_papers =
    VAL_CHECKER("papers", NULL, NULL, label, compute_row, NULL, note,
                "dwarfs on CPU or GPU profiles: intensities, roofs, levels of the "
                "cache-line model, profile figures");
