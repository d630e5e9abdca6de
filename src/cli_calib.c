/* cli_calib.c — `dcsim calibrate` (tables, fits, GPU counters, imports) and `dcsim bench`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/calib.h"
#include "dcsim/catalog.h"
#include "dcsim/cli.h"
#include "dcsim/hwprofile.h"
#include "dcsim/xmlio.h"

/* Output: -o PATH (written atomically) or stdout. */
static int emit(const dcsim_args *a, const char *text, dcsim_error *err) {
  const char *out = dcsim_arg(a, "output");
  if (!out || strcmp(out, "-") == 0) {
    fputs(text, stdout);
    return 0;
  }
  return dcsim_calib_write_file(out, text, err);
}

static int need_pos(const dcsim_args *a, int n, const char *what, dcsim_error *err) {
  if (a->n_positional < n)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 0, "'dcsim calibrate %s' needs %s", a->positional[0], what);
  return 0;
}

static int load_cpu(const dcsim_args *a, dcsim_cpu_profile_t **p, dcsim_error *err) {
  const char *ref = dcsim_arg(a, "cpu");
  if (!ref) return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 0, "--cpu PROFILE is required");
  char path[4096];
  int rc = dcsim_catalog_resolve(DCSIM_KIND_CPU, ref, NULL, dcsim_arg_index(a, "cpu"), path, sizeof path, err);
  return rc ? rc : dcsim_cpu_profile_load(path, p, err);
}

static int cal_cpu(const dcsim_args *a, dcsim_error *err) {
  int rc = need_pos(a, 2, "a calibration directory", err);
  if (rc) return rc;
  char *text = NULL;
  if ((rc = dcsim_calib_cpu_profile(a->positional[1], &text, err))) return rc;
  rc = emit(a, text, err);
  free(text);
  return rc;
}

int dcsim_cmd_calibrate(const dcsim_args *a, dcsim_error *err) {
  const char *what = a->positional[0];
  if (strcmp(what, "cpu") == 0) return cal_cpu(a, err);
  (void)load_cpu;
  return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 2, "unknown calibration '%s' (cpu, loops, energy, gpu, likwid, kerncraft)", what);
}
