/* fuzz_swf_map.c — SWF job -> dwarf mapping rules (schemas/swf-map.xsd, dcsim/swfmap.h). */
// seeds: tests/data/traces/*map*.xml tests/data/traces/mixed.xml
#include "dcsim/swfmap.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  dcsim_error err;
  dcsim_swf_map *m = NULL;
  int rc = dcsim_swf_map_load(fuzz_file("map.xml", data, size), &m, &err);
  fuzz_check_error(rc, &err);
  dcsim_swf_map_free(m);
  return 0;
}
