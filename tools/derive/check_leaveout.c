/* check_leaveout.c — the `leaveout` checker of validate (validate.h): leave-out validation of the
 * parametric CPU performance model (doc/models.md, "Parametric CPU model"). Measured
 * cells are left out of a calibration directory, the profile is re-made by `dcsim calibrate cpu`
 * from what remains, and the left-out cells (and the BiFFT and Spherical Harmonics model times
 * that rest on them) are predicted and compared with the full tables:
 *   A  E5-2697 v3 fitted on threads 1..7, predicting 8..14 (every frequency and turbo);
 *   B  E5-2697 v3 fitted without the 1.4, 1.8 and 2.4 GHz columns, predicting them;
 *   C  the Gold 6148 tables predicted from the E5-2697 v3 fit scaled by the Gold's datasheet.
 * Times are the per-loop model's (dcsim_model_cpu), time only: the dwarfs' measured thread scaling
 * and the CPU power model are validated apart. The experiments run once, in init.
 *
 * A row is a statistic over the left-out cells of one experiment (its error is prediction /
 * full-table value - 1, so `published` is 0: the full tables' value). Columns:
 *   experiment  A | B | C
 *   quantity    bifft | spherical-harmonics (the model time of bifft 200x180_525 or
 *               spherical-harmonics TL159) | flops | L1 | L2 | L3 | DRAM (the rate as dcsim
 *               answers: tables where they remain, the model beneath them elsewhere)
 *   statistic   worst (the signed error of largest magnitude) | median (of |error|)
 *   bound       optional: a regression bound (doc/validation.md: not an accuracy claim); a
 *               statistic beyond it is an error, not a status, so that a change of rule or
 *               data for the worse shows even on a not-reproduced row
 * The extra tables print every statistic of the three experiments with the worst cell named,
 * and for B the parametric model alone (without the cells that remain). */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dcsim/catalog.h"
#include "dcsim/cpu_rates.h"
#include "dcsim/import_cpu.h"
#include "dcsim/model_cpu.h"
#include "toolutil.h"
#include "util/fileio.h"
#include "validate.h"

#define HSW "calibration/xeon-e5-2697v3"
#define SKL "calibration/xeon-gold-6148"

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
  char *text = NULL, path[4096 + 16]; /* dir is at most 4096 bytes */
  int rc = dcsim_calib_cpu_profile(dir, &text, err);
  snprintf(path, sizeof path, "%s/profile.xml", dir);
  if (!rc) rc = dcsim__file_write_atomic(path, text, err);
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
  int rc = dcsim__mkdir_p(dir, err);
  if (rc) return rc;
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
#define CASE0 "200x180_525"
#define CASE1 "TL159"
static const char *const CASE[2] = { CASE0, CASE1 };

