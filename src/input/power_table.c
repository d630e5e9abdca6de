/* power_table.c — the RAPL power table of a calibration directory read and checked (see
 * input/internal.h, doc/calibration.md "Power model"). The one reader of the table:
 * calib/import/import_cpu.c copies its cells into a profile's <energy>, calib/fit/fit_power.c fits
 * the power model on its numbers, tools/derive/check_power.c (validate's `power` checker) refits
 * the model without a row. */
#include <stdlib.h>
#include <string.h>

#include "dcsim/hwprofile.h"
#include "dcsim/strutil.h"
#include "input/internal.h"
#include "util/units.h"

int dcsim__csv_threads(const dcsim_csv_t *t, size_t row, size_t col, const char *path,
                       unsigned *out, dcsim_error *err) {
  const char *s = dcsim__csv_cell(t, row, col);
  if (dcsim_parse_uint(s, 1, 1000000, out) != 0)
    return DCSIM_ERR(err, DCSIM_ERANGE, path, dcsim__csv_line(t, row),
                     "threads '%s': expected a whole number >= 1", s);
  return 0;
}

static int cmp_state(const void *a, const void *b) {
  const dcsim__power_state *x = a, *y = b;
  if (x->idle != y->idle) return x->idle ? -1 : 1;
  return x->cores < y->cores ? -1 : x->cores > y->cores;
}

/* The columns of the table; cs (source) is optional: (size_t)-1. */
typedef struct power_cols {
  size_t cf, ct, cd, cv, cu, cs;
  const char *freq_from; /* who names the one frequency, for the message */
} power_cols;

/* CSV row r into the PKG or DRAM value of its state (a power cell, all packages or all
 * DRAM of the node, is at most DCSIM_POWER_MAX_W, the bound of every power figure of a profile). */
static int power_row(dcsim__power_table *T, const power_cols *c, size_t r,
                     dcsim__power_cores_check check, const void *ctx, dcsim_error *err) {
  dcsim_csv_t *t = T->csv;
  const char *path = T->path;
  int line = dcsim__csv_line(t, r), rc;
  if (!T->freq) T->freq = dcsim__csv_cell(t, r, c->cf);
  if (strcmp(dcsim__csv_cell(t, r, c->cf), T->freq) != 0)
    return DCSIM_ERR(err, DCSIM_ERANGE, path, line,
                     "frequency '%s': the power table is measured at one frequency, %s says %s",
                     dcsim__csv_cell(t, r, c->cf), c->freq_from, T->freq);
  if (strcmp(dcsim__csv_cell(t, r, c->cu), "W") != 0)
    return DCSIM_ERR(err, DCSIM_ERANGE, path, line, "unit '%s': expected W",
                     dcsim__csv_cell(t, r, c->cu));
  double v;
  if ((rc = dcsim__csv_num(t, r, c->cv, &v, err))) return rc;
  if (!(v >= 0 && v <= DCSIM_POWER_MAX_W))
    return DCSIM_ERR(err, DCSIM_ERANGE, path, line,
                     "power %s W: must be 0 to %g W (10^3 x the 1 kW of a two-socket node's "
                     "packages at the highest TDP, 500 W; a wrong unit or column?)",
                     dcsim__csv_cell(t, r, c->cv), DCSIM_POWER_MAX_W);
  dcsim__power_state key = { 0 };
  key.idle = strcmp(dcsim__csv_cell(t, r, c->ct), "idle") == 0;
  if (!key.idle && ((rc = dcsim__csv_threads(t, r, c->ct, path, &key.cores, err)) ||
                    (check && (rc = check(ctx, path, line, key.cores, err)))))
    return rc;
  const char *dom = dcsim__csv_cell(t, r, c->cd);
  int is_pkg = strcmp(dom, "PKG") == 0;
  if (!is_pkg && strcmp(dom, "DRAM") != 0)
    return DCSIM_ERR(err, DCSIM_ERANGE, path, line, "domain '%s': expected PKG or DRAM", dom);
  const char *src = c->cs != (size_t)-1 ? dcsim__csv_cell(t, r, c->cs) : "";
  dcsim__power_state *st = T->states;
  size_t k = 0;
  while (k < T->n_states && !(st[k].idle == key.idle && st[k].cores == key.cores)) k++;
  if (k == T->n_states) {
    st[k] = key;
    st[k].source = src;
    st[k].line = line;
    T->n_states++;
  }
  dcsim__power_state *s = &st[k];
  const char **slot = is_pkg ? &s->pkg : &s->dram;
  if (*slot) return DCSIM_ERR(err, DCSIM_EPARSE, path, line, "second %s value for this state", dom);
  if (strcmp(s->source, src) != 0)
    return DCSIM_ERR(err, DCSIM_EPARSE, path, line,
                     "source differs from the other domain of this state");
  *slot = dcsim__csv_cell(t, r, c->cv);
  *(is_pkg ? &s->pkg_w : &s->dram_w) = v;
  return 0;
}

