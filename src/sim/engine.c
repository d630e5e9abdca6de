/* engine.c — the discrete-event engine (see dcsim/engine.h). */
#include "dcsim/engine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/budget.h"
#include "dcsim/evq.h"
#include "dcsim/numfmt.h"
#include "dcsim/strutil.h"

/* event kinds; the priority orders simultaneous events: a node that finishes booting or shutting
 * down first, then task starts, task ends, job ends, arrivals, and last idle timers (so a job
 * arriving at the instant a node would switch off gets the node) */
enum {
  EV_NODE = 0,
  EV_TASK_START = 1,
  EV_TASK_END = 2,
  EV_JOB_END = 3,
  EV_ARRIVE = 4,
  EV_IDLE = 5
};

/* node power states (power management) */
enum { NODE_ON = 0, NODE_OFF = 1, NODE_BOOT = 2, NODE_DOWN = 3 };
/* which free-node set holds a node */
enum { SET_NONE = 0, SET_ON = 1, SET_OFF = 2 };

/* What the event loop touches for every node of every job: 32 bytes, two nodes a cache line. Its
 * energy and busy time accumulate in the exported arrays (dcsim_run_stats); the power-management
 * state is apart (node_pm), allocated only with power management. */
typedef struct node_rt {
  double power_w;  /* now */
  int64_t last_ns; /* time of the last accounting */
  int64_t busy_since;
  int32_t owner;    /* job holding it, -1 if none */
  uint16_t running; /* tasks running on it (at most cores + GPUs: checked by dcsim_engine_new) */
  uint16_t group;
} node_rt;

_Static_assert(sizeof(node_rt) == 32, "a node's record should stay at 32 bytes");

/* Power-management state of a node (allocated only with power management; without it every node
 * is on, and in no free-node set but free_on). */
typedef struct node_pm {
  int64_t mark_ns; /* end of a boot or shutdown in progress; since when it is off */
  uint32_t gen;    /* bumped at each allocation: older idle timers are stale */
  uint8_t state;   /* NODE_* */
  uint8_t set;     /* SET_*: which free-node set holds it */
  uint8_t wake;    /* shutting down, but allocated: boot when the shutdown ends */
} node_pm;

/* A set of the node offsets 0..n-1 of one group, lowest first out: a bitmap plus a bitmap of its
 * non-empty words, so finding the lowest member scans two short arrays. */
typedef struct nodeset {
  uint64_t *w, *top;
  size_t nw, nt, hint; /* no non-empty word in top[0..hint-1] */
  uint32_t count;
} nodeset;

typedef struct end_key {
  int64_t end_ns;
  uint32_t job;
} end_key;

#define ARENA_NIL UINT32_MAX

/* Nothing is kept per job but its statistics: a running job's allocation is a block of the
 * arena, whose offset its events carry in their payload (task events: offset << 32 | the index of
 * the event in its plan's list; the job end: the offset); blocks of one workflow's jobs have the
 * same size and are reused through a free list per workflow. */
struct dcsim_engine {
  const dcsim_scenario *s;
  dcsim_engine_opts o;
  dcsim_evq_t *q;
  node_rt *nodes;
  node_pm *pm;       /* per node with power management, else NULL */
  nodeset *free_on;  /* per group: free powered-on nodes */
  nodeset *free_off; /* per group: free nodes that are off or shutting down (power management) */
  uint32_t *n_free;  /* per group, both sets */
  uint32_t *arena;   /* running jobs' allocations: global node numbers, group after group */
  size_t arena_n, arena_cap;
  uint32_t *wf_free;  /* per workflow: first free arena block of its size, or ARENA_NIL */
  uint32_t *wf_nodes; /* per workflow: nodes of its allocation (block size) */
  uint8_t *wf_whole;  /* per workflow: one CPU task on its whole allocation from start to end */
  uint32_t *waiting;  /* queue of jobs: arrival order (fcfs, easy) or estimate order (sjf) */
  size_t n_waiting, waiting_head, waiting_cap;
  size_t n_running, n_ended;
  end_key *by_end; /* EASY: running jobs by estimated end (start + estimate), then job */
  size_t n_by_end, by_end_cap;
  int64_t *avail, *extra; /* EASY scratch, per group */
  uint32_t *scratch_nodes;
  size_t scratch_cap;
  dcsim_job_stats *jobs;
  dcsim_group_stats *groups;
  double *node_energy_j, *node_busy_s, *node_off_s;
  uint32_t *node_boots;
  int64_t off_after_ns;
  /* utilisation over time */
  int64_t bucket_ns, util_last_ns, util_bucket_end; /* util_bucket ends at util_bucket_end */
  size_t util_bucket;
  uint32_t n_busy, n_alloc;
  size_t bucket_cap;
  double *b_busy, *b_alloc;
  dcsim_run_stats st;
  int64_t now;
  const volatile sig_atomic_t *interrupt; /* polled by the loop; NULL = never */
  dcsim_engine_progress_fn progress;      /* called by the loop; NULL = never */
  void *progress_ctx;
};

static int nodeset_init(nodeset *s, size_t n) {
  s->nw = (n + 63) / 64;
  s->nt = (s->nw + 63) / 64;
  s->hint = 0;
  s->count = 0;
  s->w = calloc(s->nw ? s->nw : 1, sizeof *s->w);
  s->top = calloc(s->nt ? s->nt : 1, sizeof *s->top);
  return s->w && s->top ? 0 : -1;
}

static void nodeset_release(nodeset *s) {
  free(s->w);
  free(s->top);
}

static void nodeset_add(nodeset *s, uint32_t i) {
  size_t k = i >> 6;
  if (!s->w[k]) s->top[k >> 6] |= UINT64_C(1) << (k & 63);
  s->w[k] |= UINT64_C(1) << (i & 63);
  if ((k >> 6) < s->hint) s->hint = k >> 6;
  s->count++;
}

static void nodeset_remove(nodeset *s, uint32_t i) {
  size_t k = i >> 6;
  s->w[k] &= ~(UINT64_C(1) << (i & 63));
  if (!s->w[k]) s->top[k >> 6] &= ~(UINT64_C(1) << (k & 63));
  s->count--;
}

/* Moves the m lowest members (there must be as many) into out[] as base + member, ascending. */
static void nodeset_take(nodeset *s, uint32_t m, uint32_t base, uint32_t *out) {
  while (m) {
    while (!s->top[s->hint]) s->hint++;
    size_t k = ((size_t)s->hint << 6) | (size_t)__builtin_ctzll(s->top[s->hint]);
    uint64_t x = s->w[k];
    while (x && m) {
      *out++ = base + (uint32_t)((k << 6) | (size_t)__builtin_ctzll(x));
      x &= x - 1;
      m--;
      s->count--;
    }
    s->w[k] = x;
    if (!x) s->top[k >> 6] &= ~(UINT64_C(1) << (k & 63));
  }
}

