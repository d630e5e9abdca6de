/* sweep.c — design-space sweeps run by the engine, in parallel (see dcsim/sweep.h, doc/sweep.md).
 */
#include "dcsim/sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <omp.h>
#include <unistd.h>

#include "dcsim/bands.h"
#include "dcsim/budget.h"
#include "dcsim/catalog.h"
#include "dcsim/cost.h"
#include "dcsim/engine.h"
#include "dcsim/metrics.h"
#include "dcsim/model.h"
#include "dcsim/model_comm.h"
#include "dcsim/pareto.h"
#include "dcsim/scenario.h"
#include "dcsim/sched.h"
#include "dcsim/strutil.h"
#include "dcsim/sweep_bands.h"
#include "sweep/internal.h"
#include "sweep/sweep_fields.h"
#include "util/sha256.h"

/* Which profiles of the lists a point uses (its sizes and frequency are in the point itself:
 * frequency names and `all` cores are resolved per CPU, so the lists need not form a grid). */
typedef struct point_key {
  uint32_t c, g, h; /* h: the host CPU (--host-cpu) */
} point_key;

struct dcsim_sweep {
  dcsim_scenario *base;
  dcsim_job_policy job_policy;
  size_t n_cpus, n_gpus, n_nodes, n_cores, n_freqs;
  size_t n_threadings;
  unsigned threadings[2]; /* DCSIM_MODEL_HW_THREADS or 0, in list order */
  unsigned model_flags;   /* the definition's (dcsim/model.h) */
  const dcsim_cpu_profile_t **cpus;
  const dcsim_gpu_profile_t **gpus;
  unsigned *nodes, *cores;
  char **freqs;
  size_t n_sets;
  dcsim_param_set *sets; /* --set, names owned */
  /* the workflow's own values, shown for lists left empty */
  /* (names of the base's profiles, which the base owns; "" when none or not one) */
  const char *own_cpu, *own_gpu;
  const char *own_host;                       /* the CPU of the GPU nodes the GPU tasks run on */
  const dcsim_cpu_profile_t *own_cpu_profile; /* the one CPU of the CPU tasks, or NULL */
  unsigned own_nodes, own_cores;
  size_t n_cpu_tasks;   /* CPU task templates of the workflows */
  int cpu_tasks_differ; /* ... in nodes, cores per node or frequency */
  dcsim_str note;       /* dcsim_sweep_note(); empty = none */
  size_t n_points;
  dcsim_sweep_point *points;
  point_key *keys; /* per point: its CPU and GPU in the lists */
  char *definition;
  char hash[65];
  const volatile sig_atomic_t *interrupt; /* polled before each point and by its engine */
  unsigned shard_i, shard_n; /* this process evaluates the points of shard i of n (n = 0: all) */
  dcsim_cost_opts cost;      /* its price names owned (cost_names) */
  dcsim_price_set *cost_prices;
  unsigned objectives;
  size_t n_gcounts, n_hosts; /* --gpus, --host-cpu */
  unsigned *gcounts;
  const dcsim_cpu_profile_t **hosts;
};

void dcsim_sweep_free(dcsim_sweep_t *sw) {
  if (!sw) return;
  dcsim_sweep_points_free(sw->points, sw->n_points);
  free(sw->keys);
  for (size_t i = 0; i < sw->n_freqs; i++) free(sw->freqs[i]);
  free(sw->freqs);
  for (size_t i = 0; i < sw->n_sets; i++) free(sw->sets[i].name);
  free(sw->sets);
  free(sw->cpus);
  free(sw->gpus);
  free(sw->nodes);
  free(sw->cores);
  free(sw->definition);
  dcsim_str_release(&sw->note);
  for (size_t i = 0; sw->cost_prices && i < sw->cost.n_prices; i++)
    free((char *)sw->cost_prices[i].name);
  free(sw->cost_prices);
  free(sw->gcounts);
  free(sw->hosts);
  dcsim_scenario_free(sw->base);
  free(sw);
}

size_t dcsim_sweep_n_points(const dcsim_sweep_t *sw) { return sw->n_points; }
dcsim_sweep_point *dcsim_sweep_points(dcsim_sweep_t *sw) { return sw->points; }
const char *dcsim_sweep_hash(const dcsim_sweep_t *sw) { return sw->hash; }
const char *dcsim_sweep_definition(const dcsim_sweep_t *sw) { return sw->definition; }

/* --set NAME=VALUE: each name a parameter of the dwarf of some task, given once */
static int take_sets(dcsim_sweep_t *sw, const dcsim_sweep_def *def, dcsim_error *err) {
  if (def->n_sets == 0) return 0;
  if (def->n_sets > DCSIM_SWEEP_MAX_LIST)
    return DCSIM_PERR(err, DCSIM_ERANGE, "sets", -1, "more than %d parameters",
                      DCSIM_SWEEP_MAX_LIST);
  if (!(sw->sets = calloc(def->n_sets, sizeof *sw->sets)))
    return DCSIM_ERR(err, DCSIM_ENOMEM, def->input, 0, "out of memory");
  const dcsim_scenario *s = sw->base;
  for (size_t i = 0; i < def->n_sets; i++) {
    const dcsim_param_set *ps = &def->sets[i];
    int known = 0;
    for (size_t w = 0; w < s->n_wfs; w++)
      for (size_t k = 0; k < s->wfs[w].wf->n_templates; k++) {
        const dcsim_dwarf_t *d = s->wfs[w].dwarfs[k];
        for (size_t j = 0; d && j < dcsim_dwarf_n_params(d); j++)
          known |= strcmp(dcsim_dwarf_param(d, j), ps->name) == 0;
      }
    for (size_t j = 0; j < i; j++)
      if (strcmp(def->sets[j].name, ps->name) == 0)
        return DCSIM_PERR(err, DCSIM_EUSAGE, "sets", (int)i, "%s given twice", ps->name);
    if (!known)
      return DCSIM_PERR(err, DCSIM_EUSAGE, "sets", (int)i,
                        "%s: no task of %s has a dwarf with the parameter %s", ps->name, def->input,
                        ps->name);
    if (!isfinite(ps->value) || ps->value < 0)
      return DCSIM_PERR(err, DCSIM_ERANGE, "sets", (int)i, "%s: value must be a finite number >= 0",
                        ps->name);
    if (!(sw->sets[i].name = dcsim_strdup(ps->name)))
      return DCSIM_ERR(err, DCSIM_ENOMEM, def->input, 0, "out of memory");
    sw->sets[i].value = ps->value;
    sw->n_sets++;
  }
  return 0;
}

static int take_counts(const char *opt, const unsigned *v, size_t n, unsigned max, unsigned *dst,
                       size_t *count, dcsim_error *err);

/* The cost options (checked against the loaded profiles, names copied) and the objectives. */
static int take_cost(dcsim_sweep_t *sw, const dcsim_sweep_def *def, dcsim_error *err) {
  dcsim_cost_opts_default(&sw->cost);
  sw->objectives = def->objectives ? def->objectives : DCSIM_OBJ_DEFAULT;
  if (!def->cost) return 0;
  int rc = dcsim_cost_check(def->cost, sw->base, err);
  if (rc) return rc;
  sw->cost.kwh_usd = def->cost->kwh_usd;
  sw->cost.lifetime_years = def->cost->lifetime_years;
  size_t n = def->cost->n_prices;
  if (!(sw->cost_prices = calloc(n ? n : 1, sizeof *sw->cost_prices)))
    return DCSIM_ERR(err, DCSIM_ENOMEM, def->input, 0, "out of memory");
  for (size_t i = 0; i < n; i++, sw->cost.n_prices++) {
    sw->cost_prices[i].usd = def->cost->prices[i].usd;
    if (!(sw->cost_prices[i].name = dcsim_strdup(def->cost->prices[i].name)))
      return DCSIM_ERR(err, DCSIM_ENOMEM, def->input, 0, "out of memory");
  }
  sw->cost.prices = sw->cost_prices;
  return 0;
}

