/* cli_run.c — `dcsim run FILE`: simulate a workflow or a workload (doc/engine.md). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dcsim/cli.h"
#include "dcsim/engine.h"
#include "dcsim/json.h"
#include "dcsim/metrics.h"
#include "dcsim/model.h"
#include "dcsim/plot.h"
#include "dcsim/results.h"
#include "dcsim/scenario.h"
#include "dcsim/sched.h"
#include "dcsim/strutil.h"
#include "dcsim/trace.h"
#include "dcsim/wmsconf.h"

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
  dcsim_json_key_str(j, "energy_covers", dcsim_scenario_energy_scope(s));
  dcsim_prov tprov, eprov;
  dcsim_scenario_provenance(s, &tprov, &eprov);
  dcsim_prov_json_member(j, tprov, &eprov);
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
static void json_job(dcsim_json *j, const dcsim_scenario *s, const dcsim_run_stats *st, size_t k) {
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
  dcsim_json_key_num(j, "held_idle_j", js->energy_j - js->task_energy_j);
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
    dcsim_json_key_str(j, "data", dcsim_wms_data_name(w->wms->p.data));
    dcsim_json_key_int(j, "auxiliary_jobs", (long long)w->plan.wms_aux_jobs);
    dcsim_json_key_num(j, "staged_byte", w->plan.wms_staged_byte);
    dcsim_json_key_num(j, "negotiation_wait_s", w->plan.wms_idle_s);
    dcsim_json_obj_end(j);
  }
  dcsim_json_obj_end(j);
}

/* Per node group: energy, busy node-seconds, utilisation, allocated fraction. */
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
    dcsim_json_key_num(j, "energy_j", gs->energy_j);
    dcsim_json_key_num(j, "busy_node_s", gs->busy_node_s);
    dcsim_json_key_num(j, "utilisation", mk > 0 ? gs->busy_node_s / (mk * ng->count) : 0);
    dcsim_json_key_num(j, "allocated", mk > 0 ? gs->alloc_node_s / (mk * ng->count) : 0);
    dcsim_json_obj_end(j);
  }
  dcsim_json_arr_end(j);
}

static void print_json(const dcsim_scenario *s, const dcsim_run_stats *st,
                       const dcsim_metrics_summary *ms, dcsim_job_policy jp, dcsim_task_policy tp,
                       int64_t run_id) {
  dcsim_json j;
  dcsim_json_init(&j, stdout, 1);
  dcsim_json_obj_begin(&j);
  json_totals(&j, s, st, ms, jp, tp, run_id);
  json_statistics(&j, st, ms);
  if (s->trace) json_trace(&j, s->trace);
  dcsim_json_key(&j, "workflows");
  dcsim_json_arr_begin(&j);
  for (size_t k = 0; k < st->n_jobs; k++) json_job(&j, s, st, k);
  dcsim_json_arr_end(&j);
  json_groups(&j, s, st);
  dcsim_json_obj_end(&j);
  dcsim_json_end(&j);
}

