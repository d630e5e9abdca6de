/* fuzz_workload.c — workloads (schemas/workload.xsd); the workflows they name are the shipped
 * ones, linked next to the input. */
// seeds: workflows/datacentre-day.xml tests/data/workload/*.xml tests/data/engine/backfill.xml
// tests/data/validate/workload.xml
#include "dcsim/workflow.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int linked;
  if (!linked) {
    fuzz_link("workflows");
    linked = 1;
  }
  dcsim_error err;
  dcsim_workload *wl = NULL;
  int rc = dcsim_workload_load(fuzz_file("workload.xml", data, size), &wl, &err);
  fuzz_check_error(rc, &err);
  dcsim_workload_free(wl);
  return 0;
}
