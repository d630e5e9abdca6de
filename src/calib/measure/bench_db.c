/* bench_db.c — `dcsim bench --db`: the run, every point with its spread and flags, the loop fits
 * and the held-out predictions into SQLite, one transaction per run (doc/calibration.md). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "calib/measure/bench_internal.h"
#include "dcsim/repro.h"
#include "util/db.h"

static const char *const bench_schema_sql =
    "CREATE TABLE IF NOT EXISTS bench_runs(id INTEGER PRIMARY KEY, created_utc TEXT, "
    "dcsim_version TEXT, host TEXT,"
    " cpu_model TEXT, profile_name TEXT, out_dir TEXT, profile_path TEXT, isa TEXT, threads "
    "INTEGER, quick INTEGER,"
    " reps INTEGER, budget INTEGER, clock_ghz REAL, clock_note TEXT, l1d_byte REAL, l2_byte "
    "REAL, l3_byte REAL,"
    " energy_note TEXT, gpu_note TEXT, heldout_mean_abs_err REAL, heldout_max_abs_err REAL);"
    "CREATE TABLE IF NOT EXISTS bench_points(run_id INTEGER REFERENCES bench_runs(id), phase "
    "TEXT, kernel TEXT, level TEXT,"
    " ws_byte REAL, threads INTEGER, reps INTEGER, min REAL, median REAL, max REAL, unit TEXT, "
    "clock_ghz REAL,"
    " passes INTEGER, traffic_byte REAL, work_flop REAL);"
    "CREATE TABLE IF NOT EXISTS bench_fits(run_id INTEGER REFERENCES bench_runs(id), loop TEXT, "
    "states INTEGER,"
    " V REAL, X REAL, Y REAL, Z REAL, U REAL, S_flops REAL, mop_max_rel_err REAL, "
    "mop_mean_rel_err REAL,"
    " mop_loo_mean_rel_err REAL);"
    "CREATE TABLE IF NOT EXISTS bench_heldout(run_id INTEGER REFERENCES bench_runs(id), loop "
    "TEXT, threads INTEGER,"
    " measured_s REAL, predicted_s REAL, rel_err REAL, insample_s REAL);";

/* columns added after the first schema: created on a new database, added to an old one */
static const char *const bench_added[][3] = {
  { "bench_runs", "time_budget_s", "REAL" },
  { "bench_runs", "elapsed_s", "REAL" },
  { "bench_runs", "reps_max", "INTEGER" },
  { "bench_runs", "cache_source", "TEXT" },
  { "bench_runs", "thread_counts", "TEXT" },
  { "bench_runs", "loop_thread_counts", "TEXT" },
  { "bench_runs", "warmup_note", "TEXT" },
  { "bench_runs", "flagged_points", "INTEGER" },
  { "bench_points", "disp", "REAL" },
  { "bench_points", "remeasured", "INTEGER" },
  { "bench_points", "flag", "TEXT" },
  { "bench_points", "weight", "REAL" },
  /* issue 38: what the interference checks saw (raw.csv's columns) */
  { "bench_points", "redone", "INTEGER" },
  { "bench_points", "disturbed", "INTEGER" },
  { "bench_points", "cpu_share", "REAL" },
  { "bench_points", "clock_min_ghz", "REAL" },
  { "bench_points", "clock_max_ghz", "REAL" },
  { "bench_points", "steal", "REAL" },
  { "bench_points", "status", "TEXT" },
};

/* what every failure after the schema says */
static const char bench_db_fail[] = "cannot record the bench run";

static int add_columns(sqlite3 *db, const char *path, dcsim_error *err) {
  int rc = 0;
  for (size_t i = 0; i < sizeof bench_added / sizeof *bench_added && !rc; i++) {
    char sql[256];
    sqlite3_stmt *st = NULL;
    snprintf(sql, sizeof sql, "SELECT 1 FROM pragma_table_info('%s') WHERE name = '%s'",
             bench_added[i][0], bench_added[i][1]);
    if ((rc = dcsim__db_prepare(db, path, sql, &st, bench_db_fail, err))) break;
    int have = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    if (have) continue;
    snprintf(sql, sizeof sql, "ALTER TABLE %s ADD COLUMN %s %s", bench_added[i][0],
             bench_added[i][1], bench_added[i][2]);
    rc = dcsim__db_exec(db, path, sql, err);
  }
  return rc;
}

