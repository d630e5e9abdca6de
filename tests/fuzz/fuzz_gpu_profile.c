/* fuzz_gpu_profile.c — GPU hardware profiles (schemas/gpu-profile.xsd). */
// seeds: hw-profiles/gpu/*.xml
#include "dcsim/hwprofile.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  dcsim_error err;
  dcsim_gpu_profile_t *p = NULL;
  int rc = dcsim_gpu_profile_load(fuzz_file("gpu.xml", data, size), &p, &err);
  fuzz_check_error(rc, &err);
  dcsim_gpu_profile_free(p);
  return 0;
}
