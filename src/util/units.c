/* units.c — units and quantities as profilers and benchmark tools write them (see util/units.h). */
#include "util/units.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define YEAR_S (365.25 * 86400) /* a Julian year, as dcsim/cost.h amortises over */

static const struct {
  const char *name;
  dcsim_unit_kind kind;
  int prefix;   /* takes a k, M, G... prefix (n, u, m for time) */
  double scale; /* of the base unit of its kind */
} unit_bases[] = {
  { "byte/second", DCSIM_UNIT_RATE, 1, 1 },  { "byte/s", DCSIM_UNIT_RATE, 1, 1 },
  { "bytes/s", DCSIM_UNIT_RATE, 1, 1 },      { "B/s", DCSIM_UNIT_RATE, 1, 1 },
  { "bit/s", DCSIM_UNIT_RATE, 1, 0.125 }, /* network rates: 100Gb/s = 12.5 GB/s */
  { "b/s", DCSIM_UNIT_RATE, 1, 0.125 },      { "byte", DCSIM_UNIT_BYTES, 1, 1 },
  { "bytes", DCSIM_UNIT_BYTES, 1, 1 },       { "B", DCSIM_UNIT_BYTES, 1, 1 },
  { "second", DCSIM_UNIT_TIME, 1, 1 },       { "seconds", DCSIM_UNIT_TIME, 1, 1 },
  { "sec", DCSIM_UNIT_TIME, 1, 1 },          { "s", DCSIM_UNIT_TIME, 1, 1 },
  { "m", DCSIM_UNIT_TIME, 0, 60 }, /* minutes as people write durations: 2m, 90min, 48h, 5y */
  { "min", DCSIM_UNIT_TIME, 0, 60 },         { "h", DCSIM_UNIT_TIME, 0, 3600 },
  { "hour", DCSIM_UNIT_TIME, 0, 3600 },      { "hours", DCSIM_UNIT_TIME, 0, 3600 },
  { "d", DCSIM_UNIT_TIME, 0, 86400 },        { "day", DCSIM_UNIT_TIME, 0, 86400 },
  { "days", DCSIM_UNIT_TIME, 0, 86400 },     { "y", DCSIM_UNIT_TIME, 0, YEAR_S },
  { "yr", DCSIM_UNIT_TIME, 0, YEAR_S },      { "year", DCSIM_UNIT_TIME, 0, YEAR_S },
  { "years", DCSIM_UNIT_TIME, 0, YEAR_S },   { "J", DCSIM_UNIT_ENERGY, 1, 1 },
  { "Wh", DCSIM_UNIT_ENERGY, 1, 3600 },      { "USD/kWh", DCSIM_UNIT_TARIFF, 0, 1 },
  { "USD/MWh", DCSIM_UNIT_TARIFF, 0, 1e-3 }, { "$/kWh", DCSIM_UNIT_TARIFF, 0, 1 },
  { "$/MWh", DCSIM_UNIT_TARIFF, 0, 1e-3 },   { "Hz", DCSIM_UNIT_FREQ, 1, 1 },
  { "inst/cycle", DCSIM_UNIT_RATIO, 0, 1 },  { "inst", DCSIM_UNIT_COUNT, 1, 1 },
  { "warp", DCSIM_UNIT_COUNT, 1, 1 },        { "cycle", DCSIM_UNIT_COUNT, 1, 1 },
  { "thread", DCSIM_UNIT_COUNT, 1, 1 },      { "sector", DCSIM_UNIT_COUNT, 1, 1 },
  { "request", DCSIM_UNIT_COUNT, 1, 1 },     { "%", DCSIM_UNIT_PERCENT, 0, 0.01 },
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
      *scale = unit_bases[i].scale;
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
      *scale = sc * unit_bases[i].scale;
      return 0;
    }
  }
  return -1;
}

int dcsim__parse_quantity(const char *s, double *value, dcsim_unit_kind *kind) {
  while (*s == ' ' || *s == '\t') s++;
  char *buf = malloc(strlen(s) + 1);
  if (!buf) return -1;
  size_t n = 0;
  for (; *s; s++) /* drop thousands separators (ncu writes "1,234,567") */
    if (*s != ',') buf[n++] = *s;
  buf[n] = '\0';
  char *end;
  errno = 0;
  double v = strtod(buf, &end), scale;
  int rc = end == buf || errno == ERANGE || !isfinite(v) || dcsim__parse_unit(end, kind, &scale)
               ? -1
               : 0;
  free(buf);
  if (rc) return -1;
  *value = v * scale;
  return isfinite(*value) ? 0 : -1;
}
