/* util/dbschema_run.h — the field tables of a run's records as stored in the results database of
 * `dcsim run --db` (doc/results.md, doc/design.md "Result records"): one line per column, in
 * column order, of the runs table's totals, the workflows table (a job's row), the nodes table, the
 * utilisation table, the tasks table, the power table and the inputs table. The schema
 * (util/dbschema.c) expands them into the CREATE statements and the migration's added columns; the
 * records (output/results.c, output/run_records.c) into their util/record.h field tables, where a
 * job's row also carries the report's lines.
 *
 * Each X(MEMBER, KIND, UNIT, SQL, NULLS, ..., ADDED):
 *   MEMBER  the column, and the member of the row struct that holds it
 *   KIND    its DCSIM__RF_* kind, UNIT its unit ("" when none), SQL its SQLite type
 *   NULLS   its DCSIM__RN_* NULL rule
 *   ADDED   "" for a column of the table's first version; else the change that added it: an older
 *           database gains it by ALTER TABLE ... ADD COLUMN (NULL in its old rows)
 * The job's lines also give its outputs and text column (OUT, HEADER, WIDTH, FMT, CELL: see
 * DCSIM__RECORD_FIELD_OUT), which only the record expands. A new column goes at the end of its
 * table (an older database gains it at the end). No type, no include: data that util and output
 * both expand. */
#ifndef DCSIM_UTIL_DBSCHEMA_RUN_H
#define DCSIM_UTIL_DBSCHEMA_RUN_H

/* clang-format off */
/* the runs table's totals, after its identity columns (id .. task_policy), set when a run ends */
#define DCSIM_RUN_TOTALS_COLUMNS(X) \
  X(time_to_solution_s,    REAL,  "s", "REAL",    NEVER, "")                  \
  X(energy_to_solution_j,  REAL,  "J", "REAL",    NEVER, "")                  \
  X(unallocated_idle_j,    REAL,  "J", "REAL",    NEVER, "")                  \
  X(nodes,                 INT64, "",  "INTEGER", NEVER, "")                  \
  X(jobs,                  INT64, "",  "INTEGER", NEVER, "")                  \
  X(tasks,                 INT64, "",  "INTEGER", NEVER, "")                  \
  X(events,                INT64, "",  "INTEGER", NEVER, "")                  \
  X(utilisation,           REAL,  "",  "REAL",    NEVER, "")                  \
  X(allocated,             REAL,  "",  "REAL",    NEVER, "job metrics")       \
  X(mean_wait_s,           REAL,  "s", "REAL",    NEVER, "job metrics")       \
  X(max_wait_s,            REAL,  "s", "REAL",    NEVER, "job metrics")       \
  X(mean_flow_s,           REAL,  "s", "REAL",    NEVER, "job metrics")       \
  X(mean_slowdown,         REAL,  "",  "REAL",    UNDEF, "job metrics")       \
  X(mean_bounded_slowdown, REAL,  "",  "REAL",    NEVER, "job metrics")       \
  X(max_bounded_slowdown,  REAL,  "",  "REAL",    NEVER, "job metrics")       \
  X(boots,                 INT64, "",  "INTEGER", NEVER, "power management")  \
  X(shutdowns,             INT64, "",  "INTEGER", NEVER, "power management")

/* the workflows table: a job's row, after run_id */
#define DCSIM_JOB_COLUMNS(X) \
  X(job,                  INT64, "",  "INTEGER", NEVER, SQL,        NULL,            0,   PLAIN, NULL,             "")                 \
  X(name,                 TEXT,  "",  "TEXT",    NEVER, ALL | TEXT, "workflow",      -20, PLAIN, NULL,             "")                 \
  X(instance,             INT64, "",  "INTEGER", NEVER, ALL | TEXT, "inst",          4,   PLAIN, NULL,             "")                 \
  X(submit_s,             REAL,  "s", "REAL",    NEVER, ALL | TEXT, "submit [s]",    10,  SIG,   NULL,             "")                 \
  X(start_s,              REAL,  "s", "REAL",    NEVER, ALL,        NULL,            0,   PLAIN, NULL,             "")                 \
  X(end_s,                REAL,  "s", "REAL",    NEVER, ALL,        NULL,            0,   PLAIN, NULL,             "")                 \
  X(wait_s,               REAL,  "s", "REAL",    NEVER, ALL | TEXT, "wait [s]",      10,  SIG,   NULL,             "")                 \
  X(time_to_solution_s,   REAL,  "s", "REAL",    NEVER, ALL | TEXT, "TTS [s]",       12,  PLAIN, cell_tts,         "")                 \
  X(energy_to_solution_j, REAL,  "J", "REAL",    NEVER, ALL | TEXT, "energy [J]",    14,  PLAIN, cell_energy,      "")                 \
  X(task_energy_j,        REAL,  "J", "REAL",    NEVER, ALL | TEXT, "tasks [J]",     14,  PLAIN, cell_task_energy, "")                 \
  X(held_idle_j,          REAL,  "J", "REAL",    NEVER, ALL | TEXT, "held idle [J]", 14,  PLAIN, cell_held_idle,   "")                 \
  X(tasks,                INT64, "",  "INTEGER", NEVER, ALL,        NULL,            0,   PLAIN, NULL,             "")                 \
  X(flow_s,               REAL,  "s", "REAL",    NEVER, ALL,        NULL,            0,   PLAIN, NULL,             "job metrics")      \
  X(slowdown,             REAL,  "",  "REAL",    UNDEF, ALL,        NULL,            0,   PLAIN, NULL,             "job metrics")      \
  X(bounded_slowdown,     REAL,  "",  "REAL",    NEVER, ALL,        NULL,            0,   PLAIN, NULL,             "job metrics")      \
  X(boot_wait_s,          REAL,  "s", "REAL",    NEVER, ALL,        NULL,            0,   PLAIN, NULL,             "power management") \
  X(trace_job,            INT64, "",  "INTEGER", ZERO,  OPT,        NULL,            0,   PLAIN, NULL,             "SWF replay")       \
  X(procs,                INT64, "",  "INTEGER", ZERO,  OPT,        NULL,            0,   PLAIN, NULL,             "SWF replay")

