/* fuzz_likwid.c — `dcsim calibrate import-likwid`: likwid-bench output into a calibration directory
 * (a fresh copy of the test machine.xml each time: the importer rewrites it). */
// seeds: tests/data/calibration/likwid/*.txt
#include "dcsim/import_likwid.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_dir();
  fuzz_reset(); /* nothing left from the previous input */
  fuzz_link(
      "tests/data/calibration/likwid"); /* machine.xml (a link; the importer renames over it) */
  dcsim_error err;
  const char *path = fuzz_file("likwid.txt", data, size);
  int rc = dcsim_calib_import_likwid(&path, 1, fuzz_dir(), NULL, NULL, NULL, &err);
  fuzz_check_error(rc, &err);
  return 0;
}