/* The states sorted (idle first) and complete, then the loaded states as arrays for the fits. */
static int power_states(dcsim__power_table *T, dcsim_error *err) {
  qsort(T->states, T->n_states, sizeof *T->states, cmp_state);
  if (T->n_states < 2 || !T->states[0].idle)
    return DCSIM_ERR(err, DCSIM_EPARSE, T->path, 0, "need an idle row and at least one core count");
  for (size_t k = 0; k < T->n_states; k++)
    if (!T->states[k].pkg || !T->states[k].dram)
      return DCSIM_ERR(err, DCSIM_EPARSE, T->path, T->states[k].line,
                       "state needs both a PKG and a DRAM value");
  T->pkg_idle_w = T->states[0].pkg_w;
  T->dram_idle_w = T->states[0].dram_w;
  T->n = T->n_states - 1;
  T->cores = malloc(T->n * sizeof *T->cores);
  T->pkg_w = malloc(T->n * sizeof *T->pkg_w);
  T->dram_w = malloc(T->n * sizeof *T->dram_w);
  if (!T->cores || !T->pkg_w || !T->dram_w)
    return DCSIM_ERR(err, DCSIM_ENOMEM, T->path, 0, "out of memory");
  for (size_t k = 0; k < T->n; k++) {
    T->cores[k] = T->states[k + 1].cores;
    T->pkg_w[k] = T->states[k + 1].pkg_w;
    T->dram_w[k] = T->states[k + 1].dram_w;
  }
  return 0;
}

int dcsim__power_table_load(const char *path, const char *freq, dcsim__power_cores_check check,
                            const void *ctx, dcsim__power_table *T, dcsim_error *err) {
  memset(T, 0, sizeof *T);
  T->freq = freq;
  if (!(T->path = strdup(path))) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  power_cols c = { .freq_from = freq ? "machine.xml" : "its first row" };
  int rc = dcsim__csv_load(path, &T->csv, err);
  if (rc) return rc;
  dcsim_csv_t *t = T->csv;
  if (dcsim__csv_col(t, "source", &c.cs, NULL) != 0) c.cs = (size_t)-1;
  if ((rc = dcsim__csv_col(t, "frequency", &c.cf, err)) ||
      (rc = dcsim__csv_col(t, "threads", &c.ct, err)) ||
      (rc = dcsim__csv_col(t, "domain", &c.cd, err)) ||
      (rc = dcsim__csv_col(t, "value", &c.cv, err)) || (rc = dcsim__csv_col(t, "unit", &c.cu, err)))
    return rc;
  size_t n = dcsim__csv_rows(t);
  if (!(T->states = calloc(n ? n : 1, sizeof *T->states)))
    return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  for (size_t r = 0; r < n; r++)
    if ((rc = power_row(T, &c, r, check, ctx, err))) return rc;
  return power_states(T, err);
}

void dcsim__power_table_free(dcsim__power_table *T) {
  if (!T) return;
  free(T->path);
  free(T->states);
  free(T->cores);
  free(T->pkg_w);
  free(T->dram_w);
  dcsim__csv_free(T->csv);
  memset(T, 0, sizeof *T);
}

int dcsim__power_table_bandwidths(const dcsim__power_table *T, const char *path, double *bw_bps,
                                  dcsim_error *err) {
  dcsim_csv_t *t = NULL;
  size_t cf, ct, cv, cu;
  for (size_t i = 0; i < T->n; i++) bw_bps[i] = 0;
  int rc = dcsim__csv_load(path, &t, err);
  if (rc || (rc = dcsim__csv_col(t, "frequency", &cf, err)) ||
      (rc = dcsim__csv_col(t, "threads", &ct, err)) ||
      (rc = dcsim__csv_col(t, "value", &cv, err)) || (rc = dcsim__csv_col(t, "unit", &cu, err)))
    goto out;
  for (size_t r = 0; r < dcsim__csv_rows(t); r++) {
    if (strcmp(dcsim__csv_cell(t, r, cf), T->freq) != 0) continue;
    double th, v, scale;
    dcsim_unit_kind kind;
    if ((rc = dcsim__csv_num(t, r, ct, &th, err)) || (rc = dcsim__csv_num(t, r, cv, &v, err)))
      goto out;
    if (dcsim__parse_unit(dcsim__csv_cell(t, r, cu), &kind, &scale) || kind != DCSIM_UNIT_RATE) {
      rc = DCSIM_ERR(err, DCSIM_EPARSE, path, dcsim__csv_line(t, r), "unit '%s': expected GB/s",
                     dcsim__csv_cell(t, r, cu));
      goto out;
    }
    for (size_t i = 0; i < T->n; i++)
      if ((double)T->cores[i] == th) bw_bps[i] = v * scale;
  }
out:
  dcsim__csv_free(t);
  return rc;
}
