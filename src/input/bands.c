/* bands.c — the uncertainty bands of calibration/bands.csv (see dcsim/bands.h). */
#include "dcsim/bands.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dcsim/catalog.h"
#include "dcsim/strutil.h"
#include "util/csv.h"

#ifndef DCSIM_SOURCE_DIR
#define DCSIM_SOURCE_DIR "."
#endif

static const char *const PART_NAME[DCSIM_BAND_PARTS] = { "cpu-time", "gpu-time", "power" };

struct dcsim_bands {
  double rel[DCSIM_BAND_PARTS][DCSIM_PROV_N][2];
};

static int read_row(const dcsim_csv_t *t, size_t r, const size_t col[4], const char *path,
                    dcsim_bands_t *b, unsigned char seen[DCSIM_BAND_PARTS][DCSIM_PROV_N],
                    dcsim_error *err) {
  const char *part = dcsim__csv_cell(t, r, col[0]), *cls = dcsim__csv_cell(t, r, col[1]);
  const int line = dcsim__csv_line(t, r);
  int p = -1, rc;
  for (int i = 0; i < DCSIM_BAND_PARTS; i++)
    if (strcmp(part, PART_NAME[i]) == 0) p = i;
  dcsim_prov_kind k;
  if (p < 0 || dcsim_prov_parse(cls, &k))
    return DCSIM_ERR(err, DCSIM_EPARSE, path, line,
                     "part '%s' class '%s': parts are cpu-time, gpu-time, power; classes table, "
                     "interpolated, extrapolated, spec",
                     part, cls);
  if (seen[p][k]++) return DCSIM_ERR(err, DCSIM_EPARSE, path, line, "%s %s twice", part, cls);
  double lo, hi;
  if ((rc = dcsim__csv_num(t, r, col[2], &lo, err)) ||
      (rc = dcsim__csv_num(t, r, col[3], &hi, err)))
    return rc;
  if (!(lo <= 0 && lo > -1 && hi >= 0))
    return DCSIM_ERR(err, DCSIM_ERANGE, path, line,
                     "band [%g, %g]: low must lie in (-1, 0] and high be >= 0", lo, hi);
  b->rel[p][k][0] = lo;
  b->rel[p][k][1] = hi;
  return 0;
}

