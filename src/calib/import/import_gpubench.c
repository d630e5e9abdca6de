/* import_gpubench.c — a GPU profile from tools/gpu-bench and nvidia-smi CSVs (see
 * dcsim/import_gpubench.h). */
#include "dcsim/import_gpubench.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "calib/internal.h"
#include "dcsim/catalog.h"
#include "dcsim/fit.h"
#include "dcsim/gpuarch.h"
#include "dcsim/stats.h"
#include "dcsim/strutil.h"
#include "util/csv.h"
#include "util/xmledit.h"

#define BENCH_MAGIC "# dcsim gpu-bench "

int dcsim_gpubench_is_bench(const char *path) {
  FILE *f = fopen(path, "r");
  char line[64] = "";
  if (!f) return 0;
  int ok = fgets(line, sizeof line, f) && strncmp(line, BENCH_MAGIC, strlen(BENCH_MAGIC)) == 0 &&
           (line[strlen(BENCH_MAGIC)] == '1' || line[strlen(BENCH_MAGIC)] == '2');
  fclose(f);
  return ok;
}

/* compute capability "X.Y" -> "sm_XY"; an AMD name (gfx...) as it is */
static int arch_name(const char *cc, char *out, size_t size) {
  int maj, min;
  char rest;
  if (strncmp(cc, "gfx", 3) == 0) return snprintf(out, size, "%s", cc) < (int)size ? 0 : -1;
  if (sscanf(cc, "%d.%d%c", &maj, &min, &rest) != 2 || maj < 1 || maj > 99 || min < 0 || min > 9)
    return -1;
  snprintf(out, size, "sm_%d%d", maj, min);
  return 0;
}

/* The phase rows (layout 2): which field each sets and its bit in phase->seen. */
static const struct {
  const char *metric;
  size_t off;
  double hi; /* the plausible maximum (below, with the scalar metrics) */
} phase_fields[] = {
  { "phase_start_s", offsetof(dcsim_gpubench_phase, start_s), 1e11 },
  { "phase_s", offsetof(dcsim_gpubench_phase, dur_s), 1e9 },
  { "phase_w", offsetof(dcsim_gpubench_phase, power_w), 1e7 },
  { "phase_context", offsetof(dcsim_gpubench_phase, context), 1 },
  { "phase_launches", offsetof(dcsim_gpubench_phase, launches), 1e30 },
  { "phase_busy_s", offsetof(dcsim_gpubench_phase, busy_s), 1e9 },
  { "phase_fp64_inst", offsetof(dcsim_gpubench_phase, fp64), 1e30 },
  { "phase_fp32_inst", offsetof(dcsim_gpubench_phase, fp32), 1e30 },
  { "phase_other_inst", offsetof(dcsim_gpubench_phase, other), 1e30 },
  { "phase_dram_byte", offsetof(dcsim_gpubench_phase, dram), 1e30 },
  { "phase_l2_byte", offsetof(dcsim_gpubench_phase, l2), 1e30 },
  { "phase_warp_inst", offsetof(dcsim_gpubench_phase, warp), 1e30 },
  { "phase_request_byte", offsetof(dcsim_gpubench_phase, request), 1e30 },
};
#define N_PHASE_FIELDS (sizeof phase_fields / sizeof phase_fields[0])
#define PHASE_REQUIRED 0x3fu   /* the first six */
#define PHASE_COUNTS   0x7c0u  /* the five counts */
#define PHASE_WARP     0x800u  /* optional: warp instructions (the issue term) */
#define PHASE_REQUEST  0x1000u /* optional: bytes requested (the scatter term) */

/* A phase_* row: the field of the phase named in the size column. */
static int phase_row(const dcsim_csv_t *t, size_t r, size_t cs, size_t f, double x,
                     dcsim_gpubench *b, dcsim_error *err) {
  const char *name = dcsim__csv_cell(t, r, cs);
  const int line = dcsim__csv_line(t, r);
  if (!*name || strlen(name) >= sizeof b->phases[0].name)
    return DCSIM_ERR(err, DCSIM_EPARSE, b->path, line,
                     "%s: the size column must name the phase (1 to %zu characters)",
                     phase_fields[f].metric, sizeof b->phases[0].name - 1);
  dcsim_gpubench_phase *ph = NULL;
  for (size_t i = 0; i < b->n_phases && !ph; i++)
    if (strcmp(b->phases[i].name, name) == 0) ph = &b->phases[i];
  if (!ph) {
    if (b->n_phases == DCSIM_GPUBENCH_MAX_PHASES)
      return DCSIM_ERR(err, DCSIM_ERANGE, b->path, line, "more than %d phases",
                       DCSIM_GPUBENCH_MAX_PHASES);
    ph = &b->phases[b->n_phases++];
    snprintf(ph->name, sizeof ph->name, "%s", name);
    ph->line = line;
  }
  if (ph->seen & (1u << f))
    return DCSIM_ERR(err, DCSIM_EPARSE, b->path, line, "%s of phase %s given twice",
                     phase_fields[f].metric, name);
  if (x < 0 || (f == 2 && !(x > 0)) || (f == 3 && x != 0 && x != 1))
    return DCSIM_ERR(err, DCSIM_ERANGE, b->path, line, "%s of phase %s = %g: %s",
                     phase_fields[f].metric, name, x,
                     f == 3   ? "want 0 (no CUDA context) or 1"
                     : f == 2 ? "must be positive"
                              : "must be >= 0");
  if (x > phase_fields[f].hi)
    return DCSIM_ERR(err, DCSIM_ERANGE, b->path, line,
                     "%s of phase %s = %g: above the plausible %g of any GPU (a wrong unit or a "
                     "garbled number?)",
                     phase_fields[f].metric, name, x, phase_fields[f].hi);
  ph->seen |= 1u << f;
  *(double *)((char *)ph + phase_fields[f].off) = x;
  return 0;
}

