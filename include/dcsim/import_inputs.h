/* dcsim/import_inputs.h — what `dcsim calibrate` writes: the name of a GPU profile made from a
 * device, and the check that a made CPU profile loads (what it finds in a calibration directory:
 * dcsim/calibdir.h).
 *
 * Ownership: the strings returned through char ** are malloc'd; the caller frees them (they are
 * NULL on error). */
#ifndef DCSIM_IMPORT_INPUTS_H
#define DCSIM_IMPORT_INPUTS_H

#include "dcsim/error.h"

/* A profile name from a device name: lower case, runs of other characters than letters and digits
 * become one '-', none at either end ("gpu" when nothing is left); NULL when out of memory. */
char *dcsim_calib_gpu_profile_name(const char *device);

/* `calibrate cpu` never writes a profile that `validate` would reject. The profile text
 * made from the calibration directory dir is checked against the profile schema (every error
 * reported, up to 20) and then loaded as dcsim loads a profile, from a temporary file in $TMPDIR
 * (else /tmp) that is removed; a failure names dir's machine.xml to fix and the lines of the made
 * profile. */
int dcsim_calib_check_made_profile(const char *dir, const char *text, dcsim_error *err);

#endif
