/* sweepdb.c — resumable sweeps in SQLite (see dcsim/sweepdb.h, doc/sweep.md). */
#include "dcsim/sweepdb.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "dcsim/provenance.h"
#include "dcsim/repro.h"
#include "dcsim/strutil.h"
#include "sweep/internal.h"
#include "sweep/sweep_fields.h"
#include "util/db.h"
#include "util/fileio.h"

/* A point's columns are those of its field table (util/dbschema_sweep.h): every column list,
 * placeholder list and bind below is made from it (sweep/sweep_fields.h). */

/* "SELECT <the point's columns> FROM sweep_points WHERE sweep_id = ? ORDER BY idx", a column that
 * db lacks read as NULL (a malloc'd text; NULL when out of memory) */
static char *select_points(sqlite3 *db) {
  dcsim_str q = DCSIM_STR_INIT;
  dcsim_str_add(&q, "SELECT ");
  dcsim__sweep_fields_list(&q, "", 0, db, NULL);
  dcsim_str_add(&q, " FROM sweep_points WHERE sweep_id = ? ORDER BY idx");
  if (q.oom) {
    dcsim_str_release(&q);
    return NULL;
  }
  return dcsim_str_take(&q);
}

struct dcsim_sweepdb {
  sqlite3 *db;
  char *path;
  int64_t sweep_id;
  sqlite3_stmt *ins;
  int read_only; /* a complete database in a place dcsim cannot write: read, never written */
};

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
  if (!d || !(d->path = dcsim_strdup(path))) {
    free(d);
    return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  }
  int rc = 0;
  dcsim_str ins = DCSIM_STR_INIT; /* the INSERT of a point: its columns named, ?2... bound */
  dcsim_str_add(&ins, "INSERT OR IGNORE INTO sweep_points(sweep_id, ");
  dcsim__sweep_fields_list(&ins, "", 0, NULL, NULL);
  dcsim_str_add(&ins, ") VALUES(?1, ");
  dcsim__sweep_fields_params(&ins, 2);
  if (dcsim_str_add(&ins, ")")) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  if (access(path, F_OK) == 0 && dcsim__db_read_only_location(path)) {
    d->read_only = 1; /* resuming a sweep it holds whole needs nothing written */
    if ((rc = dcsim__db_open(path, NULL, DCSIM_DB_READONLY | DCSIM_DB_OWNED, &d->db, err)))
      goto out;
    *out = d;
    dcsim_str_release(&ins);
    return 0;
  }
  if ((rc = dcsim__db_open(path, NULL, DCSIM_DB_WAL | DCSIM_DB_OWNED, &d->db, err)) ||
      (rc = dcsim__db_migrate(d->db, path, &dcsim__db_sweeps_schema, err)) ||
      (rc = dcsim__db_prepare(d->db, path, dcsim_str_cstr(&ins), &d->ins,
                              "cannot prepare statements", err)))
    goto out;
  *out = d;
  d = NULL;
out:
  dcsim_str_release(&ins);
  dcsim_sweepdb_close(d);
  return rc;
}

