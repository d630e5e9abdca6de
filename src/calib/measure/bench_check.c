/* bench_check.c — `dcsim bench --check WORKFLOW`: the first CPU task of a shipped workflow, its
 * dwarf and case, predicted by `dcsim model` with the profile bench fitted, against a replay of
 * the dwarf's loops timed on this machine (doc/calibration.md "--check").
 *
 * The dwarf's own code (Fortran of the ESCAPE dwarfs) is not here, so each loop is replayed by the
 * bench loop kernel closest to it: copy when it does no flops, else the kernel of nearest flop per
 * byte among triad, dot and stencil7 (gather for an <irregular> loop), at the L2-sized working set
 * when the loop's largest bandwidth term (L1 V, L2 X, L3 Y, DRAM Z of §4.3 at this state) is L1 or
 * L2, else the DRAM-sized one. A stand-in is timed once and its time per byte scaled to the loop's
 * Q; the loop's replay time is the larger of that and W at the peak measured now (the model's
 * time of a loop is the larger of Q Tmop and W Tflop, dcsim/model_cpu.h). The replays are written
 * to DIR/check.csv; the comparison is made from that file, so `--from DIR` re-reports it.
 *
 * Then the real codes: when calibration/realcode/MACHINE/ holds the codes
 * measured on a machine whose machine.csv names the profile's CPU model (the clock suffix
 * " @ 2.50GHz" aside) and as many logical CPUs as the profile has cores (a VM's model string
 * alone names no host), their test rows are predicted with the bench profile (as
 * tools/derive/realcode.c does with the catalogue profile) and printed beside the measured times.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib/internal.h"
#include "calib/measure/bench_internal.h"
#include "dcsim/catalog.h"
#include "dcsim/dwarf.h"
#include "dcsim/model.h"
#include "dcsim/stats.h"
#include "dcsim/strutil.h"
#include "dcsim/workflow.h"
#include "util/csv.h"

/* the first CPU task of the workflow with a dwarf; its template */
static int first_cpu_task(const char *workflow, dcsim_workflow **wf, const dcsim_task_template **t,
                          dcsim_error *err) {
  int rc = dcsim_workflow_load(workflow, wf, err);
  if (rc) return rc;
  for (size_t i = 0; i < (*wf)->n_templates; i++)
    if ((*wf)->templates[i].dwarf && (*wf)->templates[i].device == DCSIM_DEV_CPU) {
      *t = &(*wf)->templates[i];
      return 0;
    }
  return DCSIM_ERR(err, DCSIM_EREF, workflow, 0,
                   "--check: the workflow has no CPU task with a dwarf");
}

/* the task's dwarf evaluated at its case and <set>s */
static int task_eval(const dcsim_task_template *t, const char *workflow, dcsim_dwarf_t **d,
                     dcsim_dwarf_eval **ev, dcsim_error *err) {
  char *path = NULL;
  int rc = dcsim_catalog_find(DCSIM_KIND_DWARF, t->dwarf, workflow, t->line, &path, err);
  if (!rc) rc = dcsim_dwarf_load(path, d, err);
  free(path);
  if (rc) return rc;
  dcsim_binding b[64];
  size_t nb = t->n_sets < 64 ? t->n_sets : 64;
  for (size_t i = 0; i < nb; i++) {
    b[i].name = t->sets[i].name;
    b[i].value = t->sets[i].value;
    b[i].file = workflow;
    b[i].line = t->line;
  }
  return dcsim_dwarf_evaluate(*d, t->case_name, b, nb, ev, err);
}

/* what both halves of --check load: the task, its dwarf evaluated, the bench profile */
typedef struct check_task {
  dcsim_workflow *wf;
  const dcsim_task_template *t;
  dcsim_dwarf_t *d;
  dcsim_dwarf_eval *ev;
  dcsim_cpu_profile_t *cpu;
} check_task;

static void check_task_release(check_task *c) {
  dcsim_cpu_profile_free(c->cpu);
  dcsim_dwarf_eval_free(c->ev);
  dcsim_dwarf_free(c->d);
  dcsim_workflow_free(c->wf);
}

