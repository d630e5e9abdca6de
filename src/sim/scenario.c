/* scenario.c — loading and cross-checking a simulation's inputs (see dcsim/scenario.h). */
#include "dcsim/scenario.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/band_rule.h"
#include "dcsim/budget.h"
#include "dcsim/catalog.h"
#include "dcsim/engine.h"
#include "dcsim/model.h"
#include "dcsim/recorded.h"
#include "dcsim/sched.h"
#include "dcsim/strutil.h"
#include "dcsim/trace.h"
#include "dcsim/wfcommons.h"
#include "dcsim/wmsconf.h"
#include "util/fileio.h"
#include "util/sha256.h"
#include "util/xmlio.h"

static int add_input(dcsim_scenario *s, const char *path, dcsim_error *err) {
  for (size_t i = 0; i < s->n_inputs; i++)
    if (strcmp(s->inputs[i].path, path) == 0) return 0;
  if (DCSIM_GROW_N(s->inputs, s->n_inputs))
    return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  dcsim_input_file *f = &s->inputs[s->n_inputs];
  if (!(f->path = dcsim_strdup(path)))
    return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  s->n_inputs++;
  return dcsim__sha256_file(path, f->sha256, err);
}

void dcsim_scenario_free(dcsim_scenario *s) {
  if (!s) return;
  if (s->base) { /* derived: owns its platform copy, groups, options, plans and jobs only */
    for (size_t i = 0; i < s->n_wfs; i++) {
      dcsim_sched_plan_release(&s->wfs[i]);
      free(s->wfs[i].tmpls);
    }
    free(s->wfs);
    free(s->jobs);
    free(s->groups);
    if (s->platform) free(s->platform->groups);
    free(s->platform);
    free(s);
    return;
  }
  for (size_t i = 0; i < s->n_wfs; i++) {
    dcsim_sched_plan_release(&s->wfs[i]);
    dcsim_workflow_free(s->wfs[i].wf);
    free(s->wfs[i].tmpls);
    free(s->wfs[i].dwarfs);
  }
  free(s->wfs);
  free(s->jobs);
  free(s->groups);
  for (size_t i = 0; i < s->n_inputs; i++) free(s->inputs[i].path);
  free(s->inputs);
  free(s->trace);
  for (size_t i = 0; i < s->n_notes; i++) free(s->notes[i]);
  free(s->notes);
  for (size_t i = 0; i < s->n_cpus; i++) dcsim_cpu_profile_free(s->cpus[i]);
  for (size_t i = 0; i < s->n_gpus; i++) dcsim_gpu_profile_free(s->gpus[i]);
  for (size_t i = 0; i < s->n_dwarfs; i++) dcsim_dwarf_free(s->dwarfs[i]);
  dcsim_wms_conf_free(s->wms_conf);
  free(s->cpus);
  free(s->gpus);
  free(s->dwarfs);
  dcsim_platform_free(s->platform);
  free(s->input_path);
  free(s);
}

/* Defines NAME(s, ref, file, line, out, err): the T that reference `ref` (at file:line) names,
 * each file loaded once, kept by path in s->ARR[0..s->N) and added to the inputs. A relative path
 * in a CPU or GPU reference is taken as written (from the working directory), in a dwarf
 * reference from the directory of the referring file (BESIDE). get_cpu, get_gpu and get_dwarf
 * differ only in these names. */
#define DEFINE_GET(NAME, T, KIND, BESIDE, ARR, N, PATH_OF, LOAD)                                 \
  static int NAME(dcsim_scenario *s, const char *ref, const char *file, int line, const T **out, \
                  dcsim_error *err) {                                                            \
    char *path = NULL;                                                                           \
    int rc = dcsim_catalog_find(KIND, ref, BESIDE ? file : NULL, line, &path, err);              \
    if (rc) {                                                                                    \
      dcsim_error_at(err, file, line);                                                           \
      return rc;                                                                                 \
    }                                                                                            \
    for (size_t i = 0; i < s->N; i++)                                                            \
      if (strcmp(PATH_OF(s->ARR[i]), path) == 0) {                                               \
        *out = s->ARR[i];                                                                        \
        goto out;                                                                                \
      }                                                                                          \
    if (DCSIM_GROW_N(s->ARR, s->N)) {                                                            \
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, file, line, "out of memory");                            \
      goto out;                                                                                  \
    }                                                                                            \
    if ((rc = LOAD(path, &s->ARR[s->N], err))) goto out;                                         \
    *out = s->ARR[s->N++];                                                                       \
    rc = add_input(s, path, err);                                                                \
  out:                                                                                           \
    free(path);                                                                                  \
    return rc;                                                                                   \
  }

DEFINE_GET(get_cpu, dcsim_cpu_profile_t, DCSIM_KIND_CPU, 0, cpus, n_cpus, dcsim_cpu_profile_path,
           dcsim_cpu_profile_load)
DEFINE_GET(get_gpu, dcsim_gpu_profile_t, DCSIM_KIND_GPU, 0, gpus, n_gpus, dcsim_gpu_profile_path,
           dcsim_gpu_profile_load)
DEFINE_GET(get_dwarf, dcsim_dwarf_t, DCSIM_KIND_DWARF, 1, dwarfs, n_dwarfs, dcsim_dwarf_path,
           dcsim_dwarf_load)

/* A node group's idle power in D3.5's terms: every socket's package and DRAM idle (RAPL tables,
 * §5.2) and every GPU idle; no node base power. */
static int group_idle_d35(dcsim_group_rt *g, const dcsim_node_group *ng, const char *path,
                          dcsim_error *err) {
  if (!dcsim_cpu_profile_has_energy(g->cpu))
    return DCSIM_ERR(err, DCSIM_EREF, path, ng->line,
                     "<node-group name=\"%s\">: CPU profile %s has no <energy> table, so the "
                     "node's power is unknown",
                     ng->name, dcsim_cpu_profile_name(g->cpu));
  dcsim_cpu_state st = { dcsim_cpu_profile_nominal_ghz(g->cpu), NULL, 1 };
  dcsim_cpu_power pw;
  int rc = dcsim_cpu_profile_power(g->cpu, &st, &pw, err);
  if (rc) return rc;
  g->pkg_idle_w = pw.pkg_idle_w;   /* §5.2: E_pkg(f, idle) */
  g->dram_idle_w = pw.dram_idle_w; /* §5.2: E_dram(f, idle) */
  /* a node on and unused: every socket's package and DRAM idle, every GPU idle */
  g->idle_w = ng->sockets * (g->pkg_idle_w + g->dram_idle_w) + ng->gpus_per_node * g->gpu_idle_w;
  return 0;
}

/* The default: the node's wall power on and idle (dcsim/cpu_power.h), GPUs idle included. */
static int group_idle_wall(dcsim_group_rt *g, const dcsim_node_group *ng, const char *path,
                           dcsim_error *err) {
  dcsim_error pe;
  memset(&pe, 0, sizeof pe);
  int rc = dcsim_cpu_power_check(g->cpu, &pe);
  if (rc == DCSIM_EREF) { /* no power data: the times alone, the energy unknown */
    snprintf(g->energy_unknown, sizeof g->energy_unknown, "%.500s", pe.msg);
    g->base_w = g->idle_w = g->pkg_idle_w = g->dram_idle_w = NAN;
    g->load_overhead = 0;
    return 0;
  }
  if (rc && err) *err = pe;
  if (rc) {
    dcsim_error_prefix(err, "<node-group name=\"%s\">", ng->name);
    dcsim_error_at(err, path, ng->line);
    return rc;
  }
  dcsim_node_base b = dcsim_cpu_node_base(g->cpu);
  if (ng->has_node_power) b = (dcsim_node_base){ ng->node_base_w, ng->node_load_overhead };
  g->base_w = b.base_w;
  g->load_overhead = b.load_overhead;
  const dcsim_cpu_power_model *m = dcsim_cpu_profile_power_model(g->cpu);
  g->pkg_idle_w = m->pkg_idle_w;
  g->dram_idle_w = m->dram_idle_w;
  dcsim_node_load idle = { dcsim_cpu_profile_nominal_ghz(g->cpu), 0, { 1, 1, NULL }, 0,
                           ng->gpus_per_node * g->gpu_idle_w,     0 };
  dcsim_node_power np;
  if ((rc = dcsim_cpu_node_power(g->cpu, ng->sockets, &b, &idle, &np, err))) {
    dcsim_error_at(err, path, ng->line);
    return rc;
  }
  g->idle_w = np.wall_w;
  return 0;
}

