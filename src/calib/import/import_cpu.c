/* import_cpu.c — calibration directories to CPU profiles (see dcsim/import_cpu.h,
 * doc/calibration.md). */
#include "dcsim/import_cpu.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calib/internal.h"
#include "dcsim/fit_perf.h"
#include "dcsim/import_template.h"
#include "dcsim/stats.h"
#include "input/internal.h"
#include "util/csv.h"
#include "util/fileio.h"
#include "util/xmlio.h"

typedef struct freq_state {
  const char *id;
} freq_state;

static void attr(FILE *f, const dcsim_xml_doc_t *doc, xmlNode *n, const char *name) {
  dcsim__xml_copy_attr(f, doc, n, name);
}

static int cmp_row(const void *a, const void *b) {
  const dcsim_calib_row *x = a, *y = b;
  return x->threads < y->threads ? -1 : x->threads > y->threads;
}

int dcsim__calib_write_table(const char *dir, const char *quantity, const char *freq_id,
                             const char *unit, dcsim_calib_row *rows, size_t n_rows,
                             const char *comment, dcsim_error *err) {
  char file[64];
  snprintf(file, sizeof file, "%s.csv", quantity);
  char *path = dcsim_path_in(dir, file), *buf = NULL;
  size_t len = 0;
  int rc = 0;
  FILE *f = path ? open_memstream(&buf, &len) : NULL;
  if (!f) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
    goto out;
  }
  qsort(rows, n_rows, sizeof *rows, cmp_row);
  for (const char *c = comment; c && *c;) {
    const char *nl = strchr(c, '\n');
    size_t l = nl ? (size_t)(nl - c) : strlen(c);
    fprintf(f, "# %.*s\n", (int)l, c);
    c += l + (nl != NULL);
  }
  fputs("frequency,threads,value,unit,source\n", f);
  for (size_t i = 0; i < n_rows; i++) {
    dcsim__csv_write_cell(f, freq_id);
    fprintf(f, ",%u,", rows[i].threads);
    dcsim__csv_write_cell(f, rows[i].value);
    fputc(',', f);
    dcsim__csv_write_cell(f, unit);
    fputc(',', f);
    dcsim__csv_write_cell(f, rows[i].source);
    fputc('\n', f);
  }
  if (fclose(f) != 0) {
    f = NULL;
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  f = NULL;
  rc = dcsim__file_write_atomic(path, buf, err);
out:
  if (f) fclose(f);
  free(buf);
  free(path);
  return rc;
}

/* an optional column: index or (size_t)-1 */
static size_t opt_col(const dcsim_csv_t *t, const char *name) {
  size_t c;
  return dcsim__csv_col(t, name, &c, NULL) == 0 ? c : (size_t)-1;
}

/* The frequency states of machine.xml in order: ids, GHz, labels (borrowed from its document). */
typedef struct freq_ids {
  const char **ids;
  double *ghz;
  const char **labels; /* NULL for a plain state */
  size_t n;
} freq_ids;

/* What machine.xml's datasheet allows a table cell (doc/calibration.md "Plausibility"):
 * a figure that is 0 is absent and its check is not made. */
typedef struct cell_limits {
  unsigned cores_per_socket, sockets, threads_per_core; /* threads_per_core 0: not given (1) */
  unsigned hw_threads;   /* cores_per_socket x threads per core x sockets */
  double flop_per_cycle; /* <isa flop-per-cycle> of one core */
  double max_ghz;        /* the highest clock of <frequencies>, turbo included */
  double mem_peak_bps;   /* <memory peak-bps> of one socket */
  int scatter;           /* <perf-fit placement="scatter"> */
} cell_limits;

/* A flops cell may exceed threads x flop/cycle x the highest clock by this factor (timer and clock
 * rounding); a DRAM cell the memory peak of the sockets in use by FAR_DRAM (published tables pass
 * the peak by up to 29 %: D3.5 Table 37, working sets partly in the caches). */
#define NEAR_PEAK 1.10
#define FAR_DRAM  2.0

/* threads within the CPU's hardware threads */
static int check_threads(const char *path, int line, unsigned threads, const cell_limits *lim,
                         dcsim_error *err) {
  if (!lim || threads <= lim->hw_threads) return 0;
  return DCSIM_ERR(err, DCSIM_ERANGE, path, line,
                   "threads=%u: more than the %u hardware threads of machine.xml's <spec> (%u "
                   "cores per socket x %u thread%s per core%s x %u socket%s)",
                   threads, lim->hw_threads, lim->cores_per_socket,
                   lim->threads_per_core ? lim->threads_per_core : 1,
                   lim->threads_per_core > 1 ? "s" : "",
                   lim->threads_per_core ? "" : " (threads-per-core not given: one)", lim->sockets,
                   lim->sockets > 1 ? "s" : "");
}

/* A cell below a thousandth of the datasheet peak cannot be a measurement of it (a unit
 * off by 10^3 or more, a garbled digit); and any cell, with or without a datasheet figure, per core
 * in use and per cycle of the highest clock lies within [CELL_MIN_PER_CYCLE, CELL_MAX_PER_CYCLE]
 * flop or byte: the widest cores issue 32 double-precision flop/cycle (AVX-512 or SVE-512 with two
 * FMA units: Intel 64 and IA-32 Optimization Reference Manual, A64FX Microarchitecture Manual) and
 * load 128 to 192 B/cycle from L1; a DRAM cell with every core busy stays above 0.1 B/cycle (the
 * EPYC 7763's 204.8 GB/s over 64 cores at 3.5 GHz is 0.91). The bounds are those figures divided
 * and multiplied by about 10^3, as wide as the "below 1e-3 or above 10^3 of what the
 * datasheet allows". */
