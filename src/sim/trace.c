/* trace.c — SWF traces as jobs and platforms, trace detection (see dcsim/trace.h). */
#include "dcsim/trace.h"

#include "dcsim/catalog.h"
#include "dcsim/strutil.h"
#include "util/fileio.h"

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

dcsim_trace_kind dcsim_trace_detect(const char *path) {
  unsigned char b[64];
  if (dcsim__file_check_input(path, NULL)) return DCSIM_TRACE_NONE; /* never open a FIFO here */
  FILE *f = fopen(path, "rb");
  if (!f) return DCSIM_TRACE_NONE;
  size_t n = fread(b, 1, sizeof b, f);
  fclose(f);
  if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b)
    return DCSIM_TRACE_SWF; /* gzip: SWF traces are shipped compressed */
  size_t i = 0;
  if (n >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf) i = 3; /* UTF-8 byte order mark */
  while (i < n && isspace(b[i])) i++;
  if (i == n) return DCSIM_TRACE_NONE;
  if (b[i] == '{') return DCSIM_TRACE_WFCOMMONS;
  if (b[i] == ';' || isdigit(b[i])) return DCSIM_TRACE_SWF;
  return DCSIM_TRACE_NONE;
}

static long long job_procs(const dcsim_swf_job *j) {
  return j->procs > 0 ? j->procs : j->req_procs;
}

int dcsim_trace_node_load(dcsim_platform **out, char **path_out, dcsim_error *err) {
  char *path = dcsim_path_in(dcsim_catalog_root(), "workflows/platforms/trace-node.xml");
  if (!path) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  int rc = dcsim_platform_load(path, out, err);
  if (!rc && (*out)->n_groups != 1) {
    rc = DCSIM_ERR(err, DCSIM_ESCHEMA, path, 0,
                   "the stand-in node of traces must be one <node-group>");
    dcsim_platform_free(*out);
    *out = NULL;
  }
  if (!rc && path_out) {
    *path_out = path; /* handed over */
    path = NULL;
  }
  free(path);
  return rc;
}

int dcsim_trace_swf_platform(const dcsim_swf *t, const dcsim_node_group *node, dcsim_platform **out,
                             dcsim_error *err) {
  long long nodes = t->max_nodes > 0 ? t->max_nodes : t->max_procs, widest = 0;
  for (size_t i = 0; i < t->n_jobs; i++)
    if (job_procs(&t->jobs[i]) > widest) widest = job_procs(&t->jobs[i]);
  long long ppn = t->max_nodes > 0 && t->max_procs > 0
                      ? llround((double)t->max_procs / (double)t->max_nodes)
                      : 1;
  if (ppn < 1) ppn = 1;
  if (nodes <= 0) nodes = widest > 0 ? widest : 1;
  if (nodes > DCSIM_PLATFORM_MAX_NODES || ppn > 100000)
    return DCSIM_ERR(err, DCSIM_ERANGE, t->path, 0,
                     "header: %lld nodes of %lld processors is out of range", nodes, ppn);
  const char *base = strrchr(t->path, '/');
  char *name =
      dcsim_strdup_printf("%s (%s)", t->computer && *t->computer ? t->computer : "SWF trace",
                          base ? base + 1 : t->path);
  if (!name) return DCSIM_ERR(err, DCSIM_ENOMEM, t->path, 0, "out of memory");
  dcsim_node_group g = *node; /* its CPU profile and power states */
  g.name = "nodes";
  g.count = (unsigned)nodes;
  g.sockets = 1;
  g.cores = (unsigned)ppn;
  g.gpu = NULL;
  g.gpus_per_node = 0;
  g.rack = NULL;
  g.memory_byte = 0;
  int rc = dcsim_platform_build(name, &g, 1, 0, 0, out, err);
  free(name);
  return rc;
}

void dcsim_trace_jobs_release(dcsim_trace_jobs *j) {
  if (!j) return;
  for (size_t i = 0; i < j->n_wfs; i++) dcsim_workflow_free(j->wfs[i]);
  free(j->wfs);
  free(j->jobs);
  memset(j, 0, sizeof *j);
}

