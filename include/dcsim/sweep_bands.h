/* dcsim/sweep_bands.h — the uncertainty bands of a sweep's points and the points that cannot be
 * told from the Pareto front (doc/sweep.md, "Uncertainty bands").
 *
 * Each feasible point gets a time and an energy band (dcsim/bands.h) from its provenance and the
 * devices it names (a GPU: the GPU time's band joins the CPU's). A point off the front is
 * indistinguishable from it when no front point is surely better in both: no front point whose
 * band lies at or below the point's band in time and in energy (its high end at most the
 * point's low end, on both axes). */
#ifndef DCSIM_SWEEP_BANDS_H
#define DCSIM_SWEEP_BANDS_H

#include <stddef.h>

#include "dcsim/bands.h"
#include "dcsim/sweep_io.h"

/* Sets has_band, time_band, energy_band and near_front of every done point; the front (pareto)
 * must be marked already (dcsim_sweep_mark_front). */
void dcsim_sweep_bands_mark(dcsim_sweep_point *pts, size_t n, const dcsim_bands_t *b);
/* The same with calibration/bands.csv (dcsim_bands_load_default). */
int dcsim_sweep_bands_mark_default(dcsim_sweep_point *pts, size_t n, dcsim_error *err);

#endif
