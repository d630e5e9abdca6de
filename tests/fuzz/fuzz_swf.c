/* fuzz_swf.c — Standard Workload Format traces (dcsim/swf.h; plain or gzip): load, then turn the
 * jobs into dcsim jobs on a 64-node group of 16 cores (dcsim/trace.h) and build the trace's
 * platform. */
// seeds: tests/data/traces/*.swf
#include "dcsim/swf.h"
#include "dcsim/trace.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  dcsim_error err;
  dcsim_swf *t = NULL;
  int rc = dcsim_swf_load_budget(fuzz_file("trace.swf", data, size), &fuzz_budget, &t, &err);
  fuzz_check_error(rc, &err);
  if (rc) return 0;
  dcsim_swf_header(t, "MaxNodes");
  dcsim_trace_jobs jobs;
  memset(&jobs, 0, sizeof jobs);
  dcsim_trace_info info;
  memset(&info, 0, sizeof info);
  rc = dcsim_trace_swf_jobs(t, NULL, "n", 64, 16, 0, &jobs, &info, &err);
  fuzz_check_error(rc, &err);
  free(dcsim_trace_swf_note(&info, "trace.swf"));
  dcsim_trace_jobs_release(&jobs);
  dcsim_platform *node = NULL, *p = NULL;
  char *node_path = NULL;
  if (dcsim_trace_node_load(&node, &node_path, &err) == 0) {
    rc = dcsim_trace_swf_platform(t, &node->groups[0], &p, &err);
    fuzz_check_error(rc, &err);
  }
  dcsim_platform_free(p);
  dcsim_platform_free(node);
  free(node_path);
  dcsim_swf_free(t);
  return 0;
}
