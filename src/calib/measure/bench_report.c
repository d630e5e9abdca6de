/* bench_report.c — `dcsim bench`'s report (tables with their spread and flags, loop fits,
 * held-out error) and `--compare CPU`: the measured ceilings beside a catalogue profile's
 * (doc/calibration.md "dcsim bench"). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib/internal.h"
#include "calib/measure/bench_internal.h"
#include "dcsim/catalog.h"
#include "dcsim/cpu_rates.h"
#include "dcsim/strutil.h"
#include "util/csv.h"
#include "util/record.h"

/* ---- the report's tables: util/record.h's run-time text table, one line per column ---- */

/* the cells by thread count and quantity: a row is a thread count of the run */
typedef struct cells_line {
  const bench_run *R;
  unsigned threads;
} cells_line;
static const char *cell_threads(const dcsim__text_col *c, const void *row, dcsim_str *b,
                                int *rest) {
  (void)c, (void)rest;
  dcsim_str_addf(b, "%u", ((const cells_line *)row)->threads);
  return dcsim_str_cstr(b);
}
/* median [min-max] +-dispersion, * re-measured, x left out, ! flagged; "-" without a cell */
static const char *cell_point(const dcsim__text_col *c, const void *row, dcsim_str *b, int *rest) {
  (void)rest;
  const cells_line *l = row;
  int q = *(const int *)c->arg;
  const bench_point *p = dcsim__bench_find(l->R, q ? "bw" : "peak",
                                           q ? dcsim__bench_level_name(q - 1) : "", l->threads);
  if (!p) return "-";
  dcsim_str_addf(b, "%.2f [%.2f-%.2f] +-%.1f%%%s%s", p->med, p->min, p->max, 100 * p->disp,
                 p->remeasured || p->redone ? "*" : "",
                 p->rejected  ? "x"
                 : p->flag[0] ? "!"
                              : "");
  return dcsim_str_cstr(b);
}
static const int qty_at[BENCH_NQ] = { 0, 1, 2, 3, 4 }; /* peak, L1, L2, L3, DRAM */
/* the columns; their headers also head --compare's tables (1 + quantity) */
static const dcsim__text_col cell_cols[1 + BENCH_NQ] = {
  { "threads", 7, 1, 0, cell_threads, NULL },
  { "peak GFLOP/s", 30, 1, 0, cell_point, &qty_at[0] },
  { "L1 GB/s", 30, 1, 0, cell_point, &qty_at[1] },
  { "L2 GB/s", 30, 1, 0, cell_point, &qty_at[2] },
  { "L3 GB/s", 30, 1, 0, cell_point, &qty_at[3] },
  { "DRAM GB/s", 30, 1, 0, cell_point, &qty_at[4] },
};

/* a double member of the row at offset *c->arg */
static double member_at(const dcsim__text_col *c, const void *row) {
  return *(const double *)(const void *)((const char *)row + *(const size_t *)c->arg);
}
static const char *cell_g4(const dcsim__text_col *c, const void *row, dcsim_str *b, int *rest) {
  (void)rest;
  dcsim_str_addf(b, "%.4g", member_at(c, row));
  return dcsim_str_cstr(b);
}

/* the loop fits: a row is a dcsim_loop_fit; U and S "-" for a loop without flops */
static const char *fit_name(const dcsim__text_col *c, const void *row, dcsim_str *b, int *rest) {
  (void)c, (void)b, (void)rest;
  return ((const dcsim_loop_fit *)row)->name;
}
static const char *fit_flop(const dcsim__text_col *c, const void *row, dcsim_str *b, int *rest) {
  return ((const dcsim_loop_fit *)row)->has_flop ? cell_g4(c, row, b, rest) : "-";
}
static const char *fit_err(const dcsim__text_col *c, const void *row, dcsim_str *b, int *rest) {
  (void)c, (void)rest;
  dcsim_str_addf(b, "%.2f%%", 100 * ((const dcsim_loop_fit *)row)->mop_stats.max_rel_err);
  return dcsim_str_cstr(b);
}
static const size_t fit_v = offsetof(dcsim_loop_fit, V), fit_x = offsetof(dcsim_loop_fit, X),
                    fit_y = offsetof(dcsim_loop_fit, Y), fit_z = offsetof(dcsim_loop_fit, Z),
                    fit_u = offsetof(dcsim_loop_fit, U), fit_s = offsetof(dcsim_loop_fit, S_flops);
