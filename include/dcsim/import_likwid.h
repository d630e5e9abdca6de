/* dcsim/import_likwid.h — likwid-bench output into a calibration directory (doc/calibration.md;
 * Kerncraft machine files: dcsim/import_kerncraft.h). Nothing is allocated for the caller. */
#ifndef DCSIM_IMPORT_LIKWID_H
#define DCSIM_IMPORT_LIKWID_H

#include <stddef.h>
#include <stdio.h>

#include "dcsim/error.h"

/* likwid-bench text output (one or more runs per file): bandwidth runs go to L1/L2/L3/DRAM.csv by
 * their working set against the cache sizes of DIR/machine.xml (which must exist), peakflops runs
 * to flops.csv; machine.xml gets the matching <table> elements. test: the bandwidth test family
 * (load, copy, stream...; NULL = the only one present); freq: a <freq id> of machine.xml (NULL =
 * its only one). A report of what went where is written to report (may be NULL). */
int dcsim_calib_import_likwid(const char *const *paths, size_t n_paths, const char *dir,
                              const char *test, const char *freq, FILE *report, dcsim_error *err);

#endif