#define FAR_BELOW          1e-3
#define CELL_MIN_PER_CYCLE 1e-3
#define CELL_MAX_PER_CYCLE 1e3

/* A flops cell against threads x flop/cycle x the highest clock. */
static int check_flops_peak(const char *path, int line, const char *cell, const char *unit,
                            unsigned threads, double v, const cell_limits *lim, dcsim_error *err) {
  unsigned cores = lim->cores_per_socket * lim->sockets;
  if (threads < cores) cores = threads; /* SMT threads share their core's units */
  double peak = cores * lim->max_ghz * 1e9 * lim->flop_per_cycle;
  if (v > NEAR_PEAK * peak)
    return DCSIM_ERR(err, DCSIM_ERANGE, path, line,
                     "%s %s at %u threads is above the datasheet peak of the cores they use: %u "
                     "core%s x %g GHz (the highest <freq> of machine.xml) x %g flop/cycle (<isa "
                     "flop-per-cycle>) = %.4g GFLOP/s, which a measurement may pass by 10 %% at "
                     "most (a wrong unit or column? a turbo clock missing from <frequencies>?)",
                     cell, unit, threads, cores, cores > 1 ? "s" : "", lim->max_ghz,
                     lim->flop_per_cycle, peak / 1e9);
  if (v < FAR_BELOW * peak)
    return DCSIM_ERR(err, DCSIM_ERANGE, path, line,
                     "%s %s at %u threads is below a thousandth of the datasheet peak of the cores "
                     "they use: %u core%s x %g GHz (the highest <freq> of machine.xml) x %g "
                     "flop/cycle (<isa flop-per-cycle>) = %.4g GFLOP/s (a wrong unit or column?)",
                     cell, unit, threads, cores, cores > 1 ? "s" : "", lim->max_ghz,
                     lim->flop_per_cycle, peak / 1e9);
  return 0;
}

/* A DRAM cell against the memory peak of the sockets the threads use. */
static int check_dram_peak(const char *path, int line, const char *cell, const char *unit,
                           unsigned threads, double v, const cell_limits *lim, dcsim_error *err) {
  unsigned used =
      lim->scatter ? threads : (threads + lim->cores_per_socket - 1) / lim->cores_per_socket;
  if (used > lim->sockets) used = lim->sockets;
  double peak = used * lim->mem_peak_bps;
  if (v > FAR_DRAM * peak || v < FAR_BELOW * peak)
    return DCSIM_ERR(err, DCSIM_ERANGE, path, line,
                     "%s %s at %u threads is %s the datasheet memory peak of the %u socket%s they "
                     "use (%s placement): %u x %.5g GB/s (<memory peak-bps>) = %.4g GB/s (%s)",
                     cell, unit, threads,
                     v > FAR_DRAM * peak ? "more than twice" : "below a thousandth of", used,
                     used > 1 ? "s" : "", lim->scatter ? "scatter" : "compact", used,
                     lim->mem_peak_bps / 1e9, peak / 1e9,
                     v > FAR_DRAM * peak ? "a cache-sized working set, a wrong unit or column?"
                                         : "a wrong unit or column?");
  return 0;
}

int dcsim__calib_cell_per_cycle(const char *path, int line, const char *qty, const char *cell,
                                const char *unit, unsigned threads, unsigned cores, double ghz,
                                const char *ghz_from, double v, dcsim_error *err) {
  if (threads < cores) cores = threads;
  if (!(ghz > 0) || cores == 0) return 0;
  double per = v / (cores * ghz * 1e9);
  if (per >= CELL_MIN_PER_CYCLE && per <= CELL_MAX_PER_CYCLE) return 0;
  const char *what = strcmp(qty, "flops") == 0 ? "flop" : "byte";
  return DCSIM_ERR(err, DCSIM_ERANGE, path, line,
                   "%s%s%s at %u thread%s is %.3g %s per cycle of each core in use (%u core%s x "
                   "%g GHz, %s), outside the %g to %g of any CPU core (a wrong unit or column?)",
                   cell, *unit ? " " : "", unit, threads, threads > 1 ? "s" : "", per, what, cores,
                   cores > 1 ? "s" : "", ghz, ghz_from, CELL_MIN_PER_CYCLE, CELL_MAX_PER_CYCLE);
}

/* A cell against the datasheet peak: flops against threads x flop/cycle x the highest clock,
 * DRAM against the memory peak of the sockets the threads use (compact: filled one after the
 * other; scatter: spread); then every cell per core and cycle. v in flop/s or B/s. */
static int check_cell(const char *path, int line, const char *qty, const char *cell,
                      const char *unit, unsigned threads, double v, const cell_limits *lim,
                      dcsim_error *err) {
  if (!lim) return 0;
  int rc = 0;
  if (strcmp(qty, "flops") == 0 && lim->flop_per_cycle > 0 && lim->max_ghz > 0)
    rc = check_flops_peak(path, line, cell, unit, threads, v, lim, err);
  if (!rc && strcmp(qty, "DRAM") == 0 && lim->mem_peak_bps > 0)
    rc = check_dram_peak(path, line, cell, unit, threads, v, lim, err);
  if (!rc) /* at the highest <freq> of machine.xml */
    rc = dcsim__calib_cell_per_cycle(path, line, qty, cell, unit, threads,
                                     lim->cores_per_socket * lim->sockets, lim->max_ghz,
                                     "the highest <freq> of machine.xml", v, err);
  return rc;
}

