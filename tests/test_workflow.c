/* test_workflow.c - workflow expansion (steps, overlap, ensembles, after=), its checks, the
 * in-memory builder at scale, and workloads. Run from the source root. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "dcsim/budget.h"
#include "dcsim/lib.h"
#include "dcsim/workflow.h"

#define WF "tests/data/workflow/"
#define WL "tests/data/workload/"

static const char *name_of(const dcsim_workflow *wf, size_t i) {
  static char buf[64];
  if (dcsim_workflow_task_name(wf, i, buf, sizeof buf) < 0) return "(bad index)";
  return buf;
}

/* The predecessors of task i are exactly want[0..n-1] (ascending). */
static void check_deps(const dcsim_workflow *wf, size_t i, const uint32_t *want, size_t n) {
  size_t got = wf->dep_start[i + 1] - wf->dep_start[i];
  int ok = got == n;
  for (size_t k = 0; ok && k < n; k++) ok = wf->deps[wf->dep_start[i] + k] == want[k];
  CHECK(ok);
  if (!ok) {
    fprintf(stderr, "  task %zu (%s) waits for", i, name_of(wf, i));
    for (size_t k = 0; k < got; k++) fprintf(stderr, " %u", wf->deps[wf->dep_start[i] + k]);
    fprintf(stderr, "\n");
  }
}
#define DEPS(wf, i, ...)                               \
  do {                                                 \
    const uint32_t w_[] = { __VA_ARGS__ };             \
    check_deps((wf), (i), w_, sizeof w_ / sizeof *w_); \
  } while (0)
#define NODEPS(wf, i) check_deps((wf), (i), NULL, 0)

static dcsim_workflow *load(const char *path) {
  dcsim_error err = { 0 };
  dcsim_workflow *wf = NULL;
  int rc = dcsim_workflow_load(path, &wf, &err);
  CHECK_INT(rc, 0);
  if (rc) fprintf(stderr, "  %s:%d: %s\n", err.file, err.line, err.msg);
  return wf;
}

static void check_fail(const char *file, int code, int line, const char *msg, int exact) {
  dcsim_error err = { 0 };
  dcsim_workflow *wf = (dcsim_workflow *)1;
  int rc = dcsim_workflow_load(file, &wf, &err);
  CHECK_INT(rc, code);
  CHECK(wf == NULL);
  CHECK_STR(err.file, file);
  CHECK_INT(err.line, line);
  if (exact)
    CHECK_STR(err.msg, msg);
  else
    CHECK(strstr(err.msg, msg) != NULL);
  if (rc != code || err.line != line) fprintf(stderr, "  (%s: %s)\n", file, err.msg);
}

static void test_alaro(void) {
  dcsim_workflow *wf = load(WF "alaro.xml");
  if (!wf) return;
  CHECK_STR(wf->name, "alaro");
  CHECK_STR(wf->platform, "tests/data/platform/hybrid.xml");
  CHECK_INT(wf->n_templates, 2);
  const dcsim_task_template *b = &wf->templates[0], *r = &wf->templates[1];
  CHECK_STR(b->name, "bifft");
  CHECK_STR(b->dwarf, "bifft");
  CHECK_STR(b->case_name, "alaro");
  CHECK_INT(b->device, DCSIM_DEV_CPU);
  CHECK_STR(b->group, "hsw");
  CHECK_INT(b->nodes, 8);
  CHECK_INT(b->cores_per_node, 1);
  CHECK_INT(b->gpus, 0);
  CHECK_REL(b->freq_ghz, 2.6, 1e-15);
  CHECK(b->freq_label == NULL);
  CHECK_INT(b->line, 5);
  CHECK_STR(r->dwarf, "acraneb2");
  CHECK_INT(r->device, DCSIM_DEV_GPU);
  CHECK_INT(r->nodes, 1);
  CHECK_INT(r->cores_per_node, 0);
  CHECK_INT(r->gpus, 1);
  CHECK_ABS(r->freq_ghz, 0, 0);
  CHECK_INT(wf->n_tasks, 200);
  /* step k: bifft then rad; every task waits for the one before it */
  NODEPS(wf, 0);
  for (size_t i = 1; i < wf->n_tasks; i++) DEPS(wf, i, (uint32_t)(i - 1));
  CHECK_INT(wf->tasks[5].tmpl, 1);
  CHECK_INT(wf->tasks[5].step, 3);
  CHECK_INT(wf->tasks[5].member, 0);
  CHECK_STR(name_of(wf, 0), "s1.bifft");
  CHECK_STR(name_of(wf, 5), "s3.rad");
  CHECK_STR(name_of(wf, 199), "s100.rad");
  CHECK_STR(name_of(wf, 200), "(bad index)");
  char small[4];
  CHECK_INT(dcsim_workflow_task_name(wf, 199, small, sizeof small), 8);
  CHECK_STR(small, "s10");
  dcsim_workflow_free(wf);
}

