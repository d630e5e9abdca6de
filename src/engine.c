/* engine.c — the discrete-event engine (see dcsim/engine.h). */
#include "dcsim/engine.h"

#include <stdlib.h>
#include <string.h>

#include "dcsim/evq.h"

/* event kinds; the priority orders simultaneous events */
enum { EV_TASK_START = 1, EV_TASK_END = 2, EV_JOB_END = 3, EV_ARRIVE = 4 };

typedef struct node_rt {
  double power_w;   /* now */
  int64_t last_ns;  /* time of the last accounting */
  int64_t busy_since;
  int32_t owner;    /* job holding it, -1 if none */
  uint32_t running; /* tasks running on it */
  uint32_t group;
} node_rt;

typedef struct u32heap { uint32_t *a; size_t n, cap; } u32heap;

struct dcsim_engine {
  const dcsim_scenario *s;
  dcsim_engine_opts o;
  dcsim_evq_t *q;
  node_rt *nodes;
  u32heap *free_nodes;   /* per group, smallest node number first */
  uint32_t *n_free;      /* per group */
  uint32_t **job_alloc;  /* per job while running: global node numbers, group after group */
  uint32_t *job_cursor;  /* per running job: next entry of its plan's event list */
  uint32_t *waiting;     /* queue of jobs, in arrival order */
  size_t n_waiting, waiting_head;
  uint32_t *running;     /* running jobs */
  uint32_t *running_pos; /* per job: its index in running while it runs (O(1) removal) */
  size_t n_running;
  uint32_t *scratch_nodes;
  size_t scratch_cap;
  dcsim_job_stats *jobs;
  dcsim_group_stats *groups;
  double *node_energy_j, *node_busy_s;
  dcsim_run_stats st;
  int64_t now;
  const volatile sig_atomic_t *interrupt; /* polled by the loop; NULL = never */
};

static int u32heap_push(u32heap *h, uint32_t v) {
  if (h->n == h->cap) {
    size_t nc = h->cap ? 2 * h->cap : 16;
    uint32_t *na = realloc(h->a, nc * sizeof *na);
    if (!na) return -1;
    h->a = na;
    h->cap = nc;
  }
  size_t i = h->n++;
  h->a[i] = v;
  while (i && h->a[i] < h->a[(i - 1) / 2]) {
    uint32_t t = h->a[i]; h->a[i] = h->a[(i - 1) / 2]; h->a[(i - 1) / 2] = t;
    i = (i - 1) / 2;
  }
  return 0;
}

static uint32_t u32heap_pop(u32heap *h) {
  uint32_t top = h->a[0];
  h->a[0] = h->a[--h->n];
  size_t i = 0;
  for (;;) {
    size_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < h->n && h->a[l] < h->a[m]) m = l;
    if (r < h->n && h->a[r] < h->a[m]) m = r;
    if (m == i) break;
    uint32_t t = h->a[i]; h->a[i] = h->a[m]; h->a[m] = t;
    i = m;
  }
  return top;
}

void dcsim_engine_free(dcsim_engine_t *e) {
  if (!e) return;
  dcsim_evq_free(e->q);
  free(e->nodes);
  if (e->free_nodes)
    for (size_t g = 0; g < e->s->n_groups; g++) free(e->free_nodes[g].a);
  free(e->free_nodes);
  free(e->n_free);
  if (e->job_alloc)
    for (size_t j = 0; j < e->s->n_jobs; j++) free(e->job_alloc[j]);
  free(e->job_alloc);
  free(e->job_cursor);
  free(e->waiting);
  free(e->running);
  free(e->running_pos);
  free(e->scratch_nodes);
  free(e->jobs);
  free(e->groups);
  free(e->node_energy_j);
  free(e->node_busy_s);
  free(e);
}

