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

#include "dcsim/budget.h"
#include "dcsim/strutil.h"
#include "util/fileio.h"

/* What a trace may hold besides its jobs (doc/robustness.md): the Parallel Workloads Archive's
 * headers have tens of lines, its job lines about 100 bytes. */
#define SWF_MAX_LINE_BYTES 65536u /* any line */
#define SWF_MAX_JOB_BYTES                                          \
  1024u /* a job line: 18 numbers, at most 24 characters each with \
         * their blanks, are 432 bytes (archive lines: ~100) */
#define SWF_MAX_TEXT_BYTES    (16ull << 30) /* decompressed text, without a memory budget */
#define SWF_MAX_HEADERS       4096u         /* stored "; Key: value" lines */
#define SWF_MAX_HEADER_BYTES  1048576u      /* their keys and values */
#define SWF_MAX_OTHER_LINES   1000000u      /* comment and blank lines */
#define SWF_MAX_COMMENT_BYTES 4194304u      /* of comment lines (headers and prose) */
#define SWF_READ_BYTES        1048576u      /* read at once */

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

/* "; Key: value" -> a header entry (other comments are ignored); at most SWF_MAX_HEADERS of them,
 * SWF_MAX_HEADER_BYTES in all. */
static int header_line(dcsim_swf *t, char *text, int line, size_t *bytes, dcsim_error *err) {
  char *colon = strchr(text, ':');
  if (!colon) return 0;
  *colon = '\0';
  char *key = dcsim_trim(text), *value = dcsim_trim(colon + 1);
  if (!*key || strchr(key, ' ')) return 0; /* prose, not a "Key: value" comment */
  *bytes += strlen(key) + strlen(value) + 2;
  if (t->n_header == SWF_MAX_HEADERS || *bytes > SWF_MAX_HEADER_BYTES)
    return DCSIM_ERR(err, DCSIM_ERANGE, t->path, line,
                     "more than %u '; Key: value' header lines or %u bytes of them: not an SWF "
                     "header",
                     SWF_MAX_HEADERS, SWF_MAX_HEADER_BYTES);
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

static int job_line(dcsim_swf *t, char *text, int line, size_t cap, dcsim_error *err) {
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
    if (n == 10 && x > DCSIM_SWF_CANCELLED) /* stored as an int: checked before the cast */
      return DCSIM_ERR(err, DCSIM_ERANGE, t->path, line,
                       "field 11 (status): %g is not an SWF status (-1 unknown, 0 to 5)", x);
    v[n++] = x;
    p = end;
  }
  if (n == 0) return 0;
  if (n != 18)
    return DCSIM_ERR(err, DCSIM_EPARSE, t->path, line, "%d fields, SWF has 18 per job", n);
  if (t->n_jobs == cap) /* the first pass counted the job lines: the file changed since */
    return DCSIM_ERR(err, DCSIM_EIO, t->path, line, "the file changed while it was read");
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

/* ---- reading lines: 64-bit counts, no line longer than SWF_MAX_LINE_BYTES ---- */

typedef struct reader {
  gzFile f;
  const char *path;
  char *buf;
  size_t len, pos; /* bytes in buf; start of the next line */
  int eof;
  uint64_t line, other;   /* lines read; comment and blank lines among them */
  uint64_t comment_bytes; /* of the comment lines */
  uint64_t text_bytes;    /* decompressed bytes of the lines read, newlines included */
} reader;

/* The next line (NUL-terminated in place, without its newline) in *text, its length in *n; 0 at
 * the end of the file (*text NULL), else an error naming the line. */
static int next_line(reader *r, char **text, size_t *n, dcsim_error *err) {
  *text = NULL;
  for (;;) {
    char *nl = memchr(r->buf + r->pos, '\n', r->len - r->pos);
    size_t have = nl ? (size_t)(nl - (r->buf + r->pos)) : r->len - r->pos;
    if (have > SWF_MAX_LINE_BYTES)
      return DCSIM_ERR(err, DCSIM_EPARSE, r->path, (int)(r->line + 1),
                       "a line longer than %u bytes: not an SWF trace", SWF_MAX_LINE_BYTES);
    if (nl || (r->eof && have)) {
      *text = r->buf + r->pos;
      (*text)[have] = '\0';
      *n = have;
      r->pos += have + (nl != NULL);
      r->text_bytes += have + (nl != NULL);
      if (++r->line > INT32_MAX - 1)
        return DCSIM_ERR(err, DCSIM_ERANGE, r->path, 0, "more than %d lines", INT32_MAX - 1);
      return 0;
    }
    if (r->eof) return 0;
    memmove(r->buf, r->buf + r->pos, have); /* keep the partial line, read more after it */
    r->len = have;
    r->pos = 0;
    int got = gzread(r->f, r->buf + r->len, SWF_READ_BYTES); /* room: see reader_open */
    if (got < 0) {
      int zerr = 0;
      const char *zmsg = gzerror(r->f, &zerr);
      return DCSIM_ERR(err, DCSIM_EIO, r->path, (int)(r->line + 1), "cannot read: %s",
                       zerr == Z_ERRNO ? strerror(errno) : zmsg);
    }
    r->len += (size_t)got;
    r->eof = got == 0;
  }
}

static int reader_open(reader *r, const char *path, dcsim_error *err) {
  memset(r, 0, sizeof *r);
  r->path = path;
  int rc = dcsim__file_check_input(path, err);
  if (rc) return rc;
  /* a partial line (at most SWF_MAX_LINE_BYTES) + one read + its NUL */
  if (!(r->buf = malloc(SWF_MAX_LINE_BYTES + SWF_READ_BYTES + 2)))
    return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  if (!(r->f = gzopen(path, "rb")))
    return DCSIM_ERR(err, DCSIM_EIO, path, 0, "cannot open: %s", strerror(errno));
  gzbuffer(r->f, 1 << 17);
  return 0;
}

static void reader_close(reader *r) {
  if (r->f) gzclose(r->f);
  free(r->buf);
  r->f = NULL;
  r->buf = NULL;
}

/* A job line, a comment (';' first) or a blank line; NUL bytes are refused. */
static int classify(reader *r, char *text, size_t n, char **body, dcsim_error *err) {
  if (strlen(text) != n)
    return DCSIM_ERR(err, DCSIM_EPARSE, r->path, (int)r->line, "binary data: not an SWF text file");
  char *p = text;
  while (isspace((unsigned char)*p)) p++;
  *body = p;
  if (*p && *p != ';' && n > SWF_MAX_JOB_BYTES)
    return DCSIM_ERR(err, DCSIM_EPARSE, r->path, (int)r->line,
                     "a job line of %zu bytes, longer than %u: not an SWF job (18 numbers)", n,
                     SWF_MAX_JOB_BYTES);
  if (*p && *p != ';') return 1;
  if (++r->other > SWF_MAX_OTHER_LINES)
    return DCSIM_ERR(err, DCSIM_ERANGE, r->path, (int)r->line,
                     "more than %u comment or blank lines: not an SWF trace", SWF_MAX_OTHER_LINES);
  if ((r->comment_bytes += n) > SWF_MAX_COMMENT_BYTES)
    return DCSIM_ERR(err, DCSIM_ERANGE, r->path, (int)r->line,
                     "more than %u bytes of comment lines: not an SWF header",
                     SWF_MAX_COMMENT_BYTES);
  return 0;
}

/* The decompressed text read so far: at most the memory budget (charged as if it were kept: the
 * time to read a trace grows with it, and a gzip of padded members inflates a thousandfold),
 * and SWF_MAX_TEXT_BYTES without one. */
static int charge_text(const reader *r, const dcsim_budget *b, dcsim_error *err) {
  if (b && b->max_bytes)
    return r->text_bytes > b->max_bytes
               ? dcsim_budget_bytes(b, r->text_bytes, "its decompressed text so far would", r->path,
                                    (int)r->line, err)
               : 0;
  if (r->text_bytes <= SWF_MAX_TEXT_BYTES) return 0;
  return DCSIM_ERR(err, DCSIM_ERANGE, r->path, (int)r->line,
                   "more than %llu GiB of decompressed text: not an SWF trace",
                   SWF_MAX_TEXT_BYTES >> 30);
}

/* The first pass: the job lines counted, and checked against the fixed cap and the budget,
 * before any job is stored; the decompressed text charged (charge_text). */
static int count_jobs(const char *path, const dcsim_budget *b, size_t *jobs, dcsim_error *err) {
  reader r;
  uint64_t n = 0, per_job = sizeof(dcsim_swf_job) + (b ? b->job_bytes : 0);
  int rc = reader_open(&r, path, err);
  char *text, *body;
  size_t len;
  while (!rc && !(rc = next_line(&r, &text, &len, err)) && text) {
    int k = classify(&r, text, len, &body, err);
    if (k < 0) {
      rc = k;
      break;
    }
    if ((rc = charge_text(&r, b, err))) break;
    if (!k) continue;
    if (++n > DCSIM_SWF_MAX_JOBS) {
      rc = DCSIM_ERR(err, DCSIM_ERANGE, path, (int)r.line, "more than %u jobs", DCSIM_SWF_MAX_JOBS);
      break;
    }
    if ((rc = dcsim_budget_work(b, n, "the trace has at least", "jobs", path, (int)r.line, err)))
      break;
    if (b && b->max_bytes && n * per_job > b->max_bytes) { /* refused at once, not at the end */
      char *prefix = dcsim_strdup_printf("its %llu jobs so far would", (unsigned long long)n);
      rc = prefix ? dcsim_budget_bytes(b, n * per_job, prefix, path, (int)r.line, err)
                  : DCSIM_ERR(err, DCSIM_ENOMEM, path, (int)r.line, "out of memory");
      free(prefix);
      break;
    }
  }
  reader_close(&r);
  if (rc) return rc;
  *jobs = (size_t)n;
  return 0;
}

int dcsim_swf_load(const char *path, dcsim_swf **out, dcsim_error *err) {
  return dcsim_swf_load_budget(path, NULL, out, err);
}

int dcsim_swf_load_budget(const char *path, const dcsim_budget *budget, dcsim_swf **out,
                          dcsim_error *err) {
  size_t cap = 0, header_bytes = 0;
  reader r = { 0 };
  *out = NULL;
  dcsim_swf *t = calloc(1, sizeof *t);
  int rc = 0;
  if (!t || !(t->path = dcsim_strdup(path))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  if ((rc = count_jobs(path, budget, &cap, err))) goto out;
  if (cap && !(t->jobs = malloc(cap * sizeof *t->jobs))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  if ((rc = reader_open(&r, path, err))) goto out;
  char *text, *body;
  size_t len;
  while (!(rc = next_line(&r, &text, &len, err)) && text) {
    int k = classify(&r, text, len, &body, err);
    if (k < 0) {
      rc = k;
      break;
    }
    if (!k && *body == ';')
      rc = header_line(t, body + 1, (int)r.line, &header_bytes, err);
    else if (k)
      rc = job_line(t, body, (int)r.line, cap, err);
    if (rc) break;
  }
  if (rc) goto out;
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
  reader_close(&r);
  dcsim_swf_free(t);
  return rc;
}
