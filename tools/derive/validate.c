/* validate — recomputes the published numbers of the seed papers listed in the reference CSVs of
 * a manifest (tests/reference/sections.txt) with libdcsim, gives each its status, and prints
 * doc/validation.md or checks every row against its expected status (validate.h).
 *
 * usage: validate MANIFEST --markdown        the body of doc/validation.md
 *        validate MANIFEST --check [CSV...]  every section (or the named CSVs): exit 1 when a
 *                                            row's status is not its `expect`
 *        validate MANIFEST --bands           calibration/bands.csv: the uncertainty bands of
 *                                            dcsim's outputs, from the out-of-sample rows
 *        validate --checkers                 doc/design.md's list of checkers
 *
 * Manifest lines (# comments):
 *   paper KEY TITLE...                      a paper: a top-level heading of the page
 *   section KEY CSV CHECKER INTRO           a section of paper KEY: the CSV (next to the
 *                                           manifest), its checker, and the hand-written prose
 *                                           printed before its table (doc/validation/INTRO)
 *   realcode MANIFEST                       the real codes' test rows (ectrans and
 *                                           CLOUDSC measured, tools/derive/realcode.c; MANIFEST
 *                                           relative to the working directory) as held-out rows
 *                                           of the CPU-time class of their prediction
 * The prose before the summary (doc/validation/head.md) is printed by tools/gen-validation-doc.sh.
 * Paths are relative to the working directory, the source root. */
#define _GNU_SOURCE
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/lib.h"
#include "dcsim/provenance.h"
#include "dcsim/stats.h"
#include "realcode_model.h"
#include "toolutil.h"
#include "validate.h"

static const val_checker *const CHECKERS[] = { &val_d35,         &val_papers,   &val_small_domain,
                                               &val_conclusions, &val_sampling, &val_gpu_default,
                                               &val_leaveout,    &val_power,    &val_measured_gpus,
                                               &val_modern };

/* in the order of the summary: the out-of-sample classes first */
enum {
  EV_LOO,
  EV_HELDOUT,
  EV_OTHERHW,
  EV_INDEPENDENT,
  EV_CONSISTENCY,
  EV_MEASURED,
  EV_DERIVED,
  EV_CONSTRUCTION,
  EV_INSAMPLE,
  N_EV
};
#define N_OOS 3 /* EV_LOO .. EV_OTHERHW */
static const char *const EV_NAME[N_EV] = { "leave-one-out", "held-out",     "other-hw",
                                           "independent",   "consistency",  "measured",
                                           "derived",       "construction", "in-sample" };
static const char *const EV_TEXT[N_EV] = { "leave-one-out", "held out",        "another CPU/GPU",
                                           "independent",   "consistency",     "measured",
                                           "derived",       "by construction", "in sample" };
/* the model parts a band is stated for (calibration/bands.csv) */
enum { PART_CPU_TIME, PART_GPU_TIME, PART_POWER, N_PART };
static const char *const PART_NAME[N_PART] = { "cpu-time", "gpu-time", "power" };
enum { ST_REPRODUCED, ST_NOT_REPRODUCED, ST_NOT_COVERED, N_ST };
static const char *const ST_NAME[N_ST] = { "reproduced", "not-reproduced", "not-covered" };

typedef struct tally {
  long n[N_EV][N_ST];      /* published numbers by evidence and status */
  long stmt[N_EV][N_ST];   /* of them true/false statements (tol bool) */
  long repeat[N_EV][N_ST]; /* of them repeats of an earlier row's computation in the section */
  long wide[N_EV];         /* reproduced numbers beyond half a unit of their printed digit */
} tally;

/* one compared out-of-sample row: its relative error (dcsim / published - 1) */
typedef struct oos_err {
  int ev, band, reproduced; /* band: PART * DCSIM_PROV_N + kind, or -1 */
  int is_stat;              /* the row's value is itself a statistic of errors: +-|err| */
  int band_rate;            /* err is a rate's; its band's part a time (validate.h, band) */
  double err;
  double got;      /* dcsim's value: replicates of one condition share it (bands_derive) */
  char cond[160];  /* a condition named by its source (the real codes' rows): replicates share
                    * it; "" = the dcsim value says (same_condition) */
  char where[160]; /* CSV:line */
} oos_err;

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
  int n_done;   /* sections checked */
  oos_err *oos; /* every compared out-of-sample row */
  size_t n_oos, cap_oos;
  char (*seen)[96]; /* the section's computations so far (repeats count once) */
  size_t n_seen, cap_seen;
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

static int die(const dcsim_error *e) { return tool_die("validate", e, 2); }

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
  int band;      /* PART * DCSIM_PROV_N + kind, or -1 */
  int band_rate; /* the row's value is a rate (a bandwidth), the band's part a time */
  int wide;      /* reproduced only within a tolerance wider than the printed digit */
  int repeat;    /* the same computation as an earlier row of the section */
  double pub, got, tol;
} row_result;

