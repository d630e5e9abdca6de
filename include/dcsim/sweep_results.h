/* dcsim/sweep_results.h — a finished sweep's results read back for `dcsim pareto` and `dcsim
 * heatmap`: its points from its JSON or CSV output or from a results database, with what made
 * them (dcsim/repro.h), and the points a listing of its Pareto front shows, in their order.
 *
 * Ownership: dcsim_sweep_results_read() returns an array freed by dcsim_sweep_points_free()
 * (dcsim/sweep_io.h) and adds to the caller's dcsim_repro; the other functions reorder the
 * caller's points in place. */
#ifndef DCSIM_SWEEP_RESULTS_H
#define DCSIM_SWEEP_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#include "dcsim/error.h"
#include "dcsim/repro.h"
#include "dcsim/sweep_io.h"

/* The points of the sweep results in `path`: a results database (by its SQLite header; sweep
 * `sweep_id` of it, 0 for the most recent) or a sweep's JSON or CSV output. What made them goes
 * into rp: a database gives the sweep's inputs; a file adds itself and the sweep's hash and inputs
 * it lists (its "# sweep HASH" and "# input SHA256 PATH" comment lines, or its "dcsim" object's
 * sweep_sha256 and inputs). *total: how many points the sweep has (more than *n when a
 * database holds an interrupted sweep or one shard; *n for a file). */
int dcsim_sweep_results_read(const char *path, int64_t sweep_id, dcsim_sweep_point **pts, size_t *n,
                             size_t *total, dcsim_repro *rp, dcsim_error *err);

/* Keeps done only the done points whose CPU, GPU and frequency are each one of the comma-separated
 * names of cpus, gpus and freqs (NULL: any); returns how many done points are left. */
size_t dcsim_sweep_keep_named(dcsim_sweep_point *pts, size_t n, const char *cpus, const char *gpus,
                              const char *freqs);

/* How a front listing is made of the done points of pts (their pareto and near_front marks set,
 * dcsim/sweep_bands.h): the done points are moved first (*kept of them, in their order), and of
 * them the front points and the points indistinguishable from it first again (*listed, *near of
 * which are not on the front); those listed are ordered by increasing time (then energy, then
 * index) when by_time is set. */
void dcsim_sweep_front_listing(dcsim_sweep_point *pts, size_t n, int by_time, size_t *kept,
                               size_t *listed, size_t *near);

#endif
