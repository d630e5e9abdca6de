/* test_calibdir.c — the reader of a calibration directory's per-quantity tables
 * (input/calibdir.c, input/internal.h): a shipped table as a grid, the bad inputs of
 * tests/data/calibration (one per plausibility check), and one written CSV per other class of bad
 * input, each with its error code, line and message; the runs CSV and the machine name that
 * dcsim/calibdir.h finds in a directory; machine.xml's frequencies and the bounds of the cells. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dcsim/calibdir.h"
#include "dcsim/lib.h"
#include "dcsim/strutil.h"
#include "input/internal.h"
#include "util/fileio.h"
#include "util/xmlio.h"

/* The Xeon Gold 6148 of calibration/xeon-gold-6148/machine.xml: 20 cores x 2 sockets, no
 * threads-per-core, 32 flop/cycle, 127.97 GB/s per socket, turbo 3.7 GHz, scatter placement. */
static const dcsim__calibdir_limits GOLD = { 20, 2, 0, 40, 32, 3.7, 127.97e9, 1 };
static const char *const GOLD_IDS[] = { "2.4", "turbo" };
/* tests/data/calibration/too-many-threads: one 64-core EPYC 7763 socket, compact */
static const dcsim__calibdir_limits EPYC = { 64, 1, 0, 64, 16, 3.5, 204.8e9, 0 };
static const char *const EPYC_IDS[] = { "2.45", "turbo" };

static void test_good(void) {
  dcsim__calibdir_table T;
  dcsim_error err;
  CHECK_INT(dcsim__calibdir_table_load(DCSIM_SOURCE_DIR "/calibration/xeon-gold-6148/DRAM.csv",
                                       "DRAM", GOLD_IDS, 2, &GOLD, &T, &err),
            0);
  CHECK_INT((int)T.nt, 8);
  CHECK_INT((int)T.nf, 1);
  CHECK_STR(T.unit, "GB/s");
  CHECK_REL(T.scale, 1e9, 0);
  if (T.nt == 8 && T.nf == 1) {
    CHECK_INT((int)T.freq_of[0], 0); /* "2.4"; turbo has no row */
    CHECK_INT((int)T.th[0], 1);
    CHECK_INT((int)T.th[7], 40);
    CHECK_STR(T.cells[2], "84.25"); /* 4 threads, as written */
    CHECK_STR(T.cells[7], "309.77");
    CHECK_STR(T.row_source[0], "");
  }
  dcsim__calibdir_table_free(&T);

  /* rows out of order, two frequencies, a source per thread count, no limits */
  char dir[] = "/tmp/dcsim-calibdir-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char *path = dcsim_path_in(dir, "flops.csv");
  check_write_file(path,
                   "frequency,threads,value,unit,source\n"
                   "turbo,4,90.5,flop/s,row b\n"
                   "2.4,2,41.25,flop/s,row a\n"
                   "2.4,4,80.125,flop/s,row b\n"
                   "turbo,2,47.75,flop/s,row a\n");
  CHECK_INT(dcsim__calibdir_table_load(path, "flops", GOLD_IDS, 2, NULL, &T, &err), 0);
  CHECK_INT((int)T.nt, 2);
  CHECK_INT((int)T.nf, 2);
  CHECK_REL(T.scale, 1, 0);
  if (T.nt == 2 && T.nf == 2) {
    CHECK_INT((int)T.th[0], 2);
    CHECK_INT((int)T.freq_of[1], 1);
    CHECK_STR(T.cells[0], "41.25");
    CHECK_STR(T.cells[1], "47.75");
    CHECK_STR(T.cells[2], "80.125");
    CHECK_STR(T.cells[3], "90.5");
    CHECK_STR(T.row_source[1], "row b");
  }
  dcsim__calibdir_table_free(&T);
  remove(path);
  remove(dir);
  free(path);
}

/* The plausibility inputs of tests/data/calibration (the goldens calibrate_implausible_cells and
 * calibrate_too_many_threads give the whole messages). */
