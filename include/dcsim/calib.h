/* dcsim/calib.h — calibration directories: benchmark tables in calibration/<machine>/ turned into
 * hardware profiles. The fits of loop and energy coefficients are in dcsim/calib_fit.h, thread
 * scaling in dcsim/calib_scaling.h, GPU kernel characteristics in dcsim/calib_gpu.h, the likwid
 * and Kerncraft importers in dcsim/calib_import.h. Formats: doc/calibration.md.
 *
 * A calibration directory holds machine.xml (schemas/calibration-machine.xsd: spec, frequency
 * states, provenance, which CSV holds which table) and one CSV per quantity with the columns
 * frequency, threads, value, unit[, source]. Cell texts are copied into the profile unchanged, so
 * a profile generated from the D3.5 tables keeps the paper's digits.
 *
 * Ownership: functions returning text (char **) give a malloc'd, NUL-terminated string the caller
 * frees. Reports are written to a caller FILE. */
#ifndef DCSIM_CALIB_H
#define DCSIM_CALIB_H

#include <stddef.h>
#include <stdio.h>

#include "dcsim/error.h"

/* The CPU profile XML for calibration directory `dir` (doc/calibration.md "From tables to a
 * profile"). Deterministic: the same directory gives the same bytes. */
int dcsim_calib_cpu_profile(const char *dir, char **text, dcsim_error *err);
/* The same, with the parametric model's report (what was fitted, what assumed, the errors at the
 * cells; dcsim/perf_fit.h) written to `report` (NULL = none). machine.xml's <perf-fit reference>
 * directory is fitted first (its profile is not written). */
int dcsim_calib_cpu_profile_report(const char *dir, char **text, FILE *report, dcsim_error *err);

#endif
