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

/* a value with a band prints at least 3 significant digits; the band's ends no more than the band
 * supports, rounded outwards (dcsim/bands.h) */
static void test_band(void) {
  char b[160];
  const double t[2] = { 115.6, 124.98 }, e[2] = { 1.6e6, 4.7e6 }, none[2] = { 117.72, 117.72 };
  CHECK(dcsim_band_digits(120.101, t) == 3);   /* half-width 4.7: the units digit */
  CHECK(dcsim_band_digits(3.05e6, e) == 3);    /* half-width 1.55e6 supports 1: at least 3 */
  CHECK(dcsim_band_digits(117.72, none) == 6); /* no band: the usual 6 */
  const double n[2] = { 117.70, 117.74 };
  CHECK(dcsim_band_digits(117.7234, n) == 5); /* half-width 0.02: the hundredths */
  CHECK_STR(dcsim_fmt_band(b, sizeof b, 120.101, t, NULL), "120 [115, 125]"); /* ends outwards */
  CHECK_STR(dcsim_fmt_band(b, sizeof b, 3.05e6, e, "J"),
            "3.05 MJ [1.6 MJ, 4.7 MJ]"); /* ends: 2 digits */
  const double g[2] = { 9.59, 14.53 };
  CHECK_STR(dcsim_fmt_band(b, sizeof b, 11.8637, g, NULL), "11.9 [9.5, 15]");
  /* an end rounded to the nearest would say 438 [400, 600]: the band's low end is 354 */
  const double k[2] = { 354.2506637, 583.8121086 };
  CHECK_STR(dcsim_fmt_band(b, sizeof b, 438.4290392, k, NULL), "438 [350, 590]");
  /* the example: ectrans-lam alaro on one Gold 6148 core */
  const double tl[2] = { 1.8, 2.9 }, el[2] = { 133.4, 583.1 };
  CHECK_STR(dcsim_fmt_band(b, sizeof b, 2.4875, tl, NULL), "2.49 [1.8, 2.9]");
  CHECK_STR(dcsim_fmt_band(b, sizeof b, 266.9291, el, "J"), "267 J [130 J, 590 J]");
  CHECK_STR(dcsim_fmt_band(b, sizeof b, 2.603867, tl, NULL), "2.60 [1.8, 2.9]"); /* 3 digits */
  CHECK_STR(dcsim_fmt_value(b, sizeof b, 2.603867, tl, NULL), "2.60");
  /* the pieces are written in place: a short buffer is cut, terminated, never overrun */
  char cut[12];
  CHECK_STR(dcsim_fmt_band(cut, sizeof cut, 266.9291, el, "J"), "267 J [130 ");
  CHECK_STR(dcsim_fmt_si(cut, 6, 1.17e12, 6, "FLOP/s"), "1.17 ");
  const double wide[2] = { 0.6e6, 2.3e6 };
  CHECK_STR(dcsim_fmt_value(b, sizeof b, 1.2e6, wide, "J"), "1.20 MJ");
}

