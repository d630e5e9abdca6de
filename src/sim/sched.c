/* sched.c — job and task policies, and the static plan of a workflow in its allocation
 * (see dcsim/sched.h, doc/engine.md). */
#include "dcsim/sched.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/evq.h"
#include "dcsim/scenario.h"
#include "dcsim/scenario_types.h"
#include "dcsim/strutil.h"
#include "dcsim/wms.h"

int dcsim_sched_parse_policy(const char *name, dcsim_job_policy *job, dcsim_task_policy *task,
                             dcsim_error *err) {
  *job = DCSIM_JOB_FCFS;
  *task = DCSIM_TASK_HEFT;
  if (!name) return 0;
  const char *plus = strchr(name, '+'); /* JOB+TASK: the words read in place */
  int seen_job = 0, seen_task = 0;
  for (int k = 0; k < 2; k++) {
    const char *w = k ? (plus ? plus + 1 : NULL) : name;
    if (!w) continue;
    size_t n = !k && plus ? (size_t)(plus - name) : strlen(w);
#define IS(word) (n == strlen(word) && strncmp(w, word, n) == 0)
    if (IS("fcfs") && !seen_job) {
      *job = DCSIM_JOB_FCFS;
      seen_job = 1;
    } else if (IS("easy") && !seen_job) {
      *job = DCSIM_JOB_EASY;
      seen_job = 1;
    } else if (IS("sjf") && !seen_job) {
      *job = DCSIM_JOB_SJF;
      seen_job = 1;
    } else if (IS("heft") && !seen_task) {
      *task = DCSIM_TASK_HEFT;
      seen_task = 1;
    } else if (IS("energy") && !seen_task) {
      *task = DCSIM_TASK_ENERGY;
      seen_task = 1;
    } else {
      static const char *const words[] = { "fcfs", "easy", "sjf", "heft", "energy" };
      char *word = dcsim_strdup_printf("%.*s", n < INT_MAX ? (int)n : INT_MAX, w);
      const char *best = word ? dcsim_suggest(word, words, sizeof words / sizeof *words) : NULL;
      free(word);
      return DCSIM_PERR(err, DCSIM_EUSAGE, "policy", -1,
                        "unknown policy '%s'%s%s%s (fcfs, easy, sjf, heft, energy, or JOB+TASK "
                        "such as easy+energy)",
                        name, best ? "; did you mean " : "", best ? best : "", best ? "?" : "");
    }
#undef IS
  }
  return 0;
}

const char *dcsim_sched_job_name(dcsim_job_policy p) {
  return p == DCSIM_JOB_EASY ? "easy" : p == DCSIM_JOB_SJF ? "sjf" : "fcfs";
}
const char *dcsim_sched_task_name(dcsim_task_policy p) {
  return p == DCSIM_TASK_ENERGY ? "energy" : "heft";
}

void dcsim_sched_plan_release(dcsim_wf_rt *w) {
  dcsim_wf_plan *p = &w->plan;
  free(p->alloc);
  free(p->start_ns);
  free(p->opt);
  free(p->node_start);
  free(p->node_list);
  free(p->gpu_slot);
  free(p->ev_ns);
  free(p->ev_code);
  memset(p, 0, sizeof *p);
}

/* ---- the ready list: a binary max-heap on (rank, -index) ---- */
typedef struct ready_heap {
  uint32_t *a;
  size_t n;
  const double *rank;
} ready_heap;

static int ready_before(const ready_heap *h, uint32_t x, uint32_t y) {
  if (h->rank[x] != h->rank[y]) return h->rank[x] > h->rank[y];
  return x < y;
}

static void ready_push(ready_heap *h, uint32_t t) {
  size_t i = h->n++;
  h->a[i] = t;
  while (i && ready_before(h, h->a[i], h->a[(i - 1) / 2])) {
    uint32_t tmp = h->a[i];
    h->a[i] = h->a[(i - 1) / 2];
    h->a[(i - 1) / 2] = tmp;
    i = (i - 1) / 2;
  }
}

static uint32_t ready_pop(ready_heap *h) {
  uint32_t top = h->a[0];
  h->a[0] = h->a[--h->n];
  size_t i = 0;
  for (;;) {
    size_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < h->n && ready_before(h, h->a[l], h->a[m])) m = l;
    if (r < h->n && ready_before(h, h->a[r], h->a[m])) m = r;
    if (m == i) break;
    uint32_t tmp = h->a[i];
    h->a[i] = h->a[m];
    h->a[m] = tmp;
    i = m;
  }
  return top;
}

/* ---- resources of one group inside the allocation ---- */
struct sched_cand {
  int64_t t;
  uint32_t node;
};

typedef struct group_res {
  uint32_t n_nodes, gpn;
  uint32_t cores; /* cores per node, for tasks that share nodes (dcsim_option.cores) */
  int64_t
      *core_free;   /* per node x core: end of the sharing task holding it; NULL if no such task */
  int64_t *scratch; /* cores entries */
  struct sched_cand *cand; /* n_nodes entries */
  int64_t *cpu_busy;       /* per node: end of the CPU task holding it */
  int64_t *gpu_free;       /* per node x GPU */
  dcsim_evq_t *cpu_q;      /* node readiness for CPU tasks: max(cpu_busy, all its GPUs free) */
  dcsim_evq_t *gpu_q;      /* GPU slot readiness: max(cpu_busy, slot free) */
  dcsim_evh *cpu_h, *gpu_h;
} group_res;

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static int64_t node_cpu_ready(const group_res *r, uint32_t n) {
  int64_t t = r->cpu_busy[n];
  for (uint32_t k = 0; k < r->gpn; k++) t = max64(t, r->gpu_free[(size_t)n * r->gpn + k]);
  if (r->core_free)
    for (uint32_t k = 0; k < r->cores; k++) t = max64(t, r->core_free[(size_t)n * r->cores + k]);
  return t;
}

