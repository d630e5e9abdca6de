/* check_d35.c — the `d35` checker of validate (validate.h): ESCAPE D3.5's model tables
 * (tests/reference/d35.csv) recomputed with libdcsim.
 *
 * Columns: dwarf, case, hw, nodes, cores, item, quantity. Quantities, per run on `nodes` nodes of
 * `hw` with `cores` cores at the nominal frequency (item: a loop or kernel, "*" the dwarf):
 *   time_s, compute_s, transfer_s, inactive_s      model times (GPU: Table 11 groups)
 *   work_flop, traffic_byte                        W and Q per node of a loop, or of all loops;
 *                                                  of a GPU kernel or the dwarf ("*") as dcsim
 *                                                  roofline draws them (D3.5 Tables 1, 4:
 *                                                  flop_count_dp and requested global bytes)
 *   intensity, perf_flops                          GPU: W/Q, and W/T with T of D3.5's model
 *   dp_instructions                                GPU: FP64 thread instructions per call
 *                                                  (Table 9's i-dp x N x invocations)
 *   work_flop_loo                                  GPU: W of a kernel with the flop per FP64
 *                                                  instruction refitted without it on the
 *                                                  other in-sample work_flop rows of the same
 *                                                  dwarf, case and hardware (least squares of
 *                                                  the relative errors)
 *   pkg_j, dram_j, energy_j                        §5.3 energy of a run whose measured time is
 *                                                  `item` (Table 35)
 *   diff                                           model time / `ref` - 1 (D3.5's "Difference":
 *                                                  `ref` is the profiled time)
 *   rms_diff                                       D3.5's "square error": the root mean square
 *                                                  of the differences of the measured time_s
 *                                                  rows of the same dwarf, case and hardware
 *                                                  (kernels, not "*")
 *   energy_diff                                    statistic `item` (max, min, mean, std) of
 *                                                  (model - measured)/model over the measured
 *                                                  energy_j rows of the same dwarf and hardware
 * The extra line (when the section has work_flop_loo rows): the flop per instruction refitted on
 * every in-sample kernel, against the dwarf's dp-flop-per-instruction. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"
#include "dcsim/model.h"
#include "dcsim/roofline.h"
#include "toolutil.h"
#include "validate.h"

typedef struct d35_state {
  int have_fit;         /* a work_flop_loo row was computed */
  double f_all, f_data; /* flop per FP64 instruction: refitted on every kernel, the dwarf's */
} d35_state;

typedef struct d35_in {
  const char *dwarf, *cs, *hw, *item, *qty;
  unsigned nodes, cores;
} d35_in;

static int read_in(const val_row *w, d35_in *in, dcsim_error *err) {
  double nodes = 0, cores = 0;
  int rc;
  if ((rc = val_num(w, "nodes", &nodes, err)) || (rc = val_num(w, "cores", &cores, err))) return rc;
  *in = (d35_in){ val_col(w, "dwarf"),    val_col(w, "case"), val_col(w, "hw"), val_col(w, "item"),
                  val_col(w, "quantity"), (unsigned)nodes,    (unsigned)cores };
  return 0;
}

static int energy(const dcsim_dwarf_t *d, const dcsim_cpu_profile_t *cpu, const d35_in *in,
                  double *out, dcsim_error *err) {
  dcsim_energy_coeffs ec;
  dcsim_cpu_power pw;
  dcsim_cpu_state st = { dcsim_cpu_profile_nominal_ghz(cpu), NULL, in->cores };
  int rc;
  if ((rc = dcsim_dwarf_energy_coeffs(d, &ec, err)) ||
      (rc = dcsim_cpu_profile_power(cpu, &st, &pw, err)))
    return rc;
  dcsim_cpu_energy e = dcsim_energy_cpu_53(&ec, &pw, atof(in->item)); /* measured time */
  *out = strcmp(in->qty, "pkg_j") == 0    ? e.pkg_j
         : strcmp(in->qty, "dram_j") == 0 ? e.dram_j
                                          : e.energy_j;
  return 0;
}