void dcsim_engine_free(dcsim_engine_t *e) {
  if (!e) return;
  dcsim_evq_free(e->q);
  free(e->nodes);
  free(e->pm);
  for (size_t g = 0; g < e->s->n_groups; g++) {
    if (e->free_on) nodeset_release(&e->free_on[g]);
    if (e->free_off) nodeset_release(&e->free_off[g]);
  }
  free(e->free_on);
  free(e->free_off);
  free(e->n_free);
  free(e->arena);
  free(e->wf_free);
  free(e->wf_nodes);
  free(e->wf_whole);
  free(e->waiting);
  free(e->by_end);
  free(e->avail);
  free(e->extra);
  free(e->scratch_nodes);
  free(e->jobs);
  free(e->groups);
  free(e->node_energy_j);
  free(e->node_busy_s);
  free(e->node_off_s);
  free(e->node_boots);
  free(e->b_busy);
  free(e->b_alloc);
  free(e);
}

/* A time of job j's plan, scaled (trace jobs share one plan per shape). */
static int64_t scaled(const dcsim_engine_t *e, uint32_t j, int64_t ns) {
  double sc = e->s->jobs[j].time_scale;
  return sc <= 0 || sc == 1.0 ? ns : llround((double)ns * sc);
}

static double job_scale(const dcsim_engine_t *e, uint32_t j) {
  double sc = e->s->jobs[j].time_scale;
  return sc > 0 ? sc : 1.0;
}

static int pm_group(const dcsim_engine_t *e, uint32_t g) {
  return e->o.power_off && e->s->groups[g].g->has_power_states;
}

static uint8_t node_state(const dcsim_engine_t *e, uint32_t id) {
  return e->pm ? e->pm[id].state : NODE_ON;
}

/* Checks the options. Returns 0 or DCSIM_EUSAGE / DCSIM_ERANGE. */
static int check_opts(const dcsim_scenario *s, const dcsim_engine_opts *o, dcsim_error *err) {
  if (o->power_off && !(o->power_off_after_s >= 0 && o->power_off_after_s < 1e10))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "", 0,
                     "power-off-after must be a finite number of seconds >= 0");
  if (!(o->bucket_s >= 0 && o->bucket_s < 1e10))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "", 0,
                     "the utilisation bucket must be a finite number of seconds >= 0");
  if (s->n_groups > UINT16_MAX)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "more than %u node groups", UINT16_MAX);
  for (size_t g = 0; g < s->n_groups; g++) /* tasks on a node: at most one per core and GPU */
    if ((uint64_t)s->groups[g].cores_per_node + s->groups[g].g->gpus_per_node >= UINT16_MAX)
      return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "node group '%s': more than %u cores and GPUs",
                       s->groups[g].g->name, UINT16_MAX - 1);
  return 0;
}

/* The engine's arrays. Returns 0 or DCSIM_ENOMEM. */
static int alloc_arrays(dcsim_engine_t *e, dcsim_error *err) {
  const dcsim_scenario *s = e->s;
  size_t nn = s->platform->n_nodes ? s->platform->n_nodes : 1;
  size_t nj = s->n_jobs ? s->n_jobs : 1, ng = s->n_groups ? s->n_groups : 1;
  size_t nw = s->n_wfs ? s->n_wfs : 1;
  e->q = dcsim_evq_new_monotone(); /* simulated time never goes back */
  e->nodes = malloc(nn * sizeof *e->nodes);
  e->pm = e->o.power_off ? calloc(nn, sizeof *e->pm) : NULL;
  e->free_on = calloc(ng, sizeof *e->free_on);
  e->free_off = calloc(ng, sizeof *e->free_off);
  e->n_free = calloc(ng, sizeof *e->n_free);
  e->wf_free = malloc(nw * sizeof *e->wf_free);
  e->wf_nodes = calloc(nw, sizeof *e->wf_nodes);
  e->wf_whole = calloc(nw, 1);
  e->avail = calloc(ng, sizeof *e->avail);
  e->extra = calloc(ng, sizeof *e->extra);
  e->jobs = calloc(nj, sizeof *e->jobs);
  e->groups = calloc(ng, sizeof *e->groups);
  /* without power management nothing writes node_off_s and node_boots: their pages stay unmapped */
  e->node_energy_j = calloc(nn, sizeof *e->node_energy_j);
  e->node_busy_s = calloc(nn, sizeof *e->node_busy_s);
  e->node_off_s = calloc(nn, sizeof *e->node_off_s);
  e->node_boots = calloc(nn, sizeof *e->node_boots);
  if (!e->q || !e->nodes || (e->o.power_off && !e->pm) || !e->free_on || !e->free_off ||
      !e->n_free || !e->wf_free || !e->wf_nodes || !e->wf_whole || !e->avail || !e->extra ||
      !e->jobs || !e->groups || !e->node_energy_j || !e->node_busy_s || !e->node_off_s ||
      !e->node_boots)
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory for %u nodes and %zu jobs",
                     s->platform->n_nodes, s->n_jobs);
  return 0;
}

/* Per workflow: its allocation's size, and whether a single task holds every node of the
 * allocation for the whole plan (such jobs queue no task event: see start_job). */
static void init_workflows(dcsim_engine_t *e) {
  const dcsim_scenario *s = e->s;
  for (size_t w = 0; w < s->n_wfs; w++) {
    const dcsim_wf_rt *wr = &s->wfs[w];
    const dcsim_wf_plan *p = &wr->plan;
    uint32_t total = 0;
    for (size_t g = 0; g < s->n_groups; g++) total += p->alloc[g];
    e->wf_nodes[w] = total;
    e->wf_free[w] = ARENA_NIL;
    if (wr->wf->n_tasks != 1) continue;
    const dcsim_option *op = &wr->tmpls[wr->wf->tasks[0].tmpl].opts[p->opt[0]];
    e->wf_whole[w] = !op->gpu && p->start_ns[0] == 0 && op->duration_ns == p->makespan_ns &&
                     p->node_start[1] - p->node_start[0] == total && p->alloc[op->group] == total;
  }
}

/* Every node on, idle, free. Returns 0 or DCSIM_ENOMEM. */
static int init_nodes(dcsim_engine_t *e, dcsim_error *err) {
  const dcsim_scenario *s = e->s;
  for (size_t g = 0; g < s->n_groups; g++) {
    const dcsim_node_group *ng = s->groups[g].g;
    if (nodeset_init(&e->free_on[g], ng->count) || nodeset_init(&e->free_off[g], ng->count))
      return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    for (unsigned k = 0; k < ng->count; k++) {
      unsigned id = ng->first_node + k;
      e->nodes[id] = (node_rt){ .power_w = s->groups[g].idle_w, .owner = -1, .group = (uint16_t)g };
      if (e->pm) e->pm[id] = (node_pm){ .state = NODE_ON, .set = SET_ON };
      nodeset_add(&e->free_on[g], k);
    }
    e->n_free[g] = ng->count;
  }
  return 0;
}

