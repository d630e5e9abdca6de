/* util/dbschema_bench.h — the field table of a bench cell (a point `dcsim bench` measured) as
 * stored in the bench_points table of `dcsim bench --db` and written to raw.csv, and those of a
 * run (bench_runs), a loop fit (bench_fits) and a held-out prediction (bench_heldout)
 * (doc/calibration.md "--db" and "Interference", doc/design.md "Result records"): one line per
 * column, in column order. The schema (util/dbschema.c) expands it into the CREATE statement and
 * the migration's added columns; the bench (calib/measure/bench_cells.c) into the record that
 * makes the INSERT, binds a cell and writes raw.csv (util/record.h).
 *
 * Each X(MEMBER, KIND, UNIT, SQL, NULLS, RAW, RAWFMT, ADDED):
 *   MEMBER  the column (SQLite and raw.csv), and the member of bench_cell that holds it
 *   KIND    its DCSIM__RF_* kind, UNIT its unit ("" when none; min, median and max are in the
 *           cell's unit column: GFLOP/s, GB/s, or s for a loop), SQL its SQLite type
 *   NULLS   its DCSIM__RN_* NULL rule (a TEXT is NULL when the cell's pointer is)
 *   RAW     its column in raw.csv (1, 2, ...), 0 when raw.csv does not have it
 *   RAWFMT  how raw.csv writes a REAL: F(digits) %.*f, G(digits) %.*g (DCSIM__RC_*)
 *   ADDED   "" for a column of the table's first version; else the change that added it: an older
 *           database gains it by ALTER TABLE ... ADD COLUMN (NULL in its old rows)
 * A new column goes at the end (an older database gains it at the end) and, when raw.csv has it,
 * takes the next free RAW number. No type, no include: data that util and calib both expand. */
#ifndef DCSIM_UTIL_DBSCHEMA_BENCH_H
#define DCSIM_UTIL_DBSCHEMA_BENCH_H

/* clang-format off */
/* the bench_points table: a cell's row, after run_id */
#define DCSIM_BENCH_POINT_COLUMNS(X) \
  X(phase,         TEXT,  "",     "TEXT",    NEVER, 1,  PLAIN, "")             \
  X(kernel,        TEXT,  "",     "TEXT",    NEVER, 2,  PLAIN, "")             \
  X(level,         TEXT,  "",     "TEXT",    NEVER, 3,  PLAIN, "")             \
  X(ws_byte,       REAL,  "B",    "REAL",    NEVER, 5,  F(0),  "")             \
  X(threads,       INT64, "",     "INTEGER", NEVER, 4,  PLAIN, "")             \
  X(reps,          INT64, "",     "INTEGER", NEVER, 6,  PLAIN, "")             \
  X(min,           REAL,  "",     "REAL",    NEVER, 8,  G(6),  "")             \
  X(median,        REAL,  "",     "REAL",    NEVER, 7,  G(6),  "")             \
  X(max,           REAL,  "",     "REAL",    NEVER, 9,  G(6),  "")             \
  X(unit,          TEXT,  "",     "TEXT",    NEVER, 10, PLAIN, "")             \
  X(clock_ghz,     REAL,  "GHz",  "REAL",    NEVER, 0,  PLAIN, "")             \
  X(passes,        INT64, "",     "INTEGER", NEVER, 0,  PLAIN, "")             \
  X(traffic_byte,  REAL,  "B",    "REAL",    NEVER, 0,  PLAIN, "")             \
  X(work_flop,     REAL,  "flop", "REAL",    NEVER, 0,  PLAIN, "")             \
  X(disp,          REAL,  "",     "REAL",    NEVER, 11, F(4),  "time budget")  \
  X(remeasured,    INT64, "",     "INTEGER", NEVER, 12, PLAIN, "time budget")  \
  X(flag,          TEXT,  "",     "TEXT",    NEVER, 20, PLAIN, "time budget")  \
  X(weight,        REAL,  "",     "REAL",    UNDEF, 0,  PLAIN, "time budget")  \
  X(redone,        INT64, "",     "INTEGER", NEVER, 13, PLAIN, "interference") \
  X(disturbed,     INT64, "",     "INTEGER", NEVER, 14, PLAIN, "interference") \
  X(cpu_share,     REAL,  "",     "REAL",    NEVER, 15, F(3),  "interference") \
  X(clock_min_ghz, REAL,  "GHz",  "REAL",    NEVER, 16, F(3),  "interference") \
  X(clock_max_ghz, REAL,  "GHz",  "REAL",    NEVER, 17, F(3),  "interference") \
  X(steal,         REAL,  "",     "REAL",    NEVER, 18, F(4),  "interference") \
  X(status,        TEXT,  "",     "TEXT",    NEVER, 19, PLAIN, "interference")

/* the bench_runs table: a run's row, after id and created_utc (bound by the database's clock):
 * the machine, the options, the notes and the held-out errors (NULL without a held-out test);
 * COL(MEMBER, KIND, UNIT, SQL, NULLS, ADDED) */
