/* run_report.c — a finished run written for people and programs: text, JSON, CSV, its bands. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/band_rule.h"
#include "dcsim/bands.h"
#include "dcsim/cost.h"
#include "dcsim/engine.h"
#include "dcsim/json.h"
#include "dcsim/metrics.h"
#include "dcsim/model.h"
#include "dcsim/numfmt.h"
#include "dcsim/run_report.h"
#include "dcsim/scenario.h"
#include "dcsim/sched.h"
#include "dcsim/strutil.h"
#include "dcsim/trace.h"
#include "dcsim/wmsconf.h"
#include "output/internal.h"
#include "output/results_records.h"
#include "output/run_totals.h"

/* the k-th job of the tables (--sort) */
#define JOB_AT(o, k) ((o)->order ? (o)->order[k] : (k))

static void json_task_types(dcsim_json *j, const dcsim_scenario *s);

/* A workflow run under a WMS whose makespan has its own band (doc/wms.md, out of sample on
 * WfCommons' untouched test share: makespan / (1 + b) to makespan x (1 + b)) widens the run's time
 * band to cover it, and the energy band by the same factors (an energy is a power times a time). */
static void wms_widen(dcsim_run_report *o) {
  const dcsim_scenario *s = o->s;
  for (size_t w = 0; w < s->n_wfs; w++) {
    const dcsim_wms_profile *p = s->wfs[w].wms;
    if (!p || !(p->band_rel > 0)) continue;
    double lo = 1 / (1 + p->band_rel), hi = 1 + p->band_rel;
    if (lo < o->band_t[0]) o->band_e[0] *= lo / o->band_t[0], o->band_t[0] = lo;
    if (hi > o->band_t[1]) o->band_e[1] *= hi / o->band_t[1], o->band_t[1] = hi;
  }
}

/* The bands of this run's times and energies as factors: the band rule (dcsim/band_rule.h) on
 * the run's basis (dcsim_scenario_band_basis), then a WMS's makespan band. */
int dcsim_run_report_bands(dcsim_run_report *o, dcsim_error *err) {
  dcsim_band_basis q;
  dcsim_scenario_band_basis(o->s, &q);
  int rc = dcsim_band_rule_default(&q, o->band_t, o->band_e, err);
  if (rc) return rc;
  wms_widen(o);
  return 0;
}

static void json_stat(dcsim_json *j, const char *key, const dcsim_stat *st) {
  dcsim_json_key(j, key);
  dcsim__record_json(&dcsim__stat_record, j, st);
}

/* The run's totals: input, platform, policy, time, energy, counts, utilisation (the totals
 * record, output/run_totals.h), the model mode and the provenance between them. */
static void json_totals(dcsim_json *j, const dcsim_run_report *o, const dcsim__totals_row *t) {
  const dcsim__record *rec = &dcsim__totals_record;
  size_t covers = dcsim__record_find(rec, "energy_covers"),
         unknown = dcsim__record_find(rec, "energy_unknown");
  dcsim__record_json_members(rec, j, t, 0, covers);
  dcsim__json_model_mode(j, o->s->model_flags);
  dcsim__record_json_members(rec, j, t, covers, unknown);
  dcsim_prov tprov, eprov;
  dcsim_scenario_provenance(o->s, &tprov, &eprov);
  dcsim_prov_json_member(j, tprov, t->energy_unknown ? NULL : &eprov);
  dcsim__record_json_members(rec, j, t, unknown, rec->n_fields); /* why the energy is null */
}

/* "cost": of what the jobs held and of the whole centre, the tariff, the lifetime (the cost
 * record, output/run_totals.h), the held cost's band after its value */
