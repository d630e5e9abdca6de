/* fit-wms — fits the fitted parameters of the WMS description (workflows/wms/pegasus-htcondor.xml)
 * on recorded WfCommons instances and reports leave-one-out (doc/wms.md, wmsfit.h).
 *
 * usage: fit-wms DIR [--wms-file FILE] [--check | --predict]
 *   DIR holds WfCommons instances (*.json).
 *   default    the fit per profile, every instance's error with the fitted values and under
 *              leave-one-out, and their mean and worst (markdown);
 *   --check    the same, and exit 1 unless every fitted value of the description is the fit's
 *              (the ctest wms_fit: the shipped numbers are reproducible);
 *   --predict  no fit: every instance with the description's values, and a summary per workflow
 *              family (the name up to its first '-'), for instances the values were not fitted on.
 * Exits 77 (ctest: skipped) when DIR holds no instance, 2 on errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/lib.h"

#include "wmsfit.h"

static int die(const dcsim_error *e) {
  char b[2048];
  dcsim_error_format(e, b, sizeof b);
  fprintf(stderr, "fit-wms: %s\n", b);
  return 2;
}

static int cmp_dbl(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* --predict: every instance with the file's values, then per family. */
static void print_predict(const wmsfit *f) {
  printf("| instance | profile | recorded [s] | model [s] | error |\n|---|---|---|---|---|\n");
  for (size_t i = 0; i < f->n; i++)
    printf("| %s | %s | %.0f | %.1f | %+.1f %% |\n", wmsfit_base(f->inst[i].path),
           f->conf->profiles[f->inst[i].profile].name, f->inst[i].recorded_s, f->inst[i].file_s,
           100 * wmsfit_rel(f->inst[i].file_s, f->inst[i].recorded_s));
  printf(
      "\n| family, profile | instances | median error | mean abs error | within 15 %% |\n"
      "|---|---|---|---|---|\n");
  double *e = malloc((f->n + 1) * sizeof *e);
  char *done = calloc(f->n + 1, 1);
  for (size_t i = 0; e && done && i < f->n; i++) {
    if (done[i]) continue;
    const char *b = wmsfit_base(f->inst[i].path), *dash = strchr(b, '-');
    size_t len = dash ? (size_t)(dash - b) : strlen(b), n = 0, within = 0;
    double abs_sum = 0;
    for (size_t k = i; k < f->n; k++) {
      const char *c = wmsfit_base(f->inst[k].path);
      if (done[k] || strncmp(c, b, len) != 0 || (c[len] != '-' && c[len]) ||
          f->inst[k].profile != f->inst[i].profile)
        continue;
      done[k] = 1;
      e[n] = wmsfit_rel(f->inst[k].file_s, f->inst[k].recorded_s);
      abs_sum += fabs(e[n]);
      within += fabs(e[n++]) <= 0.15;
    }
    qsort(e, n, sizeof *e, cmp_dbl);
    printf("| %.*s, %s | %zu | %+.1f %% | %.1f %% | %zu |\n", (int)len, b,
           f->conf->profiles[f->inst[i].profile].name, n,
           100 * (n % 2 ? e[n / 2] : 0.5 * (e[n / 2 - 1] + e[n / 2])), 100 * abs_sum / (double)n,
           within);
  }
  free(e);
  free(done);
}

int main(int argc, char **argv) {
  if (dcsim_lib_init() != 0) return 1;
  const char *dir = NULL, *wms_file = NULL;
  int check = 0, predict = 0, rc, same = 1;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--check") == 0)
      check = 1;
    else if (strcmp(argv[i], "--predict") == 0)
      predict = 1;
    else if (strcmp(argv[i], "--wms-file") == 0 && i + 1 < argc)
      wms_file = argv[++i];
    else if (!dir && argv[i][0] != '-')
      dir = argv[i];
    else
      dir = NULL, argc = 0;
  }
  if (!dir || (check && predict)) {
    fprintf(stderr, "usage: fit-wms DIR [--wms-file FILE] [--check | --predict]\n");
    return 2;
  }
  wmsfit f;
  dcsim_error err;
  if ((rc = wmsfit_load(dir, wms_file, &f, &err)) || (rc = wmsfit_run(&f, !predict, &err))) {
    if (rc == 77) fprintf(stderr, "fit-wms: no instance in %s (skipped)\n", dir);
    rc = rc == 77 ? 77 : die(&err);
    wmsfit_release(&f);
    return rc;
  }
  if (predict) {
    print_predict(&f);
  } else {
    wmsfit_print_values(&f, &same);
    wmsfit_print_fit(&f);
  }
  if (f.n_skipped)
    printf("\n%zu instance(s) without a recorded makespan or a WMS profile left out.\n",
           f.n_skipped);
  wmsfit_release(&f);
  if (check && !same) {
    fprintf(stderr,
            "fit-wms: the fitted values of the description are not the fit's: update it "
            "(doc/wms.md)\n");
    return 1;
  }
  return fflush(stdout) || ferror(stdout) ? 2 : 0;
}