dcsim_engine_t *dcsim_engine_new(const dcsim_scenario *s, const dcsim_engine_opts *o,
                                 dcsim_error *err) {
  dcsim_engine_t *e = calloc(1, sizeof *e);
  if (!e) {
    DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    return NULL;
  }
  e->s = s;
  e->o = *o;
  if (check_opts(s, o, err) || alloc_arrays(e, err) || init_nodes(e, err)) {
    dcsim_engine_free(e);
    return NULL;
  }
  e->off_after_ns = llround(o->power_off_after_s * 1e9);
  e->bucket_ns = llround((o->bucket_s > 0 ? o->bucket_s : 3600.0) * 1e9);
  if (e->bucket_ns < 1) e->bucket_ns = 1;
  init_workflows(e);
  return e;
}

/* Makes room for n time buckets in every bucket array (zero-filled). */
static int bucket_reserve(dcsim_engine_t *e, size_t n) {
  if (n <= e->bucket_cap) return 0;
  size_t nc = e->bucket_cap ? e->bucket_cap : 16;
  while (nc < n) nc *= 2;
  double **arr[2] = { &e->b_busy, &e->b_alloc };
  for (int k = 0; k < 2; k++) {
    if (DCSIM_RESIZE(*arr[k], nc)) return -1;
    memset(*arr[k] + e->bucket_cap, 0, (nc - e->bucket_cap) * sizeof **arr[k]);
  }
  e->bucket_cap = nc;
  return 0;
}

/* Adds value_per_s x [t0, t1) to the time buckets of arr (grown as needed). */
static int bucket_add(dcsim_engine_t *e, double **arr, int64_t t0, int64_t t1, double value_per_s) {
  if (t1 <= t0 || value_per_s == 0) return 0;
  size_t last = (size_t)((t1 - 1) / e->bucket_ns);
  if (bucket_reserve(e, last + 1)) return -1;
  for (size_t b = (size_t)(t0 / e->bucket_ns); b <= last; b++) {
    int64_t lo = (int64_t)b * e->bucket_ns, hi = lo + e->bucket_ns;
    if (lo < t0) lo = t0;
    if (hi > t1) hi = t1;
    (*arr)[b] += value_per_s * (double)(hi - lo) * 1e-9;
  }
  return 0;
}

/* Brings the busy and allocated node counts' time integrals up to now (call before changing them).
 */
static int util_advance(dcsim_engine_t *e, dcsim_error *err) {
  int64_t t0 = e->util_last_ns, t1 = e->now;
  if (t1 <= t0) return 0;
  e->util_last_ns = t1;
  if (t1 <= e->util_bucket_end && e->util_bucket < e->bucket_cap) { /* within the current bucket */
    double dt = (double)(t1 - t0) * 1e-9;
    e->b_busy[e->util_bucket] += e->n_busy * dt;
    e->b_alloc[e->util_bucket] += e->n_alloc * dt;
    return 0;
  }
  if (bucket_add(e, &e->b_busy, t0, t1, e->n_busy) ||
      bucket_add(e, &e->b_alloc, t0, t1, e->n_alloc) ||
      bucket_reserve(e, (size_t)((t1 - 1) / e->bucket_ns) + 1))
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  e->util_bucket = (size_t)((t1 - 1) / e->bucket_ns);
  e->util_bucket_end = (int64_t)(e->util_bucket + 1) * e->bucket_ns;
  return 0;
}

/* Charges energy to a node, its group and its holder (or the centre). */
static void charge(dcsim_engine_t *e, uint32_t id, double ej) {
  const node_rt *n = &e->nodes[id];
  e->node_energy_j[id] += ej;
  e->groups[n->group].energy_j += ej;
  if (n->owner >= 0)
    e->jobs[n->owner].energy_j += ej;
  else
    e->st.unallocated_idle_j += ej;
}

/* Brings a node's energy up to `now` and charges it to its holder (or the centre). */
static int account(dcsim_engine_t *e, uint32_t id, dcsim_error *err) {
  node_rt *n = &e->nodes[id];
  int64_t dt = e->now - n->last_ns;
  if (dt <= 0) return 0;
  double ej = n->power_w * (double)dt * 1e-9;
  e->node_energy_j[id] += ej;
  e->groups[n->group].energy_j += ej;
  if (n->owner >= 0) {
    e->jobs[n->owner].energy_j += ej;
    e->groups[n->group].alloc_node_s += (double)dt * 1e-9;
  } else {
    e->st.unallocated_idle_j += ej;
  }
  int rc = 0;
  if (e->o.sink && e->o.sink->power)
    rc = e->o.sink->power(e->o.sink->ctx, id, n->last_ns, e->now, n->power_w, err);
  n->last_ns = e->now;
  return rc;
}

static int job_fits(const dcsim_engine_t *e, uint32_t j) {
  const dcsim_wf_plan *p = &e->s->wfs[e->s->jobs[j].wf].plan;
  for (size_t g = 0; g < e->s->n_groups; g++)
    if (p->alloc[g] > e->n_free[g]) return 0;
  return 1;
}

/* Queues event c of plan p of running job j, whose allocation is arena block `off` (c is less
 * than the plan's n_events). With replace: in place of the event at the head of the queue. */
static inline int queue_task_event(dcsim_engine_t *e, uint32_t j, const dcsim_wf_plan *p,
                                   uint32_t off, uint32_t c, int replace, dcsim_error *err) {
  uint32_t kind = (p->ev_code[c] & 1) ? EV_TASK_END : EV_TASK_START;
  int64_t t = e->jobs[j].start_ns + scaled(e, j, p->ev_ns[c]);
  uint64_t payload = (uint64_t)off << 32 | c;
  return replace ? dcsim_evq_replace_top(e->q, t, (int32_t)kind, kind, j, payload, err)
                 : dcsim_evq_push(e->q, t, (int32_t)kind, kind, j, payload, NULL, err);
}

/* ---- power management ---- */

static double boot_w(const dcsim_node_group *g) {
  return g->boot_s > 0 ? g->boot_j / g->boot_s : 0;
}
static double shutdown_w(const dcsim_node_group *g) {
  return g->shutdown_s > 0 ? g->shutdown_j / g->shutdown_s : 0;
}

/* Node id begins to boot now (it is off, or has just finished shutting down). */
static int boot(dcsim_engine_t *e, uint32_t id, dcsim_error *err) {
  node_rt *n = &e->nodes[id];
  const dcsim_node_group *g = e->s->groups[n->group].g;
  int rc = account(e, id, err);
  if (rc) return rc;
  e->node_boots[id]++;
  e->st.boots++;
  e->pm[id].wake = 0;
  if (g->boot_s > 0) {
    e->pm[id].state = NODE_BOOT;
    n->power_w = boot_w(g);
    e->pm[id].mark_ns = e->now + llround(g->boot_s * 1e9);
    return dcsim_evq_push(e->q, e->pm[id].mark_ns, EV_NODE, EV_NODE, id, 0, NULL, err);
  }
  charge(e, id, g->boot_j); /* instantaneous boot: its energy at once */
  e->pm[id].state = NODE_ON;
  n->power_w = e->s->groups[n->group].idle_w;
  e->pm[id].mark_ns = e->now;
  return 0;
}

