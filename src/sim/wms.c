/* wms.c — the Pegasus/DAGMan/HTCondor workflow management system as a discrete-event simulation
 * of its jobs (see dcsim/wms.h, doc/wms.md). */
#include "dcsim/wms.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/evq.h"
#include "dcsim/strutil.h"

/* Event kinds; the kind is also the priority at equal times: what happens to jobs first, then
 * what DAGMan submitted reaches the schedd, then the negotiator, then DAGMan's cycle. */
enum { EV_PHASE = 0, EV_FLOW = 0, EV_SUBMIT = 1, EV_NEGOTIATE = 2, EV_CYCLE = 3 };
/* payload of an EV_PHASE event: which phase of the job ends */
enum { PH_WRAPPER, PH_RUN, PH_PRE, PH_POST };

enum { LOG_TERMINATED, LOG_POST_DONE }; /* job log records DAGMan reads in its next cycle */

static const int64_t limit_ns = INT64_MAX / 4; /* "longer than 10^9 s": sched.c's bound */

typedef struct job {
  int64_t run_ns;           /* runtime (tasks) or fixed part (auxiliary jobs) */
  double in_byte, out_byte; /* staged before and after the run (auxiliary jobs: out_byte) */
  unsigned files;           /* files it stages (per-file cost file_s, in its wrapper phase) */
  double priority;          /* served highest first with job_priorities (auxiliary jobs: 0) */
  uint32_t group, cores, machine;
  uint32_t waiting; /* parents not yet complete */
  int local;        /* auxiliary job: local universe, no negotiation */
  int64_t start_ns;
  int64_t claim_ns; /* when the negotiator made the claim the job runs on */
} job;

typedef struct flow {
  uint32_t job;
  double left_byte, rate; /* rate in bytes per ns */
  uint32_t res[2];        /* resources it crosses (index into cap), UINT32_MAX = none */
} flow;

typedef struct fifo {
  uint32_t *a;
  size_t head, n, cap;
} fifo;

typedef struct wms_sim {
  const dcsim_wms_params *p;
  const dcsim_wms_dag *d;
  dcsim_wms_result *r;
  size_t n; /* tasks and auxiliary jobs */
  job *jobs;
  uint32_t *succ_start, *succ;
  uint32_t *first_machine; /* per group */
  size_t n_machines;
  uint32_t *free_cores, *matched, *matched_cycle; /* per machine */
  uint32_t *fail_cores, *fail_cycle;              /* per group, in a negotiation cycle */
  size_t n_used_groups;                           /* groups some task runs in */
  dcsim_evq_t *q;
  int64_t now;
  /* DAGMan */
  fifo ready, pre_wait, post_wait, log;
  uint32_t *log_kind; /* parallel to log.a */
  size_t queued, idle, pre_running, post_running, done;
  int64_t last_cycle_ns, busy_until_ns, cycle_ns;
  int cycle_pending, finished;
  /* negotiator */
  uint32_t *idle_jobs;
  size_t n_idle_jobs;
  int negotiation_pending;
  /* transfers */
  flow *flows;
  size_t n_flows, flows_cap;
  double *cap, *rem; /* per resource: capacity (bytes per ns), what is left while filling */
  uint32_t *cnt;
  size_t n_res;
  int64_t flows_at_ns;
  dcsim_evh flow_ev;
  dcsim_error *err;
} wms_sim;

static int64_t ns(double s) { return llround(s * 1e9); }

static int fifo_push(fifo *f, uint32_t v) {
  if (f->head && f->head == f->n) f->head = f->n = 0; /* drained: reuse from the start */
  if (DCSIM_GROW(f->a, f->cap, f->n + 1)) return -1;
  f->a[f->n++] = v;
  return 0;
}

static int push(wms_sim *s, int64_t t, int kind, uint32_t target, uint64_t payload) {
  if (t > limit_ns)
    return DCSIM_ERR(s->err, DCSIM_ERANGE, s->d->name, 0,
                     "the workflow management system runs past 10^9 s");
  return dcsim_evq_push(s->q, t, kind, (uint32_t)kind, target, payload, NULL, s->err);
}

static int oom(wms_sim *s) {
  return DCSIM_ERR(s->err, DCSIM_ENOMEM, s->d->name, 0, "out of memory");
}

/* ---- the graph: tasks, auxiliary jobs and the successors of every job ---- */

