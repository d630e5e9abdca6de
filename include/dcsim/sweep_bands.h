/* dcsim/sweep_bands.h — the uncertainty bands of a sweep's points and the points that cannot be
 * told from the Pareto front (doc/sweep.md, "Uncertainty bands").
 *
 * Each feasible point gets a time and an energy band (dcsim/bands.h) from its provenance and the
 * devices it names (a GPU: the GPU time's band joins the CPU's), and a point of known cost a cost
 * band (dcsim_bands_cost: its cost times the smaller and the larger of the time's and the
 * energy's relative bands; prices are inputs, taken as exact). A point off the front is
 * indistinguishable from it when its bands meet a front point's on every objective of the front
 * (the intervals overlap) and no point is surely better on every objective (its band's high end at
 * most the point's low end). A point whose bands meet no front point's is told apart from the
 * front, whether or not a point surely dominates it (doc/sweep.md "Uncertainty bands"). */
#ifndef DCSIM_SWEEP_BANDS_H
#define DCSIM_SWEEP_BANDS_H

#include <stddef.h>

#include "dcsim/bands.h"
#include "dcsim/sweep.h"
#include "dcsim/sweep_io.h"

struct dcsim_scenario;

/* Sets has_band, time_band, energy_band, has_cost_band, cost_band and near_front of every done
 * point; the front (pareto) over the objectives obj (DCSIM_OBJ_*, dcsim/sweep_io.h) must be
 * marked already (dcsim_sweep_mark_front_on). transferred (n entries, or NULL for none): the
 * point's CPU had its rates carried from another CPU, 2 when its per-core rates are borrowed too
 * (dcsim_bands_cpu_transferred). */
void dcsim_sweep_bands_mark(dcsim_sweep_point *pts, size_t n, const dcsim_bands_t *b,
                            const unsigned char *transferred, unsigned obj);
/* The same with calibration/bands.csv (dcsim_bands_load_default) for the points of a sweep just
 * run, each point's CPU told by the profile it ran on (dcsim_sweep_point_transferred), over the
 * sweep's objectives. */
int dcsim_sweep_bands_mark_run(dcsim_sweep_t *sw, dcsim_error *err);
/* The same for points read back from a finished sweep (a file or a database: dcsim pareto,
 * heatmap), whose profiles are known only by name: each named CPU's profile is read from the
 * catalogue to tell whether it is transferred (a name the catalogue does not hold counts as
 * transferred: no tables of its own can be vouched for), and a point without a CPU name (it ran
 * on the workflow's own platform, unknown here) counts as transferred too. */
int dcsim_sweep_bands_mark_default(dcsim_sweep_point *pts, size_t n, unsigned obj,
                                   dcsim_error *err);
/* Whether a CPU group of the scenario (its platform as written) is on a transferred CPU
 * (dcsim_bands_cpu_transferred). */
int dcsim_sweep_scenario_transferred(const struct dcsim_scenario *s);

#endif
