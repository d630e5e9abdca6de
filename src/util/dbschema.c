/* dbschema.c — the tables and columns of dcsim's databases (see util/dbschema.h). */
#include "util/dbschema.h"

#include <string.h>

#include "util/dbschema_bench.h"
#include "util/dbschema_run.h"
#include "util/dbschema_sweep.h"

/* doc/results.md. The CREATE statement has every column; an older database gains the added ones
 * (NULL in its old rows). The columns of the run's records (its totals, a job's, a node's, a
 * bucket's, a task's, a power step's and an input's row) are their field tables'
 * (util/dbschema_run.h); the others (the run's identity, build identity and deadline) are listed
 * here. */
#define RUN_COLUMN_DEF(m, kind, unit, sql, nulls, added) ", " #m " " sql
#define JOB_COLUMN_DEF(m, kind, unit, sql, nulls, out, header, width, fmt, cell, added) \
  ", " #m " " sql
#define RUN_COLUMN(m, kind, unit, sql, nulls, added) { "runs", #m, sql, added },
#define JOB_COLUMN(m, kind, unit, sql, nulls, out, header, width, fmt, cell, added) \
  { "workflows", #m, sql, added },
#define NODE_COLUMN(m, kind, unit, sql, nulls, added)   { "nodes", #m, sql, added },
#define BUCKET_COLUMN(m, kind, unit, sql, nulls, added) { "utilisation", #m, sql, added },
#define TASK_COLUMN(m, kind, unit, sql, nulls, added)   { "tasks", #m, sql, added },
#define POWER_COLUMN(m, kind, unit, sql, nulls, added)  { "power", #m, sql, added },
#define INPUT_COLUMN(m, kind, unit, sql, nulls, added)  { "inputs", #m, sql, added },
static const char results_sql[] =
    "CREATE TABLE IF NOT EXISTS runs(id INTEGER PRIMARY KEY, created_utc TEXT, dcsim_version TEXT,"
    " input TEXT, platform TEXT, job_policy TEXT, task_policy TEXT" DCSIM_RUN_TOTALS_COLUMNS(
        RUN_COLUMN_DEF) ", dcsim_commit TEXT, deadline_s REAL, deadline_met INTEGER);"
    "CREATE TABLE IF NOT EXISTS inputs(run_id INTEGER REFERENCES runs(id)" DCSIM_INPUT_COLUMNS(
        RUN_COLUMN_DEF) ");"
    "CREATE TABLE IF NOT EXISTS workflows(run_id INTEGER REFERENCES runs(id)" DCSIM_JOB_COLUMNS(
        JOB_COLUMN_DEF) ");"
    "CREATE TABLE IF NOT EXISTS tasks(run_id INTEGER REFERENCES runs(id)" DCSIM_TASK_COLUMNS(
        RUN_COLUMN_DEF) ");"
    "CREATE TABLE IF NOT EXISTS nodes(run_id INTEGER REFERENCES runs(id)" DCSIM_NODE_COLUMNS(
        RUN_COLUMN_DEF) ");"
    "CREATE TABLE IF NOT EXISTS power(run_id INTEGER REFERENCES runs(id)" DCSIM_POWER_COLUMNS(
        RUN_COLUMN_DEF) ");"
    "CREATE INDEX IF NOT EXISTS tasks_run ON tasks(run_id, job);"
    "CREATE INDEX IF NOT EXISTS power_run ON power(run_id, node);"
    "CREATE TABLE IF NOT EXISTS utilisation(run_id INTEGER REFERENCES runs(id)" DCSIM_BUCKET_COLUMNS(
        RUN_COLUMN_DEF) ");";

/* the added columns that are not a record's (those are in results_columns): the runs table's
 * build identity and deadline, after its totals */
static const dcsim__db_column results_added[] = {
  { "runs", "dcsim_commit", "TEXT" },
  { "runs", "deadline_s", "REAL" },
  { "runs", "deadline_met", "INTEGER" },
};

static const dcsim__db_field results_columns[] = {
  DCSIM_RUN_TOTALS_COLUMNS(RUN_COLUMN) DCSIM_JOB_COLUMNS(JOB_COLUMN) DCSIM_NODE_COLUMNS(NODE_COLUMN)
      DCSIM_BUCKET_COLUMNS(BUCKET_COLUMN) DCSIM_TASK_COLUMNS(TASK_COLUMN)
          DCSIM_POWER_COLUMNS(POWER_COLUMN) DCSIM_INPUT_COLUMNS(INPUT_COLUMN)
};

const dcsim__db_schema dcsim__db_results_schema = {
  results_sql, results_added, sizeof results_added / sizeof *results_added, results_columns,
  sizeof results_columns / sizeof *results_columns
};

/* doc/sweep.md. The CREATE statement has every column; an older database gains the added ones
 * (NULL in its old rows; old sweeps never resume into new ones: the definition's format version
 * differs). The columns of sweep_points are its field table's (util/dbschema_sweep.h). */
#define SWEEP_COLUMN_DEF(name, member, kind, sql, constraint, unit, nulls, merge, result, since, \
                         added)                                                                  \
  " " #name " " sql constraint ","