/* The references a text makes to tables, figures and sections ("Tables 1, 12 and 15" gives T1,
 * T12, T15; "Tables 38-39" T38, T39; "Fig. 28" F28; "§6.1.2" S6.1.2) into out[max]; returns how
 * many. */
static int refs_of(const char *s, char out[][24], int max) {
  static const struct {
    const char *word;
    char kind;
  } W[] = { { "Tables", 'T' },  { "Table", 'T' },  { "Figs.", 'F' },   { "Fig.", 'F' },
            { "Figures", 'F' }, { "Figure", 'F' }, { "\xc2\xa7", 'S' } };
  int n = 0;
  for (const char *p = s; *p && n < max;) {
    int k = -1;
    for (size_t i = 0; i < sizeof W / sizeof *W && k < 0; i++)
      if (strncmp(p, W[i].word, strlen(W[i].word)) == 0) k = (int)i;
    if (k < 0) {
      p++;
      continue;
    }
    p += strlen(W[k].word);
    for (int first = 1;; first = 0) { /* a list: N, N-M, separated by ",", "and", "-" */
      while (*p == ' ') p++;
      const char *end = p; /* digits, and dots between digits (§6.1.2) */
      while ((*end >= '0' && *end <= '9') || (*end == '.' && end[1] >= '0' && end[1] <= '9')) end++;
      if (end == p) break;
      double a = atof(p);
      /* "Table 31, 1 node": a count, not another table */
      if (!first && end[0] == ' ' && end[1] >= 'a' && end[1] <= 'z' && strncmp(end, " and ", 5))
        break;
      size_t len = (size_t)(end - p);
      if (n < max) snprintf(out[n++], 24, "%c%.*s", W[k].kind, (int)len, p);
      p = end;
      if (*p == '-' && W[k].kind != 'S') { /* a range of whole numbers */
        char *e2;
        double b = strtod(p + 1, &e2);
        if (e2 != p + 1 && b > a && b - a < 64)
          for (int v = (int)a + 1; v <= (int)b && n < max; v++)
            snprintf(out[n++], 24, "%c%d", W[k].kind, v);
        p = e2;
      }
      const char *q = p;
      while (*q == ' ' || *q == ',') q++;
      if (strncmp(q, "and ", 4) == 0) q += 4;
      while (*q == ' ') q++;
      if (q == p || !(*q >= '0' && *q <= '9')) break;
      p = q;
    }
  }
  return n;
}

/* The first reference of `inputs` that is also one of `source` (the row computed from its own
 * table, figure or section), or NULL. */
static const char *self_ref(const char *source, const char *inputs, char buf[24]) {
  char a[64][24], b[64][24];
  int na = refs_of(source, a, 64), nb = refs_of(inputs, b, 64);
  for (int i = 0; i < na; i++)
    for (int j = 0; j < nb; j++)
      if (strcmp(a[i], b[j]) == 0) return strcpy(buf, a[i]);
  return NULL;
}

/* PART/CLASS (or PART/CLASS/rate, *rate set) of the band column: its index, -1 when empty, -2
 * when not one; /rate only on a time part */
static int band_of(const char *s, int *rate) {
  *rate = 0;
  if (!*s) return -1;
  char buf[64];
  size_t n = strlen(s);
  if (n >= sizeof buf) return -2;
  memcpy(buf, s, n + 1);
  if (n > 5 && strcmp(buf + n - 5, "/rate") == 0) buf[n - 5] = '\0', *rate = 1;
  for (int p = 0; p < N_PART; p++) {
    size_t l = strlen(PART_NAME[p]);
    dcsim_prov_kind k;
    if (strncmp(buf, PART_NAME[p], l) == 0 && buf[l] == '/' &&
        dcsim_prov_parse(buf + l + 1, &k) == 0 && !(*rate && p == PART_POWER))
      return p * DCSIM_PROV_N + (int)k;
  }
  return -2;
}

