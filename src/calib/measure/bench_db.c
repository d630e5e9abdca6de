/* bench_db.c — `dcsim bench --db`: the run, every point with its spread and flags, the loop fits
 * and the held-out predictions into SQLite, one transaction per run (doc/calibration.md); the
 * tables are util/dbschema.c's dcsim__db_bench_schema. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "calib/measure/bench_internal.h"
#include "dcsim/repro.h"
#include "util/db.h"
#include "util/record.h"

/* what every failure after the schema says */
static const char bench_db_fail[] = "cannot record the bench run";

/* the INSERT of record r's row after its lead column (run_id, created_utc), prepared into *st */
static int prepare_insert(sqlite3 *db, const bench_run *R, const dcsim__record *r, const char *lead,
                          sqlite3_stmt **st, dcsim_error *err) {
  const char *path = R->o->db_path;
  dcsim_str sql = DCSIM_STR_INIT;
  int rc = dcsim__record_sql_insert(r, lead, 1, &sql);
  if (rc)
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "%s: out of memory", bench_db_fail);
  else
    rc = dcsim__db_prepare(db, path, sql.s, st, bench_db_fail, err);
  dcsim_str_release(&sql);
  return rc;
}

/* the bench_runs row: the machine, the options and the held-out errors (its record,
 * util/dbschema_bench.h, after created_utc); *run_id its id */
static int insert_run(sqlite3 *db, const bench_run *R, const char *profile_path,
                      const bench_heldout *ho, size_t nho, int64_t *run_id, dcsim_error *err) {
  const char *path = R->o->db_path;
  sqlite3_stmt *st = NULL;
  double emean = 0, emax = 0;
  for (size_t i = 0; i < nho; i++) {
    double e = fabs(ho[i].predicted_s - ho[i].measured_s) / ho[i].measured_s;
    emean += e / (double)nho;
    if (e > emax) emax = e;
  }
  dcsim_str tcs[2] = { DCSIM_STR_INIT, DCSIM_STR_INIT }; /* the thread counts, "1,2,4" */
  const unsigned *lists[2] = { R->tc, R->tc_loops }, counts[2] = { R->ntc, R->ntc_loops };
  for (int l = 0; l < 2; l++)
    for (unsigned i = 0; i < counts[l]; i++)
      dcsim_str_addf(&tcs[l], "%s%u", i ? "," : "", lists[l][i]);
  unsigned flagged = 0;
  for (size_t i = 0; i < R->np; i++) flagged += R->pts[i].flag[0] != '\0';
  bench_run_row row = { dcsim_version(),
                        R->host,
                        R->model,
                        R->name,
                        R->o->out_dir,
                        profile_path,
                        dcsim_bench_isa_name(R->isa),
                        (int)R->nthreads,
                        R->quick,
                        (int)R->reps_min,
                        (int)R->o->budget,
                        R->ghz,
                        dcsim_str_cstr(&R->freq_note),
                        R->c.l1d_byte,
                        R->c.l2_byte,
                        R->c.l3_byte,
                        dcsim_str_cstr(&R->energy_note),
                        dcsim_str_cstr(&R->gpu_note),
                        nho ? emean : NAN,
                        nho ? emax : NAN,
                        R->budget_s,
                        dcsim__bench_elapsed_s(R),
                        (int)R->reps_max,
                        R->c.source,
                        dcsim_str_cstr(&tcs[0]),
                        dcsim_str_cstr(&tcs[1]),
                        dcsim_str_cstr(&R->warm_note),
                        (int)flagged };
  int rc = 0;
  if (tcs[0].oom || tcs[1].oom || R->freq_note.oom || R->warm_note.oom || R->energy_note.oom ||
      R->gpu_note.oom || R->loop_ws_note.oom)
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "%s: out of memory", bench_db_fail);
  else if (!(rc = prepare_insert(db, R, &dcsim__bench_run_record, "created_utc", &st, err))) {
    dcsim__record_sql_bind(&dcsim__bench_run_record, st, 2, &row);
    if (!(rc = dcsim__db_bind_utc_now(db, path, st, 1, bench_db_fail, err)))
      rc = dcsim__db_step_done(db, path, st, bench_db_fail, err);
  }
  dcsim_str_release(&tcs[0]);
  dcsim_str_release(&tcs[1]);
  sqlite3_finalize(st);
  if (!rc) *run_id = sqlite3_last_insert_rowid(db);
  return rc;
}

