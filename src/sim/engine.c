/* engine.c — the discrete-event engine (see dcsim/engine.h). */
#include "dcsim/engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/evq.h"
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

/* What the event loop touches for every node of every job: one 64-byte cache line (its energy
 * and busy time are copied to the exported arrays at the end of the run). */
typedef struct node_rt {
  double power_w;  /* now */
  int64_t last_ns; /* time of the last accounting */
  int64_t busy_since;
  double energy_j, busy_s;
  int32_t owner;    /* job holding it, -1 if none */
  uint32_t running; /* tasks running on it */
  uint32_t gen;     /* bumped at each allocation: older idle timers are stale */
  uint16_t group;
  uint8_t state, set;
} __attribute__((aligned(64))) node_rt;

/* Power-management state of a node (allocated only with power management). */
typedef struct node_pm {
  int64_t mark_ns; /* end of a boot or shutdown in progress; since when it is off */
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

struct dcsim_engine {
  const dcsim_scenario *s;
  dcsim_engine_opts o;
  dcsim_evq_t *q;
  node_rt *nodes;
  node_pm *pm;
  nodeset *free_on;     /* per group: free powered-on nodes */
  nodeset *free_off;    /* per group: free nodes that are off or shutting down (power management) */
  uint32_t *n_free;     /* per group, both sets */
  uint32_t **job_alloc; /* per job while running: global node numbers, group after group */
  uint32_t *job_cursor; /* per running job: next entry of its plan's event list */
  double *job_scale;    /* per job: multiplier of its plan's times */
  uint8_t *wf_whole;    /* per workflow: one CPU task on its whole allocation from start to end */
  uint8_t *job_whole;   /* per job: run on that path, without task events (see start_job) */
  uint32_t *waiting;    /* queue of jobs: arrival order (fcfs, easy) or estimate order (sjf) */
  size_t n_waiting, waiting_head;
  uint32_t *running; /* running jobs, in no particular order */
  uint32_t *run_pos; /* per job: its index in running */
  size_t n_running, n_ended;
  end_key *by_end; /* EASY: running jobs by estimated end (start + estimate), then job */
  size_t n_by_end;
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
  if (e->job_alloc)
    for (size_t j = 0; j < e->s->n_jobs; j++) free(e->job_alloc[j]);
  free(e->job_alloc);
  free(e->job_cursor);
  free(e->job_scale);
  free(e->wf_whole);
  free(e->job_whole);
  free(e->waiting);
  free(e->running);
  free(e->run_pos);
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
  double sc = e->job_scale[j];
  return sc == 1.0 ? ns : llround((double)ns * sc);
}

static int pm_group(const dcsim_engine_t *e, uint32_t g) {
  return e->o.power_off && e->s->groups[g].g->has_power_states;
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
  if (o->power_off && !(o->power_off_after_s >= 0 && o->power_off_after_s < 1e10)) {
    DCSIM_ERR(err, DCSIM_EUSAGE, "", 0, "power-off-after must be a finite number of seconds >= 0");
    free(e);
    return NULL;
  }
  if (!(o->bucket_s >= 0 && o->bucket_s < 1e10)) {
    DCSIM_ERR(err, DCSIM_EUSAGE, "", 0,
              "the utilisation bucket must be a finite number of seconds >= 0");
    free(e);
    return NULL;
  }
  e->off_after_ns = llround(o->power_off_after_s * 1e9);
  e->bucket_ns = llround((o->bucket_s > 0 ? o->bucket_s : 3600.0) * 1e9);
  if (e->bucket_ns < 1) e->bucket_ns = 1;
  unsigned nn = s->platform->n_nodes;
  size_t nj = s->n_jobs ? s->n_jobs : 1, ng = s->n_groups ? s->n_groups : 1;
  e->q = dcsim_evq_new_monotone(); /* simulated time never goes back */
  if (posix_memalign((void **)&e->nodes, 64, (nn ? nn : 1) * sizeof *e->nodes))
    e->nodes = NULL;
  else
    memset(e->nodes, 0, (nn ? nn : 1) * sizeof *e->nodes);
  e->pm = calloc(o->power_off && nn ? nn : 1, sizeof *e->pm);
  e->free_on = calloc(ng, sizeof *e->free_on);
  e->free_off = calloc(ng, sizeof *e->free_off);
  e->n_free = calloc(ng, sizeof *e->n_free);
  e->job_alloc = calloc(nj, sizeof *e->job_alloc);
  e->job_cursor = calloc(nj, sizeof *e->job_cursor);
  e->job_scale = calloc(nj, sizeof *e->job_scale);
  e->job_whole = calloc(nj, 1);
  e->wf_whole = calloc(s->n_wfs ? s->n_wfs : 1, 1);
  e->waiting = calloc(nj, sizeof *e->waiting);
  e->running = calloc(nj, sizeof *e->running);
  e->run_pos = calloc(nj, sizeof *e->run_pos);
  e->by_end = calloc(o->job_policy == DCSIM_JOB_EASY ? nj : 1, sizeof *e->by_end);
  e->avail = calloc(ng, sizeof *e->avail);
  e->extra = calloc(ng, sizeof *e->extra);
  e->jobs = calloc(nj, sizeof *e->jobs);
  e->groups = calloc(ng, sizeof *e->groups);
  e->node_energy_j = calloc(nn ? nn : 1, sizeof *e->node_energy_j);
  e->node_busy_s = calloc(nn ? nn : 1, sizeof *e->node_busy_s);
  e->node_off_s = calloc(nn ? nn : 1, sizeof *e->node_off_s);
  e->node_boots = calloc(nn ? nn : 1, sizeof *e->node_boots);
  if (s->n_groups > UINT16_MAX) {
    DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "more than %u node groups", UINT16_MAX);
    dcsim_engine_free(e);
    return NULL;
  }
  if (!e->q || !e->nodes || !e->pm || !e->free_on || !e->free_off || !e->n_free || !e->job_alloc ||
      !e->job_cursor || !e->job_scale || !e->job_whole || !e->wf_whole || !e->waiting ||
      !e->running || !e->run_pos || !e->by_end || !e->avail || !e->extra || !e->jobs ||
      !e->groups || !e->node_energy_j || !e->node_busy_s || !e->node_off_s || !e->node_boots) {
    DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory for %u nodes and %zu jobs", nn, s->n_jobs);
    dcsim_engine_free(e);
    return NULL;
  }
  for (size_t j = 0; j < s->n_jobs; j++)
    e->job_scale[j] = s->jobs[j].time_scale > 0 ? s->jobs[j].time_scale : 1.0;
  for (size_t w = 0; w < s->n_wfs;
       w++) { /* a single task on every node of the allocation for the whole plan */
    const dcsim_wf_rt *wr = &s->wfs[w];
    const dcsim_wf_plan *p = &wr->plan;
    if (wr->wf->n_tasks != 1) continue;
    const dcsim_option *op = &wr->tmpls[wr->wf->tasks[0].tmpl].opts[p->opt[0]];
    uint32_t total = 0;
    for (size_t g = 0; g < s->n_groups; g++) total += p->alloc[g];
    e->wf_whole[w] = !op->gpu && p->start_ns[0] == 0 && op->duration_ns == p->makespan_ns &&
                     p->node_start[1] - p->node_start[0] == total && p->alloc[op->group] == total;
  }
  for (size_t g = 0; g < s->n_groups; g++) {
    const dcsim_node_group *ng_ = s->groups[g].g;
    if (nodeset_init(&e->free_on[g], ng_->count) || nodeset_init(&e->free_off[g], ng_->count)) {
      DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
      dcsim_engine_free(e);
      return NULL;
    }
    for (unsigned k = 0; k < ng_->count; k++) {
      unsigned id = ng_->first_node + k;
      e->nodes[id] = (node_rt){
        .power_w = s->groups[g].idle_w, .owner = -1, .group = (uint16_t)g, .set = SET_ON
      };
      nodeset_add(&e->free_on[g], k);
    }
    e->n_free[g] = ng_->count;
  }
  return e;
}