static void test_shipped_bad(void) {
  static const struct {
    const char *file, *qty, *msg;
    int line;
    const dcsim__calibdir_limits *lim;
    const char *const *ids;
  } bad[] = {
    { "implausible-peak/flops.csv", "flops", "above the datasheet peak of the cores", 5, &GOLD,
      GOLD_IDS },
    { "implausible-dram/DRAM.csv", "DRAM", "more than twice the datasheet memory peak", 5, &GOLD,
      GOLD_IDS },
    { "implausible-per-cycle/L1.csv", "L1", "byte per cycle of each core in use", 3, &GOLD,
      GOLD_IDS },
    { "too-many-threads/flops.csv", "flops", "threads=100: more than the 64 hardware threads", 5,
      &EPYC, EPYC_IDS },
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char *path = dcsim_path_in(DCSIM_SOURCE_DIR "/tests/data/calibration", bad[i].file);
    dcsim__calibdir_table T;
    dcsim_error err;
    CHECK_INT(dcsim__calibdir_table_load(path, bad[i].qty, bad[i].ids, 2, bad[i].lim, &T, &err),
              DCSIM_ERANGE);
    CHECK_INT(err.line, bad[i].line);
    CHECK(strstr(err.msg, bad[i].msg) != NULL);
    dcsim__calibdir_table_free(&T);
    free(path);
  }
}

/* One written CSV per other class of bad input. */
static void test_bad(void) {
  static const struct {
    const char *qty, *csv, *msg;
    int rc, line; /* line -1: the CSV reader's own error, not checked here */
  } bad[] = {
    { "L2", "frequency,threads,value\n2.4,1,5\n", "unit", DCSIM_EPARSE, -1 },
    { "L2", "frequency,threads,value,unit\n", "no rows", DCSIM_EPARSE, 0 },
    { "flops", "frequency,threads,value,unit\n2.4,1,50,GB/s\n", "does not fit quantity flops",
      DCSIM_ERANGE, 2 },
    { "L2", "frequency,threads,value,unit\n2.4,1,50,GB/s\n2.4,2,100,B/s\n",
      "differs from the first row's 'GB/s'", DCSIM_ERANGE, 3 },
    { "L2", "frequency,threads,value,unit\n2.4,0,50,GB/s\n", "threads '0'", DCSIM_ERANGE, 2 },
    { "L2", "frequency,threads,value,unit\n2.4,1,-5,GB/s\n", "value must be positive", DCSIM_ERANGE,
      2 },
    { "L2", "frequency,threads,value,unit\n2.6,1,50,GB/s\n",
      "frequency '2.6' is not a <freq id> of machine.xml", DCSIM_EREF, 2 },
    { "L2", "frequency,threads,value,unit\n2.4,1,50,GB/s\n2.4,1,51,GB/s\n",
      "second value for threads=1 at frequency 2.4", DCSIM_EPARSE, 3 },
    { "L2", "frequency,threads,value,unit,source\n2.4,1,50,GB/s,a\nturbo,1,60,GB/s,b\n",
      "source differs from the other cells of threads=1", DCSIM_EPARSE, 3 },
    { "L2", "frequency,threads,value,unit\n2.4,1,50,GB/s\nturbo,2,60,GB/s\n",
      "no value for threads=1 at frequency turbo", DCSIM_EPARSE, 0 },
  };
  char dir[] = "/tmp/dcsim-calibdir-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char *path = dcsim_path_in(dir, "table.csv");
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    check_write_file(path, bad[i].csv);
    dcsim__calibdir_table T;
    dcsim_error err;
    int rc = dcsim__calibdir_table_load(path, bad[i].qty, GOLD_IDS, 2, &GOLD, &T, &err);
    if (bad[i].line < 0) {
      CHECK(rc != 0);
    } else {
      CHECK_INT(rc, bad[i].rc);
      CHECK_INT(err.line, bad[i].line);
    }
    if (!strstr(err.msg, bad[i].msg)) fprintf(stderr, "case %zu: %s\n", i, err.msg);
    CHECK(strstr(err.msg, bad[i].msg) != NULL);
    dcsim__calibdir_table_free(&T);
  }
  remove(path);
  remove(dir);
  free(path);
}