/* the quantity of a loop or kernel part, or of the whole run ("*") */
static int pick(const dcsim_prediction *p, const d35_in *in, double *out, dcsim_error *err) {
  const int all = strcmp(in->item, "*") == 0, t = strcmp(in->qty, "time_s") == 0 ||
                                                  strcmp(in->qty, "diff") == 0 ||
                                                  strcmp(in->qty, "rms_diff") == 0;
  if (all && t) {
    *out = p->time_s;
    return 0;
  }
  if (all && p->gpu) {
    *out = strcmp(in->qty, "compute_s") == 0    ? p->gpu->compute_s
           : strcmp(in->qty, "transfer_s") == 0 ? p->gpu->transfer_s
                                                : p->gpu->inactive_s;
    return 0;
  }
  int found = all;
  *out = 0;
  for (size_t k = 0; p->gpu && k < p->gpu->n_kernels; k++) {
    const dcsim_kernel_part *kp = &p->gpu->parts[k];
    if (strcmp(kp->name, in->item) != 0) continue;
    found = 1;
    *out = strcmp(in->qty, "compute_s") == 0    ? kp->compute_s
           : strcmp(in->qty, "transfer_s") == 0 ? kp->transfer_s
           : strcmp(in->qty, "inactive_s") == 0 ? kp->inactive_s
                                                : kp->time_s;
  }
  for (size_t l = 0; p->cpu && l < p->cpu->n_loops; l++) {
    const dcsim_loop_part *lp = &p->cpu->parts[l];
    if (!all && strcmp(lp->name, in->item) != 0) continue;
    found = 1;
    *out += strcmp(in->qty, "work_flop") == 0      ? lp->work_flop
            : strcmp(in->qty, "traffic_byte") == 0 ? lp->traffic_byte
                                                   : lp->time_s;
  }
  return found ? 0 : DCSIM_ERR(err, DCSIM_EREF, "", 0, "no part '%s' in %s", in->item, in->dwarf);
}

/* a GPU kernel's (or the dwarf's, item "*") W, Q, W/Q, W/T or FP64 instructions on the roofline
 * of dcsim roofline (T of D3.5's model) */
static int gpu_work(const dcsim_gpu_profile_t *gpu, const dcsim_dwarf_eval *ev, const d35_in *in,
                    double *out, dcsim_error *err) {
  dcsim_roofline *r = NULL;
  int rc = dcsim_roofline_gpu(gpu, ev, NULL, &r, err), found = 0;
  if (rc) return rc;
  const int all = strcmp(in->item, "*") == 0;
  for (size_t i = 0; i < r->n_points && !found; i++) {
    const dcsim_roofline_point *p = &r->points[i];
    if (all ? !p->is_total : strcmp(p->name, in->item) != 0) continue;
    found = 1;
    *out = strcmp(in->qty, "work_flop") == 0         ? p->work_flop
           : strcmp(in->qty, "traffic_byte") == 0    ? p->traffic_byte
           : strcmp(in->qty, "intensity") == 0       ? p->intensity
           : strcmp(in->qty, "perf_flops") == 0      ? p->perf_flops
           : strcmp(in->qty, "dp_instructions") == 0 ? p->work_flop / ev->dp_flop_per_inst
                                                     : NAN;
  }
  dcsim_roofline_free(r);
  if (!found) return DCSIM_ERR(err, DCSIM_EREF, "", 0, "no kernel '%s' in %s", in->item, in->dwarf);
  if (isnan(*out)) return DCSIM_ERR(err, DCSIM_EREF, "", 0, "unknown GPU quantity %s", in->qty);
  return 0;
}

static int is_gpu_work(const char *qty) {
  static const char *const q[] = { "work_flop", "traffic_byte", "intensity", "perf_flops",
                                   "dp_instructions" };
  for (size_t i = 0; i < sizeof q / sizeof *q; i++)
    if (strcmp(qty, q[i]) == 0) return 1;
  return 0;
}

