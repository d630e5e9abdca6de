/* numfmt.c — the one rule for numbers people read (see dcsim/numfmt.h). */
#include "dcsim/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double dcsim_num_clean(double x) { return x == 0 ? 0.0 : x; }

double dcsim_num_diff(double a, double b) {
  double d = a - b, size = fmax(fabs(a), fabs(b));
  return fabs(d) <= 1e-9 * size ? 0.0 : d;
}

/* "1.50000" -> "1.5", "2.000" -> "2" */
static void strip_zeros(char *s) {
  char *dot = strchr(s, '.');
  if (!dot) return;
  char *end = s + strlen(s);
  while (end > dot + 1 && end[-1] == '0') *--end = '\0';
  if (end == dot + 1) *dot = '\0';
}

/* x rounded to `digits` significant digits and its decimal exponent */
static double round_sig(double x, int digits, int *exp10) {
  char e[64];
  snprintf(e, sizeof e, "%.*e", digits - 1, x);
  const char *ep = strchr(e, 'e');
  *exp10 = ep ? atoi(ep + 1) : 0;
  return strtod(e, NULL);
}

char *dcsim_fmt_sig(char *buf, size_t size, double x, int digits) {
  if (!buf || !size) return buf;
  digits = digits < 1 ? 1 : digits > 17 ? 17 : digits;
  if (isnan(x)) {
    snprintf(buf, size, "-");
    return buf;
  }
  if (isinf(x)) {
    snprintf(buf, size, "%s", x > 0 ? "inf" : "-inf");
    return buf;
  }
  x = dcsim_num_clean(x);
  int e10;
  double r = round_sig(x, digits, &e10);
  if (x == 0 || e10 < -4 || e10 >= 15) {
    snprintf(buf, size, "%.*g", digits, x);
    return buf;
  }
  int dec = digits - 1 - e10;
  snprintf(buf, size, "%.*f", dec > 0 ? dec : 0, r);
  strip_zeros(buf);
  if (strcmp(buf, "-0") == 0) snprintf(buf, size, "0");
  return buf;
}

int dcsim_band_digits(double x, const double band[2]) {
  double w = (band[1] - band[0]) / 2;
  if (!(w > 0) || !isfinite(w) || !isfinite(x) || x == 0) return DCSIM_NUM_DIGITS;
  /* the digit of x at w's order: 12.3 with a half-width of 3 prints as 12 */
  int d = (int)floor(log10(fabs(x))) - (int)floor(log10(w)) + 1;
  return d < 1 ? 1 : d > DCSIM_NUM_DIGITS ? DCSIM_NUM_DIGITS : d;
}

/* the digits that print y to the same decimal place as x printed with d digits */
static int same_place(double x, int d, double y) {
  if (x == 0 || y == 0 || !isfinite(x) || !isfinite(y)) return d;
  int k = (int)floor(log10(fabs(y))) - ((int)floor(log10(fabs(x))) - d + 1) + 1;
  return k < 1 ? 1 : k > DCSIM_NUM_DIGITS ? DCSIM_NUM_DIGITS : k;
}

/* y to `digits` significant digits, rounded outwards (down when `up` is 0, else up): a band's
 * printed ends never claim less than the band. The 1e-9 keeps an end already on the place. */
static double outward(double y, int digits, int up) {
  if (y == 0 || !isfinite(y)) return y;
  double place = pow(10, (int)floor(log10(fabs(y))) - digits + 1);
  return (up ? ceil(y / place - 1e-9) : floor(y / place + 1e-9)) * place;
}

char *dcsim_fmt_band(char *buf, size_t size, double x, const double band[2], const char *unit) {
  char v[64], lo[64], hi[64];
  /* the value to the digits the band supports; each end to the value's decimal place but at least
   * 2 significant digits, rounded outwards (438 [354, 584] prints as 400 [350, 590]) */
  int d = dcsim_band_digits(x, band), dl = same_place(x, d, band[0]),
      dh = same_place(x, d, band[1]);
  dl = dl < 2 ? 2 : dl;
  dh = dh < 2 ? 2 : dh;
  double l = outward(band[0], dl, 0), h = outward(band[1], dh, 1);
  if (unit) {
    dcsim_fmt_si(v, sizeof v, x, d, unit);
    dcsim_fmt_si(lo, sizeof lo, l, dl, unit);
    dcsim_fmt_si(hi, sizeof hi, h, dh, unit);
  } else {
    dcsim_fmt_sig(v, sizeof v, x, d);
    dcsim_fmt_sig(lo, sizeof lo, l, dl);
    dcsim_fmt_sig(hi, sizeof hi, h, dh);
  }
  snprintf(buf, size, "%s [%s, %s]", v, lo, hi);
  return buf;
}

char *dcsim_fmt_si(char *buf, size_t size, double x, int digits, const char *unit) {
  static const char *const prefix[] = { "p", "n", "µ", "m", "", "k", "M", "G", "T", "P", "E" };
  if (!buf || !size) return buf;
  if (!unit) unit = "";
  digits = digits < 1 ? 1 : digits > 17 ? 17 : digits;
  x = dcsim_num_clean(x);
  if (!isfinite(x) || x == 0) {
    char v[48];
    snprintf(buf, size, "%s %s", dcsim_fmt_sig(v, sizeof v, x, digits), unit);
    return buf;
  }
  int k = (int)floor(log10(fabs(x)) / 3); /* powers of 1000 */
  k = k < -4 ? -4 : k > 6 ? 6 : k;
  double m = x / pow(1000, k);
  int e10;
  if (fabs(round_sig(m, digits, &e10)) >= 1000 && k < 6) { /* 999.9999 rounds up to 1000 */
    k++;
    m = x / pow(1000, k);
  }
  char v[48];
  snprintf(buf, size, "%s %s%s", dcsim_fmt_sig(v, sizeof v, m, digits), prefix[k + 4], unit);
  return buf;
}

const char *dcsim_plural(unsigned long long n, const char *one, const char *many) {
  return n == 1 ? one : many;
}
