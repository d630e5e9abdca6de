/* fuzz_calib_fit.c — measurement CSVs of `dcsim calibrate loops|energy`: the input is fitted both
 * as loop measurements (LAD and least squares) and as energy measurements against the E5-2697v3. */
// seeds: tests/data/calib/*.csv calibration/xeon-e5-2697v3/bifft-runs.csv
#include "dcsim/fit_coeffs.h"
#include "dcsim/hwprofile.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static dcsim_cpu_profile_t *cpu;
  dcsim_error err;
  if (!cpu &&
      dcsim_cpu_profile_load(DCSIM_SOURCE_DIR "/hw-profiles/cpu/xeon-e5-2697v3.xml", &cpu, &err))
    abort();
  const char *path = fuzz_file("measurements.csv", data, size);
  dcsim_loop_fit_opts o = { DCSIM_FIT_LAD, DCSIM_FIT_LSQ, NULL, 0 };
  dcsim_loop_fit *fits = NULL;
  size_t n = 0;
  int rc = dcsim_calib_fit_loops(path, cpu, &o, &fits, &n, &err);
  fuzz_check_error(rc, &err);
  free(fits);
  dcsim_energy_fit ef;
  rc = dcsim_calib_fit_energy(path, cpu, NULL, DCSIM_FIT_LSQ, NULL, &ef, &err);
  fuzz_check_error(rc, &err);
  return 0;
}
