/* test_strutil.c — string duplication, array growth, strict numbers and paths (dcsim/strutil.h). */
#include "dcsim/lib.h"
#include "dcsim/strutil.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void test_strdup(void) {
  char *s = dcsim_strdup("xeon-e5-2697v3");
  CHECK_STR(s, "xeon-e5-2697v3");
  free(s);
  s = dcsim_strdup("");
  CHECK_STR(s, "");
  free(s);
  CHECK(dcsim_strdup(NULL) == NULL);
}

typedef struct item {
  double time_s;
  uint32_t node;
} item;

/* a text longer than any fixed buffer comes back whole */
static void test_strdup_printf(void) {
  char name[700];
  memset(name, 'x', sizeof name - 1);
  name[sizeof name - 1] = 0;
  char *t = dcsim_strdup_printf("%s: %.4g MiB", name, 175.78125);
  CHECK(t != NULL);
  if (t) {
    CHECK_INT(strlen(t), sizeof name - 1 + strlen(": 175.8 MiB"));
    CHECK(strcmp(t + sizeof name - 1, ": 175.8 MiB") == 0);
  }
  free(t);
}

static void test_grow(void) {
  item *a = NULL;
  size_t cap = 0, n = 0;
  for (uint32_t i = 0; i < 1000; i++) {
    CHECK_INT(DCSIM_GROW(a, cap, n + 1), 0);
    a[n++] = (item){ 2.385 * i, i };
  }
  CHECK_INT(cap, 1024); /* 8, 16, ... doubling */
  int ok = 1;
  for (uint32_t i = 0; i < 1000; i++) ok &= a[i].node == i && a[i].time_s == 2.385 * i;
  CHECK(ok);
  CHECK_INT(DCSIM_GROW(a, cap, 10), 0); /* room already there: nothing happens */
  CHECK_INT(cap, 1024);
  CHECK_INT(DCSIM_GROW(a, cap, 5000), 0); /* a jump: doubles until it fits */
  CHECK_INT(cap, 8192);
  item *before = a;
  CHECK_INT(DCSIM_GROW(a, cap, SIZE_MAX / 4), -1); /* the size overflows: left as it was */
  CHECK(a == before);
  CHECK_INT(cap, 8192);
  CHECK_INT(dcsim_grow((void **)&a, &cap, SIZE_MAX, 1), -1);
  CHECK_INT(cap, 8192);
  free(a);

  char *bytes = NULL;
  size_t bcap = 0;
  CHECK_INT(DCSIM_GROW(bytes, bcap, 21), 0);
  CHECK_INT(bcap, 32);
  free(bytes);

  /* no capacity kept: the room dcsim_grow gives is implied by the length */
  uint32_t *v = NULL;
  size_t nv = 0;
  for (uint32_t i = 0; i < 300; i++) {
    CHECK_INT(DCSIM_GROW_N(v, nv), 0);
    v[nv++] = 3 * i + 1;
  }
  ok = 1;
  for (uint32_t i = 0; i < 300; i++) ok &= v[i] == 3 * i + 1;
  CHECK(ok);
  free(v);
}

static void test_parse_double(void) {
  double x = -1;
  CHECK_INT(dcsim_parse_double("2.385", &x), 0);
  CHECK_REL(x, 2.385, 1e-15);
  CHECK_INT(dcsim_parse_double("  -7.31e-3\t\n", &x), 0);
  CHECK_REL(x, -7.31e-3, 1e-15);
  CHECK_INT(dcsim_parse_double("+1E2", &x), 0);
  CHECK_REL(x, 100, 0);
  x = 42;
  static const char *const bad[] = { "",      " ",      "2.5x", "2.5 3", "abc", "nan",     "inf",
                                     "1e999", "-1e999", "0x10", "1,5",   "--1", "infinity" };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    if (dcsim_parse_double(bad[i], &x) == 0) fprintf(stderr, "accepted '%s'\n", bad[i]);
    CHECK_INT(dcsim_parse_double(bad[i], &x), -1);
  }
  CHECK_INT(dcsim_parse_double(NULL, &x), -1);
  CHECK_REL(x, 42, 0); /* untouched on failure */
}