typedef struct edge {
  uint32_t from, to;
} edge;

/* The auxiliary jobs Pegasus plans around the tasks (dcsim/wms.h), as jobs n_tasks.. and edges. */
static size_t aux_jobs(wms_sim *s, edge *e, size_t ne, size_t *n_out) {
  const dcsim_wms_dag *d = s->d;
  size_t nt = d->n_tasks, n = nt;
  int reads = 0;
  for (size_t i = 0; i < nt; i++) reads |= d->tasks[i].reads_inputs;
  uint32_t create = (uint32_t)n++, in = reads ? (uint32_t)n++ : UINT32_MAX;
  uint32_t out = d->stage_out_byte > 0 ? (uint32_t)n++ : UINT32_MAX;
  uint32_t reg = out != UINT32_MAX ? (uint32_t)n++ : UINT32_MAX, clean = (uint32_t)n++;
  for (size_t i = 0; i < nt; i++) {
    int root = d->dep_start[i] == d->dep_start[i + 1], leaf = s->succ_start[i] == 0;
    if (root) e[ne++] = (edge){ create, (uint32_t)i };
    if (d->tasks[i].reads_inputs) e[ne++] = (edge){ in, (uint32_t)i };
    if (leaf) e[ne++] = (edge){ (uint32_t)i, out != UINT32_MAX ? out : clean };
  }
  if (in != UINT32_MAX) e[ne++] = (edge){ create, in };
  if (out != UINT32_MAX) {
    e[ne++] = (edge){ out, reg };
    e[ne++] = (edge){ out, clean };
  }
  for (size_t j = nt; j < n; j++)
    s->jobs[j] = (job){ .run_ns = ns(s->p->v[DCSIM_WMS_AUX_JOB_S]), .local = 1, .priority = 1000 };
  if (in != UINT32_MAX) s->jobs[in].out_byte = d->stage_in_byte;
  if (out != UINT32_MAX) s->jobs[out].out_byte = d->stage_out_byte;
  *n_out = n;
  return ne;
}

/* Jobs and successor lists (CSR) of tasks and auxiliary jobs. */
static int build_graph(wms_sim *s) {
  const dcsim_wms_dag *d = s->d;
  size_t nt = d->n_tasks, n_deps = d->dep_start[nt], ne = 0;
  edge *e = malloc((n_deps + 3 * nt + 8) * sizeof *e);
  s->jobs = calloc(nt + 5, sizeof *s->jobs);
  s->succ_start = calloc(nt + 6, sizeof *s->succ_start);
  if (!e || !s->jobs || !s->succ_start) {
    free(e);
    return oom(s);
  }
  for (size_t i = 0; i < nt; i++)
    for (uint32_t k = d->dep_start[i]; k < d->dep_start[i + 1]; k++) {
      e[ne++] = (edge){ d->deps[k], (uint32_t)i };
      s->succ_start[d->deps[k]] = 1; /* marks a task with successors, for aux_jobs() */
    }
  ne = aux_jobs(s, e, ne, &s->n);
  memset(s->succ_start, 0, (s->n + 1) * sizeof *s->succ_start);
  for (size_t k = 0; k < ne; k++) {
    s->succ_start[e[k].from + 1]++;
    s->jobs[e[k].to].waiting++;
  }
  for (size_t i = 0; i < s->n; i++) s->succ_start[i + 1] += s->succ_start[i];
  uint32_t *fill = calloc(s->n, sizeof *fill);
  s->succ = malloc((ne ? ne : 1) * sizeof *s->succ);
  if (fill && s->succ)
    for (size_t k = 0; k < ne; k++) s->succ[s->succ_start[e[k].from] + fill[e[k].from]++] = e[k].to;
  int rc = fill && s->succ ? 0 : oom(s);
  free(fill);
  free(e);
  return rc;
}

