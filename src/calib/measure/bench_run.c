/* bench_run.c — `dcsim bench`: measure this machine within a time budget, write a calibration
 * directory and profile, fit the loop kernels and test the model on held-out thread counts (see
 * dcsim/bench.h, doc/calibration.md "dcsim bench"). The phases are in bench_phases.c, the timing
 * in bench_measure.c, the outputs in bench_tables.c, bench_fit.c, bench_db.c and bench_report.c. */
#define _GNU_SOURCE /* sched_getaffinity */
#include <errno.h>
#include <math.h>
#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "calib/measure/bench_internal.h"
#include "dcsim/hwprofile.h"
#include "dcsim/import_cpu.h"
#include "dcsim/stats.h"
#include "dcsim/strutil.h"
#include "util/clock.h"
#include "util/fileio.h"

/* ---- machine facts ---- */

static void machine_info(bench_run *R) {
  snprintf(R->model, sizeof R->model, "unknown CPU");
  R->cpuinfo_mhz = 0;
  FILE *f = fopen("/proc/cpuinfo", "r");
  char line[512];
  while (f && fgets(line, sizeof line, f)) {
    char *colon = strchr(line, ':');
    if (!colon) continue;
    char *v = colon + 1;
    while (*v == ' ' || *v == '\t') v++;
    v[strcspn(v, "\n")] = '\0';
    if (strncmp(line, "model name", 10) == 0 && strcmp(R->model, "unknown CPU") == 0)
      snprintf(R->model, sizeof R->model, "%s", v);
    if (strncmp(line, "cpu MHz", 7) == 0 && R->cpuinfo_mhz == 0) R->cpuinfo_mhz = atof(v);
  }
  if (f) fclose(f);
  if (gethostname(R->host, sizeof R->host) != 0) snprintf(R->host, sizeof R->host, "unknown");
  R->host[sizeof R->host - 1] = '\0';
  if (R->o->name)
    snprintf(R->name, sizeof R->name, "%s", R->o->name);
  else { /* "AMD EPYC 7B13" -> "amd-epyc-7b13" */
    size_t k = 0;
    int dash = 0;
    for (const char *p = R->model; *p && k + 1 < sizeof R->name; p++) {
      char ch = *p;
      if ((ch >= 'A' && ch <= 'Z')) ch = (char)(ch - 'A' + 'a');
      if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '.') {
        R->name[k++] = ch;
        dash = 0;
      } else if (!dash && k) {
        R->name[k++] = '-';
        dash = 1;
      }
    }
    while (k && R->name[k - 1] == '-') k--;
    R->name[k] = '\0';
    if (!k) snprintf(R->name, sizeof R->name, "this-machine");
  }
}

/* the energy meters: RAPL for the CPUs (kept open in R->rapl), nvidia-smi's idle reading for GPUs;
 * what was found, or why nothing was, goes into the notes */
static void probe_meters(bench_run *R) {
  const dcsim_bench_opts *o = R->o;
  dcsim_error e2;
  memset(&e2, 0, sizeof e2);
  if (dcsim_rapl_open(o->powercap ? o->powercap : "/sys/class/powercap", &R->rapl, &e2) == 0) {
    dcsim_str_addf(&R->energy_note, "RAPL through powercap: %zu zone(s)",
                   dcsim_rapl_n_zones(R->rapl));
  } else {
    char b[1200];
    dcsim_error_format(&e2, b, sizeof b);
    dcsim_str_addf(&R->energy_note, "not measured: %s", b);
  }
  dcsim__bench_progress(R, "energy: %s", dcsim_str_cstr(&R->energy_note));
  dcsim_gpu_power g[8];
  size_t ng = 0;
  if (dcsim_nvsmi_query(g, 8, &ng, &e2) == 0 && ng) {
    dcsim_str_addf(&R->gpu_note, "%zu NVIDIA GPU(s):", ng);
    for (size_t i = 0; i < ng; i++)
      dcsim_str_addf(&R->gpu_note, " %s %.1f W of %.0f W at %.0f MHz (idle, nvidia-smi);",
                     g[i].name, g[i].power_w, g[i].limit_w, g[i].sm_clock_mhz);
  } else {
    dcsim_str_add(&R->gpu_note, e2.msg);
  }
}