int dcsim_sweepdb_attach(dcsim_sweepdb_t *d, dcsim_sweep_t *sw, const char *input,
                         int64_t *sweep_id, size_t *restored, dcsim_error *err) {
  sqlite3_stmt *st = NULL;
  int rc = 0;
  size_t n_rest = 0;
  const char *hash = dcsim_sweep_hash(sw);
  /* create the sweep unless it exists (a concurrent creator is harmless: UNIQUE + OR IGNORE) */
  if (!d->read_only &&
      (rc = dcsim__db_prepare(d->db, d->path,
                              "INSERT OR IGNORE INTO sweeps(def_sha256, created_utc, input, "
                              "definition, n_points, dcsim_version, dcsim_commit) "
                              "VALUES(?,?,?,?,?,?,?)",
                              &st, "cannot record the sweep", err)))
    return rc;
  if (d->read_only) goto find;
  sqlite3_bind_text(st, 6, dcsim_version(), -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 7, dcsim_commit(), -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 3, input, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 4, dcsim_sweep_definition(sw), -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 5, (sqlite3_int64)dcsim_sweep_n_points(sw));
  if (!(rc = dcsim__db_bind_utc_now(d->db, d->path, st, 2, "cannot record the sweep", err)))
    rc = dcsim__db_step_done(d->db, d->path, st, "cannot record the sweep", err);
  sqlite3_finalize(st);
  st = NULL;
  if (rc) return rc;
find:
  if ((rc =
           dcsim__db_prepare(d->db, d->path, "SELECT id, n_points FROM sweeps WHERE def_sha256 = ?",
                             &st, "cannot find the sweep", err)))
    return rc;
  sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
  if (sqlite3_step(st) != SQLITE_ROW) {
    rc = d->read_only ? DCSIM_ERR(err, DCSIM_EDB, d->path, 0,
                                  "cannot write here (read-only) and holds no such sweep")
                      : dcsim__db_fail(d->db, d->path, "cannot find the sweep", err);
    goto out;
  }
  d->sweep_id = sqlite3_column_int64(st, 0);
  if ((size_t)sqlite3_column_int64(st, 1) != dcsim_sweep_n_points(sw)) {
    rc = DCSIM_ERR(err, DCSIM_EDB, d->path, 0,
                   "sweep %lld: stored with %lld points, this one has %zu (same hash?)",
                   (long long)d->sweep_id, (long long)sqlite3_column_int64(st, 1),
                   dcsim_sweep_n_points(sw));
    goto out;
  }
  sqlite3_finalize(st);
  st = NULL;
  /* a read-only database may be older (not migrated): a column it lacks is read as NULL */
  char *sql = select_points(d->db);
  rc = sql ? dcsim__db_prepare(d->db, d->path, sql, &st, "cannot read the sweep's points", err)
           : DCSIM_ERR(err, DCSIM_ENOMEM, d->path, 0, "out of memory");
  free(sql);
  if (rc) return rc;
  sqlite3_bind_int64(st, 1, d->sweep_id);
  int s;
  while ((s = sqlite3_step(st)) == SQLITE_ROW) {
    sqlite3_int64 idx = sqlite3_column_int64(st, 0); /* idx: the table's first field */
    if (idx < 0 || (size_t)idx >= dcsim_sweep_n_points(sw)) {
      rc = DCSIM_ERR(err, DCSIM_EDB, d->path, 0, "sweep %lld: stored point %lld out of range",
                     (long long)d->sweep_id, (long long)idx);
      goto out;
    }
    dcsim_sweep_point p = { 0 };
    rc = dcsim__sweep_fields_read(st, 0, &p, d->path, err);
    if (!rc) rc = dcsim__sweep_restore_point(sw, (size_t)idx, &p, err);
    free(p.reason);
    if (rc) goto out;
    n_rest++;
  }
  if (s != SQLITE_DONE) {
    rc = dcsim__db_fail(d->db, d->path, "cannot read the sweep's points", err);
    goto out;
  }
  if (sweep_id) *sweep_id = d->sweep_id;
  if (restored) *restored = n_rest;
out:
  sqlite3_finalize(st);
  return rc;
}

int dcsim_sweepdb_read_only(const dcsim_sweepdb_t *d) { return d && d->read_only; }

int dcsim_sweepdb_store(dcsim_sweepdb_t *d, const dcsim_sweep_point *pts, const size_t *idx,
                        size_t n, dcsim_error *err) {
  if (d->read_only)
    return DCSIM_ERR(err, DCSIM_EDB, d->path, 0, "cannot store points: read-only location");
  int rc = dcsim__db_begin(d->db, d->path, err);
  if (rc) return rc;
  sqlite3_stmt *st = d->ins;
  for (size_t k = 0; k < n && !rc; k++) {
    const dcsim_sweep_point *p = &pts[idx[k]];
    if (!p->done) continue;
    sqlite3_bind_int64(st, 1, d->sweep_id);
    dcsim__sweep_fields_bind(st, 2, p);
    rc = dcsim__db_step_done(d->db, d->path, st, "cannot store a sweep point", err);
    sqlite3_clear_bindings(st);
  }
  if (rc) {
    dcsim__db_rollback(d->db);
    return rc;
  }
  return dcsim__db_commit(d->db, d->path, err);
}

/* The sweep's hash and the "file SHA256 NAME" lines of its definition into rp. */
static int definition_repro(const char *hash, const char *def, dcsim_repro *rp, const char *path,
                            dcsim_error *err) {
  snprintf(rp->sweep_sha256, sizeof rp->sweep_sha256, "%s", hash ? hash : "");
  for (const char *l = def; l && *l;) {
    const char *e = strchr(l, '\n');
    size_t len = e ? (size_t)(e - l) : strlen(l);
    /* "file " SHA (64 hex digits) " " NAME */
    if (len > 5 + 64 && strncmp(l, "file ", 5) == 0 && memchr(l + 5, ' ', len - 5) == l + 5 + 64) {
      char *sha = dcsim_strdup_printf("%.64s", l + 5),
           *name = dcsim_strdup_printf("%.*s", (int)(len - 70), l + 70);
      int rc = sha && name ? dcsim_repro_add_name(rp, name, sha, err)
                           : DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
      free(sha);
      free(name);
      if (rc) {
        dcsim_error_at(err, path, 0);
        return rc;
      }
    }
    l = e ? e + 1 : NULL;
  }
  return 0;
}

