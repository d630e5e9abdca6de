/* validate — recomputes the published numbers of the seed papers listed in the reference CSVs of
 * a manifest (tests/reference/sections.txt) with libdcsim, gives each its status, and prints
 * doc/validation.md or checks every row against its expected status (validate.h).
 *
 * usage: validate MANIFEST --markdown        the body of doc/validation.md
 *        validate MANIFEST --check [CSV...]  every section (or the named CSVs): exit 1 when a
 *                                            row's status is not its `expect`
 *
 * Manifest lines (# comments):
 *   paper KEY TITLE...                      a paper: a top-level heading of the page
 *   section KEY CSV CHECKER INTRO           a section of paper KEY: the CSV (next to the
 *                                           manifest), its checker, and the hand-written prose
 *                                           printed before its table (doc/validation/INTRO)
 * The prose before the summary (doc/validation/head.md) is printed by tools/gen-validation-doc.sh.
 * Paths are relative to the working directory, the source root. */
#define _GNU_SOURCE
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/lib.h"

#include "validate.h"

static const val_checker *const CHECKERS[] = { &val_d35,         &val_papers,   &val_small_domain,
                                               &val_conclusions, &val_sampling, &val_gpu_default,
                                               &val_leaveout,    &val_power,    &val_measured_gpus,
                                               &val_modern };

/* in the order of the summary's columns */
enum { EV_INDEPENDENT, EV_MEASURED, EV_DERIVED, EV_CONSTRUCTION, EV_INSAMPLE, EV_LOO, N_EV };
static const char *const EV_NAME[N_EV] = { "independent",  "measured",  "derived",
                                           "construction", "in-sample", "leave-one-out" };
static const char *const EV_TEXT[N_EV] = { "independent",     "measured",  "derived",
                                           "by construction", "in sample", "leave-one-out" };
enum { ST_REPRODUCED, ST_NOT_REPRODUCED, ST_NOT_COVERED, N_ST };
static const char *const ST_NAME[N_ST] = { "reproduced", "not-reproduced", "not-covered" };

typedef struct tally {
  long n[N_EV][N_ST]; /* published numbers by evidence and status */
} tally;

typedef struct paper {
  char key[64], title[256];
  tally t;
} paper;

#define MAX_PAPERS 16

typedef struct run {
  const char *manifest;
  int markdown;
  char **only; /* --check CSV...: these sections only */
  int n_only;
  paper papers[MAX_PAPERS];
  int n_papers;
  FILE *body; /* markdown of the sections, printed after the summary */
  int failures;
  int n_done; /* sections checked */
} run;

const char *val_col(const val_row *w, const char *name) {
  size_t c;
  dcsim_error e;
  if (dcsim__csv_col(w->t, name, &c, &e)) return "";
  return dcsim__csv_cell(w->t, w->r, c);
}

int val_num(const val_row *w, const char *name, double *out, dcsim_error *err) {
  size_t c;
  int rc = dcsim__csv_col(w->t, name, &c, err);
  return rc ? rc : dcsim__csv_num(w->t, w->r, c, out, err);
}

static int die(const dcsim_error *e) {
  char b[2048];
  dcsim_error_format(e, b, sizeof b);
  fprintf(stderr, "validate: %s\n", b);
  return 2;
}

static int lookup(const char *s, const char *const *names, int n) {
  for (int i = 0; i < n; i++)
    if (strcmp(s, names[i]) == 0) return i;
  return -1;
}

/* markdown cell text: a '|' would end the cell */
static void cell(FILE *f, const char *s) {
  for (; *s; s++) fputc(*s == '|' ? '/' : *s, f);
}

typedef struct row_result {
  int ev, expect, status, numbers, tol_abs, is_bool, has_pub, has_got;
  double pub, got, tol;
} row_result;

