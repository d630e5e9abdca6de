/* fuzz_csv.c — CSV tables (util/csv.h): load, then every cell as a number. */
// seeds: calibration/*/*.csv tests/data/calib/*.csv
#include "fuzz.h"
#include "util/csv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  dcsim_error err;
  dcsim_csv_t *t = NULL;
  int rc = dcsim__csv_load(fuzz_file("table.csv", data, size), &t, &err);
  fuzz_check_error(rc, &err);
  if (rc) return 0;
  size_t col;
  rc = dcsim__csv_col(t, "threads", &col, &err);
  fuzz_check_error(rc, &err);
  for (size_t r = 0; r < dcsim__csv_rows(t); r++) {
    dcsim__csv_line(t, r);
    for (size_t c = 0; c < 8; c++) {
      double v;
      const char *cell = dcsim__csv_cell(t, r, c);
      if (!cell) abort();
      fuzz_check_error(dcsim__csv_num(t, r, c, &v, &err), &err);
    }
  }
  dcsim__csv_free(t);
  return 0;
}