/* one row of record r after run_id through st */
static int insert_row(sqlite3 *db, const bench_run *R, const dcsim__record *r, sqlite3_stmt *st,
                      int64_t run_id, const void *row, dcsim_error *err) {
  sqlite3_bind_int64(st, 1, run_id);
  dcsim__record_sql_bind(r, st, 2, row);
  return dcsim__db_step_done(db, R->o->db_path, st, bench_db_fail, err);
}

/* every measured point: its cell's record (bench_cells.c, util/dbschema_bench.h) */
static int insert_points(sqlite3 *db, const bench_run *R, int64_t run_id, dcsim_error *err) {
  sqlite3_stmt *st = NULL;
  int rc = prepare_insert(db, R, &dcsim__bench_points_record, "run_id", &st, err);
  for (size_t i = 0; i < R->np && !rc; i++) {
    bench_cell c;
    dcsim__bench_cell_of(R, &R->pts[i], &c);
    rc = insert_row(db, R, &dcsim__bench_points_record, st, run_id, &c, err);
  }
  sqlite3_finalize(st);
  return rc;
}

/* the loop coefficients (NaN, so NULL, where a loop has no flop term or a value is unknown) */
static int insert_fits(sqlite3 *db, const bench_run *R, const dcsim_loop_fit *fits, size_t nf,
                       int64_t run_id, dcsim_error *err) {
  sqlite3_stmt *st = NULL;
  int rc = prepare_insert(db, R, &dcsim__bench_fit_record, "run_id", &st, err);
  for (size_t i = 0; i < nf && !rc; i++) {
    const dcsim_loop_fit *f = &fits[i];
    bench_fit_row row = { f->name,
                          (long long)f->n_states,
                          f->V,
                          f->X,
                          f->Y,
                          f->Z,
                          f->has_flop ? f->U : NAN,
                          f->has_flop ? f->S_flops : NAN,
                          f->mop_stats.max_rel_err,
                          f->mop_stats.mean_rel_err,
                          f->mop_stats.loo_mean_rel_err };
    rc = insert_row(db, R, &dcsim__bench_fit_record, st, run_id, &row, err);
  }
  sqlite3_finalize(st);
  return rc;
}

/* the held-out predictions with their relative errors */
static int insert_heldout(sqlite3 *db, const bench_run *R, const bench_heldout *ho, size_t nho,
                          int64_t run_id, dcsim_error *err) {
  sqlite3_stmt *st = NULL;
  int rc = prepare_insert(db, R, &dcsim__bench_heldout_record, "run_id", &st, err);
  for (size_t i = 0; i < nho && !rc; i++) {
    const bench_heldout *h = &ho[i];
    bench_heldout_row row = { h->loop,
                              h->threads,
                              h->measured_s,
                              h->predicted_s,
                              (h->predicted_s - h->measured_s) / h->measured_s,
                              h->insample_s };
    rc = insert_row(db, R, &dcsim__bench_heldout_record, st, run_id, &row, err);
  }
  sqlite3_finalize(st);
  return rc;
}

/* --db before anything is measured: opened, proved dcsim's (a foreign database is refused and
 * left as it was), given the bench tables in one locked transaction (util/db.h,
 * dcsim__db_migrate; as `run --db` and `sweep --db`) */
int dcsim__bench_open_db(bench_run *R, dcsim_error *err) {
  const char *path = R->o->db_path;
  int rc = dcsim__db_open(path, NULL, DCSIM_DB_WAL | DCSIM_DB_OWNED, &R->db, err);
  if (!rc) rc = dcsim__db_migrate(R->db, path, &dcsim__db_bench_schema, err);
  return rc;
}

void dcsim__bench_close_db(bench_run *R) {
  sqlite3_close(R->db);
  R->db = NULL;
}

/* the whole bench run into --db (opened by dcsim__bench_open_db), in one transaction */
int dcsim__bench_write_db(bench_run *R, const char *profile_path, const bench_heldout *ho,
                          size_t nho, const dcsim_loop_fit *fits, size_t nf, int64_t *run_id,
                          dcsim_error *err) {
  const char *path = R->o->db_path;
  sqlite3 *db = R->db;
  int rc = dcsim__db_begin(db, path, err);
  if (rc) return rc;
  if ((rc = insert_run(db, R, profile_path, ho, nho, run_id, err)) ||
      (rc = insert_points(db, R, *run_id, err)) ||
      (rc = insert_fits(db, R, fits, nf, *run_id, err)) ||
      (rc = insert_heldout(db, R, ho, nho, *run_id, err))) {
    dcsim__db_rollback(db);
    return rc;
  }
  if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
    rc = dcsim__db_fail(db, path, bench_db_fail, err);
    dcsim__db_rollback(db);
  }
  return rc;
}
