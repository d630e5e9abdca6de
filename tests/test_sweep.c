/* test_sweep.c — sweeps: per-point scenarios (override rules of doc/sweep.md), infeasible points
 * with their reasons, the same bytes at 1 and 2 threads, and a resumable database that survives a
 * SIGKILL in the middle of a batch without losing or duplicating a point. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sqlite3.h>

#include "check.h"
#include "dcsim/engine.h"
#include "dcsim/lib.h"
#include "dcsim/model.h"
#include "dcsim/scenario.h"
#include "dcsim/sweep.h"
#include "dcsim/sweepdb.h"

static const char *const CPUS[] = { "xeon-e5-2697v3", "xeon-gold-6148" };
static const char *const GPUS[] = { "geforce-gtx970", "tesla-k20m", "tesla-m2070q" };
static const unsigned NODES[] = { 1, 4, 16 };
static const unsigned CORES[] = { 1, 5 };
static const char *const FREQS[] = { "nominal", "2.6" };

/* the ALARO design space of the test: 2 x 3 x 3 x 2 x 2 = 72 combinations, 54 points once the
 * frequencies are resolved per CPU */
static dcsim_sweep_t *alaro_sweep(void) {
  /* model_flags: the feasibility checked below is D3.5's table coverage */
  dcsim_sweep_def d = { .input = "workflows/alaro.xml",
                        .n_cpus = 2,
                        .cpus = CPUS,
                        .n_gpus = 3,
                        .gpus = GPUS,
                        .n_nodes = 3,
                        .nodes = NODES,
                        .n_cores = 2,
                        .cores = CORES,
                        .n_freqs = 2,
                        .freqs = FREQS,
                        .model_flags = DCSIM_MODEL_D35 };
  dcsim_sweep_t *sw = NULL;
  dcsim_error err;
  if (dcsim_sweep_new(&d, &sw, &err)) {
    fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.msg);
    return NULL;
  }
  return sw;
}

static char *json_of(dcsim_sweep_t *sw, int threads, size_t batch) {
  dcsim_error err;
  dcsim_sweep_run_opts o = { threads, 0, batch, NULL };
  if (dcsim_sweep_run(sw, &o, &err)) {
    fprintf(stderr, "sweep: %s\n", err.msg);
    return NULL;
  }
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  dcsim_sweep_write_json(f, dcsim_sweep_points(sw), dcsim_sweep_n_points(sw), NULL);
  fclose(f);
  return buf;
}

/* ---- resumable database: a child killed by SIGKILL in the middle of its third batch ---- */

typedef struct child_ctx {
  dcsim_sweepdb_t *db;
} child_ctx;

static int child_batch(void *ctx, const dcsim_sweep_point *pts, const size_t *idx, size_t n,
                       dcsim_error *err) {
  return dcsim_sweepdb_store(((child_ctx *)ctx)->db, pts, idx, n, err);
}

static void child_progress(void *ctx, size_t done, size_t total) {
  (void)ctx;
  (void)total;
  if (done == 10) raise(SIGKILL); /* batches of 4: 8 points stored, the third batch half done */
}