static void print_text(const dcsim_scenario *s, const dcsim_run_stats *st,
                       const dcsim_metrics_summary *ms, dcsim_job_policy jp, dcsim_task_policy tp,
                       int64_t run_id, const char *db) {
  double mk = (double)st->makespan_ns * 1e-9;
  printf("input       %s\nplatform    %s (%u nodes)\n", s->input_path, s->platform->name,
         st->n_nodes);
  for (size_t g = 0; g < s->n_groups; g++) {
    const dcsim_group_rt *gr = &s->groups[g];
    printf("  %-10s %5u x %u-socket %s", gr->g->name, gr->g->count, gr->g->sockets,
           dcsim_cpu_profile_name(gr->cpu));
    if (gr->gpu) printf(" + %u x %s", gr->g->gpus_per_node, dcsim_gpu_profile_name(gr->gpu));
    printf(", idle %.4g W/node\n", gr->idle_w);
  }
  printf("policy      %s+%s\n", dcsim_sched_job_name(jp), dcsim_sched_task_name(tp));
  for (size_t i = 0; i < s->n_wfs; i++)
    if (s->wfs[i].wms)
      printf("wms         %s: profile %s (data %s), %zu auxiliary jobs, %.4g GB staged\n",
             s->wfs[i].wf->name, s->wfs[i].wms->name, dcsim_wms_data_name(s->wfs[i].wms->p.data),
             s->wfs[i].plan.wms_aux_jobs, s->wfs[i].plan.wms_staged_byte * 1e-9);
  printf("simulated   %zu job(s), %llu task(s), %llu events\n\n", st->n_jobs,
         (unsigned long long)st->tasks, (unsigned long long)st->events);
  dcsim_prov tprov, eprov;
  dcsim_scenario_provenance(s, &tprov, &eprov);
  char tpb[600], epb[600];
  dcsim_prov_format(tprov, tpb, sizeof tpb);
  dcsim_prov_format(eprov, epb, sizeof epb);
  printf("model               %s; task times %s, task energies %s\n",
         s->model_flags & DCSIM_MODEL_D35 ? "D3.5 as published (--d35)" : "default", tpb, epb);
  printf("time-to-solution    %.6g s\n", mk);
  printf("energy-to-solution  %.6g J (%.6g kWh), of which %.6g J idle on nodes no job held\n",
         st->energy_j, st->energy_j / 3.6e6, st->unallocated_idle_j);
  printf("energy covers       %s\n", dcsim_scenario_energy_scope(s));
  printf("utilisation         %.1f %% of node time running tasks\n", 100 * busy_fraction(st));
  if (st->n_jobs > 1)
    printf(
        "jobs                wait mean %.6g s (max %.6g s), bounded slowdown mean %.4g (max "
        "%.4g)\n",
        ms->wait_s.mean, ms->wait_s.max, ms->bounded_slowdown.mean, ms->bounded_slowdown.max);
  if (st->boots || st->shutdowns)
    printf("power management    %llu shutdowns, %llu boots\n", (unsigned long long)st->shutdowns,
           (unsigned long long)st->boots);
  printf("\n");
  printf("%-20s %4s %10s %10s %12s %14s %14s %14s\n", "workflow", "inst", "submit [s]", "wait [s]",
         "TTS [s]", "energy [J]", "tasks [J]", "held idle [J]");
  size_t shown = st->n_jobs > 50 ? 50 : st->n_jobs;
  for (size_t k = 0; k < shown; k++) {
    const dcsim_job_stats *js = &st->jobs[k];
    printf("%-20s %4u %10.6g %10.6g %12.6g %14.6g %14.6g %14.6g\n", s->wfs[s->jobs[k].wf].wf->name,
           s->jobs[k].instance, (double)js->submit_ns * 1e-9,
           (double)(js->start_ns - js->submit_ns) * 1e-9,
           (double)(js->end_ns - js->submit_ns) * 1e-9, js->energy_j, js->task_energy_j,
           js->energy_j - js->task_energy_j);
  }
  if (shown < st->n_jobs)
    printf("... %zu more (see --format json or the database)\n", st->n_jobs - shown);
  printf("\n%-12s %6s %14s %14s %12s %12s\n", "node group", "nodes", "energy [J]", "busy [node-s]",
         "utilisation", "held");
  for (size_t g = 0; g < st->n_groups; g++) {
    const dcsim_node_group *ng = s->groups[g].g;
    const dcsim_group_stats *gs = &st->groups[g];
    printf("%-12s %6u %14.6g %14.6g %11.1f%% %11.1f%%\n", ng->name, ng->count, gs->energy_j,
           gs->busy_node_s, mk > 0 ? 100 * gs->busy_node_s / (mk * ng->count) : 0,
           mk > 0 ? 100 * gs->alloc_node_s / (mk * ng->count) : 0);
  }
  if (db) printf("\nresults     %s, run %lld\n", db, (long long)run_id);
}

/* ---- the size of a run, and its progress (doc/engine.md, "The size of a run") ---- */

#define RUN_MAX_TASKS 1000000000ull /* default --max-tasks: minutes of simulation */

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

/* The limits of --max-tasks and --max-memory; without --max-memory half of the machine's memory
 * (*phys: the machine's memory in bytes, 0 when the limit was given). */
