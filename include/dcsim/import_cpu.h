/* dcsim/import_cpu.h — calibration directories: benchmark tables in calibration/<machine>/ turned
 * into hardware profiles. The fits of loop and energy coefficients are in dcsim/fit_coeffs.h,
 * thread scaling in dcsim/fit_scaling.h, GPU kernel characteristics in dcsim/import_gpu.h, the
 * likwid importer in dcsim/import_likwid.h, the Kerncraft importer in dcsim/import_kerncraft.h.
 * Formats: doc/calibration.md.
 *
 * A calibration directory holds machine.xml (schemas/calibration-machine.xsd: spec, frequency
 * states, provenance, which CSV holds which table) and one CSV per quantity with the columns
 * frequency, threads, value, unit[, source]. Cell texts are copied into the profile unchanged, so
 * a profile generated from the D3.5 tables keeps the paper's digits.
 *
 * Ownership: functions returning text (char **) give a malloc'd, NUL-terminated string the caller
 * frees. Reports are written to a caller FILE. */
#ifndef DCSIM_IMPORT_CPU_H
#define DCSIM_IMPORT_CPU_H

#include <stddef.h>
#include <stdio.h>

#include "dcsim/error.h"

/* The CPU profile XML for calibration directory `dir` (doc/calibration.md "From tables to a
 * profile"). Deterministic: the same directory gives the same bytes. */
int dcsim_calib_cpu_profile(const char *dir, char **text, dcsim_error *err);
/* The same, with the parametric model's report (what was fitted, what assumed, the errors at the
 * cells; dcsim/fit_perf.h) written to `report` (NULL = none). machine.xml's <perf-fit reference>
 * directory is fitted first (its profile is not written). */
int dcsim_calib_cpu_profile_report(const char *dir, char **text, FILE *report, dcsim_error *err);

#endif