static void test_parse_uint(void) {
  unsigned u = 7;
  CHECK_INT(dcsim_parse_uint("16", 1, 1000000, &u), 0);
  CHECK_INT(u, 16);
  CHECK_INT(dcsim_parse_uint(" 1e3 ", 1, 1000000, &u), 0);
  CHECK_INT(u, 1000);
  CHECK_INT(dcsim_parse_uint("4.0", 1, 10, &u), 0);
  CHECK_INT(u, 4);
  CHECK_INT(dcsim_parse_uint("1000000", 1, 1000000, &u), 0);
  CHECK_INT(u, 1000000);
  u = 9;
  CHECK_INT(dcsim_parse_uint("0", 1, 10, &u), -1);
  CHECK_INT(dcsim_parse_uint("11", 1, 10, &u), -1);
  CHECK_INT(dcsim_parse_uint("2.5", 1, 10, &u), -1);
  CHECK_INT(dcsim_parse_uint("-3", 1, 10, &u), -1);
  CHECK_INT(dcsim_parse_uint("3x", 1, 10, &u), -1);
  CHECK_INT(dcsim_parse_uint("nan", 1, 10, &u), -1);
  CHECK_INT(u, 9);
  CHECK_INT(dcsim_parse_uint("0", 0, 10, &u), 0);
  CHECK_INT(u, 0);
}

static void check_join(const char *base, const char *ref, const char *want) {
  char *got = dcsim_path_join(base, ref);
  CHECK_STR(got, want);
  free(got);
}

static void test_parse_ghz(void) {
  double g = 0;
  CHECK_INT(dcsim_parse_ghz("2.385", &g), 0);
  CHECK_REL(g, 2.385, 1e-15);
  CHECK_INT(dcsim_parse_ghz("2.385GHz", &g), 0);
  CHECK_REL(g, 2.385, 1e-15);
  CHECK_INT(dcsim_parse_ghz(" 1.9ghz", &g), 0);
  CHECK_REL(g, 1.9, 1e-15);
  CHECK_INT(dcsim_parse_ghz("turbo", &g), -1);
  CHECK_INT(dcsim_parse_ghz("GHz", &g), -1);
  CHECK_INT(dcsim_parse_ghz("2.6 MHz", &g), -1);
  CHECK_INT(dcsim_parse_ghz("-1.2GHz", &g), 0); /* the range is the caller's */
  CHECK_REL(g, -1.2, 1e-15);
  /* read whole, not from a copy cut at 63 bytes: 70 digits then the unit */
  char longnum[80];
  memset(longnum, '0', 70);
  memcpy(longnum + 69, "3GHz", 5);
  CHECK_INT(dcsim_parse_ghz(longnum, &g), 0);
  CHECK_REL(g, 3.0, 1e-15);
  longnum[10] = 'x'; /* and refused when any of it is not a number */
  CHECK_INT(dcsim_parse_ghz(longnum, &g), -1);
}

static void test_paths(void) {
  check_join("platforms/dc.xml", "../hw-profiles/cpu/x.xml", "hw-profiles/cpu/x.xml");
  check_join("a/b/w.xml", "./c/../d.xml", "a/b/d.xml");
  check_join("w.xml", "p.xml", "p.xml");
  check_join("/data/w.xml", "/abs/./p.xml", "/abs/p.xml");
  check_join(NULL, "x/../y.xml", "y.xml");
  char *p = dcsim_path_in("calibration/xeon", "machine.xml");
  CHECK_STR(p, "calibration/xeon/machine.xml");
  free(p);
  p = dcsim_path_in("", "f.csv");
  CHECK_STR(p, "/f.csv");
  free(p);
}

/* outputs are checked before any work: a missing directory, a directory, an unwritable file */
static void test_writable(void) {
  dcsim_error err;
  memset(&err, 0, sizeof err);
  CHECK_INT(dcsim_path_check_writable("/tmp/dcsim-test-writable.png", "--plot", &err), 0);
  CHECK_INT(dcsim_path_check_writable("no-such-dir/x.png", "--plot", &err), DCSIM_EIO);
  CHECK_STR(err.msg, "--plot: no directory no-such-dir");
  CHECK_INT(dcsim_path_check_writable("/tmp", "-o", &err), DCSIM_EIO);
  CHECK_STR(err.msg, "-o: is a directory, not a file");
  CHECK_INT(dcsim_path_check_writable("plain.png", "--out", &err), 0); /* the working directory */
  CHECK_INT(dcsim_path_check_writable("", "--out", &err), DCSIM_EIO);
}

