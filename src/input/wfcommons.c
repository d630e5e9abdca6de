/* wfcommons.c — WfCommons (WfFormat) instances: reading both layouts, building the workflow and the
 * recorded platform (see dcsim/wfcommons.h). */
#include "dcsim/wfcommons.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "dcsim/budget.h"
#include "dcsim/numfmt.h"
#include "dcsim/stats.h"
#include "dcsim/strutil.h"
#include "util/fileio.h"

void dcsim_wfc_free(dcsim_wfc *w) {
  if (!w) return;
  for (size_t i = 0; i < w->n_machines; i++) free(w->machines[i].name);
  free(w->machines);
  for (size_t i = 0; i < w->n_tasks; i++) {
    free(w->tasks[i].id);
    free(w->tasks[i].parents);
  }
  free(w->tasks);
  free(w->wms_name);
  free(w->wms_version);
  free(w->schema_version);
  free(w->name);
  free(w->path);
  free(w);
}

/* ---- a sorted name index: name -> task or file index ---- */
typedef struct key_ix {
  const char *key;
  uint32_t ix;
} key_ix;
typedef struct index {
  key_ix *a;
  size_t n;
} index_t;

static int cmp_key(const void *a, const void *b) {
  const key_ix *x = a, *y = b;
  int r = strcmp(x->key, y->key);
  return r ? r : (x->ix > y->ix) - (x->ix < y->ix);
}

