/* workflow.c — workflow and workload inputs: parsing, checking and expanding the task DAG
 * (see dcsim/workflow.h).
 *
 * Expansion works on a tree of `node`s mirroring the items: each node knows the size of one
 * expansion of itself, its offset in its parent's body, the siblings it waits for (explicit
 * after= or the implicit in-step chain) and whether a sibling waits for it. Everything is
 * counted before anything large is allocated; the dependency arrays are then filled by running
 * the same traversal twice (count, fill). */
#include "dcsim/workflow.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/budget.h"
#include "dcsim/platform.h"
#include "dcsim/stats.h"
#include "dcsim/strutil.h"
#include "util/fileio.h"
#include "util/xmlio.h"

typedef struct node {
  const dcsim_wf_item *it;
  uint64_t size; /* task instances in one expansion */
  uint64_t off;  /* offset in one expansion of the parent's body */
  /* counted before anything is expanded (saturating at UINT64_MAX): the source and sink tasks of
   * one expansion (what collect() gathers) and the dependency edges inside one expansion */
  uint64_t n_src, n_sink, edges;
  uint64_t n_bar; /* barrier nodes of one expansion (dcsim/workflow.h) */
  int barrier;    /* a steps block whose steps are joined by a barrier node */
  size_t n_preds;
  size_t *preds; /* sibling indices it waits for */
  int is_sink;   /* no sibling waits for it */
  size_t n_kids;
  struct node *kids;
} node;

typedef struct {
  uint32_t *v;
  size_t n, cap;
} vec;

typedef struct {
  dcsim_workflow *wf;
  dcsim_error *err;
  unsigned char *used;        /* per template: used by a task item */
  int fill;                   /* 0: count dependencies into dep_start, 1: write them */
  uint64_t total;             /* dependencies counted so far */
  int line;                   /* item being linked, for messages */
  const dcsim_budget *budget; /* NULL: the fixed caps only */
  uint64_t n_tasks, next_bar; /* barrier ids: n_tasks + 0, 1, ... in emit order */
  vec pred, src, step;        /* scratch index lists */
} ctx;

static const char *const dev_names[] = { "cpu", "gpu", "any" };

/* ---- small helpers ---- */

static int push(vec *v, uint64_t x) {
  if (DCSIM_GROW(v->v, v->cap, v->n + 1)) return -1;
  v->v[v->n++] = (uint32_t)x;
  return 0;
}

static int item_line(const ctx *c, const dcsim_wf_item *it) {
  if (it->line || it->kind != DCSIM_WF_TASK || it->tmpl >= c->wf->n_templates) return it->line;
  return c->wf->templates[it->tmpl].line;
}

static const char *item_name(const ctx *c, const dcsim_wf_item *it) {
  if (it->kind == DCSIM_WF_TASK) return c->wf->templates[it->tmpl].name;
  return it->name;
}

/* appends "<task name="x">", "<steps name="fc">", "<ensemble>" */
static void describe(const ctx *c, const dcsim_wf_item *it, dcsim_str *out) {
  static const char *const kinds[] = { "task", "steps", "ensemble" };
  const char *name =
      it->kind != DCSIM_WF_TASK || it->tmpl < c->wf->n_templates ? item_name(c, it) : NULL;
  if (name)
    dcsim_str_addf(out, "<%s name=\"%s\">", kinds[it->kind], name);
  else
    dcsim_str_addf(out, "<%s>", kinds[it->kind]);
}

