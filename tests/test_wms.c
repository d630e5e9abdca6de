/* test_wms.c — the workflow management system mechanisms (dcsim/wms.h) on synthetic DAGs whose
 * timelines are worked out by hand, and the WMS description (dcsim/wmsconf.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "dcsim/lib.h"
#include "dcsim/wms.h"
#include "dcsim/wmsconf.h"

#define S 1000000000LL /* one second in ns */

/* The reference numbers of the hand timelines: DAGMan starts at 3 s and wakes every 5 s,
 * negotiation every 5 s, POST scripts of 1 s, auxiliary jobs of 3 s, no limits. */
static dcsim_wms_params base_params(void) {
  dcsim_wms_params p;
  memset(&p, 0, sizeof p);
  p.v[DCSIM_WMS_DAGMAN_START_S] = 3;
  p.v[DCSIM_WMS_DAGMAN_CYCLE_S] = 5;
  p.v[DCSIM_WMS_MAX_SUBMITS_PER_CYCLE] = 100;
  p.v[DCSIM_WMS_POST_SCRIPT_S] = 1;
  p.v[DCSIM_WMS_MAX_POST] = 20;
  p.v[DCSIM_WMS_MAX_PRE] = 1;
  p.v[DCSIM_WMS_NEGOTIATOR_CYCLE_S] = 5;
  p.v[DCSIM_WMS_MATCHES_PER_MACHINE] = 1;
  p.v[DCSIM_WMS_AUX_JOB_S] = 3;
  p.data = DCSIM_WMS_NONSHAREDFS;
  return p;
}

typedef struct dag_buf {
  dcsim_wms_task t[8];
  uint32_t dep_start[9], deps[16];
  uint32_t nodes[2], cores[2];
  dcsim_wms_dag d;
} dag_buf;

/* n independent tasks of run_s seconds (chain: each after the previous) on `machines` machines
 * of `cores` cores. */
static void make_dag(dag_buf *b, size_t n, const double *run_s, int chain, uint32_t machines,
                     uint32_t cores) {
  memset(b, 0, sizeof *b);
  for (size_t i = 0; i < n; i++) {
    b->t[i] = (dcsim_wms_task){ .run_ns = llround(run_s[i] * 1e9), .cores = 1 };
    b->dep_start[i + 1] = b->dep_start[i];
    if (chain && i) b->deps[b->dep_start[i + 1]++] = (uint32_t)(i - 1);
  }
  b->nodes[0] = machines;
  b->cores[0] = cores;
  b->d = (dcsim_wms_dag){ "test",   n, b->t, b->dep_start, b->deps, 1, b->nodes,
                          b->cores, 0, 0,    NULL,         NULL };
}

static int run(const dcsim_wms_params *p, const dag_buf *b, dcsim_wms_result *r) {
  dcsim_error err = { 0 };
  int rc = dcsim_wms_simulate(p, &b->d, r, &err);
  if (rc) fprintf(stderr, "  wms: %s\n", err.msg);
  return rc;
}

/* A chain of two tasks: create_dir, T0, T1, cleanup, each through DAGMan's cycles.
 * create_dir: submitted at 3, runs 3-6, seen at 8, POST 8-9, seen at 13: T0 ready, submitted at
 * 18, matched at the negotiation of 20, runs 20-32.5, seen at 33, POST 33-34, seen at 38: T1
 * submitted at 43, matched at 45, runs 45-52.25, seen 53, POST 53-54, seen 58: cleanup submitted
 * at 63, runs 63-66, seen 68, POST 68-69, seen at 73: DAGMan exits. */
