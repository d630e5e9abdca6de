/* calib_gpubench.c — a GPU profile from tools/gpu-bench and nvidia-smi CSVs (see
 * dcsim/calib_gpubench.h). */
#include "dcsim/calib_gpubench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"
#include "dcsim/gpuarch.h"
#include "dcsim/strutil.h"
#include "util/csv.h"

#define BENCH_MAGIC "# dcsim gpu-bench 1"

int dcsim_gpubench_is_bench(const char *path) {
  FILE *f = fopen(path, "r");
  char line[64] = "";
  if (!f) return 0;
  int ok = fgets(line, sizeof line, f) && strncmp(line, BENCH_MAGIC, strlen(BENCH_MAGIC)) == 0;
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

/* One row metric,size,value,unit into b. */
static int bench_row(const dcsim_csv_t *t, size_t r, size_t cm, size_t cs, size_t cv,
                     dcsim_gpubench *b, dcsim_error *err) {
  const char *m = dcsim__csv_cell(t, r, cm), *v = dcsim__csv_cell(t, r, cv);
  const int line = dcsim__csv_line(t, r);
  if (strcmp(m, "device_name") == 0) return snprintf(b->name, sizeof b->name, "%s", v), 0;
  if (strcmp(m, "compute_capability") == 0)
    return arch_name(v, b->arch, sizeof b->arch)
               ? DCSIM_ERR(err, DCSIM_ERANGE, b->path, line,
                           "compute_capability '%s': want X.Y (NVIDIA) or gfxNNN (AMD)", v)
               : 0;
  struct {
    const char *name;
    double *dst;
  } num[] = { { "sm", &b->sm },
              { "clock_hz", &b->clock_hz },
              { "memory_byte", &b->memory_byte },
              { "stream_triad_bps", &b->stream_bps },
              { "fp64_fma_flops", &b->fp64_flops },
              { "launch_s", &b->launch_s },
              { "h2d_bps", &b->h2d_bps },
              { "power_idle_w", &b->idle_w },
              { "power_active_idle_w", &b->active_idle_w },
              { "power_loaded_w", &b->loaded_w },
              { "power_limit_w", &b->limit_w } };
  double x;
  int rc = dcsim__csv_num(t, r, cv, &x, err);
  if (rc) return rc;
  if (!(x > 0))
    return DCSIM_ERR(err, DCSIM_ERANGE, b->path, line, "%s = %g: must be positive", m, x);
  if (strcmp(m, "sm") == 0 && x != floor(x))
    return DCSIM_ERR(err, DCSIM_ERANGE, b->path, line, "sm = %g: must be a whole number", x);
  for (size_t i = 0; i < sizeof num / sizeof num[0]; i++)
    if (strcmp(m, num[i].name) == 0) return *num[i].dst = x, 0;
  if (strcmp(m, "kernel_s") != 0)
    return DCSIM_ERR(err, DCSIM_ERANGE, b->path, line, "unknown metric '%s'", m);
  if (b->n_sizes == DCSIM_GPUBENCH_MAX_SIZES)
    return DCSIM_ERR(err, DCSIM_ERANGE, b->path, line, "more than %d kernel sizes",
                     DCSIM_GPUBENCH_MAX_SIZES);
  if ((rc = dcsim__csv_num(t, r, cs, &b->size[b->n_sizes], err))) return rc;
  b->kernel_s[b->n_sizes++] = x;
  return 0;
}

int dcsim_gpubench_load(const char *path, dcsim_gpubench *b, dcsim_error *err) {
  memset(b, 0, sizeof *b);
  snprintf(b->path, sizeof b->path, "%s", path);
  if (!dcsim_gpubench_is_bench(path))
    return DCSIM_ERR(err, DCSIM_EPARSE, path, 1, "not a tools/gpu-bench CSV (first line '%s')",
                     BENCH_MAGIC);
  dcsim_csv_t *t = NULL;
  size_t cm, cs, cv;
  int rc = dcsim__csv_load(path, &t, err);
  if (!rc && !(rc = dcsim__csv_col(t, "metric", &cm, err)) &&
      !(rc = dcsim__csv_col(t, "size", &cs, err)) && !(rc = dcsim__csv_col(t, "value", &cv, err)))
    for (size_t r = 0; r < dcsim__csv_rows(t) && !rc; r++) rc = bench_row(t, r, cm, cs, cv, b, err);
  dcsim__csv_free(t);
  if (rc) return rc;
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
  size_t draw, util, limit, pstate;
  int has_pstate;
} power_cols;

/* The column named `a` (nvidia-smi's header with its unit) or `b` (without). */
static int col2(const dcsim_csv_t *t, const char *a, const char *b, size_t *col) {
  dcsim_error e;
  return dcsim__csv_col(t, a, col, &e) == 0 || dcsim__csv_col(t, b, col, &e) == 0;
}

static int power_columns(const dcsim_csv_t *t, const char *path, power_cols *pc, dcsim_error *err) {
  if (!col2(t, "power.draw [W]", "power.draw", &pc->draw) ||
      !col2(t, "utilization.gpu [%]", "utilization.gpu", &pc->util) ||
      !col2(t, "power.limit [W]", "power.limit", &pc->limit))
    return DCSIM_ERR(err, DCSIM_EPARSE, path, 1,
                     "a power log needs the columns power.draw [W], utilization.gpu [%%] and "
                     "power.limit [W] (nvidia-smi --query-gpu=timestamp,power.draw,"
                     "utilization.gpu,power.limit,pstate --format=csv)");
  pc->has_pstate = col2(t, "pstate", "pstate", &pc->pstate);
  return 0;
}

/* Least squares P = a + k*u over the P0 samples; idle = lowest draw in the deepest pstate. */
static int power_samples(const dcsim_csv_t *t, const char *path, const power_cols *pc,
                         dcsim_gpu_power_fit *o, dcsim_error *err) {
  double su = 0, sp = 0, suu = 0, sup = 0, umin = HUGE_VAL, umax = -HUGE_VAL;
  int deepest = -1;
  o->idle_w = HUGE_VAL;
  for (size_t r = 0; r < dcsim__csv_rows(t); r++) {
    double p, u, l;
    int rc, ps = 0;
    if ((rc = num_unit(t, r, pc->draw, "W", &p, path, err)) ||
        (rc = num_unit(t, r, pc->util, "%", &u, path, err)) ||
        (rc = num_unit(t, r, pc->limit, "W", &l, path, err)))
      return rc;
    if (pc->has_pstate && sscanf(dcsim__csv_cell(t, r, pc->pstate), "P%d", &ps) != 1)
      return DCSIM_ERR(err, DCSIM_EPARSE, path, dcsim__csv_line(t, r), "pstate '%s': want P0..P15",
                       dcsim__csv_cell(t, r, pc->pstate));
    if (p < 0 || u < 0 || u > 100 || !(l > 0))
      return DCSIM_ERR(err, DCSIM_ERANGE, path, dcsim__csv_line(t, r),
                       "power %g W, utilisation %g %%, limit %g W: out of range", p, u, l);
    o->n_samples++;
    o->limit_w = fmax(o->limit_w, l);
    if (ps > deepest)
      deepest = ps, o->idle_w = p;
    else if (ps == deepest)
      o->idle_w = fmin(o->idle_w, p);
    if (ps != 0) continue;
    u /= 100;
    su += u, sp += p, suu += u * u, sup += u * p, o->n_fit++;
    umin = fmin(umin, u), umax = fmax(umax, u);
  }
  if (o->n_fit < 2 || !(umax > umin))
    return DCSIM_ERR(err, DCSIM_ERANGE, path, 0,
                     "%zu samples in P0 with utilisation %g..%g %%: the fit needs at least two "
                     "different utilisations (run tools/gpu-bench's loaded phase while logging)",
                     o->n_fit, 100 * umin, 100 * umax);
  double n = (double)o->n_fit;
  o->slope_w = (n * sup - su * sp) / (n * suu - su * su);
  o->active_idle_w = (sp - o->slope_w * su) / n;
  snprintf(o->deepest_pstate, sizeof o->deepest_pstate, "P%d", deepest);
  return 0;
}

int dcsim_gpu_power_fit_csv(const char *path, dcsim_gpu_power_fit *out, dcsim_error *err) {
  memset(out, 0, sizeof *out);
  dcsim_csv_t *t = NULL;
  power_cols pc;
  int rc = dcsim__csv_load(path, &t, err);
  if (!rc) rc = power_columns(t, path, &pc, err);
  if (!rc) rc = power_samples(t, path, &pc, out, err);
  dcsim__csv_free(t);
  if (!rc && !(out->active_idle_w > 0 && out->active_idle_w < out->limit_w))
    rc = DCSIM_ERR(err, DCSIM_ERANGE, path, 0,
                   "fitted active idle %.4g W is not between 0 and the limit %.4g W",
                   out->active_idle_w, out->limit_w);
  return rc;
}

/* The <power> element from the fit, else from the bench rows. */
static int power_xml(const dcsim_gpubench *b, const dcsim_gpu_power_fit *pw, char *buf, size_t size,
                     dcsim_error *err) {
  double lim = pw ? pw->limit_w : b->limit_w, idle = pw ? pw->idle_w : b->idle_w,
         act = pw ? pw->active_idle_w : b->active_idle_w;
  if (!(lim > 0) || !(idle > 0))
    return DCSIM_ERR(err, DCSIM_EPARSE, b->path, 0,
                     "no power limit or idle power: add power_limit_w and power_idle_w rows or a "
                     "power log (nvidia-smi CSV)");
  if (!(act > 0)) act = idle;
  const char *how = pw ? "fitted: least squares of power.draw on utilization.gpu over the P0 "
                         "samples of the power log"
                       : "measured: tools/gpu-bench NVML readings";
  snprintf(
      buf, size,
      "  <power limit-w=\"%.4g\" limit-source=\"measured: NVML power limit\" idle-w=\"%.4g\" "
      "idle-source=\"measured: lowest draw in the deepest power state\" active-idle-w=\"%.4g\" "
      "active-idle-source=\"%s\"/>\n",
      lim, fmin(idle, act), act, how);
  return 0;
}

int dcsim_gpubench_profile_xml(const dcsim_gpubench *b, const dcsim_gpu_power_fit *pw,
                               const char *name, char **text, dcsim_error *err) {
  char apath[2048], power[1024];
  int rc =
      dcsim_catalog_resolve(DCSIM_KIND_GPU_ARCH, b->arch, b->path, 0, apath, sizeof apath, err);
  if (rc) return rc;
  if ((rc = power_xml(b, pw, power, sizeof power, err))) return rc;
  size_t cap = 4096;
  char *s = malloc(cap);
  if (!s) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  char link[256] = "";
  if (b->h2d_bps > 0)
    snprintf(
        link, sizeof link,
        "  <host-link bw-bps=\"%.4g\" source=\"measured: tools/gpu-bench pinned host-to-device "
        "copy\"/>\n",
        b->h2d_bps);
  snprintf(s, cap,
           "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           "<!-- GENERATED by dcsim calibrate gpu from %s (tools/gpu-bench): the default "
           "(architecture) model's profile of this GPU (doc/calibration.md). -->\n"
           "<gpu-profile name=\"%s\" model=\"%s\">\n"
           "  <device arch=\"%s\" sm=\"%.0f\" clock-hz=\"%.6g\" memory-bw-bps=\"%.6g\" "
           "source=\"measured: tools/gpu-bench (device query; STREAM triad bandwidth)\"/>\n"
           "  <memory byte=\"%.0f\" source=\"measured: device query\"/>\n%s%s"
           "</gpu-profile>\n",
           b->path, name, b->name, b->arch, b->sm, b->clock_hz, b->stream_bps, b->memory_byte, link,
           power);
  *text = s;
  return 0;
}

void dcsim_gpubench_report(FILE *f, const dcsim_gpubench *b, const dcsim_gpu_power_fit *pw) {
  fprintf(f, "GPU %s (%s, %.0f SM at %.4g GHz): STREAM triad %.4g GB/s", b->name, b->arch, b->sm,
          b->clock_hz * 1e-9, b->stream_bps * 1e-9);
  dcsim_gpu_arch a;
  char apath[2048];
  dcsim_error e;
  if (b->fp64_flops > 0 &&
      dcsim_catalog_resolve(DCSIM_KIND_GPU_ARCH, b->arch, b->path, 0, apath, sizeof apath, &e) ==
          0 &&
      dcsim_gpu_arch_load(apath, &a, &e) == 0) /* peak = SM x fp64 x 2 x clock */
    fprintf(f, ", FP64 FMA %.4g GFLOP/s (%.1f %% of %s's %.4g)", b->fp64_flops * 1e-9,
            100 * b->fp64_flops / (b->sm * a.fp64 * 2 * b->clock_hz), a.name,
            b->sm * a.fp64 * 2 * b->clock_hz * 1e-9);
  if (b->launch_s > 0) fprintf(f, ", launch %.3g us", b->launch_s * 1e6);
  fputc('\n', f);
  if (pw)
    fprintf(f,
            "power: %zu samples, %zu in P0: P = %.4g W + %.4g W x utilisation; idle %.4g W "
            "(%s); limit %.4g W\n",
            pw->n_samples, pw->n_fit, pw->active_idle_w, pw->slope_w, pw->idle_w,
            pw->deepest_pstate, pw->limit_w);
  for (size_t i = 0; i < b->n_sizes; i++)
    fprintf(f, "kernel %gx%gx80: %.4g s\n", b->size[i], b->size[i], b->kernel_s[i]);
}
