/* fuzz_run.c — `dcsim run` end to end: the input is a workflow or a workload (next to the shipped
 * workflows and platforms); its scenario is loaded (profiles, dwarfs, models, plan) and simulated
 * by the engine. The input's size picks the policies, DVFS and node power management. */
// seeds: workflows/*.xml tests/data/engine/*.xml tests/data/workflow/*.xml tests/data/run/*.xml
// tests/data/recorded/*.xml
#include "dcsim/sched.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int linked;
  if (!linked) {
    fuzz_link("workflows");
    linked = 1;
  }
  dcsim_error err;
  dcsim_scenario *s = NULL;
  /* the input's size picks the policies and options, so the corpus covers them all */
  dcsim_scenario_opts so = { .task_policy = (size & 1) ? DCSIM_TASK_ENERGY : DCSIM_TASK_HEFT,
                             .deadline_s = (size & 4) ? 50.0 : 0,
                             .dvfs = (size & 8) != 0,
                             .dvfs_slowdown = 0.25,
                             .budget = &fuzz_budget };
  int rc = dcsim_scenario_load(fuzz_file("input.xml", data, size), &so, &s, &err);
  fuzz_check_error(rc, &err);
  if (!rc) {
    dcsim_engine_opts eo = { .job_policy = (dcsim_job_policy)((size >> 1) % 3),
                             .power_off = (size & 16) != 0,
                             .power_off_after_s = 600 };
    fuzz_simulate(s, &eo);
  }
  dcsim_scenario_free(s);
  return 0;
}
