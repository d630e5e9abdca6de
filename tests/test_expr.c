/* test_expr.c — formula parser/evaluator: values, precedence, every error class, robustness. */
#include "dcsim/expr.h"
#include "dcsim/lib.h"

#include <stdint.h>
#include <stdlib.h>

#include "check.h"

static const char *const names[] = { "NSMAX", "GRIDN", "ITER", "F",   "KLO",  "KLA",
                                     "KLEV",  "PTS",   "NX",   "x_1", "ZERO", "BAD" };
static const double values[] = { 639, 640, 100, 200, 2.385, 7.31, 137, 1.9e6, 1024, -3.25, 0, NAN };
#define N_NAMES (sizeof names / sizeof names[0])

/* Parses and evaluates text; returns the status of whichever step failed. */
static int eval(const char *text, double *out, dcsim_error *err) {
  dcsim_expr_t *e = NULL;
  int rc = dcsim_expr_parse(text, names, N_NAMES, &e, err);
  if (rc == 0) {
    CHECK_STR(dcsim_expr_text(e), text);
    rc = dcsim_expr_eval(e, values, out, err);
  } else {
    CHECK(e == NULL);
  }
  dcsim_expr_free(e);
  return rc;
}

static void check_value(const char *text, double want, int line) {
  dcsim_error err = { .code = 42, .msg = "untouched" };
  double got = NAN;
  int rc = eval(text, &got, &err);
  if (rc != 0) fprintf(stderr, "line %d: '%s' failed: %s\n", line, text, err.msg);
  CHECK_INT(rc, 0);
  CHECK_INT(err.code, 42); /* err is left alone on success */
  CHECK_STR(err.msg, "untouched");
  if (want == 0)
    CHECK_ABS(got, want, 0);
  else
    CHECK_REL(got, want, 1e-12);
}

static void check_error(const char *text, int code, const char *substr, int line) {
  dcsim_error err = { 0 };
  double got = 0;
  int rc = eval(text, &got, &err);
  if (rc != code || !strstr(err.msg, substr))
    fprintf(stderr, "line %d: '%s': rc %d msg \"%s\", want %d \"%s\"\n", line, text, rc, err.msg,
            code, substr);
  CHECK_INT(rc, code);
  CHECK_INT(err.code, code);
  CHECK(strstr(err.msg, substr) != NULL);
  CHECK_STR(err.file, ""); /* the caller fills the input file and line */
  CHECK_INT(err.line, 0);
}

#define VALUE(text, want)         check_value(text, want, __LINE__)
#define ERROR(text, code, substr) check_error(text, code, substr, __LINE__)

static void test_values(void) {
  /* D3.5 Table 24: IFS spectral transform, NSMAX=639 GRIDN=640 ITER=100 F=200 */
  dcsim_error err = { 0 };
  double v = 0;
  CHECK_INT(eval("NSMAX^2*GRIDN*0.833*ITER*F*2", &v, &err), 0);
  CHECK_REL(v, 8.70736e12, 1e-5);

  VALUE("NSMAX^2*GRIDN*0.833*ITER*F*2", 639.0 * 639 * 640 * 0.833 * 100 * 200 * 2);
  VALUE("KLO*KLA*KLEV", 2.385 * 7.31 * 137);
  VALUE("PTS*ITER*F*11.398", 1.9e6 * 100 * 200 * 11.398);
  VALUE("log2(NX)*NX", 10.0 * 1024);
  VALUE("x_1*2.5", -3.25 * 2.5);
  VALUE("12", 12);
  VALUE("0.833", 0.833);
  VALUE(".5", 0.5);
  VALUE("1.5e9", 1.5e9);
  VALUE("2.5E-3", 2.5e-3);
  VALUE("7.e+2", 700);
  VALUE("1e-400", 0); /* underflow to zero is finite */
  VALUE(" \t2.385 *\n( KLO + 1 )\r", 2.385 * (2.385 + 1));
  /* precedence and associativity */
  VALUE("2+3*4", 14);
  VALUE("(2+3)*4", 20);
  VALUE("10-4-3", 3);
  VALUE("64/4/2", 8);
  VALUE("2^3^2", 512);
  VALUE("(2^3)^2", 64);
  VALUE("-2^2", -4);
  VALUE("(-2)^2", 4);
  VALUE("2^-2", 0.25);
  VALUE("2^-1^2", 0.5);
  VALUE("2*-3", -6);
  VALUE("--3", 3);
  VALUE("+-+2.385", -2.385);
  VALUE("1-2*3^2/6+4", 1 - 2 * 9.0 / 6 + 4);
  VALUE("KLO^2*3", 2.385 * 2.385 * 3);
  VALUE("3*KLO^2", 2.385 * 2.385 * 3);
  /* functions */
  VALUE("min(KLO, KLA)", 2.385);
  VALUE("max(KLO, KLA)*2", 14.62);
  VALUE("log(exp(2.385))", 2.385);
  VALUE("log(KLA)", log(7.31));
  VALUE("log10(1000)*KLO", 3 * 2.385);
  VALUE("sqrt(2.25)", 1.5);
  VALUE("abs(x_1)", 3.25);
  VALUE("floor(x_1)", -4);
  VALUE("ceil(KLO)", 3);
  VALUE("max(min(1,2), min(3, 4^0.5))", 2);
  VALUE("exp (0)", 1);
  VALUE("ZERO/KLO", 0);
}