static void json_cost(dcsim_json *j, const dcsim__totals_row *t) {
  const dcsim__record *rec = &dcsim__totals_cost_record;
  size_t usd = dcsim__record_find(rec, "usd") + 1;
  dcsim_json_key(j, "cost");
  dcsim_json_obj_begin(j);
  dcsim__record_json_members(rec, j, t, 0, usd);
  if (t->known) { /* the cost's band from the time's and the energy's */
    dcsim_json_key(j, "usd_band");
    dcsim_json_arr_begin(j);
    dcsim_json_num(j, t->usd_band_low);
    dcsim_json_num(j, t->usd_band_high);
    dcsim_json_arr_end(j);
  }
  dcsim__record_json_members(rec, j, t, usd, rec->n_fields);
  dcsim_json_obj_end(j);
}

/* Job statistics (doc/workloads.md), power management, utilisation over time. */
static void json_statistics(dcsim_json *j, const dcsim_run_stats *st,
                            const dcsim_metrics_summary *ms, const dcsim__totals_row *t) {
  dcsim_json_key(j, "statistics"); /* doc/workloads.md */
  dcsim_json_obj_begin(j);
  json_stat(j, "wait_s", &ms->wait_s);
  json_stat(j, "flow_s", &ms->flow_s);
  json_stat(j, "slowdown", &ms->slowdown);
  json_stat(j, "bounded_slowdown", &ms->bounded_slowdown);
  dcsim_json_obj_end(j);
  dcsim_json_key(j, "power_management");
  dcsim__record_json(&dcsim__totals_power_record, j, t);
  dcsim_json_key(j, "utilisation_over_time");
  dcsim_json_obj_begin(j);
  dcsim_json_key_num(j, "bucket_s", st->bucket_s);
  const dcsim__record *rec = &dcsim__bucket_record; /* its busy and allocated fields */
  dcsim__bucket_row row;
  dcsim__record_json_columns(rec, j, dcsim__record_find(rec, "busy"), rec->n_fields, st->n_buckets,
                             dcsim__bucket_row_at, st, &row);
  dcsim_json_obj_end(j);
}

/* The replayed trace in the JSON's "trace" object (util/record.h): its kind and, for WfCommons,
 * the instance's recorded makespan (null: none); for SWF, what was kept and skipped and the
 * header's sizes (null: absent). */
typedef struct trace_row {
  const char *kind;
  double recorded_makespan_s; /* NaN (null): the instance records none */
  long long jobs_read, jobs_replayed, mapped_to_dwarfs, failed_replayed, skipped_cancelled,
      skipped_unknown, skipped_partial, skipped_unmatched, processors_per_node;
  long long max_nodes, max_procs, unix_start_time; /* negative (null): not in the header */
} trace_row;

/* clang-format off */
#define TRACE_FIELD(m, kind, unit, nulls) \
  DCSIM__RECORD_FIELD_OUT(trace_row, m, kind, unit, "", nulls, "0.1.0", DCSIM__RO_JSON, NULL, 0, PLAIN, NULL)
static const dcsim__record_field trace_wfcommons_fields[] = {
  TRACE_FIELD(kind, TEXT, "", NEVER),
  TRACE_FIELD(recorded_makespan_s, REAL, "s", UNDEF),
};
static const dcsim__record_field trace_swf_fields[] = {
  TRACE_FIELD(kind, TEXT, "", NEVER),
  TRACE_FIELD(jobs_read, INT64, "", NEVER),
  TRACE_FIELD(jobs_replayed, INT64, "", NEVER),
  TRACE_FIELD(mapped_to_dwarfs, INT64, "", NEVER),
  TRACE_FIELD(failed_replayed, INT64, "", NEVER),
  TRACE_FIELD(skipped_cancelled, INT64, "", NEVER),
  TRACE_FIELD(skipped_unknown, INT64, "", NEVER),
  TRACE_FIELD(skipped_partial, INT64, "", NEVER),
  TRACE_FIELD(skipped_unmatched, INT64, "", NEVER),
  TRACE_FIELD(processors_per_node, INT64, "", NEVER),
  TRACE_FIELD(max_nodes, INT64, "", NEG),
  TRACE_FIELD(max_procs, INT64, "", NEG),
  TRACE_FIELD(unix_start_time, INT64, "s", NEG),
};
/* clang-format on */
static const dcsim__record trace_wfcommons_record = {
  "", trace_wfcommons_fields, sizeof trace_wfcommons_fields / sizeof *trace_wfcommons_fields
};
static const dcsim__record trace_swf_record = {
  "", trace_swf_fields, sizeof trace_swf_fields / sizeof *trace_swf_fields
};

