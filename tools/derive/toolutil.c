/* toolutil.c — what the programs of tools/derive share (see toolutil.h). */
#include "toolutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"

int tool_load_dwarf(const char *ref, dcsim_dwarf_t **out, dcsim_error *err) {
  char *path = NULL;
  int rc = dcsim_catalog_find(DCSIM_KIND_DWARF, ref, NULL, 0, &path, err);
  if (!rc) rc = dcsim_dwarf_load(path, out, err);
  free(path);
  return rc;
}

int tool_load_cpu(const char *ref, dcsim_cpu_profile_t **out, dcsim_error *err) {
  char *path = NULL;
  int rc = dcsim_catalog_find(DCSIM_KIND_CPU, ref, NULL, 0, &path, err);
  if (!rc) rc = dcsim_cpu_profile_load(path, out, err);
  free(path);
  return rc;
}

int tool_load_gpu(const char *ref, dcsim_gpu_profile_t **out, dcsim_error *err) {
  char *path = NULL;
  int rc = dcsim_catalog_find(DCSIM_KIND_GPU, ref, NULL, 0, &path, err);
  if (!rc) rc = dcsim_gpu_profile_load(path, out, err);
  free(path);
  return rc;
}

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

int tool_gpu_fit_in_load(const char *prog, int argc, char **argv, tool_gpu_fit_in *in) {
  memset(in, 0, sizeof *in);
  if (argc != 5 || (strcmp(argv[4], "--xml") && strcmp(argv[4], "--check"))) {
    fprintf(stderr, "usage: %s DWARF GPU RUNS.csv (--xml | --check)\n", prog);
    return 2;
  }
  in->check = strcmp(argv[4], "--check") == 0;
  dcsim_error err;
  if (tool_load_dwarf(argv[1], &in->dwarf, &err) || tool_load_gpu(argv[2], &in->gpu, &err) ||
      dcsim__csv_load(argv[3], &in->runs, &err)) {
    tool_gpu_fit_in_free(in);
    return tool_die(prog, &err, 2);
  }
  return 0;
}

void tool_gpu_fit_in_free(tool_gpu_fit_in *in) {
  dcsim__csv_free(in->runs);
  dcsim_dwarf_free(in->dwarf);
  dcsim_gpu_profile_free(in->gpu);
  memset(in, 0, sizeof *in);
}
