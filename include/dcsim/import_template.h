/* dcsim/import_template.h — the skeleton of a CPU calibration directory and its placeholders.
 *
 * `dcsim calibrate cpu --template DIR` writes the files of calibration/template-cpu/ (embedded in
 * the library) into DIR: machine.xml, the tables and the power table with every value to give
 * written FILL, each explained by a comment, and a README. `dcsim calibrate cpu` refuses a
 * directory in which a placeholder is left, listing every one (doc/calibration.md, "A directory to
 * fill"). A placeholder is a machine.xml attribute value or element text, or a cell of a CSV file
 * machine.xml names, that is FILL or starts with "FILL:".
 *
 * Ownership: nothing is returned to free; lists are written to a caller FILE. */
#ifndef DCSIM_IMPORT_TEMPLATE_H
#define DCSIM_IMPORT_TEMPLATE_H

#include <stdio.h>

#include "dcsim/error.h"

/* Writes the skeleton into dir, which must not exist or be empty (its parents are made), all or
 * nothing: a failure leaves no half-written directory. */
int dcsim_calib_cpu_template(const char *dir, dcsim_error *err);

/* 0 when dir/machine.xml and the CSV files it names (<table file>, <energy file>, <dram
 * bandwidth>) hold no placeholder, or when machine.xml cannot be read or parsed (loading it
 * reports that). Else DCSIM_ESCHEMA naming machine.xml, with the count and the first placeholders;
 * every one is also written to list (NULL: none) as a line "FILE:LINE: WHAT", in file order. */
int dcsim_calib_cpu_unfilled(const char *dir, FILE *list, dcsim_error *err);

#endif