int dcsim_sweepdb_read(const char *path, int64_t sweep_id, dcsim_sweep_point **out, size_t *n_out,
                       size_t *n_total, dcsim_repro *rp, dcsim_error *err) {
  *out = NULL;
  *n_out = 0;
  if (n_total) *n_total = 0;
  sqlite3 *db = NULL;
  sqlite3_stmt *st = NULL;
  dcsim_sweep_point *pts = NULL;
  size_t n = 0;
  int rc = 0;
  if ((rc = dcsim__db_open(path, NULL, DCSIM_DB_READONLY | DCSIM_DB_OWNED, &db, err))) goto out;
  if (dcsim__db_try_prepare(db,
                            "SELECT id, n_points, def_sha256, definition FROM sweeps WHERE id = ?1 "
                            "OR (?1 = 0 AND id = (SELECT max(id) FROM sweeps))",
                            &st) != 0) {
    rc = DCSIM_ERR(err, DCSIM_EDB, path, 0, "no sweep in this database (%s)", sqlite3_errmsg(db));
    goto out;
  }
  sqlite3_bind_int64(st, 1, sweep_id);
  if (sqlite3_step(st) != SQLITE_ROW) {
    rc = sweep_id ? DCSIM_ERR(err, DCSIM_EREF, path, 0, "no sweep %lld in this database",
                              (long long)sweep_id)
                  : DCSIM_ERR(err, DCSIM_EREF, path, 0, "no sweep in this database");
    goto out;
  }
  sweep_id = sqlite3_column_int64(st, 0);
  sqlite3_int64 np = sqlite3_column_int64(st, 1);
  if (rp && (rc = definition_repro((const char *)sqlite3_column_text(st, 2),
                                   (const char *)sqlite3_column_text(st, 3), rp, path, err)))
    goto out;
  sqlite3_finalize(st);
  st = NULL;
  if (np < 0 || np > DCSIM_SWEEP_MAX_POINTS) {
    rc = DCSIM_ERR(err, DCSIM_EDB, path, 0, "sweep %lld: bad point count", (long long)sweep_id);
    goto out;
  }
  pts = calloc(np ? (size_t)np : 1, sizeof *pts);
  if (!pts) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  /* read, not migrated: a column an older database lacks is read as NULL */
  char *sql = select_points(db);
  rc = sql ? dcsim__db_prepare(db, path, sql, &st, "cannot read the sweep's points", err)
           : DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  free(sql);
  if (rc) goto out;
  sqlite3_bind_int64(st, 1, sweep_id);
  int s;
  while ((s = sqlite3_step(st)) == SQLITE_ROW) {
    sqlite3_int64 idx = sqlite3_column_int64(st, 0); /* idx: the table's first field */
    if (idx < 0 || idx >= np || (size_t)idx < n) {
      rc = DCSIM_ERR(err, DCSIM_EDB, path, 0, "sweep %lld: bad point index %lld",
                     (long long)sweep_id, (long long)idx);
      goto out;
    }
    if ((rc = dcsim__sweep_fields_read(st, 0, &pts[n++], path, err))) goto out;
  }
  if (s != SQLITE_DONE) {
    rc = dcsim__db_fail(db, path, "cannot read the sweep's points", err);
    goto out;
  }
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

/* ---- merging the databases of the shards of one sweep ---- */

typedef struct stored_sweep {
  char hash[65];
  int64_t id, n_points;
  char *definition, *input, *created;
  char *version, *commit; /* NULL: not stored (a database of an older dcsim) */
} stored_sweep;

typedef struct input_db {
  const char *path;
  stored_sweep *sweeps;
  size_t n;
} input_db;

static void input_db_release(input_db *in) {
  for (size_t k = 0; k < in->n; k++) {
    free(in->sweeps[k].definition);
    free(in->sweeps[k].input);
    free(in->sweeps[k].created);
    free(in->sweeps[k].version);
    free(in->sweeps[k].commit);
  }
  free(in->sweeps);
  in->sweeps = NULL;
  in->n = 0;
}

static char *dup_col(sqlite3_stmt *st, int col) {
  const char *s = (const char *)sqlite3_column_text(st, col);
  return dcsim_strdup(s ? s : "");
}

/* the text of a column that may be NULL, as NULL; *oom when the copy failed */
static char *dup_col_or_null(sqlite3_stmt *st, int col, int *oom) {
  const char *s = (const char *)sqlite3_column_text(st, col);
  char *d = s ? dcsim_strdup(s) : NULL;
  if (s && !d) *oom = 1;
  return d;
}

/* "file:PATH" (dcsim__db_uri). Not mode=ro: a read-only connection cannot remove the -wal and -shm
 * files of a WAL database and would leave them beside every input. */
static int attach_input(sqlite3 *db, const char *path, dcsim_error *err) {
  /* a path that is no SQLite file is refused before SQLite sees it (ATTACH would create it) */
  FILE *f = fopen(path, "rb");
  if (!f) return DCSIM_ERR(err, DCSIM_EIO, path, 0, "cannot open: %s", strerror(errno));
  unsigned char h[16] = { 0 }; /* the file's first bytes: SQLite's magic header */
  size_t k = fread(h, 1, sizeof h, f);
  fclose(f);
  if (k != sizeof h || memcmp(h, "SQLite format 3", 16) != 0)
    return DCSIM_ERR(
        err, DCSIM_EDB, path, 0,
        "not an SQLite database (dcsim merge joins the databases of dcsim sweep --db)");
  char *uri = dcsim__db_uri(path, NULL);
  if (!uri) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  sqlite3_stmt *st = NULL;
  int rc = 0;
  if (dcsim__db_try_prepare(db, "ATTACH DATABASE ?1 AS src", &st) != 0) {
    rc = dcsim__db_fail(db, path, "cannot open", err);
  } else {
    sqlite3_bind_text(st, 1, uri, -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_DONE) rc = dcsim__db_fail(db, path, "cannot open", err);
  }
  sqlite3_finalize(st);
  free(uri);
  return rc;
}

static void detach(sqlite3 *db) { sqlite3_exec(db, "DETACH DATABASE src", NULL, NULL, NULL); }

/* the sweeps an (attached) input holds */
static int list_sweeps(sqlite3 *db, input_db *in, dcsim_error *err) {
  sqlite3_stmt *st = NULL;
  int rc = 0, s;
  size_t cap = 0;
  /* the build columns were added later: an older database is read without them */
  int build =
      dcsim__db_try_prepare(db,
                            "SELECT id, def_sha256, n_points, definition, input, created_utc, "
                            "dcsim_version, dcsim_commit FROM src.sweeps ORDER BY id",
                            &st) == 0;
  if (!build && dcsim__db_try_prepare(db,
                                      "SELECT id, def_sha256, n_points, definition, input, "
                                      "created_utc FROM src.sweeps ORDER BY id",
                                      &st) != 0)
    return DCSIM_ERR(err, DCSIM_EREF, in->path, 0,
                     "holds no sweep (no table sweeps: not written by dcsim sweep --db)");
  while ((s = sqlite3_step(st)) == SQLITE_ROW) {
    if (DCSIM_GROW(in->sweeps, cap, in->n + 1)) {
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, in->path, 0, "out of memory");
      goto out;
    }
    stored_sweep *w = &in->sweeps[in->n++];
    memset(w, 0, sizeof *w);
    w->id = sqlite3_column_int64(st, 0);
    snprintf(w->hash, sizeof w->hash, "%s",
             sqlite3_column_text(st, 1) ? (const char *)sqlite3_column_text(st, 1) : "");
    w->n_points = sqlite3_column_int64(st, 2);
    w->definition = dup_col(st, 3);
    w->input = dup_col(st, 4);
    w->created = dup_col(st, 5);
    int oom = 0;
    if (build) {
      w->version = dup_col_or_null(st, 6, &oom);
      w->commit = dup_col_or_null(st, 7, &oom);
    }
    if (!w->definition || !w->input || !w->created || oom) {
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, in->path, 0, "out of memory");
      goto out;
    }
  }
  if (s != SQLITE_DONE) rc = dcsim__db_fail(db, in->path, "cannot read its sweeps", err);