/* Tasks as jobs, machines with their cores, transfer resources; checks that every task fits. */
static int build_jobs(wms_sim *s) {
  const dcsim_wms_dag *d = s->d;
  s->first_machine = calloc(d->n_groups + 1, sizeof *s->first_machine);
  if (!s->first_machine) return oom(s);
  for (size_t g = 0; g < d->n_groups; g++)
    s->first_machine[g + 1] = s->first_machine[g] + d->group_nodes[g];
  s->n_machines = s->first_machine[d->n_groups];
  for (size_t i = 0; i < d->n_tasks; i++) {
    const dcsim_wms_task *t = &d->tasks[i];
    if (t->group >= d->n_groups || !d->group_nodes[t->group] || !t->cores ||
        t->cores > d->group_cores[t->group])
      return DCSIM_ERR(s->err, DCSIM_ERANGE, d->name, 0,
                       "task %zu needs %u cores on one machine of its group, which has none that "
                       "large (the WMS model runs each task on one machine)",
                       i, t->cores);
    uint32_t waiting = s->jobs[i].waiting;
    s->jobs[i] =
        (job){ .run_ns = t->run_ns, .group = t->group, .cores = t->cores, .waiting = waiting };
    if (s->p->data != DCSIM_WMS_SHAREDFS) {
      s->jobs[i].in_byte = t->in_byte;
      s->jobs[i].out_byte = t->out_byte;
      s->jobs[i].files = t->in_files + t->out_files;
    }
    s->jobs[i].priority = t->priority;
  }
  s->fail_cores = calloc(d->n_groups + 1, sizeof *s->fail_cores);
  s->fail_cycle = calloc(d->n_groups + 1, sizeof *s->fail_cycle);
  if (!s->fail_cores || !s->fail_cycle) return oom(s);
  for (size_t i = 0; i < d->n_tasks; i++)
    if (!s->fail_cores[d->tasks[i].group]++) s->n_used_groups++; /* reset by the first cycle */
  memset(s->fail_cores, 0, (d->n_groups + 1) * sizeof *s->fail_cores);
  s->n_res = s->n_machines + 2; /* every NIC, the staging site, the input link */
  s->free_cores = calloc(s->n_machines + 1, sizeof *s->free_cores);
  s->matched = calloc(s->n_machines + 1, sizeof *s->matched);
  s->matched_cycle = calloc(s->n_machines + 1, sizeof *s->matched_cycle);
  s->cap = calloc(s->n_res, sizeof *s->cap);
  s->rem = calloc(s->n_res, sizeof *s->rem);
  s->cnt = calloc(s->n_res, sizeof *s->cnt);
  s->idle_jobs = calloc(s->n + 1, sizeof *s->idle_jobs);
  s->log_kind = calloc(2 * s->n + 1, sizeof *s->log_kind);
  if (!s->free_cores || !s->matched || !s->matched_cycle || !s->cap || !s->rem || !s->cnt ||
      !s->idle_jobs || !s->log_kind)
    return oom(s);
  for (size_t g = 0; g < d->n_groups; g++)
    for (uint32_t m = s->first_machine[g]; m < s->first_machine[g + 1]; m++)
      s->free_cores[m] = d->group_cores[g];
  for (size_t m = 0; m < s->n_machines; m++) s->cap[m] = s->p->v[DCSIM_WMS_WORKER_NIC_BPS] * 1e-9;
  s->cap[s->n_machines] = s->p->v[DCSIM_WMS_STAGING_BPS] * 1e-9;
  s->cap[s->n_machines + 1] = s->p->v[DCSIM_WMS_INPUT_BPS] * 1e-9;
  return 0;
}

/* ---- transfers: max-min fair shares of the NICs, the staging site and the input link ---- */

static void flows_advance(wms_sim *s) {
  double dt = (double)(s->now - s->flows_at_ns);
  for (size_t i = 0; i < s->n_flows && dt > 0; i++) s->flows[i].left_byte -= s->flows[i].rate * dt;
  s->flows_at_ns = s->now;
}

/* Progressive filling: the resource with the smallest fair share fixes the rate of its flows. */
static void flows_fill(wms_sim *s) {
  for (size_t r = 0; r < s->n_res; r++) {
    s->rem[r] = s->cap[r];
    s->cnt[r] = 0;
  }
  for (size_t i = 0; i < s->n_flows; i++) {
    s->flows[i].rate = -1; /* not fixed yet */
    for (int k = 0; k < 2; k++)
      if (s->flows[i].res[k] != UINT32_MAX) s->cnt[s->flows[i].res[k]]++;
  }
  for (;;) {
    size_t best = SIZE_MAX;
    double share = 0;
    for (size_t r = 0; r < s->n_res; r++)
      if (s->cnt[r] && (best == SIZE_MAX || s->rem[r] / s->cnt[r] < share)) {
        best = r;
        share = s->rem[r] / s->cnt[r];
      }
    if (best == SIZE_MAX) break;
    if (share < 1e-9 * s->cap[best]) share = 1e-9 * s->cap[best]; /* rounding: never stall */
    for (size_t i = 0; i < s->n_flows; i++) {
      flow *f = &s->flows[i];
      if (f->rate >= 0 || (f->res[0] != best && f->res[1] != best)) continue;
      f->rate = share;
      for (int k = 0; k < 2; k++)
        if (f->res[k] != UINT32_MAX) {
          s->rem[f->res[k]] -= share;
          s->cnt[f->res[k]]--;
        }
    }
  }
}