/* A row of a kernel series (size = the kernel's size); a size given twice is refused. */
static int series_row(const dcsim_csv_t *t, size_t r, size_t cs, dcsim_gpubench_series *sr,
                      const char *metric, double x, const char *path, dcsim_error *err) {
  const int line = dcsim__csv_line(t, r);
  if (sr->n == DCSIM_GPUBENCH_MAX_SIZES)
    return DCSIM_ERR(err, DCSIM_ERANGE, path, line, "more than %d kernel sizes",
                     DCSIM_GPUBENCH_MAX_SIZES);
  double size;
  int rc = dcsim__csv_num(t, r, cs, &size, err);
  if (rc) return rc;
  if (!(size > 0))
    return DCSIM_ERR(err, DCSIM_ERANGE, path, line, "size %g: must be positive", size);
  for (size_t i = 0; i < sr->n; i++)
    if (sr->size[i] == size)
      return DCSIM_ERR(err, DCSIM_EPARSE, path, line,
                       "%s at size %g given twice: one measurement per size", metric, size);
  sr->size[sr->n] = size;
  sr->value[sr->n++] = x;
  return 0;
}

/* The plausible range of each scalar metric: about 10^-3 x the smallest and
 * 10^3 x the largest figure of any GPU, so that a wrong unit or a garbled number is refused and no
 * real board is. The figures: 13 (GTX 970) to 304 (MI300X) SMs or CUs; clocks 0.5 to 3 GHz; 1 to
 * 192 GB of memory; 0.1 to 8 TB/s of memory bandwidth (B200); FP64 FMA 3e10 (a consumer board at
 * 1:64) to 8.2e13 flop/s (MI300X), FP32 and integer 1e12 to 1.6e14; launches of 2 to 20 us
 * (calibration/h100-sxm5 and h200-run1: 3.4 and 8.4 us); dependent FMA issue 4 to 48 cycles;
 * host links 1 GB/s (PCIe 2 x4) to 450 GB/s (NVLink-C2C); L2 copies 0.1 to 20 TB/s; board power 5
 * W idle to 1.2 kW (B200's 1000 W limit). Kernel and series times are calibration times,
 * 10^-9 to 10^9 s, as every calibration measurement (fit_coeffs.c). Each bound: the figure over or
 * times 10^3, rounded out to a power of ten. Phase rows: power as above, durations and busy time
 * calibration times, start times up to 10^11 s (seconds since 1970, as gpu-bench writes them:
 * the year 5138), counts and launches up to 10^30 (the calibration rule for traffic and work). */
typedef struct bench_metric {
  const char *name;
  size_t off; /* of the double in dcsim_gpubench */
  double lo, hi;
  const char *unit;
} bench_metric;

static const bench_metric bench_metrics[] = {
  { "sm", offsetof(dcsim_gpubench, sm), 1, 1e6, "" },
  { "clock_hz", offsetof(dcsim_gpubench, clock_hz), 1e5, 1e13, "Hz" },
  { "memory_byte", offsetof(dcsim_gpubench, memory_byte), 1e6, 1e15, "B" },
  { "stream_triad_bps", offsetof(dcsim_gpubench, stream_bps), 1e8, 1e16, "B/s" },
  { "fp64_fma_flops", offsetof(dcsim_gpubench, fp64_flops), 1e7, 1e17, "flop/s" },
  { "fp32_fma_flops", offsetof(dcsim_gpubench, fp32_flops), 1e9, 1e18, "flop/s" },
  { "int32_ops", offsetof(dcsim_gpubench, int_ops), 1e9, 1e18, "op/s" },
  { "launch_s", offsetof(dcsim_gpubench, launch_s), 1e-9, 0.1, "s" },
  { "sync_launch_s", offsetof(dcsim_gpubench, sync_launch_s), 1e-9, 0.1, "s" },
  { "dep_fp32_cycles", offsetof(dcsim_gpubench, dep_fp32_cycles), 1e-3, 1e5, "cycle" },
  { "dep_fp64_cycles", offsetof(dcsim_gpubench, dep_fp64_cycles), 1e-3, 1e5, "cycle" },
  { "h2d_bps", offsetof(dcsim_gpubench, h2d_bps), 1e6, 1e15, "B/s" },
  { "l2_copy_bps", offsetof(dcsim_gpubench, l2_bps), 1e8, 1e17, "B/s" },
  { "diverge_s", offsetof(dcsim_gpubench, diverge_s), 1e-9, 1e9, "s" },
  { "gather_s", offsetof(dcsim_gpubench, gather_s), 1e-9, 1e9, "s" },
  { "mix_s", offsetof(dcsim_gpubench, mix_s), 1e-9, 1e9, "s" },
  { "lowipc_s", offsetof(dcsim_gpubench, lowipc_s), 1e-9, 1e9, "s" },
  { "power_idle_w", offsetof(dcsim_gpubench, idle_w), 1e-3, 1e7, "W" },
  { "power_active_idle_w", offsetof(dcsim_gpubench, active_idle_w), 1e-3, 1e7, "W" },
  { "power_loaded_w", offsetof(dcsim_gpubench, loaded_w), 1e-3, 1e7, "W" },
  { "power_limit_w", offsetof(dcsim_gpubench, limit_w), 1e-3, 1e7, "W" },
};
#define N_BENCH_METRICS (sizeof bench_metrics / sizeof bench_metrics[0])
#define SERIES_LO_S     DCSIM_CALIB_TIME_MIN_S /* kernel and series times: calibration times */
#define SERIES_HI_S     DCSIM_CALIB_TIME_MAX_S

/* The line each scalar row was first seen on (0: not yet), device_name and compute_capability
 * after the metrics of the table. */
typedef struct bench_seen {
  int line[N_BENCH_METRICS + 2];
} bench_seen;

/* A metric given twice: refused naming both lines (the last one used to win silently). */
static int seen_once(bench_seen *seen, size_t k, const char *m, const char *path, int line,
                     dcsim_error *err) {
  if (seen->line[k])
    return DCSIM_ERR(err, DCSIM_EPARSE, path, line,
                     "%s given twice (first on line %d): one measurement per metric", m,
                     seen->line[k]);
  seen->line[k] = line;
  return 0;
}

