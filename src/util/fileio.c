/* fileio.c — reading a whole input file into memory (see util/fileio.h). */
#include "util/fileio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { CHUNK_BYTES = 65536 };

/* Reads f to its end into *buf (room *cap, *n bytes read), stopping once more than max bytes
 * (max > 0) have come; the buffer keeps room for a NUL after them. */
static int read_all(FILE *f, const char *path, const dcsim_file_rules *rules, char **buf,
                    size_t *cap, size_t *n, dcsim_error *err) {
  size_t max = rules ? rules->max_bytes : 0;
  for (;;) {
    if (*cap - *n < CHUNK_BYTES + 1) {
      size_t ncap = *cap ? *cap * 2 : 2 * CHUNK_BYTES;
      char *nb = realloc(*buf, ncap);
      if (!nb) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
      *buf = nb;
      *cap = ncap;
    }
    size_t got = fread(*buf + *n, 1, CHUNK_BYTES, f);
    *n += got;
    if (max && *n > max) return DCSIM_ERR(err, DCSIM_ERANGE, path, 0, "%s", rules->too_large);
    if (got < CHUNK_BYTES) return ferror(f) ? DCSIM_ERR(err, DCSIM_EIO, path, 0, "read error") : 0;
  }
}

int dcsim__file_read(const char *path, const dcsim_file_rules *rules, char **text, size_t *len,
                     dcsim_error *err) {
  FILE *f = fopen(path, "rb");
  if (!f) return DCSIM_ERR(err, DCSIM_EIO, path, 0, "cannot open: %s", strerror(errno));
  char *buf = NULL;
  size_t cap = 0, n = 0;
  int rc = read_all(f, path, rules, &buf, &cap, &n, err);
  if (rc) goto out;
  buf[n] = '\0';
  if (rules && rules->nul_byte && memchr(buf, '\0', n)) {
    rc = DCSIM_ERR(err, DCSIM_EPARSE, path, 0, "%s", rules->nul_byte);
    goto out;
  }
  *text = buf;
  if (len) *len = n;
  buf = NULL;
out:
  free(buf);
  fclose(f);
  return rc;
}

int dcsim__file_read_text(const char *path, char **text, dcsim_error *err) {
  static const dcsim_file_rules rules = { 64u * 1024 * 1024, "file too large (64 MiB at most)",
                                          "not a text file (holds a NUL byte)" };
  return dcsim__file_read(path, &rules, text, NULL, err);
}

int dcsim__file_write_atomic(const char *path, const char *text, dcsim_error *err) {
  size_t n = strlen(path) + 16;
  char *tmp = malloc(n);
  if (!tmp) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  snprintf(tmp, n, "%s.tmp%ld", path, (long)getpid());
  int rc = 0;
  FILE *f = fopen(tmp, "wb");
  if (!f) {
    rc = DCSIM_ERR(err, DCSIM_EIO, path, 0, "cannot write: %s", strerror(errno));
    goto out;
  }
  size_t len = strlen(text);
  int bad = fwrite(text, 1, len, f) != len;
  bad |= fclose(f) != 0;
  if (bad) {
    rc = DCSIM_ERR(err, DCSIM_EIO, path, 0, "write error");
    remove(tmp);
    goto out;
  }
  if (rename(tmp, path) != 0) {
    rc = DCSIM_ERR(err, DCSIM_EIO, path, 0, "cannot write: %s", strerror(errno));
    remove(tmp);
  }
out:
  free(tmp);
  return rc;
}

int dcsim__mkdir(const char *dir, dcsim_error *err) {
  struct stat st;
  if (stat(dir, &st) == 0) {
    if (!S_ISDIR(st.st_mode))
      return DCSIM_ERR(err, DCSIM_EIO, dir, 0, "exists and is not a directory");
    return 0;
  }
  if (mkdir(dir, 0777) != 0)
    return DCSIM_ERR(err, DCSIM_EIO, dir, 0, "cannot create directory: %s", strerror(errno));
  return 0;
}
