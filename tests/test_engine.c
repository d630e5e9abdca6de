/* test_engine.c — the engine against D3.5 §5.7's closed forms, the job policies, determinism, and
 * the results database's all-or-nothing runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "check.h"
#include "dcsim/energy.h"
#include "dcsim/engine.h"
#include "dcsim/lib.h"
#include "dcsim/model.h"
#include "dcsim/results.h"
#include "dcsim/scenario.h"

/* D3.5 mode: the closed forms below are §5.5-§5.7's (check_nwp_wall checks the default). */
static dcsim_scenario *load_mode(const char *path, dcsim_task_policy tp, unsigned flags) {
  dcsim_error err;
  dcsim_scenario_opts o = { .task_policy = tp, .model_flags = flags };
  dcsim_scenario *s = NULL;
  if (dcsim_scenario_load(path, &o, &s, &err)) {
    fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.msg);
    return NULL;
  }
  return s;
}

static dcsim_scenario *load(const char *path, dcsim_task_policy tp) {
  return load_mode(path, tp, DCSIM_MODEL_D35);
}

static dcsim_engine_t *run(const dcsim_scenario *s, dcsim_job_policy jp,
                           const dcsim_engine_sink *sink) {
  dcsim_error err;
  dcsim_engine_opts o = { .job_policy = jp, .sink = sink };
  dcsim_engine_t *e = dcsim_engine_new(s, &o, &err);
  if (!e || dcsim_engine_run(e, &err)) {
    fprintf(stderr, "engine: %s\n", err.msg);
    dcsim_engine_free(e);
    return NULL;
  }
  return e;
}

/* D3.5 §5.7 for one step: E1 = energy of dwarf 1 on its nodes, E1const their idle power, etc.
 * With single-socket CPU nodes E1 is exactly the §5.3 model energy; the GPU node's E2 is the §5.5
 * energy plus its DRAM idle (the node's part that §5.5 leaves out). Steps repeat, so the whole
 * job is `steps` times the one-step form. */
static void check_nwp(const char *path, int overlap, unsigned flags) {
  dcsim_scenario *s = load_mode(path, DCSIM_TASK_HEFT, flags);
  CHECK(s != NULL);
  if (!s) return;
  dcsim_engine_t *e = run(s, DCSIM_JOB_FCFS, NULL);
  CHECK(e != NULL);
  if (!e) {
    dcsim_scenario_free(s);
    return;
  }
  const dcsim_wf_rt *w = &s->wfs[0];
  const dcsim_option *o1 = &w->tmpls[0].opts[0], *o2 = &w->tmpls[1].opts[0];
  const dcsim_group_rt *g1 = &s->groups[o1->group], *g2 = &s->groups[o2->group];
  double T1 = (double)o1->duration_ns * 1e-9, T2 = (double)o2->duration_ns * 1e-9;
  /* the engine works with durations rounded to the ns: use the node powers times those */
  double E1 = o1->nodes * (g1->idle_w + o1->node_delta_w) * T1, E1c = o1->nodes * g1->idle_w;
  double E2 = (g2->idle_w + o2->node_delta_w) * T2, E2c = g2->idle_w;
  CHECK_REL(E1, o1->energy_j, 1e-6); /* = §5.3 model energy (default: node wall energy) */
  if (flags & DCSIM_MODEL_D35)
    CHECK_REL(E2, o2->energy_j + g2->dram_idle_w * T2, 1e-6); /* = §5.5 + host DRAM idle */
  else
    CHECK_REL(E2, o2->energy_j, 1e-6); /* the GPU node's wall power includes its host */
  double one = overlap ? dcsim_energy_nwp_overlap(E1, E1c, T1, E2, E2c, T2)
                       : dcsim_energy_nwp_nooverlap(E1, E1c, T1, E2, E2c, T2);
  const dcsim_run_stats *st = dcsim_engine_stats(e);
  CHECK_REL(st->jobs[0].energy_j, 3 * one, 1e-9); /* 3 steps */
  CHECK_REL(st->energy_j, 3 * one, 1e-9);         /* every node belongs to the job */
  double t_step = overlap ? (T1 > T2 ? T1 : T2) : T1 + T2;
  CHECK_REL((double)st->makespan_ns * 1e-9, 3 * t_step, 1e-9);
  CHECK_INT((long long)st->tasks, 6);
  dcsim_engine_free(e);
  dcsim_scenario_free(s);
}

