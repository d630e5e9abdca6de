/* validate-leaveout — leave-out validation of the parametric CPU performance model (issue 13,
 * doc/validation.md "Leave-out validation of the CPU projection"). Measured cells are left out of
 * a calibration directory, the profile is re-made by `dcsim calibrate cpu` from what remains, and
 * the left-out cells (and the BiFFT and Spherical Harmonics model times that rest on them) are
 * predicted and compared with the full tables:
 *   A  E5-2697 v3 fitted on threads 1..7, predicting 8..14 (every frequency and turbo);
 *   B  E5-2697 v3 fitted without the 1.4, 1.8 and 2.4 GHz columns, predicting them;
 *   C  the Gold 6148 tables predicted from the E5-2697 v3 fit scaled by the Gold's datasheet.
 * Times are the per-loop model's (dcsim_model_cpu), time only: the dwarfs' measured thread scaling
 * and the CPU power model are validated apart.
 *
 * usage: validate-leaveout (--check | --markdown)
 *   --check     prints every figure and exits 1 when a criterion fails (ctest leaveout_perf):
 *               A and B model times within 10 % of the full-table prediction (issue 13), C's peak
 *               exact (cores x f x the ISA's flop/cycle) and its median errors within the
 *               regression bounds stated in doc/validation.md
 *   --markdown  prints the section of doc/validation.md
 * Run from the source root. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dcsim/calib.h"
#include "dcsim/catalog.h"
#include "dcsim/cpu_rates.h"
#include "dcsim/model_cpu.h"

#define HSW "calibration/xeon-e5-2697v3"
#define SKL "calibration/xeon-gold-6148"

static int die(const dcsim_error *e) {
  char b[2048];
  dcsim_error_format(e, b, sizeof b);
  fprintf(stderr, "validate-leaveout: %s\n", b);
  return 2;
}

/* ---- relative errors: median and worst of |e|, with the worst case named ---- */
typedef struct errs {
  double e[4096];
  size_t n;
  double worst;
  char worst_at[96];
} errs;

static void add(errs *s, double got, double want, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void add(errs *s, double got, double want, const char *fmt, ...) {
  double e = got / want - 1;
  if (s->n < sizeof s->e / sizeof s->e[0]) s->e[s->n++] = e;
  if (s->n == 1 || fabs(e) > fabs(s->worst)) {
    s->worst = e;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->worst_at, sizeof s->worst_at, fmt, ap);
    va_end(ap);
  }
}

static int cmp_abs(const void *a, const void *b) {
  double x = fabs(*(const double *)a), y = fabs(*(const double *)b);
  return (x > y) - (x < y);
}

static double median_abs(errs *s) {
  if (!s->n) return 0;
  qsort(s->e, s->n, sizeof s->e[0], cmp_abs);
  return s->n % 2 ? fabs(s->e[s->n / 2]) : (fabs(s->e[s->n / 2 - 1]) + fabs(s->e[s->n / 2])) / 2;
}

/* ---- calibration directories with cells left out ---- */

/* keep a CSV data row of `freq` and `threads`? */
typedef int (*keep_fn)(const char *freq, unsigned threads);

/* Copies src/file into dst/file, dropping the data rows `keep` refuses (comments, the header and
 * rows of other shapes are kept). */
static int copy_csv(const char *src, const char *dst, const char *file, keep_fn keep) {
  char in[8192], out[8192], line[4096];
  snprintf(in, sizeof in, "%s/%s", src, file);
  snprintf(out, sizeof out, "%s/%s", dst, file);
  FILE *fi = fopen(in, "r"), *fo = fopen(out, "w");
  int rc = fi && fo ? 0 : -1;
  while (!rc && fgets(line, sizeof line, fi)) {
    char freq[64];
    unsigned th = 0;
    int n = 0;
    if (keep && line[0] != '#' && sscanf(line, "%63[^,],%u,%n", freq, &th, &n) == 2 && n > 0 &&
        !keep(freq, th))
      continue;
    fputs(line, fo);
  }
  if (fi) fclose(fi);
  if (fo && fclose(fo) != 0) rc = -1;
  return rc;
}