/* The runs CSV and the machine's name of a directory (dcsim/calibdir.h). */
static void test_finds(void) {
  char *name = NULL, *csv = NULL, *dwarf = NULL;
  dcsim_error err;
  CHECK_INT(
      dcsim_calibdir_machine_name(DCSIM_SOURCE_DIR "/calibration/xeon-gold-6148", &name, &err), 0);
  CHECK_STR(name, "xeon-gold-6148");
  free(name);
  char dir[] = "/tmp/dcsim-calibdir-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  CHECK(dcsim_calibdir_machine_name(dir, &name, &err) != 0); /* no machine.xml */
  CHECK(name == NULL);
  CHECK_INT(dcsim_calibdir_find_runs_csv(dir, &csv, &dwarf, &err), DCSIM_EREF);
  char *a = dcsim_path_in(dir, "bifft-runs.csv"), *b = dcsim_path_in(dir, "loops-runs.csv");
  char *c = dcsim_path_in(dir, "other-runs.csv");
  check_write_file(a, "threads,time_s\n1,2.5\n");
  check_write_file(c, "size,time_s\n1,2.5\n"); /* no threads column: not a runs CSV */
  CHECK_INT(dcsim_calibdir_find_runs_csv(dir, &csv, &dwarf, &err), 0);
  CHECK_STR(csv, a);
  CHECK_STR(dwarf, "bifft");
  free(csv);
  free(dwarf);
  check_write_file(b, "threads,time_s\n1,2.5\n");
  CHECK_INT(dcsim_calibdir_find_runs_csv(dir, &csv, &dwarf, &err), DCSIM_EUSAGE);
  CHECK(strstr(err.msg, "2 DWARF-runs.csv files") != NULL);
  CHECK(csv == NULL && dwarf == NULL);
  remove(a);
  remove(b);
  remove(c);
  remove(dir);
  free(a);
  free(b);
  free(c);
}

/* The Gold 6148's machine.xml with the first `from` replaced by `to`, written to dir/machine.xml
 * and read by the input layer into *m (the caller releases it); the load's result. */
