/* results.c — the SQLite results database (see dcsim/results.h, doc/results.md). */
#include "dcsim/results.h"

#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "dcsim/catalog.h"
#include "dcsim/metrics.h"
#include "dcsim/repro.h"
#include "dcsim/strutil.h"
#include "output/results_records.h"
#include "util/db.h"
#include "util/dbschema_run.h"
#include "util/record.h"

struct dcsim_results {
  sqlite3 *db;
  char *path;
  int in_tx;
  int64_t run_id;
  const dcsim_scenario *s;
  double deadline_s; /* 0 = none */
  sqlite3_stmt *ins_task, *ins_power;
  dcsim_engine_sink sink;
  char *buf, *name; /* a task's node list and its name, grown as needed */
  size_t buf_cap, name_cap;
};

/* ---- the run's records (util/record.h; doc/results.md, doc/design.md "Result records"): their
 * columns are util/dbschema_run.h's, as the schema's ---- */

/* clang-format off */
#define RUN_FIELD(m, kind, unit, sql, nulls, added) DCSIM__RECORD_FIELD(dcsim__run_totals, m, kind, unit, sql, nulls, "0.1.0"),
static const dcsim__record_field run_totals_fields[] = { DCSIM_RUN_TOTALS_COLUMNS(RUN_FIELD) };
/* clang-format on */
const dcsim__record dcsim__run_totals_record = {
  "runs", run_totals_fields, sizeof run_totals_fields / sizeof *run_totals_fields
};

/* a node: its row of the nodes table */
typedef struct node_row {
  long long node;
  const char *node_group;
  double energy_j, busy_s, utilisation, off_s;
  long long boots;
} node_row;

/* clang-format off */
#define NODE_FIELD(m, kind, unit, sql, nulls, added) DCSIM__RECORD_FIELD(node_row, m, kind, unit, sql, nulls, "0.1.0"),
static const dcsim__record_field node_fields[] = { DCSIM_NODE_COLUMNS(NODE_FIELD) };
/* clang-format on */
const dcsim__record dcsim__node_record = { "nodes", node_fields,
                                           sizeof node_fields / sizeof *node_fields };

/* clang-format off */
#define BUCKET_FIELD(m, kind, unit, sql, nulls, added) DCSIM__RECORD_FIELD(dcsim__bucket_row, m, kind, unit, sql, nulls, "0.1.0"),
static const dcsim__record_field bucket_fields[] = { DCSIM_BUCKET_COLUMNS(BUCKET_FIELD) };
/* clang-format on */
const dcsim__record dcsim__bucket_record = { "utilisation", bucket_fields,
                                             sizeof bucket_fields / sizeof *bucket_fields };

const void *dcsim__bucket_row_at(const void *stats, size_t k, void *buf) {
  dcsim__bucket_row *row = buf;
  row->bucket = (long long)k;
  dcsim_metrics_bucket(stats, k, &row->t0_s, &row->t1_s, &row->busy, &row->allocated);
  return row;
}

/* a task: its row of the tasks table, written as it ends */
typedef struct task_row {
  long long job, task;
  const char *name, *dwarf, *device, *node_group; /* dwarf NULL (NULL): a recorded runtime */
  long long start_ns, end_ns;
  double start_s, end_s;
  const char *nodes; /* comma-separated node numbers */
  long long gpu;     /* the GPU slot; negative (NULL): a CPU task */
  double energy_j;
  double freq_ghz; /* NaN (NULL): a GPU task */
} task_row;

/* clang-format off */
#define TASK_FIELD(m, kind, unit, sql, nulls, added) DCSIM__RECORD_FIELD(task_row, m, kind, unit, sql, nulls, "0.1.0"),
static const dcsim__record_field task_fields[] = { DCSIM_TASK_COLUMNS(TASK_FIELD) };
/* clang-format on */
const dcsim__record dcsim__task_record = { "tasks", task_fields,
                                           sizeof task_fields / sizeof *task_fields };

/* a step of a node's power timeline: its row of the power table, written during the run */
typedef struct power_row {
  long long node, t0_ns, t1_ns;
  double power_w;
} power_row;

/* clang-format off */
#define POWER_FIELD(m, kind, unit, sql, nulls, added) DCSIM__RECORD_FIELD(power_row, m, kind, unit, sql, nulls, "0.1.0"),
static const dcsim__record_field power_fields[] = { DCSIM_POWER_COLUMNS(POWER_FIELD) };
/* clang-format on */
const dcsim__record dcsim__power_record = { "power", power_fields,
                                            sizeof power_fields / sizeof *power_fields };

