/* bench_measure.c — `dcsim bench`: timed regions on pinned threads (or an injected timer), the
 * repetitions of one point until its spread is small, outlying repetitions measured again, and the
 * budget clock (doc/calibration.md "dcsim bench"). */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#include <errno.h>
#include <math.h>
#include <omp.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "calib/measure/bench_internal.h"
#include "dcsim/stats.h"
#include "dcsim/strutil.h"
#include "util/clock.h"

const char *dcsim__bench_level_name(int lv) {
  return lv >= 0 && lv < 4 ? dcsim_cpu_qty_name((dcsim_cpu_qty)(DCSIM_CPU_L1 + lv)) : "";
}

FILE *dcsim__bench_open_out(const bench_run *R, const char *file, dcsim_error *err) {
  char *path = dcsim_path_in(R->o->out_dir, file);
  if (!path) {
    DCSIM_ERR(err, DCSIM_ENOMEM, R->o->out_dir, 0, "out of memory");
    return NULL;
  }
  FILE *f = fopen(path, "w");
  if (!f) DCSIM_ERR(err, DCSIM_EIO, path, 0, "cannot write: %s", strerror(errno));
  free(path);
  return f;
}

int dcsim__bench_close_out(const bench_run *R, const char *file, FILE *f, int rc,
                           dcsim_error *err) {
  if (fclose(f) == 0 || rc) return rc;
  char *path = dcsim_path_in(R->o->out_dir, file);
  rc = DCSIM_ERR(err, DCSIM_EIO, path ? path : R->o->out_dir, 0, "write error");
  free(path);
  return rc;
}

double dcsim__bench_elapsed_s(const bench_run *R) {
  return R->o->timer ? R->fake_s : dcsim__clock_s() - R->t0_s;
}

double dcsim__bench_left_s(const bench_run *R) { return R->budget_s - dcsim__bench_elapsed_s(R); }

void dcsim__bench_progress(bench_run *R, const char *fmt, ...) {
  FILE *f = R->o->progress;
  if (!f) return;
  va_list ap;
  va_start(ap, fmt);
  double left = dcsim__bench_left_s(R);
  /* a terminal gets one status line rewritten in place; a file or pipe gets every line */
  fprintf(f, "%sbench: [%4.0f s left] ", R->tty ? "\r\033[K" : "", left > 0 ? left : 0);
  vfprintf(f, fmt, ap);
  if (!R->tty) fputc('\n', f);
  fflush(f);
  va_end(ap);
}

static void pin(bench_run *R, unsigned tid) {
  cpu_set_t s;
  CPU_ZERO(&s);
  CPU_SET(R->cpus[tid % R->ncpu], &s);
  sched_setaffinity(0, sizeof s, &s);
}

double dcsim__bench_loadavg(void) {
  FILE *f = fopen("/proc/loadavg", "r");
  double l = -1;
  if (f && fscanf(f, "%lf", &l) != 1) l = -1;
  if (f) fclose(f);
  return l;
}

double dcsim__bench_timed(bench_run *R, const dcsim_bench_region *what, bench_region_fn fn,
                          void *ctx, bench_obs *obs) {
  if (R->o->timer) {
    dcsim_bench_region r = *what;
    r.clock_ghz = 0;
    r.cpu_share = 1;
    r.steal_frac = 0;
    double t = R->o->timer(R->o->timer_user, &r);
    R->fake_s += t > 0 ? t : 0;
    if (obs) *obs = (bench_obs){ r.clock_ghz, r.clock_ghz, r.cpu_share, r.steal_frac };
    return t;
  }
  unsigned n = what->threads;
  uint64_t passes = what->passes;
  double t0 = 0, t1 = 0, csum = 0, crun = 0, cpu = 0;
  int team = 0;
  int probe = obs != NULL;
#pragma omp parallel num_threads(n) reduction(+ : csum, crun, cpu)
  {
    unsigned tid = (unsigned)omp_get_thread_num();
    pin(R, tid);
    if (probe) {
      double w0 = dcsim__clock_s(), p0 = dcsim__clock_thread_cpu_s();
      double g = dcsim_bench_clock_probe_ghz(1u << 21);
      double w = dcsim__clock_s() - w0, c = dcsim__clock_thread_cpu_s() - p0;
      csum += g;
      crun += c > 0 && w > 0 ? g * w / c : g; /* the same cycles over the CPU time */
    }
#pragma omp barrier
#pragma omp master
    {
      team = omp_get_num_threads();
      t0 = dcsim__clock_s();
    }
#pragma omp barrier
    double c0 = dcsim__clock_thread_cpu_s();
    fn(ctx, tid, passes);
    cpu += dcsim__clock_thread_cpu_s() - c0; /* this thread's CPU time in the kernel */
#pragma omp barrier
#pragma omp master
    t1 = dcsim__clock_s();
  }
  if (team != (int)n) R->short_team = 1;
  if (obs) {
    obs->clk_ghz = csum / n;
    obs->clk_run_ghz = crun / n;
    /* a thread preempted by another process gets less CPU time than the wall time it was timed
     * over, and the others wait for it at the barrier: both lower the share */
    obs->cpu_share = t1 > t0 ? fmin(1.0, cpu / (n * (t1 - t0))) : 0;
    obs->steal = 0;
  }
  return t1 - t0;
}

