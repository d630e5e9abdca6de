/* fuzz_chart_text.c — any text a chart is given (a name, a title, a path) becomes a
 * gnuplot string expression in which nothing is substituted (dcsim__plot_str). The input is one
 * text; the harness checks what gnuplot would read: only single-quoted strings ('' a quote)
 * joined by ."\n". — so no backquote, @macro or other token stands outside quotes — on one
 * line (no control character at all), valid UTF-8, and decoding it gives the input back with
 * each byte that is not UTF-8 or is a control character other than a line break as U+FFFD. */
// seeds: tests/data/gpubench/*.csv workflows/alaro.xml
#include "dcsim/strutil.h"
#include "fuzz.h"
#include "output/internal.h"

/* what the text should read as: a line break kept, any other control byte or non-UTF-8 byte
 * U+FFFD */
static char *expected(const char *s) {
  char *o = malloc(3 * strlen(s) + 1), *w = o;
  if (!o) abort();
  while (*s) {
    unsigned char c = (unsigned char)*s;
    size_t n = dcsim_utf8_len(s);
    if (n == 0 || (c < 0x20 && c != '\n') || c == 0x7f) {
      memcpy(w, "\xEF\xBF\xBD", 3), w += 3, s++;
      continue;
    }
    memcpy(w, s, n), w += n, s += n;
  }
  *w = '\0';
  return o;
}

static void fail(const char *what, const char *expr) {
  fprintf(stderr, "fuzz_chart_text: %s in %.300s\n", what, expr);
  abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *in = fuzz_str(data, size);
  char *expr = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&expr, &len);
  if (!f) abort();
  dcsim__plot_str(f, in);
  if (fclose(f) != 0) abort();
  /* decode as gnuplot tokenises it: 'text' ('' = '), then either the end or ."\n". */
  char *got = malloc(len + 1), *w = got;
  if (!got) abort();
  const char *p = expr;
  for (;;) {
    if (*p != '\'') fail("not a single-quoted string", expr);
    for (p++;; p++) {
      if (!*p) fail("unterminated string", expr);
      if ((unsigned char)*p < 0x20 || *p == 0x7f) fail("control character", expr);
      if (*p == '\'') {
        if (p[1] != '\'') break;
        p++;
      }
      *w++ = *p;
    }
    p++;
    if (!*p) break;
    if (strncmp(p, ".\"\\n\".", 6) != 0) fail("a token outside the quotes", expr);
    *w++ = '\n';
    p += 6;
  }
  *w = '\0';
  for (const char *q = got; *q; q += dcsim_utf8_len(q))
    if (!dcsim_utf8_len(q)) fail("not UTF-8", expr);
  char *want = expected(in);
  if (strcmp(got, want) != 0) fail("the text does not read back", expr);
  free(want);
  free(got);
  free(expr);
  free(in);
  return 0;
}
