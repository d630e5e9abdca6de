/* dcsim/numfmt.h — the one rule for numbers people read (doc/cli.md, "Numbers").
 *
 * Text output:
 *   - every number has 6 significant digits, trailing zeros dropped (as %.6g), but written out in
 *     plain notation from 0.0001 to below 10^15: 1118890, not 1.11889e+06 (dcsim_fmt_sig);
 *   - a quantity standing on its own with a unit other than seconds takes an SI prefix instead:
 *     12.897 GJ, 1.17 TFLOP/s, 68.3 GB/s (dcsim_fmt_si); times stay in seconds;
 *   - table columns name their unit in the header and print dcsim_fmt_sig values;
 *   - counts agree with their noun: 1 node, 8 nodes (dcsim_plural);
 *   - rounding noise is zero: a difference of two nearly equal numbers (held idle energy = energy
 *     - task energy) is 0 when it is below 10^-9 of their size (dcsim_num_diff), and -0 is 0.
 * Machine output (JSON, CSV) keeps %.10g; it only clamps the noise (dcsim_num_diff, -0).
 *
 * The formatters write into a caller buffer and return it; DCSIM_SIG(x) and DCSIM_SI(x, unit)
 * give a buffer that lives until the end of the enclosing block, for use inside printf(). Nothing
 * here allocates or keeps state. */
#ifndef DCSIM_NUMFMT_H
#define DCSIM_NUMFMT_H

#include <stddef.h>

/* -0 becomes 0; other values are returned unchanged. */
double dcsim_num_clean(double x);
/* a - b, or 0 when |a - b| <= 1e-9 * max(|a|, |b|) (rounding noise of a difference). */
double dcsim_num_diff(double a, double b);

/* x with `digits` significant digits (1..17), plain notation for 10^-4 <= |x| < 10^15, else
 * d.ddde+NN; "-" for NaN, "inf"/"-inf" for infinities. */
char *dcsim_fmt_sig(char *buf, size_t size, double x, int digits);
/* x scaled by an SI prefix (p, n, µ, m, k, M, G, T, P, E) so that 1 <= mantissa < 1000, with
 * `digits` significant digits, a blank and the unit: "12.897 GJ". 0 is "0 UNIT". */
char *dcsim_fmt_si(char *buf, size_t size, double x, int digits, const char *unit);
/* `one` when n is 1, else `many`: printf("%u %s", n, dcsim_plural(n, "node", "nodes")). */
const char *dcsim_plural(unsigned long long n, const char *one, const char *many);

/* The significant digits a value with an uncertainty band [low, high] supports (dcsim/bands.h):
 * its last digit at the order of the band's half-width, 1..DCSIM_NUM_DIGITS (6 when the band is
 * empty). */
int dcsim_band_digits(double x, const double band[2]);
/* "x [low, high]": x with dcsim_band_digits() digits, each end to the same decimal place (at least
 * 2 significant digits), rounded outwards; with a unit (not NULL), each in SI form as dcsim_fmt_si:
 * "2.4 MJ [1.9 MJ, 3.5 MJ]". */
char *dcsim_fmt_band(char *buf, size_t size, double x, const double band[2], const char *unit);

#define DCSIM_NUM_DIGITS 6 /* the significant digits of text output */
#define DCSIM_SIG(x)     dcsim_fmt_sig((char[48]){ 0 }, 48, (x), DCSIM_NUM_DIGITS)
#define DCSIM_SI(x, u)   dcsim_fmt_si((char[64]){ 0 }, 64, (x), DCSIM_NUM_DIGITS, (u))

#endif
