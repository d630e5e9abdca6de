/* json.c — minimal streaming JSON writer (see dcsim/json.h). */
#include "dcsim/json.h"

#include <math.h>

#include "dcsim/strutil.h"

void dcsim_json_init(dcsim_json *j, FILE *f, int pretty) {
  j->f = f;
  j->depth = 0;
  j->need_comma[0] = 0;
  j->pretty = pretty;
}

static void indent(dcsim_json *j) {
  if (!j->pretty) return;
  fputc('\n', j->f);
  for (int i = 0; i < j->depth; i++) fputs("  ", j->f);
}

/* called before a value or a key */
static void sep(dcsim_json *j, int is_key_or_array_item) {
  if (j->need_comma[j->depth]) fputc(',', j->f);
  j->need_comma[j->depth] = 1;
  if (is_key_or_array_item && j->depth > 0) indent(j);
}

static void value_prefix(dcsim_json *j) {
  if (j->need_comma[j->depth] == 2) { /* directly after a key */
    j->need_comma[j->depth] = 1;
    return;
  }
  sep(j, 1);
}

static void open(dcsim_json *j, char c) {
  value_prefix(j);
  fputc(c, j->f);
  if (j->depth < 63) j->depth++;
  j->need_comma[j->depth] = 0;
}

static void close_(dcsim_json *j, char c) {
  int had = j->need_comma[j->depth];
  if (j->depth > 0) j->depth--;
  if (had) indent(j);
  fputc(c, j->f);
}

void dcsim_json_obj_begin(dcsim_json *j) { open(j, '{'); }
void dcsim_json_obj_end(dcsim_json *j) { close_(j, '}'); }
void dcsim_json_arr_begin(dcsim_json *j) { open(j, '['); }
void dcsim_json_arr_end(dcsim_json *j) { close_(j, ']'); }

/* A JSON string (RFC 8259, section 7): " and \ escaped, control characters as \n, \t or \u00XX,
 * and a byte that begins no UTF-8 character (dcsim_utf8_len) as \ufffd, the replacement
 * character, so that every parser (jansson refuses invalid UTF-8) reads the document. */
static void raw_str(dcsim_json *j, const char *s) {
  fputc('"', j->f);
  for (const char *p = s ? s : ""; *p;) {
    unsigned char c = (unsigned char)*p;
    size_t n = dcsim_utf8_len(p);
    if (c == '"' || c == '\\') {
      fputc('\\', j->f);
      fputc(c, j->f);
    } else if (c == '\n')
      fputs("\\n", j->f);
    else if (c == '\t')
      fputs("\\t", j->f);
    else if (c < 0x20)
      fprintf(j->f, "\\u%04x", c);
    else if (n == 0)
      fputs("\\ufffd", j->f);
    else {
      fwrite(p, 1, n, j->f);
      p += n;
      continue;
    }
    p++;
  }
  fputc('"', j->f);
}

void dcsim_json_key(dcsim_json *j, const char *key) {
  sep(j, 1);
  raw_str(j, key);
  fputs(j->pretty ? ": " : ":", j->f);
  j->need_comma[j->depth] = 2;
}

void dcsim_json_num(dcsim_json *j, double v) {
  value_prefix(j);
  if (!isfinite(v)) {
    fputs("null", j->f);
    return;
  }
  if (v == 0) v = 0; /* no "-0" */
  fprintf(j->f, "%.10g", v);
}

void dcsim_json_int(dcsim_json *j, long long v) {
  value_prefix(j);
  fprintf(j->f, "%lld", v);
}

void dcsim_json_str(dcsim_json *j, const char *s) {
  value_prefix(j);
  raw_str(j, s);
}

void dcsim_json_bool(dcsim_json *j, int b) {
  value_prefix(j);
  fputs(b ? "true" : "false", j->f);
}

void dcsim_json_null(dcsim_json *j) {
  value_prefix(j);
  fputs("null", j->f);
}

void dcsim_json_key_num(dcsim_json *j, const char *key, double v) {
  dcsim_json_key(j, key);
  dcsim_json_num(j, v);
}

void dcsim_json_key_int(dcsim_json *j, const char *key, long long v) {
  dcsim_json_key(j, key);
  dcsim_json_int(j, v);
}

void dcsim_json_key_str(dcsim_json *j, const char *key, const char *s) {
  dcsim_json_key(j, key);
  dcsim_json_str(j, s);
}

void dcsim_json_end(dcsim_json *j) { fputc('\n', j->f); }