/* the classification rules of validate.h: inputs, self-sourced independence, bands */
static int check_class(const val_row *w, const row_result *r, dcsim_error *err) {
  int line = dcsim__csv_line(w->t, w->r);
  const char *inputs = val_col(w, "inputs");
  const int oos = r->ev < N_OOS, compared = r->expect != ST_NOT_COVERED;
  if (compared &&
      (oos || r->ev == EV_INDEPENDENT || r->ev == EV_CONSISTENCY || r->ev == EV_MEASURED) &&
      !*inputs)
    return DCSIM_ERR(
        err, DCSIM_EPARSE, w->path, line,
        "a compared %s row needs its inputs (what its dwarf and profile were read from)",
        EV_NAME[r->ev]);
  char ref[24];
  if (r->ev == EV_INDEPENDENT && self_ref(val_col(w, "source"), inputs, ref))
    return DCSIM_ERR(err, DCSIM_EPARSE, w->path, line,
                     "its inputs are read from its own source (%s %s): a row computed from "
                     "numbers of its own table, row or sentence is consistency, not independent",
                     ref[0] == 'T'   ? "Table"
                     : ref[0] == 'F' ? "Fig."
                                     : "\xc2\xa7",
                     ref + 1);
  if (r->band == -2)
    return DCSIM_ERR(err, DCSIM_EPARSE, w->path, line, "bad band '%s' (PART/CLASS)",
                     val_col(w, "band"));
  if (r->band >= 0 && !oos)
    return DCSIM_ERR(err, DCSIM_EPARSE, w->path, line,
                     "a band takes its width from out-of-sample rows only, not %s", EV_NAME[r->ev]);
  return 0;
}

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
  if ((r->ev == EV_DERIVED || r->ev == EV_CONSTRUCTION || r->ev == EV_CONSISTENCY) &&
      !*val_col(w, "basis"))
    return DCSIM_ERR(err, DCSIM_EPARSE, w->path, line, "a %s row needs a basis", EV_NAME[r->ev]);
  r->band = band_of(val_col(w, "band"), &r->band_rate);
  int rc0 = check_class(w, r, err);
  if (rc0) return rc0;
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

/* Half a unit of the last digit printed in `published` ("0.823": 0.0005, "1.84E+00": 0.005). */
static double half_unit(const char *pub) {
  const char *dot = strchr(pub, '.'), *e = strpbrk(pub, "eE");
  int decimals = 0;
  if (dot && (!e || dot < e)) decimals = (int)((e ? e : pub + strlen(pub)) - dot - 1);
  return 0.5 * pow(10, (e ? atoi(e + 1) : 0) - decimals);
}

static void print_row(FILE *f, const val_row *w, const char *label, const row_result *r,
                      const char *note) {
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
  if (*val_col(w, "inputs") && r->has_got) {
    fprintf(f, "; inputs: ");
    cell(f, val_col(w, "inputs"));
  }
  if (r->band >= 0)
    fprintf(f, "; band %s/%s", PART_NAME[r->band / DCSIM_PROV_N],
            dcsim_prov_name((dcsim_prov_kind)(r->band % DCSIM_PROV_N)));
  fprintf(f, " | %s",
          r->status == ST_REPRODUCED       ? "reproduced"
          : r->status == ST_NOT_REPRODUCED ? "**not reproduced**"
                                           : "not covered");
  if (r->wide) fprintf(f, " (only within the tolerance: not to the printed digit)");
  if (r->repeat) fprintf(f, " (repeats an earlier row: counted once)");
  if (r->status != ST_REPRODUCED && *val_col(w, "why")) {
    /* the CSV's reason is written by hand; the checker's note (below) is computed */
    fprintf(f, ": *hand-written:* ");
    cell(f, val_col(w, "why"));
  }
  if (note && *note) {
    fprintf(f, "%schecker: ", r->status != ST_REPRODUCED && *val_col(w, "why") ? "; " : ": ");
    cell(f, note);
  }
  if (r->numbers > 1) fprintf(f, " (%d numbers)", r->numbers);
  fprintf(f, " |\n");
}

