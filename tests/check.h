/* tests/check.h — tiny check macros (GSL style): print file:line, expression and both values. */
#ifndef DCSIM_TEST_CHECK_H
#define DCSIM_TEST_CHECK_H
#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_failures = 0;
static int check_count = 0;

#define CHECK(expr)                                                            \
  do {                                                                         \
    check_count++;                                                             \
    if (!(expr)) {                                                             \
      check_failures++;                                                        \
      fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #expr); \
    }                                                                          \
  } while (0)

/* relative tolerance check: |got-want| <= tol*|want| */
#define CHECK_REL(got, want, tol)                                                          \
  do {                                                                                     \
    double g_ = (got), w_ = (want), t_ = (tol);                                            \
    check_count++;                                                                         \
    if (!(isfinite(g_) && fabs(g_ - w_) <= t_ * fabs(w_))) {                               \
      check_failures++;                                                                    \
      fprintf(stderr, "%s:%d: %s = %.9g, want %.9g (rel err %.3g%% > %.3g%%)\n", __FILE__, \
              __LINE__, #got, g_, w_, 100.0 * fabs(g_ - w_) / fabs(w_), 100.0 * t_);       \
    }                                                                                      \
  } while (0)

#define CHECK_ABS(got, want, tol)                                                               \
  do {                                                                                          \
    double g_ = (got), w_ = (want), t_ = (tol);                                                 \
    check_count++;                                                                              \
    if (!(isfinite(g_) && fabs(g_ - w_) <= t_)) {                                               \
      check_failures++;                                                                         \
      fprintf(stderr, "%s:%d: %s = %.9g, want %.9g (abs tol %.3g)\n", __FILE__, __LINE__, #got, \
              g_, w_, t_);                                                                      \
    }                                                                                           \
  } while (0)

#define CHECK_INT(got, want)                                                              \
  do {                                                                                    \
    long long g_ = (got), w_ = (want);                                                    \
    check_count++;                                                                        \
    if (g_ != w_) {                                                                       \
      check_failures++;                                                                   \
      fprintf(stderr, "%s:%d: %s = %lld, want %lld\n", __FILE__, __LINE__, #got, g_, w_); \
    }                                                                                     \
  } while (0)

#define CHECK_STR(got, want)                                                         \
  do {                                                                               \
    const char *g_ = (got), *w_ = (want);                                            \
    check_count++;                                                                   \
    if (!g_ || strcmp(g_, w_) != 0) {                                                \
      check_failures++;                                                              \
      fprintf(stderr, "%s:%d: %s = \"%s\", want \"%s\"\n", __FILE__, __LINE__, #got, \
              g_ ? g_ : "(null)", w_);                                               \
    }                                                                                \
  } while (0)

/* Writes text to path (test inputs made on the fly); a failure to open counts as a failed check. */
static inline void check_write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (!f) return;
  fputs(text, f);
  fclose(f);
}

#define CHECK_DONE()                                                        \
  do {                                                                      \
    fprintf(stderr, "%d checks, %d failed\n", check_count, check_failures); \
    return check_failures ? 1 : 0;                                          \
  } while (0)

#endif