/* The tables' cells collected for the parametric fit, and each table's source=. */
typedef struct cell_sink {
  dcsim_perf_obs *obs;
  size_t n, cap;
  const char *tsrc[DCSIM_CPU_NQTY];
} cell_sink;

/* One table CSV read by emit_table(): its rows, then the grid of thread counts x frequencies. */
typedef struct table_csv {
  const char *path, *qty, *unit; /* unit: the first row's, the same in every row */
  dcsim_csv_t *t;
  size_t cf, ct, cv, cu, cs; /* columns; cs (source) is optional: (size_t)-1 */
  size_t n;                  /* rows */
  unsigned *threads;         /* per row */
  const char *const *ids;    /* frequency ids of the manifest, n_ids of them */
  size_t n_ids;
  int *used_freq; /* per id: some row has it */
  unsigned *th;   /* nt distinct thread counts, ascending */
  size_t nt;
  size_t nf, col_of[256]; /* nf frequency columns: the id of each */
  int fcol[256];          /* per id: its column, -1 = unused */
  const char **cells;     /* nt x nf values */
  const char **rsrc;      /* per thread count: the source of its row */
  const cell_limits *lim; /* the datasheet's bounds */
} table_csv;

/* Columns, then every row checked: unit, threads, value > 0, a frequency of machine.xml. */
static int table_rows(table_csv *T, dcsim_error *err) {
  dcsim_csv_t *t = T->t;
  const char *path = T->path;
  int rc;
  T->cs = opt_col(t, "source");
  if ((rc = dcsim__csv_col(t, "frequency", &T->cf, err)) ||
      (rc = dcsim__csv_col(t, "threads", &T->ct, err)) ||
      (rc = dcsim__csv_col(t, "value", &T->cv, err)) ||
      (rc = dcsim__csv_col(t, "unit", &T->cu, err)))
    return rc;
  size_t n = T->n = dcsim__csv_rows(t);
  if (n == 0) return DCSIM_ERR(err, DCSIM_EPARSE, path, 0, "no rows");
  T->threads = calloc(n, sizeof *T->threads);
  T->used_freq = calloc(T->n_ids, sizeof *T->used_freq);
  if (!T->threads || !T->used_freq) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  const char *unit = T->unit = dcsim__csv_cell(t, 0, T->cu);
  int is_flops = strcmp(T->qty, "flops") == 0;
  if (is_flops ? strcmp(unit, "GFLOP/s") && strcmp(unit, "flop/s")
               : strcmp(unit, "GB/s") && strcmp(unit, "B/s"))
    return DCSIM_ERR(err, DCSIM_ERANGE, path, dcsim__csv_line(t, 0),
                     "unit '%s' does not fit quantity %s (%s)", unit, T->qty,
                     is_flops ? "GFLOP/s or flop/s" : "GB/s or B/s");
  for (size_t r = 0; r < n; r++) {
    if (strcmp(dcsim__csv_cell(t, r, T->cu), unit) != 0)
      return DCSIM_ERR(err, DCSIM_ERANGE, path, dcsim__csv_line(t, r),
                       "unit '%s' differs from the first row's '%s'", dcsim__csv_cell(t, r, T->cu),
                       unit);
    if ((rc = dcsim__csv_threads(t, r, T->ct, path, &T->threads[r], err)) ||
        (rc = check_threads(path, dcsim__csv_line(t, r), T->threads[r], T->lim, err)))
      return rc;
    double v;
    if ((rc = dcsim__csv_num(t, r, T->cv, &v, err))) return rc;
    if (!(v > 0))
      return DCSIM_ERR(err, DCSIM_ERANGE, path, dcsim__csv_line(t, r), "value must be positive");
    double scale = strcmp(unit, "GFLOP/s") == 0 || strcmp(unit, "GB/s") == 0 ? 1e9 : 1;
    if ((rc = check_cell(path, dcsim__csv_line(t, r), T->qty, dcsim__csv_cell(t, r, T->cv), unit,
                         T->threads[r], v * scale, T->lim, err)))
      return rc;
    size_t k = 0;
    while (k < T->n_ids && strcmp(T->ids[k], dcsim__csv_cell(t, r, T->cf)) != 0) k++;
    if (k == T->n_ids)
      return DCSIM_ERR(err, DCSIM_EREF, path, dcsim__csv_line(t, r),
                       "frequency '%s' is not a <freq id> of machine.xml",
                       dcsim__csv_cell(t, r, T->cf));
    T->used_freq[k] = 1;
  }
  return 0;
}

/* The grid: distinct thread counts ascending x the frequencies used, one value in every cell and
 * one source per thread count. */