/* a total printed with its parts equals the sum of the printed parts (largest remainder) */
static void test_sum(void) {
  char b[160], pt[4][64];
  double r[4];
  int pe;
  /* 266.9291 J = PKG 115.36 + DRAM 21.8971 + base 129.672: each rounded to the nearest would say
   * 115 + 22 + 130 = 267; here the remainders decide nothing new */
  const double el[2] = { 133.4, 583.1 }, parts[] = { 115.36, 21.8971, 129.6720 };
  dcsim_fmt_band_sum(b, sizeof b, 266.9291, el, "J", parts, 3, pt[0], sizeof pt[0]);
  CHECK_STR(b, "267 J [130 J, 590 J]");
  CHECK_STR(pt[0], "115 J");
  CHECK_STR(pt[1], "22 J");
  CHECK_STR(pt[2], "130 J");
  /* three parts of 1.4 each: to the nearest 1 + 1 + 1 = 3 against a total of 4.2 -> 4; largest
   * remainder gives one part the unit (the first of equal remainders) */
  const double thirds[] = { 1.4, 1.4, 1.4 };
  CHECK_REL(dcsim_round_sum(4.2, 1, thirds, 3, r, &pe), 4.0, 1e-12);
  CHECK(pe == 0);
  CHECK_REL(r[0], 2.0, 1e-12);
  CHECK_REL(r[1], 1.0, 1e-12);
  CHECK_REL(r[2], 1.0, 1e-12);
  /* to a decimal place: 12.345 + 0.0551 + 7.6199 = 20.02 at 3 digits -> 20.0 = 12.3 + 0.1 + 7.6 */
  const double small[] = { 12.345, 0.0551, 7.6199 };
  double t = dcsim_round_sum(12.345 + 0.0551 + 7.6199, 3, small, 3, r, &pe);
  CHECK(pe == -1);
  CHECK_REL(t, 20.0, 1e-12);
  CHECK_STR(dcsim_fmt_place(b, sizeof b, r[0], pe, NULL), "12.3");
  CHECK_STR(dcsim_fmt_place(b, sizeof b, r[1], pe, NULL), "0.1");
  CHECK_STR(dcsim_fmt_place(b, sizeof b, r[2], pe, NULL), "7.6");
  CHECK_STR(dcsim_fmt_place(b, sizeof b, t, pe, NULL), "20.0"); /* the zero is a digit */
  CHECK_REL(r[0] + r[1] + r[2], t, 1e-12);
  /* a part that rounds to nothing prints 0; SI prefixes as dcsim_fmt_si */
  const double big[] = { 2.6634e6, 1234.5 }, bb[2] = { 1.5e6, 4e6 };
  dcsim_fmt_band_sum(b, sizeof b, 2.6634e6 + 1234.5, bb, "J", big, 2, pt[0], sizeof pt[0]);
  CHECK_STR(b, "2.66 MJ [1.5 MJ, 4 MJ]");
  CHECK_STR(pt[0], "2.66 MJ");
  CHECK_STR(pt[1], "0 J");
  /* parts that are not the total's parts are not forced onto it: printed as any number */
  const double lb[2] = { 250, 350 };
  dcsim_fmt_band_sum(b, sizeof b, 300.4, lb, NULL, (const double[]){ 100.123456, 50 }, 2, pt[0],
                     sizeof pt[0]);
  CHECK_STR(b, "300 [250, 350]");
  CHECK_STR(pt[0], "100.123");
  const double wrong[] = { 100, 50 };
  CHECK_REL(dcsim_round_sum(300.4, 3, wrong, 2, r, &pe), 300.0, 1e-12);
  CHECK_REL(r[0], 100, 1e-12);
  /* no band: 6 digits, and a total of NaN stays NaN */
  const double none[2] = { 42.123456, 42.123456 }, two[] = { 40.1000004, 2.0234556 };
  dcsim_fmt_band_sum(b, sizeof b, 42.123456, none, NULL, two, 2, pt[0], sizeof pt[0]);
  CHECK_STR(pt[0], "40.1000"); /* to the total's place: 40.1000 + 2.0235 = 42.1235 */
  CHECK_STR(pt[1], "2.0235");  /* 40.1000004 + 2.0234556: the unit to the larger remainder */
  CHECK(isnan(dcsim_round_sum(NAN, 3, two, 2, r, &pe)));
}

/* the property on 2000 made-up sums (a fixed LCG: the same every run): the rounded parts sum to
 * the returned total, which is the total rounded to its place; each part moved by less than one
 * unit of the place */
static void test_sum_property(void) {
  unsigned long long s = 2385;
  int bad = 0;
  for (int k = 0; k < 2000; k++) {
    double parts[5], r[5], total = 0;
    size_t n = 2 + (size_t)(k % 4);
    for (size_t i = 0; i < n; i++) {
      s = s * 6364136223846793005ULL + 1442695040888963407ULL;
      double u = (double)(s >> 11) / 9007199254740992.0; /* [0, 1) */
      parts[i] = pow(10, 6 * u - 2) * (1 + u);           /* 0.01 .. 2e4 */
      total += parts[i];
    }
    int digits = 3 + k % 4, pe;
    double t = dcsim_round_sum(total, digits, parts, n, r, &pe), place = pow(10, pe), sum = 0;
    for (size_t i = 0; i < n; i++) {
      sum += r[i];
      bad += fabs(r[i] - parts[i]) >= place * (1 + 1e-9);
    }
    bad += fabs(sum - t) > 1e-9 * place * (double)n;              /* the parts add up */
    bad += fabs(t - round(total / place) * place) > 1e-6 * place; /* the total is rounded */
  }
  CHECK(bad == 0);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  test_band();
  test_sum();
  test_sum_property();
  test_sig();
  test_si();
  test_noise_plural();
  CHECK_DONE();
}
