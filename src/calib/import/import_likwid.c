/* import_likwid.c — likwid-bench text output into a calibration directory (dcsim/import_cpu.h,
 * doc/calibration.md "Importing likwid-bench output"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib/internal.h"
#include "dcsim/import_likwid.h"
#include "dcsim/numfmt.h"

/* One likwid-bench run: the block from "Test:" to the next "Test:" or the end of the file. */
typedef struct lrun {
  const char *file;
  int line; /* of "Test:" */
  char test[64];
  unsigned threads, groups;
  double size_byte, per_thread_byte, mbyte_s, mflop_s;
  int has_threads, has_size, has_per_thread, has_mbyte, has_mflop;
  int mbyte_line, mflop_line;
} lrun;

static int is_peakflops(const char *test) { return strncmp(test, "peakflops", 9) == 0; }
static int is_single(const char *test) { return strstr(test, "_sp") != NULL; }

/* family of a test: the name up to the first '_' (load_avx -> load, stream_mem_avx_fma -> stream)
 */
static int family_len(const char *test) { return (int)strcspn(test, "_"); }

/* whether tests a and b are of one family, or (b_whole) b is a's family itself */
static int same_family(const char *a, const char *b, int b_whole) {
  int l = family_len(a);
  return strncmp(a, b, (size_t)l) == 0 && (b_whole ? b[l] == '\0' : family_len(b) == l);
}

/* "Key:<blanks>value" -> value, or NULL when the line does not start with key + ':' */
static const char *field(const char *s, const char *key) {
  size_t k = strlen(key);
  if (strncmp(s, key, k) != 0 || s[k] != ':') return NULL;
  s += k + 1;
  while (*s == ' ' || *s == '\t') s++;
  return s;
}

static int number(const char *v, const char *what, const char *path, int line, double *out,
                  dcsim_error *err) {
  char buf[64];
  size_t n = strcspn(v, " \t");
  if (n >= sizeof buf) n = sizeof buf - 1;
  memcpy(buf, v, n);
  buf[n] = '\0';
  if (dcsim_parse_double(buf, out) != 0 || *out < 0)
    return DCSIM_ERR(err, DCSIM_EPARSE, path, line, "%s '%s': not a number", what, v);
  return 0;
}

static int finish_run(lrun *r, dcsim_error *err) {
  if (!r->has_threads)
    return DCSIM_ERR(err, DCSIM_EPARSE, r->file, r->line,
                     "test %s: no 'Using N threads' line in this run", r->test);
  if (!r->groups) r->groups = 1;
  if (is_peakflops(r->test)) {
    if (!r->has_mflop)
      return DCSIM_ERR(err, DCSIM_EPARSE, r->file, r->line,
                       "test %s: no 'MFlops/s:' line in this run", r->test);
    return 0;
  }
  if (!r->has_mbyte)
    return DCSIM_ERR(err, DCSIM_EPARSE, r->file, r->line, "test %s: no 'MByte/s:' line in this run",
                     r->test);
  if (!r->has_size)
    return DCSIM_ERR(err, DCSIM_EPARSE, r->file, r->line,
                     "test %s: no 'Size (Byte):' line in this run", r->test);
  if (!r->has_per_thread) {
    if (!r->threads)
      return DCSIM_ERR(err, DCSIM_EPARSE, r->file, r->line, "test %s: 0 threads", r->test);
    r->per_thread_byte = r->size_byte / r->threads;
  }
  return 0;
}