static void json_trace(dcsim_json *j, const dcsim_trace_info *tr) {
  const trace_row row = {
    tr->kind == DCSIM_TRACE_SWF ? "swf" : "wfcommons",
    tr->recorded_makespan_s >= 0 ? tr->recorded_makespan_s : NAN,
    (long long)tr->jobs_read,
    (long long)tr->jobs_kept,
    (long long)tr->mapped,
    (long long)tr->failed,
    (long long)tr->skipped_cancelled,
    (long long)tr->skipped_unknown,
    (long long)tr->skipped_partial,
    (long long)tr->skipped_unmatched,
    (long long)tr->procs_per_node,
    tr->max_nodes,
    tr->max_procs,
    tr->unix_start_time,
  };
  dcsim_json_key(j, "trace");
  int wfcommons = tr->kind == DCSIM_TRACE_WFCOMMONS;
  dcsim__record_json(wfcommons ? &trace_wfcommons_record : &trace_swf_record, j, &row);
}

/* One job (workflow instance) k: its record's fields (output/results_records.h), the WMS it ran
 * under before its cost. */
static void json_job(dcsim_json *j, const dcsim_run_report *o, size_t k) {
  const dcsim_scenario *s = o->s;
  const dcsim__record *rec = &dcsim__job_record;
  dcsim__job_row row;
  const dcsim__job_row_opts ro = { &o->cost, NULL, 0, NULL, NULL }; /* no note: not a key */
  dcsim__job_row_of(s, o->st, k, &ro, &row);
  size_t cost = dcsim__record_find(rec, "cost_usd");
  dcsim_json_obj_begin(j);
  dcsim__record_json_members(rec, j, &row, 0, cost);
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
  dcsim__record_json_members(rec, j, &row, cost, rec->n_fields);
  dcsim_json_obj_end(j);
}

/* The CPUs of the groups CPU tasks ran on whose per-core rates are borrowed, the reason the run's
 * time band is widened (doc/models.md "Per-core rates"): a line of text, or CSV comment lines. */
static void run_rates(const dcsim_run_report *o, FILE *f, int csv) {
  const dcsim_scenario *s = o->s;
  const dcsim_cpu_profile_t **c = calloc(s->n_groups ? s->n_groups : 1, sizeof *c);
  if (!c) {
    fprintf(f, "%sper-core rates: out of memory naming the CPUs\n",
            csv ? "# " : "rates               ");
    return;
  }
  for (size_t g = 0; g < s->n_groups; g++)
    if (dcsim_scenario_group_runs_cpu(s, g)) c[g] = s->groups[g].cpu;
  if (csv)
    dcsim__rates_csv(f, c, s->n_groups);
  else
    dcsim__rates_text(f, "rates               ", c, s->n_groups);
  free(c);
}

/* The groups whose CPU tasks run at a turbo clock not measured at their active cores, the other
 * reason a run's time band is wider (doc/models.md "Turbo"): a line each, or a CSV comment. */
