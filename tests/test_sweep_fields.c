/* test_sweep_fields.c — the field table of a sweep point (util/dbschema_sweep.h) and the SQL made
 * from it (sweep/sweep_fields.h): the sweep_points table the schema creates has
 * exactly the table's columns, types and NOT NULLs in its order; the added columns are the
 * migration's; the generated column, placeholder and definition lists; a feasible, an
 * energy-unknown and an infeasible point stored and read back through the generated INSERT and
 * SELECT with the NULL rules; and a database of the first version (no added column) read with
 * NULL for the columns it lacks (PRAGMA table_info). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "check.h"
#include "dcsim/lib.h"
#include "sweep/sweep_fields.h"
#include "util/dbschema.h"

static sqlite3 *mem_db(void) {
  sqlite3 *db = NULL;
  CHECK_INT(sqlite3_open(":memory:", &db), SQLITE_OK);
  return db;
}

/* the schema's sweep_points against the field table */
static void check_schema(void) {
  sqlite3 *db = mem_db();
  CHECK_INT(sqlite3_exec(db, dcsim__db_sweeps_schema.create_sql, NULL, NULL, NULL), SQLITE_OK);
  sqlite3_stmt *st = NULL;
  CHECK_INT(sqlite3_prepare_v2(
                db, "SELECT name, type, \"notnull\" FROM pragma_table_info('sweep_points')", -1,
                &st, NULL),
            SQLITE_OK);
  CHECK_INT(sqlite3_step(st), SQLITE_ROW);
  CHECK_STR((const char *)sqlite3_column_text(st, 0), "sweep_id");
  size_t i = 0;
  for (; sqlite3_step(st) == SQLITE_ROW; i++) {
    if (i >= dcsim__n_sweep_fields) break;
    const dcsim__sweep_field *f = &dcsim__sweep_fields[i];
    CHECK_STR((const char *)sqlite3_column_text(st, 0), f->name);
    CHECK_STR((const char *)sqlite3_column_text(st, 1), f->sql);
    CHECK_INT(sqlite3_column_int(st, 2), f->constraint[0] != '\0');
    /* a column with a NOT NULL is one of the first version (ALTER TABLE cannot add it) */
    if (f->constraint[0]) CHECK_STR(f->added, "");
    CHECK_INT(dcsim__db_schema_added(&dcsim__db_sweeps_schema, "sweep_points", f->name, NULL),
              f->added[0] != '\0');
    CHECK(f->since[0] != '\0');
  }
  CHECK_INT((int)i, (int)dcsim__n_sweep_fields); /* and no other column */
  sqlite3_finalize(st);
  sqlite3_close(db);
  /* the first field is idx (read first to check the index), and 19 fields today */
  CHECK_STR(dcsim__sweep_fields[0].name, "idx");
  CHECK_INT((int)dcsim__n_sweep_fields, 19);
}

/* the list's text, or "" when out of memory (a failed check) */
static const char *text(dcsim_str *b, int rc) {
  CHECK_INT(rc, 0);
  return dcsim_str_cstr(b);
}

static void check_lists(void) {
  dcsim_str b = DCSIM_STR_INIT;
  CHECK_STR(text(&b, dcsim__sweep_fields_list(&b, "m.", 1, NULL, NULL)),
            "m.cpu, m.gpu, m.nodes, m.cores, m.freq, m.feasible, m.reason, m.time_s, "
            "m.energy_j, m.time_prov, m.energy_prov");
  dcsim_str_release(&b);
  CHECK_STR(text(&b, dcsim__sweep_fields_list(&b, "", 0, NULL, NULL)),
            "idx, cpu, gpu, nodes, cores, freq, feasible, reason, time_s, energy_j, "
            "time_prov, energy_prov, cost_usd, cost_note, gpus, host_cpu, time_cover, "
            "threading, turbo_unmeasured");
  dcsim_str_release(&b);
  CHECK_STR(text(&b, dcsim__sweep_fields_params(&b, 2)),
            "?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, "
            "?20");
  dcsim_str_release(&b);
  const char *defs = text(&b, dcsim__sweep_fields_defs(&b));
  CHECK(strncmp(defs, "idx INTEGER, cpu TEXT, gpu TEXT, nodes INTEGER", 46) == 0);
  CHECK(strstr(defs, "time_cover REAL, threading TEXT, turbo_unmeasured INTEGER") != NULL);
  dcsim_str_release(&b);
  /* the merged fields one by one, then none */
  CHECK_STR(dcsim__sweep_fields_merged(0), "cpu");
  CHECK_STR(dcsim__sweep_fields_merged(10), "energy_prov");
  CHECK(dcsim__sweep_fields_merged(11) == NULL);
}

