/* bench_tables.c — `dcsim bench`'s calibration directory: the table CSVs (median, min, max,
 * dispersion, re-measured repetitions and flags), machine.xml, loops.csv (with the fit weights)
 * and the bench-kernels dwarf (doc/calibration.md "dcsim bench"). */
#include <stdio.h>
#include <string.h>

#include "calib/measure/bench_internal.h"
#include "dcsim/import_cpu.h"
#include "dcsim/repro.h"
#include "dcsim/strutil.h"
#include "util/record.h"
#include "util/xmledit.h"

static int is_table(const bench_point *p, int q) {
  return q == 0
             ? strcmp(p->phase, "peak") == 0
             : strcmp(p->phase, "bw") == 0 && strcmp(p->level, dcsim__bench_level_name(q - 1)) == 0;
}

/* the thread counts of quantity q's cells that were kept (rejected 0) or left out (1), printed
 * " 1, 2" to f (may be NULL); returns how many */
static unsigned covered(const bench_run *R, int q, int rejected, FILE *f) {
  unsigned k = 0;
  for (unsigned t = 0; t < R->ntc; t++)
    for (size_t i = 0; i < R->np; i++) {
      const bench_point *p = &R->pts[i];
      if (p->threads != R->tc[t] || !is_table(p, q) || p->rejected != rejected) continue;
      if (f) fprintf(f, "%s %u", k ? "," : "", p->threads);
      k++;
    }
  return k;
}

/* The header line of record r and the line of each point of R that it holds: every point
 * (which NULL: raw.csv), the kept cells of quantity *which (0 peak, 1..4 L1..DRAM: a table CSV)
 * or the loop points (*which -1: loops.csv). */
static void write_cells(const bench_run *R, const dcsim__record *r, FILE *f, const int *which) {
  dcsim__record_csv_header(r, f);
  for (size_t i = 0; i < R->np; i++) {
    const bench_point *p = &R->pts[i];
    if (which && (*which < 0 ? strcmp(p->phase, "loop") != 0 : p->rejected || !is_table(p, *which)))
      continue;
    bench_cell c;
    dcsim__bench_cell_of(R, p, &c);
    dcsim__record_csv_row(r, f, &c);
  }
}

int dcsim__bench_write_raw(bench_run *R, dcsim_error *err) {
  int rc;
  FILE *f = dcsim__bench_open_out(R, "raw.csv", err);
  if (!f) return err ? err->code : DCSIM_EIO;
  fputs(
      "# every point dcsim bench measured, kept or not (doc/calibration.md \"Interference\");\n"
      "# cpu_share: the lowest of the repetitions kept (threads' CPU time in the kernel / threads\n"
      "# x wall time); clock_min/max_ghz: their clock probes; steal: the CPUs' stolen share over\n"
      "# the point (/proc/stat); disturbed: repetitions kept although disturbed; redone:\n"
      "# disturbed repetitions measured again; status: kept, left-out, or flagged\n",
      f);
  write_cells(R, &dcsim__bench_points_record, f, NULL);
  if ((rc = dcsim__bench_close_out(R, "raw.csv", f, 0, err))) return rc;
  return 0;
}