static void run_turbo(const dcsim_run_report *o, FILE *f, int csv) {
  const dcsim_scenario *s = o->s;
  for (size_t g = 0; g < s->n_groups; g++) {
    if (!(dcsim_scenario_group_runs_cpu(s, g) & DCSIM_GROUP_TURBO_UNMEASURED)) continue;
    const dcsim_cpu_profile_t *cpu = s->groups[g].cpu;
    if (csv)
      fprintf(f, "# turbo_unmeasured %s %s\n", s->groups[g].g->name, dcsim_cpu_profile_name(cpu));
    else {
      dcsim_str on = DCSIM_STR_INIT;
      dcsim_str_addf(&on, "the cores a task of %s uses", s->groups[g].g->name);
      dcsim__turbo_text(f, "clock               ", cpu, 0, dcsim_str_cstr(&on), "the band reaches");
      fputs(" (doc/models.md \"Turbo\")\n", f);
      dcsim_str_release(&on);
    }
  }
}

/* Per node group: its record's fields (output/results_records.h: its CPU, and GPU and host CPU,
 * energy, busy node-seconds, utilisation, allocated fraction, mean power), the CPU's rates basis
 * before turbo_unmeasured. */
static void json_groups(dcsim_json *j, const dcsim_scenario *s, const dcsim_run_stats *st) {
  const dcsim__record *rec = &dcsim__group_record;
  size_t rates = dcsim__record_find(rec, "turbo_unmeasured");
  dcsim_json_key(j, "groups");
  dcsim_json_arr_begin(j);
  for (size_t g = 0; g < st->n_groups; g++) {
    dcsim__group_row row;
    dcsim__group_row_of(s, st, g, NULL, &row);
    dcsim_json_obj_begin(j);
    dcsim__record_json_members(rec, j, &row, 0, rates);
    dcsim__rates_json(j, s->groups[g].cpu);
    dcsim__record_json_members(rec, j, &row, rates, rec->n_fields);
    dcsim_json_obj_end(j);
  }
  dcsim_json_arr_end(j);
}

/* the band of value v as a JSON array [low, high] */
static void json_band(dcsim_json *j, const char *key, double low, double high) {
  dcsim_json_key(j, key);
  dcsim_json_arr_begin(j);
  dcsim_json_num(j, low);
  dcsim_json_num(j, high);
  dcsim_json_arr_end(j);
}

void dcsim_run_report_json(const dcsim_run_report *o) {
  const dcsim_scenario *s = o->s;
  const dcsim_run_stats *st = o->st;
  dcsim__totals_row t;
  dcsim__totals_row_of(o, &t); /* out of memory: an empty policy */
  dcsim_json j;
  dcsim_json_init(&j, stdout, 1);
  dcsim_json_obj_begin(&j);
  json_totals(&j, o, &t);
  json_band(&j, "time_band", t.time_band_low_s, t.time_band_high_s);
  json_band(&j, "energy_band", t.energy_band_low_j, t.energy_band_high_j);
  if (o->deadline_s > 0) { /* --deadline-s: met or missed, and by how many jobs (doc/engine.md) */
    dcsim_json_key(&j, "deadline");
    dcsim__record_json(&dcsim__totals_deadline_record, &j, &t);
  }
  json_statistics(&j, st, &o->ms, &t);
  if (s->trace) json_trace(&j, s->trace);
  dcsim_json_key(&j, "workflows");
  dcsim_json_arr_begin(&j);
  for (size_t k = 0; k < st->n_jobs; k++) json_job(&j, o, k);
  dcsim_json_arr_end(&j);
  json_groups(&j, s, st);
  json_cost(&j, &t);
  json_task_types(&j, s);
  dcsim_repro_json(&j, &o->rp);
  dcsim_json_obj_end(&j);
  dcsim_json_end(&j);
  dcsim__totals_row_release(&t);
}

/* ---- what was simulated: cores in use per node kind, time and energy per task type */

typedef struct task_type {
  size_t wf, tmpl, opt;    /* the workflow, its template, the option the plan chose */
  double calls;            /* instances over every job (times each job's time scale for sums) */
  double time_s, energy_j; /* summed over the calls, each scaled by its job's time scale */
} task_type;

/* The task types of the run: per workflow, template and chosen option, how many calls and their
 * summed time and energy over every job (a trace job's times are scaled by its time scale), in
 * the order of their first task. Linear in jobs and tasks (a search of the types found
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

/* A task type's record in the report (util/record.h): its JSON object of "task_types" and its
 * line of the text table. */