static int table_grid(table_csv *T, dcsim_error *err) {
  dcsim_csv_t *t = T->t;
  const char *path = T->path;
  size_t n = T->n;
  unsigned *th = T->th = malloc(n * sizeof *th);
  if (!th) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  memcpy(th, T->threads, n * sizeof *th);
  qsort(th, n, sizeof *th, dcsim_cmp_uint);
  for (size_t i = 0; i < n; i++)
    if (T->nt == 0 || th[T->nt - 1] != th[i]) th[T->nt++] = th[i];
  size_t nt = T->nt;
  for (size_t k = 0; k < T->n_ids && k < 256; k++) {
    T->fcol[k] = T->used_freq[k] ? (int)T->nf : -1;
    if (T->used_freq[k]) T->col_of[T->nf++] = k;
  }
  size_t nf = T->nf;
  const char **cells = T->cells = calloc(nt * nf, sizeof *cells);
  const char **rsrc = T->rsrc = calloc(nt, sizeof *rsrc);
  if (!cells || !rsrc) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  for (size_t r = 0; r < n; r++) {
    size_t ti = 0;
    while (th[ti] != T->threads[r]) ti++;
    size_t k = 0;
    while (strcmp(T->ids[k], dcsim__csv_cell(t, r, T->cf)) != 0) k++;
    size_t ci = (size_t)T->fcol[k];
    if (cells[ti * nf + ci])
      return DCSIM_ERR(err, DCSIM_EPARSE, path, dcsim__csv_line(t, r),
                       "second value for threads=%u at frequency %s", T->threads[r], T->ids[k]);
    cells[ti * nf + ci] = dcsim__csv_cell(t, r, T->cv);
    const char *s = T->cs != (size_t)-1 ? dcsim__csv_cell(t, r, T->cs) : "";
    if (rsrc[ti] && strcmp(rsrc[ti], s) != 0)
      return DCSIM_ERR(err, DCSIM_EPARSE, path, dcsim__csv_line(t, r),
                       "source differs from the other cells of threads=%u (a row has one source)",
                       T->threads[r]);
    rsrc[ti] = s;
  }
  for (size_t ti = 0; ti < nt; ti++)
    for (size_t ci = 0; ci < nf; ci++)
      if (!cells[ti * nf + ci])
        return DCSIM_ERR(
            err, DCSIM_EPARSE, path, 0,
            "no value for threads=%u at frequency %s (every thread count needs every frequency)",
            th[ti], T->ids[T->col_of[ci]]);
  return 0;
}

/* The <table> element of the grid. */
static void table_xml(FILE *f, const table_csv *T, const dcsim_xml_doc_t *doc, xmlNode *tn) {
  size_t nf = T->nf;
  fprintf(f, "  <table quantity=\"%s\" unit=\"", T->qty);
  dcsim__xml_escape(f, T->unit);
  fputs("\" freqs=\"", f);
  for (size_t ci = 0; ci < nf; ci++) fprintf(f, "%s%s", ci ? " " : "", T->ids[T->col_of[ci]]);
  fputc('"', f);
  attr(f, doc, tn, "source");
  fputs(">\n", f);
  for (size_t ti = 0; ti < T->nt; ti++) {
    fprintf(f, "    <row threads=\"%u\"", T->th[ti]);
    if (T->rsrc[ti] && *T->rsrc[ti]) {
      fputs(" source=\"", f);
      dcsim__xml_escape(f, T->rsrc[ti]);
      fputc('"', f);
    }
    fputc('>', f);
    for (size_t ci = 0; ci < nf; ci++) fprintf(f, "%s%s", ci ? " " : "", T->cells[ti * nf + ci]);
    fputs("</row>\n", f);
  }
  fputs("  </table>\n", f);
}

/* The grid's cells as numbers for the parametric fit: plain frequencies and the turbo state (other
 * labelled states have no clock to fit against). */
static int table_cells(const table_csv *T, int q, const freq_ids *fr, cell_sink *sink,
                       dcsim_error *err) {
  double scale = strcmp(T->unit, "GFLOP/s") == 0 || strcmp(T->unit, "GB/s") == 0 ? 1e9 : 1;
  for (size_t ti = 0; ti < T->nt; ti++)
    for (size_t ci = 0; ci < T->nf; ci++) {
      size_t k = T->col_of[ci];
      int turbo = fr->labels[k] && strcmp(fr->labels[k], "turbo") == 0;
      if (fr->labels[k] && !turbo) continue;
      double v;
      if (dcsim_parse_double(T->cells[ti * T->nf + ci], &v) != 0)
        return DCSIM_ERR(err, DCSIM_EPARSE, T->path, 0, "value '%s' is not a number",
                         T->cells[ti * T->nf + ci]);
      if (DCSIM_GROW(sink->obs, sink->cap, sink->n + 1))
        return DCSIM_ERR(err, DCSIM_ENOMEM, T->path, 0, "out of memory");
      sink->obs[sink->n++] =
          (dcsim_perf_obs){ (dcsim_cpu_qty)q, turbo ? 0 : fr->ghz[k], turbo, T->th[ti], v * scale };
    }
  return 0;
}

/* One <table> from its CSV, its cells into sink. fr: the frequency states of the manifest. */
static int emit_table(FILE *f, const char *dir, const dcsim_xml_doc_t *doc, xmlNode *tn, int q,
                      const freq_ids *fr, const cell_limits *lim, cell_sink *sink,
                      dcsim_error *err) {
  table_csv T = {
    .qty = dcsim__xml_attr(doc, tn, "quantity"), .ids = fr->ids, .n_ids = fr->n, .lim = lim
  };
  int rc = 0;
  char *path = dcsim_path_in(dir, dcsim__xml_attr(doc, tn, "file"));
  if (!path) return DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  T.path = path;
  if ((rc = dcsim__csv_load(path, &T.t, err)) || (rc = table_rows(&T, err)) ||
      (rc = table_grid(&T, err)) || (rc = table_cells(&T, q, fr, sink, err)))
    goto out;
  table_xml(f, &T, doc, tn);
  sink->tsrc[q] = dcsim__xml_attr(doc, tn, "source");
out:
  free(T.cells);
  free(T.rsrc);
  free(T.th);
  free(T.threads);
  free(T.used_freq);
  dcsim__csv_free(T.t);
  free(path);
  return rc;
}

