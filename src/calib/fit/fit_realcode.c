/* fit_realcode.c — the rows of the real codes measured on a machine
 * (calibration/realcode/MACHINE/measurements.csv, doc/validation-realcode.md): which dwarf predicts
 * a row and with which parameter values. One home for the rules that tools/derive/realcode.c (the
 * fit and the report) and `dcsim bench --check` (calib/measure/bench_check.c) both apply. */
#include <stdlib.h>
#include <string.h>

#include "calib/internal.h"
#include "dcsim/catalog.h"

int dcsim__realcode_gpu_variant(const char *variant) {
  return strstr(variant, "cuda") || strstr(variant, "gpu") || strstr(variant, "GPU");
}

const char *dcsim__realcode_dwarf(const char *code, const char *variant) {
  char *path = NULL;
  dcsim_error e;
  int found = *variant && dcsim_catalog_find(DCSIM_KIND_DWARF, variant, NULL, 0, &path, &e) == 0;
  free(path);
  return found ? variant : code;
}

/* Each parameter of the dwarf from the column of its name, else of its name in lower case (the
 * column `octahedral` gives OCTAHEDRAL). */
int dcsim__realcode_bindings(const dcsim_dwarf_t *d, const dcsim_csv_t *t, size_t r,
                             const char *path, dcsim_binding *b, size_t max, size_t *n,
                             dcsim_error *err) {
  *n = dcsim_dwarf_n_params(d);
  if (*n > max) return DCSIM_ERR(err, DCSIM_ERANGE, dcsim_dwarf_path(d), 0, "too many parameters");
  for (size_t i = 0; i < *n; i++) {
    const char *p = dcsim_dwarf_param(d, i);
    char low[64];
    size_t k = 0;
    for (; p[k] && k + 1 < sizeof low; k++)
      low[k] = (char)(p[k] >= 'A' && p[k] <= 'Z' ? p[k] + 32 : p[k]);
    low[k] = 0;
    size_t col;
    dcsim_error e2;
    if (dcsim__csv_col(t, p, &col, &e2) && dcsim__csv_col(t, low, &col, err)) return -1;
    b[i].name = p;
    b[i].file = path;
    b[i].line = dcsim__csv_line(t, r);
    if (dcsim__csv_num(t, r, col, &b[i].value, err)) return -1;
  }
  return 0;
}