/* A compared row's repeat and tolerance flags; an out-of-sample row's error, kept. */
static int classify_result(run *R, const val_row *w, row_result *r, dcsim_error *err) {
  if (!r->is_bool && isfinite(r->got)) {
    char key[96];
    snprintf(key, sizeof key, "%.40s|%.12g", val_col(w, "published"), r->got);
    for (size_t i = 0; i < R->n_seen && !r->repeat; i++) r->repeat = strcmp(R->seen[i], key) == 0;
    if (!r->repeat) {
      if (R->n_seen == R->cap_seen) {
        size_t cap = R->cap_seen ? 2 * R->cap_seen : 64;
        void *q = realloc(R->seen, cap * sizeof *R->seen);
        if (!q) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
        R->seen = q, R->cap_seen = cap;
      }
      snprintf(R->seen[R->n_seen++], sizeof *R->seen, "%s", key);
    }
    r->wide = r->status == ST_REPRODUCED && (r->ev == EV_INDEPENDENT || r->ev == EV_CONSISTENCY) &&
              fabs(r->got - r->pub) > half_unit(val_col(w, "published")) * (1 + 1e-9);
  }
  if (r->ev >= N_OOS || r->is_bool || !isfinite(r->got)) return 0;
  if (R->n_oos == R->cap_oos) {
    size_t cap = R->cap_oos ? 2 * R->cap_oos : 64;
    void *q = realloc(R->oos, cap * sizeof *R->oos);
    if (!q) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    R->oos = q, R->cap_oos = cap;
  }
  oos_err *o = &R->oos[R->n_oos++];
  o->cond[0] = 0; /* named only for the real codes' rows (do_realcode) */
  o->ev = r->ev;
  o->band = r->band;
  o->reproduced = r->status == ST_REPRODUCED;
  /* a row whose value is a statistic of errors (published 0, absolute tolerance) gives it */
  o->is_stat = r->pub == 0 && r->tol_abs;
  o->err = o->is_stat ? r->got : r->got / r->pub - 1;
  o->got = r->got;
  /* a rate's error as the time's (validate.h, band): a memory time is traffic over a rate (D3.5
   * §4.3, Q*Tmop with Tmop = 1 / bandwidth; src/model/model_cpu.c), so dcsim / truth of the time
   * is truth / dcsim of the rate, 1 / (1 + e) - 1: a bandwidth 12 % high is a time 10.7 % short
   * (bands_derive converts; the summary keeps the row's own error) */
  o->band_rate = r->band_rate;
  const char *slash = strrchr(w->path, '/');
  snprintf(o->where, sizeof o->where, "%s:%d", slash ? slash + 1 : w->path,
           dcsim__csv_line(w->t, w->r));
  return 0;
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
    if ((rc = classify_result(R, w, &r, err))) return rc;
  }
  t->n[r.ev][r.status] += r.numbers;
  if (r.is_bool) t->stmt[r.ev][r.status] += r.numbers;
  if (r.repeat) t->repeat[r.ev][r.status] += r.numbers;
  t->wide[r.ev] += r.wide ? r.numbers : 0;
  char label[512] = "", note[1024] = "";
  ck->label(w, label, sizeof label);
  if (r.has_got && ck->note && (rc = ck->note(st, w, note, sizeof note, err))) return rc;
  if (out) print_row(out, w, label, &r, note);
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
  R->n_seen = 0; /* repeats count once within a section */
  for (size_t r = 0; r < dcsim__csv_rows(t); r++) {
    val_row w = { t, r, path };
    if ((rc = do_row(R, ck, st, &w, &t0, out, err))) goto out;
  }
  for (int e = 0; e < N_EV; e++) {
    for (int s = 0; s < N_ST; s++) {
      p->t.n[e][s] += t0.n[e][s];
      p->t.stmt[e][s] += t0.stmt[e][s];
      p->t.repeat[e][s] += t0.repeat[e][s];
    }
    p->t.wide[e] += t0.wide[e];
  }
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

static int cmp_abs(const void *a, const void *b) {
  double x = fabs(*(const double *)a), y = fabs(*(const double *)b);
  return (x > y) - (x < y);
}

/* The out-of-sample rows first: count and error statistics per class, then all together. */
/* Whether two out-of-sample rows are replicates of one condition: the same named condition when
 * their source names one (the real codes' rows: two sizes on two thread counts can share a
 * prediction), else the same dcsim value (one prediction measured several times, such as the four
 * H100 boards). */
static int same_condition(const oos_err *a, const oos_err *b) {
  if (*a->cond || *b->cond) return strcmp(a->cond, b->cond) == 0;
  return a->got == b->got;
}

static void oos_summary(FILE *f, const run *R) {
  fprintf(
      f,
      "### Out-of-sample predictions\n\n"
      "Rows that predict a number the model was not fitted on: a point left out of the fit "
      "(leave-one-out), a case held out of it, or another CPU or GPU than the one fitted. "
      "Error = dcsim / published - 1 (for a row whose value is itself an error statistic, "
      "that statistic); the bias is the mean over the rows that compare a value. Conditions: "
      "the rows counted once per dcsim value (replicates of one condition, such as one "
      "prediction measured on four boards, are one; a real code's row is one of its own).\n\n"
      "| class | rows | conditions | reproduced | not | mean \\|error\\| | median \\|error\\| | "
      "largest \\|error\\| (where) | mean error (bias) |\n"
      "|---|---|---|---|---|---|---|---|---|\n");
  double *e = malloc((R->n_oos + 1) * sizeof *e);
  for (int c = 0; c <= N_OOS && e; c++) {
    size_t n = 0, rep = 0, nb = 0, worst = 0;
    double sum = 0, bias = 0;
    for (size_t i = 0; i < R->n_oos; i++) {
      const oos_err *o = &R->oos[i];
      if (c < N_OOS && o->ev != c) continue;
      if (!n || fabs(o->err) > fabs(R->oos[worst].err)) worst = i;
      e[n++] = o->err;
      rep += o->reproduced;
      sum += fabs(o->err);
      if (!o->is_stat) bias += o->err, nb++;
    }
    if (!n) { /* said, not left out: a class without evidence is a finding */
      fprintf(f, "| %s | 0 | 0 | - | - | - | - | - | - |\n", c < N_OOS ? EV_TEXT[c] : "**all**");
      continue;
    }
    size_t conds = 0; /* distinct (class, dcsim value) among these rows */
    for (size_t i = 0; i < R->n_oos; i++) {
      const oos_err *o = &R->oos[i];
      if (c < N_OOS && o->ev != c) continue;
      size_t j = 0;
      for (; j < i; j++) {
        const oos_err *q = &R->oos[j];
        if ((c == N_OOS || q->ev == c) && q->band == o->band && same_condition(q, o)) break;
      }
      conds += j == i;
    }
    qsort(e, n, sizeof *e, cmp_abs);
    double med = n % 2 ? fabs(e[n / 2]) : (fabs(e[n / 2 - 1]) + fabs(e[n / 2])) / 2;
    fprintf(f, "| %s | %zu | %zu | %zu | %zu | %.1f %% | %.1f %% | %.1f %% (%s) | ",
            c < N_OOS ? EV_TEXT[c] : "**all out of sample**", n, conds, rep, n - rep, 100 * sum / n,
            100 * med, 100 * fabs(R->oos[worst].err), R->oos[worst].where);
    if (nb)
      fprintf(f, "%+.1f %% |\n", 100 * bias / nb);
    else
      fprintf(f, "- |\n");
  }
  free(e);
  fputc('\n', f);
}

