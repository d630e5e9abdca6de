/* swf.c — reading Standard Workload Format traces, plain or gzip-compressed (see dcsim/swf.h). */
#include "dcsim/swf.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "dcsim/strutil.h"

void dcsim_swf_free(dcsim_swf *t) {
  if (!t) return;
  for (size_t i = 0; i < t->n_header; i++) {
    free(t->header[i].key);
    free(t->header[i].value);
  }
  free(t->header);
  free(t->jobs);
  free(t->path);
  free(t);
}

const char *dcsim_swf_header(const dcsim_swf *t, const char *key) {
  for (size_t i = 0; i < t->n_header; i++)
    if (strcmp(t->header[i].key, key) == 0) return t->header[i].value;
  return NULL;
}

/* "; Key: value" -> a header entry (other comments are ignored). */
static int header_line(dcsim_swf *t, char *text, int line, dcsim_error *err) {
  char *colon = strchr(text, ':');
  if (!colon) return 0;
  *colon = '\0';
  char *key = dcsim_trim(text), *value = dcsim_trim(colon + 1);
  if (!*key || strchr(key, ' ')) return 0; /* prose, not a "Key: value" comment */
  if (DCSIM_GROW_N(t->header, t->n_header))
    return DCSIM_ERR(err, DCSIM_ENOMEM, t->path, line, "out of memory");
  dcsim_swf_header_line *h = &t->header[t->n_header];
  if (!(h->key = dcsim_strdup(key)) || !(h->value = dcsim_strdup(value))) {
    free(h->key);
    return DCSIM_ERR(err, DCSIM_ENOMEM, t->path, line, "out of memory");
  }
  t->n_header++;
  return 0;
}

/* An integral header value, or -1 when absent. */
static int header_int(dcsim_swf *t, const char *key, long long *out, dcsim_error *err) {
  const char *v = dcsim_swf_header(t, key);
  *out = -1;
  if (!v) return 0;
  char *end = NULL;
  errno = 0;
  long long x = strtoll(v, &end, 10);
  while (end && isspace((unsigned char)*end)) end++;
  if (errno || end == v || *end || x < 0)
    return DCSIM_ERR(err, DCSIM_EPARSE, t->path, 0,
                     "header '; %s: %s': expected a non-negative whole number", key, v);
  *out = x;
  return 0;
}

/* strtod, with a fast path for the whole numbers that make up almost every SWF field. */
static double parse_number(char *p, char **end) {
  char *q = p;
  int neg = *q == '-';
  if (neg || *q == '+') q++;
  if (*q >= '0' && *q <= '9') {
    long long v = 0;
    int digits = 0;
    while (*q >= '0' && *q <= '9' && digits < 15) {
      v = v * 10 + (*q - '0');
      q++;
      digits++;
    }
    if (!(*q >= '0' && *q <= '9') && *q != '.' && *q != 'e' && *q != 'E' && *q != 'x' &&
        *q != 'X') {
      *end = q;
      return neg ? -(double)v : (double)v;
    }
  }
  return strtod(p, end);
}

static const char *const field_names[18] = { "job number",
                                             "submit time",
                                             "wait time",
                                             "run time",
                                             "allocated processors",
                                             "average CPU time",
                                             "used memory",
                                             "requested processors",
                                             "requested time",
                                             "requested memory",
                                             "status",
                                             "user",
                                             "group",
                                             "executable",
                                             "queue",
                                             "partition",
                                             "preceding job",
                                             "think time" };

