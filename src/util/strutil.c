/* strutil.c — strings, array growth, number parsing, paths (see dcsim/strutil.h). */
#include "dcsim/strutil.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dcsim/error.h"

char *dcsim_strdup(const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

char *dcsim_trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  size_t n = strlen(s);
  while (n && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
  return s;
}

/* RFC 3629, section 4 (UTF8-octets): the second byte's range depends on the first (E0: A0-BF,
 * ED: 80-9F, F0: 90-BF, F4: 80-8F), every other continuation byte is 80-BF. */
size_t dcsim_utf8_len(const char *str) {
  const unsigned char *s = (const unsigned char *)str;
  unsigned char c = s[0];
  if (c == 0) return 0;
  if (c < 0x80) return 1;
  size_t n;
  unsigned char lo = 0x80, hi = 0xbf;
  if (c >= 0xc2 && c <= 0xdf)
    n = 2;
  else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    if (c == 0xe0) lo = 0xa0;
    if (c == 0xed) hi = 0x9f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    if (c == 0xf0) lo = 0x90;
    if (c == 0xf4) hi = 0x8f;
  } else
    return 0;
  if (s[1] < lo || s[1] > hi) return 0;
  for (size_t i = 2; i < n; i++)
    if (s[i] < 0x80 || s[i] > 0xbf) return 0;
  return n;
}

int dcsim_bufprintf(char *buf, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, size, fmt, ap);
  va_end(ap);
  return n < 0 || (size_t)n >= size ? -1 : 0;
}

int dcsim_str_addf(dcsim_str *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = dcsim_str_vaddf(b, fmt, ap);
  va_end(ap);
  return rc;
}

int dcsim_str_vaddf(dcsim_str *b, const char *fmt, va_list ap) {
  if (b->oom) return -1;
  for (;;) {
    va_list aq;
    va_copy(aq, ap);
    int k = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, aq);
    va_end(aq);
    if (k < 0) break;
    if (b->s && b->len + (size_t)k < b->cap) {
      b->len += (size_t)k;
      return 0;
    }
    if ((size_t)k > SIZE_MAX / 2 - b->len || DCSIM_GROW(b->s, b->cap, b->len + (size_t)k + 1))
      break;
  }
  b->oom = 1;
  return -1;
}

int dcsim_str_add(dcsim_str *b, const char *s) { return dcsim_str_addf(b, "%s", s); }

const char *dcsim_str_cstr(const dcsim_str *b) { return b->s ? b->s : ""; }

char *dcsim_str_take(dcsim_str *b) {
  char *s = b->oom ? NULL : b->s ? b->s : dcsim_strdup("");
  if (b->oom) free(b->s);
  *b = (dcsim_str)DCSIM_STR_INIT;
  return s;
}

int dcsim_str_copy_to(const dcsim_str *b, char *buf, size_t size) {
  size_t n = b->len < size ? b->len : size - 1;
  memcpy(buf, dcsim_str_cstr(b), n);
  buf[n] = '\0';
  return n < b->len ? -1 : 0;
}

void dcsim_str_release(dcsim_str *b) {
  if (!b) return;
  free(b->s);
  *b = (dcsim_str)DCSIM_STR_INIT;
}

char *dcsim_strdup_printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *out = n < 0 ? NULL : malloc((size_t)n + 1);
  if (!out) return NULL;
  va_start(ap, fmt);
  vsnprintf(out, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return out;
}

enum { GROW_FIRST = 8 };

int dcsim_resize(void **arr, size_t n, size_t elem_size) {
  if (elem_size && n > SIZE_MAX / elem_size) return -1;
  void *old; /* through memcpy: *arr is some T* stored in the caller */
  memcpy(&old, arr, sizeof old);
  void *p = realloc(old, n * elem_size);
  if (!p) return -1;
  memcpy(arr, &p, sizeof p);
  return 0;
}

int dcsim_grow(void **arr, size_t *cap, size_t need, size_t elem_size) {
  if (need <= *cap) return 0;
  size_t nc = *cap ? *cap : GROW_FIRST;
  while (nc < need) {
    if (nc > SIZE_MAX / 2) return -1;
    nc *= 2;
  }
  if (dcsim_resize(arr, nc, elem_size)) return -1;
  *cap = nc;
  return 0;
}

int dcsim_grow_n(void **arr, size_t n, size_t elem_size) {
  size_t cap = 0; /* the room dcsim_grow gave n elements added one at a time */
  if (n) {
    cap = GROW_FIRST;
    while (cap < n) {
      if (cap > SIZE_MAX / 2) return -1;
      cap *= 2;
    }
  }
  return dcsim_grow(arr, &cap, n + 1, elem_size);
}

int dcsim_parse_double(const char *s, double *out) {
  if (!s) return -1;
  while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
  if (!*s) return -1;
  /* only plain decimal notation: no hex, inf or nan words */
  for (const char *p = s; *p; p++)
    if (!strchr("0123456789+-.eE \t\r\n", *p)) return -1;
  char *end = NULL;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || errno == ERANGE || !isfinite(v)) return -1;
  while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r') end++;
  if (*end) return -1;
  *out = v;
  return 0;
}

int dcsim_parse_uint(const char *s, unsigned lo, unsigned hi, unsigned *out) {
  double x;
  if (dcsim_parse_double(s, &x) != 0 || x < lo || x > hi || x != floor(x)) return -1;
  *out = (unsigned)x;
  return 0;
}

