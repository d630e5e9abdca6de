/* db.c — SQLite plumbing shared by dcsim's databases (see util/db.h). */
#include "util/db.h"

#include "util/dbschema.h"

#include "dcsim/strutil.h"

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

/* The directory of path ("." for a bare name), malloc'd (NULL when out of memory). */
static char *dir_of(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return dcsim_strdup(".");
  if (slash == path) return dcsim_strdup("/");
  return dcsim_strdup_printf("%.*s", (int)(slash - path), path);
}

int dcsim__db_read_only_location(const char *path) {
  if (access(path, F_OK) == 0 && access(path, W_OK) != 0) return 1;
  char *dir = dir_of(path);
  int ro = !dir || access(dir, W_OK) != 0; /* out of memory: not known to be writable */
  free(dir);
  return ro;
}

int dcsim__db_has_column(sqlite3 *db, const char *schema, const char *table, const char *column) {
  sqlite3_stmt *st = NULL;
  if (dcsim__db_try_prepare(db, "SELECT 1 FROM pragma_table_info(?1, ?3) WHERE name = ?2", &st))
    return 0;
  sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 2, column, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 3, schema ? schema : "main", -1, SQLITE_STATIC);
  int has = sqlite3_step(st) == SQLITE_ROW;
  sqlite3_finalize(st);
  return has;
}

/* 1 when table of db has column (0 also when it cannot be read: the caller refuses then). */
static int has_column(sqlite3 *db, const char *table, const char *column) {
  sqlite3_stmt *st = NULL;
  if (dcsim__db_try_prepare(db, "SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2", &st))
    return 0;
  sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 2, column, -1, SQLITE_STATIC);
  int has = sqlite3_step(st) == SQLITE_ROW;
  sqlite3_finalize(st);
  return has;
}

/* 1 when column of table is one a later version added (not required of an older database) */
static int added_column(const char *table, const char *column) {
  for (const dcsim__db_schema *const *s = dcsim__db_schemas; *s; s++)
    if (dcsim__db_schema_added(*s, table, column, NULL)) return 1;
  return 0;
}

/* An empty database holding every table and index of every dcsim schema: what a database is
 * compared with (util/dbschema.h). */
static int open_reference(sqlite3 **ref, const char *name, dcsim_error *err) {
  int rc = 0;
  if (sqlite3_open_v2(":memory:", ref, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) !=
      SQLITE_OK)
    return DCSIM_ERR(err, DCSIM_ENOMEM, name, 0, "out of memory");
  for (const dcsim__db_schema *const *s = dcsim__db_schemas; *s && !rc; s++)
    rc = dcsim__db_exec(*ref, name, (*s)->create_sql, err);
  return rc;
}

static const char not_ours[] =
    "another program's database, not dcsim's (give --db a new file or a dcsim results database)";

/* The columns of table: every column of dcsim's table but those added later, and none other. */
static int check_columns(sqlite3 *db, sqlite3 *ref, const char *name, const char *table,
                         dcsim_error *err) {
  sqlite3_stmt *st = NULL;
  int rc = 0, s;
  if (dcsim__db_try_prepare(ref, "SELECT name FROM pragma_table_info(?1)", &st))
    return dcsim__db_fail(ref, name, "cannot read the schema", err);
  sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
  while (!rc && sqlite3_step(st) == SQLITE_ROW) {
    const char *col = (const char *)sqlite3_column_text(st, 0);
    if (!added_column(table, col) && !has_column(db, table, col))
      rc = DCSIM_ERR(err, DCSIM_EDB, name, 0, "table '%s' has no column %s: %s", table, col,
                     not_ours);
  }
  sqlite3_finalize(st);
  if (rc) return rc;
  if (dcsim__db_try_prepare(db, "SELECT name FROM pragma_table_info(?1)", &st))
    return dcsim__db_fail(db, name, "cannot read the schema", err);
  sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
  while (!rc && (s = sqlite3_step(st)) == SQLITE_ROW) {
    const char *col = (const char *)sqlite3_column_text(st, 0);
    if (!added_column(table, col) && !has_column(ref, table, col))
      rc = DCSIM_ERR(err, DCSIM_EDB, name, 0,
                     "table '%s' has a column '%.100s' dcsim's has not: %s", table, col, not_ours);
  }
  if (!rc && s != SQLITE_DONE) rc = dcsim__db_fail(db, name, "cannot read the schema", err);
  sqlite3_finalize(st);
  return rc;
}

/* One object of the database's schema (type, name): a table of dcsim's with its columns, or one
 * of its indexes; never a view or a trigger (SQL that would run on dcsim's writes). */
