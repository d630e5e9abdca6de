/* bench_cells.c — a point of `dcsim bench` as a result record (doc/design.md "Result records"),
 * and its loop fits and held-out predictions as the bench_fits and bench_heldout records of --db:
 * its row (bench_cell) and the field tables its writers are driven by (util/record.h): the
 * bench_points table of --db with raw.csv (util/dbschema_bench.h, one table: the CREATE statement
 * and the migration come from the same lines), the table CSVs (flops.csv, L1.csv ..., DRAM.csv,
 * the calibration directory's tables that `calibrate cpu` and `bench --compare` read back by their
 * header), loops.csv and probe.csv. */
#include <math.h>
#include <string.h>

#include "calib/measure/bench_internal.h"
#include "util/dbschema_bench.h"
#include "util/record.h"

/* the bench_points table and raw.csv: one line of util/dbschema_bench.h each; a column with a RAW
 * number is also a raw.csv column, written by its RAWFMT */
#define POINT_FIELD(m, kind, unit, sql, nulls, raw, rawfmt, added)         \
  DCSIM__RECORD_COLUMN(bench_cell, #m, m, kind, unit, sql, nulls, "0.1.0", \
                       DCSIM__RO_SQL | ((raw) ? DCSIM__RO_CSV : 0u), raw, rawfmt),
static const dcsim__record_field point_fields[] = { DCSIM_BENCH_POINT_COLUMNS(POINT_FIELD) };
const dcsim__record dcsim__bench_points_record = { "bench_points", point_fields,
                                                   sizeof point_fields / sizeof *point_fields };

/* clang-format off */
/* A column of a calibration directory's CSV: its header cell, the member, the kind and format */
#define CSV_FIELD(name, m, kind, unit, fmt) \
  DCSIM__RECORD_COLUMN(bench_cell, name, m, kind, unit, "", NEVER, "0.1.0", DCSIM__RO_CSV, 0, fmt)
/* a table CSV (doc/calibration.md "dcsim bench"): the cells kept of one quantity */
static const dcsim__record_field table_fields[] = {
  CSV_FIELD("frequency",  frequency,      TEXT,  "",    PLAIN),
  CSV_FIELD("threads",    threads,        INT64, "",    PLAIN),
  CSV_FIELD("value",      median,         REAL,  "",    F(4)),
  CSV_FIELD("unit",       unit,           TEXT,  "",    PLAIN),
  CSV_FIELD("min",        min,            REAL,  "",    F(4)),
  CSV_FIELD("max",        max,            REAL,  "",    F(4)),
  CSV_FIELD("reps",       reps,           INT64, "",    PLAIN),
  CSV_FIELD("clock_ghz",  clock_ghz,      REAL,  "GHz", F(3)),
  CSV_FIELD("ws_byte",    ws_byte,        REAL,  "B",   F(0)),
  CSV_FIELD("disp",       disp,           REAL,  "",    F(4)),
  CSV_FIELD("remeasured", remeasured_all, INT64, "",    PLAIN),
  CSV_FIELD("flag",       flag,           TEXT,  "",    PLAIN),
};
/* loops.csv: every loop point */
static const dcsim__record_field loop_fields[] = {
  CSV_FIELD("loop",         kernel,       TEXT,  "",     PLAIN),
  CSV_FIELD("frequency",    frequency,    TEXT,  "",     PLAIN),
  CSV_FIELD("threads",      threads,      INT64, "",     PLAIN),
  CSV_FIELD("traffic_byte", traffic_byte, REAL,  "B",    G(6)),
  CSV_FIELD("work_flop",    work_flop,    REAL,  "flop", G(6)),
  CSV_FIELD("time_s",       median,       REAL,  "s",    G(6)),
  CSV_FIELD("time_min_s",   min,          REAL,  "s",    G(6)),
  CSV_FIELD("time_max_s",   max,          REAL,  "s",    G(6)),
  CSV_FIELD("n_elem",       n_elem,       INT64, "",     PLAIN),
  CSV_FIELD("passes",       passes,       INT64, "",     PLAIN),
  CSV_FIELD("clock_ghz",    clock_ghz,    REAL,  "GHz",  F(3)),
  CSV_FIELD("disp",         disp,         REAL,  "",     F(4)),
  CSV_FIELD("remeasured",   remeasured,   INT64, "",     PLAIN),
  CSV_FIELD("weight",       weight,       REAL,  "",     F(4)),
};
/* probe.csv (--probe): a level's line; a GB/s with 4 significant digits, a ratio with 3
 * decimals, a NaN harness (no 1-thread point) as "nan" */