/* ---- uncertainty bands (calibration/bands.csv) ---- */

typedef struct band {
  double emin, emax; /* signed errors dcsim / truth - 1 they cover (emin <= 0 <= emax) */
  int rows;          /* out-of-sample rows of its own */
  int conds;         /* the conditions they are (replicates of one condition count once) */
  double coverage;   /* the probability >= which a new condition's error falls inside (0: none) */
  char basis[768];
} band;

/* The band of one class from its rows: replicates of one condition
 * (same_condition: one prediction measured several times, the H100 boards of measured-gpus.csv)
 * count once, with the median of their errors; the band is the
 * quantile interval of the conditions' errors (dcsim/stats.h dcsim_quantile_band_of: the k-th
 * smallest and largest, k as large as a coverage of DCSIM_BAND_COVERAGE allows, else the smallest
 * and largest). */
static void band_of_class(const run *R, int cls, band *x) {
  size_t n = 0;
  char rows[sizeof x->basis] = "";
  double *lo = calloc(R->n_oos + 1, sizeof *lo), *hi = calloc(R->n_oos + 1, sizeof *hi);
  double *rl = calloc(R->n_oos + 1, sizeof *rl), *rh = calloc(R->n_oos + 1, sizeof *rh);
  unsigned char *done = calloc(R->n_oos + 1, 1);
  if (!lo || !hi || !rl || !rh || !done) goto out;
  for (size_t i = 0; i < R->n_oos; i++) {
    const oos_err *o = &R->oos[i];
    if (o->band != cls || done[i]) continue;
    size_t r = 0;
    for (size_t j = i; j < R->n_oos; j++) {
      const oos_err *q = &R->oos[j];
      if (q->band != cls || done[j] || !same_condition(q, o)) continue;
      done[j] = 1;
      /* a rate's error as its time's (see where band_rate is set) */
      double e = q->band_rate && !q->is_stat ? 1 / (1 + q->err) - 1 : q->err;
      rl[r] = q->is_stat ? -fabs(e) : e;
      rh[r] = q->is_stat ? fabs(e) : e;
      r++;
      size_t l = strlen(rows);
      snprintf(rows + l, sizeof rows - l, "%s%s", x->rows++ ? " " : "rows ", q->where);
    }
    lo[n] = dcsim_median(rl, r);
    hi[n] = dcsim_median(rh, r);
    n++;
  }
  if (n) {
    dcsim_quantile_band q;
    dcsim_quantile_band_of(lo, hi, n, &q);
    x->conds = (int)n;
    x->coverage = q.coverage;
    x->emin = fmin(0, q.low);
    x->emax = fmax(0, q.high);
    char rank[64] = "the smallest and the largest error";
    if (q.k > 1) snprintf(rank, sizeof rank, "the k-th smallest and largest error, k = %zu", q.k);
    int m =
        snprintf(x->basis, sizeof x->basis,
                 "%zu condition%s, %s: covers a new one with probability >= %.0f %%%s; ", n,
                 n == 1 ? "" : "s", rank, 100 * q.coverage,
                 q.coverage < DCSIM_BAND_COVERAGE - 1e-9 ? " (too few conditions for 90 %)" : "");
    /* the row list as far as it fits, never cut silently: a cut list says so */
    static const char more[] = " ... (the section tables of doc/validation.md list every row)";
    size_t used = m > 0 && (size_t)m < sizeof x->basis ? (size_t)m : sizeof x->basis - 1;
    size_t room = sizeof x->basis - used;
    if (strlen(rows) < room)
      memcpy(x->basis + used, rows, strlen(rows) + 1);
    else if (room > sizeof more) {
      size_t keep = room - sizeof more;
      while (keep > 0 && rows[keep] != ' ') keep--; /* whole row names only */
      memcpy(x->basis + used, rows, keep);
      memcpy(x->basis + used + keep, more, sizeof more);
    }
  }
out:
  free(lo), free(hi), free(rl), free(rh), free(done);
}

