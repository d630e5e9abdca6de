/* fit-gpu-small-domain — fits the small-domain correction of the GPU model (dcsim/fit_gpu.h) to
 * the profiled whole-dwarf times of one GPU (calibration/geforce-gtx970/acraneb2-runs.csv, D3.5
 * Tables 4/18). The errors per size, in sample and leave-one-out, are in doc/validation.md
 * (tools/derive/check_small_domain.c).
 *
 * usage: fit-gpu-small-domain DWARF GPU RUNS.csv (--xml | --check)
 *   --xml     prints the <small-domain> element for the GPU profile
 *   --check   exits 1 unless the profile holds the fitted parameters (to 1e-3, relative) */
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

static int die(const dcsim_error *e) { return tool_die("fit-gpu-small-domain", e, 2); }

int main(int argc, char **argv) {
  if (dcsim_lib_init() != 0) return 1;
  tool_gpu_fit_in in;
  int rc = tool_gpu_fit_in_load("fit-gpu-small-domain", argc, argv, &in);
  if (rc) return rc;
  dcsim_error err;
  const dcsim_dwarf_t *d = in.dwarf;
  const dcsim_gpu_profile_t *gpu = in.gpu;
  const dcsim_csv_t *csv = in.runs;
  size_t c_case, c_t;
  if (dcsim__csv_col(csv, "case", &c_case, &err) || dcsim__csv_col(csv, "time_s", &c_t, &err))
    return die(&err);
  size_t n = dcsim__csv_rows(csv);
  if (n > MAX_RUNS) n = MAX_RUNS;
  dcsim_gpu_size_obs obs[MAX_RUNS];
  for (size_t r = 0; r < n; r++) {
    if (dcsim__csv_num(csv, r, c_t, &obs[r].measured_s, &err) ||
        dcsim_gpu_size_obs_of(d, dcsim__csv_cell(csv, r, c_case), gpu, 0, &obs[r], &err))
      return die(&err);
  }
  const dcsim_gpu_spec *g = dcsim_gpu_profile_spec(gpu);
  dcsim_dwarf_eval *ev0 = NULL;
  if (dcsim_dwarf_evaluate(d, dcsim__csv_cell(csv, 0, c_case), NULL, 0, &ev0, &err))
    return die(&err);
  double launches = (double)ev0->n_kernels * ev0->invocations; /* kernel launches per call */
  dcsim_dwarf_eval_free(ev0);
  dcsim_gpu_small_fit fit;
  if (dcsim_fit_gpu_small_domain(obs, n, g->sm, launches, &fit, &err)) return die(&err);
  int status = 0;
  if (!in.check) {
    printf(
        "  <small-domain launch-s=\"%.4g\" saturation-threads-per-sm=\"%.4g\" source=\"fitted: "
        "tools/derive/fit_gpu_small_domain.c, %s on %s, the %zu profiled times of D3.5 Table 4 (= "
        "Table 18 T prof); "
        "least squares of the relative errors, mean |error| %.2f %%\"/>\n",
        fit.launch_s, fit.saturation_threads_per_sm, dcsim_dwarf_name(d),
        dcsim_gpu_profile_name(gpu), n, 100 * fit.mean_abs_rel);
  } else {
    static const char *const names[2] = { "launch-s", "saturation" };
    double held[2] = { g->launch_s, g->saturation_threads_per_sm };
    double fitted[2] = { fit.launch_s, fit.saturation_threads_per_sm };
    status = tool_check_fitted(dcsim_gpu_profile_path(in.gpu), "small-domain",
                               "small-domain parameters", g->has_small_domain, names, held, fitted);
  }
  tool_gpu_fit_in_free(&in);
  return status;
}
