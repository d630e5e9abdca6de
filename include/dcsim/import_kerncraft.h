/* dcsim/import_kerncraft.h — a Kerncraft machine file into a calibration directory
 * (doc/calibration.md "Importing a Kerncraft machine file"). Nothing is allocated for the caller.
 */
#ifndef DCSIM_IMPORT_KERNCRAFT_H
#define DCSIM_IMPORT_KERNCRAFT_H

#include <stdio.h>

#include "dcsim/error.h"

/* Kerncraft machine file (YAML) at path: a new DIR/machine.xml, flops.csv (theoretical peak) and
 * L1..DRAM.csv from benchmarks/measurements (test: the kernel, NULL = load). A report of what went
 * where is written to report (may be NULL). */
int dcsim_calib_import_kerncraft(const char *path, const char *dir, const char *test, FILE *report,
                                 dcsim_error *err);

#endif
