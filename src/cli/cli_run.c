/* cli_run.c — `dcsim run FILE`: simulate a workflow or a workload (doc/engine.md). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dcsim/bands.h"
#include "dcsim/cli.h"
#include "dcsim/cost.h"
#include "dcsim/engine.h"
#include "dcsim/json.h"
#include "dcsim/metrics.h"
#include "dcsim/model.h"
#include "dcsim/numfmt.h"
#include "dcsim/plot.h"
#include "dcsim/results.h"
#include "dcsim/scenario.h"
#include "dcsim/sched.h"
#include "dcsim/strutil.h"
#include "dcsim/taskcsv.h"
#include "dcsim/trace.h"
#include "dcsim/wmsconf.h"
#include "util/clock.h"
#include "util/csv.h"

/* What the printers of a finished run need. */
typedef struct run_out {
  const dcsim_scenario *s;
  const dcsim_run_stats *st;
  dcsim_metrics_summary ms;
  dcsim_job_policy jp;
  dcsim_task_policy tp;
  int64_t run_id;
  const char *db;
  dcsim_repro rp;
  double deadline_s; /* --deadline-s, 0 = none */
  dcsim_deadline_report dl;
  dcsim_cost_opts cost; /* issue 26: --price, --kwh-price, --lifetime-years */
  int kwh_default;      /* no --kwh-price: the tariff is printed with its year and source */
  dcsim_cost held, centre;
  double band_t[2], band_e[2]; /* uncertainty bands as factors of a time and an energy (bands.h) */
} run_out;

static void json_task_types(dcsim_json *j, const dcsim_scenario *s);

/* A workflow run under a WMS whose makespan has its own band (doc/wms.md, out of sample on
 * WfCommons' untouched test share: makespan / (1 + b) to makespan x (1 + b)) widens the run's time
 * band to cover it, and the energy band by the same factors (an energy is a power times a time). */
static void wms_widen(run_out *o) {
  const dcsim_scenario *s = o->s;
  for (size_t w = 0; w < s->n_wfs; w++) {
    const dcsim_wms_profile *p = s->wfs[w].wms;
    if (!p || !(p->band_rel > 0)) continue;
    double lo = 1 / (1 + p->band_rel), hi = 1 + p->band_rel;
    if (lo < o->band_t[0]) o->band_e[0] *= lo / o->band_t[0], o->band_t[0] = lo;
    if (hi > o->band_t[1]) o->band_e[1] *= hi / o->band_t[1], o->band_t[1] = hi;
  }
}

/* The bands of this run's times and energies as factors: from the provenance of its planned
 * tasks and the devices they run on (dcsim/bands.h). */
static int run_bands(run_out *o, dcsim_error *err) {
  const dcsim_scenario *s = o->s;
  int cpu = 0, gpu = 0;
  for (size_t w = 0; w < s->n_wfs; w++) {
    const dcsim_wf_rt *wr = &s->wfs[w];
    if (!wr->plan.opt) continue;
    for (size_t i = 0; i < wr->wf->n_tasks; i++) {
      const dcsim_option *op = &wr->tmpls[wr->wf->tasks[i].tmpl].opts[wr->plan.opt[i]];
      gpu |= op->gpus > 0;
      if (op->gpus == 0) /* 2: on a CPU whose rates were carried from another (dcsim/bands.h) */
        cpu = cpu == 2 ? 2 : 1 + dcsim_bands_cpu_transferred(s->groups[op->group].cpu);
    }
  }
  dcsim_prov tprov, eprov;
  dcsim_scenario_provenance(s, &tprov, &eprov);
  dcsim_bands_t *b = NULL;
  int rc = dcsim_bands_load_default(&b, err);
  if (rc) return rc;
  dcsim_bands_apply(b, cpu, gpu, tprov.kind, eprov.kind, 1, 1, o->band_t, o->band_e);
  dcsim_bands_free(b);
  /* a task beyond its thread law's measured cores: the band reaches the law continued, by the
   * rule of dcsim model (dcsim_bands_cover, on factors of the time) */
  const double cover[2] = { 1, dcsim_scenario_time_cover(s) };
  dcsim_bands_cover(1, cover, o->band_t, o->band_e);
  wms_widen(o);
  return 0;
}

/* v with the digits its band (factors f) supports, in a buffer living to the end of the block */
static char *banded(char *buf, size_t size, double v, const double f[2]) {
  const double band[2] = { v * f[0], v * f[1] };
  return dcsim_fmt_sig(buf, size, v, dcsim_band_digits(v, band));
}
#define BANDED(v, f) banded((char[48]){ 0 }, 48, (v), (f))

static void json_band(dcsim_json *j, const char *key, double v, const double f[2]) {
  dcsim_json_key(j, key);
  dcsim_json_arr_begin(j);
  dcsim_json_num(j, v * f[0]);
  dcsim_json_num(j, v * f[1]);
  dcsim_json_arr_end(j);
}

static void json_stat(dcsim_json *j, const char *key, const dcsim_stat *st) {
  dcsim_json_key(j, key);
  dcsim_json_obj_begin(j);
  dcsim_json_key_num(j, "mean", st->mean);
  dcsim_json_key_num(j, "median", st->median);
  dcsim_json_key_num(j, "p95", st->p95);
  dcsim_json_key_num(j, "max", st->max);
  dcsim_json_obj_end(j);
}

static double busy_fraction(const dcsim_run_stats *st) {
  double busy = 0, mk = (double)st->makespan_ns * 1e-9;
  for (unsigned i = 0; i < st->n_nodes; i++) busy += st->node_busy_s[i];
  return mk > 0 && st->n_nodes ? busy / (mk * st->n_nodes) : 0;
}

/* The run's totals: input, platform, policy, time, energy, counts, utilisation. */
static void json_totals(dcsim_json *j, const dcsim_scenario *s, const dcsim_run_stats *st,
                        const dcsim_metrics_summary *ms, dcsim_job_policy jp, dcsim_task_policy tp,
                        int64_t run_id) {
  dcsim_json_key_str(j, "input", s->input_path);
  dcsim_json_key_str(j, "platform", s->platform->name);
  char pol[32];
  snprintf(pol, sizeof pol, "%s+%s", dcsim_sched_job_name(jp), dcsim_sched_task_name(tp));
  dcsim_json_key_str(j, "policy", pol);
  dcsim_json_key_num(j, "time_to_solution_s", (double)st->makespan_ns * 1e-9);
  dcsim_json_key_num(j, "energy_to_solution_j", st->energy_j);
  dcsim_json_key_num(j, "unallocated_idle_j", st->unallocated_idle_j);
  dcsim_json_key_int(j, "tasks", (long long)st->tasks);
  dcsim_json_key_int(j, "jobs", (long long)st->n_jobs);
  dcsim_json_key_int(j, "events", (long long)st->events);
  dcsim_json_key_int(j, "nodes", st->n_nodes);
  dcsim_json_key_num(j, "utilisation", busy_fraction(st));
  if (run_id > 0) dcsim_json_key_int(j, "run_id", run_id);
  dcsim_json_key_num(j, "allocated", ms->allocated);
  dcsim_json_key_str(j, "model", s->model_flags & DCSIM_MODEL_D35 ? "d35" : "default");
  if (s->model_flags & DCSIM_MODEL_HW_THREADS) /* only then: earlier outputs unchanged */
    dcsim_json_key_str(j, "threading", "ideal");
  dcsim_json_key_str(j, "energy_covers", dcsim_scenario_energy_scope(s));
  dcsim_prov tprov, eprov;
  dcsim_scenario_provenance(s, &tprov, &eprov);
  const char *unknown = dcsim_scenario_energy_unknown(s);
  dcsim_prov_json_member(j, tprov, unknown ? NULL : &eprov);
  if (unknown) dcsim_json_key_str(j, "energy_unknown", unknown); /* why it is null (issue 38) */
}