static void group_res_free(group_res *r) {
  free(r->core_free);
  free(r->scratch);
  free(r->cand);
  free(r->cpu_busy);
  free(r->gpu_free);
  free(r->cpu_h);
  free(r->gpu_h);
  dcsim_evq_free(r->cpu_q);
  dcsim_evq_free(r->gpu_q);
}

static int group_res_init(group_res *r, uint32_t nodes, uint32_t gpn, uint32_t shared_cores,
                          dcsim_error *err) {
  memset(r, 0, sizeof *r);
  r->n_nodes = nodes;
  r->gpn = gpn;
  size_t ns = nodes ? nodes : 1, gs = (size_t)ns * (gpn ? gpn : 1);
  if (shared_cores) { /* only groups where some task shares nodes keep per-core times */
    r->cores = shared_cores;
    r->core_free = calloc(ns * shared_cores, sizeof *r->core_free);
    r->scratch = calloc(shared_cores, sizeof *r->scratch);
    r->cand = calloc(ns, sizeof *r->cand);
    if (!r->core_free || !r->scratch || !r->cand)
      return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  }
  r->cpu_busy = calloc(ns, sizeof *r->cpu_busy);
  r->gpu_free = calloc(gs, sizeof *r->gpu_free);
  r->cpu_h = calloc(ns, sizeof *r->cpu_h);
  r->gpu_h = calloc(gs, sizeof *r->gpu_h);
  r->cpu_q = dcsim_evq_new(ns);
  r->gpu_q = dcsim_evq_new(gs);
  if (!r->cpu_busy || !r->gpu_free || !r->cpu_h || !r->gpu_h || !r->cpu_q || !r->gpu_q)
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  int rc;
  for (uint32_t n = 0; n < nodes; n++) {
    /* ties between equally ready nodes go to the lowest node: prio = node offset */
    if ((rc = dcsim_evq_push(r->cpu_q, 0, (int32_t)n, 0, n, 0, &r->cpu_h[n], err))) return rc;
    for (uint32_t k = 0; k < gpn; k++) {
      uint32_t slot = n * gpn + k;
      if ((rc = dcsim_evq_push(r->gpu_q, 0, (int32_t)n, 0, slot, 0, &r->gpu_h[slot], err)))
        return rc;
    }
  }
  return 0;
}

/* Earliest start of a CPU task on k nodes at or after est; fills the chosen nodes. */
static int cpu_probe(group_res *r, uint32_t k, int64_t est, uint32_t *nodes, int64_t *start,
                     dcsim_error *err) {
  int64_t st = est;
  dcsim_event ev;
  int rc = 0;
  for (uint32_t i = 0; i < k; i++) {
    if (!dcsim_evq_pop(r->cpu_q, &ev))
      return DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0, "allocation smaller than a task");
    nodes[i] = ev.target;
    st = max64(st, ev.time_ns);
  }
  for (uint32_t i = 0; i < k && !rc; i++) /* put them back unchanged */
    rc = dcsim_evq_push(r->cpu_q, node_cpu_ready(r, nodes[i]), (int32_t)nodes[i], 0, nodes[i], 0,
                        &r->cpu_h[nodes[i]], err);
  *start = st;
  return rc;
}

static int gpu_probe(group_res *r, int64_t est, uint32_t *slot, int64_t *start) {
  dcsim_event ev;
  if (!dcsim_evq_peek(r->gpu_q, &ev)) return -1;
  *slot = ev.target;
  *start = max64(est, ev.time_ns);
  return 0;
}