static int check_object(sqlite3 *db, sqlite3 *ref, const char *name, const char *type,
                        const char *obj, dcsim_error *err) {
  sqlite3_stmt *st = NULL;
  int known = 0;
  if (dcsim__db_try_prepare(ref, "SELECT 1 FROM sqlite_schema WHERE type = ?1 AND name = ?2", &st))
    return dcsim__db_fail(ref, name, "cannot read the schema", err);
  sqlite3_bind_text(st, 1, type, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 2, obj, -1, SQLITE_STATIC);
  known = sqlite3_step(st) == SQLITE_ROW;
  sqlite3_finalize(st);
  if (known) return strcmp(type, "table") == 0 ? check_columns(db, ref, name, obj, err) : 0;
  if (strcmp(type, "table") == 0)
    return DCSIM_ERR(err, DCSIM_EDB, name, 0,
                     "table '%.100s' is not one of dcsim's: another program's database (give --db "
                     "a new file or a dcsim results database)",
                     obj);
  return DCSIM_ERR(err, DCSIM_EDB, name, 0, "%.20s '%.100s' is not one of dcsim's: %s", type, obj,
                   not_ours);
}

/* PRAGMA application_id, or -1 when it cannot be read */
static long long application_id(sqlite3 *db) {
  sqlite3_stmt *st = NULL;
  long long id = -1;
  if (dcsim__db_try_prepare(db, "PRAGMA application_id", &st) == 0 &&
      sqlite3_step(st) == SQLITE_ROW)
    id = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  return id;
}

int dcsim__db_check_owner(sqlite3 *db, const char *name, dcsim_error *err) {
  sqlite3_stmt *st = NULL;
  sqlite3 *ref = NULL;
  if (sqlite3_prepare_v2(db, "PRAGMA application_id", -1, &st, NULL) != SQLITE_OK)
    return dcsim__db_fail(db, name, "cannot read the database", err);
  int s = sqlite3_step(st);
  long long id = s == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
  sqlite3_finalize(st);
  if (s != SQLITE_ROW) return dcsim__db_fail(db, name, "cannot read the database", err);
  if (id != 0 && id != DCSIM_DB_APPLICATION_ID)
    return DCSIM_ERR(err, DCSIM_EDB, name, 0, "application_id 0x%08llx: %s",
                     (unsigned long long)(id & 0xffffffffll), not_ours);
  /* the id alone proves nothing (any program can set it): the tables must be dcsim's too */
  int rc = open_reference(&ref, name, err);
  if (rc) goto out;
  if (sqlite3_prepare_v2(db,
                         "SELECT type, name FROM sqlite_schema WHERE substr(name, 1, 7) <> "
                         "'sqlite_' ORDER BY type = 'table' DESC, name",
                         -1, &st, NULL) != SQLITE_OK) {
    rc = dcsim__db_fail(db, name, "cannot read the schema", err);
    goto out;
  }
  while (!rc && (s = sqlite3_step(st)) == SQLITE_ROW)
    rc = check_object(db, ref, name, (const char *)sqlite3_column_text(st, 0),
                      (const char *)sqlite3_column_text(st, 1), err);
  if (!rc && s != SQLITE_DONE) rc = dcsim__db_fail(db, name, "cannot read the schema", err);
out:
  sqlite3_finalize(st);
  sqlite3_close(ref);
  return rc;
}

/* A read-only connection to a database whose directory dcsim cannot write: immutable (SQLite
 * cannot make the -shm file), unless a -wal file holds changes the database lacks. */
static int open_immutable(const char *path, const char *name, sqlite3 **db, dcsim_error *err) {
  char *wal = dcsim_strdup_printf("%s-wal", path), *uri = dcsim__db_uri(path, "immutable=1");
  struct stat st;
  int rc = 0;
  if (!wal || !uri) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, name, 0, "out of memory");
    goto out;
  }
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

/* The journal in WAL mode (readers never wait for a writer), unless it is already. Changing the
 * mode needs every other connection gone; while others open the same new file it is retried, as
 * long as the busy timeout. */