/* The <energy> element of the states. */
static void energy_xml(FILE *f, const dcsim__power_table *P, const dcsim_xml_doc_t *doc,
                       xmlNode *en) {
  const dcsim__power_state *rows = P->states;
  fputs("  <energy", f);
  attr(f, doc, en, "freq");
  attr(f, doc, en, "other-frequencies");
  attr(f, doc, en, "borrowed-from");
  attr(f, doc, en, "source");
  fputs(">\n", f);
  for (size_t k = 0; k < P->n_states; k++) {
    if (rows[k].idle)
      fputs("    <idle pkg-w=\"", f);
    else
      fprintf(f, "    <state cores=\"%u\" pkg-w=\"", rows[k].cores);
    dcsim__xml_escape(f, rows[k].pkg); /* the cells as written (one escaping) */
    fputs("\" dram-w=\"", f);
    dcsim__xml_escape(f, rows[k].dram);
    fputc('"', f);
    if (*rows[k].source) {
      fputs(" source=\"", f);
      dcsim__xml_escape(f, rows[k].source);
      fputc('"', f);
    }
    fputs("/>\n", f);
  }
  fputs("  </energy>\n", f);
}

/* A power state's core count within the hardware threads of machine.xml (ctx: its cell_limits). */
static int power_cores_ok(const void *ctx, const char *path, int line, unsigned cores,
                          dcsim_error *err) {
  return check_threads(path, line, cores, ctx, err);
}

/* The power table (input/power_table.c, checked against the limits) as <energy>. */
static int emit_energy(FILE *f, const char *dir, const dcsim_xml_doc_t *doc, xmlNode *en,
                       const cell_limits *lim, dcsim_error *err) {
  char *path = dcsim_path_in(dir, dcsim__xml_attr(doc, en, "file"));
  if (!path) return DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  dcsim__power_table P;
  int rc =
      dcsim__power_table_load(path, dcsim__xml_attr(doc, en, "freq"), power_cores_ok, lim, &P, err);
  if (!rc) energy_xml(f, &P, doc, en);
  dcsim__power_table_free(&P);
  free(path);
  return rc;
}

/* The generated-file comment (with machine.xml's <comment>), <cpu-profile> and its <spec>. */
static int profile_head(FILE *f, const char *dir, const char *mpath, const dcsim_xml_doc_t *doc,
                        xmlNode *root, dcsim_error *err) {
  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
  size_t dl = strlen(dir);
  while (dl > 1 && dir[dl - 1] == '/') dl--; /* the directory as it was given */
  char *shown = strndup(dir, dl);
  if (!shown) return DCSIM_ERR(err, DCSIM_ENOMEM, mpath, 0, "out of memory");
  fputs("<!-- GENERATED by \"dcsim calibrate cpu ", f);
  dcsim__xml_comment_text(f, shown); /* the directory used, "--" made safe for a comment */
  free(shown);
  fputs(
      "\" from the tables of that directory\n"
      "     (doc/calibration.md); do not edit by hand: edit them and re-run it.",
      f);
  xmlNode *cm = dcsim__xml_child(root, "comment");
  if (cm) {
    xmlChar *c = xmlNodeGetContent(cm);
    if (!c) return DCSIM_ERR(err, DCSIM_ENOMEM, mpath, 0, "out of memory");
    if (strstr((const char *)c, "--")) {
      xmlFree(c);
      return DCSIM_XML_ERR(err, DCSIM_EPARSE, doc, cm,
                           "<comment>: must not contain \"--\" (it becomes an XML comment)");
    }
    fprintf(f, "\n\n     %s", (const char *)c);
    xmlFree(c);
  }
  fputs(" -->\n<cpu-profile", f);
  attr(f, doc, root, "name");
  attr(f, doc, root, "model");
  attr(f, doc, root, "microarch");
  fputs(">\n  <spec", f);
  xmlNode *spec = dcsim__xml_child(root, "spec");
  const char *spec_attrs[] = { "cores-per-socket", "sockets", "nominal-ghz", "l1-byte",
                               "l2-byte",          "l3-byte", "isa",         "source" };
  for (size_t i = 0; i < sizeof spec_attrs / sizeof *spec_attrs; i++)
    attr(f, doc, spec, spec_attrs[i]);
  fputs("/>\n", f);
  return 0;
}

/* "<name a1=... a2=.../>" with the attributes node has among attrs, on a line of its own. */
static void copy_element(FILE *f, const char *indent, const char *name, const dcsim_xml_doc_t *doc,
                         xmlNode *node, const char *const *attrs, size_t n) {
  fprintf(f, "%s<%s", indent, name);
  for (size_t i = 0; i < n; i++) attr(f, doc, node, attrs[i]);
  fputs("/>\n", f);
}

static const char *const meas_attrs[] = { "level",        "one-core-bps", "ghz",   "socket-bps",
                                          "socket-cores", "basis",        "source" };

/* <price> copied as it is, after <spec>, when the machine has one. */
static void profile_price(FILE *f, const dcsim_xml_doc_t *doc, xmlNode *root) {
  static const char *const price_attrs[] = { "usd", "date", "source" };
  xmlNode *pn = dcsim__xml_child(root, "price");
  if (pn) copy_element(f, "  ", "price", doc, pn, price_attrs, 3);
}