/* A node group's hardware and powers (also used by dcsim_scenario_derive with other profiles). */
static int group_rt_init(dcsim_group_rt *g, const dcsim_node_group *ng,
                         const dcsim_cpu_profile_t *cpu, const dcsim_gpu_profile_t *gpu,
                         unsigned model_flags, const char *path, dcsim_error *err) {
  g->g = ng;
  g->cpu = cpu;
  g->gpu = gpu;
  g->model_flags = model_flags;
  g->cores_per_node = ng->cores ? ng->cores : dcsim_cpu_profile_cores_per_socket(cpu) * ng->sockets;
  g->gpu_idle_w = gpu ? dcsim_gpu_profile_spec(gpu)->idle_w : 0;
  return model_flags & DCSIM_MODEL_D35 ? group_idle_d35(g, ng, path, err)
                                       : group_idle_wall(g, ng, path, err);
}

static int add_notef(dcsim_scenario *s, dcsim_error *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int load_platform(dcsim_scenario *s, const char *path, dcsim_error *err) {
  int preset = s->platform != NULL; /* built in memory by a trace import (dcsim/trace.h) */
  int rc = preset ? 0 : dcsim_platform_load(path, &s->platform, err);
  if (rc) return rc;
  if (!preset && (rc = add_input(s, path, err))) return rc;
  const dcsim_platform *p = s->platform;
  s->n_groups = p->n_groups;
  s->groups = calloc(p->n_groups, sizeof *s->groups);
  if (!s->groups) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  for (size_t i = 0; i < p->n_groups; i++) {
    const dcsim_cpu_profile_t *cpu = NULL;
    const dcsim_gpu_profile_t *gpu = NULL;
    if ((rc = get_cpu(s, p->groups[i].cpu, path, p->groups[i].line, &cpu, err))) return rc;
    if (p->groups[i].gpu && (rc = get_gpu(s, p->groups[i].gpu, path, p->groups[i].line, &gpu, err)))
      return rc;
    if ((rc = group_rt_init(&s->groups[i], &p->groups[i], cpu, gpu, s->model_flags, path, err)))
      return rc;
    if (s->groups[i].energy_unknown[0]) { /* said once, by run (dcsim: note: ...) */
      if ((rc = add_notef(s, err,
                          "node group '%s': energy unknown, the times are modelled alone: %s",
                          p->groups[i].name, s->groups[i].energy_unknown)))
        return rc;
    }
  }
  return 0;
}

/* The group a task without group= runs in on one device, or -1 (see dcsim_scenario_task_group). */
static long default_group(const dcsim_scenario *s, int gpu) {
  for (size_t g = 0; g < s->n_groups; g++)
    if (gpu ? s->groups[g].gpu != NULL : s->groups[g].gpu == NULL) return (long)g;
  return !gpu && s->n_groups ? 0 : -1;
}

int dcsim_scenario_task_group(const dcsim_scenario *s, const dcsim_workflow *wf,
                              const dcsim_task_template *t, int gpu, uint32_t *out,
                              dcsim_error *err) {
  if (t->group) {
    long g = dcsim_platform_find_group(s->platform, t->group);
    if (g < 0)
      return DCSIM_ERR(err, DCSIM_EREF, wf->path, t->line,
                       "<task name=\"%s\">: unknown node group '%s' in platform %s", t->name,
                       t->group, s->platform->path);
    if (gpu && !s->groups[g].gpu)
      return DCSIM_ERR(err, DCSIM_EREF, wf->path, t->line,
                       "<task name=\"%s\">: node group '%s' has no GPU", t->name, t->group);
    *out = (uint32_t)g;
    return 0;
  }
  long g = default_group(s, gpu);
  if (g < 0)
    return DCSIM_ERR(err, DCSIM_EREF, wf->path, t->line,
                     "<task name=\"%s\">: needs a GPU, platform %s has none", t->name,
                     s->platform->path);
  *out = (uint32_t)g;
  return 0;
}

int dcsim_scenario_cpu_group_used(const dcsim_scenario *s, size_t g) {
  for (size_t w = 0; w < s->n_wfs; w++) {
    const dcsim_workflow *wf = s->wfs[w].wf;
    for (size_t k = 0; k < wf->n_templates; k++) {
      uint32_t tg = 0;
      if (wf->templates[k].device != DCSIM_DEV_GPU &&
          !dcsim_scenario_task_group(s, wf, &wf->templates[k], 0, &tg, NULL) && tg == g)
        return 1;
    }
  }
  return 0;
}

static int make_option(const dcsim_scenario *s, const dcsim_workflow *wf,
                       const dcsim_task_template *t, const dcsim_dwarf_t *d, int gpu,
                       dcsim_option *o, dcsim_error *err) {
  int rc = dcsim_scenario_task_group(s, wf, t, gpu, &o->group, err);
  if (rc) return rc;
  const dcsim_group_rt *g = &s->groups[o->group];
  /* a task on several GPUs (dcsim/model_multigpu.h) holds its whole node, like a CPU task:
   * the plan reserves GPU slots one per task (doc/engine.md) */
  const int multi = gpu && t->gpus > 1;
  o->gpu = gpu && !multi;
  o->gpus = gpu ? t->gpus : 0;
  o->nodes = gpu ? 1 : t->nodes;
  if (o->nodes > g->g->count)
    return DCSIM_ERR(err, DCSIM_ERANGE, wf->path, t->line,
                     "<task name=\"%s\">: asks for %u nodes, group '%s' has %u (dcsim run uses "
                     "the platform as written; dcsim sweep --nodes sizes the group to fit)",
                     t->name, o->nodes, g->g->name, g->g->count);
  if (gpu && t->gpus > g->g->gpus_per_node)
    return DCSIM_ERR(err, DCSIM_ERANGE, wf->path, t->line,
                     "<task name=\"%s\">: asks for %u GPUs, nodes of '%s' have %u", t->name,
                     t->gpus, g->g->name, g->g->gpus_per_node);
  /* the dwarf's parameters: its case, then the task's <set>s, then a sweep's --set of the
   * parameters this dwarf has */
  dcsim_binding b[64];
  size_t nb = 0;
  if (t->n_sets + s->n_extra_sets > 64)
    return DCSIM_ERR(err, DCSIM_ERANGE, wf->path, t->line, "<task>: more than 64 <set>s");
  for (size_t i = 0; i < t->n_sets; i++)
    b[nb++] = (dcsim_binding){ t->sets[i].name, t->sets[i].value, wf->path, t->line };
  for (size_t i = 0; i < s->n_extra_sets; i++)
    for (size_t k = 0; k < dcsim_dwarf_n_params(d); k++)
      if (strcmp(dcsim_dwarf_param(d, k), s->extra_sets[i].name) == 0)
        b[nb++] = (dcsim_binding){ s->extra_sets[i].name, s->extra_sets[i].value, NULL, 0 };
  dcsim_dwarf_eval *ev = NULL;
  if ((rc = dcsim_dwarf_evaluate(d, t->case_name, b, nb, &ev, err))) {
    dcsim_error_at_if_unset(err, wf->path, t->line);
    return rc;
  }
  dcsim_model_req rq;
  memset(&rq, 0, sizeof rq);
  rq.ev = ev;
  rq.energy_form = g->energy_unknown[0] ? DCSIM_ENERGY_NONE : DCSIM_ENERGY_MODE;
  rq.flags = s->model_flags;
  dcsim_node_base base = { g->base_w, g->load_overhead };
  rq.node_base = &base;
  rq.sockets = g->g->sockets;
  if (gpu) {
    rq.gpu = g->gpu;
    rq.host_cpu = g->cpu;
    rq.gpus = multi ? t->gpus : 0; /* 1 GPU: D3.5's model as published */
  } else {
    rq.cpu = g->cpu;
    rq.nodes = o->nodes;
    rq.state.threads = t->cores_per_node ? t->cores_per_node : g->cores_per_node;
    rq.net_s_per_byte =
        s->platform->net_bw_bps > 0 ? 1.0 / s->platform->net_bw_bps : 0; /* §4.3 T_single */
    rq.net_latency_s = s->platform->net_latency_s; /* Hockney alpha (dcsim/model_comm.h) */
    if (t->freq_label)
      rc = dcsim_cpu_profile_freq(g->cpu, t->freq_label, &rq.state, err);
    else if (t->freq_ghz > 0)
      rq.state.ghz = t->freq_ghz;
    else
      rq.state.ghz = dcsim_cpu_profile_nominal_ghz(g->cpu);
  }
  dcsim_prediction p;
  memset(&p, 0, sizeof p);
  if (!rc) rc = dcsim_model_run(&rq, &p, err);
  if (rc) {
    /* name the task that asked for the impossible state, keep the library's words */
    dcsim_error_prefix(err, "<task name=\"%s\"> on group '%s'", t->name, g->g->name);
    dcsim_error_at(err, wf->path, t->line);
    goto out;
  }
  if (!(p.time_s >= 0) ||
      p.time_s > 1e9) { /* a workflow lasts at most 10^9 s (sched.c); no int64 overflow */
    rc = DCSIM_ERR(
        err, DCSIM_ERANGE, wf->path, t->line,
        "<task name=\"%s\">: modelled time %g s is out of range (a workflow lasts at most 10^9 s)",
        t->name, p.time_s);
    goto out;
  }
  o->duration_ns = llround(p.time_s * 1e9);
  o->energy_j = p.energy_j;
  o->time_prov = p.time_prov;
  o->energy_prov = p.energy_prov;
  /* beyond a thread law's measured cores: the law continued, as a multiple of the duration */
  o->time_cover = p.time_s > 0 && p.time_cover_s[1] > p.time_s ? p.time_cover_s[1] / p.time_s : 1;
  o->turbo_unmeasured = p.turbo_unmeasured;
  o->ghz = gpu ? 0 : rq.state.ghz;
  if (!(s->model_flags & DCSIM_MODEL_D35)) /* node wall power while it runs, minus idle */
    o->node_delta_w = p.node_power_w - p.node_idle_w;
  else if (gpu) /* §5.5: T*(E_pkg(idle) + S*E_gpu); the host package idle is part of the node idle
                 */
    o->node_delta_w =
        o->gpus * (p.gpu_fraction * dcsim_gpu_profile_spec(g->gpu)->power_limit_w - g->gpu_idle_w);
  else /* §5.3 power of one node, minus the idle of the socket it covers */
    o->node_delta_w =
        (p.time_s > 0 ? p.node_energy_j / p.time_s : 0) - (g->pkg_idle_w + g->dram_idle_w);
  if (g->energy_unknown[0]) /* the time alone: its energy and power are unknown */
    o->energy_j = o->node_delta_w = NAN;
  if (g->idle_w + o->node_delta_w < 0) {
    rc = DCSIM_ERR(err, DCSIM_ERANGE, wf->path, t->line,
                   "<task name=\"%s\">: node power would be negative (%g W)", t->name,
                   g->idle_w + o->node_delta_w);
    goto out;
  }
out:
  dcsim_prediction_release(&p);
  dcsim_dwarf_eval_free(ev);
  return rc;
}

/* The CPU option of a recorded-runtime task (dcsim/recorded.h). */
static int make_recorded_option(const dcsim_scenario *s, const dcsim_workflow *wf,
                                const dcsim_task_template *t, dcsim_option *o, dcsim_error *err) {
  int rc = dcsim_scenario_task_group(s, wf, t, 0, &o->group, err);
  if (rc) return rc;
  const dcsim_group_rt *g = &s->groups[o->group];
  o->nodes = t->nodes;
  if (o->nodes > g->g->count)
    return DCSIM_ERR(err, DCSIM_ERANGE, wf->path, t->line,
                     "<task name=\"%s\">: asks for %u nodes, group '%s' has %u (dcsim run uses "
                     "the platform as written; dcsim sweep --nodes sizes the group to fit)",
                     t->name, o->nodes, g->g->name, g->g->count);
  dcsim_cpu_state st = { dcsim_cpu_profile_nominal_ghz(g->cpu), NULL, 1 };
  if (t->freq_label)
    rc = dcsim_cpu_profile_freq(g->cpu, t->freq_label, &st, err);
  else if (t->freq_ghz > 0)
    st.ghz = t->freq_ghz;
  if (!rc) rc = dcsim_recorded_option(g, t, &st, wf->path, o, err);
  o->ghz = st.ghz;
  return rc;
}

/* DVFS (dcsim_scenario_opts.dvfs): the CPU option at the frequency state of least task energy
 * within the slowdown bound; the nominal option when no other state qualifies. */
static int dvfs_option(const dcsim_scenario *s, const dcsim_workflow *wf,
                       const dcsim_task_template *t, const dcsim_dwarf_t *d, double slowdown,
                       dcsim_option *o, dcsim_error *err) {
  int rc = !t->dwarf ? make_recorded_option(s, wf, t, o, err) : make_option(s, wf, t, d, 0, o, err);
  if (rc || t->freq_ghz > 0 || t->freq_label) return rc; /* an explicit frequency is kept */
  const dcsim_cpu_profile_t *cpu = s->groups[o->group].cpu;
  if (s->groups[o->group].energy_unknown[0])
    return DCSIM_ERR(err, DCSIM_EREF, wf->path, t->line,
                     "<task name=\"%s\">: --dvfs-slowdown picks the state of least energy, but %s",
                     t->name, s->groups[o->group].energy_unknown);
  double limit_ns = (double)o->duration_ns * (1 + slowdown);
  for (size_t i = 0; i < dcsim_cpu_profile_n_freqs(cpu); i++) {
    dcsim_cpu_state st;
    if (dcsim_cpu_profile_freq_at(cpu, i, &st) || st.label)
      continue; /* turbo is not a DVFS state */
    dcsim_task_template tf = *t;
    tf.freq_ghz = st.ghz;
    dcsim_option c;
    memset(&c, 0, sizeof c);
    dcsim_error ignored;
    if (!t->dwarf ? make_recorded_option(s, wf, &tf, &c, &ignored)
                  : make_option(s, wf, &tf, d, 0, &c, &ignored))
      continue; /* a state the tables do not cover */
    if ((double)c.duration_ns > limit_ns) continue;
    if (c.energy_j < o->energy_j || (c.energy_j == o->energy_j && c.ghz > o->ghz)) *o = c;
  }
  return 0;
}

/* ---- the workflow management system (dcsim/wms.h, doc/wms.md) ---- */

static int add_note(dcsim_scenario *s, char *note, dcsim_error *err);

/* A note of the formatted text (dcsim_scenario.notes). */
static int add_notef(dcsim_scenario *s, dcsim_error *err, const char *fmt, ...) {
  dcsim_str b = DCSIM_STR_INIT;
  va_list ap;
  va_start(ap, fmt);
  dcsim_str_vaddf(&b, fmt, ap);
  va_end(ap);
  char *d = dcsim_str_take(&b);
  return d ? add_note(s, d, err) : DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
}

/* The scenario's WMS description, loaded once: o->wms_file or the shipped one. */
static int wms_conf(dcsim_scenario *s, const dcsim_scenario_opts *o, dcsim_error *err) {
  if (s->wms_conf) return 0;
  char *path = o->wms_file
                   ? dcsim_strdup(o->wms_file)
                   : dcsim_path_in(dcsim_catalog_root(), "workflows/wms/pegasus-htcondor.xml");
  if (!path) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  int rc = dcsim_wms_conf_load(path, &s->wms_conf, err);
  if (!rc) rc = add_input(s, path, err);
  free(path);
  return rc;
}

/* What the run's options, the workflow, then the platform say: "none", "pegasus", or "recorded"
 * (the runtime system the workflow records decides). */
static const char *wms_kind(const dcsim_scenario *s, const dcsim_workflow *wf,
                            const dcsim_scenario_opts *o) {
  if (o->wms) return o->wms;
  if (o->wms_delay_s > 0 || o->wms_dispatch_s > 0 || o->io_bw_bps > 0)
    return "none"; /* the legacy model of --wms-delay-s/--wms-dispatch-s/--io-bw-bps */
  if (wf->wms) return wf->wms;
  if (wf->wms_system) return "recorded";
  return s->platform->wms ? s->platform->wms : "none";
}

/* The note that tells which model runs the workflow, or that its file sizes are ignored. */
static int wms_note(dcsim_scenario *s, const dcsim_wf_rt *w, const dcsim_scenario_opts *o,
                    dcsim_error *err) {
  const dcsim_workflow *wf = w->wf;
  int files = wf->stage_in_byte > 0 || wf->stage_out_byte > 0;
  for (size_t i = 0; i < wf->n_templates && !files; i++)
    files = wf->templates[i].input_byte > 0 || wf->templates[i].output_byte > 0;
  if (w->wms)
    return add_notef(s, err,
                     "%s: workflow management system %s, profile %s%s%s (%s, data %s); --wms none "
                     "runs without it",
                     wf->path, s->wms_conf->name, w->wms->name, w->wms->description ? " for " : "",
                     w->wms->description ? w->wms->description : "", s->wms_conf->path,
                     dcsim_wms_data_name(w->wms->p.data));
  if (!files || o->io_bw_bps > 0) return 0;
  return add_notef(s, err,
                   "%s: file sizes ignored: the recorded runtimes include each task's own I/O "
                   "(--io-bw-bps BPS adds (inputs + outputs) / BPS to every task)",
                   wf->path);
}

/* The cores of every node of the platform, 0 when they differ (the node type a WMS profile may
 * name). */
static unsigned machine_cores(const dcsim_scenario *s) {
  unsigned c = 0;
  for (size_t g = 0; g < s->n_groups; g++) {
    if (c && s->groups[g].cores_per_node != c) return 0;
    c = s->groups[g].cores_per_node;
  }
  return c;
}

/* The profile workflow w runs under, or none (dcsim_scenario_opts.wms). */
static int resolve_wms(dcsim_scenario *s, dcsim_wf_rt *w, const dcsim_scenario_opts *o,
                       dcsim_error *err) {
  const dcsim_workflow *wf = w->wf;
  const char *kind = wms_kind(s, wf, o);
  int rc = 0;
  w->wms = NULL;
  if (strcmp(kind, "none") != 0) {
    if (strcmp(kind, "pegasus") != 0 && strcmp(kind, "recorded") != 0)
      return DCSIM_ERR(err, DCSIM_EUSAGE, "", 0,
                       "unknown workflow management system '%s' "
                       "(none, pegasus)",
                       kind);
    if ((rc = wms_conf(s, o, err))) return rc;
    const dcsim_wms_conf *c = s->wms_conf;
    const char *sys =
        wf->wms_system ? wf->wms_system : c->profiles[c->default_profile].runtime_system;
    w->wms = dcsim_wms_conf_select(c, sys, wf->wms_version, machine_cores(s));
    if (!w->wms && strcmp(kind, "pegasus") == 0) w->wms = &c->profiles[c->default_profile];
  }
  return wms_note(s, w, o, err);
}

static int prepare_workflow(dcsim_scenario *s, dcsim_wf_rt *w, const dcsim_scenario_opts *o,
                            int options, dcsim_error *err) {
  const dcsim_workflow *wf = w->wf;
  int rc0 = resolve_wms(s, w, o, err);
  if (rc0) return rc0;
  w->tmpls = calloc(wf->n_templates ? wf->n_templates : 1, sizeof *w->tmpls);
  w->dwarfs = calloc(wf->n_templates ? wf->n_templates : 1, sizeof *w->dwarfs);
  if (!w->tmpls || !w->dwarfs) return DCSIM_ERR(err, DCSIM_ENOMEM, wf->path, 0, "out of memory");
  int rc;
  for (size_t i = 0; i < wf->n_templates; i++) {
    const dcsim_task_template *t = &wf->templates[i];
    const dcsim_dwarf_t *d = NULL;
    if (!t->dwarf) { /* a recorded runtime (dcsim/recorded.h): no dwarf, one CPU option */
      dcsim_option *op = &w->tmpls[i].opts[w->tmpls[i].n_opts++];
      if ((rc = o->dvfs ? dvfs_option(s, wf, t, NULL, o->dvfs_slowdown, op, err)
                        : make_recorded_option(s, wf, t, op, err)))
        return rc;
      continue;
    }
    if ((rc = get_dwarf(s, t->dwarf, wf->path, t->line, &d, err))) return rc;
    w->dwarfs[i] = d;
    if (t->case_name && !dcsim_dwarf_has_case(d, t->case_name)) {
      const char *best = dcsim_dwarf_suggest_case(d, t->case_name);
      return DCSIM_ERR(err, DCSIM_EREF, wf->path, t->line,
                       "<task name=\"%s\">: dwarf %s has no case '%s'%s%s%s", t->name,
                       dcsim_dwarf_name(d), t->case_name, best ? "; did you mean " : "",
                       best ? best : "", best ? "?" : "");
    }
    int want_cpu = t->device == DCSIM_DEV_CPU || t->device == DCSIM_DEV_ANY;
    int want_gpu = t->device == DCSIM_DEV_GPU || t->device == DCSIM_DEV_ANY;
    if (want_cpu && !dcsim_dwarf_has_cpu_model(d) && t->device == DCSIM_DEV_CPU)
      return DCSIM_ERR(err, DCSIM_EREF, wf->path, t->line,
                       "<task name=\"%s\" device=\"cpu\">: dwarf %s has no CPU model", t->name,
                       dcsim_dwarf_name(d));
    if (want_gpu && !dcsim_dwarf_has_gpu_model(d) && t->device == DCSIM_DEV_GPU)
      return DCSIM_ERR(err, DCSIM_EREF, wf->path, t->line,
                       "<task name=\"%s\" device=\"gpu\">: dwarf %s has no GPU model", t->name,
                       dcsim_dwarf_name(d));
    if (t->device == DCSIM_DEV_ANY &&
        !(dcsim_dwarf_has_cpu_model(d) && dcsim_dwarf_has_gpu_model(d)))
      return DCSIM_ERR(
          err, DCSIM_EREF, wf->path, t->line,
          "<task name=\"%s\" device=\"any\">: dwarf %s needs both a CPU and a GPU model", t->name,
          dcsim_dwarf_name(d));
    if (!options) continue;
    dcsim_tmpl_rt *tr = &w->tmpls[i];
    if (want_cpu &&
        (rc = o->dvfs ? dvfs_option(s, wf, t, d, o->dvfs_slowdown, &tr->opts[tr->n_opts++], err)
                      : make_option(s, wf, t, d, 0, &tr->opts[tr->n_opts++], err)))
      return rc;
    if (want_gpu && (rc = make_option(s, wf, t, d, 1, &tr->opts[tr->n_opts++], err))) return rc;
  }
  if (!options) return 0;
  return dcsim_sched_plan(s, w, (dcsim_task_policy)o->task_policy, o->deadline_s, err);
}

/* ---- trace inputs (dcsim/trace.h) ---- */

static int add_note(dcsim_scenario *s, char *note, dcsim_error *err) {
  if (!note) return 0;
  if (DCSIM_GROW_N(s->notes, s->n_notes)) {
    free(note);
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  }
  s->notes[s->n_notes++] = note;
  return 0;
}

static int trace_info(dcsim_scenario *s, dcsim_error *err) {
  if (!s->trace && !(s->trace = calloc(1, sizeof *s->trace)))
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  return 0;
}

/* A WfCommons instance as a workflow; pin: the run is on its recorded machines. */
static int load_wfc(dcsim_scenario *s, const char *path, const dcsim_scenario_opts *o, int pin,
                    dcsim_workflow **out, dcsim_error *err) {
  dcsim_wfc *w = NULL;
  dcsim_wfc_opts wo = { pin, o->wms_delay_s, o->wms_dispatch_s, o->io_bw_bps };
  int rc = dcsim_wfc_load_budget(path, o->budget, &w, err);
  if (!rc) rc = dcsim_wfc_workflow(w, &wo, out, err);
  if (!rc && !s->trace && !(rc = trace_info(s, err))) {
    s->trace->kind = DCSIM_TRACE_WFCOMMONS;
    s->trace->recorded_makespan_s = w->makespan_s;
  }
  dcsim_wfc_free(w);
  return rc;
}

/* Parsed SWF submissions waiting for the platform (their processors become nodes of its group). */
typedef struct swf_pending {
  size_t n;
  dcsim_swf **t;
  double *offset_s;
  uint64_t jobs; /* of the traces loaded so far, charged to the budget */
} swf_pending;

static void swf_pending_release(swf_pending *p) {
  for (size_t i = 0; i < p->n; i++) dcsim_swf_free(p->t[i]);
  free(p->t);
  free(p->offset_s);
}

/* Loads one SWF trace within what the budget has left after the traces before it: its jobs and,
 * per job, the trace's record and what the run keeps (dcsim_engine_job_bytes). */
static int swf_pend(dcsim_scenario *s, swf_pending *p, const char *path, double offset_s,
                    const dcsim_scenario_opts *o, dcsim_error *err) {
  dcsim_swf *t = NULL;
  dcsim_budget b = { 0, 0, 0, 0 }, *bp = NULL;
  if (o->budget) {
    uint64_t per_job = sizeof(dcsim_swf_job) + dcsim_engine_job_bytes(), spent = p->jobs * per_job;
    b = *o->budget;
    b.job_bytes = dcsim_engine_job_bytes();
    if (b.max_work) b.max_work = b.max_work > p->jobs ? b.max_work - p->jobs : 1;
    if (b.max_bytes) b.max_bytes = b.max_bytes > spent ? b.max_bytes - spent : 1;
    bp = &b;
  }
  int rc = dcsim_swf_load_budget(path, bp, &t, err);
  if (rc) return rc;
  p->jobs += t->n_jobs;
  if (DCSIM_RESIZE(p->t, p->n + 1) || DCSIM_RESIZE(p->offset_s, p->n + 1)) {
    dcsim_swf_free(t);
    return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  }
  p->t[p->n] = t;
  p->offset_s[p->n++] = offset_s;
  return add_input(s, path, err);
}

/* Turns the pending SWF traces into workflows and jobs on the platform's first CPU group. */
static int swf_add_pending(dcsim_scenario *s, swf_pending *p, const dcsim_scenario_opts *o,
                           dcsim_error *err) {
  if (!p->n) return 0;
  dcsim_swf_map *map = NULL;
  int rc = 0;
  if (o->swf_map &&
      ((rc = dcsim_swf_map_load(o->swf_map, &map, err)) || (rc = add_input(s, o->swf_map, err))))
    goto out;
  if ((rc = trace_info(s, err))) goto out;
  long dg = default_group(s, 0); /* where a CPU task without group= goes */
  size_t g = dg < 0 ? 0 : (size_t)dg;
  for (size_t i = 0; i < p->n && !rc; i++) {
    dcsim_trace_jobs tj;
    dcsim_trace_info before = *s->trace;
    if ((rc =
             dcsim_trace_swf_jobs(p->t[i], map, s->groups[g].g->name, s->groups[g].g->count,
                                  s->groups[g].cores_per_node, p->offset_s[i], &tj, s->trace, err)))
      break;
    if (DCSIM_RESIZE(s->jobs, s->n_jobs + tj.n_jobs + 1) ||
        DCSIM_RESIZE(s->wfs, s->n_wfs + tj.n_wfs + 1)) {
      dcsim_trace_jobs_release(&tj);
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, p->t[i]->path, 0, "out of memory");
      break;
    }
    for (size_t k = 0; k < tj.n_jobs; k++) {
      dcsim_job j = tj.jobs[k];
      j.wf += (uint32_t)s->n_wfs;
      j.instance = (uint32_t)s->n_jobs; /* submission order, for ties in time */
      s->jobs[s->n_jobs++] = j;
    }
    for (size_t k = 0; k < tj.n_wfs; k++) {
      memset(&s->wfs[s->n_wfs], 0, sizeof *s->wfs);
      s->wfs[s->n_wfs++].wf = tj.wfs[k];
      tj.wfs[k] = NULL;
    }
    dcsim_trace_jobs_release(&tj);
    dcsim_trace_info delta = *s->trace; /* this trace's counts, for its note */
    delta.jobs_read -= before.jobs_read;
    delta.skipped_partial -= before.skipped_partial;
    delta.skipped_unknown -= before.skipped_unknown;
    delta.skipped_cancelled -= before.skipped_cancelled;
    delta.skipped_unmatched -= before.skipped_unmatched;
    rc = add_note(s, dcsim_trace_swf_note(&delta, p->t[i]->path), err);
  }
out:
  dcsim_swf_map_free(map);
  return rc;
}