void dcsim__bench_on_threads(bench_run *R, unsigned n, bench_region_fn fn, void *ctx) {
  if (R->o->timer) return;
#pragma omp parallel num_threads(n)
  {
    unsigned tid = (unsigned)omp_get_thread_num();
    pin(R, tid);
    fn(ctx, tid, 0);
  }
}

static double median_sorted(const double *v, unsigned n) {
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void dcsim__bench_stats(double *v, unsigned n, double *min, double *med, double *max,
                        double *disp) {
  qsort(v, n, sizeof *v, dcsim_cmp_double);
  double m = median_sorted(v, n), dev[BENCH_MAXREP];
  for (unsigned i = 0; i < n; i++) dev[i] = fabs(v[i] - m);
  qsort(dev, n, sizeof *dev, dcsim_cmp_double);
  *min = v[0];
  *max = v[n - 1];
  *med = m;
  /* 1.4826 MAD estimates the standard deviation of normal data (Rousseeuw & Croux, JASA 88
   * (1993) 1273); relative to the median */
  *disp = m != 0 && n > 1 ? 1.4826 * median_sorted(dev, n) / fabs(m) : 0;
}

/* index of the repetition farthest from the median if it is an outlier, else -1: more than 3
 * robust standard deviations away, the deviation floored at 1 % of the median so that a quiet
 * point does not call a 0.5 % wobble an outlier */
static int outlier(const double *v, unsigned n) {
  if (n < 3) return -1;
  double w[BENCH_MAXREP], mn, med, mx, disp;
  memcpy(w, v, n * sizeof *v);
  dcsim__bench_stats(w, n, &mn, &med, &mx, &disp);
  double lim = 3 * fmax(disp, 0.01) * fabs(med);
  int worst = -1;
  double wd = lim;
  for (unsigned i = 0; i < n; i++)
    if (fabs(v[i] - med) > wd) {
      wd = fabs(v[i] - med);
      worst = (int)i;
    }
  return worst;
}

/* A calibration run, run again (at most 3 times) while its threads got less than R->min_share of
 * its wall time: a preempted run looks long and would leave one-pass repetitions that time the
 * barrier's wake-up (0.005 GB/s "L1" at 2 threads on the development VM under a load of 13).
 * Returns the time the pass count is judged by: the wall time, or where the last try was still
 * disturbed, the wall time x the CPU share (about what it would have taken undisturbed); *wall:
 * the wall time itself (may be NULL). */
static double calib_timed(bench_run *R, dcsim_bench_region *rg, bench_region_fn fn, void *ctx,
                          bench_obs *keep, double *wall) {
  bench_obs ob;
  double t = 0;
  for (int i = 0; i < 4; i++) {
    t = dcsim__bench_timed(R, rg, fn, ctx, &ob);
    if (ob.cpu_share >= R->min_share || dcsim__bench_left_s(R) <= 0) break;
  }
  if (keep) *keep = ob;
  if (wall) *wall = t;
  return ob.cpu_share > 0 && ob.cpu_share < R->min_share ? t * ob.cpu_share : t;
}

/* the passes that make one repetition last about R->target_s. When the first run already lasts
 * that long it is run once more: if the second also does, both count as repetitions (full[0..1],
 * *nfull = 2; a DRAM-sized pass of 0.3 s is not repeated just to calibrate); if not, the first
 * was preempted and the calibration goes on from the second (a preempted first run of one pass
 * gave one-pass repetitions timing the OpenMP barrier on the development VM). */
static uint64_t calibrate_passes(bench_run *R, dcsim_bench_region *rg, bench_region_fn fn,
                                 void *ctx, double *full, bench_obs *full_obs, unsigned *nfull) {
  *nfull = 0;
  double w = 0, t = calib_timed(R, rg, fn, ctx, &full_obs[0], &w);
  if (t >= R->target_s) {
    full[0] = w;
    double w2 = 0, t2 = calib_timed(R, rg, fn, ctx, &full_obs[1], &w2);
    if (t2 >= 0.5 * R->target_s) {
      full[1] = w2;
      *nfull = 2;
      return rg->passes;
    }
    t = t2;
  }
  while (t < R->target_s * 0.2 && rg->passes < (1ull << 40)) {
    rg->passes *= 4;
    t = calib_timed(R, rg, fn, ctx, NULL, NULL);
  }
  if (t < R->target_s)
    rg->passes = (uint64_t)ceil((double)rg->passes * R->target_s / (t > 0 ? t : 1e-9));
  return rg->passes;
}

/* the CPUs' stolen and total time in jiffies (/proc/stat's "cpu" line: user nice system idle
 * iowait irq softirq steal, proc(5)); -1 where unreadable */
static int proc_steal(double *steal, double *total) {
  FILE *f = fopen("/proc/stat", "r");
  unsigned long long v[8] = { 0 };
  int n = f ? fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
                     &v[4], &v[5], &v[6], &v[7])
            : 0;
  if (f) fclose(f);
  if (n < 8) return -1;
  *steal = (double)v[7];
  *total = 0;
  for (int i = 0; i < 8; i++) *total += (double)v[i];
  return 0;
}