static void point(dcsim_sweep_point *p, uint32_t idx, int feasible) {
  memset(p, 0, sizeof *p);
  p->index = idx;
  p->done = 1;
  p->feasible = feasible;
  snprintf(p->cpu, sizeof p->cpu, "epyc-9654");
  snprintf(p->freq, sizeof p->freq, "2.4");
  p->nodes = 4;
  p->time_s = 12.5;
  p->energy_j = 3000.25;
  p->time_prov = 2; /* extrapolated */
  p->energy_prov = 1;
  p->cost_usd = 0.75;
  p->time_cover = 1.5;
  snprintf(p->threading, sizeof p->threading, "ideal");
  p->turbo_unmeasured = 1;
}

/* stores pts through the generated INSERT into db, reads them back through the generated SELECT */
/* stores pts through the generated INSERT into db, reads them back through the generated SELECT */
static void round_trip(sqlite3 *db, const dcsim_sweep_point *pts, size_t n, dcsim_sweep_point *got,
                       const char *want_cols) {
  dcsim_str q = DCSIM_STR_INIT;
  dcsim_str_add(&q, "INSERT INTO sweep_points(sweep_id, ");
  dcsim__sweep_fields_list(&q, "", 0, NULL, NULL);
  dcsim_str_add(&q, ") VALUES(?1, ");
  dcsim__sweep_fields_params(&q, 2);
  CHECK_INT(dcsim_str_add(&q, ")"), 0);
  sqlite3_stmt *st = NULL;
  CHECK_INT(sqlite3_prepare_v2(db, dcsim_str_cstr(&q), -1, &st, NULL), SQLITE_OK);
  dcsim_str_release(&q);
  for (size_t k = 0; k < n; k++) {
    sqlite3_bind_int(st, 1, 1);
    dcsim__sweep_fields_bind(st, 2, &pts[k]);
    CHECK_INT(sqlite3_step(st), SQLITE_DONE);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
  }
  sqlite3_finalize(st);
  CHECK_STR(text(&q, dcsim__sweep_fields_list(&q, "", 0, db, NULL)), want_cols);
  dcsim_str_release(&q);
  dcsim_str_add(&q, "SELECT ");
  dcsim__sweep_fields_list(&q, "", 0, db, NULL);
  CHECK_INT(dcsim_str_add(&q, " FROM sweep_points ORDER BY idx"), 0);
  CHECK_INT(sqlite3_prepare_v2(db, dcsim_str_cstr(&q), -1, &st, NULL), SQLITE_OK);
  dcsim_str_release(&q);
  for (size_t k = 0; k < n; k++) {
    CHECK_INT(sqlite3_step(st), SQLITE_ROW);
    memset(&got[k], 0, sizeof got[k]);
    dcsim_error e = { 0 };
    CHECK_INT(dcsim__sweep_fields_read(st, 0, &got[k], "mem.db", &e), 0);
  }
  CHECK_INT(sqlite3_step(st), SQLITE_DONE);
  sqlite3_finalize(st);
}

