/* test_sweep_mpi.c — a sweep distributed over MPI ranks (run by ctest with 2 ranks; any number
 * works): the same bytes as a single-process sweep, every point stored once and in ascending
 * chunks, work on every rank, stop-after and resume, a shard, and failures — of a rank's setup
 * and of rank 0's database — that reach every rank without a hang. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "check.h"
#include "dcsim/lib.h"
#include "dcsim/model.h"
#include "dcsim/sweep.h"
#include "dcsim/sweep_mpi.h"

static const char *const CPUS[] = { "xeon-e5-2697v3", "xeon-gold-6148" };
static const char *const GPUS[] = { "geforce-gtx970", "tesla-k20m", "tesla-m2070q" };
static const unsigned NODES[] = { 1, 2, 4, 8, 16 };
static const unsigned CORES[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14 };
static const char *const FREQS[] = { "1.2", "1.4", "1.6", "1.8", "2.0", "2.4", "2.6", "turbo" };
enum { N_POINTS = 2 * 3 * 5 * 14 * 8 };

/* the full ALARO design space of D3.5 §6.2: 3360 points, 540 feasible */
static dcsim_sweep_t *alaro(void) {
  /* D3.5's tables (--d35): 540 of the 3360 points are feasible */
  dcsim_sweep_def d = { .input = "workflows/alaro.xml",
                        .n_cpus = 2,
                        .cpus = CPUS,
                        .n_gpus = 3,
                        .gpus = GPUS,
                        .n_nodes = 5,
                        .nodes = NODES,
                        .n_cores = 14,
                        .cores = CORES,
                        .n_freqs = 8,
                        .freqs = FREQS,
                        .model_flags = DCSIM_MODEL_D35 };
  dcsim_sweep_t *sw = NULL;
  dcsim_error err;
  if (dcsim_sweep_new(&d, &sw, &err)) fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.msg);
  return sw;
}

static char *json_of(dcsim_sweep_t *sw) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  dcsim_sweep_write_json(f, dcsim_sweep_points(sw), dcsim_sweep_n_points(sw), NULL);
  fclose(f);
  return buf;
}

/* rank 0's sink: every point stored once, each chunk in ascending order; fails at batch fail_at */
typedef struct store {
  unsigned char seen[N_POINTS];
  size_t stored, batches, dup, unordered;
  size_t fail_at;
} store;

static int on_batch(void *ctx, const dcsim_sweep_point *pts, const size_t *idx, size_t n,
                    dcsim_error *err) {
  store *s = ctx;
  if (s->fail_at && ++s->batches == s->fail_at)
    return DCSIM_ERR(err, DCSIM_EDB, "test.db", 0, "disk full (test)");
  for (size_t k = 0; k < n; k++) {
    if (!pts[idx[k]].done || idx[k] >= N_POINTS) continue;
    if (k && idx[k] <= idx[k - 1]) s->unordered++;
    if (s->seen[idx[k]]++) s->dup++;
    s->stored++;
  }
  return 0;
}

static size_t done_here(dcsim_sweep_t *sw) {
  size_t n = 0;
  for (size_t i = 0; i < dcsim_sweep_n_points(sw); i++) n += dcsim_sweep_points(sw)[i].done != 0;
  return n;
}

