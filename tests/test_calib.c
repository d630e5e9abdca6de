/* test_calib.c — the calibration importers of dcsim/import_cpu.h: GPU profiler exports (nvprof and
 * ncu) give back D3.5 Table 9, likwid-bench output and a Kerncraft machine file give calibration
 * directories whose profiles hold the D3.5 Table 25-29 values, and every bad input names its file
 * and line. Sample files: tests/data/calibration/README.md. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calib/internal.h"
#include "check.h"
#include "dcsim/dwarf.h"
#include "dcsim/hwprofile.h"
#include "dcsim/import_cpu.h"
#include "dcsim/import_gpu.h"
#include "dcsim/import_kerncraft.h"
#include "dcsim/import_likwid.h"
#include "dcsim/lib.h"

#define GPU_DIR "tests/data/calibration/gpu/"
#define N_D35   3200000.0

/* Table 9 is what dwarfs/acraneb2.xml holds; the samples were made from it (make-samples.py). */
static void check_table9(const dcsim_gpu_calib *c) {
  dcsim_error err = { 0 };
  dcsim_dwarf_t *d = NULL;
  dcsim_dwarf_eval *e = NULL;
  CHECK(dcsim_dwarf_load("dwarfs/acraneb2.xml", &d, &err) == 0);
  if (!d) return;
  CHECK(dcsim_dwarf_evaluate(d, "200x200x80", NULL, 0, &e, &err) == 0);
  if (!e) {
    dcsim_dwarf_free(d);
    return;
  }
  CHECK_INT(c->n_kernels, e->n_kernels);
  for (size_t i = 0; i < e->n_kernels; i++) {
    const dcsim_gpu_kernel *w = &e->kernels[i];
    const dcsim_gpu_chars *g = NULL;
    for (size_t j = 0; j < c->n_kernels; j++)
      if (strcmp(c->mean[j].name, w->name) == 0) g = &c->mean[j];
    CHECK(g != NULL);
    if (!g) continue;
    /* fractions within 1e-5 (Table 9 prints 4 decimals); counts and IPC within 1e-4 relative:
     * nvprof throughputs carry 5-6 significant digits */
    CHECK_ABS(g->P_inactive, w->P_inactive, 1e-5);
    CHECK_ABS(g->P_misc, w->P_misc, 1e-5);
    CHECK_ABS(g->P_cfl, w->P_cfl, 1e-5);
    CHECK_ABS(g->G_e, w->G_e, 2e-5);
    CHECK_REL(g->G_r_byte, w->G_r_byte, 1e-4);
    CHECK_REL(g->i_int, w->i_int, 1e-6);
    CHECK_REL(g->i_sp, w->i_sp, 1e-6);
    CHECK_REL(g->i_dp, w->i_dp, 1e-6);
    CHECK_REL(g->I_e, w->I_e, 1e-6);
    CHECK_REL(g->IPC_e, w->IPC_e, 1e-5);
  }
  dcsim_dwarf_eval_free(e);
  dcsim_dwarf_free(d);
}