static int parse_likwid(const char *path, lrun **runs, size_t *n, size_t *cap, dcsim_error *err) {
  char *text = NULL;
  int rc = dcsim__file_read_text(path, &text, err);
  if (rc) return rc;
  lrun *cur = NULL;
  int line = 0, any = 0;
  for (char *ln = text, *next; ln; ln = next) {
    next = strchr(ln, '\n');
    if (next) *next++ = '\0';
    line++;
    size_t len = strlen(ln);
    while (len && (ln[len - 1] == '\r' || ln[len - 1] == ' ' || ln[len - 1] == '\t'))
      ln[--len] = '\0';
    const char *s = ln, *v;
    while (*s == ' ' || *s == '\t') s++;
    if ((v = field(s, "Test"))) {
      if (cur && (rc = finish_run(cur, err))) goto out;
      if (DCSIM_GROW(*runs, *cap, *n + 1)) {
        rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, line, "out of memory");
        goto out;
      }
      cur = &(*runs)[(*n)++];
      memset(cur, 0, sizeof *cur);
      cur->file = path;
      cur->line = line;
      if (!*v || strlen(v) >= sizeof cur->test || strpbrk(v, " \t")) {
        rc = DCSIM_ERR(err, DCSIM_EPARSE, path, line, "Test: '%s' is not a likwid-bench test name",
                       v);
        goto out;
      }
      snprintf(cur->test, sizeof cur->test, "%s", v);
      any = 1;
      continue;
    }
    if (!cur) continue; /* "Allocate:" lines and the banner come before Test: */
    unsigned u;
    double x;
    char tail[16];
    if (sscanf(s, "Using %u work group%15s", &u, tail) >= 1 && strstr(s, " work group")) {
      cur->groups = u;
      continue;
    }
    if (sscanf(s, "Using %u thread%15s", &u, tail) >= 1 && strstr(s, " thread")) {
      if (u == 0) {
        rc = DCSIM_ERR(err, DCSIM_ERANGE, path, line, "%s: 0 threads", s);
        goto out;
      }
      cur->threads = u;
      cur->has_threads = 1;
      continue;
    }
    if ((v = field(s, "Size (Byte)")) || (v = field(s, "Size"))) { /* likwid 5 / likwid 4 */
      if ((rc = number(v, "Size", path, line, &x, err))) goto out;
      cur->size_byte = x;
      cur->has_size = 1;
    } else if ((v = field(s, "Size per thread"))) {
      if ((rc = number(v, "Size per thread", path, line, &x, err))) goto out;
      cur->per_thread_byte = x;
      cur->has_per_thread = 1;
    } else if ((v = field(s, "MByte/s"))) {
      if ((rc = number(v, "MByte/s", path, line, &x, err))) goto out;
      cur->mbyte_s = x;
      cur->has_mbyte = 1;
      cur->mbyte_line = line;
    } else if ((v = field(s, "MFlops/s"))) {
      if ((rc = number(v, "MFlops/s", path, line, &x, err))) goto out;
      cur->mflop_s = x;
      cur->has_mflop = 1;
      cur->mflop_line = line;
    }
  }
  if (cur && (rc = finish_run(cur, err))) goto out;
  if (!any)
    rc = DCSIM_ERR(err, DCSIM_EPARSE, path, 1,
                   "no 'Test:' line in the file: not likwid-bench output");
out:
  free(text);
  return rc;
}

/* Best (highest) value per thread count of one table. */
typedef struct best {
  size_t n, cap;
  unsigned *threads;
  double *value;
  const lrun **run;
} best;

static int best_put(best *b, const lrun *r, double v) {
  for (size_t i = 0; i < b->n; i++)
    if (b->threads[i] == r->threads) {
      if (v > b->value[i]) {
        b->value[i] = v;
        b->run[i] = r;
      }
      return 0;
    }
  if (b->n == b->cap) {
    size_t nc = b->cap ? 2 * b->cap : 16;
    if (DCSIM_RESIZE(b->threads, nc) || DCSIM_RESIZE(b->value, nc) || DCSIM_RESIZE(b->run, nc))
      return -1;
    b->cap = nc;
  }
  b->threads[b->n] = r->threads;
  b->value[b->n] = v;
  b->run[b->n] = r;
  b->n++;
  return 0;
}

static void best_free(best *b) {
  free(b->threads);
  free(b->value);
  free(b->run);
}

/* One import: the runs read, the machine file, and the best value per thread count of each
 * quantity (by dcsim_cpu_qty). */
typedef struct likwid_import {
  const char *dir, *test, *freq; /* test, freq: NULL = not chosen */
  FILE *report;
  char *mpath; /* DIR/machine.xml */
  lrun *runs;
  size_t nr, cap;
  dcsim__calib_machine m; /* machine.xml as read */
  double cache[3];        /* L1, L2, L3 bytes */
  const char *fid;        /* the frequency state (in m) */
  unsigned cores;         /* cores-per-socket x sockets of <spec> */
  double ghz;             /* the clock of that state */
  best tab[5];
  size_t used, ignored; /* runs */
} likwid_import;

/* cache sizes and the frequency state come from DIR/machine.xml (read by the input layer,
 * input/calibmachine.c) */