/* a file the run read, with its hash: its row of the inputs table */
typedef struct input_row {
  const char *path, *sha256;
} input_row;

/* clang-format off */
#define INPUT_FIELD(m, kind, unit, sql, nulls, added) DCSIM__RECORD_FIELD(input_row, m, kind, unit, sql, nulls, "0.1.0"),
static const dcsim__record_field input_fields[] = { DCSIM_INPUT_COLUMNS(INPUT_FIELD) };
/* clang-format on */
const dcsim__record dcsim__input_record = { "inputs", input_fields,
                                            sizeof input_fields / sizeof *input_fields };

void dcsim_results_close(dcsim_results_t *r) {
  if (!r) return;
  sqlite3_finalize(r->ins_task);
  sqlite3_finalize(r->ins_power);
  if (r->in_tx) dcsim__db_rollback(r->db); /* nothing half-written */
  sqlite3_close(r->db);
  free(r->path);
  free(r->buf);
  free(r->name);
  free(r);
}

/* "INSERT INTO table(run_id, ...)" of a record, prepared into *st */
static int prepare_insert(dcsim_results_t *r, const dcsim__record *rec, sqlite3_stmt **st,
                          const char *what, dcsim_error *err) {
  dcsim_str sql = DCSIM_STR_INIT;
  int rc = dcsim__record_sql_insert(rec, "run_id", 1, &sql)
               ? DCSIM_ERR(err, DCSIM_ENOMEM, r->path, 0, "out of memory")
               : dcsim__db_prepare(r->db, r->path, sql.s, st, what, err);
  dcsim_str_release(&sql);
  return rc;
}

int dcsim_results_open(const char *path, dcsim_results_t **out, dcsim_error *err) {
  dcsim_results_t *r = calloc(1, sizeof *r);
  if (!r || !(r->path = dcsim_strdup(path))) {
    free(r);
    return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  }
  int rc = 0;
  if ((rc = dcsim__db_open(path, NULL, DCSIM_DB_WAL | DCSIM_DB_OWNED, &r->db, err)) ||
      (rc = dcsim__db_migrate(r->db, path, &dcsim__db_results_schema, err)))
    goto out;
  if ((rc = prepare_insert(r, &dcsim__task_record, &r->ins_task, "cannot prepare statements",
                           err)) ||
      (rc = prepare_insert(r, &dcsim__power_record, &r->ins_power, "cannot prepare statements",
                           err)))
    goto out;
  *out = r;
  r = NULL;
out:
  dcsim_results_close(r);
  return rc;
}

static int on_task(void *ctx, const dcsim_task_record *t, dcsim_error *err) {
  dcsim_results_t *r = ctx;
  int len = dcsim_workflow_task_name(t->wf->wf, t->task, NULL, 0); /* snprintf: its length */
  if (len < 0)
    return DCSIM_ERR(err, DCSIM_EINTERNAL, r->path, 0, "task %u: no such task", (unsigned)t->task);
  if (DCSIM_GROW(r->name, r->name_cap, (size_t)len + 1))
    return DCSIM_ERR(err, DCSIM_ENOMEM, r->path, 0, "out of memory");
  dcsim_workflow_task_name(t->wf->wf, t->task, r->name, r->name_cap);
  const dcsim_task_template *tt = &t->wf->wf->templates[t->wf->wf->tasks[t->task].tmpl];
  if (DCSIM_GROW(r->buf, r->buf_cap, (size_t)t->n_nodes * 11 + 1))
    return DCSIM_ERR(err, DCSIM_ENOMEM, r->path, 0, "out of memory");
  size_t pos = 0;
  for (uint32_t i = 0; i < t->n_nodes; i++)
    pos += (size_t)sprintf(r->buf + pos, i ? ",%u" : "%u", t->nodes[i]);
  r->buf[pos] = '\0';
  task_row row = { t->job,
                   t->task,
                   r->name,
                   tt->dwarf,
                   t->opt->gpus ? "gpu" : "cpu",
                   r->s->groups[t->opt->group].g->name,
                   t->start_ns,
                   t->end_ns,
                   (double)t->start_ns * 1e-9,
                   (double)t->end_ns * 1e-9,
                   r->buf,
                   t->gpu_slot,
                   t->energy_j,
                   t->opt->ghz > 0 ? t->opt->ghz : NAN };
  sqlite3_stmt *st = r->ins_task;
  sqlite3_bind_int64(st, 1, r->run_id);
  dcsim__record_sql_bind(&dcsim__task_record, st, 2, &row);
  return dcsim__db_step_done(r->db, r->path, st, "cannot write a task", err);
}

