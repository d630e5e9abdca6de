/* calib/internal.h — what the calib jobs share: the calibration tables written by the importers
 * (import/import_cpu.c) and the power model of fit/fit_power.c. The calibration directory itself
 * (machine.xml, its tables, its power table, its placeholders) is read by the input layer
 * (input/internal.h: calibmachine.c, calibdir.c, power_table.c, calibtemplate.c). Not a public
 * header.
 * Ownership: functions returning char * give malloc'd strings the caller frees. */
#ifndef DCSIM_CALIB_INTERNAL_H
#define DCSIM_CALIB_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include "dcsim/dwarf.h"
#include "dcsim/error.h"
#include "dcsim/strutil.h"
#include "input/internal.h" /* the calibration directory's reader and its cell rule (calibdir.c) */
#include "util/csv.h"
#include "util/fileio.h"
#include "util/units.h"
#include "util/xmledit.h"
#include "util/xmlio.h"

/* One row of a calibration table CSV (frequency, threads, value, unit, source). */
typedef struct dcsim_calib_row {
  unsigned threads;
  char value[64];   /* cell text, copied into the profile unchanged */
  char source[768]; /* provenance of this row */
} dcsim_calib_row;

/* Writes dir/<quantity>.csv (quantity: flops, L1, L2, L3, DRAM; unit GFLOP/s or GB/s), rows sorted
 * by thread count, with `comment` as the leading # lines (may hold newlines). */
int dcsim__calib_write_table(const char *dir, const char *quantity, const char *freq_id,
                             const char *unit, dcsim_calib_row *rows, size_t n_rows,
                             const char *comment, dcsim_error *err);

/* <power-spec> and <power-model> of the profile from machine.xml as the input layer read it
 * (dcsim__calib_machine_load, input/internal.h; fit/fit_power.c): copied, or with fit="energy"
 * fitted to the directory's power table, machine.xml's <energy file>, which it reads through the
 * input layer too (dcsim__power_table_load; doc/calibration.md, "Power model"). */
int dcsim__calib_emit_power(FILE *f, const char *dir, const dcsim__calib_machine *m,
                            dcsim_error *err);

/* The plausible range of every calibration time (a sample, a kernel, a replay): 10^-9 to 10^9 s. */
#define DCSIM_CALIB_TIME_MIN_S 1e-9
#define DCSIM_CALIB_TIME_MAX_S 1e9

/* The real codes' measured rows (fit/fit_realcode.c;
 * calibration/realcode/MACHINE/measurements.csv): whether a row's variant ran on a GPU (no dwarf
 * predicts it); the dwarf that predicts a row: its variant when the catalogue holds a dwarf of that
 * name (cloudsc-c, the C translation), else its code (returns one of the two pointers); row r's
 * values of the dwarf's parameters, each from the column of its name or of its name in lower case
 * (path and the row's line go into b). */
int dcsim__realcode_gpu_variant(const char *variant);
const char *dcsim__realcode_dwarf(const char *code, const char *variant);
int dcsim__realcode_bindings(const dcsim_dwarf_t *d, const dcsim_csv_t *t, size_t r,
                             const char *path, dcsim_binding *b, size_t max, size_t *n,
                             dcsim_error *err);

#endif
