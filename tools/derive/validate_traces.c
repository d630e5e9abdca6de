/* validate-traces — replays the recorded workloads of ../shared/data and compares the simulation
 * with the recordings (doc/validation-traces.md, generated from this output).
 *
 * usage: validate-traces DATA_DIR
 *   DATA_DIR holds wfinstances/ (WfCommons instances, .json) and swf/ (SWF traces, .swf or
 * .swf.gz).
 *
 * WfCommons: every instance is replayed on a platform equal to its recorded machines (tasks on
 * the machine they ran on, with their recorded runtimes), first as is ("replay", --wms none),
 * then with the legacy two-number model of doc/workloads.md: a latency O before every task and
 * at most one task start per D seconds. O comes from the one instance where it is directly
 * visible (a pure chain: O = (makespan - sum of runtimes) / tasks) and D from the one where
 * dispatch dominates (the widest, shortest level: bisection on D so that the simulated makespan
 * equals the recorded one); both are marked "calibration", the others are predictions. Then with
 * the workflow management system model of doc/wms.md (what `dcsim run` does by default) with the
 * values of workflows/wms/pegasus-htcondor.xml, fitted on the fit share of the WfCommons archive
 * (tools/wfarchive.py, fit-wms; the instances here are in that share).
 * SWF: every trace is replayed on the platform sized from its header with FCFS, EASY and SJF;
 * the recorded schedule (submit + wait) is the baseline.
 * Prints markdown on stdout; exits 77 (ctest: skipped) when DATA_DIR has no instance. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/engine.h"
#include "dcsim/lib.h"
#include "dcsim/metrics.h"
#include "dcsim/scenario.h"
#include "dcsim/swf.h"
#include "dcsim/trace.h"
#include "dcsim/wfcommons.h"
#include "toolutil.h"
#include "wmsfit.h"

static int die(const dcsim_error *e) { return tool_die("validate-traces", e, 2); }

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of dir whose name ends with one of the suffixes, sorted. */
static size_t list_dir(const char *dir, const char *const *suffixes, char ***out) {
  DIR *d = opendir(dir);
  size_t n = 0;
  *out = NULL;
  if (!d) return 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t l = strlen(e->d_name);
    int ok = 0;
    for (const char *const *s = suffixes; *s; s++) {
      size_t k = strlen(*s);
      if (l > k && strcmp(e->d_name + l - k, *s) == 0) ok = 1;
    }
    if (!ok) continue;
    char **nl = realloc(*out, (n + 1) * sizeof *nl);
    if (!nl) break;
    *out = nl;
    size_t sz = strlen(dir) + l + 2;
    if (!((*out)[n] = malloc(sz))) break;
    snprintf((*out)[n++], sz, "%s/%s", dir, e->d_name);
  }
  closedir(d);
  qsort(*out, n, sizeof **out, cmp_str);
  return n;
}

static void free_list(char **l, size_t n) {
  for (size_t i = 0; i < n; i++) free(l[i]);
  free(l);
}

/* Simulated makespan of one run of path (recorded platform unless platform given). */
static int simulate(const char *path, const dcsim_scenario_opts *so, dcsim_job_policy jp,
                    double *makespan_s, dcsim_metrics_summary *ms, dcsim_error *err) {
  dcsim_scenario *s = NULL;
  dcsim_engine_t *e = NULL;
  dcsim_engine_opts eo = { .job_policy = jp };
  int rc = dcsim_scenario_load(path, so, &s, err);
  if (!rc && !(e = dcsim_engine_new(s, &eo, err))) rc = err->code;
  if (!rc) rc = dcsim_engine_run(e, err);
  if (!rc) {
    const dcsim_run_stats *st = dcsim_engine_stats(e);
    *makespan_s = (double)st->makespan_ns * 1e-9;
    if (ms) rc = dcsim_metrics_summarise(st, ms, err);
  }
  dcsim_engine_free(e);
  dcsim_scenario_free(s);
  return rc;
}

