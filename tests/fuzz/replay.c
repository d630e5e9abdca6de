/* replay.c — runs a fuzz harness over files without libFuzzer: `fuzz_NAME FILE|DIR...` feeds
 * every file (directories: their files, sorted) to LLVMFuzzerTestOneInput once. Every build but
 * the libFuzzer one links the harnesses with it, so the seeds and the regression inputs of
 * tests/fuzz/regress/ run as ordinary tests (and under ASan+UBSan in CI). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dcsim/lib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return -1;
  }
  size_t cap = 4096, n = 0;
  uint8_t *buf = malloc(cap);
  for (size_t k; buf && (k = fread(buf + n, 1, cap - n, f)) > 0;) {
    n += k;
    if (n == cap) {
      uint8_t *nb = realloc(buf, cap *= 2);
      if (!nb) {
        free(buf);
        buf = NULL;
      }
      buf = nb;
    }
  }
  fclose(f);
  if (!buf) {
    fprintf(stderr, "%s: out of memory\n", path);
    return -1;
  }
  LLVMFuzzerTestOneInput(buf, n);
  free(buf);
  return 0;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_path(const char *path, size_t *count) {
  struct stat st;
  if (stat(path, &st) != 0) {
    perror(path);
    return -1;
  }
  if (!S_ISDIR(st.st_mode)) {
    ++*count;
    return run_file(path);
  }
  DIR *d = opendir(path);
  if (!d) {
    perror(path);
    return -1;
  }
  char **names = NULL;
  size_t n = 0, cap = 0;
  int rc = 0;
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.') continue;
    if (n == cap) {
      char **nn = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *nn);
      if (!nn) {
        rc = -1;
        break;
      }
      names = nn;
    }
    size_t len = strlen(path) + strlen(e->d_name) + 2;
    if (!(names[n] = malloc(len))) {
      rc = -1;
      break;
    }
    snprintf(names[n++], len, "%s/%s", path, e->d_name);
  }
  closedir(d);
  if (n) qsort(names, n, sizeof *names, cmp_str);
  for (size_t i = 0; i < n; i++) {
    if (!rc) rc = run_path(names[i], count);
    free(names[i]);
  }
  free(names);
  return rc;
}

int main(int argc, char **argv) {
  if (dcsim_lib_init() != 0) return 1;
  size_t count = 0;
  for (int i = 1; i < argc; i++)
    if (run_path(argv[i], &count) != 0) return 1;
  fprintf(stderr, "%s: %zu input(s) replayed, no failure\n", argv[0], count);
  return 0;
}
