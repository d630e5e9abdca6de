/* fuzz_kerncraft.c — `dcsim calibrate import-kerncraft`: a Kerncraft machine file (YAML) into a
 * calibration directory (machine.xml and tables), which `dcsim calibrate cpu` must then accept or
 * refuse with an error. */
// seeds: tests/data/calibration/kerncraft/*.yml
#include "dcsim/import_cpu.h"
#include "dcsim/import_kerncraft.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_dir();
  fuzz_reset(); /* nothing left from the previous input */
  dcsim_error err;
  const char *path = fuzz_file("machine.yml", data, size);
  int rc = dcsim_calib_import_kerncraft(path, fuzz_dir(), NULL, NULL, &err);
  fuzz_check_error(rc, &err);
  if (!rc) {
    char *text = NULL;
    rc = dcsim_calib_cpu_profile(fuzz_dir(), &text, &err);
    fuzz_check_error(rc, &err);
    free(text);
  }
  return 0;
}