#define SWEEP_COLUMN(name, member, kind, sql, constraint, unit, nulls, merge, result, since, \
                     added)                                                                  \
  { "sweep_points", #name, sql, added },
static const char sweeps_sql[] =
    "CREATE TABLE IF NOT EXISTS sweeps(id INTEGER PRIMARY KEY, def_sha256 TEXT NOT NULL UNIQUE,"
    " created_utc TEXT, input TEXT, definition TEXT NOT NULL, n_points INTEGER NOT NULL,"
    " dcsim_version TEXT, dcsim_commit TEXT);"
    "CREATE TABLE IF NOT EXISTS sweep_points(sweep_id INTEGER NOT NULL REFERENCES "
    "sweeps(id)," DCSIM_SWEEP_POINT_FIELDS(SWEEP_COLUMN_DEF) " PRIMARY KEY(sweep_id, idx));";

static const dcsim__db_column sweeps_added[] = {
  { "sweeps", "dcsim_version", "TEXT" }, /* the build identity */
  { "sweeps", "dcsim_commit", "TEXT" },
};

static const dcsim__db_field sweep_point_columns[] = { DCSIM_SWEEP_POINT_FIELDS(SWEEP_COLUMN) };

const dcsim__db_schema dcsim__db_sweeps_schema = {
  sweeps_sql, sweeps_added, sizeof sweeps_added / sizeof *sweeps_added, sweep_point_columns,
  sizeof sweep_point_columns / sizeof *sweep_point_columns
};

/* doc/calibration.md ("--db"). The CREATE statement has every column; an older database gains the
 * added ones (NULL in its old rows). The columns of its four tables (after id and created_utc,
 * or run_id) are their records' field tables (util/dbschema_bench.h). */
#define BENCH_POINT_DEF(m, kind, unit, sql, nulls, raw, rawfmt, added) ", " #m " " sql
#define BENCH_POINT(m, kind, unit, sql, nulls, raw, rawfmt, added) \
  { "bench_points", #m, sql, added },
#define BENCH_DEF(m, kind, unit, sql, nulls, added)     ", " #m " " sql
#define BENCH_FIT(m, kind, unit, sql, nulls, added)     { "bench_fits", #m, sql, added },
#define BENCH_HELDOUT(m, kind, unit, sql, nulls, added) { "bench_heldout", #m, sql, added },
static const char bench_sql[] =
    "CREATE TABLE IF NOT EXISTS bench_runs(id INTEGER PRIMARY KEY, created_utc TEXT"
    DCSIM_BENCH_RUN_COLUMNS(BENCH_DEF) ");"
    "CREATE TABLE IF NOT EXISTS bench_points(run_id INTEGER REFERENCES bench_runs(id)"
    DCSIM_BENCH_POINT_COLUMNS(BENCH_POINT_DEF) ");"
    "CREATE TABLE IF NOT EXISTS bench_fits(run_id INTEGER REFERENCES bench_runs(id)"
    DCSIM_BENCH_FIT_COLUMNS(BENCH_DEF) ");"
    "CREATE TABLE IF NOT EXISTS bench_heldout(run_id INTEGER REFERENCES bench_runs(id)"
    DCSIM_BENCH_HELDOUT_COLUMNS(BENCH_DEF) ");";

#define BENCH_RUN(m, kind, unit, sql, nulls, added) { "bench_runs", #m, sql, added },
/* in the order of the tables: an older database gains bench_runs' columns, then bench_points' */
static const dcsim__db_field bench_record_columns[] = {
  DCSIM_BENCH_RUN_COLUMNS(BENCH_RUN) DCSIM_BENCH_POINT_COLUMNS(BENCH_POINT)
      DCSIM_BENCH_FIT_COLUMNS(BENCH_FIT) DCSIM_BENCH_HELDOUT_COLUMNS(BENCH_HELDOUT)
};

const dcsim__db_schema dcsim__db_bench_schema = { bench_sql, NULL, 0, bench_record_columns,
                                                  sizeof bench_record_columns /
                                                      sizeof *bench_record_columns };

int dcsim__db_schema_added(const dcsim__db_schema *schema, const char *table, const char *column,
                           const char **type) {
  for (size_t i = 0; i < schema->n_added; i++)
    if (strcmp(schema->added[i].table, table) == 0 &&
        strcmp(schema->added[i].column, column) == 0) {
      if (type) *type = schema->added[i].type;
      return 1;
    }
  for (size_t i = 0; i < schema->n_fields; i++)
    if (schema->fields[i].added[0] && strcmp(schema->fields[i].table, table) == 0 &&
        strcmp(schema->fields[i].column, column) == 0) {
      if (type) *type = schema->fields[i].type;
      return 1;
    }
  return 0;
}

const dcsim__db_schema *const dcsim__db_schemas[] = { &dcsim__db_results_schema,
                                                      &dcsim__db_sweeps_schema,
                                                      &dcsim__db_bench_schema, NULL };