/* The clock the measurements ran at: the median of the probes taken before each repetition, else
 * /proc/cpuinfo's (said to be an assumption); never a guess (doc/calibration.md). */
static int settle_clock(bench_run *R, double idle_clk, dcsim_error *err) {
  dcsim_str cpufreq = DCSIM_STR_INIT;
  FILE *cf = fopen("/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "r");
  long khz = 0;
  if (cf && fscanf(cf, "%ld", &khz) == 1)
    dcsim_str_addf(&cpufreq, "%.0f MHz", khz / 1e3);
  else
    dcsim_str_add(&cpufreq, "absent");
  if (cf) fclose(cf);
  if (R->nclk) {
    qsort(R->clk, R->nclk, sizeof *R->clk, dcsim_cmp_double);
    R->ghz = R->clk[R->nclk / 2];
    dcsim_str_addf(
        &R->freq_note,
        "measured: dependent-add clock probe on every thread before each repetition, median of %zu "
        "probes %.3f GHz (range %.3f-%.3f; idle %.3f); /proc/cpuinfo %.0f MHz; cpufreq %s",
        R->nclk, R->ghz, R->clk[0], R->clk[R->nclk - 1], idle_clk, R->cpuinfo_mhz,
        dcsim_str_cstr(&cpufreq));
  } else if (R->cpuinfo_mhz > 0) {
    R->ghz = R->cpuinfo_mhz / 1e3;
    dcsim_str_addf(
        &R->freq_note,
        "assumption: /proc/cpuinfo cpu MHz %.0f (no clock probe on this architecture); cpufreq %s",
        R->cpuinfo_mhz, dcsim_str_cstr(&cpufreq));
  } else {
    dcsim_str_release(&cpufreq);
    return DCSIM_ERR(
        err, DCSIM_EINTERNAL, "", 0,
        "cannot determine the CPU clock (no probe, no /proc/cpuinfo MHz); refusing to assume one");
  }
  dcsim_str_release(&cpufreq);
  /* the frequency state's id: a clock of more than 29 digits is no clock */
  if (dcsim_bufprintf(R->freq_id, sizeof R->freq_id, "%.2f", R->ghz))
    return DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0, "clock %g GHz: not a clock", R->ghz);
  return 0;
}

/* R for this machine: the CPUs of the affinity mask (saved in *saved, restored by the caller), the
 * thread count, the budget and its shares, repetitions and kernels */
static int run_init(bench_run *R, const dcsim_bench_opts *o, cpu_set_t *saved, dcsim_error *err) {
  memset(R, 0, sizeof *R);
  R->o = o;
  if (sched_getaffinity(0, sizeof *saved, saved) != 0)
    return DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0, "cannot read the CPU affinity mask: %s",
                     strerror(errno));
  for (unsigned c = 0; c < CPU_SETSIZE && R->ncpu < BENCH_MAXT; c++)
    if (CPU_ISSET(c, saved)) R->cpus[R->ncpu++] = c;
  if (o->timer) { /* a synthetic machine: max_threads CPUs */
    R->ncpu = o->max_threads ? (o->max_threads < BENCH_MAXT ? o->max_threads : BENCH_MAXT) : 1;
    for (unsigned c = 0; c < R->ncpu; c++) R->cpus[c] = c;
  }
  R->nthreads = o->max_threads && o->max_threads < R->ncpu ? o->max_threads : R->ncpu;
  R->budget_s = o->time_budget_s > 0 ? o->time_budget_s : o->quick ? 60 : 300;
  R->quick = o->quick || R->budget_s <= 60;
  /* shares of the budget (doc/calibration.md): tables 40 %, loops 30 % (with --budget the HVS
   * map takes 10 % of the tables'); the rest is left for RAPL, the fits, the held-out test and
   * the points that must be measured whatever the time (1 thread and the node) */
  R->deadline_tables_s = 0.40 * R->budget_s;
  R->deadline_loops_s = 0.70 * R->budget_s;
  /* an unstable table cell takes more looks until 60 % of the budget (doc/calibration.md
   * "Second look"): a refusal comes after the looks' share is spent, not seconds into it; a cell
   * that settles late leaves the loops the rest of their share (their 1-thread and node counts are
   * measured whatever the time) */
  R->deadline_looks_s = 0.60 * R->budget_s;
  R->reps_min = o->reps ? o->reps : 3;
  R->reps_max = o->reps ? o->reps : (R->quick ? 7 : 15);
  if (R->reps_max > BENCH_MAXREP) R->reps_min = R->reps_max = BENCH_MAXREP;
  R->tol = 0.02;
  /* interference limits (doc/calibration.md "Interference"): a repetition whose threads got
   * less than 90 % of its wall time, or whose clock probe read 10 % below the point's fastest,
   * is measured again; a table cell whose repetitions still spread by more than 5 %, or that
   * lost more than 5 % of its CPUs' time to the hypervisor, is left out */
  R->min_share = 0.9;
  R->clk_drop = 0.10;
  R->max_disp_accept = 0.05;
  R->max_steal = 0.05;
  /* a look at a table cell agrees with the highest clean one within 5 % at 1 thread, 10 % at
   * more (the repeatability bars of doc/calibration.md "Second look") */
  R->look_tol = 0.05;
  R->look_tol_multi = 0.10;
  R->share_min = 1;
  R->target_s = R->quick ? 0.02 : 0.05;
  R->isa = dcsim_bench_isa_best();
  R->tty = o->progress && isatty(fileno(o->progress));
  omp_set_dynamic(0);
  machine_info(R);
  return 0;
}

