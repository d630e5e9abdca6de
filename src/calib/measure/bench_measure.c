/* bench_measure.c — `dcsim bench`: timed regions on pinned threads (or an injected timer), the
 * repetitions of one point until its spread is small, outlying repetitions measured again, and the
 * budget clock (doc/calibration.md "dcsim bench"). */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#include <math.h>
#include <omp.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "calib/measure/bench_internal.h"
#include "dcsim/stats.h"
#include "dcsim/strutil.h"
#include "util/clock.h"

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

double dcsim__bench_timed(bench_run *R, const dcsim_bench_region *what, bench_region_fn fn,
                          void *ctx, double *clk) {
  if (R->o->timer) {
    dcsim_bench_region r = *what;
    r.clock_ghz = 0;
    double t = R->o->timer(R->o->timer_user, &r);
    R->fake_s += t > 0 ? t : 0;
    if (clk) *clk = r.clock_ghz;
    return t;
  }
  unsigned n = what->threads;
  uint64_t passes = what->passes;
  double t0 = 0, t1 = 0, csum = 0;
  int team = 0;
#pragma omp parallel num_threads(n) reduction(+ : csum)
  {
    unsigned tid = (unsigned)omp_get_thread_num();
    pin(R, tid);
    if (clk) csum += dcsim_bench_clock_probe_ghz(1u << 21);
#pragma omp barrier
#pragma omp master
    {
      team = omp_get_num_threads();
      t0 = dcsim__clock_s();
    }
#pragma omp barrier
    fn(ctx, tid, passes);
#pragma omp barrier
#pragma omp master
    t1 = dcsim__clock_s();
  }
  if (team != (int)n) R->short_team = 1;
  if (clk) *clk = csum / n;
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

/* the passes that make one repetition last about R->target_s. When the first run already lasts
 * that long it is run once more: if the second also does, both count as repetitions (v[0..1],
 * *nfull = 2; a DRAM-sized pass of 0.3 s is not repeated just to calibrate); if not, the first
 * was preempted and the calibration goes on from the second (a preempted first run of one pass
 * gave one-pass repetitions timing the OpenMP barrier on the development VM). */
static uint64_t calibrate_passes(bench_run *R, dcsim_bench_region *rg, bench_region_fn fn,
                                 void *ctx, double *full, double *full_clk, unsigned *nfull) {
  *nfull = 0;
  double t = dcsim__bench_timed(R, rg, fn, ctx, &full_clk[0]);
  if (t >= R->target_s) {
    full[0] = t;
    double t2 = dcsim__bench_timed(R, rg, fn, ctx, &full_clk[1]);
    if (t2 >= 0.5 * R->target_s) {
      full[1] = t2;
      *nfull = 2;
      return rg->passes;
    }
    t = t2;
  }
  while (t < R->target_s * 0.2 && rg->passes < (1ull << 40)) {
    rg->passes *= 4;
    t = dcsim__bench_timed(R, rg, fn, ctx, NULL);
  }
  if (t < R->target_s)
    rg->passes = (uint64_t)ceil((double)rg->passes * R->target_s / (t > 0 ? t : 1e-9));
  return rg->passes;
}

int dcsim__bench_measure(bench_run *R, bench_point *p, bench_region_fn fn, void *ctx,
                         double amount_per_pass, uint64_t first_passes, int as_time, double scale,
                         double allowance_s, dcsim_error *err) {
  dcsim_bench_region rg = {
    p->phase, p->kernel, p->level, p->threads, first_passes, p->ws_byte, 0
  };
  double start = dcsim__bench_elapsed_s(R);
  double full[2] = { 0, 0 }, full_clk[2] = { 0, 0 };
  unsigned nfull = 0;
  uint64_t passes = calibrate_passes(R, &rg, fn, ctx, full, full_clk, &nfull);
  double v[BENCH_MAXREP], w[BENCH_MAXREP], csum = 0, mn = 0, med = 0, mx = 0, disp = 0;
  unsigned reps = 0, remeasured = 0, fixed = R->o->reps != 0;
  for (unsigned i = 0; i < nfull && i < R->reps_max; i++) {
    v[reps++] = as_time ? full[i] : amount_per_pass * (double)passes / full[i] * scale;
    csum += full_clk[i];
  }
  for (;;) {
    /* the budget says stop: one repetition once it is spent, two once the phase's share is */
    double left = dcsim__bench_left_s(R), spent0 = dcsim__bench_elapsed_s(R) - start;
    if (!fixed && reps >= 1 && reps < R->reps_min &&
        (left <= 0 || (reps >= 2 && spent0 >= allowance_s))) {
      memcpy(w, v, reps * sizeof *v);
      dcsim__bench_stats(w, reps, &mn, &med, &mx, &disp);
      break;
    }
    int redo = reps >= R->reps_min ? outlier(v, reps) : -1;
    if (redo < 0 && reps >= R->reps_min) {
      memcpy(w, v, reps * sizeof *v);
      dcsim__bench_stats(w, reps, &mn, &med, &mx, &disp);
      double spent = dcsim__bench_elapsed_s(R) - start;
      if (fixed || reps >= R->reps_max || disp <= R->tol || spent >= allowance_s ||
          dcsim__bench_left_s(R) <= 0)
        break;
    }
    if (redo >= 0 && (remeasured >= R->reps_max || dcsim__bench_left_s(R) <= 0)) {
      memcpy(w, v, reps * sizeof *v);
      dcsim__bench_stats(w, reps, &mn, &med, &mx, &disp);
      break; /* kept: no time left to measure it again */
    }
    double clk = 0, tr = dcsim__bench_timed(R, &rg, fn, ctx, &clk);
    if (!(tr > 0))
      return DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0,
                       "bench: a measurement took no time (clock resolution)");
    double val = as_time ? tr : amount_per_pass * (double)passes / tr * scale;
    if (redo >= 0) {
      v[redo] = val;
      remeasured++;
    } else {
      v[reps++] = val;
    }
    csum += clk;
    if (clk > 0 && DCSIM_GROW(R->clk, R->capclk, R->nclk + 1))
      return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    if (clk > 0) R->clk[R->nclk++] = clk;
  }
  p->reps = reps;
  p->remeasured = remeasured;
  p->min = mn;
  p->med = med;
  p->max = mx;
  p->disp = disp;
  p->clock_ghz = csum / (reps + remeasured);
  p->passes = passes;
  if (R->short_team)
    return DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0,
                     "bench: OpenMP gave fewer threads than asked (OMP_THREAD_LIMIT?)");
  if (DCSIM_GROW(R->pts, R->cap, R->np + 1))
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  R->pts[R->np++] = *p;
  return 0;
}