static void check_backfill(void) {
  dcsim_scenario *s = load("tests/data/engine/backfill.xml", DCSIM_TASK_HEFT);
  CHECK(s != NULL);
  if (!s) return;
  dcsim_engine_t *f = run(s, DCSIM_JOB_FCFS, NULL), *e = run(s, DCSIM_JOB_EASY, NULL);
  CHECK(f && e);
  if (f && e) {
    const dcsim_run_stats *sf = dcsim_engine_stats(f), *se = dcsim_engine_stats(e);
    /* A (2 nodes, 58.86 s) at 0, B (4 nodes) at 1 s, C (1 node, 1.76 s) at 2 s: D3.5 Table 38 times
     */
    CHECK_REL((double)sf->jobs[0].end_ns * 1e-9, 117.72 / 2, 1e-6);
    CHECK_REL((double)sf->jobs[1].start_ns * 1e-9, 117.72 / 2, 1e-6); /* B waits for A */
    CHECK_REL((double)sf->jobs[2].start_ns * 1e-9, 117.72 / 2 + 117.72 / 4,
              1e-6);                                                  /* FCFS: C behind B */
    CHECK_REL((double)se->jobs[2].start_ns * 1e-9, 2.0, 1e-9);        /* EASY: C backfilled */
    CHECK_REL((double)se->jobs[1].start_ns * 1e-9, 117.72 / 2, 1e-6); /* without delaying B */
    CHECK(se->makespan_ns <= sf->makespan_ns);
  }
  dcsim_engine_free(f);
  dcsim_engine_free(e);
  dcsim_scenario_free(s);
}

static void check_determinism(void) {
  dcsim_scenario *a = load("workflows/datacentre-day.xml", DCSIM_TASK_HEFT);
  dcsim_scenario *b = load("workflows/datacentre-day.xml", DCSIM_TASK_HEFT);
  CHECK(a && b);
  if (a && b) {
    dcsim_engine_t *x = run(a, DCSIM_JOB_EASY, NULL), *y = run(b, DCSIM_JOB_EASY, NULL);
    CHECK(x && y);
    if (x && y) {
      const dcsim_run_stats *p = dcsim_engine_stats(x), *q = dcsim_engine_stats(y);
      CHECK(p->makespan_ns == q->makespan_ns);
      CHECK(memcmp(&p->energy_j, &q->energy_j, sizeof p->energy_j) == 0); /* bit for bit */
      CHECK(memcmp(p->jobs, q->jobs, p->n_jobs * sizeof *p->jobs) == 0);
      CHECK(memcmp(p->node_energy_j, q->node_energy_j, p->n_nodes * sizeof *p->node_energy_j) == 0);
    }
    dcsim_engine_free(x);
    dcsim_engine_free(y);
  }
  dcsim_scenario_free(a);
  dcsim_scenario_free(b);
}

static long long count_rows(const char *db, const char *table) {
  sqlite3 *h = NULL;
  long long n = -1;
  char sql[128];
  snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table);
  sqlite3_stmt *st = NULL;
  if (sqlite3_open(db, &h) == SQLITE_OK && sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW)
    n = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(h);
  return n;
}