static int load_dwarfs(dwarfs *w, dcsim_error *err) {
  for (int i = 0; i < 2; i++) {
    int rc;
    if ((rc = tool_load_dwarf(DWARF[i], &w->d[i], err)) ||
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

/* one state, written `at`: the left-out profile `lo` against the measured cells of `full` */
static int compare_state_at(experiment *x, const dwarfs *w, const dcsim_cpu_profile_t *lo,
                            const dcsim_cpu_profile_t *full, const dcsim_cpu_state *s,
                            const char *at, dcsim_error *err) {
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

static int compare_state(experiment *x, const dwarfs *w, const dcsim_cpu_profile_t *lo,
                         const dcsim_cpu_profile_t *full, const dcsim_cpu_state *s,
                         dcsim_error *err) {
  char *at = dcsim_cpu_state_freq_text(s);
  int rc = at ? compare_state_at(x, w, lo, full, s, at, err)
              : DCSIM_ERR(err, DCSIM_ENOMEM, "check_leaveout", 0, "out of memory");
  free(at);
  return rc;
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
  int rc = dcsim__mkdir_p(dir, err);
  if (rc) return rc;
  if (!realpath(HSW, ref)) return DCSIM_ERR(err, DCSIM_EIO, HSW, 0, "%s", strerror(errno));
  snprintf(to, sizeof to, "reference=\"%s\"", ref);
  static const char *const drop[] = { "<table ", "<energy " };
  if (copy_manifest(SKL, dir, drop, 2, "reference=\"../xeon-e5-2697v3\"", to) != 0)
    return DCSIM_ERR(err, DCSIM_EIO, dir, 0, "cannot copy machine.xml");
  dcsim_cpu_profile_t *spec = NULL, *full = NULL;
  rc = make_profile(dir, &spec, err);
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

/* ---- the checker ---- */

typedef struct lo_state {
  experiment x[3];
} lo_state;

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

/* the three experiments, in a temporary directory removed afterwards */
static int init(void **st, dcsim_error *err) {
  lo_state *s = calloc(1, sizeof *s);
  if (!s) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  *st = s;
  static const char *const what[3] = {
    "E5-2697 v3 (D3.5 Tables 25-29) fitted on threads 1..7, predicting 8..14 at every frequency "
    "state and turbo",
    "E5-2697 v3 fitted without the 1.4, 1.8 and 2.4 GHz columns, predicting them at 1..14 threads",
    "Gold 6148 (D3.5 Table 37, 2.4 GHz) predicted from its datasheet and the E5-2697 v3 fit (no "
    "Gold cell used)"
  };
  for (int i = 0; i < 3; i++) { /* the errs are large: filled in place, not copied */
    s->x[i].name = i == 0 ? "A" : i == 1 ? "B" : "C";
    s->x[i].what = what[i];
  }
  s->x[1].has_alone = 1;
  char tmp[] = "/tmp/dcsim-leaveout-XXXXXX";
  if (!mkdtemp(tmp)) return DCSIM_ERR(err, DCSIM_EIO, tmp, 0, "%s", strerror(errno));
  dwarfs w = { { NULL, NULL }, { NULL, NULL } };
  dcsim_cpu_profile_t *full = NULL;
  int rc = load_dwarfs(&w, err);
  if (!rc) rc = dcsim_cpu_profile_load("hw-profiles/cpu/xeon-e5-2697v3.xml", &full, err);
  if (!rc) rc = exp_threads(&s->x[0], tmp, &w, full, err);
  if (!rc) rc = exp_columns(&s->x[1], tmp, &w, full, err);
  if (!rc) rc = exp_gold(&s->x[2], tmp, &w, err);
  remove_tree(tmp);
  dcsim_cpu_profile_free(full);
  free_dwarfs(&w);
  return rc;
}

static void fini(void *st) { free(st); }

/* the errors of a row's quantity in a row's experiment, or NULL */
static errs *row_errs(lo_state *s, const val_row *w) {
  const char *e = val_col(w, "experiment"), *q = val_col(w, "quantity");
  experiment *x = NULL;
  for (int i = 0; i < 3; i++)
    if (strcmp(e, s->x[i].name) == 0) x = &s->x[i];
  if (!x) return NULL;
  for (int i = 0; i < 2; i++)
    if (strcmp(q, DWARF[i]) == 0) return &x->time[i];
  for (int k = 0; k < DCSIM_CPU_NQTY; k++)
    if (strcmp(q, dcsim_cpu_qty_name((dcsim_cpu_qty)k)) == 0) return &x->cell[k];
  return NULL;
}

static int compute(void *st, const val_row *w, double *out, dcsim_error *err) {
  int line = dcsim__csv_line(w->t, w->r);
  errs *e = row_errs(st, w);
  const char *stat = val_col(w, "statistic");
  if (!e || !e->n)
    return DCSIM_ERR(err, DCSIM_EREF, w->path, line, "no experiment '%s' or quantity '%s'",
                     val_col(w, "experiment"), val_col(w, "quantity"));
  if (strcmp(stat, "worst") == 0)
    *out = e->worst;
  else if (strcmp(stat, "median") == 0)
    *out = median_abs(e);
  else
    return DCSIM_ERR(err, DCSIM_EREF, w->path, line, "unknown statistic '%s'", stat);
  if (*val_col(w, "bound")) {
    double b;
    int rc = val_num(w, "bound", &b, err);
    if (rc) return rc;
    if (fabs(*out) > b)
      return DCSIM_ERR(err, DCSIM_ERANGE, w->path, line,
                       "%s %s %s error %.4g %% is beyond its regression bound %.4g %%",
                       val_col(w, "experiment"), val_col(w, "quantity"), stat, 100 * *out, 100 * b);
  }
  return 0;
}

static void label(const val_row *w, char *buf, size_t size) {
  const char *q = val_col(w, "quantity"), *stat = val_col(w, "statistic");
  int time = strcmp(q, DWARF[0]) == 0 || strcmp(q, DWARF[1]) == 0;
  snprintf(buf, size, "%s: %s%s%s, %s of the left-out %s", val_col(w, "experiment"), q,
           time ? (strcmp(q, DWARF[0]) == 0 ? " " CASE0 : " " CASE1) : "",
           time ? " model time" : " rate as dcsim answers",
           strcmp(stat, "worst") == 0 ? "worst error" : "median absolute error",
           time ? "states" : "cells");
}

static void stat_row(FILE *f, const char *what, errs *e) {
  if (!e->n) return;
  double med = median_abs(e);
  fprintf(f, "| %s | %zu | %.2f %% | %+.2f %% (%s) |\n", what, e->n, 100 * med, 100 * e->worst,
          e->worst_at);
}

static void table(FILE *f, experiment *x) {
  fprintf(f, "\n**%s** — %s\n\n", x->name, x->what);
  fprintf(f,
          "| predicted | cells | median \\|error\\| | worst error (where) |\n"
          "|---|---|---|---|\n");
  for (int i = 0; i < 2; i++) {
    char b[96];
    snprintf(b, sizeof b, "%s %s model time", DWARF[i], CASE[i]);
    stat_row(f, b, &x->time[i]);
  }
  for (int q = 0; q < DCSIM_CPU_NQTY; q++) {
    char b[96];
    snprintf(b, sizeof b, "%s (as dcsim answers)", dcsim_cpu_qty_name((dcsim_cpu_qty)q));
    stat_row(f, b, &x->cell[q]);
  }
  for (int q = 0; x->has_alone && q < DCSIM_CPU_NQTY; q++) {
    char b[96];
    snprintf(b, sizeof b, "%s (parametric model alone)", dcsim_cpu_qty_name((dcsim_cpu_qty)q));
    stat_row(f, b, &x->alone[q]);
  }
}

static int extra(void *st, FILE *f, dcsim_error *err) {
  (void)err;
  lo_state *s = st;
  fprintf(f,
          "Every statistic of the three experiments (errors: prediction / full-table value - 1; "
          "the worst cell named):\n");
  for (int i = 0; i < 3; i++) table(f, &s->x[i]);
  return 0;
}

const val_checker val_leaveout = VAL_CHECKER(
    "leaveout", init, fini, label, compute, extra, NULL,
    "the parametric CPU model: cells of D3.5's benchmark tables left out of `dcsim calibrate cpu` "
    "and predicted; a row is a statistic of one experiment, `published` 0, `numbers` 0, with an "
    "optional regression `bound`");