/* When node id (just allocated) can run tasks; wakes it up if it is off or going off. */
static int wake(dcsim_engine_t *e, uint32_t id, int64_t *ready, dcsim_error *err) {
  node_rt *n = &e->nodes[id];
  const dcsim_node_group *g = e->s->groups[n->group].g;
  int rc = 0;
  switch (e->pm[id].state) {
    case NODE_OFF:
      e->node_off_s[id] += (double)(e->now - e->pm[id].mark_ns) * 1e-9;
      rc = boot(e, id, err);
      *ready = e->pm[id].mark_ns;
      break;
    case NODE_DOWN: /* finish the shutdown, then boot (EV_NODE at its end) */
      e->pm[id].wake = 1;
      *ready = e->pm[id].mark_ns + llround(g->boot_s * 1e9);
      break;
    default: *ready = e->now; break;
  }
  return rc;
}

/* A boot or shutdown of node id ends now. */
static int node_event(dcsim_engine_t *e, uint32_t id, dcsim_error *err) {
  node_rt *n = &e->nodes[id];
  const dcsim_group_rt *g = &e->s->groups[n->group];
  int rc = account(e, id, err);
  if (rc) return rc;
  if (e->pm[id].state == NODE_BOOT) {
    e->pm[id].state = NODE_ON;
    n->power_w = g->idle_w;
  } else if (e->pm[id].state == NODE_DOWN) {
    if (e->pm[id].wake) return boot(e, id, err);
    e->pm[id].state = NODE_OFF;
    n->power_w = g->g->off_w;
    e->pm[id].mark_ns = e->now;
  }
  return 0;
}

/* Node id has been idle and unallocated since the timer was set: switch it off. */
static int idle_timeout(dcsim_engine_t *e, uint32_t id, uint32_t gen, dcsim_error *err) {
  node_rt *n = &e->nodes[id];
  if (n->owner >= 0 || e->pm[id].gen != gen || e->pm[id].state != NODE_ON ||
      e->pm[id].set != SET_ON)
    return 0; /* stale */
  const dcsim_node_group *g = e->s->groups[n->group].g;
  int rc = account(e, id, err);
  if (rc) return rc;
  e->st.shutdowns++;
  uint32_t off = id - e->s->groups[n->group].g->first_node;
  nodeset_remove(&e->free_on[n->group], off);
  nodeset_add(&e->free_off[n->group], off);
  e->pm[id].set = SET_OFF;
  if (g->shutdown_s > 0) {
    e->pm[id].state = NODE_DOWN;
    n->power_w = shutdown_w(g);
    e->pm[id].mark_ns = e->now + llround(g->shutdown_s * 1e9);
    return dcsim_evq_push(e->q, e->pm[id].mark_ns, EV_NODE, EV_NODE, id, 0, NULL, err);
  }
  charge(e, id, g->shutdown_j);
  e->pm[id].state = NODE_OFF;
  n->power_w = g->off_w;
  e->pm[id].mark_ns = e->now;
  return 0;
}

static int arm_idle_timer(dcsim_engine_t *e, uint32_t id, dcsim_error *err) {
  if (!e->o.power_off || !pm_group(e, e->nodes[id].group)) return 0;
  return dcsim_evq_push(e->q, e->now + e->off_after_ns, EV_IDLE, EV_IDLE, id, e->pm[id].gen, NULL,
                        err);
}

/* ---- jobs ---- */

/* A block of `size` entries of the arena for a job of workflow w: its offset in *off. Returns 0
 * or DCSIM_ENOMEM. */
static int arena_take(dcsim_engine_t *e, uint32_t w, uint32_t size, uint32_t *off,
                      dcsim_error *err) {
  if (size == 0) size = 1;
  if (e->wf_free[w] != ARENA_NIL) {
    *off = e->wf_free[w];
    e->wf_free[w] = e->arena[*off];
    return 0;
  }
  if (e->arena_n + size >= ARENA_NIL || DCSIM_GROW(e->arena, e->arena_cap, e->arena_n + size))
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory for the allocations of %zu jobs",
                     e->n_running + 1);
  *off = (uint32_t)e->arena_n;
  e->arena_n += size;
  return 0;
}

/* Gives the block at off back to workflow w's free list. */
static void arena_give(dcsim_engine_t *e, uint32_t w, uint32_t off) {
  e->arena[off] = e->wf_free[w];
  e->wf_free[w] = off;
}

