/* error.c — recording errors (see dcsim/error.h). */
#include "dcsim/error.h"

#include <stdio.h>
#include <string.h>

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

/* appends s to the string of length *len in buf (size bytes), as much of it as fits */
static void append(char *buf, size_t size, size_t *len, const char *s) {
  size_t n = strlen(s);
  if (n > size - 1 - *len) n = size - 1 - *len;
  memcpy(buf + *len, s, n);
  *len += n;
  buf[*len] = '\0';
}

void dcsim_error_prefix(dcsim_error *err, const char *fmt, ...) {
  if (!err) return;
  char msg[sizeof err->msg], old[sizeof err->msg];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  one_line(msg);
  memcpy(old, err->msg, sizeof old);
  old[sizeof old - 1] = '\0';
  size_t len = strlen(msg);
  append(msg, sizeof msg, &len, ": ");
  append(msg, sizeof msg, &len, old);
  memcpy(err->msg, msg, len + 1);
}

void dcsim_error_suffix(dcsim_error *err, const char *fmt, ...) {
  if (!err) return;
  char text[sizeof err->msg];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  one_line(text);
  size_t t = strlen(text), m = strnlen(err->msg, sizeof err->msg - 1);
  if (m > sizeof err->msg - 1 - t) m = sizeof err->msg - 1 - t;
  err->msg[m] = '\0';
  append(err->msg, sizeof err->msg, &m, text);
}

/* as much as fits, cut on purpose (no snprintf that may cut: -Wformat-truncation=2) */
void dcsim_error_format(const dcsim_error *err, char *buf, unsigned long size) {
  if (!err || !buf || size == 0) return;
  size_t len = 0;
  char ln[16];
  buf[0] = '\0';
  append(buf, size, &len, err->file[0] ? err->file : err->param);
  if (err->file[0] && err->line > 0) {
    snprintf(ln, sizeof ln, ":%d", err->line);
    append(buf, size, &len, ln);
  }
  if (err->file[0] || err->param[0]) append(buf, size, &len, ": ");
  append(buf, size, &len, err->msg);
}
