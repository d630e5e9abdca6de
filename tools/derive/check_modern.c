/* check_modern.c — the `modern` checker of validate (validate.h): the catalogue's post-2020 CPUs
 * against the published measurements their profiles cite (doc/models.md "Anchored on
 * published measurements", doc/validation/modern-cpus.md).
 *
 * Columns: cpu (a CPU profile), ghz (empty: nominal), cores, level (L1, L2, L3, DRAM), quantity:
 *   bw           the model's bandwidth of `level` on `cores` cores of one socket at `ghz`, GB/s
 *   bifft_ratio  the E5-2697 v3's BiFFT (case alaro) time on its full node over this CPU's, both
 *                --threading ideal at the nominal clock
 * The extra table: per CPU, the figures used and what the model gives, BiFFT on one core and a
 * full node under both thread-scaling variants. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"
#include "dcsim/model.h"
#include "toolutil.h"
#include "validate.h"

static const char *const CATALOGUE[] = { "xeon-e5-2697v3", "xeon-gold-6148", "xeon-platinum-8480+",
                                         "epyc-9654",      "epyc-7763",      "nvidia-grace",
                                         "fujitsu-a64fx" };
#define N_CAT (sizeof CATALOGUE / sizeof *CATALOGUE)

typedef struct modern {
  dcsim_dwarf_t *d;
  dcsim_dwarf_eval *ev;
} modern;

static int load_cpu(const char *name, dcsim_cpu_profile_t **cpu, dcsim_error *err) {
  return tool_load_cpu(name, cpu, err);
}

static int init(void **state, dcsim_error *err) {
  modern *m = calloc(1, sizeof *m);
  if (!m) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  int rc = tool_load_dwarf("bifft", &m->d, err);
  if (!rc) rc = dcsim_dwarf_evaluate(m->d, "alaro", NULL, 0, &m->ev, err);
  *state = m;
  return rc;
}

static void fini(void *state) {
  modern *m = state;
  if (!m) return;
  dcsim_dwarf_eval_free(m->ev);
  dcsim_dwarf_free(m->d);
  free(m);
}

static void label(const val_row *w, char *buf, size_t size) {
  if (strcmp(val_col(w, "quantity"), "bifft_ratio") == 0)
    snprintf(buf, size, "%s: BiFFT full node, ideal threading, E5-2697 v3 time / this",
             val_col(w, "cpu"));
  else
    snprintf(buf, size, "%s: %s bandwidth, %s core%s of a socket [GB/s]", val_col(w, "cpu"),
             val_col(w, "level"), val_col(w, "cores"),
             strcmp(val_col(w, "cores"), "1") == 0 ? "" : "s");
}

static unsigned node_cores(const dcsim_cpu_profile_t *p) {
  return dcsim_cpu_profile_cores_per_socket(p) * dcsim_cpu_profile_sockets(p);
}

/* BiFFT alaro on one node at the nominal clock */
static int bifft_s(const modern *m, const dcsim_cpu_profile_t *cpu, unsigned cores, unsigned flags,
                   double *t, dcsim_error *err) {
  dcsim_model_req rq = { 0 };
  rq.ev = m->ev;
  rq.cpu = cpu;
  rq.nodes = 1;
  rq.state = (dcsim_cpu_state){ dcsim_cpu_profile_nominal_ghz(cpu), NULL, cores };
  rq.energy_form = DCSIM_ENERGY_NONE;
  rq.flags = flags;
  dcsim_prediction p;
  int rc = dcsim_model_run(&rq, &p, err);
  if (!rc) *t = p.time_s;
  dcsim_prediction_release(&p);
  return rc;
}

static int compute(void *state, const val_row *w, double *out, dcsim_error *err) {
  const modern *m = state;
  dcsim_cpu_profile_t *cpu = NULL, *e5 = NULL;
  int rc = load_cpu(val_col(w, "cpu"), &cpu, err);
  if (rc) return rc;
  const char *qty = val_col(w, "quantity");
  if (strcmp(qty, "bifft_ratio") == 0) {
    double te5 = 0, tc = 0;
    if (!(rc = load_cpu("xeon-e5-2697v3", &e5, err)) &&
        !(rc = bifft_s(m, e5, node_cores(e5), DCSIM_MODEL_HW_THREADS, &te5, err)) &&
        !(rc = bifft_s(m, cpu, node_cores(cpu), DCSIM_MODEL_HW_THREADS, &tc, err)))
      *out = te5 / tc;
  } else if (strcmp(qty, "bw") == 0) {
    int q = dcsim_cpu_qty_parse(val_col(w, "level"));
    double cores = 0, ghz = dcsim_cpu_profile_nominal_ghz(cpu), v = 0;
    dcsim_prov pv;
    if (q < 1) {
      rc = DCSIM_ERR(err, DCSIM_EPARSE, w->path, 0, "level '%s': L1, L2, L3 or DRAM",
                     val_col(w, "level"));
    } else if (!(rc = val_num(w, "cores", &cores, err)) &&
               (!*val_col(w, "ghz") || !(rc = val_num(w, "ghz", &ghz, err)))) {
      dcsim_cpu_state s = { ghz, NULL, (unsigned)cores };
      rc = dcsim_cpu_rate_at(cpu, (dcsim_cpu_qty)q, &s, 0, &v, &pv, err);
      *out = v / 1e9;
    }
  } else {
    rc = DCSIM_ERR(err, DCSIM_EPARSE, w->path, 0, "quantity '%s': bw or bifft_ratio", qty);
  }
  dcsim_cpu_profile_free(e5);
  dcsim_cpu_profile_free(cpu);
  return rc;
}