unsigned dcsim_sweep_objectives(const dcsim_sweep_t *sw) { return sw->objectives; }

/* --gpus (GPUs per GPU node, 1 to 64, each once) and --host-cpu (CPU profiles of the GPU nodes) */
static int take_gpu_axes(dcsim_sweep_t *sw, const dcsim_sweep_def *def, dcsim_error *err) {
  int rc, has_gpu_group = 0;
  for (size_t g = 0; g < sw->base->n_groups; g++) has_gpu_group |= sw->base->groups[g].gpu != NULL;
  if ((def->n_gpu_counts || def->n_host_cpus) && !has_gpu_group)
    return DCSIM_PERR(err, DCSIM_EUSAGE, def->n_gpu_counts ? "gpu_counts" : "host_cpus", -1,
                      "platform %s has no node group with GPUs", sw->base->platform->path);
  if (def->n_gpu_counts > DCSIM_SWEEP_MAX_LIST || def->n_host_cpus > DCSIM_SWEEP_MAX_LIST)
    return DCSIM_PERR(err, DCSIM_EUSAGE,
                      def->n_gpu_counts > DCSIM_SWEEP_MAX_LIST ? "gpu_counts" : "host_cpus", -1,
                      "a sweep list has more than %d values", DCSIM_SWEEP_MAX_LIST);
  sw->gcounts = calloc(def->n_gpu_counts + 1, sizeof *sw->gcounts);
  sw->hosts = calloc(def->n_host_cpus + 1, sizeof *sw->hosts);
  if (!sw->gcounts || !sw->hosts)
    return DCSIM_ERR(err, DCSIM_ENOMEM, def->input, 0, "out of memory");
  if ((rc = take_counts("gpu_counts", def->gpu_counts, def->n_gpu_counts, 64, sw->gcounts,
                        &sw->n_gcounts, err)))
    return rc;
  for (size_t i = 0; i < def->n_host_cpus; i++, sw->n_hosts++) {
    if ((rc = dcsim_scenario_cpu_profile(sw->base, def->host_cpus[i], &sw->hosts[i], err))) {
      dcsim_error_param(err, "host_cpus", (int)i);
      return rc;
    }
    for (size_t k = 0; k < i; k++)
      if (sw->hosts[k] == sw->hosts[i])
        return DCSIM_PERR(err, DCSIM_EUSAGE, "host_cpus", (int)i, "%s given twice",
                          def->host_cpus[i]);
  }
  return 0;
}

/* A point simulates the whole workflow. When its CPU tasks differ in nodes, cores or frequency
 * (workflows/bifft-scaling.xml: twelve configurations one after the other) a point's time is
 * their makespan, not one configuration's, and a list would set them all alike: say so. */
static void make_note(dcsim_sweep_t *sw) {
  if (!sw->cpu_tasks_differ) return;
  dcsim_str_addf(
      &sw->note,
      "the workflow's %zu CPU tasks differ in nodes, cores or frequency, and every point "
      "runs all of them: a point's time is their makespan and its energy that of every node "
      "held, not one configuration's, and --nodes, --cores and --freq set all the tasks "
      "alike; to compare configurations, sweep a workflow with one task (such as "
      "workflows/bifft.xml)",
      sw->n_cpu_tasks);
}

const char *dcsim_sweep_note(const dcsim_sweep_t *sw) {
  return sw->note.len ? dcsim_str_cstr(&sw->note) : NULL;
}

/* A CPU task's frequency as the sweep compares them: its state label, its GHz ("%g"), or
 * "nominal"; malloc'd (NULL when out of memory). */
static char *task_freq(const dcsim_task_template *t) {
  if (t->freq_label) return dcsim_strdup(t->freq_label);
  if (t->freq_ghz > 0) return dcsim_strdup_printf("%g", t->freq_ghz);
  return dcsim_strdup("nominal");
}

/* The value every CPU task shares (for lists left empty), or 0 when they differ; whether the CPU
 * tasks differ in nodes, cores or frequency at all (make_note). 0, or DCSIM_ENOMEM. */
static int own_values(dcsim_sweep_t *sw, const char *input, dcsim_error *err) {
  const dcsim_scenario *s = sw->base;
  int first = 1, same_nodes = 1, same_cores = 1, same_freq = 1;
  char *f = NULL; /* the first CPU task's frequency */
  for (size_t w = 0; w < s->n_wfs; w++) {
    const dcsim_workflow *wf = s->wfs[w].wf;
    for (size_t k = 0; k < wf->n_templates; k++) {
      const dcsim_task_template *t = &wf->templates[k];
      if (t->device == DCSIM_DEV_GPU) continue;
      sw->n_cpu_tasks++;
      if (first) {
        sw->own_nodes = t->nodes;
        sw->own_cores = t->cores_per_node;
        if (!(f = task_freq(t))) return DCSIM_ERR(err, DCSIM_ENOMEM, input, 0, "out of memory");
        first = 0;
        continue;
      }
      if (t->nodes != sw->own_nodes) same_nodes = 0;
      if (t->cores_per_node != sw->own_cores) same_cores = 0;
      char *tf = task_freq(t);
      if (!tf) {
        free(f);
        return DCSIM_ERR(err, DCSIM_ENOMEM, input, 0, "out of memory");
      }
      if (strcmp(tf, f) != 0) same_freq = 0;
      free(tf);
    }
  }
  free(f);
  sw->cpu_tasks_differ = !same_nodes || !same_cores || !same_freq;
  if (!same_nodes) sw->own_nodes = 0;
  if (!same_cores) sw->own_cores = 0;
  /* the profiles of the groups the tasks run on (dcsim_scenario_task_group) */
  const char *cpu = NULL, *gpu = NULL;
  int cpu_same = 1, gpu_same = 1;
  for (size_t w = 0; w < s->n_wfs; w++) {
    const dcsim_workflow *wf = s->wfs[w].wf;
    for (size_t k = 0; k < wf->n_templates; k++) {
      const dcsim_task_template *t = &wf->templates[k];
      for (int dev = 0; dev < 2; dev++) {
        if (dev == 0 && t->device == DCSIM_DEV_GPU) continue;
        if (dev == 1 && t->device == DCSIM_DEV_CPU) continue;
        uint32_t g;
        if (dcsim_scenario_task_group(s, wf, t, dev, &g, NULL)) continue; /* the scenario said */
        if (dev == 1 && s->groups[g].gpu) {
          const char *n = dcsim_gpu_profile_name(s->groups[g].gpu);
          if (!sw->own_host) /* the first GPU group's host: where the GPU tasks run */
            sw->own_host = dcsim_cpu_profile_name(s->groups[g].cpu);
          if (gpu && strcmp(gpu, n) != 0) gpu_same = 0;
          if (!gpu) gpu = n;
        } else if (dev == 0) {
          const char *n = dcsim_cpu_profile_name(s->groups[g].cpu);
          if (cpu && strcmp(cpu, n) != 0) cpu_same = 0;
          if (!cpu) cpu = n;
        }
      }
    }
  }
  sw->own_cpu = cpu && cpu_same ? cpu : "";
  for (size_t g = 0; cpu && cpu_same && g < s->n_groups; g++)
    if (!strcmp(dcsim_cpu_profile_name(s->groups[g].cpu), cpu))
      sw->own_cpu_profile = s->groups[g].cpu;
  sw->own_gpu = gpu && gpu_same ? gpu : "";
  if (!sw->own_host) sw->own_host = "";
  return 0;
}