typedef struct task_type_row {
  const char *workflow, *task, *device, *group;
  long long nodes, cores, gpus; /* cores: 0 on a GPU */
  double calls, time_per_call_s, energy_per_call_j;
} task_type_row;

/* the text's shape: "nodes x cores", or "1 x N GPUs" on a GPU */
static const char *cell_shape(const void *row, char *buf, size_t size) {
  const task_type_row *r = row;
  if (r->gpus)
    snprintf(buf, size, "1 x %lld %s", r->gpus, r->gpus == 1 ? "GPU" : "GPUs");
  else
    snprintf(buf, size, "%lld x %lld", r->nodes, r->cores);
  return buf;
}

/* clang-format off */
#define TT_FIELD(m, kind, unit, out, hdr, w, fmt, cell) \
  DCSIM__RECORD_FIELD_OUT(task_type_row, m, kind, unit, "", NEVER, "0.1.0", out, hdr, w, fmt, cell)
#define TT_J DCSIM__RO_JSON
#define TT_T DCSIM__RO_TEXT
static const dcsim__record_field task_type_fields[] = {
  TT_FIELD(workflow,          TEXT,  "",  TT_J,        NULL,              0,   PLAIN, NULL),
  TT_FIELD(task,              TEXT,  "",  TT_J | TT_T, "task type",       -20, PLAIN, NULL),
  TT_FIELD(device,            TEXT,  "",  TT_J | TT_T, "device",          -6,  PLAIN, NULL),
  TT_FIELD(group,             TEXT,  "",  TT_J | TT_T, "group",           -10, PLAIN, NULL),
  TT_FIELD(nodes,             INT64, "",  TT_J,        NULL,              0,   PLAIN, NULL),
  TT_FIELD(cores,             INT64, "",  TT_J,        NULL,              0,   PLAIN, NULL),
  TT_FIELD(gpus,              INT64, "",  TT_J,        NULL,              0,   PLAIN, NULL),
  DCSIM__RECORD_DERIVED("shape", "0.1.0", "nodes x cores", -13, cell_shape),
  TT_FIELD(calls,             REAL,  "",  TT_J | TT_T, "calls",           10,  SIG, NULL),
  TT_FIELD(time_per_call_s,   REAL,  "s", TT_J | TT_T, "time/call [s]",   14,  SIG, NULL),
  TT_FIELD(energy_per_call_j, REAL,  "J", TT_J | TT_T, "energy/call [J]", 16,  SIG, NULL),
};
/* clang-format on */
#undef TT_J
#undef TT_T
static const dcsim__record task_type_record = {
  "", task_type_fields, sizeof task_type_fields / sizeof *task_type_fields
};

/* t's row */
static void task_type_row_of(const dcsim_scenario *s, const task_type *t, task_type_row *row) {
  const dcsim_option *op = &s->wfs[t->wf].tmpls[t->tmpl].opts[t->opt];
  *row = (task_type_row){ s->wfs[t->wf].wf->name,
                          s->wfs[t->wf].wf->templates[t->tmpl].name,
                          op->gpus ? "gpu" : "cpu",
                          s->groups[op->group].g->name,
                          op->nodes,
                          op->gpus ? 0 : task_cores(s, t),
                          op->gpus,
                          t->calls,
                          t->time_s / t->calls,
                          t->energy_j / t->calls };
}

/* per node group: the most cores (GPUs) per node a task of the run uses, of those available */
static void text_simulated(const dcsim_run_report *o) {
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
  putchar('\n');
  dcsim__record_text_header(&task_type_record, stdout);
  for (size_t k = 0; k < n; k++) {
    task_type_row row;
    task_type_row_of(s, &tt[k], &row);
    dcsim__record_text_row(&task_type_record, stdout, &row);
    if (k == 49 && n > 50) {
      printf("... %zu more task types (see --format json)\n", n - 50);
      break;
    }
  }
  putchar('\n');
  free(tt);
}

