/* sweepdb.c — resumable sweeps in SQLite (see dcsim/sweepdb.h, doc/sweep.md). */
#include "dcsim/sweepdb.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

static const char *const schema_sql =
    "CREATE TABLE IF NOT EXISTS sweeps(id INTEGER PRIMARY KEY, def_sha256 TEXT NOT NULL UNIQUE,"
    " created_utc TEXT, input TEXT, definition TEXT NOT NULL, n_points INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS sweep_points(sweep_id INTEGER NOT NULL REFERENCES sweeps(id),"
    " idx INTEGER NOT NULL, cpu TEXT, gpu TEXT, nodes INTEGER, cores INTEGER, freq TEXT,"
    " feasible INTEGER NOT NULL, reason TEXT, time_s REAL, energy_j REAL, PRIMARY KEY(sweep_id, idx));";

struct dcsim_sweepdb {
  sqlite3 *db;
  char *path;
  int64_t sweep_id;
  sqlite3_stmt *ins;
};

static int db_err(sqlite3 *db, const char *path, dcsim_error *err, const char *what) {
  return DCSIM_ERR(err, DCSIM_EDB, path, 0, "%s: %s", what, sqlite3_errmsg(db));
}

static int exec(sqlite3 *db, const char *path, const char *sql, dcsim_error *err) {
  char *msg = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
    int rc = DCSIM_ERR(err, DCSIM_EDB, path, 0, "%s", msg ? msg : "SQLite error");
    sqlite3_free(msg);
    return rc;
  }
  return 0;
}

void dcsim_sweepdb_close(dcsim_sweepdb_t *d) {
  if (!d) return;
  sqlite3_finalize(d->ins);
  sqlite3_close(d->db);
  free(d->path);
  free(d);
}