int main(int argc, char **argv) {
  if (dcsim_lib_init() != 0) return 1;
  int level = 0, rank = 0, size = 1;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &level);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(level >= MPI_THREAD_FUNNELED);
  dcsim_error err;
  memset(&err, 0, sizeof err);
  char *want = NULL;
  if (rank == 0) { /* the single-process sweep */
    dcsim_sweep_t *one = alaro();
    CHECK(one && dcsim_sweep_run(one, NULL, &err) == 0);
    if (one) want = json_of(one);
    dcsim_sweep_free(one);
  }

  /* 1. small chunks (3 points) and 2 threads per rank: the same bytes, every point stored once */
  {
    dcsim_sweep_t *sw = alaro();
    static store st;
    dcsim_sweep_sink sink = { &st, on_batch, NULL };
    dcsim_sweep_run_opts o = { 2, 0, 3, rank == 0 ? &sink : NULL };
    CHECK_INT(dcsim_sweep_mpi_run(MPI_COMM_WORLD, sw, sw ? 0 : DCSIM_EIO, &o, &err), 0);
    unsigned long mine = sw ? (unsigned long)done_here(sw) : 0, total = 0;
    MPI_Reduce(&mine, &total, 1, MPI_UNSIGNED_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && sw) {
      char *got = json_of(sw);
      CHECK(want && got && strcmp(want, got) == 0);
      free(got);
      CHECK_INT(st.stored, N_POINTS);
      CHECK_INT(st.dup, 0);
      CHECK_INT(st.unordered, 0);
      /* rank 0 holds all; what the others evaluated is the rest of the total, and some of it */
      if (size > 1) CHECK(total > N_POINTS && total < 2 * N_POINTS);
    } else if (sw) {
      CHECK(mine > 0); /* every rank worked */
      CHECK(mine < N_POINTS);
    }
    dcsim_sweep_free(sw);
  }

  /* 2. stopped after 700 points, then resumed (rank 0 keeps what it has, as a database would) */
  {
    dcsim_sweep_t *sw = alaro();
    dcsim_sweep_run_opts o = { 1, 700, 0, NULL };
    CHECK_INT(dcsim_sweep_mpi_run(MPI_COMM_WORLD, sw, 0, &o, &err), 0);
    if (rank == 0) CHECK_INT(done_here(sw), 700);
    o.stop_after = 0;
    CHECK_INT(dcsim_sweep_mpi_run(MPI_COMM_WORLD, sw, 0, &o, &err), 0);
    if (rank == 0) {
      char *got = json_of(sw);
      CHECK(want && got && strcmp(want, got) == 0);
      free(got);
    }
    dcsim_sweep_free(sw);
  }

  /* 3. a shard (set on rank 0, which hands out the points): exactly its points */
  {
    dcsim_sweep_t *sw = alaro();
    if (rank == 0) CHECK_INT(dcsim_sweep_set_shard(sw, 1, 3, &err), 0);
    CHECK_INT(dcsim_sweep_mpi_run(MPI_COMM_WORLD, sw, 0, NULL, &err), 0);
    if (rank == 0) {
      size_t bad = 0, in = 0;
      for (size_t i = 0; i < N_POINTS; i++) {
        in += dcsim_sweep_in_shard(sw, i);
        bad += (dcsim_sweep_points(sw)[i].done != 0) != dcsim_sweep_in_shard(sw, i);
      }
      CHECK_INT(bad, 0);
      CHECK(in > N_POINTS / 4 && in < N_POINTS / 2);
      CHECK_INT(dcsim_sweep_points(sw)[0].pareto + dcsim_sweep_points(sw)[1].pareto,
                0); /* no front of a part */
    }
    dcsim_sweep_free(sw);
  }

  /* 4. the last rank could not build its sweep: every rank returns its error, naming it */
  {
    int last = rank == size - 1;
    dcsim_sweep_t *sw = last ? NULL : alaro();
    dcsim_error e;
    memset(&e, 0, sizeof e);
    int rc = last ? DCSIM_ERR(&e, DCSIM_EREF, "hw-profiles/cpu/x.xml", 3, "unknown level") : 0;
    CHECK_INT(dcsim_sweep_mpi_run(MPI_COMM_WORLD, sw, rc, NULL, &e), DCSIM_EREF);
    CHECK_STR(e.file, "hw-profiles/cpu/x.xml");
    CHECK_INT(e.line, 3);
    char msg[64];
    snprintf(msg, sizeof msg, size > 1 ? "unknown level (rank %d)" : "unknown level", size - 1);
    CHECK_STR(e.msg, msg);
    dcsim_sweep_free(sw);
  }

  /* 5. rank 0's database fails at its 4th chunk: the others stop too, and every rank gets the error
   */
  {
    dcsim_sweep_t *sw = alaro();
    static store st;
    st.fail_at = 4;
    dcsim_sweep_sink sink = { &st, on_batch, NULL };
    dcsim_sweep_run_opts o = { 1, 0, 8, rank == 0 ? &sink : NULL };
    dcsim_error e;
    memset(&e, 0, sizeof e);
    CHECK_INT(dcsim_sweep_mpi_run(MPI_COMM_WORLD, sw, 0, &o, &e), DCSIM_EDB);
    CHECK_STR(e.msg, "disk full (test)");
    if (rank == 0) CHECK(done_here(sw) < N_POINTS);
    dcsim_sweep_free(sw);
  }

  free(want);
  fprintf(stderr, "rank %d of %d: ", rank, size);
  MPI_Finalize();
  CHECK_DONE();
}