static int run_limits(const dcsim_args *a, dcsim_run_limits *lim, double *phys, dcsim_error *err) {
  const char *t = dcsim_arg(a, "max-tasks"), *m = dcsim_arg(a, "max-memory");
  double v = 0;
  *phys = 0;
  lim->max_tasks = RUN_MAX_TASKS;
  if (t && (dcsim_parse_double(t, &v) || !(v >= 1 && v < 1.8e19) || v != (double)(uint64_t)v))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "max-tasks"),
                     "--max-tasks '%s': expected a whole number >= 1", t);
  if (t) lim->max_tasks = (uint64_t)v;
  if (m && parse_size(m, &v))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "max-memory"),
                     "--max-memory '%s': expected bytes, or a number and K, M, G or T", m);
  if (!m) {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    v = *phys = pages > 0 && page > 0 ? (double)pages * (double)page : 0;
    v /= 2;
  }
  lim->max_bytes = (uint64_t)v; /* 0 (unknown machine): no limit */
  return 0;
}

/* Refuses, before anything is simulated or written, a run of more tasks or memory than allowed:
 * the message gives both numbers and the option that raises the limit crossed. */
static int check_run_size(const dcsim_args *a, const dcsim_scenario *s, const dcsim_engine_opts *eo,
                          int pictures, dcsim_error *err) {
  dcsim_run_limits lim;
  double phys = 0;
  int rc = run_limits(a, &lim, &phys, err);
  if (rc) return rc;
  dcsim_run_size sz;
  dcsim_engine_size(s, eo, &sz);
  if (pictures) sz.bytes += dcsim_plot_trace_bytes(sz.task_nodes);
  if (!(rc = dcsim_engine_check_size(&sz, &lim, err))) return 0;
  dcsim_error_at(err, s->input_path, 0);
  if (sz.tasks > lim.max_tasks)
    dcsim_error_suffix(err, " (--max-tasks N raises it)");
  else if (phys > 0)
    dcsim_error_suffix(err, " (half of this machine's %.3g GiB; --max-memory SIZE raises it)",
                       phys / 1073741824.0);
  else
    dcsim_error_suffix(err, " (--max-memory SIZE raises it)");
  return rc;
}

typedef struct run_progress {
  double start_s, last_s;
  int shown, ended;
} run_progress;