/* ---- shapes: (rule, nodes, cores) -> workflow index, an open-addressing hash table ---- */
typedef struct shape_tab {
  uint64_t *key;
  uint32_t *val;
  size_t cap, n;
} shape_tab;

static uint64_t shape_key(long rule, unsigned nodes, unsigned cores) {
  uint64_t k = ((uint64_t)(uint32_t)(rule + 1) << 48) ^ ((uint64_t)nodes << 24) ^ (uint64_t)cores ^
               0x9e3779b97f4a7c15ull;
  return k ? k : 1; /* 0 marks an empty slot */
}

static size_t shape_slot(const shape_tab *h, uint64_t k) {
  uint64_t x = k * 0xff51afd7ed558ccdull;
  size_t i = (size_t)(x ^ (x >> 29)) & (h->cap - 1);
  while (h->key[i] && h->key[i] != k) i = (i + 1) & (h->cap - 1);
  return i;
}

static int shape_grow(shape_tab *h) {
  shape_tab nh = { calloc(h->cap ? 2 * h->cap : 64, sizeof *nh.key),
                   calloc(h->cap ? 2 * h->cap : 64, sizeof *nh.val), h->cap ? 2 * h->cap : 64,
                   h->n };
  if (!nh.key || !nh.val) {
    free(nh.key);
    free(nh.val);
    return -1;
  }
  for (size_t i = 0; i < h->cap; i++)
    if (h->key[i]) {
      size_t s = shape_slot(&nh, h->key[i]);
      nh.key[s] = h->key[i];
      nh.val[s] = h->val[i];
    }
  free(h->key);
  free(h->val);
  *h = nh;
  return 0;
}

/* The single-task workflow of a shape. */
static int build_shape(const dcsim_swf *t, const dcsim_swf_map *map, long rule, const char *group,
                       unsigned nodes, unsigned cores, dcsim_workflow **out, dcsim_error *err) {
  dcsim_task_template tt = { .name = "job",
                             .device = DCSIM_DEV_CPU,
                             .group = (char *)group,
                             .nodes = nodes,
                             .cores_per_node = cores,
                             .runtime_s = 1.0 };
  char *name = NULL;
  const char *file = t->path;
  if (rule >= 0) {
    const dcsim_swf_rule *r = &map->rules[rule];
    tt = (dcsim_task_template){ .name = "job",
                                .dwarf = r->dwarf,
                                .case_name = r->case_name,
                                .device = r->device,
                                .group = r->device == DCSIM_DEV_CPU ? (char *)group : NULL,
                                .nodes = nodes,
                                .cores_per_node = r->device == DCSIM_DEV_CPU ? cores : 0,
                                .gpus = r->device == DCSIM_DEV_CPU ? 0 : 1,
                                .n_sets = r->n_sets,
                                .sets = r->sets,
                                .line = r->line };
    name = dcsim_strdup_printf("swf-%s-%ux%u", r->name, nodes, cores);
    file = map->path; /* messages about the call point at the rule */
  } else {
    name = dcsim_strdup_printf("swf-%ux%u", nodes, cores);
  }
  if (!name) return DCSIM_ERR(err, DCSIM_ENOMEM, t->path, 0, "out of memory");
  dcsim_wf_item it = { .kind = DCSIM_WF_TASK, .tmpl = 0, .line = tt.line };
  int rc = dcsim_workflow_build(file, &tt, 1, &it, 1, out, err);
  if (rc) {
    free(name);
    return rc;
  }
  free((*out)->name);
  (*out)->name = name; /* handed over */
  /* a batch job, submitted to the batch system itself: no workflow management system unless
   * the run asks for one (doc/wms.md) */
  if (!((*out)->wms = dcsim_strdup("none")))
    return DCSIM_ERR(err, DCSIM_ENOMEM, t->path, 0, "out of memory");
  return 0;
}

/* One SWF trace turned into jobs: the inputs, the shapes seen so far, the results. */
typedef struct swf_conv {
  const dcsim_swf *t;
  const dcsim_swf_map *map; /* NULL: every job runs for its recorded time */
  const char *group;
  unsigned group_nodes, ppn; /* ppn: processors per node */
  double offset_s;
  dcsim_trace_jobs *out;
  dcsim_trace_info *info;
  shape_tab h; /* shape key -> index into out->wfs */
  size_t wcap; /* room in out->wfs */
} swf_conv;