dcsim_engine_t *dcsim_engine_new(const dcsim_scenario *s, const dcsim_engine_opts *o, dcsim_error *err) {
  dcsim_engine_t *e = calloc(1, sizeof *e);
  if (!e) { DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory"); return NULL; }
  e->s = s;
  e->o = *o;
  unsigned nn = s->platform->n_nodes;
  size_t nj = s->n_jobs ? s->n_jobs : 1, ng = s->n_groups ? s->n_groups : 1;
  e->q = dcsim_evq_new(s->n_jobs + 16);
  /* jobs in lockstep queue their next events in increasing order: sorted runs take them in O(1) */
  if (e->q && dcsim_evq_use_runs(e->q, NULL)) { dcsim_evq_free(e->q); e->q = NULL; }
  e->nodes = calloc(nn ? nn : 1, sizeof *e->nodes);
  e->free_nodes = calloc(ng, sizeof *e->free_nodes);
  e->n_free = calloc(ng, sizeof *e->n_free);
  e->job_alloc = calloc(nj, sizeof *e->job_alloc);
  e->job_cursor = calloc(nj, sizeof *e->job_cursor);
  e->waiting = calloc(nj, sizeof *e->waiting);
  e->running = calloc(nj, sizeof *e->running);
  e->running_pos = calloc(nj, sizeof *e->running_pos);
  e->jobs = calloc(nj, sizeof *e->jobs);
  e->groups = calloc(ng, sizeof *e->groups);
  e->node_energy_j = calloc(nn ? nn : 1, sizeof *e->node_energy_j);
  e->node_busy_s = calloc(nn ? nn : 1, sizeof *e->node_busy_s);
  if (!e->q || !e->nodes || !e->free_nodes || !e->n_free || !e->job_alloc || !e->job_cursor || !e->waiting || !e->running || !e->running_pos ||
      !e->jobs || !e->groups || !e->node_energy_j || !e->node_busy_s) {
    DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory for %u nodes and %zu jobs", nn, s->n_jobs);
    dcsim_engine_free(e);
    return NULL;
  }
  for (size_t g = 0; g < s->n_groups; g++) {
    const dcsim_node_group *ng_ = s->groups[g].g;
    for (unsigned k = 0; k < ng_->count; k++) {
      unsigned id = ng_->first_node + k;
      e->nodes[id] = (node_rt){s->groups[g].idle_w, 0, 0, -1, 0, (uint32_t)g};
      if (u32heap_push(&e->free_nodes[g], id)) {
        DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
        dcsim_engine_free(e);
        return NULL;
      }
    }
    e->n_free[g] = ng_->count;
  }
  return e;
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
  if (e->o.sink && e->o.sink->power) rc = e->o.sink->power(e->o.sink->ctx, id, n->last_ns, e->now, n->power_w, err);
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
  return dcsim_evq_push(e->q, e->jobs[j].start_ns + p->ev_ns[c], kind, (uint32_t)kind, j, code >> 1, NULL, err);
}

static int start_job(dcsim_engine_t *e, uint32_t j, dcsim_error *err) {
  const dcsim_scenario *s = e->s;
  const dcsim_wf_rt *w = &s->wfs[s->jobs[j].wf];
  const dcsim_wf_plan *p = &w->plan;
  /* the clock is int64 nanoseconds: keep every event time below INT64_MAX / 2 (146 years) */
  if (e->now > INT64_MAX / 2 - p->makespan_ns)
    return DCSIM_ERR(err, DCSIM_ERANGE, s->input_path, 0, "job %u of '%s' would end after %.4g s of simulated "
                     "time; the engine's clock ends at %.4g s (146 years)", (unsigned)j, w->wf->name,
                     ((double)e->now + (double)p->makespan_ns) * 1e-9, (double)(INT64_MAX / 2) * 1e-9);
  size_t total = 0;
  for (size_t g = 0; g < s->n_groups; g++) total += p->alloc[g];
  uint32_t *alloc = malloc((total ? total : 1) * sizeof *alloc);
  if (!alloc) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  e->job_alloc[j] = alloc;
  int rc = 0;
  size_t k = 0;
  for (size_t g = 0; g < s->n_groups; g++)
    for (uint32_t i = 0; i < p->alloc[g]; i++) {
      uint32_t id = u32heap_pop(&e->free_nodes[g]); /* lowest free node numbers: deterministic */
      e->n_free[g]--;
      if ((rc = account(e, id, err))) return rc;
      e->nodes[id].owner = (int32_t)j;
      alloc[k++] = id;
    }
  e->running_pos[j] = (uint32_t)e->n_running;
  e->running[e->n_running++] = j;
  e->jobs[j].start_ns = e->now;
  e->jobs[j].end_ns = e->now + p->makespan_ns;
  e->jobs[j].task_energy_j = p->task_energy_j;
  e->jobs[j].tasks = (uint32_t)w->wf->n_tasks;
  /* only the job's next task event is queued: its plan lists the rest in time order */
  e->job_cursor[j] = 0;
  if (!rc && p->n_events) rc = push_next(e, j, err);
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
  if (cnt > e->scratch_cap) {
    uint32_t *ns = realloc(e->scratch_nodes, cnt * sizeof *ns);
    if (!ns) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    e->scratch_nodes = ns;
    e->scratch_cap = cnt;
  }
  for (uint32_t i = 0; i < cnt; i++) e->scratch_nodes[i] = e->job_alloc[j][base + p->node_list[p->node_start[t] + i]];
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
      if (n->running++ == 0) n->busy_since = e->now;
    } else {
      n->power_w -= op->node_delta_w;
      if (--n->running == 0) {
        double b = (double)(e->now - n->busy_since) * 1e-9;
        e->node_busy_s[id] += b;
        e->groups[n->group].busy_node_s += b;
        n->power_w = e->s->groups[n->group].idle_w; /* exact again when the node falls idle */
      }
    }
  }
  if (!rc && !start) {
    e->st.tasks++;
    if (e->o.sink && e->o.sink->task) {
      const dcsim_wf_rt *w = &e->s->wfs[e->s->jobs[j].wf];
      dcsim_task_record r = {j, (uint32_t)t, w, op, e->now - op->duration_ns, e->now, e->scratch_nodes, cnt,
                             op->gpu ? w->plan.gpu_slot[t] : -1};
      rc = e->o.sink->task(e->o.sink->ctx, &r, err);
    }
  }
  return rc;
}