static int check_task_init(check_task *c, const char *workflow, const char *profile_path,
                           dcsim_error *err) {
  memset(c, 0, sizeof *c);
  int rc;
  if ((rc = first_cpu_task(workflow, &c->wf, &c->t, err)) ||
      (rc = task_eval(c->t, workflow, &c->d, &c->ev, err)) ||
      (rc = dcsim_cpu_profile_load(profile_path, &c->cpu, err)))
    check_task_release(c);
  return rc;
}

/* ---- the replay (a live run) ---- */

enum { NSTAND = 2 * DCSIM_LOOP_COUNT };

/* the stand-in of loop l: kernel k at class ci (0: L2-sized, 1: DRAM-sized); -1: flops only */
static int stand_in(const dcsim_cpu_loop *l, const dcsim_cpu_rates *rt, int *ci) {
  if (l->irregular) {
    *ci = 1;
    return DCSIM_LOOP_GATHER;
  }
  if (!(l->traffic_byte > 0)) return -1;
  double terms[4] = { rt->l1_bps * l->V, rt->l2_bps * l->X, rt->l3_bps * l->Y,
                      rt->dram_bps * l->Z };
  int best = 0;
  for (int j = 1; j < 4; j++)
    if (terms[j] > terms[best]) best = j;
  *ci = best >= 2;
  if (!(l->work_flop > 0)) return DCSIM_LOOP_COPY;
  double want = l->work_flop / l->traffic_byte, gap = INFINITY;
  int k = DCSIM_LOOP_TRIAD;
  const int cand[3] = { DCSIM_LOOP_TRIAD, DCSIM_LOOP_DOT, DCSIM_LOOP_STENCIL7 };
  for (int j = 0; j < 3; j++) {
    const dcsim_bench_loop_info *li = dcsim_bench_loop((dcsim_bench_loop_kind)cand[j]);
    double g = fabs(log((li->flop_per_elem / li->byte_per_elem) / want));
    if (g < gap) {
      gap = g;
      k = cand[j];
    }
  }
  return k;
}

int dcsim__bench_check_replay(bench_run *R, const char *workflow, const char *profile_path,
                              dcsim_error *err) {
  check_task c;
  FILE *f = NULL;
  double s_per_byte[NSTAND] = { 0 }, disp_of[NSTAND] = { 0 };
  int rc = check_task_init(&c, workflow, profile_path, err);
  if (rc) return rc;
  unsigned n =
      c.t->cores_per_node && c.t->cores_per_node < R->cover_n ? c.t->cores_per_node : R->cover_n;
  dcsim_cpu_state st;
  dcsim_cpu_rates rt;
  if ((rc = dcsim_cpu_profile_freq(c.cpu, R->freq_id, &st, err))) goto out;
  st.threads = n;
  if ((rc = dcsim_cpu_profile_rates(c.cpu, &st, &rt, err))) goto out;
  const bench_point *peak = dcsim__bench_find(R, "peak", "", n);
  double peak_flops = peak ? peak->med * 1e9 : rt.flops;
  if (!(f = dcsim__bench_open_out(R, "check.csv", err))) {
    rc = err ? err->code : DCSIM_EIO;
    goto out;
  }
  fprintf(f,
          "# dcsim bench --check: the loops of dwarf %s (case %s, task %s of %s) replayed by bench "
          "kernels at %u thread(s);\n# replay_s = the stand-in's time per byte x traffic_byte, or "
          "work_flop at the measured peak if longer\n"
          "task,dwarf,case,loop,standin,threads,traffic_byte,work_flop,replay_s,disp\n",
          dcsim_dwarf_name(c.d), c.t->case_name ? c.t->case_name : "-", c.t->name, workflow, n);
  for (size_t i = 0; i < c.ev->n_loops && !rc; i++) {
    const dcsim_cpu_loop *l = &c.ev->loops[i];
    int ci = 0, k = stand_in(l, &rt, &ci);
    double mem_s = 0, disp = 0;
    char name[40] = "fma";
    if (!(l->traffic_byte > 0) && !(l->work_flop > 0)) snprintf(name, sizeof name, "-");
    if (k >= 0) {
      const dcsim_bench_loop_info *li = dcsim_bench_loop((dcsim_bench_loop_kind)k);
      snprintf(name, sizeof name, "%s.%s", li->name, ci ? "DRAM" : "L2");
      int slot = ci * DCSIM_LOOP_COUNT + k;
      if (s_per_byte[slot] == 0) { /* the loop phase's measurement, else one now */
        const bench_point *p = NULL;
        for (size_t j = 0; j < R->np && !p; j++)
          if (strcmp(R->pts[j].phase, "loop") == 0 && strcmp(R->pts[j].kernel, name) == 0 &&
              R->pts[j].threads == n)
            p = &R->pts[j];
        if (!p) {
          if ((rc = dcsim__bench_loop_point(R, ci, k, n, 0, "check", err))) break;
          p = &R->pts[R->np - 1];
        }
        s_per_byte[slot] = p->med / p->traffic_byte;
        disp_of[slot] = p->disp;
      }
      disp = disp_of[slot];
      mem_s = s_per_byte[slot] * l->traffic_byte;
    }
    double flop_s = l->work_flop > 0 ? l->work_flop / peak_flops : 0;
    const char *cells[] = { c.t->name, dcsim_dwarf_name(c.d), c.t->case_name ? c.t->case_name : "-",
                            l->name, name };
    for (size_t q = 0; q < sizeof cells / sizeof *cells; q++) { /* RFC 4180 (util/csv.h) */
      dcsim__csv_write_cell(f, cells[q]);
      fputc(',', f);
    }
    fprintf(f, "%u,%.6g,%.6g,%.6g,%.4f\n", n, l->traffic_byte, l->work_flop, fmax(mem_s, flop_s),
            disp);
  }
  rc = dcsim__bench_close_out(R, "check.csv", f, rc, err);
out:
  check_task_release(&c);
  return rc;
}