/* dcsim's value of one run's quantity */
static int compute_run(const d35_in *in, double *out, dcsim_error *err) {
  dcsim_dwarf_t *d = NULL;
  dcsim_dwarf_eval *ev = NULL;
  dcsim_cpu_profile_t *cpu = NULL;
  dcsim_gpu_profile_t *gpu = NULL;
  dcsim_prediction p;
  memset(&p, 0, sizeof p);
  int rc;
  if ((rc = tool_load_dwarf(in->dwarf, &d, err))) goto out;
  int is_gpu = dcsim_dwarf_device_of(d) == DCSIM_DWARF_GPU;
  if ((rc = is_gpu ? tool_load_gpu(in->hw, &gpu, err) : tool_load_cpu(in->hw, &cpu, err))) goto out;
  if (strcmp(in->qty, "pkg_j") == 0 || strcmp(in->qty, "dram_j") == 0 ||
      strcmp(in->qty, "energy_j") == 0) {
    rc = energy(d, cpu, in, out, err);
    goto out;
  }
  if ((rc = dcsim_dwarf_evaluate(d, *in->cs ? in->cs : NULL, NULL, 0, &ev, err))) goto out;
  if (gpu && is_gpu_work(in->qty)) {
    rc = gpu_work(gpu, ev, in, out, err);
    goto out;
  }
  dcsim_model_req rq;
  memset(&rq, 0, sizeof rq);
  rq.ev = ev;
  rq.cpu = cpu;
  rq.gpu = gpu;
  rq.nodes = in->nodes;
  rq.state.threads = in->cores ? in->cores : 1;
  rq.state.ghz = cpu ? dcsim_cpu_profile_nominal_ghz(cpu) : 0;
  rq.energy_form = DCSIM_ENERGY_NONE;
  rq.flags = DCSIM_MODEL_D35; /* D3.5's models exactly */
  if (!(rc = dcsim_model_run(&rq, &p, err))) rc = pick(&p, in, out, err);
out:
  dcsim_prediction_release(&p);
  dcsim_dwarf_eval_free(ev);
  dcsim_dwarf_free(d);
  dcsim_cpu_profile_free(cpu);
  dcsim_gpu_profile_free(gpu);
  return rc;
}

/* model / measured - 1 of every measured kernel time (or measured energy) of w's dwarf, case and
 * hardware */
static int diffs(const val_row *w, const char *qty, int kernels, double *d, size_t *n,
                 dcsim_error *err) {
  *n = 0;
  for (size_t r = 0; r < dcsim__csv_rows(w->t) && *n < 64; r++) {
    val_row o = { w->t, r, w->path };
    if (strcmp(val_col(&o, "evidence"), "measured") || strcmp(val_col(&o, "quantity"), qty) ||
        strcmp(val_col(&o, "dwarf"), val_col(w, "dwarf")) ||
        strcmp(val_col(&o, "hw"), val_col(w, "hw")) ||
        strcmp(val_col(&o, "case"), val_col(w, "case")) ||
        (kernels && strcmp(val_col(&o, "item"), "*") == 0))
      continue;
    d35_in in;
    double model, meas;
    int rc;
    if ((rc = read_in(&o, &in, err)) || (rc = val_num(&o, "published", &meas, err)) ||
        (rc = compute_run(&in, &model, err)))
      return rc;
    d[(*n)++] = kernels ? model / meas - 1 : (model - meas) / model; /* as D3.5 §3.5, §5.4 */
  }
  return *n ? 0 : DCSIM_ERR(err, DCSIM_EREF, w->path, 0, "no measured %s rows", qty);
}

static int stat(const val_row *w, const char *which, double *out, dcsim_error *err) {
  double d[64];
  size_t n;
  int rc = diffs(w, "energy_j", 0, d, &n, err);
  if (rc) return rc;
  double mx = 0, mn = INFINITY, mean = 0, ss = 0;
  for (size_t i = 0; i < n; i++) {
    mx = fmax(mx, fabs(d[i]));
    mn = fmin(mn, fabs(d[i]));
    mean += fabs(d[i]) / (double)n;
  }
  for (size_t i = 0; i < n; i++) ss += (fabs(d[i]) - mean) * (fabs(d[i]) - mean);
  *out = strcmp(which, "max") == 0    ? mx
         : strcmp(which, "min") == 0  ? mn
         : strcmp(which, "mean") == 0 ? mean
                                      : sqrt(ss / (double)(n > 1 ? n - 1 : 1)); /* sample std */
  return 0;
}

/* W of w's kernel with the flop per FP64 instruction f refitted without it: f minimises
 * sum((f x_j / W_j - 1)^2) over the other kernels' in-sample work_flop rows (x_j their FP64
 * instructions, W_j the published W), so f = sum(x_j/W_j) / sum((x_j/W_j)^2). */
