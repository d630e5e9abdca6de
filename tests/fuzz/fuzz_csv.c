/* fuzz_csv.c — CSV tables (dcsim/csv.h): load, then every cell as a number. */
// seeds: calibration/*/*.csv tests/data/calib/*.csv
#include "dcsim/csv.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  dcsim_error err;
  dcsim_csv_t *t = NULL;
  int rc = dcsim_csv_load(fuzz_file("table.csv", data, size), &t, &err);
  fuzz_check_error(rc, &err);
  if (rc) return 0;
  size_t col;
  rc = dcsim_csv_col(t, "threads", &col, &err);
  fuzz_check_error(rc, &err);
  for (size_t r = 0; r < dcsim_csv_rows(t); r++) {
    dcsim_csv_line(t, r);
    for (size_t c = 0; c < 8; c++) {
      double v;
      const char *cell = dcsim_csv_cell(t, r, c);
      if (!cell) abort();
      fuzz_check_error(dcsim_csv_num(t, r, c, &v, &err), &err);
    }
  }
  dcsim_csv_free(t);
  return 0;
}
