/* units.c — units and quantities as profilers and benchmark tools write them (see util/units.h). */
#include "util/units.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct {
  const char *name;
  dcsim_unit_kind kind;
  int prefix;
} unit_bases[] = {
  { "byte/second", DCSIM_UNIT_RATE, 1 }, { "byte/s", DCSIM_UNIT_RATE, 1 },
  { "bytes/s", DCSIM_UNIT_RATE, 1 },     { "B/s", DCSIM_UNIT_RATE, 1 },
  { "byte", DCSIM_UNIT_BYTES, 1 },       { "bytes", DCSIM_UNIT_BYTES, 1 },
  { "B", DCSIM_UNIT_BYTES, 1 },          { "second", DCSIM_UNIT_TIME, 1 },
  { "sec", DCSIM_UNIT_TIME, 1 },         { "s", DCSIM_UNIT_TIME, 1 },
  { "Hz", DCSIM_UNIT_FREQ, 1 },          { "inst/cycle", DCSIM_UNIT_RATIO, 0 },
  { "inst", DCSIM_UNIT_COUNT, 1 },       { "warp", DCSIM_UNIT_COUNT, 1 },
  { "cycle", DCSIM_UNIT_COUNT, 1 },      { "thread", DCSIM_UNIT_COUNT, 1 },
  { "sector", DCSIM_UNIT_COUNT, 1 },     { "request", DCSIM_UNIT_COUNT, 1 },
  { "%", DCSIM_UNIT_PERCENT, 0 },
};

int dcsim__parse_unit(const char *u, dcsim_unit_kind *kind, double *scale) {
  while (*u == ' ') u++;
  size_t len = strlen(u);
  while (len && u[len - 1] == ' ') len--;
  if (len == 0) {
    *kind = DCSIM_UNIT_PLAIN;
    *scale = 1;
    return 0;
  }
  for (size_t i = 0; i < sizeof unit_bases / sizeof *unit_bases; i++)
    if (strlen(unit_bases[i].name) == len && strncmp(u, unit_bases[i].name, len) == 0) {
      *kind = unit_bases[i].kind;
      *scale = *kind == DCSIM_UNIT_PERCENT ? 0.01 : 1;
      return 0;
    }
  static const char pfx[] = "numkKMGTP";
  static const double dec[] = { 1e-9, 1e-6, 1e-3, 1e3, 1e3, 1e6, 1e9, 1e12, 1e15 };
  const char *p = strchr(pfx, u[0]);
  if (!p) return -1;
  int k = (int)(p - pfx);
  for (size_t skip = 1; skip <= 2; skip++) {
    if (skip == 2 && !(k >= 3 && len > 2 && u[1] == 'i')) break; /* binary: KiB, MiB */
    double sc = skip == 1 ? dec[k] : pow(1024.0, k == 3 ? 1 : k - 3);
    for (size_t i = 0; i < sizeof unit_bases / sizeof *unit_bases; i++) {
      if (!unit_bases[i].prefix || strlen(unit_bases[i].name) != len - skip ||
          strncmp(u + skip, unit_bases[i].name, len - skip) != 0)
        continue;
      if ((k < 3) != (unit_bases[i].kind == DCSIM_UNIT_TIME))
        return -1; /* n/u/m for time only, no kiloseconds */
      *kind = unit_bases[i].kind;
      *scale = sc;
      return 0;
    }
  }
  return -1;
}

int dcsim__parse_quantity(const char *s, double *value, dcsim_unit_kind *kind) {
  char buf[128];
  size_t n = 0;
  while (*s == ' ' || *s == '\t') s++;
  for (; *s && n + 1 < sizeof buf; s++) /* drop thousands separators (ncu writes "1,234,567") */
    if (*s != ',') buf[n++] = *s;
  if (*s) return -1;
  buf[n] = '\0';
  char *end;
  errno = 0;
  double v = strtod(buf, &end);
  if (end == buf || errno == ERANGE || !isfinite(v)) return -1;
  double scale;
  if (dcsim__parse_unit(end, kind, &scale) != 0) return -1;
  *value = v * scale;
  return isfinite(*value) ? 0 : -1;
}
