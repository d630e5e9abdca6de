/* tests/fuzz/fuzz.h — what every fuzz harness shares (doc/robustness.md).
 *
 * A harness is one file tests/fuzz/fuzz_<name>.c that defines LLVMFuzzerTestOneInput() and names
 * its seed corpus in a comment line of the form
 *     // seeds: hw-profiles/cpu/<star>.xml tests/data/bad/cpu-<star>.xml   (globs, source root)
 * and/or "// seed-formulas: FILES" (the formula attributes of those files, one seed each). It is
 * built twice: with libFuzzer (-DDCSIM_FUZZ=ON, clang) for fuzzing, and in every other build with
 * tests/fuzz/replay.c, which runs the seeds and tests/fuzz/regress/<name>/ through it as a test.
 *
 * The loaders read files, so an input is written to a file in a private temporary directory
 * (fuzz_file) in which the harness may first link data files its inputs refer to (fuzz_link). The
 * data root ($DCSIM_DATA) is the source tree, so bare profile and dwarf names resolve.
 * Every function here is static: a harness needs nothing but this header and the library. */
#ifndef DCSIM_FUZZ_H
#define DCSIM_FUZZ_H

#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/xmlerror.h>

#include "dcsim/budget.h"
#include "dcsim/engine.h"
#include "dcsim/error.h"
#include "dcsim/lib.h"
#include "dcsim/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifndef DCSIM_SOURCE_DIR
#define DCSIM_SOURCE_DIR "."
#endif

static char fuzz_tmp_dir[64];

/* Removes every entry of the private directory (our files and links only), keeping it. */
static inline void fuzz_reset(void) {
  DIR *d = opendir(fuzz_tmp_dir);
  if (!d) return;
  struct dirent *e;
  char p[512];
  while ((e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
      snprintf(p, sizeof p, "%s/%s", fuzz_tmp_dir, e->d_name);
      unlink(p);
    }
  closedir(d);
}

static inline void fuzz_cleanup(void) {
  fuzz_reset();
  rmdir(fuzz_tmp_dir);
}

/* libxml2 printing anything itself (outside dcsim's error handlers) is a finding: dcsim's errors
 * are one line each, its own. */
static inline void fuzz_libxml_output(void *ctx, const char *msg, ...) {
  (void)ctx;
  fprintf(stderr, "fuzz: libxml2 wrote to stderr by itself: %s\n", msg);
  abort();
}

/* The private directory, created on first use (removed at exit). */
static inline const char *fuzz_dir(void) {
  if (!fuzz_tmp_dir[0]) {
    const char *t = getenv("TMPDIR");
    snprintf(fuzz_tmp_dir, sizeof fuzz_tmp_dir, "%.40s/dcsim-fuzz-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(fuzz_tmp_dir)) {
      perror("fuzz: mkdtemp");
      abort();
    }
    atexit(fuzz_cleanup);
    setenv("DCSIM_DATA", DCSIM_SOURCE_DIR, 1);
    if (dcsim_lib_init() != 0) abort();
    xmlSetGenericErrorFunc(NULL, fuzz_libxml_output);
  }
  return fuzz_tmp_dir;
}

/* Links every entry of the source directory `rel` (e.g. "workflows") into the private directory,
 * so that an input written there can name those files by relative path; an existing entry of the
 * same name is replaced. */
static inline void fuzz_link(const char *rel) {
  char src[1024], dst[512];
  const char *dir = fuzz_dir();
  snprintf(src, sizeof src, "%s/%s", DCSIM_SOURCE_DIR, rel);
  DIR *d = opendir(src);
  if (!d) {
    perror(src);
    abort();
  }
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char target[1536];
    snprintf(target, sizeof target, "%s/%s", src, e->d_name);
    snprintf(dst, sizeof dst, "%s/%s", dir, e->d_name);
    unlink(dst);
    if (symlink(target, dst) != 0) {
      perror(dst);
      abort();
    }
  }
  closedir(d);
}

/* Writes the input to the private directory under `name`; returns its path (static buffer). */
static inline const char *fuzz_file(const char *name, const uint8_t *data, size_t size) {
  static char path[512];
  snprintf(path, sizeof path, "%s/%s", fuzz_dir(), name);
  unlink(path); /* never write through a link into the source tree */
  FILE *f = fopen(path, "wb");
  if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
    perror(path);
    abort();
  }
  return path;
}

/* A NUL-terminated copy of the input (caller frees). */
static inline char *fuzz_str(const uint8_t *data, size_t size) {
  char *s = malloc(size + 1);
  if (!s) abort();
  if (size) memcpy(s, data, size);
  s[size] = '\0';
  return s;
}

/* A library call failed: the error must be filled and well-formed (a code, a message). */
static inline void fuzz_check_error(int rc, const dcsim_error *err) {
  if (rc == 0) return;
  if (rc != err->code || rc > 0 || rc < DCSIM_EINTERNAL - 10 || !err->msg[0] ||
      !memchr(err->msg, '\0', sizeof err->msg)) {
    fprintf(stderr, "fuzz: status %d with error code %d, message \"%.200s\"\n", rc, err->code,
            err->msg);
    abort();
  }
}

/* A fuzzed input may be a valid run of billions of tasks (a workload of 2043200 ensemble members
 * per cycle: 1.6e9): the harnesses that simulate refuse, as `dcsim run` does, a run past these
 * limits (dcsim_engine_check_size) instead of simulating for minutes. */
#define FUZZ_MAX_TASKS 2000000u
#define FUZZ_MAX_BYTES (UINT64_C(1) << 30)
/* ... and every loader gets the same limits as its budget (dcsim/budget.h), as dcsim's commands
 * give theirs: a workflow's expansion and a trace's jobs are refused before they are allocated */
static const dcsim_budget fuzz_budget = { FUZZ_MAX_TASKS, FUZZ_MAX_BYTES, 0, 0 };

/* Simulates scenario s with options eo, within the limits above; any error must be a proper one. */
static inline void fuzz_simulate(const dcsim_scenario *s, const dcsim_engine_opts *eo) {
  dcsim_error err;
  dcsim_run_size sz;
  dcsim_run_limits lim = { FUZZ_MAX_TASKS, FUZZ_MAX_BYTES };
  dcsim_engine_size(s, eo, &sz);
  int rc = dcsim_engine_check_size(&sz, &lim, &err);
  if (rc) {
    fuzz_check_error(rc, &err);
    return;
  }
  dcsim_engine_t *e = dcsim_engine_new(s, eo, &err);
  if (!e)
    fuzz_check_error(err.code, &err);
  else
    fuzz_check_error(dcsim_engine_run(e, &err), &err);
  dcsim_engine_free(e);
}

#endif
