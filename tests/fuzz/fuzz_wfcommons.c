/* fuzz_wfcommons.c — WfCommons workflow instances (JSON, dcsim/wfcommons.h): load, then the dcsim
 * workflow (pinned to the recorded machines and not, with delays and I/O) and the recorded
 * platform. */
// seeds: tests/data/traces/*.json
#include "dcsim/trace.h"
#include "dcsim/wfcommons.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  dcsim_error err;
  dcsim_wfc *w = NULL;
  int rc = dcsim_wfc_load(fuzz_file("instance.json", data, size), &w, &err);
  fuzz_check_error(rc, &err);
  if (rc) return 0;
  for (int pin = 0; pin < 2; pin++) {
    dcsim_wfc_opts o = {
      .pin = pin, .delay_s = pin ? 0 : 1.5, .dispatch_s = pin ? 0 : 0.25, .io_bw_bps = pin ? 0 : 1e9
    };
    dcsim_workflow *wf = NULL;
    rc = dcsim_wfc_workflow(w, &o, &wf, &err);
    fuzz_check_error(rc, &err);
    dcsim_workflow_free(wf);
  }
  dcsim_platform *node = NULL, *p = NULL;
  char *node_path = NULL;
  if (dcsim_trace_node_load(&node, &node_path, &err) == 0) {
    rc = dcsim_wfc_platform(w, &node->groups[0], &p, &err);
    fuzz_check_error(rc, &err);
  }
  dcsim_platform_free(p);
  dcsim_platform_free(node);
  free(node_path);
  dcsim_wfc_free(w);
  return 0;
}
