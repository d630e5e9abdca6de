/* toolutil.h — what the derivation and validation programs of tools/derive share. Nothing here
 * keeps state; the loaders hand the caller an object it frees with the type's _free. */
#ifndef DCSIM_TOOLUTIL_H
#define DCSIM_TOOLUTIL_H

#include "dcsim/dwarf.h"
#include "dcsim/error.h"
#include "dcsim/hwprofile.h"

/* Loads the data file that ref names (a catalogue name or a path, dcsim_catalog_find) into *out. */
int tool_load_dwarf(const char *ref, dcsim_dwarf_t **out, dcsim_error *err);
int tool_load_cpu(const char *ref, dcsim_cpu_profile_t **out, dcsim_error *err);
int tool_load_gpu(const char *ref, dcsim_gpu_profile_t **out, dcsim_error *err);

/* Prints "PROG: <the error, formatted as the CLI does>" on stderr and returns status (the exit
 * status the program gives for it). */
int tool_die(const char *prog, const dcsim_error *e, int status);

/* The --check of a fitting program: whether the data file at path holds, in its <element>, the
 * two fitted parameters named name[k] (have[k] as read, fit[k] as fitted), each within a relative
 * 1e-3 (written with four significant digits and read back). Prints "PATH holds the fitted WHAT"
 * on stdout and returns 0, or prints what differs on stderr and returns 1 (also when the element
 * is not present). */
int tool_check_fitted(const char *path, const char *element, const char *what, int present,
                      const char *const name[2], const double have[2], const double fit[2]);

#endif
