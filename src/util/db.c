/* db.c — SQLite plumbing shared by dcsim's databases (see util/db.h). */
#include "util/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

char *dcsim__db_uri(const char *path, const char *query) {
  size_t n = strlen(path), q = query ? strlen(query) + 1 : 0;
  char *u = malloc(3 * n + q + 16), *w = u;
  if (!u) return NULL;
  w += sprintf(w, "file:");
  for (const char *p = path; *p; p++) {
    if (*p == '%' || *p == '?' || *p == '#')
      w += sprintf(w, "%%%02X", (unsigned char)*p);
    else
      *w++ = *p;
  }
  if (query) w += sprintf(w, "?%s", query);
  *w = '\0';
  return u;
}

/* The directory of path ("." for a bare name), written into buf. */
static void dir_of(const char *path, char *buf, size_t size) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    snprintf(buf, size, ".");
  else if (slash == path)
    snprintf(buf, size, "/");
  else
    snprintf(buf, size, "%.*s", (int)(slash - path), path);
}

int dcsim__db_read_only_location(const char *path) {
  char dir[4096];
  dir_of(path, dir, sizeof dir);
  if (access(path, F_OK) == 0 && access(path, W_OK) != 0) return 1;
  return access(dir, W_OK) != 0;
}

/* The tables dcsim writes (src/output/results.c, src/sweep/sweepdb.c), each with a column only
 * dcsim's version of it has. */
static const char *const dcsim_tables[][2] = {
  { "runs", "time_to_solution_s" }, { "inputs", "sha256" },     { "workflows", "held_idle_j" },
  { "tasks", "start_ns" },          { "nodes", "busy_s" },      { "power", "power_w" },
  { "utilisation", "allocated" },   { "sweeps", "def_sha256" }, { "sweep_points", "feasible" }
};

static int known_table(sqlite3 *db, const char *name, const char *table, dcsim_error *err) {
  for (size_t i = 0; i < sizeof dcsim_tables / sizeof *dcsim_tables; i++) {
    if (strcmp(dcsim_tables[i][0], table) != 0) continue;
    sqlite3_stmt *st = NULL;
    int has = 0;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2", -1, &st,
                           NULL) != SQLITE_OK)
      return dcsim__db_fail(db, name, "cannot read the schema", err);
    sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, dcsim_tables[i][1], -1, SQLITE_STATIC);
    has = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    if (has) return 0;
    return DCSIM_ERR(err, DCSIM_EDB, name, 0,
                     "table '%s' has no column %s: another program's database, not dcsim's (give "
                     "--db a new file or a dcsim results database)",
                     table, dcsim_tables[i][1]);
  }
  return DCSIM_ERR(err, DCSIM_EDB, name, 0,
                   "table '%.100s' is not one of dcsim's: another program's database (give --db a "
                   "new file or a dcsim results database)",
                   table);
}

int dcsim__db_check_owner(sqlite3 *db, const char *name, dcsim_error *err) {
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(db, "PRAGMA application_id", -1, &st, NULL) != SQLITE_OK)
    return dcsim__db_fail(db, name, "cannot read the database", err);
  int s = sqlite3_step(st);
  long long id = s == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
  sqlite3_finalize(st);
  if (s != SQLITE_ROW) return dcsim__db_fail(db, name, "cannot read the database", err);
  if (id == DCSIM_DB_APPLICATION_ID) return 0;
  if (id != 0)
    return DCSIM_ERR(err, DCSIM_EDB, name, 0,
                     "application_id 0x%08llx: another program's database, not dcsim's (give --db "
                     "a new file or a dcsim results database)",
                     (unsigned long long)(id & 0xffffffffll));
  if (sqlite3_prepare_v2(db,
                         "SELECT name FROM sqlite_schema WHERE type = 'table' AND "
                         "substr(name, 1, 7) <> 'sqlite_' ORDER BY name",
                         -1, &st, NULL) != SQLITE_OK)
    return dcsim__db_fail(db, name, "cannot read the schema", err);
  int rc = 0;
  while (!rc && (s = sqlite3_step(st)) == SQLITE_ROW)
    rc = known_table(db, name, (const char *)sqlite3_column_text(st, 0), err);
  if (!rc && s != SQLITE_DONE) rc = dcsim__db_fail(db, name, "cannot read the schema", err);
  sqlite3_finalize(st);
  return rc;
}