static int read_machine(const char *dir, const char *from, const char *to, dcsim__calib_machine *m,
                        dcsim_error *err) {
  char *text = NULL, *mpath = dcsim_path_in(dir, "machine.xml");
  dcsim_str t = DCSIM_STR_INIT;
  int rc = 1;
  memset(m, 0, sizeof *m);
  CHECK_INT(
      dcsim__file_read_text(DCSIM_SOURCE_DIR "/calibration/xeon-gold-6148/machine.xml", &text, err),
      0);
  const char *at = text ? strstr(text, from) : NULL;
  CHECK(at != NULL);
  if (at) {
    dcsim_str_addf(&t, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    check_write_file(mpath, dcsim_str_cstr(&t));
    rc = dcsim__calib_machine_load(mpath, m, err);
  }
  remove(mpath);
  dcsim_str_release(&t);
  free(text);
  free(mpath);
  return rc;
}

/* What one refused machine.xml says: its status and a part of its message. */
static void check_refused(const char *dir, const char *from, const char *to, int code,
                          const char *msg) {
  dcsim__calib_machine m;
  dcsim_error err;
  CHECK_INT(read_machine(dir, from, to, &m, &err), code);
  CHECK(strstr(err.msg, msg) != NULL);
  dcsim__calib_machine_release(&m);
}

/* machine.xml read into typed members: the Gold 6148's figures, frequencies, tables, fit and power
 * elements as written, and its cells' bounds GOLD; each bad case refused naming its element. */
static void test_machine(void) {
  char dir[] = "/tmp/dcsim-calibdir-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  dcsim__calib_machine m;
  dcsim_error err;
  CHECK_INT(read_machine(dir, "<frequencies>", "<frequencies>", &m, &err), 0);
  CHECK(memcmp(&m.lim, &GOLD, sizeof m.lim) == 0);
  CHECK_REL(m.lim.max_ghz, 3.7, 1e-15);
  CHECK_INT((int)m.lim.hw_threads, 40);
  CHECK_STR(m.name, "xeon-gold-6148");
  CHECK_STR(m.microarch, "Skylake-SP");
  CHECK(m.comment != NULL && strncmp(m.comment, "Intel Xeon Gold 6148 (Skylake-SP)", 33) == 0);
  CHECK_INT((int)m.spec.cores_per_socket, 20);
  CHECK_INT((int)m.spec.threads_per_core, 0);
  CHECK_REL(m.spec.nominal_ghz, 2.4, 1e-15);
  CHECK_STR(m.spec.l3_byte, "28835840");
  CHECK(m.spec.line > m.line && m.price_usd == NULL);
  CHECK_REL(m.ds.isa_flop_per_cycle, 32, 1e-15);
  CHECK_REL(m.ds.mem_peak_bps, 127.97e9, 1e-15);
  CHECK_STR(m.datasheet.mem_peak_bps, "127.97e9");
  CHECK(m.datasheet.mem_sustained_bps == NULL && m.datasheet.n_measured == 0);
  CHECK_INT((int)m.fr.n, 2);
  CHECK_STR(m.fr.ghz_text[1], "3.7");
  CHECK_STR(m.fr.labels[1], "turbo");
  CHECK(m.fr.labels[0] == NULL);
  CHECK_STR(m.fr.sources[0], "D3.5 Table 37");
  CHECK_STR(m.table[DCSIM_CPU_DRAM].file, "DRAM.csv");
  CHECK(m.table[DCSIM_CPU_L3].line > m.table[DCSIM_CPU_L2].line);
  CHECK_STR(m.perf_fit.reference, "../xeon-e5-2697v3");
  CHECK_INT(m.perf_fit.scatter, 1);
  CHECK_INT((int)m.perf_fit.n_turbo, 0);
  CHECK_STR(m.energy.borrowed_from, "core-i7-4700eq");
  CHECK_STR(m.tdp_w, "150");
  CHECK_STR(m.power_model.basis, "spec");
  CHECK(m.power_model.package.core_w == NULL);
  CHECK(m.power_model.package.fit == NULL && m.power_model.dram.bandwidth == NULL);
  CHECK_STR(m.power_model.node.base_w, "41.3");
  dcsim__calib_machine_release(&m);
  CHECK_INT(read_machine(dir, "\"/>\n  <energy file=",
                         "\"><turbo cores=\"20\" ghz=\"2.9375\" source=\"bin 20\"/></perf-fit>\n"
                         "  <energy file=",
                         &m, &err),
            0);
  CHECK_INT((int)m.perf_fit.n_turbo, 1);
  CHECK_INT((int)m.perf_fit.turbo[0].cores, 20);
  CHECK_REL(m.perf_fit.turbo[0].ghz, 2.9375, 1e-15);
  CHECK_STR(m.perf_fit.turbo[0].source, "bin 20");
  CHECK(m.perf_fit.turbo[0].line == m.perf_fit.line);
  dcsim__calib_machine_release(&m);
  check_refused(dir, "id=\"turbo\"", "id=\"2.4\"", DCSIM_ESCHEMA,
                "<freq id=\"2.4\">: id given twice");
  check_refused(dir, "sockets=\"2\"", "sockets=\"60000\"", DCSIM_ERANGE,
                "= 1200000 hardware threads (1 to 1000000)");
  check_refused(dir, "quantity=\"L2\"", "quantity=\"L1\"", DCSIM_ESCHEMA,
                "<table quantity=\"L1\">: given twice");
  check_refused(dir, "freq=\"2.4\"", "freq=\"2.6\"", DCSIM_EREF,
                "<energy freq=\"2.6\">: unknown frequency id");
  check_refused(dir, "ASSUMPTION -", "ASSUMPTION --", DCSIM_EPARSE,
                "<comment>: must not contain \"--\"");
  remove(dir);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  test_good();
  test_shipped_bad();
  test_bad();
  test_finds();
  test_machine();
  CHECK_DONE();
}