/* x within [lo, hi], or the error saying so. */
static int in_range(const char *m, double x, double lo, double hi, const char *unit,
                    const char *path, int line, dcsim_error *err) {
  if (x >= lo && x <= hi) return 0;
  return DCSIM_ERR(err, DCSIM_ERANGE, path, line,
                   "%s = %g%s%s: outside the plausible %g to %g%s%s of any GPU (a wrong unit or "
                   "a garbled number?)",
                   m, x, *unit ? " " : "", unit, lo, hi, *unit ? " " : "", unit);
}

/* One row metric,size,value,unit into b. */
static int bench_row(const dcsim_csv_t *t, size_t r, size_t cm, size_t cs, size_t cv,
                     dcsim_gpubench *b, bench_seen *seen, dcsim_error *err) {
  const char *m = dcsim__csv_cell(t, r, cm), *v = dcsim__csv_cell(t, r, cv);
  const int line = dcsim__csv_line(t, r);
  int rc;
  if (strcmp(m, "device_name") == 0)
    return (rc = seen_once(seen, N_BENCH_METRICS, m, b->path, line, err))
               ? rc
               : (snprintf(b->name, sizeof b->name, "%s", v), 0);
  if (strcmp(m, "compute_capability") == 0) {
    if ((rc = seen_once(seen, N_BENCH_METRICS + 1, m, b->path, line, err))) return rc;
    return arch_name(v, b->arch, sizeof b->arch)
               ? DCSIM_ERR(err, DCSIM_ERANGE, b->path, line,
                           "compute_capability '%s': want X.Y (NVIDIA) or gfxNNN (AMD)", v)
               : 0;
  }
  static const char *const series[DCSIM_GPUBENCH_N_SERIES] = { "kernel_s", "transt_sync_s",
                                                               "transt_event_s", "stencil_sync_s",
                                                               "stencil_event_s" };
  double x;
  if ((rc = dcsim__csv_num(t, r, cv, &x, err))) return rc;
  for (size_t f = 0; f < N_PHASE_FIELDS; f++)
    if (strcmp(m, phase_fields[f].metric) == 0) return phase_row(t, r, cs, f, x, b, err);
  if (!(x > 0))
    return DCSIM_ERR(err, DCSIM_ERANGE, b->path, line, "%s = %g: must be positive", m, x);
  if (strcmp(m, "sm") == 0 && x != floor(x))
    return DCSIM_ERR(err, DCSIM_ERANGE, b->path, line, "sm = %g: must be a whole number", x);
  for (size_t i = 0; i < N_BENCH_METRICS; i++) {
    const bench_metric *bm = &bench_metrics[i];
    if (strcmp(m, bm->name) != 0) continue;
    if ((rc = seen_once(seen, i, m, b->path, line, err)) ||
        (rc = in_range(m, x, bm->lo, bm->hi, bm->unit, b->path, line, err)))
      return rc;
    *(double *)((char *)b + bm->off) = x;
    return 0;
  }
  for (int i = 0; i < DCSIM_GPUBENCH_N_SERIES; i++)
    if (strcmp(m, series[i]) == 0)
      return (rc = in_range(m, x, SERIES_LO_S, SERIES_HI_S, "s", b->path, line, err))
                 ? rc
                 : series_row(t, r, cs, &b->series[i], m, x, b->path, err);
  return DCSIM_ERR(err, DCSIM_ERANGE, b->path, line, "unknown metric '%s'", m);
}

/* Every phase complete: the six required rows, the five counts all or none, busy within its
 * duration, launches a whole number. */
static int check_phases(dcsim_gpubench *b, dcsim_error *err) {
  for (size_t i = 0; i < b->n_phases; i++) {
    dcsim_gpubench_phase *ph = &b->phases[i];
    for (size_t f = 0; f < N_PHASE_FIELDS; f++)
      if ((PHASE_REQUIRED & (1u << f)) && !(ph->seen & (1u << f)))
        return DCSIM_ERR(err, DCSIM_EPARSE, b->path, ph->line, "phase %s has no %s row", ph->name,
                         phase_fields[f].metric);
    unsigned c = ph->seen & PHASE_COUNTS;
    if (c && c != PHASE_COUNTS)
      return DCSIM_ERR(err, DCSIM_EPARSE, b->path, ph->line,
                       "phase %s: phase_fp64_inst, phase_fp32_inst, phase_other_inst, "
                       "phase_dram_byte and phase_l2_byte go together (all five or none)",
                       ph->name);
    ph->has_counts = c != 0;
    if ((ph->seen & (PHASE_WARP | PHASE_REQUEST)) && !c)
      return DCSIM_ERR(err, DCSIM_EPARSE, b->path, ph->line,
                       "phase %s: phase_warp_inst and phase_request_byte need the five counts",
                       ph->name);
    ph->has_warp = (ph->seen & PHASE_WARP) != 0;
    ph->has_request = (ph->seen & PHASE_REQUEST) != 0;
    if (!(ph->dur_s > 0) || ph->busy_s > 1.01 * ph->dur_s || ph->launches != floor(ph->launches))
      return DCSIM_ERR(err, DCSIM_ERANGE, b->path, ph->line,
                       "phase %s: duration %g s, busy %g s, %g launches: want a positive "
                       "duration, busy within it, whole launches",
                       ph->name, ph->dur_s, ph->busy_s, ph->launches);
  }
  return 0;
}