static void test_errors(void) {
  ERROR("", DCSIM_EPARSE, "empty formula");
  ERROR("  \t", DCSIM_EPARSE, "empty formula");
  ERROR("((", DCSIM_EPARSE, "unexpected end at column 3");
  ERROR("2*", DCSIM_EPARSE, "unexpected end at column 3 in formula '2*'");
  ERROR("(1+2", DCSIM_EPARSE, "expected ')'");
  ERROR("1+2)", DCSIM_EPARSE, "unexpected ')' at column 4");
  ERROR("2 3", DCSIM_EPARSE, "unexpected '3' at column 3");
  ERROR("2 ** 3", DCSIM_EPARSE, "unexpected '*' at column 4");
  ERROR("KLO $ 2", DCSIM_EPARSE, "unexpected '$' at column 5");
  ERROR("1..2", DCSIM_EPARSE, "column 3");
  ERROR(".", DCSIM_EPARSE, "unexpected '.' at column 1");
  ERROR("1e", DCSIM_EPARSE, "malformed number at column 1");
  ERROR("1e+", DCSIM_EPARSE, "malformed number");
  ERROR("0x10", DCSIM_EPARSE, "unexpected 'x' at column 2");
  ERROR("12abc", DCSIM_EPARSE, "unexpected 'a'");
  ERROR("2,3", DCSIM_EPARSE, "unexpected ','");
  ERROR("min()", DCSIM_EPARSE, "unexpected ')'");
  ERROR("min(1)", DCSIM_EPARSE, "min() takes 2 arguments");
  ERROR("min(1,2,3)", DCSIM_EPARSE, "min() takes 2 arguments");
  ERROR("sqrt(1,2)", DCSIM_EPARSE, "sqrt() takes 1 argument");
  ERROR("1e999", DCSIM_ERANGE, "number '1e999' out of range");
  ERROR("FOO*2", DCSIM_EREF, "unknown name 'FOO' in formula 'FOO*2'");
  ERROR("nsmax", DCSIM_EREF, "unknown name 'nsmax'");
  ERROR("inf", DCSIM_EREF, "unknown name 'inf'");
  ERROR("nan+1", DCSIM_EREF, "unknown name 'nan'");
  ERROR("min", DCSIM_EREF, "unknown name 'min'");
  ERROR("foo(2)", DCSIM_EREF, "unknown function 'foo'");
  ERROR("NSMAX(2)", DCSIM_EREF, "unknown function 'NSMAX'");
  /* evaluation */
  ERROR("1/0", DCSIM_ERANGE, "division by zero at column 2 in formula '1/0'");
  ERROR("KLO/(ITER-100)", DCSIM_ERANGE, "division by zero");
  ERROR("log(0)", DCSIM_ERANGE, "log of non-positive value 0");
  ERROR("log(x_1)", DCSIM_ERANGE, "log of non-positive value -3.25");
  ERROR("log2(ZERO)", DCSIM_ERANGE, "log2 of non-positive");
  ERROR("log10(-5)", DCSIM_ERANGE, "log10 of non-positive");
  ERROR("sqrt(x_1)", DCSIM_ERANGE, "sqrt of negative value -3.25");
  ERROR("10^400", DCSIM_ERANGE, "'^' gives inf");
  ERROR("1e300*1e300", DCSIM_ERANGE, "'*' gives inf at column 6");
  ERROR("-1e308-1e308", DCSIM_ERANGE, "'-' gives -inf");
  ERROR("(-8)^(1/3)", DCSIM_ERANGE, "'^' gives");
  ERROR("0^-1", DCSIM_ERANGE, "'^' gives inf");
  ERROR("exp(1000)", DCSIM_ERANGE, "'exp' gives inf");
  ERROR("1+BAD*0", DCSIM_ERANGE, "'BAD' is nan at column 3");
}