static int cpu_commit(group_res *r, uint32_t k, const uint32_t *nodes, int64_t finish,
                      dcsim_error *err) {
  int rc = 0;
  for (uint32_t i = 0; i < k && !rc; i++) {
    uint32_t n = nodes[i];
    r->cpu_busy[n] = finish;
    rc = dcsim_evq_reschedule(r->cpu_q, r->cpu_h[n], node_cpu_ready(r, n), err);
    for (uint32_t s = 0; s < r->gpn && !rc; s++) {
      size_t slot = (size_t)n * r->gpn + s;
      rc = dcsim_evq_reschedule(r->gpu_q, r->gpu_h[slot], max64(finish, r->gpu_free[slot]), err);
    }
  }
  return rc;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static int cmp_cand(const void *a, const void *b) {
  const struct sched_cand *x = a, *y = b;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  return (x->node > y->node) - (x->node < y->node);
}

/* Earliest start of a task that occupies c cores on each of k nodes shared with other such tasks:
 * a node is ready when its c-th earliest core is free (and no exclusive CPU task holds it); the k
 * nodes ready first are chosen, the lowest node first among equals (so tasks pack onto nodes). */
static void shared_probe(group_res *r, uint32_t k, uint32_t c, int64_t est, uint32_t *nodes,
                         int64_t *start) {
  for (uint32_t n = 0; n < r->n_nodes; n++) {
    memcpy(r->scratch, r->core_free + (size_t)n * r->cores, r->cores * sizeof *r->scratch);
    qsort(r->scratch, r->cores, sizeof *r->scratch, cmp_i64);
    r->cand[n] = (struct sched_cand){ max64(est, max64(r->cpu_busy[n], r->scratch[c - 1])), n };
  }
  qsort(r->cand, r->n_nodes, sizeof *r->cand, cmp_cand);
  int64_t st = est;
  for (uint32_t i = 0; i < k; i++) {
    nodes[i] = r->cand[i].node;
    st = max64(st, r->cand[i].t);
  }
  *start = st;
}

/* Holds the c earliest-free cores of each chosen node until finish (lowest core among equals). */
static int shared_commit(group_res *r, uint32_t k, uint32_t c, const uint32_t *nodes,
                         int64_t finish, dcsim_error *err) {
  int rc = 0;
  for (uint32_t i = 0; i < k && !rc; i++) {
    int64_t *cf = r->core_free + (size_t)nodes[i] * r->cores;
    for (uint32_t j = 0; j < c; j++) {
      uint32_t best = 0;
      for (uint32_t q = 1; q < r->cores; q++)
        if (cf[q] < cf[best]) best = q;
      cf[best] = INT64_MAX; /* taken: excluded from the next picks */
    }
    for (uint32_t q = 0; q < r->cores; q++)
      if (cf[q] == INT64_MAX) cf[q] = finish;
    rc = dcsim_evq_reschedule(r->cpu_q, r->cpu_h[nodes[i]], node_cpu_ready(r, nodes[i]), err);
  }
  return rc;
}

static int gpu_commit(group_res *r, uint32_t slot, int64_t finish, dcsim_error *err) {
  uint32_t n = slot / r->gpn;
  r->gpu_free[slot] = finish;
  int rc = dcsim_evq_reschedule(r->gpu_q, r->gpu_h[slot], max64(r->cpu_busy[n], finish), err);
  if (!rc) rc = dcsim_evq_reschedule(r->cpu_q, r->cpu_h[n], node_cpu_ready(r, n), err);
  return rc;
}

typedef struct plan_ev {
  int64_t t;
  uint32_t code;
} plan_ev;

/* Task starts already given by the workflow system, ascending (dcsim_workflow.dispatch_s). */
typedef struct dispatch_log {
  int64_t *t;
  size_t n, cap;
} dispatch_log;

/* Moves *st to the earliest time >= *st at least d away from every start in the log, and logs it.
 */
static int dispatch_slot(dispatch_log *l, int64_t *st, int64_t d) {
  size_t lo = 0, hi = l->n;
  int64_t t = *st;
  while (lo < hi) { /* first start later than t - d */
    size_t mid = (lo + hi) / 2;
    if (l->t[mid] <= t - d)
      lo = mid + 1;
    else
      hi = mid;
  }
  for (size_t i = lo; i < l->n && l->t[i] < t + d; i++) t = max64(t, l->t[i] + d);
  if (DCSIM_GROW(l->t, l->cap, l->n + 1)) return -1;
  lo = 0, hi = l->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (l->t[mid] <= t)
      lo = mid + 1;
    else
      hi = mid;
  }
  memmove(l->t + lo + 1, l->t + lo, (l->n - lo) * sizeof *l->t);
  l->t[lo] = t;
  l->n++;
  *st = t;
  return 0;
}

/* Latency before task t may start once its predecessors have ended (dcsim_task_template.delay_s).
 */
static int64_t delay_ns(const dcsim_workflow *wf, uint32_t t) {
  double d = wf->templates[wf->tasks[t].tmpl].delay_s;
  return d > 0 ? llround(d * 1e9) : 0;
}

static int cmp_plan_ev(const void *a, const void *b) {
  const plan_ev *x = a, *y = b;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  uint32_t ex = x->code & 1, ey = y->code & 1; /* starts before ends, then by task */
  if (ex != ey) return ex < ey ? -1 : 1;
  return (x->code > y->code) - (x->code < y->code);
}

/* The plan's events in time order (see dcsim_wf_plan). */
static int plan_events(const dcsim_wf_rt *w, dcsim_wf_plan *p, dcsim_error *err) {
  size_t n = w->wf->n_tasks;
  plan_ev *ev = malloc((n ? 2 * n : 1) * sizeof *ev);
  p->ev_ns = malloc((n ? 2 * n : 1) * sizeof *p->ev_ns);
  p->ev_code = malloc((n ? 2 * n : 1) * sizeof *p->ev_code);
  if (!ev || !p->ev_ns || !p->ev_code) {
    free(ev);
    return DCSIM_ERR(err, DCSIM_ENOMEM, w->wf->path, 0, "out of memory");
  }
  for (size_t t = 0; t < n; t++) {
    const dcsim_option *op = &w->tmpls[w->wf->tasks[t].tmpl].opts[p->opt[t]];
    ev[2 * t] = (plan_ev){ p->start_ns[t], (uint32_t)(2 * t) };
    ev[2 * t + 1] = (plan_ev){ p->start_ns[t] + op->duration_ns, (uint32_t)(2 * t + 1) };
  }
  qsort(ev, 2 * n, sizeof *ev, cmp_plan_ev);
  for (size_t i = 0; i < 2 * n; i++) {
    p->ev_ns[i] = ev[i].t;
    p->ev_code[i] = ev[i].code;
  }
  p->n_events = 2 * n;
  free(ev);
  return 0;
}

/* ---- allocation size: peak concurrent demand of the unconstrained (ASAP) schedule ---- */
typedef struct demand_ev {
  int64_t t;
  int32_t cpu_nodes, gpu_tasks, cores;
  uint32_t group;
} demand_ev;

static int cmp_demand(const void *a, const void *b) {
  const demand_ev *x = a, *y = b;
  if (x->group != y->group) return x->group < y->group ? -1 : 1;
  if (x->t != y->t) return x->t < y->t ? -1 : 1;
  int dx = x->cpu_nodes + x->gpu_tasks + x->cores,
      dy = y->cpu_nodes + y->gpu_tasks + y->cores; /* ends first */
  return (dx > dy) - (dx < dy);
}

/* ---- the plan, phase by phase: task graph, ASAP times and ranks, allocation, resources, list
 * scheduling, node lists in task order, events ---- */

/* Starts and ends past this are refused ("workflow longer than 10^9 s"). */
static const int64_t plan_limit_ns = INT64_MAX / 4;

