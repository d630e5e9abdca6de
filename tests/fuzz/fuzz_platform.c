/* fuzz_platform.c — platforms (schemas/platform.xsd). */
// seeds: workflows/platforms/*.xml tests/data/platform/*.xml tests/data/engine/p*.xml
// tests/data/validate/platform.xml
#include "dcsim/platform.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  dcsim_error err;
  dcsim_platform *p = NULL;
  int rc = dcsim_platform_load(fuzz_file("platform.xml", data, size), &p, &err);
  fuzz_check_error(rc, &err);
  if (!rc && p->n_groups) dcsim_platform_find_group(p, p->groups[0].name);
  dcsim_platform_free(p);
  return 0;
}