/* Rates after a change of the flows in flight, and the event of the next completion. */
static int flows_replan(wms_sim *s) {
  flows_fill(s);
  int64_t next = -1;
  for (size_t i = 0; i < s->n_flows; i++) {
    const flow *f = &s->flows[i];
    /* to the nearest ns (at least 1 while more than a ns of it is left): what is left then is
     * within half a ns of transfer, which flows_complete() counts as done */
    double t = f->left_byte > f->rate ? fmax(1, round(f->left_byte / f->rate)) : 0;
    int64_t at = t > (double)limit_ns ? limit_ns + 1 : s->now + (int64_t)t;
    if (next < 0 || at < next) next = at;
  }
  int rc = 0;
  if (s->flow_ev != DCSIM_EVH_NONE) rc = dcsim_evq_cancel(s->q, s->flow_ev, s->err);
  s->flow_ev = DCSIM_EVH_NONE;
  if (!rc && next >= 0) {
    if (next > limit_ns) return push(s, next, EV_FLOW, 0, 0); /* reports the overrun */
    rc = dcsim_evq_push(s->q, next, EV_FLOW, EV_FLOW, UINT32_MAX, 0, &s->flow_ev, s->err);
  }
  return rc;
}

static int phase_done(wms_sim *s, uint32_t j, int phase);

/* Job j moves byte bytes (its inputs: before its run; else after); continues when they arrived. */
static int flow_start(wms_sim *s, uint32_t j, double byte, int inputs) {
  job *jb = &s->jobs[j];
  uint32_t res[2] = { UINT32_MAX, UINT32_MAX };
  if (jb->local) {
    if (s->cap[s->n_machines + 1] > 0) res[0] = (uint32_t)s->n_machines + 1;
  } else {
    if (s->cap[jb->machine] > 0) res[0] = jb->machine;
    if (s->cap[s->n_machines] > 0) res[1] = (uint32_t)s->n_machines;
  }
  s->r->staged_byte += byte;
  if (!(byte > 0) || (res[0] == UINT32_MAX && res[1] == UINT32_MAX)) /* instantaneous */
    return phase_done(s, j, inputs ? PH_WRAPPER + 100 : PH_RUN + 100);
  if (DCSIM_GROW(s->flows, s->flows_cap, s->n_flows + 1)) return oom(s);
  flows_advance(s);
  s->flows[s->n_flows++] = (flow){ j, byte, 0, { res[0], res[1] } };
  return flows_replan(s);
}

/* EV_FLOW: the transfers that complete now continue their jobs. */
static int flows_complete(wms_sim *s) {
  int rc = 0;
  s->flow_ev = DCSIM_EVH_NONE;
  flows_advance(s);
  size_t k = 0, n_done = 0;
  uint32_t done[64];
  for (size_t i = 0; i < s->n_flows; i++) {
    flow *f = &s->flows[i];
    if (f->left_byte <= f->rate && n_done < 64) /* less than a nanosecond of it left */
      done[n_done++] = f->job;
    else
      s->flows[k++] = *f;
  }
  s->n_flows = k;
  if ((rc = flows_replan(s))) return rc;
  for (size_t i = 0; i < n_done && !rc; i++) {
    const job *jb = &s->jobs[done[i]];
    int inputs = !jb->local && jb->start_ns < 0;
    rc = phase_done(s, done[i], inputs ? PH_WRAPPER + 100 : PH_RUN + 100);
  }
  return rc;
}

/* ---- DAGMan ---- */

/* DAGMan wakes at its next cycle if it sleeps: cycles are dagman_cycle_s apart from its start. */
static int wake_dagman(wms_sim *s) {
  if (s->cycle_pending || s->finished) return 0;
  int64_t t = s->last_cycle_ns + s->cycle_ns;
  if (t < s->now) t += (s->now - t + s->cycle_ns - 1) / s->cycle_ns * s->cycle_ns;
  if (t < s->busy_until_ns) t = s->busy_until_ns;
  s->cycle_pending = 1;
  return push(s, t, EV_CYCLE, 0, 0);
}