/* one repetition as kept: its value and what its region saw */
typedef struct bench_rep {
  double v;
  bench_obs o;
} bench_rep;

/* A repetition is disturbed when its threads got less than R->min_share of their wall time, or
 * the clock they ran at (the probe over CPU time) was more than R->clk_drop below the fastest of
 * the point (another tenant's load lowering the clock; a lower all-core clock lowers every probe
 * of the point alike). A probe preempted reads low over wall time only: that is reported
 * (clock_min_ghz), not counted, since the kernel after it may have run undisturbed. */
static int rep_disturbed(const bench_run *R, const bench_rep *r, double ref_clk) {
  return r->o.cpu_share < R->min_share ||
         (r->o.clk_run_ghz > 0 && ref_clk > 0 && r->o.clk_run_ghz < (1 - R->clk_drop) * ref_clk);
}

static double ref_clock(const bench_rep *r, unsigned n) {
  double m = 0;
  for (unsigned i = 0; i < n; i++) m = fmax(m, r[i].o.clk_run_ghz);
  return m;
}

static int first_disturbed(const bench_run *R, const bench_rep *r, unsigned n) {
  double ref = ref_clock(r, n);
  for (unsigned i = 0; i < n; i++)
    if (rep_disturbed(R, &r[i], ref)) return (int)i;
  return -1;
}

static void rep_stats(const bench_rep *r, unsigned n, double *mn, double *med, double *mx,
                      double *disp) {
  double w[BENCH_MAXREP];
  for (unsigned i = 0; i < n; i++) w[i] = r[i].v;
  dcsim__bench_stats(w, n, mn, med, mx, disp);
}

static int rep_outlier(const bench_rep *r, unsigned n) {
  double w[BENCH_MAXREP];
  for (unsigned i = 0; i < n; i++) w[i] = r[i].v;
  return outlier(w, n);
}

/* what the kept repetitions saw, into p */
static void point_interference(bench_run *R, bench_point *p, const bench_rep *r, unsigned n) {
  double ref = ref_clock(r, n), csum = 0;
  unsigned nclk = 0;
  p->cpu_share = 1;
  p->clk_min = p->clk_max = 0;
  p->disturbed = 0;
  for (unsigned i = 0; i < n; i++) {
    p->cpu_share = fmin(p->cpu_share, r[i].o.cpu_share);
    if (r[i].o.clk_ghz > 0) {
      p->clk_min = nclk ? fmin(p->clk_min, r[i].o.clk_ghz) : r[i].o.clk_ghz;
      p->clk_max = fmax(p->clk_max, r[i].o.clk_ghz);
      csum += r[i].o.clk_ghz;
      nclk++;
    }
    if (rep_disturbed(R, &r[i], ref)) p->disturbed++;
  }
  p->clock_ghz = nclk ? csum / nclk : 0;
  R->n_disturbed += p->disturbed;
  R->n_redone += p->redone;
}