/* machine.xml of src into dst, lines holding `drop` removed and `from` replaced by `to`. */
static int copy_manifest(const char *src, const char *dst, const char *const *drop, size_t nd,
                         const char *from, const char *to) {
  char in[8192], out[8192], line[8192];
  snprintf(in, sizeof in, "%s/machine.xml", src);
  snprintf(out, sizeof out, "%s/machine.xml", dst);
  FILE *fi = fopen(in, "r"), *fo = fopen(out, "w");
  int rc = fi && fo ? 0 : -1;
  while (!rc && fgets(line, sizeof line, fi)) {
    int skip = 0;
    for (size_t i = 0; i < nd; i++) skip |= strstr(line, drop[i]) != NULL;
    if (skip) continue;
    char *at = from ? strstr(line, from) : NULL;
    if (at) {
      *at = '\0';
      fprintf(fo, "%s%s%s", line, to, at + strlen(from));
    } else {
      fputs(line, fo);
    }
  }
  if (fi) fclose(fi);
  if (fo && fclose(fo) != 0) rc = -1;
  return rc;
}

/* `dcsim calibrate cpu dir` into dir/profile.xml, loaded. */
static int make_profile(const char *dir, dcsim_cpu_profile_t **out, dcsim_error *err) {
  char *text = NULL, path[4096];
  int rc = dcsim_calib_cpu_profile(dir, &text, err);
  snprintf(path, sizeof path, "%s/profile.xml", dir);
  if (!rc) rc = dcsim_calib_write_file(path, text, err);
  free(text);
  return rc ? rc : dcsim_cpu_profile_load(path, out, err);
}

static const char *const TABLES[] = { "flops.csv", "L1.csv",   "L2.csv",
                                      "L3.csv",    "DRAM.csv", "power.csv" };

/* A copy of the E5-2697 v3 directory with the rows `keep` refuses left out, made into a profile. */
static int haswell_without(const char *tmp, const char *name, keep_fn keep,
                           dcsim_cpu_profile_t **out, dcsim_error *err) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/%s", tmp, name);
  if (mkdir(dir, 0777) != 0) return DCSIM_ERR(err, DCSIM_EIO, dir, 0, "cannot create");
  if (copy_manifest(HSW, dir, NULL, 0, NULL, NULL) != 0)
    return DCSIM_ERR(err, DCSIM_EIO, dir, 0, "cannot copy machine.xml");
  for (size_t i = 0; i < sizeof TABLES / sizeof *TABLES; i++)
    if (copy_csv(HSW, dir, TABLES[i], i < 5 ? keep : NULL) != 0)
      return DCSIM_ERR(err, DCSIM_EIO, dir, 0, "cannot copy %s", TABLES[i]);
  return make_profile(dir, out, err);
}

/* ---- predictions ---- */

/* The two CPU dwarfs the issue names, evaluated once. */
typedef struct dwarfs {
  dcsim_dwarf_t *d[2];
  dcsim_dwarf_eval *ev[2];
} dwarfs;
static const char *const DWARF[2] = { "bifft", "spherical-harmonics" };
static const char *const CASE[2] = { "200x180_525", "TL159" };

static int load_dwarfs(dwarfs *w, dcsim_error *err) {
  for (int i = 0; i < 2; i++) {
    char path[4096];
    int rc;
    if ((rc = dcsim_catalog_resolve(DCSIM_KIND_DWARF, DWARF[i], NULL, 0, path, sizeof path, err)) ||
        (rc = dcsim_dwarf_load(path, &w->d[i], err)) ||
        (rc = dcsim_dwarf_evaluate(w->d[i], CASE[i], NULL, 0, &w->ev[i], err)))
      return rc;
  }
  return 0;
}

static void free_dwarfs(dwarfs *w) {
  for (int i = 0; i < 2; i++) {
    dcsim_dwarf_eval_free(w->ev[i]);
    dcsim_dwarf_free(w->d[i]);
  }
}