/* Position of (end, job) in by_end: the first entry not before it. */
static size_t by_end_find(const dcsim_engine_t *e, int64_t end_ns, uint32_t job) {
  size_t lo = 0, hi = e->n_by_end;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    const end_key *k = &e->by_end[mid];
    if (k->end_ns < end_ns || (k->end_ns == end_ns && k->job < job))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* EASY: running job j, started, enters by_end. Returns 0 or DCSIM_ENOMEM. */
static int by_end_add(dcsim_engine_t *e, uint32_t j, dcsim_error *err) {
  if (DCSIM_GROW(e->by_end, e->by_end_cap, e->n_by_end + 1))
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  int64_t est = e->jobs[j].start_ns + e->jobs[j].estimate_ns;
  size_t at = by_end_find(e, est, j);
  memmove(e->by_end + at + 1, e->by_end + at, (e->n_by_end - at) * sizeof *e->by_end);
  e->by_end[at] = (end_key){ est, j };
  e->n_by_end++;
  return 0;
}

/* A task of option op starts (start) or ends on node id: the node's power, and when its first
 * task starts or its last ends, its busy time and the count of busy nodes. Returns 0 or
 * DCSIM_ENOMEM. */
static inline int node_task(dcsim_engine_t *e, uint32_t id, const dcsim_option *op, int start,
                            dcsim_error *err) {
  node_rt *n = &e->nodes[id];
  int rc = 0;
  if (start) {
    n->power_w += op->node_delta_w;
    if (n->running++ == 0) {
      n->busy_since = e->now;
      if (!(rc = util_advance(e, err))) e->n_busy++;
    }
  } else {
    n->power_w -= op->node_delta_w;
    if (--n->running == 0) {
      double b = (double)(e->now - n->busy_since) * 1e-9;
      e->node_busy_s[id] += b;
      e->groups[n->group].busy_node_s += b;
      n->power_w = e->s->groups[n->group].idle_w; /* exact again when the node falls idle */
      if (!(rc = util_advance(e, err))) e->n_busy--;
    }
  }
  return rc;
}

/* The one task of a "whole" job (see start_job), of option op, starts on every node of its
 * allocation alloc[0..n-1]. */
static int whole_task_start(dcsim_engine_t *e, const dcsim_option *op, const uint32_t *alloc,
                            size_t n, dcsim_error *err) {
  int rc = 0;
  for (size_t k = 0; k < n && !rc; k++) rc = node_task(e, alloc[k], op, 1, err);
  return rc;
}

/* Job j takes the lowest free node numbers of each group it needs (deterministic), powered-on
 * ones first, into alloc. */
static void take_nodes(dcsim_engine_t *e, const dcsim_wf_plan *p, uint32_t *alloc) {
  size_t k = 0;
  for (size_t g = 0; g < e->s->n_groups; g++) {
    uint32_t m = p->alloc[g], on = e->free_on[g].count < m ? e->free_on[g].count : m,
             first = e->s->groups[g].g->first_node;
    nodeset_take(&e->free_on[g], on, first, alloc + k);
    nodeset_take(&e->free_off[g], m - on, first, alloc + k + on);
    k += m;
    e->n_free[g] -= m;
  }
}

/* Job j holds nodes alloc[0..n-1] from now: their energy is its own; with `whole` its task
 * starts on them at once; else off nodes are woken. The time its last node is up in *ready. */
static int hold_nodes(dcsim_engine_t *e, uint32_t j, const uint32_t *alloc, size_t n,
                      const dcsim_option *whole, int64_t *ready, dcsim_error *err) {
  int rc = 0;
  *ready = e->now;
  for (size_t k = 0; k < n && !rc; k++) {
    uint32_t id = alloc[k];
    if (k + 8 < n) __builtin_prefetch(&e->nodes[alloc[k + 8]], 1); /* far apart in memory */
    if ((rc = account(e, id, err))) break;
    e->nodes[id].owner = (int32_t)j;
    if (!e->pm) continue;
    e->pm[id].set = SET_NONE;
    e->pm[id].gen++;
    int64_t up = e->now;
    if (e->pm[id].state != NODE_ON && (rc = wake(e, id, &up, err))) break;
    if (up > *ready) *ready = up;
  }
  if (!rc && whole && !e->pm) rc = whole_task_start(e, whole, alloc, n, err);
  return rc;
}

/* Checks that job j, starting now, ends within the engine's clock. Returns 0 or DCSIM_ERANGE. */
static int check_end(const dcsim_engine_t *e, uint32_t j, dcsim_error *err) {
  const dcsim_wf_rt *w = &e->s->wfs[e->s->jobs[j].wf];
  /* the clock is int64 nanoseconds: keep every event time below INT64_MAX / 2 (146 years) */
  double end_s = ((double)e->now + (double)w->plan.makespan_ns * job_scale(e, j)) * 1e-9;
  if (!(end_s < (double)(INT64_MAX / 2) * 1e-9))
    return DCSIM_ERR(err, DCSIM_ERANGE, e->s->input_path, 0,
                     "job %u of '%s' would end after %.4g s of simulated "
                     "time; the engine's clock ends at %.4g s (146 years)",
                     (unsigned)j, w->wf->name, end_s, (double)(INT64_MAX / 2) * 1e-9);
  return 0;
}

/* The one option of a job of workflow w when it runs as a "whole" job, else NULL. */
static const dcsim_option *whole_option(const dcsim_engine_t *e, uint32_t w) {
  const dcsim_wf_rt *wr = &e->s->wfs[w];
  return e->wf_whole[w] ? &wr->tmpls[wr->wf->tasks[0].tmpl].opts[wr->plan.opt[0]] : NULL;
}

/* Did job j start its one task with the job (see start_job)? Then it queued no task event. */
static const dcsim_option *job_whole(const dcsim_engine_t *e, uint32_t j) {
  const dcsim_option *op = whole_option(e, e->s->jobs[j].wf);
  return op && e->jobs[j].start_ns == e->jobs[j].alloc_ns ? op : NULL;
}

/* Job j starts now on its allocation: its nodes, its statistics, its first task event and its
 * end. A job whose one task holds all its nodes from start to end (trace jobs) queues no task
 * event: the task starts with the job (once its nodes are up) and ends in end_job. */
static int start_job(dcsim_engine_t *e, uint32_t j, dcsim_error *err) {
  uint32_t w = e->s->jobs[j].wf, off = 0;
  const dcsim_wf_plan *p = &e->s->wfs[w].plan;
  const dcsim_option *whole = whole_option(e, w);
  int64_t ready = e->now;
  int rc = check_end(e, j, err);
  if (!rc) rc = arena_take(e, w, e->wf_nodes[w], &off, err);
  if (!rc) rc = util_advance(e, err);
  if (rc) return rc;
  take_nodes(e, p, e->arena + off);
  if ((rc = hold_nodes(e, j, e->arena + off, e->wf_nodes[w], whole, &ready, err))) return rc;
  e->n_alloc += e->wf_nodes[w];
  e->n_running++;
  dcsim_job_stats *js = &e->jobs[j];
  js->alloc_ns = e->now;
  js->start_ns = ready; /* its tasks wait for the boot of its last node */
  js->end_ns = ready + scaled(e, j, p->makespan_ns);
  js->task_energy_j = p->task_energy_j * job_scale(e, j);
  js->tasks = (uint32_t)e->s->wfs[w].wf->n_tasks;
  if (e->o.job_policy == DCSIM_JOB_EASY && (rc = by_end_add(e, j, err))) return rc;
  if (whole && ready == e->now) { /* its task starts now (at once without power management) */
    if (e->pm) rc = whole_task_start(e, whole, e->arena + off, e->wf_nodes[w], err);
  } else if (p->n_events) { /* only its next task event: its plan lists the rest in time order */
    rc = queue_task_event(e, j, p, off, 0, 0, err);
  }
  if (!rc) rc = dcsim_evq_push(e->q, js->end_ns, EV_JOB_END, EV_JOB_END, j, off, NULL, err);
  return rc;
}

/* Where task t of a job of workflow w runs: its option, and its nodes, the global numbers
 * alloc[base + list[i]] for i < cnt of the job's allocation alloc. */
typedef struct task_place {
  const dcsim_option *op;
  size_t base;
  const uint32_t *list;
  uint32_t cnt;
} task_place;

static inline task_place place_of(const dcsim_wf_rt *w, size_t t) {
  const dcsim_wf_plan *p = &w->plan;
  task_place tp = { &w->tmpls[w->wf->tasks[t].tmpl].opts[p->opt[t]], 0,
                    p->node_list + p->node_start[t], p->node_start[t + 1] - p->node_start[t] };
  for (uint32_t g = 0; g < tp.op->group; g++) tp.base += p->alloc[g];
  return tp;
}

/* The global node numbers of task t of running job j, whose allocation is alloc, into
 * scratch_nodes (for the sink). */
static int task_nodes(dcsim_engine_t *e, uint32_t j, const uint32_t *alloc, size_t t,
                      const dcsim_option **opt, uint32_t *n_out, dcsim_error *err) {
  task_place tp = place_of(&e->s->wfs[e->s->jobs[j].wf], t);
  if (tp.cnt > e->scratch_cap && DCSIM_GROW(e->scratch_nodes, e->scratch_cap, tp.cnt))
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  for (uint32_t i = 0; i < tp.cnt; i++) e->scratch_nodes[i] = alloc[tp.base + tp.list[i]];
  *opt = tp.op;
  *n_out = tp.cnt;
  return 0;
}

/* Passes the end of task t of job j (on the cnt nodes of scratch_nodes) to the sink. */
static int task_record(dcsim_engine_t *e, uint32_t j, size_t t, const dcsim_option *op,
                       uint32_t cnt, dcsim_error *err) {
  if (!e->o.sink || !e->o.sink->task) return 0;
  const dcsim_wf_rt *w = &e->s->wfs[e->s->jobs[j].wf];
  dcsim_task_record r = { j,
                          (uint32_t)t,
                          w,
                          op,
                          e->jobs[j].start_ns + scaled(e, j, w->plan.start_ns[t]),
                          e->now,
                          e->scratch_nodes,
                          cnt,
                          op->gpu ? w->plan.gpu_slot[t] : -1,
                          op->energy_j * job_scale(e, j) };
  return e->o.sink->task(e->o.sink->ctx, &r, err);
}

/* Task t of running job j (workflow w, allocation alloc) starts or ends now on its nodes. */
static int task_event(dcsim_engine_t *e, uint32_t j, const dcsim_wf_rt *w, const uint32_t *alloc,
                      size_t t, int start, dcsim_error *err) {
  task_place tp = place_of(w, t);
  int rc = 0;
  for (uint32_t i = 0; i < tp.cnt && !rc; i++) {
    uint32_t id = alloc[tp.base + tp.list[i]];
    if (!(rc = account(e, id, err))) rc = node_task(e, id, tp.op, start, err);
  }
  if (rc || start) return rc;
  e->st.tasks++;
  if (!e->o.sink || !e->o.sink->task) return 0;
  const dcsim_option *op = NULL;
  uint32_t cnt = 0;
  if (!(rc = task_nodes(e, j, alloc, t, &op, &cnt, err))) rc = task_record(e, j, t, op, cnt, err);
  return rc;
}

/* Job j, whose allocation is arena block off, ends now: its one task if it started with the job,
 * then its nodes are free. */
static int end_job(dcsim_engine_t *e, uint32_t j, uint32_t off, dcsim_error *err) {
  uint32_t w = e->s->jobs[j].wf;
  const dcsim_wf_plan *p = &e->s->wfs[w].plan;
  const uint32_t *alloc = e->arena + off;
  const dcsim_option *whole = job_whole(e, j);
  int rc = util_advance(e, err);
  if (!rc && whole) { /* the end of its one task (see start_job) */
    e->st.tasks++;
    const dcsim_option *o2 = NULL;
    uint32_t tn = 0;
    if (e->o.sink && e->o.sink->task && !(rc = task_nodes(e, j, alloc, 0, &o2, &tn, err)))
      rc = task_record(e, j, 0, whole, tn, err);
  }
  size_t k = 0;
  for (size_t g = 0; g < e->s->n_groups && !rc; g++)
    for (uint32_t i = 0; i < p->alloc[g] && !rc; i++, k++) {
      uint32_t id = alloc[k];
      if ((rc = account(e, id, err))) break;
      if (whole && (rc = node_task(e, id, whole, 0, err))) break;
      e->nodes[id].owner = -1;
      if (e->pm) e->pm[id].set = SET_ON;
      nodeset_add(&e->free_on[g], id - e->s->groups[g].g->first_node);
      e->n_free[g]++;
      e->n_alloc--;
      rc = arm_idle_timer(e, id, err);
    }
  arena_give(e, w, off);
  if (e->o.job_policy == DCSIM_JOB_EASY) {
    size_t at = by_end_find(e, e->jobs[j].start_ns + e->jobs[j].estimate_ns, j);
    memmove(e->by_end + at, e->by_end + at + 1, (e->n_by_end - at - 1) * sizeof *e->by_end);
    e->n_by_end--;
  }
  e->n_running--;
  e->n_ended++;
  if (e->now > e->st.makespan_ns) e->st.makespan_ns = e->now;
  return rc;
}
/* Starts what the job policy allows at `now`. */
static int schedule(dcsim_engine_t *e, dcsim_error *err) {
  const dcsim_scenario *s = e->s;
  int rc = 0;
  while (e->waiting_head < e->n_waiting && job_fits(e, e->waiting[e->waiting_head]))
    if ((rc = start_job(e, e->waiting[e->waiting_head++], err))) return rc;
  if (e->o.job_policy != DCSIM_JOB_EASY || e->waiting_head >= e->n_waiting) return 0;
  /* EASY: reservation for the head at the earliest time enough nodes are free ("shadow"), from
   * the running jobs' estimated ends, kept in order (a job running past its estimate is expected
   * to end now) */
  uint32_t head = e->waiting[e->waiting_head];
  const dcsim_wf_plan *hp = &s->wfs[s->jobs[head].wf].plan;
  size_t ng = s->n_groups;
  int64_t *avail = e->avail, *extra = e->extra;
  for (size_t g = 0; g < ng; g++) avail[g] = e->n_free[g];
  int64_t shadow = -1;
  for (size_t i = 0; i < e->n_by_end && shadow < 0; i++) {
    const dcsim_wf_plan *rp = &s->wfs[s->jobs[e->by_end[i].job].wf].plan;
    int ok = 1;
    for (size_t g = 0; g < ng; g++) {
      avail[g] += rp->alloc[g];
      if (avail[g] < (int64_t)hp->alloc[g]) ok = 0;
    }
    if (ok) shadow = e->by_end[i].end_ns > e->now ? e->by_end[i].end_ns : e->now;
  }
  if (shadow < 0) return 0; /* cannot happen: every job fits the empty platform */
  for (size_t g = 0; g < ng; g++) extra[g] = avail[g] - hp->alloc[g];
  /* backfill: later jobs that fit now and end before the shadow time or stay off its nodes */
  size_t keep = e->waiting_head + 1, i = e->waiting_head + 1;
  for (; i < e->n_waiting; i++) {
    int any_free = 0; /* once every node is taken, no later job can start: stop looking */
    for (size_t g = 0; g < ng; g++) any_free |= e->n_free[g] > 0;
    if (!any_free) break;
    uint32_t j = e->waiting[i];
    const dcsim_wf_plan *jp = &s->wfs[s->jobs[j].wf].plan;
    int start = job_fits(e, j);
    int before = e->now + e->jobs[j].estimate_ns <= shadow;
    if (start && !before)
      for (size_t g = 0; g < ng; g++)
        if ((int64_t)jp->alloc[g] > extra[g]) start = 0;
    if (start) {
      if (!before)
        for (size_t g = 0; g < ng; g++) extra[g] -= jp->alloc[g];
      if ((rc = start_job(e, j, err))) return rc;
    } else {
      e->waiting[keep++] = j;
    }
  }
  if (keep < i) memmove(e->waiting + keep, e->waiting + i, (e->n_waiting - i) * sizeof *e->waiting);
  e->n_waiting = keep + (e->n_waiting - i);
  return 0;
}

/* Makes room for one more waiting job: the queue moves to the front of its array when it has
 * room there, so the array holds at most twice the jobs waiting at once. Returns 0 or -1. */
static int waiting_room(dcsim_engine_t *e) {
  if (e->n_waiting < e->waiting_cap) return 0;
  if (e->waiting_cap && e->waiting_head >= e->n_waiting / 2) {
    memmove(e->waiting, e->waiting + e->waiting_head,
            (e->n_waiting - e->waiting_head) * sizeof *e->waiting);
    e->n_waiting -= e->waiting_head;
    e->waiting_head = 0;
    if (e->n_waiting < e->waiting_cap) return 0;
  }
  return DCSIM_GROW(e->waiting, e->waiting_cap, e->n_waiting + 1);
}

/* Queues an arriving job: at the back (fcfs, easy) or by estimate (sjf; ties: submission order,
 * which is the scenario's job order). Returns 0 or DCSIM_ENOMEM. */
static int enqueue(dcsim_engine_t *e, uint32_t j, dcsim_error *err) {
  if (waiting_room(e)) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  if (e->o.job_policy != DCSIM_JOB_SJF) {
    e->waiting[e->n_waiting++] = j;
    return 0;
  }
  int64_t est = e->jobs[j].estimate_ns;
  size_t lo = e->waiting_head, hi = e->n_waiting;
  while (lo < hi) { /* first position whose job sorts after j */
    size_t mid = (lo + hi) / 2;
    uint32_t m = e->waiting[mid];
    if (e->jobs[m].estimate_ns < est || (e->jobs[m].estimate_ns == est && m < j))
      lo = mid + 1;
    else
      hi = mid;
  }
  memmove(e->waiting + lo + 1, e->waiting + lo, (e->n_waiting - lo) * sizeof *e->waiting);
  e->waiting[lo] = j;
  e->n_waiting++;
  return 0;
}

/* A task event of job j (peeked into *ev): its nodes change, and the job's next task event, if
 * any, replaces it at the head of the queue (a task event queues nothing else). */
static int task_step(dcsim_engine_t *e, const dcsim_event *ev, dcsim_error *err) {
  uint32_t j = ev->target, off = (uint32_t)(ev->payload >> 32), c = (uint32_t)ev->payload;
  const dcsim_wf_rt *w = &e->s->wfs[e->s->jobs[j].wf];
  const dcsim_wf_plan *p = &w->plan;
  int rc = task_event(e, j, w, e->arena + off, p->ev_code[c] >> 1, ev->kind == EV_TASK_START, err);
  if (rc) return rc;
  if (++c < p->n_events) return queue_task_event(e, j, p, off, c, 1, err);
  return dcsim_evq_pop(e->q, NULL) < 0 ? DCSIM_ENOMEM : 0;
}

/* Takes job j's arrival (peeked) off the queue and queues the next job's: arrivals are queued one
 * at a time, in job order (by time, then submission), so the queue never holds every job. */
static int next_arrival(dcsim_engine_t *e, uint32_t j, dcsim_error *err) {
  if ((size_t)j + 1 >= e->s->n_jobs) return dcsim_evq_pop(e->q, NULL) < 0 ? DCSIM_ENOMEM : 0;
  return dcsim_evq_replace_top(e->q, e->s->jobs[j + 1].submit_ns, EV_ARRIVE, EV_ARRIVE, j + 1, 0,
                               err);
}

/* Handles the event at the head of the queue, peeked into *ev, and takes it off the queue. */
static int step(dcsim_engine_t *e, const dcsim_event *ev, dcsim_error *err) {
  if (ev->kind == EV_TASK_START || ev->kind == EV_TASK_END) return task_step(e, ev, err);
  int rc = ev->kind == EV_ARRIVE           ? next_arrival(e, ev->target, err)
           : dcsim_evq_pop(e->q, NULL) < 0 ? DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory")
                                           : 0;
  if (rc) return rc;
  switch (ev->kind) {
    case EV_ARRIVE: rc = enqueue(e, ev->target, err); return rc ? rc : schedule(e, err);
    case EV_JOB_END:
      rc = end_job(e, ev->target, (uint32_t)ev->payload, err);
      return rc ? rc : schedule(e, err);
    case EV_NODE: return node_event(e, ev->target, err);
    case EV_IDLE: return idle_timeout(e, ev->target, (uint32_t)ev->payload, err);
    default: return DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0, "unknown event kind %u", ev->kind);
  }
}