static void test_chain(void) {
  dag_buf b;
  const double run_s[] = { 12.5, 7.25 };
  make_dag(&b, 2, run_s, 1, 1, 4);
  dcsim_wms_params p = base_params();
  dcsim_wms_result r;
  CHECK(run(&p, &b, &r) == 0);
  CHECK_INT(r.start_ns[0], 20 * S);
  CHECK_INT(r.start_ns[1], 45 * S);
  CHECK_INT(r.end_ns, 73 * S);
  CHECK_INT((long long)r.aux_jobs, 2);
  CHECK_REL(r.idle_s, 4.0, 1e-12); /* 18 -> 20 and 43 -> 45 */
  dcsim_wms_result_release(&r);
  /* without POST scripts a node completes in the cycle that sees it terminate: create_dir seen
   * at 8, T0 submitted at 13, matched at 15, ends at 27.5, seen at 28, T1 submitted at 33 ... */
  p.v[DCSIM_WMS_POST_SCRIPT_S] = 0;
  CHECK(run(&p, &b, &r) == 0);
  CHECK_INT(r.start_ns[0], 15 * S);
  CHECK_INT(r.start_ns[1], 35 * S); /* T0 seen at 28, T1 submitted 33, matched 35 */
  CHECK_INT(r.end_ns, 53 * S);      /* T1 ends 42.25, seen 43, cleanup 48-51, seen 53 */
  dcsim_wms_result_release(&r);
  /* a job wrapper holds the slot before the run: both runs start 6.4 s later, the next cycles
   * move with them (T0 20 + 6.4 = 26.4 to 38.9, seen at 43: T1 submitted at 53) */
  p = base_params();
  p.v[DCSIM_WMS_JOB_WRAPPER_S] = 6.4;
  CHECK(run(&p, &b, &r) == 0);
  CHECK_INT(r.start_ns[0], 26400000000LL);
  CHECK_INT(r.start_ns[1], 55 * S + 6400000000LL);
  dcsim_wms_result_release(&r);
}

/* Claim reuse on a machine of one core: three tasks of 31 s, submitted at 18.
 * Without reuse each waits for a negotiation cycle: T0 20-51, T1 55-86, T2 90.
 * With reuse each starts on its predecessor's claim when it ends: T1 at 51, T2 at 82.
 * With a claim worklife of 40 s, T1 reuses T0's claim (31 s old) but T1's end finds it 62 s old:
 * T2 waits for the negotiation at 85. */
/* Runs the DAG and checks that task i starts at want_s[i] seconds, for i < n. */
static void expect_starts(const dcsim_wms_params *p, const dag_buf *b, const long long *want_s,
                          size_t n) {
  dcsim_wms_result r;
  CHECK(run(p, b, &r) == 0);
  for (size_t i = 0; i < n; i++) CHECK_INT(r.start_ns[i], want_s[i] * S);
  dcsim_wms_result_release(&r);
}

static void test_claim_reuse(void) {
  dag_buf b;
  const double run_s[] = { 31, 31, 31 };
  make_dag(&b, 3, run_s, 0, 1, 1);
  dcsim_wms_params p = base_params();
  expect_starts(&p, &b, (const long long[]){ 20, 55, 90 }, 3);
  p.v[DCSIM_WMS_CLAIM_REUSE] = 1;
  p.v[DCSIM_WMS_CLAIM_WORKLIFE_S] = 1200;
  expect_starts(&p, &b, (const long long[]){ 20, 51, 82 }, 3);
  p.v[DCSIM_WMS_CLAIM_WORKLIFE_S] = 40;
  expect_starts(&p, &b, (const long long[]){ 20, 51, 85 }, 3);
}

/* Job priorities on a machine of one core: two roots of 10 s, the second of higher priority.
 * In order of readiness T0 runs 20-30 and T1 from the negotiation at 30; with job-priorities
 * DAGMan submits T1 first and the negotiator matches it first: T1 20-30, T0 at 30. */
static void test_priorities(void) {
  dag_buf b;
  const double run_s[] = { 10, 10 };
  make_dag(&b, 2, run_s, 0, 1, 1);
  b.t[0].priority = 10;
  b.t[1].priority = 20;
  dcsim_wms_params p = base_params();
  expect_starts(&p, &b, (const long long[]){ 20, 30 }, 2);
  p.v[DCSIM_WMS_JOB_PRIORITIES] = 1;
  expect_starts(&p, &b, (const long long[]){ 30, 20 }, 2);
}

/* The fixed cost per staged file: a task with 2 input and 1 output files starts its run 3 x 1.5 s
 * after its match (20 s), after the wrapper; under sharedfs nothing is staged. */
static void test_file_cost(void) {
  dag_buf b;
  const double run_s[] = { 10 };
  make_dag(&b, 1, run_s, 0, 1, 4);
  b.t[0].in_files = 2;
  b.t[0].out_files = 1;
  dcsim_wms_params p = base_params();
  p.v[DCSIM_WMS_FILE_S] = 1.5;
  dcsim_wms_result r;
  CHECK(run(&p, &b, &r) == 0);
  CHECK_INT(r.start_ns[0], 24500000000LL);
  dcsim_wms_result_release(&r);
  p.data = DCSIM_WMS_SHAREDFS;
  CHECK(run(&p, &b, &r) == 0);
  CHECK_INT(r.start_ns[0], 20 * S);
  dcsim_wms_result_release(&r);
}