/* An error about an item: "file:line: <steps name="fc">: msg". Returns code. */
static int item_err(const ctx *c, int code, const dcsim_wf_item *it, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int item_err(const ctx *c, int code, const dcsim_wf_item *it, const char *fmt, ...) {
  dcsim_str msg = DCSIM_STR_INIT;
  describe(c, it, &msg);
  dcsim_str_add(&msg, ": ");
  va_list ap;
  va_start(ap, fmt);
  dcsim_str_vaddf(&msg, fmt, ap);
  va_end(ap);
  int rc = msg.oom
               ? DCSIM_ERR(c->err, DCSIM_ENOMEM, c->wf->path, 0, "out of memory")
               : DCSIM_ERR(c->err, code, c->wf->path, item_line(c, it), "%s", dcsim_str_cstr(&msg));
  dcsim_str_release(&msg);
  return rc;
}

typedef struct {
  const char *name;
  size_t idx;
} named;

static int cmp_named(const void *a, const void *b) {
  const named *x = a, *y = b;
  int r = strcmp(x->name, y->name);
  return r ? r : (x->idx > y->idx) - (x->idx < y->idx);
}

/* Sorts names[0..n-1]; on a duplicate stores the indices of both occurrences. */
static int find_dup(named *names, size_t n, size_t *later, size_t *earlier) {
  qsort(names, n, sizeof *names, cmp_named);
  for (size_t i = 1; i < n; i++)
    if (strcmp(names[i - 1].name, names[i].name) == 0) {
      *earlier = names[i - 1].idx;
      *later = names[i].idx;
      return 1;
    }
  return 0;
}

/* ---- templates ---- */

static void template_release(dcsim_task_template *t) {
  free(t->name);
  free(t->dwarf);
  free(t->case_name);
  free(t->group);
  free(t->freq_label);
  for (size_t i = 0; i < t->n_sets; i++) free(t->sets[i].name);
  free(t->sets);
}

static char *dup_or_null(const char *s, int *oom) {
  char *d = dcsim_strdup(s);
  if (s && !d) *oom = 1;
  return d;
}

static int template_copy(dcsim_task_template *d, const dcsim_task_template *s) {
  int oom = 0;
  *d = *s;
  d->sets = NULL;
  d->n_sets = 0;
  d->name = dup_or_null(s->name, &oom);
  d->dwarf = dup_or_null(s->dwarf, &oom);
  d->case_name = dup_or_null(s->case_name, &oom);
  d->group = dup_or_null(s->group, &oom);
  d->freq_label = dup_or_null(s->freq_label, &oom);
  if (s->n_sets && !(d->sets = calloc(s->n_sets, sizeof *d->sets))) return -1;
  for (; d->n_sets < s->n_sets; d->n_sets++) {
    d->sets[d->n_sets].value = s->sets[d->n_sets].value;
    d->sets[d->n_sets].name = dup_or_null(s->sets[d->n_sets].name, &oom);
  }
  return oom ? -1 : 0;
}

static int check_template(const ctx *c, const dcsim_task_template *t) {
  const char *f = c->wf->path, *n = t->name ? t->name : "";
  if (!t->name || !t->name[0] || (t->dwarf && !t->dwarf[0]))
    return DCSIM_ERR(c->err, DCSIM_ESCHEMA, f, t->line,
                     "<task name=\"%s\">: needs a name and a dwarf (or runtime-s)", n);
  if (!(t->runtime_s >= 0) || t->runtime_s > 1e10 || !(t->ref_ghz >= 0) || t->ref_ghz > 1e4 ||
      !(t->delay_s >= 0) || t->delay_s > 1e10 || !(t->input_byte >= 0) || t->input_byte > 1e18 ||
      !(t->output_byte >= 0) || t->output_byte > 1e18)
    return DCSIM_ERR(c->err, DCSIM_ERANGE, f, t->line,
                     "<task name=\"%s\">: runtime-s, ref-ghz, delay-s, input-byte and "
                     "output-byte must be finite and >= 0",
                     n);
  if (t->dwarf && (t->runtime_s > 0 || t->ref_ghz > 0))
    return DCSIM_ERR(c->err, DCSIM_ESCHEMA, f, t->line,
                     "<task name=\"%s\">: give either dwarf= (a modelled call) or runtime-s= (a "
                     "recorded runtime), not both",
                     n);
  if (!t->dwarf && (t->device != DCSIM_DEV_CPU || t->n_sets || t->case_name))
    return DCSIM_ERR(c->err, DCSIM_ESCHEMA, f, t->line,
                     "<task name=\"%s\" runtime-s=\"%g\">: a recorded-runtime task runs on CPUs "
                     "and takes no case or <set>",
                     n, t->runtime_s);
  if (t->device > DCSIM_DEV_ANY)
    return DCSIM_ERR(c->err, DCSIM_ESCHEMA, f, t->line, "<task name=\"%s\">: bad device", n);
  if (t->nodes < 1)
    return DCSIM_ERR(c->err, DCSIM_ERANGE, f, t->line, "<task name=\"%s\">: nodes must be >= 1", n);
  if (t->device == DCSIM_DEV_GPU && t->nodes > 1)
    return DCSIM_ERR(c->err, DCSIM_ERANGE, f, t->line,
                     "<task name=\"%s\">: a GPU task runs on one node (nodes=%u)", n, t->nodes);
  if (t->device == DCSIM_DEV_CPU && t->gpus > 0)
    return DCSIM_ERR(c->err, DCSIM_ERANGE, f, t->line,
                     "<task name=\"%s\">: a CPU task uses no GPU (gpus=%u)", n, t->gpus);
  if (t->device != DCSIM_DEV_CPU && t->gpus < 1)
    return DCSIM_ERR(c->err, DCSIM_ERANGE, f, t->line,
                     "<task name=\"%s\" device=\"%s\">: gpus must be >= 1", n,
                     dev_names[t->device]);
  if (!(t->freq_ghz >= 0) || !(t->deadline_s >= 0))
    return DCSIM_ERR(c->err, DCSIM_ERANGE, f, t->line,
                     "<task name=\"%s\">: freq and deadline-s must be >= 0", n);
  if (t->deadline_s > 1e9) /* the engine's clock counts nanoseconds in 64 bits */
    return DCSIM_ERR(c->err, DCSIM_ERANGE, f, t->line,
                     "<task name=\"%s\">: deadline-s %g is beyond the longest workflow (10^9 s)", n,
                     t->deadline_s);
  for (size_t i = 0; i < t->n_sets; i++)
    for (size_t j = 0; j < i; j++)
      if (strcmp(t->sets[i].name, t->sets[j].name) == 0)
        return DCSIM_ERR(c->err, DCSIM_ESCHEMA, f, t->line,
                         "<task name=\"%s\">: <set name=\"%s\"> given twice", n, t->sets[i].name);
  return 0;
}

static int check_templates(ctx *c) {
  dcsim_workflow *wf = c->wf;
  int rc = 0;
  for (size_t i = 0; i < wf->n_templates; i++)
    if ((rc = check_template(c, &wf->templates[i]))) return rc;
  named *names = malloc((wf->n_templates + 1) * sizeof *names);
  if (!names) return DCSIM_ERR(c->err, DCSIM_ENOMEM, wf->path, 0, "out of memory");
  for (size_t i = 0; i < wf->n_templates; i++) names[i] = (named){ wf->templates[i].name, i };
  size_t later, earlier;
  if (find_dup(names, wf->n_templates, &later, &earlier))
    rc = DCSIM_ERR(c->err, DCSIM_ESCHEMA, wf->path, wf->templates[later].line,
                   "<task name=\"%s\">: duplicate task name (line %d)", wf->templates[later].name,
                   wf->templates[earlier].line);
  free(names);
  return rc;
}

/* ---- the node tree ---- */

static void nodes_free(node *nodes, size_t n) {
  if (!nodes) return;
  for (size_t i = 0; i < n; i++) {
    free(nodes[i].preds);
    nodes_free(nodes[i].kids, nodes[i].n_kids);
  }
  free(nodes);
}

/* Reports a cycle among the siblings if there is one (iterative depth-first search). */
static int check_cycles(ctx *c, node *nd, size_t n) {
  int rc = 0;
  unsigned char *color = calloc(n + 1, 1); /* 0 new, 1 on the stack, 2 done */
  size_t *stack = malloc((n + 1) * sizeof *stack), *next = calloc(n + 1, sizeof *next);
  if (!color || !stack || !next) {
    rc = DCSIM_ERR(c->err, DCSIM_ENOMEM, c->wf->path, 0, "out of memory");
    goto out;
  }
  for (size_t s = 0; s < n; s++) {
    if (color[s]) continue;
    size_t top = 0;
    stack[top++] = s;
    color[s] = 1;
    while (top) {
      size_t v = stack[top - 1];
      if (next[v] == nd[v].n_preds) {
        color[v] = 2;
        top--;
        continue;
      }
      size_t w = nd[v].preds[next[v]++];
      if (color[w] == 0) {
        color[w] = 1;
        stack[top++] = w;
      } else if (color[w] == 1) {
        size_t k = top - 1;
        while (stack[k] != w) k--;
        dcsim_str m = DCSIM_STR_INIT; /* the cycle, cut after 596 bytes with "..." */
        for (size_t i = k; i <= top && m.len < 600; i++)
          dcsim_str_addf(&m, "%s%s", i > k ? " after " : "",
                         item_name(c, nd[i < top ? stack[i] : w].it));
        if (m.len >= 600) memcpy(m.s + 596, "...", 4);
        rc = m.oom
                 ? item_err(c, DCSIM_ENOMEM, nd[w].it, "out of memory")
                 : item_err(c, DCSIM_ESCHEMA, nd[w].it, "dependency cycle: %s", dcsim_str_cstr(&m));
        dcsim_str_release(&m);
        goto out;
      }
    }
  }
out:
  free(color);
  free(stack);
  free(next);
  return rc;
}

static int cmp_size(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return (x > y) - (x < y);
}

/* Resolves after= (and the implicit in-step chain) of the siblings nd[0..n-1]. */
static int resolve_preds(ctx *c, node *nd, size_t n, const dcsim_wf_item *parent) {
  int rc = 0;
  named *names = malloc((n + 1) * sizeof *names);
  char *buf = NULL;
  if (!names) return DCSIM_ERR(c->err, DCSIM_ENOMEM, c->wf->path, 0, "out of memory");
  size_t nn = 0, later, earlier;
  for (size_t i = 0; i < n; i++)
    if (item_name(c, nd[i].it)) names[nn++] = (named){ item_name(c, nd[i].it), i };
  if (find_dup(names, nn, &later, &earlier)) {
    rc = item_err(c, DCSIM_ESCHEMA, nd[later].it, "name already used in this scope (line %d)",
                  item_line(c, nd[earlier].it));
    goto out;
  }
  for (size_t i = 0; i < n; i++) {
    const dcsim_wf_item *it = nd[i].it;
    size_t cap = 1;
    for (const char *p = it->after; p && *p; p++) cap += strchr(" \t\r\n", *p) != NULL;
    free(buf);
    if (!(nd[i].preds = malloc(cap * sizeof *nd[i].preds)) ||
        !(buf = dcsim_strdup(it->after ? it->after : ""))) {
      rc = DCSIM_ERR(c->err, DCSIM_ENOMEM, c->wf->path, 0, "out of memory");
      goto out;
    }
    char *save = NULL;
    for (char *tok = strtok_r(buf, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
      size_t lo = 0, hi = nn;
      while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(names[mid].name, tok) < 0)
          lo = mid + 1;
        else
          hi = mid;
      }
      if (lo == nn || strcmp(names[lo].name, tok) != 0) {
        rc = item_err(c, DCSIM_EREF, it, "after=\"%s\": no task or named block '%s' in this scope",
                      it->after, tok);
        goto out;
      }
      nd[i].preds[nd[i].n_preds++] = names[lo].idx;
    }
    size_t *pr = nd[i].preds, u = 0; /* sort, drop repeated names */
    qsort(pr, nd[i].n_preds, sizeof *pr, cmp_size);
    for (size_t k = 0; k < nd[i].n_preds; k++)
      if (k == 0 || pr[k] != pr[k - 1]) pr[u++] = pr[k];
    nd[i].n_preds = u;
    if (!nd[i].n_preds && i > 0 && parent && parent->kind == DCSIM_WF_STEPS && !parent->overlap)
      nd[i].preds[nd[i].n_preds++] = i - 1;
  }
  for (size_t i = 0; i < n; i++) nd[i].is_sink = 1;
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k < nd[i].n_preds; k++) nd[nd[i].preds[k]].is_sink = 0;
  rc = check_cycles(c, nd, n);