/* Before the first event: the jobs' estimates, the first arrival, the nodes' idle timers. */
static int run_init(dcsim_engine_t *e, dcsim_error *err) {
  const dcsim_scenario *s = e->s;
  for (size_t j = 0; j < s->n_jobs; j++) {
    const dcsim_wf_plan *p = &s->wfs[s->jobs[j].wf].plan;
    e->jobs[j].submit_ns = s->jobs[j].submit_ns;
    e->jobs[j].estimate_ns = s->jobs[j].estimate_ns > 0 ? s->jobs[j].estimate_ns
                                                        : scaled(e, (uint32_t)j, p->makespan_ns);
  }
  int rc = 0;
  if (s->n_jobs)
    rc = dcsim_evq_push(e->q, s->jobs[0].submit_ns, EV_ARRIVE, EV_ARRIVE, 0, 0, NULL, err);
  for (unsigned id = 0; id < s->platform->n_nodes && !rc; id++) rc = arm_idle_timer(e, id, err);
  return rc;
}

/* ---- the size of a run ---- */

/* Bytes the scenario holds for workflow w beyond its templates: its expanded tasks with their
 * dependencies (dcsim/workflow.h) and its plan (per task: start, option, node range, GPU slot,
 * two events; the node lists). */
static uint64_t wf_bytes(const dcsim_wf_rt *w) {
  const dcsim_workflow *wf = w->wf;
  uint64_t n = wf->n_tasks, deps = wf->dep_start ? wf->dep_start[n + wf->n_barriers] : 0;
  uint64_t nodes = w->plan.node_start ? w->plan.node_start[n] : 0;
  return n * (sizeof(dcsim_task_inst) + sizeof(uint32_t) + sizeof(int64_t) + 1 + sizeof(uint32_t) +
              1 + 2 * (sizeof(int64_t) + sizeof(uint32_t))) +
         (deps + nodes) * sizeof(uint32_t);
}