static void test_overlap(void) {
  dcsim_workflow *wf = load(WF "overlap.xml");
  if (!wf) return;
  CHECK(wf->platform == NULL);
  CHECK_INT(wf->n_tasks, 9);
  const dcsim_task_template *a = &wf->templates[0], *b = &wf->templates[1], *c = &wf->templates[2];
  CHECK_STR(a->freq_label, "turbo");
  CHECK_ABS(a->freq_ghz, 0, 0);
  CHECK_INT(b->gpus, 1);
  CHECK_INT(c->device, DCSIM_DEV_ANY);
  CHECK_INT(c->gpus, 1);
  CHECK_REL(c->deadline_s, 2.5, 1e-15);
  CHECK_INT(c->n_sets, 2);
  CHECK_STR(c->sets[1].name, "NPROMA");
  CHECK_REL(c->sets[1].value, 32, 1e-15);
  /* no dependency inside a step; every task of step k+1 waits for every task of step k, through
   * a barrier node (3 x 3 pairs are more than 3 + 3 edges): nodes 9 and 10 */
  CHECK_INT(wf->n_barriers, 2);
  for (size_t i = 0; i < 3; i++) NODEPS(wf, i);
  DEPS(wf, 9, 0, 1, 2);
  for (size_t i = 3; i < 6; i++) DEPS(wf, i, 9);
  DEPS(wf, 10, 3, 4, 5);
  for (size_t i = 6; i < 9; i++) DEPS(wf, i, 10);
  CHECK_STR(name_of(wf, 7), "s3.b");
  dcsim_workflow_free(wf);
}

static void test_ensemble(void) {
  dcsim_workflow *wf = load(WF "ensemble.xml");
  if (!wf) return;
  /* post, 3 x (init, 3 x (dyn, rad)), pre */
  CHECK_INT(wf->n_tasks, 23);
  CHECK_STR(name_of(wf, 0), "post");
  CHECK_STR(name_of(wf, 1), "m1.init");
  CHECK_STR(name_of(wf, 2), "m1.s1.dyn");
  CHECK_STR(name_of(wf, 7), "m1.s3.rad");
  CHECK_STR(name_of(wf, 13), "m2.s3.dyn");
  CHECK_STR(name_of(wf, 22), "pre");
  CHECK_INT(wf->tasks[13].member, 2);
  CHECK_INT(wf->tasks[13].step, 3);
  DEPS(wf, 0, 7, 14, 21); /* post after the ensemble: its sinks */
  NODEPS(wf, 22);
  for (uint32_t m = 0; m < 3; m++) {
    uint32_t b = 1 + 7 * m; /* members are independent: only pre links them */
    DEPS(wf, b, 22);
    for (uint32_t k = 1; k < 7; k++) DEPS(wf, b + k, b + k - 1);
  }
  dcsim_workflow_free(wf);

  wf = load(WF "chain.xml");
  if (!wf) return;
  /* a; b after a (implicit); c after a (explicit): step 2's a waits for both sinks b and c */
  NODEPS(wf, 0);
  DEPS(wf, 1, 0);
  DEPS(wf, 2, 0);
  DEPS(wf, 3, 1, 2);
  DEPS(wf, 4, 3);
  DEPS(wf, 5, 3);
  dcsim_workflow_free(wf);
}

