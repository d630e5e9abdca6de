/* test_numfmt.c — the one rule for numbers people read (dcsim/numfmt.h). */
#include "dcsim/lib.h"
#include "dcsim/numfmt.h"

#include <math.h>
#include <string.h>

#include "check.h"

static void test_sig(void) {
  char b[48];
  CHECK_STR(dcsim_fmt_sig(b, sizeof b, 1118890.4, 6), "1118890"); /* %.6g: 1.11889e+06 */
  CHECK_STR(dcsim_fmt_sig(b, sizeof b, 1.2897e10, 6), "12897000000");
  CHECK_STR(dcsim_fmt_sig(b, sizeof b, 2858.9512, 6), "2858.95");
  CHECK_STR(dcsim_fmt_sig(b, sizeof b, 0.000123456789, 6), "0.000123457");
  CHECK_STR(dcsim_fmt_sig(b, sizeof b, 4.2e-5, 6), "4.2e-05");
  CHECK_STR(dcsim_fmt_sig(b, sizeof b, 3.0, 6), "3");
  CHECK_STR(dcsim_fmt_sig(b, sizeof b, -0.0, 6), "0");
  CHECK_STR(dcsim_fmt_sig(b, sizeof b, 2.5e15, 6), "2.5e+15");
  CHECK_STR(dcsim_fmt_sig(b, sizeof b, 999999.7, 6), "1000000"); /* rounds up a decade */
  CHECK_STR(dcsim_fmt_sig(b, sizeof b, -12.3456789, 4), "-12.35");
  CHECK_STR(dcsim_fmt_sig(b, sizeof b, NAN, 6), "-");
  CHECK_STR(DCSIM_SIG(929697.04), "929697");
}

static void test_si(void) {
  char b[64];
  CHECK_STR(dcsim_fmt_si(b, sizeof b, 1.2897e10, 6, "J"), "12.897 GJ");
  CHECK_STR(dcsim_fmt_si(b, sizeof b, 1.17e12, 3, "FLOP/s"), "1.17 TFLOP/s");
  CHECK_STR(dcsim_fmt_si(b, sizeof b, 929697.04, 6, "J"), "929.697 kJ");
  CHECK_STR(dcsim_fmt_si(b, sizeof b, 999.99999, 3, "W"), "1 kW"); /* not "1000 W" */
  CHECK_STR(dcsim_fmt_si(b, sizeof b, 0.0042, 6, "s"), "4.2 ms");
  CHECK_STR(dcsim_fmt_si(b, sizeof b, 3.72e-6, 3, "J"), "3.72 µJ");
  CHECK_STR(dcsim_fmt_si(b, sizeof b, 0, 6, "J"), "0 J");
  CHECK_STR(dcsim_fmt_si(b, sizeof b, -0.0, 6, "J"), "0 J");
  CHECK_STR(dcsim_fmt_si(b, sizeof b, 68.3, 6, "B/s"), "68.3 B/s");
  CHECK_STR(DCSIM_SI(2.5e21, "J"), "2500 EJ"); /* beyond the prefixes: the largest */
}

static void test_noise_plural(void) {
  /* held idle energy = energy - task energy: -3.72529e-09 J of 1.2897e10 J is rounding */
  CHECK(dcsim_num_diff(12897000000.0, 12897000000.0 + 3.72529e-09) == 0);
  CHECK(!signbit(dcsim_num_diff(1.0, 1.0 + 1e-12)));
  CHECK_REL(dcsim_num_diff(929697.0, 664727.0), 264970.0, 1e-12);
  CHECK(!signbit(dcsim_num_clean(-0.0)));
  CHECK_STR(dcsim_plural(1, "node", "nodes"), "node");
  CHECK_STR(dcsim_plural(0, "node", "nodes"), "nodes");
  CHECK_STR(dcsim_plural(8, "point", "points"), "points");
}

/* a value with a band prints no more digits than the band supports (dcsim/bands.h) */
static void test_band(void) {
  char b[160];
  const double t[2] = { 115.6, 124.98 }, e[2] = { 1.6e6, 4.7e6 }, none[2] = { 117.72, 117.72 };
  CHECK(dcsim_band_digits(120.101, t) == 3);   /* half-width 4.7: the units digit */
  CHECK(dcsim_band_digits(3.05e6, e) == 1);    /* half-width 1.55e6: the millions */
  CHECK(dcsim_band_digits(117.72, none) == 6); /* no band: the usual 6 */
  CHECK_STR(dcsim_fmt_band(b, sizeof b, 120.101, t, NULL), "120 [115, 125]"); /* ends outwards */
  CHECK_STR(dcsim_fmt_band(b, sizeof b, 3.05e6, e, "J"),
            "3 MJ [1.6 MJ, 4.7 MJ]"); /* ends: 2 digits */
  const double g[2] = { 9.59, 14.53 };
  CHECK_STR(dcsim_fmt_band(b, sizeof b, 11.8637, g, NULL), "12 [9.5, 15]");
  /* an end rounded to the nearest would say 400 [400, 600]: the band's low end is 354 */
  const double k[2] = { 354.2506637, 583.8121086 };
  CHECK_STR(dcsim_fmt_band(b, sizeof b, 438.4290392, k, NULL), "400 [350, 590]");
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  test_band();
  test_sig();
  test_si();
  test_noise_plural();
  CHECK_DONE();
}