static const dcsim__text_col fit_cols[] = {
  { "loop", -16, 1, 0, fit_name, NULL },        { "V", 10, 1, 0, cell_g4, &fit_v },
  { "X", 10, 1, 0, cell_g4, &fit_x },           { "Y", 10, 1, 0, cell_g4, &fit_y },
  { "Z", 10, 1, 0, cell_g4, &fit_z },           { "U", 10, 1, 0, fit_flop, &fit_u },
  { "S [flop/s]", 12, 1, 0, fit_flop, &fit_s }, { "fit err", 9, 1, 0, fit_err, NULL },
};

/* the held-out test: a row is a bench_heldout; each error relative to the measured time */
static const char *ho_loop(const dcsim__text_col *c, const void *row, dcsim_str *b, int *rest) {
  (void)c, (void)b, (void)rest;
  return ((const bench_heldout *)row)->loop;
}
static const char *ho_threads(const dcsim__text_col *c, const void *row, dcsim_str *b, int *rest) {
  (void)c, (void)rest;
  dcsim_str_addf(b, "%u", ((const bench_heldout *)row)->threads);
  return dcsim_str_cstr(b);
}
static const char *ho_err(const dcsim__text_col *c, const void *row, dcsim_str *b, int *rest) {
  (void)rest;
  double m = ((const bench_heldout *)row)->measured_s;
  dcsim_str_addf(b, "%.1f%%", 100 * ((member_at(c, row) - m) / m));
  return dcsim_str_cstr(b);
}
static const size_t ho_meas = offsetof(bench_heldout, measured_s),
                    ho_pred = offsetof(bench_heldout, predicted_s),
                    ho_ins = offsetof(bench_heldout, insample_s);
static const dcsim__text_col ho_cols[] = {
  { "loop", -16, 1, 0, ho_loop, NULL },          { "threads", 7, 1, 0, ho_threads, NULL },
  { "measured s", 12, 1, 0, cell_g4, &ho_meas }, { "predicted s", 12, 1, 0, cell_g4, &ho_pred },
  { "error", 9, 1, 0, ho_err, &ho_pred },        { "in-sample s", 12, 1, 0, cell_g4, &ho_ins },
  { "error", 9, 1, 0, ho_err, &ho_ins },
};
#define NCOLS(a) (sizeof(a) / sizeof *(a))

