/* util/dbschema.h — the tables and columns of dcsim's databases (run results, sweeps, bench
 * runs), in one place: what `run --db`, `sweep --db` and `bench --db` create, what later versions
 * added to older databases, and therefore what a database must hold to be proved dcsim's
 * (dcsim__db_check_owner) before anything is written to it (doc/results.md, doc/robustness.md).
 *
 * Ownership: static data; nothing here allocates. */
#ifndef DCSIM_DBSCHEMA_H
#define DCSIM_DBSCHEMA_H

#include <stddef.h>

/* A column added after a table's first version: appended (ALTER TABLE ... ADD COLUMN) to an older
 * database that lacks it, and not required of one. */
typedef struct dcsim__db_column {
  const char *table, *column, *type;
} dcsim__db_column;

/* A column of a table made from a field table (util/dbschema_sweep.h): added is "" for a column of
 * the table's first version, else the change that added it (then like a dcsim__db_column). */
typedef struct dcsim__db_field {
  const char *table, *column, *type, *added;
} dcsim__db_field;

/* One database's schema: its CREATE statements (IF NOT EXISTS; tables and indexes) and the
 * columns added since: those of `added` and those of `fields` whose added is not "". */
typedef struct dcsim__db_schema {
  const char *create_sql;
  const dcsim__db_column *added;
  size_t n_added;
  const dcsim__db_field *fields;
  size_t n_fields;
} dcsim__db_schema;

/* 1 when column of table is one a later version of schema added (not required of an older
 * database), with its type in *type when type is not NULL. */
int dcsim__db_schema_added(const dcsim__db_schema *schema, const char *table, const char *column,
                           const char **type);

/* The results of `dcsim run --db` (src/output/results.c). */
extern const dcsim__db_schema dcsim__db_results_schema;
/* The sweeps of `dcsim sweep --db` and `dcsim merge` (src/sweep/sweepdb.c). */
extern const dcsim__db_schema dcsim__db_sweeps_schema;
/* The measured runs of `dcsim bench --db` (src/calib/measure/bench_db.c). */
extern const dcsim__db_schema dcsim__db_bench_schema;

/* Every schema a dcsim database may hold (one file may hold runs, sweeps and
 * bench runs), NULL-terminated. */
extern const dcsim__db_schema *const dcsim__db_schemas[];

#endif
