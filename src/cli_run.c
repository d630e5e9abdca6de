#include "dcsim/cli.h"
int dcsim_cmd_run(const dcsim_args *a, dcsim_error *err) { (void)a; return DCSIM_ERR(err, DCSIM_EUSAGE, "", 0, "TEMP"); }
