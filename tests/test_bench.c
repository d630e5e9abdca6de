/* test_bench.c — the pieces of `dcsim bench` whose results can be checked exactly: the FMA, load
 * and loop kernels compute what they should (every ISA variant the machine runs), sysfs cache
 * descriptions parse (a fake tree), RAPL zones are found by name and a wrapped counter is counted
 * once (a fake powercap tree), and nvidia-smi output parses. No timing is asserted. */
#include <stdlib.h>

#include "check.h"
#include "dcsim/bench.h"
#include "dcsim/energymeter.h"
#include "dcsim/lib.h"

static void test_fma(void) {
  for (int isa = 0; isa < 3; isa++) {
    if (!dcsim_bench_isa_available((dcsim_bench_isa)isa)) {
      fprintf(stderr, "skip %s (not on this CPU)\n", dcsim_bench_isa_name(isa));
      continue;
    }
    double sum = 0;
    uint64_t iters = 1000003;
    double flop = dcsim_bench_fma((dcsim_bench_isa)isa, iters, 1.0, 0.5, &sum);
    double lanes = isa == 0 ? 12 : isa == 1 ? 48 : 96; /* 12 accumulators x vector lanes */
    CHECK_REL(flop, 2 * lanes * (double)iters, 1e-15);
    /* accumulators start at 1..lanes, each gains 0.5 per iteration: exact in double */
    CHECK_REL(sum, lanes * (lanes + 1) / 2 + lanes * 0.5 * (double)iters, 1e-15);
  }
}

static void test_load(void) {
  size_t n = 4096;
  double *x = aligned_alloc(64, n * sizeof *x), s = 0;
  for (size_t i = 0; i < n; i++) x[i] = (double)(i % 9) * 0.25;
  double want = 0;
  for (size_t i = 0; i < n; i++) want += x[i];
  for (int isa = 0; isa < 2; isa++) {
    if (!dcsim_bench_isa_available((dcsim_bench_isa)isa)) continue;
    double bytes = dcsim_bench_load((dcsim_bench_isa)isa, x, n, 3, &s);
    CHECK_REL(bytes, 3.0 * 8 * (double)n, 1e-15);
    CHECK_REL(s, 3 * want, 1e-12);
  }
  free(x);
}

static void test_loops(void) {
  dcsim_error err = { 0 };
  for (int k = 0; k < DCSIM_LOOP_COUNT; k++) {
    dcsim_bench_loop_data *d = NULL;
    CHECK(dcsim_bench_loop_alloc((dcsim_bench_loop_kind)k, 1000, 7, &d, &err) == 0);
    if (!d) continue;
    size_t n = dcsim_bench_loop_n(d);
    double c = dcsim_bench_loop_run(d, 2);
    const dcsim_bench_loop_info *li = dcsim_bench_loop((dcsim_bench_loop_kind)k);
    CHECK(li->byte_per_elem > 0 && li->footprint_per_elem > 0);
    switch (k) {
      case DCSIM_LOOP_COPY: /* b = a, a[i] = 1 + (i % 7)/8 */
        CHECK_ABS(dcsim_bench_loop_out(d, 13), 1.0 + 6 * 0.125, 0);
        CHECK_INT(n, 1000);
        break;
      case DCSIM_LOOP_TRIAD: /* a = b + 1.5 c, b[i] = 0.5 (i % 5), c[i] = 0.25 (i % 3) */
        CHECK_ABS(dcsim_bench_loop_out(d, 7), 0.5 * 2 + 1.5 * 0.25 * 1, 1e-15);
        break;
      case DCSIM_LOOP_DOT: {
        double want = 0;
        for (size_t i = 0; i < n; i++)
          want += (1.0 + (double)(i % 7) * 0.125) * 0.5 * (double)(i % 5);
        CHECK_REL(c, 2 * want, 1e-12);
        break;
      }
      case DCSIM_LOOP_STENCIL7: {
        CHECK_INT(n, 1000); /* 10^3 interior points */
        /* point (1,1,1) of a 12^3 grid: q = 144 + 12 + 1 */
        size_t e = 12, pl = 144, q = pl + e + 1;
#define A(i) (1.0 + (double)((i) % 7) * 0.125)
        double want =
            0.5 * A(q) + (A(q - 1) + A(q + 1) + A(q - e) + A(q + e) + A(q - pl) + A(q + pl)) / 12;
        CHECK_REL(dcsim_bench_loop_out(d, q), want, 1e-15);
        break;
      }
      case DCSIM_LOOP_GATHER: { /* a permutation: the sum equals the plain sum of b */
        double want = 0;
        for (size_t i = 0; i < n; i++) want += 0.5 * (double)(i % 5);
        CHECK_REL(c, 2 * want, 1e-12);
        break;
      }
    }
    dcsim_bench_loop_free(d);
  }
  dcsim_bench_loop_data *d = NULL;
  CHECK(dcsim_bench_loop_alloc(DCSIM_LOOP_COPY, 3, 1, &d, &err) == DCSIM_ERANGE);
}