static int end_job(dcsim_engine_t *e, uint32_t j, dcsim_error *err) {
  const dcsim_wf_plan *p = &e->s->wfs[e->s->jobs[j].wf].plan;
  size_t k = 0;
  int rc = 0;
  for (size_t g = 0; g < e->s->n_groups && !rc; g++)
    for (uint32_t i = 0; i < p->alloc[g] && !rc; i++) {
      uint32_t id = e->job_alloc[j][k++];
      if ((rc = account(e, id, err))) break;
      e->nodes[id].owner = -1;
      if (u32heap_push(&e->free_nodes[g], id)) rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
      e->n_free[g]++;
    }
  free(e->job_alloc[j]);
  e->job_alloc[j] = NULL;
  uint32_t last = e->running[--e->n_running]; /* the last running job takes j's place */
  e->running[e->running_pos[j]] = last;
  e->running_pos[last] = e->running_pos[j];
  if (e->now > e->st.makespan_ns) e->st.makespan_ns = e->now;
  return rc;
}

typedef struct end_key { int64_t end_ns; uint32_t job; } end_key;

static int cmp_end(const void *a, const void *b) {
  const end_key *x = a, *y = b;
  if (x->end_ns != y->end_ns) return x->end_ns < y->end_ns ? -1 : 1;
  return (x->job > y->job) - (x->job < y->job);
}

