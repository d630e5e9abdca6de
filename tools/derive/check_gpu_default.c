/* check_gpu_default.c — the `gpu-default` checker of validate (validate.h): dcsim's default GPU
 * model (doc/models.md "GPU: architecture model") next to D3.5's (--d35) on a GPU dwarf: the
 * profiled times of one GPU in sample (the dwarf's <launch> is fitted on them by
 * tools/derive/fit_gpu_arch.c) and leave-one-size-out, the times of GPUs whose profiles D3.5
 * withholds (predictions), D3.5's statements comparing GPUs, and the default GPU power model.
 *
 * Columns: dwarf, hw, case, mode (default: dcsim's default model; d35: D3.5's, --d35), quantity,
 * runs (case,time_s: the profiled times <launch> is fitted on), others. Quantities:
 *   time_s    the dwarf's time on hw in `mode`
 *   loo_s     the default model with <launch> refitted on `runs` without this case
 *   fastest   1 when hw's time in `mode` is below the time of every GPU of `others`
 *             (space-separated)
 *   board_w   hw's board power in the default energy model of a GPU without a measured fraction
 *             (dcsim_energy_gpu_board_w: the dwarf's <gpu-power activity> and the busy share of
 *             the default model's time)
 * The extra table: per profiled size of `runs`, the errors of D3.5's model and of the default
 * model in sample and leave-one-out, and the refitted <launch> against the dwarf's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"
#include "dcsim/energy.h"
#include "dcsim/fit_gpu.h"
#include "dcsim/model.h"
#include "toolutil.h"
#include "validate.h"

#define MAX_RUNS 64

typedef struct gd_fit {
  char key[1024]; /* dwarf|hw|runs */
  size_t n;
  char cases[MAX_RUNS][32];
  double N[MAX_RUNS], t[MAX_RUNS], d35_s[MAX_RUNS], def_s[MAX_RUNS], loo_s[MAX_RUNS];
  dcsim_gpu_launch_fit loo[MAX_RUNS]; /* <launch> refitted without each size */
  dcsim_gpu_launch_fit all;           /* refitted on every size */
  unsigned tpb;                   /* threads per block of the dwarf's <launch> (128 without one) */
  double launch_s, inflight_byte; /* the dwarf's <launch> */
} gd_fit;

typedef struct gd_state {
  gd_fit fit;
  int have;
} gd_state;

static int load(const char *dwarf, const char *hw, dcsim_dwarf_t **d, dcsim_gpu_profile_t **g,
                dcsim_error *err) {
  int rc = tool_load_dwarf(dwarf, d, err);
  return rc ? rc : tool_load_gpu(hw, g, err);
}

/* the time of the dwarf's case on gpu in the mode given; busy: the share of it spent computing or
 * transferring (may be NULL) */
static int model_time(const dcsim_dwarf_t *d, const char *cs, const dcsim_gpu_profile_t *gpu,
                      unsigned flags, double *t, double *busy, dcsim_error *err) {
  dcsim_dwarf_eval *ev = NULL;
  int rc = dcsim_dwarf_evaluate(d, cs, NULL, 0, &ev, err);
  if (rc) return rc;
  dcsim_model_req rq;
  memset(&rq, 0, sizeof rq);
  rq.ev = ev;
  rq.gpu = gpu;
  rq.flags = flags;
  rq.energy_form = DCSIM_ENERGY_NONE;
  dcsim_prediction p;
  if (!(rc = dcsim_model_run(&rq, &p, err))) {
    /* the kernels of one call, as D3.5 Table 4 measured them: without the host transfer that
     * the default model adds to a dwarf with <multi-gpu> */
    *t = p.gpu->time_s;
    if (busy) *busy = (p.gpu->compute_s + p.gpu->transfer_s) / p.gpu->time_s;
    dcsim_prediction_release(&p);
  }
  dcsim_dwarf_eval_free(ev);
  return rc;
}

static unsigned mode_flags(const val_row *w) {
  return strcmp(val_col(w, "mode"), "d35") == 0 ? DCSIM_MODEL_D35 : 0;
}

/* per size of the runs: both models, and the default model refitted without the size */
static int fit_sizes(gd_fit *f, const dcsim_dwarf_t *d, const dcsim_gpu_profile_t *gpu,
                     const dcsim_dwarf_eval *ev, dcsim_error *err) {
  const unsigned tpb = f->tpb;
  int rc = dcsim_fit_gpu_launch(ev, gpu, f->N, f->t, f->n, tpb, &f->all, err);
  for (size_t i = 0; i < f->n && !rc; i++) {
    double N[MAX_RUNS], t[MAX_RUNS];
    size_t k = 0;
    for (size_t q = 0; q < f->n; q++)
      if (q != i) N[k] = f->N[q], t[k++] = f->t[q];
    dcsim_gpu_launch_fit lf;
    if ((rc = model_time(d, f->cases[i], gpu, DCSIM_MODEL_D35, &f->d35_s[i], NULL, err)) ||
        (rc = model_time(d, f->cases[i], gpu, 0, &f->def_s[i], NULL, err)) ||
        (rc = dcsim_fit_gpu_launch(ev, gpu, N, t, k, tpb, &lf, err)))
      break;
    f->loo[i] = lf;
    rc = dcsim_gpu_launch_time(ev, gpu, f->N[i], tpb, lf.launch_s, lf.inflight_byte_per_thread,
                               &f->loo_s[i], err);
  }
  return rc;
}

