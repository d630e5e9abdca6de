/* sweepdb.c — resumable sweeps in SQLite (see dcsim/sweepdb.h, doc/sweep.md). */
#include "dcsim/sweepdb.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "dcsim/strutil.h"

static const char *const schema_sql =
    "CREATE TABLE IF NOT EXISTS sweeps(id INTEGER PRIMARY KEY, def_sha256 TEXT NOT NULL UNIQUE,"
    " created_utc TEXT, input TEXT, definition TEXT NOT NULL, n_points INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS sweep_points(sweep_id INTEGER NOT NULL REFERENCES sweeps(id),"
    " idx INTEGER NOT NULL, cpu TEXT, gpu TEXT, nodes INTEGER, cores INTEGER, freq TEXT,"
    " feasible INTEGER NOT NULL, reason TEXT, time_s REAL, energy_j REAL, PRIMARY KEY(sweep_id, "
    "idx));";

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
  if (!d || !(d->path = strdup(path))) {
    free(d);
    return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  }
  int rc = 0;
  if (sqlite3_open_v2(path, &d->db,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                      NULL) != SQLITE_OK) {
    rc = DCSIM_ERR(err, DCSIM_EDB, path, 0, "cannot open the results database: %s",
                   d->db ? sqlite3_errmsg(d->db) : "out of memory");
    goto out;
  }
  sqlite3_busy_timeout(d->db, 10000);
  if ((rc = exec(d->db, path,
                 "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
                 err)) ||
      (rc = exec(d->db, path, schema_sql, err)))
    goto out;
  if (sqlite3_prepare_v2(d->db, "INSERT OR IGNORE INTO sweep_points VALUES(?,?,?,?,?,?,?,?,?,?,?)",
                         -1, &d->ins, NULL) != SQLITE_OK) {
    rc = db_err(d->db, path, err, "cannot prepare statements");
    goto out;
  }
  *out = d;
  d = NULL;
out:
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
  char stamp[32];
  time_t now = time(NULL);
  struct tm tmv;
  strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tmv));
  if (sqlite3_prepare_v2(d->db,
                         "INSERT OR IGNORE INTO sweeps(def_sha256, created_utc, input, definition, "
                         "n_points) VALUES(?,?,?,?,?)",
                         -1, &st, NULL) != SQLITE_OK)
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
  if (sqlite3_prepare_v2(d->db, "SELECT id, n_points FROM sweeps WHERE def_sha256 = ?", -1, &st,
                         NULL) != SQLITE_OK)
    return db_err(d->db, d->path, err, "cannot find the sweep");
  sqlite3_bind_text(st, 1, hash, -1, SQLITE_STATIC);
  if (sqlite3_step(st) != SQLITE_ROW) {
    rc = db_err(d->db, d->path, err, "cannot find the sweep");
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
  if (sqlite3_prepare_v2(d->db,
                         "SELECT idx, feasible, time_s, energy_j, reason FROM sweep_points WHERE "
                         "sweep_id = ? ORDER BY idx",
                         -1, &st, NULL) != SQLITE_OK)
    return db_err(d->db, d->path, err, "cannot read the sweep's points");
  sqlite3_bind_int64(st, 1, d->sweep_id);
  int s;
  while ((s = sqlite3_step(st)) == SQLITE_ROW) {
    sqlite3_int64 idx = sqlite3_column_int64(st, 0);
    int feasible = sqlite3_column_int(st, 1);
    if (idx < 0 || (size_t)idx >= dcsim_sweep_n_points(sw)) {
      rc = DCSIM_ERR(err, DCSIM_EDB, d->path, 0, "sweep %lld: stored point %lld out of range",
                     (long long)d->sweep_id, (long long)idx);
      goto out;
    }
    if ((rc = dcsim_sweep_restore(sw, (size_t)idx, feasible, sqlite3_column_double(st, 2),
                                  sqlite3_column_double(st, 3),
                                  (const char *)sqlite3_column_text(st, 4), err)))
      goto out;
    n_rest++;
  }
  if (s != SQLITE_DONE) {
    rc = db_err(d->db, d->path, err, "cannot read the sweep's points");
    goto out;
  }
  if (sweep_id) *sweep_id = d->sweep_id;
  if (restored) *restored = n_rest;
out:
  sqlite3_finalize(st);
  return rc;
}