int dcsim_gpubench_load(const char *path, dcsim_gpubench *b, dcsim_error *err) {
  memset(b, 0, sizeof *b);
  snprintf(b->path, sizeof b->path, "%s", path);
  if (!dcsim_gpubench_is_bench(path))
    return DCSIM_ERR(err, DCSIM_EPARSE, path, 1,
                     "not a tools/gpu-bench CSV (first line '%s1' or '%s2')", BENCH_MAGIC,
                     BENCH_MAGIC);
  FILE *f = fopen(path, "r");
  char first[64] = "";
  if (f) {
    if (!fgets(first, sizeof first, f)) first[0] = 0;
    fclose(f);
  }
  b->layout = first[strlen(BENCH_MAGIC)] - '0';
  dcsim_csv_t *t = NULL;
  size_t cm, cs, cv;
  bench_seen seen;
  memset(&seen, 0, sizeof seen);
  int rc = dcsim__csv_load(path, &t, err);
  if (!rc && !(rc = dcsim__csv_col(t, "metric", &cm, err)) &&
      !(rc = dcsim__csv_col(t, "size", &cs, err)) && !(rc = dcsim__csv_col(t, "value", &cv, err)))
    for (size_t r = 0; r < dcsim__csv_rows(t) && !rc; r++)
      rc = bench_row(t, r, cm, cs, cv, b, &seen, err);
  dcsim__csv_free(t);
  if (rc) return rc;
  if (b->n_phases && b->layout < 2)
    return DCSIM_ERR(err, DCSIM_EPARSE, path, b->phases[0].line,
                     "phase rows need layout 2 (first line '%s2')", BENCH_MAGIC);
  if ((rc = check_phases(b, err))) return rc;
  const char *missing = !*b->name               ? "device_name"
                        : !*b->arch             ? "compute_capability"
                        : !(b->sm > 0)          ? "sm"
                        : !(b->clock_hz > 0)    ? "clock_hz"
                        : !(b->memory_byte > 0) ? "memory_byte"
                        : !(b->stream_bps > 0)  ? "stream_triad_bps"
                                                : NULL;
  if (missing) return DCSIM_ERR(err, DCSIM_EPARSE, path, 0, "no %s row", missing);
  return 0;
}

/* The GPU architecture the bench CSV names (its arch column, from the catalogue or beside the
 * CSV) loaded into *a. */
static int load_arch(const dcsim_gpubench *b, dcsim_gpu_arch *a, dcsim_error *err) {
  char *apath = NULL;
  int rc = dcsim_catalog_find(DCSIM_KIND_GPU_ARCH, b->arch, b->path, 0, &apath, err);
  if (!rc) rc = dcsim_gpu_arch_load(apath, a, err);
  free(apath);
  return rc;
}

int dcsim_gpubench_check_peaks(const dcsim_gpubench *b, dcsim_error *err) {
  dcsim_gpu_arch a;
  int rc = load_arch(b, &a, err);
  if (rc) return rc;
  const struct {
    const char *metric;
    double v, per_clock; /* measured; operations per clock per SM */
  } m[] = { { "fp64_fma_flops", b->fp64_flops, a.fp64 },
            { "fp32_fma_flops", b->fp32_flops, a.fp32 },
            { "int32_ops", b->int_ops, a.int_add } };
  for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
    /* an FMA (or the integer multiply-add of gpu-bench) is two operations */
    double peak = b->sm * m[i].per_clock * 2 * b->clock_hz;
    if (!(m[i].v > 0) || !(peak > 0)) continue; /* not measured, or no native instruction */
    if (m[i].v > 1.10 * peak || m[i].v < 1e-3 * peak)
      return DCSIM_ERR(err, DCSIM_ERANGE, b->path, 0,
                       "%s = %g: %s the peak of architecture %s, %g SMs x %g per clock x 2 x %g "
                       "GHz = %.4g (a measurement may pass it by 10 %% at most; a wrong unit, "
                       "clock or compute capability?)",
                       m[i].metric, m[i].v, m[i].v > peak ? "above" : "below a thousandth of",
                       a.name, b->sm, m[i].per_clock, b->clock_hz * 1e-9, peak);
  }
  return 0;
}

/* "45.12 W", "12 %", "[N/A]": the leading number and a unit that must be `unit` (or none). */
static int num_unit(const dcsim_csv_t *t, size_t r, size_t c, const char *unit, double *x,
                    const char *path, dcsim_error *err) {
  const char *s = dcsim__csv_cell(t, r, c);
  char *end = NULL;
  *x = strtod(s, &end);
  while (end && *end == ' ') end++;
  if (end == s || !isfinite(*x) || (*end && strcmp(end, unit) != 0))
    return DCSIM_ERR(err, DCSIM_EPARSE, path, dcsim__csv_line(t, r),
                     "'%s' is not a number of %s (nvidia-smi --format=csv)", s, unit);
  return 0;
}

typedef struct power_cols {
  size_t draw, util, limit, pstate, clock, time;
  int has_limit, has_pstate, has_clock, has_time;
} power_cols;

/* The column named `a` (nvidia-smi's header with its unit) or `b` (without). */
static int col2(const dcsim_csv_t *t, const char *a, const char *b, size_t *col) {
  dcsim_error e;
  return dcsim__csv_col(t, a, col, &e) == 0 || dcsim__csv_col(t, b, col, &e) == 0;
}

static int power_columns(const dcsim_csv_t *t, const char *path, power_cols *pc, dcsim_error *err) {
  if (!col2(t, "power.draw [W]", "power.draw", &pc->draw) ||
      !col2(t, "utilization.gpu [%]", "utilization.gpu", &pc->util))
    return DCSIM_ERR(err, DCSIM_EPARSE, path, 1,
                     "a power log needs the columns power.draw [W] and utilization.gpu [%%] "
                     "(nvidia-smi --query-gpu=timestamp,power.draw,utilization.gpu,power.limit,"
                     "pstate,clocks.current.sm --format=csv)");
  pc->has_limit = col2(t, "power.limit [W]", "power.limit", &pc->limit);
  pc->has_time = col2(t, "timestamp", "timestamp", &pc->time);
  pc->has_pstate = col2(t, "pstate", "pstate", &pc->pstate);
  pc->has_clock = col2(t, "clocks.current.sm [MHz]", "clocks.sm [MHz]", &pc->clock);
  return 0;
}