/* the bench_runs row: the machine, the options and the held-out errors; *run_id its id */
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
  char stamp[32];
  dcsim__db_utc_now(stamp);
  int rc = dcsim__db_prepare(db, path,
                             "INSERT INTO bench_runs(created_utc, dcsim_version, host, cpu_model, "
                             "profile_name, out_dir, profile_path, isa,"
                             " threads, quick, reps, budget, clock_ghz, clock_note, l1d_byte, "
                             "l2_byte, l3_byte, energy_note, gpu_note,"
                             " heldout_mean_abs_err, heldout_max_abs_err, time_budget_s, elapsed_s,"
                             " reps_max, cache_source, thread_counts, loop_thread_counts, "
                             "warmup_note, flagged_points) "
                             "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                             &st, bench_db_fail, err);
  if (rc) return rc;
  sqlite3_bind_text(st, 1, stamp, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 2, dcsim_version(), -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 3, R->host, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 4, R->model, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 5, R->name, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 6, R->o->out_dir, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 7, profile_path, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 8, dcsim_bench_isa_name(R->isa), -1, SQLITE_STATIC);
  sqlite3_bind_int(st, 9, (int)R->nthreads);
  sqlite3_bind_int(st, 10, R->quick);
  sqlite3_bind_int(st, 11, (int)R->reps_min);
  sqlite3_bind_int(st, 12, (int)R->o->budget);
  sqlite3_bind_double(st, 13, R->ghz);
  sqlite3_bind_text(st, 14, R->freq_note, -1, SQLITE_STATIC);
  sqlite3_bind_double(st, 15, R->c.l1d_byte);
  sqlite3_bind_double(st, 16, R->c.l2_byte);
  sqlite3_bind_double(st, 17, R->c.l3_byte);
  sqlite3_bind_text(st, 18, R->energy_note, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 19, R->gpu_note, -1, SQLITE_STATIC);
  if (nho) {
    sqlite3_bind_double(st, 20, emean);
    sqlite3_bind_double(st, 21, emax);
  }
  char tcs[2][1024];
  const unsigned *lists[2] = { R->tc, R->tc_loops }, counts[2] = { R->ntc, R->ntc_loops };
  for (int l = 0; l < 2; l++) {
    size_t k = 0;
    tcs[l][0] = '\0';
    for (unsigned i = 0; i < counts[l] && k < sizeof tcs[l]; i++)
      k += (size_t)snprintf(tcs[l] + k, sizeof tcs[l] - k, "%s%u", i ? "," : "", lists[l][i]);
  }
  unsigned flagged = 0;
  for (size_t i = 0; i < R->np; i++) flagged += R->pts[i].flag[0] != '\0';
  sqlite3_bind_double(st, 22, R->budget_s);
  sqlite3_bind_double(st, 23, dcsim__bench_elapsed_s(R));
  sqlite3_bind_int(st, 24, (int)R->reps_max);
  sqlite3_bind_text(st, 25, R->c.source, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 26, tcs[0], -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 27, tcs[1], -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 28, R->warm_note, -1, SQLITE_STATIC);
  sqlite3_bind_int(st, 29, (int)flagged);
  rc = dcsim__db_step_done(db, path, st, bench_db_fail, err);
  sqlite3_finalize(st);
  if (!rc) *run_id = sqlite3_last_insert_rowid(db);
  return rc;
}

/* every measured point */
static int insert_points(sqlite3 *db, const bench_run *R, int64_t run_id, dcsim_error *err) {
  const char *path = R->o->db_path;
  sqlite3_stmt *st = NULL;
  int rc = dcsim__db_prepare(
      db, path,
      "INSERT INTO bench_points(run_id, phase, kernel, level, ws_byte, threads, "
      "reps, min, median, max, unit, clock_ghz, passes, traffic_byte, work_flop, "
      "disp, remeasured, flag, weight, redone, disturbed, cpu_share, clock_min_ghz, "
      "clock_max_ghz, steal, status) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
      &st, bench_db_fail, err);
  for (size_t i = 0; i < R->np && !rc; i++) {
    const bench_point *p = &R->pts[i];
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_text(st, 2, p->phase, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, p->kernel, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, p->level, -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 5, p->ws_byte);
    sqlite3_bind_int(st, 6, (int)p->threads);
    sqlite3_bind_int(st, 7, (int)p->reps);
    sqlite3_bind_double(st, 8, p->min);
    sqlite3_bind_double(st, 9, p->med);
    sqlite3_bind_double(st, 10, p->max);
    sqlite3_bind_text(st, 11, p->unit, -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 12, p->clock_ghz);
    sqlite3_bind_int64(st, 13, (sqlite3_int64)p->passes);
    sqlite3_bind_double(st, 14, p->traffic_byte);
    sqlite3_bind_double(st, 15, p->work_flop);
    sqlite3_bind_double(st, 16, p->disp);
    sqlite3_bind_int(st, 17, (int)p->remeasured);
    if (p->flag[0])
      sqlite3_bind_text(st, 18, p->flag, -1, SQLITE_STATIC);
    else
      sqlite3_bind_null(st, 18);
    if (strcmp(p->phase, "loop") == 0)
      sqlite3_bind_double(st, 19, p->weight);
    else
      sqlite3_bind_null(st, 19);
    sqlite3_bind_int(st, 20, (int)p->redone);
    sqlite3_bind_int(st, 21, (int)p->disturbed);
    sqlite3_bind_double(st, 22, p->cpu_share);
    sqlite3_bind_double(st, 23, p->clk_min);
    sqlite3_bind_double(st, 24, p->clk_max);
    sqlite3_bind_double(st, 25, p->steal);
    sqlite3_bind_text(st, 26,
                      p->rejected  ? "left-out"
                      : p->flag[0] ? "flagged"
                                   : "kept",
                      -1, SQLITE_STATIC);
    rc = dcsim__db_step_done(db, path, st, bench_db_fail, err);
  }
  sqlite3_finalize(st);
  return rc;
}