/* `dcsim run TRACE`: the trace's workflow or jobs, and the platform it recorded unless one is
 * given. */
static int load_trace_input(dcsim_scenario *s, const char *path, dcsim_trace_kind kind,
                            const dcsim_scenario_opts *o, swf_pending *pend, const char **platform,
                            dcsim_error *err) {
  int rc = 0;
  dcsim_platform *node = NULL; /* the stand-in node of trace platforms */
  char *node_path = NULL;
  if (!o->platform_path && (!(rc = dcsim_trace_node_load(&node, &node_path, err))))
    rc = add_input(s, node_path, err);
  free(node_path);
  if (rc) {
    dcsim_platform_free(node);
    return rc;
  }
  if (kind == DCSIM_TRACE_SWF) {
    if (!(rc = swf_pend(s, pend, path, 0, o, err)) && node &&
        !(rc = dcsim_trace_swf_platform(pend->t[0], &node->groups[0], &s->platform, err)))
      *platform = s->platform->path;
    dcsim_platform_free(node);
    return rc;
  }
  dcsim_wfc *w = NULL;
  if (node) { /* its recorded machines */
    if (!(rc = dcsim_wfc_load_budget(path, o->budget, &w, err)) &&
        !(rc = dcsim_wfc_platform(w, &node->groups[0], &s->platform, err)))
      *platform = s->platform->path;
    dcsim_wfc_free(w);
    dcsim_platform_free(node);
    if (rc) return rc;
  }
  if (DCSIM_GROW_N(s->wfs, s->n_wfs)) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  memset(&s->wfs[s->n_wfs], 0, sizeof *s->wfs);
  if ((rc = load_wfc(s, path, o, !o->platform_path, &s->wfs[s->n_wfs].wf, err))) return rc;
  s->n_wfs++;
  if ((rc = add_input(s, path, err))) return rc;
  if (!(s->jobs = calloc(1, sizeof *s->jobs)))
    return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  s->jobs[s->n_jobs++] = (dcsim_job){ .wf = 0 };
  return 0;
}

