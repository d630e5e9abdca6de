/* sweep/internal.h — helpers of the sweep layer shared by sweep.c and sweep_mpi.c (the point
 * evaluation of dcsim_sweep_run, reused by the distributed run). Not part of the public API. */
#ifndef DCSIM_SWEEP_INTERNAL_H
#define DCSIM_SWEEP_INTERNAL_H

#include <stddef.h>

#include "dcsim/sweep.h"

/* The points still to evaluate — not done, in the sweep's shard — in index order, at most max
 * (0 = no limit), written to out (room for dcsim_sweep_n_points); returns how many. */
size_t dcsim__sweep_pending(const dcsim_sweep_t *sw, size_t max, size_t *out);

/* The thread count of the options: o->threads, or OpenMP's default (OMP_NUM_THREADS). */
int dcsim__sweep_threads(const dcsim_sweep_run_opts *o);

/* Evaluates sw's points idx[0..n-1] on nt OpenMP threads (handed out one at a time), each written
 * at its own index. The calling thread (OpenMP thread 0) calls tick(ctx, k) after each point it
 * evaluates, and every 0.1 ms while the other threads finish the batch; k = points of the batch
 * finished so far. tick may be NULL. An error (not an infeasible point) is that of the lowest
 * failing position of idx. */
int dcsim__sweep_eval_batch(dcsim_sweep_t *sw, const size_t *idx, size_t n, int nt,
                            void (*tick)(void *ctx, size_t k), void *ctx, dcsim_error *err);

/* Records a point's results (the fields of its field table marked RESULT, util/dbschema_sweep.h)
 * from r, read back from a database or received from an MPI worker: done. DCSIM_ERANGE for an
 * index outside the sweep, DCSIM_ENOMEM. */
int dcsim__sweep_restore_point(dcsim_sweep_t *sw, size_t index, const dcsim_sweep_point *r,
                               dcsim_error *err);

#endif