/* the nodes table: a node's row, after run_id */
#define DCSIM_NODE_COLUMNS(X) \
  X(node,        INT64, "",  "INTEGER", NEVER, "")                 \
  X(node_group,  TEXT,  "",  "TEXT",    NEVER, "")                 \
  X(energy_j,    REAL,  "J", "REAL",    NEVER, "")                 \
  X(busy_s,      REAL,  "s", "REAL",    NEVER, "")                 \
  X(utilisation, REAL,  "",  "REAL",    NEVER, "")                 \
  X(off_s,       REAL,  "s", "REAL",    NEVER, "power management") \
  X(boots,       INT64, "",  "INTEGER", NEVER, "power management")

/* the utilisation table: a bucket of the utilisation timeline, after run_id */
#define DCSIM_BUCKET_COLUMNS(X) \
  X(bucket,    INT64, "",  "INTEGER", NEVER, "") \
  X(t0_s,      REAL,  "s", "REAL",    NEVER, "") \
  X(t1_s,      REAL,  "s", "REAL",    NEVER, "") \
  X(busy,      REAL,  "",  "REAL",    NEVER, "") \
  X(allocated, REAL,  "",  "REAL",    NEVER, "")

/* the tasks table: a task's run, after run_id, written as the task ends (gpu: NULL for a CPU
 * task, a negative slot in the row; dwarf: NULL for a recorded-runtime task; freq_ghz: NULL for a
 * GPU task, NaN in the row) */
#define DCSIM_TASK_COLUMNS(X) \
  X(job,        INT64, "",    "INTEGER", NEVER, "")     \
  X(task,       INT64, "",    "INTEGER", NEVER, "")     \
  X(name,       TEXT,  "",    "TEXT",    NEVER, "")     \
  X(dwarf,      TEXT,  "",    "TEXT",    NEVER, "")     \
  X(device,     TEXT,  "",    "TEXT",    NEVER, "")     \
  X(node_group, TEXT,  "",    "TEXT",    NEVER, "")     \
  X(start_ns,   INT64, "ns",  "INTEGER", NEVER, "")     \
  X(end_ns,     INT64, "ns",  "INTEGER", NEVER, "")     \
  X(start_s,    REAL,  "s",   "REAL",    NEVER, "")     \
  X(end_s,      REAL,  "s",   "REAL",    NEVER, "")     \
  X(nodes,      TEXT,  "",    "TEXT",    NEVER, "")     \
  X(gpu,        INT64, "",    "INTEGER", NEG,   "")     \
  X(energy_j,   REAL,  "J",   "REAL",    NEVER, "")     \
  X(freq_ghz,   REAL,  "GHz", "REAL",    UNDEF, "DVFS")

/* the power table: a step of a node's power timeline, after run_id, written during the run */
#define DCSIM_POWER_COLUMNS(X) \
  X(node,    INT64, "",   "INTEGER", NEVER, "") \
  X(t0_ns,   INT64, "ns", "INTEGER", NEVER, "") \
  X(t1_ns,   INT64, "ns", "INTEGER", NEVER, "") \
  X(power_w, REAL,  "W",  "REAL",    NEVER, "")

/* the inputs table: a file the run read, after run_id */
#define DCSIM_INPUT_COLUMNS(X) \
  X(path,   TEXT, "", "TEXT", NEVER, "") \
  X(sha256, TEXT, "", "TEXT", NEVER, "")
/* clang-format on */

#endif