static void test_resume(const char *dir) {
  char db[512];
  snprintf(db, sizeof db, "%s/sweep.db", dir);
  pid_t pid = fork();
  if (pid == 0) {
    dcsim_sweep_t *sw = alaro_sweep();
    dcsim_sweepdb_t *d = NULL;
    dcsim_error err;
    if (!sw || dcsim_sweepdb_open(db, &d, &err) ||
        dcsim_sweepdb_attach(d, sw, "alaro", NULL, NULL, &err))
      _exit(3);
    child_ctx c = { d };
    dcsim_sweep_sink sink = { &c, child_batch, child_progress };
    dcsim_sweep_run_opts o = { 1, 0, 4, &sink };
    dcsim_sweep_run(sw, &o, &err);
    _exit(4); /* not reached: killed at 10 points */
  }
  int st = 0;
  waitpid(pid, &st, 0);
  CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
  /* resume: the two committed batches come back, the interrupted one is redone */
  dcsim_sweep_t *sw = alaro_sweep();
  dcsim_sweepdb_t *d = NULL;
  dcsim_error err;
  int64_t id = 0;
  size_t restored = 0;
  CHECK(sw && dcsim_sweepdb_open(db, &d, &err) == 0);
  if (!sw || !d) {
    dcsim_sweep_free(sw);
    return;
  }
  CHECK_INT(dcsim_sweepdb_attach(d, sw, "alaro", &id, &restored, &err), 0);
  CHECK_INT(id, 1);
  CHECK_INT(restored, 8);
  child_ctx c = { d };
  dcsim_sweep_sink sink = { &c, child_batch, NULL };
  dcsim_sweep_run_opts o = { 2, 0, 4, &sink };
  CHECK_INT(dcsim_sweep_run(sw, &o, &err), 0);
  char *resumed = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&resumed, &len);
  dcsim_sweep_write_json(f, dcsim_sweep_points(sw), dcsim_sweep_n_points(sw), NULL);
  fclose(f);
  dcsim_sweep_free(sw);
  dcsim_sweepdb_close(d);
  /* the same bytes as an uninterrupted sweep */
  dcsim_sweep_t *fresh = alaro_sweep();
  char *want = fresh ? json_of(fresh, 1, 0) : NULL;
  CHECK(want && resumed && strcmp(want, resumed) == 0);
  free(want);
  dcsim_sweep_free(fresh);
  free(resumed);
  /* every point stored exactly once, one sweep */
  sqlite3 *q = NULL;
  sqlite3_stmt *s = NULL;
  sqlite3_open(db, &q);
  sqlite3_prepare_v2(q,
                     "SELECT count(*), count(DISTINCT idx), min(idx), max(idx), (SELECT count(*) "
                     "FROM sweeps) FROM sweep_points",
                     -1, &s, NULL);
  CHECK(sqlite3_step(s) == SQLITE_ROW);
  CHECK_INT(sqlite3_column_int(s, 0), 54);
  CHECK_INT(sqlite3_column_int(s, 1), 54);
  CHECK_INT(sqlite3_column_int(s, 2), 0);
  CHECK_INT(sqlite3_column_int(s, 3), 53);
  CHECK_INT(sqlite3_column_int(s, 4), 1);
  sqlite3_finalize(s);
  sqlite3_close(q);
  /* a finished sweep resumes with nothing left to do; reading it back gives every point */
  sw = alaro_sweep();
  CHECK(sw && dcsim_sweepdb_open(db, &d, &err) == 0);
  if (sw && d) {
    CHECK_INT(dcsim_sweepdb_attach(d, sw, "alaro", &id, &restored, &err), 0);
    CHECK_INT(restored, 54);
    dcsim_sweepdb_close(d);
  }
  dcsim_sweep_free(sw);
  dcsim_sweep_point *pts = NULL;
  size_t n = 0, total = 0;
  CHECK_INT(dcsim_sweepdb_read(db, 0, &pts, &n, &total, NULL, &err), 0);
  CHECK_INT(n, 54);
  CHECK_INT(total, 54);
  dcsim_sweep_points_free(pts, n);
  CHECK(dcsim_sweepdb_read(db, 7, &pts, &n, &total, NULL, &err) == DCSIM_EREF);
}

/* ---- shards: a partition of the points; their databases merge into the rows of one run ---- */

static void rm_db(const char *path) {
  char side[2048];
  unlink(path);
  snprintf(side, sizeof side, "%s-wal", path);
  unlink(side);
  snprintf(side, sizeof side, "%s-shm", path);
  unlink(side);
}