out:
  free(buf);
  free(names);
  return rc;
}

/* ---- counting before expanding (the budget's figures, dcsim/budget.h) ---- */

static uint64_t sat_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
static uint64_t sat_mul(uint64_t a, uint64_t b) {
  return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

/* Edges of one expansion of the scope kids[0..n-1]: those inside each item, and every source of
 * an item with after= (or the in-step chain) waiting for every sink of each item it names. */
static uint64_t scope_edges(const node *kids, size_t n) {
  uint64_t e = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t sinks = 0;
    for (size_t p = 0; p < kids[i].n_preds; p++)
      sinks = sat_add(sinks, kids[kids[i].preds[p]].n_sink);
    e = sat_add(sat_add(e, kids[i].edges), sat_mul(kids[i].n_src, sinks));
  }
  return e;
}

/* Sources, sinks and edges of one expansion of block nd, from its children's (emit() and
 * collect() do the same walk, one task at a time). */
static void block_counts(node *nd) {
  const dcsim_wf_item *it = nd->it;
  uint64_t src = 0, sink = 0, body = scope_edges(nd->kids, nd->n_kids), steps = 0;
  for (size_t k = 0; k < nd->n_kids; k++) {
    if (!nd->kids[k].n_preds) src = sat_add(src, nd->kids[k].n_src);
    if (nd->kids[k].is_sink) sink = sat_add(sink, nd->kids[k].n_sink);
  }
  uint64_t bars = 0;
  for (size_t k = 0; k < nd->n_kids; k++) bars = sat_add(bars, nd->kids[k].n_bar);
  if (it->kind == DCSIM_WF_STEPS) {
    /* step k+1's source tasks wait for step k's sinks (emit()); a steps body holds tasks only.
     * When that is more edges than joining them through a barrier node (every sink -> barrier ->
     * every source: sink + src edges), the barrier is used */
    nd->barrier = it->count > 1 && sat_mul(src, sink) > src + sink;
    uint64_t per = nd->barrier ? src + sink : sat_mul(src, sink);
    steps = sat_mul((uint64_t)(it->count - 1), per);
    nd->n_bar = nd->barrier ? (uint64_t)(it->count - 1) : 0;
    nd->n_src = src;
    nd->n_sink = sink;
  } else {
    nd->n_src = sat_mul(it->count, src);
    nd->n_sink = sat_mul(it->count, sink);
    nd->n_bar = sat_mul(it->count, bars);
  }
  nd->edges = sat_add(sat_mul(it->count, body), steps);
}