/* The band of a cost of this run (dcsim_bands_cost): band_t and band_e are factors of a time and
 * an energy of 1. */
static void run_cost_band(const run_out *o, double usd, double cb[2]) {
  dcsim_bands_cost(usd, 1, o->band_t, 1, o->band_e, cb);
}

/* "cost": of what the jobs held and of the whole centre, the tariff, the lifetime, the prices of
 * the profiles used (issue 26, dcsim/cost.h) */
static void json_cost(dcsim_json *j, const run_out *o) {
  char note[200];
  dcsim_cost_reason(&o->held, note, sizeof note);
  dcsim_json_key(j, "cost");
  dcsim_json_obj_begin(j);
  dcsim_json_key(j, "usd");
  o->held.known ? dcsim_json_num(j, o->held.usd) : dcsim_json_null(j);
  if (o->held.known) { /* issue 37: the cost's band from the time's and the energy's */
    double cb[2];
    run_cost_band(o, o->held.usd, cb);
    dcsim_json_key(j, "usd_band");
    dcsim_json_arr_begin(j);
    dcsim_json_num(j, cb[0]);
    dcsim_json_num(j, cb[1]);
    dcsim_json_arr_end(j);
  }
  dcsim_json_key_num(j, "energy_usd", o->held.energy_usd);
  dcsim_json_key(j, "hardware_usd");
  o->held.known ? dcsim_json_num(j, o->held.hardware_usd) : dcsim_json_null(j);
  dcsim_json_key(j, "centre_usd");
  o->centre.known ? dcsim_json_num(j, o->centre.usd) : dcsim_json_null(j);
  dcsim_json_key_num(j, "centre_energy_usd", o->centre.energy_usd);
  if (!o->held.known || !o->centre.known) {
    dcsim_cost_reason(o->held.known ? &o->centre : &o->held, note, sizeof note);
    dcsim_json_key_str(j, "note", note);
  }
  dcsim_json_key_num(j, "kwh_usd", o->cost.kwh_usd);
  dcsim_json_key_num(j, "lifetime_years", o->cost.lifetime_years);
  dcsim_json_obj_end(j);
}

/* Job statistics (doc/workloads.md), power management, utilisation over time. */
static void json_statistics(dcsim_json *j, const dcsim_run_stats *st,
                            const dcsim_metrics_summary *ms) {
  dcsim_json_key(j, "statistics"); /* doc/workloads.md */
  dcsim_json_obj_begin(j);
  json_stat(j, "wait_s", &ms->wait_s);
  json_stat(j, "flow_s", &ms->flow_s);
  json_stat(j, "slowdown", &ms->slowdown);
  json_stat(j, "bounded_slowdown", &ms->bounded_slowdown);
  dcsim_json_obj_end(j);
  dcsim_json_key(j, "power_management");
  dcsim_json_obj_begin(j);
  dcsim_json_key_int(j, "boots", (long long)st->boots);
  dcsim_json_key_int(j, "shutdowns", (long long)st->shutdowns);
  double off = 0;
  for (unsigned i = 0; i < st->n_nodes; i++) off += st->node_off_s[i];
  dcsim_json_key_num(j, "off_node_s", off);
  dcsim_json_obj_end(j);
  dcsim_json_key(j, "utilisation_over_time");
  dcsim_json_obj_begin(j);
  dcsim_json_key_num(j, "bucket_s", st->bucket_s);
  for (int which = 0; which < 2; which++) {
    dcsim_json_key(j, which ? "allocated" : "busy");
    dcsim_json_arr_begin(j);
    for (size_t k = 0; k < st->n_buckets; k++) {
      double t0, t1, busy, alloc;
      dcsim_metrics_bucket(st, k, &t0, &t1, &busy, &alloc);
      dcsim_json_num(j, which ? alloc : busy);
    }
    dcsim_json_arr_end(j);
  }
  dcsim_json_obj_end(j);
}

/* The replayed trace: its kind and, for SWF, what was kept and skipped. */
static void json_trace(dcsim_json *j, const dcsim_trace_info *tr) {
  dcsim_json_key(j, "trace");
  dcsim_json_obj_begin(j);
  dcsim_json_key_str(j, "kind", tr->kind == DCSIM_TRACE_SWF ? "swf" : "wfcommons");
  if (tr->kind == DCSIM_TRACE_WFCOMMONS) {
    dcsim_json_key(j, "recorded_makespan_s");
    if (tr->recorded_makespan_s >= 0)
      dcsim_json_num(j, tr->recorded_makespan_s);
    else
      dcsim_json_null(j);
  } else {
    dcsim_json_key_int(j, "jobs_read", (long long)tr->jobs_read);
    dcsim_json_key_int(j, "jobs_replayed", (long long)tr->jobs_kept);
    dcsim_json_key_int(j, "mapped_to_dwarfs", (long long)tr->mapped);
    dcsim_json_key_int(j, "failed_replayed", (long long)tr->failed);
    dcsim_json_key_int(j, "skipped_cancelled", (long long)tr->skipped_cancelled);
    dcsim_json_key_int(j, "skipped_unknown", (long long)tr->skipped_unknown);
    dcsim_json_key_int(j, "skipped_partial", (long long)tr->skipped_partial);
    dcsim_json_key_int(j, "skipped_unmatched", (long long)tr->skipped_unmatched);
    dcsim_json_key_int(j, "processors_per_node", tr->procs_per_node);
    static const char *const hk[] = { "max_nodes", "max_procs",
                                      "unix_start_time" }; /* SWF header, null if absent */
    long long hv[] = { tr->max_nodes, tr->max_procs, tr->unix_start_time };
    for (int k = 0; k < 3; k++) {
      dcsim_json_key(j, hk[k]);
      if (hv[k] >= 0)
        dcsim_json_int(j, hv[k]);
      else
        dcsim_json_null(j);
    }
  }
  dcsim_json_obj_end(j);
}