int dcsim__bench_write_tables(bench_run *R, int have_energy, dcsim_error *err) {
  int rc;
  const char *files[5] = { "flops.csv", "L1.csv", "L2.csv", "L3.csv", "DRAM.csv" };
  for (int q = 0; q < 5; q++) {
    FILE *f = dcsim__bench_open_out(R, files[q], err);
    if (!f) return err ? err->code : DCSIM_EIO;
    fprintf(
        f,
        "# measured by dcsim bench: %s; value = median of the repetitions, min and max kept;\n"
        "# disp = 1.4826 x median absolute deviation / median; remeasured = repetitions measured\n"
        "# again (outliers, or the whole point where the curve fell); flag: why a point is\n"
        "# suspect; clock_ghz = core clock probed on every thread before each repetition (mean)\n",
        q == 0   ? "vectorised FMA kernel, pinned OpenMP threads"
        : q == 4 ? "STREAM triad a = b + s*c, 24 B per element (no write-allocate), working set "
                   "per thread sized from the caches"
                 : "read (load) kernel, working set per thread sized from the caches");
    write_cells(R, &dcsim__bench_table_record, f, &q);
    if ((rc = dcsim__bench_close_out(R, files[q], f, 0, err))) return rc;
  }
  FILE *f = dcsim__bench_open_out(R, "machine.xml", err);
  if (!f) return err ? err->code : DCSIM_EIO;
  fprintf(f,
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- Calibration manifest written by dcsim "
          "bench (doc/calibration.md). -->\n<calibration-machine name=\"");
  dcsim__xml_escape(f, R->name);
  fputs("\" model=\"", f);
  dcsim__xml_escape(f, R->model);
  fputs("\">\n  <comment>", f);
  fprintf(f, "%s measured by dcsim bench %s on host ", R->model, dcsim_version());
  dcsim__xml_escape(f, R->host);
  fprintf(f,
          " (%u CPUs used, kernels %s, time budget %.0f s).\n     * Tables: medians of %u-%u "
          "repetitions (min, max and dispersion in the CSV files); working sets per thread\n"
          "       L1 %zu B, L2 %zu B, L3 %zu B, DRAM %zu B at 1 thread, from the cache sizes (",
          R->nthreads, dcsim_bench_isa_name(R->isa), R->budget_s, R->reps_min, R->reps_max,
          dcsim__bench_level_ws(R, 0, 1), dcsim__bench_level_ws(R, 1, 1),
          dcsim__bench_level_ws(R, 2, 1), dcsim__bench_level_ws(R, 3, 1));
  dcsim__xml_escape(f, R->c.source);
  fputs(").\n     * Frequency: ", f);
  dcsim__xml_escape(f, dcsim_str_cstr(&R->freq_note));
  fputs("\n     * Energy: ", f);
  dcsim__xml_escape(f, dcsim_str_cstr(&R->energy_note));
  fputs("</comment>\n", f);
  fprintf(f,
          "  <spec cores-per-socket=\"%u\" sockets=\"1\" nominal-ghz=\"%s\" l1-byte=\"%.0f\" "
          "l2-byte=\"%.0f\"",
          R->nthreads, R->freq_id, R->c.l1d_byte, R->c.l2_byte);
  if (R->c.l3_byte > 0) fprintf(f, " l3-byte=\"%.0f\"", R->c.l3_byte);
  fprintf(f,
          " isa=\"%s\" source=\"measured: dcsim bench (%s caches, CPUs of the affinity mask, "
          "clock probe)\"/>\n",
          dcsim_bench_isa_name(R->isa), R->c.source);
  fprintf(f, "  <frequencies>\n    <freq id=\"%s\" ghz=\"%s\" source=\"", R->freq_id, R->freq_id);
  dcsim__xml_escape(f, dcsim_str_cstr(&R->freq_note));
  fputs("\"/>\n  </frequencies>\n", f);
  for (int q = 0; q < 5; q++) {
    fprintf(f,
            "  <table quantity=\"%s\" file=\"%s\" source=\"measured: dcsim bench, %s kernel; "
            "thread counts",
            q ? dcsim__bench_level_name(q - 1) : "flops", files[q],
            q == 0   ? "FMA"
            : q == 4 ? "triad (24 B per element)"
                     : "load");
    covered(R, q, 0, f);
    if (covered(R, q, 1, NULL)) {
      fputs("; left out (interference, spread or a fall; raw.csv):", f);
      covered(R, q, 1, f);
    }
    fputs("\"/>\n", f);
  }
  if (have_energy)
    fprintf(f,
            "  <energy file=\"power.csv\" freq=\"%s\" other-frequencies=\"error\" "
            "source=\"measured: dcsim bench, RAPL (powercap)\"/>\n",
            R->freq_id);
  fputs("</calibration-machine>\n", f);
  if ((rc = dcsim__bench_close_out(R, "machine.xml", f, 0, err))) return rc;
  return 0;
}