static int read_runs(gd_fit *f, const dcsim_dwarf_t *d, const char *runs, dcsim_dwarf_eval **ev0,
                     dcsim_error *err) {
  dcsim_csv_t *csv = NULL;
  size_t c_case, c_t;
  int rc;
  if ((rc = dcsim__csv_load(runs, &csv, err)) || (rc = dcsim__csv_col(csv, "case", &c_case, err)) ||
      (rc = dcsim__csv_col(csv, "time_s", &c_t, err)))
    goto out;
  f->n = dcsim__csv_rows(csv) < MAX_RUNS ? dcsim__csv_rows(csv) : MAX_RUNS;
  for (size_t i = 0; i < f->n && !rc; i++) {
    dcsim_dwarf_eval *ev = NULL;
    snprintf(f->cases[i], sizeof f->cases[i], "%s", dcsim__csv_cell(csv, i, c_case));
    if ((rc = dcsim__csv_num(csv, i, c_t, &f->t[i], err)) ||
        (rc = dcsim_dwarf_evaluate(d, f->cases[i], NULL, 0, &ev, err)))
      break;
    f->N[i] = ev->domain_size;
    if (i == 0) {
      *ev0 = ev; /* kernels and <launch> are those of every case */
      f->tpb = ev->launch.present ? ev->launch.threads_per_block : 128;
      f->launch_s = ev->launch.launch_s;
      f->inflight_byte = ev->launch.inflight_byte_per_thread;
    } else {
      dcsim_dwarf_eval_free(ev);
    }
  }
out:
  dcsim__csv_free(csv);
  return rc;
}

static int get_fit(gd_state *s, const val_row *w, const gd_fit **out, dcsim_error *err) {
  char key[1024];
  snprintf(key, sizeof key, "%s|%s|%s", val_col(w, "dwarf"), val_col(w, "hw"), val_col(w, "runs"));
  *out = &s->fit;
  if (s->have && strcmp(key, s->fit.key) == 0) return 0;
  s->have = 0;
  dcsim_dwarf_t *d = NULL;
  dcsim_gpu_profile_t *gpu = NULL;
  dcsim_dwarf_eval *ev = NULL;
  int rc;
  if (!(rc = load(val_col(w, "dwarf"), val_col(w, "hw"), &d, &gpu, err)) &&
      !(rc = read_runs(&s->fit, d, val_col(w, "runs"), &ev, err)) &&
      !(rc = fit_sizes(&s->fit, d, gpu, ev, err))) {
    snprintf(s->fit.key, sizeof s->fit.key, "%s", key);
    s->have = 1;
  }
  dcsim_dwarf_eval_free(ev);
  dcsim_dwarf_free(d);
  dcsim_gpu_profile_free(gpu);
  return rc;
}

static int loo(gd_state *s, const val_row *w, double *out, dcsim_error *err) {
  const gd_fit *f = NULL;
  int rc = get_fit(s, w, &f, err);
  if (rc) return rc;
  for (size_t i = 0; i < f->n; i++)
    if (strcmp(f->cases[i], val_col(w, "case")) == 0) return *out = f->loo_s[i], 0;
  return DCSIM_ERR(err, DCSIM_EREF, w->path, dcsim__csv_line(w->t, w->r), "no run %s in %s",
                   val_col(w, "case"), val_col(w, "runs"));
}

/* 1 when hw is faster than every GPU of `others` */
static int fastest(const dcsim_dwarf_t *d, const val_row *w, double t, double *out,
                   dcsim_error *err) {
  char others[512];
  snprintf(others, sizeof others, "%s", val_col(w, "others"));
  *out = 1;
  int rc = 0;
  for (char *sp = NULL, *o = strtok_r(others, " ", &sp); o && !rc; o = strtok_r(NULL, " ", &sp)) {
    dcsim_gpu_profile_t *g = NULL;
    double to = 0;
    if (!(rc = tool_load_gpu(o, &g, err)) &&
        !(rc = model_time(d, val_col(w, "case"), g, mode_flags(w), &to, NULL, err)) && !(t < to))
      *out = 0;
    dcsim_gpu_profile_free(g);
  }
  return rc;
}