/* One job (workflow instance) k: times, energies, metrics, its trace job. */
static void json_job(dcsim_json *j, const dcsim_scenario *s, const dcsim_run_stats *st, size_t k,
                     const dcsim_cost_opts *co) {
  const dcsim_job_stats *js = &st->jobs[k];
  dcsim_json_obj_begin(j);
  dcsim_json_key_str(j, "name", s->wfs[s->jobs[k].wf].wf->name);
  dcsim_json_key_int(j, "instance", s->jobs[k].instance);
  dcsim_json_key_num(j, "submit_s", (double)js->submit_ns * 1e-9);
  dcsim_json_key_num(j, "start_s", (double)js->start_ns * 1e-9);
  dcsim_json_key_num(j, "end_s", (double)js->end_ns * 1e-9);
  dcsim_json_key_num(j, "wait_s", (double)(js->start_ns - js->submit_ns) * 1e-9);
  dcsim_json_key_num(j, "time_to_solution_s", (double)(js->end_ns - js->submit_ns) * 1e-9);
  dcsim_json_key_num(j, "energy_to_solution_j", js->energy_j);
  dcsim_json_key_num(j, "task_energy_j", js->task_energy_j);
  dcsim_json_key_num(j, "held_idle_j", dcsim_num_diff(js->energy_j, js->task_energy_j));
  dcsim_json_key_int(j, "tasks", js->tasks);
  dcsim_job_metrics m = dcsim_metrics_job(js);
  dcsim_json_key_num(j, "flow_s", m.flow_s);
  dcsim_json_key_num(j, "slowdown", m.slowdown);
  dcsim_json_key_num(j, "bounded_slowdown", m.bounded_slowdown);
  dcsim_json_key_num(j, "boot_wait_s", (double)(js->start_ns - js->alloc_ns) * 1e-9);
  if (s->jobs[k].trace_job) dcsim_json_key_int(j, "trace_job", s->jobs[k].trace_job);
  if (s->jobs[k].trace_procs) dcsim_json_key_int(j, "procs", s->jobs[k].trace_procs);
  const dcsim_wf_rt *w = &s->wfs[s->jobs[k].wf];
  if (w->wms) { /* the workflow management system it ran under (doc/wms.md) */
    dcsim_json_key(j, "wms");
    dcsim_json_obj_begin(j);
    dcsim_json_key_str(j, "profile", w->wms->name);
    dcsim_json_key_str(j, "profile_for", w->wms->description ? w->wms->description : "");
    dcsim_json_key_str(j, "data", dcsim_wms_data_name(w->wms->p.data));
    if (w->wms->band_rel > 0) { /* the uncertainty of the makespan (doc/wms.md) */
      dcsim_json_key_num(j, "band_rel", w->wms->band_rel);
      dcsim_json_key_num(j, "makespan_low_s",
                         (double)w->plan.makespan_ns * 1e-9 / (1 + w->wms->band_rel));
      dcsim_json_key_num(j, "makespan_high_s",
                         (double)w->plan.makespan_ns * 1e-9 * (1 + w->wms->band_rel));
      dcsim_json_key_str(j, "band_source", w->wms->band_source);
    }
    dcsim_json_key_int(j, "auxiliary_jobs", (long long)w->plan.wms_aux_jobs);
    dcsim_json_key_num(j, "staged_byte", w->plan.wms_staged_byte);
    dcsim_json_key_num(j, "negotiation_wait_s", w->plan.wms_idle_s);
    dcsim_json_obj_end(j);
  }
  dcsim_cost c;
  dcsim_cost_of_job(s, st, k, co, &c);
  dcsim_json_key(j, "cost_usd");
  c.known ? dcsim_json_num(j, c.usd) : dcsim_json_null(j);
  dcsim_json_obj_end(j);
}

/* Per node group: its CPU (and GPU and host CPU), energy, busy node-seconds, utilisation,
 * allocated fraction. */
static void json_groups(dcsim_json *j, const dcsim_scenario *s, const dcsim_run_stats *st) {
  dcsim_json_key(j, "groups");
  dcsim_json_arr_begin(j);
  double mk = (double)st->makespan_ns * 1e-9;
  for (size_t g = 0; g < st->n_groups; g++) {
    const dcsim_node_group *ng = s->groups[g].g;
    const dcsim_group_stats *gs = &st->groups[g];
    dcsim_json_obj_begin(j);
    dcsim_json_key_str(j, "name", ng->name);
    dcsim_json_key_int(j, "nodes", ng->count);
    /* issue 37: what the nodes are; a GPU node's CPU is its host */
    dcsim_json_key_str(j, "cpu", dcsim_cpu_profile_name(s->groups[g].cpu));
    if (s->groups[g].gpu) {
      dcsim_json_key_str(j, "gpu", dcsim_gpu_profile_name(s->groups[g].gpu));
      dcsim_json_key_str(j, "host_cpu", dcsim_cpu_profile_name(s->groups[g].cpu));
    }
    dcsim_json_key_num(j, "energy_j", gs->energy_j);
    dcsim_json_key_num(j, "busy_node_s", gs->busy_node_s);
    dcsim_json_key_num(j, "utilisation", mk > 0 ? gs->busy_node_s / (mk * ng->count) : 0);
    dcsim_json_key_num(j, "allocated", mk > 0 ? gs->alloc_node_s / (mk * ng->count) : 0);
    dcsim_json_key_num(j, "mean_node_power_w", mk > 0 ? gs->energy_j / (mk * ng->count) : 0);
    dcsim_json_obj_end(j);
  }
  dcsim_json_arr_end(j);
}

/* --deadline-s: met or missed, and by how many jobs (doc/engine.md). */
static void json_deadline(dcsim_json *j, const run_out *o) {
  dcsim_json_key(j, "deadline");
  dcsim_json_obj_begin(j);
  dcsim_json_key_num(j, "deadline_s", o->deadline_s);
  dcsim_json_key(j, "met");
  dcsim_json_bool(j, o->dl.missed == 0);
  dcsim_json_key_int(j, "jobs_missed", (long long)o->dl.missed);
  dcsim_json_key_num(j, "longest_run_s", o->dl.longest_s);
  dcsim_json_obj_end(j);
}

static void print_json(const run_out *o) {
  const dcsim_scenario *s = o->s;
  const dcsim_run_stats *st = o->st;
  dcsim_json j;
  dcsim_json_init(&j, stdout, 1);
  dcsim_json_obj_begin(&j);
  json_totals(&j, s, st, &o->ms, o->jp, o->tp, o->run_id);
  json_band(&j, "time_band", (double)st->makespan_ns * 1e-9, o->band_t);
  json_band(&j, "energy_band", st->energy_j, o->band_e);
  if (o->deadline_s > 0) json_deadline(&j, o);
  json_statistics(&j, st, &o->ms);
  if (s->trace) json_trace(&j, s->trace);
  dcsim_json_key(&j, "workflows");
  dcsim_json_arr_begin(&j);
  for (size_t k = 0; k < st->n_jobs; k++) json_job(&j, s, st, k, &o->cost);
  dcsim_json_arr_end(&j);
  json_groups(&j, s, st);
  json_cost(&j, o);
  json_task_types(&j, s);
  dcsim_repro_json(&j, &o->rp);
  dcsim_json_obj_end(&j);
  dcsim_json_end(&j);
}

/* ---- what was simulated (issue 26): cores in use per node kind, time and energy per task type */

typedef struct task_type {
  size_t wf, tmpl, opt;    /* the workflow, its template, the option the plan chose */
  double calls;            /* instances over every job (times each job's time scale for sums) */
  double time_s, energy_j; /* summed over the calls, each scaled by its job's time scale */
} task_type;

/* The task types of the run: per workflow, template and chosen option, how many calls and their
 * summed time and energy over every job (a trace job's times are scaled by its time scale), in
 * the order of their first task. Linear in jobs and tasks (issue 35: a search of the types found
 * so far made 10^5 independent WfCommons tasks take 8.5 s): the jobs are counted per workflow in
 * one pass, and each (template, option) of a workflow has its slot (a template has at most two
 * options). NULL when out of memory. */
static task_type *task_types(const dcsim_scenario *s, size_t *n_out) {
  size_t n = 0, cap = 0, slot_cap = 0;
  task_type *tt = NULL;
  size_t *slot = NULL; /* per template * 2 + option: 1 + its index in tt, 0 = none yet */
  double *jobs = calloc(2 * s->n_wfs + 1, sizeof *jobs); /* per workflow: jobs, summed scale */
  if (!jobs) goto fail;
  for (size_t k = 0; k < s->n_jobs; k++) {
    jobs[2 * s->jobs[k].wf] += 1;
    jobs[2 * s->jobs[k].wf + 1] += s->jobs[k].time_scale > 0 ? s->jobs[k].time_scale : 1;
  }
  for (size_t w = 0; w < s->n_wfs; w++) {
    const dcsim_wf_rt *wr = &s->wfs[w];
    double nj = jobs[2 * w], scale = jobs[2 * w + 1];
    if (!nj || !wr->plan.opt) continue;
    if (DCSIM_GROW(slot, slot_cap, 2 * wr->wf->n_templates)) goto fail;
    memset(slot, 0, 2 * wr->wf->n_templates * sizeof *slot);
    for (size_t i = 0; i < wr->wf->n_tasks; i++) {
      size_t tm = wr->wf->tasks[i].tmpl, op = wr->plan.opt[i], j;
      if (slot[2 * tm + op])
        j = slot[2 * tm + op] - 1;
      else {
        if (DCSIM_GROW(tt, cap, n + 1)) goto fail;
        tt[n] = (task_type){ w, tm, op, 0, 0, 0 };
        j = n++;
        slot[2 * tm + op] = n;
      }
      const dcsim_option *o = &wr->tmpls[tm].opts[op];
      tt[j].calls += nj;
      tt[j].time_s += (double)o->duration_ns * 1e-9 * scale;
      tt[j].energy_j += o->energy_j * scale;
    }
  }
  free(slot);
  free(jobs);
  *n_out = n;
  return tt;
fail:
  free(slot);
  free(jobs);
  free(tt);
  *n_out = 0;
  return NULL;
}