/* A --freq value: nominal, min, max, a positive number of GHz (optionally suffixed GHz), or a
 * state label (turbo) of at least one of the sweep's CPU profiles. */
static int check_freq(const dcsim_sweep_t *sw, const char *f, dcsim_error *err) {
  if (!strcmp(f, "nominal") || !strcmp(f, "min") || !strcmp(f, "max")) return 0;
  double g;
  if (dcsim_parse_ghz(f, &g) == 0) {
    if (g > 0 && g < 100) return 0;
    return DCSIM_PERR(err, DCSIM_EUSAGE, "freqs", -1,
                      "'%s': expected a frequency in GHz (0 < f < 100)", f);
  }
  size_t n = sw->n_cpus;
  for (size_t i = 0; i < (n ? n : sw->base->n_groups); i++) {
    const dcsim_cpu_profile_t *c = n ? sw->cpus[i] : sw->base->groups[i].cpu;
    dcsim_cpu_state st;
    if (dcsim_cpu_profile_freq(c, f, &st, NULL) == 0) return 0;
  }
  return DCSIM_PERR(err, DCSIM_EUSAGE, "freqs", -1,
                    "'%s': neither a number of GHz, nominal, min, max, nor a state label "
                    "of the sweep's CPU profiles",
                    f);
}

/* A profile name a sweep point holds whole (dcsim_sweep_point.cpu, .gpu, .host_cpu: 63 bytes),
 * refused when longer: cut, it would be looked up as another profile. */
static int name_fits(const char *name, const char *path, dcsim_error *err) {
  size_t max = sizeof((dcsim_sweep_point *)0)->cpu - 1;
  if (strlen(name) <= max) return 0;
  return DCSIM_ERR(err, DCSIM_ERANGE, path, 0,
                   "profile name '%.40s...' is longer than %zu bytes, the most a sweep point holds",
                   name, max);
}

/* every profile a point may name: the base's groups and the lists' */
static int check_names(const dcsim_sweep_t *sw, dcsim_error *err) {
  int rc = 0;
  const dcsim_scenario *s = sw->base;
  for (size_t g = 0; g < s->n_groups && !rc; g++)
    if (!(rc = name_fits(dcsim_cpu_profile_name(s->groups[g].cpu),
                         dcsim_cpu_profile_path(s->groups[g].cpu), err)) &&
        s->groups[g].gpu)
      rc = name_fits(dcsim_gpu_profile_name(s->groups[g].gpu),
                     dcsim_gpu_profile_path(s->groups[g].gpu), err);
  for (size_t i = 0; i < sw->n_cpus && !rc; i++)
    rc = name_fits(dcsim_cpu_profile_name(sw->cpus[i]), dcsim_cpu_profile_path(sw->cpus[i]), err);
  for (size_t i = 0; i < sw->n_hosts && !rc; i++)
    rc = name_fits(dcsim_cpu_profile_name(sw->hosts[i]), dcsim_cpu_profile_path(sw->hosts[i]), err);
  for (size_t i = 0; i < sw->n_gpus && !rc; i++)
    rc = name_fits(dcsim_gpu_profile_name(sw->gpus[i]), dcsim_gpu_profile_path(sw->gpus[i]), err);
  return rc;
}

/* the CPU and GPU profiles of the lists, loaded into the base; each once */
static int take_profiles(dcsim_sweep_t *sw, const dcsim_sweep_def *def, dcsim_error *err) {
  int rc, has_gpu_group = 0;
  for (size_t g = 0; g < sw->base->n_groups; g++) has_gpu_group |= sw->base->groups[g].gpu != NULL;
  if (def->n_gpus && !has_gpu_group)
    return DCSIM_PERR(err, DCSIM_EUSAGE, "gpu_profiles", -1,
                      "platform %s has no node group with GPUs", sw->base->platform->path);
  for (size_t i = 0; i < def->n_cpus; i++, sw->n_cpus++) {
    if ((rc = dcsim_scenario_cpu_profile(sw->base, def->cpus[i], &sw->cpus[i], err))) {
      dcsim_error_param(err, "cpu_profiles", (int)i);
      return rc;
    }
    for (size_t k = 0; k < i; k++)
      if (sw->cpus[k] == sw->cpus[i])
        return DCSIM_PERR(err, DCSIM_EUSAGE, "cpu_profiles", (int)i, "%s given twice",
                          def->cpus[i]);
  }
  for (size_t i = 0; i < def->n_gpus; i++, sw->n_gpus++) {
    if ((rc = dcsim_scenario_gpu_profile(sw->base, def->gpus[i], &sw->gpus[i], err))) {
      dcsim_error_param(err, "gpu_profiles", (int)i);
      return rc;
    }
    for (size_t k = 0; k < i; k++)
      if (sw->gpus[k] == sw->gpus[i])
        return DCSIM_PERR(err, DCSIM_EUSAGE, "gpu_profiles", (int)i, "%s given twice",
                          def->gpus[i]);
  }
  return 0;
}

/* a list of counts (nodes, cores, gpu_counts): each from 1 to max (0 = all, for cores), each once
 */
static int take_counts(const char *param, const unsigned *v, size_t n, unsigned max, unsigned *dst,
                       size_t *count, dcsim_error *err) {
  int all_ok = strcmp(param, "cores") == 0;
  for (size_t i = 0; i < n; i++, (*count)++) {
    if ((v[i] < 1 && !(all_ok && v[i] == 0)) || v[i] > max)
      return DCSIM_PERR(err, DCSIM_EUSAGE, param, (int)i, "%u is not from 1 to %u", v[i], max);
    for (size_t k = 0; k < i; k++)
      if (v[k] == v[i]) return DCSIM_PERR(err, DCSIM_EUSAGE, param, (int)i, "%u given twice", v[i]);
    dst[i] = v[i];
  }
  return 0;
}

/* the frequencies: each short enough for a point, known (check_freq), once */
static int take_freqs(dcsim_sweep_t *sw, const dcsim_sweep_def *def, dcsim_error *err) {
  int rc;
  for (size_t i = 0; i < def->n_freqs; i++) {
    if (strlen(def->freqs[i]) >= sizeof sw->points->freq)
      return DCSIM_PERR(err, DCSIM_EUSAGE, "freqs", (int)i, "'%.40s...' is too long",
                        def->freqs[i]);
    if ((rc = check_freq(sw, def->freqs[i], err))) {
      if (err) err->index = (int)i;
      return rc;
    }
    for (size_t k = 0; k < i; k++)
      if (strcmp(def->freqs[k], def->freqs[i]) == 0)
        return DCSIM_PERR(err, DCSIM_EUSAGE, "freqs", (int)i, "%s given twice", def->freqs[i]);
    if (!(sw->freqs[i] = dcsim_strdup(def->freqs[i])))
      return DCSIM_ERR(err, DCSIM_ENOMEM, def->input, 0, "out of memory");
    sw->n_freqs++;
  }
  return 0;
}