static int add_workflow(dcsim_scenario *s, const char *path, const dcsim_scenario_opts *o,
                        uint32_t *index, dcsim_error *err) {
  for (size_t i = 0; i < s->n_wfs; i++)
    if (strcmp(s->wfs[i].wf->path, path) == 0) {
      *index = (uint32_t)i;
      return 0;
    }
  if (DCSIM_GROW_N(s->wfs, s->n_wfs)) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  dcsim_wf_rt *w = &s->wfs[s->n_wfs];
  memset(w, 0, sizeof *w);
  int rc = dcsim_trace_detect(path) == DCSIM_TRACE_WFCOMMONS
               ? load_wfc(s, path, o, 0, &w->wf, err)
               : dcsim_workflow_load_budget(path, o->budget, &w->wf, err);
  if (rc) return rc;
  s->n_wfs++;
  if ((rc = add_input(s, path, err))) return rc;
  *index = (uint32_t)(s->n_wfs - 1);
  return 0;
}

static int cmp_job(const void *a, const void *b) {
  const dcsim_job *x = a, *y = b;
  if (x->submit_ns != y->submit_ns) return x->submit_ns < y->submit_ns ? -1 : 1;
  return x->instance < y->instance ? -1 : x->instance > y->instance; /* submission order */
}

/* The jobs of one <submit> of a workload: count times members instances of workflow w. */
static int submit_jobs(dcsim_scenario *s, const char *path, const dcsim_submission *sb, uint32_t w,
                       dcsim_error *err) {
  for (unsigned k = 0; k < sb->count; k++) {
    double at = sb->at_s + k * sb->interval_s;
    if (!(at >= 0) || at > 9e9)
      return DCSIM_ERR(err, DCSIM_ERANGE, path, sb->line,
                       "<submit>: submission time %g s out of range", at);
    for (unsigned m = 0; m < sb->members; m++) {
      s->jobs[s->n_jobs] =
          (dcsim_job){ .wf = w, .instance = (uint32_t)s->n_jobs, .submit_ns = llround(at * 1e9) };
      s->n_jobs++;
    }
  }
  return 0;
}

