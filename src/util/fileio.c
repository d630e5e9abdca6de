/* fileio.c — reading a whole input file into memory (see dcsim/fileio.h). */
#include "dcsim/fileio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

int dcsim_file_read(const char *path, const dcsim_file_rules *rules, char **text, size_t *len,
                    dcsim_error *err) {
  if (rules && rules->regular_only) {
    int rc = dcsim_file_check_input(path, err);
    if (rc) return rc;
  }
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

int dcsim_file_check_input(const char *path, dcsim_error *err) {
  struct stat st;
  if (stat(path, &st) != 0)
    return DCSIM_ERR(err, DCSIM_EIO, path, 0, "cannot open: %s", strerror(errno));
  if (S_ISREG(st.st_mode)) return 0;
  const char *what = S_ISDIR(st.st_mode)    ? "a directory"
                     : S_ISFIFO(st.st_mode) ? "a FIFO (named pipe)"
                     : S_ISCHR(st.st_mode)  ? "a character device"
                     : S_ISBLK(st.st_mode)  ? "a block device"
                     : S_ISSOCK(st.st_mode) ? "a socket"
                                            : "not a file";
  return DCSIM_ERR(err, DCSIM_EIO, path, 0,
                   "is %s, not a regular file: dcsim reads its inputs from files", what);
}