/* the cores a task uses on each node of its group (its template's, else the group's all) */
static unsigned task_cores(const dcsim_scenario *s, const task_type *t) {
  const dcsim_option *o = &s->wfs[t->wf].tmpls[t->tmpl].opts[t->opt];
  const dcsim_task_template *tp = &s->wfs[t->wf].wf->templates[t->tmpl];
  if (o->cores) return o->cores;
  return tp->cores_per_node ? tp->cores_per_node : s->groups[o->group].cores_per_node;
}

/* per node group: the most cores (GPUs) per node a task of the run uses, of those available */
static void text_simulated(const run_out *o) {
  const dcsim_scenario *s = o->s;
  size_t n = 0;
  task_type *tt = task_types(s, &n);
  printf("what ran    cores (GPUs) per node the tasks use, of those the node has:\n");
  for (size_t g = 0; g < s->n_groups; g++) {
    const dcsim_group_rt *gr = &s->groups[g];
    unsigned cores = 0, gpus = 0;
    for (size_t k = 0; k < n; k++) {
      const dcsim_option *op = &s->wfs[tt[k].wf].tmpls[tt[k].tmpl].opts[tt[k].opt];
      if (op->group != g) continue;
      if (op->gpus) {
        if (op->gpus > gpus) gpus = op->gpus;
      } else if (task_cores(s, &tt[k]) > cores)
        cores = task_cores(s, &tt[k]);
    }
    printf("  %-10s %u of %u cores", gr->g->name, cores, gr->cores_per_node);
    if (gr->gpu)
      printf(", %u of %u %s", gpus, gr->g->gpus_per_node,
             gr->g->gpus_per_node == 1 ? "GPU" : "GPUs");
    printf(" per node%s\n", cores || gpus ? "" : " (no task ran here)");
  }
  printf("\n%-20s %-6s %-10s %-13s %10s %14s %16s\n", "task type", "device", "group",
         "nodes x cores", "calls", "time/call [s]", "energy/call [J]");
  for (size_t k = 0; k < n; k++) {
    const task_type *t = &tt[k];
    const dcsim_option *op = &s->wfs[t->wf].tmpls[t->tmpl].opts[t->opt];
    const dcsim_task_template *tp = &s->wfs[t->wf].wf->templates[t->tmpl];
    char shape[32];
    if (op->gpus)
      snprintf(shape, sizeof shape, "1 x %u %s", op->gpus, op->gpus == 1 ? "GPU" : "GPUs");
    else
      snprintf(shape, sizeof shape, "%u x %u", op->nodes, task_cores(s, t));
    printf("%-20s %-6s %-10s %-13s %10s %14s %16s\n", tp->name, op->gpus ? "gpu" : "cpu",
           s->groups[op->group].g->name, shape, DCSIM_SIG(t->calls),
           DCSIM_SIG(t->time_s / t->calls), DCSIM_SIG(t->energy_j / t->calls));
    if (k == 49 && n > 50) {
      printf("... %zu more task types (see --format json)\n", n - 50);
      break;
    }
  }
  putchar('\n');
  free(tt);
}

/* The task types as JSON: "task_types": [{"workflow", "task", "device", "group", "nodes", "cores",
 * "gpus", "calls", "time_per_call_s", "energy_per_call_j"}]; "groups" gain cores_per_node and
 * cores_in_use (issue 26). */
static void json_task_types(dcsim_json *j, const dcsim_scenario *s) {
  size_t n = 0;
  task_type *tt = task_types(s, &n);
  dcsim_json_key(j, "task_types");
  dcsim_json_arr_begin(j);
  for (size_t k = 0; k < n; k++) {
    const task_type *t = &tt[k];
    const dcsim_option *op = &s->wfs[t->wf].tmpls[t->tmpl].opts[t->opt];
    dcsim_json_obj_begin(j);
    dcsim_json_key_str(j, "workflow", s->wfs[t->wf].wf->name);
    dcsim_json_key_str(j, "task", s->wfs[t->wf].wf->templates[t->tmpl].name);
    dcsim_json_key_str(j, "device", op->gpus ? "gpu" : "cpu");
    dcsim_json_key_str(j, "group", s->groups[op->group].g->name);
    dcsim_json_key_int(j, "nodes", op->nodes);
    dcsim_json_key_int(j, "cores", op->gpus ? 0 : task_cores(s, t));
    dcsim_json_key_int(j, "gpus", op->gpus);
    dcsim_json_key_num(j, "calls", t->calls);
    dcsim_json_key_num(j, "time_per_call_s", t->time_s / t->calls);
    dcsim_json_key_num(j, "energy_per_call_j", t->energy_j / t->calls);
    dcsim_json_obj_end(j);
  }
  dcsim_json_arr_end(j);
  free(tt);
}

/* The whole centre after the jobs (issue 26): the nodes the jobs held (the sum of the job rows),
 * the idle energy of the nodes no job held, and the total (the JSON's energy_to_solution_j): the
 * job rows and the idle row add up to the total row. kind: subtotal, idle, total. */
static void csv_totals(const run_out *o) {
  const dcsim_run_stats *st = o->st;
  double held = 0, mk = (double)st->makespan_ns * 1e-9;
  for (size_t k = 0; k < st->n_jobs; k++) held += st->jobs[k].energy_j;
  char note[200];
  dcsim_cost_reason(&o->held, note, sizeof note);
  printf("centre:allocated,,,0,%.10g,,,%.10g,,,,,,,,,,", mk, held);
  if (o->held.known) printf("%.10g", o->held.usd);
  printf(",%s,subtotal,,,,\n", note);
  printf("centre:idle-unallocated,,,0,%.10g,,,%.10g,,,,,,,,,,,,idle,,,,\n", mk,
         st->unallocated_idle_j);
  dcsim_cost_reason(&o->centre, note, sizeof note);
  printf("centre:total,,,0,%.10g,,,%.10g,,,,,,,,,,", mk, st->energy_j);
  if (o->centre.known) printf("%.10g", o->centre.usd);
  printf(",%s,total,%.10g,%.10g,%.10g,%.10g\n", note, mk * o->band_t[0], mk * o->band_t[1],
         st->energy_j * o->band_e[0], st->energy_j * o->band_e[1]);
}