int dcsim__bench_measure(bench_run *R, bench_point *p, bench_region_fn fn, void *ctx,
                         double amount_per_pass, uint64_t first_passes, int as_time, double scale,
                         double allowance_s, dcsim_error *err) {
  dcsim_bench_region rg = { p->phase,   p->kernel, p->level, p->threads, first_passes,
                            p->ws_byte, 0,         1,        0 };
  double start = dcsim__bench_elapsed_s(R), st0 = 0, tot0 = 0, st1 = 0, tot1 = 0;
  int have_stat = !R->o->timer && proc_steal(&st0, &tot0) == 0;
  double full[2] = { 0, 0 }, steal_t = 0, all_t = 0;
  bench_obs full_obs[2];
  memset(full_obs, 0, sizeof full_obs);
  unsigned nfull = 0;
  uint64_t passes = calibrate_passes(R, &rg, fn, ctx, full, full_obs, &nfull);
  bench_rep r[BENCH_MAXREP];
  double mn = 0, med = 0, mx = 0, disp = 0;
  unsigned reps = 0, remeasured = 0, redone = 0, fixed = R->o->reps != 0;
  for (unsigned i = 0; i < nfull && i < R->reps_max; i++) {
    r[reps].v = as_time ? full[i] : amount_per_pass * (double)passes / full[i] * scale;
    r[reps++].o = full_obs[i];
    steal_t += full_obs[i].steal * full[i];
    all_t += full[i];
  }
  for (;;) {
    /* the budget says stop: one repetition once it is spent, two once the phase's share is */
    double left = dcsim__bench_left_s(R), spent = dcsim__bench_elapsed_s(R) - start;
    if (!fixed && reps >= 1 && reps < R->reps_min &&
        (left <= 0 || (reps >= 2 && spent >= allowance_s)))
      break;
    /* a disturbed repetition is measured again first, while twice the point's allowance and the
     * budget last (doc/calibration.md "Interference") */
    int redo = reps && redone < 4 * R->reps_max && spent < 2 * allowance_s && left > 0
                   ? first_disturbed(R, r, reps)
                   : -1;
    int for_noise = redo >= 0;
    if (redo < 0 && reps >= R->reps_min) redo = rep_outlier(r, reps);
    if (!for_noise && redo < 0 && reps >= R->reps_min) {
      rep_stats(r, reps, &mn, &med, &mx, &disp);
      if (fixed || reps >= R->reps_max || disp <= R->tol || spent >= allowance_s || left <= 0)
        break;
    }
    if (!for_noise && redo >= 0 && (remeasured >= R->reps_max || left <= 0))
      break; /* kept: no time left to measure it again */
    bench_obs ob;
    double tr = dcsim__bench_timed(R, &rg, fn, ctx, &ob);
    if (!(tr > 0))
      return DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0,
                       "bench: a measurement took no time (clock resolution)");
    bench_rep nr = { as_time ? tr : amount_per_pass * (double)passes / tr * scale, ob };
    steal_t += ob.steal * tr;
    all_t += tr;
    if (redo >= 0) {
      r[redo] = nr;
      if (for_noise)
        redone++;
      else
        remeasured++;
    } else {
      r[reps++] = nr;
    }
    R->share_min = fmin(R->share_min, ob.cpu_share);
    if (ob.clk_ghz > 0 && DCSIM_GROW(R->clk, R->capclk, R->nclk + 1))
      return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    if (ob.clk_ghz > 0) R->clk[R->nclk++] = ob.clk_ghz;
  }
  rep_stats(r, reps, &mn, &med, &mx, &disp);
  p->reps = reps;
  p->remeasured = remeasured;
  p->redone = redone;
  p->min = mn;
  p->med = med;
  p->max = mx;
  p->disp = disp;
  p->passes = passes;
  point_interference(R, p, r, reps);
  if (have_stat && proc_steal(&st1, &tot1) == 0 && tot1 > tot0)
    p->steal = (st1 - st0) / (tot1 - tot0);
  else
    p->steal = all_t > 0 ? steal_t / all_t : 0;
  R->steal_max = fmax(R->steal_max, p->steal);
  if (R->short_team)
    return DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0,
                     "bench: OpenMP gave fewer threads than asked (OMP_THREAD_LIMIT?)");
  if (DCSIM_GROW(R->pts, R->cap, R->np + 1))
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  R->pts[R->np++] = *p;
  return 0;
}
