/* fuzz_bench_text.c — the small text formats `dcsim bench` reads: nvidia-smi's CSV output and
 * sysfs cache sizes ("32K"). */
// seeds: tests/data/bench/sysfs/cpu0/cache/*/size
#include "dcsim/bench.h"
#include "dcsim/energymeter.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_str(data, size);
  dcsim_error err;
  dcsim_gpu_power g[8];
  int rc = dcsim_nvsmi_parse(text, g, 8, &err);
  if (rc < 0)
    fuzz_check_error(rc, &err);
  else if (rc > 8)
    abort();
  double v = dcsim_bench_parse_size(text);
  if (!(v == -1 || v >= 0)) abort();
  free(text);
  return 0;
}