/* The cores of the list for one CPU: `all` (0) is its full node; duplicates after that go. */
static size_t resolve_cores(const dcsim_sweep_t *sw, const dcsim_cpu_profile_t *cp, unsigned *out) {
  size_t n = 0;
  for (size_t k = 0; k < (sw->n_cores ? sw->n_cores : 1); k++) {
    unsigned v = sw->n_cores ? sw->cores[k] : sw->own_cores;
    if (sw->n_cores && v == 0 && cp)
      v = dcsim_cpu_profile_cores_per_socket(cp) * dcsim_cpu_profile_sockets(cp);
    size_t j = 0;
    while (j < n && out[j] != v) j++;
    if (j == n) out[n++] = v;
  }
  return n;
}

/* The frequencies of the list (nominal without one; none for a workflow without CPU tasks) for one
 * CPU, as the GHz (or state label) they resolve to, into out[] (malloc'd; the caller frees them,
 * also on error); names that resolve to the same state are one. A name the CPU cannot resolve is
 * kept as written: its points fail with the reason. How many, or -1 when out of memory. */
static long resolve_freqs(dcsim_sweep_t *sw, const dcsim_cpu_profile_t *cp, char **out) {
  size_t n = 0;
  const char *first[DCSIM_SWEEP_MAX_LIST + 1];
  for (size_t k = 0; k < (sw->n_freqs ? sw->n_freqs : 1); k++) {
    const char *f = sw->n_freqs ? sw->freqs[k] : sw->n_cpu_tasks ? "nominal" : "";
    dcsim_cpu_state st;
    char *r = cp && *f && dcsim_cpu_profile_freq(cp, f, &st, NULL) == 0
                  ? dcsim_cpu_state_freq_text(&st)
                  : dcsim_strdup(f);
    if (!r) return -1;
    size_t j = 0;
    while (j < n && strcmp(out[j], r) != 0) j++;
    if (j == n) {
      first[n] = f;
      out[n++] = r;
      continue;
    }
    if (cp) /* said, not done silently: two names, one state of this CPU */
      dcsim_str_addf(&sw->note, "%s--freq %s and %s are the same state of %s (%s GHz): one point",
                     sw->note.len ? "; " : "", first[j], f, dcsim_cpu_profile_name(cp), r);
    free(r);
  }
  return (long)n;
}

/* the thread-scaling variants: measured and ideal at most once each */
static int take_threadings(dcsim_sweep_t *sw, const dcsim_sweep_def *def, dcsim_error *err) {
  sw->model_flags = def->model_flags;
  for (size_t i = 0; i < def->n_threadings; i++) {
    unsigned f = def->threadings[i];
    if ((f & ~(unsigned)DCSIM_MODEL_HW_THREADS) || i >= 2 || (i == 1 && sw->threadings[0] == f))
      return DCSIM_PERR(err, DCSIM_EUSAGE, "threadings", (int)i,
                        "measured and ideal, each at most once");
    sw->threadings[sw->n_threadings++] = f;
  }
  return 0;
}

/* every combination of the lists, cpu outermost and threading innermost (dcsim/sweep.h), with the
 * frequencies and `all` cores of each CPU resolved */
static int make_points(dcsim_sweep_t *sw, const char *input, dcsim_error *err) {
  size_t nc = sw->n_cpus ? sw->n_cpus : 1, ng = sw->n_gpus ? sw->n_gpus : 1,
         nn = sw->n_nodes ? sw->n_nodes : 1;
  size_t nk = sw->n_cores ? sw->n_cores : 1, nf = sw->n_freqs ? sw->n_freqs : 1;
  size_t nh = sw->n_hosts ? sw->n_hosts : 1, nq = sw->n_gcounts ? sw->n_gcounts : 1;
  size_t nt = sw->n_threadings ? sw->n_threadings : 1;
  double total = (double)nc * ng * nh * nq * nn * nk * nf * nt;
  if (total > DCSIM_SWEEP_MAX_POINTS)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "", 0, "the lists give %g points: at most %u", total,
                     DCSIM_SWEEP_MAX_POINTS);
  sw->points = calloc((size_t)total, sizeof *sw->points);
  sw->keys = calloc((size_t)total, sizeof *sw->keys);
  if (!sw->points || !sw->keys)
    return DCSIM_ERR(err, DCSIM_ENOMEM, input, 0, "out of memory for %g points", total);
  size_t i = 0;
  unsigned cores[DCSIM_SWEEP_MAX_LIST + 1];
  char *freqs[DCSIM_SWEEP_MAX_LIST + 1] = { NULL };
  int rc = 0;
  for (size_t c = 0; c < nc && !rc; c++) {
    const dcsim_cpu_profile_t *cp = sw->n_cpus ? sw->cpus[c] : sw->own_cpu_profile;
    size_t rk = resolve_cores(sw, cp, cores);
    long nrf = resolve_freqs(sw, cp, freqs);
    size_t rf = nrf < 0 ? 0 : (size_t)nrf;
    if (nrf < 0) rc = DCSIM_ERR(err, DCSIM_ENOMEM, input, 0, "out of memory");
    for (size_t k = 0; k < rk && sw->n_cores && !rc; k++)
      if (cores[k] == 0)
        rc = DCSIM_PERR(err, DCSIM_EUSAGE, "cores", (int)k,
                        "all: the workflow's CPU tasks run on different CPUs; name the CPU");
    if (rc) rf = 0;
    for (size_t g = 0; g < ng; g++)
      for (size_t h = 0; h < nh; h++)
        for (size_t q = 0; q < nq; q++)
          for (size_t n = 0; n < nn; n++)
            for (size_t k = 0; k < rk; k++)
              for (size_t f = 0; f < rf; f++)
                for (size_t t = 0; t < nt; t++, i++) {
                  dcsim_sweep_point *p = &sw->points[i];
                  sw->keys[i] = (point_key){ (uint32_t)c, (uint32_t)g, (uint32_t)h };
                  p->gpus = sw->n_gcounts ? sw->gcounts[q] : 0;
                  snprintf(p->host_cpu, sizeof p->host_cpu, "%s",
                           sw->n_hosts ? dcsim_cpu_profile_name(sw->hosts[h]) : sw->own_host);
                  p->index = (uint32_t)i;
                  snprintf(p->cpu, sizeof p->cpu, "%s",
                           cp ? dcsim_cpu_profile_name(cp) : sw->own_cpu);
                  snprintf(p->gpu, sizeof p->gpu, "%s",
                           sw->n_gpus ? dcsim_gpu_profile_name(sw->gpus[g]) : sw->own_gpu);
                  p->nodes = sw->n_nodes ? sw->nodes[n] : sw->own_nodes;
                  p->cores = cores[k];
                  snprintf(p->freq, sizeof p->freq, "%s", freqs[f]); /* resolve_freqs: fits */
                  unsigned tf = sw->n_threadings ? sw->threadings[t] : sw->model_flags;
                  snprintf(p->threading, sizeof p->threading, "%s",
                           tf & DCSIM_MODEL_HW_THREADS ? "ideal" : "measured");
                }
    for (size_t f = 0; f <= DCSIM_SWEEP_MAX_LIST && freqs[f]; f++) {
      free(freqs[f]);
      freqs[f] = NULL;
    }
  }
  sw->n_points = i;
  if (!rc && sw->note.oom) rc = DCSIM_ERR(err, DCSIM_ENOMEM, input, 0, "out of memory");
  return rc;
}

