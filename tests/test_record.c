/* test_record.c — result records driven by field tables (util/record.h): the
 * generated INSERT, UPDATE and column definitions; a row bound, stored and read back through them
 * with the NULL rules; its JSON object and CSV lines; and the run's records of the results
 * database (output/results_records.h) against the schema's tables, column by column; a record
 * whose fields are in some outputs only (SQL, JSON, a JSON key only with a value, CSV, the text
 * table with a derived cell); a band as a JSON pair and two CSV columns, a note after a text row;
 * a CSV in its own column order and number formats; a bench cell's records against the
 * bench_points table. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "calib/measure/bench_internal.h"
#include "check.h"
#include "dcsim/error.h"
#include "dcsim/lib.h"
#include "output/model_records.h"
#include "output/results_records.h"
#include "output/run_totals.h"
#include "util/db.h"
#include "util/dbschema.h"
#include "util/record.h"

typedef struct row {
  long long id;
  const char *name;
  double time_s, ratio;
  long long trace;
  int ok;
} row;

static const dcsim__record_field fields[] = {
  DCSIM__RECORD_FIELD(row, id, INT64, "", "INTEGER", NEVER, "0.1.0"),
  DCSIM__RECORD_FIELD(row, name, TEXT, "", "TEXT", NEVER, "0.1.0"),
  DCSIM__RECORD_FIELD(row, time_s, REAL, "s", "REAL", NEVER, "0.1.0"),
  DCSIM__RECORD_FIELD(row, ratio, REAL, "", "REAL", UNDEF, "0.1.0"),
  DCSIM__RECORD_FIELD(row, trace, INT64, "", "INTEGER", ZERO, "0.1.0"),
  DCSIM__RECORD_FIELD(row, ok, BOOL, "", "INTEGER", NEVER, "0.1.0"),
};
static const dcsim__record rec = { "rows", fields, sizeof fields / sizeof *fields };

static void check_sql(void) {
  dcsim_str b = DCSIM_STR_INIT;
  CHECK_INT(dcsim__record_sql_insert(&rec, "run_id", 1, &b), 0);
  CHECK_STR(dcsim_str_cstr(&b),
            "INSERT INTO rows(run_id, id, name, time_s, ratio, trace, ok) VALUES(?,?,?,?,?,?,?)");
  dcsim_str_release(&b);
  CHECK_INT(dcsim__record_sql_insert(&rec, "", 0, &b), 0);
  CHECK_STR(dcsim_str_cstr(&b),
            "INSERT INTO rows(id, name, time_s, ratio, trace, ok) VALUES(?,?,?,?,?,?)");
  dcsim_str_release(&b);
  CHECK_INT(dcsim__record_sql_update(&rec, "id", &b), 0);
  CHECK_STR(dcsim_str_cstr(&b),
            "UPDATE rows SET id=?, name=?, time_s=?, ratio=?, trace=?, ok=? WHERE id=?");
  dcsim_str_release(&b);
  CHECK_INT(dcsim__record_sql_defs(&rec, &b), 0);
  CHECK_STR(dcsim_str_cstr(&b),
            "id INTEGER, name TEXT, time_s REAL, ratio REAL, trace INTEGER, ok INTEGER");
  dcsim_str_release(&b);
}

/* two rows stored and read back: every value, and every NULL rule */
static void check_round_trip(void) {
  sqlite3 *db = NULL;
  CHECK_INT(sqlite3_open(":memory:", &db), SQLITE_OK);
  dcsim_str b = DCSIM_STR_INIT;
  dcsim_str_add(&b, "CREATE TABLE rows(");
  dcsim__record_sql_defs(&rec, &b);
  dcsim_str_add(&b, ")");
  CHECK_INT(sqlite3_exec(db, b.s, NULL, NULL, NULL), SQLITE_OK);
  dcsim_str_release(&b);
  dcsim__record_sql_insert(&rec, "", 0, &b);
  sqlite3_stmt *st = NULL;
  CHECK_INT(sqlite3_prepare_v2(db, b.s, -1, &st, NULL), SQLITE_OK);
  dcsim_str_release(&b);
  row in[2] = { { 7, "alaro, \"60h\"", 2.385, 1.75, 4123, 1 }, { 8, "x", 0.5, NAN, 0, 0 } };
  for (int i = 0; i < 2; i++) {
    dcsim__record_sql_bind(&rec, st, 1, &in[i]);
    CHECK_INT(sqlite3_step(st), SQLITE_DONE);
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  CHECK_INT(sqlite3_prepare_v2(db,
                               "SELECT id, name, time_s, ratio, trace, ok, ratio IS NULL, "
                               "trace IS NULL FROM rows ORDER BY id",
                               -1, &st, NULL),
            SQLITE_OK);
  for (int i = 0; i < 2; i++) {
    CHECK_INT(sqlite3_step(st), SQLITE_ROW);
    row out;
    dcsim__record_sql_read(&rec, st, 0, &out);
    CHECK_INT(out.id, in[i].id);
    CHECK_STR(out.name, in[i].name);
    CHECK_REL(out.time_s, in[i].time_s, 1e-15);
    if (i == 0) CHECK_REL(out.ratio, 1.75, 1e-15);
    if (i == 1) CHECK(isnan(out.ratio));
    CHECK_INT(out.trace, in[i].trace);
    CHECK_INT(out.ok, in[i].ok);
    CHECK_INT(sqlite3_column_int(st, 6), i == 1); /* NaN stored as NULL */
    CHECK_INT(sqlite3_column_int(st, 7), i == 1); /* 0 stored as NULL */
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
}

/* the row as JSON and CSV */
static void check_text(void) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  row r[2] = { { 7, "alaro, \"60h\"", 2.385, 1.75, 4123, 1 }, { 8, "x", 0.5, NAN, 0, 0 } };
  dcsim_json j;
  dcsim_json_init(&j, f, 0);
  dcsim__record_json(&rec, &j, &r[0]);
  fputc('\n', f);
  dcsim_json_init(&j, f, 0);
  dcsim__record_json(&rec, &j, &r[1]);
  fputc('\n', f);
  dcsim__record_csv_header(&rec, f);
  dcsim__record_csv_row(&rec, f, &r[0]);
  dcsim__record_csv_row(&rec, f, &r[1]);
  fclose(f);
  CHECK_STR(buf,
            "{\"id\":7,\"name\":\"alaro, \\\"60h\\\"\",\"time_s\":2.385,\"ratio\":1.75,"
            "\"trace\":4123,\"ok\":true}\n"
            "{\"id\":8,\"name\":\"x\",\"time_s\":0.5,\"ratio\":null,\"trace\":null,\"ok\":false}\n"
            "id,name,time_s,ratio,trace,ok\n"
            "7,\"alaro, \"\"60h\"\"\",2.385,1.75,4123,1\n"
            "8,x,0.5,,,0\n");
  free(buf);
}

/* the NULL rules of a GPU slot (a negative integer: NULL; slot 0 is a value) and of a flag shown
 * only when set (a BOOL 0 with the ZERO rule: NULL, so a JSON_OPT key is left out); a share in the
 * text table as a percentage */
typedef struct slot_row {
  long long slot;
  int flag;
  double share;
} slot_row;

/* clang-format off */
static const dcsim__record_field slot_fields[] = {
  DCSIM__RECORD_FIELD_OUT(slot_row, slot,  INT64, "", "INTEGER", NEG,   "0.1.0", DCSIM__RO_ALL | DCSIM__RO_TEXT, "slot", 4, PLAIN, NULL),
  DCSIM__RECORD_FIELD_OUT(slot_row, flag,  BOOL,  "", "INTEGER", ZERO,  "0.1.0", DCSIM__RO_SQL | DCSIM__RO_JSON_OPT | DCSIM__RO_CSV, NULL, 0, PLAIN, NULL),
  DCSIM__RECORD_FIELD_OUT(slot_row, share, REAL,  "", "",        NEVER, "0.1.0", DCSIM__RO_TEXT, "share", 7, PERCENT, NULL),
};
/* clang-format on */
static const dcsim__record slot_rec = { "slots", slot_fields,
                                        sizeof slot_fields / sizeof *slot_fields };

static void check_null_rules(void) {
  const slot_row in[3] = { { -1, 0, 0.0423 }, { 0, 1, 1 }, { 3, 0, 0.5 } };
  sqlite3 *db = NULL;
  CHECK_INT(sqlite3_open(":memory:", &db), SQLITE_OK);
  CHECK_INT(sqlite3_exec(db, "CREATE TABLE slots(slot INTEGER, flag INTEGER)", NULL, NULL, NULL),
            SQLITE_OK);
  dcsim_str b = DCSIM_STR_INIT;
  CHECK_INT(dcsim__record_sql_insert(&slot_rec, "", 0, &b), 0);
  sqlite3_stmt *st = NULL;
  CHECK_INT(sqlite3_prepare_v2(db, b.s, -1, &st, NULL), SQLITE_OK);
  dcsim_str_release(&b);
  for (int i = 0; i < 3; i++) {
    dcsim__record_sql_bind(&slot_rec, st, 1, &in[i]);
    CHECK_INT(sqlite3_step(st), SQLITE_DONE);
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  CHECK_INT(sqlite3_prepare_v2(db,
                               "SELECT coalesce(slot, 'null') || '/' || coalesce(flag, 'null') "
                               "FROM slots ORDER BY rowid",
                               -1, &st, NULL),
            SQLITE_OK);
  static const char *const stored[3] = { "null/null", "0/1", "3/null" };
  for (int i = 0; i < 3; i++) {
    CHECK_INT(sqlite3_step(st), SQLITE_ROW);
    CHECK_STR((const char *)sqlite3_column_text(st, 0), stored[i]);
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  for (int i = 0; i < 3; i++) {
    dcsim_json j;
    dcsim_json_init(&j, f, 0);
    dcsim__record_json(&slot_rec, &j, &in[i]);
    fputc('\n', f);
  }
  for (int i = 0; i < 3; i++) dcsim__record_csv_row(&slot_rec, f, &in[i]);
  dcsim__record_text_header(&slot_rec, f);
  for (int i = 0; i < 3; i++) dcsim__record_text_row(&slot_rec, f, &in[i]);
  fclose(f);
  CHECK_STR(buf,
            "{\"slot\":null}\n{\"slot\":0,\"flag\":true}\n{\"slot\":3}\n"
            ",\n0,1\n3,\n"
            "slot   share\n"
            "        4.2%\n"
            "   0  100.0%\n"
            "   3   50.0%\n");
  free(buf);
}

/* every field of a record is a column of its table in the results schema, with its type: one
 * the CREATE statement makes, or one the migration adds to an older database */
static void check_schema_record(sqlite3 *db, const dcsim__record *r) {
  for (size_t i = 0; i < r->n_fields; i++) {
    if (!(r->fields[i].out & DCSIM__RO_SQL)) continue; /* a field of the report only */
    const char *name = r->fields[i].name, *type = NULL;
    sqlite3_stmt *st = NULL;
    CHECK_INT(sqlite3_prepare_v2(db, "SELECT type FROM pragma_table_info(?1) WHERE name = ?2", -1,
                                 &st, NULL),
              SQLITE_OK);
    sqlite3_bind_text(st, 1, r->table, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW)
      CHECK_STR((const char *)sqlite3_column_text(st, 0), r->fields[i].sql);
    else if (dcsim__db_schema_added(&dcsim__db_results_schema, r->table, name, &type))
      CHECK_STR(type, r->fields[i].sql);
    else {
      fprintf(stderr, "%s.%s: not in the schema\n", r->table, name);
      CHECK(0);
    }
    sqlite3_finalize(st);
  }
}

/* the CREATE statement makes r's table with run_id (when lead) and then the record's SQL fields,
 * in the table's order, with their types: the schema is generated from the same lines
 * (util/dbschema_run.h) */
static void check_created_order(sqlite3 *db, const dcsim__record *r, int lead, size_t n_after) {
  sqlite3_stmt *st = NULL;
  CHECK_INT(sqlite3_prepare_v2(db, "SELECT name, type FROM pragma_table_info(?1) ORDER BY cid", -1,
                               &st, NULL),
            SQLITE_OK);
  sqlite3_bind_text(st, 1, r->table, -1, SQLITE_STATIC);
  for (int k = 0; k < lead; k++) CHECK_INT(sqlite3_step(st), SQLITE_ROW); /* run_id, id, ... */
  for (size_t i = 0; i < r->n_fields; i++) {
    if (!(r->fields[i].out & DCSIM__RO_SQL)) continue;
    CHECK_INT(sqlite3_step(st), SQLITE_ROW);
    CHECK_STR((const char *)sqlite3_column_text(st, 0), r->fields[i].name);
    CHECK_STR((const char *)sqlite3_column_text(st, 1), r->fields[i].sql);
  }
  size_t after = 0;
  while (sqlite3_step(st) == SQLITE_ROW) after++;
  CHECK_INT((int)after, (int)n_after);
  sqlite3_finalize(st);
}

static void check_results_records(void) {
  sqlite3 *db = NULL;
  CHECK_INT(sqlite3_open(":memory:", &db), SQLITE_OK);
  CHECK_INT(sqlite3_exec(db, dcsim__db_results_schema.create_sql, NULL, NULL, NULL), SQLITE_OK);
  check_schema_record(db, &dcsim__run_totals_record);
  check_schema_record(db, &dcsim__job_record);
  check_schema_record(db, &dcsim__node_record);
  check_schema_record(db, &dcsim__bucket_record);
  check_schema_record(db, &dcsim__task_record);
  check_schema_record(db, &dcsim__power_record);
  check_schema_record(db, &dcsim__input_record);
  /* runs: id .. task_policy before the totals, the build identity and deadline after */
  check_created_order(db, &dcsim__run_totals_record, 7, 3);
  check_created_order(db, &dcsim__job_record, 1, 0);
  check_created_order(db, &dcsim__node_record, 1, 0);
  check_created_order(db, &dcsim__bucket_record, 1, 0);
  check_created_order(db, &dcsim__task_record, 1, 0);
  check_created_order(db, &dcsim__power_record, 1, 0);
  check_created_order(db, &dcsim__input_record, 1, 0);
  CHECK_INT((int)dcsim__record_count(&dcsim__task_record, DCSIM__RO_SQL), 14);
  /* a node group: a record of the report alone (no SQL, no CSV); the text table's 7 columns */
  CHECK_INT((int)dcsim__record_count(&dcsim__group_record, DCSIM__RO_SQL | DCSIM__RO_CSV), 0);
  CHECK_INT((int)dcsim__record_count(&dcsim__group_record, DCSIM__RO_JSON | DCSIM__RO_JSON_OPT),
            11);
  CHECK_INT((int)dcsim__record_count(&dcsim__group_record, DCSIM__RO_TEXT), 7);
  CHECK_INT((int)dcsim__record_count(&dcsim__job_record, DCSIM__RO_SQL), 18);
  /* the report's job columns: every JSON key but the database's job number */
  CHECK_INT((int)dcsim__record_count(&dcsim__job_record, DCSIM__RO_JSON | DCSIM__RO_JSON_OPT), 18);
  CHECK_INT((int)dcsim__record_count(&dcsim__job_record, DCSIM__RO_CSV), 24);
  CHECK_INT((int)dcsim__record_count(&dcsim__job_record, DCSIM__RO_TEXT), 8);
  sqlite3_close(db);
}

/* a bench cell (calib/measure/bench_cells.c, util/dbschema_bench.h): the bench_points table is
 * made from its SQL fields in table order, after run_id, as bench_runs, bench_fits and
 * bench_heldout from theirs; raw.csv has 20 of its 25 columns, in
 * their own order 1..20; the table CSVs and loops.csv have their own headers */
static void check_bench_records(void) {
  sqlite3 *db = NULL;
  CHECK_INT(sqlite3_open(":memory:", &db), SQLITE_OK);
  CHECK_INT(sqlite3_exec(db, dcsim__db_bench_schema.create_sql, NULL, NULL, NULL), SQLITE_OK);
  check_schema_record(db, &dcsim__bench_points_record);
  check_created_order(db, &dcsim__bench_points_record, 1, 0);
  check_created_order(db, &dcsim__bench_run_record, 2, 0); /* after id and created_utc */
  check_created_order(db, &dcsim__bench_fit_record, 1, 0);
  check_created_order(db, &dcsim__bench_heldout_record, 1, 0);
  sqlite3_close(db);
  const dcsim__record *r = &dcsim__bench_points_record;
  CHECK_INT((int)dcsim__record_count(r, DCSIM__RO_SQL), 25);
  CHECK_INT((int)dcsim__record_count(r, DCSIM__RO_CSV), 20);
  unsigned seen = 0; /* every raw.csv column 1..20 once */
  for (size_t i = 0; i < r->n_fields; i++)
    if (r->fields[i].out & DCSIM__RO_CSV) {
      CHECK(r->fields[i].csv_at >= 1 && r->fields[i].csv_at <= 20);
      CHECK((seen & (1u << r->fields[i].csv_at)) == 0);
      seen |= 1u << r->fields[i].csv_at;
    }
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  dcsim__record_csv_header(r, f);
  dcsim__record_csv_header(&dcsim__bench_table_record, f);
  dcsim__record_csv_header(&dcsim__bench_loops_record, f);
  fclose(f);
  CHECK_STR(buf,
            "phase,kernel,level,threads,ws_byte,reps,median,min,max,unit,disp,remeasured,"
            "redone,disturbed,cpu_share,clock_min_ghz,clock_max_ghz,steal,status,flag\n"
            "frequency,threads,value,unit,min,max,reps,clock_ghz,ws_byte,disp,remeasured,"
            "flag\n"
            "loop,frequency,threads,traffic_byte,work_flop,time_s,time_min_s,time_max_s,"
            "n_elem,passes,clock_ghz,disp,remeasured,weight\n");
  free(buf);
}

/* a record with fields in some outputs only: a database-only key, a JSON key present only with
 * a value, report-only columns, a text table with a derived cell */
typedef struct mixed {
  long long key;
  const char *name;
  double time_s, band_s[2];
  long long trace;
  const char *note;
} mixed;

static const char *cell_band(const void *r, char *buf, size_t size) {
  const mixed *m = r;
  snprintf(buf, size, "%g..%g", m->band_s[0], m->band_s[1]);
  return buf;
}

/* clang-format off */
static const dcsim__record_field mixed_fields[] = {
  DCSIM__RECORD_FIELD_OUT(mixed, key,    INT64, "",  "INTEGER", NEVER, "0.1.0", DCSIM__RO_SQL, NULL, 0, PLAIN, NULL),
  DCSIM__RECORD_FIELD_OUT(mixed, name,   TEXT,  "",  "TEXT",    NEVER, "0.1.0", DCSIM__RO_ALL | DCSIM__RO_TEXT, "what", -6, PLAIN, NULL),
  DCSIM__RECORD_FIELD_OUT(mixed, time_s, REAL,  "s", "REAL",    NEVER, "0.1.0", DCSIM__RO_ALL | DCSIM__RO_TEXT, "time [s]", 9, SIG, NULL),
  DCSIM__RECORD_FIELD_OUT(mixed, trace,  INT64, "",  "INTEGER", ZERO,  "0.1.0", DCSIM__RO_SQL | DCSIM__RO_JSON_OPT | DCSIM__RO_CSV, NULL, 0, PLAIN, NULL),
  DCSIM__RECORD_FIELD_OUT(mixed, note,   TEXT,  "",  "",        NEVER, "0.1.0", DCSIM__RO_JSON | DCSIM__RO_CSV, NULL, 0, PLAIN, NULL),
  DCSIM__RECORD_FIELD_OUT(mixed, band_s, REAL,  "s", "",        NEVER, "0.1.0", DCSIM__RO_TEXT, "band [s]", 10, PLAIN, cell_band),
};
/* clang-format on */
static const dcsim__record mixed_rec = { "mixed", mixed_fields,
                                         sizeof mixed_fields / sizeof *mixed_fields };

static void check_outputs(void) {
  CHECK_INT((int)dcsim__record_count(&mixed_rec, DCSIM__RO_SQL), 4);
  CHECK_INT((int)dcsim__record_find(&mixed_rec, "trace"), 3);
  CHECK_INT((int)dcsim__record_find(&mixed_rec, "absent"), 6);
  /* SQL: the SQL fields alone, bound and read back in their order */
  dcsim_str b = DCSIM_STR_INIT;
  CHECK_INT(dcsim__record_sql_defs(&mixed_rec, &b), 0);
  CHECK_STR(dcsim_str_cstr(&b), "key INTEGER, name TEXT, time_s REAL, trace INTEGER");
  dcsim_str_release(&b);
  CHECK_INT(dcsim__record_sql_update(&mixed_rec, "key", &b), 0);
  CHECK_STR(dcsim_str_cstr(&b), "UPDATE mixed SET key=?, name=?, time_s=?, trace=? WHERE key=?");
  dcsim_str_release(&b);
  sqlite3 *db = NULL;
  CHECK_INT(sqlite3_open(":memory:", &db), SQLITE_OK);
  CHECK_INT(sqlite3_exec(db,
                         "CREATE TABLE mixed(run_id INTEGER, key INTEGER, name TEXT, "
                         "time_s REAL, trace INTEGER)",
                         NULL, NULL, NULL),
            SQLITE_OK);
  CHECK_INT(dcsim__record_sql_insert(&mixed_rec, "run_id", 1, &b), 0);
  CHECK_STR(dcsim_str_cstr(&b),
            "INSERT INTO mixed(run_id, key, name, time_s, trace) VALUES(?,?,?,?,?)");
  sqlite3_stmt *st = NULL;
  CHECK_INT(sqlite3_prepare_v2(db, b.s, -1, &st, NULL), SQLITE_OK);
  dcsim_str_release(&b);
  mixed in = { 3, "ab", 1234.5678, { 1000, 1500 }, 0, "no price" };
  sqlite3_bind_int(st, 1, 9);
  dcsim__record_sql_bind(&mixed_rec, st, 2, &in);
  CHECK_INT(sqlite3_step(st), SQLITE_DONE);
  sqlite3_finalize(st);
  CHECK_INT(sqlite3_prepare_v2(db, "SELECT key, name, time_s, trace, trace IS NULL FROM mixed", -1,
                               &st, NULL),
            SQLITE_OK);
  CHECK_INT(sqlite3_step(st), SQLITE_ROW);
  mixed out = { 0, NULL, 0, { -1, -1 }, -1, "kept" };
  dcsim__record_sql_read(&mixed_rec, st, 0, &out);
  CHECK_INT(out.key, 3);
  CHECK_STR(out.name, "ab");
  CHECK_REL(out.time_s, 1234.5678, 1e-15);
  CHECK_INT(out.trace, 0);
  CHECK_INT(sqlite3_column_int(st, 4), 1);
  CHECK_STR(out.note, "kept"); /* not a column: left alone */
  CHECK_REL(out.band_s[0], -1, 0);
  sqlite3_finalize(st);
  sqlite3_close(db);
  /* JSON (trace absent while 0), CSV, the text table */
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  mixed r2 = { 4, "longer name", 0.000123456, { 0.0001, 0.0002 }, 77, "a, b" };
  dcsim_json j;
  dcsim_json_init(&j, f, 0);
  dcsim__record_json(&mixed_rec, &j, &in);
  fputc('\n', f);
  dcsim_json_init(&j, f, 0);
  dcsim_json_obj_begin(&j);
  dcsim__record_json_members(&mixed_rec, &j, &r2, 0, 3);
  dcsim_json_key_int(&j, "between", 1);
  dcsim__record_json_members(&mixed_rec, &j, &r2, 3, mixed_rec.n_fields);
  dcsim_json_obj_end(&j);
  fputc('\n', f);
  dcsim__record_csv_header(&mixed_rec, f);
  dcsim__record_csv_row(&mixed_rec, f, &in);
  dcsim__record_csv_row(&mixed_rec, f, &r2);
  dcsim__record_text_header(&mixed_rec, f);
  dcsim__record_text_row(&mixed_rec, f, &in);
  dcsim__record_text_row(&mixed_rec, f, &r2);
  fclose(f);
  CHECK_STR(buf,
            "{\"name\":\"ab\",\"time_s\":1234.5678,\"note\":\"no price\"}\n"
            "{\"name\":\"longer name\",\"time_s\":0.000123456,\"between\":1,\"trace\":77,"
            "\"note\":\"a, b\"}\n"
            "name,time_s,trace,note\n"
            "ab,1234.5678,,no price\n"
            "longer name,0.000123456,77,\"a, b\"\n"
            "what    time [s]   band [s]\n"
            "ab       1234.57 1000..1500\n"
            "longer name 0.000123456 0.0001..0.0002\n");
  free(buf);
}

/* a row of the run-time text table below */
typedef struct lrow {
  const char *name;
  int ok;
  double v;
} lrow;

static const char *cell_name(const dcsim__text_col *c, const void *lr, dcsim_str *b, int *rest) {
  (void)c;
  (void)b;
  (void)rest;
  return ((const lrow *)lr)->name;
}

static const char *cell_v(const dcsim__text_col *c, const void *lr, dcsim_str *b, int *rest) {
  (void)c;
  (void)rest;
  dcsim_str_addf(b, "%.3f", ((const lrow *)lr)->v);
  return dcsim_str_cstr(b);
}

/* the note column: "fine", or for a row not ok a cell taking the rest of the line */
static const char *cell_note(const dcsim__text_col *c, const void *lr, dcsim_str *b, int *rest) {
  (void)c;
  const lrow *r = lr;
  if (r->ok) return "fine";
  *rest = 1;
  dcsim_str_addf(b, "failed: %s", r->name);
  return dcsim_str_cstr(b);
}

/* the last column: the column's arg ("yes") or "no" */
static const char *cell_last(const dcsim__text_col *c, const void *lr, dcsim_str *b, int *rest) {
  (void)b;
  (void)rest;
  return ((const lrow *)lr)->ok ? (const char *)c->arg : "no";
}

/* A table laid out at run time: the fit column widens to its longest cell (and keeps its least
 * width when its cells are shorter), gaps of 0, 1 and 2 spaces, a cell that takes the rest of the
 * line, an unpadded last column. */
static void check_text_layout(void) {
  lrow rows[] = { { "a", 1, 2.385 }, { "a much longer name", 0, -17.25 }, { "b", 1, 1e3 } };
  dcsim__text_col cols[] = { { "name", -6, 0, 1, cell_name, NULL },
                             { "value", 10, 2, 0, cell_v, NULL },
                             { "note", -5, 1, 0, cell_note, NULL },
                             { "ok", 0, 0, 0, cell_last, "yes" } };
  char *buf = NULL;
  size_t len = 0;
  for (int fit_rows = 0; fit_rows <= 3; fit_rows += 3) {
    dcsim__text_col c[4];
    memcpy(c, cols, sizeof c);
    for (int i = 0; i < fit_rows; i++) dcsim__text_fit(c, 4, &rows[i]);
    FILE *f = open_memstream(&buf, &len);
    dcsim__text_header(c, 4, f);
    for (int i = 0; i < 3; i++) dcsim__text_row(c, 4, f, &rows[i]);
    fclose(f);
    if (fit_rows)
      CHECK_STR(buf,
                "name                     value note ok\n"
                "a                        2.385 fine yes\n"
                "a much longer name     -17.250 failed: a much longer name\n"
                "b                     1000.000 fine yes\n");
    else
      CHECK_STR(buf,
                "name         value note ok\n"
                "a            2.385 fine yes\n"
                "a much longer name     -17.250 failed: a much longer name\n"
                "b         1000.000 fine yes\n");
    free(buf);
    buf = NULL;
  }
  CHECK_INT(cols[0].width, -6); /* the caller's table is left as it was */
}

/* a row of another record under mixed's CSV columns: its fields by name (one named apart from
 * its member, inside an embedded row), empty cells for the columns it lacks, a field of the same
 * name but not in CSV left out, a field mixed has not ignored */
typedef struct total {
  struct {
    double time_s;
  } in;
  const char *what;
  const char *note;
  long long trace, extra;
} total;

/* clang-format off */
static const dcsim__record_field total_fields[] = {
  DCSIM__RECORD_FIELD_AT("name", total, what, TEXT, "", "", NEVER, "0.1.0", DCSIM__RO_CSV, NULL, 0, PLAIN, NULL),
  DCSIM__RECORD_FIELD_AT("time_s", total, in.time_s, REAL, "s", "", UNDEF, "0.1.0", DCSIM__RO_CSV | DCSIM__RO_JSON, NULL, 0, PLAIN, NULL),
  DCSIM__RECORD_FIELD_OUT(total, note, TEXT, "", "", NEVER, "0.1.0", DCSIM__RO_JSON, NULL, 0, PLAIN, NULL),
  DCSIM__RECORD_FIELD_OUT(total, trace, INT64, "", "", ZERO, "0.1.0", DCSIM__RO_CSV, NULL, 0, PLAIN, NULL),
  DCSIM__RECORD_FIELD_OUT(total, extra, INT64, "", "", NEVER, "0.1.0", DCSIM__RO_CSV, NULL, 0, PLAIN, NULL),
};
/* clang-format on */
static const dcsim__record total_rec = { "", total_fields,
                                         sizeof total_fields / sizeof *total_fields };

static void check_csv_under(void) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  const total t[2] = { { { 2.385 }, "centre:total", "a, b", 0, 5 },
                       { { NAN }, "centre, idle", NULL, 41, 6 } };
  dcsim__record_csv_header(&mixed_rec, f);
  for (int i = 0; i < 2; i++) dcsim__record_csv_row_under(&mixed_rec, &total_rec, f, &t[i]);
  dcsim_json j;
  dcsim_json_init(&j, f, 0);
  dcsim__record_json(&total_rec, &j, &t[0]);
  fclose(f);
  CHECK_STR(buf,
            "name,time_s,trace,note\n"
            "centre:total,2.385,,\n"
            "\"centre, idle\",,41,\n"
            "{\"time_s\":2.385,\"note\":\"a, b\"}");
  free(buf);
}

/* a printed total read from the runs table's row (output/run_totals.h: a member of `db`) is the
 * runs record's field of the same name: the same member, kind and unit */
static void check_printed_totals(const dcsim__record *r) {
  const dcsim__record *runs = &dcsim__run_totals_record;
  size_t db = offsetof(dcsim__totals_row, db), n_db = 0;
  for (size_t i = 0; i < r->n_fields; i++) {
    const dcsim__record_field *f = &r->fields[i];
    if (f->offset < db || f->offset >= db + sizeof(dcsim__run_totals)) continue;
    n_db++;
    size_t k = dcsim__record_find(runs, f->name);
    if (k == runs->n_fields) fprintf(stderr, "printed total %s: not a runs column\n", f->name);
    CHECK(k < runs->n_fields);
    if (k == runs->n_fields) continue;
    CHECK_INT((long long)(f->offset - db), (long long)runs->fields[k].offset);
    CHECK_INT(f->kind, runs->fields[k].kind);
    CHECK_STR(f->unit, runs->fields[k].unit);
  }
  CHECK(n_db > 0);
}

/* a band as a JSON pair and as two CSV columns of its ends (DCSIM__RECORD_ELEM); a note after
 * the text row (DCSIM__RT_NOTE) */
typedef struct banded {
  long long nodes;
  double time_s, band_s[2];
  const char *note;
} banded;

/* clang-format off */
static const dcsim__record_field banded_fields[] = {
  DCSIM__RECORD_FIELD_OUT(banded, nodes, INT64, "", "INTEGER", NEVER, "0.1.0", DCSIM__RO_ALL | DCSIM__RO_TEXT, "nodes", 5, PLAIN, NULL),
  DCSIM__RECORD_FIELD_OUT(banded, time_s, REAL, "s", "REAL", NEVER, "0.1.0", DCSIM__RO_ALL | DCSIM__RO_TEXT, "time [s]", 8, SIG, NULL),
  /* the mask names SQL and CSV: a PAIR is in neither all the same */
  DCSIM__RECORD_FIELD_OUT(banded, band_s, PAIR, "s", "REAL", UNDEF, "0.1.0", DCSIM__RO_ALL | DCSIM__RO_TEXT, "band [s]", -14, SIG, NULL),
  DCSIM__RECORD_ELEM(banded, "band_low_s", band_s, 0, REAL, "s", "REAL", UNDEF, "0.1.0", DCSIM__RO_SQL | DCSIM__RO_CSV, NULL, 0, PLAIN, NULL),
  DCSIM__RECORD_ELEM(banded, "band_high_s", band_s, 1, REAL, "s", "REAL", UNDEF, "0.1.0", DCSIM__RO_SQL | DCSIM__RO_CSV, NULL, 0, PLAIN, NULL),
  DCSIM__RECORD_FIELD_OUT(banded, note, TEXT, "", "", NEVER, "0.1.0", DCSIM__RO_TEXT, NULL, 0, NOTE, NULL),
};
/* clang-format on */
static const dcsim__record banded_rec = { "banded", banded_fields,
                                          sizeof banded_fields / sizeof *banded_fields };

static void check_pairs_notes(void) {
  CHECK_INT((int)dcsim__record_count(&banded_rec, DCSIM__RO_CSV), 4);
  CHECK_INT((int)dcsim__record_count(&banded_rec, DCSIM__RO_SQL), 4);
  CHECK_INT((int)dcsim__record_count(&banded_rec, DCSIM__RO_JSON), 3);
  dcsim_str b = DCSIM_STR_INIT;
  CHECK_INT(dcsim__record_sql_defs(&banded_rec, &b), 0);
  CHECK_STR(dcsim_str_cstr(&b), "nodes INTEGER, time_s REAL, band_low_s REAL, band_high_s REAL");
  dcsim_str_release(&b);
  /* the ends bound and read back through their elements */
  sqlite3 *db = NULL;
  CHECK_INT(sqlite3_open(":memory:", &db), SQLITE_OK);
  dcsim_str_add(&b, "CREATE TABLE banded(");
  CHECK_INT(dcsim__record_sql_defs(&banded_rec, &b), 0);
  dcsim_str_add(&b, ")");
  CHECK_INT(sqlite3_exec(db, b.s, NULL, NULL, NULL), SQLITE_OK);
  dcsim_str_release(&b);
  CHECK_INT(dcsim__record_sql_insert(&banded_rec, "", 0, &b), 0);
  sqlite3_stmt *st = NULL;
  CHECK_INT(sqlite3_prepare_v2(db, b.s, -1, &st, NULL), SQLITE_OK);
  dcsim_str_release(&b);
  banded in = { 4, 10.0133332, { 7.396849238, 11.56539985 }, NULL };
  dcsim__record_sql_bind(&banded_rec, st, 1, &in);
  CHECK_INT(sqlite3_step(st), SQLITE_DONE);
  sqlite3_finalize(st);
  CHECK_INT(sqlite3_prepare_v2(db, "SELECT * FROM banded", -1, &st, NULL), SQLITE_OK);
  CHECK_INT(sqlite3_step(st), SQLITE_ROW);
  banded out = { 0, 0, { 0, 0 }, "kept" };
  dcsim__record_sql_read(&banded_rec, st, 0, &out);
  CHECK_INT(out.nodes, 4);
  CHECK_REL(out.band_s[0], 7.396849238, 1e-15);
  CHECK_REL(out.band_s[1], 11.56539985, 1e-15);
  CHECK_STR(out.note, "kept");
  sqlite3_finalize(st);
  sqlite3_close(db);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  banded r2 = { 64, 0.7175839378, { NAN, NAN }, "  <- least energy" };
  dcsim_json j;
  dcsim_json_init(&j, f, 0);
  dcsim__record_json(&banded_rec, &j, &in);
  fputc('\n', f);
  dcsim_json_init(&j, f, 0);
  dcsim__record_json(&banded_rec, &j, &r2);
  fputc('\n', f);
  dcsim__record_csv_header(&banded_rec, f);
  dcsim__record_csv_row(&banded_rec, f, &in);
  dcsim__record_csv_row(&banded_rec, f, &r2);
  dcsim__record_text_header(&banded_rec, f);
  dcsim__record_text_row(&banded_rec, f, &in);
  dcsim__record_text_row(&banded_rec, f, &r2);
  fclose(f);
  CHECK_STR(buf,
            "{\"nodes\":4,\"time_s\":10.0133332,\"band_s\":[7.396849238,11.56539985]}\n"
            "{\"nodes\":64,\"time_s\":0.7175839378,\"band_s\":null}\n"
            "nodes,time_s,band_low_s,band_high_s\n"
            "4,10.0133332,7.396849238,11.56539985\n"
            "64,0.7175839378,,\n"
            "nodes time [s] band [s]      \n"
            "    4  10.0133 7.39685..11.5654\n"
            "   64 0.717584                 <- least energy\n");
  free(buf);
}

/* 1 when field f is in an output of mask out (a PAIR is never in SQLite or CSV: util/record.h) */
static int in_out(const dcsim__record_field *f, unsigned out) {
  unsigned m = f->out;
  if (f->kind == DCSIM__RF_PAIR) m &= ~(unsigned)(DCSIM__RO_SQL | DCSIM__RO_CSV);
  return (m & out) != 0;
}

/* 1 when two fields of r in the outputs of mask out have the same name (a JSON key or a CSV
 * column written twice) */
static int has_twice(const dcsim__record *r, unsigned out) {
  for (size_t i = 0; i < r->n_fields; i++)
    for (size_t k = 0; k < i && in_out(&r->fields[i], out); k++)
      if (in_out(&r->fields[k], out) && !strcmp(r->fields[k].name, r->fields[i].name)) return 1;
  return 0;
}

/* row's CSV line as a string (the caller frees it) */
static char *csv_line(const dcsim__record *r, const void *line_row) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  dcsim__record_csv_row(r, f, line_row);
  fclose(f);
  return buf;
}

/* the cells of a CSV line without quotes: its commas + 1 */
static int cells(const char *line) {
  int n = 1;
  for (const char *c = line; *c; c++) n += *c == ',';
  return n;
}

/* the records of dcsim model and dcsim energy (output/model_records.h): no JSON key and no CSV
 * column twice, no SQL field; a total without an energy and a node count without energies have a
 * cell for every column of their header (they were one short); a scan row's JSON, CSV and remark */
static void check_model_records(void) {
  const dcsim__record *all[] = { &dcsim__model_part_record,     &dcsim__loop_text_record,
                                 &dcsim__kernel_text_record,    &dcsim__prediction_record,
                                 &dcsim__prediction_cpu_record, &dcsim__prediction_gpu_record,
                                 &dcsim__scan_record,           &dcsim__scan_summary_record,
                                 &dcsim__energy_record };
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
    CHECK_INT(has_twice(all[i], DCSIM__RO_JSON | DCSIM__RO_JSON_OPT), 0);
    CHECK_INT(has_twice(all[i], DCSIM__RO_CSV), 0);
    CHECK_INT((int)dcsim__record_count(all[i], DCSIM__RO_SQL), 0);
  }
  dcsim__model_part_row tot;
  dcsim__model_part_term("total", "bifft", 143.5062857, &tot);
  tot.time_band[0] = 106.0080932;
  tot.time_band[1] = 165.74976;
  char *line = csv_line(&dcsim__model_part_record, &tot);
  CHECK_STR(line, "total,bifft,143.5062857,,,,,,,,,,106.0080932,165.74976,,\n");
  CHECK_INT(cells(line), (int)dcsim__record_count(&dcsim__model_part_record, DCSIM__RO_CSV));
  CHECK_INT((int)dcsim__record_count(&dcsim__model_part_record, DCSIM__RO_CSV), 16);
  free(line);

  dcsim_node_scan *S = calloc(1, sizeof *S);
  CHECK(S != NULL);
  S->n = 2;
  S->nodes[0] = 1;
  S->nodes[1] = 4;
  S->t[1] = 3.309573148;
  S->comp[1] = 2.965856481;
  S->comm[1] = 0.3437166667;
  S->band[1].time[0] = 2.444781685;
  S->band[1].time[1] = 3.822556986;
  S->b.reached = 1;
  S->b.balance = 1;
  dcsim__scan_row sr;
  dcsim__scan_row_of(S, 1, &sr);
  line = csv_line(&dcsim__scan_record, &sr);
  CHECK_STR(line, "4,3.309573148,2.965856481,0.3437166667,,1,0,2.444781685,3.822556986,,\n");
  CHECK_INT(cells(line), (int)dcsim__record_count(&dcsim__scan_record, DCSIM__RO_CSV));
  free(line);
  CHECK_STR(sr.note, "  <- balance point: more nodes are not faster");
  /* with energies: the least energy at the balance point too */
  S->has_e = 1;
  S->e[1] = 5229.299786;
  S->band[1].energy[0] = 2598.948188;
  S->band[1].energy[1] = 11756.551;
  S->b.energy_min = 1;
  S->nominal_s[1] = 4.5;
  dcsim__scan_row_of(S, 1, &sr);
  CHECK_STR(sr.note, "  <- balance point: more nodes are not faster  <- least energy");
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  dcsim_json j;
  dcsim_json_init(&j, f, 0);
  dcsim__record_json(&dcsim__scan_record, &j, &sr);
  fclose(f);
  CHECK_STR(buf,
            "{\"nodes\":4,\"time_s\":3.309573148,\"compute_s\":2.965856481,\"comm_s\":0.3437166667,"
            "\"energy_j\":5229.299786,\"time_band\":[2.444781685,3.822556986],"
            "\"energy_band\":[2598.948188,11756.551],\"turbo_unmeasured_nominal_s\":4.5}");
  free(buf);
  free(S);
}

