/* test_db.c — the SQLite plumbing shared by the databases (util/db.h). */
#include "util/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dcsim/lib.h"

#include "check.h"

static long long count_rows(sqlite3 *db) {
  sqlite3_stmt *st = NULL;
  long long n = -1;
  if (sqlite3_prepare_v2(db, "SELECT count(*) FROM t", -1, &st, NULL) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW)
    n = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  return n;
}

static void test_roundtrip(const char *path) {
  dcsim_error err;
  memset(&err, 0, sizeof err);
  sqlite3 *db = NULL;
  dcsim__db_remove(path);
  CHECK_INT(dcsim__db_open(path, NULL, DCSIM_DB_WAL, &db, &err), 0);
  CHECK(db != NULL);
  CHECK_INT(dcsim__db_exec(db, path, "CREATE TABLE t(x REAL NOT NULL)", &err), 0);

  /* a committed transaction stays, a rolled back one does not */
  sqlite3_stmt *st = NULL;
  CHECK_INT(dcsim__db_begin(db, path, &err), 0);
  CHECK_INT(dcsim__db_prepare(db, path, "INSERT INTO t VALUES(?)", &st, "cannot insert", &err), 0);
  for (int i = 0; i < 3; i++) {
    sqlite3_bind_double(st, 1, 2.385 * i);
    CHECK_INT(dcsim__db_step_done(db, path, st, "cannot insert", &err), 0); /* reset: reusable */
  }
  CHECK_INT(dcsim__db_commit(db, path, &err), 0);
  CHECK_INT(count_rows(db), 3);
  CHECK_INT(dcsim__db_begin(db, path, &err), 0);
  sqlite3_bind_double(st, 1, 7.31);
  CHECK_INT(dcsim__db_step_done(db, path, st, "cannot insert", &err), 0);
  dcsim__db_rollback(db);
  CHECK_INT(count_rows(db), 3);

  /* failures name the database and say what failed, with SQLite's words */
  sqlite3_bind_null(st, 1);
  CHECK_INT(dcsim__db_step_done(db, path, st, "cannot insert", &err), DCSIM_EDB);
  CHECK_STR(err.file, path);
  CHECK_STR(err.msg, "cannot insert: NOT NULL constraint failed: t.x");
  sqlite3_finalize(st);
  st = (sqlite3_stmt *)&err; /* must become NULL */
  CHECK_INT(dcsim__db_prepare(db, "shown.db", "SELECT nope FROM t", &st, "cannot read", &err),
            DCSIM_EDB);
  CHECK(st == NULL);
  CHECK_STR(err.file, "shown.db");
  CHECK_STR(err.msg, "cannot read: no such column: nope");
  CHECK_INT(dcsim__db_exec(db, path, "DROP TABLE missing", &err), DCSIM_EDB);
  CHECK_STR(err.msg, "no such table: missing");
  CHECK_INT(dcsim__db_commit(db, path, &err), DCSIM_EDB); /* no transaction */
  CHECK_STR(err.msg, "cannot commit - no transaction is active");

  /* WAL as asked */
  CHECK_INT(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL), SQLITE_OK);
  CHECK_INT(sqlite3_step(st), SQLITE_ROW);
  CHECK_STR((const char *)sqlite3_column_text(st, 0), "wal");
  sqlite3_finalize(st);
  sqlite3_close(db);

  /* read-only: reads, refuses writes */
  CHECK_INT(dcsim__db_open(path, NULL, DCSIM_DB_READONLY, &db, &err), 0);
  CHECK_INT(count_rows(db), 3);
  CHECK_INT(dcsim__db_exec(db, path, "INSERT INTO t VALUES(1)", &err), DCSIM_EDB);
  CHECK_STR(err.msg, "attempt to write a readonly database");
  sqlite3_close(db);

  /* the database goes with its side files */
  char wal[700], shm[700];
  snprintf(wal, sizeof wal, "%s-wal", path);
  snprintf(shm, sizeof shm, "%s-shm", path);
  for (int k = 0; k < 2; k++) {
    FILE *f = fopen(k ? shm : wal, "w");
    if (f) fclose(f);
  }
  dcsim__db_remove(path);
  CHECK(access(path, F_OK) != 0 && access(wal, F_OK) != 0 && access(shm, F_OK) != 0);
  dcsim__db_remove(path); /* nothing left: no error */
}

static void test_open_errors(const char *dir) {
  dcsim_error err;
  memset(&err, 0, sizeof err);
  char path[600];
  sqlite3 *db = (sqlite3 *)&err;
  snprintf(path, sizeof path, "%s/no-such-dir/x.db", dir);
  CHECK_INT(dcsim__db_open(path, NULL, 0, &db, &err), DCSIM_EDB);
  CHECK(db == NULL);
  CHECK_STR(err.file, path);
  CHECK_STR(err.msg, "cannot open the results database: unable to open database file");
  CHECK_INT(dcsim__db_open(path, "out.db", DCSIM_DB_NEW, &db, &err), DCSIM_EDB);
  CHECK_STR(err.file, "out.db");
  CHECK_STR(err.msg, "cannot create the database: unable to open database file");
  CHECK_INT(dcsim__db_open(path, NULL, DCSIM_DB_READONLY, &db, &err), DCSIM_EDB);
}

/* the created_utc stamp, bound to a statement: "2024-05-01T12:00:00Z" */
static void test_stamp(void) {
  sqlite3 *db = NULL;
  sqlite3_stmt *st = NULL;
  dcsim_error err = { 0 };
  CHECK_INT(sqlite3_open(":memory:", &db), SQLITE_OK);
  CHECK_INT(dcsim__db_prepare(db, "mem", "SELECT ?", &st, "stamp", &err), 0);
  CHECK_INT(dcsim__db_bind_utc_now(db, "mem", st, 1, "stamp", &err), 0);
  CHECK_INT(sqlite3_step(st), SQLITE_ROW);
  const char *stamp = (const char *)sqlite3_column_text(st, 0);
  CHECK(stamp != NULL);
  if (stamp) {
    CHECK_INT(strlen(stamp), 20);
    CHECK(stamp[4] == '-' && stamp[7] == '-' && stamp[10] == 'T' && stamp[13] == ':' &&
          stamp[16] == ':' && stamp[19] == 'Z');
  }
  /* a parameter the statement does not have fails, naming what was being done */
  sqlite3_reset(st);
  CHECK_INT(dcsim__db_bind_utc_now(db, "mem", st, 2, "stamp", &err), DCSIM_EDB);
  CHECK_STR(err.file, "mem");
  CHECK_STR(err.msg, "stamp: column index out of range");
  sqlite3_finalize(st);
  sqlite3_close(db);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  char dir[512], path[600];
  snprintf(dir, sizeof dir, "%s/dcsim-test-db-XXXXXX", tmp);
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  snprintf(path, sizeof path, "%s/t.db", dir);
  test_roundtrip(path);
  test_open_errors(dir);
  test_stamp();
  rmdir(dir);
  CHECK_DONE();
}