static long index_find(const index_t *ix, const char *key) {
  size_t lo = 0, hi = ix->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (strcmp(ix->a[mid].key, key) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < ix->n && strcmp(ix->a[lo].key, key) == 0 ? (long)ix->a[lo].ix : -1;
}

/* ---- typed access with JSON paths in messages ---- */
typedef struct ctx {
  const char *path;
  dcsim_error *err;
} ctx;

/* The JSON path of a value, for messages ("workflow.tasks[3].cpu"), written out only when a
 * message names it: each level on the stack names the one above it. */
typedef struct jpath {
  const struct jpath *up; /* NULL: key is the whole path so far ("workflow.execution") */
  const char *key;        /* ".key" after up; NULL: none */
  long index;             /* "[index]" after the key; -1: none */
} jpath;
#define JP(text) (&(const jpath){ NULL, (text), -1 })

static void jpath_add(dcsim_str *b, const jpath *p) {
  if (p->up) jpath_add(b, p->up);
  if (p->key) dcsim_str_addf(b, "%s%s", p->up ? "." : "", p->key);
  if (p->index >= 0) dcsim_str_addf(b, "[%ld]", p->index);
}

/* An error at JSON path `where` in the instance: DCSIM_ESCHEMA, or `code`. */
__attribute__((format(printf, 4, 5))) static int bad_code(const ctx *c, int code,
                                                          const jpath *where, const char *fmt,
                                                          ...) {
  dcsim_str w = DCSIM_STR_INIT, what = DCSIM_STR_INIT;
  jpath_add(&w, where);
  va_list ap;
  va_start(ap, fmt);
  dcsim_str_vaddf(&what, fmt, ap);
  va_end(ap);
  int rc = w.oom || what.oom ? DCSIM_ERR(c->err, DCSIM_ENOMEM, c->path, 0, "out of memory")
           : code == DCSIM_ESCHEMA
               ? DCSIM_ERR(c->err, code, c->path, 0, "%s: %s (WfFormat, doc/workloads.md)",
                           dcsim_str_cstr(&w), dcsim_str_cstr(&what))
               : DCSIM_ERR(c->err, code, c->path, 0, "%s: %s", dcsim_str_cstr(&w),
                           dcsim_str_cstr(&what));
  dcsim_str_release(&w);
  dcsim_str_release(&what);
  return rc;
}
#define bad(c, where, ...) bad_code((c), DCSIM_ESCHEMA, (where), __VA_ARGS__)

static int get_num(const ctx *c, json_t *o, const char *k1, const char *k2, const jpath *where,
                   int required, double *out) {
  json_t *v = json_object_get(o, k1);
  if (!v && k2) v = json_object_get(o, k2);
  const jpath w = { where, k1, -1 };
  if (!v || json_is_null(v)) return required ? bad(c, &w, "missing") : 0;
  if (!json_is_number(v)) return bad(c, &w, "not a number");
  double x = json_number_value(v);
  if (!isfinite(x) || x < 0 || x > 1e15)
    return bad_code(c, DCSIM_ERANGE, &w, "%g is out of range", x);
  *out = x;
  return 0;
}

static const char *get_str(json_t *o, const char *k) {
  json_t *v = json_object_get(o, k);
  return json_is_string(v) ? json_string_value(v) : NULL;
}

/* A task name usable in after= lists: whitespace becomes '_'. */
static char *task_name(const char *s) {
  char *d = dcsim_strdup(s);
  if (d)
    for (char *p = d; *p; p++)
      if (isspace((unsigned char)*p)) *p = '_';
  return d;
}

static int load_machines(const ctx *c, dcsim_wfc *w, json_t *arr, const jpath *where) {
  if (!arr) return 0;
  if (!json_is_array(arr)) return bad(c, where, "not an array");
  size_t n = json_array_size(arr);
  if (!(w->machines = calloc(n ? n : 1, sizeof *w->machines)))
    return DCSIM_ERR(c->err, DCSIM_ENOMEM, c->path, 0, "out of memory");
  for (size_t i = 0; i < n; i++) {
    json_t *m = json_array_get(arr, i);
    const jpath at = { where, NULL, (long)i }, *wi = &at;
    const char *name = get_str(m, "nodeName");
    if (!json_is_object(m) || !name || !*name) return bad(c, wi, "a machine needs a nodeName");
    dcsim_wfc_machine *mc = &w->machines[w->n_machines++];
    if (!(mc->name = task_name(name)))
      return DCSIM_ERR(c->err, DCSIM_ENOMEM, c->path, 0, "out of memory");
    for (size_t k = 0; k + 1 < w->n_machines; k++)
      if (strcmp(w->machines[k].name, mc->name) == 0) return bad(c, wi, "nodeName given twice");
    json_t *cpu = json_object_get(m, "cpu");
    double cores = 0;
    int rc;
    if ((rc = get_num(c, m, "memoryInBytes", "memory", wi, 0, &mc->memory_byte))) return rc;
    if (cpu) {
      const jpath wcpu = { wi, "cpu", -1 }, *wc = &wcpu;
      if ((rc = get_num(c, cpu, "coreCount", "count", wc, 0, &cores)) ||
          (rc = get_num(c, cpu, "speedInMHz", "speed", wc, 0, &mc->speed_mhz)))
        return rc;
      if (cores != floor(cores) || cores > 1e6)
        return bad(c, wc, "coreCount is not a whole number of cores");
      mc->cores = (unsigned)cores;
    }
  }
  return 0;
}

static long find_machine(const dcsim_wfc *w, const char *name) {
  for (size_t i = 0; i < w->n_machines; i++)
    if (strcmp(w->machines[i].name, name) == 0) return (long)i;
  return -1;
}

/* Execution data of one task: runtime, cores, machine. */
static int load_exec(const ctx *c, dcsim_wfc *w, dcsim_wfc_task *t, json_t *o, const jpath *where,
                     int flat) {
  double cores = 1;
  int rc;
  if ((rc = get_num(c, o, "runtimeInSeconds", "runtime", where, 1, &t->runtime_s)) ||
      (rc = get_num(c, o, flat ? "cores" : "coreCount", flat ? "coreCount" : "cores", where, 0,
                    &cores)) ||
      (rc = get_num(c, o, "priority", NULL, where, 0, &t->priority)))
    return rc;
  if (cores < 1 || cores != floor(cores) || cores > 1e6) {
    const jpath wc = { where, "coreCount", -1 };
    return bad(c, &wc, "not a whole number >= 1");
  }
  t->cores = (unsigned)cores;
  const char *m = NULL;
  json_t *ms = json_object_get(o, "machines");
  if (json_is_array(ms) && json_array_size(ms)) m = json_string_value(json_array_get(ms, 0));
  if (!m) m = get_str(o, "machine");
  t->machine = -1;
  if (m) {
    char *mn = task_name(m);
    if (!mn) return DCSIM_ERR(c->err, DCSIM_ENOMEM, c->path, 0, "out of memory");
    t->machine = find_machine(w, mn);
    free(mn);
    if (t->machine < 0)
      return bad(c, where, "machine '%.200s' is not among the recorded machines", m);
  }
  return 0;
}

static int add_parent(dcsim_wfc_task *t, uint32_t p, size_t *cap) {
  if (DCSIM_GROW(t->parents, *cap, t->n_parents + 1)) return -1;
  t->parents[t->n_parents++] = p;
  return 0;
}

/* One use of a file by a task: what stage_files() turns into the workflow's inputs and outputs. */
typedef struct file_use {
  const char *key; /* the file's id or name, borrowed from the JSON document */
  double size_byte;
  uint32_t task;
  int output;
} file_use;

typedef struct file_uses {
  file_use *a;
  size_t n, cap;
} file_uses;

static int note_use(file_uses *u, const char *key, double size, size_t task, int output) {
  if (DCSIM_GROW(u->a, u->cap, u->n + 1)) return -1;
  u->a[u->n++] = (file_use){ key, size, (uint32_t)task, output };
  return 0;
}

/* Sum of the sizes of the files named in list (1.5: ids into files), each use noted. */
static int file_bytes(const ctx *c, json_t *list, const index_t *files, json_t *farr,
                      const jpath *where, file_uses *uses, size_t task, int output, double *out,
                      unsigned *count) {
  if (!list) return 0;
  if (!json_is_array(list)) return bad(c, where, "not an array");
  for (size_t i = 0; i < json_array_size(list); i++) {
    const char *id = json_string_value(json_array_get(list, i));
    long f = id ? index_find(files, id) : -1;
    if (f < 0)
      return bad(c, where, "file '%.200s' is not in workflow.specification.files",
                 id ? id : "(not a string)");
    double sz = 0;
    int rc = get_num(c, json_array_get(farr, (size_t)f), "sizeInBytes", "size",
                     JP("workflow.specification.files[]"), 0, &sz);
    if (rc) return rc;
    if (note_use(uses, id, sz, task, output))
      return DCSIM_ERR(c->err, DCSIM_ENOMEM, c->path, 0, "out of memory");
    *out += sz;
    ++*count;
  }
  return 0;
}

/* One instance being read: its layout and the parts of it the phases of dcsim_wfc_load share. */
typedef struct wfc_load {
  ctx c;
  dcsim_wfc *w;
  int flat; /* the 1.4 layout (no specification / execution split) */
  json_t *spec, *exe, *tasks;
  json_t *farr;   /* 1.5: workflow.specification.files, or NULL */
  const char *tw; /* JSON path of the task list */
  size_t n;       /* tasks */
  index_t ix, fx; /* tasks by id and name; 1.5 files by id */
  size_t *pcap;   /* per task: capacity of its parents array */
  file_uses uses; /* every file a task reads or writes */
} wfc_load;

/* Name, schema version, layout, makespan, machines, and the size of the task list. */
static int read_header(wfc_load *L, json_t *root) {
  const ctx *c = &L->c;
  dcsim_wfc *w = L->w;
  int rc;
  w->makespan_s = -1;
  json_t *wf = json_object_get(root, "workflow");
  const char *name = get_str(root, "name"), *ver = get_str(root, "schemaVersion");
  if (!json_is_object(root) || !json_is_object(wf))
    return bad(c, JP("workflow"), "missing: not a WfCommons instance");
  if (!(w->name = task_name(name && *name ? name : "wfcommons")) ||
      !(w->schema_version = dcsim_strdup(ver ? ver : "?")))
    return DCSIM_ERR(c->err, DCSIM_ENOMEM, c->path, 0, "out of memory");
  L->spec = json_object_get(wf, "specification");
  L->exe = json_object_get(wf, "execution");
  L->flat = !L->spec;
  L->tasks = L->flat ? json_object_get(wf, "tasks") : json_object_get(L->spec, "tasks");
  L->tw = L->flat ? "workflow.tasks" : "workflow.specification.tasks";
  if (!json_is_array(L->tasks))
    return bad(c, JP(L->tw), "missing or not an array (neither the 1.4 nor the 1.5 layout)");
  if (!L->flat && !json_is_object(L->exe))
    return bad(c, JP("workflow.execution"), "missing (1.5 layout)");
  json_t *mk = L->flat ? wf : L->exe; /* holds the makespan and the machines */
  if ((rc = get_num(c, mk, "makespanInSeconds", "makespan",
                    JP(L->flat ? "workflow" : "workflow.execution"), 0, &w->makespan_s)))
    return rc;
  if ((rc = load_machines(c, w, json_object_get(mk, "machines"),
                          JP(L->flat ? "workflow.machines" : "workflow.execution.machines"))))
    return rc;
  L->n = json_array_size(L->tasks);
  if (!L->n) return bad(c, JP(L->tw), "no task");
  if (L->n > DCSIM_WORKFLOW_MAX_TASKS)
    return DCSIM_ERR(c->err, DCSIM_ERANGE, c->path, 0, "%s: more than %u tasks", L->tw,
                     DCSIM_WORKFLOW_MAX_TASKS);
  return 0;
}

/* ids and names (1.4 refers to tasks by name, 1.5 by id; both are indexed) */
static int index_tasks(wfc_load *L) {
  const ctx *c = &L->c;
  dcsim_wfc *w = L->w;
  size_t n = L->n;
  w->tasks = calloc(n, sizeof *w->tasks);
  L->ix.a = calloc(2 * n, sizeof *L->ix.a);
  L->pcap = calloc(n, sizeof *L->pcap);
  if (!w->tasks || !L->ix.a || !L->pcap)
    return DCSIM_ERR(c->err, DCSIM_ENOMEM, c->path, 0, "out of memory");
  for (size_t i = 0; i < n; i++) {
    json_t *t = json_array_get(L->tasks, i);
    const char *id = get_str(t, "id"), *nm = get_str(t, "name");
    const jpath wi = { JP(L->tw), NULL, (long)i };
    if (!json_is_object(t) || !(L->flat ? (nm != NULL || id != NULL) : id != NULL))
      return bad(c, &wi, "%s", L->flat ? "a task needs a name" : "a task needs an id");
    if (!(w->tasks[i].id = task_name(L->flat ? (nm ? nm : id) : id)))
      return DCSIM_ERR(c->err, DCSIM_ENOMEM, c->path, 0, "out of memory");
    w->n_tasks++;
    if (id) L->ix.a[L->ix.n++] = (key_ix){ id, (uint32_t)i };
    if (nm && (!id || strcmp(nm, id) != 0)) L->ix.a[L->ix.n++] = (key_ix){ nm, (uint32_t)i };
  }
  qsort(L->ix.a, L->ix.n, sizeof *L->ix.a, cmp_key);
  for (size_t i = 1; i < L->ix.n; i++)
    if (strcmp(L->ix.a[i - 1].key, L->ix.a[i].key) == 0 && L->ix.a[i - 1].ix != L->ix.a[i].ix) {
      const jpath wi = { JP(L->tw), NULL, (long)L->ix.a[i].ix };
      return bad(c, &wi, "'%.200s' names two tasks", L->ix.a[i].key);
    }
  return 0;
}

/* 1.5 files, indexed by id */
static int index_files(wfc_load *L) {
  const ctx *c = &L->c;
  json_t *farr = L->farr = L->flat ? NULL : json_object_get(L->spec, "files");
  if (!farr) return 0;
  if (!json_is_array(farr)) return bad(c, JP("workflow.specification.files"), "not an array");
  if (!(L->fx.a = calloc(json_array_size(farr) + 1, sizeof *L->fx.a)))
    return DCSIM_ERR(c->err, DCSIM_ENOMEM, c->path, 0, "out of memory");
  for (size_t i = 0; i < json_array_size(farr); i++) {
    const char *id = get_str(json_array_get(farr, i), "id");
    if (!id) return bad(c, JP("workflow.specification.files[]"), "a file needs an id");
    L->fx.a[L->fx.n++] = (key_ix){ id, (uint32_t)i };
  }
  qsort(L->fx.a, L->fx.n, sizeof *L->fx.a, cmp_key);
  return 0;
}

/* execution data (1.5: execution.tasks by id), one record for every task */
static int load_executions(wfc_load *L) {
  const ctx *c = &L->c;
  size_t n = L->n;
  int flat = L->flat, rc = 0;
  unsigned char *seen = NULL;
  json_t *etasks = flat ? NULL : json_object_get(L->exe, "tasks");
  if (!flat && !json_is_array(etasks)) {
    rc = bad(c, JP("workflow.execution.tasks"), "missing or not an array");
    goto out;
  }
  if (!(seen = calloc(n, 1))) {
    rc = DCSIM_ERR(c->err, DCSIM_ENOMEM, c->path, 0, "out of memory");
    goto out;
  }
  for (size_t i = 0; i < (flat ? n : json_array_size(etasks)) && !rc; i++) {
    json_t *t = json_array_get(flat ? L->tasks : etasks, i);
    const jpath at = { JP(flat ? L->tw : "workflow.execution.tasks"), NULL, (long)i }, *wi = &at;
    long k = (long)i;
    if (!flat) {
      const char *id = get_str(t, "id");
      k = id ? index_find(&L->ix, id) : -1;
      if (k < 0) {
        rc = bad(c, wi, "its id is not a task of workflow.specification.tasks");
        break;
      }
      if (seen[k]) {
        rc = bad(c, wi, "a second execution record of the same task");
        break;
      }
    }
    seen[k] = 1;
    rc = load_exec(c, L->w, &L->w->tasks[k], t, wi, flat);
  }
  for (size_t i = 0; i < n && !rc; i++)
    if (!seen[i]) {
      const jpath wi = { JP(L->tw), NULL, (long)i };
      rc = bad(c, &wi, "no execution record (runtimeInSeconds)");
    }
out:
  free(seen);
  return rc;
}

/* The parents and children of task i (t, at JSON path wi) as parent links. */
static int task_links(wfc_load *L, size_t i, json_t *t, const jpath *wi) {
  const ctx *c = &L->c;
  for (int side = 0; side < 2; side++) {
    json_t *l = json_object_get(t, side ? "children" : "parents");
    if (!l) continue;
    if (!json_is_array(l))
      return bad(c, wi, "%s", side ? "children is not an array" : "parents is not an array");
    for (size_t k = 0; k < json_array_size(l); k++) {
      const char *ref = json_string_value(json_array_get(l, k));
      long o = ref ? index_find(&L->ix, ref) : -1;
      if (o < 0)
        return bad(c, wi, "%s '%.200s' is not a task", side ? "child" : "parent",
                   ref ? ref : "(not a string)");
      if ((size_t)o == i) return bad(c, wi, "a task depends on itself");
      uint32_t child = side ? (uint32_t)o : (uint32_t)i, parent = side ? (uint32_t)i : (uint32_t)o;
      if (add_parent(&L->w->tasks[child], parent, &L->pcap[child]))
        return DCSIM_ERR(c->err, DCSIM_ENOMEM, c->path, 0, "out of memory");
    }
  }
  return 0;
}

/* Bytes task i (t, at JSON path wi) reads and writes: 1.4 files in the task, 1.5 ids of files. */
static int task_files(wfc_load *L, size_t i, json_t *t, const jpath *wi) {
  const ctx *c = &L->c;
  dcsim_wfc_task *tk = &L->w->tasks[i];
  int rc;
  if (L->flat) {
    json_t *fl = json_object_get(t, "files");
    for (size_t k = 0; json_is_array(fl) && k < json_array_size(fl); k++) {
      json_t *f = json_array_get(fl, k);
      double sz = 0;
      if ((rc = get_num(c, f, "sizeInBytes", "size", wi, 0, &sz))) return rc;
      const char *link = get_str(f, "link"), *key = get_str(f, "name");
      int input = link && strcmp(link, "input") == 0;
      if (input) {
        tk->read_byte += sz;
        tk->n_read++;
      } else {
        tk->write_byte += sz;
        tk->n_write++;
      }
      if (!key) key = get_str(f, "id");
      if (key && note_use(&L->uses, key, sz, i, !input))
        return DCSIM_ERR(c->err, DCSIM_ENOMEM, c->path, 0, "out of memory");
    }
  } else if ((rc = file_bytes(c, json_object_get(t, "inputFiles"), &L->fx, L->farr, wi, &L->uses, i,
                              0, &tk->read_byte, &tk->n_read)) ||
             (rc = file_bytes(c, json_object_get(t, "outputFiles"), &L->fx, L->farr, wi, &L->uses,
                              i, 1, &tk->write_byte, &tk->n_write))) {
    return rc;
  }
  if (tk->read_byte > 0 || tk->write_byte > 0) L->w->has_files = 1;
  return 0;
}

/* dependencies and files */
static int load_links(wfc_load *L) {
  int rc;
  for (size_t i = 0; i < L->n; i++) {
    json_t *t = json_array_get(L->tasks, i);
    const jpath wi = { JP(L->tw), NULL, (long)i };
    if ((rc = task_links(L, i, t, &wi)) || (rc = task_files(L, i, t, &wi))) return rc;
  }
  return 0;
}

static int cmp_use(const void *a, const void *b) {
  const file_use *x = a, *y = b;
  int r = strcmp(x->key, y->key);
  if (r) return r;
  return x->task != y->task ? (x->task > y->task) - (x->task < y->task) : x->output - y->output;
}

/* The workflow's inputs (files no task writes: stage-in, and the tasks reading them) and final
 * outputs (files no task reads: stage-out), each file counted once at its largest recorded size. */
static void stage_files(wfc_load *L) {
  file_uses *u = &L->uses;
  if (u->n) qsort(u->a, u->n, sizeof *u->a, cmp_use);
  for (size_t i = 0; i < u->n;) {
    size_t k = i;
    int read = 0, written = 0;
    double size = 0;
    for (; k < u->n && strcmp(u->a[k].key, u->a[i].key) == 0; k++) {
      if (u->a[k].output)
        written = 1;
      else
        read = 1;
      if (u->a[k].size_byte > size) size = u->a[k].size_byte;
    }
    if (read && !written) {
      L->w->stage_in_byte += size;
      for (size_t q = i; q < k; q++) L->w->tasks[u->a[q].task].reads_inputs = 1;
    }
    if (written && !read) L->w->stage_out_byte += size;
    i = k;
  }
}

/* The runtime system that ran the instance: runtimeSystem (1.5) or wms (1.4). */
static int read_wms(const ctx *c, dcsim_wfc *w, json_t *root) {
  json_t *rs = json_object_get(root, "runtimeSystem");
  if (!json_is_object(rs)) rs = json_object_get(root, "wms");
  if (!json_is_object(rs)) return 0;
  const char *name = get_str(rs, "name"), *ver = get_str(rs, "version");
  json_t *v = json_object_get(rs, "version");
  if ((name && !(w->wms_name = dcsim_strdup(name))) ||
      (ver && !(w->wms_version = dcsim_strdup(ver))) ||
      (!ver && json_is_number(v) && /* a version written as a number: 5.0 */
       !(w->wms_version = dcsim_strdup_printf("%g", json_number_value(v)))))
    return DCSIM_ERR(c->err, DCSIM_ENOMEM, c->path, 0, "out of memory");
  return 0;
}

/* Parents sorted, duplicates dropped (a link declared on both ends). */
static void sort_parents(dcsim_wfc *w) {
  for (size_t i = 0; i < w->n_tasks; i++) {
    dcsim_wfc_task *tk = &w->tasks[i];
    if (tk->n_parents > 1) qsort(tk->parents, tk->n_parents, sizeof *tk->parents, dcsim_cmp_u32);
    size_t u = 0;
    for (size_t k = 0; k < tk->n_parents; k++)
      if (!k || tk->parents[k] != tk->parents[k - 1]) tk->parents[u++] = tk->parents[k];
    tk->n_parents = u;
  }
}

/* The first `"id"` (id quoted, n bytes) in [p, end), or NULL: a scan from quote to quote. */
static const char *find_quoted(const char *p, const char *end, const char *id, size_t n) {
  while ((p = memchr(p, '"', (size_t)(end - p)))) {
    if ((size_t)(end - p) > n + 1 && memcmp(p + 1, id, n) == 0 && p[n + 1] == '"') return p + 1;
    p++;
  }
  return NULL;
}

/* The line of each task for messages: its quoted name searched for in the file's text, in task
 * order, from the first "tasks" key on (the order of the specification). Best effort: a name the
 * file escapes is not found (line 0); after 16 such names the rest get no line, since each miss
 * reads the rest of the file (a search per task of the whole rest is quadratic). */
static void task_lines(dcsim_wfc *w) {
  static const dcsim_file_rules rules = { 256u * 1024 * 1024, "too large", NULL, 1 };
  char *text = NULL;
  size_t len = 0;
  if (dcsim__file_read(w->path, &rules, &text, &len, NULL)) return;
  const char *end = text + len, *p = find_quoted(text, end, "tasks", 5);
  const char *counted = text;
  int line = 1, misses = 0;
  for (size_t i = 0; p && i < w->n_tasks && misses <= 16; i++) {
    size_t n = strlen(w->tasks[i].id);
    const char *q = find_quoted(p, end, w->tasks[i].id, n);
    if (!q) {
      misses++;
      continue;
    }
    for (; counted < q; counted++) line += *counted == '\n';
    w->tasks[i].line = line;
    p = q + n;
  }
  free(text);
}

int dcsim_wfc_load(const char *path, dcsim_wfc **out, dcsim_error *err) {
  return dcsim_wfc_load_budget(path, NULL, out, err);
}

/* The memory jansson's tree of the file would take and the time reading it would, against the
 * budget (or the fixed cap). */
static int check_size(const char *path, const dcsim_budget *b, dcsim_error *err) {
  struct stat st;
  if (stat(path, &st) != 0) return DCSIM_ERR(err, DCSIM_EIO, path, 0, "%s", strerror(errno));
  const uint64_t size = (uint64_t)st.st_size;
  if (!b && size > DCSIM_WFC_MAX_FILE_BYTE) {
    dcsim_num_text h, m;
    dcsim_human_bytes(size, h.s, sizeof h.s);
    dcsim_human_bytes(DCSIM_WFC_MAX_FILE_BYTE, m.s, sizeof m.s);
    return DCSIM_ERR(err, DCSIM_ERANGE, path, 0,
                     "a WfCommons instance of %s: more than the %s this command reads", h.s, m.s);
  }
  if (b && size > UINT64_MAX / DCSIM_WFC_BYTES_PER_BYTE)
    return DCSIM_ERR(err, DCSIM_ERANGE, path, 0, "a WfCommons instance of %llu bytes",
                     (unsigned long long)size);
  int rc = dcsim_budget_bytes(b, size * DCSIM_WFC_BYTES_PER_BYTE,
                              "reading the WfCommons instance would", path, 0, err);
  if (rc) return rc;
  char *prefix = dcsim_strdup_printf("reading the WfCommons instance (%llu bytes) takes as long as",
                                     (unsigned long long)size);
  rc = prefix ? dcsim_budget_work(b, size * DCSIM_WFC_WORK_PER_BYTE, prefix, "simulated tasks",
                                  path, 0, err)
              : DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  free(prefix);
  return rc;
}

int dcsim_wfc_load_budget(const char *path, const dcsim_budget *budget, dcsim_wfc **out,
                          dcsim_error *err) {
  wfc_load L = { .c = { path, err } };
  json_error_t je;
  int rc = 0;
  *out = NULL;
  if ((rc = dcsim__file_check_input(path, err)) || /* a FIFO would block jansson's open */
      (rc = check_size(path, budget, err)))
    return rc;
  L.w = calloc(1, sizeof *L.w);
  json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
  if (!L.w || !(L.w->path = dcsim_strdup(path))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  if (!root) {
    if (je.line < 0)
      rc = DCSIM_ERR(err, DCSIM_EIO, path, 0, "%s", je.text);
    else
      rc = DCSIM_ERR(err, DCSIM_EPARSE, path, je.line, "column %d: %s", je.column, je.text);
    goto out;
  }
  if ((rc = read_header(&L, root)) || (rc = read_wms(&L.c, L.w, root)) || (rc = index_tasks(&L)) ||
      (rc = index_files(&L)) || (rc = load_executions(&L)) || (rc = load_links(&L)))
    goto out;
  sort_parents(L.w);
  stage_files(&L);
  task_lines(L.w);
  *out = L.w;
  L.w = NULL;
out:
  free(L.ix.a);
  free(L.fx.a);
  free(L.pcap);
  free(L.uses.a);
  json_decref(root);
  dcsim_wfc_free(L.w);
  return rc;
}

int dcsim_wfc_workflow(const dcsim_wfc *w, const dcsim_wfc_opts *o, dcsim_workflow **out,
                       dcsim_error *err) {
  int rc = 0;
  size_t n = w->n_tasks;
  dcsim_task_template *tt = calloc(n, sizeof *tt);
  dcsim_wf_item *items = calloc(n, sizeof *items);
  char **after = calloc(n, sizeof *after);
  *out = NULL;
  if (!tt || !items || !after) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, w->path, 0, "out of memory");
    goto out;
  }
  for (size_t i = 0; i < n; i++) {
    const dcsim_wfc_task *t = &w->tasks[i];
    const dcsim_wfc_machine *m = t->machine >= 0 ? &w->machines[t->machine] : NULL;
    double run = t->runtime_s;
    if (o->io_bw_bps > 0)
      run += (t->read_byte + t->write_byte) / o->io_bw_bps; /* files through a shared store */
    tt[i] = (dcsim_task_template){ .name = t->id,
                                   .device = DCSIM_DEV_CPU,
                                   .nodes = 1,
                                   .cores_per_node = t->cores,
                                   .runtime_s = run,
                                   .delay_s = o->delay_s,
                                   .input_byte = t->read_byte,
                                   .output_byte = t->write_byte,
                                   .input_files = t->n_read,
                                   .output_files = t->n_write,
                                   .priority = t->priority,
                                   .reads_inputs = t->reads_inputs,
                                   .line = t->line };
    if (o->pin && m) tt[i].group = m->name; /* the machine it ran on */
    if (!o->pin && m && m->speed_mhz > 0)
      tt[i].ref_ghz = m->speed_mhz / 1000; /* scaled to the simulated clock */
    size_t len = 1;
    for (size_t k = 0; k < t->n_parents; k++) len += strlen(w->tasks[t->parents[k]].id) + 1;
    if (!(after[i] = malloc(len))) {
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, w->path, 0, "out of memory");
      goto out;
    }
    size_t pos = 0;
    after[i][0] = '\0';
    for (size_t k = 0; k < t->n_parents; k++)
      pos += (size_t)sprintf(after[i] + pos, "%s%s", k ? " " : "", w->tasks[t->parents[k]].id);
    items[i] = (dcsim_wf_item){ .kind = DCSIM_WF_TASK, .tmpl = (uint32_t)i, .after = after[i] };
  }
  if ((rc = dcsim_workflow_build(w->path, tt, n, items, n, out, err))) goto out;
  free((*out)->name);
  if (!((*out)->name = dcsim_strdup(w->name))) {
    dcsim_workflow_free(*out);
    *out = NULL;
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, w->path, 0, "out of memory");
    goto out;
  }
  (*out)->dispatch_s = o->dispatch_s;
  (*out)->stage_in_byte = w->stage_in_byte;
  (*out)->stage_out_byte = w->stage_out_byte;
  if ((w->wms_name && !((*out)->wms_system = dcsim_strdup(w->wms_name))) ||
      (w->wms_version && !((*out)->wms_version = dcsim_strdup(w->wms_version)))) {
    dcsim_workflow_free(*out);
    *out = NULL;
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, w->path, 0, "out of memory");
  }