/* Node j may be submitted: after its PRE script if there is one. */
static int make_ready(wms_sim *s, uint32_t j) {
  const double *v = s->p->v;
  if (v[DCSIM_WMS_PRE_SCRIPT_S] > 0) {
    if (v[DCSIM_WMS_MAX_PRE] > 0 && s->pre_running >= v[DCSIM_WMS_MAX_PRE])
      return fifo_push(&s->pre_wait, j) ? oom(s) : 0;
    s->pre_running++;
    return push(s, s->now + ns(v[DCSIM_WMS_PRE_SCRIPT_S]), EV_PHASE, j, PH_PRE);
  }
  if (fifo_push(&s->ready, j)) return oom(s);
  return wake_dagman(s);
}

static int start_post(wms_sim *s, uint32_t j) {
  const double *v = s->p->v;
  if (v[DCSIM_WMS_MAX_POST] > 0 && s->post_running >= v[DCSIM_WMS_MAX_POST])
    return fifo_push(&s->post_wait, j) ? oom(s) : 0;
  s->post_running++;
  return push(s, s->now + ns(v[DCSIM_WMS_POST_SCRIPT_S]), EV_PHASE, j, PH_POST);
}

static int write_log(wms_sim *s, uint32_t j, uint32_t kind) {
  if (fifo_push(&s->log, j)) return oom(s);
  s->log_kind[s->log.n - 1] = kind;
  return wake_dagman(s);
}

/* A node is complete: its children whose parents are all complete become ready. */
static int complete(wms_sim *s, uint32_t j) {
  int rc = 0;
  s->done++;
  for (uint32_t k = s->succ_start[j]; k < s->succ_start[j + 1] && !rc; k++)
    if (--s->jobs[s->succ[k]].waiting == 0) rc = make_ready(s, s->succ[k]);
  return rc;
}

/* The first part of a cycle: submissions, each taking submit_s of DAGMan's time. */
static int submit_ready(wms_sim *s) {
  const double *v = s->p->v;
  int64_t t = s->now;
  int rc = 0;
  for (unsigned k = 0; s->ready.head < s->ready.n && !rc; k++) {
    if ((v[DCSIM_WMS_MAX_SUBMITS_PER_CYCLE] > 0 && k >= v[DCSIM_WMS_MAX_SUBMITS_PER_CYCLE]) ||
        (v[DCSIM_WMS_MAX_JOBS] > 0 && s->queued >= v[DCSIM_WMS_MAX_JOBS]) ||
        (v[DCSIM_WMS_MAX_IDLE] > 0 && s->idle >= v[DCSIM_WMS_MAX_IDLE]))
      break;
    if (v[DCSIM_WMS_JOB_PRIORITIES] > 0) { /* DagPriorityQ: the highest priority first */
      size_t best = s->ready.head;
      for (size_t i = s->ready.head + 1; i < s->ready.n; i++)
        if (s->jobs[s->ready.a[i]].priority > s->jobs[s->ready.a[best]].priority) best = i;
      uint32_t b = s->ready.a[best];
      memmove(&s->ready.a[s->ready.head + 1], &s->ready.a[s->ready.head],
              (best - s->ready.head) * sizeof *s->ready.a);
      s->ready.a[s->ready.head] = b;
    }
    uint32_t j = s->ready.a[s->ready.head++];
    t += ns(v[DCSIM_WMS_SUBMIT_S]);
    s->queued++;
    if (!s->jobs[j].local) s->idle++;
    rc = push(s, t, EV_SUBMIT, j, 0);
  }
  s->busy_until_ns = t;
  return rc;
}

/* The second part: the job log since the last cycle. */
static int read_log(wms_sim *s) {
  int rc = 0;
  while (s->log.head < s->log.n && !rc) {
    size_t i = s->log.head++;
    uint32_t j = s->log.a[i];
    if (s->log_kind[i] == LOG_TERMINATED) {
      s->queued--;
      rc = s->p->v[DCSIM_WMS_POST_SCRIPT_S] > 0 ? start_post(s, j) : complete(s, j);
    } else {
      rc = complete(s, j);
    }
  }
  if (s->log.head == s->log.n) s->log.head = s->log.n = 0;
  return rc;
}

