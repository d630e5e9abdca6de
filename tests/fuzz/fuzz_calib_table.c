/* fuzz_calib_table.c — the CSV tables of a calibration directory (frequency, threads, value, unit,
 * source): the input replaces one table of the E5-2697v3 directory (chosen by its size), then
 * `dcsim calibrate cpu` builds the profile. */
// seeds: calibration/*/*.csv
#include "dcsim/import_cpu.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const tables[] = { "flops.csv", "L1.csv",   "L2.csv",
                                        "L3.csv",    "DRAM.csv", "power.csv" };
  fuzz_link("calibration/xeon-e5-2697v3"); /* restores the table the previous input replaced */
  fuzz_file(tables[size % 6], data, size);
  dcsim_error err;
  char *text = NULL;
  int rc = dcsim_calib_cpu_profile(fuzz_dir(), &text, &err);
  fuzz_check_error(rc, &err);
  free(text);
  return 0;
}
