/* numfmt.c — the one rule for numbers people read (see dcsim/numfmt.h). */
#include "dcsim/numfmt.h"

#include "dcsim/strutil.h"

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
  dcsim_num_text e; /* "%.16e" of any double fits (dcsim/numfmt.h): nothing is cut */
  snprintf(e.s, sizeof e.s, "%.*e", digits < 1 ? 0 : digits > 17 ? 16 : digits - 1, x);
  const char *ep = strchr(e.s, 'e');
  *exp10 = ep ? atoi(ep + 1) : 0;
  return strtod(e.s, NULL);
}

/* the length of the text in buf (size bytes, terminated) */
static size_t text_len(const char *buf, size_t size) { return strnlen(buf, size - 1); }

/* x with `digits` significant digits; trailing zeros kept when `keep` (they are digits then).
 * Every form fits in 40 bytes (dcsim/numfmt.h): "%.17g" is at most 24 bytes; the plain form has
 * at most a sign, 15 integer digits, a point and 20 decimals (digits <= 17, e10 >= -4). A smaller
 * buffer gets the text cut as the header says. */
static char *sig_text(char *buf, size_t size, double x, int digits, int keep) {
  if (!buf || !size) return buf;
  digits = digits < 1 ? 1 : digits > 17 ? 17 : digits;
  if (isnan(x)) {
    (void)dcsim_bufprintf(buf, size, "-");
    return buf;
  }
  if (isinf(x)) {
    (void)dcsim_bufprintf(buf, size, "%s", x > 0 ? "inf" : "-inf");
    return buf;
  }
  x = dcsim_num_clean(x);
  int e10;
  double r = round_sig(x, digits, &e10);
  if (x == 0 || e10 < -4 || e10 >= 15) {
    (void)dcsim_bufprintf(buf, size, "%.*g", digits, x);
    return buf;
  }
  int dec = digits - 1 - e10;
  (void)dcsim_bufprintf(buf, size, "%.*f", dec > 0 ? dec : 0, r);
  if (!keep) strip_zeros(buf);
  if (strcmp(buf, "-0") == 0) (void)dcsim_bufprintf(buf, size, "0");
  return buf;
}

/* the significant digits the band supports: the last digit at the order of its half-width */
static int supported_digits(double x, const double band[2]) {
  double w = (band[1] - band[0]) / 2;
  if (!(w > 0) || !isfinite(w) || !isfinite(x) || x == 0) return DCSIM_NUM_DIGITS;
  /* the digit of x at w's order: 12.3 with a half-width of 3 is good to the units */
  int d = (int)floor(log10(fabs(x))) - (int)floor(log10(w)) + 1;
  return d < 1 ? 1 : d > DCSIM_NUM_DIGITS ? DCSIM_NUM_DIGITS : d;
}

char *dcsim_fmt_sig(char *buf, size_t size, double x, int digits) {
  return sig_text(buf, size, x, digits, 0);
}

static char *si_text(char *buf, size_t size, double x, int digits, const char *unit, int keep);