static void check_results(void) {
  char db[] = "/tmp/dcsim-test-XXXXXX";
  int fd = mkstemp(db);
  CHECK(fd >= 0);
  if (fd < 0) return;
  close(fd);
  unlink(db);
  dcsim_scenario *s = load("tests/data/engine/nwp-nooverlap.xml", DCSIM_TASK_HEFT);
  CHECK(s != NULL);
  dcsim_error err;
  dcsim_run_info info = { "tests/data/engine/nwp-nooverlap.xml", "fcfs", "heft", 0 };
  /* a run that is not finished leaves nothing */
  dcsim_results_t *r = NULL;
  CHECK(dcsim_results_open(db, &r, &err) == 0);
  CHECK(dcsim_results_begin(r, s, &info, &err) == 0);
  dcsim_engine_t *e = run(s, DCSIM_JOB_FCFS, dcsim_results_sink(r));
  CHECK(e != NULL);
  dcsim_results_close(r); /* no finish: rolled back */
  CHECK_INT(count_rows(db, "runs"), 0);
  CHECK_INT(count_rows(db, "tasks"), 0);
  dcsim_engine_free(e);
  /* a finished run is all there */
  CHECK(dcsim_results_open(db, &r, &err) == 0);
  CHECK(dcsim_results_begin(r, s, &info, &err) == 0);
  e = run(s, DCSIM_JOB_FCFS, dcsim_results_sink(r));
  int64_t id = 0;
  CHECK(e && dcsim_results_finish(r, dcsim_engine_stats(e), &id, &err) == 0);
  dcsim_results_close(r);
  CHECK_INT(count_rows(db, "runs"), 1);
  CHECK_INT(count_rows(db, "tasks"), 6);
  CHECK_INT(count_rows(db, "workflows"), 1);
  CHECK_INT(count_rows(db, "nodes"), 3);
  CHECK(count_rows(db, "inputs") >= 5); /* workflow, platform, profiles, dwarfs */
  CHECK(count_rows(db, "power") > 6);
  dcsim_engine_free(e);
  dcsim_scenario_free(s);
  unlink(db);
  char aux[sizeof db + 8];
  snprintf(aux, sizeof aux, "%s-wal", db);
  unlink(aux);
  snprintf(aux, sizeof aux, "%s-shm", db);
  unlink(aux);
}

/* counts the tasks that ran on a GPU */
static int count_gpu(void *ctx, const dcsim_task_record *r, dcsim_error *err) {
  (void)err;
  if (r->opt->gpu) (*(int *)ctx)++;
  return 0;
}

static double run_choice(const char *path, dcsim_task_policy tp, double deadline_s,
                         int *gpu_tasks) {
  dcsim_error err;
  dcsim_scenario_opts o = { .task_policy = tp,
                            .deadline_s = deadline_s,
                            .model_flags = DCSIM_MODEL_D35 };
  dcsim_scenario *s = NULL;
  double e_j = -1;
  *gpu_tasks = 0;
  if (dcsim_scenario_load(path, &o, &s, &err)) {
    fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.msg);
    return -1;
  }
  dcsim_engine_sink sink = { gpu_tasks, count_gpu, NULL };
  dcsim_engine_t *e = run(s, DCSIM_JOB_FCFS, &sink);
  if (e) e_j = dcsim_engine_stats(e)->jobs[0].energy_j;
  dcsim_engine_free(e);
  dcsim_scenario_free(s);
  return e_j;
}

/* device="any": HEFT puts a task where it finishes first; the energy policy where the job spends
 * least, within the deadline (tests/data/engine/dual.xml: GPU 0.74 s, CPU 1.92 s or 1.2 s). */
static void check_any(void) {
  int gpu = 0;
  /* four tasks, one GPU, two CPU nodes: GPU, GPU (ends at 1.48 s < 1.92 s), then both CPUs */
  CHECK(run_choice("tests/data/engine/any.xml", DCSIM_TASK_HEFT, 0, &gpu) > 0);
  CHECK_INT(gpu, 2);
  double heft = run_choice("tests/data/engine/choice.xml", DCSIM_TASK_HEFT, 0, &gpu);
  CHECK_INT(gpu, 1); /* the GPU finishes first */
  double energy = run_choice("tests/data/engine/choice.xml", DCSIM_TASK_ENERGY, 0, &gpu);
  CHECK_INT(gpu, 0); /* the CPU costs the job less, idle power of the allocation included */
  CHECK(energy > 0 && energy < heft);
  double tight = run_choice("tests/data/engine/choice.xml", DCSIM_TASK_ENERGY, 1.0, &gpu);
  CHECK_INT(gpu, 1); /* 1.2 s on the CPU would miss a 1 s deadline */
  CHECK_REL(tight, heft, 1e-12);
}

/* Tasks sharing nodes by cores (recorded-runtime tasks): four 1-core tasks fill node 0, the 2-core
 * one goes to node 1; the join waits for its delay-s. */