static int read_machine(likwid_import *L, dcsim_error *err) {
  int rc;
  FILE *probe = fopen(L->mpath, "rb");
  if (!probe)
    return DCSIM_ERR(
        err, DCSIM_EIO, L->mpath, 0,
        "needed for the cache sizes and the frequency state: write one "
        "(schemas/calibration-machine.xsd) or make it with dcsim calibrate import-kerncraft");
  fclose(probe);
  if ((rc = dcsim__calib_machine_load(L->mpath, &L->m, err))) return rc;
  const dcsim__calib_machine *m = &L->m;
  static const char *const cattr[3] = { "l1-byte", "l2-byte", "l3-byte" };
  for (int c = 0; c < 3; c++) {
    L->cache[c] = m->spec.cache_byte[c];
    if (!(L->cache[c] > 0))
      return DCSIM_ERR(
          err, DCSIM_EREF, m->path, m->spec.line,
          "<spec>: %s is needed to tell which cache a likwid-bench working set measures", cattr[c]);
  }
  const dcsim__calibdir_freqs *fr = &m->fr;
  size_t k = fr->n;
  for (size_t i = 0; i < fr->n; i++) {
    if (L->freq ? strcmp(fr->ids[i], L->freq) == 0 : k == fr->n)
      k = i;
    else if (!L->freq)
      return DCSIM_ERR(err, DCSIM_EUSAGE, m->path, fr->lines[i],
                       "machine.xml has several frequency states: say which one the "
                       "likwid-bench runs used with --freq ID");
  }
  if (k == fr->n)
    return DCSIM_ERR(err, DCSIM_EREF, m->path, fr->line, "<frequencies>: no <freq id=\"%s\">",
                     L->freq);
  L->fid = fr->ids[k];
  L->ghz = fr->ghz[k];
  L->cores = m->spec.cores_per_socket * m->spec.sockets;
  return 0;
}

/* which bandwidth test: without --test, the files must hold one family */
static int check_families(const likwid_import *L, dcsim_error *err) {
  const lrun *first = NULL, *runs = L->runs;
  for (size_t i = 0; i < L->nr; i++) {
    if (is_peakflops(runs[i].test)) continue;
    if (L->test) continue;
    if (!first) {
      first = &runs[i];
    } else if (!same_family(runs[i].test, first->test, 0)) {
      return DCSIM_ERR(err, DCSIM_EUSAGE, runs[i].file, runs[i].line,
                       "test %s: the files hold bandwidth tests of two families (%.*s, %.*s at "
                       "%s:%d): choose one with --test NAME",
                       runs[i].test, family_len(runs[i].test), runs[i].test,
                       family_len(first->test), first->test, first->file, first->line);
    }
  }
  return 0;
}

/* A run's figure against the per-cycle rule of every calibration cell (calib/internal.h), naming
 * the likwid-bench file and line. */
static int check_run(const likwid_import *L, const lrun *r, int flops, dcsim_error *err) {
  dcsim_num_text cell; /* "%g" of a double: at most 13 bytes, never cut */
  (void)dcsim_bufprintf(cell.s, sizeof cell.s, "%g", flops ? r->mflop_s : r->mbyte_s);
  return dcsim__calibdir_cell_per_cycle(
      r->file, flops ? r->mflop_line : r->mbyte_line, flops ? "flops" : "L1", cell.s,
      flops ? "MFlops/s" : "MByte/s", r->threads, L->cores, L->ghz,
      "the frequency state of machine.xml", (flops ? r->mflop_s : r->mbyte_s) * 1e6, err);
}

/* Each run into the table of what it measures: peakflops (double precision) to flops, bandwidth
 * runs of the chosen test to the level their working set fits. */
static int sort_runs(likwid_import *L, dcsim_error *err) {
  for (size_t i = 0; i < L->nr; i++) {
    const lrun *r = &L->runs[i];
    if (is_peakflops(r->test)) {
      if (is_single(r->test)) {
        L->ignored++;
        continue;
      } /* the profile's P is double precision */
      int rc = check_run(L, r, 1, err);
      if (rc) return rc;
      if (best_put(&L->tab[0], r, r->mflop_s / 1000))
        return DCSIM_ERR(err, DCSIM_ENOMEM, r->file, r->line, "out of memory");
      L->used++;
      continue;
    }
    if (L->test && strcmp(L->test, r->test) != 0 && !same_family(r->test, L->test, 1)) {
      L->ignored++;
      continue;
    }
    /* L1, L2 private: the working set per thread; L3 shared by the threads of a work group (a
     * socket) */
    int lv = r->per_thread_byte <= L->cache[0]         ? 0
             : r->per_thread_byte <= L->cache[1]       ? 1
             : r->size_byte / r->groups <= L->cache[2] ? 2
                                                       : 3;
    int rc = check_run(L, r, 0, err);
    if (rc) return rc;
    if (best_put(&L->tab[1 + lv], r, r->mbyte_s / 1000))
      return DCSIM_ERR(err, DCSIM_ENOMEM, r->file, r->line, "out of memory");
    L->used++;
  }
  return 0;
}