/* "x (model y)" of a published figure of level q, or the model alone ("-" cited) */
static void cited(const dcsim_cpu_profile_t *p, int q, int socket, char *buf, size_t size) {
  const dcsim_cpu_datasheet *ds = dcsim_cpu_profile_datasheet(p);
  const dcsim_cpu_measured_bw *b = ds ? &ds->measured[q] : NULL;
  unsigned n =
      socket ? (b && b->socket_cores ? b->socket_cores : dcsim_cpu_profile_cores_per_socket(p)) : 1;
  double ghz = b && b->source ? b->ghz : dcsim_cpu_profile_nominal_ghz(p), v = 0;
  dcsim_prov pv;
  dcsim_cpu_state s = { ghz, NULL, n };
  if (dcsim_cpu_rate_at(p, (dcsim_cpu_qty)q, &s, 0, &v, &pv, NULL)) v = NAN;
  double pub = !b || !b->source ? 0 : socket ? b->socket_bps : b->one_core_bps;
  if (pub > 0)
    snprintf(buf, size, "%.4g (%.4g)", pub / 1e9, v / 1e9);
  else
    snprintf(buf, size, "– (%.4g)", v / 1e9);
}

static int extra(void *state, FILE *f, dcsim_error *err) {
  const modern *m = state;
  fprintf(
      f,
      "\n**Per catalogue CPU** (generated: `tools/derive/check_modern.c`). Bandwidths in "
      "GB/s as \"published (dcsim's model at the same core count and clock)\", one core and "
      "one socket at the cited core count; – where nothing is cited (a datasheet estimate: "
      "the reference's per-cycle rates, or a table for the measured CPUs). The peak is the "
      "datasheet's (cores × clock × flop/cycle). BiFFT: case alaro, one node at the nominal "
      "clock, seconds.\n\n"
      "| CPU | node | peak [GFLOP/s] | L1 one core | DRAM one core | DRAM socket | BiFFT 1 core "
      "| full node, measured | full node, ideal | ideal vs E5-2697 v3 |\n"
      "|---|---|---|---|---|---|---|---|---|---|\n");
  double te5 = 0;
  int rc = 0;
  for (size_t i = 0; i < N_CAT && !rc; i++) {
    dcsim_cpu_profile_t *p = NULL;
    if ((rc = load_cpu(CATALOGUE[i], &p, err))) break;
    double t1 = 0, tm = 0, ti = 0, peak = 0;
    dcsim_prov pv;
    dcsim_cpu_state s = { dcsim_cpu_profile_nominal_ghz(p), NULL, node_cores(p) };
    if (!(rc = dcsim_cpu_rate_at(p, DCSIM_CPU_FLOPS, &s, 0, &peak, &pv, err)) &&
        !(rc = bifft_s(m, p, 1, 0, &t1, err)) &&
        !(rc = bifft_s(m, p, node_cores(p), 0, &tm, err)) &&
        !(rc = bifft_s(m, p, node_cores(p), DCSIM_MODEL_HW_THREADS, &ti, err))) {
      if (i == 0) te5 = ti;
      char l1[64], d1[64], ds[64];
      cited(p, DCSIM_CPU_L1, 0, l1, sizeof l1);
      cited(p, DCSIM_CPU_DRAM, 0, d1, sizeof d1);
      cited(p, DCSIM_CPU_DRAM, 1, ds, sizeof ds);
      fprintf(f, "| %s | %u × %u, %g GHz | %.4g | %s | %s | %s | %.4g | %.4g | %.4g | %.3gx |\n",
              CATALOGUE[i], dcsim_cpu_profile_sockets(p), dcsim_cpu_profile_cores_per_socket(p),
              dcsim_cpu_profile_nominal_ghz(p), peak / 1e9, l1, d1, ds, t1, tm, ti, te5 / ti);
    }
    dcsim_cpu_profile_free(p);
  }
  return rc;
}

const val_checker val_modern = VAL_CHECKER(
    "modern", init, fini, label, compute, extra, NULL,
    "the catalogue's post-2020 CPUs against the published measurements their profiles cite "
    "(bandwidths per level, BiFFT against the E5-2697 v3)");