/* --format csv: one line per workflow instance, the keys of the JSON "workflows" objects. */
static void print_csv(const run_out *o) {
  const dcsim_scenario *s = o->s;
  const dcsim_run_stats *st = o->st;
  dcsim_repro_csv(stdout, &o->rp);
  printf(
      "name,instance,submit_s,start_s,end_s,wait_s,time_to_solution_s,energy_to_solution_j,"
      "task_energy_j,held_idle_j,tasks,flow_s,slowdown,bounded_slowdown,boot_wait_s,"
      "trace_job,procs,cost_usd,cost_note,kind,time_band_low_s,time_band_high_s,energy_band_low_j,"
      "energy_band_high_j\n");
  for (size_t k = 0; k < st->n_jobs; k++) {
    const dcsim_job_stats *js = &st->jobs[k];
    const dcsim_job *jb = &s->jobs[k];
    dcsim_job_metrics m = dcsim_metrics_job(js);
    const char *name = s->wfs[jb->wf].wf->name;
    dcsim__csv_write_cell(stdout, name); /* RFC 4180 (util/csv.h) */
    putchar(',');
    printf("%u,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%.10g,%u,%.10g,", jb->instance,
           (double)js->submit_ns * 1e-9, (double)js->start_ns * 1e-9, (double)js->end_ns * 1e-9,
           (double)(js->start_ns - js->submit_ns) * 1e-9,
           (double)(js->end_ns - js->submit_ns) * 1e-9, js->energy_j, js->task_energy_j,
           dcsim_num_diff(js->energy_j, js->task_energy_j), js->tasks, m.flow_s);
    if (m.slowdown == m.slowdown) printf("%.10g", m.slowdown); /* NaN: empty */
    printf(",%.10g,%.10g,", m.bounded_slowdown, (double)(js->start_ns - js->alloc_ns) * 1e-9);
    if (jb->trace_job) printf("%u", jb->trace_job);
    putchar(',');
    if (jb->trace_procs) printf("%u", jb->trace_procs);
    dcsim_cost c;
    char note[200];
    dcsim_cost_of_job(s, st, k, &o->cost, &c);
    dcsim_cost_reason(&c, note, sizeof note);
    putchar(',');
    if (c.known) printf("%.10g", c.usd);
    printf(",%s,job", note); /* the note holds no comma or quote */
    double tts = (double)(js->end_ns - js->submit_ns) * 1e-9;
    printf(",%.10g,%.10g,%.10g,%.10g\n", tts * o->band_t[0], tts * o->band_t[1],
           js->energy_j * o->band_e[0], js->energy_j * o->band_e[1]);
  }
  csv_totals(o);
}

/* Input, platform and its groups, policy, counts, a WfCommons recording's makespan. */
static void text_header(const run_out *o) {
  const dcsim_scenario *s = o->s;
  const dcsim_run_stats *st = o->st;
  printf("input       %s\nplatform    %s (%u %s)\n", s->input_path, s->platform->name, st->n_nodes,
         dcsim_plural(st->n_nodes, "node", "nodes"));
  for (size_t g = 0; g < s->n_groups; g++) {
    const dcsim_group_rt *gr = &s->groups[g];
    printf("  %-10s %5u x %u-socket %s", gr->g->name, gr->g->count, gr->g->sockets,
           dcsim_cpu_profile_name(gr->cpu));
    if (gr->gpu) printf(" + %u x %s", gr->g->gpus_per_node, dcsim_gpu_profile_name(gr->gpu));
    printf(", idle %s/node\n", DCSIM_SI(gr->idle_w, "W"));
  }
  printf("policy      %s+%s\n", dcsim_sched_job_name(o->jp), dcsim_sched_task_name(o->tp));
  for (size_t i = 0; i < s->n_wfs; i++)
    if (s->wfs[i].wms) {
      const dcsim_wms_profile *p = s->wfs[i].wms;
      printf("wms         %s: profile %s (data %s), %zu auxiliary %s, %s staged\n",
             s->wfs[i].wf->name, p->name, dcsim_wms_data_name(p->p.data),
             s->wfs[i].plan.wms_aux_jobs, dcsim_plural(s->wfs[i].plan.wms_aux_jobs, "job", "jobs"),
             DCSIM_SI(s->wfs[i].plan.wms_staged_byte, "B"));
      if (p->band_rel > 0) { /* makespan / (1 + band) .. makespan x (1 + band): doc/wms.md */
        double mk = (double)s->wfs[i].plan.makespan_ns * 1e-9;
        printf(
            "wms band    %s: makespan %s to %s (a factor %.3g either way: the P90 error of the "
            "untouched test share for %s)\n",
            s->wfs[i].wf->name, DCSIM_SI(mk / (1 + p->band_rel), "s"),
            DCSIM_SI(mk * (1 + p->band_rel), "s"), 1 + p->band_rel, p->name);
      }
    }
  printf("simulated   %zu %s, %llu %s, %llu %s\n", st->n_jobs,
         dcsim_plural(st->n_jobs, "job", "jobs"), (unsigned long long)st->tasks,
         dcsim_plural(st->tasks, "task", "tasks"), (unsigned long long)st->events,
         dcsim_plural(st->events, "event", "events"));
  const dcsim_trace_info *tr = s->trace;
  if (tr && tr->kind == DCSIM_TRACE_WFCOMMONS && tr->recorded_makespan_s > 0) {
    double mk = (double)st->makespan_ns * 1e-9, rec = tr->recorded_makespan_s;
    printf("recorded    makespan %s s in the instance; simulated %s s (%+.1f %%)\n", DCSIM_SIG(rec),
           DCSIM_SIG(mk), 100 * (mk - rec) / rec);
  }
  putchar('\n');
}

/* cost of what the jobs held, and of the whole centre (issue 26) */
static void text_cost(const run_out *o) {
  char note[200];
  char cb[96];
  double band[2];
  /* the default tariff with its year and source (dcsim/cost.h), issue 40 */
  const char *tariff_src = o->kwh_default ? " (default: US industrial average of 2011, EIA)" : "";
  if (o->held.known) {
    run_cost_band(o, o->held.usd, band);
    printf(
        "cost                %s USD of what the jobs held (energy %s, hardware %s, at %s USD/kWh%s "
        "over %s years)",
        dcsim_fmt_band(cb, sizeof cb, o->held.usd, band, NULL), DCSIM_SIG(o->held.energy_usd),
        DCSIM_SIG(o->held.hardware_usd), DCSIM_SIG(o->cost.kwh_usd), tariff_src,
        DCSIM_SIG(o->cost.lifetime_years));
  } else {
    dcsim_cost_reason(&o->held, note, sizeof note);
    printf("cost                unknown: %s; the energy alone costs %s USD at %s USD/kWh%s", note,
           DCSIM_SIG(o->held.energy_usd), DCSIM_SIG(o->cost.kwh_usd), tariff_src);
  }
  if (o->centre.known) {
    run_cost_band(o, o->centre.usd, band);
    printf("; whole centre %s USD\n", dcsim_fmt_band(cb, sizeof cb, o->centre.usd, band, NULL));
  } else
    putchar('\n');
}

