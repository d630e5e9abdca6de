/* sweep/sweep_file_fields.h — the field table of a sweep point in files: the columns of
 * `--format csv` and the keys of `--format json` of `dcsim sweep` and `dcsim pareto`, and what
 * `dcsim pareto` reads back from them (doc/sweep.md, doc/design.md "Result records"). One line per
 * CSV column, in CSV column order; the writers and readers of src/sweep/sweep_io.c are generated
 * from it. The stored columns (SQLite, the MPI wire) have their own table, util/dbschema_sweep.h:
 * the files name, order and leave out columns differently (kept byte-identical), and they carry
 * derived columns that are never stored nor read back (the front flags and the bands, READ 0).
 *
 * DCSIM_SWEEP_POINT_FILE_FIELDS(X) calls X(CSV, JSON, RANK, MEMBER, KIND, MAX, COLUMN, CSV_WHEN,
 * KEY_WHEN, JSON_WHEN, READ, UNIT, SINCE) once per column:
 *   CSV        the CSV header cell (a band: its two cells "LOW,HIGH")
 *   JSON       the key in a point's JSON object (a band: one key, a [low, high] array)
 *   RANK       the key's place in the JSON object (1, 2, ...: the JSON order differs from CSV's)
 *   MEMBER     the member of dcsim_sweep_point (offsetof)
 *   KIND       how the value is written and read (DCSIM__SFK_* of sweep_io.c)
 *   MAX        a count's largest value read back (a larger one, or below 1, reads as 0); else 0
 *   COLUMN     when the CSV column (and the JSON key) is in the file at all: ALL, AXES (a point of
 *              the array sets --gpus or --host-cpu), VARIANTS (a point runs --threading ideal)
 *   CSV_WHEN   when the CSV cell holds the value (else it is empty)    } DCSIM__SFW_* of
 *   KEY_WHEN   when the JSON key is in the point's object              } sweep_io.c, by the
 *   JSON_WHEN  when the JSON value is the value (else null)            } point
 *   READ       1: read back by `dcsim pareto` (by its CSV name or JSON key); 0: derived, ignored
 *   UNIT       the value's unit ("" when none); SINCE: the dcsim version it appeared in
 * A new column goes at the end (readers of older files ignore a column they do not know). No type,
 * no include: data that sweep_io.c and its test expand. */
#ifndef DCSIM_SWEEP_FILE_FIELDS_H
#define DCSIM_SWEEP_FILE_FIELDS_H

/* clang-format off */
#define DCSIM_SWEEP_POINT_FILE_FIELDS(X)                                                                                                      \
  X("index",             "index",             19, index,        INDEX,   0,          ALL,      ALWAYS,      ALWAYS,    ALWAYS,   1, "",  "0.1.0") \
  X("cpu",               "cpu",                1, cpu,          TEXT,    0,          ALL,      ALWAYS,      ALWAYS,    NONEMPTY, 1, "",  "0.1.0") \
  X("gpu",               "gpu",                2, gpu,          TEXT,    0,          ALL,      ALWAYS,      ALWAYS,    NONEMPTY, 1, "",  "0.1.0") \
  X("nodes",             "nodes",              3, nodes,        COUNT,   4294967295, ALL,      NONZERO,     ALWAYS,    NONZERO,  1, "",  "0.1.0") \
  X("cores",             "cores",              4, cores,        COUNT,   4294967295, ALL,      NONZERO,     ALWAYS,    NONZERO,  1, "",  "0.1.0") \
  X("freq",              "freq",               5, freq,         TEXT,    0,          ALL,      ALWAYS,      ALWAYS,    NONEMPTY, 1, "GHz", "0.1.0") \
  X("time_s",            "time_s",             6, time_s,       REAL,    0,          ALL,      FEASIBLE,    ALWAYS,    FEASIBLE, 1, "s", "0.1.0") \
  X("energy_j",          "energy_j",           7, energy_j,     REAL,    0,          ALL,      FINITE,      ALWAYS,    FINITE,   1, "J", "0.1.0") \
  X("pareto",            "pareto",             8, pareto,       FLAG,    0,          ALL,      ALWAYS,      ALWAYS,    ALWAYS,   0, "",  "0.1.0") \
  X("knee",              "knee",               9, knee,         FLAG,    0,          ALL,      ALWAYS,      ALWAYS,    ALWAYS,   0, "",  "0.1.0") \
  X("feasible",          "feasible",          11, feasible,     FLAG,    0,          ALL,      ALWAYS,      ALWAYS,    ALWAYS,   1, "",  "0.1.0") \
  X("reason",            "reason",            18, reason,       REASON,  0,          ALL,      REASON,      WHY,       ALWAYS,   1, "",  "0.1.0") \
  X("balance",           "balance",           10, balance,      FLAG,    0,          ALL,      ALWAYS,      ALWAYS,    ALWAYS,   0, "",  "0.1.0") \
  X("time_provenance",   "time_provenance",   12, time_prov,    PROV,    0,          ALL,      FEASIBLE,    FEASIBLE,  ALWAYS,   1, "",  "0.1.0") \
  X("energy_provenance", "energy_provenance", 13, energy_prov,  PROV,    0,          ALL,      ENERGY,      FEASIBLE,  ENERGY,   1, "",  "0.1.0") \
  X("cost_usd",          "cost_usd",          20, cost_usd,     REAL,    0,          ALL,      FINITE,      ALWAYS,    FINITE,   1, "USD", "0.1.0") \
  X("cost_note",         "cost_note",         21, cost_missing, NOTE,    0,          ALL,      ALWAYS,      NOTE,      ALWAYS,   1, "",  "0.1.0") \
  X("time_band_low_s,time_band_high_s",       "time_band",   14, time_band,   BAND, 0, ALL, BAND,        BAND_FEAS, ALWAYS, 0, "s",   "0.1.0") \
  X("energy_band_low_j,energy_band_high_j",   "energy_band", 15, energy_band, BAND, 0, ALL, BAND_ENERGY, BAND_FEAS, ALWAYS, 0, "J",   "0.1.0") \
  X("indistinguishable_from_front", "indistinguishable_from_front", 17, near_front, FLAG, 0, ALL, BAND,  BAND_FEAS, ALWAYS, 0, "",    "0.1.0") \
  X("cost_band_low_usd,cost_band_high_usd",   "cost_band",   16, cost_band,   BAND, 0, ALL, COST_BAND,   COST_BAND_FEAS, ALWAYS, 0, "USD", "0.1.0") \
  X("gpus",              "gpus",              22, gpus,         COUNT,   64,         AXES,     NONZERO,     NONZERO,   ALWAYS,   1, "",  "0.1.0") \
  X("host_cpu",          "host_cpu",          23, host_cpu,     TEXT,    0,          AXES,     ALWAYS,      NONEMPTY,  ALWAYS,   1, "",  "0.1.0") \
  X("threading",         "threading",         24, threading,    VARIANT, 0,          VARIANTS, ALWAYS,      ALWAYS,    ALWAYS,   1, "",  "0.1.0")
/* clang-format on */

#endif