/* DIR/<quantity q>.csv from table q. */
static int write_quantity(const likwid_import *L, int q, dcsim_error *err) {
  const best *b = &L->tab[q];
  int rc;
  dcsim_calib_row *rows = calloc(b->n, sizeof *rows);
  if (!rows) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, L->dir, 0, "out of memory");
    goto out;
  }
  for (size_t i = 0; i < b->n; i++) {
    const lrun *r = b->run[i];
    rows[i].threads = b->threads[i];
    snprintf(rows[i].value, sizeof rows[i].value, "%.10g", b->value[i]);
    if (q == 0)
      snprintf(rows[i].source, sizeof rows[i].source, "likwid-bench %s, %s:%d (MFlops/s %.2f)",
               r->test, r->file, r->mflop_line, r->mflop_s);
    else
      snprintf(rows[i].source, sizeof rows[i].source,
               "likwid-bench %s, %s:%d (MByte/s %.2f; %.0f B per thread, %.0f B in all)", r->test,
               r->file, r->mbyte_line, r->mbyte_s, r->per_thread_byte, r->size_byte);
  }
  char *comment = dcsim_strdup_printf(
      "GENERATED by dcsim calibrate import-likwid from likwid-bench output "
      "(doc/calibration.md):\n"
      "%s %s, the highest of the runs at each thread count",
      dcsim_cpu_qty_name((dcsim_cpu_qty)q),
      q == 0 ? "from peakflops (MFlops/s / 1000)"
             : "from the working sets that fit it (MByte/s / 1000)");
  rc = comment ? dcsim__calib_write_table(L->dir, dcsim_cpu_qty_name((dcsim_cpu_qty)q), L->fid,
                                          q == 0 ? "GFLOP/s" : "GB/s", rows, b->n, comment, err)
               : DCSIM_ERR(err, DCSIM_ENOMEM, L->dir, 0, "out of memory");
  free(comment);
  if (rc) goto out;
  if (L->report) {
    fprintf(L->report, "%s.csv:", dcsim_cpu_qty_name((dcsim_cpu_qty)q));
    for (size_t i = 0; i < b->n; i++) /* sorted by thread count by now */
      fprintf(L->report, " %u thread%s %s%s", rows[i].threads, rows[i].threads == 1 ? "" : "s",
              rows[i].value, i + 1 < b->n ? "," : "");
    fprintf(L->report, " %s\n", q == 0 ? "GFLOP/s" : "GB/s");
  }
out:
  free(rows);
  return rc;
}

/* machine.xml: one <table quantity="q" file="q.csv" source="..."> per written quantity, added
 * after the tables (or <frequencies>) or replacing that quantity's */
static int update_machine(const likwid_import *L, dcsim_error *err) {
  static const char *const names[2] = { "file", "source" };
  static const char *const files[5] = { "flops.csv", "L1.csv", "L2.csv", "L3.csv", "DRAM.csv" };
  const char *values[5][2];
  dcsim__xml_child_set sets[5];
  size_t n = 0;
  for (int q = 0; q < 5; q++)
    if (L->tab[q].n) {
      values[n][0] = files[q];
      values[n][1] = q == 0 ? "likwid-bench peakflops (dcsim calibrate import-likwid)"
                            : "likwid-bench (dcsim calibrate import-likwid)";
      sets[n] = (dcsim__xml_child_set){
        "table",   "quantity", dcsim_cpu_qty_name((dcsim_cpu_qty)q), "frequencies", names,
        values[n], 2
      };
      n++;
    }
  return dcsim__xml_edit_children(L->mpath, sets, n, err);
}

int dcsim_calib_import_likwid(const char *const *paths, size_t n_paths, const char *dir,
                              const char *test, const char *freq, FILE *report, dcsim_error *err) {
  likwid_import L = { .dir = dir, .test = test, .freq = freq, .report = report };
  int rc = 0;
  if (!(L.mpath = dcsim_path_in(dir, "machine.xml")))
    return DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  for (size_t i = 0; i < n_paths; i++)
    if ((rc = parse_likwid(paths[i], &L.runs, &L.nr, &L.cap, err))) goto out;
  if ((rc = read_machine(&L, err)) || (rc = check_families(&L, err)) || (rc = sort_runs(&L, err)))
    goto out;
  if (!L.used) {
    rc = DCSIM_ERR(err, DCSIM_EREF, paths[0], L.runs && L.nr ? L.runs[0].line : 1,
                   "no likwid-bench run to import%s%s", test ? " of test " : "", test ? test : "");
    goto out;
  }
  for (int q = 0; q < 5; q++)
    if (L.tab[q].n && (rc = write_quantity(&L, q, err))) goto out;
  if ((rc = update_machine(&L, err))) goto out;
  if (report)
    fprintf(report, "%zu run%s imported, %zu ignored (other tests, single precision); updated %s\n",
            L.used, L.used == 1 ? "" : "s", L.ignored, L.mpath);
out:
  dcsim__calib_machine_release(&L.m);
  for (int q = 0; q < 5; q++) best_free(&L.tab[q]);
  free(L.runs);
  free(L.mpath);
  return rc;
}
