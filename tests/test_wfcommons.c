/* test_wfcommons.c — WfCommons instances: the 1.4 and 1.5 layouts of the same diamond give the same
 * tasks, runtimes, cores, machines, files and dependencies; the workflow and the recorded platform
 * built from them; bad instances named by JSON path (syntax errors by line); the real instances
 * of ../shared/data when present. */
#include <stdio.h>
#include <unistd.h>

#include "check.h"
#include "dcsim/lib.h"
#include "dcsim/wfcommons.h"

static dcsim_wfc *load(const char *path) {
  dcsim_wfc *w = NULL;
  dcsim_error err = { 0 };
  int rc = dcsim_wfc_load(path, &w, &err);
  CHECK_INT(rc, 0);
  if (rc) fprintf(stderr, "  %s:%d: %s\n", err.file, err.line, err.msg);
  return w;
}

static void check_diamond(const dcsim_wfc *w) {
  CHECK_STR(w->name, "diamond-test");
  CHECK_REL(w->makespan_s, 95, 0);
  CHECK_INT((long long)w->n_machines, 2);
  CHECK_STR(w->machines[1].name, "beta");
  CHECK_INT(w->machines[1].cores, 8);
  CHECK_REL(w->machines[1].speed_mhz, 1300, 0);
  CHECK_REL(w->machines[1].memory_byte, 16e9, 0);
  CHECK_INT((long long)w->n_tasks, 4);
  CHECK_STR(w->tasks[2].id, "right_ID03");
  CHECK_REL(w->tasks[2].runtime_s, 55.75, 0);
  CHECK_INT(w->tasks[2].cores, 4);
  CHECK_INT(w->tasks[1].cores, 1); /* no coreCount: one core */
  CHECK_INT(w->tasks[2].machine, 1);
  CHECK_REL(w->tasks[0].read_byte, 1e6, 0);
  CHECK_REL(w->tasks[0].write_byte, 5e5, 0);
  CHECK_REL(w->tasks[3].read_byte, 2.5e5, 0);
  CHECK(w->has_files);
  /* the workflow's input in.dat (read by split only) and its final output result.dat */
  CHECK_REL(w->stage_in_byte, 1e6, 0);
  CHECK_REL(w->stage_out_byte, 5e4, 0);
  CHECK_INT(w->tasks[0].reads_inputs, 1);
  CHECK_INT(w->tasks[1].reads_inputs, 0);
  CHECK(w->wms_name == NULL && w->wms_version == NULL); /* no runtime system recorded */
  /* join: parents left and right (declared once as a parent, once as a child in 1.4) */
  CHECK_INT((long long)w->tasks[3].n_parents, 2);
  if (w->tasks[3].n_parents == 2) {
    CHECK_INT(w->tasks[3].parents[0], 1);
    CHECK_INT(w->tasks[3].parents[1], 2);
  }
  CHECK_INT((long long)w->tasks[2].n_parents, 1);
  CHECK_INT((long long)w->tasks[0].n_parents, 0);
}

/* runtimeSystem (1.5) is read as the instance's WMS */
static void test_wms(void) {
  dcsim_wfc *w = load("tests/data/traces/wfc-pegasus.json");
  if (!w) return;
  CHECK_STR(w->wms_name, "Pegasus");
  CHECK_STR(w->wms_version, "4.9.3");
  dcsim_error err = { 0 };
  dcsim_wfc_opts o = { 1, 0, 0, 0 };
  dcsim_workflow *wf = NULL;
  CHECK_INT(dcsim_wfc_workflow(w, &o, &wf, &err), 0);
  if (wf) {
    CHECK_STR(wf->wms_system, "Pegasus");
    CHECK_STR(wf->wms_version, "4.9.3");
  }
  dcsim_workflow_free(wf);
  dcsim_wfc_free(w);
}