static void test_gpu_table9(void) {
  dcsim_error err = { 0 };
  dcsim_gpu_calib *c = NULL;
  /* nvprof on both GPUs (K20m: IPC from active_cycles) */
  const char *nv[] = { GPU_DIR "gtx970-nvprof.csv", GPU_DIR "k20m-nvprof.csv" };
  CHECK(dcsim_calib_gpu(nv, 2, N_D35, &c, &err) == 0);
  if (c) {
    CHECK_INT(c->n_gpus, 2);
    CHECK_STR(c->gpu_label[0], "GeForce GTX 970 (0)");
    CHECK(strstr(c->gpu_how[1], "active_cycles") != NULL);
    /* the GPUs differ: the mean is not one of them */
    CHECK(fabs(c->per_gpu[0].P_inactive - c->per_gpu[c->n_kernels].P_inactive - 0.02) < 1e-6);
    check_table9(c);
  }
  dcsim_gpu_calib_free(c);
  c = NULL;
  /* the K20m counters in ncu's layout (bytes, ns, two launches per kernel) give the same */
  const char *mixed[] = { GPU_DIR "gtx970-nvprof.csv", GPU_DIR "k20m-as-ncu.csv" };
  CHECK(dcsim_calib_gpu(mixed, 2, N_D35, &c, &err) == 0);
  if (c) check_table9(c);
  dcsim_gpu_calib_free(c);
  c = NULL;
  /* a manifest gives N per export */
  const char *man[] = { GPU_DIR "manifest.csv" };
  CHECK(dcsim_calib_gpu(man, 1, 0, &c, &err) == 0);
  if (c) {
    CHECK_INT(c->n_gpus, 2);
    CHECK_REL(c->domain_size[1], N_D35, 0);
    check_table9(c);
  }
  dcsim_gpu_calib_free(c);
  /* N scales the per-point values: twice the domain, half the instructions per point */
  c = NULL;
  CHECK(dcsim_calib_gpu(nv, 2, 2 * N_D35, &c, &err) == 0);
  if (c) CHECK_REL(c->mean[0].I_e, 1930.0 / 2, 1e-6);
  dcsim_gpu_calib_free(c);
}

static void expect_err(int rc, const dcsim_error *err, const char *file_end, int line,
                       const char *msg_part) {
  CHECK(rc != 0);
  size_t fl = strlen(err->file), el = strlen(file_end);
  CHECK(fl >= el && strcmp(err->file + fl - el, file_end) == 0);
  CHECK_INT(err->line, line);
  CHECK(strstr(err->msg, msg_part) != NULL);
  if (!strstr(err->msg, msg_part))
    fprintf(stderr, "  message was: %s:%d: %s\n", err->file, err->line, err->msg);
}

