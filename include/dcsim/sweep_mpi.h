/* dcsim/sweep_mpi.h — a sweep distributed over the ranks of an MPI job (doc/scaling.md). Built only
 * with -DDCSIM_MPI=ON (CMake's FindMPI; Debian's OpenMPI); the default build has no MPI.
 *
 * Rank 0 hands out chunks of point indices on request (guided sizes: large first, small at the
 * end, so that points of different cost balance); every rank, rank 0 included, evaluates its
 * chunks with OpenMP threads (dcsim_sweep_run's evaluation) and sends the results back. Rank 0
 * writes each result at its point's index and stores each chunk through the sink (the database,
 * one transaction per chunk), so its points — and everything printed from them — are the same
 * bytes as a single-process sweep. Only rank 0 calls the sink.
 *
 * Threads: MPI is started with MPI_THREAD_FUNNELED; only the thread that started it (OpenMP
 * thread 0 of each rank) calls MPI. Errors of the MPI library itself end the job (MPI's default
 * handler): a rank that dies cannot be waited for. The database keeps every stored chunk, so the
 * same command resumes.
 *
 * Ownership: nothing is allocated for the caller. */
#ifndef DCSIM_SWEEP_MPI_H
#define DCSIM_SWEEP_MPI_H

#include <mpi.h>

#include "dcsim/error.h"
#include "dcsim/sweep.h"

/* Starts MPI (MPI_Init_thread, MPI_THREAD_FUNNELED) unless it is running; *rank in
 * MPI_COMM_WORLD. *started tells dcsim_sweep_mpi_finalize whether to stop it. */
int dcsim_sweep_mpi_init(int *rank, int *started, dcsim_error *err);
void dcsim_sweep_mpi_finalize(int started);

/* Collective over comm. Every rank passes the sweep it built from the same definition, or
 * sw = NULL with setup_rc < 0 and *err filled when it could not build it; the sweeps must have
 * the same hash (the same definition and input files). On rank 0, o (threads, stop_after, batch:
 * the largest chunk, 0 = 32 per thread of the rank that asks, sink) applies as in dcsim_sweep_run;
 * on the others only o->threads. Returns the same status on every rank: 0 when every point of the
 * sweep's shard not yet done (at most o->stop_after) has been evaluated — then rank 0's sweep holds
 * them, and the Pareto front when the sweep is complete —, or the first error, which names the
 * rank where it arose unless that is rank 0. With one rank it is dcsim_sweep_run. */
int dcsim_sweep_mpi_run(MPI_Comm comm, dcsim_sweep_t *sw, int setup_rc,
                        const dcsim_sweep_run_opts *o, dcsim_error *err);

#endif