/* path's location-independent name (dcsim_catalog_relname) appended to b (b->oom when out of
 * memory) */
static void add_relname(dcsim_str *b, const char *path, const char *input) {
  char *name = dcsim_catalog_relname(path, input);
  if (name)
    dcsim_str_add(b, name);
  else
    b->oom = 1;
  free(name);
}

/* The definition and its hash: everything that decides the results. Format 4: files are named by
 * dcsim_catalog_relname() (relative to the data root, else to the input's directory), so the hash
 * does not depend on where the checkout or the working directory is; the SHA-256 of every file
 * read identifies its content (doc/sweep.md). */
static int make_definition(dcsim_sweep_t *sw, const dcsim_sweep_def *def, dcsim_task_policy tp,
                           dcsim_error *err) {
  dcsim_str b = DCSIM_STR_INIT;
  /* version 2: model modes and provenance; 4: frequency names and `all` cores resolved per CPU,
   * nominal without --freq and location-independent names, each of which
   * was a version 3 on its own branch (a sweep of an older version never resumes into these) */
  dcsim_str_add(&b, "dcsim sweep 4\ninput ");
  add_relname(&b, def->input, def->input);
  dcsim_str_add(&b, "\nplatform ");
  add_relname(&b, sw->base->platform->path, def->input);
  dcsim_str_addf(&b, "\npolicy %s+%s\ndeadline_s %.17g\nmodel %s%s%s\n",
                 dcsim_sched_job_name(sw->job_policy), dcsim_sched_task_name(tp), def->deadline_s,
                 def->model_flags & DCSIM_MODEL_D35 ? "d35" : "default",
                 def->model_flags & DCSIM_MODEL_STRICT ? " strict" : "",
                 def->model_flags & DCSIM_MODEL_HW_THREADS ? " ideal-threads" : "");
  dcsim_str_addf(&b, "cpu");
  for (size_t k = 0; k < sw->n_cpus; k++) {
    dcsim_str_add(&b, " ");
    add_relname(&b, dcsim_cpu_profile_path(sw->cpus[k]), def->input);
  }
  dcsim_str_addf(&b, "\ngpu");
  for (size_t k = 0; k < sw->n_gpus; k++) {
    dcsim_str_add(&b, " ");
    add_relname(&b, dcsim_gpu_profile_path(sw->gpus[k]), def->input);
  }
  dcsim_str_addf(&b, "\nnodes");
  for (size_t k = 0; k < sw->n_nodes; k++) dcsim_str_addf(&b, " %u", sw->nodes[k]);
  dcsim_str_addf(&b, "\ncores");
  for (size_t k = 0; k < sw->n_cores; k++)
    sw->cores[k] ? dcsim_str_addf(&b, " %u", sw->cores[k]) : dcsim_str_addf(&b, " all");
  dcsim_str_addf(&b, "\nfreq");
  for (size_t k = 0; k < sw->n_freqs; k++) dcsim_str_addf(&b, " %s", sw->freqs[k]);
  if (sw->n_threadings) { /* only when given, like --set */
    dcsim_str_addf(&b, "\nthreading");
    for (size_t k = 0; k < sw->n_threadings; k++)
      dcsim_str_addf(&b, " %s", sw->threadings[k] & DCSIM_MODEL_HW_THREADS ? "ideal" : "measured");
  }
  if (sw->n_sets) { /* only when given: the hashes of sweeps without --set stay as they were */
    dcsim_str_addf(&b, "\nset");
    for (size_t k = 0; k < sw->n_sets; k++)
      dcsim_str_addf(&b, " %s=%.17g", sw->sets[k].name, sw->sets[k].value);
  }
  if (sw->cost.kwh_usd != DCSIM_COST_KWH_USD ||
      sw->cost.lifetime_years != DCSIM_COST_LIFETIME_YEARS || sw->cost.n_prices) {
    /* only when not the defaults: the hashes of earlier sweeps stay as they were */
    dcsim_str_addf(&b, "\ncost kwh_usd=%.17g lifetime_years=%.17g", sw->cost.kwh_usd,
                   sw->cost.lifetime_years);
    for (size_t k = 0; k < sw->cost.n_prices; k++)
      dcsim_str_addf(&b, " price %s=%.17g", sw->cost.prices[k].name, sw->cost.prices[k].usd);
  }
  if (sw->objectives != DCSIM_OBJ_DEFAULT)
    dcsim_str_addf(&b, "\nobjectives %s", dcsim_objectives_name(sw->objectives));
  if (sw->n_gcounts) { /* only when given, as --set */
    dcsim_str_addf(&b, "\ngpus");
    for (size_t k = 0; k < sw->n_gcounts; k++) dcsim_str_addf(&b, " %u", sw->gcounts[k]);
  }
  if (sw->n_hosts) {
    dcsim_str_addf(&b, "\nhost_cpu");
    for (size_t k = 0; k < sw->n_hosts; k++) {
      dcsim_str_add(&b, " ");
      add_relname(&b, dcsim_cpu_profile_path(sw->hosts[k]), def->input);
    }
  }
  dcsim_str_addf(&b, "\npoints %zu\n", sw->n_points);
  for (size_t k = 0; k < sw->base->n_inputs; k++) {
    dcsim_str_addf(&b, "file %s ", sw->base->inputs[k].sha256);
    add_relname(&b, sw->base->inputs[k].path, def->input);
    dcsim_str_add(&b, "\n");
  }
  if (!(sw->definition = dcsim_str_take(&b)))
    return DCSIM_ERR(err, DCSIM_ENOMEM, def->input, 0, "out of memory");
  dcsim_sha256 h;
  dcsim__sha256_init(&h);
  dcsim__sha256_update(&h, sw->definition, strlen(sw->definition));
  dcsim__sha256_hex(&h, sw->hash);
  return 0;
}

const dcsim_scenario *dcsim_sweep_base(const dcsim_sweep_t *sw) { return sw->base; }

int dcsim_sweep_point_transferred(const dcsim_sweep_t *sw, size_t i) {
  if (sw->n_cpus) return dcsim_bands_cpu_transferred(sw->cpus[sw->keys[i].c]);
  if (sw->own_cpu_profile) return dcsim_bands_cpu_transferred(sw->own_cpu_profile);
  return dcsim_sweep_scenario_transferred(sw->base);
}

int dcsim_sweep_repro(const dcsim_sweep_t *sw, dcsim_repro *r, dcsim_error *err) {
  snprintf(r->sweep_sha256, sizeof r->sweep_sha256, "%s", sw->hash);
  return dcsim_scenario_repro(sw->base, r, err);
}

/* Every point simulates the base's jobs and tasks: refused, like dcsim run, past the budget's
 * tasks per point, or when `threads` points at once would pass its memory (the base's size without
 * plans, which dcsim_engine_size() estimates from the jobs' workflows). */