/* State shared by the phases of dcsim_sched_plan(); owns every array but the plan's own. */
typedef struct plan_ctx {
  const dcsim_scenario *s;
  const dcsim_wf_rt *w;
  const dcsim_workflow *wf;
  dcsim_wf_plan *p;
  size_t n, ng;
  size_t nn; /* nodes of the graph: the n tasks, then the workflow's step barriers */
  uint32_t *indeg, *succ_start, *succ, *fill, *topo; /* the task graph (successors in CSR) */
  int64_t *end;                                      /* per task: ASAP end, then planned end */
  int64_t *asap;       /* per task: ASAP start with the shortest option */
  double *rank, *tail; /* per task: HEFT upward rank; work still to do after it */
  group_res *res;      /* per group */
  uint32_t *nodes;     /* the nodes chosen for the task being placed */
  ready_heap rh;
  dispatch_log dl;
  uint32_t *first, *count; /* per task: its nodes in p->node_list, in placement order */
  size_t list_n, list_cap;
  dcsim_task_policy policy;
  int64_t deadline_all_ns, dispatch_ns, makespan_so_far;
  double alloc_idle_w; /* idle power of the whole allocation */
} plan_ctx;

static void plan_ctx_release(plan_ctx *c) {
  free(c->dl.t);
  if (c->res)
    for (size_t g = 0; g < c->ng; g++) group_res_free(&c->res[g]);
  free(c->res);
  free(c->rh.a);
  free(c->nodes);
  free(c->indeg);
  free(c->succ_start);
  free(c->succ);
  free(c->fill);
  free(c->topo);
  free(c->end);
  free(c->asap);
  free(c->rank);
  free(c->tail);
  free(c->first);
  free(c->count);
}

/* The per-task arrays of the plan and of the context. */
static int plan_alloc_arrays(plan_ctx *c, dcsim_error *err) {
  dcsim_wf_plan *p = c->p;
  size_t n = c->n, n1 = n ? n : 1, nn = c->nn, nn1 = nn ? nn : 1, n_deps = c->wf->dep_start[nn];
  p->alloc = calloc(c->ng, sizeof *p->alloc);
  p->start_ns = calloc(n1, sizeof *p->start_ns);
  p->opt = calloc(n1, 1);
  p->gpu_slot = calloc(n1, 1);
  p->node_start = calloc(n + 1, sizeof *p->node_start);
  c->indeg = calloc(nn1, sizeof *c->indeg);
  c->succ_start = calloc(nn + 1, sizeof *c->succ_start);
  c->succ = calloc(n_deps ? n_deps : 1, sizeof *c->succ);
  c->fill = calloc(nn1, sizeof *c->fill);
  c->topo = calloc(nn1, sizeof *c->topo);
  c->end = calloc(nn1, sizeof *c->end);
  c->asap = calloc(nn1, sizeof *c->asap);
  c->rank = calloc(nn1, sizeof *c->rank);
  c->tail = calloc(nn1, sizeof *c->tail);
  if (!p->alloc || !p->start_ns || !p->opt || !p->gpu_slot || !p->node_start || !c->indeg ||
      !c->succ_start || !c->succ || !c->fill || !c->topo || !c->end || !c->asap || !c->rank ||
      !c->tail)
    return DCSIM_ERR(err, DCSIM_ENOMEM, c->wf->path, 0, "out of memory planning the workflow");
  return 0;
}

/* Successors (CSR) and a topological order (Kahn; the loader has rejected cycles). */
static int plan_graph(plan_ctx *c, dcsim_error *err) {
  const dcsim_workflow *wf = c->wf;
  size_t n = c->nn, n_deps = wf->dep_start[n]; /* every node, barriers included */
  uint32_t *succ_start = c->succ_start, *succ = c->succ, *topo = c->topo, *indeg = c->indeg;
  for (size_t i = 0; i < n_deps; i++) succ_start[wf->deps[i] + 1]++;
  for (size_t i = 0; i < n; i++) succ_start[i + 1] += succ_start[i];
  for (size_t i = 0; i < n; i++)
    for (uint32_t d = wf->dep_start[i]; d < wf->dep_start[i + 1]; d++) {
      uint32_t pr = wf->deps[d];
      succ[succ_start[pr] + c->fill[pr]++] = (uint32_t)i;
    }
  size_t qhead = 0, qtail = 0;
  for (size_t i = 0; i < n; i++) {
    indeg[i] = wf->dep_start[i + 1] - wf->dep_start[i];
    if (!indeg[i]) topo[qtail++] = (uint32_t)i;
  }
  while (qhead < qtail) {
    uint32_t t = topo[qhead++];
    for (uint32_t k = succ_start[t]; k < succ_start[t + 1]; k++)
      if (--indeg[succ[k]] == 0) topo[qtail++] = succ[k];
  }
  if (qtail != n) return DCSIM_ERR(err, DCSIM_EINTERNAL, wf->path, 0, "workflow is not acyclic");
  return 0;
}

/* ASAP times with the shortest option, and upward ranks (HEFT). */
static int plan_asap_ranks(plan_ctx *c, dcsim_error *err) {
  const dcsim_workflow *wf = c->wf;
  size_t n = c->nn;
  for (size_t k = 0; k < n; k++) {
    uint32_t t = c->topo[k];
    int64_t st = 0, dmin = 0; /* a barrier: no work, no delay */
    for (uint32_t d = wf->dep_start[t]; d < wf->dep_start[t + 1]; d++)
      st = max64(st, c->end[wf->deps[d]]);
    if (t < c->n) {
      const dcsim_tmpl_rt *tr = &c->w->tmpls[wf->tasks[t].tmpl];
      dmin = tr->opts[0].duration_ns;
      for (uint32_t o = 1; o < tr->n_opts; o++)
        if (tr->opts[o].duration_ns < dmin) dmin = tr->opts[o].duration_ns;
      st += delay_ns(wf, t);
    }
    if (st > plan_limit_ns - dmin)
      return DCSIM_ERR(err, DCSIM_ERANGE, wf->path, 0, "workflow longer than 10^9 s");
    c->asap[t] = st;
    c->end[t] = st + dmin;
  }
  for (size_t k = n; k-- > 0;) {
    uint32_t t = c->topo[k];
    double best = 0;
    for (uint32_t j = c->succ_start[t]; j < c->succ_start[t + 1]; j++)
      if (c->rank[c->succ[j]] > best) best = c->rank[c->succ[j]];
    c->rank[t] = (double)(c->end[t] - c->asap[t]) + best; /* HEFT upward rank */
    c->tail[t] = best;                                    /* work still to do after t */
  }
  return 0;
}

