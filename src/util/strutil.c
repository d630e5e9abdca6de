/* strutil.c — strings, array growth, number parsing, paths (see dcsim/strutil.h). */
#include "dcsim/strutil.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *dcsim_strdup(const char *s) {
  if (!s) return NULL;
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

enum { GROW_FIRST = 8 };

int dcsim_grow(void **arr, size_t *cap, size_t need, size_t elem_size) {
  if (need <= *cap) return 0;
  size_t nc = *cap ? *cap : GROW_FIRST;
  while (nc < need) {
    if (nc > SIZE_MAX / 2) return -1;
    nc *= 2;
  }
  if (elem_size && nc > SIZE_MAX / elem_size) return -1;
  void *old; /* through memcpy: *arr is some T* stored in the caller */
  memcpy(&old, arr, sizeof old);
  void *p = realloc(old, nc * elem_size);
  if (!p) return -1;
  memcpy(arr, &p, sizeof p);
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
  char buf[64];
  snprintf(buf, sizeof buf, "%s", s);
  size_t l = strlen(buf);
  if (l > 3 && (strcmp(buf + l - 3, "GHz") == 0 || strcmp(buf + l - 3, "ghz") == 0))
    buf[l - 3] = '\0';
  return dcsim_parse_double(buf, ghz);
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