int dcsim_sweepdb_open(const char *path, dcsim_sweepdb_t **out, dcsim_error *err) {
  *out = NULL;
  dcsim_sweepdb_t *d = calloc(1, sizeof *d);
  if (!d || !(d->path = strdup(path))) { free(d); return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory"); }
  int rc = 0;
  if (sqlite3_open_v2(path, &d->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
    rc = DCSIM_ERR(err, DCSIM_EDB, path, 0, "cannot open the results database: %s", d->db ? sqlite3_errmsg(d->db) : "out of memory");
    goto out;
  }
  sqlite3_busy_timeout(d->db, 10000);
  if ((rc = exec(d->db, path, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;", err)) ||
      (rc = exec(d->db, path, schema_sql, err)))
    goto out;
  if (sqlite3_prepare_v2(d->db, "INSERT OR IGNORE INTO sweep_points VALUES(?,?,?,?,?,?,?,?,?,?,?)", -1, &d->ins, NULL) != SQLITE_OK) {
    rc = db_err(d->db, path, err, "cannot prepare statements");
    goto out;
  }
  *out = d;
  d = NULL;
out:
  dcsim_sweepdb_close(d);
  return rc;
}

int dcsim_sweepdb_attach(dcsim_sweepdb_t *d, dcsim_sweep_t *sw, const char *input, int64_t *sweep_id,
                         size_t *restored, dcsim_error *err) {
  sqlite3_stmt *st = NULL;
  int rc = 0;
  size_t n_rest = 0;
  const char *hash = dcsim_sweep_hash(sw);
  /* create the sweep unless it exists (a concurrent creator is harmless: UNIQUE + OR IGNORE) */
  char stamp[32];
  time_t now = time(NULL);
  struct tm tmv;
  strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tmv));
  if (sqlite3_prepare_v2(d->db, "INSERT OR IGNORE INTO sweeps(def_sha256, created_utc, input, definition, n_points) VALUES(?,?,?,?,?)", -1, &st, NULL) != SQLITE_OK)
    return db_err(d->db, d->path, err, "cannot record the sweep");
  sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 2, stamp, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 3, input, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 4, dcsim_sweep_definition(sw), -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 5, (sqlite3_int64)dcsim_sweep_n_points(sw));
  rc = sqlite3_step(st) == SQLITE_DONE ? 0 : db_err(d->db, d->path, err, "cannot record the sweep");
  sqlite3_finalize(st);
  st = NULL;
  if (rc) return rc;
  if (sqlite3_prepare_v2(d->db, "SELECT id, n_points FROM sweeps WHERE def_sha256 = ?", -1, &st, NULL) != SQLITE_OK)
    return db_err(d->db, d->path, err, "cannot find the sweep");
  sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
  if (sqlite3_step(st) != SQLITE_ROW) { rc = db_err(d->db, d->path, err, "cannot find the sweep"); goto out; }
  d->sweep_id = sqlite3_column_int64(st, 0);
  if ((size_t)sqlite3_column_int64(st, 1) != dcsim_sweep_n_points(sw)) {
    rc = DCSIM_ERR(err, DCSIM_EDB, d->path, 0, "sweep %lld: stored with %lld points, this one has %zu (same hash?)",
                   (long long)d->sweep_id, (long long)sqlite3_column_int64(st, 1), dcsim_sweep_n_points(sw));
    goto out;
  }
  sqlite3_finalize(st);
  st = NULL;
  if (sqlite3_prepare_v2(d->db, "SELECT idx, feasible, time_s, energy_j, reason FROM sweep_points WHERE sweep_id = ? ORDER BY idx", -1, &st, NULL) != SQLITE_OK)
    return db_err(d->db, d->path, err, "cannot read the sweep's points");
  sqlite3_bind_int64(st, 1, d->sweep_id);
  int s;
  while ((s = sqlite3_step(st)) == SQLITE_ROW) {
    sqlite3_int64 idx = sqlite3_column_int64(st, 0);
    int feasible = sqlite3_column_int(st, 1);
    if (idx < 0 || (size_t)idx >= dcsim_sweep_n_points(sw)) {
      rc = DCSIM_ERR(err, DCSIM_EDB, d->path, 0, "sweep %lld: stored point %lld out of range", (long long)d->sweep_id, (long long)idx);
      goto out;
    }
    if ((rc = dcsim_sweep_restore(sw, (size_t)idx, feasible, sqlite3_column_double(st, 2), sqlite3_column_double(st, 3),
                                  (const char *)sqlite3_column_text(st, 4), err)))
      goto out;
    n_rest++;
  }
  if (s != SQLITE_DONE) { rc = db_err(d->db, d->path, err, "cannot read the sweep's points"); goto out; }
  if (sweep_id) *sweep_id = d->sweep_id;
  if (restored) *restored = n_rest;
out:
  sqlite3_finalize(st);
  return rc;
}

int dcsim_sweepdb_store(dcsim_sweepdb_t *d, const dcsim_sweep_point *pts, const size_t *idx, size_t n,
                        dcsim_error *err) {
  int rc = exec(d->db, d->path, "BEGIN IMMEDIATE", err);
  if (rc) return rc;
  sqlite3_stmt *st = d->ins;
  for (size_t k = 0; k < n && !rc; k++) {
    const dcsim_sweep_point *p = &pts[idx[k]];
    if (!p->done) continue;
    sqlite3_bind_int64(st, 1, d->sweep_id);
    sqlite3_bind_int64(st, 2, p->index);
    sqlite3_bind_text(st, 3, p->cpu, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, p->gpu, -1, SQLITE_STATIC);
    if (p->nodes) sqlite3_bind_int64(st, 5, p->nodes); else sqlite3_bind_null(st, 5);
    if (p->cores) sqlite3_bind_int64(st, 6, p->cores); else sqlite3_bind_null(st, 6);
    sqlite3_bind_text(st, 7, p->freq, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 8, p->feasible);
    if (p->feasible) {
      sqlite3_bind_null(st, 9);
      sqlite3_bind_double(st, 10, p->time_s);
      sqlite3_bind_double(st, 11, p->energy_j);
    } else {
      sqlite3_bind_text(st, 9, p->reason ? p->reason : "", -1, SQLITE_STATIC);
      sqlite3_bind_null(st, 10);
      sqlite3_bind_null(st, 11);
    }
    rc = sqlite3_step(st) == SQLITE_DONE ? 0 : db_err(d->db, d->path, err, "cannot store a sweep point");
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
  }
  if (rc) {
    sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
  }
  return exec(d->db, d->path, "COMMIT", err);
}

int dcsim_sweepdb_read(const char *path, int64_t sweep_id, dcsim_sweep_point **out, size_t *n_out, size_t *n_total,
                       dcsim_error *err) {
  *out = NULL;
  *n_out = 0;
  if (n_total) *n_total = 0;
  sqlite3 *db = NULL;
  sqlite3_stmt *st = NULL;
  dcsim_sweep_point *pts = NULL;
  size_t n = 0;
  int rc = 0;
  if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
    rc = DCSIM_ERR(err, DCSIM_EDB, path, 0, "cannot open the results database: %s", db ? sqlite3_errmsg(db) : "out of memory");
    goto out;
  }
  if (sqlite3_prepare_v2(db, "SELECT id, n_points FROM sweeps WHERE id = ?1 OR (?1 = 0 AND id = (SELECT max(id) FROM sweeps))", -1, &st, NULL) != SQLITE_OK) {
    rc = DCSIM_ERR(err, DCSIM_EDB, path, 0, "no sweep in this database (%s)", sqlite3_errmsg(db));
    goto out;
  }
  sqlite3_bind_int64(st, 1, sweep_id);
  if (sqlite3_step(st) != SQLITE_ROW) {
    rc = sweep_id ? DCSIM_ERR(err, DCSIM_EREF, path, 0, "no sweep %lld in this database", (long long)sweep_id)
                  : DCSIM_ERR(err, DCSIM_EREF, path, 0, "no sweep in this database");
    goto out;
  }
  sweep_id = sqlite3_column_int64(st, 0);
  sqlite3_int64 np = sqlite3_column_int64(st, 1);
  sqlite3_finalize(st);
  st = NULL;
  if (np < 0 || np > DCSIM_SWEEP_MAX_POINTS) { rc = DCSIM_ERR(err, DCSIM_EDB, path, 0, "sweep %lld: bad point count", (long long)sweep_id); goto out; }
  pts = calloc(np ? (size_t)np : 1, sizeof *pts);
  if (!pts) { rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory"); goto out; }
  if (sqlite3_prepare_v2(db, "SELECT idx, cpu, gpu, nodes, cores, freq, feasible, reason, time_s, energy_j FROM sweep_points WHERE sweep_id = ? ORDER BY idx", -1, &st, NULL) != SQLITE_OK) {
    rc = db_err(db, path, err, "cannot read the sweep's points");
    goto out;
  }
  sqlite3_bind_int64(st, 1, sweep_id);
  int s;
  while ((s = sqlite3_step(st)) == SQLITE_ROW) {
    sqlite3_int64 idx = sqlite3_column_int64(st, 0);
    if (idx < 0 || idx >= np || (size_t)idx < n) { rc = DCSIM_ERR(err, DCSIM_EDB, path, 0, "sweep %lld: bad point index %lld", (long long)sweep_id, (long long)idx); goto out; }
    dcsim_sweep_point *p = &pts[n++];
    p->index = (uint32_t)idx;
    const unsigned char *c;
    if ((c = sqlite3_column_text(st, 1))) snprintf(p->cpu, sizeof p->cpu, "%s", (const char *)c);
    if ((c = sqlite3_column_text(st, 2))) snprintf(p->gpu, sizeof p->gpu, "%s", (const char *)c);
    p->nodes = (unsigned)sqlite3_column_int64(st, 3);
    p->cores = (unsigned)sqlite3_column_int64(st, 4);
    if ((c = sqlite3_column_text(st, 5))) snprintf(p->freq, sizeof p->freq, "%s", (const char *)c);
    p->done = 1;
    p->feasible = sqlite3_column_int(st, 6) != 0;
    if (!p->feasible) {
      const char *r = (const char *)sqlite3_column_text(st, 7);
      if (!(p->reason = strdup(r ? r : "infeasible"))) { rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory"); goto out; }
      p->time_s = p->energy_j = NAN;
    } else {
      p->time_s = sqlite3_column_double(st, 8);
      p->energy_j = sqlite3_column_double(st, 9);
    }
  }
  if (s != SQLITE_DONE) { rc = db_err(db, path, err, "cannot read the sweep's points"); goto out; }
  if (n_total) *n_total = (size_t)np;
  *out = pts;
  *n_out = n;
  pts = NULL;
out:
  dcsim_sweep_points_free(pts, n);
  sqlite3_finalize(st);
  sqlite3_close(db);
  return rc;
}