static int check_point_size(const dcsim_scenario *base, const dcsim_sweep_def *def,
                            const dcsim_budget *b, unsigned threads, dcsim_error *err) {
  if (!b) return 0;
  dcsim_engine_opts eo;
  memset(&eo, 0, sizeof eo);
  dcsim_run_size sz;
  dcsim_engine_size(base, &eo, &sz);
  dcsim_sweep_run_opts ro = { (int)threads, 0, 0, NULL };
  uint64_t nt = (uint64_t)dcsim__sweep_threads(&ro);
  int rc = dcsim_budget_work(b, sz.tasks, "each point of the sweep would simulate", "tasks",
                             def->input, 0, err);
  char *prefix = rc ? NULL
                    : dcsim_strdup_printf("%llu points at once (one per thread) would",
                                          (unsigned long long)nt);
  if (!rc && !prefix) rc = DCSIM_ERR(err, DCSIM_ENOMEM, def->input, 0, "out of memory");
  if (!rc) rc = dcsim_budget_bytes(b, sz.bytes * nt, prefix, def->input, 0, err);
  free(prefix);
  return rc;
}

int dcsim_sweep_new(const dcsim_sweep_def *def, dcsim_sweep_t **out, dcsim_error *err) {
  return dcsim_sweep_new_within(def, NULL, 0, out, err);
}

int dcsim_sweep_new_within(const dcsim_sweep_def *def, const dcsim_budget *budget, unsigned threads,
                           dcsim_sweep_t **out, dcsim_error *err) {
  *out = NULL;
  int rc = 0;
  dcsim_sweep_t *sw = calloc(1, sizeof *sw);
  if (!sw) return DCSIM_ERR(err, DCSIM_ENOMEM, def->input, 0, "out of memory");
  dcsim_task_policy tp;
  if ((rc = dcsim_sched_parse_policy(def->policy, &sw->job_policy, &tp, err))) goto out;
  if (def->n_cpus > DCSIM_SWEEP_MAX_LIST || def->n_gpus > DCSIM_SWEEP_MAX_LIST ||
      def->n_nodes > DCSIM_SWEEP_MAX_LIST || def->n_cores > DCSIM_SWEEP_MAX_LIST ||
      def->n_freqs > DCSIM_SWEEP_MAX_LIST) {
    rc = DCSIM_PERR(err, DCSIM_EUSAGE,
                    def->n_cpus > DCSIM_SWEEP_MAX_LIST    ? "cpu_profiles"
                    : def->n_gpus > DCSIM_SWEEP_MAX_LIST  ? "gpu_profiles"
                    : def->n_nodes > DCSIM_SWEEP_MAX_LIST ? "nodes"
                    : def->n_cores > DCSIM_SWEEP_MAX_LIST ? "cores"
                                                          : "freqs",
                    -1, "a sweep list has more than %d values", DCSIM_SWEEP_MAX_LIST);
    goto out;
  }
  dcsim_scenario_opts so = { .platform_path = def->platform,
                             .task_policy = tp,
                             .deadline_s = def->deadline_s,
                             .model_flags = def->model_flags,
                             .stop_loading = def->stop_loading,
                             .stop_loading_ctx = def->stop_loading_ctx,
                             .stop_planning = def->stop_planning,
                             .stop_planning_ctx = def->stop_planning_ctx };
  so.budget = budget;
  if ((rc = dcsim_scenario_load_inputs(def->input, &so, &sw->base, err)) ||
      (rc = check_point_size(sw->base, def, budget, threads, err)))
    goto out;
  sw->cpus = calloc(def->n_cpus + 1, sizeof *sw->cpus);
  sw->gpus = calloc(def->n_gpus + 1, sizeof *sw->gpus);
  sw->nodes = calloc(def->n_nodes + 1, sizeof *sw->nodes);
  sw->cores = calloc(def->n_cores + 1, sizeof *sw->cores);
  sw->freqs = calloc(def->n_freqs + 1, sizeof *sw->freqs);
  if (!sw->cpus || !sw->gpus || !sw->nodes || !sw->cores || !sw->freqs) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, def->input, 0, "out of memory");
    goto out;
  }
  if ((rc = take_profiles(sw, def, err)) ||
      (rc = take_counts("nodes", def->nodes, def->n_nodes, DCSIM_SWEEP_MAX_NODES, sw->nodes,
                        &sw->n_nodes, err)) ||
      (rc = take_counts("cores", def->cores, def->n_cores, DCSIM_SWEEP_MAX_CORES, sw->cores,
                        &sw->n_cores, err)) ||
      (rc = take_freqs(sw, def, err)))
    goto out;
  if ((rc = take_sets(sw, def, err)) || (rc = take_threadings(sw, def, err)) ||
      /* the host CPUs first: a --price may name one (were they later, it would be refused) */
      (rc = take_gpu_axes(sw, def, err)) || (rc = take_cost(sw, def, err)) ||
      (rc = check_names(sw, err)))
    goto out;
  if ((rc = own_values(sw, def->input, err))) goto out;
  make_note(sw);
  if ((rc = make_points(sw, def->input, err)) || (rc = make_definition(sw, def, tp, err))) goto out;
  *out = sw;
  sw = NULL;
out:
  dcsim_sweep_free(sw);
  return rc;
}

int dcsim__sweep_restore_point(dcsim_sweep_t *sw, size_t index, const dcsim_sweep_point *r,
                               dcsim_error *err) {
  if (index >= sw->n_points)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "point %zu of a sweep of %zu points", index,
                     sw->n_points);
  if (dcsim__sweep_fields_copy_results(&sw->points[index], r))
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  return 0;
}

void dcsim_sweep_set_interrupt(dcsim_sweep_t *sw, const volatile sig_atomic_t *flag) {
  sw->interrupt = flag;
}