/* Three tasks ready together on one machine: one match per machine and negotiation cycle. */
static void test_matching(void) {
  dag_buf b;
  const double run_s[] = { 30, 30, 30 };
  make_dag(&b, 3, run_s, 0, 1, 8);
  dcsim_wms_params p = base_params();
  dcsim_wms_result r;
  CHECK(run(&p, &b, &r) == 0);
  CHECK_INT(r.start_ns[0], 20 * S);
  CHECK_INT(r.start_ns[1], 25 * S);
  CHECK_INT(r.start_ns[2], 30 * S);
  dcsim_wms_result_release(&r);
  /* no limit per machine: all in the first cycle */
  p.v[DCSIM_WMS_MATCHES_PER_MACHINE] = 0;
  CHECK(run(&p, &b, &r) == 0);
  CHECK_INT(r.start_ns[2], 20 * S);
  dcsim_wms_result_release(&r);
  /* three machines: one each in the first cycle, the lowest-numbered machine first */
  p = base_params();
  make_dag(&b, 3, run_s, 0, 3, 8);
  CHECK(run(&p, &b, &r) == 0);
  CHECK_INT(r.start_ns[2], 20 * S);
  CHECK_INT(r.node[0], 0);
  CHECK_INT(r.node[2], 2);
  dcsim_wms_result_release(&r);
  /* one core: the slots make them wait for each other (20-50, then the cycle at 50, 80) */
  make_dag(&b, 3, run_s, 0, 1, 1);
  CHECK(run(&p, &b, &r) == 0);
  CHECK_INT(r.start_ns[1], 50 * S);
  CHECK_INT(r.start_ns[2], 80 * S);
  dcsim_wms_result_release(&r);
  /* serial submission: 2 s each from the cycle at 18 (20, 22, 24), unlimited matches: the
   * negotiations at 20 and 25 */
  make_dag(&b, 3, run_s, 0, 1, 8);
  p.v[DCSIM_WMS_MATCHES_PER_MACHINE] = 0;
  p.v[DCSIM_WMS_SUBMIT_S] = 2;
  CHECK(run(&p, &b, &r) == 0);
  CHECK_INT(r.start_ns[0],
            20 * S); /* create_dir submitted at 5, runs 5-8, seen in the cycle at 8 */
  CHECK_INT(r.start_ns[1], 25 * S);
  CHECK_INT(r.start_ns[2], 25 * S);
  dcsim_wms_result_release(&r);
  /* at most one idle job: submissions wait for matches */
  p = base_params();
  p.v[DCSIM_WMS_MATCHES_PER_MACHINE] = 0;
  p.v[DCSIM_WMS_MAX_IDLE] = 1;
  CHECK(run(&p, &b, &r) == 0);
  CHECK_INT(r.start_ns[0], 20 * S);
  CHECK_INT(r.start_ns[1], 25 * S); /* submitted in the cycle of 23, matched at 25 */
  CHECK_INT(r.start_ns[2], 30 * S);
  /* one cycle at a time, none twice: 3 8 13 18 23 28, then the ends and POST scripts of the
   * tasks (53 58 63 68) and cleanup (73 78 83) */
  CHECK_INT((long long)r.dagman_cycles, 13);
  CHECK_INT(r.end_ns, 83 * S);
  dcsim_wms_result_release(&r);
}

