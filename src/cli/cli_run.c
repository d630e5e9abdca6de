/* cli_run.c — `dcsim run FILE`: simulate a workflow or a workload (doc/engine.md). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dcsim/cli.h"
#include "dcsim/cost.h"
#include "dcsim/engine.h"
#include "dcsim/metrics.h"
#include "dcsim/numfmt.h"
#include "dcsim/plot.h"
#include "dcsim/results.h"
#include "dcsim/run_report.h"
#include "dcsim/scenario.h"
#include "dcsim/sched.h"
#include "dcsim/strutil.h"
#include "dcsim/taskcsv.h"
#include "util/clock.h"

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
      if (err && !err->file[0]) dcsim_error_at(err, "command line", dcsim_arg_index(a, opt[k]));
      return rc;
    }
  }
  if (rf->gantt || rf->power) return dcsim_plot_find_gnuplot(NULL, err);
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

/* --sort KEY (dcsim/metrics.h): checked before the run (o->st NULL), the order after it */
static int run_sort(const dcsim_args *a, dcsim_run_report *o, dcsim_error *err) {
  const char *key = dcsim_arg(a, "sort");
  if (!key) return 0;
  if (o->st && !(o->order = malloc((o->st->n_jobs ? o->st->n_jobs : 1) * sizeof *o->order)))
    return DCSIM_ERR(err, DCSIM_ENOMEM, NULL, 0, "out of memory sorting the workflows");
  int rc = dcsim_run_job_order(o->s, o->st, &o->cost, key, o->order, err);
  if (rc) dcsim_error_at(err, NULL, dcsim_arg_index(a, "sort"));
  return rc;
}

/* What a run writes besides stdout: the database, the task trace, the recorder of the pictures;
 * each passes the engine's records on to the next. */
typedef struct run_sinks {
  dcsim_results_t *db;
  dcsim_taskcsv_t *tasks;
  dcsim_plot_trace_t *trace;
} run_sinks;

static int open_sinks(const dcsim_args *a, const run_files *rf, const dcsim_run_report *o,
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
static int simulate(dcsim_run_report *o, const dcsim_engine_opts *eo, int progress,
                    dcsim_cli_loading *ld, dcsim_engine_t **e, dcsim_error *err) {
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

/* SIGINT/SIGTERM in the output stage (it exited 0 with every output): DCSIM_EINTR
 * before the next output, saying what was written (`done`); every output is whole or absent (the
 * database's transaction, the task CSV's and the pictures' temporary files). */
static int output_stop(const dcsim_run_report *o, const char *done, dcsim_error *err) {
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
  dcsim_run_report o;
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
      (rc = dcsim_cli_budget(a, &budget, err)) || (rc = run_sort(a, &o, err)))
    goto out;
  so.budget = &budget;
  o.kwh_default = !dcsim_arg(a, "kwh-price");
  if ((rc = dcsim_arg_cost(a, &o.cost, prices, price_names, err)) ||
      (rc = dcsim_cost_check(&o.cost, NULL, err)))
    goto out;
  eo.job_policy = o.jp;
  o.deadline_s = so.deadline_s;
  o.db = dcsim_arg(a, "db");
  /* every input is read and checked before the database is touched; SIGINT/SIGTERM while loading
   * (a big trace) stops it at its next step and ends the run with a message */
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
  if ((rc = dcsim_cost_check(&o.cost, s, err)))
    goto out; /* the --price names, now profiles are read */
  for (size_t i = 0; i < s->n_notes; i++) fprintf(stderr, "dcsim: note: %s\n", s->notes[i]);
  if ((rc = check_run_size(&budget, s, &eo, rf.gantt || rf.power, err)) ||
      (rc = dcsim_scenario_repro(s, &o.rp, err)) || (rc = open_sinks(a, &rf, &o, &eo, &k, err)) ||
      (rc = simulate(&o, &eo, isatty(2) && !dcsim_arg_flag(a, "quiet"), &ld, &e, err)))
    goto out;
  o.st = dcsim_engine_stats(e);
  o.dl = dcsim_metrics_deadline(o.st, o.deadline_s);
  if ((rc = dcsim_metrics_summarise(o.st, &o.ms, err)) || (rc = dcsim_run_report_bands(&o, err)))
    goto out;
  dcsim_cost_of_run(s, o.st, &o.cost, DCSIM_COST_HELD, &o.held);
  dcsim_cost_of_run(s, o.st, &o.cost, DCSIM_COST_CENTRE, &o.centre);
  if ((rc = dcsim_cost_check_figures(s, o.st, &o.held, a->positional[0], err)) ||
      (rc = dcsim_cost_check_figures(s, o.st, &o.centre, a->positional[0], err)) ||
      (rc = run_sort(a, &o, err)))
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
    dcsim_run_report_json(&o);
  else if (fmt == DCSIM_FMT_CSV)
    dcsim_run_report_csv(&o);
  else
    dcsim_run_report_text(&o);
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
  free(o.order);
  dcsim_repro_release(&o.rp);
  dcsim_plot_trace_free(k.trace);
  dcsim_taskcsv_close(k.tasks);
  dcsim_results_close(k.db); /* rolls back unless finished */
  dcsim_engine_free(e);
  dcsim_scenario_free(s);
  return rc;
}