/* Peak memory of a workflow expanded and then planned (dcsim/sched.h), measured with
 * /usr/bin/time on this machine (doc/robustness.md, "One budget"): a chain of 2*10^6 tasks peaked
 * at 307 MB (150 bytes per task: the expansion's 16, the plan's and the planner's scratch arrays),
 * 5*10^4 tasks with 9.6*10^7 edges at 767 MB (7.9 bytes per edge: the expansion's 4 and the
 * planner's successor lists). */
#define WF_PEAK_BYTES_PER_TASK 150u
#define WF_PEAK_BYTES_PER_EDGE 8u

/* The figures of the expansion, checked before anything that size is allocated: the fixed caps,
 * then the budget (work: tasks and edges; memory: the peak of expanding and planning). */
static int check_size(ctx *c, const node *top, size_t n, uint64_t tasks, uint64_t bars,
                      uint64_t edges) {
  const dcsim_wf_item *big = n ? top[0].it : NULL; /* the item that brings most edges */
  uint64_t most = 0;
  for (size_t i = 0; i < n; i++)
    if (top[i].edges > most) {
      most = top[i].edges;
      big = top[i].it;
    }
  int line = big ? item_line(c, big) : 0, rc;
  if (sat_add(tasks, bars) > UINT32_MAX)
    return DCSIM_ERR(c->err, DCSIM_ERANGE, c->wf->path, line,
                     "workflow expands to more than %u tasks and step barriers", UINT32_MAX);
  if (edges > DCSIM_WORKFLOW_MAX_DEPS)
    return DCSIM_ERR(c->err, DCSIM_ERANGE, c->wf->path, line,
                     "workflow expands to more than %u dependencies (%llu)",
                     DCSIM_WORKFLOW_MAX_DEPS, (unsigned long long)edges);
  if ((rc = dcsim_budget_work(c->budget, tasks, "the workflow expands to", "tasks", c->wf->path,
                              line, c->err)) ||
      (rc = dcsim_budget_work(c->budget, edges, "the workflow expands to", "dependency edges",
                              c->wf->path, line, c->err)))
    return rc;
  char *prefix = dcsim_strdup_printf("expanding and planning its %llu tasks and %llu edges would",
                                     (unsigned long long)tasks, (unsigned long long)edges);
  rc = prefix ? dcsim_budget_bytes(
                    c->budget,
                    (tasks + bars) * WF_PEAK_BYTES_PER_TASK + edges * WF_PEAK_BYTES_PER_EDGE,
                    prefix, c->wf->path, line, c->err)
              : DCSIM_ERR(c->err, DCSIM_ENOMEM, c->wf->path, line, "out of memory");
  free(prefix);
  return rc;
}

/* Builds the node tree of items[0..n-1] (children of parent, NULL at the top) into *out. */
static int prepare(ctx *c, const dcsim_wf_item *items, size_t n, const dcsim_wf_item *parent,
                   node **out, uint64_t *size) {
  node *nd = calloc(n ? n : 1, sizeof *nd);
  *out = nd;
  *size = 0;
  if (!nd) return DCSIM_ERR(c->err, DCSIM_ENOMEM, c->wf->path, 0, "out of memory");
  for (size_t i = 0; i < n; i++) {
    const dcsim_wf_item *it = &items[i];
    int rc;
    nd[i].it = it;
    if (it->kind == DCSIM_WF_TASK) {
      if (it->tmpl >= c->wf->n_templates || c->used[it->tmpl])
        return item_err(c, DCSIM_EREF, it, "template %u missing or used twice", (unsigned)it->tmpl);
      c->used[it->tmpl] = 1;
      nd[i].size = 1;
    } else {
      const char *what = it->kind == DCSIM_WF_STEPS ? "count" : "members";
      if (it->kind > DCSIM_WF_ENSEMBLE ||
          (parent && (parent->kind == DCSIM_WF_STEPS || it->kind == DCSIM_WF_ENSEMBLE)))
        return item_err(c, DCSIM_ESCHEMA, it, "not allowed here");
      if (it->count < 1) return item_err(c, DCSIM_ERANGE, it, "%s must be >= 1", what);
      if (it->n_items < 1) return item_err(c, DCSIM_ESCHEMA, it, "empty block");
      uint64_t body;
      nd[i].n_kids = it->n_items;
      if ((rc = prepare(c, it->items, it->n_items, it, &nd[i].kids, &body))) return rc;
      nd[i].size = body * it->count; /* < 2^32 * DCSIM_WORKFLOW_MAX_TASKS: no overflow */
    }
    nd[i].off = *size;
    *size += nd[i].size;
    if (*size > DCSIM_WORKFLOW_MAX_TASKS)
      return item_err(c, DCSIM_ERANGE, it,
                      "workflow expands to more than %u tasks (the most one workflow file may "
                      "describe, whatever --max-tasks: split it into several workflows of a "
                      "workload)",
                      DCSIM_WORKFLOW_MAX_TASKS);
  }
  int rc = resolve_preds(c, nd, n, parent);
  for (size_t i = 0; i < n && !rc; i++)
    if (nd[i].it->kind == DCSIM_WF_TASK)
      nd[i].n_src = nd[i].n_sink = 1;
    else
      block_counts(&nd[i]);
  return rc;
}