void dcsim__bench_report(bench_run *R, const char *profile_path, const bench_heldout *ho,
                         size_t nho, const dcsim_loop_fit *fits, size_t nf, int64_t run_id) {
  FILE *f = R->o->report;
  if (!f) return;
  fprintf(f, "machine   %s (host %s), %u CPU(s) used, kernels %s\n", R->model, R->host, R->nthreads,
          dcsim_bench_isa_name(R->isa));
  fprintf(f, "caches    L1d %.0f KiB, L2 %.0f KiB, L3 %.0f KiB (%s)\n", R->c.l1d_byte / 1024,
          R->c.l2_byte / 1024, R->c.l3_byte / 1024, R->c.source);
  fprintf(f, "clock     %s GHz: %s\n", R->freq_id, dcsim_str_cstr(&R->freq_note));
  fprintf(f, "warm-up   %s\n", dcsim_str_cstr(&R->warm_note));
  fprintf(f, "budget    %.0f s, %.1f s used by the measurements and fits; thread counts",
          R->budget_s, dcsim__bench_elapsed_s(R));
  for (unsigned i = 0; i < R->ntc; i++) fprintf(f, "%s%u", i ? "," : " ", R->tc[i]);
  fprintf(f, " (tables; 1, %s%u and HVS's picks), loops at", R->socket_cpus ? "a socket, " : "",
          R->nthreads);
  for (unsigned i = 0; i < R->ntc_loops; i++) fprintf(f, "%s%u", i ? "," : " ", R->tc_loops[i]);
  fputc('\n', f);
  if (R->cover_n && R->cover_n < R->nthreads)
    fprintf(f,
            "cover     every table keeps a cell up to %u thread(s) of %u; the loops, their fits "
            "and --check stay within that (the profile has no value beyond it)\n",
            R->cover_n, R->nthreads);
  if (R->loop_ws_note.len) fprintf(f, "loops     %s\n", dcsim_str_cstr(&R->loop_ws_note));
  fprintf(f, "energy    %s\n", dcsim_str_cstr(&R->energy_note));
  fprintf(f, "gpu       %s\n", dcsim_str_cstr(&R->gpu_note));
  fprintf(f,
          "\nmedian [min-max] +-dispersion (1.4826 MAD/median) of %u-%u repetitions; * outliers "
          "or disturbed repetitions re-measured, ! flagged, x left out\n",
          R->reps_min, R->reps_max);
  dcsim__text_header(cell_cols, NCOLS(cell_cols), f);
  for (unsigned i = 0; i < R->ntc; i++) {
    const cells_line line = { R, R->tc[i] };
    dcsim__text_row(cell_cols, NCOLS(cell_cols), f, &line);
  }
  unsigned flagged = 0;
  for (size_t i = 0; i < R->np; i++)
    if (R->pts[i].flag[0] && (!strcmp(R->pts[i].phase, "peak") || !strcmp(R->pts[i].phase, "bw"))) {
      if (!flagged++)
        fprintf(f, "%s",
                R->o->keep_suspect
                    ? "flagged (kept in the tables by --keep-suspect; the model expects a curve "
                      "that does not fall):\n"
                    : "left out of the tables (measured again first; raw.csv keeps them):\n");
      fprintf(f, "  %s %s at %u thread(s): %s\n", R->pts[i].phase, R->pts[i].level,
              R->pts[i].threads, R->pts[i].flag);
    }
  if (!flagged) fprintf(f, "every curve rises or stays within its spread as threads are added\n");
  fprintf(f,
          "interference: load average %.1f at the start on %u CPU(s); lowest CPU share of a "
          "repetition %.0f %%; %u disturbed repetition(s) measured again, %u kept (loop points, "
          "cells left out); steal up to "
          "%.1f %%; %u cell(s) left out\n",
          R->load_start, R->ncpu, 100 * R->share_min, R->n_redone, R->n_disturbed,
          100 * R->steal_max, R->n_rejected);
  if (R->look_note.len) fprintf(f, "looks     %s\n", dcsim_str_cstr(&R->look_note));
  if (R->probed) {
    fprintf(f,
            "probe     1 thread, GB/s: harness median / its kernel called directly (best of 31, "
            "median) = ratio to the best (to the median: like with like); load kernel at L1-L3, "
            "plain triad at DRAM\n");
    for (int lv = 0; lv < 4; lv++) {
      const bench_point *p = dcsim__bench_find(R, "bw", dcsim__bench_level_name(lv), 1);
      double h = p ? p->med : NAN;
      fprintf(f, "  %-4s %8.2f / %8.2f (%8.2f) = %.2f (%.2f)", dcsim__bench_level_name(lv), h,
              R->probe_best[lv], R->probe_med[lv], h / R->probe_best[lv], h / R->probe_med[lv]);
      if (lv == 0) fprintf(f, "; plain triad %.2f", R->probe_triad[0]);
      if (lv == 3) fprintf(f, "; load kernel %.2f", R->probe_read_dram);
      fputc('\n', f);
    }
  }
  fprintf(
      f,
      "\nloop coefficients (fitted on all thread counts, weighted by 1/spread; Tmop = 1/(L1 V + "
      "L2 X + L3 Y + DRAM Z), Tflop = 1/(P U + S))\n");
  dcsim__text_header(fit_cols, NCOLS(fit_cols), f);
  for (size_t i = 0; i < nf; i++) dcsim__text_row(fit_cols, NCOLS(fit_cols), f, &fits[i]);
  if (nho) {
    fprintf(f,
            "\nheld-out test: each thread count predicted by `dcsim model` with coefficients "
            "fitted without it\n");
    dcsim__text_header(ho_cols, NCOLS(ho_cols), f);
    double emean = 0, emax = 0, imean = 0;
    for (size_t i = 0; i < nho; i++) {
      double e = (ho[i].predicted_s - ho[i].measured_s) / ho[i].measured_s,
             ei = (ho[i].insample_s - ho[i].measured_s) / ho[i].measured_s;
      dcsim__text_row(ho_cols, NCOLS(ho_cols), f, &ho[i]);
      emean += fabs(e) / (double)nho;
      imean += fabs(ei) / (double)nho;
      if (fabs(e) > emax) emax = fabs(e);
    }
    fprintf(f,
            "held-out error: mean |error| %.1f %%, max %.1f %% over %zu predictions (in-sample "
            "mean %.1f %%)\n",
            100 * emean, 100 * emax, nho, 100 * imean);
    fprintf(f,
            "trust     a loop time predicted from this profile at a thread count it was not fitted "
            "on is off by %.0f %% on average, %.0f %% at worst (the held-out error above)\n",
            100 * emean, 100 * emax);
  } else {
    fprintf(f, "\nheld-out test: needs at least two thread counts (this run measured one)\n");
  }
  fprintf(
      f, "\nwrote     %s (profile), %s/bench-kernels.xml (dwarf), CSV tables and loops.csv in %s\n",
      profile_path, R->o->out_dir, R->o->out_dir);
  if (run_id > 0) fprintf(f, "database  %s, bench run %lld\n", R->o->db_path, (long long)run_id);
}