/* Allocation: peak concurrent demand per group of the ASAP schedule, every option counted. */
static int plan_allocation(plan_ctx *c, dcsim_error *err) {
  const dcsim_scenario *s = c->s;
  dcsim_wf_plan *p = c->p;
  size_t n = c->n, nd = 0;
  demand_ev *dev = calloc(4 * (n ? n : 1), sizeof *dev);
  if (!dev) return DCSIM_ERR(err, DCSIM_ENOMEM, c->wf->path, 0, "out of memory");
  for (size_t t = 0; t < n; t++) {
    const dcsim_tmpl_rt *tr = &c->w->tmpls[c->wf->tasks[t].tmpl];
    for (uint32_t o = 0; o < tr->n_opts; o++) {
      const dcsim_option *op = &tr->opts[o];
      int32_t cn = op->gpu || op->cores ? 0 : (int32_t)op->nodes, gt = op->gpu ? 1 : 0;
      int32_t co = op->cores ? (int32_t)(op->cores * op->nodes) : 0;
      if (p->alloc[op->group] < op->nodes)
        p->alloc[op->group] = op->nodes; /* at least one task's worth */
      dev[nd++] = (demand_ev){ c->asap[t], cn, gt, co, op->group };
      dev[nd++] = (demand_ev){ c->asap[t] + op->duration_ns, -cn, -gt, -co, op->group };
    }
  }
  qsort(dev, nd, sizeof *dev, cmp_demand);
  for (size_t i = 0; i < nd;) {
    uint32_t g = dev[i].group;
    int64_t cpu = 0, gpu = 0, cores = 0;
    unsigned gpn = s->groups[g].g->gpus_per_node ? s->groups[g].g->gpus_per_node : 1;
    int64_t cpn = s->groups[g].cores_per_node ? s->groups[g].cores_per_node : 1;
    for (; i < nd && dev[i].group == g; i++) {
      cpu += dev[i].cpu_nodes;
      gpu += dev[i].gpu_tasks;
      cores += dev[i].cores; /* tasks sharing nodes: whole nodes' worth of their cores */
      uint64_t need =
          (uint64_t)cpu + (uint64_t)((gpu + gpn - 1) / gpn) + (uint64_t)((cores + cpn - 1) / cpn);
      if (need > p->alloc[g])
        p->alloc[g] = need > s->groups[g].g->count ? s->groups[g].g->count : (uint32_t)need;
    }
  }
  free(dev);
  return 0;
}

/* The resources of each group inside the allocation, and the buffers of list scheduling. */
static int plan_resources(plan_ctx *c, dcsim_error *err) {
  const dcsim_scenario *s = c->s;
  const dcsim_wf_rt *w = c->w;
  size_t n = c->n, max_nodes = 1;
  int rc;
  c->res = calloc(c->ng, sizeof *c->res);
  for (size_t g = 0; g < c->ng; g++)
    if (c->p->alloc[g] > max_nodes) max_nodes = c->p->alloc[g];
  c->nodes = calloc(2 * max_nodes, sizeof *c->nodes);
  c->rh.a = calloc(n ? n : 1, sizeof *c->rh.a);
  c->rh.rank = c->rank;
  if (!c->res || !c->nodes || !c->rh.a)
    return DCSIM_ERR(err, DCSIM_ENOMEM, c->wf->path, 0, "out of memory");
  for (size_t g = 0; g < c->ng; g++) {
    uint32_t shared = 0; /* does a task share nodes of this group? */
    for (size_t t = 0; t < c->wf->n_templates && !shared; t++)
      for (uint32_t o = 0; o < w->tmpls[t].n_opts; o++)
        if (w->tmpls[t].opts[o].cores && w->tmpls[t].opts[o].group == g)
          shared = s->groups[g].cores_per_node;
    if ((rc = group_res_init(&c->res[g], c->p->alloc[g], s->groups[g].g->gpus_per_node, shared,
                             err)))
      return rc;
  }
  c->list_cap = n ? n : 1;
  c->list_n = 0;
  c->p->node_list = malloc(c->list_cap * sizeof *c->p->node_list);
  if (!c->p->node_list) return DCSIM_ERR(err, DCSIM_ENOMEM, c->wf->path, 0, "out of memory");
  for (size_t g = 0; g < c->ng; g++) c->alloc_idle_w += c->p->alloc[g] * s->groups[g].idle_w;
  /* node_start is filled in task order after list scheduling: keep per-task offsets meanwhile */
  c->first = calloc(n ? n : 1, sizeof *c->first);
  c->count = calloc(n ? n : 1, sizeof *c->count);
  if (!c->first || !c->count) return DCSIM_ERR(err, DCSIM_ENOMEM, c->wf->path, 0, "out of memory");
  return 0;
}

/* Earliest start of task option op at or after est on the resources free first (slot: the GPU
 * slot of a GPU option; c->nodes: the nodes of a CPU option). */