static int work_loo(d35_state *s, const val_row *w, const d35_in *in, double *out,
                    dcsim_error *err) {
  double sr[2] = { 0 }, srr[2] = { 0 }, xi = 0, wi = 0; /* [0]: without the kernel, [1]: all */
  int rc;
  for (size_t r = 0; r < dcsim__csv_rows(w->t); r++) {
    val_row o = { w->t, r, w->path };
    d35_in oi;
    double x, pub;
    if (strcmp(val_col(&o, "quantity"), "work_flop") ||
        strcmp(val_col(&o, "evidence"), "in-sample") || strcmp(val_col(&o, "dwarf"), in->dwarf) ||
        strcmp(val_col(&o, "case"), in->cs) || strcmp(val_col(&o, "hw"), in->hw) ||
        strcmp(val_col(&o, "item"), "*") == 0)
      continue;
    if ((rc = read_in(&o, &oi, err)) || (rc = val_num(&o, "published", &pub, err))) return rc;
    oi.qty = "dp_instructions";
    if ((rc = compute_run(&oi, &x, err))) return rc;
    int self = strcmp(oi.item, in->item) == 0;
    for (int k = self; k < 2; k++) sr[k] += x / pub, srr[k] += x / pub * (x / pub);
    if (self) xi = x;
  }
  if (!(srr[0] > 0) || !(xi > 0))
    return DCSIM_ERR(err, DCSIM_EREF, w->path, dcsim__csv_line(w->t, w->r),
                     "work_flop_loo: no in-sample work_flop row of %s and of another kernel",
                     in->item);
  d35_in wi_in = *in;
  wi_in.qty = "work_flop";
  if ((rc = compute_run(&wi_in, &wi, err))) return rc;
  *out = sr[0] / srr[0] * xi;
  s->f_all = sr[1] / srr[1];
  s->f_data = wi / xi;
  s->have_fit = 1;
  return 0;
}

static int compute(void *st, const val_row *w, double *out, dcsim_error *err) {
  d35_in in;
  int rc = read_in(w, &in, err);
  if (rc) return rc;
  if (strcmp(in.qty, "energy_diff") == 0) return stat(w, in.item, out, err);
  if (strcmp(in.qty, "work_flop_loo") == 0) return work_loo(st, w, &in, out, err);
  if (strcmp(in.qty, "rms_diff") == 0) {
    double d[64], s = 0;
    size_t n;
    if ((rc = diffs(w, "time_s", 1, d, &n, err))) return rc;
    for (size_t i = 0; i < n; i++) s += d[i] * d[i];
    *out = sqrt(s / (double)n);
    return 0;
  }
  if ((rc = compute_run(&in, out, err))) return rc;
  if (strcmp(in.qty, "diff") == 0) {
    double ref;
    if ((rc = val_num(w, "ref", &ref, err))) return rc;
    *out = *out / ref - 1; /* D3.5 §3.5: simulated / profiled - 1 */
  }
  return 0;
}

static void label(const val_row *w, char *buf, size_t size) {
  const char *item = val_col(w, "item"), *cs = val_col(w, "case");
  if (!*val_col(w, "dwarf")) return;         /* a group of numbers: the source says which */
  if (strcmp(val_col(w, "cores"), "0") == 0) /* a GPU run */
    snprintf(buf, size, "%s%s%s on %s: %s %s", val_col(w, "dwarf"), *cs ? " " : "", cs,
             val_col(w, "hw"), strcmp(item, "*") ? item : "dwarf", val_col(w, "quantity"));
  else
    snprintf(buf, size, "%s%s%s on %s, %s node(s) x %s core(s): %s %s", val_col(w, "dwarf"),
             *cs ? " " : "", cs, val_col(w, "hw"), val_col(w, "nodes"), val_col(w, "cores"),
             strcmp(item, "*") ? item : "dwarf", val_col(w, "quantity"));
}

static int init(void **st, dcsim_error *err) {
  if (!(*st = calloc(1, sizeof(d35_state))))
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  return 0;
}

static void fini(void *st) { free(st); }

static int extra(void *st, FILE *f, dcsim_error *err) {
  (void)err;
  const d35_state *s = st;
  if (s->have_fit)
    fprintf(f,
            "The flop per FP64 instruction refitted on every in-sample kernel: %.4f; the dwarf "
            "holds %.4g.\n",
            s->f_all, s->f_data);
  return 0;
}

const val_checker val_d35 = VAL_CHECKER("d35", init, fini, label, compute, extra, NULL,
                                        "D3.5's model tables and GPU work counts, in --d35 mode");