static void test_gpu_errors(const char *tmp) {
  dcsim_error err = { 0 };
  dcsim_gpu_calib *c = NULL;
  const char *bad[] = { GPU_DIR "bad-layout.csv" };
  expect_err(dcsim_calib_gpu(bad, 1, 1, &c, &err), &err, "bad-layout.csv", 3,
             "unknown table layout");
  const char *miss[] = { GPU_DIR "bad-missing-metric.csv", GPU_DIR "k20m-nvprof.csv" };
  expect_err(dcsim_calib_gpu(miss, 2, N_D35, &c, &err), &err, "bad-missing-metric.csv", 22,
             "no inst_misc");
  const char *man[] = { GPU_DIR "bad-manifest.csv" };
  expect_err(dcsim_calib_gpu(man, 1, 0, &c, &err), &err, "bad-manifest.csv", 4, "domain_size '0'");
  const char *non[] = { GPU_DIR "gtx970-nvprof.csv" };
  CHECK(dcsim_calib_gpu(non, 1, 0, &c, &err) == DCSIM_EUSAGE);
  char p[512];
  /* a throughput without a duration */
  snprintf(p, sizeof p, "%s/nodur.csv", tmp);
  check_write_file(p,
                   "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric "
                   "Description\",\"Min\",\"Max\",\"Avg\"\n"
                   "\"X (0)\",\"void k<float>(float*, int)\",1,\"inst_control\",\"c\",1,1,1\n"
                   "\"X (0)\",\"void k<float>(float*, int)\",1,\"inst_bit_convert\",\"c\",1,1,1\n"
                   "\"X (0)\",\"void k<float>(float*, int)\",1,\"inst_misc\",\"c\",1,1,1\n"
                   "\"X (0)\",\"void k<float>(float*, int)\",1,\"inst_compute_ld_st\",\"c\",1,1,1\n"
                   "\"X (0)\",\"void k<float>(float*, int)\",1,\"inst_integer\",\"c\",1,1,1\n"
                   "\"X (0)\",\"void k<float>(float*, int)\",1,\"inst_fp_32\",\"c\",1,1,1\n"
                   "\"X (0)\",\"void k<float>(float*, int)\",1,\"inst_fp_64\",\"c\",1,1,1\n"
                   "\"X (0)\",\"void k<float>(float*, int)\",1,\"inst_executed\",\"c\",1,1,1\n"
                   "\"X (0)\",\"void k<float>(float*, int)\",1,\"ipc\",\"c\",0.5,0.5,0.5\n"
                   "\"X (0)\",\"void k<float>(float*, "
                   "int)\",1,\"gld_requested_throughput\",\"c\",1GB/s,1GB/s,1.0GB/s\n");
  const char *nd[] = { p };
  expect_err(dcsim_calib_gpu(nd, 1, 10, &c, &err), &err, "nodur.csv", 2, "needs the duration");
  /* the C++ kernel name became a dwarf name */
  CHECK(strstr(err.msg, "void k<float>") != NULL);
  /* a unit that is not a throughput */
  snprintf(p, sizeof p, "%s/unit.csv", tmp);
  check_write_file(p,
                   "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric "
                   "Description\",\"Min\",\"Max\",\"Avg\"\n"
                   "\"X (0)\",\"k\",1,\"gld_throughput\",\"c\",1,1,12.5%\n");
  const char *un[] = { p };
  expect_err(dcsim_calib_gpu(un, 1, 10, &c, &err), &err, "unit.csv", 2, "is not bytes per second");
  /* two devices in one export */
  snprintf(p, sizeof p, "%s/twodev.csv", tmp);
  check_write_file(
      p,
      "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric "
      "Description\",\"Min\",\"Max\",\"Avg\"\n"
      "\"X (0)\",\"k\",1,\"inst_misc\",\"c\",1,1,1\n\"Y (1)\",\"k\",1,\"inst_misc\",\"c\",1,1,1\n");
  const char *td[] = { p };
  expect_err(dcsim_calib_gpu(td, 1, 10, &c, &err), &err, "twodev.csv", 3, "one export per GPU");
  /* a kernel profiled on one GPU only */
  snprintf(p, sizeof p, "%s/onekernel.csv", tmp);
  check_write_file(p,
                   "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric "
                   "Description\",\"Min\",\"Max\",\"Avg\"\n"
                   "\"X (0)\",\"acraneb_transt3_212_gpu_A\",1,\"inst_misc\",\"c\",1,1,1\n");
  const char *ok[] = { GPU_DIR "gtx970-nvprof.csv", p };
  CHECK(dcsim_calib_gpu(ok, 2, N_D35, &c, &err) == DCSIM_EREF);
  CHECK(strstr(err.msg, "give every kernel on every GPU") != NULL);
  CHECK(c == NULL);
}