static void test_bad_inputs(void) {
  check_fail(WF "missing.xml", DCSIM_EIO, 0, "cannot open: No such file or directory", 1);
  check_fail(WF "bad-malformed.xml", DCSIM_EPARSE, 4,
             "Opening and ending tag mismatch: task line 3", 0);
  check_fail(WF "bad-schema.xml", DCSIM_ESCHEMA, 3,
             "<task device=\"fpga\">: expected one of cpu, gpu, any", 1);
  check_fail(WF "bad-members-negative.xml", DCSIM_ESCHEMA, 3, "members=\"-2\"", 0);
  check_fail(WF "bad-cycle.xml", DCSIM_ESCHEMA, 4,
             "<task name=\"b\">: dependency cycle: b after c after b", 1);
  check_fail(WF "bad-cycle-implicit.xml", DCSIM_ESCHEMA, 5,
             "<task name=\"b\">: dependency cycle: b after c after b", 1);
  check_fail(WF "bad-after.xml", DCSIM_EREF, 5,
             "<task name=\"b\">: after=\"a\": no task or named block 'a' in this scope", 1);
  check_fail(WF "bad-count0.xml", DCSIM_ERANGE, 3, "<steps>: count must be >= 1", 1);
  check_fail(WF "bad-count-1e30.xml", DCSIM_ERANGE, 3,
             "<steps count=\"1e30\">: not a whole number in 0..4294967295", 1);
  check_fail(WF "bad-huge.xml", DCSIM_ERANGE, 4,
             "<steps>: workflow expands to more than 50000000 tasks (the most one workflow file "
             "may describe, whatever --max-tasks: split it into several workflows of a workload)",
             1);
  check_fail(WF "bad-dup.xml", DCSIM_ESCHEMA, 5, "<task name=\"a\">: duplicate task name (line 3)",
             1);
  check_fail(WF "bad-gpu-nodes.xml", DCSIM_ERANGE, 3,
             "<task name=\"a\">: a GPU task runs on one node (nodes=2)", 1);
  check_fail(WF "bad-gpus0.xml", DCSIM_ERANGE, 3,
             "<task name=\"a\" device=\"gpu\">: gpus must be >= 1", 1);
  check_fail(WF "bad-nodes0.xml", DCSIM_ERANGE, 3, "<task name=\"a\">: nodes must be >= 1", 1);
  check_fail(
      WF "bad-both.xml", DCSIM_ESCHEMA, 3,
      "<task name=\"a\">: give either dwarf= (a modelled call) or runtime-s= (a recorded runtime)",
      1);
  check_fail(
      WF "bad-neither.xml", DCSIM_ESCHEMA, 3,
      "<task name=\"a\">: give either dwarf= (a modelled call) or runtime-s= (a recorded runtime)",
      1);
  check_fail(WF "bad-input-byte.xml", DCSIM_ERANGE, 3,
             "<task name=\"t\">: runtime-s, ref-ghz, delay-s, input-byte and output-byte must be "
             "finite and >= 0",
             1);
  check_fail(WF "bad-stage-byte.xml", DCSIM_ERANGE, 2,
             "<workflow>: stage-in-byte and stage-out-byte must be at most 1e18", 1);
  check_fail(WF "bad-wms.xml", DCSIM_ESCHEMA, 2, "wms=\"condor\"", 0);
  check_fail(WF "bad-runtime-gpu.xml", DCSIM_ESCHEMA, 3,
             "<task name=\"a\" runtime-s=\"10\">: a recorded-runtime task runs on CPUs and takes "
             "no case or <set>",
             1);
}