#define PROBE_FIELD(m, kind, unit, nulls, fmt) \
  DCSIM__RECORD_COLUMN(bench_probe_row, #m, m, kind, unit, "", nulls, "0.1.0", DCSIM__RO_CSV, 0, fmt)
static const dcsim__record_field probe_fields[] = {
  PROBE_FIELD(level,              TEXT,  "",     NEVER, PLAIN),
  PROBE_FIELD(ws_byte,            INT64, "B",    NEVER, PLAIN),
  PROBE_FIELD(kernel,             TEXT,  "",     NEVER, PLAIN),
  PROBE_FIELD(harness_gbps,       REAL,  "GB/s", NEVER, G(4)),
  PROBE_FIELD(direct_best_gbps,   REAL,  "GB/s", NEVER, G(4)),
  PROBE_FIELD(direct_median_gbps, REAL,  "GB/s", NEVER, G(4)),
  PROBE_FIELD(triad_best_gbps,    REAL,  "GB/s", UNDEF, G(4)),
  PROBE_FIELD(read_best_gbps,     REAL,  "GB/s", UNDEF, G(4)),
  PROBE_FIELD(ratio,              REAL,  "",     NEVER, F(3)),
  PROBE_FIELD(ratio_median,       REAL,  "",     NEVER, F(3)),
};
/* clang-format on */
const dcsim__record dcsim__bench_probe_record = { "", probe_fields,
                                                  sizeof probe_fields / sizeof *probe_fields };
const dcsim__record dcsim__bench_table_record = { "", table_fields,
                                                  sizeof table_fields / sizeof *table_fields };
const dcsim__record dcsim__bench_loops_record = { "", loop_fields,
                                                  sizeof loop_fields / sizeof *loop_fields };

/* the bench_runs, bench_fits and bench_heldout tables: one line of util/dbschema_bench.h each */
#define RUN_FIELD(m, kind, unit, sql, nulls, added)                                             \
  DCSIM__RECORD_COLUMN(bench_run_row, #m, m, kind, unit, sql, nulls, "0.1.0", DCSIM__RO_SQL, 0, \
                       PLAIN),
static const dcsim__record_field run_fields[] = { DCSIM_BENCH_RUN_COLUMNS(RUN_FIELD) };
const dcsim__record dcsim__bench_run_record = { "bench_runs", run_fields,
                                                sizeof run_fields / sizeof *run_fields };
#define FIT_FIELD(m, kind, unit, sql, nulls, added)                                             \
  DCSIM__RECORD_COLUMN(bench_fit_row, #m, m, kind, unit, sql, nulls, "0.1.0", DCSIM__RO_SQL, 0, \
                       PLAIN),
#define HELDOUT_FIELD(m, kind, unit, sql, nulls, added)                                          \
  DCSIM__RECORD_COLUMN(bench_heldout_row, #m, m, kind, unit, sql, nulls, "0.1.0", DCSIM__RO_SQL, \
                       0, PLAIN),
static const dcsim__record_field fit_fields[] = { DCSIM_BENCH_FIT_COLUMNS(FIT_FIELD) };
static const dcsim__record_field heldout_fields[] = { DCSIM_BENCH_HELDOUT_COLUMNS(HELDOUT_FIELD) };
const dcsim__record dcsim__bench_fit_record = { "bench_fits", fit_fields,
                                                sizeof fit_fields / sizeof *fit_fields };
const dcsim__record dcsim__bench_heldout_record = {
  "bench_heldout", heldout_fields, sizeof heldout_fields / sizeof *heldout_fields
};

void dcsim__bench_cell_of(const bench_run *R, const bench_point *p, bench_cell *c) {
  c->phase = p->phase;
  c->kernel = p->kernel;
  c->level = p->level;
  c->unit = p->unit;
  c->flag = p->flag[0] ? p->flag : NULL;
  c->status = p->rejected ? "left-out" : p->flag[0] ? "flagged" : "kept";
  c->frequency = R->freq_id;
  c->threads = p->threads;
  c->reps = p->reps;
  c->passes = (long long)p->passes;
  c->n_elem = (long long)p->n_elem;
  c->remeasured = p->remeasured;
  c->redone = p->redone;
  c->disturbed = p->disturbed;
  c->remeasured_all = (long long)p->remeasured + p->redone;
  c->ws_byte = p->ws_byte;
  c->min = p->min;
  c->median = p->med;
  c->max = p->max;
  c->clock_ghz = p->clock_ghz;
  c->traffic_byte = p->traffic_byte;
  c->work_flop = p->work_flop;
  c->disp = p->disp;
  c->weight = strcmp(p->phase, "loop") == 0 ? p->weight : NAN;
  c->cpu_share = p->cpu_share;
  c->clock_min_ghz = p->clk_min;
  c->clock_max_ghz = p->clk_max;
  c->steal = p->steal;
}
