/* sweep_results.c — a finished sweep's results read back, and the points of its front listing
 * (dcsim/sweep_results.h). */
#include "dcsim/sweep_results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "dcsim/strutil.h"
#include "dcsim/sweepdb.h"

/* whether path begins with SQLite's 16-byte header ("SQLite format 3" and its NUL) */
static int is_sqlite(const char *path) {
  static const char magic[] = "SQLite format 3";
  unsigned char h[sizeof magic] = { 0 };
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  size_t k = fread(h, 1, sizeof h, f);
  fclose(f);
  return k == sizeof h && memcmp(h, magic, sizeof h) == 0;
}

/* The first word of s after its blanks, as sscanf's "%64s" reads it: *w at it, its length
 * (at most 64); 0 when there is none. */
static size_t word_at(char *s, char **w) {
  *w = s + strspn(s, " \t\n\v\f\r");
  size_t k = strcspn(*w, " \t\n\v\f\r");
  return k > 64 ? 64 : k;
}

/* The comment lines before a CSV file's header: "# sweep HASH" and "# input SHA256 PATH". */
static int csv_repro(FILE *f, dcsim_repro *rp, dcsim_error *err) {
  char *line = NULL, *w, *name;
  size_t cap = 0, k;
  int rc = 0;
  while (!rc && getline(&line, &cap, f) > 0 && line[0] == '#') {
    line[strcspn(line, "\n")] = '\0';
    if (strncmp(line, "# sweep ", 8) == 0 && (k = word_at(line + 8, &w)) > 0) {
      memcpy(rp->sweep_sha256, w, k); /* k <= 64 (word_at): the 64 hex digits and the NUL fit */
      rp->sweep_sha256[k] = '\0';
    } else if (strncmp(line, "# input ", 8) == 0 && (k = word_at(line + 8, &w)) > 0) {
      name = w + k + strspn(w + k, " \t\v\f\r");
      if (name == w + k || !*name) continue; /* a hash and no path: nothing to add */
      w[k] = '\0';
      rc = dcsim_repro_add_name(rp, name, w, err);
    }
  }
  free(line);
  return rc;
}

/* The "dcsim" object of a JSON file: its sweep_sha256 and inputs. */
static int json_repro(const char *path, dcsim_repro *rp, dcsim_error *err) {
  json_error_t je;
  json_t *root = json_load_file(path, 0, &je), *d = json_object_get(root, "dcsim");
  const char *sw = json_string_value(json_object_get(d, "sweep_sha256"));
  int rc = 0;
  if (sw) snprintf(rp->sweep_sha256, sizeof rp->sweep_sha256, "%s", sw);
  json_t *ins = json_object_get(d, "inputs");
  for (size_t i = 0; !rc && i < json_array_size(ins); i++) {
    json_t *in = json_array_get(ins, i);
    const char *p = json_string_value(json_object_get(in, "path")),
               *h = json_string_value(json_object_get(in, "sha256"));
    if (p && h) rc = dcsim_repro_add_name(rp, p, h, err);
  }
  json_decref(root);
  return rc;
}

/* What made a sweep's JSON or CSV file, kept in rp (so that `dcsim pareto FILE.csv`
 * lists the sweep's inputs, not only the file). A file without it adds nothing. */
static int file_repro(const char *path, dcsim_repro *rp, dcsim_error *err) {
  FILE *f = fopen(path, "r");
  if (!f) return 0; /* the points were read from it: it went away since, nothing to add */
  int c = fgetc(f);
  int json = c == '{' || c == '[';
  int rc = 0;
  if (!json && c != EOF && ungetc(c, f) != EOF) rc = csv_repro(f, rp, err);
  fclose(f);
  return rc || !json ? rc : json_repro(path, rp, err);
}

int dcsim_sweep_results_read(const char *path, int64_t sweep_id, dcsim_sweep_point **pts, size_t *n,
                             size_t *total, dcsim_repro *rp, dcsim_error *err) {
  int rc;
  if (is_sqlite(path)) return dcsim_sweepdb_read(path, sweep_id, pts, n, total, rp, err);
  if ((rc = dcsim_sweep_points_read(path, pts, n, err)) ||
      (rc = dcsim_repro_add(rp, path, NULL, err)))
    return rc;
  *total = *n;
  return file_repro(path, rp, err);
}

/* whether v is one of the comma-separated names of vals (or vals is NULL) */
static int named(const char *vals, const char *v) {
  if (!vals) return 1;
  size_t l = strlen(v);
  for (const char *p = vals; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
    if (strncmp(p, v, l) == 0 && (p[l] == ',' || p[l] == '\0')) return 1;
  return 0;
}

size_t dcsim_sweep_keep_named(dcsim_sweep_point *pts, size_t n, const char *cpus, const char *gpus,
                              const char *freqs) {
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    pts[i].done = pts[i].done && named(cpus, pts[i].cpu) && named(gpus, pts[i].gpu) &&
                  named(freqs, pts[i].freq);
    m += pts[i].done != 0;
  }
  return m;
}

/* by increasing time, then energy, then index: one order on every machine */
static int cmp_time(const void *a, const void *b) {
  const dcsim_sweep_point *x = a, *y = b;
  if (x->time_s != y->time_s) return x->time_s < y->time_s ? -1 : 1;
  if (x->energy_j != y->energy_j) return x->energy_j < y->energy_j ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

static void swap_points(dcsim_sweep_point *a, dcsim_sweep_point *b) {
  dcsim_sweep_point t = *a;
  *a = *b;
  *b = t;
}

void dcsim_sweep_front_listing(dcsim_sweep_point *pts, size_t n, int by_time, size_t *kept,
                               size_t *listed, size_t *near) {
  size_t k = 0, m = 0, nr = 0;
  for (size_t i = 0; i < n; i++) /* the points the filters dropped are neither read nor listed */
    if (pts[i].done) swap_points(&pts[k++], &pts[i]);
  for (size_t i = 0; i < k; i++) /* the front, and the points indistinguishable from it */
    if (pts[i].pareto || pts[i].near_front) {
      nr += !pts[i].pareto;
      swap_points(&pts[m++], &pts[i]);
    }
  if (by_time) qsort(pts, m, sizeof *pts, cmp_time);
  *kept = k;
  *listed = m;
  *near = nr;
}