/* ---- expansion ---- */

static int oom(ctx *c) { return DCSIM_ERR(c->err, DCSIM_ENOMEM, c->wf->path, 0, "out of memory"); }

/* Appends the sink (or source) tasks of one expansion of nd placed at base. */
static int collect(const node *nd, uint64_t base, int sinks, vec *v);

static int collect_scope(const node *kids, size_t n, uint64_t base, int sinks, vec *v) {
  for (size_t i = 0; i < n; i++)
    if (sinks ? kids[i].is_sink : kids[i].n_preds == 0)
      if (collect(&kids[i], base + kids[i].off, sinks, v)) return -1;
  return 0;
}

static int collect(const node *nd, uint64_t base, int sinks, vec *v) {
  const dcsim_wf_item *it = nd->it;
  uint64_t body = it->kind == DCSIM_WF_TASK ? 1 : nd->size / it->count;
  if (it->kind == DCSIM_WF_TASK) return push(v, base);
  if (it->kind == DCSIM_WF_STEPS)
    return collect_scope(nd->kids, nd->n_kids, base + (sinks ? (it->count - 1) * body : 0), sinks,
                         v);
  for (unsigned m = 0; m < it->count; m++)
    if (collect_scope(nd->kids, nd->n_kids, base + m * body, sinks, v)) return -1;
  return 0;
}

/* Task t waits for preds[0..n-1]. */
static int add_deps(ctx *c, uint64_t t, const uint32_t *preds, size_t n) {
  uint32_t *slot = &c->wf->dep_start[t + 1];
  if (c->fill) {
    memcpy(c->wf->deps + *slot, preds, n * sizeof *preds);
    *slot += (uint32_t)n;
    return 0;
  }
  c->total += n;
  *slot += (uint32_t)n;
  return 0;
}

/* Every source task of nd at base waits for the tasks in c->pred. */
static int link_sources(ctx *c, const node *nd, uint64_t base) {
  c->src.n = 0;
  if (collect(nd, base, 0, &c->src)) return oom(c);
  for (size_t k = 0; k < c->src.n; k++) {
    int rc = add_deps(c, c->src.v[k], c->pred.v, c->pred.n);
    if (rc) return rc;
  }
  return 0;
}

static int emit(ctx *c, const node *nd, uint64_t base, uint32_t member, uint32_t step);

static int emit_scope(ctx *c, const node *kids, size_t n, uint64_t base, uint32_t member,
                      uint32_t step) {
  for (size_t i = 0; i < n; i++) {
    const node *k = &kids[i];
    int rc = emit(c, k, base + k->off, member, step);
    if (rc) return rc;
    if (!k->n_preds) continue;
    c->line = item_line(c, k->it);
    c->pred.n = 0;
    for (size_t p = 0; p < k->n_preds; p++)
      if (collect(&kids[k->preds[p]], base + kids[k->preds[p]].off, 1, &c->pred)) return oom(c);
    if ((rc = link_sources(c, k, base + k->off))) return rc;
  }
  return 0;
}

static int emit(ctx *c, const node *nd, uint64_t base, uint32_t member, uint32_t step) {
  const dcsim_wf_item *it = nd->it;
  int rc;
  if (it->kind == DCSIM_WF_TASK) {
    if (c->fill) c->wf->tasks[base] = (dcsim_task_inst){ it->tmpl, member, step };
    return 0;
  }
  uint64_t body = nd->size / it->count;
  for (uint32_t k = 0; k < it->count; k++) {
    uint64_t b = base + k * body;
    if (it->kind == DCSIM_WF_ENSEMBLE) {
      if ((rc = emit_scope(c, nd->kids, nd->n_kids, b, k + 1, 0))) return rc;
      continue;
    }
    if ((rc = emit_scope(c, nd->kids, nd->n_kids, b, member, k + 1))) return rc;
    if (k == 0) continue;
    /* step k+1's sources wait for step k's sinks, directly or through a barrier node */
    c->line = item_line(c, it);
    c->step.n = 0;
    if (collect_scope(nd->kids, nd->n_kids, b - body, 1, &c->step)) return oom(c);
    const uint32_t *wait = c->step.v;
    size_t n_wait = c->step.n;
    uint32_t bar = 0;
    if (nd->barrier) {
      bar = (uint32_t)(c->n_tasks + c->next_bar++);
      if ((rc = add_deps(c, bar, c->step.v, c->step.n))) return rc;
      wait = &bar;
      n_wait = 1;
    }
    for (size_t j = 0; j < nd->n_kids; j++)
      if (!nd->kids[j].n_preds && (rc = add_deps(c, b + nd->kids[j].off, wait, n_wait))) return rc;
  }
  return 0;
}