/* ---- --compare ---- */

/* one measured table of a bench directory: thread counts, medians and dispersions (NAN where
 * the CSV has no disp column), and its frequency id (allocated, "" when the table has no row;
 * freed by the caller) */
typedef struct measured_table {
  size_t n;
  unsigned threads[BENCH_MAXT];
  double value[BENCH_MAXT], disp[BENCH_MAXT];
  char *freq;
} measured_table;

/* A recorded cell is a measurement (the rule of calibrate cpu, per core and cycle of the
 * recorded clock, each thread counted as a core) and its dispersion 0 to MAX_DISP (10^5 %: a
 * median absolute deviation 10^3 x the median cannot come from repetitions of one kernel). */
#define MAX_DISP 1e3

/* Row r of a recorded table: threads, value and dispersion, checked. */
static int read_cell(const dcsim_csv_t *t, size_t r, const char *path, const char *qty,
                     const size_t col[5], double *th, double *v, double *d, dcsim_error *err) {
  enum { CT, CV, CF, CD, CU };
  const int line = dcsim__csv_line(t, r);
  int rc;
  *d = NAN;
  if ((rc = dcsim__csv_num(t, r, col[CT], th, err)) ||
      (rc = dcsim__csv_num(t, r, col[CV], v, err)) ||
      (col[CD] != (size_t)-1 && (rc = dcsim__csv_num(t, r, col[CD], d, err))))
    return rc;
  if (*th < 1 || *th > 1e6 || *th != floor(*th))
    return DCSIM_ERR(err, DCSIM_ERANGE, path, line, "threads: a whole number >= 1");
  const char *unit = col[CU] != (size_t)-1 ? dcsim__csv_cell(t, r, col[CU]) : "";
  int giga = strcmp(unit, "GFLOP/s") == 0 || strcmp(unit, "GB/s") == 0 || !*unit;
  double ghz = 0;
  if (!(*v > 0))
    return DCSIM_ERR(err, DCSIM_ERANGE, path, line, "value %s: must be positive",
                     dcsim__csv_cell(t, r, col[CV]));
  if (dcsim_parse_double(dcsim__csv_cell(t, r, col[CF]), &ghz) == 0 &&
      (rc = dcsim__calibdir_cell_per_cycle(path, line, qty, dcsim__csv_cell(t, r, col[CV]),
                                           *unit ? unit : "G/s", (unsigned)*th, (unsigned)*th, ghz,
                                           "the recorded clock", *v * (giga ? 1e9 : 1), err)))
    return rc;
  if (!isnan(*d) && !(*d >= 0 && *d <= MAX_DISP))
    return DCSIM_ERR(err, DCSIM_ERANGE, path, line,
                     "disp %s: a relative dispersion is 0 to %g (a wrong column?)",
                     dcsim__csv_cell(t, r, col[CD]), MAX_DISP);
  return 0;
}

/* DIR/<qty>.csv, its columns found by the names the table CSVs' field table gives the members
 * they fill (bench_cells.c, dcsim__bench_table_record) */