static void test_sysfs(void) {
  dcsim_bench_caches c;
  dcsim_error err = { 0 };
  CHECK(dcsim_bench_read_caches("tests/data/bench/sysfs", &c, &err) == 0);
  CHECK_ABS(c.l1d_byte, 48 * 1024, 0);
  CHECK_ABS(c.l2_byte, 1280 * 1024, 0);
  CHECK_ABS(c.l3_byte, 30720.0 * 1024, 0);
  CHECK_INT(c.l2_shared_cpus, 2);
  CHECK_INT(c.l3_shared_cpus, 16);
  CHECK(dcsim_bench_read_caches("tests/data/bench/sysfs-bad", &c, &err) == DCSIM_EPARSE);
  CHECK_STR(err.file, "tests/data/bench/sysfs-bad/cpu0/cache/index0/size");
  CHECK(dcsim_bench_read_caches("tests/data/bench/none", &c, &err) == DCSIM_EIO);
  CHECK_ABS(dcsim_bench_parse_size("1M"), 1048576, 0);
  CHECK(dcsim_bench_parse_size("12X") < 0);
  double g = dcsim_bench_clock_probe_ghz(1u << 16); /* value not asserted: only that it runs */
  CHECK(g >= 0 && isfinite(g));
}

static void test_rapl(void) {
  dcsim_rapl_t *r = NULL;
  dcsim_error err = { 0 };
  CHECK(dcsim_rapl_open("tests/data/bench/powercap", &r, &err) == 0);
  if (!r) return;
  CHECK_INT(dcsim_rapl_n_zones(r), 2); /* package-0 and dram; core and psys ignored */
  CHECK_STR(dcsim_rapl_zone_name(r, 0), "package-0");
  CHECK_STR(dcsim_rapl_zone_name(r, 1), "dram");
  CHECK(dcsim_rapl_zone_domain(r, 1) == DCSIM_RAPL_DRAM);
  uint64_t a[2], b[2];
  CHECK(dcsim_rapl_read(r, a, &err) == 0);
  CHECK(a[0] == 262143000000ULL && a[1] == 1000000ULL);
  /* wraparound: 262143000000 -> (wrap at 262143328850) -> 671150 = 1.0 J */
  CHECK_ABS(dcsim_rapl_delta_j(r, 0, 262143000000ULL, 671150ULL), 1.0, 1e-12);
  CHECK_ABS(dcsim_rapl_delta_j(r, 0, 1000, 2501000), 2.5, 1e-12);
  b[0] = 671150;
  b[1] = 3500000;
  CHECK_ABS(dcsim_rapl_domain_j(r, DCSIM_RAPL_PKG, a, b), 1.0, 1e-12);
  CHECK_ABS(dcsim_rapl_domain_j(r, DCSIM_RAPL_DRAM, a, b), 2.5, 1e-12);
  dcsim_rapl_close(r);
  r = NULL;
  CHECK(dcsim_rapl_open("tests/data/bench/none", &r, &err) == DCSIM_EIO);
  CHECK(strstr(err.msg, "powercap interface is absent") != NULL);
  CHECK(dcsim_rapl_open("tests/data/bench/sysfs", &r, &err) == DCSIM_EIO);
  CHECK(strstr(err.msg, "no intel-rapl package or dram zone") != NULL);
}

static void test_nvsmi(void) {
  /* recorded format of nvidia-smi --query-gpu=index,name,power.draw,power.limit,clocks.sm
   * --format=csv,noheader,nounits */
  const char *out =
      "0, NVIDIA H100 80GB HBM3, 71.25, 700.00, 1980\n1, Tesla K20m, [N/A], 225.00, 705\n";
  dcsim_gpu_power g[4];
  dcsim_error err = { 0 };
  CHECK_INT(dcsim_nvsmi_parse(out, g, 4, &err), 2);
  CHECK_STR(g[0].name, "NVIDIA H100 80GB HBM3");
  CHECK_ABS(g[0].power_w, 71.25, 0);
  CHECK_ABS(g[0].limit_w, 700, 0);
  CHECK_ABS(g[1].sm_clock_mhz, 705, 0);
  CHECK(isnan(g[1].power_w));
  CHECK(dcsim_nvsmi_parse("0, x, 1\n", g, 4, &err) == DCSIM_EPARSE);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  test_fma();
  test_load();
  test_loops();
  test_sysfs();
  test_rapl();
  test_nvsmi();
  CHECK_DONE();
}