/* points in a stable order for the files: phase, kernel, level, threads */
static int cmp_point(const void *a, const void *b) {
  const bench_point *x = a, *y = b;
  int c;
  if ((c = strcmp(x->phase, y->phase)) || (c = strcmp(x->kernel, y->kernel)) ||
      (c = strcmp(x->level, y->level)))
    return c;
  return (x->threads > y->threads) - (x->threads < y->threads);
}

/* the clock probed at idle, warm-up, the tables, the loops, the HVS map; then the clock they ran
 * at */
static int run_phases(bench_run *R, dcsim_error *err) {
  double idle_clk = 0;
  for (int i = 0; i < 5 && !R->o->timer; i++) {
    double c = dcsim_bench_clock_probe_ghz(1u << 22);
    if (c > idle_clk) idle_clk = c;
  }
  if (R->o->budget) R->deadline_tables_s -= 0.1 * R->budget_s;
  int rc;
  if ((rc = dcsim__bench_warmup(R, err)) || (rc = dcsim__bench_phase_tables(R, err)) ||
      (rc = dcsim__bench_accept_tables(R, err)) ||
      (R->o->probe && (rc = dcsim__bench_phase_probe(R, err)))) /* even before a refusal */
    return rc;
  if (R->refusal[0]) { /* nothing more is measured: the raw data is written, then the reason */
    qsort(R->pts, R->np, sizeof *R->pts, cmp_point);
    if ((rc = dcsim__bench_write_raw(R, err))) return rc;
    if (R->tty) fputc('\n', R->o->progress); /* end the status line */
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "bench refused: %s", R->refusal);
  }
  if ((rc = dcsim__bench_phase_loops(R, err)) ||
      (R->o->budget && (rc = dcsim__bench_phase_hvs(R, err))))
    return rc;
  return settle_clock(R, idle_clk, err);
}

/* power.csv from the energy phase when RAPL can be read (*have_energy: it was written) */
static int measure_energy(bench_run *R, int *have_energy, dcsim_error *err) {
  *have_energy = 0;
  if (!R->rapl) return 0;
  FILE *pc = dcsim__bench_open_out(R, "power.csv", err);
  if (!pc) return err ? err->code : DCSIM_EIO;
  fprintf(pc,
          "# RAPL power (energy over the sample / its duration) measured by dcsim "
          "bench\nfrequency,threads,domain,value,unit,source\n");
  int rc = dcsim__bench_phase_energy(R, pc, err);
  rc = dcsim__bench_close_out(R, "power.csv", pc, rc, err);
  *have_energy = rc == 0;
  return rc;
}

/* the calibration directory and the profile written from it, loaded back to fit the loops and
 * predict the held-out thread counts; then the database, the report, --compare and --check */