static int use_wal(sqlite3 *db, const char *name, dcsim_error *err) {
  for (int tries = 0;; tries++) {
    sqlite3_stmt *st = NULL;
    if (dcsim__db_try_prepare(db, "PRAGMA journal_mode", &st))
      return dcsim__db_fail(db, name, "cannot read the database", err);
    int s = sqlite3_step(st);
    int wal =
        s == SQLITE_ROW && sqlite3_stricmp((const char *)sqlite3_column_text(st, 0), "wal") == 0;
    sqlite3_finalize(st);
    if (wal) return 0;
    if (s != SQLITE_ROW && s != SQLITE_BUSY && s != SQLITE_LOCKED)
      return dcsim__db_fail(db, name, "cannot read the database", err);
    int e = sqlite3_exec(db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
    if (e == SQLITE_OK) continue; /* read the mode back */
    if ((e != SQLITE_BUSY && e != SQLITE_LOCKED) || tries >= DCSIM_DB_BUSY_MS / 10)
      return dcsim__db_fail(db, name, "cannot switch the journal to WAL", err);
    sqlite3_sleep(10);
  }
}

int dcsim__db_migrate(sqlite3 *db, const char *name, const dcsim__db_schema *schema,
                      dcsim_error *err) {
  char *id_sql = NULL;
  int rc = dcsim__db_begin(db, name, err);
  if (rc) return rc;
  if ((rc = dcsim__db_check_owner(db, name, err)) ||
      (rc = dcsim__db_exec(db, name, schema->create_sql, err)))
    goto fail;
  /* the added columns in their lists' order: those of `fields` (the records' columns), then
   * those of `added` (a table's columns after its record's, as the runs table's build identity
   * and deadline) */
  for (size_t i = 0; i < schema->n_fields + schema->n_added && !rc; i++) {
    const char *table, *column, *type;
    if (i >= schema->n_fields) {
      const dcsim__db_column *c = &schema->added[i - schema->n_fields];
      table = c->table, column = c->column, type = c->type;
    } else {
      const dcsim__db_field *f = &schema->fields[i];
      if (!f->added[0]) continue; /* in the table's first version */
      table = f->table, column = f->column, type = f->type;
    }
    if (has_column(db, table, column)) continue;
    char *sql = sqlite3_mprintf("ALTER TABLE \"%w\" ADD COLUMN \"%w\" %s", table, column, type);
    rc = sql ? dcsim__db_exec(db, name, sql, err)
             : DCSIM_ERR(err, DCSIM_ENOMEM, name, 0, "out of memory");
    sqlite3_free(sql);
  }
  /* written only when it differs: a database that needs nothing stays unchanged */
  id_sql = sqlite3_mprintf("PRAGMA application_id = %d", DCSIM_DB_APPLICATION_ID);
  if (!rc && !id_sql) rc = DCSIM_ERR(err, DCSIM_ENOMEM, name, 0, "out of memory");
  if (rc ||
      (application_id(db) != DCSIM_DB_APPLICATION_ID &&
       (rc = dcsim__db_exec(db, name, id_sql, err))) ||
      (rc = dcsim__db_commit(db, name, err)))
    goto fail;
  sqlite3_free(id_sql);
  return use_wal(db, name, err);
fail:
  sqlite3_free(id_sql);
  dcsim__db_rollback(db);
  return rc;
}

/* The settings of every connection. Nothing is written here: an owned database is checked
 * (nothing written before the proof) and is changed only by dcsim__db_migrate; a database that is
 * not owned (a new temporary file) is switched to WAL at once. */
static int set_up(sqlite3 *db, const char *name, unsigned flags, dcsim_error *err) {
  int rc = 0;
  if ((flags & DCSIM_DB_OWNED) && (rc = dcsim__db_check_owner(db, name, err))) return rc;
  if ((flags & DCSIM_DB_WAL) &&
      (rc = dcsim__db_exec(db, name, "PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;", err)))
    return rc;
  if ((flags & DCSIM_DB_WAL) && !(flags & DCSIM_DB_OWNED)) rc = use_wal(db, name, err);
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
  sqlite3_busy_timeout(db, DCSIM_DB_BUSY_MS);
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
  unlink(path);
  for (int k = 0; k < 2; k++) { /* its -wal and -shm files */
    char *side = dcsim_strdup_printf("%s-%s", path, k ? "shm" : "wal");
    if (side) unlink(side);
    free(side);
  }
}

int dcsim__db_bind_utc_now(sqlite3 *db, const char *name, sqlite3_stmt *st, int col,
                           const char *what, dcsim_error *err) {
  enum { STAMP_SIZE = 32 }; /* "YYYY-MM-DDTHH:MM:SSZ" is 20 bytes up to the year 9999 */
  char *stamp = malloc(STAMP_SIZE);
  time_t now = time(NULL);
  struct tm tmv;
  if (!stamp) return DCSIM_ERR(err, DCSIM_ENOMEM, name, 0, "%s: out of memory", what);
  if (!gmtime_r(&now, &tmv) || strftime(stamp, STAMP_SIZE, "%Y-%m-%dT%H:%M:%SZ", &tmv) == 0) {
    free(stamp);
    return DCSIM_ERR(err, DCSIM_EIO, name, 0, "%s: cannot read the UTC clock", what);
  }
  /* SQLite frees the stamp with free(), also when binding fails */
  if (sqlite3_bind_text(st, col, stamp, -1, free) != SQLITE_OK)
    return dcsim__db_fail(db, name, what, err);
  return 0;
}