typedef struct power_sample {
  double t, w, util, clock;
  int pstate;
} power_sample;

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian; Howard Hinnant's days_from_civil). */
static long days_from_civil(long y, unsigned m, unsigned d) {
  y -= m <= 2;
  const long era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = (unsigned)(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + (long)doe - 719468;
}

/* A timestamp: seconds (tools/gpu-bench) or nvidia-smi's "YYYY/MM/DD HH:MM:SS.mmm" (as UTC). */
static int parse_time(const char *s, double *out) {
  char *end = NULL;
  *out = strtod(s, &end);
  if (end != s && *end == 0 && isfinite(*out)) return 0;
  int y, mo, d, h, mi, n = 0;
  double sec;
  if (sscanf(s, "%d/%d/%d %d:%d:%lf%n", &y, &mo, &d, &h, &mi, &sec, &n) != 6 || s[n] || mo < 1 ||
      mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec >= 61)
    return -1;
  *out = (double)days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 + mi * 60 + sec;
  return 0;
}

typedef struct wsample {
  double w, weight;
} wsample;

static int cmp_wsample(const void *a, const void *b) {
  return dcsim_cmp_double(&((const wsample *)a)->w, &((const wsample *)b)->w);
}

/* Time-weighted median of v[0..n) (sorts v): the value below which half the time lies. */
static double weighted_median(wsample *v, size_t n) {
  qsort(v, n, sizeof *v, cmp_wsample);
  double total = 0, acc = 0;
  for (size_t i = 0; i < n; i++) total += v[i].weight;
  for (size_t i = 0; i < n; i++)
    if ((acc += v[i].weight) >= 0.5 * total) return v[i].w;
  return v[n - 1].w;
}

/* One sample of row r, checked. */
static int power_sample_at(const dcsim_csv_t *t, size_t r, const char *path, const power_cols *pc,
                           power_sample *sp, double *limit, dcsim_error *err) {
  int rc;
  sp->pstate = 0;
  sp->clock = 0;
  sp->t = (double)r; /* without timestamps: one per row */
  *limit = 0;
  if (pc->has_time && parse_time(dcsim__csv_cell(t, r, pc->time), &sp->t))
    return DCSIM_ERR(err, DCSIM_EPARSE, path, dcsim__csv_line(t, r),
                     "timestamp '%s': want seconds or YYYY/MM/DD HH:MM:SS.mmm",
                     dcsim__csv_cell(t, r, pc->time));
  if ((rc = num_unit(t, r, pc->draw, "W", &sp->w, path, err)) ||
      (rc = num_unit(t, r, pc->util, "%", &sp->util, path, err)) ||
      (pc->has_limit && (rc = num_unit(t, r, pc->limit, "W", limit, path, err))) ||
      (pc->has_clock && (rc = num_unit(t, r, pc->clock, "MHz", &sp->clock, path, err))))
    return rc;
  if (pc->has_pstate && sscanf(dcsim__csv_cell(t, r, pc->pstate), "P%d", &sp->pstate) != 1)
    return DCSIM_ERR(err, DCSIM_EPARSE, path, dcsim__csv_line(t, r), "pstate '%s': want P0..P15",
                     dcsim__csv_cell(t, r, pc->pstate));
  if (sp->w < 0 || sp->util < 0 || sp->util > 100 || (pc->has_limit && !(*limit > 0)) ||
      sp->clock < 0)
    return DCSIM_ERR(err, DCSIM_ERANGE, path, dcsim__csv_line(t, r),
                     "power %g W, utilisation %g %%, limit %g W: out of range", sp->w, sp->util,
                     *limit);
  return 0;
}

#define SETTLE_S 1.5 /* a run of idle samples counts from this long after its start */

/* Whether sample r is idle with a context: P0, 0 % utilisation, SM clock up (at least half the
 * highest, when the log has clocks). */
static int active_idle_sample(const power_sample *sp, const power_cols *pc, double cmax) {
  return sp->pstate == 0 && sp->util == 0 && (!pc->has_clock || sp->clock >= 0.5 * cmax);
}

/* Active idle: median of the samples of runs of consecutive active-idle samples, each run from
 * SETTLE_S after its start (the board's power decays for seconds after a load, while the
 * utilisation already reads 0); idle: median at the lowest SM clock when that is under half the
 * highest (no CUDA context), else the active idle. */
static int power_samples(const dcsim_csv_t *t, const char *path, const power_cols *pc,
                         dcsim_gpu_power_fit *o, dcsim_error *err) {
  const size_t n = dcsim__csv_rows(t);
  power_sample *sp = calloc(n ? n : 1, sizeof *sp);
  double *v = calloc(n ? n : 1, sizeof *v), cmin = HUGE_VAL, cmax = 0;
  wsample *ws = calloc(n ? n : 1, sizeof *ws);
  int rc = 0;
  if (!sp || !v || !ws) rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  for (size_t r = 0; r < n && !rc; r++) {
    double l;
    if ((rc = power_sample_at(t, r, path, pc, &sp[r], &l, err))) break;
    o->limit_w = fmax(o->limit_w, l);
    cmin = fmin(cmin, sp[r].clock), cmax = fmax(cmax, sp[r].clock);
  }
  o->n_samples = n;
  double run_start = 0;
  for (size_t r = 0; r < n && !rc; r++) {
    if (!active_idle_sample(&sp[r], pc, cmax)) continue;
    if (r == 0 || !active_idle_sample(&sp[r - 1], pc, cmax)) run_start = sp[r].t;
    if (pc->has_time && sp[r].t < run_start + SETTLE_S) continue;
    /* each sample stands for the time to the next (at most 1 s): logs sampled at every kernel
     * launch must not outweigh a slow idle log */
    double dt = fmin(1, fmax(0, r + 1 < n ? sp[r + 1].t - sp[r].t : r ? sp[r].t - sp[r - 1].t : 1));
    ws[o->n_idle].w = sp[r].w;
    ws[o->n_idle++].weight = pc->has_time ? dt : 1;
  }
  if (!rc && o->n_idle == 0)
    rc = DCSIM_ERR(err, DCSIM_ERANGE, path, 0,
                   "%zu samples, none in P0 at 0 %% utilisation%s: no active idle (log the GPU "
                   "with a context open and nothing running)",
                   n, pc->has_clock ? " with the SM clock up" : "");
  if (!rc) o->active_idle_w = weighted_median(ws, o->n_idle);
  size_t k = 0;
  int deepest = 0;
  for (size_t r = 0; r < n && !rc; r++) deepest = sp[r].pstate > deepest ? sp[r].pstate : deepest;
  if (!rc && pc->has_clock && cmin < 0.5 * cmax) /* no context: the SM clock down */
    for (size_t r = 0; r < n; r++)
      if (sp[r].clock == cmin && sp[r].util == 0) v[k++] = sp[r].w;
  if (!rc && !k && deepest > 0) /* without clocks: a deeper power state than P0 (P8) */
    for (size_t r = 0; r < n; r++)
      if (sp[r].pstate == deepest && sp[r].util == 0) v[k++] = sp[r].w;
  if (!rc) {
    o->idle_measured = k > 0;
    o->idle_w = k ? dcsim_median(v, k) : o->active_idle_w;
  }
  free(sp);
  free(v);
  free(ws);
  return rc;
}

int dcsim_gpu_power_fit_csv(const char *path, dcsim_gpu_power_fit *out, dcsim_error *err) {
  memset(out, 0, sizeof *out);
  dcsim_csv_t *t = NULL;
  power_cols pc;
  int rc = dcsim__csv_load(path, &t, err);
  if (!rc) rc = power_columns(t, path, &pc, err);
  if (!rc) rc = power_samples(t, path, &pc, out, err);
  dcsim__csv_free(t);
  if (!rc && !(out->active_idle_w > 0 && (out->limit_w == 0 || out->active_idle_w < out->limit_w)))
    rc = DCSIM_ERR(err, DCSIM_ERANGE, path, 0,
                   "active idle %.4g W is not between 0 and the limit %.4g W", out->active_idle_w,
                   out->limit_w);
  return rc;
}

/* ---- the activity model from labelled phases (doc/models.md "GPU power by activity") ---- */

static const char *const term_name[DCSIM_GPU_PM_TERMS] = { "busy", "fp64", "fp32",  "int",
                                                           "dram", "l2",   "issue", "scatter" };

/* A phase's activity over its duration: busy share, pipe rates over the architecture's peaks
 * (SM x per-clock rate x clock), traffic over the measured DRAM bandwidth. */
static void phase_activity(const dcsim_gpubench *b, const dcsim_gpu_arch *a,
                           const dcsim_gpubench_phase *ph, double *x) {
  const double d = ph->dur_s, sf = b->sm * b->clock_hz;
  x[0] = fmin(1, ph->busy_s / d);
  x[1] = ph->fp64 / d / (sf * a->fp64);
  x[2] = ph->fp32 / d / (sf * a->fp32);
  x[3] = ph->other / d / (sf * a->int_add);
  x[4] = ph->dram / d / b->stream_bps;
  x[5] = ph->l2 / d / b->stream_bps;
  /* warp instructions over the issue slots (SM x issue width x clock), lanes ignored */
  x[6] = ph->has_warp && a->issue_width > 0 ? ph->warp / d / (sf * a->issue_width) : 0;
  /* DRAM bytes moved beyond those requested (uncoalesced access) over the bandwidth */
  x[7] = ph->has_request ? fmax(0, ph->dram - ph->request) / d / b->stream_bps : 0;
}

/* Idle and active idle from the phases without launches. */
static int phase_idles(const dcsim_gpubench *b, dcsim_gpu_phase_fit *o, dcsim_error *err) {
  double act = 0, idle = 0;
  size_t na = 0, ni = 0;
  for (size_t i = 0; i < b->n_phases; i++) {
    const dcsim_gpubench_phase *ph = &b->phases[i];
    if (ph->launches > 0) continue;
    if (ph->context)
      act += ph->power_w, na++;
    else
      idle += ph->power_w, ni++;
  }
  if (!na)
    return DCSIM_ERR(err, DCSIM_EPARSE, b->path, 0,
                     "no idle phase with a context (phase_context 1, no launches): no active idle");
  o->active_idle_w = act / (double)na;
  o->idle_measured = ni > 0;
  o->idle_w = ni ? idle / (double)ni : o->active_idle_w;
  o->limit_w = b->limit_w;
  if (!(o->limit_w > o->active_idle_w))
    return DCSIM_ERR(err, DCSIM_EPARSE, b->path, 0,
                     "no power_limit_w row above the active idle %.4g W", o->active_idle_w);
  return 0;
}

int dcsim_gpubench_fit_phases(const dcsim_gpubench *b, dcsim_gpu_phase_fit *o, dcsim_error *err) {
  memset(o, 0, sizeof *o);
  if (!b->n_phases)
    return DCSIM_ERR(err, DCSIM_EPARSE, b->path, 0, "no phase rows (tools/gpu-bench layout 2)");
  dcsim_gpu_arch a;
  int rc = load_arch(b, &a, err);
  if (rc || (rc = phase_idles(b, o, err))) return rc;
  o->n_phases = b->n_phases;
  double A[DCSIM_GPUBENCH_MAX_PHASES * DCSIM_GPU_PM_TERMS], y[DCSIM_GPUBENCH_MAX_PHASES];
  size_t rows[DCSIM_GPUBENCH_MAX_PHASES];
  for (size_t i = 0; i < b->n_phases; i++) {
    o->row[i].ph = &b->phases[i];
    phase_activity(b, &a, &b->phases[i], o->row[i].x);
    if (!b->phases[i].has_counts || !(b->phases[i].launches > 0)) continue;
    o->row[i].fitted = 1;
    rows[o->n_fit++] = i;
    for (int j = 0; j < DCSIM_GPU_PM_TERMS; j++)
      o->exercised[j] |= o->row[i].x[j] >= 0.05; /* a resource at 5 % of its peak or more */
  }
  /* the columns some phase exercised; the others are not fitted (fp32 takes int's, doc) */
  int col[DCSIM_GPU_PM_TERMS];
  size_t nc = 0;
  for (int j = 0; j < DCSIM_GPU_PM_TERMS; j++)
    if (o->exercised[j]) col[nc++] = j;
  if (o->n_fit < nc + 1 || nc == 0)
    return DCSIM_ERR(err, DCSIM_EPARSE, b->path, 0,
                     "%zu loaded phases with counts for %zu exercised resources: the fit needs "
                     "at least one phase more than resources",
                     o->n_fit, nc);
  for (size_t r = 0; r < o->n_fit; r++) {
    y[r] = o->row[rows[r]].ph->power_w - o->active_idle_w;
    for (size_t c = 0; c < nc; c++) A[r * nc + c] = o->row[rows[r]].x[col[c]];
  }
  unsigned char nonneg[DCSIM_GPU_PM_TERMS];
  memset(nonneg, 1, sizeof nonneg);
  dcsim_linfit lf = { o->n_fit, nc, A, y, NULL, nonneg, NULL, 0 };
  double coef[DCSIM_GPU_PM_TERMS], pred[DCSIM_GPUBENCH_MAX_PHASES], loo[DCSIM_GPUBENCH_MAX_PHASES];
  dcsim_fit_stats st;
  if ((rc = dcsim_fit_linear(&lf, DCSIM_FIT_LSQ, coef, err)) ||
      (rc = dcsim_fit_evaluate(&lf, DCSIM_FIT_LSQ, coef, pred, loo, &st, err)))
    return rc;
  for (size_t c = 0; c < nc; c++) o->coef_w[col[c]] = coef[c];
  if (!o->exercised[2]) o->coef_w[2] = o->coef_w[3]; /* FP32 not exercised: as integer */
  for (size_t r = 0; r < o->n_fit; r++) {
    o->row[rows[r]].loo_w = isfinite(loo[r]) ? o->active_idle_w + loo[r] : NAN;
  }
  for (size_t i = 0; i < b->n_phases; i++) {
    double p = o->active_idle_w;
    for (int j = 0; j < DCSIM_GPU_PM_TERMS; j++) p += o->coef_w[j] * o->row[i].x[j];
    o->row[i].model_w = b->phases[i].launches == 0
                            ? (b->phases[i].context ? o->active_idle_w : o->idle_w)
                        : b->phases[i].has_counts ? p
                                                  : NAN;
  }
  return 0;
}

/* The <power> element: from the phase fit, else the log, else the bench's power rows. */
static int power_xml(FILE *f, const dcsim_gpubench *b, const dcsim_gpu_power_fit *pw,
                     const dcsim_gpu_phase_fit *ph, dcsim_error *err) {
  double lim = ph                      ? ph->limit_w
               : pw && pw->limit_w > 0 ? pw->limit_w
                                       : b->limit_w,
         idle = ph   ? ph->idle_w
                : pw ? pw->idle_w
                     : b->idle_w,
         act = ph   ? ph->active_idle_w
               : pw ? pw->active_idle_w
                    : b->active_idle_w;
  int idle_measured = ph ? ph->idle_measured : pw ? pw->idle_measured : b->idle_w > 0;
  if (!(lim > 0) || !(act > 0 || idle > 0))
    return DCSIM_ERR(err, DCSIM_EPARSE, b->path, 0,
                     "no power limit or idle power: add power_limit_w and power_idle_w rows, a "
                     "power log (nvidia-smi CSV) or phase rows");
  if (!(act > 0)) act = idle;
  if (!(idle > 0)) idle = act;
  const char *act_src = ph   ? "measured: tools/gpu-bench phases with a CUDA context and nothing "
                               "running (mean of their medians)"
                        : pw ? "measured: time-weighted median of the power log's P0 samples at "
                               "0 % utilisation, each idle run from 1.5 s after its start"
                             : "measured: tools/gpu-bench NVML readings";
  const char *idle_src = !idle_measured
                             ? "measured: no sample before a CUDA context, so the active idle "
                               "(an upper bound of the idle)"
                         : ph ? "measured: tools/gpu-bench phase before any CUDA context (median)"
                         : pw ? "measured: median of the power log's samples at the lowest SM "
                                "clock or, without clocks, in the deepest power state (no CUDA "
                                "context)"
                              : "measured: tools/gpu-bench NVML reading";
  fprintf(f,
          "  <power limit-w=\"%.4g\" limit-source=\"measured: NVML power limit\" idle-w=\"%.4g\" "
          "idle-source=\"%s\" active-idle-w=\"%.4g\" active-idle-source=\"%s\"/>\n",
          lim, fmin(idle, act), idle_src, act, act_src);
  return 0;
}

/* The <power-model> element of the phase fit (nothing without one). */
static void power_model_xml(FILE *f, const dcsim_gpubench *b, const dcsim_gpu_phase_fit *ph) {
  if (!ph) return;
  fputs("  <power-model", f);
  for (int j = 0; j < DCSIM_GPU_PM_TERMS; j++)
    fprintf(f, " %s-w=\"%.4g\"", term_name[j], ph->coef_w[j]);
  fprintf(f,
          " source=\"fitted: dcsim calibrate gpu, non-negative least squares on %zu labelled "
          "phases of ",
          ph->n_fit);
  dcsim__xml_escape(f, b->path);
  for (int j = 0; j < DCSIM_GPU_PM_TERMS; j++)
    if (!ph->exercised[j])
      fprintf(f, "; %s not exercised by any phase (%s)", term_name[j],
              j == 2 ? "taken as int" : "0");
  fputs("\"/>\n", f);
}

/* The document: every text from the input (the bench's path, its device name, the profile name)
 * through the one XML escaping (dcsim__xml_escape, dcsim__xml_comment_text), so no input can add
 * markup. */
static int profile_doc(FILE *f, const dcsim_gpubench *b, const dcsim_gpu_power_fit *pw,
                       const dcsim_gpu_phase_fit *ph, const char *name, dcsim_error *err) {
  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- GENERATED by dcsim calibrate gpu from ",
        f);
  dcsim__xml_comment_text(f, b->path);
  fputs(
      " (tools/gpu-bench): the default (architecture) model's profile of this GPU "
      "(doc/calibration.md). -->\n<gpu-profile name=\"",
      f);
  dcsim__xml_escape(f, name);
  fputs("\" model=\"", f);
  dcsim__xml_escape(f, b->name);
  fputs("\">\n  <device arch=\"", f);
  dcsim__xml_escape(f, b->arch);
  fprintf(f,
          "\" sm=\"%.0f\" clock-hz=\"%.6g\" memory-bw-bps=\"%.6g\" source=\"measured: "
          "tools/gpu-bench (device query; STREAM triad bandwidth)\"/>\n"
          "  <memory byte=\"%.0f\" source=\"measured: device query\"/>\n",
          b->sm, b->clock_hz, b->stream_bps, b->memory_byte);
  if (b->h2d_bps > 0) /* schemas/gpu-profile.xsd's order from here */
    fprintf(f,
            "  <host-link bw-bps=\"%.4g\" source=\"measured: tools/gpu-bench pinned "
            "host-to-device copy\"/>\n",
            b->h2d_bps);
  int rc = power_xml(f, b, pw, ph, err);
  if (rc) return rc;
  if (b->sync_launch_s > 0)
    fprintf(f,
            "  <launch sync-s=\"%.4g\" async-s=\"%.4g\" source=\"measured: tools/gpu-bench (empty "
            "kernel: one launch and a device synchronisation; back to back)\"/>\n",
            b->sync_launch_s, fmin(b->launch_s, b->sync_launch_s));
  power_model_xml(f, b, ph);
  fputs("</gpu-profile>\n", f);
  return 0;
}

