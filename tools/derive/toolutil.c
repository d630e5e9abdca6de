/* toolutil.c — what the programs of tools/derive share (see toolutil.h). */
#include "toolutil.h"

#include <math.h>
#include <stdio.h>

int tool_die(const char *prog, const dcsim_error *e, int status) {
  char b[2048];
  dcsim_error_format(e, b, sizeof b);
  fprintf(stderr, "%s: %s\n", prog, b);
  return status;
}

int tool_check_fitted(const char *path, const char *element, const char *what, int present,
                      const char *const name[2], const double have[2], const double fit[2]) {
  int differs = !present;
  for (int k = 0; k < 2; k++) differs |= fabs(have[k] - fit[k]) > 1e-3 * fit[k];
  if (!differs) {
    printf("%s holds the fitted %s\n", path, what);
    return 0;
  }
  fprintf(stderr, "%s: <%s> holds %s %g, %s %g; the fit gives %.4g, %.4g (rerun with --xml)\n",
          path, element, name[0], have[0], name[1], have[1], fit[0], fit[1]);
  return 1;
}