/* A <workload>: its workflows and jobs (SWF traces' jobs wait in pend for the platform). */
static int load_workload(dcsim_scenario *s, const char *path, const dcsim_scenario_opts *o,
                         dcsim_workload **wl_out, swf_pending *pend, const char **platform,
                         dcsim_error *err) {
  int rc;
  if ((rc = dcsim_workload_load(path, wl_out, err)) || (rc = add_input(s, path, err))) return rc;
  const dcsim_workload *wl = *wl_out;
  if (!*platform) *platform = wl->platform;
  uint64_t total = 0;
  for (size_t i = 0; i < wl->n_submissions; i++)
    total += (uint64_t)wl->subs[i].count * wl->subs[i].members;
  if (total > 10000000u)
    return DCSIM_ERR(err, DCSIM_ERANGE, path, 0, "workload submits %llu jobs; at most 10000000",
                     (unsigned long long)total);
  s->jobs = calloc(total ? total : 1, sizeof *s->jobs);
  if (!s->jobs) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  for (size_t i = 0; i < wl->n_submissions; i++) {
    const dcsim_submission *sb = &wl->subs[i];
    uint32_t w;
    if (dcsim_trace_detect(sb->workflow_path) ==
        DCSIM_TRACE_SWF) { /* its jobs, once the platform is known */
      for (unsigned k = 0; k < sb->count && !rc; k++)
        rc = swf_pend(s, pend, sb->workflow_path, sb->at_s + k * sb->interval_s, o, err);
      if (rc) return rc;
      continue;
    }
    if ((rc = add_workflow(s, sb->workflow_path, o, &w, err)) ||
        (rc = submit_jobs(s, path, sb, w, err)))
      return rc;
  }
  return 0;
}