/* The task types as JSON: "task_types": [{"workflow", "task", "device", "group", "nodes", "cores",
 * "gpus", "calls", "time_per_call_s", "energy_per_call_j"}] (task_type_record's JSON fields). */
static void json_task_types(dcsim_json *j, const dcsim_scenario *s) {
  size_t n = 0;
  task_type *tt = task_types(s, &n);
  dcsim_json_key(j, "task_types");
  dcsim_json_arr_begin(j);
  for (size_t k = 0; k < n; k++) {
    task_type_row row;
    task_type_row_of(s, &tt[k], &row);
    dcsim__record_json(&task_type_record, j, &row);
  }
  dcsim_json_arr_end(j);
  free(tt);
}

/* --format csv: one line per workflow instance, the job record's CSV fields (its JSON keys, the
 * cost's note, the kind and the bands), then the centre's rows. */
void dcsim_run_report_csv(const dcsim_run_report *o) {
  const dcsim_run_stats *st = o->st;
  dcsim_repro_csv(stdout, &o->rp);
  run_rates(o, stdout, 1);
  run_turbo(o, stdout, 1);
  dcsim__record_csv_header(&dcsim__job_record, stdout);
  char note[200];
  const dcsim__job_row_opts ro = { &o->cost, note, sizeof note, o->band_t, o->band_e };
  for (size_t i = 0; i < st->n_jobs; i++) {
    dcsim__job_row row;
    dcsim__job_row_of(o->s, st, JOB_AT(o, i), &ro, &row);
    dcsim__record_csv_row(&dcsim__job_record, stdout, &row);
  }
  dcsim__totals_row t; /* the whole centre after the jobs (output/run_totals.h) */
  dcsim__totals_row_of(o, &t);
  dcsim__totals_csv_centre(&t, stdout);
  dcsim__totals_row_release(&t);
}

/* Input, platform and its groups, policy, counts, a WfCommons recording's makespan. */
static void text_header(const dcsim_run_report *o, const dcsim__totals_row *t) {
  const dcsim_scenario *s = o->s;
  printf("input       %s\nplatform    %s (%lld %s)\n", t->input, t->platform, t->db.nodes,
         dcsim_plural((unsigned long long)t->db.nodes, "node", "nodes"));
  for (size_t g = 0; g < s->n_groups; g++) {
    const dcsim_group_rt *gr = &s->groups[g];
    printf("  %-10s %5u x %u-socket %s", gr->g->name, gr->g->count, gr->g->sockets,
           dcsim_cpu_profile_name(gr->cpu));
    if (gr->gpu) printf(" + %u x %s", gr->g->gpus_per_node, dcsim_gpu_profile_name(gr->gpu));
    printf(", idle %s/node\n", DCSIM_SI(gr->idle_w, "W"));
  }
  printf("policy      %s\n", t->policy);
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
  const dcsim__run_totals *db = &t->db;
  printf("simulated   %lld %s, %lld %s, %lld %s\n", db->jobs,
         dcsim_plural((unsigned long long)db->jobs, "job", "jobs"), db->tasks,
         dcsim_plural((unsigned long long)db->tasks, "task", "tasks"), db->events,
         dcsim_plural((unsigned long long)db->events, "event", "events"));
  const dcsim_trace_info *tr = s->trace;
  if (tr && tr->kind == DCSIM_TRACE_WFCOMMONS && tr->recorded_makespan_s > 0) {
    double mk = db->time_to_solution_s, rec = tr->recorded_makespan_s;
    printf("recorded    makespan %s s in the instance; simulated %s s (%+.1f %%)\n", DCSIM_SIG(rec),
           DCSIM_SIG(mk), 100 * (mk - rec) / rec);
  }
  putchar('\n');
}