/* ---- the comparison (live or recorded) ---- */

int dcsim_bench_check(const char *dir, const char *workflow, const char *profile_path, FILE *out,
                      dcsim_error *err) {
  check_task c;
  dcsim_csv_t *csv = NULL;
  dcsim_prediction pr;
  memset(&pr, 0, sizeof pr);
  size_t cd, cl, cs, ct, cr;
  char *path = dcsim_path_in(dir, "check.csv");
  if (!path) return DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  int rc = check_task_init(&c, workflow, profile_path, err);
  if (rc) {
    free(path);
    return rc;
  }
  if ((rc = dcsim__csv_load(path, &csv, err)) || (rc = dcsim__csv_col(csv, "dwarf", &cd, err)) ||
      (rc = dcsim__csv_col(csv, "loop", &cl, err)) ||
      (rc = dcsim__csv_col(csv, "standin", &cs, err)) ||
      (rc = dcsim__csv_col(csv, "threads", &ct, err)) ||
      (rc = dcsim__csv_col(csv, "replay_s", &cr, err)))
    goto out;
  size_t rows = dcsim__csv_rows(csv);
  if (rows != c.ev->n_loops ||
      (rows && strcmp(dcsim__csv_cell(csv, 0, cd), dcsim_dwarf_name(c.d)))) {
    rc = DCSIM_ERR(err, DCSIM_EREF, path, 0,
                   "replays of %zu loop(s) of dwarf '%s', but %s's first CPU task runs %s (%zu "
                   "loops): run dcsim bench --check again",
                   rows, rows ? dcsim__csv_cell(csv, 0, cd) : "-", workflow, dcsim_dwarf_name(c.d),
                   c.ev->n_loops);
    goto out;
  }
  double th = 0;
  if (rows && (rc = dcsim__csv_num(csv, 0, ct, &th, err))) goto out;
  if (rows && (th < 1 || th > 1e6 || th != floor(th))) {
    rc = DCSIM_ERR(err, DCSIM_ERANGE, path, dcsim__csv_line(csv, 0),
                   "threads %s: a whole number 1 to 1000000", dcsim__csv_cell(csv, 0, ct));
    goto out;
  }
  dcsim_model_req rq;
  memset(&rq, 0, sizeof rq);
  rq.ev = c.ev;
  rq.cpu = c.cpu;
  rq.nodes = 1;
  if ((rc = dcsim_cpu_profile_freq_at(c.cpu, 0, &rq.state))) {
    rc = DCSIM_ERR(err, DCSIM_EREF, profile_path, 0, "profile has no frequency state");
    goto out;
  }
  rq.state.threads = th >= 1 ? (unsigned)th : 1;
  rq.energy_form = DCSIM_ENERGY_NONE;
  rq.flags = DCSIM_MODEL_HW_THREADS; /* the per-loop model: what the replay times */
  if ((rc = dcsim_model_run(&rq, &pr, err))) goto out;
  fprintf(out,
          "task %s of %s: dwarf %s, case %s, one node at %u thread(s), %s\n"
          "%-28s %-14s %12s %12s %9s\n",
          c.t->name, workflow, dcsim_dwarf_name(c.d), c.t->case_name ? c.t->case_name : "-",
          rq.state.threads, dcsim_cpu_profile_name(c.cpu), "loop", "replayed by", "predicted s",
          "replay s", "error");
  double tp = 0, tr = 0, emax = 0;
  for (size_t i = 0; i < rows; i++) {
    double r;
    if ((rc = dcsim__csv_num(csv, i, cr, &r, err))) goto out;
    if (r != 0 &&
        !(r >= DCSIM_CALIB_TIME_MIN_S && r <= DCSIM_CALIB_TIME_MAX_S)) { /* a plausible time */
      rc = DCSIM_ERR(err, DCSIM_ERANGE, path, dcsim__csv_line(csv, i),
                     "replay_s %s: 0 (a loop not run) or a time of %g to %g s",
                     dcsim__csv_cell(csv, i, cr), DCSIM_CALIB_TIME_MIN_S, DCSIM_CALIB_TIME_MAX_S);
      goto out;
    }
    double p = pr.cpu->parts[i].time_s;
    tp += p;
    tr += r;
    if (!(r > 0) && !(p > 0)) { /* a loop this case does not run (no bytes, no flops) */
      fprintf(out, "%-28s %-14s %12s %12s %9s\n", dcsim__csv_cell(csv, i, cl), "-", "0", "0", "-");
      continue;
    }
    double e = r > 0 ? (p - r) / r : INFINITY;
    if (fabs(e) > emax) emax = fabs(e);
    fprintf(out, "%-28s %-14s %12.4g %12.4g %8.1f%%\n", dcsim__csv_cell(csv, i, cl),
            dcsim__csv_cell(csv, i, cs), p, r, 100 * e);
  }
  fprintf(out,
          "%-28s %-14s %12.4g %12.4g %8.1f%%\n"
          "check     the profile predicts this dwarf's loops %s than their replay here by %.0f %% "
          "(worst loop %.0f %%);\n"
          "          the replay runs bench kernels of the same bytes and flops, not the dwarf's "
          "code (doc/calibration.md)\n",
          "total", "", tp, tr, tr > 0 ? 100 * (tp - tr) / tr : NAN, tp >= tr ? "slower" : "faster",
          tr > 0 ? 100 * fabs(tp - tr) / tr : NAN, 100 * emax);
  rc = dcsim__bench_check_realcode(profile_path, out, err);
out:
  dcsim_prediction_release(&pr);
  dcsim__csv_free(csv);
  check_task_release(&c);
  free(path);
  return rc;
}