/* Whether job j (p processors) is left out: a partial-execution line, or an unknown run time,
 * processor count or submit time (counted in info). */
static int skip_job(dcsim_trace_info *info, const dcsim_swf_job *j, long long p) {
  if (j->status >= DCSIM_SWF_PARTIAL && j->status <= DCSIM_SWF_PARTIAL_FAILED) {
    info->skipped_partial++;
    return 1;
  }
  if (j->run_s < 0 || p <= 0 || j->submit_s < 0) {
    if (j->status == DCSIM_SWF_CANCELLED)
      info->skipped_cancelled++; /* cancelled before it ran */
    else
      info->skipped_unknown++;
    return 1;
  }
  return 0;
}

/* The shape of job j: its map rule (-1 = none), nodes and cores per node; *skip when the map
 * leaves it out. */
static int job_shape(swf_conv *C, const dcsim_swf_job *j, long long p, long *rule, unsigned *n,
                     unsigned *c, int *skip, dcsim_error *err) {
  const dcsim_swf_map *map = C->map;
  *skip = 0;
  if (j->run_s > 1e9 || j->req_time_s > 1e9) /* the engine's clock: 64-bit nanoseconds */
    return DCSIM_ERR(err, DCSIM_ERANGE, C->t->path, j->line,
                     "job %lld: run time %g s or requested time %g s beyond 10^9 s", j->id,
                     j->run_s, j->req_time_s);
  *rule = map ? dcsim_swf_map_match(map, j, p) : -1;
  if (map && *rule < 0 && map->skip_unmatched) {
    C->info->skipped_unmatched++;
    *skip = 1;
    return 0;
  }
  unsigned long long nodes = ((unsigned long long)p + C->ppn - 1) / C->ppn;
  if (nodes > C->group_nodes)
    return DCSIM_ERR(err, DCSIM_ERANGE, C->t->path, j->line,
                     "job %lld asks for %lld processors: %llu nodes of %u, group '%s' has %u",
                     j->id, p, nodes, C->ppn, C->group, C->group_nodes);
  *n = (unsigned)nodes;
  *c = (unsigned)(((unsigned long long)p + nodes - 1) / nodes);
  if (*rule >= 0) { /* the rule's size: the job's, or fixed */
    const dcsim_swf_rule *r = &map->rules[*rule];
    if (r->nodes) *n = r->nodes;
    *c = r->cores_per_node == DCSIM_SWF_RULE_JOB ? *c : r->cores_per_node;
    C->info->mapped++;
  }
  return 0;
}

/* The workflow of a shape (built the first time it is seen): *wf, its index in out->wfs. */
static int shape_workflow(swf_conv *C, long rule, unsigned n, unsigned c, uint32_t *wf,
                          dcsim_error *err) {
  shape_tab *h = &C->h;
  dcsim_trace_jobs *out = C->out;
  int rc;
  if (h->n * 2 >= h->cap && shape_grow(h))
    return DCSIM_ERR(err, DCSIM_ENOMEM, C->t->path, 0, "out of memory");
  uint64_t k = shape_key(rule, n, c);
  size_t slot = shape_slot(h, k);
  if (!h->key[slot]) { /* a new shape */
    if (DCSIM_GROW(out->wfs, C->wcap, out->n_wfs + 1))
      return DCSIM_ERR(err, DCSIM_ENOMEM, C->t->path, 0, "out of memory");
    if ((rc = build_shape(C->t, C->map, rule, C->group, n, c, &out->wfs[out->n_wfs], err)))
      return rc;
    h->key[slot] = k;
    h->val[slot] = (uint32_t)out->n_wfs++;
    h->n++;
  }
  *wf = h->val[slot];
  return 0;
}