out:
  sqlite3_finalize(st);
  return rc;
}

static const stored_sweep *find_sweep(const input_db *in, const char *hash) {
  for (size_t k = 0; k < in->n; k++)
    if (strcmp(in->sweeps[k].hash, hash) == 0) return &in->sweeps[k];
  return NULL;
}

/* "sweep 1 3f2a9c1b2d3e (workflows/alaro.xml, 3360 points)" for the first few sweeps of an input */
/* (appended to b; b->oom when out of memory) */
static void describe_sweeps(const input_db *in, dcsim_str *b) {
  size_t k = 0;
  if (!in->n) {
    dcsim_str_add(b, "no sweep");
    return;
  }
  for (; k < in->n && k < 3; k++)
    dcsim_str_addf(b, "%ssweep %lld %.12s (%s, %lld points)", k ? "; " : "",
                   (long long)in->sweeps[k].id, in->sweeps[k].hash, in->sweeps[k].input,
                   (long long)in->sweeps[k].n_points);
  if (k < in->n) dcsim_str_addf(b, "; %zu more", in->n - k);
}

/* a column's value for a message (a text: its first 200 bytes, quoted), appended to b */
static void describe_value(sqlite3_stmt *st, int col, dcsim_str *b) {
  switch (sqlite3_column_type(st, col)) {
    case SQLITE_NULL: dcsim_str_add(b, "NULL"); break;
    case SQLITE_INTEGER: dcsim_str_addf(b, "%lld", (long long)sqlite3_column_int64(st, col)); break;
    case SQLITE_FLOAT: dcsim_str_addf(b, "%.17g", sqlite3_column_double(st, col)); break;
    default: dcsim_str_addf(b, "'%.200s'", (const char *)sqlite3_column_text(st, col)); break;
  }
}