/* ---- the real codes measured on this machine ---- */

static size_t model_len(const char *m) {
  const char *at = strstr(m, " @ ");
  return at ? (size_t)(at - m) : strlen(m);
}

/* 1 when DIR/machine.csv (key,value) describes the profile's CPU, 0 when not or unreadable */
static int same_machine(const char *dir, const dcsim_cpu_profile_t *cpu) {
  dcsim_csv_t *t = NULL;
  dcsim_error e;
  size_t ck, cv;
  int model = 0, cpus = 0;
  char *path = dcsim_path_in(dir, "machine.csv");
  int unread = !path || dcsim__csv_load(path, &t, &e);
  free(path);
  if (unread) return 0;
  if (!dcsim__csv_col(t, "key", &ck, &e) && !dcsim__csv_col(t, "value", &cv, &e))
    for (size_t r = 0; r < dcsim__csv_rows(t); r++) {
      const char *k = dcsim__csv_cell(t, r, ck), *v = dcsim__csv_cell(t, r, cv);
      const char *pm = dcsim_cpu_profile_model(cpu);
      if (!strcmp(k, "cpu_model"))
        model = model_len(v) == model_len(pm) && !strncmp(v, pm, model_len(v));
      if (!strcmp(k, "logical_cpus"))
        cpus = strtoul(v, NULL, 10) ==
               dcsim_cpu_profile_cores_per_socket(cpu) * dcsim_cpu_profile_sockets(cpu);
    }
  dcsim__csv_free(t);
  return model && cpus;
}

