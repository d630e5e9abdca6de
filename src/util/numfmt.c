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