/* cost of what the jobs held, and of the whole centre */
static void text_cost(const dcsim_run_report *o, const dcsim__totals_row *t) {
  char cb[96];
  /* the default tariff with its year and source (dcsim/cost.h) */
  const char *tariff_src = o->kwh_default ? " (default: " DCSIM_COST_KWH_SOURCE ")" : "";
  if (t->known) {
    const double parts[] = { t->energy_usd, t->hardware_usd },
                 band[2] = { t->usd_band_low, t->usd_band_high };
    char pt[2][48]; /* the parts add up to the cost as printed (numfmt.h) */
    dcsim_fmt_band_sum(cb, sizeof cb, t->usd, band, NULL, parts, 2, pt[0], 48);
    printf(
        "cost                %s USD of what the jobs held (energy %s, hardware %s, at %s USD/kWh%s "
        "over %s years)",
        cb, pt[0], pt[1], DCSIM_SIG(t->kwh_usd), tariff_src, DCSIM_SIG(t->lifetime_years));
  } else
    printf("cost                unknown: %s; the energy alone costs %s USD at %s USD/kWh%s",
           t->held_note, DCSIM_SIG(t->energy_usd), DCSIM_SIG(t->kwh_usd), tariff_src);
  if (t->centre_known) {
    const double band[2] = { t->centre_usd_band_low, t->centre_usd_band_high };
    printf("; whole centre %s USD\n", dcsim_fmt_band(cb, sizeof cb, t->centre_usd, band, NULL));
  } else
    putchar('\n');
}

/* Model, time, energy, what it covers, utilisation, job statistics, power management, deadline:
 * prose around the totals (output/run_totals.h), by hand. */
static void text_summary(const dcsim_run_report *o, const dcsim__totals_row *t) {
  const dcsim_scenario *s = o->s;
  const dcsim__run_totals *db = &t->db;
  dcsim_prov tprov, eprov;
  dcsim_scenario_provenance(s, &tprov, &eprov);
  char tpb[600], epb[600];
  dcsim_prov_format(tprov, tpb, sizeof tpb);
  dcsim_prov_format(eprov, epb, sizeof epb);
  const char *unknown = t->energy_unknown;
  printf("model               %s%s; task times %s, task energies %s\n",
         s->model_flags & DCSIM_MODEL_D35 ? "D3.5 as published (--d35)" : "default",
         s->model_flags & DCSIM_MODEL_HW_THREADS ? ", --threading ideal" : "", tpb,
         unknown ? "unknown" : epb);
  double mk = db->time_to_solution_s, e = db->energy_to_solution_j,
         tb[2] = { t->time_band_low_s, t->time_band_high_s },
         eb[2] = { t->energy_band_low_j, t->energy_band_high_j };
  run_turbo(o, stdout, 0);
  run_rates(o, stdout, 0);
  char tbs[160], ebs[160], idle[2][64];
  printf("time-to-solution    %s s\n", dcsim_fmt_band(tbs, sizeof tbs, mk, tb, NULL));
  if (unknown && !isfinite(e)) /* the time alone */
    printf("energy-to-solution  unknown: %s\n", unknown);
  else /* held + idle on nodes no job held, the part at the total's place (numfmt.h) */
    printf("energy-to-solution  %s (%s kWh), of which %s idle on nodes no job held\n",
           dcsim_fmt_band_sum(ebs, sizeof ebs, e, eb, "J",
                              (const double[]){ dcsim_num_diff(e, db->unallocated_idle_j),
                                                db->unallocated_idle_j },
                              2, idle[0], sizeof idle[0]),
           dcsim_fmt_value((char[48]){ 0 }, 48, e / 3.6e6,
                           (const double[2]){ eb[0] / 3.6e6, eb[1] / 3.6e6 }, NULL),
           idle[1]);
  printf("energy covers       %s\n", t->energy_covers);
  text_cost(o, t);
  printf("utilisation         %.1f %% of node time running tasks\n", 100 * db->utilisation);
  if (db->jobs > 1)
    printf("jobs                wait mean %s s (max %s s), bounded slowdown mean %s (max %s)\n",
           DCSIM_SIG(db->mean_wait_s), DCSIM_SIG(db->max_wait_s),
           DCSIM_SIG(db->mean_bounded_slowdown), DCSIM_SIG(db->max_bounded_slowdown));
  if (db->boots || db->shutdowns)
    printf("power management    %lld %s, %lld %s\n", db->shutdowns,
           dcsim_plural((unsigned long long)db->shutdowns, "shutdown", "shutdowns"), db->boots,
           dcsim_plural((unsigned long long)db->boots, "boot", "boots"));
  if (t->deadline_s > 0 && t->met)
    printf("deadline            %s s: met by every job (the longest ran %s s)\n",
           DCSIM_SIG(t->deadline_s), DCSIM_SIG(t->longest_run_s));
  else if (t->deadline_s > 0)
    printf("deadline            %s s: MISSED by %lld of %lld %s (the longest ran %s s, %s #%u)\n",
           DCSIM_SIG(t->deadline_s), t->jobs_missed, db->jobs,
           dcsim_plural((unsigned long long)db->jobs, "job", "jobs"), DCSIM_SIG(t->longest_run_s),
           s->wfs[s->jobs[o->dl.longest].wf].wf->name, s->jobs[o->dl.longest].instance);
  putchar('\n');
}