/* input k: refuse rows that differ from those already merged, then add its new rows */
static int merge_one(sqlite3 *db, const input_db *ins, size_t k, const stored_sweep *ref,
                     size_t *rows, size_t *added, dcsim_error *err) {
  const input_db *in = &ins[k];
  const stored_sweep *w = find_sweep(in, ref->hash);
  sqlite3_stmt *st = NULL;
  int rc = 0;
  if (w->n_points != ref->n_points || strcmp(w->definition, ref->definition) != 0) {
    return DCSIM_ERR(err, DCSIM_EDB, in->path, 0,
                     "sweep %lld: not the definition %s holds under the same hash %.12s",
                     (long long)w->id, ins[0].path, ref->hash);
  }
  if (dcsim__db_try_prepare(
          db, "SELECT count(*), min(idx), max(idx) FROM src.sweep_points WHERE sweep_id = ?1",
          &st) != 0 ||
      (sqlite3_bind_int64(st, 1, w->id), sqlite3_step(st)) != SQLITE_ROW) {
    rc = dcsim__db_fail(db, in->path, "cannot read the sweep's points", err);
    goto out;
  }
  *rows = (size_t)sqlite3_column_int64(st, 0);
  if (*rows && (sqlite3_column_int64(st, 1) < 0 || sqlite3_column_int64(st, 2) >= ref->n_points)) {
    rc = DCSIM_ERR(err, DCSIM_EDB, in->path, 0,
                   "sweep %lld: point %lld out of range (the sweep has %lld points)",
                   (long long)w->id,
                   (long long)(sqlite3_column_int64(st, 1) < 0 ? sqlite3_column_int64(st, 1)
                                                               : sqlite3_column_int64(st, 2)),
                   (long long)ref->n_points);
    goto out;
  }
  sqlite3_finalize(st);
  st = NULL;
  /* a point merged already must come back with the same bytes in every column the field table
   * marks (util/dbschema_sweep.h); b: the input's points, a column an older input lacks as NULL */
  dcsim_str q = DCSIM_STR_INIT;
  size_t nc = 0;
  dcsim_str_add(&q, "SELECT b.idx, m.src, ");
  dcsim__sweep_fields_list(&q, "m.", 1, NULL, NULL);
  dcsim_str_add(&q, ", ");
  dcsim__sweep_fields_list(&q, "b.", 1, NULL, NULL);
  dcsim_str_add(&q, " FROM (SELECT sweep_id, ");
  dcsim__sweep_fields_list(&q, "", 0, db, "src");
  dcsim_str_add(&q,
                " FROM src.sweep_points) b JOIN temp.m m ON m.idx = b.idx"
                " WHERE b.sweep_id = ?1 AND NOT (");
  for (const char *c; (c = dcsim__sweep_fields_merged(nc)); nc++)
    dcsim_str_addf(&q, "%sm.%s IS b.%s", nc ? " AND " : "", c, c);
  dcsim_str_add(&q, ") ORDER BY b.idx LIMIT 1");
  if (q.oom) {
    dcsim_str_release(&q);
    return DCSIM_ERR(err, DCSIM_ENOMEM, in->path, 0, "out of memory");
  }
  int bad = dcsim__db_try_prepare(db, dcsim_str_cstr(&q), &st);
  dcsim_str_release(&q);
  if (bad) {
    rc = dcsim__db_fail(db, in->path, "cannot compare the sweep's points", err);
    goto out;
  }
  sqlite3_bind_int64(st, 1, w->id);
  int s = sqlite3_step(st);
  if (s == SQLITE_ROW) {
    int c = 0;
    int B = 2 + (int)nc; /* m's columns at 2, b's at B */
    for (; c < (int)nc - 1; c++) {
      int ta = sqlite3_column_type(st, 2 + c), tb = sqlite3_column_type(st, B + c);
      if (ta != tb) break;
      if (ta == SQLITE_FLOAT ? sqlite3_column_double(st, 2 + c) != sqlite3_column_double(st, B + c)
          : ta == SQLITE_INTEGER
              ? sqlite3_column_int64(st, 2 + c) != sqlite3_column_int64(st, B + c)
              : ta != SQLITE_NULL && strcmp((const char *)sqlite3_column_text(st, 2 + c),
                                            (const char *)sqlite3_column_text(st, B + c)) != 0)
        break;
    }
    dcsim_str here = DCSIM_STR_INIT, there = DCSIM_STR_INIT;
    describe_value(st, B + c, &here);
    describe_value(st, 2 + c, &there);
    int64_t src = sqlite3_column_int64(st, 1);
    if (here.oom || there.oom)
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, in->path, 0, "out of memory");
    else
      rc = DCSIM_ERR(err, DCSIM_EDB, in->path, 0,
                     "point %lld differs from the one in %s (%s: %s here, %s there): were they "
                     "run by different dcsim"
                     " builds or on different kinds of CPU?",
                     (long long)sqlite3_column_int64(st, 0), ins[src].path,
                     dcsim__sweep_fields_merged((size_t)c), dcsim_str_cstr(&here),
                     dcsim_str_cstr(&there));
    dcsim_str_release(&here);
    dcsim_str_release(&there);
    goto out;
  }
  if (s != SQLITE_DONE) {
    rc = dcsim__db_fail(db, in->path, "cannot compare the sweep's points", err);
    goto out;
  }
  sqlite3_finalize(st);
  st = NULL;
  dcsim_str_add(&q, "INSERT OR IGNORE INTO temp.m(");
  dcsim__sweep_fields_list(&q, "", 0, NULL, NULL);
  dcsim_str_add(&q, ", src) SELECT ");
  dcsim__sweep_fields_list(&q, "", 0, db, "src");
  dcsim_str_add(&q, ", ?2 FROM src.sweep_points WHERE sweep_id = ?1");
  if (q.oom) {
    dcsim_str_release(&q);
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, in->path, 0, "out of memory");
    goto out;
  }
  bad = dcsim__db_try_prepare(db, dcsim_str_cstr(&q), &st);
  dcsim_str_release(&q);
  if (bad) {
    rc = dcsim__db_fail(db, in->path, "cannot read the sweep's points", err);
    goto out;
  }
  sqlite3_bind_int64(st, 1, w->id);
  sqlite3_bind_int64(st, 2, (sqlite3_int64)k);
  if (sqlite3_step(st) != SQLITE_DONE) {
    rc = dcsim__db_fail(db, in->path, "cannot read the sweep's points", err);
    goto out;
  }
  *added = (size_t)sqlite3_changes(db);