/* "did you mean": typos people make find their word, unrelated words find nothing */
static void test_suggest(void) {
  static const char *const cmds[] = { "run",   "model",  "energy", "list",    "validate",
                                      "sweep", "pareto", "merge",  "roofline" };
  static const char *const cpus[] = { "xeon-e5-2640v3", "xeon-e5-2697v3", "xeon-gold-6148" };
  CHECK_INT(dcsim_edit_distance("swep", "sweep"), 1);
  CHECK_INT(dcsim_edit_distance("kitten", "sitting"), 3);
  CHECK_INT(dcsim_edit_distance("", "abc"), 3);
  CHECK_STR(dcsim_suggest("swep", cmds, 9), "sweep");
  CHECK_STR(dcsim_suggest("rofline", cmds, 9), "roofline");
  CHECK_STR(dcsim_suggest("xeon-e5-2697", cpus, 3), "xeon-e5-2697v3");
  CHECK_STR(dcsim_suggest("xeon-gold", cpus, 3), "xeon-gold-6148"); /* the beginning of it */
  CHECK(dcsim_suggest("simulate", cmds, 9) == NULL);
  CHECK(dcsim_suggest("sweep", cmds, 9) == NULL); /* the word itself needs no suggestion */
  CHECK(dcsim_suggest("", cmds, 9) == NULL);
  static const char *const both[] = { "xeon-e5-2640v3", "xeon-e5-2697v2", "xeon-e5-2697v3" };
  const char *ties[3];
  CHECK_INT(dcsim_suggest_n("xeon-e5-2697", both, 3, ties, 3), 2); /* equally close: both */
  CHECK_STR(ties[0], "xeon-e5-2697v2");
  CHECK_STR(ties[1], "xeon-e5-2697v3");
  CHECK_INT(dcsim_suggest_n("xeon-e5-2697v", both, 3, ties, 3), 2);
  CHECK_INT(dcsim_suggest_n("xeon-e5-2697v3x", both, 3, ties, 3), 1);
  CHECK_STR(ties[0], "xeon-e5-2697v3");
}

/* a function taking a format, built on dcsim_str_vaddf: the text, kept in a static buffer */
__attribute__((format(printf, 1, 2))) static const char *vaddf_text(const char *fmt, ...) {
  static char out[64];
  dcsim_str b = DCSIM_STR_INIT;
  dcsim_str_add(&b, "");
  va_list ap;
  va_start(ap, fmt);
  dcsim_str_vaddf(&b, fmt, ap);
  va_end(ap);
  dcsim_str_copy_to(&b, out, sizeof out);
  dcsim_str_release(&b);
  return out;
}

/* the one growable string (dcsim_str) */
static void test_str(void) {
  dcsim_str b = DCSIM_STR_INIT;
  CHECK_STR(dcsim_str_cstr(&b), "");
  char big[3000];
  memset(big, 'x', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  CHECK_INT(dcsim_str_addf(&b, "%s=%.3g", "a", 2.385), 0);
  CHECK_INT(dcsim_str_add(&b, big), 0); /* grows past any fixed size */
  CHECK_INT(dcsim_str_addf(&b, ";%d", 7), 0);
  CHECK(b.len == 6 + 2999 + 2 && strlen(dcsim_str_cstr(&b)) == b.len);
  CHECK(strncmp(dcsim_str_cstr(&b), "a=2.38x", 7) == 0);
  CHECK_STR(dcsim_str_cstr(&b) + b.len - 3, "x;7");
  char small[8];
  CHECK_INT(dcsim_str_copy_to(&b, small, sizeof small), -1); /* cut, and says so */
  CHECK_STR(small, "a=2.38x");
  char *s = dcsim_str_take(&b);
  CHECK(s && strlen(s) == 6 + 2999 + 2 && b.s == NULL && b.len == 0);
  free(s);
  s = dcsim_str_take(&b); /* nothing added: "" */
  CHECK(s && s[0] == '\0');
  free(s);
  dcsim_str_addf(&b, "x");
  b.oom = 1; /* after a failed allocation, nothing more is added and take says so */
  CHECK_INT(dcsim_str_add(&b, "y"), -1);
  CHECK(dcsim_str_take(&b) == NULL);
  dcsim_str_release(&b);
  dcsim_str_release(NULL);
  CHECK_STR(vaddf_text("%s-%d-%.2f", "v", 42, 2.385), "v-42-2.38"); /* dcsim_str_vaddf */
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  test_str();
  test_writable();
  test_suggest();
  test_strdup();
  test_strdup_printf();
  test_grow();
  test_parse_double();
  test_parse_uint();
  test_parse_ghz();
  test_paths();
  CHECK_DONE();
}