static void check_shared_cores(void) {
  dcsim_scenario *s = load("tests/data/recorded/fork.xml", DCSIM_TASK_HEFT);
  CHECK(s != NULL);
  if (!s) return;
  const dcsim_wf_plan *p = &s->wfs[0].plan;
  CHECK_INT(p->alloc[0], 2);
  CHECK_INT(p->makespan_ns, 118000000000LL);    /* 10 + 100 + 3 (delay) + 5 */
  CHECK_INT(p->node_list[p->node_start[1]], 0); /* a, b, c, e share node 0 */
  CHECK_INT(p->node_list[p->node_start[2]], 0);
  CHECK_INT(p->node_list[p->node_start[4]], 1); /* d (2 cores) does not fit beside them */
  CHECK_INT(p->start_ns[6], 113000000000LL);
  dcsim_engine_t *e = run(s, DCSIM_JOB_FCFS, NULL);
  CHECK(e != NULL);
  if (e) { /* energy of the job: every node's power over the run; its tasks' energies are shares */
    const dcsim_run_stats *st = dcsim_engine_stats(e);
    double idle = s->groups[0].idle_w, core_w = s->wfs[0].tmpls[1].opts[0].node_delta_w;
    /* busy core-seconds: root 10, a b c 300, d 200, e 25, join 4 x 5 = 20 */
    CHECK_REL(st->energy_j, 2 * 118 * idle + core_w * (10 + 300 + 200 + 25 + 20), 1e-12);
  }
  dcsim_engine_free(e);
  dcsim_scenario_free(s);
}

static double start_of(const dcsim_run_stats *st, size_t j) {
  return (double)st->jobs[j].start_ns * 1e-9;
}

/* SJF orders the waiting jobs by estimate (10 s, 30 s, 50 s), FCFS by submission. */
static void check_sjf(void) {
  dcsim_scenario *s = load("tests/data/recorded/sjf.xml", DCSIM_TASK_HEFT);
  CHECK(s != NULL);
  if (!s) return;
  dcsim_engine_t *f = run(s, DCSIM_JOB_FCFS, NULL), *j = run(s, DCSIM_JOB_SJF, NULL);
  CHECK(f && j);
  if (f && j) {
    const dcsim_run_stats *a = dcsim_engine_stats(f), *b = dcsim_engine_stats(j);
    CHECK_REL(start_of(a, 1), 100, 0);
    CHECK_REL(start_of(a, 2), 150, 0);
    CHECK_REL(start_of(b, 2), 100, 0); /* the 10 s job first */
    CHECK_REL(start_of(b, 3), 110, 0);
    CHECK_REL(start_of(b, 1), 140, 0);
    CHECK_INT(b->makespan_ns, a->makespan_ns);
  }
  dcsim_engine_free(f);
  dcsim_engine_free(j);
  dcsim_scenario_free(s);
}

/* EASY backfills with the users' estimates (SWF requested time), not the real run times. */
static void check_easy_estimates(void) {
  static const char *const files[] = { "tests/data/traces/easy.swf",
                                       "tests/data/traces/easy-noreq.swf" };
  for (int k = 0; k < 2; k++) {
    dcsim_scenario *s = load(files[k], DCSIM_TASK_HEFT);
    CHECK(s != NULL);
    if (!s) continue;
    dcsim_engine_t *e = run(s, DCSIM_JOB_EASY, NULL);
    CHECK(e != NULL);
    if (e) {
      const dcsim_run_stats *st = dcsim_engine_stats(e);
      CHECK_INT(st->jobs[2].estimate_ns, k ? 50000000000LL : 200000000000LL);
      /* requested 200 s: it would pass the head's reservation at 100 s, so it waits (110 s);
       * no requested time: its run time (50 s) is the estimate and it backfills at once */
      CHECK_REL(start_of(st, 2), k ? 2 : 110, 0);
      CHECK_REL(start_of(st, 1), 100, 0);
    }
    dcsim_engine_free(e);
    dcsim_scenario_free(s);
  }
}

/* Node power management: idle nodes switch off after 60 s; the second job waits for a boot and
 * pays for it. Every term worked out from tests/data/recorded/platform.xml and the DVFS profile. */