static int compute(void *st, const val_row *w, double *out, dcsim_error *err) {
  const char *q = val_col(w, "quantity");
  if (strcmp(q, "loo_s") == 0) return loo(st, w, out, err);
  dcsim_dwarf_t *d = NULL;
  dcsim_gpu_profile_t *gpu = NULL;
  double t = 0, busy = 0, activity = 0;
  const char *src = NULL;
  int rc;
  if ((rc = load(val_col(w, "dwarf"), val_col(w, "hw"), &d, &gpu, err)) ||
      (rc = model_time(d, val_col(w, "case"), gpu, mode_flags(w), &t, &busy, err)))
    goto out;
  if (strcmp(q, "time_s") == 0) {
    *out = t;
  } else if (strcmp(q, "fastest") == 0) {
    rc = fastest(d, w, t, out, err);
  } else if (strcmp(q, "board_w") == 0) {
    if (!(rc = dcsim_dwarf_gpu_activity(d, &activity, &src, err)))
      *out = dcsim_energy_gpu_board_w(dcsim_gpu_profile_spec(gpu), activity, busy);
  } else {
    rc = DCSIM_ERR(err, DCSIM_EREF, w->path, dcsim__csv_line(w->t, w->r), "unknown quantity %s", q);
  }
out:
  dcsim_dwarf_free(d);
  dcsim_gpu_profile_free(gpu);
  return rc;
}

static void label(const val_row *w, char *buf, size_t size) {
  const char *q = val_col(w, "quantity"), *mode = val_col(w, "mode");
  const char *what = strcmp(q, "time_s") == 0    ? "time"
                     : strcmp(q, "loo_s") == 0   ? "time, <launch> refitted without this size"
                     : strcmp(q, "fastest") == 0 ? "faster than"
                                                 : "board power of the default energy model";
  snprintf(buf, size, "%s %s on %s, %s model: %s%s%s", val_col(w, "dwarf"), val_col(w, "case"),
           val_col(w, "hw"), strcmp(mode, "d35") == 0 ? "D3.5's" : "default", what,
           strcmp(q, "fastest") == 0 ? " " : "",
           strcmp(q, "fastest") == 0 ? val_col(w, "others") : "");
}

static int init(void **st, dcsim_error *err) {
  if (!(*st = calloc(1, sizeof(gd_state))))
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  return 0;
}

static void fini(void *st) { free(st); }

static int extra(void *st, FILE *f, dcsim_error *err) {
  (void)err;
  const gd_state *s = st;
  if (!s->have) return 0;
  const gd_fit *g = &s->fit;
  double sum[3] = { 0 }, mx[3] = { 0 };
  fprintf(f,
          "| case | profiled [s] | D3.5 model | default, in sample | default, leave-one-out "
          "|\n|---|---|---|---|---|\n");
  for (size_t i = 0; i < g->n; i++) {
    double e[3] = { g->d35_s[i] / g->t[i] - 1, g->def_s[i] / g->t[i] - 1,
                    g->loo_s[i] / g->t[i] - 1 };
    for (int k = 0; k < 3; k++) {
      sum[k] += fabs(e[k]) / (double)g->n;
      mx[k] = fmax(mx[k], fabs(e[k]));
    }
    fprintf(f, "| %s | %.3g | %+.2f%% | %+.2f%% | %+.2f%% |\n", g->cases[i], g->t[i], 100 * e[0],
            100 * e[1], 100 * e[2]);
  }
  fprintf(f,
          "| mean abs. | | %.2f%% | %.2f%% | %.2f%% |\n| largest abs. | | %.2f%% | %.2f%% | "
          "%.2f%% |\n",
          100 * sum[0], 100 * sum[1], 100 * sum[2], 100 * mx[0], 100 * mx[1], 100 * mx[2]);
  fprintf(f,
          "\nRefitted on the %zu sizes: launch-s %.4g, inflight-byte-per-thread %.4g; the "
          "dwarf's <launch> holds %.4g, %.4g (ctest gpu_arch_launch_fit checks they agree).\n",
          g->n, g->all.launch_s, g->all.inflight_byte_per_thread, g->launch_s, g->inflight_byte);
  return 0;
}

/* A leave-one-out row: what the refit of <launch> without its size moves, and the error left. */
static int note(void *st, const val_row *w, char *buf, size_t size, dcsim_error *err) {
  (void)err;
  const gd_state *s = st;
  const gd_fit *f = &s->fit;
  if (!s->have || strcmp(val_col(w, "quantity"), "loo_s") != 0) return 0;
  for (size_t i = 0; i < f->n; i++)
    if (strcmp(f->cases[i], val_col(w, "case")) == 0)
      snprintf(buf, size,
               "refitted without %s, launch-s %.4g -> %.4g ms, inflight-byte-per-thread %.3g -> "
               "%.3g; the prediction there is %+.1f %% of the profiled time",
               f->cases[i], 1e3 * f->all.launch_s, 1e3 * f->loo[i].launch_s,
               f->all.inflight_byte_per_thread, f->loo[i].inflight_byte_per_thread,
               100 * (f->loo_s[i] / f->t[i] - 1));
  return 0;
}

const val_checker val_gpu_default =
    VAL_CHECKER("gpu-default", init, fini, label, compute, extra, note,
                "the default GPU model next to D3.5's, a `mode` column: in "
                "sample, leave-one-out, predictions, power");