static int on_power(void *ctx, uint32_t node, int64_t t0, int64_t t1, double w, dcsim_error *err) {
  dcsim_results_t *r = ctx;
  power_row row = { node, t0, t1, w };
  sqlite3_stmt *st = r->ins_power;
  sqlite3_bind_int64(st, 1, r->run_id);
  dcsim__record_sql_bind(&dcsim__power_record, st, 2, &row);
  return dcsim__db_step_done(r->db, r->path, st, "cannot write the power timeline", err);
}

int dcsim_results_begin(dcsim_results_t *r, const dcsim_scenario *s, const dcsim_run_info *info,
                        dcsim_error *err) {
  int rc = dcsim__db_begin(r->db, r->path, err);
  if (rc) return rc;
  r->in_tx = 1;
  r->s = s;
  sqlite3_stmt *st = NULL;
  if ((rc = dcsim__db_prepare(r->db, r->path,
                              "INSERT INTO runs(created_utc, dcsim_version, dcsim_commit, input, "
                              "platform, job_policy, task_policy) VALUES(?,?,?,?,?,?,?)",
                              &st, "cannot record the run", err)))
    return rc;
  /* location-independent names (dcsim/repro.h) */
  char *in_name = dcsim_catalog_relname(info->input, info->input),
       *pl_name = dcsim_catalog_relname(s->platform->path, info->input);
  if (!in_name || !pl_name) {
    free(in_name);
    free(pl_name);
    sqlite3_finalize(st);
    return DCSIM_ERR(err, DCSIM_ENOMEM, r->path, 0, "out of memory");
  }
  sqlite3_bind_text(st, 2, dcsim_version(), -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 3, dcsim_commit(), -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 4, in_name, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 5, pl_name, -1, SQLITE_TRANSIENT);
  free(in_name); /* SQLITE_TRANSIENT: SQLite copied them */
  free(pl_name);
  sqlite3_bind_text(st, 6, info->job_policy, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 7, info->task_policy, -1, SQLITE_TRANSIENT);
  if (!(rc = dcsim__db_bind_utc_now(r->db, r->path, st, 1, "cannot record the run", err)))
    rc = dcsim__db_step_done(r->db, r->path, st, "cannot record the run", err);
  sqlite3_finalize(st);
  if (rc) return rc;
  r->run_id = sqlite3_last_insert_rowid(r->db);
  r->deadline_s = info->deadline_s;
  r->sink = (dcsim_engine_sink){ r, on_task, on_power };
  return 0;
}

const dcsim_engine_sink *dcsim_results_sink(dcsim_results_t *r) { return &r->sink; }

/* the run's row: its totals and metrics */
static int record_run(dcsim_results_t *r, const dcsim_run_stats *stt, dcsim_error *err) {
  sqlite3_stmt *st = NULL;
  dcsim_metrics_summary ms;
  int rc = dcsim_metrics_summarise(stt, &ms, err);
  if (rc) return rc;
  dcsim__run_totals t;
  dcsim__run_totals_of(stt, &ms, &t);
  const dcsim__record *rec = &dcsim__run_totals_record;
  dcsim_str sql = DCSIM_STR_INIT;
  if (dcsim__record_sql_update(rec, "id", &sql))
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, r->path, 0, "out of memory");
  else
    rc = dcsim__db_prepare(r->db, r->path, sql.s, &st, "cannot record the run", err);
  dcsim_str_release(&sql);
  if (rc) return rc;
  dcsim__record_sql_bind(rec, st, 1, &t);
  sqlite3_bind_int64(st, (int)rec->n_fields + 1, r->run_id);
  rc = dcsim__db_step_done(r->db, r->path, st, "cannot record the run", err);
  sqlite3_finalize(st);
  return rc;
}

/* every file read, with its hash */
static int record_inputs(dcsim_results_t *r, dcsim_error *err) {
  const dcsim_scenario *s = r->s;
  sqlite3_stmt *st = NULL;
  int rc = prepare_insert(r, &dcsim__input_record, &st, "cannot record inputs", err);
  for (size_t i = 0; i < s->n_inputs && !rc; i++) {
    input_row row = { dcsim_catalog_relname(s->inputs[i].path, s->input_path),
                      s->inputs[i].sha256 };
    if (!row.path) {
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, r->path, 0, "out of memory");
      break;
    }
    sqlite3_bind_int64(st, 1, r->run_id);
    dcsim__record_sql_bind(&dcsim__input_record, st, 2, &row); /* SQLite copies the text */
    free((char *)row.path);
    rc = dcsim__db_step_done(r->db, r->path, st, "cannot record inputs", err);
  }
  sqlite3_finalize(st);
  return rc;
}