/* Checks the templates of wf and expands items into wf's tasks and dependencies. */
static int expand(dcsim_workflow *wf, const dcsim_wf_item *items, size_t n,
                  const dcsim_budget *budget, dcsim_error *err) {
  ctx c = { .wf = wf, .err = err, .budget = budget };
  node *top = NULL;
  uint64_t size = 0;
  int rc = check_templates(&c);
  if (rc) goto out;
  if (!(c.used = calloc(wf->n_templates + 1, 1))) {
    rc = oom(&c);
    goto out;
  }
  if ((rc = prepare(&c, items, n, NULL, &top, &size))) goto out;
  for (size_t i = 0; i < wf->n_templates; i++)
    if (!c.used[i]) {
      rc = DCSIM_ERR(err, DCSIM_EREF, wf->path, wf->templates[i].line,
                     "<task name=\"%s\">: template not used by any item", wf->templates[i].name);
      goto out;
    }
  if (size == 0) {
    rc = DCSIM_ERR(err, DCSIM_ESCHEMA, wf->path, 0, "workflow has no task");
    goto out;
  }
  uint64_t edges = scope_edges(top, n), bars = 0;
  for (size_t i = 0; i < n; i++) bars = sat_add(bars, top[i].n_bar);
  if ((rc = check_size(&c, top, n, size, bars, edges))) goto out;
  wf->n_tasks = (size_t)size;
  wf->n_barriers = (size_t)bars;
  c.n_tasks = size;
  uint64_t nodes = size + bars;
  if (!(wf->dep_start = calloc(nodes + 1, sizeof *wf->dep_start))) {
    rc = oom(&c);
    goto out;
  }
  if ((rc = emit_scope(&c, top, n, 0, 0, 0))) goto out;
  if (c.total != edges) {
    rc = DCSIM_ERR(err, DCSIM_EINTERNAL, wf->path, 0,
                   "counted %llu dependency edges before expanding, %llu while expanding",
                   (unsigned long long)edges, (unsigned long long)c.total);
    goto out;
  }
  uint32_t sum = 0;
  for (size_t i = 0; i < nodes; i++) { /* dep_start[i+1] becomes the start of node i */
    uint32_t cnt = wf->dep_start[i + 1];
    wf->dep_start[i + 1] = sum;
    sum += cnt;
  }
  wf->tasks = malloc(size * sizeof *wf->tasks);
  wf->deps = malloc((sum ? sum : 1) * sizeof *wf->deps);
  if (!wf->tasks || !wf->deps) {
    rc = oom(&c);
    goto out;
  }
  c.fill = 1;
  c.next_bar = 0;
  if ((rc = emit_scope(&c, top, n, 0, 0, 0))) goto out;
  for (size_t i = 0; i < nodes; i++) {
    uint32_t *d = wf->deps + wf->dep_start[i];
    size_t cnt = wf->dep_start[i + 1] - wf->dep_start[i];
    for (size_t k = 1; k < cnt; k++)
      if (d[k - 1] > d[k]) {
        qsort(d, cnt, sizeof *d, dcsim_cmp_u32);
        break;
      }
  }
out:
  nodes_free(top, n);
  free(c.used);
  free(c.pred.v);
  free(c.src.v);
  free(c.step.v);
  return rc;
}

/* ---- public workflow API ---- */

void dcsim_workflow_free(dcsim_workflow *wf) {
  if (!wf) return;
  for (size_t i = 0; i < wf->n_templates; i++) template_release(&wf->templates[i]);
  free(wf->templates);
  free(wf->tasks);
  free(wf->dep_start);
  free(wf->deps);
  free(wf->platform);
  free(wf->wms);
  free(wf->wms_system);
  free(wf->wms_version);
  free(wf->name);
  free(wf->path);
  free(wf);
}

int dcsim_workflow_build(const char *name, const dcsim_task_template *templates, size_t n_templates,
                         const dcsim_wf_item *items, size_t n_items, dcsim_workflow **out,
                         dcsim_error *err) {
  int rc = DCSIM_ENOMEM;
  dcsim_workflow *wf = calloc(1, sizeof *wf);
  *out = NULL;
  if (!wf || !(wf->path = dcsim_strdup(name)) || !(wf->name = dcsim_strdup(name)) ||
      !(wf->templates = calloc(n_templates + 1, sizeof *wf->templates)))
    goto nomem;
  for (; wf->n_templates < n_templates; wf->n_templates++)
    if (template_copy(&wf->templates[wf->n_templates], &templates[wf->n_templates])) {
      wf->n_templates++;
      goto nomem;
    }
  if ((rc = expand(wf, items, n_items, NULL, err))) goto out;
  *out = wf;
  return 0;
nomem:
  rc = DCSIM_ERR(err, DCSIM_ENOMEM, name, 0, "out of memory");
out:
  dcsim_workflow_free(wf);
  return rc;
}

int dcsim_workflow_task_name(const dcsim_workflow *wf, size_t i, char *buf, size_t size) {
  if (i >= wf->n_tasks) return DCSIM_ERANGE;
  const dcsim_task_inst *t = &wf->tasks[i];
  unsigned m = (unsigned)t->member, s = (unsigned)t->step;
  /* "m3.s2.name": "%.0u" of 0 writes nothing (C11 7.21.6.1p8), so a 0 member or step drops out */
  return snprintf(buf, size, "%s%.0u%s%s%.0u%s%s", m ? "m" : "", m, m ? "." : "", s ? "s" : "", s,
                  s ? "." : "", wf->templates[t->tmpl].name);
}

/* ---- workflow XML ---- */

typedef struct {
  const dcsim_xml_doc_t *doc;
  dcsim_workflow *wf;
  size_t cap; /* of wf->templates */
  dcsim_error *err;
} parser;

static void items_free(dcsim_wf_item *items, size_t n) {
  if (!items) return;
  for (size_t i = 0; i < n; i++) items_free((dcsim_wf_item *)items[i].items, items[i].n_items);
  free(items);
}

/* cores-per-node: a whole number, or all (0: the node's cores, as --cores all) */
static int cores_attr(const dcsim_xml_doc_t *doc, xmlNode *x, unsigned *out, dcsim_error *err) {
  const char *v = dcsim__xml_attr(doc, x, "cores-per-node");
  if (v && strcmp(v, "all") == 0) {
    *out = 0;
    return 0;
  }
  return dcsim__xml_u32(doc, x, "cores-per-node", 0, out, err);
}