/* The per-loop model time of dwarf i on one node of cpu at state s (dcsim_model_cpu, D3.5 §4.3):
 * what the rates decide. The dwarf's measured thread scaling, which the default model applies on
 * top (dcsim/model_threads.h), would multiply prediction and reference alike — and for BiFFT
 * (sigma = 1) leave only its one-thread rates in play —, so it is left out here. */
static int dwarf_time(const dwarfs *w, int i, const dcsim_cpu_profile_t *cpu,
                      const dcsim_cpu_state *s, double *t, dcsim_error *err) {
  dcsim_cpu_node_spec ns = { cpu, *s, 1.0, 0 };
  dcsim_cpu_result *r = NULL;
  int rc = dcsim_model_cpu(w->ev[i], &ns, 1, 0, &r, err);
  if (!rc) *t = r->time_s;
  dcsim_cpu_result_free(r);
  return rc;
}

/* What one experiment compares: cells per quantity, the parametric model alone per quantity, the
 * two dwarfs' times. */
typedef struct experiment {
  const char *name, *what;
  errs cell[DCSIM_CPU_NQTY], alone[DCSIM_CPU_NQTY], time[2];
  int has_alone;
} experiment;

/* one state: the left-out profile `lo` against the measured cells of `full` */
static int compare_state(experiment *x, const dwarfs *w, const dcsim_cpu_profile_t *lo,
                         const dcsim_cpu_profile_t *full, const dcsim_cpu_state *s,
                         dcsim_error *err) {
  char at[64];
  dcsim_cpu_state_freq_str(s, at, sizeof at);
  for (int q = 0; q < DCSIM_CPU_NQTY; q++) {
    double got, want, alone;
    dcsim_prov pg, pw;
    int rc;
    if ((rc = dcsim_cpu_rate_at(lo, (dcsim_cpu_qty)q, s, 0, &got, &pg, err)) ||
        (rc = dcsim_cpu_rate_at(full, (dcsim_cpu_qty)q, s, 1, &want, &pw, err)))
      return rc;
    add(&x->cell[q], got, want, "%u threads, %s%s", s->threads, at, s->label ? "" : " GHz");
    if (x->has_alone) {
      if ((rc = dcsim_cpu_model_value(lo, (dcsim_cpu_qty)q, s, &alone, err))) return rc;
      add(&x->alone[q], alone, want, "%u threads, %s%s", s->threads, at, s->label ? "" : " GHz");
    }
  }
  for (int i = 0; i < 2; i++) {
    double got, want;
    int rc;
    if ((rc = dwarf_time(w, i, lo, s, &got, err)) || (rc = dwarf_time(w, i, full, s, &want, err)))
      return rc;
    add(&x->time[i], got, want, "%u threads, %s%s", s->threads, at, s->label ? "" : " GHz");
  }
  return 0;
}

static int keep_1_7(const char *freq, unsigned threads) {
  (void)freq;
  return threads <= 7;
}

static int keep_not_14_18_24(const char *freq, unsigned threads) {
  (void)threads;
  return strcmp(freq, "1.4") && strcmp(freq, "1.8") && strcmp(freq, "2.4");
}

/* A: threads 1..7 fitted, 8..14 predicted at every frequency state (turbo included). */
static int exp_threads(experiment *x, const char *tmp, const dwarfs *w,
                       const dcsim_cpu_profile_t *full, dcsim_error *err) {
  dcsim_cpu_profile_t *lo = NULL;
  int rc = haswell_without(tmp, "threads-1-7", keep_1_7, &lo, err);
  for (size_t f = 0; !rc && f < dcsim_cpu_profile_n_freqs(full); f++)
    for (unsigned n = 8; !rc && n <= 14; n++) {
      dcsim_cpu_state s;
      dcsim_cpu_profile_freq_at(full, f, &s);
      s.threads = n;
      rc = compare_state(x, w, lo, full, &s, err);
    }
  dcsim_cpu_profile_free(lo);
  return rc;
}