/* Each part's bands (doc/validation/head.md, "Uncertainty bands"): a class with out-of-sample rows
 * of its own takes the quantile band of their errors (band_of_class); a class without, stronger
 * than one with, takes the band of the nearest weaker class with rows (measured cells, or an
 * interpolation between them, are no further from the truth than the fitted model carried beyond
 * them) and says so; a class without, weaker than every class with rows, takes the widest band
 * seen in any part (nothing bounds it better) and says so; then each class covers the stronger
 * classes of its part (weaker evidence never gets a narrower band). */
static void bands_derive(const run *R, band b[N_PART][DCSIM_PROV_N]) {
  memset(b, 0, sizeof(band) * N_PART * DCSIM_PROV_N);
  band widest = { 0, 0, 0, 0, 0, "" };
  for (int p = 0; p < N_PART; p++)
    for (int k = 0; k < DCSIM_PROV_N; k++) {
      band *x = &b[p][k];
      band_of_class(R, p * DCSIM_PROV_N + k, x);
      if (!x->rows) continue;
      widest.emin = fmin(widest.emin, x->emin);
      widest.emax = fmax(widest.emax, x->emax);
    }
  for (int p = 0; p < N_PART; p++) {
    for (int k = 0; k < DCSIM_PROV_N; k++) {
      band *x = &b[p][k];
      if (x->rows) continue;
      int w = k + 1;
      while (w < DCSIM_PROV_N && !b[p][w].rows) w++;
      if (w < DCSIM_PROV_N) {
        x->emin = b[p][w].emin, x->emax = b[p][w].emax;
        snprintf(x->basis, sizeof x->basis, "no row of its own: borrows the %s band",
                 dcsim_prov_name((dcsim_prov_kind)w));
      } else {
        x->emin = widest.emin, x->emax = widest.emax;
        snprintf(x->basis, sizeof x->basis,
                 "no row of its own nor of a weaker class: borrows the widest band of every part");
      }
    }
    for (int k = 1; k < DCSIM_PROV_N; k++) {
      band *x = &b[p][k], *s = &b[p][k - 1];
      if (s->emin < x->emin || s->emax > x->emax) {
        x->emin = fmin(x->emin, s->emin), x->emax = fmax(x->emax, s->emax);
        size_t l = strlen(x->basis);
        snprintf(x->basis + l, sizeof x->basis - l, "; widened to cover %s",
                 dcsim_prov_name((dcsim_prov_kind)(k - 1)));
      }
    }
  }
}

/* the band as multipliers of the value: truth in [v (1 + low), v (1 + high)] */
static void band_range(const band *x, double *low, double *high) {
  *low = 1 / (1 + x->emax) - 1;
  *high = x->emin > -1 ? 1 / (1 + x->emin) - 1 : INFINITY;
}

/* The bands: the summary's table (doc/validation.md) or calibration/bands.csv, from one derivation
 * so that the two cannot differ. */
