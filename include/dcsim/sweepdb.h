/* dcsim/sweepdb.h — sweeps in the SQLite results database (schema in doc/sweep.md), resumable.
 *
 * A sweep is identified by the hash of its definition and inputs (dcsim_sweep_hash): attaching a
 * sweep whose hash the database already holds reads its finished points back into it, so an
 * interrupted sweep continues where it stopped. Points are stored in batches, one transaction
 * each, keyed by (sweep_id, idx) with INSERT OR IGNORE: a batch cut short by a crash is simply
 * rolled back and redone, and no point is ever stored twice.
 *
 * The shards of one sweep (dcsim_sweep_set_shard) each write their own database under the same
 * hash; dcsim_sweepdb_merge() joins them into one, the same rows a single run stores.
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

/* Opens (or creates) a sweep database. A database that is not dcsim's is refused before anything
 * is written to it (dcsim__db_check_owner). An existing database in a place dcsim cannot write is
 * opened read-only: a sweep it holds can be attached (resumed with nothing left to do), nothing
 * stored. */
int dcsim_sweepdb_open(const char *path, dcsim_sweepdb_t **out, dcsim_error *err);
void dcsim_sweepdb_close(dcsim_sweepdb_t *db);
/* 1 when db was opened read-only (above). */
int dcsim_sweepdb_read_only(const dcsim_sweepdb_t *db);

/* Finds (or creates) the sweep of sw's hash and restores its stored points into sw. */
int dcsim_sweepdb_attach(dcsim_sweepdb_t *db, dcsim_sweep_t *sw, const char *input,
                         int64_t *sweep_id, size_t *restored, dcsim_error *err);
/* Stores points idx[0..n-1] of pts (done ones) in one transaction. */
int dcsim_sweepdb_store(dcsim_sweepdb_t *db, const dcsim_sweep_point *pts, const size_t *idx,
                        size_t n, dcsim_error *err);
/* Reads the stored points of sweep `sweep_id` (0 = the most recent sweep) in index order;
 * *n_total (may be NULL) gets the sweep's number of points (more than *n when interrupted).
 * rp (may be NULL) gets the sweep's hash and the input files its definition lists. */
int dcsim_sweepdb_read(const char *path, int64_t sweep_id, dcsim_sweep_point **out, size_t *n,
                       size_t *n_total, dcsim_repro *rp, dcsim_error *err);

/* What dcsim_sweepdb_merge found. */
typedef struct dcsim_sweepdb_merge_report {
  char def_sha256[65]; /* the sweep merged */
  char input[512];     /* its input (workflow) as stored */
  size_t n_points;     /* points of the sweep */
  size_t n_stored;     /* distinct points in the merged database */
  size_t n_duplicates; /* rows found in more than one input, all identical */
  size_t n_missing;    /* n_points - n_stored */
  char missing[512];   /* the missing indices as ranges ("17, 40-47, ..."), "" when none */
} dcsim_sweepdb_merge_report;

/* Writes a new database `out` (which must not exist; written under a temporary name, renamed when
 * complete) holding the one sweep that every input holds — the sweep whose hash starts with
 * `hash_prefix` when that is not NULL — with the union of the inputs' points. Rows of one point
 * found in several inputs must be identical (else an error names both files and the point);
 * points no input holds are reported, not an error: running the sweep with --db out evaluates
 * them. per_input (may be NULL) gets each input's number of rows of the sweep. */
int dcsim_sweepdb_merge(const char *const *inputs, size_t n, const char *out,
                        const char *hash_prefix, dcsim_sweepdb_merge_report *rep, size_t *per_input,
                        dcsim_error *err);

#endif