static void test_units(void) {
  struct {
    const char *s;
    double v;
    dcsim_unit_kind k;
  } ok[] = {
    { "84.07 GB/s", 84.07e9, DCSIM_UNIT_RATE },
    { "12.5MB/s", 12.5e6, DCSIM_UNIT_RATE },
    { "3.2 Gbyte/second", 3.2e9, DCSIM_UNIT_RATE },
    { "32.00 kB", 32000, DCSIM_UNIT_BYTES },
    { "1 KiB", 1024, DCSIM_UNIT_BYTES },
    { "2 MiB", 2097152, DCSIM_UNIT_BYTES },
    { "1,234,567", 1234567, DCSIM_UNIT_PLAIN },
    { "98.5%", 0.985, DCSIM_UNIT_PERCENT },
    { "2.7 GHz", 2.7e9, DCSIM_UNIT_FREQ },
    { "3 Minst", 3e6, DCSIM_UNIT_COUNT },
    { "0.61 inst/cycle", 0.61, DCSIM_UNIT_RATIO },
    /* as people type them on the command line */
    { "100Gb/s", 1.25e10, DCSIM_UNIT_RATE }, /* bits: 100e9 / 8 bytes per second */
    { "25 Gbit/s", 3.125e9, DCSIM_UNIT_RATE },
    { "12.5GB/s", 1.25e10, DCSIM_UNIT_RATE },
    { "2m", 120, DCSIM_UNIT_TIME },
    { "90min", 5400, DCSIM_UNIT_TIME },
    { "48h", 172800, DCSIM_UNIT_TIME },
    { "2.5d", 216000, DCSIM_UNIT_TIME },
    { "5y", 5 * 365.25 * 86400, DCSIM_UNIT_TIME },
    { "250ms", 0.25, DCSIM_UNIT_TIME },
    { "0.15USD/kWh", 0.15, DCSIM_UNIT_TARIFF },
    { "150 USD/MWh", 0.15, DCSIM_UNIT_TARIFF },
    { "2.538MJ", 2.538e6, DCSIM_UNIT_ENERGY },
    { "3.5 kWh", 1.26e7, DCSIM_UNIT_ENERGY },
  };
  for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
    double v = -1;
    dcsim_unit_kind k = DCSIM_UNIT_PLAIN;
    CHECK(dcsim__parse_quantity(ok[i].s, &v, &k) == 0);
    CHECK_REL(v, ok[i].v, 1e-12);
    CHECK_INT(k, ok[i].k);
  }
  double sc;
  dcsim_unit_kind k;
  CHECK(dcsim__parse_unit("usecond", &k, &sc) == 0 && k == DCSIM_UNIT_TIME &&
        fabs(sc - 1e-6) < 1e-18);
  CHECK(dcsim__parse_unit("ms", &k, &sc) == 0 && k == DCSIM_UNIT_TIME && fabs(sc - 1e-3) < 1e-15);
  const char *bad[] = { "mB", "ks", "furlong", "GB/h", "Mb", "kh", "Gbps", "EUR/kWh", "mJ" };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    CHECK(dcsim__parse_unit(bad[i], &k, &sc) != 0);
  double v;
  CHECK(dcsim__parse_quantity("nan GB/s", &v, &k) != 0);
  CHECK(dcsim__parse_quantity("", &v, &k) != 0);
}

/* profile rates at 2.6 GHz */
static int rates_of(const char *dir, unsigned threads, dcsim_cpu_rates *r) {
  dcsim_error err = { 0 };
  char *text = NULL, path[512];
  int rc = dcsim_calib_cpu_profile(dir, &text, &err);
  CHECK(rc == 0);
  if (rc) {
    fprintf(stderr, "  %s:%d: %s\n", err.file, err.line, err.msg);
    return -1;
  }
  snprintf(path, sizeof path, "%s/profile.xml", dir);
  check_write_file(path, text);
  free(text);
  dcsim_cpu_profile_t *p = NULL;
  CHECK((rc = dcsim_cpu_profile_load(path, &p, &err)) == 0);
  if (rc) return -1;
  dcsim_cpu_state st = { 2.6, NULL, threads };
  CHECK((rc = dcsim_cpu_profile_rates(p, &st, r, &err)) == 0);
  dcsim_cpu_profile_free(p);
  return rc;
}

static void copy_file(const char *from, const char *to) {
  char *text = NULL;
  dcsim_error err = { 0 };
  CHECK(dcsim__file_read_text(from, &text, &err) == 0);
  if (text) check_write_file(to, text);
  free(text);
}

#define LK "tests/data/calibration/likwid/"

