/* dcsim/sweepdb.h — sweeps in the SQLite results database (schema in doc/sweep.md), resumable.
 *
 * A sweep is identified by the hash of its definition and inputs (dcsim_sweep_hash): attaching a
 * sweep whose hash the database already holds reads its finished points back into it, so an
 * interrupted sweep continues where it stopped. Points are stored in batches, one transaction
 * each, keyed by (sweep_id, idx) with INSERT OR IGNORE: a batch cut short by a crash is simply
 * rolled back and redone, and no point is ever stored twice.
 *
 * Ownership: dcsim_sweepdb_open() returns a handle closed by dcsim_sweepdb_close();
 * dcsim_sweepdb_read() returns an array freed by dcsim_sweep_points_free(). */
#ifndef DCSIM_SWEEPDB_H
#define DCSIM_SWEEPDB_H

#include <stddef.h>
#include <stdint.h>

#include "dcsim/error.h"
#include "dcsim/sweep.h"

typedef struct dcsim_sweepdb dcsim_sweepdb_t;

int dcsim_sweepdb_open(const char *path, dcsim_sweepdb_t **out, dcsim_error *err);
void dcsim_sweepdb_close(dcsim_sweepdb_t *db);

/* Finds (or creates) the sweep of sw's hash and restores its stored points into sw. */
int dcsim_sweepdb_attach(dcsim_sweepdb_t *db, dcsim_sweep_t *sw, const char *input, int64_t *sweep_id,
                         size_t *restored, dcsim_error *err);
/* Stores points idx[0..n-1] of pts (done ones) in one transaction. */
int dcsim_sweepdb_store(dcsim_sweepdb_t *db, const dcsim_sweep_point *pts, const size_t *idx, size_t n,
                        dcsim_error *err);
/* Reads the stored points of sweep `sweep_id` (0 = the most recent sweep) in index order;
 * *n_total (may be NULL) gets the sweep's number of points (more than *n when interrupted). */
int dcsim_sweepdb_read(const char *path, int64_t sweep_id, dcsim_sweep_point **out, size_t *n, size_t *n_total,
                       dcsim_error *err);

#endif