static void test_limits(void) {
  static char buf[DCSIM_EXPR_TEXT_MAX + 16];
  size_t n = 0;
  /* longest allowed text: 1+1+...+1 (left-associative chains are not "nested") */
  while (n + 2 < DCSIM_EXPR_TEXT_MAX) buf[n++] = '1', buf[n++] = '+';
  buf[n++] = '1';
  buf[n] = '\0';
  CHECK_INT((long long)n, DCSIM_EXPR_TEXT_MAX - 1);
  VALUE(buf, (double)(n + 1) / 2);
  buf[n++] = '+', buf[n++] = '1', buf[n] = '\0';
  ERROR(buf, DCSIM_EPARSE, "formula too long");

  for (int depth = 1; depth <= 100; depth++) {
    n = 0;
    for (int i = 0; i < depth; i++) buf[n++] = '(';
    buf[n++] = '2';
    for (int i = 0; i < depth; i++) buf[n++] = ')';
    buf[n] = '\0';
    if (depth < DCSIM_EXPR_DEPTH_MAX)
      VALUE(buf, 2);
    else
      ERROR(buf, DCSIM_EPARSE, "formula nested too deeply");
  }
  n = 0;
  for (int i = 0; i < 1000; i++) buf[n++] = '-';
  buf[n++] = '1', buf[n] = '\0';
  ERROR(buf, DCSIM_EPARSE, "nested too deeply");
  for (n = 0; n < 2000;) buf[n++] = '2', buf[n++] = '^';
  buf[n++] = '1', buf[n] = '\0';
  ERROR(buf, DCSIM_EPARSE, "nested too deeply");
  n = 0;
  for (int i = 0; i < 60; i++) memcpy(buf + n, "min(1,", 6), n += 6;
  buf[n++] = '1';
  for (int i = 0; i < 60; i++) buf[n++] = ')';
  buf[n] = '\0';
  VALUE(buf, 1);
}

static void test_uses(void) {
  dcsim_error err = { 0 };
  dcsim_expr_t *e = NULL;
  CHECK_INT(dcsim_expr_parse("KLO*KLA + KLO^2", names, N_NAMES, &e, &err), 0);
  CHECK_INT(dcsim_expr_uses(e, 4), 1); /* KLO */
  CHECK_INT(dcsim_expr_uses(e, 5), 1); /* KLA */
  CHECK_INT(dcsim_expr_uses(e, 6), 0); /* KLEV */
  CHECK_INT(dcsim_expr_uses(e, 0), 0);
  CHECK_INT(dcsim_expr_uses(e, 999), 0);
  CHECK_INT(dcsim_expr_uses(NULL, 0), 0);
  dcsim_expr_free(e);
  dcsim_expr_free(NULL);
  /* without names only constants parse; values may then be NULL */
  double v = 0;
  CHECK_INT(dcsim_expr_parse("2.385*4", NULL, 0, &e, &err), 0);
  CHECK_INT(dcsim_expr_eval(e, NULL, &v, &err), 0);
  CHECK_REL(v, 9.54, 1e-12);
  dcsim_expr_free(e);
  CHECK_INT(dcsim_expr_parse("KLO", NULL, 0, &e, &err), DCSIM_EREF);
  CHECK_INT(dcsim_expr_parse(NULL, names, N_NAMES, &e, &err), DCSIM_EPARSE);
  CHECK_INT(dcsim_expr_parse("1", names, N_NAMES, NULL, &err), DCSIM_EUSAGE);
  CHECK_INT(dcsim_expr_parse("1+", names, N_NAMES, &e, NULL), DCSIM_EPARSE); /* err optional */
}

/* Random printable strings, biased towards formula characters: success or an error, no crash. */
static void test_random(void) {
  static const char alphabet[] = "0123456789.eE+-*/^(),  KLONXx_1minaxlogsqrtexp";
  uint64_t s = 0x9E3779B97F4A7C15u;
  char buf[64];
  int ok = 0, bad = 0;
  for (int iter = 0; iter < 50000; iter++) {
    size_t len = 0, max_len = 1 + iter % 40;
    while (len < max_len) {
      s ^= s << 13, s ^= s >> 7, s ^= s << 17;
      int c = (s >> 8) % 4 == 0 ? 32 + (int)((s >> 16) % 95)
                                : alphabet[(s >> 16) % (sizeof alphabet - 1)];
      buf[len++] = (char)c;
    }
    buf[len] = '\0';
    dcsim_error err = { 0 };
    double v = NAN;
    int rc = eval(buf, &v, &err);
    if (rc == 0) {
      ok++;
      if (!isfinite(v)) fprintf(stderr, "'%s' gave %g\n", buf, v), check_failures++;
    } else {
      bad++;
      if (rc < DCSIM_EINTERNAL || err.msg[0] == '\0' || err.code != rc)
        fprintf(stderr, "'%s': rc %d msg '%s'\n", buf, rc, err.msg), check_failures++;
    }
  }
  CHECK(ok > 100); /* the loop reaches the evaluator, not just the parser */
  CHECK(bad > 100);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  test_values();
  test_errors();
  test_limits();
  test_uses();
  test_random();
  CHECK_DONE();
}
