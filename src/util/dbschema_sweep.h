/* util/dbschema_sweep.h — the field table of a sweep point (dcsim_sweep_point, dcsim/sweep_io.h)
 * as stored in the sweep_points table of `dcsim sweep --db` and `dcsim merge` (doc/sweep.md,
 * doc/design.md "Result records"): one line per column, in column order. Everything that stores or
 * reads a point's columns is generated from it: the CREATE statement and the migration's added
 * columns (util/dbschema.c), the INSERT, the SELECTs, the merge's temporary table, copy and
 * comparison (src/sweep/sweepdb.c through src/sweep/sweep_fields.c).
 *
 * DCSIM_SWEEP_POINT_FIELDS(X) calls X(NAME, MEMBER, KIND, SQL, CONSTRAINT, UNIT, NULLS, MERGE,
 * RESULT, SINCE, ADDED) once per column:
 *   NAME        the column (an identifier; also the field's name in messages)
 *   MEMBER      the member of dcsim_sweep_point it stores (offsetof; _ when computed)
 *   KIND        how the value is bound and read (DCSIM__SPF_* of src/sweep/sweep_fields.h)
 *   SQL         the column's SQLite type; CONSTRAINT: "" or " NOT NULL" (first-version columns
 *               only: ALTER TABLE cannot add a NOT NULL column without a default)
 *   UNIT        the value's unit ("" when none)
 *   NULLS       when the column is NULL (DCSIM__SPN_* of src/sweep/sweep_fields.h)
 *   MERGE       1: `dcsim merge` refuses shards that store the same point with different values
 *   RESULT      1: computed by evaluating the point (what an MPI worker sends to rank 0 and a
 *               resumed sweep restores); 0: known from the sweep's definition
 *   SINCE       the dcsim version the column appeared in (the project has stayed at 0.1.0)
 *   ADDED       "" for a column of the table's first version; else the change that added it: an
 *               older database gains it by ALTER TABLE ... ADD COLUMN (NULL in its old rows) and is
 *               read with NULL for it (doc/sweep.md)
 * A new column goes at the end (an older database gains it at the end). No type, no include: this
 * header is data that util (the schema) and sweep (the point) both expand. */
#ifndef DCSIM_DBSCHEMA_SWEEP_H
#define DCSIM_DBSCHEMA_SWEEP_H

/* clang-format off */
#define DCSIM_SWEEP_POINT_FIELDS(X)                                                                            \
  X(idx,         index,        U32,       "INTEGER", " NOT NULL", "",    ALWAYS,   0, 0, "0.1.0", "")          \
  X(cpu,         cpu,          TEXT,      "TEXT",    "",         "",    ALWAYS,   1, 0, "0.1.0", "")           \
  X(gpu,         gpu,          TEXT,      "TEXT",    "",         "",    ALWAYS,   1, 0, "0.1.0", "")           \
  X(nodes,       nodes,        UINT,      "INTEGER", "",         "",    ZERO,     1, 0, "0.1.0", "")           \
  X(cores,       cores,        UINT,      "INTEGER", "",         "",    ZERO,     1, 0, "0.1.0", "")           \
  X(freq,        freq,         TEXT,      "TEXT",    "",         "GHz", ALWAYS,   1, 0, "0.1.0", "")           \
  X(feasible,    feasible,     BOOL,      "INTEGER", " NOT NULL", "",    ALWAYS,   1, 1, "0.1.0", "")          \
  X(reason,      reason,       REASON,    "TEXT",    "",         "",    REASON,   1, 1, "0.1.0", "")           \
  X(time_s,      time_s,       REAL,      "REAL",    "",         "s",   FEASIBLE, 1, 1, "0.1.0", "")           \
  X(energy_j,    energy_j,     REAL,      "REAL",    "",         "J",   FINITE,   1, 1, "0.1.0", "")           \
  X(time_prov,   time_prov,    PROV,      "TEXT",    "",         "",    FEASIBLE, 1, 1, "0.1.0", "provenance") \
  X(energy_prov, energy_prov,  PROV,      "TEXT",    "",         "",    ENERGY,   1, 1, "0.1.0", "provenance") \
  X(cost_usd,    cost_usd,     REAL,      "REAL",    "",         "USD", FINITE,   0, 1, "0.1.0", "issue 26")   \
  X(cost_note,   cost_missing, COST_NOTE, "TEXT",    "",         "",    EMPTY,    0, 1, "0.1.0", "issue 26")   \
  X(gpus,        gpus,         UINT,      "INTEGER", "",         "",    ZERO,     0, 0, "0.1.0", "issue 26")   \
  X(host_cpu,    host_cpu,     TEXT,      "TEXT",    "",         "",    EMPTY,    0, 0, "0.1.0", "issue 26")   \
  X(time_cover,  time_cover,   REAL,      "REAL",    "",         "",    COVER,    0, 1, "0.1.0", "issue 37")   \
  X(threading,   threading,    TEXT,      "TEXT",    "",         "",    IDEAL,    0, 0, "0.1.0", "issue 40")   \
  X(turbo_unmeasured, turbo_unmeasured, BOOL, "INTEGER", "",    "",    FEASIBLE, 0, 1, "0.1.0", "issue 37")
/* clang-format on */

#endif