int dcsim_parse_ghz(const char *s, double *ghz) {
  size_t l = strlen(s);
  if (l > 3 && (strcmp(s + l - 3, "GHz") == 0 || strcmp(s + l - 3, "ghz") == 0)) l -= 3;
  char *num = dcsim_strdup_printf("%.*s", (int)(l < INT_MAX ? l : INT_MAX), s);
  int rc = num ? dcsim_parse_double(num, ghz) : -1;
  free(num);
  return rc;
}

char *dcsim_path_join(const char *base_file, const char *ref) {
  size_t dir_len = 0;
  if (ref[0] != '/' && base_file) {
    const char *slash = strrchr(base_file, '/');
    if (slash) dir_len = (size_t)(slash - base_file) + 1;
  }
  size_t len = dir_len + strlen(ref);
  char *in = malloc(len + 1), *out = malloc(len + 2);
  if (!in || !out) {
    free(in);
    free(out);
    return NULL;
  }
  if (dir_len) memcpy(in, base_file, dir_len);
  strcpy(in + dir_len, ref);
  size_t o = 0, root = 0;
  if (in[0] == '/') out[o++] = '/', root = 1;
  char *save = NULL;
  for (char *tok = strtok_r(in, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
    if (strcmp(tok, ".") == 0) continue;
    if (strcmp(tok, "..") == 0) {
      size_t p = o;
      while (p > root && out[p - 1] != '/') p--;
      if (o > root && !(o - p == 2 && out[p] == '.' && out[p + 1] == '.')) {
        o = p > root ? p - 1 : root; /* drop the last component */
        continue;
      }
      if (root) continue; /* "/.." is "/" */
    }
    if (o > root) out[o++] = '/';
    size_t n = strlen(tok);
    memcpy(out + o, tok, n);
    o += n;
  }
  if (o == 0) out[o++] = '.';
  out[o] = '\0';
  free(in);
  return out;
}

char *dcsim_path_in(const char *dir, const char *file) {
  size_t d = strlen(dir), f = strlen(file);
  char *p = malloc(d + f + 2);
  if (!p) return NULL;
  memcpy(p, dir, d);
  p[d] = '/';
  memcpy(p + d + 1, file, f + 1);
  return p;
}

int dcsim_path_check_writable(const char *path, const char *what, dcsim_error *err) {
  struct stat st;
  if (!path || !*path) return DCSIM_PERR(err, DCSIM_EIO, "path", -1, "%s: empty path", what);
  if (stat(path, &st) == 0) {
    if (S_ISDIR(st.st_mode))
      return DCSIM_ERR(err, DCSIM_EIO, path, 0, "%s: is a directory, not a file", what);
    if (!S_ISREG(st.st_mode)) /* written by rename over it: a FIFO would block, a device be lost */
      return DCSIM_ERR(err, DCSIM_EIO, path, 0,
                       "%s: is not a regular file (a FIFO, device or socket): outputs are only "
                       "written to regular files",
                       what);
    if (access(path, W_OK) != 0)
      return DCSIM_ERR(err, DCSIM_EIO, path, 0, "%s: cannot write: %s", what, strerror(errno));
    return 0;
  }
  const char *slash = strrchr(path, '/');
  char *dir = !slash          ? dcsim_strdup(".")
              : slash == path ? dcsim_strdup("/")
                              : strndup(path, (size_t)(slash - path));
  int rc = 0;
  if (!dir)
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  else if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
    rc = DCSIM_ERR(err, DCSIM_EIO, path, 0, "%s: no directory %s", what, dir);
  else if (access(dir, W_OK) != 0)
    rc = DCSIM_ERR(err, DCSIM_EIO, path, 0, "%s: cannot write in %s: %s", what, dir,
                   strerror(errno));
  free(dir);
  return rc;
}

size_t dcsim_edit_distance(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  if (la > 63 || lb > 63) return (size_t)-1;
  size_t row[64];
  for (size_t j = 0; j <= lb; j++) row[j] = j;
  for (size_t i = 1; i <= la; i++) { /* one row of the Wagner-Fischer table at a time */
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= lb; j++) {
      size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
      if (up + 1 < best) best = up + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      diag = up;
    }
  }
  return row[lb];
}

size_t dcsim_suggest_n(const char *word, const char *const *cands, size_t n, const char **out,
                       size_t max) {
  if (!word || !*word || !max) return 0;
  size_t lw = strlen(word), limit = lw / 3 > 2 ? lw / 3 : 2, best_d = (size_t)-1, k = 0;
  for (size_t i = 0; i < n; i++) {
    if (!cands[i] || strcmp(cands[i], word) == 0) continue;
    size_t d = dcsim_edit_distance(word, cands[i]);
    if (lw >= 3 && strncmp(cands[i], word, lw) == 0 && d > 1) d = 1; /* the beginning of it */
    /* a part of it (v100 -> tesla-v100-sxm2, 8480 -> xeon-platinum-8480+) */
    if (lw >= 3 && d > 1 && strstr(cands[i], word)) d = 1;
    if (d > limit || d > best_d) continue;
    if (d < best_d) k = 0; /* a closer one: the ties so far are out */
    best_d = d;
    if (k < max) out[k++] = cands[i];
  }
  return k;
}

const char *dcsim_suggest(const char *word, const char *const *cands, size_t n) {
  const char *best = NULL;
  return dcsim_suggest_n(word, cands, n, &best, 1) ? best : NULL;
}
