/* fuzz_trace_run.c — `dcsim run` of a trace end to end: the input is an SWF trace or a WfCommons
 * instance (recognised by content, dcsim/trace.h); its scenario is loaded on the platform the trace
 * implies and simulated by the engine. The input's size picks the job policy and power management.
 */
// seeds: tests/data/traces/*.swf tests/data/traces/*.json
#include "dcsim/sched.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  dcsim_error err;
  dcsim_scenario *s = NULL;
  dcsim_scenario_opts so = { .task_policy = DCSIM_TASK_HEFT,
                             .wms_delay_s = (size & 1) ? 0.5 : 0,
                             .io_bw_bps = (size & 2) ? 1e8 : 0,
                             .budget = &fuzz_budget };
  int rc = dcsim_scenario_load(fuzz_file("trace", data, size), &so, &s, &err);
  fuzz_check_error(rc, &err);
  if (!rc) {
    dcsim_engine_opts eo = { .job_policy = (dcsim_job_policy)((size >> 2) % 3),
                             .power_off = (size & 32) != 0,
                             .power_off_after_s = 60 };
    fuzz_simulate(s, &eo);
  }
  dcsim_scenario_free(s);
  return 0;
}