static int dagman_cycle(wms_sim *s) {
  int rc;
  s->cycle_pending = 0;
  s->last_cycle_ns = s->now;
  s->r->dagman_cycles++;
  if ((rc = submit_ready(s)) || (rc = read_log(s))) return rc;
  if (s->done == s->n) {
    s->finished = 1;
    s->r->end_ns = s->now;
    return 0;
  }
  /* more to submit: the next cycle, after the submissions (reading the log may have asked) */
  return s->ready.head < s->ready.n ? wake_dagman(s) : 0;
}

/* ---- HTCondor: the schedd's queue, the negotiator, the job on its machine ---- */

static int want_negotiation(wms_sim *s) {
  if (s->negotiation_pending || !s->n_idle_jobs) return 0;
  int64_t c = ns(s->p->v[DCSIM_WMS_NEGOTIATOR_CYCLE_S]);
  s->negotiation_pending = 1;
  return push(s, (s->now + c - 1) / c * c, EV_NEGOTIATE, 0, 0);
}

static int start_on(wms_sim *s, uint32_t j, uint32_t m, int64_t claim_ns);

/* The machine of j's group that takes it in this cycle, or UINT32_MAX. */
static uint32_t find_machine(wms_sim *s, const job *jb, uint32_t cycle) {
  double mpm = s->p->v[DCSIM_WMS_MATCHES_PER_MACHINE];
  for (uint32_t m = s->first_machine[jb->group]; m < s->first_machine[jb->group + 1]; m++) {
    if (s->matched_cycle[m] != cycle) {
      s->matched_cycle[m] = cycle;
      s->matched[m] = 0;
    }
    if (s->free_cores[m] >= jb->cores && (mpm <= 0 || s->matched[m] < mpm)) return m;
  }
  return UINT32_MAX;
}

/* Whether job jb cannot be matched in this cycle: a job of its group needing no more cores has
 * already found no machine. A failure is recorded per group; *exhausted counts the groups where
 * even a one-core job failed. */
static int group_full(wms_sim *s, const job *jb, uint32_t cycle) {
  uint32_t g = jb->group;
  return s->fail_cycle[g] == cycle && jb->cores >= s->fail_cores[g];
}

static void group_failed(wms_sim *s, const job *jb, uint32_t cycle, size_t *exhausted) {
  uint32_t g = jb->group;
  if (s->fail_cycle[g] != cycle || jb->cores < s->fail_cores[g]) {
    s->fail_cycle[g] = cycle;
    s->fail_cores[g] = jb->cores;
    if (jb->cores == 1) ++*exhausted;
  }
}

/* A negotiation cycle: the idle jobs in submission order, each to the first machine that takes
 * it; stops early when no group can take any job. */
static int negotiate(wms_sim *s) {
  int rc = 0;
  uint32_t cycle = (uint32_t)++s->r->negotiation_cycles;
  size_t k = 0, i = 0, exhausted = 0;
  s->negotiation_pending = 0;
  if (s->p->v[DCSIM_WMS_JOB_PRIORITIES] > 0) /* the schedd's order: priority, then submission */
    for (size_t a = 1; a < s->n_idle_jobs; a++) {
      uint32_t x = s->idle_jobs[a];
      size_t b = a;
      for (; b > 0 && s->jobs[s->idle_jobs[b - 1]].priority < s->jobs[x].priority; b--)
        s->idle_jobs[b] = s->idle_jobs[b - 1];
      s->idle_jobs[b] = x;
    }
  for (; i < s->n_idle_jobs && exhausted < s->n_used_groups && !rc; i++) {
    uint32_t j = s->idle_jobs[i];
    job *jb = &s->jobs[j];
    uint32_t m = group_full(s, jb, cycle) ? UINT32_MAX : find_machine(s, jb, cycle);
    if (m == UINT32_MAX) {
      group_failed(s, jb, cycle, &exhausted);
      s->idle_jobs[k++] = j;
      continue;
    }
    s->matched[m]++;
    rc = start_on(s, j, m, s->now);
  }
  for (; i < s->n_idle_jobs; i++) s->idle_jobs[k++] = s->idle_jobs[i]; /* the rest wait */
  s->n_idle_jobs = k;
  if (!rc && k) {
    s->negotiation_pending = 1;
    rc = push(s, s->now + ns(s->p->v[DCSIM_WMS_NEGOTIATOR_CYCLE_S]), EV_NEGOTIATE, 0, 0);
  }
  return rc;
}