static int read_table(const char *dir, const char *qty, measured_table *m, dcsim_error *err) {
  /* threads, value, frequency (required), disp and unit (optional: (size_t)-1 when absent) */
  static const size_t members[5] = { offsetof(bench_cell, threads), offsetof(bench_cell, median),
                                     offsetof(bench_cell, frequency), offsetof(bench_cell, disp),
                                     offsetof(bench_cell, unit) };
  char *path = dcsim_strdup_printf("%s/%s.csv", dir, qty);
  if (!path) return DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  dcsim_csv_t *t = NULL;
  size_t col[5];
  int rc = dcsim__csv_load(path, &t, err);
  for (int k = 0; k < 5 && !rc; k++) {
    const char *name =
        dcsim__record_member(&dcsim__bench_table_record, members[k], DCSIM__RO_CSV)->name;
    dcsim_error none;
    if (k < 3)
      rc = dcsim__csv_col(t, name, &col[k], err);
    else if (dcsim__csv_col(t, name, &col[k], &none) != 0)
      col[k] = (size_t)-1;
  }
  if (rc) goto out;
  m->n = 0;
  free(m->freq);
  if (!(m->freq = dcsim_strdup(dcsim__csv_rows(t) ? dcsim__csv_cell(t, 0, col[2]) : ""))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  for (size_t r = 0; r < dcsim__csv_rows(t) && m->n < BENCH_MAXT; r++) {
    double th, v, d;
    if ((rc = read_cell(t, r, path, qty, col, &th, &v, &d, err))) goto out;
    m->threads[m->n] = (unsigned)th;
    m->value[m->n] = v;
    m->disp[m->n] = d;
    m->n++;
  }
out:
  dcsim__csv_free(t);
  free(path);
  return rc;
}

/* the catalogue state nearest ghz */
static int nearest_state(const dcsim_cpu_profile_t *p, double ghz, dcsim_cpu_state *s) {
  size_t nf = dcsim_cpu_profile_n_freqs(p);
  int found = 0;
  for (size_t i = 0; i < nf; i++) {
    dcsim_cpu_state c;
    if (dcsim_cpu_profile_freq_at(p, i, &c) != 0 || c.label) continue;
    if (!found || fabs(c.ghz - ghz) < fabs(s->ghz - ghz)) *s = c;
    found = 1;
  }
  return found ? 0 : -1;
}

int dcsim_bench_compare(const char *dir, const char *cpu_ref, FILE *out, dcsim_error *err) {
  char *path = NULL;
  dcsim_cpu_profile_t *p = NULL;
  int rc = dcsim_catalog_find(DCSIM_KIND_CPU, cpu_ref, NULL, 0, &path, err);
  if (rc) dcsim_error_param(err, "compare_cpu", -1); /* dcsim_bench_opts.compare_cpu */
  if (rc || (rc = dcsim_cpu_profile_load(path, &p, err))) {
    free(path);
    return rc;
  }
  measured_table m = { 0 };
  dcsim_cpu_state st = { 0, NULL, 0 };
  unsigned cores = dcsim_cpu_profile_cores_per_socket(p) * dcsim_cpu_profile_sockets(p);
  for (int q = 0; q < BENCH_NQ && !rc; q++) {
    if ((rc = read_table(dir, dcsim_cpu_qty_name((dcsim_cpu_qty)q), &m, err))) break;
    double ghz = atof(m.freq);
    if (q == 0) {
      if (nearest_state(p, ghz, &st) != 0) {
        rc = DCSIM_ERR(err, DCSIM_EREF, path, 0, "profile %s has no plain frequency state",
                       dcsim_cpu_profile_name(p));
        break;
      }
      fprintf(out,
              "measured in %s (clock %s GHz) beside %s at its %.2f GHz state; ratio = measured / "
              "catalogue;\nat %s GHz: the catalogue's parametric model at the measured clock "
              "(extrapolated beyond its states; - without a model)\n",
              dir, m.freq, dcsim_cpu_profile_name(p), st.ghz, m.freq);
    }
    char *at = dcsim_strdup_printf("at %s GHz", m.freq);
    fprintf(out, "\n%s\n%7s %12s %8s %12s %8s %14s %12s %8s\n", cell_cols[1 + q].header, "threads",
            "measured", "+-", "catalogue", "ratio", "provenance", at ? at : "", "ratio");
    free(at);
    for (size_t i = 0; i < m.n; i++) {
      fprintf(out, "%7u %12.2f ", m.threads[i], m.value[i]);
      if (isnan(m.disp[i]))
        fprintf(out, "%8s", "-");
      else /* "%8s" of "12.3%": the number right-aligned in 7 */
        fprintf(out, "%7.1f%%", 100 * m.disp[i]);
      dcsim_cpu_state s = st;
      s.threads = m.threads[i];
      double v = 0;
      dcsim_prov prov;
      dcsim_error e2;
      if (m.threads[i] > cores) {
        fprintf(out, " %12s %8s %14s\n", "-", "-", "beyond cores");
        continue;
      }
      if (dcsim_cpu_rate_at(p, (dcsim_cpu_qty)q, &s, 0, &v, &prov, &e2) != 0 || !(v > 0)) {
        fprintf(out, " %12s %8s %14s\n", "-", "-", "not in profile");
        continue;
      }
      v *= 1e-9;
      fprintf(out, " %12.2f %8.3f %14s", v, m.value[i] / v, dcsim_prov_name(prov.kind));
      dcsim_cpu_state sm = { ghz, NULL, m.threads[i] };
      double vm = 0;
      if (ghz > 0 && dcsim_cpu_model_value(p, (dcsim_cpu_qty)q, &sm, &vm, &e2) == 0 && vm > 0)
        fprintf(out, " %12.2f %8.3f\n", vm * 1e-9, m.value[i] / (vm * 1e-9));
      else
        fprintf(out, " %12s %8s\n", "-", "-");
    }
  }
  dcsim_cpu_profile_free(p);
  free(m.freq);
  free(path);
  return rc;
}