static void check_power_management(void) {
  dcsim_scenario *s = load("tests/data/recorded/pm.xml", DCSIM_TASK_HEFT);
  CHECK(s != NULL);
  if (!s) return;
  dcsim_error err;
  dcsim_engine_opts o = { .job_policy = DCSIM_JOB_FCFS, .power_off = 1, .power_off_after_s = 60 };
  dcsim_engine_t *e = dcsim_engine_new(s, &o, &err);
  CHECK(e && dcsim_engine_run(e, &err) == 0);
  if (e) {
    const dcsim_run_stats *st = dcsim_engine_stats(e);
    double idle = s->groups[0].idle_w, busy = idle + s->wfs[0].tmpls[0].opts[0].node_delta_w;
    double boot_w = 1500.0 / 30, down_w = 400.0 / 10, off_w = 2.25;
    CHECK_INT((long long)st->shutdowns, 2); /* node 1 at 60 s, node 0 at 160 s */
    CHECK_INT((long long)st->boots, 1);     /* node 0 at 500 s */
    CHECK_REL(start_of(st, 1), 530, 0);     /* the boot delays the job */
    CHECK_INT(st->jobs[1].alloc_ns, 500000000000LL);
    CHECK_INT(st->makespan_ns, 630000000000LL);
    CHECK_REL(st->jobs[0].energy_j, 100 * busy, 1e-12);
    CHECK_REL(st->jobs[1].energy_j, 30 * boot_w + 100 * busy, 1e-12);
    double node0 = 100 * busy + 60 * idle + 10 * down_w + 330 * off_w + 30 * boot_w + 100 * busy;
    double node1 = 60 * idle + 10 * down_w + 560 * off_w;
    CHECK_REL(st->node_energy_j[0], node0, 1e-12);
    CHECK_REL(st->node_energy_j[1], node1, 1e-12);
    CHECK_REL(st->energy_j, node0 + node1, 1e-12);
    CHECK_REL(st->node_off_s[1], 560, 1e-12);
    CHECK_REL(st->node_off_s[0], 330, 1e-12);
  }
  dcsim_engine_free(e);
  /* off by default: the same workload keeps every node on */
  dcsim_engine_t *f = run(s, DCSIM_JOB_FCFS, NULL);
  if (f) {
    CHECK_INT((long long)dcsim_engine_stats(f)->boots, 0);
    CHECK_REL(dcsim_engine_stats(f)->energy_j,
              2 * 600 * s->groups[0].idle_w + 200 * s->wfs[0].tmpls[0].opts[0].node_delta_w, 1e-12);
  }
  dcsim_engine_free(f);
  dcsim_scenario_free(s);
}

/* dcsim_scenario_opts.stop_loading: asked after the main input, after the platform and after
 * each workflow is prepared; a yes stops loading there with DCSIM_EINTR and no scenario (the
 * sanitizer build checks that what was loaded is freed). */
typedef struct {
  unsigned calls, stop_at;
} stop_count;

static int stop_after(void *ctx) {
  stop_count *c = ctx;
  return ++c->calls == c->stop_at;
}

static void check_stop_loading(void) {
  const char *path = "workflows/datacentre-day.xml";
  stop_count c = { 0, 0 };
  dcsim_scenario_opts o = { .stop_loading = stop_after, .stop_loading_ctx = &c };
  dcsim_scenario *s = NULL;
  dcsim_error err;
  CHECK_INT(dcsim_scenario_load(path, &o, &s, &err), 0);
  if (!s) return;
  CHECK(s->n_wfs >= 2); /* a workload: more than one workflow-prepared step */
  CHECK_INT(c.calls, 2 + s->n_wfs);
  unsigned steps = c.calls;
  dcsim_scenario_free(s);
  for (unsigned k = 1; k <= steps; k++) {
    c = (stop_count){ 0, k };
    s = NULL;
    CHECK_INT(dcsim_scenario_load(path, &o, &s, &err), DCSIM_EINTR);
    CHECK(s == NULL);
    CHECK_INT(c.calls, k); /* stopped at once */
    CHECK_INT(err.code, DCSIM_EINTR);
    dcsim_scenario_free(s);
  }
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  check_any();
  check_nwp("tests/data/engine/nwp-nooverlap.xml", 0, DCSIM_MODEL_D35);
  check_nwp("tests/data/engine/nwp-overlap.xml", 1, DCSIM_MODEL_D35);
  check_nwp("tests/data/engine/nwp-nooverlap.xml", 0, 0); /* §5.7's forms hold for wall power */
  check_nwp("tests/data/engine/nwp-overlap.xml", 1, 0);
  check_backfill();
  check_determinism();
  check_results();
  check_shared_cores();
  check_sjf();
  check_easy_estimates();
  check_power_management();
  check_stop_loading();
  CHECK_DONE();
}