/* one row predicted with the profile: the dwarf of the row at its parameters, the default model */
static int realcode_row(const dcsim_csv_t *t, size_t r, const char *path, const char *dwarf,
                        const dcsim_cpu_profile_t *cpu, unsigned threads, double *time_s,
                        dcsim_error *err) {
  char *dpath = NULL;
  dcsim_dwarf_t *d = NULL;
  dcsim_dwarf_eval *ev = NULL;
  dcsim_prediction p;
  dcsim_binding b[16];
  size_t nb;
  memset(&p, 0, sizeof p);
  int rc = dcsim_catalog_find(DCSIM_KIND_DWARF, dwarf, path, dcsim__csv_line(t, r), &dpath, err);
  if (rc || (rc = dcsim_dwarf_load(dpath, &d, err)) ||
      (rc = dcsim__realcode_bindings(d, t, r, path, b, 16, &nb, err)) ||
      (rc = dcsim_dwarf_evaluate(d, NULL, b, nb, &ev, err)))
    goto out;
  dcsim_model_req rq;
  memset(&rq, 0, sizeof rq);
  rq.ev = ev;
  rq.cpu = cpu;
  rq.nodes = 1;
  dcsim_cpu_profile_freq_at(cpu, 0, &rq.state);
  rq.state.threads = threads;
  rq.energy_form = DCSIM_ENERGY_NONE;
  if ((rc = dcsim_model_run(&rq, &p, err))) goto out;
  *time_s = p.time_s;
out:
  dcsim_prediction_release(&p);
  dcsim_dwarf_eval_free(ev);
  dcsim_dwarf_free(d);
  free(dpath);
  return rc;
}

enum { RC_CODES_MAX = 8, RC_ROWS_MAX = 1024 };