static int submitted(wms_sim *s, uint32_t j) {
  job *jb = &s->jobs[j];
  if (jb->local) { /* the local universe starts it at once */
    jb->start_ns = s->now;
    return push(s, s->now + jb->run_ns, EV_PHASE, j, PH_RUN);
  }
  jb->start_ns = s->now; /* its submission, until it runs */
  s->idle_jobs[s->n_idle_jobs++] = j;
  return want_negotiation(s);
}

/* A job matched to machine m (by the negotiator, or on a reused claim made at claim_ns): its
 * wrapper starts. */
static int start_on(wms_sim *s, uint32_t j, uint32_t m, int64_t claim_ns) {
  if (s->d->stop && s->d->stop(s->d->stop_ctx))
    return DCSIM_ERR(s->err, DCSIM_EINTR, s->d->name, 0, "planning stopped on request");
  job *jb = &s->jobs[j];
  jb->claim_ns = claim_ns;
  s->free_cores[m] -= jb->cores;
  jb->machine = m;
  s->idle--;
  s->r->idle_s += (double)(s->now - jb->start_ns) * 1e-9; /* start_ns holds its submission */
  jb->start_ns = -1;                                      /* not running yet */
  /* the wrapper, and the fixed cost of every file it stages (pegasus-transfer per file) */
  double wrap_s = s->p->v[DCSIM_WMS_JOB_WRAPPER_S] + jb->files * s->p->v[DCSIM_WMS_FILE_S];
  return push(s, s->now + ns(wrap_s), EV_PHASE, j, PH_WRAPPER);
}

/* Claim reuse: the schedd keeps the claim of a job that ends and starts on it, without a
 * negotiation cycle, the first idle job (in submission order) of the same group that fits the
 * claimed cores, while the claim is younger than claim_worklife_s (HTCondor at 7491a145f6:
 * schedd.cpp:9717 FindRunnableJob for a claim whose job left; the startd refuses further jobs on
 * a claim older than CLAIM_WORKLIFE, Resource.cpp:2214, default 1200 s, param_info.in:4531). */
static int reuse_claim(wms_sim *s, const job *done) {
  if (s->now - done->claim_ns >= ns(s->p->v[DCSIM_WMS_CLAIM_WORKLIFE_S])) return 0;
  size_t pick = SIZE_MAX;
  for (size_t i = 0; i < s->n_idle_jobs; i++) {
    uint32_t j = s->idle_jobs[i];
    if (s->jobs[j].group != done->group || s->jobs[j].cores > done->cores) continue;
    if (pick == SIZE_MAX || (s->p->v[DCSIM_WMS_JOB_PRIORITIES] > 0 &&
                             s->jobs[j].priority > s->jobs[s->idle_jobs[pick]].priority))
      pick = i;
    if (s->p->v[DCSIM_WMS_JOB_PRIORITIES] <= 0) break;
  }
  if (pick != SIZE_MAX) {
    size_t i = pick;
    uint32_t j = s->idle_jobs[i];
    memmove(&s->idle_jobs[i], &s->idle_jobs[i + 1],
            (s->n_idle_jobs - i - 1) * sizeof *s->idle_jobs);
    s->n_idle_jobs--;
    return start_on(s, j, done->machine, done->claim_ns);
  }
  return 0;
}

static int terminate(wms_sim *s, uint32_t j) {
  job *jb = &s->jobs[j];
  int rc = 0;
  if (!jb->local) {
    s->free_cores[jb->machine] += jb->cores;
    if (s->p->v[DCSIM_WMS_CLAIM_REUSE] > 0) rc = reuse_claim(s, jb);
  }
  return rc ? rc : write_log(s, j, LOG_TERMINATED);
}