/* <datasheet> copied as it is; its figures into ds (sources borrowed from the document). */
static int profile_datasheet(FILE *f, const dcsim_xml_doc_t *doc, xmlNode *root,
                             dcsim_cpu_datasheet *ds, dcsim_error *err) {
  static const char *const isa_attrs[] = { "flop-per-cycle", "source" };
  static const char *const mem_attrs[] = { "peak-bps", "sustained-bps", "source" };
  xmlNode *dn = dcsim__xml_child(root, "datasheet");
  if (!dn) return 0;
  xmlNode *isa = dcsim__xml_child(dn, "isa"), *mem = dcsim__xml_child(dn, "memory");
  int rc;
  if ((isa &&
       (rc = dcsim__xml_double(doc, isa, "flop-per-cycle", 1, &ds->isa_flop_per_cycle, err))) ||
      (mem &&
       ((rc = dcsim__xml_double(doc, mem, "peak-bps", 1, &ds->mem_peak_bps, err)) ||
        (rc = dcsim__xml_double(doc, mem, "sustained-bps", 0, &ds->mem_sustained_bps, err)))))
    return rc;
  fputs("  <datasheet>\n", f);
  if (isa) {
    ds->isa_source = dcsim__xml_attr(doc, isa, "source");
    copy_element(f, "    ", "isa", doc, isa, isa_attrs, 2);
  }
  if (mem) {
    ds->mem_source = dcsim__xml_attr(doc, mem, "source");
    copy_element(f, "    ", "memory", doc, mem, mem_attrs, 3);
  }
  for (xmlNode *m = dn->children; m; m = m->next) {
    if (m->type != XML_ELEMENT_NODE || !xmlStrEqual(m->name, BAD_CAST "measured")) continue;
    int q;
    if ((rc = dcsim__cpu_measured_parse(doc, m, ds->measured, &q, err))) return rc;
    copy_element(f, "    ", "measured", doc, m, meas_attrs, 7);
  }
  fputs("  </datasheet>\n", f);
  return 0;
}

/* <frequencies>, and their ids, GHz and labels into fr (caller frees the arrays). */
static int profile_freqs(FILE *f, const char *mpath, const dcsim_xml_doc_t *doc, xmlNode *root,
                         freq_ids *fr, dcsim_error *err) {
  fputs("  <frequencies>\n", f);
  xmlNode *fq = dcsim__xml_child(root, "frequencies");
  size_t nf = dcsim__xml_count(fq, "freq");
  fr->ids = calloc(nf ? nf : 1, sizeof *fr->ids);
  fr->labels = calloc(nf ? nf : 1, sizeof *fr->labels);
  fr->ghz = calloc(nf ? nf : 1, sizeof *fr->ghz);
  if (!fr->ids || !fr->labels || !fr->ghz)
    return DCSIM_ERR(err, DCSIM_ENOMEM, mpath, 0, "out of memory");
  int rc;
  for (xmlNode *q = dcsim__xml_child(fq, "freq"); q; q = dcsim__xml_next(q, "freq")) {
    size_t k = fr->n;
    fr->ids[k] = dcsim__xml_attr(doc, q, "id");
    fr->labels[k] = dcsim__xml_attr(doc, q, "label");
    if ((rc = dcsim__xml_double(doc, q, "ghz", 1, &fr->ghz[k], err))) return rc;
    for (size_t j = 0; j < k; j++)
      if (strcmp(fr->ids[j], fr->ids[k]) == 0)
        return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, q, "<freq id=\"%s\">: id given twice",
                             fr->ids[k]);
    fr->n++;
    static const char *const freq_attrs[] = { "id", "ghz", "label", "source" };
    copy_element(f, "    ", "freq", doc, q, freq_attrs, 4);
  }
  fputs("  </frequencies>\n", f);
  return 0;
}

/* The tables (flops, L1..DRAM, each at most once), their cells into sink. */
static int profile_tables(FILE *f, const char *dir, const dcsim_xml_doc_t *doc, xmlNode *root,
                          const freq_ids *fr, const cell_limits *lim, cell_sink *sink,
                          dcsim_error *err) {
  int rc;
  for (int q = 0; q < 5; q++) {
    xmlNode *found = NULL;
    for (xmlNode *tn = dcsim__xml_child(root, "table"); tn; tn = dcsim__xml_next(tn, "table")) {
      if (strcmp(dcsim__xml_attr(doc, tn, "quantity"), dcsim_cpu_qty_name((dcsim_cpu_qty)q)) != 0)
        continue;
      if (found)
        return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, tn, "<table quantity=\"%s\">: given twice",
                             dcsim_cpu_qty_name((dcsim_cpu_qty)q));
      found = tn;
    }
    if (found && (rc = emit_table(f, dir, doc, found, q, fr, lim, sink, err))) return rc;
  }
  return 0;
}

/* The power table of the profile. */
static int profile_energy(FILE *f, const char *dir, const dcsim_xml_doc_t *doc, xmlNode *root,
                          const freq_ids *fr, const cell_limits *lim, dcsim_error *err) {
  xmlNode *en = dcsim__xml_child(root, "energy");
  if (en) {
    const char *ef = dcsim__xml_attr(doc, en, "freq");
    size_t j = 0;
    while (j < fr->n && strcmp(fr->ids[j], ef) != 0) j++;
    if (j == fr->n)
      return DCSIM_XML_ERR(err, DCSIM_EREF, doc, en, "<energy freq=\"%s\">: unknown frequency id",
                           ef);
    int rc = emit_energy(f, dir, doc, en, lim, err);
    if (rc) return rc;
  }
  return dcsim__calib_emit_power(f, dir, doc, root, err); /* reads the table itself (input/) */
}