int dcsim_sweep_eval(const dcsim_sweep_t *sw, size_t index, dcsim_sweep_point *pt,
                     dcsim_error *err) {
  if (index >= sw->n_points)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "point %zu of a sweep of %zu points", index,
                     sw->n_points);
  const point_key *key = &sw->keys[index];
  const dcsim_sweep_point *sp = &sw->points[index];
  /* the point's frequency: resolved for its CPU ("2.6", "turbo"), or the name as given */
  dcsim_scenario_override ov = { sw->n_cpus ? sw->cpus[key->c] : NULL,
                                 sw->n_gpus ? sw->gpus[key->g] : NULL,
                                 sw->n_nodes ? sp->nodes : 0,
                                 sw->n_cores ? sp->cores : 0,
                                 sp->freq[0] ? sp->freq : NULL,
                                 sw->n_sets,
                                 sw->sets,
                                 sw->n_threadings ? (strcmp(sp->threading, "ideal") == 0 ? 2u : 1u)
                                                  : 0u,
                                 sp->gpus,
                                 sw->n_hosts ? sw->hosts[key->h] : NULL };
  dcsim_scenario *s = NULL;
  dcsim_engine_t *e = NULL;
  dcsim_error perr;
  memset(&perr, 0, sizeof perr);
  free(pt->reason);
  pt->reason = NULL;
  pt->feasible = pt->turbo_unmeasured = 0;
  pt->time_s = pt->energy_j = pt->cost_usd = NAN;
  pt->cost_missing[0] = '\0';
  int rc = dcsim_scenario_derive(sw->base, &ov, &s, &perr);
  if (!rc) {
    dcsim_engine_opts eo = { .job_policy = sw->job_policy, .sink = NULL };
    if (!(e = dcsim_engine_new(s, &eo, &perr)))
      rc = perr.code ? perr.code : DCSIM_ENOMEM;
    else {
      if (sw->interrupt) dcsim_engine_set_interrupt(e, sw->interrupt);
      rc = dcsim_engine_run(e, &perr);
    }
  }
  if (rc == DCSIM_EINTR) { /* stopped in its planning or simulation: left undone, no error (the
                            * batch stores the points that are done and reports the stop) */
    dcsim_engine_free(e);
    dcsim_scenario_free(s);
    return 0;
  }
  dcsim_deadline_report dl = { 0, 0, 0 };
  if (!rc) dl = dcsim_metrics_deadline(dcsim_engine_stats(e), sw->base->deadline_s);
  if (!rc && dl.missed) { /* --deadline-s is a constraint: a point that misses it is no option */
    if (!(pt->reason = dcsim_strdup_printf(
              "misses the deadline: a workflow ran %.6g s, the deadline is %.6g s", dl.longest_s,
              sw->base->deadline_s)))
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  } else if (!rc) {
    const dcsim_run_stats *st = dcsim_engine_stats(e);
    double ej = 0;
    for (size_t j = 0; j < st->n_jobs; j++) ej += st->jobs[j].energy_j;
    pt->feasible = 1;
    pt->time_s = (double)st->makespan_ns * 1e-9;
    pt->energy_j = ej;
    const char *why = dcsim_scenario_energy_unknown(s);
    if (why) {
      if (!(pt->reason = dcsim_strdup_printf("energy unknown: %s", why)))
        rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    }
    dcsim_prov tp, ep;
    dcsim_scenario_provenance(s, &tp, &ep);
    pt->time_prov = (unsigned char)tp.kind;
    pt->energy_prov = (unsigned char)ep.kind;
    pt->time_cover = dcsim_scenario_time_cover(s);
    /* its time band reaches the nominal clock's time as a run's does (doc/models.md "Turbo") */
    for (size_t g = 0; g < s->n_groups; g++)
      if (dcsim_scenario_group_runs_cpu(s, g) & DCSIM_GROUP_TURBO_UNMEASURED)
        pt->turbo_unmeasured = 1;
    dcsim_cost c;
    dcsim_cost_of_run(s, st, &sw->cost, DCSIM_COST_HELD, &c);
    if ((rc = dcsim_cost_check_figures(s, st, &c, sw->base->input_path, &perr)) && err) *err = perr;
    pt->cost_usd = c.usd;
    snprintf(pt->cost_missing, sizeof pt->cost_missing, "%s", c.known ? "" : c.missing);
  } else if (rc == DCSIM_ERANGE || rc == DCSIM_EREF) {
    /* a state outside a profile's tables, a profile unusable for a dwarf: a result, not an error */
    size_t size = sizeof perr.msg + sizeof perr.file + 32; /* the whole error: file, line, msg */
    if (!(pt->reason = malloc(size))) {
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    } else {
      dcsim_error_format(&perr, pt->reason, size);
      rc = 0;
    }
  } else if (err) {
    *err = perr;
  }
  pt->done = rc == 0;
  dcsim_engine_free(e);
  dcsim_scenario_free(s);
  return rc;
}

typedef struct series_key {
  const dcsim_sweep_point *p;
  size_t i;
} series_key;

static int cmp_series(const void *a, const void *b) {
  const dcsim_sweep_point *x = ((const series_key *)a)->p, *y = ((const series_key *)b)->p;
  int c;
  if ((c = strcmp(x->cpu, y->cpu)) || (c = strcmp(x->gpu, y->gpu)) ||
      (c = strcmp(x->freq, y->freq)) || (c = strcmp(x->threading, y->threading)))
    return c;
  if (x->cores != y->cores) return x->cores < y->cores ? -1 : 1;
  if (x->nodes != y->nodes) return x->nodes < y->nodes ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

/* Balance point of every series over nodes (see dcsim_sweep_mark_front). */
static void mark_balance(dcsim_sweep_point *pts, size_t n) {
  series_key *k = malloc((n ? n : 1) * sizeof *k);
  unsigned *nodes = malloc((n ? n : 1) * sizeof *nodes);
  double *t = malloc((n ? n : 1) * sizeof *t), *e = malloc((n ? n : 1) * sizeof *e);
  size_t m = 0;
  for (size_t i = 0; i < n; i++) pts[i].balance = 0;
  if (!k || !nodes || !t || !e) goto out;
  for (size_t i = 0; i < n; i++)
    if (pts[i].done && pts[i].feasible && pts[i].nodes) k[m++] = (series_key){ &pts[i], i };
  qsort(k, m, sizeof *k, cmp_series);
  for (size_t a = 0; a < m;) {
    size_t b = a + 1;
    while (b < m && strcmp(k[b].p->cpu, k[a].p->cpu) == 0 &&
           strcmp(k[b].p->gpu, k[a].p->gpu) == 0 && strcmp(k[b].p->freq, k[a].p->freq) == 0 &&
           strcmp(k[b].p->threading, k[a].p->threading) == 0 && k[b].p->cores == k[a].p->cores)
      b++;
    size_t len = 0;
    for (size_t j = a; j < b; j++) {
      if (len && k[j].p->nodes == nodes[len - 1]) continue; /* one point per node count */
      nodes[len] = k[j].p->nodes;
      t[len] = k[j].p->time_s;
      e[len] = k[j].p->energy_j;
      k[a + len] = k[j];
      len++;
    }
    dcsim_balance bal;
    if (len >= 2 && dcsim_balance_point(nodes, t, e, len, &bal, NULL) == 0 && bal.reached)
      pts[k[a + bal.balance].i].balance = 1;
    a = b;
  }
out:
  free(k);
  free(nodes);
  free(t);
  free(e);
}

void dcsim_sweep_mark_front(dcsim_sweep_point *pts, size_t n) {
  dcsim_sweep_mark_front_on(pts, n, DCSIM_OBJ_DEFAULT);
}

/* the value of objective bit k (DCSIM_OBJ_*) of a point */
static double objective_of(const dcsim_sweep_point *p, unsigned k) {
  return k == DCSIM_OBJ_TIME ? p->time_s : k == DCSIM_OBJ_ENERGY ? p->energy_j : p->cost_usd;
}

void dcsim_sweep_mark_front_on(dcsim_sweep_point *pts, size_t n, unsigned obj) {
  mark_balance(pts, n);
  double *v[3] = { malloc((n ? n : 1) * sizeof(double)), malloc((n ? n : 1) * sizeof(double)),
                   malloc((n ? n : 1) * sizeof(double)) };
  unsigned char *ok = malloc(n ? n : 1), *fr = malloc(n ? n : 1);
  unsigned bits[3];
  int nk = 0;
  for (unsigned k = DCSIM_OBJ_TIME; k <= DCSIM_OBJ_COST; k <<= 1)
    if (obj & k) bits[nk++] = k;
  for (size_t i = 0; i < n; i++) pts[i].pareto = pts[i].knee = 0;
  if (v[0] && v[1] && v[2] && ok && fr && nk >= 2) {
    for (size_t i = 0; i < n; i++) {
      ok[i] = pts[i].done && pts[i].feasible;
      for (int k = 0; k < nk; k++) v[k][i] = objective_of(&pts[i], bits[k]);
    }
    long front = nk == 3 ? dcsim_pareto_front3(n, v[0], v[1], v[2], ok, fr)
                         : dcsim_pareto_front(n, v[0], v[1], ok, fr);
    if (front >= 0) {
      for (size_t i = 0; i < n; i++) pts[i].pareto = fr[i];
      long k = nk == 3 ? dcsim_pareto_knee3(n, v[0], v[1], v[2], fr)
                       : dcsim_pareto_knee(n, v[0], v[1], fr);
      if (k >= 0) pts[k].knee = 1;
    }
  }
  for (int k = 0; k < 3; k++) free(v[k]);
  free(ok);
  free(fr);
}

/* ---- shards: which points this process evaluates (doc/scaling.md) ---- */

/* The golden-ratio (Fibonacci) sequence: frac(index x 0.618...) in 64-bit fixed point, scaled to
 * 0..n-1. It spreads every run of consecutive indices and every residue class (index mod p, the
 * period of an inner list) evenly over the shards, so each shard takes an equal share of every part
 * of the design space. Cyclic index % n aliases with the list lengths, contiguous blocks with the
 * outer lists, a random hash balances only statistically (tools/bench/bench_shards.c,
 * doc/scaling.md). */
unsigned dcsim_sweep_shard_of(size_t index, unsigned n) {
  uint64_t z = (uint64_t)index * 0x9e3779b97f4a7c15ULL;
  return n > 1 ? (unsigned)(((z >> 32) * n) >> 32) : 0;
}

int dcsim_sweep_set_shard(dcsim_sweep_t *sw, unsigned i, unsigned n, dcsim_error *err) {
  if (n > DCSIM_SWEEP_MAX_SHARDS || (n > 0 && i >= n))
    return DCSIM_PERR(err, DCSIM_EUSAGE, "shard", -1, "%u/%u: expected I/N with 0 <= I < N <= %u",
                      i, n, DCSIM_SWEEP_MAX_SHARDS);
  sw->shard_i = n > 1 ? i : 0;
  sw->shard_n = n > 1 ? n : 0;
  return 0;
}

int dcsim_sweep_in_shard(const dcsim_sweep_t *sw, size_t index) {
  return sw->shard_n < 2 || dcsim_sweep_shard_of(index, sw->shard_n) == sw->shard_i;
}

size_t dcsim__sweep_pending(const dcsim_sweep_t *sw, size_t max, size_t *out) {
  size_t n = 0;
  for (size_t i = 0; i < sw->n_points && (!max || n < max); i++)
    if (!sw->points[i].done && dcsim_sweep_in_shard(sw, i)) out[n++] = i;
  return n;
}

int dcsim_sweep_max_threads(void) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  long most = cpus > 0 ? 4 * cpus : 16;
  return (int)(most < 16 ? 16 : most > 4096 ? 4096 : most);
}

