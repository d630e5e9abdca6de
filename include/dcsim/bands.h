/* dcsim/bands.h — the uncertainty band of every prediction (doc/models.md, "Uncertainty bands").
 *
 * calibration/bands.csv holds, per model part (the CPU time, the GPU time, the power) and
 * provenance class (dcsim/provenance.h), a relative band [low, high]: a value v of that class has
 * the band [v (1 + low), v (1 + high)]. The file is not written by hand: `validate
 * tests/reference/sections.txt --bands` derives it from the out-of-sample rows of
 * doc/validation.md (leave-one-out, held out, another CPU or GPU) and ctest bands_current fails
 * when the two differ.
 *
 * Ownership: dcsim_bands_load*() return a table freed by dcsim_bands_free(). */
#ifndef DCSIM_BANDS_H
#define DCSIM_BANDS_H

#include "dcsim/error.h"
#include "dcsim/hwprofile.h"
#include "dcsim/provenance.h"

typedef struct dcsim_bands dcsim_bands_t;

typedef enum dcsim_band_part {
  DCSIM_BAND_CPU_TIME = 0,
  DCSIM_BAND_GPU_TIME = 1,
  DCSIM_BAND_POWER = 2
} dcsim_band_part;
#define DCSIM_BAND_PARTS 3

/* Reads a bands file: every part and class once, low <= 0 <= high. */
int dcsim_bands_load(const char *path, dcsim_bands_t **out, dcsim_error *err);
/* calibration/bands.csv of the data root (dcsim/catalog.h); a data root without one (a copy of
 * the user's own profiles) uses the file of the tree dcsim was built from, since the bands
 * describe dcsim's models, not the profiles. */
int dcsim_bands_load_default(dcsim_bands_t **out, dcsim_error *err);
void dcsim_bands_free(dcsim_bands_t *b);

/* The relative band [low, high] of one part and class. */
void dcsim_bands_rel(const dcsim_bands_t *b, dcsim_band_part part, dcsim_prov_kind kind,
                     double rel[2]);

/* Whether the CPU's rates were carried from another CPU: 0 for a profile with measured
 * performance tables, else (dcsim_cpu_profile_max_threads 0: levels anchored on a published
 * figure, carried per cycle from the reference CPU or taken from its datasheet,
 * src/calib/fit/fit_perf.c anchored_level) 1 when its per-core rates are its own or a close
 * variant's measurements, 2 when they rest on a sibling's or on none (dcsim_cpu_profile_rates_basis
 * sibling or estimate: doc/models.md "Per-core rates"). Its own tables' leave-out rows say nothing
 * of such a transfer (doc/models.md, "Uncertainty bands"). */
int dcsim_bands_cpu_transferred(const dcsim_cpu_profile_t *cpu);

/* The bands of a prediction in seconds and joules: the time's from the parts that ran (cpu, gpu:
 * 1 when that device ran some of it; the union of their bands at time_kind), the energy's from
 * that time band and the power band at energy_kind, multiplied: an energy is a power times a
 * time, each off by its own band. cpu == 2: the CPU that ran is transferred
 * (dcsim_bands_cpu_transferred): its CPU time takes the cpu-time spec band, the band of a model
 * carried to another CPU, at every class (its provenance class is unchanged). cpu == 3: transferred
 * on borrowed per-core rates: that band twice, (1 + low)^2 and (1 + high)^2 — the rates crossed
 * one more transfer of the kind the spec band was measured on (doc/models.md "Per-core rates").
 * energy_band may be NULL (no energy). */
void dcsim_bands_apply(const dcsim_bands_t *b, int cpu, int gpu, dcsim_prov_kind time_kind,
                       dcsim_prov_kind energy_kind, double time_s, double energy_j,
                       double time_band[2], double energy_band[2]);

/* Widens the bands of a prediction of time_s (from dcsim_bands_apply) so that the time band also
 * reaches the range cover_s (dcsim_prediction.time_cover_s: a thread law's continuation beyond
 * its measured cores), each end with the class band's relative width; the energy band stretches
 * by the same factors. cover_s {0, 0}: unchanged. energy_band may be NULL. Call it once, on the
 * bands dcsim_bands_apply gave (the widths are read from them). */
void dcsim_bands_cover(double time_s, const double cover_s[2], double time_band[2],
                       double energy_band[2]);

/* The band of a cost (dcsim/cost.h: the energy at a tariff plus the purchase amortised over the
 * node-seconds held, which scale with the time) from its time's and energy's bands: the cost times
 * the smaller and the larger of their relative bands, the prices being inputs taken as exact
 * (doc/sweep.md "The cost band"). time_band and energy_band in s and J. */
void dcsim_bands_cost(double cost_usd, double time_s, const double time_band[2], double energy_j,
                      const double energy_band[2], double cost_band[2]);

#endif
