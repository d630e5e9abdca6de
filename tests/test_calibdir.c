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

/* machine.xml at path with the first `from` replaced by `to`, written to dir/machine.xml; its
 * <frequencies> and limits read (*rc_f, *rc_l: their results, 1 when not reached). */
static void read_machine(const char *dir, const char *from, const char *to, int *rc_f, int *rc_l,
                         dcsim__calibdir_limits *lim, dcsim_error *err) {
  char *text = NULL, *mpath = dcsim_path_in(dir, "machine.xml");
  dcsim_str t = DCSIM_STR_INIT;
  *rc_f = *rc_l = 1;
  CHECK_INT(
      dcsim__file_read_text(DCSIM_SOURCE_DIR "/calibration/xeon-gold-6148/machine.xml", &text, err),
      0);
  const char *at = text ? strstr(text, from) : NULL;
  CHECK(at != NULL);
  if (at) {
    dcsim_str_addf(&t, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    check_write_file(mpath, dcsim_str_cstr(&t));
    dcsim_xml_doc_t *doc = NULL;
    CHECK_INT(dcsim__xml_load(mpath, "calibration-machine", &doc, err), 0);
    dcsim__calibdir_freqs fr = { 0 };
    if (doc && !(*rc_f = dcsim__calibdir_freqs_read(mpath, doc, dcsim__xml_root(doc), &fr, err))) {
      CHECK_INT((int)fr.n, 2);
      *rc_l = dcsim__calibdir_limits_read(doc, dcsim__xml_root(doc), &fr, 32, 127.97e9, lim, err);
    }
    dcsim__calibdir_freqs_release(&fr);
    dcsim__xml_free(doc);
  }
  remove(mpath);
  dcsim_str_release(&t);
  free(text);
  free(mpath);
}

/* machine.xml's <frequencies> and the cells' bounds: the Gold 6148's are GOLD; an id given twice
 * and too many hardware threads refused. */
static void test_machine(void) {
  char dir[] = "/tmp/dcsim-calibdir-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  dcsim__calibdir_limits lim;
  dcsim_error err;
  int rf, rl;
  read_machine(dir, "<frequencies>", "<frequencies>", &rf, &rl, &lim, &err);
  CHECK_INT(rf, 0);
  CHECK_INT(rl, 0);
  CHECK(rl == 0 && memcmp(&lim, &GOLD, sizeof lim) == 0);
  CHECK_REL(lim.max_ghz, 3.7, 1e-15);
  CHECK_INT((int)lim.hw_threads, 40);
  read_machine(dir, "id=\"turbo\"", "id=\"2.4\"", &rf, &rl, &lim, &err);
  CHECK_INT(rf, DCSIM_ESCHEMA);
  CHECK(strstr(err.msg, "<freq id=\"2.4\">: id given twice") != NULL);
  read_machine(dir, "sockets=\"2\"", "sockets=\"60000\"", &rf, &rl, &lim, &err);
  CHECK_INT(rf, 0);
  CHECK_INT(rl, DCSIM_ERANGE);
  CHECK(strstr(err.msg, "= 1200000 hardware threads (1 to 1000000)") != NULL);
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
