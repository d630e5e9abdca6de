/* fuzz_calib_machine.c — calibration manifests (schemas/calibration-machine.xsd): the input is
 * machine.xml of a directory holding the E5-2697v3 tables; `dcsim calibrate cpu` turns it into a
 * CPU profile, which must then load (the generator never writes an invalid profile silently). */
// seeds: calibration/*/machine.xml
#include "dcsim/hwprofile.h"
#include "dcsim/import_cpu.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int linked;
  if (!linked) {
    fuzz_link("calibration/xeon-e5-2697v3");
    linked = 1;
  }
  fuzz_file("machine.xml", data, size);
  dcsim_error err;
  char *text = NULL;
  int rc = dcsim_calib_cpu_profile(fuzz_dir(), &text, &err);
  fuzz_check_error(rc, &err);
  if (!rc) { /* the generated profile is checked like any other input */
    dcsim_cpu_profile_t *p = NULL;
    rc = dcsim_cpu_profile_load(fuzz_file("profile.xml", (const uint8_t *)text, strlen(text)), &p,
                                &err);
    fuzz_check_error(rc, &err);
    dcsim_cpu_profile_free(p);
  }
  free(text);
  return 0;
}
