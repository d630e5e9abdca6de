/* fuzz_cpu_profile.c — CPU hardware profiles (schemas/cpu-profile.xsd): load, then look up every
 * frequency state the profile names and the tables at a few thread counts. */
// seeds: hw-profiles/cpu/*.xml tests/data/hwprofile/*.xml tests/data/bad/cpu-*.xml
#include <stdlib.h>

#include "dcsim/hwprofile.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  dcsim_error err;
  dcsim_cpu_profile_t *p = NULL;
  int rc = dcsim_cpu_profile_load(fuzz_file("cpu.xml", data, size), &p, &err);
  fuzz_check_error(rc, &err);
  if (rc) return 0;
  static const char *const freqs[] = { NULL, "turbo", "2.6", "1.2GHz", "0", "1e300" };
  unsigned max = dcsim_cpu_profile_max_threads(p);
  for (size_t f = 0; f < sizeof freqs / sizeof *freqs; f++) {
    dcsim_cpu_state st = { 0, NULL, 1 };
    rc = dcsim_cpu_profile_freq(p, freqs[f], &st, &err);
    fuzz_check_error(rc, &err);
    if (rc) continue;
    free(dcsim_cpu_state_freq_text(&st));
    const unsigned threads[] = { 1, 2, max, max + 1, 0 };
    for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
      st.threads = threads[t];
      dcsim_cpu_rates r;
      dcsim_cpu_power w;
      fuzz_check_error(dcsim_cpu_profile_rates(p, &st, &r, &err), &err);
      fuzz_check_error(dcsim_cpu_profile_power(p, &st, &w, &err), &err);
    }
  }
  dcsim_cpu_profile_free(p);
  return 0;
}