int dcsim_sweepdb_store(dcsim_sweepdb_t *d, const dcsim_sweep_point *pts, const size_t *idx,
                        size_t n, dcsim_error *err) {
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
    if (p->nodes)
      sqlite3_bind_int64(st, 5, p->nodes);
    else
      sqlite3_bind_null(st, 5);
    if (p->cores)
      sqlite3_bind_int64(st, 6, p->cores);
    else
      sqlite3_bind_null(st, 6);
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
    rc = sqlite3_step(st) == SQLITE_DONE
             ? 0
             : db_err(d->db, d->path, err, "cannot store a sweep point");
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
  }
  if (rc) {
    sqlite3_exec(d->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
  }
  return exec(d->db, d->path, "COMMIT", err);
}

int dcsim_sweepdb_read(const char *path, int64_t sweep_id, dcsim_sweep_point **out, size_t *n_out,
                       size_t *n_total, dcsim_error *err) {
  *out = NULL;
  *n_out = 0;
  if (n_total) *n_total = 0;
  sqlite3 *db = NULL;
  sqlite3_stmt *st = NULL;
  dcsim_sweep_point *pts = NULL;
  size_t n = 0;
  int rc = 0;
  if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
    rc = DCSIM_ERR(err, DCSIM_EDB, path, 0, "cannot open the results database: %s",
                   db ? sqlite3_errmsg(db) : "out of memory");
    goto out;
  }
  if (sqlite3_prepare_v2(db,
                         "SELECT id, n_points FROM sweeps WHERE id = ?1 OR (?1 = 0 AND id = "
                         "(SELECT max(id) FROM sweeps))",
                         -1, &st, NULL) != SQLITE_OK) {
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
  if (sqlite3_prepare_v2(db,
                         "SELECT idx, cpu, gpu, nodes, cores, freq, feasible, reason, time_s, "
                         "energy_j FROM sweep_points WHERE sweep_id = ? ORDER BY idx",
                         -1, &st, NULL) != SQLITE_OK) {
    rc = db_err(db, path, err, "cannot read the sweep's points");
    goto out;
  }
  sqlite3_bind_int64(st, 1, sweep_id);
  int s;
  while ((s = sqlite3_step(st)) == SQLITE_ROW) {
    sqlite3_int64 idx = sqlite3_column_int64(st, 0);
    if (idx < 0 || idx >= np || (size_t)idx < n) {
      rc = DCSIM_ERR(err, DCSIM_EDB, path, 0, "sweep %lld: bad point index %lld",
                     (long long)sweep_id, (long long)idx);
      goto out;
    }
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
      if (!(p->reason = strdup(r ? r : "infeasible"))) {
        rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
        goto out;
      }
      p->time_s = p->energy_j = NAN;
    } else {
      p->time_s = sqlite3_column_double(st, 8);
      p->energy_j = sqlite3_column_double(st, 9);
    }
  }
  if (s != SQLITE_DONE) {
    rc = db_err(db, path, err, "cannot read the sweep's points");
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
  }
  free(in->sweeps);
  in->sweeps = NULL;
  in->n = 0;
}

static char *dup_col(sqlite3_stmt *st, int col) {
  const char *s = (const char *)sqlite3_column_text(st, col);
  return strdup(s ? s : "");
}

/* "file:PATH" with the URI delimiters of PATH escaped. Not mode=ro: a read-only connection cannot
 * remove the -wal and -shm files of a WAL database and would leave them beside every input. */
static char *uri_of(const char *path) {
  size_t n = strlen(path);
  char *u = malloc(3 * n + 16), *w = u;
  if (!u) return NULL;
  w += sprintf(w, "file:");
  for (const char *p = path; *p; p++) {
    if (*p == '%' || *p == '?' || *p == '#')
      w += sprintf(w, "%%%02X", (unsigned char)*p);
    else
      *w++ = *p;
  }
  *w = '\0';
  return u;
}