static int parse_task(parser *ps, xmlNode *x, dcsim_wf_item *it) {
  const dcsim_xml_doc_t *doc = ps->doc;
  dcsim_workflow *wf = ps->wf;
  dcsim_error *err = ps->err;
  if (DCSIM_GROW(wf->templates, ps->cap, wf->n_templates + 1))
    return DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, x, "out of memory");
  dcsim_task_template *t = &wf->templates[wf->n_templates++];
  memset(t, 0, sizeof *t);
  t->line = it->line;
  it->tmpl = (uint32_t)(wf->n_templates - 1);
  const char *name = NULL, *dwarf = NULL, *cas = NULL, *dev = NULL, *group = NULL, *freq = NULL;
  int rc;
  t->nodes = 1;
  if ((rc = dcsim__xml_str(doc, x, "name", 1, &name, err)) ||
      (rc = dcsim__xml_str(doc, x, "dwarf", 0, &dwarf, err)) ||
      (rc = dcsim__xml_double(doc, x, "runtime-s", 0, &t->runtime_s, err)) ||
      (rc = dcsim__xml_double(doc, x, "ref-ghz", 0, &t->ref_ghz, err)) ||
      (rc = dcsim__xml_double(doc, x, "delay-s", 0, &t->delay_s, err)) ||
      (rc = dcsim__xml_double(doc, x, "input-byte", 0, &t->input_byte, err)) ||
      (rc = dcsim__xml_double(doc, x, "output-byte", 0, &t->output_byte, err)) ||
      (rc = dcsim__xml_str(doc, x, "case", 0, &cas, err)) ||
      (rc = dcsim__xml_str(doc, x, "device", 1, &dev, err)) ||
      (rc = dcsim__xml_str(doc, x, "group", 0, &group, err)) ||
      (rc = dcsim__xml_str(doc, x, "freq", 0, &freq, err)) ||
      (rc = dcsim__xml_u32(doc, x, "nodes", 0, &t->nodes, err)) ||
      (rc = cores_attr(doc, x, &t->cores_per_node, err)) ||
      (rc = dcsim__xml_double(doc, x, "deadline-s", 0, &t->deadline_s, err)))
    return rc;
  if (!dwarf == !dcsim__xml_attr(doc, x, "runtime-s"))
    return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, x,
                         "<task name=\"%s\">: give either dwarf= (a modelled call) or runtime-s= "
                         "(a recorded runtime)",
                         name);
  t->device = strcmp(dev, "gpu") == 0   ? DCSIM_DEV_GPU
              : strcmp(dev, "any") == 0 ? DCSIM_DEV_ANY
                                        : DCSIM_DEV_CPU;
  t->gpus = t->device == DCSIM_DEV_CPU ? 0 : 1;
  if ((rc = dcsim__xml_u32(doc, x, "gpus", 0, &t->gpus, err))) return rc;
  const char *ri = dcsim__xml_attr(doc, x, "reads-inputs");
  t->reads_inputs = ri && strcmp(ri, "true") == 0;
  int oom_ = 0;
  t->name = dup_or_null(name, &oom_);
  t->dwarf = dup_or_null(dwarf, &oom_);
  t->case_name = dup_or_null(cas, &oom_);
  t->group = dup_or_null(group, &oom_);
  if (freq && dcsim_parse_double(freq, &t->freq_ghz) != 0) t->freq_label = dup_or_null(freq, &oom_);
  if (oom_) return DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, x, "out of memory");
  if (freq && !t->freq_label && t->freq_ghz <= 0)
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, x, "<task name=\"%s\">: freq must be > 0", name);
  size_t n = dcsim__xml_count(x, "set");
  if (n && !(t->sets = calloc(n, sizeof *t->sets)))
    return DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, x, "out of memory");
  for (xmlNode *s = dcsim__xml_child(x, "set"); s; s = dcsim__xml_next(s, "set")) {
    dcsim_param_set *p = &t->sets[t->n_sets++];
    const char *pn = dcsim__xml_attr(doc, s, "name");
    if ((rc = dcsim__xml_double(doc, s, "value", 1, &p->value, err))) return rc;
    if (!(p->name = dcsim_strdup(pn)))
      return DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, s, "out of memory");
  }
  return 0;
}

static int parse_items(parser *ps, xmlNode *parent, dcsim_wf_item **out, size_t *n) {
  size_t cnt = dcsim__xml_count(parent, NULL);
  dcsim_wf_item *items = calloc(cnt ? cnt : 1, sizeof *items);
  *out = items;
  *n = 0;
  if (!items) return DCSIM_XML_ERR(ps->err, DCSIM_ENOMEM, ps->doc, parent, "out of memory");
  for (xmlNode *x = dcsim__xml_child(parent, NULL); x; x = dcsim__xml_next(x, NULL)) {
    const char *el = (const char *)x->name;
    dcsim_wf_item *it = &items[(*n)++];
    int rc;
    it->line = (int)xmlGetLineNo(x);
    it->after = dcsim__xml_attr(ps->doc, x, "after");
    if (strcmp(el, "task") == 0) {
      it->kind = DCSIM_WF_TASK;
      if ((rc = parse_task(ps, x, it))) return rc;
      continue;
    }
    it->kind = strcmp(el, "steps") == 0 ? DCSIM_WF_STEPS : DCSIM_WF_ENSEMBLE;
    it->name = dcsim__xml_attr(ps->doc, x, "name");
    const char *ov = dcsim__xml_attr(ps->doc, x, "overlap");
    it->overlap = ov && strcmp(ov, "true") == 0;
    if ((rc = dcsim__xml_u32(ps->doc, x, it->kind == DCSIM_WF_STEPS ? "count" : "members", 1,
                             &it->count, ps->err)) ||
        (rc = parse_items(ps, x, (dcsim_wf_item **)&it->items, &it->n_items)))
      return rc;
  }
  return 0;
}