int dcsim_gpubench_profile_xml(const dcsim_gpubench *b, const dcsim_gpu_power_fit *pw,
                               const dcsim_gpu_phase_fit *ph, const char *name, char **text,
                               dcsim_error *err) {
  char *apath = NULL; /* the architecture must be known */
  int rc = dcsim_catalog_find(DCSIM_KIND_GPU_ARCH, b->arch, b->path, 0, &apath, err);
  free(apath);
  if (rc) return rc;
  char *s = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&s, &len);
  if (!f) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  rc = profile_doc(f, b, pw, ph, name, err);
  if (fclose(f) != 0 && !rc) rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  if (rc) {
    free(s);
    return rc;
  }
  *text = s;
  return 0;
}

/* The phases: measured, fitted, refitted without each (leave-one-out). */
static void report_phases(FILE *f, const dcsim_gpu_phase_fit *ph) {
  fprintf(f, "power: idle %.4g W (%s), active idle %.4g W, limit %.4g W\n", ph->idle_w,
          ph->idle_measured ? "no CUDA context" : "no phase before a context: the active idle",
          ph->active_idle_w, ph->limit_w);
  fprintf(f, "power model (W at full use):");
  for (int j = 0; j < DCSIM_GPU_PM_TERMS; j++)
    fprintf(f, " %s %.4g%s", term_name[j], ph->coef_w[j], ph->exercised[j] ? "" : " (not fitted)");
  fprintf(f, "\n%-16s %7s %7s %7s %7s %7s %7s %7s %7s %9s %9s %9s\n", "phase", "busy", "fp64",
          "fp32", "int", "dram", "l2", "issue", "scatter", "measured", "model", "held out");
  for (size_t i = 0; i < ph->n_phases; i++) {
    const double *x = ph->row[i].x;
    fprintf(f, "%-16s %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f %9.4g ", ph->row[i].ph->name,
            x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], ph->row[i].ph->power_w);
    if (isfinite(ph->row[i].model_w))
      fprintf(f, "%9.4g", ph->row[i].model_w);
    else
      fprintf(f, "%9s", "-");
    if (ph->row[i].fitted && isfinite(ph->row[i].loo_w))
      fprintf(f, " %9.4g\n", ph->row[i].loo_w);
    else
      fprintf(f, " %9s\n", ph->row[i].fitted ? "-" : "(no counts)");
  }
}