/* Starts what the job policy allows at `now`. */
static int schedule(dcsim_engine_t *e, dcsim_error *err) {
  const dcsim_scenario *s = e->s;
  int rc = 0;
  while (e->waiting_head < e->n_waiting && job_fits(e, e->waiting[e->waiting_head]))
    if ((rc = start_job(e, e->waiting[e->waiting_head++], err))) return rc;
  if (e->o.job_policy != DCSIM_JOB_EASY || e->waiting_head >= e->n_waiting) return 0;
  /* EASY: reservation for the head at the earliest time enough nodes are free ("shadow") */
  uint32_t head = e->waiting[e->waiting_head];
  const dcsim_wf_plan *hp = &s->wfs[s->jobs[head].wf].plan;
  size_t ng = s->n_groups;
  int64_t *avail = calloc(ng, sizeof *avail), *extra = calloc(ng, sizeof *extra);
  end_key *order = malloc((e->n_running ? e->n_running : 1) * sizeof *order);
  if (!avail || !extra || !order) { rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory"); goto out; }
  for (size_t i = 0; i < e->n_running; i++) order[i] = (end_key){e->jobs[e->running[i]].end_ns, e->running[i]};
  qsort(order, e->n_running, sizeof *order, cmp_end);
  for (size_t g = 0; g < ng; g++) avail[g] = e->n_free[g];
  int64_t shadow = -1;
  for (size_t i = 0; i < e->n_running && shadow < 0; i++) {
    const dcsim_wf_plan *rp = &s->wfs[s->jobs[order[i].job].wf].plan;
    for (size_t g = 0; g < ng; g++) avail[g] += rp->alloc[g];
    int ok = 1;
    for (size_t g = 0; g < ng; g++) if (avail[g] < (int64_t)hp->alloc[g]) ok = 0;
    if (ok) shadow = order[i].end_ns;
  }
  if (shadow < 0) goto out; /* cannot happen: every job fits the empty platform */
  for (size_t g = 0; g < ng; g++) extra[g] = avail[g] - hp->alloc[g];
  /* backfill: later jobs that fit now and end before the shadow time or stay off its nodes */
  size_t keep = e->waiting_head + 1;
  for (size_t i = e->waiting_head + 1; i < e->n_waiting; i++) {
    uint32_t j = e->waiting[i];
    const dcsim_wf_plan *jp = &s->wfs[s->jobs[j].wf].plan;
    int start = job_fits(e, j);
    int before = e->now + jp->makespan_ns <= shadow;
    if (start && !before)
      for (size_t g = 0; g < ng; g++) if ((int64_t)jp->alloc[g] > extra[g]) start = 0;
    if (start) {
      if (!before) for (size_t g = 0; g < ng; g++) extra[g] -= jp->alloc[g];
      if ((rc = start_job(e, j, err))) goto out;
    } else {
      e->waiting[keep++] = j;
    }
  }
  e->n_waiting = keep;
out:
  free(avail);
  free(extra);
  free(order);
  return rc;
}

int dcsim_engine_run(dcsim_engine_t *e, dcsim_error *err) {
  const dcsim_scenario *s = e->s;
  int rc = 0;
  for (size_t j = 0; j < s->n_jobs && !rc; j++) {
    e->jobs[j].submit_ns = s->jobs[j].submit_ns;
    rc = dcsim_evq_push(e->q, s->jobs[j].submit_ns, EV_ARRIVE, EV_ARRIVE, (uint32_t)j, 0, NULL, err);
  }
  dcsim_event ev;
  while (!rc && dcsim_evq_peek(e->q, &ev)) {
    if (e->interrupt && (e->st.events & 1023) == 0 && *e->interrupt) {
      rc = DCSIM_ERR(err, DCSIM_EINTR, "", 0, "interrupted at simulated time %.6g s, after %llu events",
                     (double)e->now * 1e-9, (unsigned long long)e->st.events);
      break;
    }
    e->now = ev.time_ns;
    e->st.events++;
    if (ev.kind == EV_TASK_START || ev.kind == EV_TASK_END) {
      /* a task event queues nothing else, so the job's next event can replace it at the top */
      const dcsim_wf_plan *p = &s->wfs[s->jobs[ev.target].wf].plan;
      rc = task_event(e, ev.target, (size_t)ev.payload, ev.kind == EV_TASK_START, err);
      if (rc) break;
      uint32_t c = ++e->job_cursor[ev.target];
      if (c < p->n_events) {
        uint32_t code = p->ev_code[c];
        int kind = (code & 1) ? EV_TASK_END : EV_TASK_START;
        rc = dcsim_evq_replace_top(e->q, e->jobs[ev.target].start_ns + p->ev_ns[c], kind, (uint32_t)kind, ev.target,
                                   code >> 1, err);
      } else {
        dcsim_evq_pop(e->q, NULL);
      }
      continue;
    }
    dcsim_evq_pop(e->q, NULL);
    switch (ev.kind) {
    case EV_ARRIVE:
      e->waiting[e->n_waiting++] = ev.target;
      rc = schedule(e, err);
      break;
    case EV_JOB_END:
      rc = end_job(e, ev.target, err);
      if (!rc) rc = schedule(e, err);
      break;
    default: rc = DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0, "unknown event kind %u", ev.kind);
    }
  }
  if (rc) return rc;
  if (e->waiting_head < e->n_waiting)
    return DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0, "%zu jobs never started", e->n_waiting - e->waiting_head);
  e->now = e->st.makespan_ns; /* close every node's timeline at the makespan */
  for (unsigned id = 0; id < s->platform->n_nodes && !rc; id++) rc = account(e, id, err);
  e->st.energy_j = 0;
  for (size_t g = 0; g < s->n_groups; g++) e->st.energy_j += e->groups[g].energy_j;
  e->st.n_jobs = s->n_jobs;
  e->st.jobs = e->jobs;
  e->st.n_groups = s->n_groups;
  e->st.groups = e->groups;
  e->st.n_nodes = s->platform->n_nodes;
  e->st.node_energy_j = e->node_energy_j;
  e->st.node_busy_s = e->node_busy_s;
  return rc;
}

const dcsim_run_stats *dcsim_engine_stats(const dcsim_engine_t *e) { return &e->st; }

void dcsim_engine_set_interrupt(dcsim_engine_t *e, const volatile sig_atomic_t *flag) { e->interrupt = flag; }