/* Model, time, energy, what it covers, utilisation, job statistics, power management, deadline. */
static void text_summary(const run_out *o) {
  const dcsim_scenario *s = o->s;
  const dcsim_run_stats *st = o->st;
  dcsim_prov tprov, eprov;
  dcsim_scenario_provenance(s, &tprov, &eprov);
  char tpb[600], epb[600];
  dcsim_prov_format(tprov, tpb, sizeof tpb);
  dcsim_prov_format(eprov, epb, sizeof epb);
  const char *unknown = dcsim_scenario_energy_unknown(s);
  printf("model               %s%s; task times %s, task energies %s\n",
         s->model_flags & DCSIM_MODEL_D35 ? "D3.5 as published (--d35)" : "default",
         s->model_flags & DCSIM_MODEL_HW_THREADS ? ", --threading ideal" : "", tpb,
         unknown ? "unknown" : epb);
  double mk = (double)st->makespan_ns * 1e-9, tb[2] = { mk * o->band_t[0], mk * o->band_t[1] },
         eb[2] = { st->energy_j * o->band_e[0], st->energy_j * o->band_e[1] };
  char tbs[160], ebs[160];
  printf("time-to-solution    %s s\n", dcsim_fmt_band(tbs, sizeof tbs, mk, tb, NULL));
  if (unknown && !isfinite(st->energy_j)) /* issue 38: the time alone */
    printf("energy-to-solution  unknown: %s\n", unknown);
  else
    printf("energy-to-solution  %s (%s kWh), of which %s idle on nodes no job held\n",
           dcsim_fmt_band(ebs, sizeof ebs, st->energy_j, eb, "J"),
           dcsim_fmt_sig((char[48]){ 0 }, 48, st->energy_j / 3.6e6,
                         dcsim_band_digits(st->energy_j, eb)),
           DCSIM_SI(st->unallocated_idle_j, "J"));
  printf("energy covers       %s\n", dcsim_scenario_energy_scope(s));
  text_cost(o);
  printf("utilisation         %.1f %% of node time running tasks\n", 100 * busy_fraction(st));
  if (st->n_jobs > 1)
    printf("jobs                wait mean %s s (max %s s), bounded slowdown mean %s (max %s)\n",
           DCSIM_SIG(o->ms.wait_s.mean), DCSIM_SIG(o->ms.wait_s.max),
           DCSIM_SIG(o->ms.bounded_slowdown.mean), DCSIM_SIG(o->ms.bounded_slowdown.max));
  if (st->boots || st->shutdowns)
    printf("power management    %llu %s, %llu %s\n", (unsigned long long)st->shutdowns,
           dcsim_plural(st->shutdowns, "shutdown", "shutdowns"), (unsigned long long)st->boots,
           dcsim_plural(st->boots, "boot", "boots"));
  if (o->deadline_s > 0 && !o->dl.missed)
    printf("deadline            %s s: met by every job (the longest ran %s s)\n",
           DCSIM_SIG(o->deadline_s), DCSIM_SIG(o->dl.longest_s));
  else if (o->deadline_s > 0)
    printf("deadline            %s s: MISSED by %zu of %zu %s (the longest ran %s s, %s #%u)\n",
           DCSIM_SIG(o->deadline_s), o->dl.missed, st->n_jobs,
           dcsim_plural(st->n_jobs, "job", "jobs"), DCSIM_SIG(o->dl.longest_s),
           s->wfs[s->jobs[o->dl.longest].wf].wf->name, s->jobs[o->dl.longest].instance);
  putchar('\n');
}

/* The first 50 workflow instances and the node groups, as tables. */
static void text_tables(const run_out *o) {
  const dcsim_scenario *s = o->s;
  const dcsim_run_stats *st = o->st;
  double mk = (double)st->makespan_ns * 1e-9;
  printf("%-20s %4s %10s %10s %12s %14s %14s %14s\n", "workflow", "inst", "submit [s]", "wait [s]",
         "TTS [s]", "energy [J]", "tasks [J]", "held idle [J]");
  size_t shown = st->n_jobs > 50 ? 50 : st->n_jobs;
  for (size_t k = 0; k < shown; k++) {
    const dcsim_job_stats *js = &st->jobs[k];
    printf("%-20s %4u %10s %10s %12s %14s %14s %14s\n", s->wfs[s->jobs[k].wf].wf->name,
           s->jobs[k].instance, DCSIM_SIG((double)js->submit_ns * 1e-9),
           DCSIM_SIG((double)(js->start_ns - js->submit_ns) * 1e-9),
           BANDED((double)(js->end_ns - js->submit_ns) * 1e-9, o->band_t),
           BANDED(js->energy_j, o->band_e), BANDED(js->task_energy_j, o->band_e),
           BANDED(dcsim_num_diff(js->energy_j, js->task_energy_j), o->band_e));
  }
  if (shown < st->n_jobs)
    printf("... %zu more (see --format json or csv, or the database)\n", st->n_jobs - shown);
  printf("\n%-12s %6s %14s %14s %12s %12s %14s\n", "node group", "nodes", "energy [J]",
         "busy [node-s]", "utilisation", "held", "mean [W/node]");
  for (size_t g = 0; g < st->n_groups; g++) {
    const dcsim_node_group *ng = s->groups[g].g;
    const dcsim_group_stats *gs = &st->groups[g];
    printf("%-12s %6u %14s %14s %11.1f%% %11.1f%% %14s\n", ng->name, ng->count,
           BANDED(gs->energy_j, o->band_e), DCSIM_SIG(gs->busy_node_s),
           mk > 0 ? 100 * gs->busy_node_s / (mk * ng->count) : 0,
           mk > 0 ? 100 * gs->alloc_node_s / (mk * ng->count) : 0,
           DCSIM_SIG(mk > 0 ? gs->energy_j / (mk * ng->count) : 0));
  }
  if (o->db) printf("\nresults     %s, run %lld\n", o->db, (long long)o->run_id);
}

static void print_text(const run_out *o) {
  text_header(o);
  text_summary(o);
  text_simulated(o);
  text_tables(o);
  dcsim_repro_text(stdout, &o->rp);
}

/* The pictures and the task trace: their formats, and that they can be written, before the run. */
typedef struct run_files {
  const char *gantt, *power, *tasks;
  dcsim_plot_format gantt_fmt, power_fmt;
} run_files;

static int check_outputs(const dcsim_args *a, run_files *rf, dcsim_error *err) {
  static const char *const opt[] = { "gantt", "power", "tasks-csv" };
  const char **path[] = { &rf->gantt, &rf->power, &rf->tasks };
  dcsim_plot_format *pf[] = { &rf->gantt_fmt, &rf->power_fmt, NULL };
  int rc;
  for (int k = 0; k < 3; k++) {
    char what[32];
    snprintf(what, sizeof what, "--%s", opt[k]);
    if (!(*path[k] = dcsim_arg(a, opt[k]))) continue;
    if ((pf[k] && (rc = dcsim_plot_format_of(*path[k], NULL, pf[k], err))) ||
        (rc = dcsim_path_check_writable(*path[k], what, err))) {
      if (err && strcmp(err->file, "command line") == 0)
        dcsim_error_at(err, NULL, dcsim_arg_index(a, opt[k]));
      return rc;
    }
  }
  char gnuplot[1024];
  if (rf->gantt || rf->power) return dcsim_plot_find_gnuplot(gnuplot, sizeof gnuplot, err);
  return 0;
}

/* The policy and what it does with --deadline-s: only the energy task policy plans with it; the
 * others are checked against it after the run (a note says so). */
static int run_policy(const dcsim_args *a, dcsim_job_policy *jp, dcsim_task_policy *tp,
                      dcsim_error *err) {
  int rc = dcsim_sched_parse_policy(dcsim_arg(a, "policy"), jp, tp, err);
  if (rc) {
    dcsim_error_at(err, NULL, dcsim_arg_index(a, "policy"));
    return rc;
  }
  if (dcsim_arg(a, "deadline-s") && *tp != DCSIM_TASK_ENERGY)
    fprintf(stderr,
            "dcsim: note: --deadline-s: the task policy %s does not plan with a deadline (energy "
            "does); the run is only checked against it\n",
            dcsim_sched_task_name(*tp));
  return 0;
}

/* ---- the size of a run, and its progress (doc/engine.md, "The size of a run") ---- */

/* --max-memory: bytes, or a number followed by K, M, G or T (powers of 1024). 0 ok, -1 bad. */
static int parse_size(const char *v, double *bytes) {
  static const char units[] = "KMGT";
  char buf[64];
  size_t n = strlen(v);
  double mult = 1;
  if (n == 0 || n >= sizeof buf) return -1;
  memcpy(buf, v, n + 1);
  const char *u = strchr(units, buf[n - 1]);
  if (u && *u) {
    for (const char *k = units; k <= u; k++) mult *= 1024;
    buf[n - 1] = '\0';
  }
  if (dcsim_parse_double(buf, bytes) || !(*bytes >= 1)) return -1;
  *bytes *= mult;
  return *bytes < 1.8e19 ? 0 : -1;
}