static int attach_input(sqlite3 *db, const char *path, dcsim_error *err) {
  /* a path that is no SQLite file is refused before SQLite sees it (ATTACH would create it) */
  FILE *f = fopen(path, "rb");
  if (!f) return DCSIM_ERR(err, DCSIM_EIO, path, 0, "cannot open: %s", strerror(errno));
  char h[16] = { 0 };
  size_t k = fread(h, 1, sizeof h, f);
  fclose(f);
  if (k != sizeof h || memcmp(h, "SQLite format 3", 16) != 0)
    return DCSIM_ERR(
        err, DCSIM_EDB, path, 0,
        "not an SQLite database (dcsim merge joins the databases of dcsim sweep --db)");
  char *uri = uri_of(path);
  if (!uri) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  sqlite3_stmt *st = NULL;
  int rc = 0;
  if (sqlite3_prepare_v2(db, "ATTACH DATABASE ?1 AS src", -1, &st, NULL) != SQLITE_OK) {
    rc = db_err(db, path, err, "cannot open");
  } else {
    sqlite3_bind_text(st, 1, uri, -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_DONE) rc = db_err(db, path, err, "cannot open");
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
  if (sqlite3_prepare_v2(db,
                         "SELECT id, def_sha256, n_points, definition, input, created_utc FROM "
                         "src.sweeps ORDER BY id",
                         -1, &st, NULL) != SQLITE_OK)
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
    if (!w->definition || !w->input || !w->created) {
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, in->path, 0, "out of memory");
      goto out;
    }
  }
  if (s != SQLITE_DONE) rc = db_err(db, in->path, err, "cannot read its sweeps");
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
static void describe_sweeps(const input_db *in, char *buf, size_t size) {
  size_t k = 0, len = 0;
  buf[0] = '\0';
  if (!in->n) {
    snprintf(buf, size, "no sweep");
    return;
  }
  for (; k < in->n && k < 3 && len < size; k++)
    len += (size_t)snprintf(buf + len, size - len, "%ssweep %lld %.12s (%s, %lld points)",
                            k ? "; " : "", (long long)in->sweeps[k].id, in->sweeps[k].hash,
                            in->sweeps[k].input, (long long)in->sweeps[k].n_points);
  if (k < in->n && len < size) snprintf(buf + len, size - len, "; %zu more", in->n - k);
}

static void describe_value(sqlite3_stmt *st, int col, char *buf, size_t size) {
  switch (sqlite3_column_type(st, col)) {
    case SQLITE_NULL: snprintf(buf, size, "NULL"); break;
    case SQLITE_INTEGER:
      snprintf(buf, size, "%lld", (long long)sqlite3_column_int64(st, col));
      break;
    case SQLITE_FLOAT: snprintf(buf, size, "%.17g", sqlite3_column_double(st, col)); break;
    default: snprintf(buf, size, "'%.200s'", (const char *)sqlite3_column_text(st, col)); break;
  }
}

#define POINT_COLS "idx, cpu, gpu, nodes, cores, freq, feasible, reason, time_s, energy_j"