int dcsim__sweep_threads(const dcsim_sweep_run_opts *o) {
  int nt = o && o->threads > 0 ? o->threads : omp_get_max_threads();
  int most = dcsim_sweep_max_threads();
  return nt < 1 ? 1 : nt > most ? most : nt; /* OMP_NUM_THREADS=100000 would crash libgomp */
}

int dcsim__sweep_eval_batch(dcsim_sweep_t *sw, const size_t *idx, size_t n, int nt,
                            void (*tick)(void *ctx, size_t k), void *ctx, dcsim_error *err) {
  long fail_at = -1;
  dcsim_error fail_err;
  memset(&fail_err, 0, sizeof fail_err);
  size_t next = 0, finished = 0;
  /* points are handed out one at a time (they differ in cost); each is written only at its own
   * index, so the result does not depend on the schedule */
#pragma omp parallel num_threads(nt)
  {
    int t0 = omp_get_thread_num() == 0;
    for (;;) {
      size_t k;
#pragma omp atomic capture
      k = next++;
      if (k >= n) break;
      if (sw->interrupt &&
          *sw->interrupt) { /* stopping: no new point (it still counts as handled) */
#pragma omp atomic update
        finished++;
        continue;
      }
      dcsim_error perr;
      memset(&perr, 0, sizeof perr);
      int prc = dcsim_sweep_eval(sw, idx[k], &sw->points[idx[k]], &perr);
      if (prc) {
#pragma omp critical(dcsim_sweep_fail)
        if (fail_at < 0 || (long)k < fail_at) {
          fail_at = (long)k;
          fail_err = perr;
        }
      }
      size_t now;
#pragma omp atomic capture
      now = ++finished;
      if (tick && t0) tick(ctx, now);
    }
    /* thread 0 keeps ticking (an MPI rank 0 answers its workers) while the others finish */
    while (tick && t0) {
      size_t f;
#pragma omp atomic read
      f = finished;
      if (f >= n) break;
      tick(ctx, f);
      struct timespec pause = { 0, 100000 };
      nanosleep(&pause, NULL);
    }
  }
  if (fail_at < 0) return 0;
  if (err) *err = fail_err;
  return fail_err.code ? fail_err.code : DCSIM_EINTERNAL;
}

typedef struct run_tick {
  const dcsim_sweep_sink *sink;
  size_t done, total;
} run_tick;

static void on_tick(void *ctx, size_t k) {
  run_tick *t = ctx;
  t->sink->progress(t->sink->ctx, t->done + k, t->total);
}

int dcsim_sweep_run(dcsim_sweep_t *sw, const dcsim_sweep_run_opts *o, dcsim_error *err) {
  static const dcsim_sweep_run_opts dflt = { 0, 0, 0, NULL };
  if (!o) o = &dflt;
  int nt = dcsim__sweep_threads(o);
  size_t *pending = malloc((sw->n_points ? sw->n_points : 1) * sizeof *pending);
  if (!pending) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  size_t n_pending = dcsim__sweep_pending(sw, o->stop_after, pending), done = 0;
  for (size_t i = 0; i < sw->n_points; i++) done += sw->points[i].done != 0;
  size_t batch = o->batch ? o->batch : 32 * (size_t)nt;
  const dcsim_sweep_sink *sink = o->sink;
  if (sink && sink->progress) sink->progress(sink->ctx, done, sw->n_points);
  run_tick t = { sink, done, sw->n_points };
  int rc = 0;
  for (size_t b0 = 0; b0 < n_pending && !rc; b0 += batch) {
    size_t bn = n_pending - b0 < batch ? n_pending - b0 : batch;
    t.done = done;
    if ((rc = dcsim__sweep_eval_batch(sw, pending + b0, bn, nt,
                                      sink && sink->progress ? on_tick : NULL, &t, err)))
      break;
    size_t finished = 0; /* fewer than bn when interrupted: the sink stores only done points */
    for (size_t k = 0; k < bn; k++) finished += sw->points[pending[b0 + k]].done != 0;
    done += finished;
    if (sink && sink->batch) rc = sink->batch(sink->ctx, sw->points, pending + b0, bn, err);
    if (sink && sink->progress) sink->progress(sink->ctx, done, sw->n_points);
    if (!rc && finished < bn) {
      rc = DCSIM_ERR(err, DCSIM_EINTR, "", 0, "interrupted: %zu of %zu points done", done,
                     sw->n_points);
      break;
    }
  }
  free(pending);
  if (!rc && done == sw->n_points)
    dcsim_sweep_mark_front_on(sw->points, sw->n_points, sw->objectives);
  return rc;
}
