/* dcsim/calib_import.h — other tools' measurements (likwid-bench output, Kerncraft machine files)
 * into a calibration directory (doc/calibration.md). Nothing is allocated for the caller. */
#ifndef DCSIM_CALIB_IMPORT_H
#define DCSIM_CALIB_IMPORT_H

#include <stddef.h>
#include <stdio.h>

#include "dcsim/error.h"

/* ---- importers: other tools' measurements into a calibration directory ----
 * likwid-bench text output (one or more runs per file): bandwidth runs go to L1/L2/L3/DRAM.csv by
 * their working set against the cache sizes of DIR/machine.xml (which must exist), peakflops runs
 * to flops.csv; machine.xml gets the matching <table> elements. test: the bandwidth test family
 * (load, copy, stream...; NULL = the only one present); freq: a <freq id> of machine.xml (NULL =
 * its only one). Kerncraft machine file (YAML): a new machine.xml, flops.csv (theoretical peak)
 * and L1..DRAM.csv from benchmarks/measurements (test: the kernel, NULL = load). A report of what
 * went where is written to report (may be NULL). */
int dcsim_calib_import_likwid(const char *const *paths, size_t n_paths, const char *dir,
                              const char *test, const char *freq, FILE *report, dcsim_error *err);
int dcsim_calib_import_kerncraft(const char *path, const char *dir, const char *test, FILE *report,
                                 dcsim_error *err);

#endif
