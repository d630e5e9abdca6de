/* dcsim/calibdir.h — what `dcsim calibrate` finds in a calibration directory: its one runs CSV and
 * the machine its machine.xml names (input/calibdir.c; the directory's tables are read through
 * input/internal.h).
 *
 * Ownership: the strings returned through char ** are malloc'd; the caller frees them (they are
 * NULL on error). */
#ifndef DCSIM_CALIBDIR_H
#define DCSIM_CALIBDIR_H

#include "dcsim/error.h"

/* The one DIR/NAME-runs.csv with a threads column (*csv, its path) and its NAME (*dwarf):
 * DCSIM_EREF when there is none, DCSIM_EUSAGE when there are several (the caller names the dwarf).
 */
int dcsim_calibdir_find_runs_csv(const char *dir, char **csv, char **dwarf, dcsim_error *err);

/* The name= of DIR/machine.xml: the CPU profile the directory calibrates. */
int dcsim_calibdir_machine_name(const char *dir, char **name, dcsim_error *err);

#endif
