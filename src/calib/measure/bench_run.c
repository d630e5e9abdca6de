/* bench_run.c — `dcsim bench`: measure this machine, write a calibration directory and profile,
 * fit the loop kernels and test the model on held-out thread counts (see dcsim/bench.h,
 * doc/calibration.md "dcsim bench"). */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#include <errno.h>
#include <math.h>
#include <omp.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "dcsim/bench.h"
#include "dcsim/calib.h"
#include "dcsim/calib_fit.h"
#include "dcsim/dwarf.h"
#include "dcsim/energymeter.h"
#include "dcsim/hvs.h"
#include "dcsim/hwprofile.h"
#include "dcsim/model.h"
#include "dcsim/repro.h"
#include "dcsim/strutil.h"
#include "util/db.h"
#include "util/fileio.h"
#include "util/xmledit.h"

enum { MAXT = 256 };
static const char *const levels[4] = { "L1", "L2", "L3", "DRAM" };

typedef struct point {
  char phase[8], kernel[32], level[8];
  double ws_byte;
  unsigned threads, reps;
  double min, med, max; /* rate (GFLOP/s, GB/s) or time (loops: s) */
  char unit[16];
  double clock_ghz;
  double work_flop, traffic_byte; /* loops: per measurement */
  uint64_t passes;
  size_t n_elem;
} point;

typedef struct run {
  const dcsim_bench_opts *o;
  unsigned cpus[MAXT], ncpu, nthreads, reps;
  dcsim_bench_isa isa;
  dcsim_bench_caches c;
  double target_s;
  point *pts;
  size_t np, cap;
  double *clk;
  size_t nclk, capclk;
  int short_team;
  char model[256], name[128], host[128], freq_id[32], freq_note[512];
  double ghz, cpuinfo_mhz;
  char energy_note[1400], gpu_note[1200];
  dcsim_rapl_t *rapl;
} run;

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void progress(run *R, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void progress(run *R, const char *fmt, ...) {
  if (!R->o->progress) return;
  va_list ap;
  va_start(ap, fmt);
  fputs("bench: ", R->o->progress);
  vfprintf(R->o->progress, fmt, ap);
  fputc('\n', R->o->progress);
  fflush(R->o->progress);
  va_end(ap);
}

static void pin(run *R, unsigned tid) {
  cpu_set_t s;
  CPU_ZERO(&s);
  CPU_SET(R->cpus[tid % R->ncpu], &s);
  sched_setaffinity(0, sizeof s, &s);
}

typedef void (*region_fn)(void *ctx, unsigned tid, uint64_t passes);

/* One timed parallel region of n pinned threads; *clk: mean clock of the threads (probed just
 * before). */
static double timed(run *R, unsigned n, region_fn fn, void *ctx, uint64_t passes, double *clk) {
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
      t0 = now_s();
    }
#pragma omp barrier
    fn(ctx, tid, passes);
#pragma omp barrier
#pragma omp master
    t1 = now_s();
  }
  if (team != (int)n) R->short_team = 1;
  if (clk) *clk = csum / n;
  return t1 - t0;
}

static void on_threads(run *R, unsigned n, region_fn fn,
                       void *ctx) { /* untimed (allocation, first touch) */
#pragma omp parallel num_threads(n)
  {
    unsigned tid = (unsigned)omp_get_thread_num();
    pin(R, tid);
    fn(ctx, tid, 0);
  }
}

static int add_point(run *R, const point *p, dcsim_error *err) {
  if (DCSIM_GROW(R->pts, R->cap, R->np + 1))
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  R->pts[R->np++] = *p;
  return 0;
}

static int add_clock(run *R, double g) {
  if (!(g > 0)) return 0;
  if (DCSIM_GROW(R->clk, R->capclk, R->nclk + 1)) return -1;
  R->clk[R->nclk++] = g;
  return 0;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Calibrates passes to the target time, then `reps` timed runs. amount: work per pass of all
 * threads (flop, byte); rates in amount/s * scale. For loops (rate = 0) the values are times. */
static int measure(run *R, point *p, unsigned n, region_fn fn, void *ctx, double amount_per_pass,
                   uint64_t first_passes, int as_time, double scale, dcsim_error *err) {
  uint64_t passes = first_passes;
  double t = timed(R, n, fn, ctx, passes, NULL);
  while (t < R->target_s * 0.2 && passes < (1ull << 40)) {
    passes *= 4;
    t = timed(R, n, fn, ctx, passes, NULL);
  }
  if (t < R->target_s) passes = (uint64_t)ceil((double)passes * R->target_s / (t > 0 ? t : 1e-9));
  double v[64], csum = 0;
  unsigned reps = R->reps < 64 ? R->reps : 64;
  for (unsigned r = 0; r < reps; r++) {
    double clk = 0;
    double tr = timed(R, n, fn, ctx, passes, &clk);
    if (!(tr > 0))
      return DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0,
                       "bench: a measurement took no time (clock resolution)");
    v[r] = as_time ? tr : amount_per_pass * (double)passes / tr * scale;
    csum += clk;
    if (add_clock(R, clk) != 0) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  }
  qsort(v, reps, sizeof *v, cmp_d);
  p->threads = n;
  p->reps = reps;
  p->min = v[0];
  p->max = v[reps - 1];
  p->med = reps % 2 ? v[reps / 2] : 0.5 * (v[reps / 2 - 1] + v[reps / 2]);
  p->clock_ghz = csum / reps;
  p->passes = passes;
  if (R->short_team)
    return DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0,
                     "bench: OpenMP gave fewer threads than asked (OMP_THREAD_LIMIT?)");
  return add_point(R, p, err);
}

/* ---- contexts ---- */

typedef struct fma_ctx {
  dcsim_bench_isa isa;
  double sink[MAXT], flop[MAXT];
} fma_ctx;
static void fma_fn(void *c, unsigned tid, uint64_t passes) {
  fma_ctx *x = c;
  x->flop[tid] = dcsim_bench_fma(x->isa, passes, 1.0, 0.5, &x->sink[tid]);
}

typedef struct load_ctx {
  dcsim_bench_isa isa;
  size_t n;
  double *buf[MAXT];
  double sink[MAXT];
  int fail;
} load_ctx;
static void load_alloc(void *c, unsigned tid, uint64_t p) {
  (void)p;
  load_ctx *x = c;
  x->buf[tid] = aligned_alloc(64, x->n * sizeof(double));
  if (!x->buf[tid]) {
    x->fail = 1;
    return;
  }
  for (size_t i = 0; i < x->n; i++) x->buf[tid][i] = (double)(i & 7) * 0.5;
}
static void load_fn(void *c, unsigned tid, uint64_t passes) {
  load_ctx *x = c;
  dcsim_bench_load(x->isa, x->buf[tid], x->n, passes, &x->sink[tid]);
}
static void load_free(load_ctx *x, unsigned n) {
  for (unsigned i = 0; i < n; i++) {
    free(x->buf[i]);
    x->buf[i] = NULL;
  }
}