int dcsim__bench_write_loops(bench_run *R, dcsim_error *err) {
  int rc;
  FILE *f = dcsim__bench_open_out(R, "loops.csv", err);
  if (!f) return err ? err->code : DCSIM_EIO;
  fputs(
      "# loop kernels measured by dcsim bench: time_s is the median of the repetitions of `passes` "
      "passes\n"
      "# over n_elem elements per thread; Q counts the bytes loaded and stored by the code, W its "
      "flops;\n"
      "# disp: robust relative spread of the repetitions; weight: the fit's weight, 1/max(disp, "
      "0.5 %), mean 1 per loop\n",
      f);
  const int loops = -1;
  write_cells(R, &dcsim__bench_loops_record, f, &loops);
  if ((rc = dcsim__bench_close_out(R, "loops.csv", f, 0, err))) return rc;
  /* the dwarf: W and Q formulas per loop, placeholder coefficients replaced by the fit */
  f = dcsim__bench_open_out(R, "bench-kernels.xml", err);
  if (!f) return err ? err->code : DCSIM_EIO;
  fputs(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- The loop kernels of dcsim bench as a "
      "dwarf: W and Q per element (Q = bytes loaded and stored by\n"
      "     the code, the convention of Intel Advisor used by D3.5 4.3); coefficients fitted by "
      "dcsim bench from\n"
      "     loops.csv (doc/calibration.md). N_L2, N_DRAM: elements per thread of the L2- and "
      "DRAM-sized working\n"
      "     sets; THREADS: threads, each with its own arrays; ITER: passes. -->\n"
      "<dwarf name=\"bench-kernels\" device=\"cpu\" description=\"dcsim bench loop kernels\" "
      "source=\"measured: dcsim bench\">\n"
      "  <parameters>\n    <param name=\"N_L2\" description=\"elements per thread, L2-sized "
      "working set\"/>\n"
      "    <param name=\"N_DRAM\" description=\"elements per thread, DRAM-sized working set\"/>\n"
      "    <param name=\"THREADS\" description=\"threads\"/>\n    <param name=\"ITER\" "
      "description=\"passes over the arrays\"/>\n  </parameters>\n",
      f);
  size_t nl2 = 0, nd = 0;
  for (size_t i = 0; i < R->np; i++)
    if (strcmp(R->pts[i].phase, "loop") == 0 && strncmp(R->pts[i].kernel, "triad.", 6) == 0) {
      if (strcmp(R->pts[i].level, "L2") == 0)
        nl2 = R->pts[i].n_elem;
      else
        nd = R->pts[i].n_elem;
    }
  fprintf(f,
          "  <case name=\"triad-size\" source=\"measured: dcsim bench (the triad working sets, one "
          "pass, one thread)\">\n"
          "    <set name=\"N_L2\" value=\"%zu\"/>\n    <set name=\"N_DRAM\" value=\"%zu\"/>\n    "
          "<set name=\"THREADS\" value=\"1\"/>\n"
          "    <set name=\"ITER\" value=\"1\"/>\n  </case>\n  <loops>\n",
          nl2 ? nl2 : 1, nd ? nd : 1);
  for (int ci = 0; ci < 2; ci++)
    for (int k = 0; k < DCSIM_LOOP_COUNT; k++) {
      const dcsim_bench_loop_info *li = dcsim_bench_loop((dcsim_bench_loop_kind)k);
      const char *cls = ci ? "DRAM" : "L2";
      fprintf(f,
              "    <loop name=\"%s.%s\" work-flop=\"%g*N_%s*THREADS*ITER\" "
              "traffic-byte=\"%g*N_%s*THREADS*ITER\" source=\"dcsim bench kernel: %s\">\n"
              "      <mop V=\"0\" X=\"0\" Y=\"0\" Z=\"1\" source=\"placeholder\"/>\n",
              li->name, cls, li->flop_per_elem, cls, li->byte_per_elem, cls, li->code);
      if (li->flop_per_elem > 0)
        fputs("      <flop U=\"1\" s-flops=\"0\" source=\"placeholder\"/>\n", f);
      fputs("    </loop>\n", f);
    }
  fputs("  </loops>\n</dwarf>\n", f);
  if ((rc = dcsim__bench_close_out(R, "bench-kernels.xml", f, 0, err))) return rc;
  return 0;
}