out:
  sqlite3_finalize(st);
  return rc;
}

/* the indices of 0..n-1 that temp.m lacks, as ranges */
static int find_missing(sqlite3 *db, const char *path, dcsim_sweepdb_merge_report *rep,
                        dcsim_error *err) {
  sqlite3_stmt *st = NULL;
  if (dcsim__db_try_prepare(db, "SELECT idx FROM temp.m ORDER BY idx", &st) != 0)
    return dcsim__db_fail(db, path, "cannot list the merged points", err);
  size_t next = 0, len = 0, cap = sizeof rep->missing - 8;
  int s, full = 0, oom = 0;
  rep->missing[0] = '\0';
  for (;;) {
    s = sqlite3_step(st);
    size_t idx = s == SQLITE_ROW ? (size_t)sqlite3_column_int64(st, 0) : rep->n_points;
    if (idx > next && !full) { /* next .. idx-1 are missing */
      dcsim_str r = DCSIM_STR_INIT;
      if (idx - 1 > next)
        dcsim_str_addf(&r, "%s%zu-%zu", len ? ", " : "", next, idx - 1);
      else
        dcsim_str_addf(&r, "%s%zu", len ? ", " : "", next);
      oom |= r.oom;
      if (!r.oom && len + r.len < cap) {
        memcpy(rep->missing + len, r.s, r.len + 1);
        len += r.len;
        dcsim_str_release(&r);
      } else {
        dcsim_str_release(&r);
        snprintf(rep->missing + len, sizeof rep->missing - len, ", ...");
        full = 1;
      }
    }
    if (s != SQLITE_ROW) break;
    next = idx + 1;
  }
  sqlite3_finalize(st);
  if (s == SQLITE_DONE && oom) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  return s == SQLITE_DONE ? 0 : dcsim__db_fail(db, path, "cannot list the merged points", err);
}

/* out.tmp-XXXXXX, a new database next to out that is renamed over it when complete (no
 * half-written result), with the sweep tables and the temporary table of the merged points.
 * *tmp (malloc'd) names the file as soon as it exists. */