typedef struct loop_ctx {
  dcsim_bench_loop_kind k;
  size_t n;
  uint64_t seed;
  dcsim_bench_loop_data *d[MAXT];
  double sink[MAXT];
  int fail;
} loop_ctx;
static void loop_alloc(void *c, unsigned tid, uint64_t p) {
  (void)p;
  loop_ctx *x = c;
  if (dcsim_bench_loop_alloc(x->k, x->n, x->seed + tid, &x->d[tid], NULL) != 0) x->fail = 1;
}
static void loop_fn(void *c, unsigned tid, uint64_t passes) {
  loop_ctx *x = c;
  x->sink[tid] += dcsim_bench_loop_run(x->d[tid], passes);
}
static void loop_free(loop_ctx *x, unsigned n) {
  for (unsigned i = 0; i < n; i++) {
    dcsim_bench_loop_free(x->d[i]);
    x->d[i] = NULL;
  }
}

static size_t level_ws(const run *R, int lv) { /* bytes per thread (doc/calibration.md) */
  const dcsim_bench_caches *c = &R->c;
  double l3 = c->l3_byte > 0 ? c->l3_byte : 4 * c->l2_byte;
  double ws;
  switch (lv) {
    case 0: ws = 0.5 * c->l1d_byte; break;
    case 1:
      ws = 0.5 * c->l2_byte;
      if (ws < 4 * c->l1d_byte) ws = 4 * c->l1d_byte;
      break;
    case 2:
      ws = 0.5 * l3 / (R->nthreads ? R->nthreads : 1);
      if (ws < 2 * c->l2_byte) ws = 2 * c->l2_byte;
      break;
    default:
      ws = R->o->quick ? 2 * l3 : 4 * l3;
      if (ws < (R->o->quick ? 32e6 : 128e6)) ws = R->o->quick ? 32e6 : 128e6;
      break;
  }
  size_t b = (size_t)ws / 256 * 256;
  return b < 256 ? 256 : b;
}

static int bw_point(run *R, const char *phase, const char *level, size_t ws, unsigned n, point *out,
                    dcsim_error *err) {
  load_ctx lc;
  memset(&lc, 0, sizeof lc);
  lc.isa = R->isa;
  lc.n = ws / sizeof(double) / 32 * 32;
  if (lc.n < 32) lc.n = 32;
  on_threads(R, n, load_alloc, &lc);
  int rc = 0;
  if (lc.fail) rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory (%zu bytes per thread)", ws);
  point p;
  memset(&p, 0, sizeof p);
  snprintf(p.phase, sizeof p.phase, "%s", phase);
  snprintf(p.kernel, sizeof p.kernel, "load");
  snprintf(p.level, sizeof p.level, "%s", level);
  snprintf(p.unit, sizeof p.unit, "GB/s");
  p.ws_byte = (double)lc.n * 8;
  p.n_elem = lc.n;
  if (!rc) rc = measure(R, &p, n, load_fn, &lc, 8.0 * (double)lc.n * n, 1, 0, 1e-9, err);
  load_free(&lc, n);
  if (!rc && out) *out = R->pts[R->np - 1];
  return rc;
}

/* ---- phases ---- */

static int phase_peak(run *R, dcsim_error *err) {
  for (unsigned n = 1; n <= R->nthreads; n++) {
    fma_ctx fc;
    memset(&fc, 0, sizeof fc);
    fc.isa = R->isa;
    double dummy;
    double per_iter = dcsim_bench_fma(R->isa, 1, 1.0, 0.5, &dummy); /* flop per iteration */
    point p;
    memset(&p, 0, sizeof p);
    snprintf(p.phase, sizeof p.phase, "peak");
    snprintf(p.kernel, sizeof p.kernel, "fma-%s", dcsim_bench_isa_name(R->isa));
    snprintf(p.unit, sizeof p.unit, "GFLOP/s");
    int rc = measure(R, &p, n, fma_fn, &fc, per_iter * n, 1u << 16, 0, 1e-9, err);
    if (rc) return rc;
    progress(R, "peak %u thread(s): %.2f GFLOP/s (median of %u)", n, p.med, p.reps);
  }
  return 0;
}

static int phase_bandwidth(run *R, dcsim_error *err) {
  for (int lv = 0; lv < 4; lv++)
    for (unsigned n = 1; n <= R->nthreads; n++) {
      point p;
      int rc = bw_point(R, "bw", levels[lv], level_ws(R, lv), n, &p, err);
      if (rc) return rc;
      progress(R, "%s bandwidth, %u thread(s), %.0f KiB per thread: %.2f GB/s", levels[lv], n,
               p.ws_byte / 1024, p.med);
    }
  return 0;
}

static int phase_loops(run *R, dcsim_error *err) {
  const int cls[2] = { 1, 3 }; /* L2- and DRAM-sized working sets */
  for (int ci = 0; ci < 2; ci++)
    for (int k = 0; k < DCSIM_LOOP_COUNT; k++) {
      const dcsim_bench_loop_info *li = dcsim_bench_loop((dcsim_bench_loop_kind)k);
      for (unsigned n = 1; n <= R->nthreads; n++) {
        loop_ctx lc;
        memset(&lc, 0, sizeof lc);
        lc.k = (dcsim_bench_loop_kind)k;
        lc.n = (size_t)((double)level_ws(R, cls[ci]) / li->footprint_per_elem);
        lc.seed = R->o->seed + 17;
        on_threads(R, n, loop_alloc, &lc);
        if (lc.fail) {
          loop_free(&lc, n);
          return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory (loop %s)", li->name);
        }
        point p;
        memset(&p, 0, sizeof p);
        snprintf(p.phase, sizeof p.phase, "loop");
        snprintf(p.kernel, sizeof p.kernel, "%s.%s", li->name, levels[cls[ci]]);
        snprintf(p.level, sizeof p.level, "%s", levels[cls[ci]]);
        snprintf(p.unit, sizeof p.unit, "s");
        p.n_elem = dcsim_bench_loop_n(lc.d[0]);
        p.ws_byte = (double)p.n_elem * li->footprint_per_elem;
        int rc = measure(R, &p, n, loop_fn, &lc, 0, 1, 1, 1, err);
        loop_free(&lc, n);
        if (rc) return rc;
        point *q = &R->pts[R->np - 1];
        q->traffic_byte = li->byte_per_elem * (double)q->n_elem * n * (double)q->passes;
        q->work_flop = li->flop_per_elem * (double)q->n_elem * n * (double)q->passes;
        progress(R, "loop %s, %u thread(s): %.3g s for %llu pass(es), %.2f GB/s", q->kernel, n,
                 q->med, (unsigned long long)q->passes, q->traffic_byte / q->med * 1e-9);
      }
    }
  return 0;
}

