/* fuzz_workflow.c — workflows (schemas/workflow.xsd): load and expand (steps, ensembles,
 * dependencies, cycle check), then name every task. */
// seeds: workflows/*.xml tests/data/workflow/*.xml tests/data/engine/*.xml tests/data/run/*.xml
// tests/data/validate/workflow.xml
#include "dcsim/workflow.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int linked;
  if (!linked) {
    fuzz_link("workflows");
    linked = 1;
  } /* platform="platforms/..." resolves */
  dcsim_error err;
  dcsim_workflow *wf = NULL;
  int rc =
      dcsim_workflow_load_budget(fuzz_file("workflow.xml", data, size), &fuzz_budget, &wf, &err);
  fuzz_check_error(rc, &err);
  if (!rc) {
    char name[64];
    for (size_t i = 0; i < wf->n_tasks && i < 4096; i++)
      if (dcsim_workflow_task_name(wf, i, name, sizeof name) < 0) abort();
  }
  dcsim_workflow_free(wf);
  return 0;
}