/* Per-job staging through the machine's interface and the staging site, max-min fair. */
static void test_transfers(void) {
  dag_buf b;
  const double run_s[] = { 10, 10 };
  dcsim_wms_params p = base_params();
  dcsim_wms_result r;
  p.v[DCSIM_WMS_MATCHES_PER_MACHINE] = 0;
  p.v[DCSIM_WMS_WORKER_NIC_BPS] = 1e7;
  make_dag(&b, 2, run_s, 0, 1, 8);
  b.t[0].in_byte = b.t[1].in_byte = 1e8; /* 10 s alone, 20 s sharing one interface */
  CHECK(run(&p, &b, &r) == 0);
  CHECK_INT(r.start_ns[0], 40 * S);
  CHECK_INT(r.start_ns[1], 40 * S);
  CHECK_REL(r.staged_byte, 2e8, 1e-12);
  dcsim_wms_result_release(&r);
  /* two machines of one core: a machine and an interface each */
  make_dag(&b, 2, run_s, 0, 2, 1);
  b.t[0].in_byte = b.t[1].in_byte = 1e8;
  CHECK(run(&p, &b, &r) == 0);
  CHECK_INT(r.start_ns[1], 30 * S);
  dcsim_wms_result_release(&r);
  /* ... but one staging site of 1e7 B/s between them; one of 4e8 B/s leaves the interfaces */
  p.v[DCSIM_WMS_STAGING_BPS] = 1e7;
  CHECK(run(&p, &b, &r) == 0);
  CHECK_INT(r.start_ns[1], 40 * S);
  dcsim_wms_result_release(&r);
  p.v[DCSIM_WMS_STAGING_BPS] = 4e8;
  CHECK(run(&p, &b, &r) == 0);
  CHECK_INT(r.start_ns[1], 30 * S);
  dcsim_wms_result_release(&r);
  /* unequal transfers: 5e7 and 1.5e8 bytes on one interface: 5e6 B/s each until the first is
   * done at 30, then 1e7 B/s for the last 1e8 - ... 1.5e8 - 5e7 = 1e8 bytes: 10 s, done at 40 */
  make_dag(&b, 2, run_s, 0, 1, 8);
  b.t[0].in_byte = 5e7;
  b.t[1].in_byte = 1.5e8;
  CHECK(run(&p, &b, &r) == 0);
  CHECK_INT(r.start_ns[0], 30 * S);
  CHECK_INT(r.start_ns[1], 40 * S);
  dcsim_wms_result_release(&r);
  /* sharedfs: the runtimes include the files */
  p.data = DCSIM_WMS_SHAREDFS;
  CHECK(run(&p, &b, &r) == 0);
  CHECK_INT(r.start_ns[1], 20 * S);
  dcsim_wms_result_release(&r);
}

/* stage_in moves the workflow's inputs over the input link before the tasks that read them;
 * stage_out and register follow the last task. */
static void test_aux(void) {
  dag_buf b;
  const double run_s[] = { 10 };
  dcsim_wms_params p = base_params();
  dcsim_wms_result r;
  p.v[DCSIM_WMS_INPUT_BPS] = 5.5e7;
  make_dag(&b, 1, run_s, 0, 1, 8);
  b.t[0].reads_inputs = 1;
  b.d.stage_in_byte = 1.1e8;  /* 2 s at 55 MB/s */
  b.d.stage_out_byte = 5.5e7; /* 1 s */
  /* create_dir done at 13; stage_in submitted 18, runs 18-21 + 2 s, seen in the cycle at 23,
   * POST, seen 28; T0 submitted 33, matched 35, ends 45, seen 48, seen done 53; stage_out
   * submitted 58, runs 58-61 + 1 s, seen 63, seen done 68; register and cleanup submitted 73,
   * 73-76, seen 78, done seen 83 */
  CHECK(run(&p, &b, &r) == 0);
  CHECK_INT(r.start_ns[0], 35 * S);
  CHECK_INT(r.end_ns, 83 * S);
  CHECK_INT((long long)r.aux_jobs, 5);
  dcsim_wms_result_release(&r);
  /* a PRE script of 2 s: a ready node waits for it, then the next cycle (create_dir: PRE 3-5,
   * submitted at 8) */
  p.v[DCSIM_WMS_PRE_SCRIPT_S] = 2;
  b.t[0].reads_inputs = 0;
  b.d.stage_in_byte = b.d.stage_out_byte = 0;
  CHECK(run(&p, &b, &r) == 0);
  /* create_dir 8-11, seen 13, POST, seen 18: T0's PRE 18-20, submitted 23, matched 25 */
  CHECK_INT(r.start_ns[0], 25 * S);
  dcsim_wms_result_release(&r);
}

static void test_errors(void) {
  dag_buf b;
  const double run_s[] = { 10 };
  dcsim_wms_params p = base_params();
  dcsim_wms_result r;
  dcsim_error err = { 0 };
  make_dag(&b, 1, run_s, 0, 1, 2);
  b.t[0].cores = 4; /* larger than its machines */
  CHECK(dcsim_wms_simulate(&p, &b.d, &r, &err) == DCSIM_ERANGE);
  CHECK(strstr(err.msg, "4 cores") != NULL);
  dcsim_wms_result_release(&r);
  make_dag(&b, 1, run_s, 0, 0, 2); /* no machine */
  CHECK(dcsim_wms_simulate(&p, &b.d, &r, &err) == DCSIM_ERANGE);
  dcsim_wms_result_release(&r);
  make_dag(&b, 1, run_s, 0, 1, 2);
  b.t[0].run_ns = 3000000000LL * S; /* past 10^9 s */
  CHECK(dcsim_wms_simulate(&p, &b.d, &r, &err) == DCSIM_ERANGE);
  dcsim_wms_result_release(&r);
}

