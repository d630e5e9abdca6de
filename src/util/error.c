/* error.c — recording errors (see dcsim/error.h). */
#include "dcsim/error.h"

#include <stdio.h>
#include <string.h>

int dcsim_error_vset(dcsim_error *err, const char *src_file, int src_line, int code,
                     const char *in_file, int in_line, const char *fmt, va_list ap) {
  if (!err) return code;
  err->code = code;
  err->src_file = src_file;
  err->src_line = src_line;
  err->line = in_line;
  snprintf(err->file, sizeof err->file, "%s", in_file ? in_file : "");
  vsnprintf(err->msg, sizeof err->msg, fmt, ap);
  /* keep the message on one line */
  for (char *p = err->msg; *p; p++)
    if (*p == '\n' || *p == '\r') *p = ' ';
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

void dcsim_error_format(const dcsim_error *err, char *buf, unsigned long size) {
  if (!err || !buf || size == 0) return;
  if (err->file[0] && err->line > 0)
    snprintf(buf, size, "%s:%d: %s", err->file, err->line, err->msg);
  else if (err->file[0])
    snprintf(buf, size, "%s: %s", err->file, err->msg);
  else
    snprintf(buf, size, "%s", err->msg);
}
