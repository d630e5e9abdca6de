/* sweep_axis.c — a finished sweep's points by GPU count, host CPU and threading variant (see
 * dcsim/sweep_axis.h). */
#include "dcsim/sweep_axis.h"

#include <stdio.h>
#include <string.h>

static const char *const axis_names[DCSIM_AXIS_N] = { "gpus", "host-cpu", "threading" };

const char *dcsim_sweep_axis_name(dcsim_sweep_axis ax) {
  return ax < DCSIM_AXIS_N ? axis_names[ax] : "";
}

int dcsim_sweep_axis_parse(const char *s, dcsim_sweep_axis *ax) {
  for (int k = 0; k < DCSIM_AXIS_N; k++)
    if (s && strcmp(s, axis_names[k]) == 0) {
      *ax = (dcsim_sweep_axis)k;
      return 0;
    }
  return -1;
}

void dcsim_sweep_axis_value(const dcsim_sweep_point *p, dcsim_sweep_axis ax,
                            dcsim_sweep_axis_text out) {
  _Static_assert(sizeof p->host_cpu <= sizeof(dcsim_sweep_axis_text), "a host CPU name fits");
  enum { SIZE = sizeof(dcsim_sweep_axis_text) };
  out[0] = '\0';
  if (ax == DCSIM_AXIS_GPUS && p->gpus)
    snprintf(out, SIZE, "%u", p->gpus);
  else if (ax == DCSIM_AXIS_HOST_CPU)
    snprintf(out, SIZE, "%s", p->host_cpu);
  else if (ax == DCSIM_AXIS_THREADING) /* unset: measured (dcsim/sweep_io.h) */
    snprintf(out, SIZE, "%s", p->threading[0] ? p->threading : "measured");
}

/* whether the point's value on the axis (dcsim_sweep_axis_value) is the l bytes at s, compared as
 * text without copying it: a GPU count written in decimal without leading zeros */
static int value_is(const dcsim_sweep_point *p, dcsim_sweep_axis ax, const char *s, size_t l) {
  if (ax == DCSIM_AXIS_GPUS) {
    if (!p->gpus) return l == 0;
    unsigned long long g = 0;
    for (size_t i = 0; i < l; i++) {
      if (s[i] < '0' || s[i] > '9' || (i == 0 && s[i] == '0') || g > 0xFFFFFFFFull) return 0;
      g = g * 10 + (unsigned)(s[i] - '0');
    }
    return l > 0 && g == p->gpus;
  }
  const char *v = ax == DCSIM_AXIS_HOST_CPU    ? p->host_cpu
                  : ax == DCSIM_AXIS_THREADING ? (p->threading[0] ? p->threading : "measured")
                                               : "";
  return strlen(v) == l && strncmp(v, s, l) == 0;
}

/* whether the point has a value on the axis that is one of the comma-separated values of vals */
static int listed(const dcsim_sweep_point *p, dcsim_sweep_axis ax, const char *vals) {
  if (value_is(p, ax, "", 0)) return 0; /* an unset value is never chosen */
  for (const char *s = vals; s; s = strchr(s, ',') ? strchr(s, ',') + 1 : NULL)
    if (value_is(p, ax, s, strcspn(s, ","))) return 1;
  return 0;
}

size_t dcsim_sweep_axis_distinct(const dcsim_sweep_point *pts, size_t n, dcsim_sweep_axis ax,
                                 dcsim_sweep_axis_text *vals, size_t max) {
  size_t k = 0, more = 0;
  for (size_t i = 0; i < n; i++) {
    if (!pts[i].done) continue;
    dcsim_sweep_axis_text v;
    dcsim_sweep_axis_value(&pts[i], ax, v);
    size_t j = 0;
    while (j < k && strcmp(vals[j], v) != 0) j++;
    if (j < k) continue;
    if (k < max)
      memcpy(vals[k++], v, sizeof v);
    else
      more = 1;
  }
  return k + more;
}

size_t dcsim_sweep_axis_values(const dcsim_sweep_point *pts, size_t n, dcsim_sweep_axis ax,
                               dcsim_str *out) {
  enum { MAX = 64 };
  dcsim_sweep_axis_text vals[MAX];
  size_t k = dcsim_sweep_axis_distinct(pts, n, ax, vals, MAX);
  for (size_t i = 0; i < k && i < MAX; i++)
    dcsim_str_addf(out, "%s%s", i ? ", " : "", vals[i][0] ? vals[i] : "(the platform's)");
  if (k > MAX) dcsim_str_add(out, ", ...");
  return k;
}

size_t dcsim_sweep_axis_keep(dcsim_sweep_point *pts, size_t n, dcsim_sweep_axis ax,
                             const char *vals) {
  size_t kept = 0;
  for (size_t i = 0; i < n; i++) {
    if (!pts[i].done) continue;
    pts[i].done = listed(&pts[i], ax, vals);
    kept += pts[i].done != 0;
  }
  return kept;
}