static int probe_option(plan_ctx *c, const dcsim_option *op, int64_t est, uint32_t *slot,
                        int64_t *st, dcsim_error *err) {
  if (op->gpu)
    return gpu_probe(&c->res[op->group], est, slot, st)
               ? DCSIM_ERR(err, DCSIM_EINTERNAL, c->wf->path, 0, "no GPU in the allocation")
               : 0;
  if (op->cores) {
    shared_probe(&c->res[op->group], op->nodes, op->cores, est, c->nodes, st);
    return 0;
  }
  return cpu_probe(&c->res[op->group], op->nodes, est, c->nodes, st, err);
}

/* The option task t runs with, given each option's earliest finish fin[]: heft takes the earliest
 * finish, then the least energy; energy takes the least energy of the job (the option's model
 * energy plus the idle power of the whole allocation for as long as the choice keeps it, the job's
 * projected finish) among the options that leave the rest of the critical path room before the
 * deadline, else heft's choice. */
static uint32_t pick_option(const plan_ctx *c, uint32_t t, const int64_t *fin) {
  const dcsim_task_template *tt = &c->wf->templates[c->wf->tasks[t].tmpl];
  const dcsim_tmpl_rt *tr = &c->w->tmpls[c->wf->tasks[t].tmpl];
  uint32_t pick = 0;
  for (uint32_t o = 1; o < tr->n_opts; o++)
    if (fin[o] < fin[pick] ||
        (fin[o] == fin[pick] && tr->opts[o].energy_j < tr->opts[pick].energy_j))
      pick = o;
  if (c->policy != DCSIM_TASK_ENERGY) return pick;
  int64_t dl = tt->deadline_s > 0 ? llround(tt->deadline_s * 1e9) : c->deadline_all_ns;
  int found = -1;
  double best = 0;
  for (uint32_t o = 0; o < tr->n_opts; o++) {
    double proj = (double)max64(c->makespan_so_far, fin[o] + (int64_t)c->tail[t]) * 1e-9;
    double cost = tr->opts[o].energy_j + c->alloc_idle_w * proj;
    if (dl > 0 && fin[o] + (int64_t)c->tail[t] > dl) continue;
    if (found < 0 || cost < best) {
      found = (int)o;
      best = cost;
    }
  }
  return found >= 0 ? (uint32_t)found : pick;
}

/* Holds the resources probed last for op (c->nodes or slot) from st to its end. */
static int commit_option(plan_ctx *c, uint32_t t, const dcsim_option *op, uint32_t slot, int64_t st,
                         dcsim_error *err) {
  group_res *r = &c->res[op->group];
  if (op->gpu) {
    int rc = gpu_commit(r, slot, st + op->duration_ns, err);
    c->nodes[0] = slot / r->gpn;
    c->p->gpu_slot[t] = (uint8_t)(slot % r->gpn);
    return rc;
  }
  if (op->cores) return shared_commit(r, op->nodes, op->cores, c->nodes, st + op->duration_ns, err);
  return cpu_commit(r, op->nodes, c->nodes, st + op->duration_ns, err);
}

/* Writes task t's start, option and nodes into the plan. */
static int record_task(plan_ctx *c, uint32_t t, uint32_t pick, const dcsim_option *op, int64_t st,
                       dcsim_error *err) {
  dcsim_wf_plan *p = c->p;
  p->start_ns[t] = st;
  p->opt[t] = (uint8_t)pick;
  c->end[t] = st + op->duration_ns;
  if (c->end[t] > p->makespan_ns) p->makespan_ns = c->end[t];
  c->makespan_so_far = p->makespan_ns;
  p->task_energy_j += op->energy_j;
  uint32_t k = op->gpu ? 1 : op->nodes;
  if (c->list_n + k > c->list_cap) {
    while (c->list_n + k > c->list_cap) c->list_cap *= 2;
    if (DCSIM_RESIZE(p->node_list, c->list_cap))
      return DCSIM_ERR(err, DCSIM_ENOMEM, c->wf->path, 0, "out of memory");
  }
  c->first[t] = (uint32_t)c->list_n;
  c->count[t] = k;
  for (uint32_t j = 0; j < k; j++) p->node_list[c->list_n++] = c->nodes[j];
  return 0;
}

/* DCSIM_EINTR when the scenario's stop_planning asks to stop (asked before each task either
 * planner handles: SIGTERM while planning, doc/robustness.md), else 0 */
static int planning_stopped(const plan_ctx *c, dcsim_error *err) {
  if (c->s->stop_planning && c->s->stop_planning(c->s->stop_planning_ctx))
    return DCSIM_ERR(err, DCSIM_EINTR, c->wf->path, 0, "planning stopped on request");
  return 0;
}

/* Places ready task t: the earliest finish of each option, the policy's pick, then its start. */
static int place_task(plan_ctx *c, uint32_t t, dcsim_error *err) {
  const dcsim_workflow *wf = c->wf;
  int rc = planning_stopped(c, err);
  if (rc) return rc;
  const dcsim_tmpl_rt *tr = &c->w->tmpls[wf->tasks[t].tmpl];
  int64_t est = 0, st = 0, fin[2] = { 0, 0 };
  uint32_t slot[2] = { 0, 0 };
  for (uint32_t d = wf->dep_start[t]; d < wf->dep_start[t + 1]; d++)
    est = max64(est, c->end[wf->deps[d]]);
  est += delay_ns(wf, t); /* workflow-system latency */
  for (uint32_t o = 0; o < tr->n_opts && !rc; o++) {
    rc = probe_option(c, &tr->opts[o], est, &slot[o], &st, err);
    fin[o] = st + tr->opts[o].duration_ns;
  }
  if (rc) return rc;
  uint32_t pick = pick_option(c, t, fin);
  const dcsim_option *op = &tr->opts[pick];
  if ((rc = probe_option(c, op, est, &slot[pick], &st, err))) return rc;
  /* the workflow system starts at most one task per dispatch interval: the resources chosen
   * are free from st on, so starting later on them is always possible */
  if (c->dispatch_ns && dispatch_slot(&c->dl, &st, c->dispatch_ns))
    return DCSIM_ERR(err, DCSIM_ENOMEM, wf->path, 0, "out of memory");
  if ((rc = commit_option(c, t, op, slot[pick], st, err))) return rc;
  if (st > plan_limit_ns - op->duration_ns)
    return DCSIM_ERR(err, DCSIM_ERANGE, wf->path, 0, "workflow longer than 10^9 s");
  return record_task(c, t, pick, op, st, err);
}