/* The in-memory builder: a 1,000,000-task ensemble forecast, memory per task, and its checks. */
static void test_build(void) {
  dcsim_task_template t[2] = {
    { .name = "bifft", .dwarf = "bifft", .device = DCSIM_DEV_CPU, .nodes = 8, .line = 0 },
    { .name = "rad", .dwarf = "acraneb2", .device = DCSIM_DEV_GPU, .nodes = 1, .gpus = 1 }
  };
  dcsim_wf_item tasks[2] = { { .kind = DCSIM_WF_TASK, .tmpl = 0 },
                             { .kind = DCSIM_WF_TASK, .tmpl = 1 } };
  dcsim_wf_item steps = { .kind = DCSIM_WF_STEPS, .count = 50000, .n_items = 2, .items = tasks };
  dcsim_wf_item ens = { .kind = DCSIM_WF_ENSEMBLE, .count = 10, .n_items = 1, .items = &steps };
  dcsim_workflow *wf = NULL;
  dcsim_error err = { 0 };
  clock_t t0 = clock();
  int rc = dcsim_workflow_build("gen", t, 2, &ens, 1, &wf, &err);
  double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  CHECK_INT(rc, 0);
  if (rc) {
    fprintf(stderr, "  %s:%d: %s\n", err.file, err.line, err.msg);
    return;
  }
  CHECK_INT(wf->n_tasks, 1000000);
  size_t n_deps = wf->dep_start[wf->n_tasks];
  CHECK_INT(n_deps, 1000000 - 10);
  double bytes = (double)(wf->n_tasks * sizeof *wf->tasks + (wf->n_tasks + 1) * 4 + n_deps * 4);
  CHECK(bytes / (double)wf->n_tasks <= 200);
  fprintf(stderr, "build: 1e6 tasks in %.3f s, %.1f bytes/task\n", secs, bytes / 1e6);
  CHECK_STR(name_of(wf, 999999), "m10.s50000.rad");
  NODEPS(wf, 100000);
  DEPS(wf, 100001, 100000);
  CHECK(t[0].name != wf->templates[0].name); /* copied */
  dcsim_workflow_free(wf);

  wf = (dcsim_workflow *)1;
  steps.count = 0;
  CHECK_INT(dcsim_workflow_build("gen", t, 2, &ens, 1, &wf, &err), DCSIM_ERANGE);
  CHECK(wf == NULL);
  CHECK_STR(err.msg, "<steps>: count must be >= 1");
  steps.count = 4000000000u;
  ens.count = 4000000000u;
  steps.line = 7;
  CHECK_INT(dcsim_workflow_build("gen", t, 2, &ens, 1, &wf, &err), DCSIM_ERANGE);
  CHECK_STR(err.file, "gen");
  CHECK_INT(err.line, 7);
  CHECK_STR(err.msg,
            "<steps>: workflow expands to more than 50000000 tasks (the most one workflow file may "
            "describe, whatever --max-tasks: split it into several workflows of a workload)");
  steps.count = 2;
  tasks[1].tmpl = 0;
  CHECK_INT(dcsim_workflow_build("gen", t, 2, &ens, 1, &wf, &err), DCSIM_EREF);
  CHECK_STR(err.msg, "<task name=\"bifft\">: template 0 missing or used twice");
  tasks[1].tmpl = 1;
  dcsim_wf_item bad = {
    .kind = DCSIM_WF_STEPS, .count = 2, .n_items = 1, .items = &ens, .line = 3
  };
  CHECK_INT(dcsim_workflow_build("gen", t, 2, &bad, 1, &wf, &err), DCSIM_ESCHEMA);
  CHECK_STR(err.msg, "<ensemble>: not allowed here");
  CHECK_INT(dcsim_workflow_build("gen", t, 0, NULL, 0, &wf, &err), DCSIM_ESCHEMA);
  CHECK_STR(err.msg, "workflow has no task");
  /* a block named like a sibling task; after= naming one sibling twice */
  dcsim_wf_item top[2] = { { .kind = DCSIM_WF_TASK, .tmpl = 0, .line = 2 },
                           { .kind = DCSIM_WF_STEPS,
                             .name = "bifft",
                             .count = 2,
                             .n_items = 1,
                             .items = &tasks[1],
                             .line = 3 } };
  CHECK_INT(dcsim_workflow_build("gen", t, 2, top, 2, &wf, &err), DCSIM_ESCHEMA);
  CHECK_INT(err.line, 3);
  CHECK_STR(err.msg, "<steps name=\"bifft\">: name already used in this scope (line 2)");
  top[1].name = "fc";
  top[0].after = " fc\tfc ";
  CHECK_INT(dcsim_workflow_build("gen", t, 2, top, 2, &wf, &err), 0);
  if (wf) {
    CHECK_INT(wf->n_tasks, 3);
    DEPS(wf, 0, 2);
    DEPS(wf, 2, 1);
    CHECK_STR(name_of(wf, 2), "s2.rad");
  }
  dcsim_workflow_free(wf);
  /* overlap=true at width 20: every task of a step waits for the 20 of the previous one, through
   * one barrier per step: 40 edges per step instead of 400 */
  dcsim_task_template wide[20];
  dcsim_wf_item wide_items[20];
  char names[20][8];
  for (int i = 0; i < 20; i++) {
    snprintf(names[i], sizeof names[i], "d%d", i);
    wide[i] = (dcsim_task_template){ .name = names[i], .dwarf = "bifft", .nodes = 1 };
    wide_items[i] = (dcsim_wf_item){ .kind = DCSIM_WF_TASK, .tmpl = (uint32_t)i };
  }
  dcsim_wf_item wsteps = {
    .kind = DCSIM_WF_STEPS, .count = 1000, .overlap = 1, .n_items = 20, .items = wide_items
  };
  CHECK_INT(dcsim_workflow_build("wide", wide, 20, &wsteps, 1, &wf, &err), 0);
  if (wf) {
    CHECK_INT(wf->n_tasks, 20000);
    CHECK_INT(wf->n_barriers, 999);
    CHECK_INT(wf->dep_start[wf->n_tasks + wf->n_barriers], 999 * (20 + 20));
    DEPS(wf, 20000 - 1, 20000 + 998); /* the last task waits for the last barrier */
    CHECK_INT(wf->deps[wf->dep_start[20000 + 998]], 20000 - 40); /* which waits for step 999 */
  }
  dcsim_workflow_free(wf);
}

