/* fit-gpu-arch — fits the launch and occupancy terms of the default GPU model (the dwarf's
 * <launch>, dcsim/model_gpu.h, dcsim/fit_gpu.h) to the profiled whole-dwarf times of ONE GPU
 * (calibration/geforce-gtx970/acraneb2-runs.csv, D3.5 Table 4). The fit's errors in sample and
 * leave-one-size-out, and the predictions for other GPUs, are in doc/validation.md
 * (tools/derive/check_gpu_default.c).
 *
 * usage: fit-gpu-arch DWARF GPU RUNS.csv (--xml | --check)
 *   --xml     prints the <launch> element for the dwarf
 *   --check   exits 1 unless the dwarf holds the fitted parameters (to 1e-3, relative) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/fit_gpu.h"
#include "dcsim/lib.h"
#include "dcsim/model.h"
#include "toolutil.h"
#include "util/csv.h"

#define MAX_RUNS 64

typedef struct runs {
  size_t n;
  const char *cases[MAX_RUNS];
  double N[MAX_RUNS], t[MAX_RUNS];
  dcsim_dwarf_eval *ev; /* of the first case (kernels and launch are the same for all) */
} runs;

static int die(const dcsim_error *e) { return tool_die("fit-gpu-arch", e, 2); }

static int load_runs(const dcsim_dwarf_t *d, const dcsim_csv_t *csv, runs *r, dcsim_error *err) {
  size_t c_case, c_t;
  int rc;
  if ((rc = dcsim__csv_col(csv, "case", &c_case, err)) ||
      (rc = dcsim__csv_col(csv, "time_s", &c_t, err)))
    return rc;
  r->n = dcsim__csv_rows(csv) < MAX_RUNS ? dcsim__csv_rows(csv) : MAX_RUNS;
  for (size_t i = 0; i < r->n; i++) {
    dcsim_dwarf_eval *ev = NULL;
    r->cases[i] = dcsim__csv_cell(csv, i, c_case);
    if ((rc = dcsim__csv_num(csv, i, c_t, &r->t[i], err)) ||
        (rc = dcsim_dwarf_evaluate(d, r->cases[i], NULL, 0, &ev, err)))
      return rc;
    r->N[i] = ev->domain_size;
    if (i == 0)
      r->ev = ev;
    else
      dcsim_dwarf_eval_free(ev);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (dcsim_lib_init() != 0) return 1;
  tool_gpu_fit_in in;
  int rc = tool_gpu_fit_in_load("fit-gpu-arch", argc, argv, &in);
  if (rc) return rc;
  dcsim_error err;
  const dcsim_dwarf_t *d = in.dwarf;
  const dcsim_gpu_profile_t *gpu = in.gpu;
  runs r = { 0 };
  if (load_runs(d, in.runs, &r, &err)) return die(&err);
  const dcsim_gpu_launch *have = &r.ev->launch;
  unsigned tpb = have->present ? have->threads_per_block : 128;
  dcsim_gpu_launch_fit fit;
  if (dcsim_fit_gpu_launch(r.ev, gpu, r.N, r.t, r.n, tpb, &fit, &err)) return die(&err);
  int status = 0;
  if (!in.check) {
    printf(
        "    <launch threads-per-block=\"%u\" launch-s=\"%.4g\" inflight-byte-per-thread=\"%.4g\" "
        "fitted-on=\"%s\" source=\"fitted: tools/derive/fit_gpu_arch.c on the %zu profiled "
        "times of %s (D3.5 Table 4), least squares of the relative errors, mean |error| "
        "%.2f %%\"/>\n",
        tpb, fit.launch_s, fit.inflight_byte_per_thread, dcsim_gpu_profile_name(gpu), r.n,
        dcsim_gpu_profile_name(gpu), 100 * fit.mean_abs_rel);
  } else {
    static const char *const names[2] = { "launch-s", "inflight" };
    double held[2] = { have->launch_s, have->inflight_byte_per_thread };
    double fitted[2] = { fit.launch_s, fit.inflight_byte_per_thread };
    status = tool_check_fitted(dcsim_dwarf_path(in.dwarf), "launch", "launch terms", have->present,
                               names, held, fitted);
  }
  dcsim_dwarf_eval_free(r.ev);
  tool_gpu_fit_in_free(&in);
  return status;
}
