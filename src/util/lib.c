/* lib.c — the library's one-time set-up (see dcsim/lib.h). */
#include "dcsim/lib.h"

#include <gsl/gsl_errno.h>
#include <libxml/parser.h>
#include <sqlite3.h>

#include "dcsim/error.h"

int dcsim_lib_init(void) {
  gsl_set_error_handler_off(); /* GSL reports through return codes; dcsim turns them into errors */
  xmlInitParser();
  return sqlite3_initialize() == SQLITE_OK ? 0 : DCSIM_EIO;
}
