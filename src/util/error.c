/* error.c — recording errors (see dcsim/error.h). */
#include "dcsim/error.h"

#include <stdio.h>
#include <string.h>

#include "dcsim/strutil.h"

/* keeps a message on one line */
static void one_line(char *s) {
  for (char *p = s; *p; p++)
    if (*p == '\n' || *p == '\r') *p = ' ';
}

int dcsim_error_vset(dcsim_error *err, const char *src_file, int src_line, int code,
                     const char *in_file, int in_line, const char *fmt, va_list ap) {
  if (!err) return code;
  err->code = code;
  err->src_file = src_file;
  err->src_line = src_line;
  err->line = in_line;
  snprintf(err->file, sizeof err->file, "%s", in_file ? in_file : "");
  err->param[0] = '\0';
  err->index = -1;
  vsnprintf(err->msg, sizeof err->msg, fmt, ap);
  one_line(err->msg);
  return code;
}

int dcsim_error_set(dcsim_error *err, const char *src_file, int src_line, int code,
                    const char *in_file, int in_line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = dcsim_error_vset(err, src_file, src_line, code, in_file, in_line, fmt, ap);
  va_end(ap);
  return rc;
}

int dcsim_error_set_param(dcsim_error *err, const char *src_file, int src_line, int code,
                          const char *param, int index, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int rc = dcsim_error_vset(err, src_file, src_line, code, "", 0, fmt, ap);
  va_end(ap);
  dcsim_error_param(err, param, index);
  return rc;
}

void dcsim_error_param(dcsim_error *err, const char *param, int index) {
  if (!err || err->file[0] || err->param[0] || !param) return;
  snprintf(err->param, sizeof err->param, "%s", param);
  err->index = index;
}

void dcsim_error_at(dcsim_error *err, const char *file, int line) {
  if (!err) return;
  if (file) snprintf(err->file, sizeof err->file, "%s", file);
  err->line = line;
}

void dcsim_error_at_if_unset(dcsim_error *err, const char *file, int line) {
  if (err && !err->file[0]) dcsim_error_at(err, file, line);
}

/* appends the decimal digits of v, as much of them as fits */
static void append_uint(char *buf, size_t size, size_t *len, unsigned v) {
  unsigned div = 1;
  while (v / div >= 10) div *= 10;
  for (; div; div /= 10) {
    if (*len + 1 >= size) return;
    buf[(*len)++] = (char)('0' + v / div % 10);
    buf[*len] = '\0';
  }
}

/* appends s to the string of length *len in buf (size bytes), as much of it as fits */
static void append(char *buf, size_t size, size_t *len, const char *s) {
  size_t n = strlen(s);
  if (n > size - 1 - *len) n = size - 1 - *len;
  memcpy(buf + *len, s, n);
  *len += n;
  buf[*len] = '\0';
}

/* the formatted text on one line, appended to b */
static void add_one_line(dcsim_str *b, const char *fmt, va_list ap) {
  size_t from = b->len;
  dcsim_str_vaddf(b, fmt, ap);
  if (!b->oom) one_line(b->s + from);
}

void dcsim_error_prefix(dcsim_error *err, const char *fmt, ...) {
  if (!err) return;
  dcsim_str msg = DCSIM_STR_INIT;
  va_list ap;
  va_start(ap, fmt);
  add_one_line(&msg, fmt, ap);
  va_end(ap);
  dcsim_str_addf(&msg, ": %.*s", (int)strnlen(err->msg, sizeof err->msg - 1), err->msg);
  if (!msg.oom) dcsim_str_copy_to(&msg, err->msg, sizeof err->msg); /* as much as fits */
  dcsim_str_release(&msg);
}

void dcsim_error_suffix(dcsim_error *err, const char *fmt, ...) {
  if (!err) return;
  dcsim_str text = DCSIM_STR_INIT;
  va_list ap;
  va_start(ap, fmt);
  add_one_line(&text, fmt, ap);
  va_end(ap);
  if (!text.oom) { /* the suffix whole (as much as fits), the message cut to make room */
    size_t t = text.len < sizeof err->msg - 1 ? text.len : sizeof err->msg - 1;
    size_t m = strnlen(err->msg, sizeof err->msg - 1);
    if (m > sizeof err->msg - 1 - t) m = sizeof err->msg - 1 - t;
    memcpy(err->msg + m, text.s, t);
    err->msg[m + t] = '\0';
  }
  dcsim_str_release(&text);
}

/* as much as fits, cut on purpose (no snprintf that may cut: -Wformat-truncation=2) */
void dcsim_error_format(const dcsim_error *err, char *buf, unsigned long size) {
  if (!err || !buf || size == 0) return;
  size_t len = 0;
  buf[0] = '\0';
  append(buf, size, &len, err->file[0] ? err->file : err->param);
  if (err->file[0] && err->line > 0) {
    append(buf, size, &len, ":");
    append_uint(buf, size, &len, (unsigned)err->line);
  }
  if (err->file[0] || err->param[0]) append(buf, size, &len, ": ");
  append(buf, size, &len, err->msg);
}
