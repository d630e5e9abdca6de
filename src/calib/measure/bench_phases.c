/* bench_phases.c — `dcsim bench`'s measurements: warm-up, the thread counts (1, a socket, the
 * node and what HVS picks in between), the peak and bandwidth tables with their monotonicity
 * check, the loop kernels, the HVS bandwidth map and RAPL (doc/calibration.md "dcsim bench"). */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "calib/measure/bench_internal.h"
#include "dcsim/hvs.h"
#include "util/clock.h"
#include "util/record.h"

/* ---- kernel contexts ---- */

typedef struct fma_ctx {
  dcsim_bench_isa isa;
  double sink[BENCH_MAXT], flop[BENCH_MAXT];
} fma_ctx;
static void fma_fn(void *c, unsigned tid, uint64_t passes) {
  fma_ctx *x = c;
  x->flop[tid] = dcsim_bench_fma(x->isa, passes, 1.0, 0.5, &x->sink[tid]);
}

typedef struct load_ctx {
  dcsim_bench_isa isa;
  size_t n;
  double *buf[BENCH_MAXT];
  double sink[BENCH_MAXT];
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
  dcsim_bench_loop_data *d[BENCH_MAXT];
  double sink[BENCH_MAXT];
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

/* ---- working sets ---- */

/* the L3 of the CPUs in use: one instance per l3_shared_cpus CPUs */
static double l3_total(const bench_run *R) {
  const dcsim_bench_caches *c = &R->c;
  double l3 = c->l3_byte > 0 ? c->l3_byte : 4 * c->l2_byte;
  unsigned sh = c->l3_shared_cpus;
  double inst = sh > 0 && sh < R->nthreads ? ceil((double)R->nthreads / sh) : 1;
  return l3 * inst;
}

size_t dcsim__bench_level_ws(const bench_run *R, int lv, unsigned threads) {
  const dcsim_bench_caches *c = &R->c;
  double ws;
  unsigned n = threads ? threads : 1;
  switch (lv) {
    case 0: ws = 0.5 * c->l1d_byte; break;
    case 1:
      ws = 0.5 * c->l2_byte;
      if (ws < 4 * c->l1d_byte) ws = 4 * c->l1d_byte;
      break;
    case 2:
      ws = 0.5 * (c->l3_byte > 0 ? c->l3_byte : 4 * c->l2_byte) / (R->nthreads ? R->nthreads : 1);
      if (ws < 2 * c->l2_byte) ws = 2 * c->l2_byte;
      break;
    default: { /* all threads together 4x the L3 in use (quick 2x), >= 128 MB (quick 64 MB) */
      double total = (R->quick ? 2 : 4) * l3_total(R);
      double floor_b = R->quick ? 64e6 : 128e6;
      ws = (total > floor_b ? total : floor_b) / n;
      if (ws < 4 * c->l2_byte) ws = 4 * c->l2_byte;
      if (ws < 8e6) ws = 8e6;
      break;
    }
  }
  size_t b = (size_t)ws / 256 * 256;
  return b < 256 ? 256 : b;
}

const bench_point *dcsim__bench_find(const bench_run *R, const char *phase, const char *level,
                                     unsigned n) {
  for (size_t i = 0; i < R->np; i++)
    if (strcmp(R->pts[i].phase, phase) == 0 && strcmp(R->pts[i].level, level) == 0 &&
        R->pts[i].threads == n)
      return &R->pts[i];
  return NULL;
}

/* ---- warm-up ---- */

/* The FMA kernel on every thread until the probed clock stops rising (two chunks within 1 %),
 * for at least 0.2 s and at most 4 % of the budget: the clock ramps up from idle and the first
 * measurement would otherwise be slow (37 against 75 GFLOP/s at 1 thread). */
int dcsim__bench_warmup(bench_run *R, dcsim_error *err) {
  (void)err;
  fma_ctx fc;
  memset(&fc, 0, sizeof fc);
  fc.isa = R->isa;
  double start = dcsim__bench_elapsed_s(R), cap = fmax(0.2, 0.04 * R->budget_s), prev = 0, clk = 0;
  dcsim_bench_region rg = { "warmup", "fma", "", R->nthreads, 1u << 16, 0, 0, 1, 0 };
  double t = 0;
  while (t < 0.01 && rg.passes < (1ull << 36)) { /* a chunk of about 50 ms */
    rg.passes *= 4;
    t = dcsim__bench_timed(R, &rg, fma_fn, &fc, NULL);
  }
  if (t > 0 && t < 0.05) rg.passes = (uint64_t)((double)rg.passes * 0.05 / t);
  unsigned chunks = 0;
  for (;;) {
    bench_obs ob;
    dcsim__bench_timed(R, &rg, fma_fn, &fc, &ob);
    clk = ob.clk_ghz;
    chunks++;
    double spent = dcsim__bench_elapsed_s(R) - start;
    int steady = prev > 0 && fabs(clk - prev) <= 0.01 * prev;
    if ((steady && spent >= 0.2) || spent >= cap) break;
    prev = clk;
  }
  dcsim_str_release(&R->warm_note);
  dcsim_str_addf(
      &R->warm_note,
      "%.2f s of the FMA kernel on %u thread(s) (%u chunks), clock %.3f GHz at the end%s",
      dcsim__bench_elapsed_s(R) - start, R->nthreads, chunks, clk,
      prev > 0 && fabs(clk - prev) <= 0.01 * prev ? " (steady)" : " (still changing)");
  dcsim__bench_progress(R, "warm-up: %s", dcsim_str_cstr(&R->warm_note));
  return 0;
}

/* ---- one point ---- */

/* the load kernel over ws bytes per thread on n threads, a point of phase/level */
static int load_point(bench_run *R, const char *phase, const char *level, size_t ws, unsigned n,
                      double allowance_s, dcsim_error *err) {
  load_ctx lc;
  memset(&lc, 0, sizeof lc);
  lc.isa = R->isa;
  lc.n = ws / sizeof(double) / 64 * 64; /* whole iterations of the AVX-512 kernel */
  if (lc.n < 64) lc.n = 64;
  dcsim__bench_on_threads(R, n, load_alloc, &lc);
  bench_point p;
  memset(&p, 0, sizeof p);
  p.threads = n;
  snprintf(p.phase, sizeof p.phase, "%s", phase);
  snprintf(p.kernel, sizeof p.kernel, "load");
  snprintf(p.level, sizeof p.level, "%s", level);
  snprintf(p.unit, sizeof p.unit, "GB/s");
  p.ws_byte = (double)lc.n * 8;
  p.n_elem = lc.n;
  int rc = lc.fail ? DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory (%zu bytes per thread)", ws)
                   : dcsim__bench_measure(R, &p, load_fn, &lc,
                                          dcsim_bench_load_info()->byte_per_elem * (double)lc.n * n,
                                          1, 0, 1e-9, allowance_s, err);
  load_free(&lc, n);
  return rc;
}

/* A DRAM cell: STREAM's triad a = b + s*c (the loop kernel `triad`, its streams placed as
 * dcsim_bench_loop_alloc places them), counted as STREAM and the loop kernels' Q count it, 24 B per
 * element (two loads and a store, no write-allocate). Not the load kernel: one read stream reached
 * 9.4-10.3 GB/s at 1 thread on the development VM where the plain triad reached 10.9-11.1 counted
 * so, and four read streams in lockstep 0.87 of the triad (doc/calibration.md "One thread's DRAM:
 * the triad"); the catalogue's DRAM figures it is compared with (--compare) are triads too
 * (likwid-bench triad, STREAM). */
static int triad_point(bench_run *R, size_t ws, unsigned n, double allowance_s, dcsim_error *err) {
  const dcsim_bench_loop_info *li = dcsim_bench_loop(DCSIM_LOOP_TRIAD);
  loop_ctx lc;
  memset(&lc, 0, sizeof lc);
  lc.k = DCSIM_LOOP_TRIAD;
  lc.n = (size_t)((double)ws / li->footprint_per_elem);
  if (lc.n < 64) lc.n = 64;
  lc.seed = R->o->seed;
  dcsim__bench_on_threads(R, n, loop_alloc, &lc);
  bench_point p;
  memset(&p, 0, sizeof p);
  p.threads = n;
  snprintf(p.phase, sizeof p.phase, "bw");
  snprintf(p.kernel, sizeof p.kernel, "%s", li->name);
  snprintf(p.level, sizeof p.level, "DRAM");
  snprintf(p.unit, sizeof p.unit, "GB/s");
  p.n_elem = lc.n;
  p.ws_byte = (double)lc.n * li->footprint_per_elem;
  int rc = lc.fail ? DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory (%zu bytes per thread)", ws)
                   : dcsim__bench_measure(R, &p, loop_fn, &lc, li->byte_per_elem * (double)lc.n * n,
                                          1, 0, 1e-9, allowance_s, err);
  loop_free(&lc, n);
  return rc;
}

/* quantity q (0 peak, 1..4 L1..DRAM) at n threads within allowance_s */
static int table_point(bench_run *R, int q, unsigned n, double allowance_s, bench_point *out,
                       dcsim_error *err) {
  bench_point p;
  memset(&p, 0, sizeof p);
  p.threads = n;
  int rc = 0;
  if (q == 0) {
    fma_ctx fc;
    memset(&fc, 0, sizeof fc);
    fc.isa = R->isa;
    double dummy, per_iter = dcsim_bench_fma(R->isa, 1, 1.0, 0.5, &dummy); /* flop/iteration */
    snprintf(p.phase, sizeof p.phase, "peak");
    snprintf(p.kernel, sizeof p.kernel, "fma-%s", dcsim_bench_isa_name(R->isa));
    snprintf(p.unit, sizeof p.unit, "GFLOP/s");
    rc =
        dcsim__bench_measure(R, &p, fma_fn, &fc, per_iter * n, 1u << 16, 0, 1e-9, allowance_s, err);
  } else if (q == 4) {
    rc = triad_point(R, dcsim__bench_level_ws(R, 3, n), n, allowance_s, err);
  } else {
    rc = load_point(R, "bw", dcsim__bench_level_name(q - 1), dcsim__bench_level_ws(R, q - 1, n), n,
                    allowance_s, err);
  }
  if (!rc && out) *out = R->pts[R->np - 1];
  return rc;
}

static const char *q_phase(int q) { return q == 0 ? "peak" : "bw"; }
static const char *q_level(int q) { return q == 0 ? "" : dcsim__bench_level_name(q - 1); }
static const char *q_unit(int q) { return q == 0 ? "GFLOP/s" : "GB/s"; }

/* ---- thread counts ---- */

/* CPUs of the affinity mask on the first CPU's package (sysfs topology); 0 if unknown */
static unsigned socket_cpus(const bench_run *R) {
  if (R->o->timer) return R->o->socket_cpus;
  const char *dir = R->o->sysfs_cpu ? R->o->sysfs_cpu : "/sys/devices/system/cpu";
  int first = -1;
  unsigned n = 0;
  for (unsigned i = 0; i < R->nthreads; i++) {
    char *path = dcsim_strdup_printf("%s/cpu%u/topology/physical_package_id", dir, R->cpus[i]);
    FILE *f = path ? fopen(path, "r") : NULL;
    free(path);
    int id = -1;
    if (!f) return 0;
    if (fscanf(f, "%d", &id) != 1) id = -1;
    fclose(f);
    if (id < 0) return 0;
    if (first < 0) first = id;
    if (id == first) n++;
  }
  return n;
}

static void add_tc(unsigned *tc, unsigned *ntc, unsigned t) {
  for (unsigned i = 0; i < *ntc; i++)
    if (tc[i] == t) return;
  unsigned i = (*ntc)++;
  while (i > 0 && tc[i - 1] > t) {
    tc[i] = tc[i - 1];
    i--;
  }
  tc[i] = t;
}

/* ---- monotonicity ---- */

/* The model expects each ceiling not to fall as threads are added (D3.5 §4.3 interpolates the
 * tables between thread counts). A fall beyond the spread of both points — more than
 * max(5 %, 3 x the larger dispersion) below the highest value at fewer threads — is measured
 * again once; if it stays, the point is kept
 * and flagged (report, CSV, database). Returns the number of flagged points. */
/* how far a point may fall below an earlier one before it is suspect: 5 %, or 3 times the larger
 * dispersion, but never more than 25 % (a point whose repetitions spread by 30 % and falls by
 * half is suspect too: the host of the lent H100 showed both) */
static double fall_tolerance(const bench_point *p, const bench_point *prev) {
  return fmin(0.25, fmax(0.05, 3 * fmax(p->disp, prev->disp)));
}

/* p->flag set to the formatted text; a text longer than the field ends in "..." */
static void set_flag(bench_point *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_flag(bench_point *p, const char *fmt, ...) {
  dcsim_str b = DCSIM_STR_INIT;
  va_list ap;
  va_start(ap, fmt);
  dcsim_str_vaddf(&b, fmt, ap);
  va_end(ap);
  if (b.oom) /* still flagged: a flagged cell is looked at, whatever its text */
    memcpy(p->flag, "(out of memory)", sizeof "(out of memory)");
  else if (dcsim_str_copy_to(&b, p->flag, sizeof p->flag))
    memcpy(p->flag + sizeof p->flag - 4, "...", 4);
  dcsim_str_release(&b);
}

static int check_monotone(bench_run *R, dcsim_error *err, unsigned *flagged) {
  *flagged = 0;
  for (int q = 0; q < BENCH_NQ; q++) {
    const bench_point *prev = NULL;
    for (unsigned i = 0; i < R->ntc; i++) {
      const bench_point *p = dcsim__bench_find(R, q_phase(q), q_level(q), R->tc[i]);
      if (!p) continue;
      if (prev && p->med < prev->med * (1 - fall_tolerance(p, prev)) &&
          dcsim__bench_left_s(R) > 0) {
        size_t idx = (size_t)(p - R->pts), pidx = (size_t)(prev - R->pts);
        unsigned old_reps = p->reps + p->remeasured;
        bench_point again;
        int rc = table_point(R, q, R->tc[i], R->target_s * 10, &again, err);
        if (rc) return rc; /* R->pts may have moved: indices from here on */
        R->np--;           /* the new measurement replaces the old one in place */
        again.remeasured += old_reps;
        R->pts[idx] = again;
        bench_point *np = &R->pts[idx];
        const bench_point *pp = &R->pts[pidx];
        if (np->med < pp->med * (1 - fall_tolerance(np, pp))) {
          set_flag(np, "non-monotone: %.4g %s; %.0f %% below %.4g at %u thread(s)", np->med,
                   q_unit(q), 100 * (1 - np->med / pp->med), pp->med, pp->threads);
          (*flagged)++;
          dcsim__bench_progress(R, "%s%s%s at %u thread(s): %s", q_phase(q), q ? " " : "",
                                q_level(q), np->threads, np->flag);
        }
        p = np;
      }
      if (!prev || p->med > prev->med) prev = p; /* compared with the highest so far */
    }
  }
  return 0;
}

/* ---- the tables ---- */

/* 1, one socket's CPUs and the node's, every quantity; then HVS over (threads, quantity) with
 * the per-thread efficiency value/(n x value at 1 thread) as response picks the thread counts in
 * between while the tables' share of the budget lasts (ASK §4: samples where the response varies
 * most — the knee of the DRAM curve, the step at the socket). */
int dcsim__bench_phase_tables(bench_run *R, dcsim_error *err) {
  unsigned N = R->nthreads, S = socket_cpus(R);
  R->socket_cpus = S && S < N ? S : 0;
  add_tc(R->tc, &R->ntc, 1);
  if (R->socket_cpus) add_tc(R->tc, &R->ntc, R->socket_cpus);
  add_tc(R->tc, &R->ntc, N);
  R->n_mandatory = R->ntc;
  unsigned interior = N > R->ntc ? N - R->ntc : 0, want_interior = interior < 4 ? interior : 4;
  double per_point = (R->deadline_tables_s - dcsim__bench_elapsed_s(R)) /
                     ((double)BENCH_NQ * (R->n_mandatory + want_interior));
  if (per_point < R->target_s) per_point = R->target_s;
  double v1[BENCH_NQ] = { 0 };
  int rc;
  for (unsigned i = 0; i < R->n_mandatory; i++)
    for (int q = 0; q < BENCH_NQ; q++) {
      bench_point p;
      double left = R->deadline_tables_s - dcsim__bench_elapsed_s(R);
      unsigned todo = (R->n_mandatory - i) * BENCH_NQ - (unsigned)q + want_interior * BENCH_NQ;
      if ((rc = table_point(R, q, R->tc[i], left > 0 ? left / todo : 0, &p, err))) return rc;
      if (R->tc[i] == 1) v1[q] = p.med;
      dcsim__bench_progress(R, "%s%s%s %u thread(s): %.2f %s [%.2f-%.2f] +-%.1f %% (%u reps%s)",
                            q_phase(q), q ? " " : "", q_level(q), p.threads, p.med, p.unit, p.min,
                            p.max, 100 * p.disp, p.reps,
                            p.remeasured ? ", outliers re-measured" : "");
    }
  if (interior) {
    size_t np = (size_t)N * BENCH_NQ, k;
    double *xy = malloc(np * 2 * sizeof *xy);
    size_t *pts = malloc(np * sizeof *pts);
    dcsim_hvs_t *h = NULL;
    if (!xy || !pts) {
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
      goto out;
    }
    for (unsigned n = 1; n <= N; n++)
      for (int q = 0; q < BENCH_NQ; q++) {
        xy[2 * ((n - 1) * BENCH_NQ + q)] = n;
        xy[2 * ((n - 1) * BENCH_NQ + q) + 1] = q;
      }
    if ((rc = dcsim_hvs_new(np, 2, xy, 0.1, R->o->seed, &h, err))) goto out;
    for (unsigned i = 0; i < R->ntc; i++)
      for (int q = 0; q < BENCH_NQ; q++) {
        const bench_point *p = dcsim__bench_find(R, q_phase(q), q_level(q), R->tc[i]);
        if (p && v1[q] > 0 &&
            (rc = dcsim_hvs_add(h, (R->tc[i] - 1) * BENCH_NQ + (size_t)q,
                                p->med / (R->tc[i] * v1[q]), err)))
          goto out;
      }
    while (dcsim__bench_elapsed_s(R) + per_point < R->deadline_tables_s &&
           (k = dcsim_hvs_next_with(h, DCSIM_SAMPLER_HVS, 2, pts)) > 0) {
      for (size_t j = 0; j < k && !rc; j++) {
        unsigned n = (unsigned)xy[2 * pts[j]];
        int q = (int)xy[2 * pts[j] + 1];
        bench_point p;
        if ((rc = table_point(R, q, n, per_point, &p, err)) ||
            (rc = dcsim_hvs_add(h, pts[j], p.med / (n * v1[q]), err)))
          break;
        add_tc(R->tc, &R->ntc, n);
        dcsim__bench_progress(R, "HVS picked %s%s%s at %u thread(s): %.2f %s +-%.1f %%", q_phase(q),
                              q ? " " : "", q_level(q), n, p.med, p.unit, 100 * p.disp);
      }
      if (rc) break;
    }
  out:
    dcsim_hvs_free(h);
    free(xy);
    free(pts);
    if (rc) return rc;
  }
  return 0;
}

/* ---- acceptance ---- */

/* why table cell p cannot be stood behind, into why ("" when it can): interference first, then
 * the spread, then a fall (doc/calibration.md "Interference") */
/* whether the cell fails a check cell_fault() names */
static int cell_faulty(const bench_run *R, const bench_point *p) {
  return p->disturbed || p->steal > R->max_steal || p->disp > R->max_disp_accept || p->flag[0];
}

static void cell_fault(const bench_run *R, const bench_point *p, dcsim_str *why) {
  dcsim_str_release(why);
  if (p->disturbed)
    dcsim_str_addf(why,
                   "interference: %u of %u repetitions disturbed (CPU share down to %.0f %%, clock "
                   "probes %.2f-%.2f GHz)",
                   p->disturbed, p->reps, 100 * p->cpu_share, p->clk_min, p->clk_max);
  else if (p->steal > R->max_steal)
    dcsim_str_addf(why, "interference: %.0f %% of the CPUs' time stolen by the hypervisor",
                   100 * p->steal);
  else if (p->disp > R->max_disp_accept)
    dcsim_str_addf(why, "spread +-%.1f %% (limit %.0f %%)", 100 * p->disp,
                   100 * R->max_disp_accept);
  else if (p->flag[0])
    dcsim_str_addf(why, "%.200s", p->flag);
}

static int table_q(const bench_point *p) {
  if (strcmp(p->phase, "peak") == 0) return 0;
  if (strcmp(p->phase, "bw") != 0) return -1;
  for (int lv = 0; lv < 4; lv++)
    if (strcmp(p->level, dcsim__bench_level_name(lv)) == 0) return lv + 1;
  return -1;
}

/* the cell at R->pts[i] measured again within allowance_s; the new measurement replaces the old
 * when it is better (fewer disturbed repetitions, else a smaller spread) */
static int remeasure_cell(bench_run *R, size_t i, int q, double allowance_s, dcsim_error *err) {
  bench_point again;
  int rc = table_point(R, q, R->pts[i].threads, allowance_s, &again, err);
  if (rc) return rc;
  R->np--; /* the new measurement is not a point of its own */
  int better = !cell_faulty(R, &again) || again.disturbed < R->pts[i].disturbed ||
               (again.disturbed == R->pts[i].disturbed && again.disp < R->pts[i].disp);
  unsigned old = R->pts[i].reps + R->pts[i].remeasured + R->pts[i].redone;
  if (better) {
    again.remeasured += old;
    R->pts[i] = again;
  } else {
    R->pts[i].remeasured += again.reps + again.remeasured + again.redone;
  }
  return 0;
}

/* Every cell that fails for interference or spread measured again, round after round (at most
 * BENCH_RETRY_ROUNDS), while the tables' share and the first half of the loops' last (a shared
 * machine has quiet moments: the budget is there to wait for them). */
enum { BENCH_RETRY_ROUNDS = 12 };
static int retry_noisy(bench_run *R, dcsim_error *err) {
  double until = 0.5 * (R->deadline_tables_s + R->deadline_loops_s);
  for (int round = 0; round < BENCH_RETRY_ROUNDS; round++) {
    unsigned failing = 0;
    for (size_t i = 0; i < R->np; i++) {
      int q = table_q(&R->pts[i]);
      if (q < 0) continue;
      dcsim_str why = DCSIM_STR_INIT;
      cell_fault(R, &R->pts[i], &why);
      int skip = !why.len || strncmp(why.s, "non-monotone", 12) == 0;
      double left = until - dcsim__bench_elapsed_s(R);
      if (!skip && !(left < R->target_s * R->reps_min))
        dcsim__bench_progress(R, "%s%s%s at %u thread(s): %s; measuring it again (round %d)",
                              q_phase(q), q ? " " : "", q_level(q), R->pts[i].threads,
                              dcsim_str_cstr(&why), round + 1);
      dcsim_str_release(&why);
      if (skip) continue;
      failing++;
      if (left < R->target_s * R->reps_min) return 0;
      /* shorter repetitions each round (a quarter, at least 2 ms): on a shared machine a short
       * one more often runs in one scheduler slice (CFS gives a few ms), as STREAM's best-of */
      double keep_target = R->target_s;
      R->target_s = fmax(0.002, keep_target * pow(0.25, round + 1));
      int rc = remeasure_cell(R, i, q, fmax(left / 8, R->target_s * R->reps_min), err);
      R->target_s = keep_target;
      if (rc) return rc;
    }
    if (!failing) break;
  }
  return 0;
}

/* ---- second look ---- */

/* the looks' tolerance of a cell at n threads: item 4's bars, 5 % for one thread, 10 % for more */
static double look_tol_of(const bench_run *R, unsigned n) {
  return n == 1 ? R->look_tol : R->look_tol_multi;
}

static int looks_agree(double tol, double a, double b) {
  return a > 0 && b > 0 && fabs(a - b) <= tol * fmax(a, b);
}

/* One new look at the n-thread cell of quantity q: measured again, not a point of its own.
 * *clean: the look passed the interference checks. */
static int one_look(bench_run *R, int q, unsigned n, double allowance_s, bench_point *look,
                    int *clean, dcsim_error *err) {
  int rc = table_point(R, q, n, allowance_s, look, err);
  if (rc) return rc;
  R->np--;
  *clean = !cell_faulty(R, look);
  return 0;
}

/* the looks lv[0..nl) into s, separated by sep: all of them up to six, else the first three and
 * the last two around "..." */
static void looks_text(dcsim_str *s, const double *lv, unsigned nl, const char *sep) {
  for (unsigned j = 0; j < nl; j++) {
    if (nl > 6 && j == 3) {
      dcsim_str_addf(s, "%s...", sep);
      j = nl - 3;
      continue;
    }
    dcsim_str_addf(s, "%s%.4g", j ? sep : "", lv[j]);
  }
}

/* The flag of an unstable cell: the looks, how many over how long, the target */
static void unstable_flag(bench_run *R, size_t i, int q, const double *lv, unsigned nl,
                          double tried_s) {
  dcsim_str f = DCSIM_STR_INIT;
  dcsim_str_add(&f, "unstable: looks of ");
  looks_text(&f, lv, nl, ", ");
  dcsim_str_addf(&f, " %s (%u looks over %.1f s), none within %.0f %% of the highest clean one",
                 q_unit(q), nl, tried_s, 100 * look_tol_of(R, R->pts[i].threads));
  set_flag(&R->pts[i], "%s", f.oom ? "unstable" : dcsim_str_cstr(&f));
  dcsim_str_release(&f);
}

/* The second look at the table cell R->pts[i] of quantity q, seconds after the first: more looks
 * until a clean one agrees within the cell's tolerance (look_tol_of) with the HIGHEST clean look
 * so far (the first included) — up to three while the budget lasts, and more (at most
 * BENCH_MAXLOOK in all) until R->deadline_looks_s, so that a host switching states has the looks'
 * share of the budget to settle in. The highest, because interference only slows a kernel down:
 * two looks that agree in a slow state of the host (the L1 looks of 185.8 and 176.8 GB/s of run
 * 12 of calibration/cascadelake-2vcpu-bench-dram, after one of 263.1) are the host's state, not
 * the machine's, and a run that kept them disagreed with the run before it by 30 %. The cell
 * becomes the agreeing look, else it is flagged "unstable" (and left out: at 1 thread the run
 * refuses, saying how long it tried; at more the tables cover fewer counts). A cell that already
 * fails the checks is not looked at (it is left out anyway). The looks' values into lv[0..*nl). */
static int look_again(bench_run *R, size_t i, int q, double allowance_s, double *lv, unsigned *nl,
                      dcsim_error *err) {
  int faulty = cell_faulty(R, &R->pts[i]);
  unsigned n = R->pts[i].threads, reps = 0;
  double tol = look_tol_of(R, n), best = R->pts[i].med, start = dcsim__bench_elapsed_s(R);
  *nl = 1;
  lv[0] = R->pts[i].med;
  if (faulty) return 0;
  for (unsigned k = 0; *nl < BENCH_MAXLOOK && dcsim__bench_left_s(R) > 0 &&
                       (k < 3 || dcsim__bench_elapsed_s(R) < R->deadline_looks_s);
       k++) {
    bench_point look;
    int clean = 0, rc = one_look(R, q, n, allowance_s, &look, &clean, err);
    if (rc) return rc;
    lv[(*nl)++] = look.med;
    reps += look.reps + look.remeasured + look.redone;
    if (!clean) continue;
    if (looks_agree(tol, best, look.med)) {
      look.remeasured += R->pts[i].reps + R->pts[i].remeasured + R->pts[i].redone + reps -
                         (look.reps + look.remeasured + look.redone);
      R->pts[i] = look;
      return 0;
    }
    best = fmax(best, look.med);
  }
  R->pts[i].remeasured += reps;
  if (*nl == 1) return 0; /* the budget is spent: one look only (the report says so) */
  unstable_flag(R, i, q, lv, *nl, dcsim__bench_elapsed_s(R) - start);
  return 0;
}

/* what the looks at one thread count found: agreed at the second look, at a later one, unstable,
 * not looked at */
typedef struct look_counts {
  unsigned at_once, later, unstable, skipped;
} look_counts;

/* The looks at the cell of quantity q at n threads, counted into *lc; the looks' values into
 * *vals (emptied first; left empty when there is no such cell) */
static int look_cell(bench_run *R, int q, unsigned n, look_counts *lc, dcsim_str *vals,
                     dcsim_error *err) {
  dcsim_str_release(vals);
  const bench_point *p = dcsim__bench_find(R, q_phase(q), q_level(q), n);
  if (!p) return 0;
  size_t i = (size_t)(p - R->pts);
  double lv[BENCH_MAXLOOK];
  unsigned nl = 0;
  int rc = look_again(R, i, q, fmax(R->target_s * R->reps_min, 0.1), lv, &nl, err);
  if (rc) return rc;
  int bad = strncmp(R->pts[i].flag, "unstable", 8) == 0;
  lc->unstable += bad;
  lc->at_once += !bad && nl == 2;
  lc->later += !bad && nl > 2;
  lc->skipped += nl == 1;
  looks_text(vals, lv, nl, "/");
  dcsim__bench_progress(R, "second look %s%s%s at %u thread(s): %s %s%s", q_phase(q), q ? " " : "",
                        q_level(q), n, dcsim_str_cstr(vals), q_unit(q),
                        bad       ? " (unstable)"
                        : nl == 1 ? " (not looked at again)"
                                  : "");
  return 0;
}

/* Every table cell looked at again once all the tables' cells are measured, the 1-thread cells
 * first (the model scales every other count from them): on the shared VM the host switched the
 * rate of one L1 buffer between 270, 195, 170 and 137 GB/s from one second to the next
 * (doc/calibration.md "Second look"), a state that outlasts a cell's back-to-back repetitions, so
 * their spread cannot show it; the 2-thread peak of two back-to-back accepted runs read 135.75
 * and 107.84 GFLOP/s (runs 11-12) when only 1-thread cells were looked at. */
static int second_look(bench_run *R, dcsim_error *err) {
  look_counts one = { 0 }, more = { 0 };
  dcsim_str *note = &R->look_note, vals = DCSIM_STR_INIT;
  dcsim_str_release(note);
  dcsim_str_add(note, "1-thread cells looked at again:");
  int rc = 0;
  for (int q = 0; q < BENCH_NQ && !rc; q++) {
    rc = look_cell(R, q, 1, &one, &vals, err);
    if (!rc && vals.len) /* the cell exists: its looks' values */
      dcsim_str_addf(note, "%s %s %s", q ? "," : "", q ? q_level(q) : "peak",
                     dcsim_str_cstr(&vals));
  }
  for (size_t t = 0; t < R->ntc && !rc; t++)
    for (int q = 0; q < BENCH_NQ && !rc && R->tc[t] > 1; q++)
      rc = look_cell(R, q, R->tc[t], &more, &vals, err);
  dcsim_str_release(&vals);
  if (rc) return rc;
  dcsim_str_addf(note,
                 "; within %.0f %% of the highest: %u at the second look, %u at a later one; %u "
                 "unstable; %u not looked at (left out already, or no budget left)",
                 100 * R->look_tol, one.at_once, one.later, one.unstable, one.skipped);
  if (more.at_once + more.later + more.unstable + more.skipped)
    dcsim_str_addf(note,
                   "; cells at more threads, within %.0f %%: %u at the second look, %u at a "
                   "later one; %u unstable (left out); %u not looked at",
                   100 * R->look_tol_multi, more.at_once, more.later, more.unstable, more.skipped);
  return note->oom ? DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory") : 0;
}

int dcsim__bench_accept_tables(bench_run *R, dcsim_error *err) {
  unsigned flagged = 0;
  int rc;
  if ((rc = retry_noisy(R, err)) || (rc = second_look(R, err)) ||
      (rc = check_monotone(R, err, &flagged)))
    return rc;
  const char *missing = NULL, *first_why = NULL; /* first_why: in a point's flag */
  dcsim_str why = DCSIM_STR_INIT;
  for (size_t i = 0; i < R->np; i++) {
    bench_point *p = &R->pts[i];
    if (table_q(p) < 0) continue;
    cell_fault(R, p, &why);
    if (!why.len) continue;
    if (R->o->keep_suspect) {
      if (!p->flag[0]) set_flag(p, "kept (--keep-suspect): %s", dcsim_str_cstr(&why));
      continue;
    }
    p->rejected = 1;
    R->n_rejected++;
    set_flag(p, "left out: %s", dcsim_str_cstr(&why));
    dcsim__bench_progress(R, "%s %s at %u thread(s) %s", p->phase, p->level, p->threads, p->flag);
  }
  int oom = why.oom;
  dcsim_str_release(&why);
  if (oom) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  /* the counts every table covers: 1 up to the lowest of their highest kept counts */
  R->cover_n = R->nthreads;
  for (int q = 0; q < BENCH_NQ; q++) {
    unsigned top = 0;
    for (size_t i = 0; i < R->np; i++)
      if (table_q(&R->pts[i]) == q && !R->pts[i].rejected && R->pts[i].threads > top)
        top = R->pts[i].threads;
    if (top < R->cover_n) R->cover_n = top;
  }
  /* too little remains when a quantity keeps no 1-thread cell: the model scales every other
   * count from it */
  for (int q = 0; q < BENCH_NQ && !missing; q++) {
    const bench_point *p = dcsim__bench_find(R, q_phase(q), q_level(q), 1);
    if (!p || p->rejected) {
      missing = q ? q_level(q) : "peak";
      if (p) first_why = p->flag + strlen("left out: ");
    }
  }
  if (missing) {
    double lo = 0, hi = 0;
    for (size_t i = 0; i < R->nclk; i++) {
      lo = i ? fmin(lo, R->clk[i]) : R->clk[i];
      hi = fmax(hi, R->clk[i]);
    }
    double load = R->o->timer ? 0 : dcsim__bench_loadavg();
    snprintf(R->refusal, sizeof R->refusal,
             "no profile written: %s at 1 thread cannot be stood behind (%s); interference seen: "
             "load average %.1f-%.1f on %u CPU(s), CPU share down to %.0f %%, steal up to %.0f %%, "
             "clock probes %.2f-%.2f GHz; raw data in %s/raw.csv",
             missing, first_why && *first_why ? first_why : "not measured", R->load_start,
             fmax(load, R->load_start), R->ncpu, 100 * R->share_min, 100 * R->steal_max, lo, hi,
             R->o->out_dir);
  }
  return 0;
}

/* ---- loops ---- */

int dcsim__bench_loop_point(bench_run *R, int ci, int k, unsigned n, double allowance_s,
                            const char *phase, dcsim_error *err) {
  const int cls[2] = { 1, 3 }; /* L2- and DRAM-sized working sets */
  const dcsim_bench_loop_info *li = dcsim_bench_loop((dcsim_bench_loop_kind)k);
  loop_ctx lc;
  memset(&lc, 0, sizeof lc);
  lc.k = (dcsim_bench_loop_kind)k;
  double ws = (double)dcsim__bench_level_ws(R, cls[ci], n);
  if (cls[ci] == 3 && R->loop_dram_total_byte > 0 && ws > R->loop_dram_total_byte / n)
    ws = fmax(R->loop_dram_total_byte / n, 4 * R->c.l2_byte);
  lc.n = (size_t)(ws / li->footprint_per_elem);
  lc.seed = R->o->seed + 17;
  dcsim__bench_on_threads(R, n, loop_alloc, &lc);
  if (lc.fail) {
    loop_free(&lc, n);
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory (loop %s)", li->name);
  }
  bench_point p;
  memset(&p, 0, sizeof p);
  p.threads = n;
  snprintf(p.phase, sizeof p.phase, "%s", phase);
  snprintf(p.kernel, sizeof p.kernel, "%s.%s", li->name, dcsim__bench_level_name(cls[ci]));
  snprintf(p.level, sizeof p.level, "%s", dcsim__bench_level_name(cls[ci]));
  snprintf(p.unit, sizeof p.unit, "s");
  p.n_elem = dcsim_bench_loop_elems(lc.k, lc.n);
  p.ws_byte = (double)p.n_elem * li->footprint_per_elem;
  int rc = dcsim__bench_measure(R, &p, loop_fn, &lc, 0, 1, 1, 1, allowance_s, err);
  loop_free(&lc, n);
  if (rc) return rc;
  bench_point *q = &R->pts[R->np - 1];
  q->traffic_byte = li->byte_per_elem * (double)q->n_elem * n * (double)q->passes;
  q->work_flop = li->flop_per_elem * (double)q->n_elem * n * (double)q->passes;
  dcsim__bench_progress(R, "%s %s, %u thread(s): %.3g s +-%.1f %% for %llu pass(es), %.2f GB/s",
                        phase, q->kernel, n, q->med, 100 * q->disp, (unsigned long long)q->passes,
                        q->traffic_byte / q->med * 1e-9);
  return 0;
}

/* The loops at 1 thread and the node's (always: the fit and the held-out test need two), then
 * the socket's and up to two of the other counts of the tables, while the loops' share lasts. */
/* The loops' DRAM-sized working set within the loops' share: each of the 10 DRAM-sized points at
 * 1 and N threads costs about 4 sweeps of it (first touch, calibration, two repetitions) at the
 * DRAM bandwidth measured at 1 thread; they get 60 % of the share. Capped below the tables' size
 * only when the budget cannot afford that (a 480 MiB L3 and 3 GB/s on the development VM). */
static void cap_loop_dram(bench_run *R) {
  const bench_point *d = dcsim__bench_find(R, "bw", "DRAM", 1);
  double share = 0.6 * (R->deadline_loops_s - dcsim__bench_elapsed_s(R));
  if (!d || !(d->med > 0) || R->o->timer) return;
  double afford = share * d->med * 1e9 / (2 * DCSIM_LOOP_COUNT * 4);
  double full = (double)dcsim__bench_level_ws(R, 3, 1);
  if (afford >= full) return;
  R->loop_dram_total_byte = fmax(afford, 64e6);
  dcsim_str_release(&R->loop_ws_note);
  dcsim_str_addf(&R->loop_ws_note,
                 "the loops' DRAM-sized working set is %.0f MB in all, not %.0f: the budget cannot "
                 "afford more at %.2f GB/s (L3 %.0f MB)",
                 R->loop_dram_total_byte / 1e6, full / 1e6, d->med, R->c.l3_byte / 1e6);
  dcsim__bench_progress(R, "%s", dcsim_str_cstr(&R->loop_ws_note));
}

/* Before the node's loops: the 1-thread DRAM-sized points cost s_per_byte seconds per byte of
 * working set (first touch, calibration, repetitions, as it went on this machine now); the
 * node's five must end by 90 % of the budget (the rest is the fits'), so their working set is
 * capped again when they could not (the development VM under a load of 15: 7 s a point). */
static void recap_loop_dram(bench_run *R, double s_per_byte) {
  double left = 0.9 * R->budget_s - dcsim__bench_elapsed_s(R) - 1.0; /* 1 s for the L2 ones */
  double afford = left > 0 ? left / (DCSIM_LOOP_COUNT * s_per_byte) : 0;
  double now = R->loop_dram_total_byte > 0
                   ? R->loop_dram_total_byte
                   : (double)dcsim__bench_level_ws(R, 3, R->nthreads) * R->nthreads;
  if (afford >= now) return;
  double old = now;
  R->loop_dram_total_byte = fmax(afford, 64e6);
  dcsim_str_release(&R->loop_ws_note);
  dcsim_str_addf(&R->loop_ws_note,
                 "the loops' DRAM-sized working set is %.0f MB in all at %u threads, not %.0f: the "
                 "1-thread points took %.2f s per GB and the budget cannot afford more",
                 R->loop_dram_total_byte / 1e6, R->nthreads, old / 1e6, s_per_byte * 1e9);
  dcsim__bench_progress(R, "%s", dcsim_str_cstr(&R->loop_ws_note));
}

int dcsim__bench_phase_loops(bench_run *R, dcsim_error *err) {
  /* the node's count, or the highest every table covers when cells were left out */
  unsigned order[BENCH_MAXT], no = 0, N = R->cover_n ? R->cover_n : R->nthreads;
  unsigned S = R->socket_cpus && R->socket_cpus < N ? R->socket_cpus : 0;
  cap_loop_dram(R);
  order[no++] = 1;
  if (N > 1) order[no++] = N;
  if (S) order[no++] = S;
  /* then the tables' other counts: first the one nearest sqrt(socket) (sqrt(N) without a socket)
   * and the one nearest the middle of the socket and the node (of sqrt(N) and N), then, while
   * the loops' share lasts, the one farthest (in log threads) from those chosen, at most 8 */
  double targets[2] = { sqrt((double)(S ? S : N)),
                        S ? 0.5 * (S + N) : 0.5 * (sqrt((double)N) + N) };
  while (no < 8 && no < R->ntc) {
    unsigned best = 0, base = S ? 3 : 2; /* counts chosen before the targets */
    double best_score = 0;
    for (unsigned i = 0; i < R->ntc; i++) {
      unsigned t = R->tc[i];
      double near = INFINITY;
      int used = t > N;
      for (unsigned j = 0; j < no; j++) {
        used |= order[j] == t;
        near = fmin(near, fabs(log((double)t / order[j])));
      }
      if (used) continue;
      double score = no - base < 2 ? -fabs((double)t - targets[no - base]) : near;
      if (!best || score > best_score) {
        best = t;
        best_score = score;
      }
    }
    if (!best) break;
    order[no++] = best;
  }
  double first = dcsim__bench_elapsed_s(R), per_count = 0, dram_s = 0, dram_byte = 0;
  for (unsigned i = 0; i < no; i++) {
    double now = dcsim__bench_elapsed_s(R);
    if (i >= 2 && now + per_count > R->deadline_loops_s) {
      dcsim__bench_progress(R, "loops: no time left for %u more thread count(s)", no - i);
      break;
    }
    if (i == 1 && dram_s > 0) recap_loop_dram(R, dram_s / dram_byte);
    for (int ci = 0; ci < 2; ci++)
      for (int k = 0; k < DCSIM_LOOP_COUNT; k++) {
        double t0 = dcsim__bench_elapsed_s(R);
        /* the time left to the loops' deadline shared by the points still to measure */
        double left = R->deadline_loops_s - dcsim__bench_elapsed_s(R);
        unsigned todo = (no - i) * 2 * DCSIM_LOOP_COUNT - (unsigned)(ci * DCSIM_LOOP_COUNT + k);
        int rc =
            dcsim__bench_loop_point(R, ci, k, order[i], left > 0 ? left / todo : 0, "loop", err);
        if (rc) return rc;
        if (ci == 1 && i == 0) { /* what a DRAM-sized point costs per byte of its working set */
          dram_s += dcsim__bench_elapsed_s(R) - t0;
          dram_byte += R->pts[R->np - 1].ws_byte;
        }
      }
    add_tc(R->tc_loops, &R->ntc_loops, order[i]);
    per_count = (dcsim__bench_elapsed_s(R) - first) / (i + 1); /* what one count took */
  }
  return 0;
}

/* ---- HVS map (--budget N) ---- */

/* HVS over (threads, log2 working set) for the load kernel; bandwidth-map.csv */
int dcsim__bench_phase_hvs(bench_run *R, dcsim_error *err) {
  size_t nws = 24, np = nws * R->nthreads;
  double lo = log2(4096), hi = log2((double)dcsim__bench_level_ws(R, 3, 1));
  double *xy = malloc(np * 2 * sizeof *xy);
  size_t *pts = malloc(np * sizeof *pts);
  dcsim_hvs_t *h = NULL;
  FILE *f = NULL;
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
  dcsim__bench_progress(R, "adaptive sampling (HVS): %zu of %zu (threads, working set) points",
                        budget, np);
  while (done < budget) {
    size_t want = budget - done < batch ? budget - done : batch;
    size_t k = done == 0 ? dcsim_hvs_next_random(h, want < 8 ? want : 8, pts)
                         : dcsim_hvs_next_with(h, (dcsim_sampler)R->o->sampler, want, pts);
    if (k == 0) break;
    for (size_t j = 0; j < k; j++) {
      unsigned n = (unsigned)xy[2 * pts[j]];
      size_t ws = (size_t)exp2(xy[2 * pts[j] + 1]);
      rc = load_point(R, "hvs", "", ws, n, R->target_s * R->reps_min, err);
      if (rc || (rc = dcsim_hvs_add(h, pts[j], R->pts[R->np - 1].med, err))) goto out;
    }
    done += k;
  }
  if ((rc = dcsim_hvs_fit(h, err))) goto out;
  if (!(f = dcsim__bench_open_out(R, "bandwidth-map.csv", err))) {
    rc = err ? err->code : DCSIM_EIO;
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
  rc = dcsim__bench_close_out(R, "bandwidth-map.csv", f, rc, err);
  if (!rc)
    dcsim__bench_progress(R, "HVS: %zu points measured, %zu regions", dcsim_hvs_n_measured(h),
                          dcsim_hvs_n_regions(h));
out:
  dcsim_hvs_free(h);
  free(xy);
  free(pts);
  return rc;
}

/* ---- RAPL ---- */

/* RAPL power per active core count (D3.5 §5.2): PKG under the FMA kernel, DRAM under the DRAM
 * stream; idle from a sleep; at the thread counts of the tables. */
int dcsim__bench_phase_energy(bench_run *R, FILE *csv, dcsim_error *err) {
  uint64_t a[32], b[32];
  double dur = R->quick ? 0.25 : 1.0;
  int rc;
  if ((rc = dcsim_rapl_read(R->rapl, a, err))) return rc;
  double t0 = dcsim__clock_s();
  struct timespec ts = { (time_t)dur, (long)((dur - (double)(time_t)dur) * 1e9) };
  nanosleep(&ts, NULL);
  if ((rc = dcsim_rapl_read(R->rapl, b, err))) return rc;
  double t = dcsim__clock_s() - t0;
  fprintf(csv, "%s,idle,PKG,%.4g,W,measured: RAPL %.2f s asleep\n", R->freq_id,
          dcsim_rapl_domain_j(R->rapl, DCSIM_RAPL_PKG, a, b) / t, t);
  fprintf(csv, "%s,idle,DRAM,%.4g,W,measured: RAPL %.2f s asleep\n", R->freq_id,
          dcsim_rapl_domain_j(R->rapl, DCSIM_RAPL_DRAM, a, b) / t, t);
  for (unsigned i = 0; i < R->ntc; i++) {
    unsigned n = R->tc[i];
    fma_ctx fc;
    memset(&fc, 0, sizeof fc);
    fc.isa = R->isa;
    dcsim_bench_region rf = { "energy", "fma", "", n, (uint64_t)(dur * 2e8), 0, 0, 1, 0 };
    if ((rc = dcsim_rapl_read(R->rapl, a, err))) return rc;
    double dt = dcsim__bench_timed(R, &rf, fma_fn, &fc, NULL);
    if ((rc = dcsim_rapl_read(R->rapl, b, err))) return rc;
    double pkg = dt > 0 ? dcsim_rapl_domain_j(R->rapl, DCSIM_RAPL_PKG, a, b) / dt : 0;
    load_ctx lc;
    memset(&lc, 0, sizeof lc);
    lc.isa = R->isa;
    lc.n = dcsim__bench_level_ws(R, 3, n) / 8 / 64 * 64;
    dcsim__bench_on_threads(R, n, load_alloc, &lc);
    if (lc.fail) {
      load_free(&lc, n);
      return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    }
    dcsim_bench_region rl = { "energy", "load", "DRAM", n, 4, (double)lc.n * 8, 0, 1, 0 };
    if ((rc = dcsim_rapl_read(R->rapl, a, err))) {
      load_free(&lc, n);
      return rc;
    }
    double dt2 = dcsim__bench_timed(R, &rl, load_fn, &lc, NULL);
    rc = dcsim_rapl_read(R->rapl, b, err);
    load_free(&lc, n);
    if (rc) return rc;
    double dram = dt2 > 0 ? dcsim_rapl_domain_j(R->rapl, DCSIM_RAPL_DRAM, a, b) / dt2 : 0;
    fprintf(csv,
            "%s,%u,PKG,%.4g,W,measured: RAPL (PKG under the FMA kernel; DRAM under the DRAM load "
            "kernel)\n",
            R->freq_id, n, pkg);
    fprintf(csv,
            "%s,%u,DRAM,%.4g,W,measured: RAPL (PKG under the FMA kernel; DRAM under the DRAM load "
            "kernel)\n",
            R->freq_id, n, dram);
    dcsim__bench_progress(R, "RAPL %u core(s): PKG %.2f W, DRAM %.2f W", n, pkg, dram);
  }
  return 0;
}

/* ---- --probe ---- */

/* best and median GB/s of `reps` timed calls of fn on this thread, without OpenMP, each call
 * about 2 ms long (calibrated first; one pass where a pass is longer): short calls so that the
 * best of them finds a moment without preemption on a shared machine, as STREAM's best-of does */
typedef double (*probe_fn)(void *ctx, uint64_t passes); /* returns the bytes moved */
static void probe_rate(probe_fn fn, void *ctx, unsigned reps, double *best, double *med) {
  uint64_t passes = 1;
  double t = 0, v[BENCH_MAXREP], mn, mx, disp;
  for (;;) {
    double t0 = dcsim__clock_s();
    fn(ctx, passes);
    t = dcsim__clock_s() - t0;
    if (t >= 0.001 || passes >= (1ull << 40)) break;
    passes *= t > 0 ? (uint64_t)fmax(2, ceil(0.002 / t)) : 4;
  }
  if (reps > BENCH_MAXREP) reps = BENCH_MAXREP;
  for (unsigned i = 0; i < reps; i++) {
    double t0 = dcsim__clock_s(), bytes = fn(ctx, passes);
    t = dcsim__clock_s() - t0;
    v[i] = t > 0 ? bytes / t * 1e-9 : 0;
  }
  dcsim__bench_stats(v, reps, &mn, med, &mx, &disp);
  *best = mx; /* STREAM reports the best repetition */
}

typedef struct probe_load_ctx {
  dcsim_bench_isa isa;
  const double *x;
  size_t n;
  double sink;
} probe_load_ctx;
static double probe_load(void *c, uint64_t passes) {
  probe_load_ctx *x = c;
  return dcsim_bench_load(x->isa, x->x, x->n, passes, &x->sink);
}

typedef struct probe_triad_ctx {
  dcsim_bench_loop_data *d;
  double n, sink;
} probe_triad_ctx;
static double probe_triad(void *c, uint64_t passes) {
  probe_triad_ctx *x = c;
  x->sink += dcsim_bench_loop_run(x->d, passes);
  /* 24 B: two loads and a store per element, no write-allocate, as STREAM counts and as the load
   * kernel's 8 B per element are counted (dcsim_bench_loop_info) */
  return dcsim_bench_loop(DCSIM_LOOP_TRIAD)->byte_per_elem * x->n * (double)passes;
}

/* The harness's 1-thread bandwidth cells against the same kernel called directly (one thread, no
 * OpenMP region, no pinning, no clock probe) over the same working set — the load kernel at L1,
 * L2 and L3, the plain C triad loop (the loop kernel `triad`) at DRAM — and the triad at the L1
 * size; at the DRAM size also the load kernel, the DRAM cells' kernel before they measured the
 * triad: probe.csv and the report (doc/calibration.md "--probe"). */
int dcsim__bench_phase_probe(bench_run *R, dcsim_error *err) {
  if (R->o->timer) return 0; /* nothing to compare a synthetic machine with */
  for (int lv = 0; lv < 4; lv++) {
    size_t n = dcsim__bench_level_ws(R, lv, 1) / sizeof(double) / 64 * 64;
    if (n < 64) n = 64;
    double *x = aligned_alloc(64, n * sizeof *x);
    if (!x) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory (probe)");
    for (size_t i = 0; i < n; i++) x[i] = (double)(i & 7) * 0.5;
    probe_load_ctx pc = { R->isa, x, n, 0 };
    double *best = lv < 3 ? &R->probe_best[lv] : &R->probe_read_dram, med, *pmed;
    pmed = lv < 3 ? &R->probe_med[lv] : &med;
    probe_rate(probe_load, &pc, BENCH_PROBE_REPS, best, pmed);
    free(x);
  }
  for (int k = 0; k < 2; k++) {
    size_t ws = dcsim__bench_level_ws(R, k ? 3 : 0, 1);
    const dcsim_bench_loop_info *li = dcsim_bench_loop(DCSIM_LOOP_TRIAD);
    probe_triad_ctx tc = { NULL, 0, 0 };
    /* at DRAM the same element count as the harness's cell (triad_point) */
    if (dcsim_bench_loop_alloc(DCSIM_LOOP_TRIAD, (size_t)((double)ws / li->footprint_per_elem),
                               R->o->seed, &tc.d, err))
      return err->code;
    tc.n = (double)dcsim_bench_loop_n(tc.d);
    double med;
    probe_rate(probe_triad, &tc, BENCH_PROBE_REPS, &R->probe_triad[k], k ? &R->probe_med[3] : &med);
    dcsim_bench_loop_free(tc.d);
  }
  R->probe_best[3] = R->probe_triad[1];
  R->probed = 1;
  int rc;
  FILE *f = dcsim__bench_open_out(R, "probe.csv", err);
  if (!f) return err ? err->code : DCSIM_EIO;
  fputs(
      "# --probe: 1-thread bandwidth of the harness (median, OpenMP region, pinned) against its\n"
      "# kernel called directly (best and median of 31): the load kernel at L1-L3, the plain "
      "triad\n"
      "# at DRAM (STREAM's 24 B per element); triad_best_gbps: the plain triad at the L1 and DRAM\n"
      "# sizes; read_best_gbps: the load kernel at the DRAM size (best of 31); ratio = harness /\n"
      "# direct best; ratio_median = harness median / direct median (like with like: on a shared\n"
      "# host the best of 31 sits above any median; doc/calibration.md \"--probe\")\n",
      f);
  dcsim__record_csv_header(&dcsim__bench_probe_record, f);
  for (int lv = 0; lv < 4; lv++) {
    const bench_point *p = dcsim__bench_find(R, "bw", dcsim__bench_level_name(lv), 1);
    double h = p ? p->med : NAN;
    const bench_probe_row row = { dcsim__bench_level_name(lv),
                                  lv < 3 ? "load" : "triad",
                                  (long long)dcsim__bench_level_ws(R, lv, 1),
                                  h,
                                  R->probe_best[lv],
                                  R->probe_med[lv],
                                  lv == 0 || lv == 3 ? R->probe_triad[lv ? 1 : 0] : NAN,
                                  lv == 3 ? R->probe_read_dram : NAN,
                                  h / R->probe_best[lv],
                                  h / R->probe_med[lv] };
    dcsim__record_csv_row(&dcsim__bench_probe_record, f, &row);
    dcsim__bench_progress(R,
                          "probe %s: harness %.2f GB/s, direct %s %.2f (median %.2f), ratio %.2f "
                          "(to the median %.2f)",
                          dcsim__bench_level_name(lv), h, lv < 3 ? "load" : "triad",
                          R->probe_best[lv], R->probe_med[lv], h / R->probe_best[lv],
                          h / R->probe_med[lv]);
  }
  dcsim__bench_progress(R, "probe DRAM: the load kernel reads %.2f GB/s (best of 31)",
                        R->probe_read_dram);
  if ((rc = dcsim__bench_close_out(R, "probe.csv", f, 0, err))) return rc;
  return 0;
}