/* The bounds of the cells from <spec>, <datasheet>, <frequencies> and <perf-fit placement>. */
static int gen_limits(const dcsim_xml_doc_t *doc, xmlNode *root, const freq_ids *fr,
                      const dcsim_cpu_datasheet *ds, cell_limits *lim, dcsim_error *err) {
  xmlNode *spec = dcsim__xml_child(root, "spec"), *pf = dcsim__xml_child(root, "perf-fit");
  memset(lim, 0, sizeof *lim);
  int rc;
  if ((rc = dcsim__xml_u32(doc, spec, "cores-per-socket", 1, &lim->cores_per_socket, err)) ||
      (rc = dcsim__xml_u32(doc, spec, "sockets", 1, &lim->sockets, err)) ||
      (rc = dcsim__xml_u32(doc, spec, "threads-per-core", 0, &lim->threads_per_core, err)))
    return rc;
  double hw = (double)lim->cores_per_socket * lim->sockets *
              (lim->threads_per_core ? lim->threads_per_core : 1);
  if (hw < 1 || hw > 1000000)
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, spec,
                         "<spec>: cores-per-socket x threads-per-core x sockets = %.0f hardware "
                         "threads (1 to 1000000)",
                         hw);
  lim->hw_threads = (unsigned)hw;
  lim->flop_per_cycle = ds->isa_flop_per_cycle;
  lim->mem_peak_bps = ds->mem_peak_bps;
  for (size_t k = 0; k < fr->n; k++)
    if (fr->ghz[k] > lim->max_ghz) lim->max_ghz = fr->ghz[k];
  const char *pl = pf ? dcsim__xml_attr(doc, pf, "placement") : NULL;
  lim->scatter = pl && strcmp(pl, "scatter") == 0;
  return 0;
}

/* One calibration directory turned into a profile: its document, cells, fit and reference. */
typedef struct cpu_gen {
  char *mpath;
  dcsim_xml_doc_t *doc;
  freq_ids fr;
  cell_sink sink;
  dcsim_cpu_datasheet ds;
  struct cpu_gen *ref;
  dcsim_perf_fit *fit; /* NULL: no parametric model */
} cpu_gen;

static void gen_release(cpu_gen *g) {
  if (!g) return;
  if (g->ref) {
    gen_release(g->ref);
    free(g->ref);
  }
  free(g->fit);
  free(g->sink.obs);
  free(g->fr.ids);
  free(g->fr.labels);
  free(g->fr.ghz);
  dcsim__xml_free(g->doc);
  free(g->mpath);
}

static int gen_run(const char *dir, int depth, FILE *f, FILE *report, cpu_gen *g, dcsim_error *err);

/* <perf-fit>: placement and the reference directory (generated first, depth-limited). */
static int gen_reference(const char *dir, int depth, cpu_gen *g, xmlNode *pf, int *scatter,
                         dcsim_error *err) {
  const char *pl = dcsim__xml_attr(g->doc, pf, "placement"), *ref = NULL;
  *scatter = pl && strcmp(pl, "scatter") == 0;
  ref = dcsim__xml_attr(g->doc, pf, "reference");
  if (!ref) return 0;
  if (depth >= 4)
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, g->doc, pf,
                         "<perf-fit reference>: more than 4 references in a chain");
  char *rdir = ref[0] == '/' ? dcsim_strdup(ref) : dcsim_path_in(dir, ref), *buf = NULL;
  size_t len = 0;
  FILE *sink = open_memstream(&buf, &len);
  int rc = 0;
  if (!rdir || !sink || !(g->ref = calloc(1, sizeof *g->ref))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  } else if ((rc = gen_run(rdir, depth + 1, sink, NULL, g->ref, err))) {
    if (ref[0] == '/')
      dcsim_error_prefix(err, "reference %s of %s", ref, g->mpath);
    else /* a copied directory breaks relative references; say which path to fix */
      dcsim_error_prefix(err,
                         "reference %s of %s (a relative reference= is resolved against the "
                         "directory of that machine.xml, %s: fix <perf-fit reference> there)",
                         ref, g->mpath, dir);
  } else if (!g->ref->fit) {
    rc = DCSIM_XML_ERR(err, DCSIM_EREF, g->doc, pf,
                       "<perf-fit reference=\"%s\">: that directory has no parametric model", ref);
  }
  if (sink) fclose(sink);
  free(buf);
  free(rdir);
  return rc;
}

/* <perf-fit><turbo>: published clocks per active cores of a socket, the model's turbo
 * bins with their own sources; refused beside bins read off a turbo column of the peak table. */
