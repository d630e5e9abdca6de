/* toolutil.h — what the derivation and validation programs of tools/derive share. Nothing here
 * allocates or keeps state. */
#ifndef DCSIM_TOOLUTIL_H
#define DCSIM_TOOLUTIL_H

#include "dcsim/error.h"

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