/* the columns of table in db, comma-separated in their order, into b */
static void columns_of(sqlite3 *db, const char *table, dcsim_str *b) {
  sqlite3_stmt *st = NULL;
  CHECK_INT(
      sqlite3_prepare_v2(db, "SELECT name FROM pragma_table_info(?1) ORDER BY cid", -1, &st, NULL),
      SQLITE_OK);
  sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
  for (int n = 0; sqlite3_step(st) == SQLITE_ROW; n++)
    dcsim_str_addf(b, "%s%s", n ? "," : "", (const char *)sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
}

/* A results database of the first version (the CREATE statements before any column was added)
 * gains the added columns by the migration, in the order a new database has them, and keeps its
 * rows (NULL in the new columns); a new one gets the same columns from the CREATE statement. */
static void check_results_migration(void) {
  static const char first_version[] =
      "CREATE TABLE runs(id INTEGER PRIMARY KEY, created_utc TEXT, dcsim_version TEXT, input TEXT,"
      " platform TEXT, job_policy TEXT, task_policy TEXT, time_to_solution_s REAL,"
      " energy_to_solution_j REAL, unallocated_idle_j REAL, nodes INTEGER, jobs INTEGER,"
      " tasks INTEGER, events INTEGER, utilisation REAL);"
      "CREATE TABLE inputs(run_id INTEGER REFERENCES runs(id), path TEXT, sha256 TEXT);"
      "CREATE TABLE workflows(run_id INTEGER REFERENCES runs(id), job INTEGER, name TEXT,"
      " instance INTEGER, submit_s REAL, start_s REAL, end_s REAL, wait_s REAL,"
      " time_to_solution_s REAL, energy_to_solution_j REAL, task_energy_j REAL, held_idle_j REAL,"
      " tasks INTEGER);"
      "CREATE TABLE tasks(run_id INTEGER REFERENCES runs(id), job INTEGER, task INTEGER,"
      " name TEXT, dwarf TEXT, device TEXT, node_group TEXT, start_ns INTEGER, end_ns INTEGER,"
      " start_s REAL, end_s REAL, nodes TEXT, gpu INTEGER, energy_j REAL);"
      "CREATE TABLE nodes(run_id INTEGER REFERENCES runs(id), node INTEGER, node_group TEXT,"
      " energy_j REAL, busy_s REAL, utilisation REAL);"
      "CREATE TABLE power(run_id INTEGER REFERENCES runs(id), node INTEGER, t0_ns INTEGER,"
      " t1_ns INTEGER, power_w REAL);"
      "CREATE TABLE utilisation(run_id INTEGER REFERENCES runs(id), bucket INTEGER, t0_s REAL,"
      " t1_s REAL, busy REAL, allocated REAL);"
      "INSERT INTO runs(id, input) VALUES(1, 'old.xml');"
      "INSERT INTO workflows(run_id, job, name) VALUES(1, 0, 'w');";
  static const char *const tables[] = { "runs",  "inputs", "workflows",  "tasks",
                                        "nodes", "power",  "utilisation" };
  sqlite3 *old = NULL, *fresh = NULL;
  dcsim_error err = { 0 };
  /* files (the migration turns WAL on, which an in-memory database cannot) */
  char dir[] = "/tmp/test_record_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  dcsim_str old_path = DCSIM_STR_INIT, new_path = DCSIM_STR_INIT;
  dcsim_str_addf(&old_path, "%s/old.db", dir);
  dcsim_str_addf(&new_path, "%s/new.db", dir);
  CHECK_INT(sqlite3_open(old_path.s, &old), SQLITE_OK);
  CHECK_INT(sqlite3_exec(old, first_version, NULL, NULL, NULL), SQLITE_OK);
  CHECK_INT(dcsim__db_migrate(old, "old.db", &dcsim__db_results_schema, &err), 0);
  CHECK_INT(sqlite3_open(new_path.s, &fresh), SQLITE_OK);
  CHECK_INT(dcsim__db_migrate(fresh, "new.db", &dcsim__db_results_schema, &err), 0);
  for (size_t t = 0; t < sizeof tables / sizeof *tables; t++) {
    dcsim_str a = DCSIM_STR_INIT, b = DCSIM_STR_INIT;
    columns_of(old, tables[t], &a);
    columns_of(fresh, tables[t], &b);
    CHECK_STR(dcsim_str_cstr(&a), dcsim_str_cstr(&b));
    dcsim_str_release(&a);
    dcsim_str_release(&b);
  }
  dcsim_str a = DCSIM_STR_INIT;
  columns_of(old, "runs", &a);
  CHECK_STR(dcsim_str_cstr(&a),
            "id,created_utc,dcsim_version,input,platform,job_policy,task_policy,"
            "time_to_solution_s,energy_to_solution_j,unallocated_idle_j,nodes,jobs,tasks,events,"
            "utilisation,allocated,mean_wait_s,max_wait_s,mean_flow_s,mean_slowdown,"
            "mean_bounded_slowdown,max_bounded_slowdown,boots,shutdowns,dcsim_commit,deadline_s,"
            "deadline_met");
  dcsim_str_release(&a);
  sqlite3_stmt *st = NULL;
  CHECK_INT(sqlite3_prepare_v2(old,
                               "SELECT r.input, r.allocated IS NULL, w.name, w.procs IS NULL "
                               "FROM runs r JOIN workflows w ON w.run_id = r.id",
                               -1, &st, NULL),
            SQLITE_OK);
  CHECK_INT(sqlite3_step(st), SQLITE_ROW);
  CHECK_STR((const char *)sqlite3_column_text(st, 0), "old.xml");
  CHECK_INT(sqlite3_column_int(st, 1), 1);
  CHECK_STR((const char *)sqlite3_column_text(st, 2), "w");
  CHECK_INT(sqlite3_column_int(st, 3), 1);
  sqlite3_finalize(st);
  sqlite3_close(old);
  sqlite3_close(fresh);
  for (int k = 0; k < 2; k++) { /* the files and their WAL companions */
    dcsim_str *p = k ? &new_path : &old_path;
    size_t len = p->len;
    remove(p->s);
    dcsim_str_add(p, "-wal");
    remove(p->s);
    p->len = len, p->s[len] = 0;
    dcsim_str_add(p, "-shm");
    remove(p->s);
    dcsim_str_release(p);
  }
  remove(dir);
}

/* A CSV in its own order and number formats (DCSIM__RECORD_COLUMN: csv_at, F, G), a column
 * named apart from its member, a field of SQL only; the SQL keeps table order. */
typedef struct cell {
  const char *phase, *flag;
  long long threads;
  double ws_byte, med, disp;
} cell;
/* clang-format off */
static const dcsim__record_field cell_fields[] = {
  DCSIM__RECORD_COLUMN(cell, "phase",   phase,   TEXT,  "",  "TEXT",    NEVER, "0.1.0", DCSIM__RO_SQL | DCSIM__RO_CSV, 1, PLAIN),
  DCSIM__RECORD_COLUMN(cell, "ws_byte", ws_byte, REAL,  "B", "REAL",    NEVER, "0.1.0", DCSIM__RO_SQL | DCSIM__RO_CSV, 3, F(0)),
  DCSIM__RECORD_COLUMN(cell, "threads", threads, INT64, "",  "INTEGER", NEVER, "0.1.0", DCSIM__RO_SQL | DCSIM__RO_CSV, 2, PLAIN),
  DCSIM__RECORD_COLUMN(cell, "median",  med,     REAL,  "",  "REAL",    NEVER, "0.1.0", DCSIM__RO_SQL | DCSIM__RO_CSV, 4, G(6)),
  DCSIM__RECORD_COLUMN(cell, "flag",    flag,    TEXT,  "",  "TEXT",    NEVER, "0.1.0", DCSIM__RO_SQL | DCSIM__RO_CSV, 6, PLAIN),
  DCSIM__RECORD_COLUMN(cell, "disp",    disp,    REAL,  "",  "REAL",    NEVER, "0.1.0", DCSIM__RO_SQL | DCSIM__RO_CSV, 5, F(4)),
  DCSIM__RECORD_COLUMN(cell, "hidden",  disp,    REAL,  "",  "REAL",    NEVER, "0.1.0", DCSIM__RO_SQL, 0, PLAIN),
};
/* clang-format on */
static const dcsim__record cell_rec = { "cells", cell_fields,
                                        sizeof cell_fields / sizeof *cell_fields };

static void check_csv_order(void) {
  dcsim_str b = DCSIM_STR_INIT;
  CHECK_INT(dcsim__record_sql_defs(&cell_rec, &b), 0);
  CHECK_STR(dcsim_str_cstr(&b),
            "phase TEXT, ws_byte REAL, threads INTEGER, median REAL, "
            "flag TEXT, disp REAL, hidden REAL");
  dcsim_str_release(&b);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  cell a = { "bw", NULL, 12, 32767.5, 123.456789, 0.0123456 };
  cell c = { "loop", "non-monotone: 2, 3", 3, 1e9, 2.5e-7, 0 };
  dcsim__record_csv_header(&cell_rec, f);
  dcsim__record_csv_row(&cell_rec, f, &a);
  dcsim__record_csv_row(&cell_rec, f, &c);
  fclose(f);
  /* a reader finds a member's column: "hidden" fills disp too, but is no CSV column */
  CHECK_STR(dcsim__record_member(&cell_rec, offsetof(cell, med), DCSIM__RO_CSV)->name, "median");
  CHECK_STR(dcsim__record_member(&cell_rec, offsetof(cell, disp), DCSIM__RO_SQL)->name, "disp");
  CHECK(dcsim__record_member(&cell_rec, offsetof(cell, disp) + 1, DCSIM__RO_CSV) == NULL);
  CHECK_STR(buf,
            "phase,threads,ws_byte,median,disp,flag\n"
            "bw,12,32768,123.457,0.0123,\n"
            "loop,3,1000000000,2.5e-07,0.0000,\"non-monotone: 2, 3\"\n");
  free(buf);
}

/* rows as JSON arrays by column (dcsim__record_json_columns): a range of fields, each an array
 * of its value in every row, a NULL value as null; the utilisation timeline's busy and allocated
 * (the bucket record's fields from "busy" on) */
static const void *row_of(const void *ctx, size_t k, void *buf) {
  (void)buf;
  return (const row *)ctx + k;
}
static const void *bucket_of(const void *ctx, size_t k, void *buf) {
  dcsim__bucket_row *b = buf;
  const double *alloc = ctx;
  *b = (dcsim__bucket_row){ (long long)k, 0, 0, 0.25 * (double)k + 0.125, alloc[k] };
  return b;
}
static void check_json_columns(void) {
  const row rows[] = { { 7, "a", 2.385, 0.5, 0, 1 }, { 8, "b\"c", 1e-3, NAN, 12, 0 } };
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  dcsim_json j;
  dcsim_json_init(&j, f, 0);
  dcsim_json_obj_begin(&j);
  dcsim__record_json_columns(&rec, &j, 1, 5, 2, row_of, rows, NULL); /* name .. trace */
  dcsim__record_json_columns(&rec, &j, 5, 5, 2, row_of, rows, NULL); /* an empty range */
  dcsim_json_obj_end(&j);
  const dcsim__record *br = &dcsim__bucket_record;
  const double alloc[] = { 0.5, 0.75, 1 };
  dcsim__bucket_row b;
  dcsim_json_obj_begin(&j);
  dcsim__record_json_columns(br, &j, dcsim__record_find(br, "busy"), br->n_fields, 3, bucket_of,
                             alloc, &b);
  dcsim_json_obj_end(&j);
  dcsim_json_obj_begin(&j);
  dcsim__record_json_columns(br, &j, dcsim__record_find(br, "busy"), br->n_fields, 0, bucket_of,
                             alloc, &b); /* no bucket: empty arrays */
  dcsim_json_obj_end(&j);
  fclose(f);
  CHECK(strstr(buf, "\"name\"") != NULL);
  CHECK(strstr(buf, "\"time_s\"") != NULL);
  CHECK(strstr(buf, "\"ratio\"") != NULL);
  CHECK(strstr(buf, "\"id\"") == NULL);
  CHECK(strstr(buf, "\"ok\"") == NULL);
  CHECK_STR(buf,
            "{\"name\":[\"a\",\"b\\\"c\"],\"time_s\":[2.385,0.001],\"ratio\":[0.5,null],"
            "\"trace\":[null,12]},"
            "{\"busy\":[0.125,0.375,0.625],\"allocated\":[0.5,0.75,1]},"
            "{\"busy\":[],\"allocated\":[]}");
  free(buf);
}

/* probe.csv's header and lines (bench_cells.c) in the format of a recorded --probe run
 * (probe.csv of the runs in calibration/cascadelake-2vcpu-bench-dram/): a GB/s with 4 significant
 * digits, a ratio with 3 decimals, the triad and read cells empty where not measured, a missing
 * harness point as nan */
static void check_probe_record(void) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  const dcsim__record *r = &dcsim__bench_probe_record;
  const bench_probe_row l1 = { "L1",  "load", 16384, 224.7,         265.3,
                               261.4, 46.85,  NAN,   224.7 / 265.3, 224.7 / 261.4 };
  const bench_probe_row l2 = { "L2",  "load", 524288, 88.78,         100.0,
                               95.51, NAN,    NAN,    88.78 / 100.0, 88.78 / 95.51 };
  const bench_probe_row dram = { "DRAM", "triad", 74973184, 2.741,        6.02,
                                 3.197,  6.02,    6.516,    2.741 / 6.02, 2.741 / 3.197 };
  const bench_probe_row none = { "L3", "load", 9371648, NAN, 11.16, 8.516, NAN, NAN, NAN, NAN };
  dcsim__record_csv_header(r, f);
  dcsim__record_csv_row(r, f, &l1);
  dcsim__record_csv_row(r, f, &l2);
  dcsim__record_csv_row(r, f, &dram);
  dcsim__record_csv_row(r, f, &none);
  fclose(f);
  CHECK_STR(buf,
            "level,ws_byte,kernel,harness_gbps,direct_best_gbps,direct_median_gbps,"
            "triad_best_gbps,read_best_gbps,ratio,ratio_median\n"
            "L1,16384,load,224.7,265.3,261.4,46.85,,0.847,0.860\n"
            "L2,524288,load,88.78,100,95.51,,,0.888,0.930\n"
            "DRAM,74973184,triad,2.741,6.02,3.197,6.02,6.516,0.455,0.857\n"
            "L3,9371648,load,nan,11.16,8.516,,,nan,nan\n");
  free(buf);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  check_sql();
  check_round_trip();
  check_text();
  check_text_layout();
  check_null_rules();
  check_outputs();
  check_csv_under();
  check_printed_totals(&dcsim__totals_record);
  check_printed_totals(&dcsim__totals_power_record);
  check_pairs_notes();
  check_model_records();
  check_csv_order();
  check_json_columns();
  check_probe_record();
  check_results_records();
  check_bench_records();
  check_results_migration();
  CHECK_DONE();
}