static void test_layouts(void) {
  static const char *const files[] = { "tests/data/traces/wfc-15.json",
                                       "tests/data/traces/wfc-14.json" };
  for (int k = 0; k < 2; k++) {
    dcsim_wfc *w = load(files[k]);
    if (!w) continue;
    check_diamond(w);
    dcsim_error err = { 0 };
    /* the workflow: pinned to the recorded machines, or scaled by the clock ratio */
    dcsim_wfc_opts o = { 1, 2.5, 0.75, 0 };
    dcsim_workflow *wf = NULL;
    CHECK_INT(dcsim_wfc_workflow(w, &o, &wf, &err), 0);
    if (wf) {
      CHECK_INT((long long)wf->n_tasks, 4);
      CHECK(wf->templates[2].dwarf == NULL);
      CHECK_STR(wf->templates[2].group, "beta");
      CHECK_REL(wf->templates[2].ref_ghz, 0, 0);
      CHECK_REL(wf->templates[1].delay_s, 2.5, 0);
      CHECK_REL(wf->dispatch_s, 0.75, 0);
      CHECK_INT(wf->templates[0].cores_per_node, 2);
      CHECK_INT(wf->dep_start[4] - wf->dep_start[3], 2);
      CHECK_REL(wf->templates[0].input_byte, 1e6, 0);
      CHECK_REL(wf->templates[0].output_byte, 5e5, 0);
      CHECK_INT(wf->templates[0].reads_inputs, 1);
      CHECK_REL(wf->stage_in_byte, 1e6, 0);
      CHECK_REL(wf->stage_out_byte, 5e4, 0);
      CHECK(wf->wms_system == NULL);
    }
    dcsim_workflow_free(wf);
    dcsim_wfc_opts o2 = { 0, 0, 0, 1e5 }; /* another platform; files at 100 kB/s */
    CHECK_INT(dcsim_wfc_workflow(w, &o2, &wf, &err), 0);
    if (wf) {
      CHECK(wf->templates[2].group == NULL);
      CHECK_REL(wf->templates[2].ref_ghz, 1.3, 1e-12);
      CHECK_REL(wf->templates[0].runtime_s, 10.25 + 1.5e6 / 1e5, 1e-12);
    }
    dcsim_workflow_free(wf);
    dcsim_platform *p = NULL;
    dcsim_node_group node = { .name = "n",
                              .count = 1,
                              .cpu = "xeon-e5-2697v3",
                              .sockets = 2,
                              .has_power_states = 1,
                              .off_w = 8 };
    CHECK_INT(dcsim_wfc_platform(w, &node, &p, &err), 0);
    if (p) {
      CHECK_INT((long long)p->n_groups, 2);
      CHECK_STR(p->groups[0].name, "alpha");
      CHECK_INT(p->groups[0].cores, 4);
      CHECK_INT(p->groups[1].cores, 8);
      CHECK_INT(p->n_nodes, 2);
      CHECK_REL(p->groups[1].off_w, 8, 0);
    }
    dcsim_platform_free(p);
    dcsim_wfc_free(w);
  }
}

static void bad(const char *path, int code, int line, const char *word) {
  dcsim_wfc *w = NULL;
  dcsim_error err = { 0 };
  CHECK_INT(dcsim_wfc_load(path, &w, &err), code);
  CHECK(w == NULL);
  CHECK_INT(err.line, line);
  CHECK(strstr(err.msg, word) != NULL);
  if (!strstr(err.msg, word)) fprintf(stderr, "  message: %s\n", err.msg);
}

static void test_bad(void) {
  bad("tests/data/traces/wfc-bad-parent.json", DCSIM_ESCHEMA, 0,
      "workflow.specification.tasks[0]: parent 'ghost'");
  bad("tests/data/traces/wfc-bad-syntax.json", DCSIM_EPARSE, 2, "column");
  bad("tests/data/traces/wfc-bad-runtime.json", DCSIM_ESCHEMA, 0,
      "workflow.execution.tasks[0].runtimeInSeconds: not a number");
  bad("tests/data/traces/small.swf", DCSIM_EPARSE, 1, "column");
  /* a path three levels deep, an out-of-range value (its own code, no WfFormat note) */
  bad("tests/data/traces/wfc-bad-machine.json", DCSIM_ERANGE, 0,
      "workflow.execution.machines[1].cpu.speedInMHz: -2600 is out of range");
}

/* The shipped instances: task counts and recorded makespans (../shared/data, when present). */
static void test_real(void) {
  static const struct {
    const char *file;
    long tasks;
    double makespan;
    size_t machines;
  } inst[] = { { "1000genome-chameleon-2ch-100k-001.json", 52, 776, 1 },
               { "epigenomics-chameleon-hep-1seq-100k-001.json", 41, 594, 1 },
               { "helloworld-chain-5-chameleon.json", 5, 661, 1 },
               { "helloworld-forkjoin-10-chameleon.json", 10, 437, 1 },
               { "montage-chameleon-dss-05d-001.json", 58, 870, 1 },
               { "seismology-chameleon-100p-001.json", 101, 354, 3 },
               { "srasearch-chameleon-10a-001.json", 22, 3488, 1 } };
  for (size_t i = 0; i < sizeof inst / sizeof *inst; i++) {
    char p[512];
    snprintf(p, sizeof p, "../shared/data/wfinstances/%s", inst[i].file);
    if (access(p, R_OK) != 0) {
      fprintf(stderr, "  %s absent: skipped\n", p);
      continue;
    }
    dcsim_wfc *w = load(p);
    if (!w) continue;
    CHECK_INT((long long)w->n_tasks, inst[i].tasks);
    CHECK_REL(w->makespan_s, inst[i].makespan, 0);
    CHECK_INT((long long)w->n_machines, (long long)inst[i].machines);
    CHECK_STR(w->wms_name, "Pegasus"); /* every shipped instance ran under Pegasus */
    CHECK(w->wms_version && (w->wms_version[0] == '4' || w->wms_version[0] == '5'));
    CHECK(w->stage_in_byte > 0);
    dcsim_wfc_free(w);
  }
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  test_layouts();
  test_wms();
  test_bad();
  test_real();
  CHECK_DONE();
}
