/* sweep/sweep_file_fields.h — the field table of a sweep point in files: the columns of
 * `--format csv` and the keys of `--format json` of `dcsim sweep` and `dcsim pareto`, and what
 * `dcsim pareto` reads back from them (doc/sweep.md, doc/design.md "Result records"). One line per
 * CSV column, in CSV column order; the writers and readers of src/sweep/sweep_io.c are generated
 * from it. The stored columns (SQLite, the MPI wire) have their own table, util/dbschema_sweep.h:
 * the files name, order and leave out columns differently (kept byte-identical), and they carry
 * derived columns that are never stored nor read back (the front flags and the bands, READ 0).
 *
 * DCSIM_SWEEP_POINT_FILE_FIELDS(X) calls X(CSV, JSON, RANK, MEMBER, KIND, MAX, COLUMN, CSV_WHEN,
 * KEY_WHEN, JSON_WHEN, READ, UNIT, SINCE, TEXT) once per column:
 *   CSV        the CSV header cell (a band: its two cells "LOW,HIGH")
 *   JSON       the key in a point's JSON object (a band: one key, a [low, high] array)
 *   RANK       the key's place in the JSON object (1, 2, ...: the JSON order differs from CSV's)
 *   MEMBER     the member of dcsim_sweep_point (offsetof)
 *   KIND       how the value is written and read (DCSIM__SFK_* of sweep_io.c)
 *   MAX        a count's largest value read back (a larger one, or below 1, reads as 0); else 0
 *   COLUMN     when the CSV column (and the JSON key) is in the file at all: ALL, AXES (a point of
 *              the array sets --gpus or --host-cpu), VARIANTS (a point runs --threading ideal),
 *              TURBO (a feasible point's time band reaches the nominal clock's time: an unmeasured
 *              turbo clock, doc/models.md "Turbo"), COVER (a feasible point's time cover is
 *              above 1: a thread law continued or an unmeasured turbo widens its time band)
 *   CSV_WHEN   when the CSV cell holds the value (else it is empty)    } DCSIM__SFW_* of
 *   KEY_WHEN   when the JSON key is in the point's object              } sweep_io.c, by the
 *   JSON_WHEN  when the JSON value is the value (else null)            } point
 *   READ       1: read back by `dcsim pareto` (by its CSV name or JSON key); 0: derived, ignored
 *   UNIT       the value's unit ("" when none); SINCE: the dcsim version it appeared in
 *   TEXT       its column of the text table of `sweep` and `pareto` (util/record.h
 *              dcsim__text_col), (TRANK, HEADER, WIDTH, GAP, FIT, CELL): the column's place (the
 *              columns go by increasing TRANK, each its own: 10, 20, ..., so that a column goes
 *              between two with one line; the text order differs from CSV's), its header, its
 *              least width (negative:
 *              left-aligned; 0: unpadded, the last), the spaces before it, 1 when it widens to
 *              its longest cell, and how its cell is written (CELL: `value`, by KIND, "-" for an
 *              empty text, a 0 count or a number that is unknown or infeasible; else the getter
 * text_CELL of sweep_io.c, for merged cells such as "gpu x4 on HOST", values with their bands,
 * "infeasible: why" taking the rest of the line). DCSIM__SFT_NONE: not a column of the text table
 * (its value is merged into another's cell, or not shown). The text table shows a column when the
 *              file has it (COLUMN).
 * A new column goes at the end (readers of older files ignore a column they do not know). No type,
 * no include: data that sweep_io.c and its test expand. */
#ifndef DCSIM_SWEEP_FILE_FIELDS_H
#define DCSIM_SWEEP_FILE_FIELDS_H

/* a line's TEXT when the field is no column of the text table */
#define DCSIM__SFT_NONE (0, "", 0, 0, 0, none)

