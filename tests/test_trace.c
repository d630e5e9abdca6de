/* test_trace.c — SWF jobs as simulation jobs: processors to nodes, skipped lines with their
 * counts, shared single-task workflows per shape, per-job time scales and estimates, the platform
 * sized from the header, map rules; trace detection by content. */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "dcsim/lib.h"
#include "dcsim/trace.h"

static void test_detect(void) {
  CHECK_INT(dcsim_trace_detect("tests/data/traces/small.swf"), DCSIM_TRACE_SWF);
  CHECK_INT(dcsim_trace_detect("tests/data/traces/wfc-14.json"), DCSIM_TRACE_WFCOMMONS);
  CHECK_INT(dcsim_trace_detect("workflows/alaro.xml"), DCSIM_TRACE_NONE);
  CHECK_INT(dcsim_trace_detect("tests/data/traces/missing"), DCSIM_TRACE_NONE);
}

static void test_jobs(void) {
  dcsim_swf *t = NULL;
  dcsim_error err = { 0 };
  if (dcsim_swf_load("tests/data/traces/small.swf", &t, &err)) {
    CHECK(0);
    return;
  }
  dcsim_platform *p = NULL;
  dcsim_platform *node = NULL;
  CHECK_INT(dcsim_trace_node_load(&node, NULL, &err), 0);
  if (!node) return;
  CHECK_INT(dcsim_trace_swf_platform(t, &node->groups[0], &p, &err), 0);
  if (p) {
    CHECK_INT(p->n_nodes, 4);         /* MaxNodes */
    CHECK_INT(p->groups[0].cores, 2); /* MaxProcs / MaxNodes */
    CHECK_STR(p->name, "test cluster (small.swf)");
    CHECK_STR(p->groups[0].cpu, "xeon-e5-2697v3"); /* the stand-in node's */
    CHECK_INT(p->groups[0].has_power_states, 1);
    CHECK_REL(p->groups[0].boot_j, 36000, 0);
    CHECK_INT(p->groups[0].sockets, 1);
  }
  dcsim_platform_free(p);
  dcsim_platform_free(node);
  dcsim_trace_jobs tj;
  dcsim_trace_info info = { 0 };
  CHECK_INT(dcsim_trace_swf_jobs(t, NULL, "nodes", 4, 2, 7.5, &tj, &info, &err), 0);
  CHECK_INT((long long)tj.n_jobs, 6);
  CHECK_INT((long long)info.jobs_read, 9);
  CHECK_INT((long long)info.jobs_kept, 6);
  CHECK_INT((long long)info.skipped_cancelled, 1);
  CHECK_INT((long long)info.skipped_unknown, 1);
  CHECK_INT((long long)info.skipped_partial, 1);
  CHECK_INT((long long)info.failed, 1);
  /* shapes: 4x2 (job 1), 1x2 (jobs 2 and 8), 2x2 (job 4: 3 processors), 1x1 (job 7), 3x2 (job 9) */
  CHECK_INT((long long)tj.n_wfs, 5);
  CHECK_INT(tj.jobs[1].wf, tj.jobs[4].wf);
  const dcsim_task_template *t4 = &tj.wfs[tj.jobs[2].wf]->templates[0];
  CHECK_INT(t4->nodes, 2);
  CHECK_INT(t4->cores_per_node, 2);
  CHECK_STR(t4->group, "nodes");
  CHECK_REL(t4->runtime_s, 1, 0);
  CHECK_STR(tj.wfs[tj.jobs[2].wf]->name, "swf-2x2");
  CHECK_INT(tj.jobs[2].trace_job, 4);
  CHECK_INT(tj.jobs[2].trace_procs, 3);
  CHECK_REL(tj.jobs[2].time_scale, 30, 0);           /* run time */
  CHECK_INT(tj.jobs[2].estimate_ns, 30000000000LL);  /* requested -1: the run time */
  CHECK_INT(tj.jobs[0].estimate_ns, 150000000000LL); /* requested time */
  CHECK_INT(tj.jobs[0].submit_ns, 7500000000LL);     /* submit + offset */
  CHECK_REL(tj.jobs[4].time_scale, 0.4, 1e-15);
  CHECK_REL(info.recorded_proc_s, 100 * 8 + 50 * 2 + 30 * 3 + 40 * 1 + 0.4 * 2 + 20 * 6, 1e-12);
  char *note = dcsim_trace_swf_note(&info, "x.swf");
  CHECK(note && strstr(note, "3 of 9 jobs left out"));
  free(note);
  dcsim_trace_jobs_release(&tj);
  /* a job larger than the group */
  dcsim_trace_info i2 = { 0 };
  CHECK_INT(dcsim_trace_swf_jobs(t, NULL, "nodes", 3, 2, 0, &tj, &i2, &err), DCSIM_ERANGE);
  CHECK_INT(err.line, 12);
  CHECK(strstr(err.msg, "job 1 asks for 8 processors") != NULL);
  /* map rules: job 1 -> BiFFT on its 4 nodes, job 4 -> SH on 1 node */
  dcsim_swf_map *m = NULL;
  CHECK_INT(dcsim_swf_map_load("tests/data/traces/map.xml", &m, &err), 0);
  dcsim_trace_info i3 = { 0 };
  CHECK_INT(dcsim_trace_swf_jobs(t, m, "nodes", 4, 2, 0, &tj, &i3, &err), 0);
  CHECK_INT((long long)i3.mapped, 2);
  const dcsim_task_template *m1 = &tj.wfs[tj.jobs[0].wf]->templates[0];
  CHECK_STR(m1->dwarf, "bifft");
  CHECK_INT(m1->nodes, 4);
  CHECK_INT(m1->cores_per_node, 2);
  CHECK_REL(tj.jobs[0].time_scale, 0, 0); /* model time */
  const dcsim_task_template *m4 = &tj.wfs[tj.jobs[2].wf]->templates[0];
  CHECK_STR(m4->dwarf, "spherical-harmonics");
  CHECK_INT(m4->nodes, 1);
  CHECK_STR(tj.wfs[tj.jobs[2].wf]->name, "swf-three-1x2");
  dcsim_trace_jobs_release(&tj);
  dcsim_swf_map_free(m);
  dcsim_swf_free(t);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  test_detect();
  test_jobs();
  CHECK_DONE();
}