int dcsim_band_digits(double x, const double band[2]) {
  int d = supported_digits(x, band);
  return d < DCSIM_MIN_DIGITS ? DCSIM_MIN_DIGITS : d; /* the band carries the doubt */
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

/* the printed value v with `dv` digits, then the ends of x's band: each to the decimal place x has
 * with the digits the band supports, at least 2 significant digits, rounded outwards (438 with
 * [354, 584] has ends 350 and 590) */
static char *band_text(char *buf, size_t size, double v, int dv, double x, const double band[2],
                       const char *unit) {
  int s = supported_digits(x, band), dl = same_place(x, s, band[0]), dh = same_place(x, s, band[1]);
  dl = dl < 2 ? 2 : dl;
  dh = dh < 2 ? 2 : dh;
  double l = outward(band[0], dl, 0), h = outward(band[1], dh, 1);
  /* "v [lo, hi]", each piece written in place after the one before (cut when buf is short) */
  const double val[3] = { v, l, h };
  const int dig[3] = { dv, dl, dh };
  static const char *const after[3] = { " [", ", ", "]" };
  size_t len = 0;
  buf[0] = '\0';
  for (int i = 0; i < 3 && len + 1 < size; i++) {
    if (unit)
      si_text(buf + len, size - len, val[i], dig[i], unit, i == 0);
    else
      sig_text(buf + len, size - len, val[i], dig[i], i == 0);
    len = text_len(buf, size);
    size_t a = strlen(after[i]) < size - 1 - len ? strlen(after[i]) : size - 1 - len;
    memcpy(buf + len, after[i], a);
    buf[len += a] = '\0';
  }
  return buf;
}

char *dcsim_fmt_band(char *buf, size_t size, double x, const double band[2], const char *unit) {
  if (!buf || !size) return buf;
  return band_text(buf, size, x, dcsim_band_digits(x, band), x, band, unit);
}

char *dcsim_fmt_value(char *buf, size_t size, double x, const double band[2], const char *unit) {
  int d = dcsim_band_digits(x, band);
  return unit ? si_text(buf, size, x, d, unit, 1) : sig_text(buf, size, x, d, 1);
}

/* 10^e exactly where a double can hold it; a division by it rounds once (0.1 is not exact) */
static double scale(double units, int e) {
  return e >= 0 ? units * pow(10, e) : units / pow(10, -e);
}

/* whether the parts sum to the total, to 10^-9 of the largest */
static int is_sum(double total, const double *parts, size_t n) {
  double sum = 0, size = fabs(total);
  for (size_t i = 0; i < n; i++) sum += parts[i], size = fmax(size, fabs(parts[i]));
  return isfinite(total) && n > 0 && fabs(sum - total) <= 1e-9 * size;
}

double dcsim_round_sum(double total, int digits, const double *parts, size_t n, double *out,
                       int *place_exp) {
  digits = digits < 1 ? 1 : digits > 17 ? 17 : digits;
  int p = total != 0 && isfinite(total) ? (int)floor(log10(fabs(total))) - digits + 1 : 0;
  if (place_exp) *place_exp = p;
  if (!is_sum(total, parts, n)) {
    /* not a sum of these parts: nothing to share out; each rounded to the place on its own */
    for (size_t i = 0; i < n; i++)
      out[i] =
          isfinite(parts[i]) ? dcsim_num_clean(scale(round(scale(parts[i], -p)), p)) : parts[i];
    return isfinite(total) ? dcsim_num_clean(scale(round(scale(total, -p)), p)) : total;
  }
  /* largest remainder (Hamilton's method): each part down to the place, then one more unit of the
   * place to each of the parts with the largest remainders until they sum to the total rounded to
   * the place; the parts of a total that is their sum need at most n such units */
  long long want = llround(scale(total, -p)), have = 0;
  for (size_t i = 0; i < n; i++) {
    out[i] = floor(scale(parts[i], -p));
    have += (long long)out[i];
  }
  for (; have < want; have++) {
    size_t best = n;
    double rb = 0;
    for (size_t i = 0; i < n; i++) { /* a part that got its unit has a negative remainder */
      double r = scale(parts[i], -p) - out[i];
      if (r > rb) rb = r, best = i; /* ties: the first part */
    }
    if (best == n) break; /* the parts sum to less than the total: print what they sum to */
    out[best] += 1;
  }
  for (size_t i = 0; i < n; i++) out[i] = dcsim_num_clean(scale(out[i], p));
  return dcsim_num_clean(scale((double)have, p)); /* the sum of the printed parts */
}

char *dcsim_fmt_place(char *buf, size_t size, double x, int place_exp, const char *unit) {
  if (!buf || !size) return buf;
  int d = x != 0 && isfinite(x) ? (int)floor(log10(fabs(x))) - place_exp + 1 : DCSIM_NUM_DIGITS;
  /* a value on the place may print one digit above its exponent: 999.97 at 0.1 is 1000.0 */
  d = d < 1 ? 1 : d;
  return unit ? si_text(buf, size, x, d, unit, 1) : sig_text(buf, size, x, d, 1);
}

char *dcsim_fmt_band_sum(char *buf, size_t size, double total, const double band[2],
                         const char *unit, const double *parts, size_t n, char *part_buf,
                         size_t part_size) {
  double r[DCSIM_MAX_PARTS];
  int p;
  if (n > DCSIM_MAX_PARTS) n = DCSIM_MAX_PARTS;
  if (!is_sum(total, parts, n)) { /* not its parts: each printed as any number */
    for (size_t i = 0; i < n; i++)
      if (unit)
        dcsim_fmt_si(part_buf + i * part_size, part_size, parts[i], DCSIM_NUM_DIGITS, unit);
      else
        dcsim_fmt_sig(part_buf + i * part_size, part_size, parts[i], DCSIM_NUM_DIGITS);
    return dcsim_fmt_band(buf, size, total, band, unit);
  }
  double t = dcsim_round_sum(total, dcsim_band_digits(total, band), parts, n, r, &p);
  for (size_t i = 0; i < n; i++)
    dcsim_fmt_place(part_buf + i * part_size, part_size, r[i], p, unit);
  if (!buf || !size) return buf;
  int dv = t != 0 && isfinite(t) ? (int)floor(log10(fabs(t))) - p + 1 : DCSIM_NUM_DIGITS;
  return band_text(buf, size, t, dv < 1 ? 1 : dv, total, band, unit);
}

char *dcsim_fmt_si(char *buf, size_t size, double x, int digits, const char *unit) {
  return si_text(buf, size, x, digits, unit, 0);
}

static char *si_text(char *buf, size_t size, double x, int digits, const char *unit, int keep) {
  static const char *const prefix[] = { "p", "n", "µ", "m", "", "k", "M", "G", "T", "P", "E" };
  if (!buf || !size) return buf;
  if (!unit) unit = "";
  digits = digits < 1 ? 1 : digits > 17 ? 17 : digits;
  x = dcsim_num_clean(x);
  const char *pre = "";
  if (isfinite(x) && x != 0) {
    int k = (int)floor(log10(fabs(x)) / 3); /* powers of 1000 */
    k = k < -4 ? -4 : k > 6 ? 6 : k;
    double m = x / pow(1000, k);
    int e10;
    if (fabs(round_sig(m, digits, &e10)) >= 1000 && k < 6) { /* 999.9999 rounds up to 1000 */
      k++;
      m = x / pow(1000, k);
    }
    x = m;
    pre = prefix[k + 4];
  } else
    keep = 0;
  /* the mantissa in place, then " PREFIXUNIT" after it (cut when buf is short) */
  sig_text(buf, size, x, digits, keep);
  size_t len = text_len(buf, size);
  snprintf(buf + len, size - len, " %s%s", pre, unit);
  return buf;
}

const char *dcsim_plural(unsigned long long n, const char *one, const char *many) {
  return n == 1 ? one : many;
}