static const char *base(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* A chain: every task has at most one parent and one child. */
static int is_chain(const dcsim_wfc *w) {
  size_t *kids = calloc(w->n_tasks, sizeof *kids);
  int chain = kids != NULL && w->n_tasks > 1;
  for (size_t i = 0; chain && i < w->n_tasks; i++) {
    if (w->tasks[i].n_parents > 1) chain = 0;
    for (size_t k = 0; k < w->tasks[i].n_parents; k++)
      if (++kids[w->tasks[i].parents[k]] > 1) chain = 0;
  }
  free(kids);
  return chain;
}

/* Fraction of the tasks in the widest level divided by their mean runtime: the instance whose
 * makespan is most dominated by dispatching many short tasks at once. */
static double dispatch_score(const dcsim_wfc *w) {
  size_t roots = 0;
  double run = 0;
  for (size_t i = 0; i < w->n_tasks; i++)
    if (!w->tasks[i].n_parents) {
      roots++;
      run += w->tasks[i].runtime_s;
    }
  return roots > 1 ? (double)roots / (run / (double)roots + 1) : 0;
}

/* The workflow management system model with the description's values (fitted on the archive's
 * fit share, doc/wms.md); each makespan is checked against `dcsim run`'s (the engine's). */
static int wms_model(const char *dir) {
  wmsfit f;
  dcsim_error err;
  int rc = wmsfit_load(dir, NULL, &f, &err);
  if (!rc) rc = wmsfit_predict(&f, &err);
  for (size_t i = 0; i < f.n && !rc; i++) {
    double mk = 0;
    dcsim_scenario_opts so = { .task_policy = 0 };
    if ((rc = simulate(f.inst[i].path, &so, DCSIM_JOB_FCFS, &mk, NULL, &err))) break;
    if (fabs(mk - f.inst[i].file_s) > 1e-6) {
      fprintf(stderr, "validate-traces: %s: dcsim run gives %.9g s, the plan %.9g s\n",
              f.inst[i].path, mk, f.inst[i].file_s);
      rc = 2;
    }
  }
  if (rc) {
    if (rc != 2) rc = die(&err);
    wmsfit_release(&f);
    return rc;
  }
  printf("\n### Workflow management system model (doc/wms.md)\n\n");
  wmsfit_print_instances(&f, 0);
  double *e = malloc((f.n + 1) * sizeof *e);
  size_t n = e ? wmsfit_abs_errors(&f, 0, NULL, e) : 0, within = 0;
  for (size_t i = 0; i < n; i++) within += e[i] <= 0.15;
  if (n)
    printf(
        "\nWith the shipped values: median |error| %.1f %%, worst %.1f %%; within 15 %%: %zu "
        "of %zu.\n",
        100 * wmsfit_quantile(e, n, 0.5), 100 * e[n - 1], within, n);
  free(e);
  wmsfit_release(&f);
  return 0;
}

static int wfcommons(const char *dir) {
  char **files = NULL;
  static const char *const sfx[] = { ".json", NULL };
  size_t n = list_dir(dir, sfx, &files);
  int rc = 0;
  dcsim_error err;
  dcsim_wfc **w = calloc(n ? n : 1, sizeof *w);
  if (!n || !w) {
    free(w);
    free_list(files, n);
    return 77;
  }
  long chain = -1, wide = -1;
  double best = 0;
  for (size_t i = 0; i < n && !rc; i++) {
    if ((rc = dcsim_wfc_load(files[i], &w[i], &err))) {
      rc = die(&err);
      break;
    }
    if (chain < 0 && is_chain(w[i]) && w[i]->makespan_s > 0) chain = (long)i;
    if (dispatch_score(w[i]) > best && w[i]->makespan_s > 0) {
      best = dispatch_score(w[i]);
      wide = (long)i;
    }
  }
  double O = 0, D = 0;
  if (!rc && chain >= 0) { /* O: the chain's recorded makespan minus its runtimes, per task */
    double sum = 0;
    for (size_t k = 0; k < w[chain]->n_tasks; k++) sum += w[chain]->tasks[k].runtime_s;
    O = fmax(0, (w[chain]->makespan_s - sum) / (double)w[chain]->n_tasks);
  }
  if (!rc && wide >= 0) { /* D: bisection, the simulated makespan grows with D */
    double lo = 0, hi = 120;
    for (int it = 0; it < 40 && !rc; it++) {
      double mid = 0.5 * (lo + hi), mk = 0;
      dcsim_scenario_opts so = { .wms_delay_s = O, .wms_dispatch_s = mid };
      if ((rc = simulate(files[wide], &so, DCSIM_JOB_FCFS, &mk, NULL, &err))) {
        rc = die(&err);
        break;
      }
      if (mk < w[wide]->makespan_s)
        lo = mid;
      else
        hi = mid;
    }
    D = 0.5 * (lo + hi);
  }
  if (!rc) {
    printf(
        "| instance | tasks | machines (cores) | recorded makespan [s] | sum of runtimes / "
        "makespan | replay [s] | error | "
        "legacy O, D model [s] | error | role |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|\n");
  }
  for (size_t i = 0; i < n && !rc; i++) {
    double replay = 0, model = 0, rec = w[i]->makespan_s;
    dcsim_scenario_opts so0 = { .wms = "none" }, so1 = { .wms_delay_s = O, .wms_dispatch_s = D };
    if ((rc = simulate(files[i], &so0, DCSIM_JOB_FCFS, &replay, NULL, &err)) ||
        (rc = simulate(files[i], &so1, DCSIM_JOB_FCFS, &model, NULL, &err))) {
      rc = die(&err);
      break;
    }
    char mach[256] = "";
    size_t pos = 0;
    for (size_t m = 0; m < w[i]->n_machines && pos < sizeof mach - 32; m++)
      pos += (size_t)snprintf(mach + pos, sizeof mach - pos, "%s%u", m ? " + " : "",
                              w[i]->machines[m].cores);
    double sum = 0;
    for (size_t k = 0; k < w[i]->n_tasks; k++) sum += w[i]->tasks[k].runtime_s;
    printf("| %s | %zu | %zu (%s) | %.0f | %.2f | %.1f | %+.1f %% | %.1f | %+.1f %% | %s |\n",
           base(files[i]), w[i]->n_tasks, w[i]->n_machines, mach, rec, sum / rec, replay,
           100 * (replay - rec) / rec, model, 100 * (model - rec) / rec,
           (long)i == chain  ? "calibration of O"
           : (long)i == wide ? "calibration of D"
                             : "prediction");
  }
  if (!rc)
    printf(
        "\nLegacy model parameters: O = %.2f s latency before every task (from %s), D = %.2f s "
        "between two task "
        "starts (from %s).\n",
        O, chain >= 0 ? base(files[chain]) : "no chain instance", D,
        wide >= 0 ? base(files[wide]) : "no wide instance");
  for (size_t i = 0; i < n; i++) dcsim_wfc_free(w[i]);
  free(w);
  free_list(files, n);
  return rc ? rc : wms_model(dir);
}

static int swf(const char *dir) {
  char **files = NULL;
  static const char *const sfx[] = { ".swf", ".swf.gz", NULL };
  size_t n = list_dir(dir, sfx, &files);
  int rc = 0;
  dcsim_error err;
  for (size_t i = 0; i < n && !rc; i++) {
    dcsim_swf *t = NULL;
    if ((rc = dcsim_swf_load(files[i], &t, &err))) {
      rc = die(&err);
      break;
    }
    /* the recorded schedule: start = submit + wait (the NASA log has no waits: submit = start) */
    size_t kept = 0;
    double first = 0, last = 0, proc_s = 0, wsum = 0, bsum = 0, wmax = 0, bmax = 0;
    for (size_t k = 0; k < t->n_jobs; k++) {
      const dcsim_swf_job *j = &t->jobs[k];
      long long p = j->procs > 0 ? j->procs : j->req_procs;
      if (j->run_s < 0 || p <= 0 || j->submit_s < 0 || (j->status >= 2 && j->status <= 4)) continue;
      double wait = j->wait_s > 0 ? j->wait_s : 0, flow = wait + j->run_s;
      double b = fmax(1, flow / fmax(j->run_s, DCSIM_BSLD_BOUND_S));
      if (!kept++ || j->submit_s < first) first = j->submit_s;
      if (j->submit_s + flow > last) last = j->submit_s + flow;
      proc_s += j->run_s * (double)p;
      wsum += wait;
      bsum += b;
      wmax = fmax(wmax, wait);
      bmax = fmax(bmax, b);
    }
    long long procs = t->max_procs > 0 ? t->max_procs : t->max_nodes;
    printf(
        "%s%s: %s, %zu jobs replayed of %zu, %lld processors on %lld nodes (platform from the "
        "header)\n\n",
        i ? "\n" : "", base(files[i]), t->computer ? t->computer : "SWF trace", kept, t->n_jobs,
        procs, t->max_nodes);
    printf(
        "| schedule | makespan [s] | utilisation | mean wait [s] | median wait [s] | p95 wait [s] "
        "| max wait [s] | "
        "mean bounded slowdown | max bounded slowdown |\n");
    printf("|---|---|---|---|---|---|---|---|---|\n");
    printf(
        "| recorded (start = submit + wait) | %.0f | %.1f %% | %.1f | - | - | %.0f | %.3f | %.1f "
        "|\n",
        last, procs > 0 ? 100 * proc_s / ((last - first) * (double)procs) : 0,
        kept ? wsum / (double)kept : 0, wmax, kept ? bsum / (double)kept : 0, bmax);
    static const dcsim_job_policy pol[] = { DCSIM_JOB_FCFS, DCSIM_JOB_EASY, DCSIM_JOB_SJF };
    for (size_t k = 0; k < 3 && !rc; k++) {
      double mk = 0;
      dcsim_metrics_summary ms;
      dcsim_scenario_opts so = { .task_policy = 0 };
      if ((rc = simulate(files[i], &so, pol[k], &mk, &ms, &err))) {
        rc = die(&err);
        break;
      }
      printf("| dcsim %s | %.0f | %.1f %% | %.1f | %.0f | %.0f | %.0f | %.3f | %.1f |\n",
             dcsim_sched_job_name(pol[k]), mk, 100 * ms.utilisation, ms.wait_s.mean,
             ms.wait_s.median, ms.wait_s.p95, ms.wait_s.max, ms.bounded_slowdown.mean,
             ms.bounded_slowdown.max);
    }
    dcsim_swf_free(t);
  }
  free_list(files, n);
  return n ? rc : 77;
}

int main(int argc, char **argv) {
  if (dcsim_lib_init() != 0) return 1;
  if (argc != 2) {
    fprintf(stderr, "usage: validate-traces DATA_DIR (holding wfinstances/ and swf/)\n");
    return 2;
  }
  char sub[4096];
  snprintf(sub, sizeof sub, "%s/wfinstances", argv[1]);
  printf("## WfCommons instances on their recorded machines\n\n");
  int rc = wfcommons(sub);
  if (rc == 77) {
    fprintf(stderr, "validate-traces: no instance in %s (skipped)\n", sub);
    return 77;
  }
  if (rc) return rc;
  snprintf(sub, sizeof sub, "%s/swf", argv[1]);
  printf("\n## SWF traces\n\n");
  rc = swf(sub);
  if (rc == 77) {
    fprintf(stderr, "validate-traces: no trace in %s (skipped)\n", sub);
    return 77;
  }
  if (fflush(stdout) || ferror(stdout)) return 2;
  return rc;
}