/* B: the 1.4, 1.8 and 2.4 GHz columns left out, predicted at every thread count. */
static int exp_columns(experiment *x, const char *tmp, const dwarfs *w,
                       const dcsim_cpu_profile_t *full, dcsim_error *err) {
  dcsim_cpu_profile_t *lo = NULL;
  static const double out[] = { 1.4, 1.8, 2.4 };
  int rc = haswell_without(tmp, "without-1.4-1.8-2.4", keep_not_14_18_24, &lo, err);
  for (size_t f = 0; !rc && f < 3; f++)
    for (unsigned n = 1; !rc && n <= 14; n++) {
      dcsim_cpu_state s = { out[f], NULL, n };
      rc = compare_state(x, w, lo, full, &s, err);
    }
  dcsim_cpu_profile_free(lo);
  return rc;
}

/* C: the Gold 6148 from its datasheet and the E5-2697 v3 fit, against D3.5 Table 37. */
static int exp_gold(experiment *x, const char *tmp, const dwarfs *w, dcsim_error *err) {
  char dir[4096], ref[4096], to[4200];
  snprintf(dir, sizeof dir, "%s/gold-from-haswell", tmp);
  if (mkdir(dir, 0777) != 0) return DCSIM_ERR(err, DCSIM_EIO, dir, 0, "cannot create");
  if (!realpath(HSW, ref)) return DCSIM_ERR(err, DCSIM_EIO, HSW, 0, "%s", strerror(errno));
  snprintf(to, sizeof to, "reference=\"%s\"", ref);
  static const char *const drop[] = { "<table ", "<energy " };
  if (copy_manifest(SKL, dir, drop, 2, "reference=\"../xeon-e5-2697v3\"", to) != 0)
    return DCSIM_ERR(err, DCSIM_EIO, dir, 0, "cannot copy machine.xml");
  dcsim_cpu_profile_t *spec = NULL, *full = NULL;
  int rc = make_profile(dir, &spec, err);
  if (!rc) rc = dcsim_cpu_profile_load("hw-profiles/cpu/xeon-gold-6148.xml", &full, err);
  static const unsigned rows[] = { 1, 2, 4, 8, 16, 20, 30, 40 };
  for (size_t i = 0; !rc && i < sizeof rows / sizeof *rows; i++) {
    dcsim_cpu_state s = { 2.4, NULL, rows[i] };
    rc = compare_state(x, w, spec, full, &s, err);
  }
  dcsim_cpu_profile_free(spec);
  dcsim_cpu_profile_free(full);
  return rc;
}

/* ---- output ---- */

static void row(const char *what, errs *e) {
  if (!e->n) return;
  double med = median_abs(e);
  printf("| %s | %zu | %.2f %% | %+.2f %% (%s) |\n", what, e->n, 100 * med, 100 * e->worst,
         e->worst_at);
}

static void table(experiment *x) {
  printf("\n**%s** — %s\n\n", x->name, x->what);
  printf("| predicted | cells | median \\|error\\| | worst error (where) |\n|---|---|---|---|\n");
  for (int i = 0; i < 2; i++) {
    char b[96];
    snprintf(b, sizeof b, "%s %s model time", DWARF[i], CASE[i]);
    row(b, &x->time[i]);
  }
  for (int q = 0; q < DCSIM_CPU_NQTY; q++) {
    char b[96];
    snprintf(b, sizeof b, "%s (as dcsim answers)", dcsim_cpu_qty_name((dcsim_cpu_qty)q));
    row(b, &x->cell[q]);
  }
  for (int q = 0; x->has_alone && q < DCSIM_CPU_NQTY; q++) {
    char b[96];
    snprintf(b, sizeof b, "%s (parametric model alone)", dcsim_cpu_qty_name((dcsim_cpu_qty)q));
    row(b, &x->alone[q]);
  }
}

/* the criteria of --check: each prints what fails */
static int criterion(int ok, const char *what, double got, double bound) {
  if (!ok) printf("FAIL %s: %.4g %% (bound %.4g %%)\n", what, 100 * got, 100 * bound);
  return ok ? 0 : 1;
}