/* the common columns of a row (validate.h) */
static int read_common(const val_row *w, row_result *r, dcsim_error *err) {
  int line = dcsim__csv_line(w->t, w->r);
  memset(r, 0, sizeof *r);
  r->ev = lookup(val_col(w, "evidence"), EV_NAME, N_EV);
  r->expect = lookup(val_col(w, "expect"), ST_NAME, N_ST);
  if (r->ev < 0 || r->expect < 0)
    return DCSIM_ERR(err, DCSIM_EPARSE, w->path, line, "bad evidence '%s' or expect '%s'",
                     val_col(w, "evidence"), val_col(w, "expect"));
  if (r->expect != ST_REPRODUCED && !*val_col(w, "why"))
    return DCSIM_ERR(err, DCSIM_EPARSE, w->path, line, "a %s row needs a why", ST_NAME[r->expect]);
  if ((r->ev == EV_DERIVED || r->ev == EV_CONSTRUCTION) && !*val_col(w, "basis"))
    return DCSIM_ERR(err, DCSIM_EPARSE, w->path, line, "a %s row needs a basis", EV_NAME[r->ev]);
  r->numbers = 1;
  if (*val_col(w, "numbers")) {
    double n;
    int rc = val_num(w, "numbers", &n, err);
    if (rc) return rc;
    r->numbers = (int)n;
  }
  r->has_pub = *val_col(w, "published") != '\0';
  if (r->has_pub) {
    int rc = val_num(w, "published", &r->pub, err);
    if (rc) return rc;
  }
  if (r->expect == ST_NOT_COVERED) return 0;
  if (!r->has_pub)
    return DCSIM_ERR(err, DCSIM_EPARSE, w->path, line, "a compared row needs a published value");
  const char *tol = val_col(w, "tol");
  r->is_bool = strcmp(tol, "bool") == 0; /* a statement: 1 holds, 0 does not */
  if (r->is_bool)
    return r->pub == 0 || r->pub == 1
               ? 0
               : DCSIM_ERR(err, DCSIM_EPARSE, w->path, line, "a bool row is published 0 or 1");
  r->tol_abs = strncmp(tol, "abs:", 4) == 0;
  char *end = NULL;
  r->tol = strtod(r->tol_abs ? tol + 4 : tol, &end);
  if (!end || *end || !(r->tol >= 0))
    return DCSIM_ERR(err, DCSIM_EPARSE, w->path, line, "bad tolerance '%s'", tol);
  return 0;
}

static double deviation(const row_result *r) {
  return r->tol_abs || r->pub == 0 ? r->got - r->pub : (r->got - r->pub) / fabs(r->pub);
}

static void print_row(FILE *f, const val_row *w, const char *label, const row_result *r) {
  fprintf(f, "| ");
  cell(f, val_col(w, "source"));
  fprintf(f, " | ");
  cell(f, label);
  fprintf(f, " | ");
  if (r->has_pub && r->is_bool)
    fprintf(f, "%s", r->pub ? "holds" : "does not hold");
  else if (r->has_pub)
    fprintf(f, "%.6g", r->pub);
  fprintf(f, " | ");
  if (r->has_got && r->is_bool)
    fprintf(f, "%s", r->got ? "holds" : "does not hold");
  else if (r->has_got)
    fprintf(f, "%.6g", r->got);
  fprintf(f, " | ");
  if (r->is_bool || !r->has_pub)
    fprintf(f, " | ");
  else if (r->has_got && (r->tol_abs || r->pub == 0))
    fprintf(f, "%+.3g | ±%.3g", deviation(r), r->tol);
  else if (r->has_got)
    fprintf(f, "%+.2f%% | %.2g%%", 100 * deviation(r), 100 * r->tol);
  else
    fprintf(f, " | ");
  fprintf(f, " | %s", EV_TEXT[r->ev]);
  if (*val_col(w, "basis")) {
    fprintf(f, ": ");
    cell(f, val_col(w, "basis"));
  }
  fprintf(f, " | %s",
          r->status == ST_REPRODUCED       ? "reproduced"
          : r->status == ST_NOT_REPRODUCED ? "**not reproduced**"
                                           : "not covered");
  if (r->status != ST_REPRODUCED && *val_col(w, "why")) {
    fprintf(f, ": ");
    cell(f, val_col(w, "why"));
  }
  if (r->numbers > 1) fprintf(f, " (%d numbers)", r->numbers);
  fprintf(f, " |\n");
}

/* One row: its status, printed (markdown) or checked against `expect`. */
static int do_row(run *R, const val_checker *ck, void *st, const val_row *w, tally *t, FILE *out,
                  dcsim_error *err) {
  row_result r;
  int rc = read_common(w, &r, err);
  if (rc) return rc;
  r.status = ST_NOT_COVERED;
  if (r.expect == ST_NOT_COVERED && strcmp(val_col(w, "predict"), "1") == 0) {
    /* a prediction nothing here can compare: printed, not judged */
    if ((rc = ck->compute(st, w, &r.got, err))) return rc;
    r.has_got = 1;
  } else if (r.expect != ST_NOT_COVERED) {
    if ((rc = ck->compute(st, w, &r.got, err))) return rc;
    r.has_got = 1;
    int ok = r.is_bool ? (r.got != 0) == (r.pub != 0)
                       : isfinite(r.got) && fabs(deviation(&r)) <= r.tol * (1 + 1e-9) + 1e-300;
    r.status = ok ? ST_REPRODUCED : ST_NOT_REPRODUCED;
  }
  t->n[r.ev][r.status] += r.numbers;
  char label[512] = "";
  ck->label(w, label, sizeof label);
  if (out) print_row(out, w, label, &r);
  if (r.status != r.expect) {
    R->failures++;
    fprintf(stderr, "%s:%d: %s %s: %s, expected %s (dcsim %.6g, published %.6g, tolerance %s)\n",
            w->path, dcsim__csv_line(w->t, w->r), val_col(w, "source"), label, ST_NAME[r.status],
            ST_NAME[r.expect], r.got, r.pub, val_col(w, "tol"));
  }
  return 0;
}