/* A <workflow>: one job of it. */
static int load_one_workflow(dcsim_scenario *s, const char *path, const dcsim_scenario_opts *o,
                             const char **platform, dcsim_error *err) {
  uint32_t w;
  int rc;
  if ((rc = add_workflow(s, path, o, &w, err))) return rc;
  if (!*platform) *platform = s->wfs[0].wf->platform;
  s->jobs = calloc(1, sizeof *s->jobs);
  if (!s->jobs) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  s->jobs[s->n_jobs++] = (dcsim_job){ .wf = w };
  return 0;
}

/* Jobs by time, then submission order; instance numbers per workflow in that order. */
static int order_jobs(dcsim_scenario *s, const char *path, dcsim_error *err) {
  size_t k = 1; /* submissions in time order (one <submit>, traces) need no sort */
  while (k < s->n_jobs && cmp_job(&s->jobs[k - 1], &s->jobs[k]) < 0) k++;
  if (k < s->n_jobs) qsort(s->jobs, s->n_jobs, sizeof *s->jobs, cmp_job); /* time, submission */
  uint32_t *seen = calloc(s->n_wfs ? s->n_wfs : 1, sizeof *seen);
  if (!seen) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  for (size_t j = 0; j < s->n_jobs; j++) s->jobs[j].instance = ++seen[s->jobs[j].wf];
  free(seen);
  return 0;
}

/* Between two steps of loading: DCSIM_EINTR when the caller asks to stop (stop_loading). */
static int load_step(const char *path, const dcsim_scenario_opts *o, dcsim_error *err) {
  if (o->stop_loading && o->stop_loading(o->stop_loading_ctx))
    return DCSIM_ERR(err, DCSIM_EINTR, path, 0, "loading stopped on request");
  return 0;
}

static int load(const char *path, const dcsim_scenario_opts *o, int options, dcsim_scenario **out,
                dcsim_error *err) {
  dcsim_scenario *s = calloc(1, sizeof *s);
  dcsim_workload *wl = NULL;
  swf_pending pend = { 0, NULL, NULL, 0 };
  char *root = NULL; /* the XML input's root element */
  int rc = 0;
  if (!s || !(s->input_path = dcsim_strdup(path))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  if (!(o->deadline_s >= 0 &&
        o->deadline_s <= 1e9)) { /* the engine's clock counts nanoseconds in 64 bits */
    rc = DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "deadline %g s: expected 0 to 10^9 s", o->deadline_s);
    goto out;
  }
  dcsim_trace_kind tk =
      dcsim_trace_detect(path); /* an SWF trace or a WfCommons instance (dcsim/trace.h) */
  if (!tk && (rc = dcsim__xml_peek_root_dup(path, &root, err))) goto out;
  const char *platform = o->platform_path;
  if (tk)
    rc = load_trace_input(s, path, tk, o, &pend, &platform, err);
  else if (strcmp(root, "workload") == 0)
    rc = load_workload(s, path, o, &wl, &pend, &platform, err);
  else if (strcmp(root, "workflow") == 0)
    rc = load_one_workflow(s, path, o, &platform, err);
  else
    rc = DCSIM_ERR(err, DCSIM_ESCHEMA, path, 1,
                   "<%s>: dcsim run takes a <workflow> or a <workload>", root);
  if (rc || (rc = load_step(path, o, err))) goto out;
  if (!platform) {
    rc = DCSIM_ERR(err, DCSIM_EUSAGE, path, 0,
                   "no platform: the input names none (platform=\"...\"), give --platform FILE");
    goto out;
  }
  s->task_policy = o->task_policy;
  s->deadline_s = o->deadline_s;
  s->stop_planning = o->stop_planning;
  s->stop_planning_ctx = o->stop_planning_ctx;
  s->model_flags = o->model_flags;
  if ((rc = load_platform(s, platform, err)) || (rc = load_step(path, o, err))) goto out;
  if ((rc = swf_add_pending(s, &pend, o, err))) goto out;
  for (size_t i = 0; i < s->n_wfs; i++)
    if ((rc = prepare_workflow(s, &s->wfs[i], o, options, err)) || (rc = load_step(path, o, err)))
      goto out;
  if ((rc = order_jobs(s, path, err))) goto out;
  *out = s;
  s = NULL;
out:
  free(root);
  swf_pending_release(&pend);
  dcsim_workload_free(wl);
  dcsim_scenario_free(s);
  return rc;
}