/* Node t has ended (a task placed, or a barrier whose predecessors have all ended): its
 * successors that now wait for nothing become ready. A barrier ends with the last of its
 * predecessors, at once: the tasks after it become ready exactly when they would if each waited
 * for every predecessor of the barrier itself (the ready list is a total order, so the order in
 * which they are pushed does not matter). */
static void release_successors(plan_ctx *c, uint32_t t) {
  const dcsim_workflow *wf = c->wf;
  for (uint32_t j = c->succ_start[t]; j < c->succ_start[t + 1]; j++) {
    uint32_t s = c->succ[j];
    if (--c->indeg[s]) continue;
    if (s < c->n) {
      ready_push(&c->rh, s);
      continue;
    }
    int64_t end = 0; /* a barrier never follows a barrier: one level */
    for (uint32_t d = wf->dep_start[s]; d < wf->dep_start[s + 1]; d++)
      end = max64(end, c->end[wf->deps[d]]);
    c->end[s] = end;
    release_successors(c, s);
  }
}

/* List scheduling inside the allocation, by upward rank. */
static int plan_list_schedule(plan_ctx *c, dcsim_error *err) {
  const dcsim_workflow *wf = c->wf;
  int rc;
  for (size_t i = 0; i < c->nn; i++) {
    c->indeg[i] = wf->dep_start[i + 1] - wf->dep_start[i];
    if (!c->indeg[i] && i < c->n) ready_push(&c->rh, (uint32_t)i);
  }
  while (c->rh.n) {
    uint32_t t = ready_pop(&c->rh);
    if ((rc = place_task(c, t, err))) return rc;
    release_successors(c, t);
  }
  return 0;
}

/* The task t as a job of the workflow management system: its CPU option (*pick) on one machine. */
static int wms_task(const plan_ctx *c, uint32_t t, dcsim_wms_task *out, uint8_t *pick,
                    dcsim_error *err) {
  const dcsim_task_template *tt = &c->wf->templates[c->wf->tasks[t].tmpl];
  const dcsim_tmpl_rt *tr = &c->w->tmpls[c->wf->tasks[t].tmpl];
  for (uint32_t o = 0; o < tr->n_opts; o++) {
    const dcsim_option *op = &tr->opts[o];
    if (op->gpu || op->gpus) continue;
    if (op->nodes != 1) break;
    uint32_t cpn = c->s->groups[op->group].cores_per_node;
    if (op->cores > cpn)
      return DCSIM_ERR(err, DCSIM_ERANGE, c->wf->path, tt->line,
                       "<task name=\"%s\">: %u cores, a node of group '%s' has %u", tt->name,
                       op->cores, c->s->groups[op->group].g->name, cpn);
    *out = (dcsim_wms_task){ .run_ns = op->duration_ns,
                             .group = op->group,
                             .cores = op->cores ? op->cores : cpn,
                             .in_byte = tt->input_byte,
                             .out_byte = tt->output_byte,
                             .in_files = tt->input_files,
                             .out_files = tt->output_files,
                             .priority = tt->priority,
                             .reads_inputs = tt->reads_inputs };
    *pick = (uint8_t)o;
    return 0;
  }
  return DCSIM_ERR(err, DCSIM_ERANGE, c->wf->path, tt->line,
                   "<task name=\"%s\">: the workflow management system model runs CPU tasks on "
                   "one node each (doc/wms.md)",
                   tt->name);
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* The task-to-task dependencies of wf (CSR over its tasks, ascending): a step barrier replaced by
 * its predecessors, as the WMS model's DAG has one edge per dependency. *start and *deps are
 * malloc'd, or point into wf when it has no barrier. */
static int flat_deps(const dcsim_workflow *wf, uint32_t **start, uint32_t **deps,
                     dcsim_error *err) {
  size_t n = wf->n_tasks;
  *start = wf->dep_start;
  *deps = wf->deps;
  if (!wf->n_barriers) return 0;
  uint64_t total = 0;
  for (size_t t = 0; t < n; t++)
    for (uint32_t d = wf->dep_start[t]; d < wf->dep_start[t + 1]; d++) {
      uint32_t p = wf->deps[d];
      total += p < n ? 1 : wf->dep_start[p + 1] - wf->dep_start[p];
    }
  if (total > DCSIM_WORKFLOW_MAX_DEPS)
    return DCSIM_ERR(err, DCSIM_ERANGE, wf->path, 0,
                     "under the WMS model every dependency is an edge of its DAG: %llu edges, at "
                     "most %u",
                     (unsigned long long)total, DCSIM_WORKFLOW_MAX_DEPS);
  uint32_t *s = malloc((n + 1) * sizeof *s), *e = malloc((total ? total : 1) * sizeof *e);
  if (!s || !e) {
    free(s);
    free(e);
    *start = *deps = NULL;
    return DCSIM_ERR(err, DCSIM_ENOMEM, wf->path, 0, "out of memory");
  }
  uint32_t k = 0;
  for (size_t t = 0; t < n; t++) {
    s[t] = k;
    int merged = 0;
    for (uint32_t d = wf->dep_start[t]; d < wf->dep_start[t + 1]; d++) {
      uint32_t p = wf->deps[d];
      if (p < n) {
        e[k++] = p;
        continue;
      }
      for (uint32_t q = wf->dep_start[p]; q < wf->dep_start[p + 1]; q++) e[k++] = wf->deps[q];
      merged = 1;
    }
    if (merged) qsort(e + s[t], k - s[t], sizeof *e, cmp_u32);
  }
  s[n] = k;
  *start = s;
  *deps = e;
  return 0;
}

/* Under a workflow management system (dcsim/wms.h) its simulation decides when and on which node
 * of the allocation every task starts; the plan lasts until DAGMan exits. */
static int plan_wms(plan_ctx *c, dcsim_error *err) {
  size_t n = c->n, ng = c->ng;
  uint32_t *dep_start = NULL, *deps = NULL;
  dcsim_wms_task *tk = calloc(n ? n : 1, sizeof *tk);
  uint32_t *gn = calloc(ng ? ng : 1, sizeof *gn), *gc = calloc(ng ? ng : 1, sizeof *gc);
  uint8_t *pick = calloc(n ? n : 1, 1);
  dcsim_wms_result r;
  int rc = 0;
  memset(&r, 0, sizeof r);
  if (!tk || !gn || !gc || !pick) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, c->wf->path, 0, "out of memory");
    goto out;
  }
  for (size_t g = 0; g < ng; g++) {
    gn[g] = c->p->alloc[g];
    gc[g] = c->s->groups[g].cores_per_node;
  }
  for (size_t t = 0; t < n && !rc; t++)
    if (!(rc = planning_stopped(c, err))) rc = wms_task(c, (uint32_t)t, &tk[t], &pick[t], err);
  if (!rc) rc = flat_deps(c->wf, &dep_start, &deps, err);
  /* the WMS simulation asks stop_planning again before each job it starts */
  dcsim_wms_dag d = { c->wf->path,
                      n,
                      tk,
                      dep_start,
                      deps,
                      ng,
                      gn,
                      gc,
                      c->wf->stage_in_byte,
                      c->wf->stage_out_byte,
                      c->s->stop_planning,
                      c->s->stop_planning_ctx };
  if (rc || (rc = dcsim_wms_simulate(&c->w->wms->p, &d, &r, err))) goto out;
  for (size_t t = 0; t < n && !rc; t++) {
    const dcsim_option *op = &c->w->tmpls[c->wf->tasks[t].tmpl].opts[pick[t]];
    if (r.start_ns[t] > plan_limit_ns - op->duration_ns) {
      rc = DCSIM_ERR(err, DCSIM_ERANGE, c->wf->path, 0, "workflow longer than 10^9 s");
      break;
    }
    c->nodes[0] = r.node[t];
    rc = record_task(c, (uint32_t)t, pick[t], op, r.start_ns[t], err);
  }
  if (r.end_ns > c->p->makespan_ns) c->p->makespan_ns = r.end_ns;
  c->p->wms_aux_jobs = r.aux_jobs;
  c->p->wms_staged_byte = r.staged_byte;
  c->p->wms_idle_s = r.idle_s;