static void test_likwid(const char *tmp) {
  dcsim_error err = { 0 };
  char dir[512], mx[600];
  snprintf(dir, sizeof dir, "%s/lk", tmp);
  CHECK(dcsim__mkdir_p(dir, &err) == 0);
  snprintf(mx, sizeof mx, "%s/machine.xml", dir);
  copy_file(LK "machine.xml", mx);
  const char *files[] = { LK "load_avx-L1.txt",  LK "load_avx-L2.txt",   LK "load_avx-L3.txt",
                          LK "load_avx-mem.txt", LK "peakflops_avx.txt", LK "peakflops_sp_avx.txt",
                          LK "copy_avx-L1.txt" };
  /* two bandwidth families: the caller must choose */
  int rc = dcsim_calib_import_likwid(files, 7, dir, NULL, NULL, NULL, &err);
  CHECK(rc == DCSIM_EUSAGE);
  CHECK(strstr(err.msg, "--test") != NULL);
  CHECK(dcsim_calib_import_likwid(files, 7, dir, "load", NULL, NULL, &err) == 0);
  /* D3.5 Tables 25-29, 2.6 GHz column */
  const struct {
    unsigned t;
    double p, l1, l2, l3, dram;
  } want[] = { { 1, 20.8, 125.99, 78.096, 33.445, 13.436 },
               { 2, 41.6, 262.627, 161.351, 77.878, 29.159 },
               { 14, 291.2, 1835.762, 1124.870, 208.916, 56.768 } };
  for (size_t i = 0; i < 3; i++) {
    dcsim_cpu_rates r;
    if (rates_of(dir, want[i].t, &r)) continue;
    CHECK_REL(r.flops, want[i].p * 1e9, 1e-9);
    CHECK_REL(r.l1_bps, want[i].l1 * 1e9, 1e-9);
    CHECK_REL(r.l2_bps, want[i].l2 * 1e9, 1e-9);
    CHECK_REL(r.l3_bps, want[i].l3 * 1e9, 1e-9);
    CHECK_REL(r.dram_bps, want[i].dram * 1e9, 1e-9);
  }
  /* the copy family alone: only an L1 table is replaced */
  const char *cp[] = { LK "copy_avx-L1.txt" };
  CHECK(dcsim_calib_import_likwid(cp, 1, dir, "copy_avx", "2.6", NULL, &err) == 0);
  dcsim_cpu_rates r;
  if (rates_of(dir, 1, &r) == 0) {
    CHECK_REL(r.l1_bps, 118.44e9, 1e-9);
    CHECK_REL(r.l2_bps, 78.096e9, 1e-9);
  }
  /* bad inputs */
  const char *nb[] = { LK "bad-no-mbyte.txt" };
  expect_err(dcsim_calib_import_likwid(nb, 1, dir, NULL, NULL, NULL, &err), &err,
             "bad-no-mbyte.txt", 38, "no 'MByte/s:' line");
  const char *nl[] = { LK "bad-not-likwid.txt" };
  expect_err(dcsim_calib_import_likwid(nl, 1, dir, NULL, NULL, NULL, &err), &err,
             "bad-not-likwid.txt", 1, "not likwid-bench output");
  CHECK(dcsim_calib_import_likwid(cp, 1, dir, NULL, "1.2", NULL, &err) == DCSIM_EREF);
  char nodir[600];
  snprintf(nodir, sizeof nodir, "%s/none", tmp);
  CHECK(dcsim_calib_import_likwid(cp, 1, nodir, NULL, NULL, NULL, &err) == DCSIM_EIO);
}

/* The likwid test directory's machine.xml with its spec's cache attributes, extra <freq> lines
 * and what follows </frequencies> given, written to dir/machine.xml; then one import of the copy
 * runs at --freq freq (NULL: none), which must fail at machine.xml:line saying msg. Lines: 3 spec,
 * 4 frequencies, 5 the first freq, 6 the next line. */
static void likwid_bad_manifest(const char *dir, const char *caches, const char *freqs,
                                const char *after, const char *freq, int line, const char *msg) {
  char *text = dcsim_strdup_printf(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<calibration-machine name=\"lk\" model=\"Intel Xeon E5-2697 v3\">\n"
      "  <spec cores-per-socket=\"14\" sockets=\"2\" nominal-ghz=\"2.6\"%s source=\"D3.5 Table "
      "21\"/>\n"
      "  <frequencies>\n"
      "    <freq id=\"2.6\" ghz=\"2.6\"/>\n%s"
      "  </frequencies>\n%s"
      "</calibration-machine>\n",
      caches, freqs, after);
  char *mx = dcsim_path_in(dir, "machine.xml");
  if (text && mx) check_write_file(mx, text);
  const char *cp[] = { LK "copy_avx-L1.txt" };
  dcsim_error err = { 0 };
  expect_err(dcsim_calib_import_likwid(cp, 1, dir, NULL, freq, NULL, &err), &err, "machine.xml",
             line, msg);
  free(mx);
  free(text);
}

