/* util/db.h — the SQLite plumbing shared by dcsim's databases (run results, sweeps and their
 * merge, bench runs): opening with the common settings, running SQL, transactions, statements and
 * the error messages that go with them.
 *
 * Ownership: dcsim__db_open() returns a connection the caller closes with sqlite3_close()
 * (NULL-safe); a statement from dcsim__db_prepare() is the caller's to sqlite3_finalize(). `name`
 * is the file an error names (the database's path, or the file a temporary database becomes).
 * Failures are DCSIM_EDB. */
#ifndef DCSIM_DB_H
#define DCSIM_DB_H

#include <sqlite3.h>

#include "dcsim/error.h"
#include "util/dbschema.h"

enum {
  DCSIM_DB_READONLY = 1, /* else read-write, created when missing */
  DCSIM_DB_WAL = 2,      /* journal_mode=WAL, synchronous=NORMAL, foreign_keys=ON */
  DCSIM_DB_URI = 4,      /* "file:" URIs are understood (ATTACH of escaped paths) */
  DCSIM_DB_NEW = 8,      /* the file was just made for it: a failure "cannot create" it */
  DCSIM_DB_OWNED = 16    /* refuse a database that is not dcsim's (dcsim__db_check_owner) before
                          * anything is written to it; nothing is written by the open (WAL and
                          * the application id come with dcsim__db_migrate) */
};

/* How long a connection waits for another's lock (sqlite3_busy_timeout): a run holds its write
 * transaction while it simulates, so concurrent `run --db` into one file wait for each other. */
#define DCSIM_DB_BUSY_MS 60000

/* dcsim's databases carry this PRAGMA application_id ("dcsm"), set when dcsim first writes one. */
#define DCSIM_DB_APPLICATION_ID 0x6463736d

/* Opens path (one thread per connection, DCSIM_DB_BUSY_MS busy timeout) with the DCSIM_DB_* flags.
 * Errors: "NAME: cannot open the results database: WHY" (DCSIM_DB_NEW: "cannot create the
 * database"). A read-only open of a file whose directory dcsim cannot write (a read-only file
 * system, another user's results) reads it as immutable, since SQLite could not create the -shm
 * file a WAL database needs: refused when a -wal file holds changes not yet in the database. */
int dcsim__db_open(const char *path, const char *name, unsigned flags, sqlite3 **out,
                   dcsim_error *err);

/* Gives db (opened with DCSIM_DB_OWNED, writable) schema's tables and columns, in one
 * BEGIN IMMEDIATE transaction (waiting up to DCSIM_DB_BUSY_MS for other writers): the owner check
 * again under the lock (another process may have changed the file since the open), the tables
 * and indexes that are missing, the columns an older database lacks, the application id; then the
 * journal in WAL mode. Any number of processes may do this at once on one new file. */
int dcsim__db_migrate(sqlite3 *db, const char *name, const dcsim__db_schema *schema,
                      dcsim_error *err);

/* 0 when db (named name) is dcsim's: its application_id is DCSIM_DB_APPLICATION_ID, or it is 0
 * (a new file, or one written before the id existed), and, whatever its id, every table in it is
 * one of dcsim's (util/dbschema.h) with every column but those added later and no other column,
 * and every other object is one of dcsim's indexes (no view, no trigger). Else DCSIM_EDB naming the
 * table or the id: "table 'orders' is not one of dcsim's: another program's database (give --db a
 * new file)". */
int dcsim__db_check_owner(sqlite3 *db, const char *name, dcsim_error *err);
/* 1 when dcsim cannot write path's file or, for a file still to be created, its directory. */
int dcsim__db_read_only_location(const char *path);
/* 1 when table of the database schema ("main", "temp" or an attached name; NULL: "main") of db has
 * column (PRAGMA table_info); 0 also when it cannot be read. */
int dcsim__db_has_column(sqlite3 *db, const char *schema, const char *table, const char *column);
/* "file:PATH" with the URI delimiters of PATH escaped, then "?QUERY" when query is not NULL
 * (malloc'd; NULL when out of memory). */
char *dcsim__db_uri(const char *path, const char *query);

/* Runs one or more statements; an error carries SQLite's message as it is. */
int dcsim__db_exec(sqlite3 *db, const char *name, const char *sql, dcsim_error *err);
/* BEGIN IMMEDIATE / COMMIT through dcsim__db_exec; ROLLBACK ignoring errors (for cleanups). */
int dcsim__db_begin(sqlite3 *db, const char *name, dcsim_error *err);
int dcsim__db_commit(sqlite3 *db, const char *name, dcsim_error *err);
void dcsim__db_rollback(sqlite3 *db);

/* Records the connection's last error as "WHAT: SQLite's message"; returns DCSIM_EDB. */
int dcsim__db_fail(sqlite3 *db, const char *name, const char *what, dcsim_error *err);
/* Prepares sql into *st (NULL on failure): 0, or -1 with nothing recorded (the caller says what
 * failing means; sqlite3_errmsg(db) says why). The only sqlite3_prepare of dcsim. */
int dcsim__db_try_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **st);
/* Prepares sql into *st (NULL on failure), failing as dcsim__db_fail(what). */
int dcsim__db_prepare(sqlite3 *db, const char *name, const char *sql, sqlite3_stmt **st,
                      const char *what, dcsim_error *err);
/* Steps a statement that returns no row, then resets it (bindings stay); anything but
 * SQLITE_DONE fails as dcsim__db_fail(what). */
int dcsim__db_step_done(sqlite3 *db, const char *name, sqlite3_stmt *st, const char *what,
                        dcsim_error *err);

/* Removes the database file path and its -wal and -shm files (missing ones are no error). */
void dcsim__db_remove(const char *path);

/* Binds the current UTC time, as stored in created_utc columns ("2024-05-01T12:00:00Z"), to
 * parameter col of st; a failure (out of memory) fails as dcsim__db_fail(what). */
int dcsim__db_bind_utc_now(sqlite3 *db, const char *name, sqlite3_stmt *st, int col,
                           const char *what, dcsim_error *err);

#endif