out:
  dcsim_wms_result_release(&r);
  if (dep_start != c->wf->dep_start) free(dep_start);
  if (deps != c->wf->deps) free(deps);
  free(tk);
  free(gn);
  free(gc);
  free(pick);
  return rc;
}

/* Node lists in task order (list scheduling appended them in placement order). */
static int plan_node_lists(plan_ctx *c, dcsim_error *err) {
  dcsim_wf_plan *p = c->p;
  uint32_t *ordered = malloc((c->list_n ? c->list_n : 1) * sizeof *ordered);
  if (!ordered) return DCSIM_ERR(err, DCSIM_ENOMEM, c->wf->path, 0, "out of memory");
  size_t pos = 0;
  for (size_t i = 0; i < c->n; i++) {
    p->node_start[i] = (uint32_t)pos;
    for (uint32_t j = 0; j < c->count[i]; j++) ordered[pos++] = p->node_list[c->first[i] + j];
  }
  p->node_start[c->n] = (uint32_t)pos;
  free(p->node_list);
  p->node_list = ordered;
  return 0;
}

int dcsim_sched_plan(const dcsim_scenario *s, dcsim_wf_rt *w, dcsim_task_policy policy,
                     double deadline_s, dcsim_error *err) {
  if (policy == DCSIM_TASK_ENERGY && dcsim_scenario_energy_unknown(s))
    return DCSIM_ERR(err, DCSIM_EREF, w->wf->path, 0,
                     "the energy task policy chooses by energy, but %s",
                     dcsim_scenario_energy_unknown(s));
  plan_ctx c = { .s = s,
                 .w = w,
                 .wf = w->wf,
                 .p = &w->plan,
                 .n = w->wf->n_tasks,
                 .nn = w->wf->n_tasks + w->wf->n_barriers,
                 .ng = s->n_groups,
                 .policy = policy };
  c.deadline_all_ns = deadline_s > 0 ? llround(deadline_s * 1e9) : 0;
  c.dispatch_ns = llround(w->wf->dispatch_s * 1e9);
  int rc;
  if ((rc = plan_alloc_arrays(&c, err)) || (rc = plan_graph(&c, err)) ||
      (rc = plan_asap_ranks(&c, err)) || (rc = plan_allocation(&c, err)) ||
      (rc = plan_resources(&c, err)) ||
      (rc = w->wms ? plan_wms(&c, err) : plan_list_schedule(&c, err)) ||
      (rc = plan_node_lists(&c, err)))
    goto out;
  rc = plan_events(w, c.p, err);
out:
  plan_ctx_release(&c);
  return rc;
}
