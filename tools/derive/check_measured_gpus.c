/* check_measured_gpus.c — the `measured-gpus` checker of `validate` (validate.h): dcsim's default
 * GPU model against GPUs measured for this project (tests/reference/measured-gpus.csv,
 * doc/validation.md "Measured GPUs"). Columns: dwarf, hw, case, quantity and, for calibrate,
 * runs (a gpu-bench CSV) and others (its power log). Quantities:
 *   time_s      the default model's time of one call (one synchronous launch for transt-like and
 *               stencil7)
 *   board_w     the board power of the default model: the GPU energy over the time, the
 *               profile's activity model (forced with --gpu-power-activity where D3.5 measured a
 *               fraction, so that Table 36 checks the model, not itself)
 *   active_idle_w, idle_w   what `dcsim calibrate gpu runs others` writes into <power> */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"
#include "dcsim/dwarf.h"
#include "dcsim/hwprofile.h"
#include "dcsim/import_gpubench.h"
#include "dcsim/model.h"
#include "toolutil.h"
#include "validate.h"

static int load(const val_row *w, dcsim_dwarf_t **d, dcsim_gpu_profile_t **g, dcsim_error *err) {
  int rc = tool_load_dwarf(val_col(w, "dwarf"), d, err);
  return rc ? rc : tool_load_gpu(val_col(w, "hw"), g, err);
}

/* The default model's time and board power of one call of the row's case. */
static int model(const val_row *w, double *time_s, double *board_w, dcsim_error *err) {
  dcsim_dwarf_t *d = NULL;
  dcsim_gpu_profile_t *gpu = NULL;
  dcsim_dwarf_eval *ev = NULL;
  int rc = load(w, &d, &gpu, err);
  if (!rc) rc = dcsim_dwarf_evaluate(d, val_col(w, "case"), NULL, 0, &ev, err);
  if (!rc) {
    dcsim_model_req rq;
    memset(&rq, 0, sizeof rq);
    rq.ev = ev;
    rq.gpu = gpu;
    rq.energy_form = DCSIM_ENERGY_MODE;
    rq.gpu_power_activity = 1;
    dcsim_prediction p;
    if (!(rc = dcsim_model_run(&rq, &p, err))) {
      *time_s = p.time_s;
      *board_w = p.gpu_j / p.time_s;
      dcsim_prediction_release(&p);
    }
  }
  dcsim_dwarf_eval_free(ev);
  dcsim_dwarf_free(d);
  dcsim_gpu_profile_free(gpu);
  return rc;
}

/* What `dcsim calibrate gpu RUNS [OTHERS]` writes as the active idle or the idle. */
static int calibrate(const val_row *w, int idle, double *out, dcsim_error *err) {
  dcsim_gpubench b;
  dcsim_gpu_power_fit pw;
  int rc = dcsim_gpubench_load(val_col(w, "runs"), &b, err);
  if (!rc) rc = dcsim_gpu_power_fit_csv(val_col(w, "others"), &pw, err);
  if (!rc) *out = idle ? fmin(pw.idle_w, pw.active_idle_w) : pw.active_idle_w;
  return rc;
}

static int compute(void *st, const val_row *w, double *out, dcsim_error *err) {
  (void)st;
  const char *q = val_col(w, "quantity");
  double t = 0, p = 0;
  int rc;
  if (strcmp(q, "active_idle_w") == 0) return calibrate(w, 0, out, err);
  if (strcmp(q, "idle_w") == 0) return calibrate(w, 1, out, err);
  if ((rc = model(w, &t, &p, err))) return rc;
  if (strcmp(q, "time_s") == 0) {
    *out = t;
  } else if (strcmp(q, "board_w") == 0) {
    *out = p;
  } else {
    return DCSIM_ERR(err, DCSIM_EREF, w->path, dcsim__csv_line(w->t, w->r), "unknown quantity %s",
                     q);
  }
  return 0;
}

static void label(const val_row *w, char *buf, size_t size) {
  const char *q = val_col(w, "quantity");
  if (strcmp(q, "active_idle_w") == 0 || strcmp(q, "idle_w") == 0) {
    snprintf(
        buf, size, "dcsim calibrate gpu %s %s: %s", val_col(w, "runs"), val_col(w, "others"),
        strcmp(q, "idle_w") == 0 ? "idle-w (no higher than the active idle)" : "active-idle-w");
    return;
  }
  snprintf(buf, size, "%s %s on %s: %s", val_col(w, "dwarf"), val_col(w, "case"), val_col(w, "hw"),
           strcmp(q, "time_s") == 0 ? "one synchronous call" : "board power (activity model)");
}

const val_checker val_measured_gpus =
    VAL_CHECKER("measured-gpus", NULL, NULL, label, compute, NULL, NULL,
                "the default GPU model against GPUs measured for this project (time of a call, "
                "board power, and "
                "what `dcsim calibrate gpu` writes into `<power>`)");