static void tally_line(FILE *f, const tally *t) {
  long all = 0, cov = 0;
  for (int e = 0; e < N_EV; e++)
    for (int s = 0; s < N_ST; s++) all += t->n[e][s];
  for (int e = 0; e < N_EV; e++) cov += t->n[e][ST_NOT_COVERED];
  fprintf(f, "%ld published numbers: ", all);
  int first = 1;
  for (int e = 0; e < N_EV; e++) {
    long r = t->n[e][ST_REPRODUCED], n = t->n[e][ST_NOT_REPRODUCED];
    if (!r && !n) continue;
    fprintf(f, "%s%s %ld (%ld reproduced, %ld not)", first ? "" : "; ", EV_TEXT[e], r + n, r, n);
    first = 0;
  }
  fprintf(f, "%s%ld not covered.\n", first ? "" : "; ", cov);
}

static paper *find_paper(run *R, const char *key) {
  for (int i = 0; i < R->n_papers; i++)
    if (strcmp(R->papers[i].key, key) == 0) return &R->papers[i];
  return NULL;
}

static int cat_file(FILE *out, const char *path, dcsim_error *err) {
  FILE *f = fopen(path, "r");
  if (!f) return DCSIM_ERR(err, DCSIM_EIO, path, 0, "cannot read");
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) fwrite(buf, 1, n, out);
  fclose(f);
  return 0;
}

static int wanted(const run *R, const char *csv) {
  if (R->n_only == 0) return 1;
  for (int i = 0; i < R->n_only; i++) {
    const char *o = R->only[i], *slash = strrchr(o, '/');
    if (strcmp(slash ? slash + 1 : o, csv) == 0) return 1;
  }
  return 0;
}

/* One section: the CSV's rows through its checker. */
static int do_section(run *R, paper *p, const char *dir, const char *csv, const char *checker,
                      const char *intro, dcsim_error *err) {
  const val_checker *ck = NULL;
  for (size_t i = 0; i < sizeof CHECKERS / sizeof *CHECKERS; i++)
    if (strcmp(CHECKERS[i]->name, checker) == 0) ck = CHECKERS[i];
  if (!ck) return DCSIM_ERR(err, DCSIM_EREF, R->manifest, 0, "no checker '%s'", checker);
  char path[4096], ipath[4096];
  snprintf(path, sizeof path, "%s/%s", dir, csv);
  snprintf(ipath, sizeof ipath, "doc/validation/%s", intro);
  dcsim_csv_t *t = NULL;
  void *st = NULL;
  int rc = dcsim__csv_load(path, &t, err);
  if (rc) return rc;
  if (ck->init && (rc = ck->init(&st, err))) goto out;
  FILE *out = R->markdown ? R->body : NULL;
  if (out) {
    if ((rc = cat_file(out, ipath, err))) goto out;
    fprintf(out,
            "\n| where | quantity | published | dcsim | difference | tolerance | evidence | "
            "status |\n|---|---|---|---|---|---|---|---|\n");
  }
  tally t0;
  memset(&t0, 0, sizeof t0);
  for (size_t r = 0; r < dcsim__csv_rows(t); r++) {
    val_row w = { t, r, path };
    if ((rc = do_row(R, ck, st, &w, &t0, out, err))) goto out;
  }
  for (int e = 0; e < N_EV; e++)
    for (int s = 0; s < N_ST; s++) p->t.n[e][s] += t0.n[e][s];
  if (out) {
    fprintf(out, "\n`tests/reference/%s`: ", csv);
    tally_line(out, &t0);
    if (ck->extra) {
      fputc('\n', out);
      rc = ck->extra(st, out, err);
    }
    fputc('\n', out);
  }
out:
  if (ck->fini) ck->fini(st);
  dcsim__csv_free(t);
  return rc;
}