/* the test rows of DIR/measurements.csv predicted and printed, then the median |error| per dwarf */
static int realcode_compare(const char *dir, const char *machine, const char *fitted_on,
                            const dcsim_cpu_profile_t *cpu, FILE *out, dcsim_error *err) {
  char *path = NULL;
  dcsim_csv_t *t = NULL;
  size_t cc, ccase, cth, ccpu, crole, cvar;
  const char *codes[RC_CODES_MAX];
  double(*e)[RC_ROWS_MAX] = calloc(RC_CODES_MAX, sizeof *e); /* no static: no shared state */
  size_t ne[RC_CODES_MAX] = { 0 }, nc = 0;
  int rc;
  if (!e) return DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  if (!(path = dcsim_path_in(dir, "measurements.csv"))) {
    free(e);
    return DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  }
  if ((rc = dcsim__csv_load(path, &t, err)) || (rc = dcsim__csv_col(t, "code", &cc, err)) ||
      (rc = dcsim__csv_col(t, "case", &ccase, err)) ||
      (rc = dcsim__csv_col(t, "threads", &cth, err)) ||
      (rc = dcsim__csv_col(t, "cpu_s_min", &ccpu, err)) ||
      (rc = dcsim__csv_col(t, "role", &crole, err)) ||
      (rc = dcsim__csv_col(t, "variant", &cvar, err)))
    goto out;
  fprintf(out,
          "\nreal codes measured on this machine (%s: CPU model and count match), test rows, "
          "predicted with this profile:\n%-15s %-24s %7s %12s %12s %9s\n",
          machine, "dwarf", "case", "threads", "measured s", "predicted s", "error");
  for (size_t r = 0; r < dcsim__csv_rows(t); r++) {
    const char *variant = dcsim__csv_cell(t, r, cvar);
    if (strcmp(dcsim__csv_cell(t, r, crole), "test") || dcsim__realcode_gpu_variant(variant))
      continue;
    const char *dwarf = dcsim__realcode_dwarf(dcsim__csv_cell(t, r, cc), variant);
    double th, cpu_s, pred_s = 0;
    if ((rc = dcsim__csv_num(t, r, cth, &th, err)) ||
        (rc = dcsim__csv_num(t, r, ccpu, &cpu_s, err)))
      goto out;
    if (!(th >= 1 && th <= 4096 && th == floor(th)) || !(cpu_s > 0)) {
      rc = DCSIM_ERR(err, DCSIM_ERANGE, path, dcsim__csv_line(t, r),
                     "threads %g and cpu_s_min %g: a positive thread count and time", th, cpu_s);
      goto out;
    }
    if ((rc = realcode_row(t, r, path, dwarf, cpu, (unsigned)th, &pred_s, err))) goto out;
    double meas_s = cpu_s / th; /* doc/validation-realcode.md: cpu_s_min / threads */
    size_t k = 0;
    while (k < nc && strcmp(codes[k], dwarf)) k++;
    if (k == nc && nc < RC_CODES_MAX) codes[nc++] = dwarf;
    if (k < nc && ne[k] < RC_ROWS_MAX) e[k][ne[k]++] = fabs(pred_s / meas_s - 1);
    fprintf(out, "%-15s %-24s %7u %12.4g %12.4g %8.1f%%\n", dwarf, dcsim__csv_cell(t, r, ccase),
            (unsigned)th, meas_s, pred_s, 100 * (pred_s / meas_s - 1));
  }
  fprintf(out, "median |error|:");
  for (size_t k = 0; k < nc; k++)
    fprintf(out, "%s %s %.1f %% (%zu rows)", k ? "," : "", codes[k],
            100 * dcsim_median(e[k], ne[k]), ne[k]);
  fprintf(out,
          "%s\nthe dwarfs' fitted efficiencies are fractions of the rates of the profile they were "
          "fitted with\n(%s, calibration/realcode/machines.csv);\nthe same rows from that profile, "
          "from independent bench profiles and a catalogue one: doc/validation-realcode.md\n",
          nc ? "" : " no test row", fitted_on);
out:
  free(e);
  free(path);
  dcsim__csv_free(t);
  return rc;
}

int dcsim__bench_check_realcode(const char *profile_path, FILE *out, dcsim_error *err) {
  dcsim_csv_t *t = NULL;
  dcsim_cpu_profile_t *cpu = NULL;
  size_t cm, cc;
  int rc = 0;
  dcsim_error e;
  char *manifest =
      dcsim_strdup_printf("%s/calibration/realcode/machines.csv", dcsim_catalog_root());
  if (!manifest) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  if (dcsim__csv_load(manifest, &t, &e) || dcsim__csv_col(t, "machine", &cm, &e) ||
      dcsim__csv_col(t, "cpu", &cc, &e))
    goto out; /* no real-code data: nothing to compare */
  if ((rc = dcsim_cpu_profile_load(profile_path, &cpu, err))) goto out;
  for (size_t r = 0; r < dcsim__csv_rows(t) && !rc; r++) {
    char *rel = dcsim_strdup_printf("calibration/realcode/%s", dcsim__csv_cell(t, r, cm));
    char *dir = rel ? dcsim_path_in(dcsim_catalog_root(), rel) : NULL;
    if (!dir)
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, manifest, 0, "out of memory");
    else if (same_machine(dir, cpu))
      rc = realcode_compare(dir, rel, dcsim__csv_cell(t, r, cc), cpu, out, err);
    free(rel);
    free(dir);
  }
out:
  dcsim_cpu_profile_free(cpu);
  dcsim__csv_free(t);
  free(manifest);
  return rc;
}