int dcsim_cli_budget(const dcsim_args *a, dcsim_budget *b, dcsim_error *err) {
  const char *t = dcsim_arg(a, "max-tasks"), *m = dcsim_arg(a, "max-memory");
  double v = 0;
  memset(b, 0, sizeof *b);
  b->max_work = DCSIM_BUDGET_DEFAULT_WORK;
  if (t && (dcsim_parse_double(t, &v) || !(v >= 1 && v < 1.8e19) || v != (double)(uint64_t)v))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "max-tasks"),
                     "--max-tasks '%s': expected a whole number >= 1", t);
  if (t) b->max_work = (uint64_t)v;
  if (m && parse_size(m, &v))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "max-memory"),
                     "--max-memory '%s': expected bytes, or a number and K, M, G or T", m);
  if (!m) {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    v = pages > 0 && page > 0 ? (double)pages * (double)page : 0;
    b->machine_bytes = (uint64_t)v;
    v /= 2;
  }
  b->max_bytes = (uint64_t)v; /* 0 (unknown machine): no limit */
  return 0;
}

int dcsim_cli_check_size(const dcsim_budget *b, const dcsim_run_size *sz, const char *input,
                         dcsim_error *err) {
  dcsim_run_limits lim = { b->max_work, b->max_bytes };
  int rc = dcsim_engine_check_size(sz, &lim, err);
  if (!rc) return 0;
  dcsim_error_at(err, input, 0);
  dcsim_budget_hint(b, !(lim.max_tasks && sz->tasks > lim.max_tasks), err);
  return rc;
}

/* Refuses, before anything is simulated or written, a run of more tasks or memory than allowed:
 * the message gives both numbers and the option that raises the limit crossed. */
static int check_run_size(const dcsim_budget *b, const dcsim_scenario *s,
                          const dcsim_engine_opts *eo, int pictures, dcsim_error *err) {
  dcsim_run_size sz;
  dcsim_engine_size(s, eo, &sz);
  if (pictures) sz.bytes += dcsim_plot_trace_bytes(sz.task_nodes);
  return dcsim_cli_check_size(b, &sz, s->input_path, err);
}

typedef struct run_progress {
  double start_s, last_s;
  int shown, ended;
} run_progress;

/* The progress line on stderr: from one second into the run, four times a second. */
static void on_progress(void *ctx, const dcsim_engine_progress *p) {
  run_progress *r = ctx;
  double t = dcsim__clock_s();
  r->ended = p->jobs_done == p->jobs;
  if (r->ended ? !r->shown : t - r->start_s < 1 || t - r->last_s < 0.25) return;
  r->last_s = t;
  r->shown = 1;
  fprintf(stderr, "\rsimulated %s s: %llu tasks, %zu of %zu jobs (%.0f%%) in %.0f s ",
          DCSIM_SIG((double)p->now_ns * 1e-9), (unsigned long long)p->tasks, p->jobs_done, p->jobs,
          p->jobs ? 100.0 * (double)p->jobs_done / (double)p->jobs : 100.0, t - r->start_s);
  if (r->ended) fputc('\n', stderr);
  fflush(stderr);
}

/* --wms and --wms-file (doc/wms.md): the model must be known, and the Pegasus model does not
 * combine with the legacy two-number model. */
static int wms_option(const dcsim_args *a, dcsim_scenario_opts *so, dcsim_error *err) {
  so->wms = dcsim_arg(a, "wms");
  so->wms_file = dcsim_arg(a, "wms-file");
  if (so->wms && strcmp(so->wms, "none") != 0 && strcmp(so->wms, "pegasus") != 0)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "wms"),
                     "--wms %s: expected none or pegasus", so->wms);
  if (so->wms && strcmp(so->wms, "pegasus") == 0 &&
      (so->wms_delay_s > 0 || so->wms_dispatch_s > 0 || so->io_bw_bps > 0))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "wms"),
                     "--wms pegasus models latencies and staging itself: drop --wms-delay-s, "
                     "--wms-dispatch-s and --io-bw-bps (the legacy model)");
  return 0;
}

/* The scenario options from the command line. */
static int run_options(const dcsim_args *a, dcsim_task_policy tp, dcsim_scenario_opts *so,
                       dcsim_engine_opts *eo, dcsim_error *err) {
  so->platform_path = dcsim_arg(a, "platform");
  so->task_policy = tp;
  so->model_flags = dcsim_arg_model_flags(a);
  int rc;
  if ((rc = dcsim_arg_threading(a, &so->model_flags, err))) return rc;
  so->swf_map = dcsim_arg(a, "swf-map");
  so->dvfs = dcsim_arg(a, "dvfs-slowdown") != NULL;
  eo->power_off = dcsim_arg(a, "power-off-after") != NULL;
  if ((rc = dcsim_arg_quantity(a, "deadline-s", "s", 0, &so->deadline_s, err)) ||
      (rc = dcsim_arg_double(a, "dvfs-slowdown", 0, &so->dvfs_slowdown, err)) ||
      (rc = dcsim_arg_quantity(a, "wms-delay-s", "s", 0, &so->wms_delay_s, err)) ||
      (rc = dcsim_arg_quantity(a, "wms-dispatch-s", "s", 0, &so->wms_dispatch_s, err)) ||
      (rc = dcsim_arg_quantity(a, "io-bw-bps", "B/s", 0, &so->io_bw_bps, err)) ||
      (rc = dcsim_arg_quantity(a, "power-off-after", "s", 0, &eo->power_off_after_s, err)) ||
      (rc = dcsim_arg_quantity(a, "bucket-s", "s", 0, &eo->bucket_s, err)) ||
      (rc = wms_option(a, so, err)))
    return rc;
  return 0;
}

/* What a run writes besides stdout: the database, the task trace, the recorder of the pictures;
 * each passes the engine's records on to the next. */
typedef struct run_sinks {
  dcsim_results_t *db;
  dcsim_taskcsv_t *tasks;
  dcsim_plot_trace_t *trace;
} run_sinks;

static int open_sinks(const dcsim_args *a, const run_files *rf, const run_out *o,
                      dcsim_engine_opts *eo, run_sinks *k, dcsim_error *err) {
  int rc;
  if (o->db) {
    dcsim_run_info info = { a->positional[0], dcsim_sched_job_name(o->jp),
                            dcsim_sched_task_name(o->tp), o->deadline_s };
    if ((rc = dcsim_results_open(o->db, &k->db, err)) ||
        (rc = dcsim_results_begin(k->db, o->s, &info, err)))
      return rc;
    eo->sink = dcsim_results_sink(k->db);
  }
  if (rf->tasks) {
    if ((rc = dcsim_taskcsv_open(rf->tasks, o->s, &o->rp, eo->sink, &k->tasks, err))) return rc;
    eo->sink = dcsim_taskcsv_sink(k->tasks);
  }
  if (rf->gantt || rf->power) { /* record the run for the pictures */
    if (!(k->trace = dcsim_plot_trace_new(o->s, eo->sink, err)))
      return err ? err->code : DCSIM_ENOMEM;
    eo->sink = dcsim_plot_trace_sink(k->trace);
  }
  return 0;
}

/* The engine over the scenario, with the progress line on a terminal; an interruption rolls
 * everything back and says so. */
static int simulate(run_out *o, const dcsim_engine_opts *eo, int progress, dcsim_cli_loading *ld,
                    dcsim_engine_t **e, dcsim_error *err) {
  /* from here on SIGINT/SIGTERM stop the engine and roll the run back instead of killing dcsim */
  const volatile sig_atomic_t *stop = dcsim_cli_catch_interrupts();
  if (!(*e = dcsim_engine_new(o->s, eo, err))) return err ? err->code : DCSIM_ENOMEM;
  dcsim_engine_set_interrupt(*e, stop);
  dcsim_cli_stage(ld, DCSIM_CLI_STAGE_SIMULATION);
  run_progress pr = { dcsim__clock_s(), 0, 0, 0 };
  if (progress) dcsim_engine_set_progress(*e, on_progress, &pr);
  int rc = dcsim_engine_run(*e, err);
  if (pr.shown && !pr.ended) fputc('\n', stderr); /* the error goes on a line of its own */
  if (rc == DCSIM_EINTR && err) { /* the run's one transaction is rolled back by the caller */
    char what[sizeof err->msg];
    snprintf(what, sizeof what, "%s", err->msg);
    DCSIM_ERR(err, DCSIM_EINTR, "", 0, "run stopped by %s (%s); %s%s", dcsim_cli_interrupted_by(),
              what, o->db ? "nothing was saved to " : "nothing was saved", o->db ? o->db : "");
  }
  return rc;
}

