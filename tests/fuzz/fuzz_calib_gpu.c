/* fuzz_calib_gpu.c — `dcsim calibrate gpu`: an nvprof/Nsight Compute metrics export or a manifest
 * of them (next to the test exports) turned into kernel characteristics, then into dwarf XML. */
// seeds: tests/data/calibration/gpu/*.csv
#include "dcsim/import_gpu.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int linked;
  if (!linked) {
    fuzz_link("tests/data/calibration/gpu");
    linked = 1;
  }
  dcsim_error err;
  const char *path = fuzz_file("export.csv", data, size);
  dcsim_gpu_calib *c = NULL;
  int rc = dcsim_calib_gpu(&path, 1, 6.4e6, &c, &err);
  fuzz_check_error(rc, &err);
  if (!rc) {
    FILE *f = fopen("/dev/null", "w");
    if (f) {
      dcsim_calib_gpu_report(f, c);
      fclose(f);
    }
    char *text = NULL;
    rc = dcsim_calib_gpu_kernels_xml(c, "fuzz", &text, &err);
    fuzz_check_error(rc, &err);
    free(text);
  }
  dcsim_gpu_calib_free(c);
  return 0;
}