/* The first 50 workflow instances and the node groups, as tables. */
static void text_tables(const dcsim_run_report *o) {
  const dcsim_scenario *s = o->s;
  const dcsim_run_stats *st = o->st;
  dcsim__record_text_header(&dcsim__job_record, stdout);
  size_t shown = st->n_jobs > 50 ? 50 : st->n_jobs;
  const dcsim__job_row_opts ro = { NULL, NULL, 0, o->band_t, o->band_e };
  for (size_t i = 0; i < shown; i++) {
    dcsim__job_row row;
    dcsim__job_row_of(s, st, JOB_AT(o, i), &ro, &row);
    dcsim__record_text_row(&dcsim__job_record, stdout, &row);
  }
  if (shown < st->n_jobs)
    printf("... %zu more (see --format json or csv, or the database)\n", st->n_jobs - shown);
  putchar('\n');
  dcsim__record_text_header(&dcsim__group_record, stdout);
  /* the groups' energies add up to the energy-to-solution as printed (numfmt.h) */
  double *ge = malloc(2 * (st->n_groups ? st->n_groups : 1) * sizeof *ge),
         *gr = ge ? ge + st->n_groups : NULL;
  int gp = 0;
  for (size_t g = 0; ge && g < st->n_groups; g++) ge[g] = st->groups[g].energy_j;
  const double eb[2] = { st->energy_j * o->band_e[0], st->energy_j * o->band_e[1] };
  if (ge)
    dcsim_round_sum(st->energy_j, dcsim_band_digits(st->energy_j, eb), ge, st->n_groups, gr, &gp);
  for (size_t g = 0; g < st->n_groups; g++) {
    dcsim__group_row row;
    dcsim__group_row_of(s, st, g, o->band_e, &row);
    if (ge) row.shown = 1, row.shown_j = gr[g], row.shown_place = gp;
    dcsim__record_text_row(&dcsim__group_record, stdout, &row);
  }
  free(ge);
  if (o->db) printf("\nresults     %s, run %lld\n", o->db, (long long)o->run_id);
}

void dcsim_run_report_text(const dcsim_run_report *o) {
  dcsim__totals_row t; /* the totals the header and the summary print (output/run_totals.h) */
  dcsim__totals_row_of(o, &t);
  text_header(o, &t);
  text_summary(o, &t);
  dcsim__totals_row_release(&t);
  text_simulated(o);
  text_tables(o);
  dcsim_repro_text(stdout, &o->rp);
}