static int create_merge_db(const char *out, char **tmp, sqlite3 **db, dcsim_error *err) {
  size_t size = strlen(out) + 16;
  char *t = malloc(size);
  if (!t) return DCSIM_ERR(err, DCSIM_ENOMEM, out, 0, "out of memory");
  snprintf(t, size, "%s.tmp-XXXXXX", out);
  int fd = mkstemp(t);
  if (fd < 0) {
    int rc = DCSIM_ERR(err, DCSIM_EIO, out, 0, "cannot create: %s", strerror(errno));
    free(t);
    return rc;
  }
  close(fd);
  *tmp = t;
  int rc;
  if ((rc = dcsim__db_open(t, out, DCSIM_DB_NEW | DCSIM_DB_URI | DCSIM_DB_WAL, db, err)) ||
      (rc = dcsim__db_exec(*db, out, dcsim__db_sweeps_schema.create_sql, err)))
    return rc;
  /* the points' columns (idx, an INTEGER, is the key) and the input each came from */
  dcsim_str q = DCSIM_STR_INIT;
  dcsim_str_add(&q, "CREATE TEMP TABLE m(");
  dcsim__sweep_fields_defs(&q);
  rc = dcsim_str_add(&q, ", src INTEGER, PRIMARY KEY(idx))")
           ? DCSIM_ERR(err, DCSIM_ENOMEM, out, 0, "out of memory")
           : dcsim__db_exec(*db, out, dcsim_str_cstr(&q), err);
  dcsim_str_release(&q);
  return rc;
}

/* which sweeps each input holds */
static int list_inputs(sqlite3 *db, const char *const *inputs, size_t n, input_db *ins,
                       dcsim_error *err) {
  int rc = 0;
  for (size_t k = 0; k < n && !rc; k++) {
    ins[k].path = inputs[k];
    if ((rc = attach_input(db, inputs[k], err))) break;
    rc = list_sweeps(db, &ins[k], err);
    detach(db);
  }
  return rc;
}

/* the sweep to merge: the one every input holds (among those whose hash starts with hash_prefix) */
static int choose_sweep(const input_db *ins, size_t n, const char *hash_prefix,
                        const stored_sweep **ref, dcsim_error *err) {
  size_t n_common = 0, lacking = 0;
  const stored_sweep *missing_in = NULL;
  for (size_t s = 0; s < ins[0].n; s++) {
    const stored_sweep *w = &ins[0].sweeps[s];
    if (hash_prefix && strncmp(w->hash, hash_prefix, strlen(hash_prefix)) != 0) continue;
    size_t k = 1;
    while (k < n && find_sweep(&ins[k], w->hash)) k++;
    if (k == n) {
      if (!n_common++) *ref = w;
    } else if (!missing_in) {
      missing_in = w;
      lacking = k;
    }
  }
  if (n_common == 1) return 0;
  int rc;
  dcsim_str a = DCSIM_STR_INIT, b = DCSIM_STR_INIT;
  describe_sweeps(&ins[0], &a);
  if (missing_in) describe_sweeps(&ins[lacking], &b);
  if (a.oom || b.oom)
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, ins[0].path, 0, "out of memory");
  else if (n_common > 1)
    rc = DCSIM_ERR(err, DCSIM_EUSAGE, ins[0].path, 0,
                   "%zu sweeps are in every input (%s): choose one with --sweep HASH", n_common,
                   dcsim_str_cstr(&a));
  else if (hash_prefix && !missing_in)
    rc = DCSIM_ERR(err, DCSIM_EREF, ins[0].path, 0, "no sweep whose hash starts with '%s' (%s)",
                   hash_prefix, dcsim_str_cstr(&a));
  else if (!missing_in)
    rc = DCSIM_ERR(err, DCSIM_EREF, ins[0].path, 0, "holds no sweep");
  else
    rc = DCSIM_ERR(err, DCSIM_EREF, ins[lacking].path, 0,
                   "not the sweep of %s (%s here; %s there): shards of one sweep come from the "
                   "same command and the same"
                   " input files",
                   ins[0].path, dcsim_str_cstr(&b), dcsim_str_cstr(&a));
  dcsim_str_release(&a);
  dcsim_str_release(&b);
  return rc;
}

/* every input's points of sweep ref into temp.m; the report's counts; *created: the earliest
 * creation time (the sweep began with its first shard) */
static int merge_inputs(sqlite3 *db, const input_db *ins, size_t n, const stored_sweep *ref,
                        dcsim_sweepdb_merge_report *rep, size_t *per_input, const char **created,
                        dcsim_error *err) {
  snprintf(rep->def_sha256, sizeof rep->def_sha256, "%s", ref->hash);
  snprintf(rep->input, sizeof rep->input, "%s", ref->input);
  rep->n_points = (size_t)ref->n_points;
  *created = ref->created;
  for (size_t k = 0; k < n; k++) {
    size_t rows = 0, added = 0;
    int rc = attach_input(db, ins[k].path, err);
    if (rc) return rc;
    rc = merge_one(db, ins, k, ref, &rows, &added, err);
    detach(db);
    if (rc) return rc;
    if (per_input) per_input[k] = rows;
    rep->n_stored += added;
    rep->n_duplicates += rows - added;
    const stored_sweep *w = find_sweep(&ins[k], ref->hash);
    if (strcmp(w->created, *created) < 0) *created = w->created;
  }
  rep->n_missing = rep->n_points - rep->n_stored;
  return 0;
}