/* Peak bytes of the engine's records for n_nodes nodes and n_jobs jobs, of which at most `running`
 * at once, whose allocations total alloc_slots node numbers. */
static uint64_t engine_bytes(const dcsim_engine_opts *o, uint64_t n_nodes, uint64_t n_jobs,
                             uint64_t running, uint64_t alloc_slots) {
  uint64_t per_node = sizeof(node_rt) + 2 * sizeof(double);
  if (o->power_off) per_node += sizeof(node_pm) + sizeof(double) + sizeof(uint32_t);
  uint64_t events = 2 * running + 1 + (o->power_off ? 2 * n_nodes : 0);
  uint64_t b = n_nodes * per_node + n_nodes / 4 + n_jobs * sizeof(dcsim_job_stats);
  b += 2 * n_jobs * sizeof(uint32_t); /* the waiting queue, at most twice the jobs waiting */
  if (o->job_policy == DCSIM_JOB_EASY) b += 2 * running * sizeof(end_key);
  b += events * 24 + 512 * 4096; /* event records; partly filled chunks (evq_mono.c) */
  return b + 2 * alloc_slots * sizeof(uint32_t);
}

uint64_t dcsim_engine_job_bytes(void) {
  /* what dcsim_engine_size() counts per job (a running one: its two events, its waiting-queue
   * entries, its summary); a job's allocation is counted with its nodes */
  return sizeof(dcsim_job) + sizeof(dcsim_job_stats) + 2 * sizeof(uint32_t) + sizeof(double) +
         2 * 24;
}