#define DCSIM_BENCH_RUN_COLUMNS(COL) \
  COL(dcsim_version,        TEXT,  "",    "TEXT",    NEVER, "")            \
  COL(host,                 TEXT,  "",    "TEXT",    NEVER, "")            \
  COL(cpu_model,            TEXT,  "",    "TEXT",    NEVER, "")            \
  COL(profile_name,         TEXT,  "",    "TEXT",    NEVER, "")            \
  COL(out_dir,              TEXT,  "",    "TEXT",    NEVER, "")            \
  COL(profile_path,         TEXT,  "",    "TEXT",    NEVER, "")            \
  COL(isa,                  TEXT,  "",    "TEXT",    NEVER, "")            \
  COL(threads,              INT64, "",    "INTEGER", NEVER, "")            \
  COL(quick,                INT64, "",    "INTEGER", NEVER, "")            \
  COL(reps,                 INT64, "",    "INTEGER", NEVER, "")            \
  COL(budget,               INT64, "",    "INTEGER", NEVER, "")            \
  COL(clock_ghz,            REAL,  "GHz", "REAL",    NEVER, "")            \
  COL(clock_note,           TEXT,  "",    "TEXT",    NEVER, "")            \
  COL(l1d_byte,             REAL,  "B",   "REAL",    NEVER, "")            \
  COL(l2_byte,              REAL,  "B",   "REAL",    NEVER, "")            \
  COL(l3_byte,              REAL,  "B",   "REAL",    NEVER, "")            \
  COL(energy_note,          TEXT,  "",    "TEXT",    NEVER, "")            \
  COL(gpu_note,             TEXT,  "",    "TEXT",    NEVER, "")            \
  COL(heldout_mean_abs_err, REAL,  "",    "REAL",    UNDEF, "")            \
  COL(heldout_max_abs_err,  REAL,  "",    "REAL",    UNDEF, "")            \
  COL(time_budget_s,        REAL,  "s",   "REAL",    NEVER, "time budget") \
  COL(elapsed_s,            REAL,  "s",   "REAL",    NEVER, "time budget") \
  COL(reps_max,             INT64, "",    "INTEGER", NEVER, "time budget") \
  COL(cache_source,         TEXT,  "",    "TEXT",    NEVER, "time budget") \
  COL(thread_counts,        TEXT,  "",    "TEXT",    NEVER, "time budget") \
  COL(loop_thread_counts,   TEXT,  "",    "TEXT",    NEVER, "time budget") \
  COL(warmup_note,          TEXT,  "",    "TEXT",    NEVER, "time budget") \
  COL(flagged_points,       INT64, "",    "INTEGER", NEVER, "time budget")

/* the bench_fits table: a loop's fitted coefficients, after run_id (NULL: a value the fit could
 * not give, U and S_flops of a loop without flops); COL(MEMBER, KIND, UNIT, SQL, NULLS, ADDED),
 * the parameter is not X, which is a column */
#define DCSIM_BENCH_FIT_COLUMNS(COL) \
  COL(loop,                 TEXT,  "",        "TEXT",    NEVER, "") \
  COL(states,               INT64, "",        "INTEGER", NEVER, "") \
  COL(V,                    REAL,  "",        "REAL",    UNDEF, "") \
  COL(X,                    REAL,  "",        "REAL",    UNDEF, "") \
  COL(Y,                    REAL,  "",        "REAL",    UNDEF, "") \
  COL(Z,                    REAL,  "",        "REAL",    UNDEF, "") \
  COL(U,                    REAL,  "",        "REAL",    UNDEF, "") \
  COL(S_flops,              REAL,  "flop/s",  "REAL",    UNDEF, "") \
  COL(mop_max_rel_err,      REAL,  "",        "REAL",    UNDEF, "") \
  COL(mop_mean_rel_err,     REAL,  "",        "REAL",    UNDEF, "") \
  COL(mop_loo_mean_rel_err, REAL,  "",        "REAL",    UNDEF, "")

/* the bench_heldout table: a loop time predicted at a thread count left out of its fit, after
 * run_id; rel_err = (predicted_s - measured_s) / measured_s; COL(MEMBER, KIND, UNIT, SQL, NULLS,
 * ADDED) */
#define DCSIM_BENCH_HELDOUT_COLUMNS(COL) \
  COL(loop,        TEXT,  "",  "TEXT",    NEVER, "") \
  COL(threads,     INT64, "",  "INTEGER", NEVER, "") \
  COL(measured_s,  REAL,  "s", "REAL",    UNDEF, "") \
  COL(predicted_s, REAL,  "s", "REAL",    UNDEF, "") \
  COL(rel_err,     REAL,  "",  "REAL",    UNDEF, "") \
  COL(insample_s,  REAL,  "s", "REAL",    UNDEF, "")
/* clang-format on */

#endif