static void bands_write(FILE *f, const run *R, int csv) {
  band b[N_PART][DCSIM_PROV_N];
  bands_derive(R, b);
  if (csv)
    fprintf(f,
            "# Relative uncertainty bands of dcsim's predictions per model part and provenance "
            "class (dcsim/bands.h).\n# Generated by `build/tools/validate "
            "tests/reference/sections.txt --bands > /tmp/b.csv && mv /tmp/b.csv "
            "calibration/bands.csv`\n# (validate reads this file: never redirect into it) from the "
            "out-of-sample rows of the reference CSVs (doc/validation.md, \"Uncertainty "
            "bands\"); do not edit: ctest\n# bands_current fails when this file differs. A "
            "value v of the class has the band [v (1 + low), v (1 + high)].\n"
            "part,class,low,high,rows,conditions,coverage,source\n");
  else
    fprintf(f,
            "### Uncertainty bands\n\n"
            "The relative band dcsim prints with every prediction (`time_band`, `energy_band`; "
            "calibration/bands.csv, written by `validate tests/reference/sections.txt --bands` "
            "and checked by ctest bands_current), per model part and provenance class, from the "
            "out-of-sample rows only (their `band` column): the truth lies in [value x (1 + "
            "low), value x (1 + high)]. Replicates of one condition (rows with the same dcsim "
            "value) count once, with their median error; the band is the interval between the "
            "k-th smallest and the k-th largest error of the n conditions, which covers a new "
            "condition with probability at least 1 - 2k/(n + 1) (`coverage`): k is the largest "
            "that keeps it at 90 %%, or 1 (the smallest and the largest) when n is too small for "
            "90 %%, which the basis then says (90 %%: so that the share of new conditions inside, "
            "which scatters around that probability, stays above the 80 %% issue 36 asks). A class "
            "without rows borrows a band and says "
            "which. An energy's band combines its time's and its "
            "power's.\n\n| part | class | rows | conditions | coverage | low | high | basis "
            "|\n|---|---|---|---|---|---|---|---|\n");
  for (int p = 0; p < N_PART; p++)
    for (int k = 0; k < DCSIM_PROV_N; k++) {
      double lo, hi;
      band_range(&b[p][k], &lo, &hi);
      const char *cls = dcsim_prov_name((dcsim_prov_kind)k);
      if (csv)
        fprintf(f, "%s,%s,%.4g,%.4g,%d,%d,%.2f,\"tests/reference: %s\"\n", PART_NAME[p], cls, lo,
                hi, b[p][k].rows, b[p][k].conds, b[p][k].coverage, b[p][k].basis);
      else
        fprintf(f, "| %s | %s | %d | %d | %.0f %% | %+.1f %% | %+.1f %% | %s |\n", PART_NAME[p],
                cls, b[p][k].rows, b[p][k].conds, 100 * b[p][k].coverage, 100 * lo, 100 * hi,
                b[p][k].basis);
    }
  if (!csv) fputc('\n', f);
}

/* a cell of the split: numbers, then what they hold apart */
static void split_cell(FILE *f, const tally *t, int e) {
  long r = t->n[e][ST_REPRODUCED], n = t->n[e][ST_NOT_REPRODUCED];
  if (r + n == 0) {
    fprintf(f, " - |");
    return;
  }
  if (e == EV_CONSTRUCTION) {
    fprintf(f, " %ld |", r + n);
    return;
  }
  long st = t->stmt[e][ST_REPRODUCED] + t->stmt[e][ST_NOT_REPRODUCED],
       rep = t->repeat[e][ST_REPRODUCED] + t->repeat[e][ST_NOT_REPRODUCED];
  fprintf(f, " %ld reproduced, %ld not", r, n);
  if (e == EV_INDEPENDENT || e == EV_CONSISTENCY)
    fprintf(f, " (%ld numbers: %ld distinct, %ld only within a wide tolerance; %ld statements)",
            r + n - st, r + n - st - rep, t->wide[e], st);
  fprintf(f, " |");
}

static void summary(FILE *f, const run *R) {
  fprintf(f, "## Summary\n\n");
  oos_summary(f, R);
  bands_write(f, R, 0);
  fprintf(f, "### Every published number by evidence\n\n| paper |");
  for (int e = 0; e < N_EV; e++) fprintf(f, " %s |", EV_TEXT[e]);
  fprintf(f, " not covered |\n|");
  for (int e = 0; e <= N_EV + 1; e++) fprintf(f, "---|");
  fputc('\n', f);
  tally all;
  memset(&all, 0, sizeof all);
  for (int i = 0; i <= R->n_papers; i++) {
    const tally *t = i < R->n_papers ? &R->papers[i].t : &all;
    fprintf(f, "| %s |", i < R->n_papers ? R->papers[i].title : "**all**");
    long cov = 0;
    for (int e = 0; e < N_EV; e++) {
      cov += t->n[e][ST_NOT_COVERED];
      split_cell(f, t, e);
      if (i < R->n_papers) {
        for (int s = 0; s < N_ST; s++) {
          all.n[e][s] += t->n[e][s];
          all.stmt[e][s] += t->stmt[e][s];
          all.repeat[e][s] += t->repeat[e][s];
        }
        all.wide[e] += t->wide[e];
      }
    }
    fprintf(f, " %ld |\n", cov);
  }
  fprintf(f,
          "\nEach cell counts published numbers (a not-covered row may stand for several). "
          "Out-of-sample rows are the evidence of prediction; independent ones are computed "
          "from inputs read elsewhere than the compared number's own table, row or sentence, "
          "consistency ones only from numbers of it. For both: *distinct* counts a repeated "
          "computation once, *only within a wide tolerance* counts numbers reproduced within "
          "the row's tolerance but not to half a unit of the printed digit, and true/false "
          "statements are counted apart. Derived numbers follow arithmetically from other rows, "
          "those by construction were used to make dcsim's data, and in-sample ones were "
          "fitted: they add no evidence.\n\n");
}