/* machine.xml refused by import-likwid, each naming its element's line (input/calibmachine.c
 * reads it): a cache size missing, two frequency states and no --freq, an unknown --freq, and a
 * manifest `calibrate cpu` would refuse (an <energy freq> that names no state). */
static void test_likwid_manifest(const char *tmp) {
  dcsim_error err = { 0 };
  char *dir = dcsim_strdup_printf("%s/lkbad", tmp);
  CHECK(dir && dcsim__mkdir_p(dir, &err) == 0);
  const char *caches = " l1-byte=\"32768\" l2-byte=\"262144\" l3-byte=\"36700160\"";
  likwid_bad_manifest(dir, " l1-byte=\"32768\" l3-byte=\"36700160\"", "", "", NULL, 3,
                      "<spec>: l2-byte is needed to tell which cache");
  likwid_bad_manifest(dir, caches, "    <freq id=\"turbo\" ghz=\"3.6\" label=\"turbo\"/>\n", "",
                      NULL, 6, "several frequency states: say which one");
  likwid_bad_manifest(dir, caches, "", "", "1.2", 4, "<frequencies>: no <freq id=\"1.2\">");
  likwid_bad_manifest(
      dir, caches, "",
      "  <energy file=\"power.csv\" freq=\"9.9\" other-frequencies=\"error\" source=\"RAPL\"/>\n",
      "2.6", 7, "<energy freq=\"9.9\">: unknown frequency id");
  free(dir);
}

#define KC "tests/data/calibration/kerncraft/"

static void test_kerncraft(const char *tmp) {
  dcsim_error err = { 0 };
  char dir[512];
  snprintf(dir, sizeof dir, "%s/kc", tmp);
  CHECK(dcsim_calib_import_kerncraft(KC "HaswellEP_E5-2697v3.yml", dir, NULL, NULL, &err) == 0);
  dcsim_cpu_rates r;
  if (rates_of(dir, 14, &r) == 0) {
    CHECK_REL(r.flops, 16 * 2.6e9 * 14, 1e-12); /* theoretical: 16 DP flop/cycle */
    CHECK_REL(r.l1_bps, 1835.76e9, 1e-12);      /* D3.5 Table 26, two decimals */
    CHECK_REL(r.l3_bps, 208.92e9, 1e-12);
    CHECK_REL(r.dram_bps, 56.77e9, 1e-12);
  }
  if (rates_of(dir, 5, &r) == 0) CHECK_REL(r.l2_bps, 404.65e9, 1e-12);
  expect_err(dcsim_calib_import_kerncraft(KC "bad-syntax.yml", dir, NULL, NULL, &err), &err,
             "bad-syntax.yml", 31, "from line 29");
  expect_err(dcsim_calib_import_kerncraft(KC "bad-clock.yml", dir, NULL, NULL, &err), &err,
             "bad-clock.yml", 9, "clock: '2.6'");
  expect_err(dcsim_calib_import_kerncraft(KC "HaswellEP_E5-2697v3.yml", dir, "triad", NULL, &err),
             &err, "HaswellEP_E5-2697v3.yml", 75, "no results for kernel 'triad'");
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  char tmp[] = "/tmp/dcsim-test-calib-XXXXXX";
  if (!mkdtemp(tmp)) {
    perror("mkdtemp");
    return 1;
  }
  test_units();
  test_gpu_table9();
  test_gpu_errors(tmp);
  test_likwid(tmp);
  test_likwid_manifest(tmp);
  test_kerncraft(tmp);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmp);
  CHECK_DONE();
}
