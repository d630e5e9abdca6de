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
 *     - task energy) is 0 when it is below 10^-9 of their size (dcsim_num_diff), and -0 is 0;
 *   - a value with its uncertainty band has at least 3 significant digits, the band's ends the
 *     precision the band supports (dcsim_fmt_band);
 *   - a total printed with its parts equals the sum of the printed parts: the parts go to the
 *     total's decimal place by largest remainder (dcsim_round_sum, dcsim_fmt_band_sum).
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
 * d.ddde+NN; "-" for NaN, "inf"/"-inf" for infinities. Every text fits in 40 bytes (DCSIM_SIG and
 * dcsim_num_text have room); a smaller buffer gets it cut as snprintf cuts. */
char *dcsim_fmt_sig(char *buf, size_t size, double x, int digits);
/* x scaled by an SI prefix (p, n, µ, m, k, M, G, T, P, E) so that 1 <= mantissa < 1000, with
 * `digits` significant digits, a blank and the unit: "12.897 GJ". 0 is "0 UNIT". */
char *dcsim_fmt_si(char *buf, size_t size, double x, int digits, const char *unit);
/* `one` when n is 1, else `many`: printf("%u %s", n, dcsim_plural(n, "node", "nodes")). */
const char *dcsim_plural(unsigned long long n, const char *one, const char *many);

/* The significant digits a central value with an uncertainty band [low, high] (dcsim/bands.h)
 * prints with: at least DCSIM_MIN_DIGITS (the band beside it carries the uncertainty),
 * more when the band supports more (its last digit at the order of the band's half-width), at most
 * DCSIM_NUM_DIGITS (6 when the band is empty). */
int dcsim_band_digits(double x, const double band[2]);
/* "x [low, high]": x with dcsim_band_digits() digits, trailing zeros kept ("2.60": they are
 * digits); each end to the decimal place the band
 * supports (at least 2 significant digits), rounded outwards; with a unit (not NULL), each in SI
 * form as dcsim_fmt_si: "2.41 MJ [1.9 MJ, 3.5 MJ]". */
char *dcsim_fmt_band(char *buf, size_t size, double x, const double band[2], const char *unit);

/* x alone as dcsim_fmt_band prints it (a table column whose band is said elsewhere): "2.60". */
char *dcsim_fmt_value(char *buf, size_t size, double x, const double band[2], const char *unit);

/* A total printed with its parts (energy = PKG + DRAM + base): the decimal place is the one of
 * `total` printed with `digits` significant digits (its exponent in *place_exp, may be NULL); the
 * parts are rounded to it by largest remainder, so that the rounded parts sum to the rounded total
 * and each is within one unit of the place of its own value (doc/cli.md, "Numbers"). Writes the
 * rounded parts to out[0..n-1] and returns their sum, the total to print. When the parts do not
 * sum to the total (beyond 10^-9 of it), or the total is not finite, nothing is shared out: each
 * part and the total are rounded to the place on their own (NaN and infinities stay). */
double dcsim_round_sum(double total, int digits, const double *parts, size_t n, double *out,
                       int *place_exp);
/* x (a value on the place) printed to the decimal place 10^place_exp, trailing zeros kept: plain
 * as dcsim_fmt_sig, or in SI form with a unit (not NULL): "115 J", "22 J" and "130 J" at place 0,
 * "20.0" at place -1. */
char *dcsim_fmt_place(char *buf, size_t size, double x, int place_exp, const char *unit);
/* dcsim_fmt_band for a total of n parts (n <= DCSIM_MAX_PARTS): the total is the sum of the parts
 * as dcsim_round_sum rounds them to the total's place, and part i is written, as dcsim_fmt_place
 * writes it, to part_buf + i * part_size: "267 J [130 J, 590 J]" of "115 J", "22 J", "130 J".
 * Parts that do not sum to the total (beyond 10^-9) are not its parts: the total is printed as
 * dcsim_fmt_band prints it and each part with DCSIM_NUM_DIGITS, as dcsim_fmt_si / _sig. */
char *dcsim_fmt_band_sum(char *buf, size_t size, double total, const double band[2],
                         const char *unit, const double *parts, size_t n, char *part_buf,
                         size_t part_size);

/* Room for one double as text, the one caller-owned buffer of the formatters (instead of char
 * arrays of guessed sizes in each caller): "%.16e" of any double is at most 24 bytes
 * ("-1.7976931348623157e+308"), a number with an SI prefix and a short unit well under 64. */
typedef struct dcsim_num_text {
  char s[64];
} dcsim_num_text;

#define DCSIM_NUM_DIGITS 6 /* the significant digits of text output */
#define DCSIM_MIN_DIGITS 3 /* the least digits of a value printed with its band */
#define DCSIM_MAX_PARTS  8 /* the most parts dcsim_fmt_band_sum shares a total among */
#define DCSIM_SIG(x)     dcsim_fmt_sig((char[48]){ 0 }, 48, (x), DCSIM_NUM_DIGITS)
#define DCSIM_SI(x, u)   dcsim_fmt_si((char[64]){ 0 }, 64, (x), DCSIM_NUM_DIGITS, (u))

#endif