static double wall_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The progress line on stderr: from one second into the run, four times a second. */
static void on_progress(void *ctx, const dcsim_engine_progress *p) {
  run_progress *r = ctx;
  double t = wall_s();
  r->ended = p->jobs_done == p->jobs;
  if (r->ended ? !r->shown : t - r->start_s < 1 || t - r->last_s < 0.25) return;
  r->last_s = t;
  r->shown = 1;
  fprintf(stderr, "\rsimulated %.6g s: %llu tasks, %zu of %zu jobs (%.0f%%) in %.0f s ",
          (double)p->now_ns * 1e-9, (unsigned long long)p->tasks, p->jobs_done, p->jobs,
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

int dcsim_cmd_run(const dcsim_args *a, dcsim_error *err) {
  static const char *const formats[] = { "text", "json", NULL };
  int fmt = 0, rc;
  dcsim_job_policy jp;
  dcsim_task_policy tp;
  dcsim_scenario *s = NULL;
  dcsim_engine_t *e = NULL;
  dcsim_results_t *db = NULL;
  dcsim_plot_trace_t *trace = NULL;
  int64_t run_id = 0;
  if ((rc = dcsim_arg_format(a, formats, &fmt, err))) return rc;
  const char *gantt = dcsim_arg(a, "gantt"), *power = dcsim_arg(a, "power");
  dcsim_plot_format gantt_fmt = DCSIM_PLOT_PNG, power_fmt = DCSIM_PLOT_PNG;
  if (gantt && (rc = dcsim_plot_format_of(gantt, NULL, &gantt_fmt, err))) {
    dcsim_error_at(err, NULL, dcsim_arg_index(a, "gantt"));
    return rc;
  }
  if (power && (rc = dcsim_plot_format_of(power, NULL, &power_fmt, err))) {
    dcsim_error_at(err, NULL, dcsim_arg_index(a, "power"));
    return rc;
  }
  char gnuplot[1024];
  if ((gantt || power) && (rc = dcsim_plot_find_gnuplot(gnuplot, sizeof gnuplot, err)))
    return rc; /* before simulating */
  if ((rc = dcsim_sched_parse_policy(dcsim_arg(a, "policy"), &jp, &tp, err))) {
    dcsim_error_at(err, NULL, dcsim_arg_index(a, "policy"));
    return rc;
  }
  dcsim_scenario_opts so = { .platform_path = dcsim_arg(a, "platform"),
                             .task_policy = tp,
                             .model_flags = dcsim_arg_model_flags(a),
                             .swf_map = dcsim_arg(a, "swf-map") };
  dcsim_engine_opts eo = { .job_policy = jp, .power_off = dcsim_arg(a, "power-off-after") != NULL };
  so.dvfs = dcsim_arg(a, "dvfs-slowdown") != NULL;
  if ((rc = dcsim_arg_double(a, "deadline-s", 0, &so.deadline_s, err)) ||
      (rc = dcsim_arg_double(a, "dvfs-slowdown", 0, &so.dvfs_slowdown, err)) ||
      (rc = dcsim_arg_double(a, "wms-delay-s", 0, &so.wms_delay_s, err)) ||
      (rc = dcsim_arg_double(a, "wms-dispatch-s", 0, &so.wms_dispatch_s, err)) ||
      (rc = dcsim_arg_double(a, "io-bw-bps", 0, &so.io_bw_bps, err)) ||
      (rc = dcsim_arg_double(a, "power-off-after", 0, &eo.power_off_after_s, err)) ||
      (rc = dcsim_arg_double(a, "bucket-s", 0, &eo.bucket_s, err)) ||
      (rc = wms_option(a, &so, err)))
    return rc;
  /* every input is read and checked before the database is touched */
  if ((rc = dcsim_scenario_load(a->positional[0], &so, &s, err))) goto out;
  for (size_t i = 0; i < s->n_notes; i++) fprintf(stderr, "dcsim: note: %s\n", s->notes[i]);
  if ((rc = check_run_size(a, s, &eo, gantt || power, err))) goto out;
  /* from here on SIGINT/SIGTERM stop the engine and roll the run back instead of killing dcsim */
  const volatile sig_atomic_t *stop = dcsim_cli_catch_interrupts();
  const char *dbpath = dcsim_arg(a, "db");
  if (dbpath) {
    dcsim_run_info info = { a->positional[0], dcsim_sched_job_name(jp), dcsim_sched_task_name(tp) };
    if ((rc = dcsim_results_open(dbpath, &db, err)) ||
        (rc = dcsim_results_begin(db, s, &info, err)))
      goto out;
    eo.sink = dcsim_results_sink(db);
  }
  if (gantt || power) { /* record the run for the pictures, passing everything on to the database */
    if (!(trace = dcsim_plot_trace_new(s, eo.sink, err))) {
      rc = err ? err->code : DCSIM_ENOMEM;
      goto out;
    }
    eo.sink = dcsim_plot_trace_sink(trace);
  }
  if (!(e = dcsim_engine_new(s, &eo, err))) {
    rc = err ? err->code : DCSIM_ENOMEM;
    goto out;
  }
  dcsim_engine_set_interrupt(e, stop);
  run_progress pr = { wall_s(), 0, 0, 0 };
  if (isatty(2) && !dcsim_arg_flag(a, "quiet")) dcsim_engine_set_progress(e, on_progress, &pr);
  rc = dcsim_engine_run(e, err);
  if (pr.shown && !pr.ended) fputc('\n', stderr); /* the error goes on a line of its own */
  if (rc) {
    if (rc == DCSIM_EINTR && err) { /* the run's one transaction is rolled back below */
      char what[sizeof err->msg];
      snprintf(what, sizeof what, "%s", err->msg);
      DCSIM_ERR(err, DCSIM_EINTR, "", 0, "run stopped by %s (%s); %s%s", dcsim_cli_interrupted_by(),
                what, dbpath ? "nothing was saved to " : "nothing was saved", dbpath ? dbpath : "");
    }
    goto out;
  }
  const dcsim_run_stats *st = dcsim_engine_stats(e);
  dcsim_metrics_summary ms;
  if ((rc = dcsim_metrics_summarise(st, &ms, err))) goto out;
  if (db && (rc = dcsim_results_finish(db, st, &run_id, err))) goto out;
  if (fmt == 1)
    print_json(s, st, &ms, jp, tp, run_id);
  else
    print_text(s, st, &ms, jp, tp, run_id, dbpath);
  if (gantt && (rc = dcsim_plot_gantt(trace, gantt, gantt_fmt, err))) goto out;
  if (power && (rc = dcsim_plot_power(trace, power, power_fmt, err))) goto out;
out:
  dcsim_plot_trace_free(trace);
  dcsim_results_close(db); /* rolls back unless finished */
  dcsim_engine_free(e);
  dcsim_scenario_free(s);
  return rc;
}
