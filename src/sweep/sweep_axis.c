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

void dcsim_sweep_axis_value(const dcsim_sweep_point *p, dcsim_sweep_axis ax, char *buf,
                            size_t size) {
  if (!size) return;
  buf[0] = '\0';
  if (ax == DCSIM_AXIS_GPUS && p->gpus)
    snprintf(buf, size, "%u", p->gpus);
  else if (ax == DCSIM_AXIS_HOST_CPU)
    snprintf(buf, size, "%s", p->host_cpu);
  else if (ax == DCSIM_AXIS_THREADING) /* unset: measured (dcsim/sweep_io.h) */
    snprintf(buf, size, "%s", p->threading[0] ? p->threading : "measured");
}

/* whether v is one of the comma-separated values of vals */
static int listed(const char *vals, const char *v) {
  size_t l = strlen(v);
  for (const char *p = vals; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
    if (strncmp(p, v, l) == 0 && (p[l] == ',' || p[l] == '\0')) return 1;
  return 0;
}

size_t dcsim_sweep_axis_distinct(const dcsim_sweep_point *pts, size_t n, dcsim_sweep_axis ax,
                                 dcsim_sweep_axis_text *vals, size_t max) {
  size_t k = 0, more = 0;
  for (size_t i = 0; i < n; i++) {
    if (!pts[i].done) continue;
    dcsim_sweep_axis_text v;
    dcsim_sweep_axis_value(&pts[i], ax, v, sizeof v);
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
                               char *buf, size_t size) {
  enum { MAX = 64 };
  dcsim_sweep_axis_text vals[MAX];
  size_t k = dcsim_sweep_axis_distinct(pts, n, ax, vals, MAX), len = 0;
  if (size) buf[0] = '\0';
  for (size_t i = 0; i < k && i < MAX && len < size; i++)
    len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
                            vals[i][0] ? vals[i] : "(the platform's)");
  if (k > MAX && len < size) snprintf(buf + len, size - len, ", ...");
  return k;
}

size_t dcsim_sweep_axis_keep(dcsim_sweep_point *pts, size_t n, dcsim_sweep_axis ax,
                             const char *vals) {
  size_t kept = 0;
  for (size_t i = 0; i < n; i++) {
    if (!pts[i].done) continue;
    char v[64];
    dcsim_sweep_axis_value(&pts[i], ax, v, sizeof v);
    pts[i].done = v[0] && listed(vals, v);
    kept += pts[i].done != 0;
  }
  return kept;
}