/* The end of a phase of job j (phase + 100: the transfer after that phase has completed). */
static int phase_done(wms_sim *s, uint32_t j, int phase) {
  job *jb = &s->jobs[j];
  int rc = 0;
  switch (phase) {
    case PH_WRAPPER: return flow_start(s, j, jb->in_byte, 1);
    case PH_WRAPPER + 100:
      jb->start_ns = s->now;
      return push(s, s->now + jb->run_ns, EV_PHASE, j, PH_RUN);
    case PH_RUN: return flow_start(s, j, jb->out_byte, 0);
    case PH_RUN + 100: return terminate(s, j);
    case PH_PRE:
      s->pre_running--;
      if (s->pre_wait.head < s->pre_wait.n) rc = make_ready(s, s->pre_wait.a[s->pre_wait.head++]);
      if (!rc && fifo_push(&s->ready, j)) rc = oom(s);
      return rc ? rc : wake_dagman(s);
    default: /* PH_POST */
      s->post_running--;
      if (s->post_wait.head < s->post_wait.n)
        rc = start_post(s, s->post_wait.a[s->post_wait.head++]);
      return rc ? rc : write_log(s, j, LOG_POST_DONE);
  }
}

static int dispatch(wms_sim *s, const dcsim_event *ev) {
  switch (ev->kind) {
    case EV_PHASE:
      return ev->target == UINT32_MAX ? flows_complete(s)
                                      : phase_done(s, ev->target, (int)ev->payload);
    case EV_SUBMIT: return submitted(s, ev->target);
    case EV_NEGOTIATE: return negotiate(s);
    default: return dagman_cycle(s);
  }
}

static void sim_release(wms_sim *s) {
  free(s->jobs);
  free(s->succ_start);
  free(s->succ);
  free(s->first_machine);
  free(s->free_cores);
  free(s->matched);
  free(s->matched_cycle);
  free(s->fail_cores);
  free(s->fail_cycle);
  free(s->ready.a);
  free(s->pre_wait.a);
  free(s->post_wait.a);
  free(s->log.a);
  free(s->log_kind);
  free(s->idle_jobs);
  free(s->flows);
  free(s->cap);
  free(s->rem);
  free(s->cnt);
  dcsim_evq_free(s->q);
}

/* Runs the events until DAGMan exits. */
static int run(wms_sim *s) {
  int rc = 0;
  dcsim_event ev;
  s->now = ns(s->p->v[DCSIM_WMS_DAGMAN_START_S]);
  s->last_cycle_ns = s->now - s->cycle_ns;
  for (size_t j = 0; j < s->n && !rc; j++)
    if (!s->jobs[j].waiting) rc = make_ready(s, (uint32_t)j);
  while (!rc && !s->finished && dcsim_evq_pop(s->q, &ev)) {
    s->now = ev.time_ns;
    rc = dispatch(s, &ev);
  }
  if (!rc && !s->finished)
    rc = DCSIM_ERR(s->err, DCSIM_EINTERNAL, s->d->name, 0,
                   "the workflow management system stopped with %zu of %zu jobs complete", s->done,
                   s->n);
  return rc;
}

int dcsim_wms_simulate(const dcsim_wms_params *p, const dcsim_wms_dag *dag, dcsim_wms_result *out,
                       dcsim_error *err) {
  wms_sim s;
  memset(&s, 0, sizeof s);
  memset(out, 0, sizeof *out);
  s.p = p;
  s.d = dag;
  s.r = out;
  s.err = err;
  s.flow_ev = DCSIM_EVH_NONE;
  s.cycle_ns = ns(p->v[DCSIM_WMS_DAGMAN_CYCLE_S]);
  int rc = 0;
  if (s.cycle_ns <= 0 || ns(p->v[DCSIM_WMS_NEGOTIATOR_CYCLE_S]) <= 0)
    rc = DCSIM_ERR(err, DCSIM_ERANGE, dag->name, 0, "WMS cycles must be at least 1 ns");
  size_t n1 = dag->n_tasks ? dag->n_tasks : 1;
  out->start_ns = calloc(n1, sizeof *out->start_ns);
  out->node = calloc(n1, sizeof *out->node);
  if (!rc && (!out->start_ns || !out->node || !(s.q = dcsim_evq_new(64)))) rc = oom(&s);
  if (!rc && !(rc = build_graph(&s)) && !(rc = build_jobs(&s))) rc = run(&s);
  for (size_t i = 0; !rc && i < dag->n_tasks; i++) {
    out->start_ns[i] = s.jobs[i].start_ns;
    out->node[i] = s.jobs[i].machine - s.first_machine[s.jobs[i].group];
  }
  if (!rc) out->aux_jobs = s.n - dag->n_tasks;
  sim_release(&s);
  return rc;
}

void dcsim_wms_result_release(dcsim_wms_result *r) {
  if (!r) return;
  free(r->start_ns);
  free(r->node);
  r->start_ns = NULL;
  r->node = NULL;
}
