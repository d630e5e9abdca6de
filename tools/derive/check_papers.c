/* check_papers.c — the `papers` checker of validate (validate.h): numbers of the seed papers
 * beyond D3.5 that dcsim's models recompute (tests/reference/roofline-fd.csv, fv-irregular.csv).
 *
 * Columns: dwarf, case, hw, threads, set, item, quantity. `set` holds extra bindings
 * "NAME=VALUE;NAME=VALUE". Quantities (per run on one node of `hw` at `threads`):
 *   work_gflop         W of all loops / 1e9
 *   intensity          W / Q of all loops
 *   mem_roof_gflops    W / (sum of Q*Tmop) / 1e9: the bandwidth roof of the roofline
 *   runtime_ceil_s     the model time rounded up to whole seconds
 *   min_compute_order  smallest even order (stencil size K = order + 1) whose loops are all
 *                      compute-bound, scanning orders 2..100
 *   level_gflops       W / (traffic/bandwidth) of cache level `item` of the cache-line model
 *                      (dcsim/model_irregular.h); item "min": W / model time */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"
#include "dcsim/csv.h"
#include "dcsim/model.h"
#include "dcsim/model_irregular.h"
#include "validate.h"

typedef struct row_in {
  const char *dwarf, *cs, *hw, *set, *item, *qty;
  unsigned threads;
} row_in;

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

/* One model run; p is released by the caller. */
static int run_model(const dcsim_dwarf_t *d, const char *cs, const dcsim_binding *b, size_t nb,
                     const dcsim_cpu_profile_t *cpu, unsigned threads, dcsim_dwarf_eval **ev,
                     dcsim_prediction *p, dcsim_error *err) {
  int rc = dcsim_dwarf_evaluate(d, *cs ? cs : NULL, b, nb, ev, err);
  if (rc) return rc;
  dcsim_model_req rq;
  memset(&rq, 0, sizeof rq);
  rq.ev = *ev;
  rq.cpu = cpu;
  rq.nodes = 1;
  rq.state = (dcsim_cpu_state){ dcsim_cpu_profile_nominal_ghz(cpu), NULL, threads };
  rq.energy_form = DCSIM_ENERGY_NONE;
  return dcsim_model_run(&rq, p, err);
}

static int compute(const row_in *r, double *out, dcsim_error *err) {
  char dpath[4096], hpath[4096], setbuf[512];
  dcsim_dwarf_t *d = NULL;
  dcsim_dwarf_eval *ev = NULL;
  dcsim_cpu_profile_t *cpu = NULL;
  dcsim_prediction p;
  memset(&p, 0, sizeof p);
  dcsim_binding b[9];
  size_t nb = 0;
  int rc;
  if ((rc = dcsim_catalog_resolve(DCSIM_KIND_DWARF, r->dwarf, NULL, 0, dpath, sizeof dpath, err)) ||
      (rc = dcsim_dwarf_load(dpath, &d, err)) ||
      (rc = dcsim_catalog_resolve(DCSIM_KIND_CPU, r->hw, NULL, 0, hpath, sizeof hpath, err)) ||
      (rc = dcsim_cpu_profile_load(hpath, &cpu, err)) ||
      (rc = parse_set(r->set, setbuf, sizeof setbuf, b, 8, &nb, err)))
    goto out;
  if (strcmp(r->qty, "min_compute_order") == 0) {
    *out = NAN;
    for (unsigned order = 2; order <= 100 && isnan(*out); order += 2) {
      b[nb] = (dcsim_binding){ "K", order + 1.0, "scan", 0 };
      if ((rc = run_model(d, r->cs, b, nb + 1, cpu, r->threads, &ev, &p, err))) goto out;
      int all = 1;
      for (size_t l = 0; l < p.cpu->n_loops; l++) all &= p.cpu->parts[l].compute_bound;
      if (all) *out = order;
      dcsim_prediction_release(&p);
      dcsim_dwarf_eval_free(ev);
      ev = NULL;
    }
    goto out;
  }
  if ((rc = run_model(d, r->cs, b, nb, cpu, r->threads, &ev, &p, err))) goto out;
  double W = 0, Q = 0, tm = 0;
  for (size_t l = 0; l < p.cpu->n_loops; l++) {
    W += p.cpu->parts[l].work_flop;
    Q += p.cpu->parts[l].traffic_byte;
    tm += p.cpu->parts[l].mem_time_s;
  }
  if (strcmp(r->qty, "work_gflop") == 0)
    *out = W / 1e9;
  else if (strcmp(r->qty, "intensity") == 0)
    *out = W / Q;
  else if (strcmp(r->qty, "mem_roof_gflops") == 0)
    *out = W / tm / 1e9;
  else if (strcmp(r->qty, "runtime_ceil_s") == 0)
    *out = ceil(p.time_s * (1 - 1e-12)); /* whole seconds, up */
  else if (strcmp(r->qty, "level_gflops") == 0 && strcmp(r->item, "min") == 0)
    *out = W / p.time_s / 1e9;
  else if (strcmp(r->qty, "level_gflops") == 0) {
    dcsim_cpu_rates rt;
    dcsim_irregular_level lv[DCSIM_IRREGULAR_MAX_LEVELS];
    size_t n = 0, bn = 0;
    if ((rc = dcsim_cpu_profile_rates(
             cpu, &(dcsim_cpu_state){ dcsim_cpu_profile_nominal_ghz(cpu), NULL, r->threads }, &rt,
             err)) ||
        (rc = dcsim_model_irregular(&ev->loops[0], 1, cpu, &rt, lv, &n, &bn, err)))
      goto out;
    rc = DCSIM_ERR(err, DCSIM_EREF, "", 0, "no level %s", r->item);
    for (size_t i = 0; i < n; i++)
      if (strcmp(lv[i].name, r->item) == 0) {
        *out = ev->loops[0].work_flop / lv[i].time_s / 1e9;
        rc = 0;
      }
  } else {
    rc = DCSIM_ERR(err, DCSIM_EREF, "", 0, "unknown quantity %s", r->qty);
  }
out:
  dcsim_prediction_release(&p);
  dcsim_dwarf_eval_free(ev);
  dcsim_dwarf_free(d);
  dcsim_cpu_profile_free(cpu);
  return rc;
}

static int compute_row(void *st, const val_row *w, double *out, dcsim_error *err) {
  (void)st;
  double threads;
  int rc = val_num(w, "threads", &threads, err);
  if (rc) return rc;
  row_in in = { val_col(w, "dwarf"), val_col(w, "case"),     val_col(w, "hw"), val_col(w, "set"),
                val_col(w, "item"),  val_col(w, "quantity"), (unsigned)threads };
  return compute(&in, out, err);
}

static void label(const val_row *w, char *buf, size_t size) {
  const char *set = val_col(w, "set"), *item = val_col(w, "item");
  if (!*val_col(w, "dwarf")) return;
  snprintf(buf, size, "%s %s%s%s on %s, %s thread(s): %s%s%s", val_col(w, "dwarf"),
           val_col(w, "case"), *set ? " " : "", set, val_col(w, "hw"), val_col(w, "threads"),
           strcmp(item, "*") ? item : "", strcmp(item, "*") ? " " : "", val_col(w, "quantity"));
}

const val_checker val_papers = { "papers", NULL, NULL, label, compute_row, NULL };