/* Job j (p processors, workflow wf) into out, and into the trace's statistics. */
static int add_job(swf_conv *C, const dcsim_swf_job *j, long long p, long rule, uint32_t wf,
                   dcsim_error *err) {
  dcsim_trace_jobs *out = C->out;
  dcsim_trace_info *info = C->info;
  double at = j->submit_s + C->offset_s;
  if (at > 9e9)
    return DCSIM_ERR(err, DCSIM_ERANGE, C->t->path, j->line, "submit time %g s out of range", at);
  dcsim_job *jb = &out->jobs[out->n_jobs];
  *jb = (dcsim_job){ .wf = wf,
                     .instance = (uint32_t)out->n_jobs,
                     .submit_ns = llround(at * 1e9),
                     .trace_job = j->id > 0 && j->id < 4e9 ? (uint32_t)j->id : 0,
                     .trace_procs = (uint32_t)(p < 4e9 ? p : 0) };
  if (rule < 0) {
    /* the shape's task lasts 1 s: scale it to the recorded run time (0 s: DBL_MIN scales to 0 ns)
     */
    jb->time_scale = j->run_s > 0 ? j->run_s : DBL_MIN;
    jb->estimate_ns = llround((j->req_time_s > 0 ? j->req_time_s : j->run_s) * 1e9);
    if (jb->estimate_ns <= 0) jb->estimate_ns = 1;
  }
  out->n_jobs++;
  info->jobs_kept++;
  if (j->status == DCSIM_SWF_FAILED) info->failed++;
  if (j->status == DCSIM_SWF_CANCELLED) info->cancelled_run++;
  info->recorded_proc_s += j->run_s * (double)p;
  double end = j->submit_s + (j->wait_s > 0 ? j->wait_s : 0) + j->run_s;
  if (info->jobs_kept == 1 || j->submit_s < info->recorded_first_s)
    info->recorded_first_s = j->submit_s;
  if (end > info->recorded_last_end_s) info->recorded_last_end_s = end;
  return 0;
}

int dcsim_trace_swf_jobs(const dcsim_swf *t, const dcsim_swf_map *map, const char *group,
                         unsigned group_nodes, unsigned ppn, double offset_s, dcsim_trace_jobs *out,
                         dcsim_trace_info *info, dcsim_error *err) {
  int rc = 0;
  memset(out, 0, sizeof *out);
  if (ppn < 1) ppn = 1;
  swf_conv C = { .t = t,
                 .map = map,
                 .group = group,
                 .group_nodes = group_nodes,
                 .ppn = ppn,
                 .offset_s = offset_s,
                 .out = out,
                 .info = info };
  info->kind = DCSIM_TRACE_SWF;
  info->max_nodes = t->max_nodes;
  info->max_procs = t->max_procs;
  info->unix_start_time = t->unix_start_time;
  info->procs_per_node = ppn;
  if (!(out->jobs = calloc(t->n_jobs ? t->n_jobs : 1, sizeof *out->jobs)) || shape_grow(&C.h)) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, t->path, 0, "out of memory");
    goto out;
  }
  for (size_t i = 0; i < t->n_jobs; i++) {
    const dcsim_swf_job *j = &t->jobs[i];
    long long p = job_procs(j);
    long rule = -1;
    unsigned n = 0, c = 0;
    uint32_t wf = 0;
    int skip = 0;
    info->jobs_read++;
    if (skip_job(info, j, p)) continue;
    if ((rc = job_shape(&C, j, p, &rule, &n, &c, &skip, err))) goto out;
    if (skip) continue;
    if ((rc = shape_workflow(&C, rule, n, c, &wf, err)) || (rc = add_job(&C, j, p, rule, wf, err)))
      goto out;
  }
out:
  free(C.h.key);
  free(C.h.val);
  if (rc) dcsim_trace_jobs_release(out);
  return rc;
}

char *dcsim_trace_swf_note(const dcsim_trace_info *in, const char *path) {
  size_t skipped =
      in->skipped_partial + in->skipped_unknown + in->skipped_cancelled + in->skipped_unmatched;
  if (!skipped) return NULL;
  return dcsim_strdup_printf(
      "%s: %zu of %zu jobs left out: %zu cancelled before they ran, %zu with an unknown run "
      "time, processor count or "
      "submit time, %zu partial-execution lines, %zu matched no map rule",
      path, skipped, in->jobs_read, in->skipped_cancelled, in->skipped_unknown, in->skipped_partial,
      in->skipped_unmatched);
}