out:
  if (after)
    for (size_t i = 0; i < n; i++) free(after[i]);
  free(after);
  free(items);
  free(tt);
  return rc;
}

int dcsim_wfc_platform(const dcsim_wfc *w, const dcsim_node_group *node, dcsim_platform **out,
                       dcsim_error *err) {
  size_t ng = w->n_machines ? w->n_machines : 1;
  dcsim_node_group *g = calloc(ng, sizeof *g);
  if (!g) return DCSIM_ERR(err, DCSIM_ENOMEM, w->path, 0, "out of memory");
  char *pname = dcsim_strdup_printf("%s (recorded machines)", w->name);
  if (!pname) {
    free(g);
    return DCSIM_ERR(err, DCSIM_ENOMEM, w->path, 0, "out of memory");
  }
  unsigned widest = 1;
  for (size_t i = 0; i < w->n_tasks; i++)
    if (w->tasks[i].cores > widest) widest = w->tasks[i].cores;
  for (size_t i = 0; i < ng; i++) {
    const dcsim_wfc_machine *m = w->n_machines ? &w->machines[i] : NULL;
    unsigned cores = m && m->cores ? m->cores : widest;
    /* tasks must fit the machine they ran on */
    for (size_t t = 0; m && t < w->n_tasks; t++)
      if (w->tasks[t].machine == (long)i && w->tasks[t].cores > cores) cores = w->tasks[t].cores;
    g[i] = *node; /* its CPU profile and power states */
    g[i].name = m ? m->name : "local";
    g[i].count = 1;
    g[i].sockets = 2;
    g[i].cores = cores;
    g[i].memory_byte = m ? m->memory_byte : 0;
    g[i].gpu = g[i].rack = NULL;
    g[i].gpus_per_node = 0;
  }
  int rc = dcsim_platform_build(pname, g, ng, 0, 0, out, err);
  free(pname);
  free(g);
  return rc;
}