static int published_turbo(cpu_gen *g, xmlNode *pf, dcsim_error *err) {
  dcsim_cpu_perf_model *pm = &g->fit->model;
  for (xmlNode *t = dcsim__xml_child(pf, "turbo"); t; t = dcsim__xml_next(t, "turbo")) {
    if (pm->n_turbo && !g->fit->turbo_bin_src[0])
      return DCSIM_XML_ERR(err, DCSIM_EREF, g->doc, t,
                           "<turbo>: the peak table's turbo column already gives the clock per "
                           "active cores; give one or the other");
    dcsim_cpu_turbo_bin b;
    int rc;
    if ((rc = dcsim__xml_u32(g->doc, t, "cores", 1, &b.cores, err)) ||
        (rc = dcsim__xml_double(g->doc, t, "ghz", 1, &b.ghz, err)))
      return rc;
    if (pm->n_turbo == DCSIM_CPU_MAX_TURBO_BINS || !(b.ghz > 0) ||
        b.cores > g->fit->machine.cores_per_socket ||
        (pm->n_turbo && b.cores <= pm->turbo[pm->n_turbo - 1].cores))
      return DCSIM_XML_ERR(err, DCSIM_ERANGE, g->doc, t,
                           "<turbo cores=\"%u\">: cores must increase from bin to bin up to the "
                           "cores of a socket (%u), ghz be positive, at most %d bins",
                           b.cores, g->fit->machine.cores_per_socket, DCSIM_CPU_MAX_TURBO_BINS);
    g->fit->turbo_bin_src[pm->n_turbo] = dcsim__xml_attr(g->doc, t, "source");
    pm->turbo[pm->n_turbo++] = b;
  }
  return 0;
}

/* The parametric model of the directory: fitted to its cells, the rest from its datasheet and
 * reference (dcsim/fit_perf.h); none for an energy-only directory. */
static int gen_fit(const char *dir, int depth, cpu_gen *g, FILE *f, FILE *report,
                   dcsim_error *err) {
  xmlNode *root = dcsim__xml_root(g->doc), *pf = dcsim__xml_child(root, "perf-fit");
  xmlNode *spec = dcsim__xml_child(root, "spec");
  int scatter = 0, rc;
  if (!g->sink.n && !dcsim__xml_child(root, "datasheet") && !pf) return 0; /* energy only */
  if (pf && (rc = gen_reference(dir, depth, g, pf, &scatter, err))) return rc;
  dcsim_perf_machine m = { .name = dcsim__xml_attr(g->doc, root, "name"),
                           .scatter = scatter,
                           .ds = g->ds };
  if ((rc = dcsim__xml_u32(g->doc, spec, "cores-per-socket", 1, &m.cores_per_socket, err)) ||
      (rc = dcsim__xml_u32(g->doc, spec, "sockets", 1, &m.sockets, err)) ||
      (rc = dcsim__xml_double(g->doc, spec, "nominal-ghz", 1, &m.nominal_ghz, err)))
    return rc;
  if (m.cores_per_socket == 0 || m.sockets == 0 || !(m.nominal_ghz > 0))
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, g->doc, spec,
                         "<spec>: cores-per-socket, sockets and nominal-ghz must be positive");
  memcpy(m.table_source, g->sink.tsrc, sizeof m.table_source);
  if (!(g->fit = malloc(sizeof *g->fit)))
    return DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  if ((rc = dcsim_perf_fit_run(&m, g->sink.obs, g->sink.n, g->ref ? g->ref->fit : NULL, g->fit,
                               err))) {
    dcsim_error_at(err, g->mpath, (int)xmlGetLineNo(pf ? pf : root));
    return rc;
  }
  if (pf && (rc = published_turbo(g, pf, err))) return rc;
  dcsim_perf_fit_xml(f, g->fit);
  if (report) dcsim_perf_fit_report(g->fit, report);
  return 0;
}

/* machine.xml of dir and its tables into the profile text written to f. */
static int gen_run(const char *dir, int depth, FILE *f, FILE *report, cpu_gen *g,
                   dcsim_error *err) {
  int rc;
  cell_limits lim;
  if (!(g->mpath = dcsim_path_in(dir, "machine.xml")))
    return DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  /* a skeleton of `calibrate cpu --template` still holding FILL makes no profile */
  if ((rc = dcsim_calib_cpu_unfilled(dir, NULL, err))) return rc;
  if ((rc = dcsim__xml_load(g->mpath, "calibration-machine", &g->doc, err))) return rc;
  xmlNode *root = dcsim__xml_root(g->doc);
  if ((rc = profile_head(f, dir, g->mpath, g->doc, root, err)) ||
      (profile_price(f, g->doc, root), 0) ||
      (rc = profile_datasheet(f, g->doc, root, &g->ds, err)) ||
      (rc = profile_freqs(f, g->mpath, g->doc, root, &g->fr, err)) ||
      (rc = gen_limits(g->doc, root, &g->fr, &g->ds, &lim, err)) ||
      (rc = profile_tables(f, dir, g->doc, root, &g->fr, &lim, &g->sink, err)) ||
      (rc = gen_fit(dir, depth, g, f, report, err)) ||
      (rc = profile_energy(f, dir, g->doc, root, &g->fr, &lim, err)))
    return rc;
  fputs("</cpu-profile>\n", f);
  return 0;
}

int dcsim_calib_cpu_profile_report(const char *dir, char **text, FILE *report, dcsim_error *err) {
  cpu_gen g;
  memset(&g, 0, sizeof g);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  int rc = f ? gen_run(dir, 0, f, report, &g, err)
             : DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  if (f && fclose(f) != 0 && !rc) rc = DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  if (!rc) {
    *text = buf;
    buf = NULL;
  }
  free(buf);
  gen_release(&g);
  return rc;
}

int dcsim_calib_cpu_profile(const char *dir, char **text, dcsim_error *err) {
  return dcsim_calib_cpu_profile_report(dir, text, NULL, err);
}
