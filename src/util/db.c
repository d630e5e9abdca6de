/* db.c — SQLite plumbing shared by dcsim's databases (see util/db.h). */
#include "util/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int dcsim__db_fail(sqlite3 *db, const char *name, const char *what, dcsim_error *err) {
  return DCSIM_ERR(err, DCSIM_EDB, name, 0, "%s: %s", what, sqlite3_errmsg(db));
}

int dcsim__db_exec(sqlite3 *db, const char *name, const char *sql, dcsim_error *err) {
  char *msg = NULL;
  if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK) return 0;
  int rc = DCSIM_ERR(err, DCSIM_EDB, name, 0, "%s", msg ? msg : "SQLite error");
  sqlite3_free(msg);
  return rc;
}

int dcsim__db_begin(sqlite3 *db, const char *name, dcsim_error *err) {
  return dcsim__db_exec(db, name, "BEGIN IMMEDIATE", err);
}

int dcsim__db_commit(sqlite3 *db, const char *name, dcsim_error *err) {
  return dcsim__db_exec(db, name, "COMMIT", err);
}

void dcsim__db_rollback(sqlite3 *db) { sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL); }

int dcsim__db_open(const char *path, const char *name, unsigned flags, sqlite3 **out,
                   dcsim_error *err) {
  sqlite3 *db = NULL;
  int rc = 0;
  int mode =
      flags & DCSIM_DB_READONLY ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  if (flags & DCSIM_DB_URI) mode |= SQLITE_OPEN_URI;
  *out = NULL;
  if (!name) name = path;
  if (sqlite3_open_v2(path, &db, mode | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
    rc = DCSIM_ERR(
        err, DCSIM_EDB, name, 0, "%s: %s",
        flags & DCSIM_DB_NEW ? "cannot create the database" : "cannot open the results database",
        db ? sqlite3_errmsg(db) : "out of memory");
    goto out;
  }
  sqlite3_busy_timeout(db, 10000);
  if ((flags & DCSIM_DB_WAL) &&
      (rc = dcsim__db_exec(
           db, name, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
           err)))
    goto out;
  *out = db;
  db = NULL;
out:
  sqlite3_close(db);
  return rc;
}

int dcsim__db_prepare(sqlite3 *db, const char *name, const char *sql, sqlite3_stmt **st,
                      const char *what, dcsim_error *err) {
  if (sqlite3_prepare_v2(db, sql, -1, st, NULL) == SQLITE_OK) return 0;
  return dcsim__db_fail(db, name, what, err);
}

int dcsim__db_step_done(sqlite3 *db, const char *name, sqlite3_stmt *st, const char *what,
                        dcsim_error *err) {
  int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : dcsim__db_fail(db, name, what, err);
  sqlite3_reset(st);
  return rc;
}

void dcsim__db_remove(const char *path) {
  size_t size = strlen(path) + 5;
  char *side = malloc(size);
  unlink(path);
  if (!side) return;
  snprintf(side, size, "%s-wal", path);
  unlink(side);
  snprintf(side, size, "%s-shm", path);
  unlink(side);
  free(side);
}

void dcsim__db_utc_now(char stamp[32]) {
  time_t now = time(NULL);
  struct tm tmv;
  strftime(stamp, 32, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tmv));
}