/* one row per job (workflow instance) */
static int record_workflows(dcsim_results_t *r, const dcsim_run_stats *stt, dcsim_error *err) {
  sqlite3_stmt *st = NULL;
  int rc = prepare_insert(r, &dcsim__job_record, &st, "cannot record workflows", err);
  for (size_t j = 0; j < stt->n_jobs && !rc; j++) {
    dcsim__job_row row;
    dcsim__job_row_of(r->s, stt, j, NULL, &row);
    sqlite3_bind_int64(st, 1, r->run_id);
    dcsim__record_sql_bind(&dcsim__job_record, st, 2, &row);
    rc = dcsim__db_step_done(r->db, r->path, st, "cannot record workflows", err);
  }
  sqlite3_finalize(st);
  return rc;
}

/* one row per node */
static int record_nodes(dcsim_results_t *r, const dcsim_run_stats *stt, dcsim_error *err) {
  const dcsim_scenario *s = r->s;
  double mk = (double)stt->makespan_ns * 1e-9;
  sqlite3_stmt *st = NULL;
  int rc = prepare_insert(r, &dcsim__node_record, &st, "cannot record nodes", err);
  for (size_t g = 0; g < s->n_groups && !rc; g++) {
    const dcsim_node_group *ng = s->groups[g].g;
    for (unsigned k = 0; k < ng->count && !rc; k++) {
      unsigned id = ng->first_node + k;
      node_row row = { id,
                       ng->name,
                       stt->node_energy_j[id],
                       stt->node_busy_s[id],
                       mk > 0 ? stt->node_busy_s[id] / mk : 0,
                       stt->node_off_s[id],
                       stt->node_boots[id] };
      sqlite3_bind_int64(st, 1, r->run_id);
      dcsim__record_sql_bind(&dcsim__node_record, st, 2, &row);
      rc = dcsim__db_step_done(r->db, r->path, st, "cannot record nodes", err);
    }
  }
  sqlite3_finalize(st);
  return rc;
}

/* the utilisation timeline, one row per bucket */
static int record_utilisation(dcsim_results_t *r, const dcsim_run_stats *stt, dcsim_error *err) {
  sqlite3_stmt *st = NULL;
  int rc = prepare_insert(r, &dcsim__bucket_record, &st, "cannot record utilisation", err);
  for (size_t k = 0; k < stt->n_buckets && !rc; k++) {
    dcsim__bucket_row row;
    sqlite3_bind_int64(st, 1, r->run_id);
    dcsim__record_sql_bind(&dcsim__bucket_record, st, 2, dcsim__bucket_row_at(stt, k, &row));
    rc = dcsim__db_step_done(r->db, r->path, st, "cannot record utilisation", err);
  }
  sqlite3_finalize(st);
  return rc;
}

/* --deadline-s and whether every job met it (dcsim_metrics_deadline); NULL without a deadline */
static int record_deadline(dcsim_results_t *r, const dcsim_run_stats *stt, dcsim_error *err) {
  if (!(r->deadline_s > 0)) return 0;
  sqlite3_stmt *st = NULL;
  int rc =
      dcsim__db_prepare(r->db, r->path, "UPDATE runs SET deadline_s=?, deadline_met=? WHERE id=?",
                        &st, "cannot record the run", err);
  if (rc) return rc;
  sqlite3_bind_double(st, 1, r->deadline_s);
  sqlite3_bind_int(st, 2, dcsim_metrics_deadline(stt, r->deadline_s).missed == 0);
  sqlite3_bind_int64(st, 3, r->run_id);
  rc = dcsim__db_step_done(r->db, r->path, st, "cannot record the run", err);
  sqlite3_finalize(st);
  return rc;
}

int dcsim_results_finish(dcsim_results_t *r, const dcsim_run_stats *stt, int64_t *run_id,
                         dcsim_error *err) {
  int rc;
  if ((rc = record_run(r, stt, err)) || (rc = record_deadline(r, stt, err)) ||
      (rc = record_inputs(r, err)) || (rc = record_workflows(r, stt, err)) ||
      (rc = record_nodes(r, stt, err)) || (rc = record_utilisation(r, stt, err)) ||
      (rc = dcsim__db_commit(r->db, r->path, err)))
    return rc;
  r->in_tx = 0;
  if (run_id) *run_id = r->run_id;
  return 0;
}
