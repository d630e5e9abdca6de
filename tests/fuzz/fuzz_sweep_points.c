/* fuzz_sweep_points.c — sweep results read back by `dcsim pareto` (JSON or CSV of `dcsim sweep`),
 * then the Pareto front and its knee over them. */
// seeds: tests/cli/sweep_*_json.out tests/cli/sweep_*_csv.out tests/cli/pareto_json.out
#include "dcsim/sweep.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  dcsim_error err;
  dcsim_sweep_point *pts = NULL;
  size_t n = 0;
  int rc = dcsim_sweep_points_read(fuzz_file("points", data, size), &pts, &n, &err);
  fuzz_check_error(rc, &err);
  if (!rc) {
    dcsim_sweep_mark_front(pts, n);
    FILE *f = fopen("/dev/null", "w");
    if (f) {
      dcsim_sweep_write_json(f, pts, n, NULL);
      dcsim_sweep_write_csv(f, pts, n, NULL);
      dcsim_sweep_write_text(f, pts, n, 1);
      fclose(f);
    }
  }
  dcsim_sweep_points_free(pts, n);
  return 0;
}
