/* dcsim/lib.h — setting the library up, once per process (as sqlite3_initialize): the one place
 * that touches the process-wide state of the libraries dcsim links. GSL's default error handler
 * aborts the process: it is switched off, so a failed fit is an error value (doc/design.md,
 * "Conventions"); libxml2 and SQLite are initialised before any thread uses them.
 *
 * Every program linking libdcsim (the CLI, the tests, tools/) calls dcsim_lib_init() first, from
 * its main thread before it starts others; no other library function changes process-wide state.
 * Calling it again does nothing more. Nothing is allocated for the caller. */
#ifndef DCSIM_LIB_H
#define DCSIM_LIB_H

/* 0, or DCSIM_EIO when SQLite cannot be initialised. */
int dcsim_lib_init(void);

#endif