/* The shipped description: every profile complete and sourced; selection by runtime system. */
static void test_conf(void) {
  dcsim_wms_conf *c = NULL;
  dcsim_error err = { 0 };
  CHECK(dcsim_wms_conf_load("workflows/wms/pegasus-htcondor.xml", &c, &err) == 0);
  if (!c) return;
  for (size_t i = 0; i < c->n_profiles; i++)
    for (int k = 0; k < DCSIM_WMS_N_PARAMS; k++) CHECK(c->profiles[i].source[k] != NULL);
  CHECK_STR(dcsim_wms_conf_select(c, "Pegasus", "4.9.3", 0)->name, "pegasus-4");
  /* Pegasus 5 by node type: 96- and 64-core machines have their own profiles, others the default */
  CHECK_STR(dcsim_wms_conf_select(c, "Pegasus", "5.0", 96)->name, "pegasus-5-96c");
  CHECK_STR(dcsim_wms_conf_select(c, "Pegasus", "5.0", 64)->name, "pegasus-5-64c");
  CHECK_STR(dcsim_wms_conf_select(c, "Pegasus", "5.0", 48)->name, "pegasus-5");
  CHECK_STR(dcsim_wms_conf_select(c, "Pegasus", "4.9.3", 96)->name, "pegasus-4");
  for (size_t i = 0; i < c->n_profiles; i++) /* every profile states its uncertainty band */
    CHECK(c->profiles[i].band_rel > 0 && c->profiles[i].band_source != NULL);
  CHECK_STR(dcsim_wms_conf_select(c, "pegasus", "5.0", 0)->name, "pegasus-5");
  CHECK_STR(dcsim_wms_conf_select(c, "Pegasus", "7.1", 0)->name, "pegasus-5"); /* the default */
  CHECK_STR(dcsim_wms_conf_select(c, NULL, NULL, 0)->name, "pegasus-5");
  CHECK(dcsim_wms_conf_select(c, "Nextflow", "23.04", 0) == NULL);
  CHECK_REL(dcsim_wms_conf_select(c, "Pegasus", "4.9.3", 0)->p.v[DCSIM_WMS_DAGMAN_CYCLE_S], 5, 0);
  dcsim_wms_conf_free(c);
}

static void expect_bad(const char *dir, const char *body, int line, const char *msg) {
  char path[512], text[4096];
  snprintf(path, sizeof path, "%s/bad.xml", dir);
  snprintf(text, sizeof text,
           "<?xml version=\"1.0\"?>\n<wms name=\"t\" default-profile=\"p\" source=\"test\">\n"
           "  <param name=\"dagman-start-s\" value=\"3\" source=\"test\"/>\n%s</wms>\n",
           body);
  check_write_file(path, text);
  dcsim_wms_conf *c = NULL;
  dcsim_error err = { 0 };
  CHECK(dcsim_wms_conf_load(path, &c, &err) != 0);
  CHECK(c == NULL);
  CHECK_INT(err.line, line);
  CHECK(strstr(err.msg, msg) != NULL);
  if (!strstr(err.msg, msg)) fprintf(stderr, "  message was: %d: %s\n", err.line, err.msg);
  dcsim_wms_conf_free(c);
}

