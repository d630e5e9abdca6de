/* test_swf.c — SWF parsing: all 18 fields, -1 fields, header comments, gzip input read like plain
 * text, and every bad-input class with its file:line. Run from the source root. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <zlib.h>

#include "check.h"
#include "dcsim/lib.h"
#include "dcsim/swf.h"

static dcsim_swf *load(const char *path) {
  dcsim_swf *t = NULL;
  dcsim_error err = { 0 };
  int rc = dcsim_swf_load(path, &t, &err);
  CHECK_INT(rc, 0);
  if (rc) fprintf(stderr, "  %s:%d: %s\n", err.file, err.line, err.msg);
  return t;
}

static void check_small(const dcsim_swf *t) {
  CHECK_INT((long long)t->n_jobs, 9);
  CHECK_INT(t->max_nodes, 4);
  CHECK_INT(t->max_procs, 8);
  CHECK_INT(t->max_jobs, 9);
  CHECK_INT(t->unix_start_time, 1000000000);
  CHECK_STR(t->computer, "test cluster");
  CHECK_STR(dcsim_swf_header(t, "Version"), "2.2");
  CHECK(dcsim_swf_header(t, "Nonexistent") == NULL);
  const dcsim_swf_job *j = &t->jobs[3]; /* job 4: every field */
  CHECK_INT(j->id, 4);
  CHECK_REL(j->submit_s, 20, 0);
  CHECK_REL(j->wait_s, -1, 0);
  CHECK_REL(j->run_s, 30, 0);
  CHECK_INT(j->procs, 3);
  CHECK_REL(j->cpu_s, -1, 0);
  CHECK_REL(j->mem_kb, -1, 0);
  CHECK_INT(j->req_procs, 3);
  CHECK_REL(j->req_time_s, -1, 0);
  CHECK_REL(j->req_mem_kb, -1, 0);
  CHECK_INT(j->status, DCSIM_SWF_COMPLETED);
  CHECK_INT(j->user, 2);
  CHECK_INT(j->group, 1);
  CHECK_INT(j->app, 2);
  CHECK_INT(j->queue, 0);
  CHECK_INT(j->partition, -1);
  CHECK_INT(j->prev_job, -1);
  CHECK_REL(j->think_s, -1, 0);
  CHECK_INT(j->line, 15);
  CHECK_INT(t->jobs[2].status, DCSIM_SWF_CANCELLED);
  CHECK_REL(t->jobs[7].run_s, 0.4, 1e-15); /* a fractional time field */
}

static void test_plain_and_gzip(void) {
  dcsim_swf *t = load("tests/data/traces/small.swf");
  if (t) check_small(t);
  dcsim_swf_free(t);
  /* the same bytes compressed */
  char path[] = "/tmp/dcsim-test-swf-XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) return;
  close(fd);
  FILE *in = fopen("tests/data/traces/small.swf", "rb");
  gzFile out = gzopen(path, "wb");
  char buf[4096];
  size_t n;
  while (in && out && (n = fread(buf, 1, sizeof buf, in)) > 0) gzwrite(out, buf, (unsigned)n);
  if (in) fclose(in);
  if (out) gzclose(out);
  t = load(path);
  if (t) check_small(t);
  dcsim_swf_free(t);
  unlink(path);
}

static void bad(const char *path, int code, int line, const char *word) {
  dcsim_swf *t = NULL;
  dcsim_error err = { 0 };
  CHECK_INT(dcsim_swf_load(path, &t, &err), code);
  CHECK(t == NULL);
  CHECK_STR(err.file, path);
  CHECK_INT(err.line, line);
  CHECK(strstr(err.msg, word) != NULL);
  if (!strstr(err.msg, word)) fprintf(stderr, "  message: %s\n", err.msg);
}

static void test_bad(void) {
  bad("tests/data/traces/bad-fields.swf", DCSIM_EPARSE, 2, "17 fields");
  bad("tests/data/traces/bad-value.swf", DCSIM_ERANGE, 3, "run time");
  bad("tests/data/traces/bad-procs.swf", DCSIM_EPARSE, 3, "not a whole number");
  bad("tests/data/traces/missing.swf", DCSIM_EIO, 0, "cannot open");
}

/* The real NASA iPSC/860 trace of ../shared/data, when present. */
static void test_nasa(void) {
  const char *p = "../shared/data/swf/NASA-iPSC-1993-3.1-cln.swf.gz";
  if (access(p, R_OK) != 0) {
    fprintf(stderr, "  %s absent: skipped\n", p);
    return;
  }
  dcsim_swf *t = load(p);
  if (!t) return;
  CHECK_INT((long long)t->n_jobs, 18239);
  CHECK_INT(t->max_nodes, 128);
  CHECK_INT(t->max_procs, 128);
  CHECK_INT(t->unix_start_time, 749458803);
  CHECK_INT(t->jobs[0].procs, 128);
  CHECK_REL(t->jobs[0].run_s, 1451, 0);
  dcsim_swf_free(t);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  test_plain_and_gzip();
  test_bad();
  test_nasa();
  CHECK_DONE();
}