int dcsim_bands_load(const char *path, dcsim_bands_t **out, dcsim_error *err) {
  dcsim_csv_t *t = NULL;
  dcsim_bands_t *b = NULL;
  unsigned char seen[DCSIM_BAND_PARTS][DCSIM_PROV_N] = { { 0 } };
  size_t col[4];
  int rc = dcsim__csv_load(path, &t, err);
  if (rc) return rc;
  if ((rc = dcsim__csv_col(t, "part", &col[0], err)) ||
      (rc = dcsim__csv_col(t, "class", &col[1], err)) ||
      (rc = dcsim__csv_col(t, "low", &col[2], err)) ||
      (rc = dcsim__csv_col(t, "high", &col[3], err)))
    goto out;
  if (!(b = calloc(1, sizeof *b))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  for (size_t r = 0; r < dcsim__csv_rows(t) && !rc; r++)
    rc = read_row(t, r, col, path, b, seen, err);
  for (int p = 0; p < DCSIM_BAND_PARTS && !rc; p++)
    for (int k = 0; k < DCSIM_PROV_N && !rc; k++)
      if (!seen[p][k])
        rc = DCSIM_ERR(err, DCSIM_EPARSE, path, 0, "no band for %s %s", PART_NAME[p],
                       dcsim_prov_name((dcsim_prov_kind)k));
out:
  dcsim__csv_free(t);
  if (rc) {
    free(b);
    b = NULL;
  }
  *out = b;
  return rc;
}

int dcsim_bands_load_default(dcsim_bands_t **out, dcsim_error *err) {
  char *path = dcsim_path_in(dcsim_catalog_root(), "calibration/bands.csv");
  /* a data root of the user's own profiles without the file: the bands describe dcsim's models,
   * validated in the tree it was built from (dcsim/bands.h) */
  if (path && access(path, F_OK) != 0) {
    free(path);
    path = dcsim_path_in(DCSIM_SOURCE_DIR, "calibration/bands.csv");
  }
  int rc = path ? dcsim_bands_load(path, out, err)
                : DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  free(path);
  return rc;
}

void dcsim_bands_free(dcsim_bands_t *b) { free(b); }

void dcsim_bands_rel(const dcsim_bands_t *b, dcsim_band_part part, dcsim_prov_kind kind,
                     double rel[2]) {
  rel[0] = b->rel[part][kind][0];
  rel[1] = b->rel[part][kind][1];
}

int dcsim_bands_cpu_transferred(const dcsim_cpu_profile_t *cpu) {
  if (!cpu || dcsim_cpu_profile_max_threads(cpu) != 0) return 0;
  return dcsim_cpu_profile_rates_basis(cpu, NULL) >= DCSIM_RATES_SIBLING ? 2 : 1;
}

void dcsim_bands_apply(const dcsim_bands_t *b, int cpu, int gpu, dcsim_prov_kind time_kind,
                       dcsim_prov_kind energy_kind, double time_s, double energy_j,
                       double time_band[2], double energy_band[2]) {
  double t[2] = { 0, 0 }, p[2], r[2];
  if (cpu || !gpu) { /* a prediction without either device still gets the CPU's band */
    /* a transferred CPU: the rows of a model carried to another CPU (experiment C, the lent
     * Emerald Rapids host) are the cpu-time spec band's (doc/validation/head.md) */
    dcsim_bands_rel(b, DCSIM_BAND_CPU_TIME, cpu >= 2 ? DCSIM_PROV_SPEC : time_kind, r);
    if (cpu == 3) /* per-core rates borrowed from a sibling or estimated: one more such transfer,
                   * compounded (doc/models.md "Per-core rates") */
      r[0] = (1 + r[0]) * (1 + r[0]) - 1, r[1] = (1 + r[1]) * (1 + r[1]) - 1;
    t[0] = fmin(t[0], r[0]), t[1] = fmax(t[1], r[1]);
  }
  if (gpu) {
    dcsim_bands_rel(b, DCSIM_BAND_GPU_TIME, time_kind, r);
    t[0] = fmin(t[0], r[0]), t[1] = fmax(t[1], r[1]);
  }
  time_band[0] = time_s * (1 + t[0]);
  time_band[1] = time_s * (1 + t[1]);
  if (!energy_band) return;
  dcsim_bands_rel(b, DCSIM_BAND_POWER, energy_kind, p);
  energy_band[0] = energy_j * (1 + t[0]) * (1 + p[0]);
  energy_band[1] = energy_j * (1 + t[1]) * (1 + p[1]);
}

void dcsim_bands_cover(double time_s, const double cover_s[2], double time_band[2],
                       double energy_band[2]) {
  if (!(time_s > 0) || !(cover_s[1] > 0)) return;
  /* the cover's ends carry the class band's relative widths; the energy is a power times the
   * time, so its band stretches by the same factors (doc/models.md "Uncertainty bands") */
  double lo = fmin(time_band[0], cover_s[0] * time_band[0] / time_s);
  double hi = fmax(time_band[1], cover_s[1] * time_band[1] / time_s);
  if (energy_band) {
    if (time_band[0] > 0) energy_band[0] *= lo / time_band[0];
    if (time_band[1] > 0) energy_band[1] *= hi / time_band[1];
  }
  time_band[0] = lo;
  time_band[1] = hi;
}

void dcsim_bands_cost(double cost_usd, double time_s, const double time_band[2], double energy_j,
                      const double energy_band[2], double cost_band[2]) {
  /* cost = a E + b T (a: the tariff, b: the prices over their lifetime; both >= 0, inputs taken
   * as exact), so (a E' + b T') / (a E + b T) lies between the smaller and the larger of E'/E and
   * T'/T whatever a and b are (doc/sweep.md "The cost band") */
  double lo = 1, hi = 1;
  if (time_s > 0 && energy_j > 0) {
    lo = fmin(time_band[0] / time_s, energy_band[0] / energy_j);
    hi = fmax(time_band[1] / time_s, energy_band[1] / energy_j);
  }
  cost_band[0] = cost_usd * lo;
  cost_band[1] = cost_usd * hi;
}