void dcsim_gpubench_report(FILE *f, const dcsim_gpubench *b, const dcsim_gpu_power_fit *pw,
                           const dcsim_gpu_phase_fit *ph) {
  fprintf(f, "GPU %s (%s, %.0f SM at %.4g GHz): STREAM triad %.4g GB/s", b->name, b->arch, b->sm,
          b->clock_hz * 1e-9, b->stream_bps * 1e-9);
  dcsim_gpu_arch a;
  dcsim_error e;
  if (b->fp64_flops > 0 && load_arch(b, &a, &e) == 0) /* peak = SM x fp64 x 2 x clock */
    fprintf(f, ", FP64 FMA %.4g GFLOP/s (%.1f %% of %s's %.4g)", b->fp64_flops * 1e-9,
            100 * b->fp64_flops / (b->sm * a.fp64 * 2 * b->clock_hz), a.name,
            b->sm * a.fp64 * 2 * b->clock_hz * 1e-9);
  if (b->launch_s > 0) fprintf(f, ", launch %.3g us", b->launch_s * 1e6);
  if (b->sync_launch_s > 0) fprintf(f, ", synchronous launch %.3g us", b->sync_launch_s * 1e6);
  fputc('\n', f);
  if (b->dep_fp32_cycles > 0)
    fprintf(f, "dependent issue: FP32 FMA %.3g cycles\n", b->dep_fp32_cycles);
  if (b->dep_fp64_cycles > 0)
    fprintf(f, "dependent issue: FP64 FMA %.3g cycles\n", b->dep_fp64_cycles);
  if (pw)
    fprintf(f,
            "power log: %zu samples, %zu in P0 at 0 %% utilisation: active idle %.4g W; idle %.4g "
            "W (%s); limit %.4g W\n",
            pw->n_samples, pw->n_idle, pw->active_idle_w, pw->idle_w,
            pw->idle_measured ? "no context: lowest SM clock or deepest power state"
                              : "no sample before a context",
            pw->limit_w);
  if (ph) report_phases(f, ph);
  const dcsim_gpubench_series *ks = &b->series[DCSIM_GPUBENCH_SERIES_KERNEL];
  for (size_t i = 0; i < ks->n; i++)
    fprintf(f, "kernel %gx%gx80: %.4g s\n", ks->size[i], ks->size[i], ks->value[i]);
}