/* SIGINT/SIGTERM in the output stage (issue 35: it exited 0 with every output): DCSIM_EINTR
 * before the next output, saying what was written (`done`); every output is whole or absent (the
 * database's transaction, the task CSV's and the pictures' temporary files). */
static int output_stop(const run_out *o, const char *done, dcsim_error *err) {
  if (!*dcsim_cli_catch_interrupts()) return 0;
  return DCSIM_ERR(err, DCSIM_EINTR, o->s->input_path, 0,
                   "run stopped by %s while writing its outputs; %s", dcsim_cli_interrupted_by(),
                   done);
}

int dcsim_cmd_run(const dcsim_args *a, dcsim_error *err) {
  static const dcsim_format formats[] = { DCSIM_FMT_TEXT, DCSIM_FMT_JSON, DCSIM_FMT_CSV,
                                          DCSIM_FMT_END };
  dcsim_format fmt = DCSIM_FMT_TEXT;
  int rc;
  run_out o;
  memset(&o, 0, sizeof o);
  dcsim_repro_init(&o.rp, a->positional[0]);
  run_files rf;
  memset(&rf, 0, sizeof rf);
  run_sinks k = { NULL, NULL, NULL };
  dcsim_scenario *s = NULL;
  dcsim_engine_t *e = NULL;
  dcsim_scenario_opts so;
  dcsim_engine_opts eo;
  dcsim_budget budget;
  memset(&so, 0, sizeof so);
  memset(&eo, 0, sizeof eo);
  /* options, policy and outputs are checked before anything is read or simulated */
  dcsim_price_set prices[16];
  char price_names[16][64];
  if ((rc = dcsim_arg_format(a, formats, &fmt, err)) || (rc = check_outputs(a, &rf, err)) ||
      (rc = run_policy(a, &o.jp, &o.tp, err)) || (rc = run_options(a, o.tp, &so, &eo, err)) ||
      (rc = dcsim_cli_budget(a, &budget, err)))
    goto out;
  so.budget = &budget;
  o.kwh_default = !dcsim_arg(a, "kwh-price");
  if ((rc = dcsim_arg_cost(a, &o.cost, prices, price_names, err)) ||
      (rc = dcsim_cost_check(&o.cost, NULL, err))) {
    if (err && strcmp(err->file, "command line") == 0 && err->line == 0)
      dcsim_error_at(err, NULL, dcsim_arg_cost_index(a, err->msg));
    goto out;
  }
  eo.job_policy = o.jp;
  o.deadline_s = so.deadline_s;
  o.db = dcsim_arg(a, "db");
  /* every input is read and checked before the database is touched; SIGINT/SIGTERM while loading
   * (a big trace) stops it at its next step and ends the run with a message (issue 26) */
  dcsim_cli_loading ld;
  if ((rc = dcsim_cli_loading_init(&ld, err))) goto out;
  so.stop_loading = dcsim_cli_loading_stop;
  so.stop_loading_ctx = &ld;
  so.stop_planning = dcsim_cli_planning_stop;
  so.stop_planning_ctx = &ld;
  rc = dcsim_scenario_load(a->positional[0], &so, &s, err);
  if (rc == DCSIM_EINTR || (!rc && *ld.flag)) {
    rc = DCSIM_ERR(err, DCSIM_EINTR, a->positional[0], 0,
                   "run stopped by %s while loading its inputs; nothing was simulated or saved",
                   dcsim_cli_interrupted_by());
    goto out;
  }
  if (rc) goto out;
  o.s = s;
  if ((rc = dcsim_cost_check(&o.cost, s, err))) { /* the --price names, now the profiles are read */
    dcsim_error_at(err, NULL, dcsim_arg_cost_index(a, err->msg));
    goto out;
  }
  for (size_t i = 0; i < s->n_notes; i++) fprintf(stderr, "dcsim: note: %s\n", s->notes[i]);
  if ((rc = check_run_size(&budget, s, &eo, rf.gantt || rf.power, err)) ||
      (rc = dcsim_scenario_repro(s, &o.rp, err)) || (rc = open_sinks(a, &rf, &o, &eo, &k, err)) ||
      (rc = simulate(&o, &eo, isatty(2) && !dcsim_arg_flag(a, "quiet"), &ld, &e, err)))
    goto out;
  o.st = dcsim_engine_stats(e);
  o.dl = dcsim_metrics_deadline(o.st, o.deadline_s);
  if ((rc = dcsim_metrics_summarise(o.st, &o.ms, err)) || (rc = run_bands(&o, err))) goto out;
  dcsim_cost_of_run(s, o.st, &o.cost, DCSIM_COST_HELD, &o.held);
  dcsim_cost_of_run(s, o.st, &o.cost, DCSIM_COST_CENTRE, &o.centre);
  if ((rc = dcsim_cost_check_figures(s, o.st, &o.held, a->positional[0], err)) ||
      (rc = dcsim_cost_check_figures(s, o.st, &o.centre, a->positional[0], err)))
    goto out;
  dcsim_cli_stage(&ld, DCSIM_CLI_STAGE_OUTPUT);
  const char *saved =
      o.db ? "its run was saved to the database, nothing was printed" : "nothing was printed";
  if ((rc = output_stop(&o, "nothing was saved or printed", err)) ||
      (k.db && (rc = dcsim_results_finish(k.db, o.st, &o.run_id, err))) ||
      (k.tasks && (rc = output_stop(&o, saved, err))) ||
      (k.tasks && (rc = dcsim_taskcsv_finish(k.tasks, err))) ||
      (rc = output_stop(&o, k.tasks ? "its results were saved, nothing was printed" : saved, err)))
    goto out;
  if (fmt == DCSIM_FMT_JSON)
    print_json(&o);
  else if (fmt == DCSIM_FMT_CSV)
    print_csv(&o);
  else
    print_text(&o);
  char caption[512];
  dcsim_repro_caption(&o.rp, caption, sizeof caption);
  const volatile sig_atomic_t *stop = dcsim_cli_catch_interrupts(); /* answered while drawing */
  if ((rf.gantt || rf.power) &&
      (rc = output_stop(&o, "its results were saved and printed, no picture was drawn", err)))
    goto out;
  if (rf.gantt && (rc = dcsim_plot_gantt(k.trace, caption, rf.gantt, rf.gantt_fmt, stop, err)))
    goto out;
  if (rf.power && (rc = dcsim_plot_power(k.trace, caption, rf.power, rf.power_fmt, stop, err)))
    goto out;
  if (o.dl.missed) {
    fprintf(stderr, "dcsim: deadline %s s missed by %zu of %zu %s (the longest ran %s s)\n",
            DCSIM_SIG(o.deadline_s), o.dl.missed, o.st->n_jobs,
            dcsim_plural(o.st->n_jobs, "job", "jobs"), DCSIM_SIG(o.dl.longest_s));
    rc = DCSIM_CLI_DEADLINE_MISSED;
  }
out:
  dcsim_repro_release(&o.rp);
  dcsim_plot_trace_free(k.trace);
  dcsim_taskcsv_close(k.tasks);
  dcsim_results_close(k.db); /* rolls back unless finished */
  dcsim_engine_free(e);
  dcsim_scenario_free(s);
  return rc;
}