static int check(experiment *x) {
  int bad = 0;
  for (int e = 0; e < 2; e++)
    for (int i = 0; i < 2; i++) {
      char b[128];
      snprintf(b, sizeof b, "%s: %s time worst", x[e].name, DWARF[i]);
      bad += criterion(fabs(x[e].time[i].worst) <= 0.10, b, x[e].time[i].worst, 0.10);
    }
  /* C: the peak is cores x f x the ISA's flop/cycle, exactly Table 37's convention */
  bad += criterion(fabs(x[2].cell[DCSIM_CPU_FLOPS].worst) <= 1e-9, "C: peak worst",
                   x[2].cell[DCSIM_CPU_FLOPS].worst, 1e-9);
  /* C: the bounds doc/validation.md states for the transfer by specification */
  static const double bound[DCSIM_CPU_NQTY] = { 1e-9, 0.10, 0.10, 0.20, 0.50 };
  for (int q = 1; q < DCSIM_CPU_NQTY; q++) {
    char b[96];
    snprintf(b, sizeof b, "C: %s median", dcsim_cpu_qty_name((dcsim_cpu_qty)q));
    double m = median_abs(&x[2].cell[q]);
    bad += criterion(m <= bound[q], b, m, bound[q]);
  }
  for (int i = 0; i < 2; i++) {
    char b[96];
    snprintf(b, sizeof b, "C: %s time median", DWARF[i]);
    double m = median_abs(&x[2].time[i]);
    bad += criterion(m <= 0.35, b, m, 0.35);
  }
  return bad;
}

static void remove_tree(const char *tmp) {
  static const char *const sub[] = { "threads-1-7", "without-1.4-1.8-2.4", "gold-from-haswell" };
  for (size_t i = 0; i < 3; i++) {
    char p[4096];
    for (size_t k = 0; k < sizeof TABLES / sizeof *TABLES + 2; k++) {
      const char *f = k < 6 ? TABLES[k] : k == 6 ? "machine.xml" : "profile.xml";
      snprintf(p, sizeof p, "%s/%s/%s", tmp, sub[i], f);
      unlink(p);
    }
    snprintf(p, sizeof p, "%s/%s", tmp, sub[i]);
    rmdir(p);
  }
  rmdir(tmp);
}

int main(int argc, char **argv) {
  if (argc != 2 || (strcmp(argv[1], "--check") != 0 && strcmp(argv[1], "--markdown") != 0)) {
    fprintf(stderr, "usage: validate-leaveout (--check | --markdown)\n");
    return 2;
  }
  static experiment x[3] = {
    { .name = "A",
      .what = "E5-2697 v3 (D3.5 Tables 25-29) fitted on threads 1..7, predicting 8..14 at every "
              "frequency state and turbo" },
    { .name = "B",
      .what = "E5-2697 v3 fitted without the 1.4, 1.8 and 2.4 GHz columns, predicting them at "
              "1..14 threads" },
    { .name = "C",
      .what = "Gold 6148 (D3.5 Table 37, 2.4 GHz) predicted from its datasheet and the E5-2697 v3 "
              "fit (no Gold cell used)" }
  };
  x[1].has_alone = 1;
  char tmp[] = "/tmp/dcsim-leaveout-XXXXXX";
  if (!mkdtemp(tmp)) {
    perror("validate-leaveout: mkdtemp");
    return 2;
  }
  dwarfs w = { { NULL, NULL }, { NULL, NULL } };
  dcsim_cpu_profile_t *full = NULL;
  dcsim_error err;
  int rc = load_dwarfs(&w, &err);
  if (!rc) rc = dcsim_cpu_profile_load("hw-profiles/cpu/xeon-e5-2697v3.xml", &full, &err);
  if (!rc) rc = exp_threads(&x[0], tmp, &w, full, &err);
  if (!rc) rc = exp_columns(&x[1], tmp, &w, full, &err);
  if (!rc) rc = exp_gold(&x[2], tmp, &w, &err);
  remove_tree(tmp);
  dcsim_cpu_profile_free(full);
  free_dwarfs(&w);
  if (rc) return die(&err);
  for (int i = 0; i < 3; i++) table(&x[i]);
  if (strcmp(argv[1], "--check") == 0) {
    int bad = check(x);
    printf("\n%s\n", bad ? "leave-out criteria FAILED" : "leave-out criteria met");
    return bad ? 1 : 0;
  }
  return 0;
}