/* The real codes' test rows: each a held-out prediction of a measured driver iteration,
 * evidence for the CPU-time band of its class (cpu-time spec when the CPU's rates were transferred,
 * as dcsim/bands.h gives it). Reproduced: within 20 %, the target for the median. Fit rows
 * are not evidence. */
static int do_realcode(run *R, const char *manifest, dcsim_error *err) {
  static rc_ctx c;
  int rc = -1;
  memset(&c, 0, sizeof c);
  if (rc_ctx_load(&c, manifest, err)) goto out;
  for (size_t ci = 0; ci < RC_N_CODES; ci++) {
    dcsim_dwarf_t *d = NULL;
    if (rc_load_dwarf(RC_CODES[ci], &d, err)) goto out;
    for (size_t i = 0; i < c.n_rows; i++) {
      const rc_row *w = &c.rows[i];
      if (w->fit || strcmp(w->dwarf, RC_CODES[ci]) || rc_is_gpu_variant(w->variant)) continue;
      rc_pred pr;
      size_t nl;
      if (rc_predict(&c, d, w, NULL, NULL, &nl, &pr, err)) {
        dcsim_dwarf_free(d);
        goto out;
      }
      if (R->n_oos == R->cap_oos) {
        size_t cap = R->cap_oos ? 2 * R->cap_oos : 64;
        void *q = realloc(R->oos, cap * sizeof *R->oos);
        if (!q) {
          dcsim_dwarf_free(d);
          rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
          goto out;
        }
        R->oos = q, R->cap_oos = cap;
      }
      oos_err *o = &R->oos[R->n_oos++];
      memset(o, 0, sizeof *o);
      o->ev = EV_HELDOUT;
      o->band = PART_CPU_TIME * DCSIM_PROV_N + (pr.transferred ? DCSIM_PROV_SPEC : pr.kind);
      o->got = pr.time_s;
      o->err = pr.time_s / w->measured_s - 1;
      o->reproduced = fabs(o->err) <= 0.2;
      snprintf(o->where, sizeof o->where, "%s/measurements.csv:%d", w->m->name,
               dcsim__csv_line(w->m->rows, w->r));
      /* one row is one condition (its repeats are already one row) */
      snprintf(o->cond, sizeof o->cond, "%s", o->where);
    }
    dcsim_dwarf_free(d);
  }
  rc = 0;
out:
  rc_ctx_free(&c);
  return rc;
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
    if (strcmp(kind, "realcode") == 0 && sscanf(line, "%*s %255s", a) == 1) {
      if (!R->n_only) rc = do_realcode(R, a, err); /* --check CSV...: those sections only */
      continue;
    }
    rc = DCSIM_ERR(err, DCSIM_EPARSE, R->manifest, ln, "bad line");
  }
  fclose(f);
  free(dcopy);
  return rc;
}

/* doc/design.md's list of checkers (tools/gen-design-checkers.sh): one item per checker of the
 * table, in its order, with its file and what it checks. */
static void print_checkers(void) {
  printf(
      "Checkers (`tools/derive/check_*.c`, listed in validate.c's table `CHECKERS` and "
      "tools/CMakeLists.txt; this list is printed by `validate --checkers`):\n\n");
  for (size_t i = 0; i < sizeof CHECKERS / sizeof *CHECKERS; i++) {
    printf("- `%s` (check_", CHECKERS[i]->name);
    for (const char *c = CHECKERS[i]->name; *c; c++) putchar(*c == '-' ? '_' : *c);
    printf(".c): %s.\n", CHECKERS[i]->what);
  }
}

int main(int argc, char **argv) {
  if (dcsim_lib_init() != 0) return 1;
  if (argc == 2 && strcmp(argv[1], "--checkers") == 0) {
    print_checkers();
    return fflush(stdout) != 0;
  }
  if (argc < 3 ||
      (strcmp(argv[2], "--markdown") && strcmp(argv[2], "--check") && strcmp(argv[2], "--bands"))) {
    fprintf(stderr,
            "usage: validate MANIFEST (--markdown | --check [CSV...] | --bands) | validate "
            "--checkers\n");
    return 2;
  }
  run R;
  memset(&R, 0, sizeof R);
  R.manifest = argv[1];
  R.markdown = strcmp(argv[2], "--markdown") == 0;
  const int bands = strcmp(argv[2], "--bands") == 0;
  R.only = argv + 3;
  R.n_only = bands ? 0 : argc - 3;
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
    free(R.oos);
    free(R.seen);
    return die(&err);
  }
  if (R.markdown) {
    summary(stdout, &R);
    fwrite(buf, 1, len, stdout);
  } else if (bands) {
    bands_write(stdout, &R, 1);
  } else {
    printf("%s\n", R.failures ? "FAILED" : "all rows have their expected status");
  }
  free(buf);
  free(R.oos);
  free(R.seen);
  return R.failures ? 1 : 0;
}
