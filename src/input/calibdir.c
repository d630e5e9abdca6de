/* calibdir.c — what `dcsim calibrate` finds in a calibration directory (its one DWARF-runs.csv,
 * its machine's name: dcsim/calibdir.h) and its per-quantity tables (flops.csv, L1.csv .. DRAM.csv,
 * named by machine.xml's <table file>) read and checked against machine.xml's datasheet (see
 * input/internal.h, doc/calibration.md "Plausibility"). The one reader of the tables:
 * calib/import/import_cpu.c composes a profile's <table> and the parametric fit's cells from what
 * it returns; the per-cycle rule is shared with the importers of likwid-bench and Kerncraft output
 * and with `bench --from`. */
#include "dcsim/calibdir.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/stats.h"
#include "dcsim/strutil.h"
#include "input/internal.h"
#include "util/csv.h"
#include "util/xmlio.h"

/* A flops cell may exceed threads x flop/cycle x the highest clock by this factor (timer and clock
 * rounding); a DRAM cell the memory peak of the sockets in use by FAR_DRAM (published tables pass
 * the peak by up to 29 %: D3.5 Table 37, working sets partly in the caches). */
#define NEAR_PEAK 1.10
#define FAR_DRAM  2.0

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

int dcsim__calibdir_threads_ok(const char *path, int line, unsigned threads,
                               const dcsim__calibdir_limits *lim, dcsim_error *err) {
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

/* A flops cell against threads x flop/cycle x the highest clock. */
static int check_flops_peak(const char *path, int line, const char *cell, const char *unit,
                            unsigned threads, double v, const dcsim__calibdir_limits *lim,
                            dcsim_error *err) {
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
                           unsigned threads, double v, const dcsim__calibdir_limits *lim,
                           dcsim_error *err) {
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

int dcsim__calibdir_cell_per_cycle(const char *path, int line, const char *qty, const char *cell,
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
                      const char *unit, unsigned threads, double v,
                      const dcsim__calibdir_limits *lim, dcsim_error *err) {
  if (!lim) return 0;
  int rc = 0;
  if (strcmp(qty, "flops") == 0 && lim->flop_per_cycle > 0 && lim->max_ghz > 0)
    rc = check_flops_peak(path, line, cell, unit, threads, v, lim, err);
  if (!rc && strcmp(qty, "DRAM") == 0 && lim->mem_peak_bps > 0)
    rc = check_dram_peak(path, line, cell, unit, threads, v, lim, err);
  if (!rc) /* at the highest <freq> of machine.xml */
    rc = dcsim__calibdir_cell_per_cycle(path, line, qty, cell, unit, threads,
                                        lim->cores_per_socket * lim->sockets, lim->max_ghz,
                                        "the highest <freq> of machine.xml", v, err);
  return rc;
}

/* What the reader needs besides the table: its columns and, per row, its thread count and
 * frequency (the index of its id). */
typedef struct table_read {
  dcsim__calibdir_table *T;
  const char *const *ids;
  size_t n_ids;
  const dcsim__calibdir_limits *lim;
  size_t cf, ct, cv, cu, cs; /* columns; cs (source) is optional: (size_t)-1 */
  size_t n;                  /* rows */
  unsigned *threads;         /* per row */
  size_t *freq;              /* per row: index into ids */
  int *fcol;                 /* per id: its column, -1 = unused */
} table_read;

/* Columns, then every row checked: unit, threads, value > 0, a frequency of machine.xml. */
static int table_rows(table_read *R, dcsim_error *err) {
  dcsim__calibdir_table *T = R->T;
  dcsim_csv_t *t = T->csv;
  const char *path = T->path;
  int rc;
  if (dcsim__csv_col(t, "source", &R->cs, NULL) != 0) R->cs = (size_t)-1;
  if ((rc = dcsim__csv_col(t, "frequency", &R->cf, err)) ||
      (rc = dcsim__csv_col(t, "threads", &R->ct, err)) ||
      (rc = dcsim__csv_col(t, "value", &R->cv, err)) ||
      (rc = dcsim__csv_col(t, "unit", &R->cu, err)))
    return rc;
  size_t n = R->n = dcsim__csv_rows(t);
  if (n == 0) return DCSIM_ERR(err, DCSIM_EPARSE, path, 0, "no rows");
  R->threads = calloc(n, sizeof *R->threads);
  R->freq = calloc(n, sizeof *R->freq);
  R->fcol = malloc((R->n_ids ? R->n_ids : 1) * sizeof *R->fcol);
  if (!R->threads || !R->freq || !R->fcol)
    return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  for (size_t k = 0; k < R->n_ids; k++) R->fcol[k] = -1;
  const char *unit = T->unit = dcsim__csv_cell(t, 0, R->cu);
  int is_flops = strcmp(T->qty, "flops") == 0;
  if (is_flops ? strcmp(unit, "GFLOP/s") && strcmp(unit, "flop/s")
               : strcmp(unit, "GB/s") && strcmp(unit, "B/s"))
    return DCSIM_ERR(err, DCSIM_ERANGE, path, dcsim__csv_line(t, 0),
                     "unit '%s' does not fit quantity %s (%s)", unit, T->qty,
                     is_flops ? "GFLOP/s or flop/s" : "GB/s or B/s");
  T->scale = strcmp(unit, "GFLOP/s") == 0 || strcmp(unit, "GB/s") == 0 ? 1e9 : 1;
  for (size_t r = 0; r < n; r++) {
    int line = dcsim__csv_line(t, r);
    if (strcmp(dcsim__csv_cell(t, r, R->cu), unit) != 0)
      return DCSIM_ERR(err, DCSIM_ERANGE, path, line, "unit '%s' differs from the first row's '%s'",
                       dcsim__csv_cell(t, r, R->cu), unit);
    if ((rc = dcsim__csv_threads(t, r, R->ct, path, &R->threads[r], err)) ||
        (rc = dcsim__calibdir_threads_ok(path, line, R->threads[r], R->lim, err)))
      return rc;
    double v;
    if ((rc = dcsim__csv_num(t, r, R->cv, &v, err))) return rc;
    if (!(v > 0)) return DCSIM_ERR(err, DCSIM_ERANGE, path, line, "value must be positive");
    if ((rc = check_cell(path, line, T->qty, dcsim__csv_cell(t, r, R->cv), unit, R->threads[r],
                         v * T->scale, R->lim, err)))
      return rc;
    size_t k = 0;
    while (k < R->n_ids && strcmp(R->ids[k], dcsim__csv_cell(t, r, R->cf)) != 0) k++;
    if (k == R->n_ids)
      return DCSIM_ERR(err, DCSIM_EREF, path, line,
                       "frequency '%s' is not a <freq id> of machine.xml",
                       dcsim__csv_cell(t, r, R->cf));
    R->freq[r] = k;
    R->fcol[k] = 0; /* used; numbered by table_grid */
  }
  return 0;
}

/* The grid: distinct thread counts ascending x the frequencies used, one value in every cell and
 * one source per thread count. */
static int table_grid(table_read *R, dcsim_error *err) {
  dcsim__calibdir_table *T = R->T;
  dcsim_csv_t *t = T->csv;
  const char *path = T->path;
  size_t n = R->n;
  unsigned *th = T->th = malloc(n * sizeof *th);
  T->freq_of = malloc((R->n_ids ? R->n_ids : 1) * sizeof *T->freq_of);
  if (!th || !T->freq_of) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  memcpy(th, R->threads, n * sizeof *th);
  qsort(th, n, sizeof *th, dcsim_cmp_uint);
  for (size_t i = 0; i < n; i++)
    if (T->nt == 0 || th[T->nt - 1] != th[i]) th[T->nt++] = th[i];
  size_t nt = T->nt;
  for (size_t k = 0; k < R->n_ids; k++)
    if (R->fcol[k] >= 0) {
      R->fcol[k] = (int)T->nf;
      T->freq_of[T->nf++] = k;
    }
  size_t nf = T->nf;
  const char **cells = T->cells = calloc(nt * nf, sizeof *cells);
  const char **rsrc = T->row_source = calloc(nt, sizeof *rsrc);
  if (!cells || !rsrc) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  for (size_t r = 0; r < n; r++) {
    size_t ti = 0;
    while (th[ti] != R->threads[r]) ti++;
    size_t k = R->freq[r], ci = (size_t)R->fcol[k];
    if (cells[ti * nf + ci])
      return DCSIM_ERR(err, DCSIM_EPARSE, path, dcsim__csv_line(t, r),
                       "second value for threads=%u at frequency %s", R->threads[r], R->ids[k]);
    cells[ti * nf + ci] = dcsim__csv_cell(t, r, R->cv);
    const char *s = R->cs != (size_t)-1 ? dcsim__csv_cell(t, r, R->cs) : "";
    if (rsrc[ti] && strcmp(rsrc[ti], s) != 0)
      return DCSIM_ERR(err, DCSIM_EPARSE, path, dcsim__csv_line(t, r),
                       "source differs from the other cells of threads=%u (a row has one source)",
                       R->threads[r]);
    rsrc[ti] = s;
  }
  for (size_t ti = 0; ti < nt; ti++)
    for (size_t ci = 0; ci < nf; ci++)
      if (!cells[ti * nf + ci])
        return DCSIM_ERR(
            err, DCSIM_EPARSE, path, 0,
            "no value for threads=%u at frequency %s (every thread count needs every frequency)",
            th[ti], R->ids[T->freq_of[ci]]);
  return 0;
}

int dcsim__calibdir_table_load(const char *path, const char *qty, const char *const *ids,
                               size_t n_ids, const dcsim__calibdir_limits *lim,
                               dcsim__calibdir_table *T, dcsim_error *err) {
  memset(T, 0, sizeof *T);
  T->qty = qty;
  if (!(T->path = dcsim_strdup(path)))
    return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  table_read R = { .T = T, .ids = ids, .n_ids = n_ids, .lim = lim };
  int rc = dcsim__csv_load(path, &T->csv, err);
  if (!rc && !(rc = table_rows(&R, err))) rc = table_grid(&R, err);
  free(R.threads);
  free(R.freq);
  free(R.fcol);
  return rc;
}

void dcsim__calibdir_table_free(dcsim__calibdir_table *T) {
  if (!T) return;
  free(T->path);
  free(T->th);
  free(T->freq_of);
  free(T->cells);
  free(T->row_source);
  dcsim__csv_free(T->csv);
  memset(T, 0, sizeof *T);
}

/* whether name ends with "-runs.csv" after at least one character; its length before it */
static int runs_csv_name(const char *name, size_t *stem) {
  static const char sfx[] = "-runs.csv";
  size_t l = strlen(name), k = sizeof sfx - 1;
  *stem = l > k ? l - k : 0;
  return l > k && strcmp(name + l - k, sfx) == 0;
}

int dcsim_calibdir_find_runs_csv(const char *dir, char **csv, char **dwarf, dcsim_error *err) {
  struct dirent **ents = NULL;
  int n = scandir(dir, &ents, NULL, alphasort), found = 0, rc = 0;
  *csv = *dwarf = NULL;
  if (n < 0) return DCSIM_ERR(err, DCSIM_EIO, dir, 0, "cannot read the directory");
  for (int i = 0; i < n && !rc; i++) {
    const char *nm = ents[i]->d_name;
    size_t stem;
    char *path = runs_csv_name(nm, &stem) ? dcsim_path_in(dir, nm) : NULL;
    dcsim_csv_t *t = NULL;
    size_t col;
    if (path && dcsim__csv_load(path, &t, NULL) == 0 &&
        dcsim__csv_col(t, "threads", &col, NULL) == 0 && found++ == 0) {
      *csv = path;
      path = NULL;
      if (!(*dwarf = dcsim_strdup_printf("%.*s", (int)stem, nm)))
        rc = DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
    }
    dcsim__csv_free(t);
    free(path);
  }
  for (int i = 0; i < n; i++) free(ents[i]);
  free(ents);
  if (!rc && found == 0)
    rc = DCSIM_ERR(err, DCSIM_EREF, dir, 0, "no DWARF-runs.csv with a threads column here");
  else if (!rc && found > 1)
    rc = DCSIM_ERR(err, DCSIM_EUSAGE, dir, 0,
                   "%d DWARF-runs.csv files with a threads column: name the dwarf with --dwarf",
                   found);
  if (rc) {
    free(*csv);
    free(*dwarf);
    *csv = *dwarf = NULL;
  }
  return rc;
}

int dcsim_calibdir_machine_name(const char *dir, char **name, dcsim_error *err) {
  char *mpath = dcsim_path_in(dir, "machine.xml");
  *name = NULL;
  if (!mpath) return DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  dcsim_xml_doc_t *doc = NULL;
  const char *nm = NULL;
  int rc = dcsim__xml_load(mpath, "calibration-machine", &doc, err);
  if (!rc && !(rc = dcsim__xml_str(doc, dcsim__xml_root(doc), "name", 1, &nm, err)) &&
      !(*name = dcsim_strdup(nm)))
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, mpath, 0, "out of memory");
  dcsim__xml_free(doc);
  free(mpath);
  return rc;
}