/* The workflow management system the root states (wms=, wms-version=, the stage bytes). */
static int workflow_wms(const dcsim_xml_doc_t *doc, xmlNode *root, dcsim_workflow *wf,
                        dcsim_error *err) {
  int rc, oom_ = 0;
  if ((rc = dcsim__xml_double(doc, root, "stage-in-byte", 0, &wf->stage_in_byte, err)) ||
      (rc = dcsim__xml_double(doc, root, "stage-out-byte", 0, &wf->stage_out_byte, err)))
    return rc;
  if (wf->stage_in_byte > 1e18 || wf->stage_out_byte > 1e18)
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, root,
                         "<workflow>: stage-in-byte and stage-out-byte must be at most 1e18");
  wf->wms = dup_or_null(dcsim__xml_attr(doc, root, "wms"), &oom_);
  wf->wms_version = dup_or_null(dcsim__xml_attr(doc, root, "wms-version"), &oom_);
  return oom_ ? DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, root, "out of memory") : 0;
}

int dcsim_workflow_load(const char *path, dcsim_workflow **out, dcsim_error *err) {
  return dcsim_workflow_load_budget(path, NULL, out, err);
}

int dcsim_workflow_load_budget(const char *path, const dcsim_budget *budget, dcsim_workflow **out,
                               dcsim_error *err) {
  dcsim_xml_doc_t *doc = NULL;
  dcsim_wf_item *items = NULL;
  size_t n = 0;
  dcsim_workflow *wf = calloc(1, sizeof *wf);
  *out = NULL;
  int rc = DCSIM_ENOMEM;
  if (!wf || !(wf->path = dcsim_strdup(path))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  if ((rc = dcsim__xml_load(path, "workflow", &doc, err))) goto out;
  xmlNode *root = dcsim__xml_root(doc);
  const char *plat = dcsim__xml_attr(doc, root, "platform");
  if (!(wf->name = dcsim_strdup(dcsim__xml_attr(doc, root, "name"))) ||
      (plat && !(wf->platform = dcsim_path_join(path, plat)))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  if ((rc = dcsim__xml_double(doc, root, "dispatch-s", 0, &wf->dispatch_s, err)) ||
      (rc = workflow_wms(doc, root, wf, err)))
    goto out;
  parser ps = { doc, wf, 0, err };
  if ((rc = parse_items(&ps, root, &items, &n))) goto out;
  if ((rc = expand(wf, items, n, budget, err))) goto out;
  *out = wf;
  wf = NULL;
out:
  items_free(items, n);
  dcsim__xml_free(doc);
  dcsim_workflow_free(wf);
  return rc;
}

/* ---- workload ---- */

void dcsim_workload_free(dcsim_workload *wl) {
  if (!wl) return;
  for (size_t i = 0; i < wl->n_submissions; i++) free(wl->subs[i].workflow_path);
  free(wl->subs);
  free(wl->platform);
  free(wl->name);
  free(wl->path);
  free(wl);
}

static int parse_submit(const dcsim_xml_doc_t *doc, xmlNode *x, dcsim_submission *s,
                        dcsim_error *err) {
  const char *path = dcsim__xml_path(doc), *wfp = dcsim__xml_attr(doc, x, "workflow");
  int rc;
  s->line = (int)xmlGetLineNo(x);
  s->count = 1;
  s->members = 1;
  if ((rc = dcsim__xml_double(doc, x, "at-s", 1, &s->at_s, err)) ||
      (rc = dcsim__xml_u32(doc, x, "count", 0, &s->count, err)) ||
      (rc = dcsim__xml_double(doc, x, "interval-s", 0, &s->interval_s, err)) ||
      (rc = dcsim__xml_u32(doc, x, "members", 0, &s->members, err)))
    return rc;
  if (!(s->workflow_path = dcsim_path_join(path, wfp)))
    return DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, x, "out of memory");
  if (s->count < 1 || s->members < 1)
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, x, "<submit workflow=\"%s\">: %s must be >= 1",
                         wfp, s->count < 1 ? "count" : "members");
  if (s->count > 1 && !(s->interval_s > 0))
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, x,
                         "<submit workflow=\"%s\">: count > 1 needs interval-s > 0", wfp);
  dcsim_error e;
  if (dcsim__file_check_input(s->workflow_path, &e))
    return DCSIM_XML_ERR(err, DCSIM_EREF, doc, x, "<submit workflow=\"%s\">: cannot open %s: %s",
                         wfp, s->workflow_path,
                         strncmp(e.msg, "cannot open: ", 13) == 0 ? e.msg + 13 : e.msg);
  return 0;
}

int dcsim_workload_load(const char *path, dcsim_workload **out, dcsim_error *err) {
  dcsim_xml_doc_t *doc = NULL;
  dcsim_workload *wl = NULL;
  *out = NULL;
  int rc = dcsim__xml_load(path, "workload", &doc, err);
  if (rc) goto out;
  xmlNode *root = dcsim__xml_root(doc);
  const char *plat = dcsim__xml_attr(doc, root, "platform");
  size_t n = dcsim__xml_count(root, "submit");
  if (!(wl = calloc(1, sizeof *wl)) || !(wl->subs = calloc(n ? n : 1, sizeof *wl->subs)) ||
      !(wl->path = dcsim_strdup(path)) ||
      !(wl->name = dcsim_strdup(dcsim__xml_attr(doc, root, "name"))) ||
      (plat && !(wl->platform = dcsim_path_join(path, plat)))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  for (xmlNode *x = dcsim__xml_child(root, "submit"); x; x = dcsim__xml_next(x, "submit"))
    if ((rc = parse_submit(doc, x, &wl->subs[wl->n_submissions++], err))) goto out;
  *out = wl;
  wl = NULL;
out:
  dcsim_workload_free(wl);
  dcsim__xml_free(doc);
  return rc;
}
