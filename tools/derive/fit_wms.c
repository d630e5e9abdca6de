/* fit-wms — fits the fitted parameters of the WMS description (workflows/wms/pegasus-htcondor.xml)
 * on recorded WfCommons instances and measures the result on instances it was not fitted on
 * (doc/wms.md, wmsfit.h).
 *
 * usage: fit-wms DIR [--test TESTDIR] [--wms-file FILE] [--record FILE]
 *                [--check | --predict | --check-record FILE]
 *   DIR holds WfCommons instances (*.json); for the shipped fit, the fit share of the training set
 *   that tools/wfarchive.py extracts (DIR/fit), and TESTDIR its untouched test share.
 *   default    the fit per profile (coordinate descent, standard errors), every instance of DIR
 *              with the fit, and per family and profile the median, P90 and worst |error|; with
 *              --test, the same for TESTDIR under the fitted values and, per WMS version, the
 *              uncertainty band those errors give (the P90 of |error|);
 *   --check    the same, and exit 1 unless every fitted value of the description is the fit's
 *              and, with --test, every profile's band is its version's;
 *   --predict  no fit: every instance with the description's values, and the per-family table;
 *   --record   writes the fitted values, standard errors, the instances fitted on and every
 *              instance's error (TSV: workflows/wms/pegasus-htcondor-fit.tsv);
 *   --check-record FILE  no fit: exit 1 unless the description's fitted values and bands are
 *              FILE's and every instance of DIR that FILE lists simulates to FILE's makespan
 *              (0.05 s): the ctest wms_fit, on the shipped instances, which are in the fit share.
 * Exits 77 (ctest: skipped) when DIR holds no instance, 2 on errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dcsim/lib.h"

#include "toolutil.h"
#include "wmsfit.h"

static int die(const dcsim_error *e) { return tool_die("fit-wms", e, 2); }

/* --check-record: the record's values against the description's, and its makespans against the
 * simulation of the instances of f (with the file's values). */
static int check_record(const wmsfit *f, const char *path) {
  FILE *in = fopen(path, "r");
  if (!in) {
    fprintf(stderr, "fit-wms: cannot read %s\n", path);
    return 2;
  }
  char line[65536];
  int bad = 0;
  size_t params = 0, matched = 0;
  while (fgets(line, sizeof line, in)) {
    char *c[8] = { 0 };
    size_t nc = 0;
    for (char *tok = strtok(line, "\t\n"); tok && nc < 8; tok = strtok(NULL, "\t\n")) c[nc++] = tok;
    if (nc >= 4 && strcmp(c[0], "param") == 0) {
      int ok = 0;
      for (size_t k = 0; k < f->conf->n_profiles; k++) {
        const dcsim_wms_profile *p = &f->conf->profiles[k];
        int q = dcsim_wms_param_find(c[2]);
        if (strcmp(p->name, c[1]) != 0 || q < 0 || !p->fit[q].steps) continue;
        double v = strtod(c[3], NULL);
        ok = fabs(p->p.v[q] - v) <= 1e-6 * fmax(fabs(v), 1e-12);
        if (!ok)
          fprintf(stderr, "fit-wms: %s: %s %s = %s, the description has %.6g\n", path, c[1], c[2],
                  c[3], p->p.v[q]);
      }
      if (!ok) bad = 1;
      params++;
    } else if (nc >= 7 && strcmp(c[0], "band") == 0) {
      double want = strtod(c[6], NULL);
      for (size_t k = 0; k < f->conf->n_profiles; k++) {
        const dcsim_wms_profile *p = &f->conf->profiles[k];
        if (strcasecmp(p->runtime_system, c[1]) != 0 || strcmp(p->version_prefix, c[2]) != 0)
          continue;
        if (fabs(p->band_rel - want) > 1e-9) {
          fprintf(stderr, "fit-wms: %s: band %s %s = %s, profile %s has %.3f\n", path, c[1], c[2],
                  c[6], p->name, p->band_rel);
          bad = 1;
        }
      }
    } else if (nc >= 6 && strcmp(c[0], "instance") == 0) {
      for (size_t i = 0; i < f->n; i++) {
        if (strcmp(wmsfit_base(f->inst[i].path), c[1]) != 0) continue;
        double want = strtod(c[5], NULL);
        matched++;
        printf("%s: record %.1f s, simulated %.1f s\n", c[1], want, f->inst[i].file_s);
        if (fabs(f->inst[i].file_s - want) > 0.051) bad = 1;
      }
    }
  }
  fclose(in);
  if (!params || !matched) {
    fprintf(stderr, "fit-wms: %s: no fitted value or no instance of the directory in it\n", path);
    bad = 1;
  }
  return bad;
}

/* Per WMS version: the band of the test share's errors (wmsfit_bands), compared with the profiles'
 * band attribute (*same = 0 when one differs). */
