/* fileio.c — reading a whole input file into memory (see util/fileio.h). */
#include "util/fileio.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dcsim/strutil.h"

enum { CHUNK_BYTES = 65536 };

/* Reads f to its end into *buf (room *cap, *n bytes read), stopping once more than max bytes
 * (max > 0) have come; the buffer keeps room for a NUL after them. */
static int read_all(FILE *f, const char *path, const dcsim_file_rules *rules, char **buf,
                    size_t *cap, size_t *n, dcsim_error *err) {
  size_t max = rules ? rules->max_bytes : 0;
  for (;;) {
    if (*cap - *n < CHUNK_BYTES + 1) {
      size_t ncap = *cap ? *cap * 2 : 2 * CHUNK_BYTES;
      if (DCSIM_RESIZE(*buf, ncap)) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
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
  if (rules && rules->regular_only) {
    int rc = dcsim__file_check_input(path, err);
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

int dcsim__file_check_input(const char *path, dcsim_error *err) {
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

int dcsim__file_read_text(const char *path, char **text, dcsim_error *err) {
  static const dcsim_file_rules rules = { 64u * 1024 * 1024, "file too large (64 MiB at most)",
                                          "not a text file (holds a NUL byte)", 1 };
  return dcsim__file_read(path, &rules, text, NULL, err);
}

char *dcsim__file_tmp_path(const char *path) {
  size_t n = strlen(path) + 32;
  char *tmp = malloc(n);
  if (tmp) snprintf(tmp, n, "%s.tmp%ld", path, (long)getpid());
  return tmp;
}

int dcsim__file_publish(const char *tmp, const char *path, dcsim_error *err) {
  if (rename(tmp, path) == 0) return 0;
  int rc = DCSIM_ERR(err, DCSIM_EIO, path, 0, "cannot write: %s", strerror(errno));
  remove(tmp);
  return rc;
}

int dcsim__file_write_atomic_bytes(const char *path, const void *data, size_t len,
                                   dcsim_error *err) {
  char *tmp = dcsim__file_tmp_path(path);
  if (!tmp) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  int rc = 0;
  FILE *f = fopen(tmp, "wb");
  if (!f) {
    rc = DCSIM_ERR(err, DCSIM_EIO, path, 0, "cannot write: %s", strerror(errno));
    goto out;
  }
  int bad = fwrite(data, 1, len, f) != len;
  bad |= fclose(f) != 0;
  if (bad) {
    rc = DCSIM_ERR(err, DCSIM_EIO, path, 0, "write error");
    remove(tmp);
    goto out;
  }
  rc = dcsim__file_publish(tmp, path, err);
out:
  free(tmp);
  return rc;
}

int dcsim__file_write_atomic(const char *path, const char *text, dcsim_error *err) {
  return dcsim__file_write_atomic_bytes(path, text, strlen(text), err);
}

/* 1 when dir exists as a directory, 0 when nothing is there, DCSIM_EIO when something else is */
static int existing_dir(const char *dir, dcsim_error *err) {
  struct stat st;
  if (stat(dir, &st) != 0) return 0;
  if (!S_ISDIR(st.st_mode))
    return DCSIM_ERR(err, DCSIM_EIO, dir, 0, "exists and is not a directory");
  return 1;
}

/* one directory level: 0 when dir exists as a directory or was made */
static int mkdir1(const char *dir, dcsim_error *err) {
  int e = existing_dir(dir, err);
  if (e) return e < 0 ? e : 0;
  if (mkdir(dir, 0777) != 0 && errno != EEXIST)
    return DCSIM_ERR(err, DCSIM_EIO, dir, 0, "cannot create directory: %s", strerror(errno));
  return 0;
}

int dcsim__mkdir_p(const char *dir, dcsim_error *err) {
  char *d = dcsim_strdup(dir);
  if (!d) return DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  int rc = 0;
  for (char *p = d + 1; *p && !rc; p++) /* each parent, then the whole path */
    if (*p == '/' && p[-1] != '/') {
      *p = '\0';
      struct stat st;
      if (stat(d, &st) != 0) rc = mkdir1(d, err);
      *p = '/';
    }
  if (!rc) rc = mkdir1(d, err);
  free(d);
  return rc;
}

/* 1 when directory d holds nothing but . and .., 0 when it holds something, -1 unreadable */
static int dir_is_empty(const char *d) {
  DIR *dh = opendir(d);
  if (!dh) return -1;
  int empty = 1;
  for (struct dirent *e; empty && (e = readdir(dh));)
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) empty = 0;
  closedir(dh);
  return empty;
}

/* dir must be absent or an empty directory; its parent is made when missing */
static int dir_target_ok(const char *dir, dcsim_error *err) {
  int e = existing_dir(dir, err);
  if (e < 0) dcsim_error_suffix(err, " (nothing was written)");
  if (e < 0) return e;
  if (e) {
    int empty = dir_is_empty(dir);
    if (empty < 0) return DCSIM_ERR(err, DCSIM_EIO, dir, 0, "cannot read: %s", strerror(errno));
    if (!empty)
      return DCSIM_ERR(err, DCSIM_EIO, dir, 0, "exists and is not empty (nothing was written)");
    return 0;
  }
  char *parent = dcsim_strdup(dir);
  if (!parent) return DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  char *slash = strrchr(parent, '/');
  int rc = 0;
  if (slash && slash != parent) {
    *slash = '\0';
    rc = dcsim__mkdir_p(parent, err);
  }
  free(parent);
  return rc;
}

int dcsim__dir_write_atomic(const char *dir, const char *const *names, const char *const *texts,
                            size_t n, dcsim_error *err) {
  size_t dl = strlen(dir);
  while (dl > 1 && dir[dl - 1] == '/') dl--; /* DIR/ is DIR: rename() takes no trailing slash */
  char *d = strndup(dir, dl), *tmp = d ? dcsim__file_tmp_path(d) : NULL, *path = NULL;
  size_t written = 0;
  int rc = 0, made = 0;
  if (!d || !tmp) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
    goto out;
  }
  if ((rc = dir_target_ok(d, err))) goto out;
  if (mkdir(tmp, 0777) != 0) {
    rc = DCSIM_ERR(err, DCSIM_EIO, d, 0, "cannot create directory %s: %s", tmp, strerror(errno));
    goto out;
  }
  made = 1;
  for (; written < n; written++) {
    free(path);
    if (!(path = dcsim_path_in(tmp, names[written]))) {
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, d, 0, "out of memory");
      goto out;
    }
    FILE *f = fopen(path, "wb");
    size_t len = strlen(texts[written]);
    int bad = !f || fwrite(texts[written], 1, len, f) != len;
    if (f) bad |= fclose(f) != 0;
    if (bad) {
      rc = DCSIM_ERR(err, DCSIM_EIO, d, 0, "cannot write %s: %s (nothing was written)",
                     names[written], strerror(errno ? errno : EIO));
      written += f != NULL; /* a file was created: remove it too */
      goto out;
    }
  }
  if (rename(tmp, d) != 0) {
    rc =
        DCSIM_ERR(err, DCSIM_EIO, d, 0, "cannot create: %s (nothing was written)", strerror(errno));
    goto out;
  }
  made = 0;
out:
  for (size_t i = 0; made && i < written && i < n; i++) { /* all or nothing */
    free(path);
    if ((path = dcsim_path_in(tmp, names[i]))) remove(path);
  }
  if (made) rmdir(tmp);
  free(path);
  free(tmp);
  free(d);
  return rc;
}