static int job_line(dcsim_swf *t, char *text, int line, size_t *cap, dcsim_error *err) {
  double v[18];
  int n = 0;
  char *p = text;
  for (;;) {
    while (isspace((unsigned char)*p)) p++;
    if (!*p) break;
    if (n == 18)
      return DCSIM_ERR(err, DCSIM_EPARSE, t->path, line,
                       "more than 18 fields (SWF has 18 per job)");
    char *end = NULL;
    double x = parse_number(p, &end);
    if (end == p || (*end && !isspace((unsigned char)*end)))
      return DCSIM_ERR(err, DCSIM_EPARSE, t->path, line, "field %d (%s): '%.*s' is not a number",
                       n + 1, field_names[n], (int)strcspn(p, " \t\r\n"), p);
    if (!isfinite(x) || x < -1)
      return DCSIM_ERR(err, DCSIM_ERANGE, t->path, line,
                       "field %d (%s): %g is out of range (-1 = unknown, else >= 0)", n + 1,
                       field_names[n], x);
    int integral = n == 0 || n == 4 || n == 7 || (n >= 10 && n <= 16);
    if (integral && (x != floor(x) || x > 9e15))
      return DCSIM_ERR(err, DCSIM_EPARSE, t->path, line, "field %d (%s): %g is not a whole number",
                       n + 1, field_names[n], x);
    v[n++] = x;
    p = end;
  }
  if (n == 0) return 0;
  if (n != 18)
    return DCSIM_ERR(err, DCSIM_EPARSE, t->path, line, "%d fields, SWF has 18 per job", n);
  if (t->n_jobs == *cap && *cap >= DCSIM_SWF_MAX_JOBS)
    return DCSIM_ERR(err, DCSIM_ERANGE, t->path, line, "more than %u jobs", DCSIM_SWF_MAX_JOBS);
  if (DCSIM_GROW(t->jobs, *cap, t->n_jobs + 1))
    return DCSIM_ERR(err, DCSIM_ENOMEM, t->path, line, "out of memory");
  t->jobs[t->n_jobs++] = (dcsim_swf_job){ (long long)v[0],
                                          v[1],
                                          v[2],
                                          v[3],
                                          (long long)v[4],
                                          v[5],
                                          v[6],
                                          (long long)v[7],
                                          v[8],
                                          v[9],
                                          (int)v[10],
                                          (long long)v[11],
                                          (long long)v[12],
                                          (long long)v[13],
                                          (long long)v[14],
                                          (long long)v[15],
                                          (long long)v[16],
                                          v[17],
                                          line };
  return 0;
}

int dcsim_swf_load(const char *path, dcsim_swf **out, dcsim_error *err) {
  int rc = 0;
  char *buf = NULL;
  size_t cap = 0, bufcap = 4096;
  *out = NULL;
  dcsim_swf *t = calloc(1, sizeof *t);
  gzFile f = NULL;
  if (!t || !(t->path = dcsim_strdup(path)) || !(buf = malloc(bufcap))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  if (!(f = gzopen(path, "rb"))) {
    rc = DCSIM_ERR(err, DCSIM_EIO, path, 0, "cannot open: %s", strerror(errno));
    goto out;
  }
  gzbuffer(f, 1 << 17);
  int line = 0;
  for (;;) {
    /* one whole line, however long */
    size_t len = 0;
    int got = 0;
    while (gzgets(f, buf + len, (int)(bufcap - len))) {
      got = 1;
      len += strlen(buf + len);
      if (len && buf[len - 1] == '\n') break;
      if (len + 1 < bufcap) break; /* end of file without a newline */
      if (bufcap > SIZE_MAX / 2 || DCSIM_RESIZE(buf, bufcap * 2)) {
        rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, line + 1, "out of memory");
        goto out;
      }
      bufcap *= 2;
    }
    int zerr = 0;
    const char *zmsg = gzerror(f, &zerr);
    if (zerr != Z_OK && zerr != Z_STREAM_END) {
      rc = DCSIM_ERR(err, DCSIM_EIO, path, line + 1, "cannot read: %s",
                     zerr == Z_ERRNO ? strerror(errno) : zmsg);
      goto out;
    }
    if (!got) break;
    line++;
    if (memchr(buf, '\0', len) || strlen(buf) != len) {
      rc = DCSIM_ERR(err, DCSIM_EPARSE, path, line, "binary data: not an SWF text file");
      goto out;
    }
    char *p = buf;
    while (isspace((unsigned char)*p)) p++;
    if (*p == ';')
      rc = header_line(t, p + 1, line, err);
    else
      rc = job_line(t, p, line, &cap, err);
    if (rc) goto out;
  }
  if ((rc = header_int(t, "MaxNodes", &t->max_nodes, err)) ||
      (rc = header_int(t, "MaxProcs", &t->max_procs, err)) ||
      (rc = header_int(t, "MaxJobs", &t->max_jobs, err)) ||
      (rc = header_int(t, "MaxRecords", &t->max_records, err)) ||
      (rc = header_int(t, "UnixStartTime", &t->unix_start_time, err)))
    goto out;
  t->computer = dcsim_swf_header(t, "Computer");
  *out = t;
  t = NULL;
out:
  if (f) gzclose(f);
  free(buf);
  dcsim_swf_free(t);
  return rc;
}