/* Makes room for n time buckets in every bucket array (zero-filled). */
static int bucket_reserve(dcsim_engine_t *e, size_t n) {
  if (n <= e->bucket_cap) return 0;
  size_t nc = e->bucket_cap ? e->bucket_cap : 16;
  while (nc < n) nc *= 2;
  double **arr[2] = { &e->b_busy, &e->b_alloc };
  for (int k = 0; k < 2; k++) {
    double *na = realloc(*arr[k], nc * sizeof *na);
    if (!na) return -1;
    memset(na + e->bucket_cap, 0, (nc - e->bucket_cap) * sizeof *na);
    *arr[k] = na;
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
  node_rt *n = &e->nodes[id];
  n->energy_j += ej;
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
  n->energy_j += ej;
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

/* Queues the next event of running job j's plan. */
static int push_next(dcsim_engine_t *e, uint32_t j, dcsim_error *err) {
  const dcsim_wf_plan *p = &e->s->wfs[e->s->jobs[j].wf].plan;
  uint32_t c = e->job_cursor[j];
  uint32_t code = p->ev_code[c];
  int kind = (code & 1) ? EV_TASK_END : EV_TASK_START;
  return dcsim_evq_push(e->q, e->jobs[j].start_ns + scaled(e, j, p->ev_ns[c]), kind, (uint32_t)kind,
                        j, code >> 1, NULL, err);
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
    n->state = NODE_BOOT;
    n->power_w = boot_w(g);
    e->pm[id].mark_ns = e->now + llround(g->boot_s * 1e9);
    return dcsim_evq_push(e->q, e->pm[id].mark_ns, EV_NODE, EV_NODE, id, 0, NULL, err);
  }
  charge(e, id, g->boot_j); /* instantaneous boot: its energy at once */
  n->state = NODE_ON;
  n->power_w = e->s->groups[n->group].idle_w;
  e->pm[id].mark_ns = e->now;
  return 0;
}

/* When node id (just allocated) can run tasks; wakes it up if it is off or going off. */
static int wake(dcsim_engine_t *e, uint32_t id, int64_t *ready, dcsim_error *err) {
  node_rt *n = &e->nodes[id];
  const dcsim_node_group *g = e->s->groups[n->group].g;
  int rc = 0;
  switch (n->state) {
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
  if (n->state == NODE_BOOT) {
    n->state = NODE_ON;
    n->power_w = g->idle_w;
  } else if (n->state == NODE_DOWN) {
    if (e->pm[id].wake) return boot(e, id, err);
    n->state = NODE_OFF;
    n->power_w = g->g->off_w;
    e->pm[id].mark_ns = e->now;
  }
  return 0;
}

/* Node id has been idle and unallocated since the timer was set: switch it off. */
static int idle_timeout(dcsim_engine_t *e, uint32_t id, uint32_t gen, dcsim_error *err) {
  node_rt *n = &e->nodes[id];
  if (n->owner >= 0 || n->gen != gen || n->state != NODE_ON || n->set != SET_ON)
    return 0; /* stale */
  const dcsim_node_group *g = e->s->groups[n->group].g;
  int rc = account(e, id, err);
  if (rc) return rc;
  e->st.shutdowns++;
  uint32_t off = id - e->s->groups[n->group].g->first_node;
  nodeset_remove(&e->free_on[n->group], off);
  nodeset_add(&e->free_off[n->group], off);
  n->set = SET_OFF;
  if (g->shutdown_s > 0) {
    n->state = NODE_DOWN;
    n->power_w = shutdown_w(g);
    e->pm[id].mark_ns = e->now + llround(g->shutdown_s * 1e9);
    return dcsim_evq_push(e->q, e->pm[id].mark_ns, EV_NODE, EV_NODE, id, 0, NULL, err);
  }
  charge(e, id, g->shutdown_j);
  n->state = NODE_OFF;
  n->power_w = g->off_w;
  e->pm[id].mark_ns = e->now;
  return 0;
}

static int arm_idle_timer(dcsim_engine_t *e, uint32_t id, dcsim_error *err) {
  if (!e->o.power_off || !pm_group(e, e->nodes[id].group)) return 0;
  return dcsim_evq_push(e->q, e->now + e->off_after_ns, EV_IDLE, EV_IDLE, id, e->nodes[id].gen,
                        NULL, err);
}

/* ---- jobs ---- */

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

static int start_job(dcsim_engine_t *e, uint32_t j, dcsim_error *err) {
  const dcsim_scenario *s = e->s;
  const dcsim_wf_rt *w = &s->wfs[s->jobs[j].wf];
  const dcsim_wf_plan *p = &w->plan;
  /* the clock is int64 nanoseconds: keep every event time below INT64_MAX / 2 (146 years) */
  double end_s = ((double)e->now + (double)p->makespan_ns * e->job_scale[j]) * 1e-9;
  if (!(end_s < (double)(INT64_MAX / 2) * 1e-9))
    return DCSIM_ERR(err, DCSIM_ERANGE, s->input_path, 0,
                     "job %u of '%s' would end after %.4g s of simulated "
                     "time; the engine's clock ends at %.4g s (146 years)",
                     (unsigned)j, w->wf->name, end_s, (double)(INT64_MAX / 2) * 1e-9);
  size_t total = 0;
  for (size_t g = 0; g < s->n_groups; g++) total += p->alloc[g];
  uint32_t *alloc = malloc((total ? total : 1) * sizeof *alloc);
  if (!alloc) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  e->job_alloc[j] = alloc;
  int rc = util_advance(e, err);
  size_t k = 0;
  int64_t ready_all = e->now;
  /* a job whose one task holds all its nodes from start to end (trace jobs) has no task events:
   * the task starts here and ends in end_job; without power management no node boots, so the
   * task's power is set as the nodes are taken */
  const dcsim_option *whole =
      e->wf_whole[s->jobs[j].wf] ? &w->tmpls[w->wf->tasks[0].tmpl].opts[p->opt[0]] : NULL;
  int at_once = whole && !e->o.power_off;
  for (size_t g = 0; g < s->n_groups; g++) { /* the lowest free node numbers: deterministic */
    uint32_t m = p->alloc[g], on = e->free_on[g].count < m ? e->free_on[g].count : m,
             first = s->groups[g].g->first_node;
    nodeset_take(&e->free_on[g], on, first, alloc + k);           /* powered-on nodes first */
    nodeset_take(&e->free_off[g], m - on, first, alloc + k + on); /* then off ones */
    k += m;
    e->n_free[g] -= m;
  }
  for (k = 0; k < total && !rc; k++) {
    uint32_t id = alloc[k];
    if (k + 8 < total)
      __builtin_prefetch(&e->nodes[alloc[k + 8]], 1); /* nodes are far apart in memory */
    if ((rc = account(e, id, err))) break;
    e->nodes[id].owner = (int32_t)j;
    e->nodes[id].set = SET_NONE;
    e->nodes[id].gen++;
    if (at_once) {
      node_rt *n = &e->nodes[id];
      n->power_w += whole->node_delta_w;
      if (n->running++ == 0) {
        n->busy_since = e->now;
        e->n_busy++;
      }
      continue;
    }
    int64_t ready = e->now;
    if (e->nodes[id].state != NODE_ON && (rc = wake(e, id, &ready, err))) break;
    if (ready > ready_all) ready_all = ready;
  }
  if (rc) return rc;
  e->n_alloc += (uint32_t)total;
  e->run_pos[j] = (uint32_t)e->n_running;
  e->running[e->n_running++] = j;
  e->jobs[j].alloc_ns = e->now;
  e->jobs[j].start_ns = ready_all; /* its tasks wait for the boot of its last node */
  e->jobs[j].end_ns = ready_all + scaled(e, j, p->makespan_ns);
  e->jobs[j].task_energy_j = p->task_energy_j * e->job_scale[j];
  e->jobs[j].tasks = (uint32_t)w->wf->n_tasks;
  e->job_cursor[j] = 0;
  if (e->o.job_policy == DCSIM_JOB_EASY) {
    int64_t est = ready_all + e->jobs[j].estimate_ns;
    size_t at = by_end_find(e, est, j);
    memmove(e->by_end + at + 1, e->by_end + at, (e->n_by_end - at) * sizeof *e->by_end);
    e->by_end[at] = (end_key){ est, j };
    e->n_by_end++;
  }
  if (at_once) {
    e->job_whole[j] = 1;
  } else if (whole && ready_all == e->now) { /* power management, but no node had to boot */
    e->job_whole[j] = 1;
    for (size_t i = 0; i < total; i++) {
      node_rt *n = &e->nodes[alloc[i]];
      n->power_w += whole->node_delta_w;
      if (n->running++ == 0) {
        n->busy_since = e->now;
        e->n_busy++;
      }
    }
  } else if (p->n_events) {
    rc = push_next(e, j,
                   err); /* only the job's next task event: its plan lists the rest in time order */
  }
  if (!rc) rc = dcsim_evq_push(e->q, e->jobs[j].end_ns, EV_JOB_END, EV_JOB_END, j, 0, NULL, err);
  return rc;
}

/* The global node numbers of task t of running job j. */
static int task_nodes(dcsim_engine_t *e, uint32_t j, size_t t, const dcsim_option **opt,
                      uint32_t *n_out, dcsim_error *err) {
  const dcsim_scenario *s = e->s;
  const dcsim_wf_rt *w = &s->wfs[s->jobs[j].wf];
  const dcsim_wf_plan *p = &w->plan;
  const dcsim_option *op = &w->tmpls[w->wf->tasks[t].tmpl].opts[p->opt[t]];
  size_t base = 0;
  for (uint32_t g = 0; g < op->group; g++) base += p->alloc[g];
  uint32_t cnt = p->node_start[t + 1] - p->node_start[t];
  if (DCSIM_GROW(e->scratch_nodes, e->scratch_cap, cnt))
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  for (uint32_t i = 0; i < cnt; i++)
    e->scratch_nodes[i] = e->job_alloc[j][base + p->node_list[p->node_start[t] + i]];
  *opt = op;
  *n_out = cnt;
  return 0;
}

static int task_event(dcsim_engine_t *e, uint32_t j, size_t t, int start, dcsim_error *err) {
  const dcsim_option *op = NULL;
  uint32_t cnt = 0;
  int rc = task_nodes(e, j, t, &op, &cnt, err);
  for (uint32_t i = 0; i < cnt && !rc; i++) {
    uint32_t id = e->scratch_nodes[i];
    node_rt *n = &e->nodes[id];
    if ((rc = account(e, id, err))) break;
    if (start) {
      n->power_w += op->node_delta_w;
      if (n->running++ == 0) {
        n->busy_since = e->now;
        if ((rc = util_advance(e, err))) break;
        e->n_busy++;
      }
    } else {
      n->power_w -= op->node_delta_w;
      if (--n->running == 0) {
        double b = (double)(e->now - n->busy_since) * 1e-9;
        e->nodes[id].busy_s += b;
        e->groups[n->group].busy_node_s += b;
        n->power_w = e->s->groups[n->group].idle_w; /* exact again when the node falls idle */
        if ((rc = util_advance(e, err))) break;
        e->n_busy--;
      }
    }
  }
  if (!rc && !start) {
    e->st.tasks++;
    if (e->o.sink && e->o.sink->task) {
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
                              op->energy_j * e->job_scale[j] };
      rc = e->o.sink->task(e->o.sink->ctx, &r, err);
    }
  }
  return rc;
}

static int end_job(dcsim_engine_t *e, uint32_t j, dcsim_error *err) {
  const dcsim_wf_rt *w = &e->s->wfs[e->s->jobs[j].wf];
  const dcsim_wf_plan *p = &w->plan;
  size_t k = 0;
  int rc = util_advance(e, err);
  const dcsim_option *whole =
      e->job_whole[j] ? &w->tmpls[w->wf->tasks[0].tmpl].opts[p->opt[0]] : NULL;
  if (!rc && whole) { /* the end of its one task (see start_job) */
    e->st.tasks++;
    if (e->o.sink && e->o.sink->task) {
      const dcsim_option *o2 = NULL;
      uint32_t tn = 0;
      if (!(rc = task_nodes(e, j, 0, &o2, &tn, err))) {
        dcsim_task_record r = { j,
                                0,
                                w,
                                whole,
                                e->jobs[j].start_ns,
                                e->now,
                                e->scratch_nodes,
                                tn,
                                -1,
                                whole->energy_j * e->job_scale[j] };
        rc = e->o.sink->task(e->o.sink->ctx, &r, err);
      }
    }
  }
  for (size_t g = 0; g < e->s->n_groups && !rc; g++)
    for (uint32_t i = 0; i < p->alloc[g] && !rc; i++) {
      uint32_t id = e->job_alloc[j][k++];
      if ((rc = account(e, id, err))) break;
      if (whole) {
        node_rt *n = &e->nodes[id];
        n->power_w -= whole->node_delta_w;
        if (--n->running == 0) {
          double b = (double)(e->now - n->busy_since) * 1e-9;
          e->nodes[id].busy_s += b;
          e->groups[n->group].busy_node_s += b;
          n->power_w = e->s->groups[n->group].idle_w;
          e->n_busy--;
        }
      }
      e->nodes[id].owner = -1;
      e->nodes[id].set = SET_ON;
      nodeset_add(&e->free_on[g], id - e->s->groups[g].g->first_node);
      e->n_free[g]++;
      e->n_alloc--;
      if (!rc) rc = arm_idle_timer(e, id, err);
    }
  free(e->job_alloc[j]);
  e->job_alloc[j] = NULL;
  if (e->o.job_policy == DCSIM_JOB_EASY) {
    size_t at = by_end_find(e, e->jobs[j].start_ns + e->jobs[j].estimate_ns, j);
    memmove(e->by_end + at, e->by_end + at + 1, (e->n_by_end - at - 1) * sizeof *e->by_end);
    e->n_by_end--;
  }
  uint32_t pos = e->run_pos[j], last = e->running[--e->n_running];
  e->running[pos] = last;
  e->run_pos[last] = pos;
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

/* Queues an arriving job: at the back (fcfs, easy) or by estimate (sjf; ties: submission order,
 * which is the scenario's job order). */
static void enqueue(dcsim_engine_t *e, uint32_t j) {
  if (e->o.job_policy != DCSIM_JOB_SJF) {
    e->waiting[e->n_waiting++] = j;
    return;
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
}

/* A task event of job j (peeked into *ev): its nodes change, and the job's next task event, if
 * any, replaces it at the head of the queue (a task event queues nothing else). */
static int task_step(dcsim_engine_t *e, const dcsim_event *ev, dcsim_error *err) {
  uint32_t j = ev->target;
  const dcsim_wf_plan *p = &e->s->wfs[e->s->jobs[j].wf].plan;
  int rc = task_event(e, j, (size_t)ev->payload, ev->kind == EV_TASK_START, err);
  if (rc) return rc;
  uint32_t c = ++e->job_cursor[j];
  if (c >= p->n_events) return dcsim_evq_pop(e->q, NULL) < 0 ? DCSIM_ENOMEM : 0;
  uint32_t code = p->ev_code[c];
  uint32_t kind = (code & 1) ? EV_TASK_END : EV_TASK_START;
  return dcsim_evq_replace_top(e->q, e->jobs[j].start_ns + scaled(e, j, p->ev_ns[c]), (int32_t)kind,
                               kind, j, code >> 1, err);
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
    case EV_ARRIVE: enqueue(e, ev->target); return schedule(e, err);
    case EV_JOB_END: rc = end_job(e, ev->target, err); return rc ? rc : schedule(e, err);
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

int dcsim_engine_run(dcsim_engine_t *e, dcsim_error *err) {
  const dcsim_scenario *s = e->s;
  int rc = run_init(e, err);
  dcsim_event ev;
  while (!rc && e->n_ended < s->n_jobs) {
    int got = dcsim_evq_peek(e->q, &ev);
    if (got <= 0) {
      if (got < 0) rc = DCSIM_ERR(err, got, "", 0, "event queue: out of memory");
      break;
    }
    if (e->interrupt && (e->st.events & 1023) == 0 && *e->interrupt) {
      rc = DCSIM_ERR(err, DCSIM_EINTR, "", 0,
                     "interrupted at simulated time %.6g s, after %llu events",
                     (double)e->now * 1e-9, (unsigned long long)e->st.events);
      break;
    }
    e->now = ev.time_ns;
    e->st.events++;
    rc = step(e, &ev, err);
  }
  if (rc) return rc;
  if (e->n_ended < s->n_jobs)
    return DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0, "%zu jobs never started", s->n_jobs - e->n_ended);
  e->now = e->st.makespan_ns; /* close every node's timeline at the makespan */
  for (unsigned id = 0; id < s->platform->n_nodes && !rc; id++) {
    rc = account(e, id, err);
    if (e->nodes[id].state == NODE_OFF)
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
  for (unsigned id = 0; id < s->platform->n_nodes; id++) {
    e->node_energy_j[id] = e->nodes[id].energy_j;
    e->node_busy_s[id] = e->nodes[id].busy_s;
  }
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
  return rc;
}

const dcsim_run_stats *dcsim_engine_stats(const dcsim_engine_t *e) { return &e->st; }

void dcsim_engine_set_interrupt(dcsim_engine_t *e, const volatile sig_atomic_t *flag) {
  e->interrupt = flag;
}