int dcsim_scenario_load(const char *path, const dcsim_scenario_opts *o, dcsim_scenario **out,
                        dcsim_error *err) {
  return load(path, o, 1, out, err);
}

int dcsim_scenario_load_inputs(const char *path, const dcsim_scenario_opts *o, dcsim_scenario **out,
                               dcsim_error *err) {
  return load(path, o, 0, out, err);
}

int dcsim_scenario_cpu_profile(dcsim_scenario *s, const char *ref, const dcsim_cpu_profile_t **out,
                               dcsim_error *err) {
  if (s->base) return DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0, "a derived scenario loads no profile");
  return get_cpu(s, ref, NULL, 0, out, err);
}

int dcsim_scenario_gpu_profile(dcsim_scenario *s, const char *ref, const dcsim_gpu_profile_t **out,
                               dcsim_error *err) {
  if (s->base) return DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0, "a derived scenario loads no profile");
  return get_gpu(s, ref, NULL, 0, out, err);
}

/* The template as a point of a sweep sees it: CPU tasks take the override's nodes, cores and
 * frequency. Strings stay borrowed from the workflow or the override. */
static dcsim_task_template override_template(const dcsim_task_template *t,
                                             const dcsim_scenario_override *ov) {
  dcsim_task_template tt = *t;
  if (ov->nodes)
    tt.nodes = ov->nodes; /* only the CPU option uses it: a GPU task runs on one node */
  if (ov->cores) tt.cores_per_node = ov->cores;
  if (ov->freq) {
    tt.freq_ghz = 0;
    tt.freq_label = strcmp(ov->freq, "nominal") == 0 ? NULL : (char *)ov->freq; /* read only */
  }
  return tt;
}

/* What a derived scenario borrows from its base (inputs, workflows, profiles, dwarfs) and what
 * it owns: copies of the platform's groups and of the jobs, its own groups and workflow plans. */
static int derive_copy(dcsim_scenario *s, const dcsim_scenario *base, dcsim_platform *p,
                       dcsim_error *err) {
  /* borrowed from the base: the inputs, the workflows, the profiles and dwarfs */
  s->base = base;
  s->input_path = base->input_path;
  s->n_inputs = base->n_inputs;
  s->inputs = base->inputs;
  s->n_cpus = base->n_cpus;
  s->cpus = base->cpus;
  s->n_gpus = base->n_gpus;
  s->gpus = base->gpus;
  s->n_dwarfs = base->n_dwarfs;
  s->dwarfs = base->dwarfs;
  s->task_policy = base->task_policy;
  s->deadline_s = base->deadline_s;
  s->stop_planning = base->stop_planning;
  s->stop_planning_ctx = base->stop_planning_ctx;
  s->model_flags = base->model_flags;
  /* owned: a copy of the platform whose groups carry the point's hardware and sizes */
  *p = *base->platform;
  s->platform = p;
  p->groups = malloc((p->n_groups ? p->n_groups : 1) * sizeof *p->groups);
  s->n_groups = base->n_groups;
  s->groups = calloc(s->n_groups ? s->n_groups : 1, sizeof *s->groups);
  s->n_wfs = base->n_wfs;
  s->wfs = calloc(s->n_wfs ? s->n_wfs : 1, sizeof *s->wfs);
  s->n_jobs = base->n_jobs;
  s->jobs = malloc((s->n_jobs ? s->n_jobs : 1) * sizeof *s->jobs);
  if (!p->groups || !s->groups || !s->wfs || !s->jobs)
    return DCSIM_ERR(err, DCSIM_ENOMEM, base->input_path, 0, "out of memory");
  memcpy(p->groups, base->platform->groups, p->n_groups * sizeof *p->groups);
  memcpy(s->jobs, base->jobs, s->n_jobs * sizeof *s->jobs);
  s->wms_conf = NULL; /* the base's description stays the base's */
  for (size_t i = 0; i < s->n_wfs; i++) {
    s->wfs[i].wf = base->wfs[i].wf;
    s->wfs[i].dwarfs = base->wfs[i].dwarfs;
    s->wfs[i].wms = base->wfs[i].wms;
  }
  return 0;
}

/* hardware: CPU groups (no GPU) take the override's CPU, GPU groups its GPU (host CPU kept) */
static int derive_hardware(dcsim_scenario *s, const dcsim_scenario *base, dcsim_platform *p,
                           const dcsim_scenario_override *ov, dcsim_error *err) {
  int rc;
  for (size_t g = 0; g < s->n_groups; g++) {
    dcsim_node_group *ng = &p->groups[g];
    const dcsim_cpu_profile_t *cpu = base->groups[g].cpu;
    const dcsim_gpu_profile_t *gpu = base->groups[g].gpu;
    if (!gpu && ov->cpu) {
      cpu = ov->cpu;
      ng->cpu = (char *)dcsim_cpu_profile_path(cpu);
    } /* read only */
    if (gpu && ov->gpu) {
      gpu = ov->gpu;
      ng->gpu = (char *)dcsim_gpu_profile_path(gpu);
    }                          /* read only */
    if (gpu && ov->host_cpu) { /* --host-cpu: the CPU of the GPU nodes */
      cpu = ov->host_cpu;
      ng->cpu = (char *)dcsim_cpu_profile_path(cpu);
    }
    if (gpu && ov->gpus) ng->gpus_per_node = ov->gpus; /* --gpus: GPUs per GPU node */
    if ((rc = group_rt_init(&s->groups[g], ng, cpu, gpu, s->model_flags, p->path, err))) return rc;
  }
  return 0;
}

/* sizes: the group of every CPU option grows to the override's node count */
static int derive_sizes(dcsim_scenario *s, dcsim_platform *p, unsigned nodes, dcsim_error *err) {
  int rc;
  for (size_t i = 0; i < s->n_wfs; i++) {
    const dcsim_workflow *wf = s->wfs[i].wf;
    for (size_t k = 0; k < wf->n_templates; k++) {
      const dcsim_task_template *t = &wf->templates[k];
      if (t->device == DCSIM_DEV_GPU) continue;
      uint32_t g = 0; /* set by dcsim_scenario_task_group; GCC -O3 cannot see it */
      if ((rc = dcsim_scenario_task_group(s, wf, t, 0, &g, err))) return rc;
      if (p->groups[g].count < nodes) p->groups[g].count = nodes;
    }
  }
  unsigned first = 0;
  for (size_t g = 0; g < p->n_groups; g++) {
    if (p->groups[g].count > DCSIM_PLATFORM_MAX_NODES - first)
      return DCSIM_ERR(err, DCSIM_ERANGE, p->path, 0, "more than %u nodes",
                       DCSIM_PLATFORM_MAX_NODES);
    p->groups[g].first_node = first;
    first += p->groups[g].count;
  }
  p->n_nodes = first;
  return 0;
}