/* One test per bad-input class of the description. */
static void test_conf_bad(void) {
  char dir[] = "/tmp/dcsim-test-wms-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  const char *prof =
      "  <profile name=\"p\" runtime-system=\"Pegasus\" version-prefix=\"4.\" "
      "data=\"condorio\" source=\"test\">\n";
  char body[2048];
  snprintf(body, sizeof body, "%s  </profile>\n", prof);
  expect_bad(dir, body, 4, "no value for dagman-cycle-s");
  snprintf(body, sizeof body,
           "%s    <param name=\"frobs-s\" value=\"1\" source=\"test\"/>\n  </profile>\n", prof);
  expect_bad(dir, body, 5, "unknown name 'frobs-s'");
  snprintf(body, sizeof body,
           "%s    <param name=\"max-post\" value=\"2.5\" source=\"test\"/>\n  </profile>\n", prof);
  expect_bad(dir, body, 5, "not a count");
  snprintf(body, sizeof body,
           "%s    <param name=\"submit-s\" value=\"1\" source=\"fitted: x\"/>\n  </profile>\n",
           prof);
  expect_bad(dir, body, 5, "needs its grid");
  snprintf(body, sizeof body,
           "%s    <param name=\"staging-bps\" value=\"1e6\" fit-min=\"0\" fit-max=\"1e9\" "
           "fit-steps=\"9\" source=\"fitted: x\"/>\n  </profile>\n",
           prof);
  expect_bad(dir, body, 5, "fit grid");
  snprintf(body, sizeof body,
           "%s    <param name=\"dagman-cycle-s\" value=\"0\" source=\"test\"/>\n  </profile>\n",
           prof);
  expect_bad(dir, body, 5, "a cycle must be > 0 s");
  snprintf(body, sizeof body,
           "%s    <param name=\"dagman-start-s\" value=\"1\" source=\"test\"/>\n"
           "    <param name=\"dagman-start-s\" value=\"2\" source=\"test\"/>\n  </profile>\n",
           prof);
  expect_bad(dir, body, 6, "given twice");
  expect_bad(dir,
             "  <profile name=\"q\" runtime-system=\"Pegasus\" version-prefix=\"4.\" "
             "data=\"condorio\" source=\"test\"/>\n",
             4, "no value"); /* every profile is checked before the default profile */
  snprintf(body, sizeof body,
           "%s    <param name=\"claim-reuse\" value=\"2\" source=\"test\"/>\n  </profile>\n", prof);
  expect_bad(dir, body, 5, "0 (off) or 1 (on)");
  expect_bad(dir,
             "  <profile name=\"p\" runtime-system=\"Pegasus\" version-prefix=\"4.\" "
             "machine-cores=\"1.5\" data=\"condorio\" source=\"test\"/>\n",
             4, "not a whole number of cores");
  expect_bad(dir,
             "  <profile name=\"p\" runtime-system=\"Pegasus\" version-prefix=\"4.\" "
             "band=\"0.2\" data=\"condorio\" source=\"test\"/>\n",
             4, "needs its band-source");
  char path[600];
  snprintf(path, sizeof path, "%s/bad.xml", dir);
  unlink(path);
  rmdir(dir);
}

/* stop_planning's counterpart (SIGTERM while planning, doc/robustness.md): asked before each job
 * starts; answers 1 from its stop_at-th call on (0: never) */
typedef struct stop_counter {
  unsigned calls, stop_at;
} stop_counter;

static int count_stop(void *ctx) {
  stop_counter *c = ctx;
  return ++c->calls >= c->stop_at && c->stop_at;
}

/* The chain of test_chain asks before each of its 2 tasks starts on a machine (create_dir and
 * cleanup run on the submit host, not matched) and gives the same timeline when never told to
 * stop; told to stop at the 2nd (T1), it returns DCSIM_EINTR at once, naming the DAG. */
static void test_stop(void) {
  dag_buf b;
  const double run_s[] = { 12.5, 7.25 };
  make_dag(&b, 2, run_s, 1, 1, 4);
  dcsim_wms_params p = base_params();
  dcsim_wms_result r;
  stop_counter never = { 0, 0 }, second = { 0, 2 };
  b.d.stop = count_stop;
  b.d.stop_ctx = &never;
  CHECK(run(&p, &b, &r) == 0);
  CHECK_INT(never.calls, 2);
  CHECK_INT(r.start_ns[0], 20 * S);
  CHECK_INT(r.start_ns[1], 45 * S);
  CHECK_INT(r.end_ns, 73 * S);
  dcsim_wms_result_release(&r);
  b.d.stop_ctx = &second;
  dcsim_error err = { 0 };
  CHECK_INT(dcsim_wms_simulate(&p, &b.d, &r, &err), DCSIM_EINTR);
  CHECK_INT(second.calls, 2);
  CHECK_STR(err.msg, "planning stopped on request");
  CHECK_STR(err.file, "test");
  dcsim_wms_result_release(&r);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  test_chain();
  test_matching();
  test_claim_reuse();
  test_file_cost();
  test_priorities();
  test_transfers();
  test_aux();
  test_errors();
  test_stop();
  test_conf();
  test_conf_bad();
  CHECK_DONE();
}