static int write_results(bench_run *R, int have_energy, dcsim_error *err) {
  const dcsim_bench_opts *o = R->o;
  char *text = NULL;
  dcsim_cpu_profile_t *cpu = NULL;
  bench_heldout *ho = NULL;
  dcsim_loop_fit *fits = NULL;
  size_t nho = 0, nf = 0;
  int64_t run_id = 0;
  int rc;
  char *ppath = dcsim_strdup_printf("%s/%s.xml", o->out_dir, R->name);
  if (!ppath) return DCSIM_ERR(err, DCSIM_ENOMEM, o->out_dir, 0, "out of memory");
  qsort(R->pts, R->np, sizeof *R->pts, cmp_point);
  dcsim__bench_loop_weights(R);
  if ((rc = dcsim__bench_write_raw(R, err)) ||
      (rc = dcsim__bench_write_tables(R, have_energy, err)) ||
      (rc = dcsim__bench_write_loops(R, err)) ||
      (rc = dcsim_calib_cpu_profile(o->out_dir, &text, err)) ||
      (rc = dcsim__file_write_atomic(ppath, text, err)) ||
      (rc = dcsim_cpu_profile_load(ppath, &cpu, err)))
    goto out;
  dcsim__bench_progress(R, "fitting the loop kernels and predicting held-out thread counts");
  if ((rc = dcsim__bench_fit_heldout(R, cpu, ppath, &ho, &nho, &fits, &nf, err))) goto out;
  if (o->check_workflow) {
    dcsim__bench_progress(R, "--check: replaying the loops of %s", o->check_workflow);
    if ((rc = dcsim__bench_check_replay(R, o->check_workflow, ppath, err))) goto out;
  }
  if (o->db_path && (rc = dcsim__bench_write_db(R, ppath, ho, nho, fits, nf, &run_id, err)))
    goto out;
  if (R->tty) fputc('\n', o->progress); /* end the status line */
  dcsim__bench_report(R, ppath, ho, nho, fits, nf, run_id);
  if (o->compare_cpu && o->report) {
    fputs("\n--compare ", o->report);
    rc = dcsim_bench_compare(o->out_dir, o->compare_cpu, o->report, err);
  }
  if (!rc && o->check_workflow && o->report) {
    fputs("\n--check ", o->report);
    rc = dcsim_bench_check(o->out_dir, o->check_workflow, ppath, o->report, err);
  }
out:
  free(text);
  dcsim__bench_heldout_free(ho, nho);
  free(fits);
  free(ppath);
  dcsim_cpu_profile_free(cpu);
  return rc;
}

int dcsim_bench_run(const dcsim_bench_opts *o, dcsim_error *err) {
  bench_run R;
  cpu_set_t saved;
  int have_energy = 0;
  int rc = run_init(&R, o, &saved, err);
  if (rc) return rc;
  R.t0_s = dcsim__clock_s();
  R.load_start = o->timer ? 0 : dcsim__bench_loadavg();
  if ((o->db_path && (rc = dcsim__bench_open_db(&R, err))) ||
      (rc = dcsim__mkdir_p(o->out_dir, err)) ||
      (rc = dcsim_bench_find_caches(o->sysfs_cpu ? o->sysfs_cpu : "/sys/devices/system/cpu",
                                    o->caches, &R.c, err)))
    goto out;
  dcsim__bench_progress(&R,
                        "%s: %u CPU(s), L1d %.0f KiB, L2 %.0f KiB, L3 %.0f KiB (%s), kernels %s, "
                        "budget %.0f s",
                        R.model, R.nthreads, R.c.l1d_byte / 1024, R.c.l2_byte / 1024,
                        R.c.l3_byte / 1024, R.c.source, dcsim_bench_isa_name(R.isa), R.budget_s);
  probe_meters(&R);
  if ((rc = run_phases(&R, err)) == 0 && (rc = measure_energy(&R, &have_energy, err)) == 0)
    rc = write_results(&R, have_energy, err);
out:
  sched_setaffinity(0, sizeof saved, &saved);
  dcsim_rapl_close(R.rapl);
  dcsim__bench_close_db(&R);
  free(R.pts);
  free(R.clk);
  dcsim_str_release(&R.look_note);
  dcsim_str_release(&R.loop_ws_note);
  dcsim_str_release(&R.freq_note);
  dcsim_str_release(&R.warm_note);
  dcsim_str_release(&R.energy_note);
  dcsim_str_release(&R.gpu_note);
  return rc;
}