static void test_workload(void) {
  dcsim_error err = { 0 };
  dcsim_workload *wl = NULL;
  int rc = dcsim_workload_load(WL "day.xml", &wl, &err);
  CHECK_INT(rc, 0);
  if (rc) {
    fprintf(stderr, "  %s:%d: %s\n", err.file, err.line, err.msg);
    return;
  }
  CHECK_STR(wl->name, "datacentre-day");
  CHECK_STR(wl->platform, "tests/data/platform/hybrid.xml");
  CHECK_INT(wl->n_submissions, 3);
  CHECK_STR(wl->subs[0].workflow_path, WF "alaro.xml");
  CHECK_INT(wl->subs[0].count, 4);
  CHECK_REL(wl->subs[0].interval_s, 21600, 1e-15);
  CHECK_INT(wl->subs[0].members, 1);
  CHECK_REL(wl->subs[1].at_s, 3600.5, 1e-15);
  CHECK_INT(wl->subs[1].members, 3);
  CHECK_INT(wl->subs[2].count, 1);
  CHECK_ABS(wl->subs[2].interval_s, 0, 0);
  CHECK_INT(wl->subs[2].line, 5);
  dcsim_workload_free(wl);
  dcsim_workload_free(NULL);

  struct {
    const char *file;
    int code, line;
    const char *msg;
  } bad[] = {
    { WL "bad-missing.xml", DCSIM_EREF, 4,
      "<submit workflow=\"../workflow/missing.xml\">: cannot open tests/data/workflow/missing.xml: "
      "No such file or directory" },
    { WL "bad-interval.xml", DCSIM_ERANGE, 3,
      "<submit workflow=\"../workflow/alaro.xml\">: count > 1 needs interval-s > 0" },
    { WL "bad-count0.xml", DCSIM_ERANGE, 3,
      "<submit workflow=\"../workflow/alaro.xml\">: count must be >= 1" },
    { WL "bad-negative.xml", DCSIM_ESCHEMA, 3, NULL }
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    dcsim_error e = { 0 };
    wl = (dcsim_workload *)1;
    CHECK_INT(dcsim_workload_load(bad[i].file, &wl, &e), bad[i].code);
    CHECK(wl == NULL);
    CHECK_STR(e.file, bad[i].file);
    CHECK_INT(e.line, bad[i].line);
    if (bad[i].msg)
      CHECK_STR(e.msg, bad[i].msg);
    else
      CHECK(strstr(e.msg, "at-s=") != NULL);
  }
}