static void summary(FILE *f, const run *R) {
  fprintf(f,
          "## Summary\n\n| paper | independent | measured | derived | by construction | in "
          "sample | leave-one-out | not covered |\n|---|---|---|---|---|---|---|---|\n");
  tally all;
  memset(&all, 0, sizeof all);
  for (int i = 0; i <= R->n_papers; i++) {
    const tally *t = i < R->n_papers ? &R->papers[i].t : &all;
    fprintf(f, "| %s |", i < R->n_papers ? R->papers[i].title : "**all**");
    long cov = 0;
    for (int e = 0; e < N_EV; e++) {
      long r = t->n[e][ST_REPRODUCED], n = t->n[e][ST_NOT_REPRODUCED];
      cov += t->n[e][ST_NOT_COVERED];
      if (r + n == 0)
        fprintf(f, " - |");
      else if (e == EV_CONSTRUCTION)
        fprintf(f, " %ld |", r + n);
      else
        fprintf(f, " %ld reproduced, %ld not |", r, n);
      if (i < R->n_papers)
        for (int s = 0; s < N_ST; s++) all.n[e][s] += t->n[e][s];
    }
    fprintf(f, " %ld |\n", cov);
  }
  fprintf(f,
          "\nEach cell counts published numbers (a not-covered row may stand for several). "
          "Independent numbers are the evidence; derived ones follow arithmetically from "
          "other rows, those by construction were used to make dcsim's data, and in-sample "
          "ones were fitted: they are counted apart and add no evidence.\n\n");
}

static int do_manifest(run *R, dcsim_error *err) {
  FILE *f = fopen(R->manifest, "r");
  if (!f) return DCSIM_ERR(err, DCSIM_EIO, R->manifest, 0, "cannot read");
  char *dcopy = strdup(R->manifest), *dir = dirname(dcopy);
  char line[1024];
  int rc = 0, ln = 0;
  while (!rc && fgets(line, sizeof line, f)) {
    ln++;
    char kind[32], a[256], b[256], c[256], d[256];
    if (line[0] == '#' || sscanf(line, "%31s", kind) != 1) continue;
    if (strcmp(kind, "paper") == 0 && R->n_papers < MAX_PAPERS &&
        sscanf(line, "%*s %255s %255[^\n]", a, b) == 2) {
      paper *p = &R->papers[R->n_papers++];
      memset(p, 0, sizeof *p);
      snprintf(p->key, sizeof p->key, "%.63s", a);
      snprintf(p->title, sizeof p->title, "%s", b);
      if (R->markdown) fprintf(R->body, "# %s\n\n", p->title);
      continue;
    }
    paper *p = NULL;
    if (strcmp(kind, "section") == 0 &&
        sscanf(line, "%*s %255s %255s %255s %255s", a, b, c, d) == 4 && (p = find_paper(R, a))) {
      if (wanted(R, b) && !(rc = do_section(R, p, dir, b, c, d, err))) R->n_done++;
      continue;
    }
    rc = DCSIM_ERR(err, DCSIM_EPARSE, R->manifest, ln, "bad line");
  }
  fclose(f);
  free(dcopy);
  return rc;
}

int main(int argc, char **argv) {
  if (dcsim_lib_init() != 0) return 1;
  if (argc < 3 || (strcmp(argv[2], "--markdown") && strcmp(argv[2], "--check"))) {
    fprintf(stderr, "usage: validate MANIFEST (--markdown | --check [CSV...])\n");
    return 2;
  }
  run R;
  memset(&R, 0, sizeof R);
  R.manifest = argv[1];
  R.markdown = strcmp(argv[2], "--markdown") == 0;
  R.only = argv + 3;
  R.n_only = argc - 3;
  char *buf = NULL;
  size_t len = 0;
  if (R.markdown && !(R.body = open_memstream(&buf, &len))) return 2;
  dcsim_error err;
  int rc = do_manifest(&R, &err);
  if (R.body) fclose(R.body);
  if (!rc && R.n_only && R.n_done != R.n_only)
    rc = DCSIM_ERR(&err, DCSIM_EREF, R.manifest, 0, "a CSV named is not a section of the manifest");
  if (rc) {
    free(buf);
    return die(&err);
  }
  if (R.markdown) {
    summary(stdout, &R);
    fwrite(buf, 1, len, stdout);
  } else {
    printf("%s\n", R.failures ? "FAILED" : "all rows have their expected status");
  }
  free(buf);
  return R.failures ? 1 : 0;
}