static void check_round_trip(void) {
  dcsim_sweep_point pts[3], got[3];
  point(&pts[0], 0, 1);
  point(&pts[1], 1, 1); /* energy unknown: energy, its provenance and cost NULL */
  pts[1].energy_j = NAN;
  pts[1].cost_usd = NAN;
  pts[1].reason = "no power table";
  pts[1].time_cover = 1;                                           /* no cover: NULL */
  pts[1].turbo_unmeasured = 0;                                     /* 0, not NULL */
  snprintf(pts[1].threading, sizeof pts[1].threading, "measured"); /* NULL */
  point(&pts[2], 7, 0);                                            /* infeasible */
  pts[2].reason = "frequency 2.4 not in the table";
  snprintf(pts[2].threading, sizeof pts[2].threading, "measured");
  sqlite3 *db = mem_db();
  CHECK_INT(sqlite3_exec(db, dcsim__db_sweeps_schema.create_sql, NULL, NULL, NULL), SQLITE_OK);
  round_trip(db, pts, 3, got,
             "idx, cpu, gpu, nodes, cores, freq, feasible, reason, time_s, energy_j, time_prov, "
             "energy_prov, cost_usd, cost_note, gpus, host_cpu, time_cover, threading, "
             "turbo_unmeasured");
  CHECK_INT((int)got[0].index, 0);
  CHECK_STR(got[0].cpu, "epyc-9654");
  CHECK_STR(got[0].gpu, "");
  CHECK_INT((int)got[0].nodes, 4);
  CHECK_INT((int)got[0].cores, 0);
  CHECK_STR(got[0].freq, "2.4");
  CHECK_INT(got[0].feasible, 1);
  CHECK(got[0].reason == NULL);
  CHECK_ABS(got[0].time_s, 12.5, 0);
  CHECK_ABS(got[0].energy_j, 3000.25, 0);
  CHECK_INT(got[0].time_prov, 2);
  CHECK_INT(got[0].energy_prov, 1);
  CHECK_ABS(got[0].cost_usd, 0.75, 0);
  CHECK_ABS(got[0].time_cover, 1.5, 0);
  CHECK_STR(got[0].threading, "ideal");
  CHECK_INT(got[0].turbo_unmeasured, 1);
  CHECK(isnan(got[1].energy_j) && isnan(got[1].cost_usd));
  CHECK_INT(got[1].energy_prov, 0);
  CHECK_STR(got[1].reason, "no power table");
  CHECK_ABS(got[1].time_cover, 0, 0);
  CHECK_STR(got[1].threading, ""); /* NULL: measured */
  CHECK_INT(got[1].turbo_unmeasured, 0);
  CHECK_INT((int)got[2].index, 7);
  CHECK_INT(got[2].feasible, 0);
  CHECK_STR(got[2].reason, "frequency 2.4 not in the table");
  CHECK(isnan(got[2].time_s) && isnan(got[2].energy_j) && isnan(got[2].cost_usd));
  CHECK_ABS(got[2].time_cover, 0, 0);
  CHECK_INT(got[2].turbo_unmeasured, 0); /* infeasible: NULL, not read */
  /* the NULLs as stored */
  sqlite3_stmt *st = NULL;
  CHECK_INT(sqlite3_prepare_v2(db,
                               "SELECT count(*) FROM sweep_points WHERE energy_j IS NULL AND "
                               "energy_prov IS NULL AND cost_usd IS NULL AND time_cover IS NULL "
                               "AND threading IS NULL AND gpus IS NULL AND host_cpu IS NULL",
                               -1, &st, NULL),
            SQLITE_OK);
  CHECK_INT(sqlite3_step(st), SQLITE_ROW);
  CHECK_INT(sqlite3_column_int(st, 0), 2); /* points 1 and 7 */
  sqlite3_finalize(st);
  /* turbo_unmeasured: 1, 0 and NULL (infeasible) */
  CHECK_INT(sqlite3_prepare_v2(db,
                               "SELECT group_concat(quote(turbo_unmeasured)) FROM (SELECT "
                               "turbo_unmeasured FROM sweep_points ORDER BY idx)",
                               -1, &st, NULL),
            SQLITE_OK);
  CHECK_INT(sqlite3_step(st), SQLITE_ROW);
  CHECK_STR((const char *)sqlite3_column_text(st, 0), "1,0,NULL");
  sqlite3_finalize(st);
  sqlite3_close(db);
  for (int k = 0; k < 3; k++) free(got[k].reason);
}