void dcsim_engine_size(const dcsim_scenario *s, const dcsim_engine_opts *o, dcsim_run_size *out) {
  uint64_t tasks = 0, task_nodes = 0, slots = 0, wf = 0;
  for (size_t j = 0; j < s->n_jobs; j++) {
    const dcsim_wf_rt *w = &s->wfs[s->jobs[j].wf];
    size_t n = w->wf->n_tasks;
    tasks += n;
    task_nodes += w->plan.node_start ? w->plan.node_start[n] : n;
    for (size_t g = 0; g < s->n_groups; g++) slots += w->plan.alloc ? w->plan.alloc[g] : 0;
  }
  for (size_t w = 0; w < s->n_wfs; w++) wf += wf_bytes(&s->wfs[w]);
  uint64_t nodes = s->platform->n_nodes, jobs = s->n_jobs;
  uint64_t running = jobs < nodes ? jobs : nodes;
  if (slots > (uint64_t)s->n_wfs * nodes) slots = (uint64_t)s->n_wfs * nodes; /* blocks reused */
  out->jobs = jobs;
  out->tasks = tasks;
  out->task_nodes = task_nodes;
  out->bytes = jobs * sizeof(dcsim_job) + wf + engine_bytes(o, nodes, jobs, running, slots) +
               jobs * sizeof(double); /* the summary of the jobs (dcsim/metrics.h) */
}

int dcsim_engine_check_size(const dcsim_run_size *sz, const dcsim_run_limits *lim,
                            dcsim_error *err) {
  dcsim_num_text need, most;
  dcsim_human_bytes(sz->bytes, need.s, sizeof need.s);
  dcsim_human_bytes(lim->max_bytes, most.s, sizeof most.s);
#define RUN_SIZE "the run would simulate %llu tasks of %llu jobs and need about %s of memory"
  if (lim->max_tasks && sz->tasks > lim->max_tasks)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, RUN_SIZE "; the limit is %llu tasks",
                     (unsigned long long)sz->tasks, (unsigned long long)sz->jobs, need.s,
                     (unsigned long long)lim->max_tasks);
  if (lim->max_bytes && sz->bytes > lim->max_bytes)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, RUN_SIZE "; the limit is %s of memory",
                     (unsigned long long)sz->tasks, (unsigned long long)sz->jobs, need.s, most.s);
#undef RUN_SIZE
  return 0;
}

/* Tells the progress callback where the run is. */
static void report_progress(dcsim_engine_t *e) {
  dcsim_engine_progress pr = { e->now, e->st.tasks, e->n_ended, e->s->n_jobs, e->st.events };
  e->progress(e->progress_ctx, &pr);
}

/* The event loop: until every job has ended. */
static int run_loop(dcsim_engine_t *e, dcsim_error *err) {
  dcsim_event ev;
  int rc = 0;
  while (!rc && e->n_ended < e->s->n_jobs) {
    int got = dcsim_evq_peek(e->q, &ev);
    if (got <= 0) {
      if (got < 0) rc = DCSIM_ERR(err, got, "", 0, "event queue: out of memory");
      break;
    }
    if ((e->st.events & 1023) == 0) {
      if (e->interrupt && *e->interrupt)
        return DCSIM_ERR(err, DCSIM_EINTR, "", 0,
                         "interrupted at simulated time %.6g s, after %llu events",
                         (double)e->now * 1e-9, (unsigned long long)e->st.events);
      if (e->progress && (e->st.events & (DCSIM_ENGINE_PROGRESS_EVENTS - 1)) == 0)
        report_progress(e);
    }
    e->now = ev.time_ns;
    e->st.events++;
    rc = step(e, &ev, err);
  }
  if (!rc && e->n_ended < e->s->n_jobs)
    rc =
        DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0, "%zu jobs never started", e->s->n_jobs - e->n_ended);
  return rc;
}

/* After the last event: every node's timeline closed at the makespan, the statistics. */
static int run_close(dcsim_engine_t *e, dcsim_error *err) {
  const dcsim_scenario *s = e->s;
  int rc = 0;
  e->now = e->st.makespan_ns;
  for (unsigned id = 0; id < s->platform->n_nodes && !rc; id++) {
    rc = account(e, id, err);
    if (node_state(e, id) == NODE_OFF)
      e->node_off_s[id] += (double)(e->now - e->pm[id].mark_ns) * 1e-9;
  }
  if (!rc) rc = util_advance(e, err);
  if (rc) return rc;
  e->st.energy_j = 0;
  for (size_t g = 0; g < s->n_groups; g++) e->st.energy_j += e->groups[g].energy_j;
  e->st.n_jobs = s->n_jobs;
  e->st.jobs = e->jobs;
  e->st.n_groups = s->n_groups;
  e->st.groups = e->groups;
  e->st.n_nodes = s->platform->n_nodes;
  e->st.node_energy_j = e->node_energy_j;
  e->st.node_busy_s = e->node_busy_s;
  e->st.node_off_s = e->node_off_s;
  e->st.node_boots = e->node_boots;
  e->st.bucket_s = (double)e->bucket_ns * 1e-9;
  e->st.n_buckets =
      e->st.makespan_ns > 0 ? (size_t)((e->st.makespan_ns - 1) / e->bucket_ns) + 1 : 0;
  if (bucket_reserve(e, e->st.n_buckets ? e->st.n_buckets : 1))
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  e->st.bucket_busy_node_s = e->b_busy;
  e->st.bucket_alloc_node_s = e->b_alloc;
  if (e->progress) report_progress(e);
  return 0;
}

int dcsim_engine_run(dcsim_engine_t *e, dcsim_error *err) {
  int rc = run_init(e, err);
  if (!rc) rc = run_loop(e, err);
  if (!rc) rc = run_close(e, err);
  return rc;
}

const dcsim_run_stats *dcsim_engine_stats(const dcsim_engine_t *e) { return &e->st; }

void dcsim_engine_set_interrupt(dcsim_engine_t *e, const volatile sig_atomic_t *flag) {
  e->interrupt = flag;
}

void dcsim_engine_set_progress(dcsim_engine_t *e, dcsim_engine_progress_fn fn, void *ctx) {
  e->progress = fn;
  e->progress_ctx = ctx;
}