static void test_shards(const char *dir) {
  dcsim_error err;
  /* every point in exactly one shard, whatever N; shards take points from all over the space */
  for (unsigned n = 1; n <= 9; n++) {
    size_t count[9] = { 0 }, bad = 0;
    for (size_t i = 0; i < 3360; i++) {
      unsigned s = dcsim_sweep_shard_of(i, n);
      if (s >= n)
        bad++;
      else
        count[s]++;
    }
    CHECK_INT(bad, 0);
    for (unsigned s = 0; s < n; s++)
      CHECK(count[s] > 3360 / n * 8 / 10 && count[s] < 3360 / n * 12 / 10);
  }
  dcsim_sweep_t *sw = alaro_sweep();
  if (!sw) return;
  CHECK_INT(dcsim_sweep_set_shard(sw, 2, 2, &err), DCSIM_EUSAGE);
  CHECK_INT(dcsim_sweep_set_shard(sw, 0, 0, &err), 0);
  char *want = json_of(sw, 1, 0); /* the whole sweep in one run */
  dcsim_sweep_free(sw);
  /* three shards, each in its own database */
  char db[3][600], out[600];
  size_t in_shard[3] = { 0 };
  for (unsigned k = 0; k < 3; k++) {
    snprintf(db[k], sizeof db[k], "%s/shard%u.db", dir, k);
    sw = alaro_sweep();
    dcsim_sweepdb_t *d = NULL;
    CHECK(sw && dcsim_sweepdb_open(db[k], &d, &err) == 0);
    if (!sw || !d) {
      dcsim_sweep_free(sw);
      dcsim_sweepdb_close(d);
      continue;
    }
    CHECK_INT(dcsim_sweep_set_shard(sw, k, 3, &err), 0);
    CHECK_INT(dcsim_sweepdb_attach(d, sw, "alaro", NULL, NULL, &err), 0);
    child_ctx c = { d };
    dcsim_sweep_sink sink = { &c, child_batch, NULL };
    dcsim_sweep_run_opts o = { 2, 0, 4, &sink };
    CHECK_INT(dcsim_sweep_run(sw, &o, &err), 0);
    size_t wrong = 0, front = 0;
    for (size_t i = 0; i < dcsim_sweep_n_points(sw); i++) {
      const dcsim_sweep_point *p = &dcsim_sweep_points(sw)[i];
      in_shard[k] += dcsim_sweep_in_shard(sw, i);
      wrong += (p->done != 0) != dcsim_sweep_in_shard(sw, i);
      front += p->pareto != 0;
    }
    CHECK_INT(wrong, 0);
    CHECK_INT(front, 0); /* no front of a part of the sweep */
    CHECK(in_shard[k] > 0);
    dcsim_sweepdb_close(d);
    dcsim_sweep_free(sw);
  }
  CHECK_INT(in_shard[0] + in_shard[1] + in_shard[2], 54);
  /* merged (shard 1 given twice: identical duplicates) = one run */
  snprintf(out, sizeof out, "%s/all.db", dir);
  const char *ins[] = { db[0], db[1], db[2], db[1] };
  size_t rows[4] = { 0 };
  dcsim_sweepdb_merge_report rep;
  CHECK_INT(dcsim_sweepdb_merge(ins, 4, out, NULL, &rep, rows, &err), 0);
  CHECK_INT(rep.n_points, 54);
  CHECK_INT(rep.n_stored, 54);
  CHECK_INT(rep.n_missing, 0);
  CHECK_INT(rep.n_duplicates, in_shard[1]);
  CHECK_STR(rep.missing, "");
  CHECK_INT(rows[0], in_shard[0]);
  CHECK_INT(rows[3], in_shard[1]);
  dcsim_sweep_point *pts = NULL;
  size_t n = 0, total = 0;
  CHECK_INT(dcsim_sweepdb_read(out, 0, &pts, &n, &total, NULL, &err), 0);
  CHECK_INT(n, 54);
  if (pts) {
    dcsim_sweep_mark_front(pts, n);
    char *got = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&got, &len);
    dcsim_sweep_write_json(f, pts, n, NULL);
    fclose(f);
    CHECK(want && got && strcmp(want, got) == 0);
    free(got);
  }
  dcsim_sweep_points_free(pts, n);
  /* an existing output is never overwritten */
  CHECK_INT(dcsim_sweepdb_merge(ins, 2, out, NULL, &rep, NULL, &err), DCSIM_EUSAGE);
  CHECK_STR(err.file, out);
  rm_db(out);
  /* a shard left out: its points are reported missing */
  CHECK_INT(dcsim_sweepdb_merge(ins, 2, out, NULL, &rep, NULL, &err), 0);
  CHECK_INT(rep.n_missing, in_shard[2]);
  CHECK(rep.missing[0] >= '0' && rep.missing[0] <= '9');
  rm_db(out);
  /* a point that differs between two inputs: refused, naming both files; nothing written */
  sqlite3 *q = NULL;
  sqlite3_open(db[2], &q);
  CHECK(sqlite3_exec(q,
                     "UPDATE sweep_points SET time_s = time_s + 1e-9 WHERE idx = (SELECT min(idx) "
                     "FROM sweep_points WHERE feasible)",
                     NULL, NULL, NULL) == SQLITE_OK &&
        sqlite3_changes(q) == 1);
  sqlite3_close(q);
  const char *ins2[] = { db[0], db[1], db[2], db[2] };
  CHECK_INT(dcsim_sweepdb_merge(ins2, 4, out, NULL, &rep, NULL, &err),
            0); /* a change in one shard alone is no conflict */
  rm_db(out);
  char copy[1400];
  snprintf(copy, sizeof copy, "cp %s %s/doctored.db", db[0], dir);
  CHECK(system(copy) == 0);
  snprintf(copy, sizeof copy, "%s/doctored.db", dir);
  sqlite3_open(copy, &q);
  sqlite3_exec(q,
               "UPDATE sweep_points SET reason = 'x' WHERE idx = (SELECT max(idx) FROM "
               "sweep_points WHERE NOT feasible)",
               NULL, NULL, NULL);
  CHECK_INT(sqlite3_changes(q), 1);
  sqlite3_close(q);
  const char *ins3[] = { db[0], copy };
  CHECK_INT(dcsim_sweepdb_merge(ins3, 2, out, NULL, &rep, NULL, &err), DCSIM_EDB);
  CHECK_STR(err.file, copy);
  CHECK(strstr(err.msg, db[0]) && strstr(err.msg, "reason: 'x' here"));
  CHECK(access(out, F_OK) != 0);
  /* another sweep: refused; a hash prefix that matches nothing: refused */
  CHECK_INT(dcsim_sweepdb_merge(ins, 1, out, "ffff", &rep, NULL, &err), DCSIM_EREF);
  CHECK_INT(dcsim_sweepdb_merge(ins, 1, out, "", &rep, NULL, &err), 0);
  rm_db(out);
  rm_db(copy);
  for (int k = 0; k < 3; k++) rm_db(db[k]);
  free(want);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  char dir[] = "/tmp/dcsim-test-sweep-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  test_resume(dir); /* first: fork before OpenMP starts its threads */

  /* derive: the rules of doc/sweep.md on the ALARO platform (hsw: 8 CPU nodes; gpu: 1 GTX 970 node)
   */
  dcsim_error err;
  dcsim_scenario_opts so = { .platform_path = NULL };
  dcsim_scenario *base = NULL, *s = NULL;
  CHECK_INT(dcsim_scenario_load_inputs("workflows/alaro.xml", &so, &base, &err), 0);
  const dcsim_cpu_profile_t *skl = NULL;
  const dcsim_gpu_profile_t *k20 = NULL;
  CHECK_INT(dcsim_scenario_cpu_profile(base, "xeon-gold-6148", &skl, &err), 0);
  CHECK_INT(dcsim_scenario_gpu_profile(base, "tesla-k20m", &k20, &err), 0);
  dcsim_scenario_override ov = { skl, k20, 16, 3, "nominal", 0, NULL, 0, 0, NULL };
  CHECK_INT(dcsim_scenario_derive(base, &ov, &s, &err), 0);
  if (s) {
    CHECK(s->groups[0].cpu == skl);                 /* the CPU group takes the CPU */
    CHECK(s->groups[1].gpu == k20);                 /* the GPU group takes the GPU ... */
    CHECK(s->groups[1].cpu == base->groups[1].cpu); /* ... and keeps its host CPU */
    CHECK_INT(s->groups[0].g->count, 16);           /* grown from 8 to the point's 16 nodes */
    CHECK_INT(s->groups[1].g->count, 1);
    CHECK_INT(s->platform->n_nodes, 17);
    CHECK_INT(s->groups[1].g->first_node, 16);
    CHECK_INT(s->wfs[0].tmpls[0].opts[0].nodes, 16); /* the CPU task on 16 nodes */
    CHECK_INT(s->wfs[0].tmpls[1].opts[0].nodes, 1);  /* the GPU task on one */
    CHECK_INT(base->platform->groups[0].count, 8);   /* the base is untouched */
  }
  dcsim_scenario_free(s);
  s = NULL;
  /* no override = the workflow as `dcsim run` simulates it */
  dcsim_scenario *full = NULL;
  so.task_policy = 0;
  CHECK_INT(dcsim_scenario_load("workflows/alaro.xml", &so, &full, &err), 0);
  CHECK_INT(dcsim_scenario_derive(base, NULL, &s, &err), 0);
  if (s && full) {
    dcsim_engine_opts eo = { .job_policy = DCSIM_JOB_FCFS, .sink = NULL };
    dcsim_engine_t *e1 = dcsim_engine_new(full, &eo, &err), *e2 = dcsim_engine_new(s, &eo, &err);
    CHECK(e1 && e2 && dcsim_engine_run(e1, &err) == 0 && dcsim_engine_run(e2, &err) == 0);
    if (e1 && e2) {
      CHECK_INT(dcsim_engine_stats(e1)->makespan_ns, dcsim_engine_stats(e2)->makespan_ns);
      CHECK(dcsim_engine_stats(e1)->energy_j == dcsim_engine_stats(e2)->energy_j);
    }
    dcsim_engine_free(e1);
    dcsim_engine_free(e2);
  }
  dcsim_scenario_free(s);
  dcsim_scenario_free(full);
  /* a state outside the tables: the model beneath them (extrapolated) by default ... */
  dcsim_scenario_override low = { skl, NULL, 0, 0, "2.0", 0, NULL, 0, 0, NULL };
  CHECK_INT(dcsim_scenario_derive(base, &low, &s, &err), 0);
  if (s) {
    dcsim_prov tp, ep;
    dcsim_scenario_provenance(s, &tp, &ep);
    CHECK_INT(tp.kind, DCSIM_PROV_EXTRAPOLATED);
  }
  dcsim_scenario_free(s);
  s = NULL;
  /* ... but never beyond the CPU's highest clock (the Gold 6148's is its 3.7 GHz turbo) ... */
  dcsim_scenario_override bad = { skl, NULL, 0, 0, "4.0", 0, NULL, 0, 0, NULL };
  CHECK_INT(dcsim_scenario_derive(base, &bad, &s, &err), DCSIM_ERANGE);
  CHECK(strstr(err.msg, "<task name=\"bifft\">") && strstr(err.msg, "beyond the highest clock"));
  dcsim_scenario_free(base);
  /* ... and DCSIM_ERANGE naming the task under D3.5's table-only model (--d35) */
  so.model_flags = DCSIM_MODEL_D35;
  CHECK_INT(dcsim_scenario_load_inputs("workflows/alaro.xml", &so, &base, &err), 0);
  CHECK_INT(dcsim_scenario_cpu_profile(base, "xeon-gold-6148", &skl, &err), 0);
  bad.cpu = skl; /* the profile of this base */
  CHECK_INT(dcsim_scenario_derive(base, &bad, &s, &err), DCSIM_ERANGE);
  CHECK(strstr(err.msg, "<task name=\"bifft\">") && strstr(err.msg, "4 GHz"));
  CHECK(s == NULL);
  dcsim_scenario_free(base);

  /* the sweep: infeasible points carry their reason and never stop the sweep */
  dcsim_sweep_t *sw = alaro_sweep();
  char *one = sw ? json_of(sw, 1, 0) : NULL;
  if (sw) {
    const dcsim_sweep_point *p = dcsim_sweep_points(sw);
    size_t n = dcsim_sweep_n_points(sw), feasible = 0, front = 0, knees = 0;
    /* nominal and 2.6 are one state of the E5-2697 v3 (2.6 GHz), two of the Gold 6148 (2.4, and
     * 2.6 beyond its highest clock): 3 GPUs x 3 node counts x 2 core counts x (1 + 2) */
    CHECK_INT(n, 54);
    for (size_t i = 0; i < n; i++) {
      CHECK(p[i].done);
      feasible += p[i].feasible != 0;
      front += p[i].pareto != 0;
      knees += p[i].knee != 0;
      CHECK(strcmp(p[i].freq, "nominal") != 0); /* names show the GHz they resolve to */
      int gold_26 = !strcmp(p[i].cpu, "xeon-gold-6148") && !strcmp(p[i].freq, "2.6");
      if (gold_26) /* --d35: no table at 2.6 GHz (the default model: beyond its highest clock) */
        CHECK(!p[i].feasible && p[i].reason && strstr(p[i].reason, "2.6 GHz is not covered"));
      else if (p[i].cores == 5) /* the energy table ends at 4 cores */
        CHECK(!p[i].feasible && p[i].reason &&
              strstr(p[i].reason, "5 threads/cores not covered by the energy table"));
      if (!p[i].feasible) CHECK(!p[i].pareto);
    }
    /* cores 1 at 2.6 and 2.4 GHz only: 3 GPUs x 3 node counts x 2 */
    CHECK_INT(feasible, 18);
    CHECK(front >= 1);
    CHECK_INT(knees, 1);
    /* point order: cpu, gpu, nodes, cores, freq (innermost) */
    CHECK_STR(p[0].cpu, "xeon-e5-2697v3");
    CHECK_STR(p[0].freq, "2.6");
    CHECK_INT(p[1].cores, 5);
    CHECK_INT(p[2].nodes, 4);
    CHECK_STR(p[6].gpu, "tesla-k20m");
    CHECK_STR(p[18].cpu, "xeon-gold-6148");
    CHECK_STR(p[18].freq, "2.4");
    CHECK_STR(p[19].freq, "2.6");
  }
  dcsim_sweep_free(sw);
  /* the same bytes at 2 threads, with small batches */
  sw = alaro_sweep();
  char *two = sw ? json_of(sw, 2, 3) : NULL;
  CHECK(one && two && strcmp(one, two) == 0);
  dcsim_sweep_free(sw);
  free(one);
  free(two);

  /* bad definitions are usage errors before anything runs */
  static const char *const badf[] = { "fast" };
  dcsim_sweep_def d = { .input = "workflows/alaro.xml", .n_freqs = 1, .freqs = badf };
  CHECK_INT(dcsim_sweep_new(&d, &sw, &err), DCSIM_EUSAGE);
  static const unsigned dup[] = { 2, 2 };
  dcsim_sweep_def d2 = { .input = "workflows/alaro.xml", .n_nodes = 2, .nodes = dup };
  CHECK_INT(dcsim_sweep_new(&d2, &sw, &err), DCSIM_EUSAGE);
  dcsim_sweep_def d3 = { .input = "workflows/sh-tl159.xml",
                         .platform = "workflows/platforms/alaro-hsw-gtx970.xml",
                         .n_gpus = 1,
                         .gpus = GPUS };
  CHECK_INT(dcsim_sweep_new(&d3, &sw, &err), 0); /* this platform has a GPU group */
  /* the model mode decides the results: --d35 and --strict are other sweeps (other hashes) */
  char h0[65] = "";
  if (sw) snprintf(h0, sizeof h0, "%s", dcsim_sweep_hash(sw));
  dcsim_sweep_free(sw);
  sw = NULL;
  d3.model_flags = DCSIM_MODEL_D35;
  CHECK_INT(dcsim_sweep_new(&d3, &sw, &err), 0);
  CHECK(sw && strcmp(h0, dcsim_sweep_hash(sw)) != 0);
  CHECK(sw && strstr(dcsim_sweep_definition(sw), "\nmodel d35\n") != NULL);
  dcsim_sweep_free(sw);

  /* points written as JSON and CSV read back */
  sw = alaro_sweep();
  char *js = sw ? json_of(sw, 1, 0) : NULL;
  free(js);
  if (js) {
    char pj[600], pc[600];
    snprintf(pj, sizeof pj, "%s/p.json", dir);
    snprintf(pc, sizeof pc, "%s/p.csv", dir);
    FILE *f = fopen(pj, "w");
    dcsim_sweep_write_json(f, dcsim_sweep_points(sw), dcsim_sweep_n_points(sw), NULL);
    fclose(f);
    f = fopen(pc, "w");
    dcsim_sweep_write_csv(f, dcsim_sweep_points(sw), dcsim_sweep_n_points(sw), NULL);
    fclose(f);
    for (int k = 0; k < 2; k++) {
      dcsim_sweep_point *q = NULL;
      size_t n = 0;
      CHECK_INT(dcsim_sweep_points_read(k ? pc : pj, &q, &n, &err), 0);
      CHECK_INT(n, 54);
      const dcsim_sweep_point *p = dcsim_sweep_points(sw);
      for (size_t i = 0; i < n && q; i++) {
        CHECK_INT(q[i].feasible, p[i].feasible);
        CHECK_STR(q[i].cpu, p[i].cpu);
        CHECK_STR(q[i].freq, p[i].freq);
        CHECK_INT(q[i].nodes, p[i].nodes);
        if (p[i].feasible) {
          CHECK_REL(q[i].time_s, p[i].time_s, 1e-9);
          CHECK_REL(q[i].energy_j, p[i].energy_j, 1e-9);
          CHECK_INT(q[i].time_prov, p[i].time_prov); /* provenance read back */
          CHECK_INT(q[i].energy_prov, p[i].energy_prov);
        } else
          CHECK_STR(q[i].reason, p[i].reason);
      }
      dcsim_sweep_mark_front(q, n);
      for (size_t i = 0; i < n && q; i++) {
        CHECK_INT(q[i].pareto, p[i].pareto);
        CHECK_INT(q[i].knee, p[i].knee);
      }
      dcsim_sweep_points_free(q, n);
    }
    unlink(pj);
    unlink(pc);
  }
  dcsim_sweep_free(sw);
  test_shards(dir);
  char db[600];
  snprintf(db, sizeof db, "%s/sweep.db", dir);
  unlink(db);
  snprintf(db, sizeof db, "%s/sweep.db-wal", dir);
  unlink(db);
  snprintf(db, sizeof db, "%s/sweep.db-shm", dir);
  unlink(db);
  rmdir(dir);
  CHECK_DONE();
}