/* The expansion's size is known from the counts before anything is expanded (the
 * budget's refusals, exact figures), and a long cycle's message says where it was cut. */
static void test_budget_and_cycle(void) {
  dcsim_budget b = { 100000000, 0, 0, 0 };
  dcsim_workflow *wf = NULL;
  dcsim_error err = { 0 };
  CHECK_INT(dcsim_workflow_load_budget("tests/data/guard/after-4.9e8.xml", &b, &wf, &err),
            DCSIM_ERANGE);
  CHECK(wf == NULL);
  CHECK_INT(err.line, 4);
  CHECK_STR(err.msg,
            "the workflow expands to 490000000 dependency edges; the limit is 100000000 "
            "(--max-tasks N raises it)");
  /* the 4.9e8 pairs of 100 overlapping tasks x 49000 steps are 9.8e6 edges through barriers */
  b = (dcsim_budget){ 1000000, 0, 0, 0 };
  CHECK_INT(dcsim_workflow_load_budget("tests/data/guard/edges-4.9e8.xml", &b, &wf, &err),
            DCSIM_ERANGE);
  CHECK_STR(err.msg,
            "the workflow expands to 4900000 tasks; the limit is 1000000 (--max-tasks N "
            "raises it)");
  b = (dcsim_budget){ 0, 1u << 30, 0, 0 };
  CHECK_INT(dcsim_workflow_load_budget("tests/data/guard/steps-4e7.xml", &b, &wf, &err),
            DCSIM_ERANGE);
  CHECK_STR(err.msg,
            "expanding and planning its 40000000 tasks and 39999999 edges would need "
            "about 5.89 GiB of memory; the limit is 1 GiB (--max-memory SIZE raises it)");
  /* 3 overlapping tasks x 4 steps within the budget: 3 + 3 edges between consecutive steps */
  b = (dcsim_budget){ 18, 0, 0, 0 };
  dcsim_task_template t[3] = { { .name = "a", .runtime_s = 1, .nodes = 1 },
                               { .name = "b", .runtime_s = 1, .nodes = 1 },
                               { .name = "c", .runtime_s = 1, .nodes = 1 } };
  dcsim_wf_item tasks[3] = { { .kind = DCSIM_WF_TASK, .tmpl = 0 },
                             { .kind = DCSIM_WF_TASK, .tmpl = 1 },
                             { .kind = DCSIM_WF_TASK, .tmpl = 2 } };
  dcsim_wf_item steps = {
    .kind = DCSIM_WF_STEPS, .count = 4, .overlap = 1, .n_items = 3, .items = tasks
  };
  CHECK_INT(dcsim_workflow_build("gen", t, 3, &steps, 1, &wf, &err), 0);
  if (wf) CHECK_INT(wf->dep_start[wf->n_tasks + wf->n_barriers], 18);
  dcsim_workflow_free(wf);
  wf = NULL;
  /* a cycle through 60 long names: cut, with "..." */
  enum { N = 60 };
  dcsim_task_template tc[N];
  dcsim_wf_item items[N];
  char names[N][40], after[N][40];
  for (int i = 0; i < N; i++) {
    snprintf(names[i], sizeof names[i], "a-rather-long-task-name-number-%02d", i);
    snprintf(after[i], sizeof after[i], "a-rather-long-task-name-number-%02d", (i + 1) % N);
    tc[i] = (dcsim_task_template){ .name = names[i], .runtime_s = 1, .nodes = 1 };
    items[i] = (dcsim_wf_item){ .kind = DCSIM_WF_TASK, .tmpl = (uint32_t)i, .after = after[i] };
  }
  CHECK_INT(dcsim_workflow_build("gen", tc, N, items, N, &wf, &err), DCSIM_ESCHEMA);
  size_t len = strlen(err.msg);
  CHECK(len > 3 && strcmp(err.msg + len - 3, "...") == 0);
  CHECK(strncmp(err.msg,
                "<task name=\"a-rather-long-task-name-number-00\">: dependency cycle: ", 66) == 0);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  test_budget_and_cycle();
  test_alaro();
  test_overlap();
  test_ensemble();
  test_bad_inputs();
  test_build();
  test_workload();
  CHECK_DONE();
}