/* a database of the table's first version: the added columns are read as NULL */
static void check_old_database(void) {
  char sql[4096] = "CREATE TABLE sweep_points(sweep_id INTEGER NOT NULL";
  size_t len = strlen(sql);
  for (size_t i = 0; i < dcsim__n_sweep_fields; i++)
    if (!dcsim__sweep_fields[i].added[0])
      len += (size_t)snprintf(sql + len, sizeof sql - len, ", %s %s", dcsim__sweep_fields[i].name,
                              dcsim__sweep_fields[i].sql);
  snprintf(sql + len, sizeof sql - len, ")");
  sqlite3 *db = mem_db();
  CHECK_INT(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
  CHECK_INT(sqlite3_exec(db,
                         "INSERT INTO sweep_points VALUES(1, 3, 'a64fx', '', 2, 48, '2.2', 1, "
                         "NULL, 9.5, 100)",
                         NULL, NULL, NULL),
            SQLITE_OK);
  dcsim_str q = DCSIM_STR_INIT;
  CHECK_STR(text(&q, dcsim__sweep_fields_list(&q, "", 0, db, NULL)),
            "idx, cpu, gpu, nodes, cores, freq, feasible, reason, time_s, energy_j, "
            "NULL AS time_prov, NULL AS energy_prov, NULL AS cost_usd, NULL AS cost_note, "
            "NULL AS gpus, NULL AS host_cpu, NULL AS time_cover, NULL AS threading, "
            "NULL AS turbo_unmeasured");
  snprintf(sql, sizeof sql, "SELECT %s FROM sweep_points", dcsim_str_cstr(&q));
  dcsim_str_release(&q);
  sqlite3_stmt *st = NULL;
  CHECK_INT(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
  CHECK_INT(sqlite3_step(st), SQLITE_ROW);
  dcsim_sweep_point p;
  memset(&p, 0, sizeof p);
  dcsim_error e = { 0 };
  CHECK_INT(dcsim__sweep_fields_read(st, 0, &p, "old.db", &e), 0);
  CHECK_INT((int)p.index, 3);
  CHECK_STR(p.cpu, "a64fx");
  CHECK_INT((int)p.cores, 48);
  CHECK_ABS(p.energy_j, 100, 0);
  CHECK_INT(p.time_prov, 0); /* no provenance stored: a table value */
  CHECK(isnan(p.cost_usd));
  CHECK_INT((int)p.gpus, 0);
  CHECK_STR(p.threading, "");
  CHECK_INT(p.turbo_unmeasured, 0); /* NULL: no unmeasured turbo */
  sqlite3_finalize(st);
  sqlite3_close(db);
}

/* the results on the MPI wire: written and read back bit for bit; a message cut short refused */
typedef struct buf {
  unsigned char b[4096];
  size_t n;
} buf;

static void put_buf(void *ctx, const void *v, size_t n) {
  buf *b = ctx;
  CHECK(b->n + n <= sizeof b->b);
  if (b->n + n > sizeof b->b) return;
  memcpy(b->b + b->n, v, n);
  b->n += n;
}

static void check_wire(void) {
  dcsim_sweep_point p, q;
  point(&p, 5, 1);
  p.reason = "energy unknown";
  snprintf(p.cost_missing, sizeof p.cost_missing, "a100");
  buf b = { .n = 0 };
  dcsim__sweep_fields_wire_put(&p, put_buf, &b);
  memset(&q, 0, sizeof q);
  size_t at = 0;
  CHECK_INT(dcsim__sweep_fields_wire_get(&q, b.b, b.n, &at), 0);
  CHECK_INT((int)at, (int)b.n);
  CHECK_INT(q.feasible, 1);
  CHECK_ABS(q.time_s, 12.5, 0);
  CHECK_ABS(q.energy_j, 3000.25, 0);
  CHECK_INT(q.time_prov, 2);
  CHECK_ABS(q.cost_usd, 0.75, 0);
  CHECK_STR(q.cost_missing, "a100");
  CHECK_ABS(q.time_cover, 1.5, 0);
  CHECK_INT(q.turbo_unmeasured, 1); /* a result: sent (point() sets it) */
  CHECK_STR(q.reason, "energy unknown");
  CHECK_STR(q.cpu, ""); /* not a result: not sent */
  CHECK_STR(q.threading, "");
  /* restored into a point of the sweep: the results only */
  dcsim_sweep_point r;
  memset(&r, 0, sizeof r);
  snprintf(r.cpu, sizeof r.cpu, "kept");
  CHECK_INT(dcsim__sweep_fields_copy_results(&r, &q), 0);
  CHECK_INT(r.done, 1);
  CHECK_STR(r.cpu, "kept");
  CHECK_STR(r.reason, "energy unknown");
  CHECK_ABS(r.time_s, 12.5, 0);
  free(r.reason);
  free(q.reason);
  /* every length short of the whole message is refused */
  for (size_t n = 0; n < b.n; n++) {
    memset(&q, 0, sizeof q);
    at = 0;
    if (dcsim__sweep_fields_wire_get(&q, b.b, n, &at) != DCSIM_EINTERNAL) {
      CHECK_INT((int)n, -1);
      break;
    }
    free(q.reason);
  }
  /* a provenance out of range is refused */
  memset(&q, 0, sizeof q);
  p.time_prov = 9;
  b.n = 0;
  dcsim__sweep_fields_wire_put(&p, put_buf, &b);
  at = 0;
  CHECK_INT(dcsim__sweep_fields_wire_get(&q, b.b, b.n, &at), DCSIM_EINTERNAL);
  free(q.reason);
}

/* a stored CPU name longer than the point's member is refused, not cut (a cut name would be
 * looked up as another profile and given another profile's band) */
static void check_long_name(void) {
  sqlite3 *db = mem_db();
  CHECK_INT(sqlite3_exec(db, "CREATE TABLE t(idx INTEGER, cpu TEXT)", NULL, NULL, NULL), SQLITE_OK);
  char name[101];
  memset(name, 'x', 100);
  name[100] = '\0';
  char sql[300];
  snprintf(sql, sizeof sql, "INSERT INTO t VALUES(0, '%s')", name);
  CHECK_INT(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
  /* the table's columns in order (idx, cpu, ...), NULL for those t lacks */
  CHECK(strcmp(dcsim__sweep_fields[0].name, "idx") == 0 &&
        strcmp(dcsim__sweep_fields[1].name, "cpu") == 0);
  dcsim_str sel = DCSIM_STR_INIT;
  dcsim_str_addf(&sel, "SELECT idx, cpu");
  for (size_t i = 2; i < dcsim__n_sweep_fields; i++) dcsim_str_add(&sel, ", NULL");
  dcsim_str_add(&sel, " FROM t");
  sqlite3_stmt *st = NULL;
  CHECK_INT(sqlite3_prepare_v2(db, dcsim_str_cstr(&sel), -1, &st, NULL), SQLITE_OK);
  dcsim_str_release(&sel);
  CHECK_INT(sqlite3_step(st), SQLITE_ROW);
  dcsim_sweep_point p;
  memset(&p, 0, sizeof p);
  dcsim_error e = { 0 };
  CHECK_INT(dcsim__sweep_fields_read(st, 0, &p, "long.db", &e), DCSIM_ERANGE);
  CHECK(strstr(e.msg,
               "stored point: cpu 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' is longer "
               "than 63 bytes, the most a sweep point holds") != NULL);
  free(p.reason);
  sqlite3_finalize(st);
  sqlite3_close(db);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  check_schema();
  check_lists();
  check_round_trip();
  check_old_database();
  check_long_name();
  check_wire();
  CHECK_DONE();
}