/* HVS over (threads, log2 working set) for the load kernel (--budget N) */
static int phase_hvs(run *R, dcsim_error *err) {
  size_t nws = 24, np = nws * R->nthreads;
  double lo = log2(4096), hi = log2((double)level_ws(R, 3));
  double *xy = malloc(np * 2 * sizeof *xy);
  size_t *pts = malloc(np * sizeof *pts);
  dcsim_hvs_t *h = NULL;
  int rc = 0;
  if (!xy || !pts) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    goto out;
  }
  for (unsigned n = 1; n <= R->nthreads; n++)
    for (size_t w = 0; w < nws; w++) {
      size_t i = (n - 1) * nws + w;
      xy[2 * i] = n;
      xy[2 * i + 1] = lo + (hi - lo) * (double)w / (double)(nws - 1);
    }
  if ((rc = dcsim_hvs_new(np, 2, xy, 0.1, R->o->seed, &h, err))) goto out;
  size_t budget = R->o->budget < np ? R->o->budget : np, done = 0;
  size_t batch = budget / 8 < 4 ? 4 : budget / 8;
  progress(R, "adaptive sampling (HVS): %zu of %zu (threads, working set) points", budget, np);
  while (done < budget) {
    size_t want = budget - done < batch ? budget - done : batch;
    size_t k = done == 0 ? dcsim_hvs_next_random(h, want < 8 ? want : 8, pts)
                         : dcsim_hvs_next_with(h, (dcsim_sampler)R->o->sampler, want, pts);
    if (k == 0) break;
    for (size_t j = 0; j < k; j++) {
      unsigned n = (unsigned)xy[2 * pts[j]];
      size_t ws = (size_t)exp2(xy[2 * pts[j] + 1]);
      point p;
      if ((rc = bw_point(R, "hvs", "", ws, n, &p, err))) goto out;
      if ((rc = dcsim_hvs_add(h, pts[j], p.med, err))) goto out;
    }
    done += k;
  }
  if ((rc = dcsim_hvs_fit(h, err))) goto out;
  char path[4096];
  snprintf(path, sizeof path, "%s/bandwidth-map.csv", R->o->out_dir);
  FILE *f = fopen(path, "w");
  if (!f) {
    rc = DCSIM_ERR(err, DCSIM_EIO, path, 0, "cannot write: %s", strerror(errno));
    goto out;
  }
  fprintf(f,
          "# load-kernel bandwidth over (threads, working set per thread): HVS-chosen measurements "
          "and the\n"
          "# CART surrogate (region means) at every design point; doc/calibration.md\n"
          "threads,ws_byte,measured_gbps,predicted_gbps\n");
  for (size_t i = 0; i < np; i++) {
    double meas = NAN;
    for (size_t q = 0; q < R->np; q++)
      if (strcmp(R->pts[q].phase, "hvs") == 0 && R->pts[q].threads == (unsigned)xy[2 * i] &&
          fabs(log2(R->pts[q].ws_byte) - xy[2 * i + 1]) < 0.05)
        meas = R->pts[q].med;
    fprintf(f, "%u,%.0f,", (unsigned)xy[2 * i], exp2(xy[2 * i + 1]));
    if (isnan(meas))
      fprintf(f, ",%.4g\n", dcsim_hvs_predict(h, i));
    else
      fprintf(f, "%.4g,%.4g\n", meas, dcsim_hvs_predict(h, i));
  }
  if (fclose(f) != 0) {
    rc = DCSIM_ERR(err, DCSIM_EIO, path, 0, "write error");
    goto out;
  }
  progress(R, "HVS: %zu points measured, %zu regions", dcsim_hvs_n_measured(h),
           dcsim_hvs_n_regions(h));
out:
  dcsim_hvs_free(h);
  free(xy);
  free(pts);
  return rc;
}

/* RAPL power per active core count (D3.5 §5.2): PKG under the FMA kernel, DRAM under the DRAM
 * stream; idle from a sleep. Only where powercap is readable. */
static int phase_energy(run *R, FILE *csv, dcsim_error *err) {
  size_t nz = dcsim_rapl_n_zones(R->rapl);
  uint64_t a[32], b[32];
  double dur = R->o->quick ? 0.25 : 1.0;
  int rc;
  if ((rc = dcsim_rapl_read(R->rapl, a, err))) return rc;
  double t0 = now_s();
  struct timespec ts = { (time_t)dur, (long)((dur - (double)(time_t)dur) * 1e9) };
  nanosleep(&ts, NULL);
  if ((rc = dcsim_rapl_read(R->rapl, b, err))) return rc;
  double t = now_s() - t0;
  fprintf(csv, "%s,idle,PKG,%.4g,W,measured: RAPL %.2f s asleep\n", R->freq_id,
          dcsim_rapl_domain_j(R->rapl, DCSIM_RAPL_PKG, a, b) / t, t);
  fprintf(csv, "%s,idle,DRAM,%.4g,W,measured: RAPL %.2f s asleep\n", R->freq_id,
          dcsim_rapl_domain_j(R->rapl, DCSIM_RAPL_DRAM, a, b) / t, t);
  (void)nz;
  for (unsigned n = 1; n <= R->nthreads; n++) {
    fma_ctx fc;
    memset(&fc, 0, sizeof fc);
    fc.isa = R->isa;
    if ((rc = dcsim_rapl_read(R->rapl, a, err))) return rc;
    double dt = timed(R, n, fma_fn, &fc, (uint64_t)(dur * 2e8), NULL);
    if ((rc = dcsim_rapl_read(R->rapl, b, err))) return rc;
    double pkg = dcsim_rapl_domain_j(R->rapl, DCSIM_RAPL_PKG, a, b) / dt;
    load_ctx lc;
    memset(&lc, 0, sizeof lc);
    lc.isa = R->isa;
    lc.n = level_ws(R, 3) / 8 / 32 * 32;
    on_threads(R, n, load_alloc, &lc);
    if (lc.fail) {
      load_free(&lc, n);
      return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    }
    if ((rc = dcsim_rapl_read(R->rapl, a, err))) {
      load_free(&lc, n);
      return rc;
    }
    double dt2 = timed(R, n, load_fn, &lc, 4, NULL);
    rc = dcsim_rapl_read(R->rapl, b, err);
    load_free(&lc, n);
    if (rc) return rc;
    double dram = dcsim_rapl_domain_j(R->rapl, DCSIM_RAPL_DRAM, a, b) / dt2;
    fprintf(csv,
            "%s,%u,PKG,%.4g,W,measured: RAPL (PKG under the FMA kernel; DRAM under the DRAM load "
            "kernel)\n",
            R->freq_id, n, pkg);
    fprintf(csv,
            "%s,%u,DRAM,%.4g,W,measured: RAPL (PKG under the FMA kernel; DRAM under the DRAM load "
            "kernel)\n",
            R->freq_id, n, dram);
    progress(R, "RAPL %u core(s): PKG %.2f W, DRAM %.2f W", n, pkg, dram);
  }
  return 0;
}

/* ---- machine facts ---- */

