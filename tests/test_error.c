/* test_error.c — recording errors and adding context on the way up (dcsim/error.h). */
#include "dcsim/error.h"
#include "dcsim/lib.h"

#include <string.h>

#include "check.h"

static void test_set_and_format(void) {
  dcsim_error err;
  char buf[2048];
  memset(&err, 0, sizeof err);
  CHECK_INT(DCSIM_ERR(&err, DCSIM_EPARSE, "a.xml", 42, "bad %s\nvalue %d", "x", 7), DCSIM_EPARSE);
  CHECK_INT(err.code, DCSIM_EPARSE);
  CHECK_STR(err.msg, "bad x value 7"); /* one line */
  dcsim_error_format(&err, buf, sizeof buf);
  CHECK_STR(buf, "a.xml:42: bad x value 7");
  DCSIM_ERR(&err, DCSIM_EIO, "b.csv", 0, "cannot open");
  dcsim_error_format(&err, buf, sizeof buf);
  CHECK_STR(buf, "b.csv: cannot open");
  DCSIM_ERR(&err, DCSIM_ENOMEM, NULL, 0, "out of memory");
  dcsim_error_format(&err, buf, sizeof buf);
  CHECK_STR(buf, "out of memory");
  CHECK_INT(DCSIM_ERR(NULL, DCSIM_ERANGE, "x", 1, "ignored"), DCSIM_ERANGE);
}

static void test_location(void) {
  dcsim_error err;
  memset(&err, 0, sizeof err);
  DCSIM_ERR(&err, DCSIM_EREF, "", 0, "unknown profile");
  const char *src = err.src_file;
  int src_line = err.src_line;
  dcsim_error_at_if_unset(&err, "w.xml", 17);
  CHECK_STR(err.file, "w.xml");
  CHECK_INT(err.line, 17);
  dcsim_error_at_if_unset(&err, "other.xml", 3); /* already named: kept */
  CHECK_STR(err.file, "w.xml");
  CHECK_INT(err.line, 17);
  dcsim_error_at(&err, NULL, 5); /* the line only */
  CHECK_STR(err.file, "w.xml");
  CHECK_INT(err.line, 5);
  dcsim_error_at(&err, "command line", 2);
  CHECK_STR(err.file, "command line");
  CHECK_INT(err.line, 2);
  CHECK_INT(err.code, DCSIM_EREF);
  CHECK(err.src_file == src && err.src_line == src_line); /* the origin stays */
  CHECK_STR(err.msg, "unknown profile");
  dcsim_error_at(NULL, "x", 1); /* NULL-safe */
  dcsim_error_at_if_unset(NULL, "x", 1);
  dcsim_error_prefix(NULL, "x");
  dcsim_error_suffix(NULL, "x");
}

static void test_prefix_suffix(void) {
  dcsim_error err;
  memset(&err, 0, sizeof err);
  DCSIM_ERR(&err, DCSIM_ERANGE, "p.xml", 9, "state 2.385 GHz outside the table");
  dcsim_error_prefix(&err, "<task name=\"%s\"> on group '%s'", "fft", "cpu\nnodes");
  CHECK_STR(err.msg, "<task name=\"fft\"> on group 'cpu nodes': state 2.385 GHz outside the table");
  dcsim_error_suffix(&err, " (task '%s' of %s:%d)", "t1", "w.xml", 31);
  CHECK_STR(err.msg,
            "<task name=\"fft\"> on group 'cpu nodes': state 2.385 GHz outside the table "
            "(task 't1' of w.xml:31)");
  CHECK_INT(err.code, DCSIM_ERANGE);
  CHECK_STR(err.file, "p.xml");
  CHECK_INT(err.line, 9);

  /* a long message is cut, the context is kept whole */
  char longmsg[1500];
  memset(longmsg, 'm', sizeof longmsg - 1);
  longmsg[sizeof longmsg - 1] = '\0';
  DCSIM_ERR(&err, DCSIM_EPARSE, "", 0, "%s", longmsg);
  CHECK_INT(strlen(err.msg), sizeof err.msg - 1);
  dcsim_error_prefix(&err, "ctx");
  CHECK_INT(strlen(err.msg), sizeof err.msg - 1);
  CHECK(strncmp(err.msg, "ctx: mmm", 8) == 0);
  DCSIM_ERR(&err, DCSIM_EPARSE, "", 0, "%s", longmsg);
  dcsim_error_suffix(&err, " (tail)");
  CHECK_INT(strlen(err.msg), sizeof err.msg - 1);
  CHECK_STR(err.msg + sizeof err.msg - 1 - 7, " (tail)");
  CHECK(err.msg[0] == 'm');
}

/* an error about a value the caller passed names its parameter, not an option */
static void test_param(void) {
  dcsim_error err;
  char buf[2048];
  memset(&err, 0, sizeof err);
  CHECK_INT(DCSIM_PERR(&err, DCSIM_EUSAGE, "cpu_profiles", 2, "%s given twice", "xeon"),
            DCSIM_EUSAGE);
  CHECK_STR(err.param, "cpu_profiles");
  CHECK_INT(err.index, 2);
  CHECK_STR(err.file, "");
  dcsim_error_format(&err, buf, sizeof buf);
  CHECK_STR(buf, "cpu_profiles: xeon given twice");
  dcsim_error_param(&err, "gpu_profiles", 0); /* already named: kept */
  CHECK_STR(err.param, "cpu_profiles");
  DCSIM_ERR(&err, DCSIM_EREF, "", 0, "unknown CPU profile 'x'"); /* a new error forgets it */
  CHECK_STR(err.param, "");
  CHECK_INT(err.index, -1);
  dcsim_error_param(&err, "host_cpus", 1); /* a caller adds it */
  CHECK_STR(err.param, "host_cpus");
  CHECK_INT(err.index, 1);
  DCSIM_ERR(&err, DCSIM_EREF, "p.xml", 4, "unknown level");
  dcsim_error_param(&err, "cpu_profiles", 0); /* an input's error: no parameter */
  CHECK_STR(err.param, "");
  dcsim_error_param(NULL, "x", 0);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  test_set_and_format();
  test_param();
  test_location();
  test_prefix_suffix();
  CHECK_DONE();
}