/* options and plan of workflow w with the point's nodes, cores and frequency */
static int derive_workflow(dcsim_scenario *s, dcsim_wf_rt *w, const dcsim_scenario_override *ov,
                           dcsim_error *err) {
  const dcsim_workflow *wf = w->wf;
  int rc;
  w->tmpls = calloc(wf->n_templates ? wf->n_templates : 1, sizeof *w->tmpls);
  if (!w->tmpls) return DCSIM_ERR(err, DCSIM_ENOMEM, wf->path, 0, "out of memory");
  for (size_t k = 0; k < wf->n_templates; k++) {
    const dcsim_task_template *t = &wf->templates[k];
    dcsim_task_template tt = override_template(t, ov);
    int want_cpu = t->device == DCSIM_DEV_CPU || t->device == DCSIM_DEV_ANY;
    int want_gpu = t->device == DCSIM_DEV_GPU || t->device == DCSIM_DEV_ANY;
    dcsim_tmpl_rt *tr = &w->tmpls[k];
    if (!t->dwarf) { /* a recorded runtime (dcsim/recorded.h): one CPU option */
      if ((rc = make_recorded_option(s, wf, &tt, &tr->opts[tr->n_opts++], err))) return rc;
      continue;
    }
    if (want_cpu && (rc = make_option(s, wf, &tt, w->dwarfs[k], 0, &tr->opts[tr->n_opts++], err)))
      return rc;
    dcsim_task_template tg = *t; /* --gpus: every GPU task split over the node's GPUs */
    if (ov->gpus) tg.gpus = ov->gpus;
    if (want_gpu && (rc = make_option(s, wf, &tg, w->dwarfs[k], 1, &tr->opts[tr->n_opts++], err)))
      return rc;
  }
  return dcsim_sched_plan(s, w, (dcsim_task_policy)s->task_policy, s->deadline_s, err);
}

int dcsim_scenario_derive(const dcsim_scenario *base, const dcsim_scenario_override *ov,
                          dcsim_scenario **out, dcsim_error *err) {
  static const dcsim_scenario_override none = { NULL, NULL, 0, 0, NULL, 0, NULL, 0, 0, NULL };
  if (!ov) ov = &none;
  *out = NULL;
  if (base->base)
    return DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0, "cannot derive from a derived scenario");
  int rc = 0;
  dcsim_scenario *s = calloc(1, sizeof *s);
  dcsim_platform *p = calloc(1, sizeof *p);
  if (!s || !p) {
    free(p);
    free(s);
    return DCSIM_ERR(err, DCSIM_ENOMEM, base->input_path, 0, "out of memory");
  }
  s->n_extra_sets = ov->n_sets;
  s->extra_sets = ov->sets;
  if ((rc = derive_copy(s, base, p, err))) goto out;
  if (ov->threading) /* the thread-scaling variant of the point (dcsim/model.h) */
    s->model_flags = (s->model_flags & ~(unsigned)DCSIM_MODEL_HW_THREADS) |
                     (ov->threading == 2 ? (unsigned)DCSIM_MODEL_HW_THREADS : 0u);
  if ((rc = derive_hardware(s, base, p, ov, err)) ||
      (ov->nodes && (rc = derive_sizes(s, p, ov->nodes, err))))
    goto out;
  for (size_t i = 0; i < s->n_wfs; i++)
    if ((rc = derive_workflow(s, &s->wfs[i], ov, err))) goto out;
  *out = s;
  s = NULL;
out:
  dcsim_scenario_free(s);
  return rc;
}

void dcsim_scenario_provenance(const dcsim_scenario *s, dcsim_prov *time, dcsim_prov *energy) {
  *time = *energy = dcsim_prov_make(DCSIM_PROV_TABLE, "");
  int first = 1;
  for (size_t w = 0; w < s->n_wfs; w++) {
    const dcsim_wf_rt *wr = &s->wfs[w];
    if (!wr->plan.opt) continue; /* not planned (dcsim_scenario_load_inputs) */
    for (size_t i = 0; i < wr->wf->n_tasks; i++) {
      const dcsim_option *o = &wr->tmpls[wr->wf->tasks[i].tmpl].opts[wr->plan.opt[i]];
      *time = first ? o->time_prov : dcsim_prov_weakest(*time, o->time_prov);
      *energy = first ? o->energy_prov : dcsim_prov_weakest(*energy, o->energy_prov);
      first = 0;
    }
  }
}

double dcsim_scenario_time_cover(const dcsim_scenario *s) {
  double f = 1;
  for (size_t w = 0; w < s->n_wfs; w++) {
    const dcsim_wf_rt *wr = &s->wfs[w];
    if (!wr->plan.opt) continue; /* not planned (dcsim_scenario_load_inputs) */
    for (size_t i = 0; i < wr->wf->n_tasks; i++) {
      const dcsim_option *o = &wr->tmpls[wr->wf->tasks[i].tmpl].opts[wr->plan.opt[i]];
      if (o->time_cover > f) f = o->time_cover;
    }
  }
  return f;
}

void dcsim_scenario_band_basis(const dcsim_scenario *s, dcsim_band_basis *q) {
  dcsim_prov tprov, eprov;
  dcsim_scenario_provenance(s, &tprov, &eprov);
  *q = (dcsim_band_basis){
    .time_kind = tprov.kind, .energy_kind = eprov.kind, .time_s = 1, .energy_j = 1
  };
  for (size_t w = 0; w < s->n_wfs && !q->gpu; w++) {
    const dcsim_wf_rt *wr = &s->wfs[w];
    if (!wr->plan.opt) continue; /* not planned (dcsim_scenario_load_inputs) */
    for (size_t i = 0; i < wr->wf->n_tasks; i++)
      q->gpu |= wr->tmpls[wr->wf->tasks[i].tmpl].opts[wr->plan.opt[i]].gpus > 0;
  }
  for (size_t g = 0; g < s->n_groups; g++)
    if (dcsim_scenario_group_runs_cpu(s, g))
      dcsim_band_basis_add_cpu(q, dcsim_band_cpu_of(s->groups[g].cpu));
  dcsim_band_basis_cover_factor(q, dcsim_scenario_time_cover(s));
}

int dcsim_scenario_group_runs_cpu(const dcsim_scenario *s, size_t g) {
  int r = 0;
  for (size_t w = 0; w < s->n_wfs; w++) {
    const dcsim_wf_rt *wr = &s->wfs[w];
    if (!wr->plan.opt) continue; /* not planned (dcsim_scenario_load_inputs) */
    for (size_t i = 0; i < wr->wf->n_tasks; i++) {
      const dcsim_option *op = &wr->tmpls[wr->wf->tasks[i].tmpl].opts[wr->plan.opt[i]];
      if (op->gpus == 0 && op->group == g)
        r |= DCSIM_GROUP_RUNS_CPU | (op->turbo_unmeasured ? DCSIM_GROUP_TURBO_UNMEASURED : 0);
    }
  }
  return r;
}

const char *dcsim_scenario_energy_unknown(const dcsim_scenario *s) {
  for (size_t g = 0; g < s->n_groups; g++)
    if (s->groups[g].energy_unknown[0]) return s->groups[g].energy_unknown;
  return NULL;
}

const char *dcsim_scenario_energy_scope(const dcsim_scenario *s) {
  int gpus = 0;
  for (size_t g = 0; g < s->n_groups; g++) gpus |= s->groups[g].gpu != NULL;
  if (!(s->model_flags & DCSIM_MODEL_D35))
    return gpus ? "node wall power of every node: CPU packages, DRAM, GPU boards and the node base "
                  "power (board, fans, NIC, power-supply and regulator losses), idle included"
                : "node wall power of every node: CPU packages, DRAM and the node base power "
                  "(board, fans, NIC, power-supply and regulator losses), idle included";
  return gpus ? "CPU packages and DRAM (RAPL domains) and GPU boards of every node, idle included; "
                "no node base power (board, fans, PSU losses, NIC)"
              : "CPU packages and DRAM (RAPL domains) of every node, idle included; no node base "
                "power (board, fans, PSU losses, NIC)";
}

int dcsim_scenario_repro(const dcsim_scenario *s, dcsim_repro *r, dcsim_error *err) {
  int rc = 0;
  for (size_t i = 0; i < s->n_inputs && !rc; i++)
    rc = dcsim_repro_add(r, s->inputs[i].path, s->inputs[i].sha256, err);
  return rc;
}