static void print_bands(const wmsfit *t, int *same) {
  printf(
      "\n| WMS version | test instances | median abs error | P90 abs error | band | profiles' "
      "band |\n|---|---|---|---|---|---|\n");
  wmsfit_band b[16];
  size_t nb = wmsfit_bands(t, b, 16);
  for (size_t i = 0; i < nb; i++) {
    printf("| %s %s* | %zu | %.1f %% | %.1f %% | %.3f |", b[i].system, b[i].prefix, b[i].n,
           100 * b[i].median_abs, 100 * b[i].p90_abs, b[i].band);
    for (size_t j = 0; j < t->conf->n_profiles; j++) {
      const dcsim_wms_profile *q = &t->conf->profiles[j];
      if (strcmp(q->version_prefix, b[i].prefix) != 0 || strcmp(q->runtime_system, b[i].system))
        continue;
      printf(" %s %.3f", q->name, q->band_rel);
      if (fabs(q->band_rel - b[i].band) > 1e-9) *same = 0;
    }
    printf(" |\n");
  }
}

int main(int argc, char **argv) {
  if (dcsim_lib_init() != 0) return 1;
  const char *dir = NULL, *wms_file = NULL, *test_dir = NULL, *record = NULL, *check_rec = NULL;
  int check = 0, predict = 0, rc, same = 1, usage = 0;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--check") == 0)
      check = 1;
    else if (strcmp(argv[i], "--predict") == 0)
      predict = 1;
    else if (strcmp(argv[i], "--wms-file") == 0 && i + 1 < argc)
      wms_file = argv[++i];
    else if (strcmp(argv[i], "--test") == 0 && i + 1 < argc)
      test_dir = argv[++i];
    else if (strcmp(argv[i], "--record") == 0 && i + 1 < argc)
      record = argv[++i];
    else if (strcmp(argv[i], "--check-record") == 0 && i + 1 < argc)
      check_rec = argv[++i], predict = 1;
    else if (!dir && argv[i][0] != '-')
      dir = argv[i];
    else
      usage = 1;
  }
  if (usage || !dir || (check && predict) || (predict && (test_dir || record))) {
    fprintf(stderr,
            "usage: fit-wms DIR [--test TESTDIR] [--wms-file FILE] [--record FILE] "
            "[--check | --predict | --check-record FILE]\n");
    return 2;
  }
  wmsfit f, t;
  dcsim_error err;
  memset(&t, 0, sizeof t);
  if ((rc = wmsfit_load(dir, wms_file, &f, &err)) || (rc = wmsfit_predict(&f, &err)) ||
      (!predict && (rc = wmsfit_fit(&f, &err))) ||
      (test_dir && ((rc = wmsfit_load(test_dir, wms_file, &t, &err)) ||
                    (rc = wmsfit_predict(&t, &err)) || (rc = wmsfit_apply(&f, &t, &err))))) {
    if (rc == 77) fprintf(stderr, "fit-wms: no instance in %s (skipped)\n", dir);
    rc = rc == 77 ? 77 : die(&err);
    wmsfit_release(&f);
    wmsfit_release(&t);
    return rc;
  }
  if (check_rec) {
    rc = check_record(&f, check_rec);
    wmsfit_release(&f);
    return rc;
  }
  if (predict) {
    wmsfit_print_instances(&f, 0);
    printf("\n");
    wmsfit_print_groups(&f, 0);
  } else {
    wmsfit_print_values(&f, &same);
    printf("\nFit share (%zu instances):\n\n", f.n);
    wmsfit_print_instances(&f, 1);
    printf("\n");
    wmsfit_print_groups(&f, 1);
    if (test_dir) {
      printf("\nTest share (%zu instances, not fitted on):\n\n", t.n);
      wmsfit_print_instances(&t, 1);
      printf("\n");
      wmsfit_print_groups(&t, 1);
      print_bands(&t, &same);
    }
  }
  if (f.n_skipped)
    printf("\n%zu instance(s) without a recorded makespan or a WMS profile left out.\n",
           f.n_skipped);
  if (record) {
    FILE *o = fopen(record, "w");
    if (!o) {
      fprintf(stderr, "fit-wms: cannot write %s\n", record);
      rc = 2;
    } else {
      fprintf(
          o,
          "# The WMS model's fit (doc/wms.md), written by tools/derive/fit_wms.c: fit-wms %s%s%s "
          "--record; DIR and TESTDIR are the fit and test shares (pegasus) that tools/wfarchive.py "
          "extracts from wfcommons/WfInstances as listed in "
          "workflows/wms/wfcommons-training-set.tsv. "
          "Rows 'param': a fitted value, its standard error (Gauss-Newton, wmsfit.h) and the "
          "instances it rests on; rows 'instance': every instance's makespan under the fit.\n",
          "DIR", test_dir ? " --test " : "", test_dir ? "TESTDIR" : "");
      wmsfit_write_record(o, &f, test_dir ? &t : NULL);
      if (fclose(o)) rc = 2;
    }
  }
  wmsfit_release(&f);
  wmsfit_release(&t);
  if (check && !same) {
    fprintf(stderr,
            "fit-wms: the fitted values or bands of the description are not the fit's: update "
            "it (doc/wms.md)\n");
    return 1;
  }
  return rc ? rc : fflush(stdout) || ferror(stdout) ? 2 : 0;
}