/* A read-only connection to a database whose directory dcsim cannot write: immutable (SQLite
 * cannot make the -shm file), unless a -wal file holds changes the database lacks. */
static int open_immutable(const char *path, const char *name, sqlite3 **db, dcsim_error *err) {
  size_t size = strlen(path) + 5;
  char *wal = malloc(size), *uri = dcsim__db_uri(path, "immutable=1");
  struct stat st;
  int rc = 0;
  if (!wal || !uri) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, name, 0, "out of memory");
    goto out;
  }
  snprintf(wal, size, "%s-wal", path);
  if (stat(wal, &st) == 0 && st.st_size > 0) {
    rc = DCSIM_ERR(err, DCSIM_EDB, name, 0,
                   "cannot open the results database: its directory is read-only and %s holds "
                   "changes not yet in it (open it once where it can be written)",
                   wal);
    goto out;
  }
  if (sqlite3_open_v2(uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
                      NULL) != SQLITE_OK)
    rc = DCSIM_ERR(err, DCSIM_EDB, name, 0, "cannot open the results database: %s",
                   *db ? sqlite3_errmsg(*db) : "out of memory");
out:
  free(wal);
  free(uri);
  return rc;
}

/* The settings every writer uses, after the owner check (nothing is written before it). */
static int set_up(sqlite3 *db, const char *name, unsigned flags, dcsim_error *err) {
  int rc = 0;
  if ((flags & DCSIM_DB_OWNED) && (rc = dcsim__db_check_owner(db, name, err))) return rc;
  if ((flags & DCSIM_DB_WAL) &&
      (rc = dcsim__db_exec(
           db, name, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
           err)))
    return rc;
  if ((flags & DCSIM_DB_OWNED) && !(flags & DCSIM_DB_READONLY)) {
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA application_id = %d", DCSIM_DB_APPLICATION_ID);
    rc = dcsim__db_exec(db, name, sql, err);
  }
  return rc;
}

int dcsim__db_open(const char *path, const char *name, unsigned flags, sqlite3 **out,
                   dcsim_error *err) {
  sqlite3 *db = NULL;
  int rc = 0;
  int mode =
      flags & DCSIM_DB_READONLY ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  if (flags & DCSIM_DB_URI) mode |= SQLITE_OPEN_URI;
  *out = NULL;
  if (!name) name = path;
  if ((flags & DCSIM_DB_READONLY) && !(flags & DCSIM_DB_URI) &&
      dcsim__db_read_only_location(path)) {
    if ((rc = open_immutable(path, name, &db, err))) goto out;
  } else if (sqlite3_open_v2(path, &db, mode | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
    rc = DCSIM_ERR(
        err, DCSIM_EDB, name, 0, "%s: %s",
        flags & DCSIM_DB_NEW ? "cannot create the database" : "cannot open the results database",
        db ? sqlite3_errmsg(db) : "out of memory");
    goto out;
  }
  sqlite3_busy_timeout(db, 10000);
  if ((rc = set_up(db, name, flags, err))) goto out;
  *out = db;
  db = NULL;
out:
  sqlite3_close(db);
  return rc;
}

int dcsim__db_try_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **st) {
  return sqlite3_prepare_v2(db, sql, -1, st, NULL) == SQLITE_OK ? 0 : -1;
}

int dcsim__db_prepare(sqlite3 *db, const char *name, const char *sql, sqlite3_stmt **st,
                      const char *what, dcsim_error *err) {
  if (dcsim__db_try_prepare(db, sql, st) == 0) return 0;
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