/* input k: refuse rows that differ from those already merged, then add its new rows */
static int merge_one(sqlite3 *db, const input_db *ins, size_t k, const stored_sweep *ref,
                     size_t *rows, size_t *added, dcsim_error *err) {
  static const char *const names[] = { "cpu",      "gpu",    "nodes",  "cores",   "freq",
                                       "feasible", "reason", "time_s", "energy_j" };
  const input_db *in = &ins[k];
  const stored_sweep *w = find_sweep(in, ref->hash);
  sqlite3_stmt *st = NULL;
  int rc = 0;
  if (w->n_points != ref->n_points || strcmp(w->definition, ref->definition) != 0) {
    return DCSIM_ERR(err, DCSIM_EDB, in->path, 0,
                     "sweep %lld: not the definition %s holds under the same hash %.12s",
                     (long long)w->id, ins[0].path, ref->hash);
  }
  if (sqlite3_prepare_v2(
          db, "SELECT count(*), min(idx), max(idx) FROM src.sweep_points WHERE sweep_id = ?1", -1,
          &st, NULL) != SQLITE_OK ||
      (sqlite3_bind_int64(st, 1, w->id), sqlite3_step(st)) != SQLITE_ROW) {
    rc = db_err(db, in->path, err, "cannot read the sweep's points");
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
  /* a point merged already must come back with the same bytes in every column */
  if (sqlite3_prepare_v2(
          db,
          "SELECT b.idx, m.src, m.cpu, m.gpu, m.nodes, m.cores, m.freq, m.feasible, m.reason, "
          "m.time_s, m.energy_j,"
          " b.cpu, b.gpu, b.nodes, b.cores, b.freq, b.feasible, b.reason, b.time_s, b.energy_j"
          " FROM src.sweep_points b JOIN temp.m m ON m.idx = b.idx WHERE b.sweep_id = ?1 AND NOT ("
          " m.cpu IS b.cpu AND m.gpu IS b.gpu AND m.nodes IS b.nodes AND m.cores IS b.cores AND "
          "m.freq IS b.freq AND"
          " m.feasible IS b.feasible AND m.reason IS b.reason AND m.time_s IS b.time_s AND "
          "m.energy_j IS b.energy_j)"
          " ORDER BY b.idx LIMIT 1",
          -1, &st, NULL) != SQLITE_OK) {
    rc = db_err(db, in->path, err, "cannot compare the sweep's points");
    goto out;
  }
  sqlite3_bind_int64(st, 1, w->id);
  int s = sqlite3_step(st);
  if (s == SQLITE_ROW) {
    int c = 0;
    for (; c < 8; c++) {
      int ta = sqlite3_column_type(st, 2 + c), tb = sqlite3_column_type(st, 11 + c);
      if (ta != tb) break;
      if (ta == SQLITE_FLOAT ? sqlite3_column_double(st, 2 + c) != sqlite3_column_double(st, 11 + c)
          : ta == SQLITE_INTEGER
              ? sqlite3_column_int64(st, 2 + c) != sqlite3_column_int64(st, 11 + c)
              : ta != SQLITE_NULL && strcmp((const char *)sqlite3_column_text(st, 2 + c),
                                            (const char *)sqlite3_column_text(st, 11 + c)) != 0)
        break;
    }
    char here[256], there[256];
    describe_value(st, 11 + c, here, sizeof here);
    describe_value(st, 2 + c, there, sizeof there);
    int64_t src = sqlite3_column_int64(st, 1);
    rc = DCSIM_ERR(err, DCSIM_EDB, in->path, 0,
                   "point %lld differs from the one in %s (%s: %s here, %s there): were they run "
                   "by different dcsim"
                   " builds or on different kinds of CPU?",
                   (long long)sqlite3_column_int64(st, 0), ins[src].path, names[c], here, there);
    goto out;
  }
  if (s != SQLITE_DONE) {
    rc = db_err(db, in->path, err, "cannot compare the sweep's points");
    goto out;
  }
  sqlite3_finalize(st);
  st = NULL;
  if (sqlite3_prepare_v2(db,
                         "INSERT OR IGNORE INTO temp.m SELECT " POINT_COLS
                         ", ?2 FROM src.sweep_points WHERE sweep_id = ?1",
                         -1, &st, NULL) != SQLITE_OK) {
    rc = db_err(db, in->path, err, "cannot read the sweep's points");
    goto out;
  }
  sqlite3_bind_int64(st, 1, w->id);
  sqlite3_bind_int64(st, 2, (sqlite3_int64)k);
  if (sqlite3_step(st) != SQLITE_DONE) {
    rc = db_err(db, in->path, err, "cannot read the sweep's points");
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
  if (sqlite3_prepare_v2(db, "SELECT idx FROM temp.m ORDER BY idx", -1, &st, NULL) != SQLITE_OK)
    return db_err(db, path, err, "cannot list the merged points");
  size_t next = 0, len = 0, cap = sizeof rep->missing - 8;
  int s, full = 0;
  rep->missing[0] = '\0';
  for (;;) {
    s = sqlite3_step(st);
    size_t idx = s == SQLITE_ROW ? (size_t)sqlite3_column_int64(st, 0) : rep->n_points;
    if (idx > next && !full) { /* next .. idx-1 are missing */
      char r[48];
      if (idx - 1 > next)
        snprintf(r, sizeof r, "%s%zu-%zu", len ? ", " : "", next, idx - 1);
      else
        snprintf(r, sizeof r, "%s%zu", len ? ", " : "", next);
      if (len + strlen(r) < cap) {
        memcpy(rep->missing + len, r, strlen(r) + 1);
        len += strlen(r);
      } else {
        snprintf(rep->missing + len, sizeof rep->missing - len, ", ...");
        full = 1;
      }
    }
    if (s != SQLITE_ROW) break;
    next = idx + 1;
  }
  sqlite3_finalize(st);
  return s == SQLITE_DONE ? 0 : db_err(db, path, err, "cannot list the merged points");
}

static void remove_db_files(const char *path) {
  char side[4200];
  unlink(path);
  snprintf(side, sizeof side, "%s-wal", path);
  unlink(side);
  snprintf(side, sizeof side, "%s-shm", path);
  unlink(side);
}

int dcsim_sweepdb_merge(const char *const *inputs, size_t n, const char *out,
                        const char *hash_prefix, dcsim_sweepdb_merge_report *rep, size_t *per_input,
                        dcsim_error *err) {
  memset(rep, 0, sizeof *rep);
  if (!n) return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 0, "no database to merge");
  if (access(out, F_OK) == 0)
    return DCSIM_ERR(
        err, DCSIM_EUSAGE, out, 0,
        "exists: dcsim merge writes a new database (remove it or choose another name)");
  input_db *ins = calloc(n, sizeof *ins);
  size_t plen = strlen(out);
  char *tmp = malloc(plen + 16);
  sqlite3 *db = NULL;
  sqlite3_stmt *st = NULL;
  int rc = 0, tmp_made = 0;
  const stored_sweep *ref = NULL;
  if (!ins || !tmp) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, out, 0, "out of memory");
    goto out;
  }
  /* a new file next to out, renamed over it when complete: no half-written result */
  snprintf(tmp, plen + 16, "%s.tmp-XXXXXX", out);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    rc = DCSIM_ERR(err, DCSIM_EIO, out, 0, "cannot create: %s", strerror(errno));
    goto out;
  }
  close(fd);
  tmp_made = 1;
  if (sqlite3_open_v2(tmp, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
                      NULL) != SQLITE_OK) {
    rc = DCSIM_ERR(err, DCSIM_EDB, out, 0, "cannot create the database: %s",
                   db ? sqlite3_errmsg(db) : "out of memory");
    goto out;
  }
  if ((rc = exec(db, out, "PRAGMA main.journal_mode=WAL; PRAGMA main.synchronous=NORMAL;", err)) ||
      (rc = exec(db, out, schema_sql, err)) ||
      (rc = exec(
           db, out,
           "CREATE TEMP TABLE m(idx INTEGER PRIMARY KEY, cpu TEXT, gpu TEXT, nodes INTEGER, cores "
           "INTEGER,"
           " freq TEXT, feasible INTEGER, reason TEXT, time_s REAL, energy_j REAL, src INTEGER)",
           err)))
    goto out;
  /* which sweeps each input holds; the one to merge is the one they all hold */
  for (size_t k = 0; k < n; k++) {
    ins[k].path = inputs[k];
    if ((rc = attach_input(db, inputs[k], err))) goto out;
    rc = list_sweeps(db, &ins[k], err);
    detach(db);
    if (rc) goto out;
  }
  size_t n_common = 0;
  const stored_sweep *missing_in = NULL;
  size_t lacking = 0;
  for (size_t s = 0; s < ins[0].n; s++) {
    const stored_sweep *w = &ins[0].sweeps[s];
    if (hash_prefix && strncmp(w->hash, hash_prefix, strlen(hash_prefix)) != 0) continue;
    size_t k = 1;
    while (k < n && find_sweep(&ins[k], w->hash)) k++;
    if (k == n) {
      if (!n_common++) ref = w;
    } else if (!missing_in) {
      missing_in = w;
      lacking = k;
    }
  }
  if (n_common != 1) {
    char a[600], b[600];
    describe_sweeps(&ins[0], a, sizeof a);
    if (n_common > 1)
      rc = DCSIM_ERR(err, DCSIM_EUSAGE, inputs[0], 0,
                     "%zu sweeps are in every input (%s): choose one with --sweep HASH", n_common,
                     a);
    else if (hash_prefix && !missing_in)
      rc = DCSIM_ERR(err, DCSIM_EREF, inputs[0], 0, "no sweep whose hash starts with '%s' (%s)",
                     hash_prefix, a);
    else if (!missing_in)
      rc = DCSIM_ERR(err, DCSIM_EREF, inputs[0], 0, "holds no sweep");
    else {
      describe_sweeps(&ins[lacking], b, sizeof b);
      rc = DCSIM_ERR(err, DCSIM_EREF, inputs[lacking], 0,
                     "not the sweep of %s (%s here; %s there): shards of one sweep come from the "
                     "same command and the same"
                     " input files",
                     inputs[0], b, a);
    }
    goto out;
  }
  snprintf(rep->def_sha256, sizeof rep->def_sha256, "%s", ref->hash);
  snprintf(rep->input, sizeof rep->input, "%s", ref->input);
  rep->n_points = (size_t)ref->n_points;
  const char *created = ref->created;
  for (size_t k = 0; k < n; k++) {
    size_t rows = 0, added = 0;
    if ((rc = attach_input(db, inputs[k], err))) goto out;
    rc = merge_one(db, ins, k, ref, &rows, &added, err);
    detach(db);
    if (rc) goto out;
    if (per_input) per_input[k] = rows;
    rep->n_stored += added;
    rep->n_duplicates += rows - added;
    const stored_sweep *w = find_sweep(&ins[k], ref->hash);
    if (strcmp(w->created, created) < 0)
      created = w->created; /* the sweep began with its first shard */
  }
  rep->n_missing = rep->n_points - rep->n_stored;
  if (rep->n_missing && (rc = find_missing(db, out, rep, err))) goto out;
  /* the rows a single run stores: the sweep, then its points in index order */
  if ((rc = exec(db, out, "BEGIN IMMEDIATE", err))) goto out;
  if (sqlite3_prepare_v2(db,
                         "INSERT INTO main.sweeps(def_sha256, created_utc, input, definition, "
                         "n_points) VALUES(?,?,?,?,?)",
                         -1, &st, NULL) != SQLITE_OK) {
    rc = db_err(db, out, err, "cannot record the sweep");
    goto rollback;
  }
  sqlite3_bind_text(st, 1, ref->hash, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 2, created, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 3, ref->input, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 4, ref->definition, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 5, ref->n_points);
  if (sqlite3_step(st) != SQLITE_DONE) {
    rc = db_err(db, out, err, "cannot record the sweep");
    goto rollback;
  }
  sqlite3_finalize(st);
  st = NULL;
  if (sqlite3_prepare_v2(
          db, "INSERT INTO main.sweep_points SELECT ?1, " POINT_COLS " FROM temp.m ORDER BY idx",
          -1, &st, NULL) != SQLITE_OK) {
    rc = db_err(db, out, err, "cannot store the points");
    goto rollback;
  }
  sqlite3_bind_int64(st, 1, sqlite3_last_insert_rowid(db));
  if (sqlite3_step(st) != SQLITE_DONE) {
    rc = db_err(db, out, err, "cannot store the points");
    goto rollback;
  }
  sqlite3_finalize(st);
  st = NULL;
  if ((rc = exec(db, out, "COMMIT", err))) goto rollback;
  if (sqlite3_close(db) != SQLITE_OK) {
    rc = DCSIM_ERR(err, DCSIM_EDB, out, 0, "cannot close the database");
    db = NULL;
    goto out;
  }
  db = NULL;
  if (rename(tmp, out) != 0) {
    rc = DCSIM_ERR(err, DCSIM_EIO, out, 0, "cannot rename %s: %s", tmp, strerror(errno));
    goto out;
  }
  tmp_made = 0;
  goto out;
rollback:
  sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
out:
  sqlite3_finalize(st);
  sqlite3_close(db);
  if (tmp_made) remove_db_files(tmp);
  for (size_t k = 0; ins && k < n; k++) input_db_release(&ins[k]);
  free(ins);
  free(tmp);
  return rc;
}
