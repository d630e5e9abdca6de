/* util/units.h — units and quantities as profilers and benchmark tools write them (nvprof, ncu,
 * likwid-bench, Kerncraft): "GB/s", "Gbyte/second", "kB", "usecond", "GHz", "Kinst", "%", and as
 * people type them on the command line: "100Gb/s" (bits: 1.25e10 B/s), "12.5GB/s",
 * "2m", "48h", "5y", "0.15USD/kWh", "2.5MJ".
 * Nothing here allocates or keeps state. */
#ifndef DCSIM_UNITS_H
#define DCSIM_UNITS_H

/* What a unit measures. */
typedef enum {
  DCSIM_UNIT_PLAIN,   /* no unit */
  DCSIM_UNIT_PERCENT, /* % (scale 0.01) */
  DCSIM_UNIT_COUNT,   /* inst, warp, cycle, thread, sector, request (K, M, G prefixes) */
  DCSIM_UNIT_RATIO,   /* inst/cycle */
  DCSIM_UNIT_BYTES,   /* B, byte */
  DCSIM_UNIT_RATE,    /* B/s, byte/second */
  DCSIM_UNIT_TIME,    /* s, second (n, u, m prefixes) */
  DCSIM_UNIT_FREQ,    /* Hz */
  DCSIM_UNIT_ENERGY,  /* J, Wh (base J) */
  DCSIM_UNIT_TARIFF   /* USD/kWh, USD/MWh, $/kWh (base USD/kWh; no currency is converted) */
} dcsim_unit_kind;

/* Parses a unit such as "GB/s", "Gbyte/second", "kB", "usecond", "ms", "GHz", "Kinst", "%":
 * decimal prefixes k/K, M, G, T, P (K = 1000, as nvprof, ncu, Kerncraft and likwid write them),
 * binary with 'i' (KiB = 1024), n/u/m for time only. A lower-case b is a bit (Gb/s, Gbit/s = 1/8
 * of GB/s); m, min, h, d, y (a Julian year of 365.25 days) are durations without prefixes
 * ("ms" is a millisecond, "m" a minute). *scale converts to the kind's base unit (B, B/s, s, Hz,
 * J, USD/kWh, count). 0, or -1 for an unknown unit. */
int dcsim__parse_unit(const char *unit, dcsim_unit_kind *kind, double *scale);

/* A number with an optional unit after it ("84.07 GB/s", "12.5GB/s", "98.1%", "1,234,567"):
 * thousands separators are dropped, *value is in the unit's base (B, B/s, s, Hz, count). 0, or -1
 * when not a finite number followed by a known unit. */
int dcsim__parse_quantity(const char *s, double *value, dcsim_unit_kind *kind);

#endif
