/* csv.c — small CSV tables (see util/csv.h). Cells may be double-quoted (RFC 4180, no line
 * breaks inside quotes), as profiler exports write them. */
#include "util/csv.h"

#include <ctype.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/strutil.h"
#include "util/fileio.h"

struct dcsim_csv {
  char *path;
  char *text; /* the file, cut into cells in place */
  size_t n_cols, n_rows;
  char **cells; /* (n_rows + 1) x n_cols: header first */
  int *lines;   /* per row */
};

void dcsim__csv_free(dcsim_csv_t *t) {
  if (!t) return;
  free(t->path);
  free(t->text);
  free(t->cells);
  free(t->lines);
  free(t);
}

/* Cuts line s into cells in place: unquoted cells are trimmed; a cell in double quotes may hold
 * commas and "" for a quote (RFC 4180, without line breaks inside quotes). 0, -1 bad quoting,
 * -2 out of memory. (util/csv.h) */
int dcsim__csv_split(char *s, char ***cells, size_t *cap, size_t *n) {
  *n = 0;
  for (char *p = s;;) {
    if (dcsim_grow((void **)cells, cap, *n + 1, sizeof **cells)) return -2;
    while (*p == ' ' || *p == '\t') p++;
    char *cell, *end;
    int quoted = *p == '"';
    if (quoted) {
      cell = ++p;
      char *w = p;
      for (;;) {
        if (!*p) return -1;
        if (*p == '"') {
          if (p[1] == '"') {
            *w++ = '"';
            p += 2;
            continue;
          }
          p++;
          break;
        }
        *w++ = *p++;
      }
      while (*p == ' ' || *p == '\t') p++;
      if (*p && *p != ',') return -1;
      end = p;
      *w = '\0';
    } else {
      cell = p;
      end = strchr(p, ',');
      if (!end) end = p + strlen(p);
    }
    int last = *end != ',';
    *end = '\0';
    (*cells)[(*n)++] = quoted ? cell : dcsim_trim(cell);
    if (last) return 0;
    p = end + 1;
  }
}

int dcsim__csv_load(const char *path, dcsim_csv_t **out, dcsim_error *err) {
  static const dcsim_file_rules rules = { 64u * 1024 * 1024, "file too large (64 MiB at most)",
                                          NULL, 1 };
  int rc = 0;
  char **tmp = NULL;
  size_t tmp_cap = 0;
  dcsim_csv_t *t = calloc(1, sizeof *t);
  if (!t || !(t->path = dcsim_strdup(path))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  if ((rc = dcsim__file_read(path, &rules, &t->text, NULL, err))) goto out;
  size_t cap_rows = 16;
  int line = 0;
  size_t row = 0;
  for (char *ln = t->text, *next; ln; ln = next) {
    next = strchr(ln, '\n');
    if (next) *next++ = '\0';
    line++;
    char *s = dcsim_trim(ln);
    if (!*s || *s == '#') continue;
    size_t nc = 0;
    if ((rc = dcsim__csv_split(s, &tmp, &tmp_cap, &nc)) != 0) {
      rc = rc == -2 ? DCSIM_ERR(err, DCSIM_ENOMEM, path, line, "out of memory")
                    : DCSIM_ERR(err, DCSIM_EPARSE, path, line,
                                "unterminated quoted cell or text after a closing quote");
      goto out;
    }
    if (row == 0) {
      t->n_cols = nc;
      t->cells = calloc(cap_rows * nc, sizeof *t->cells);
      t->lines = calloc(cap_rows, sizeof *t->lines);
      if (!t->cells || !t->lines) {
        rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, line, "out of memory");
        goto out;
      }
    } else if (nc != t->n_cols) {
      rc = DCSIM_ERR(err, DCSIM_EPARSE, path, line, "%zu cells, the header has %zu", nc, t->n_cols);
      goto out;
    }
    if (row == cap_rows) {
      cap_rows *= 2;
      if ((t->n_cols && cap_rows > SIZE_MAX / t->n_cols) ||
          DCSIM_RESIZE(t->cells, cap_rows * t->n_cols) || DCSIM_RESIZE(t->lines, cap_rows)) {
        rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, line, "out of memory");
        goto out;
      }
    }
    for (size_t c = 0; c < t->n_cols; c++)
      t->cells[row * t->n_cols + c] = tmp[c]; /* empty cells are kept */
    t->lines[row] = line;
    row++;
  }
  if (row == 0) {
    rc = DCSIM_ERR(err, DCSIM_EPARSE, path, 0, "no header line");
    goto out;
  }
  t->n_rows = row - 1;
  *out = t;
  t = NULL;
out:
  free(tmp);
  dcsim__csv_free(t);
  return rc;
}

size_t dcsim__csv_rows(const dcsim_csv_t *t) { return t->n_rows; }
int dcsim__csv_line(const dcsim_csv_t *t, size_t row) { return t->lines[row + 1]; }
const char *dcsim__csv_cell(const dcsim_csv_t *t, size_t row, size_t col) {
  return row < t->n_rows && col < t->n_cols ? t->cells[(row + 1) * t->n_cols + col] : "";
}

int dcsim__csv_col(const dcsim_csv_t *t, const char *name, size_t *col, dcsim_error *err) {
  for (size_t c = 0; c < t->n_cols; c++)
    if (strcmp(t->cells[c], name) == 0) {
      *col = c;
      return 0;
    }
  return DCSIM_ERR(err, DCSIM_EREF, t->path, t->lines[0], "no column '%s'", name);
}

int dcsim__csv_num(const dcsim_csv_t *t, size_t row, size_t col, double *out, dcsim_error *err) {
  const char *s = dcsim__csv_cell(t, row, col);
  if (dcsim_parse_double(s, out) != 0)
    return DCSIM_ERR(err, DCSIM_ERANGE, t->path, row < t->n_rows ? dcsim__csv_line(t, row) : 0,
                     "column %s: '%s' is not a finite number",
                     col < t->n_cols ? t->cells[col] : "?", s);
  return 0;
}

void dcsim__csv_write_cell(FILE *f, const char *s) {
  if (!s) return;
  size_t n = strlen(s);
  if (!strpbrk(s, ",\"\n\r") &&
      !(n && (isspace((unsigned char)s[0]) || isspace((unsigned char)s[n - 1])))) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s == '\n' ? ' ' : *s, f);
  }
  fputc('"', f);
}