/* the rows a single run stores: the sweep, then its points in index order, in one transaction */
static int store_merged(sqlite3 *db, const char *out, const stored_sweep *ref, const char *created,
                        dcsim_error *err) {
  sqlite3_stmt *st = NULL;
  int rc = dcsim__db_begin(db, out, err);
  if (rc) return rc;
  if ((rc = dcsim__db_prepare(db, out,
                              "INSERT INTO main.sweeps(def_sha256, created_utc, input, definition, "
                              "n_points, dcsim_version, dcsim_commit) VALUES(?,?,?,?,?,?,?)",
                              &st, "cannot record the sweep", err)))
    goto out;
  sqlite3_bind_text(st, 1, ref->hash, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 2, created, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 3, ref->input, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 4, ref->definition, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 5, ref->n_points);
  sqlite3_bind_text(st, 6, ref->version, -1, SQLITE_STATIC); /* the shards' build (NULL: unknown) */
  sqlite3_bind_text(st, 7, ref->commit, -1, SQLITE_STATIC);
  if ((rc = dcsim__db_step_done(db, out, st, "cannot record the sweep", err))) goto out;
  sqlite3_finalize(st);
  st = NULL;
  dcsim_str q = DCSIM_STR_INIT;
  dcsim_str_add(&q, "INSERT INTO main.sweep_points(sweep_id, ");
  dcsim__sweep_fields_list(&q, "", 0, NULL, NULL);
  dcsim_str_add(&q, ") SELECT ?1, ");
  dcsim__sweep_fields_list(&q, "", 0, NULL, NULL);
  dcsim_str_add(&q, " FROM temp.m ORDER BY idx");
  rc = q.oom ? DCSIM_ERR(err, DCSIM_ENOMEM, out, 0, "out of memory")
             : dcsim__db_prepare(db, out, dcsim_str_cstr(&q), &st, "cannot store the points", err);
  dcsim_str_release(&q);
  if (rc) goto out;
  sqlite3_bind_int64(st, 1, sqlite3_last_insert_rowid(db));
  if ((rc = dcsim__db_step_done(db, out, st, "cannot store the points", err))) goto out;
  rc = dcsim__db_commit(db, out, err);
out:
  sqlite3_finalize(st);
  if (rc) dcsim__db_rollback(db);
  return rc;
}

/* closes the finished database and renames it to out */
static int publish(sqlite3 **db, const char *tmp, const char *out, dcsim_error *err) {
  int closed = sqlite3_close(*db) == SQLITE_OK;
  *db = NULL;
  if (!closed) return DCSIM_ERR(err, DCSIM_EDB, out, 0, "cannot close the database");
  return dcsim__file_publish(tmp, out, err);
}

int dcsim_sweepdb_merge(const char *const *inputs, size_t n, const char *out,
                        const char *hash_prefix, dcsim_sweepdb_merge_report *rep, size_t *per_input,
                        dcsim_error *err) {
  memset(rep, 0, sizeof *rep);
  if (!n) return DCSIM_PERR(err, DCSIM_EUSAGE, "inputs", -1, "no database to merge");
  if (access(out, F_OK) == 0)
    return DCSIM_ERR(
        err, DCSIM_EUSAGE, out, 0,
        "exists: dcsim merge writes a new database (remove it or choose another name)");
  input_db *ins = calloc(n, sizeof *ins);
  char *tmp = NULL;
  sqlite3 *db = NULL;
  const stored_sweep *ref = NULL;
  const char *created = NULL;
  int rc = -1, published = 0;
  if (!ins) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, out, 0, "out of memory");
    goto out;
  }
  if ((rc = create_merge_db(out, &tmp, &db, err)) || (rc = list_inputs(db, inputs, n, ins, err)) ||
      (rc = choose_sweep(ins, n, hash_prefix, &ref, err)) ||
      (rc = merge_inputs(db, ins, n, ref, rep, per_input, &created, err)))
    goto out;
  if (rep->n_missing && (rc = find_missing(db, out, rep, err))) goto out;
  if ((rc = store_merged(db, out, ref, created, err))) goto out;
  published = (rc = publish(&db, tmp, out, err)) == 0;
out:
  sqlite3_close(db);
  if (tmp && !published) dcsim__db_remove(tmp);
  for (size_t k = 0; ins && k < n; k++) input_db_release(&ins[k]);
  free(ins);
  free(tmp);
  return rc;
}