/* the loop coefficients (NULL where a loop has no flop term or a value is unknown) */
static int insert_fits(sqlite3 *db, const bench_run *R, const dcsim_loop_fit *fits, size_t nf,
                       int64_t run_id, dcsim_error *err) {
  const char *path = R->o->db_path;
  sqlite3_stmt *st = NULL;
  int rc = dcsim__db_prepare(db, path, "INSERT INTO bench_fits VALUES(?,?,?,?,?,?,?,?,?,?,?,?)",
                             &st, bench_db_fail, err);
  for (size_t i = 0; i < nf && !rc; i++) {
    const dcsim_loop_fit *f = &fits[i];
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_text(st, 2, f->name, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, (int)f->n_states);
    double v[9] = { f->V,
                    f->X,
                    f->Y,
                    f->Z,
                    f->U,
                    f->S_flops,
                    f->mop_stats.max_rel_err,
                    f->mop_stats.mean_rel_err,
                    f->mop_stats.loo_mean_rel_err };
    for (int k = 0; k < 9; k++) {
      if ((k == 4 || k == 5) && !f->has_flop)
        sqlite3_bind_null(st, 4 + k);
      else if (isnan(v[k]))
        sqlite3_bind_null(st, 4 + k);
      else
        sqlite3_bind_double(st, 4 + k, v[k]);
    }
    rc = dcsim__db_step_done(db, path, st, bench_db_fail, err);
  }
  sqlite3_finalize(st);
  return rc;
}

/* the held-out predictions */
static int insert_heldout(sqlite3 *db, const bench_run *R, const bench_heldout *ho, size_t nho,
                          int64_t run_id, dcsim_error *err) {
  const char *path = R->o->db_path;
  sqlite3_stmt *st = NULL;
  int rc = dcsim__db_prepare(db, path, "INSERT INTO bench_heldout VALUES(?,?,?,?,?,?,?)", &st,
                             bench_db_fail, err);
  for (size_t i = 0; i < nho && !rc; i++) {
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_text(st, 2, ho[i].loop, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, (int)ho[i].threads);
    sqlite3_bind_double(st, 4, ho[i].measured_s);
    sqlite3_bind_double(st, 5, ho[i].predicted_s);
    sqlite3_bind_double(st, 6, (ho[i].predicted_s - ho[i].measured_s) / ho[i].measured_s);
    sqlite3_bind_double(st, 7, ho[i].insample_s);
    rc = dcsim__db_step_done(db, path, st, bench_db_fail, err);
  }
  sqlite3_finalize(st);
  return rc;
}

/* the whole bench run into --db, in one transaction */
int dcsim__bench_write_db(bench_run *R, const char *profile_path, const bench_heldout *ho,
                          size_t nho, const dcsim_loop_fit *fits, size_t nf, int64_t *run_id,
                          dcsim_error *err) {
  const char *path = R->o->db_path;
  sqlite3 *db = NULL;
  int rc = dcsim__db_open(path, NULL, 0, &db, err);
  if (rc || (rc = dcsim__db_begin(db, path, err)) ||
      (rc = dcsim__db_exec(db, path, bench_schema_sql, err)) || (rc = add_columns(db, path, err)))
    goto out;
  if ((rc = insert_run(db, R, profile_path, ho, nho, run_id, err)) ||
      (rc = insert_points(db, R, *run_id, err)) ||
      (rc = insert_fits(db, R, fits, nf, *run_id, err)) ||
      (rc = insert_heldout(db, R, ho, nho, *run_id, err))) {
    dcsim__db_rollback(db);
    goto out;
  }
  if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
    rc = dcsim__db_fail(db, path, bench_db_fail, err);
    dcsim__db_rollback(db);
  }
out:
  sqlite3_close(db);
  return rc;
}