/* clang-format off */
#define DCSIM_SWEEP_POINT_FILE_FIELDS(X)                                                                                                      \
  X("index",             "index",             19, index,        INDEX,   0,          ALL,      ALWAYS,      ALWAYS,    ALWAYS,   1, "",  "0.1.0", (10, "point", 6, 0, 0, value)) \
  X("cpu",               "cpu",                1, cpu,          TEXT,    0,          ALL,      ALWAYS,      ALWAYS,    NONEMPTY, 1, "",  "0.1.0", (20, "cpu", -16, 2, 1, value)) \
  X("gpu",               "gpu",                2, gpu,          TEXT,    0,          ALL,      ALWAYS,      ALWAYS,    NONEMPTY, 1, "",  "0.1.0", (30, "gpu", -14, 1, 1, gpu)) \
  X("nodes",             "nodes",              3, nodes,        COUNT,   4294967295, ALL,      NONZERO,     ALWAYS,    NONZERO,  1, "",  "0.1.0", (40, "nodes", 5, 1, 0, value)) \
  X("cores",             "cores",              4, cores,        COUNT,   4294967295, ALL,      NONZERO,     ALWAYS,    NONZERO,  1, "",  "0.1.0", (50, "cores", 5, 1, 0, value)) \
  X("freq",              "freq",               5, freq,         TEXT,    0,          ALL,      ALWAYS,      ALWAYS,    NONEMPTY, 1, "GHz", "0.1.0", (60, "freq", -8, 1, 0, value)) \
  X("time_s",            "time_s",             6, time_s,       REAL,    0,          ALL,      FEASIBLE,    ALWAYS,    FEASIBLE, 1, "s", "0.1.0", (80, "time [s] [band]", 24, 1, 0, time)) \
  X("energy_j",          "energy_j",           7, energy_j,     REAL,    0,          ALL,      FINITE,      ALWAYS,    FINITE,   1, "J", "0.1.0", (90, "energy [J] [band]", 30, 1, 0, energy)) \
  X("pareto",            "pareto",             8, pareto,       FLAG,    0,          ALL,      ALWAYS,      ALWAYS,    ALWAYS,   0, "",  "0.1.0", (130, "pareto", 0, 2, 0, front)) \
  X("knee",              "knee",               9, knee,         FLAG,    0,          ALL,      ALWAYS,      ALWAYS,    ALWAYS,   0, "",  "0.1.0", DCSIM__SFT_NONE) \
  X("feasible",          "feasible",          11, feasible,     FLAG,    0,          ALL,      ALWAYS,      ALWAYS,    ALWAYS,   1, "",  "0.1.0", DCSIM__SFT_NONE) \
  X("reason",            "reason",            18, reason,       REASON,  0,          ALL,      REASON,      WHY,       ALWAYS,   1, "",  "0.1.0", DCSIM__SFT_NONE) \
  X("balance",           "balance",           10, balance,      FLAG,    0,          ALL,      ALWAYS,      ALWAYS,    ALWAYS,   0, "",  "0.1.0", DCSIM__SFT_NONE) \
  X("time_provenance",   "time_provenance",   12, time_prov,    PROV,    0,          ALL,      FEASIBLE,    FEASIBLE,  ALWAYS,   1, "",  "0.1.0", (110, "time from", -12, 2, 0, time_from)) \
  X("energy_provenance", "energy_provenance", 13, energy_prov,  PROV,    0,          ALL,      ENERGY,      FEASIBLE,  ENERGY,   1, "",  "0.1.0", (120, "energy from", -12, 1, 0, energy_from)) \
  X("cost_usd",          "cost_usd",          20, cost_usd,     REAL,    0,          ALL,      FINITE,      ALWAYS,    FINITE,   1, "USD", "0.1.0", (100, "cost [USD] [band]", 26, 1, 0, cost)) \
  X("cost_note",         "cost_note",         21, cost_missing, NOTE,    0,          ALL,      ALWAYS,      NOTE,      ALWAYS,   1, "",  "0.1.0", DCSIM__SFT_NONE) \
  X("time_band_low_s,time_band_high_s",       "time_band",   14, time_band,   BAND, 0, ALL, BAND,        BAND_FEAS, ALWAYS, 0, "s",   "0.1.0", DCSIM__SFT_NONE) \
  X("energy_band_low_j,energy_band_high_j",   "energy_band", 15, energy_band, BAND, 0, ALL, BAND_ENERGY, BAND_FEAS, ALWAYS, 0, "J",   "0.1.0", DCSIM__SFT_NONE) \
  X("indistinguishable_from_front", "indistinguishable_from_front", 17, near_front, FLAG, 0, ALL, BAND,  BAND_FEAS, ALWAYS, 0, "",    "0.1.0", DCSIM__SFT_NONE) \
  X("cost_band_low_usd,cost_band_high_usd",   "cost_band",   16, cost_band,   BAND, 0, ALL, COST_BAND,   COST_BAND_FEAS, ALWAYS, 0, "USD", "0.1.0", DCSIM__SFT_NONE) \
  X("gpus",              "gpus",              22, gpus,         COUNT,   64,         AXES,     NONZERO,     NONZERO,   ALWAYS,   1, "",  "0.1.0", DCSIM__SFT_NONE) \
  X("host_cpu",          "host_cpu",          23, host_cpu,     TEXT,    0,          AXES,     ALWAYS,      NONEMPTY,  ALWAYS,   1, "",  "0.1.0", DCSIM__SFT_NONE) \
  X("threading",         "threading",         24, threading,    VARIANT, 0,          VARIANTS, ALWAYS,      ALWAYS,    ALWAYS,   1, "",  "0.1.0", (70, "threading", -9, 1, 0, value)) \
  X("time_cover",        "time_cover",        25, time_cover,   REAL,    0,          COVER,    COVER,       COVER,     ALWAYS,   1, "",  "0.1.0", DCSIM__SFT_NONE) \
  X("turbo_unmeasured",  "turbo_unmeasured",  26, turbo_unmeasured, FLAG, 0,        TURBO,    FEASIBLE,    FEASIBLE,  ALWAYS,   1, "",  "0.1.0", DCSIM__SFT_NONE)
/* clang-format on */

#endif