static void machine_info(run *R) {
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

static int mkdir_p1(const char *d, dcsim_error *err) {
  struct stat st;
  if (stat(d, &st) == 0)
    return S_ISDIR(st.st_mode) ? 0
                               : DCSIM_ERR(err, DCSIM_EIO, d, 0, "exists and is not a directory");
  if (mkdir(d, 0777) != 0)
    return DCSIM_ERR(err, DCSIM_EIO, d, 0, "cannot create: %s", strerror(errno));
  return 0;
}

static FILE *open_out(const run *R, const char *file, char *path, size_t size, dcsim_error *err) {
  snprintf(path, size, "%s/%s", R->o->out_dir, file);
  FILE *f = fopen(path, "w");
  if (!f) DCSIM_ERR(err, DCSIM_EIO, path, 0, "cannot write: %s", strerror(errno));
  return f;
}

static int write_tables(run *R, int have_energy, dcsim_error *err) {
  char path[4096];
  const char *files[5] = { "flops.csv", "L1.csv", "L2.csv", "L3.csv", "DRAM.csv" };
  for (int q = 0; q < 5; q++) {
    FILE *f = open_out(R, files[q], path, sizeof path, err);
    if (!f) return err ? err->code : DCSIM_EIO;
    fprintf(f,
            "# measured by dcsim bench: %s; value = median of the repetitions, min and max kept;\n"
            "# clock_ghz = core clock probed on every thread just before each repetition (mean)\n"
            "frequency,threads,value,unit,min,max,reps,clock_ghz,ws_byte\n",
            q == 0 ? "vectorised FMA kernel, pinned OpenMP threads"
                   : "read (load) kernel, working set per thread sized from the sysfs caches");
    for (size_t i = 0; i < R->np; i++) {
      const point *p = &R->pts[i];
      if (q == 0 ? strcmp(p->phase, "peak") != 0
                 : (strcmp(p->phase, "bw") != 0 || strcmp(p->level, levels[q - 1]) != 0))
        continue;
      fprintf(f, "%s,%u,%.4f,%s,%.4f,%.4f,%u,%.3f,%.0f\n", R->freq_id, p->threads, p->med, p->unit,
              p->min, p->max, p->reps, p->clock_ghz, p->ws_byte);
    }
    if (fclose(f) != 0) return DCSIM_ERR(err, DCSIM_EIO, path, 0, "write error");
  }
  FILE *f = open_out(R, "machine.xml", path, sizeof path, err);
  if (!f) return err ? err->code : DCSIM_EIO;
  fprintf(f,
          "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- Calibration manifest written by dcsim "
          "bench (doc/calibration.md). -->\n<calibration-machine name=\"");
  dcsim__xml_escape(f, R->name);
  fputs("\" model=\"", f);
  dcsim__xml_escape(f, R->model);
  fputs("\">\n  <comment>", f);
  fprintf(f, "%s measured by dcsim bench %s on host ", R->model, dcsim_version());
  dcsim__xml_escape(f, R->host);
  fprintf(f,
          " (%u CPUs used, kernels %s%s).\n     * Tables: medians of %u repetitions (min and max "
          "in the CSV files); working sets per thread\n"
          "       L1 %zu B, L2 %zu B, L3 %zu B, DRAM %zu B, from the sysfs cache sizes.\n     * "
          "Frequency: ",
          R->nthreads, dcsim_bench_isa_name(R->isa), R->o->quick ? ", quick mode" : "", R->reps,
          level_ws(R, 0), level_ws(R, 1), level_ws(R, 2), level_ws(R, 3));
  dcsim__xml_escape(f, R->freq_note);
  fputs("\n     * Energy: ", f);
  dcsim__xml_escape(f, R->energy_note);
  fputs("</comment>\n", f);
  fprintf(f,
          "  <spec cores-per-socket=\"%u\" sockets=\"1\" nominal-ghz=\"%s\" l1-byte=\"%.0f\" "
          "l2-byte=\"%.0f\"",
          R->nthreads, R->freq_id, R->c.l1d_byte, R->c.l2_byte);
  if (R->c.l3_byte > 0) fprintf(f, " l3-byte=\"%.0f\"", R->c.l3_byte);
  fprintf(f,
          " isa=\"%s\" source=\"measured: dcsim bench (sysfs caches, CPUs of the affinity mask, "
          "clock probe)\"/>\n",
          dcsim_bench_isa_name(R->isa));
  fprintf(f, "  <frequencies>\n    <freq id=\"%s\" ghz=\"%s\" source=\"", R->freq_id, R->freq_id);
  dcsim__xml_escape(f, R->freq_note);
  fputs("\"/>\n  </frequencies>\n", f);
  for (int q = 0; q < 5; q++)
    fprintf(f,
            "  <table quantity=\"%s\" file=\"%s\" source=\"measured: dcsim bench, %s kernel\"/>\n",
            q ? levels[q - 1] : "flops", files[q], q ? "load" : "FMA");
  if (have_energy)
    fprintf(f,
            "  <energy file=\"power.csv\" freq=\"%s\" other-frequencies=\"error\" "
            "source=\"measured: dcsim bench, RAPL (powercap)\"/>\n",
            R->freq_id);
  fputs("</calibration-machine>\n", f);
  if (fclose(f) != 0) return DCSIM_ERR(err, DCSIM_EIO, path, 0, "write error");
  return 0;
}

static int write_loops(run *R, dcsim_error *err) {
  char path[4096];
  FILE *f = open_out(R, "loops.csv", path, sizeof path, err);
  if (!f) return err ? err->code : DCSIM_EIO;
  fputs(
      "# loop kernels measured by dcsim bench: time_s is the median of the repetitions of `passes` "
      "passes\n"
      "# over n_elem elements per thread; Q counts the bytes loaded and stored by the code, W its "
      "flops\n"
      "loop,frequency,threads,traffic_byte,work_flop,time_s,time_min_s,time_max_s,n_elem,passes,"
      "clock_ghz\n",
      f);
  for (size_t i = 0; i < R->np; i++) {
    const point *p = &R->pts[i];
    if (strcmp(p->phase, "loop") != 0) continue;
    fprintf(f, "%s,%s,%u,%.6g,%.6g,%.6g,%.6g,%.6g,%zu,%llu,%.3f\n", p->kernel, R->freq_id,
            p->threads, p->traffic_byte, p->work_flop, p->med, p->min, p->max, p->n_elem,
            (unsigned long long)p->passes, p->clock_ghz);
  }
  if (fclose(f) != 0) return DCSIM_ERR(err, DCSIM_EIO, path, 0, "write error");
  /* the dwarf: W and Q formulas per loop, placeholder coefficients replaced by the fit */
  f = open_out(R, "bench-kernels.xml", path, sizeof path, err);
  if (!f) return err ? err->code : DCSIM_EIO;
  fputs(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- The loop kernels of dcsim bench as a "
      "dwarf: W and Q per element (Q = bytes loaded and stored by\n"
      "     the code, the convention of Intel Advisor used by D3.5 4.3); coefficients fitted by "
      "dcsim bench from\n"
      "     loops.csv (doc/calibration.md). N_L2, N_DRAM: elements per thread of the L2- and "
      "DRAM-sized working\n"
      "     sets; THREADS: threads, each with its own arrays; ITER: passes. -->\n"
      "<dwarf name=\"bench-kernels\" device=\"cpu\" description=\"dcsim bench loop kernels\" "
      "source=\"measured: dcsim bench\">\n"
      "  <parameters>\n    <param name=\"N_L2\" description=\"elements per thread, L2-sized "
      "working set\"/>\n"
      "    <param name=\"N_DRAM\" description=\"elements per thread, DRAM-sized working set\"/>\n"
      "    <param name=\"THREADS\" description=\"threads\"/>\n    <param name=\"ITER\" "
      "description=\"passes over the arrays\"/>\n  </parameters>\n",
      f);
  size_t nl2 = 0, nd = 0;
  for (size_t i = 0; i < R->np; i++)
    if (strcmp(R->pts[i].phase, "loop") == 0 && strncmp(R->pts[i].kernel, "triad.", 6) == 0) {
      if (strcmp(R->pts[i].level, "L2") == 0)
        nl2 = R->pts[i].n_elem;
      else
        nd = R->pts[i].n_elem;
    }
  fprintf(f,
          "  <case name=\"triad-size\" source=\"measured: dcsim bench (the triad working sets, one "
          "pass, one thread)\">\n"
          "    <set name=\"N_L2\" value=\"%zu\"/>\n    <set name=\"N_DRAM\" value=\"%zu\"/>\n    "
          "<set name=\"THREADS\" value=\"1\"/>\n"
          "    <set name=\"ITER\" value=\"1\"/>\n  </case>\n  <loops>\n",
          nl2 ? nl2 : 1, nd ? nd : 1);
  for (int ci = 0; ci < 2; ci++)
    for (int k = 0; k < DCSIM_LOOP_COUNT; k++) {
      const dcsim_bench_loop_info *li = dcsim_bench_loop((dcsim_bench_loop_kind)k);
      const char *cls = ci ? "DRAM" : "L2";
      fprintf(f,
              "    <loop name=\"%s.%s\" work-flop=\"%g*N_%s*THREADS*ITER\" "
              "traffic-byte=\"%g*N_%s*THREADS*ITER\" source=\"dcsim bench kernel: %s\">\n"
              "      <mop V=\"0\" X=\"0\" Y=\"0\" Z=\"1\" source=\"placeholder\"/>\n",
              li->name, cls, li->flop_per_elem, cls, li->byte_per_elem, cls, li->code);
      if (li->flop_per_elem > 0)
        fputs("      <flop U=\"1\" s-flops=\"0\" source=\"placeholder\"/>\n", f);
      fputs("    </loop>\n", f);
    }
  fputs("  </loops>\n</dwarf>\n", f);
  if (fclose(f) != 0) return DCSIM_ERR(err, DCSIM_EIO, path, 0, "write error");
  return 0;
}

typedef struct heldout {
  char loop[32];
  unsigned threads;
  double measured_s, predicted_s, insample_s;
} heldout;

/* Predicted time of the loop point p with the dwarf file dw: the same path as `dcsim model`. */
static int predict(const char *dw, const dcsim_cpu_profile_t *cpu, const run *R, const point *p,
                   double *t_s, dcsim_error *err) {
  dcsim_dwarf_t *d = NULL;
  dcsim_dwarf_eval *ev = NULL;
  dcsim_prediction pr;
  memset(&pr, 0, sizeof pr);
  int rc = dcsim_dwarf_load(dw, &d, err);
  if (rc) return rc;
  int l2 = strcmp(p->level, "L2") == 0;
  dcsim_binding b[4] = { { "N_L2", l2 ? (double)p->n_elem : 1, "bench", 0 },
                         { "N_DRAM", l2 ? 1 : (double)p->n_elem, "bench", 0 },
                         { "THREADS", p->threads, "bench", 0 },
                         { "ITER", (double)p->passes, "bench", 0 } };
  if ((rc = dcsim_dwarf_evaluate(d, NULL, b, 4, &ev, err))) goto out;
  dcsim_model_req rq;
  memset(&rq, 0, sizeof rq);
  rq.ev = ev;
  rq.cpu = cpu;
  rq.nodes = 1;
  if ((rc = dcsim_cpu_profile_freq(cpu, R->freq_id, &rq.state, err))) goto out;
  rq.state.threads = p->threads;
  rq.energy_form = DCSIM_ENERGY_NONE;
  if ((rc = dcsim_model_run(&rq, &pr, err))) goto out;
  rc = DCSIM_ERR(err, DCSIM_EREF, dw, 0, "loop %s not in the model result", p->kernel);
  for (size_t l = 0; l < pr.cpu->n_loops; l++)
    if (strcmp(pr.cpu->parts[l].name, p->kernel) == 0) {
      *t_s = pr.cpu->parts[l].time_s;
      rc = 0;
    }
out:
  dcsim_prediction_release(&pr);
  dcsim_dwarf_eval_free(ev);
  dcsim_dwarf_free(d);
  return rc;
}

static int fit_and_heldout(run *R, const dcsim_cpu_profile_t *cpu, const char *profile_path,
                           heldout **ho, size_t *nho, dcsim_loop_fit **fits_out, size_t *nfits,
                           dcsim_error *err) {
  char loops[4096], dw[4096], fold[4096];
  snprintf(loops, sizeof loops, "%s/loops.csv", R->o->out_dir);
  snprintf(dw, sizeof dw, "%s/bench-kernels.xml", R->o->out_dir);
  snprintf(fold, sizeof fold, "%s/.heldout-fold.xml", R->o->out_dir);
  dcsim_loop_fit *fits = NULL;
  size_t nf = 0;
  dcsim_loop_fit_opts o = { DCSIM_FIT_LAD, DCSIM_FIT_LSQ, NULL, 0 };
  char src[4608];
  snprintf(src, sizeof src,
           "fitted: dcsim bench (LAD V,X,Y,Z; least-squares U,S) on all thread counts against %s",
           profile_path);
  int rc = dcsim_calib_fit_loops(loops, cpu, &o, &fits, &nf, err);
  if (!rc) rc = dcsim_calib_update_dwarf(dw, dw, fits, nf, src, err);
  if (rc) {
    free(fits);
    return rc;
  }
  *fits_out = fits;
  *nfits = nf;
  heldout *h = calloc(R->np ? R->np : 1, sizeof *h);
  if (!h) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  size_t n = 0;
  for (unsigned t = 1; t <= R->nthreads && R->nthreads >= 2; t++) {
    dcsim_loop_fit *ff = NULL;
    size_t nff = 0;
    dcsim_loop_fit_opts of = { DCSIM_FIT_LAD, DCSIM_FIT_LSQ, NULL, t };
    snprintf(src, sizeof src, "fitted without the %u-thread measurements (held-out test)", t);
    if ((rc = dcsim_calib_fit_loops(loops, cpu, &of, &ff, &nff, err)) ||
        (rc = dcsim_calib_update_dwarf(dw, fold, ff, nff, src, err))) {
      free(ff);
      break;
    }
    free(ff);
    for (size_t i = 0; i < R->np && !rc; i++) {
      const point *p = &R->pts[i];
      if (strcmp(p->phase, "loop") != 0 || p->threads != t) continue;
      heldout *x = &h[n];
      snprintf(x->loop, sizeof x->loop, "%s", p->kernel);
      x->threads = t;
      x->measured_s = p->med;
      if (!(rc = predict(fold, cpu, R, p, &x->predicted_s, err)) &&
          !(rc = predict(dw, cpu, R, p, &x->insample_s, err)))
        n++;
    }
    remove(fold);
    if (rc) break;
  }
  if (rc) {
    free(h);
    return rc;
  }
  *ho = h;
  *nho = n;
  return 0;
}

static const char *const bench_schema_sql =
    "CREATE TABLE IF NOT EXISTS bench_runs(id INTEGER PRIMARY KEY, created_utc TEXT, "
    "dcsim_version TEXT, host TEXT,"
    " cpu_model TEXT, profile_name TEXT, out_dir TEXT, profile_path TEXT, isa TEXT, threads "
    "INTEGER, quick INTEGER,"
    " reps INTEGER, budget INTEGER, clock_ghz REAL, clock_note TEXT, l1d_byte REAL, l2_byte "
    "REAL, l3_byte REAL,"
    " energy_note TEXT, gpu_note TEXT, heldout_mean_abs_err REAL, heldout_max_abs_err REAL);"
    "CREATE TABLE IF NOT EXISTS bench_points(run_id INTEGER REFERENCES bench_runs(id), phase "
    "TEXT, kernel TEXT, level TEXT,"
    " ws_byte REAL, threads INTEGER, reps INTEGER, min REAL, median REAL, max REAL, unit TEXT, "
    "clock_ghz REAL,"
    " passes INTEGER, traffic_byte REAL, work_flop REAL);"
    "CREATE TABLE IF NOT EXISTS bench_fits(run_id INTEGER REFERENCES bench_runs(id), loop TEXT, "
    "states INTEGER,"
    " V REAL, X REAL, Y REAL, Z REAL, U REAL, S_flops REAL, mop_max_rel_err REAL, "
    "mop_mean_rel_err REAL,"
    " mop_loo_mean_rel_err REAL);"
    "CREATE TABLE IF NOT EXISTS bench_heldout(run_id INTEGER REFERENCES bench_runs(id), loop "
    "TEXT, threads INTEGER,"
    " measured_s REAL, predicted_s REAL, rel_err REAL, insample_s REAL);";

/* what every failure after the schema says */
static const char bench_db_fail[] = "cannot record the bench run";

/* the bench_runs row: the machine, the options and the held-out errors; *run_id its id */
static int insert_run(sqlite3 *db, const run *R, const char *profile_path, const heldout *ho,
                      size_t nho, int64_t *run_id, dcsim_error *err) {
  const char *path = R->o->db_path;
  sqlite3_stmt *st = NULL;
  double emean = 0, emax = 0;
  for (size_t i = 0; i < nho; i++) {
    double e = fabs(ho[i].predicted_s - ho[i].measured_s) / ho[i].measured_s;
    emean += e / (double)nho;
    if (e > emax) emax = e;
  }
  char stamp[32];
  dcsim__db_utc_now(stamp);
  int rc = dcsim__db_prepare(db, path,
                             "INSERT INTO bench_runs(created_utc, dcsim_version, host, cpu_model, "
                             "profile_name, out_dir, profile_path, isa,"
                             " threads, quick, reps, budget, clock_ghz, clock_note, l1d_byte, "
                             "l2_byte, l3_byte, energy_note, gpu_note,"
                             " heldout_mean_abs_err, heldout_max_abs_err) "
                             "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                             &st, bench_db_fail, err);
  if (rc) return rc;
  sqlite3_bind_text(st, 1, stamp, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text(st, 2, dcsim_version(), -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 3, R->host, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 4, R->model, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 5, R->name, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 6, R->o->out_dir, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 7, profile_path, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 8, dcsim_bench_isa_name(R->isa), -1, SQLITE_STATIC);
  sqlite3_bind_int(st, 9, (int)R->nthreads);
  sqlite3_bind_int(st, 10, R->o->quick);
  sqlite3_bind_int(st, 11, (int)R->reps);
  sqlite3_bind_int(st, 12, (int)R->o->budget);
  sqlite3_bind_double(st, 13, R->ghz);
  sqlite3_bind_text(st, 14, R->freq_note, -1, SQLITE_STATIC);
  sqlite3_bind_double(st, 15, R->c.l1d_byte);
  sqlite3_bind_double(st, 16, R->c.l2_byte);
  sqlite3_bind_double(st, 17, R->c.l3_byte);
  sqlite3_bind_text(st, 18, R->energy_note, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 19, R->gpu_note, -1, SQLITE_STATIC);
  if (nho) {
    sqlite3_bind_double(st, 20, emean);
    sqlite3_bind_double(st, 21, emax);
  }
  rc = dcsim__db_step_done(db, path, st, bench_db_fail, err);
  sqlite3_finalize(st);
  if (!rc) *run_id = sqlite3_last_insert_rowid(db);
  return rc;
}

/* every measured point */
static int insert_points(sqlite3 *db, const run *R, int64_t run_id, dcsim_error *err) {
  const char *path = R->o->db_path;
  sqlite3_stmt *st = NULL;
  int rc =
      dcsim__db_prepare(db, path, "INSERT INTO bench_points VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                        &st, bench_db_fail, err);
  for (size_t i = 0; i < R->np && !rc; i++) {
    const point *p = &R->pts[i];
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_text(st, 2, p->phase, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, p->kernel, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, p->level, -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 5, p->ws_byte);
    sqlite3_bind_int(st, 6, (int)p->threads);
    sqlite3_bind_int(st, 7, (int)p->reps);
    sqlite3_bind_double(st, 8, p->min);
    sqlite3_bind_double(st, 9, p->med);
    sqlite3_bind_double(st, 10, p->max);
    sqlite3_bind_text(st, 11, p->unit, -1, SQLITE_STATIC);
    sqlite3_bind_double(st, 12, p->clock_ghz);
    sqlite3_bind_int64(st, 13, (sqlite3_int64)p->passes);
    sqlite3_bind_double(st, 14, p->traffic_byte);
    sqlite3_bind_double(st, 15, p->work_flop);
    rc = dcsim__db_step_done(db, path, st, bench_db_fail, err);
  }
  sqlite3_finalize(st);
  return rc;
}

/* the loop coefficients (NULL where a loop has no flop term or a value is unknown) */
static int insert_fits(sqlite3 *db, const run *R, const dcsim_loop_fit *fits, size_t nf,
                       int64_t run_id, dcsim_error *err) {
  const char *path = R->o->db_path;
  sqlite3_stmt *st = NULL;
  int rc = dcsim__db_prepare(db, path, "INSERT INTO bench_fits VALUES(?,?,?,?,?,?,?,?,?,?,?,?)",
                             &st, bench_db_fail, err);
  for (size_t i = 0; i < nf && !rc; i++) {
    const dcsim_loop_fit *f = &fits[i];
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_text(st, 2, f->name, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, (int)f->n_states);
    double v[9] = { f->V,
                    f->X,
                    f->Y,
                    f->Z,
                    f->U,
                    f->S_flops,
                    f->mop_stats.max_rel_err,
                    f->mop_stats.mean_rel_err,
                    f->mop_stats.loo_mean_rel_err };
    for (int k = 0; k < 9; k++) {
      if ((k == 4 || k == 5) && !f->has_flop)
        sqlite3_bind_null(st, 4 + k);
      else if (isnan(v[k]))
        sqlite3_bind_null(st, 4 + k);
      else
        sqlite3_bind_double(st, 4 + k, v[k]);
    }
    rc = dcsim__db_step_done(db, path, st, bench_db_fail, err);
  }
  sqlite3_finalize(st);
  return rc;
}

/* the held-out predictions */
static int insert_heldout(sqlite3 *db, const run *R, const heldout *ho, size_t nho, int64_t run_id,
                          dcsim_error *err) {
  const char *path = R->o->db_path;
  sqlite3_stmt *st = NULL;
  int rc = dcsim__db_prepare(db, path, "INSERT INTO bench_heldout VALUES(?,?,?,?,?,?,?)", &st,
                             bench_db_fail, err);
  for (size_t i = 0; i < nho && !rc; i++) {
    sqlite3_bind_int64(st, 1, run_id);
    sqlite3_bind_text(st, 2, ho[i].loop, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, (int)ho[i].threads);
    sqlite3_bind_double(st, 4, ho[i].measured_s);
    sqlite3_bind_double(st, 5, ho[i].predicted_s);
    sqlite3_bind_double(st, 6, (ho[i].predicted_s - ho[i].measured_s) / ho[i].measured_s);
    sqlite3_bind_double(st, 7, ho[i].insample_s);
    rc = dcsim__db_step_done(db, path, st, bench_db_fail, err);
  }
  sqlite3_finalize(st);
  return rc;
}

/* the whole bench run into --db, in one transaction */
static int write_db(run *R, const char *profile_path, const heldout *ho, size_t nho,
                    const dcsim_loop_fit *fits, size_t nf, int64_t *run_id, dcsim_error *err) {
  const char *path = R->o->db_path;
  sqlite3 *db = NULL;
  int rc = dcsim__db_open(path, NULL, 0, &db, err);
  if (rc || (rc = dcsim__db_begin(db, path, err)) ||
      (rc = dcsim__db_exec(db, path, bench_schema_sql, err)))
    goto out;
  if ((rc = insert_run(db, R, profile_path, ho, nho, run_id, err)) ||
      (rc = insert_points(db, R, *run_id, err)) ||
      (rc = insert_fits(db, R, fits, nf, *run_id, err)) ||
      (rc = insert_heldout(db, R, ho, nho, *run_id, err))) {
    dcsim__db_rollback(db);
    goto out;
  }
  if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
    rc = dcsim__db_fail(db, path, bench_db_fail, err);
    dcsim__db_rollback(db);
  }
out:
  sqlite3_close(db);
  return rc;
}

static const point *find(const run *R, const char *phase, const char *level, unsigned n) {
  for (size_t i = 0; i < R->np; i++)
    if (strcmp(R->pts[i].phase, phase) == 0 && strcmp(R->pts[i].level, level) == 0 &&
        R->pts[i].threads == n)
      return &R->pts[i];
  return NULL;
}

static void report(run *R, const char *profile_path, const heldout *ho, size_t nho,
                   const dcsim_loop_fit *fits, size_t nf, int64_t run_id) {
  FILE *f = R->o->report;
  if (!f) return;
  fprintf(f, "machine   %s (host %s), %u CPU(s) used, kernels %s\n", R->model, R->host, R->nthreads,
          dcsim_bench_isa_name(R->isa));
  fprintf(f, "caches    L1d %.0f KiB, L2 %.0f KiB, L3 %.0f KiB (sysfs)\n", R->c.l1d_byte / 1024,
          R->c.l2_byte / 1024, R->c.l3_byte / 1024);
  fprintf(f, "clock     %s GHz: %s\n", R->freq_id, R->freq_note);
  fprintf(f, "energy    %s\n", R->energy_note);
  fprintf(f, "gpu       %s\n", R->gpu_note);
  fprintf(f, "\nmedian of %u repetitions [min-max]\n%7s %22s", R->reps, "threads", "peak GFLOP/s");
  for (int lv = 0; lv < 4; lv++)
    fprintf(f, " %22s",
            lv == 0   ? "L1 GB/s"
            : lv == 1 ? "L2 GB/s"
            : lv == 2 ? "L3 GB/s"
                      : "DRAM GB/s");
  fputc('\n', f);
  for (unsigned n = 1; n <= R->nthreads; n++) {
    fprintf(f, "%7u", n);
    const point *p = find(R, "peak", "", n);
    char cell[64];
    snprintf(cell, sizeof cell, "%.2f [%.2f-%.2f]", p ? p->med : NAN, p ? p->min : NAN,
             p ? p->max : NAN);
    fprintf(f, " %22s", cell);
    for (int lv = 0; lv < 4; lv++) {
      p = find(R, "bw", levels[lv], n);
      snprintf(cell, sizeof cell, "%.2f [%.2f-%.2f]", p ? p->med : NAN, p ? p->min : NAN,
               p ? p->max : NAN);
      fprintf(f, " %22s", cell);
    }
    fputc('\n', f);
  }
  fprintf(f,
          "\nloop coefficients (fitted on all thread counts; Tmop = 1/(L1 V + L2 X + L3 Y + DRAM "
          "Z), Tflop = 1/(P U + S))\n");
  fprintf(f, "%-16s %10s %10s %10s %10s %10s %12s %9s\n", "loop", "V", "X", "Y", "Z", "U",
          "S [flop/s]", "fit err");
  for (size_t i = 0; i < nf; i++) {
    fprintf(f, "%-16s %10.4g %10.4g %10.4g %10.4g", fits[i].name, fits[i].V, fits[i].X, fits[i].Y,
            fits[i].Z);
    if (fits[i].has_flop)
      fprintf(f, " %10.4g %12.4g", fits[i].U, fits[i].S_flops);
    else
      fprintf(f, " %10s %12s", "-", "-");
    fprintf(f, " %8.2f%%\n", 100 * fits[i].mop_stats.max_rel_err);
  }
  if (nho) {
    fprintf(f,
            "\nheld-out test: each thread count predicted by `dcsim model` with coefficients "
            "fitted without it\n");
    fprintf(f, "%-16s %7s %12s %12s %9s %12s %9s\n", "loop", "threads", "measured s", "predicted s",
            "error", "in-sample s", "error");
    double emean = 0, emax = 0, imean = 0;
    for (size_t i = 0; i < nho; i++) {
      double e = (ho[i].predicted_s - ho[i].measured_s) / ho[i].measured_s,
             ei = (ho[i].insample_s - ho[i].measured_s) / ho[i].measured_s;
      fprintf(f, "%-16s %7u %12.4g %12.4g %8.1f%% %12.4g %8.1f%%\n", ho[i].loop, ho[i].threads,
              ho[i].measured_s, ho[i].predicted_s, 100 * e, ho[i].insample_s, 100 * ei);
      emean += fabs(e) / (double)nho;
      imean += fabs(ei) / (double)nho;
      if (fabs(e) > emax) emax = fabs(e);
    }
    fprintf(f,
            "held-out error: mean |error| %.1f %%, max %.1f %% over %zu predictions (in-sample "
            "mean %.1f %%)\n",
            100 * emean, 100 * emax, nho, 100 * imean);
  } else {
    fprintf(f, "\nheld-out test: needs at least two thread counts (this run measured one)\n");
  }
  fprintf(
      f, "\nwrote     %s (profile), %s/bench-kernels.xml (dwarf), CSV tables and loops.csv in %s\n",
      profile_path, R->o->out_dir, R->o->out_dir);
  if (run_id > 0) fprintf(f, "database  %s, bench run %lld\n", R->o->db_path, (long long)run_id);
}

/* R for this machine: the CPUs of the affinity mask (saved in *saved, restored by the caller), the
 * thread count, repetitions and kernels */
static int run_init(run *R, const dcsim_bench_opts *o, cpu_set_t *saved, dcsim_error *err) {
  memset(R, 0, sizeof *R);
  R->o = o;
  if (sched_getaffinity(0, sizeof *saved, saved) != 0)
    return DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0, "cannot read the CPU affinity mask: %s",
                     strerror(errno));
  for (unsigned c = 0; c < CPU_SETSIZE && R->ncpu < MAXT; c++)
    if (CPU_ISSET(c, saved)) R->cpus[R->ncpu++] = c;
  R->nthreads = o->max_threads && o->max_threads < R->ncpu ? o->max_threads : R->ncpu;
  R->reps = o->reps ? o->reps : (o->quick ? 3 : 5);
  R->target_s = o->quick ? 0.02 : 0.1;
  R->isa = dcsim_bench_isa_best();
  omp_set_dynamic(0);
  machine_info(R);
  return 0;
}

/* the energy meters: RAPL for the CPUs (kept open in R->rapl), nvidia-smi's idle reading for GPUs;
 * what was found, or why nothing was, goes into the notes */
static void probe_meters(run *R) {
  const dcsim_bench_opts *o = R->o;
  dcsim_error e2;
  memset(&e2, 0, sizeof e2);
  if (dcsim_rapl_open(o->powercap ? o->powercap : "/sys/class/powercap", &R->rapl, &e2) == 0) {
    snprintf(R->energy_note, sizeof R->energy_note, "RAPL through powercap: %zu zone(s)",
             dcsim_rapl_n_zones(R->rapl));
  } else {
    char b[1200];
    dcsim_error_format(&e2, b, sizeof b);
    snprintf(R->energy_note, sizeof R->energy_note, "not measured: %s", b);
  }
  progress(R, "energy: %s", R->energy_note);
  dcsim_gpu_power g[8];
  size_t ng = 0;
  if (dcsim_nvsmi_query(g, 8, &ng, &e2) == 0 && ng) {
    size_t k = (size_t)snprintf(R->gpu_note, sizeof R->gpu_note, "%zu NVIDIA GPU(s):", ng);
    for (size_t i = 0; i < ng && k < sizeof R->gpu_note; i++)
      k += (size_t)snprintf(R->gpu_note + k, sizeof R->gpu_note - k,
                            " %s %.1f W of %.0f W at %.0f MHz (idle, nvidia-smi);", g[i].name,
                            g[i].power_w, g[i].limit_w, g[i].sm_clock_mhz);
  } else {
    snprintf(R->gpu_note, sizeof R->gpu_note, "%s", e2.msg);
  }
}

/* The clock the measurements ran at: the median of the probes taken before each repetition, else
 * /proc/cpuinfo's (said to be an assumption); never a guess (doc/calibration.md). */
static int settle_clock(run *R, double idle_clk, dcsim_error *err) {
  char cpufreq[64] = "absent";
  FILE *cf = fopen("/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", "r");
  if (cf) {
    long khz = 0;
    if (fscanf(cf, "%ld", &khz) == 1) snprintf(cpufreq, sizeof cpufreq, "%.0f MHz", khz / 1e3);
    fclose(cf);
  }
  if (R->nclk) {
    qsort(R->clk, R->nclk, sizeof *R->clk, cmp_d);
    R->ghz = R->clk[R->nclk / 2];
    snprintf(
        R->freq_note, sizeof R->freq_note,
        "measured: dependent-add clock probe on every thread before each repetition, median of %zu "
        "probes %.3f GHz (range %.3f-%.3f; idle %.3f); /proc/cpuinfo %.0f MHz; cpufreq %s",
        R->nclk, R->ghz, R->clk[0], R->clk[R->nclk - 1], idle_clk, R->cpuinfo_mhz, cpufreq);
  } else if (R->cpuinfo_mhz > 0) {
    R->ghz = R->cpuinfo_mhz / 1e3;
    snprintf(
        R->freq_note, sizeof R->freq_note,
        "assumption: /proc/cpuinfo cpu MHz %.0f (no clock probe on this architecture); cpufreq %s",
        R->cpuinfo_mhz, cpufreq);
  } else {
    return DCSIM_ERR(
        err, DCSIM_EINTERNAL, "", 0,
        "cannot determine the CPU clock (no probe, no /proc/cpuinfo MHz); refusing to assume one");
  }
  snprintf(R->freq_id, sizeof R->freq_id, "%.2f", R->ghz);
  return 0;
}

/* the measurement phases (the clock probed before them, at idle), then the clock they ran at */
static int run_phases(run *R, dcsim_error *err) {
  double idle_clk = 0;
  for (int i = 0; i < 5; i++) {
    double c = dcsim_bench_clock_probe_ghz(1u << 22);
    if (c > idle_clk) idle_clk = c;
  }
  int rc;
  if ((rc = phase_peak(R, err)) || (rc = phase_bandwidth(R, err)) || (rc = phase_loops(R, err)) ||
      (R->o->budget && (rc = phase_hvs(R, err))))
    return rc;
  return settle_clock(R, idle_clk, err);
}

/* power.csv from the energy phase when RAPL can be read (*have_energy: it was written) */
static int measure_energy(run *R, int *have_energy, dcsim_error *err) {
  *have_energy = 0;
  if (!R->rapl) return 0;
  char path[4096];
  FILE *pc = open_out(R, "power.csv", path, sizeof path, err);
  if (!pc) return err ? err->code : DCSIM_EIO;
  fprintf(pc,
          "# RAPL power (energy over the sample / its duration) measured by dcsim "
          "bench\nfrequency,threads,domain,value,unit,source\n");
  int rc = phase_energy(R, pc, err);
  if (fclose(pc) != 0 && !rc) rc = DCSIM_ERR(err, DCSIM_EIO, path, 0, "write error");
  *have_energy = rc == 0;
  return rc;
}

/* the calibration directory and the profile written from it, loaded back to fit the loops and
 * predict the held-out thread counts; then the database and the report */
static int write_results(run *R, int have_energy, dcsim_error *err) {
  const dcsim_bench_opts *o = R->o;
  char *text = NULL;
  dcsim_cpu_profile_t *cpu = NULL;
  heldout *ho = NULL;
  dcsim_loop_fit *fits = NULL;
  size_t nho = 0, nf = 0;
  int64_t run_id = 0;
  char ppath[4096];
  int rc;
  snprintf(ppath, sizeof ppath, "%s/%s.xml", o->out_dir, R->name);
  if ((rc = write_tables(R, have_energy, err)) || (rc = write_loops(R, err)) ||
      (rc = dcsim_calib_cpu_profile(o->out_dir, &text, err)) ||
      (rc = dcsim__file_write_atomic(ppath, text, err)) ||
      (rc = dcsim_cpu_profile_load(ppath, &cpu, err)))
    goto out;
  progress(R, "fitting the loop kernels and predicting held-out thread counts");
  if ((rc = fit_and_heldout(R, cpu, ppath, &ho, &nho, &fits, &nf, err))) goto out;
  if (o->db_path && (rc = write_db(R, ppath, ho, nho, fits, nf, &run_id, err))) goto out;
  report(R, ppath, ho, nho, fits, nf, run_id);
out:
  free(text);
  free(ho);
  free(fits);
  dcsim_cpu_profile_free(cpu);
  return rc;
}

int dcsim_bench_run(const dcsim_bench_opts *o, dcsim_error *err) {
  run R;
  cpu_set_t saved;
  int have_energy = 0;
  int rc = run_init(&R, o, &saved, err);
  if (rc) return rc;
  if ((rc = mkdir_p1(o->out_dir, err)) ||
      (rc = dcsim_bench_read_caches(o->sysfs_cpu ? o->sysfs_cpu : "/sys/devices/system/cpu", &R.c,
                                    err)))
    goto out;
  progress(&R, "%s: %u CPU(s), L1d %.0f KiB, L2 %.0f KiB, L3 %.0f KiB, kernels %s%s", R.model,
           R.nthreads, R.c.l1d_byte / 1024, R.c.l2_byte / 1024, R.c.l3_byte / 1024,
           dcsim_bench_isa_name(R.isa), o->quick ? " (quick)" : "");
  probe_meters(&R);
  if ((rc = run_phases(&R, err)) == 0 && (rc = measure_energy(&R, &have_energy, err)) == 0)
    rc = write_results(&R, have_energy, err);
out:
  sched_setaffinity(0, sizeof saved, &saved);
  dcsim_rapl_close(R.rapl);
  free(R.pts);
  free(R.clk);
  return rc;
}
