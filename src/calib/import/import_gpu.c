/* import_gpu.c — GPU kernel characteristics (D3.5 §3.4, Table 8) from profiler exports: nvprof
 * --csv (metric, event, summary and GPU-trace tables) and Nsight Compute (ncu --csv). See
 * dcsim/import_cpu.h and doc/calibration.md ("GPU kernel characteristics") for the counter mapping.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "calib/internal.h"
#include "dcsim/import_gpu.h"
#include "dcsim/strutil.h"
#include "util/csv.h"
#include "util/xmlio.h"

/* Quantities taken from an export, per kernel. _B: bytes, _R: bytes per second. */
enum {
  Q_CF,
  Q_BC,
  Q_MISC,
  Q_LDST,
  Q_INT,
  Q_FP32,
  Q_FP64,     /* thread instructions of Table 7 */
  Q_IE,       /* warp instructions executed */
  Q_IPC,      /* executed IPC per SM */
  Q_IPC_SMSP, /* executed IPC per SM sub-partition (ncu) */
  Q_AC,       /* active cycles summed over the SMs */
  Q_T,        /* duration of one invocation, s */
  Q_GRL_B,
  Q_GRS_B,
  Q_GRLNC_B,
  Q_GL_B,
  Q_GS_B,
  Q_GLNC_B,
  Q_GRL_R,
  Q_GRS_R,
  Q_GRLNC_R,
  Q_GL_R,
  Q_GS_R,
  Q_GLNC_R,
  NQ
};

/* What each quantity is called, for messages (nvprof name, ncu name). */
static const char *const q_names[NQ] = {
  "inst_control (ncu smsp__sass_thread_inst_executed_op_control_pred_on.sum)",
  "inst_bit_convert (ncu smsp__sass_thread_inst_executed_op_conversion_pred_on.sum)",
  "inst_misc (ncu smsp__sass_thread_inst_executed_op_misc_pred_on.sum)",
  "inst_compute_ld_st (ncu smsp__sass_thread_inst_executed_op_memory_pred_on.sum)",
  "inst_integer (ncu smsp__sass_thread_inst_executed_op_integer_pred_on.sum)",
  "inst_fp_32 (ncu smsp__sass_thread_inst_executed_op_fp32_pred_on.sum)",
  "inst_fp_64 (ncu smsp__sass_thread_inst_executed_op_fp64_pred_on.sum)",
  "inst_executed (ncu smsp__inst_executed.sum)",
  "ipc (ncu sm__inst_executed.avg.per_cycle_active)",
  "smsp__inst_executed.avg.per_cycle_active",
  "active_cycles (ncu sm__cycles_active.sum)",
  "the duration (nvprof summary or GPU trace, ncu gpu__time_duration.sum)",
  "requested global load bytes (ncu smsp__sass_data_bytes_mem_global_op_ld.sum)",
  "requested global store bytes (ncu smsp__sass_data_bytes_mem_global_op_st.sum)",
  "requested non-coherent global load bytes",
  "global load bytes (ncu l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum)",
  "global store bytes (ncu l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum)",
  "non-coherent global load bytes",
  "gld_requested_throughput",
  "gst_requested_throughput",
  "nc_gld_requested_throughput",
  "gld_throughput (ncu l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum.per_second)",
  "gst_throughput (ncu l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum.per_second)",
  "nc_gld_throughput",
};

static dcsim_unit_kind q_kind(int q) {
  if (q <= Q_IE || q == Q_AC) return DCSIM_UNIT_COUNT;
  if (q == Q_IPC || q == Q_IPC_SMSP) return DCSIM_UNIT_RATIO;
  if (q == Q_T) return DCSIM_UNIT_TIME;
  return q <= Q_GLNC_B ? DCSIM_UNIT_BYTES : DCSIM_UNIT_RATE;
}

/* Metric and event names of both profilers (doc/calibration.md has the table with what is exact).
 */
static const struct {
  const char *name;
  int q;
} metric_map[] = {
  /* nvprof --query-metrics / --query-events (CUDA 5-10, Fermi..Volta) */
  { "inst_control", Q_CF },
  { "inst_bit_convert", Q_BC },
  { "inst_misc", Q_MISC },
  { "inst_compute_ld_st", Q_LDST },
  { "inst_integer", Q_INT },
  { "inst_fp_32", Q_FP32 },
  { "inst_fp_64", Q_FP64 },
  { "inst_executed", Q_IE },
  { "ipc", Q_IPC },
  { "active_cycles", Q_AC },
  { "gld_requested_throughput", Q_GRL_R },
  { "gst_requested_throughput", Q_GRS_R },
  { "nc_gld_requested_throughput", Q_GRLNC_R },
  { "gld_throughput", Q_GL_R },
  { "gst_throughput", Q_GS_R },
  { "nc_gld_throughput", Q_GLNC_R },
  /* Nsight Compute (ncu --query-metrics, sm_70 and later); sm__ and smsp__ sums are equal */
  { "smsp__sass_thread_inst_executed_op_control_pred_on.sum", Q_CF },
  { "sm__sass_thread_inst_executed_op_control_pred_on.sum", Q_CF },
  { "smsp__sass_thread_inst_executed_op_conversion_pred_on.sum", Q_BC },
  { "sm__sass_thread_inst_executed_op_conversion_pred_on.sum", Q_BC },
  { "smsp__sass_thread_inst_executed_op_misc_pred_on.sum", Q_MISC },
  { "sm__sass_thread_inst_executed_op_misc_pred_on.sum", Q_MISC },
  { "smsp__sass_thread_inst_executed_op_memory_pred_on.sum", Q_LDST },
  { "sm__sass_thread_inst_executed_op_memory_pred_on.sum", Q_LDST },
  { "smsp__sass_thread_inst_executed_op_integer_pred_on.sum", Q_INT },
  { "sm__sass_thread_inst_executed_op_integer_pred_on.sum", Q_INT },
  { "smsp__sass_thread_inst_executed_op_fp32_pred_on.sum", Q_FP32 },
  { "sm__sass_thread_inst_executed_op_fp32_pred_on.sum", Q_FP32 },
  { "smsp__sass_thread_inst_executed_op_fp64_pred_on.sum", Q_FP64 },
  { "sm__sass_thread_inst_executed_op_fp64_pred_on.sum", Q_FP64 },
  { "smsp__inst_executed.sum", Q_IE },
  { "sm__inst_executed.sum", Q_IE },
  { "sm__inst_executed.avg.per_cycle_active", Q_IPC },
  { "smsp__inst_executed.avg.per_cycle_active", Q_IPC_SMSP },
  { "sm__cycles_active.sum", Q_AC },
  { "gpu__time_duration.sum", Q_T },
  { "smsp__sass_data_bytes_mem_global_op_ld.sum", Q_GRL_B },
  { "smsp__sass_data_bytes_mem_global_op_st.sum", Q_GRS_B },
  { "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum", Q_GL_B },
  { "l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum", Q_GS_B },
  { "l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum.per_second", Q_GL_R },
  { "l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum.per_second", Q_GS_R },
};

/* SM sub-partitions per SM (Maxwell to Hopper): smsp__inst_executed.avg.per_cycle_active x 4 ~
 * per-SM IPC. */
#define SMSP_PER_SM 4.0

typedef struct kacc {
  char name[256];   /* sanitised */
  char raw[512];    /* as the export writes it */
  int line;         /* first row of the kernel */
  int counter_line; /* first counter (metric/event) row: kernels are listed in this order */
  double sum[NQ];
  unsigned cnt[NQ];
} kacc;

typedef struct gexport {
  char path[1024];
  double N;
  int N_line; /* manifest line that gave N, 0 = the command line */
  char manifest[1024];
  char device[256];
  int device_line;
  char layouts[64]; /* "nvprof", "ncu", "nvprof+ncu" */
  size_t nk, cap;
  kacc *k;
} gexport;

enum { L_NONE, L_NV_METRIC, L_NV_EVENT, L_NV_SUMMARY, L_NV_TRACE, L_NCU, L_MANIFEST };

typedef struct layout {
  int kind;
  size_t ncols;
  long c_dev, c_kernel, c_metric, c_value, c_unit, c_type, c_id;
  int header_line;
  int units_pending; /* summary/trace: the next row holds the units */
  char time_unit[32];
} layout;

static long col_of(char **cells, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(cells[i], name) == 0) return (long)i;
  return -1;
}

static int detect(char **cells, size_t n, layout *L) {
  memset(L, 0, sizeof *L);
  L->ncols = n;
  L->c_dev = col_of(cells, n, "Device");
  L->c_type = col_of(cells, n, "Type");
  long kn = col_of(cells, n, "Kernel"), mn = col_of(cells, n, "Metric Name"),
       en = col_of(cells, n, "Event Name");
  long avg = col_of(cells, n, "Avg"), name = col_of(cells, n, "Name");
  if (kn >= 0 && mn >= 0 && avg >= 0) {
    L->kind = L_NV_METRIC;
    L->c_kernel = kn;
    L->c_metric = mn;
    L->c_value = avg;
    return 1;
  }
  if (kn >= 0 && en >= 0 && avg >= 0) {
    L->kind = L_NV_EVENT;
    L->c_kernel = kn;
    L->c_metric = en;
    L->c_value = avg;
    return 1;
  }
  if (col_of(cells, n, "Time(%)") >= 0 && avg >= 0 && name >= 0) {
    L->kind = L_NV_SUMMARY;
    L->c_kernel = name;
    L->c_value = avg;
    L->units_pending = 1;
    return 1;
  }
  long dur = col_of(cells, n, "Duration");
  if (col_of(cells, n, "Start") >= 0 && dur >= 0 && name >= 0) {
    L->kind = L_NV_TRACE;
    L->c_kernel = name;
    L->c_value = dur;
    L->units_pending = 1;
    return 1;
  }
  long kk = col_of(cells, n, "Kernel Name"), val = col_of(cells, n, "Metric Value"),
       unit = col_of(cells, n, "Metric Unit");
  if (col_of(cells, n, "ID") >= 0 && kk >= 0 && mn >= 0 && val >= 0 && unit >= 0) {
    L->kind = L_NCU;
    L->c_kernel = kk;
    L->c_metric = mn;
    L->c_value = val;
    L->c_unit = unit;
    L->c_id = col_of(cells, n, "ID");
    return 1;
  }
  if (col_of(cells, n, "export") >= 0 && col_of(cells, n, "domain_size") >= 0) {
    L->kind = L_MANIFEST;
    return 1;
  }
  return 0;
}

/* The dwarf name of a kernel: the function name without return type, parameters or template
 * brackets; characters outside the schema's name type become '_'. */
static int kernel_name(const char *raw, char *out, size_t size) {
  size_t n = strlen(raw), end = n;
  int depth = 0;
  for (size_t i = 0; i < n; i++) {
    if (raw[i] == '<')
      depth++;
    else if (raw[i] == '>' && depth > 0)
      depth--;
    else if (raw[i] == '(' && depth == 0 && i > 0) {
      end = i;
      break;
    }
  }
  while (end > 0 && raw[end - 1] == ' ') end--;
  size_t start = end;
  depth = 0;
  while (start > 0) {
    char c = raw[start - 1];
    if (c == '>')
      depth++;
    else if (c == '<' && depth > 0)
      depth--;
    else if (c == ' ' && depth == 0)
      break;
    start--;
  }
  size_t k = 0;
  for (size_t i = start; i < end && k + 1 < size; i++) {
    char c = raw[i];
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             strchr("_.:+-", c);
    out[k++] = ok ? c : '_';
  }
  out[k] = '\0';
  return k ? 0 : -1;
}

static kacc *find_kernel(gexport *g, const char *raw, const char *path, int line, dcsim_error *err,
                         int *rc) {
  char nm[256];
  if (kernel_name(raw, nm, sizeof nm) != 0) {
    *rc = DCSIM_ERR(err, DCSIM_EPARSE, path, line, "kernel name '%s': no function name in it", raw);
    return NULL;
  }
  for (size_t i = 0; i < g->nk; i++) {
    if (strcmp(g->k[i].name, nm) != 0) continue;
    if (strcmp(g->k[i].raw, raw) != 0) {
      *rc = DCSIM_ERR(err, DCSIM_EPARSE, path, line,
                      "kernels '%s' and '%s' (line %d) both become '%s' in a dwarf", raw,
                      g->k[i].raw, g->k[i].line, nm);
      return NULL;
    }
    return &g->k[i];
  }
  if (DCSIM_GROW(g->k, g->cap, g->nk + 1)) {
    *rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, line, "out of memory");
    return NULL;
  }
  kacc *k = &g->k[g->nk++];
  memset(k, 0, sizeof *k);
  snprintf(k->name, sizeof k->name, "%s", nm);
  snprintf(k->raw, sizeof k->raw, "%s", raw);
  k->line = line;
  return k;
}

static const char *kind_name(dcsim_unit_kind k) {
  switch (k) {
    case DCSIM_UNIT_COUNT: return "a count";
    case DCSIM_UNIT_RATIO: return "instructions per cycle";
    case DCSIM_UNIT_BYTES: return "bytes";
    case DCSIM_UNIT_RATE: return "bytes per second";
    case DCSIM_UNIT_TIME: return "a time";
    default: return "a number";
  }
}

/* One value: `cell` (nvprof: unit inside the value) with `unit` (ncu's Metric Unit column, or a
 * summary/trace units row; may be NULL). 1 = not available ("n/a"), 0 = *v set. */
static int value_of(const char *cell, const char *unit, int q, const char *metric, const char *path,
                    int line, double *v, dcsim_error *err, int *rc) {
  if (!*cell || strcmp(cell, "n/a") == 0 || strcmp(cell, "N/A") == 0 ||
      strcmp(cell, "<OVERFLOW>") == 0)
    return 1;
  dcsim_unit_kind k, uk = DCSIM_UNIT_PLAIN;
  double x, us = 1;
  if (dcsim__parse_quantity(cell, &x, &k) != 0) {
    *rc = DCSIM_ERR(err, DCSIM_EPARSE, path, line, "%s: '%s' is not a number with a known unit",
                    metric, cell);
    return -1;
  }
  if (unit && *unit) {
    if (k != DCSIM_UNIT_PLAIN || dcsim__parse_unit(unit, &uk, &us) != 0) {
      *rc = DCSIM_ERR(err, DCSIM_EPARSE, path, line, "%s: unit '%s' is not one dcsim knows", metric,
                      unit);
      return -1;
    }
    k = uk;
    x *= us;
  }
  dcsim_unit_kind want = q_kind(q);
  int ok = k == want ||
           (k == DCSIM_UNIT_PLAIN &&
            (want == DCSIM_UNIT_COUNT || want == DCSIM_UNIT_RATIO || want == DCSIM_UNIT_BYTES));
  if (!ok) {
    *rc = DCSIM_ERR(err, DCSIM_EPARSE, path, line, "%s: '%s%s%s' is not %s", metric, cell,
                    unit && *unit ? " " : "", unit ? unit : "", kind_name(want));
    return -1;
  }
  if (!(x >= 0)) {
    *rc = DCSIM_ERR(err, DCSIM_ERANGE, path, line, "%s: '%s' is negative", metric, cell);
    return -1;
  }
  *v = x;
  return 0;
}

static void add(kacc *k, int q, double v) {
  k->sum[q] += v;
  k->cnt[q]++;
}

static void note_layout(gexport *g, const char *what) {
  if (strstr(g->layouts, what)) return;
  size_t l = strlen(g->layouts);
  snprintf(g->layouts + l, sizeof g->layouts - l, "%s%s", l ? "+" : "", what);
}

static int add_export(gexport **ex, size_t *n, size_t *cap, const char *path, double N, int N_line,
                      const char *manifest, dcsim_error *err);

/* counter tables' order; kernels seen only in a summary or trace last */
static int cmp_kacc(const void *a, const void *b) {
  const kacc *x = a, *y = b;
  long kx = x->counter_line ? x->counter_line : 1L << 40,
       ky = y->counter_line ? y->counter_line : 1L << 40;
  if (kx != ky) return kx < ky ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

/* One export or manifest being read: where its kernels go, and the table being read. */
typedef struct gfile {
  gexport **ex; /* the exports read so far (*nex of them, room for *cap) */
  size_t *nex, *cap;
  const char *path, *manifest; /* manifest: the manifest that listed path, or NULL */
  double N;                    /* domain size of the export */
  int N_line;
  layout L;  /* of the table being read */
  size_t gi; /* this file's export in *ex, (size_t)-1 before its first table */
  int line, seen_table;
} gfile;

static int parse_file(gexport **ex, size_t *nex, size_t *cap, const char *path, double N,
                      int N_line, const char *manifest, dcsim_error *err);

/* A header row: detects the table's layout; the first table of an export adds the export. */
static int table_header(gfile *F, char **cells, size_t nc, dcsim_error *err) {
  layout H;
  int rc;
  if (!detect(cells, nc, &H))
    return DCSIM_ERR(err, DCSIM_EPARSE, F->path, F->line,
                     "unknown table layout (first cell '%s'): expected nvprof --csv "
                     "(\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",... "
                     "or \"Event Name\"; a summary or GPU trace) or ncu --csv (\"ID\",...,\"Kernel "
                     "Name\",...,\"Metric Name\",\"Metric Unit\",\"Metric Value\")",
                     cells[0]);
  if (H.kind == L_MANIFEST && (F->seen_table || F->manifest))
    return DCSIM_ERR(err, DCSIM_EPARSE, F->path, F->line,
                     "a manifest (export, domain_size) must be a file of its own%s",
                     F->manifest ? ", not listed in another manifest" : "");
  if (H.kind != L_MANIFEST && F->gi == (size_t)-1) {
    if ((rc = add_export(F->ex, F->nex, F->cap, F->path, F->N, F->N_line, F->manifest, err)))
      return rc;
    F->gi = *F->nex - 1;
  }
  if (H.kind == L_MANIFEST) {
    H.c_kernel = col_of(cells, nc, "export");
    H.c_value = col_of(cells, nc, "domain_size");
  }
  H.header_line = F->line;
  F->L = H;
  F->seen_table = 1;
  return 0;
}

/* A manifest row: reads the export it lists (relative to the manifest's directory) with its N. */
static int manifest_row(gfile *F, char **cells, dcsim_error *err) {
  const char *path = F->path, *ep = cells[F->L.c_kernel], *ns = cells[F->L.c_value];
  int line = F->line, rc;
  double n;
  if (dcsim_parse_double(ns, &n) != 0 || !(n > 0))
    return DCSIM_ERR(err, DCSIM_ERANGE, path, line,
                     "domain_size '%s': must be a number > 0 (the size N of the profiled domain)",
                     ns);
  if (!*ep) return DCSIM_ERR(err, DCSIM_EPARSE, path, line, "export: empty");
  const char *slash = strrchr(path, '/');
  char *ref = NULL;
  if (ep[0] == '/' || !slash)
    ref = dcsim_strdup(ep); /* relative to the manifest's directory */
  else
    ref = dcsim_strdup_printf("%.*s/%s", (int)(slash - path), path, ep);
  if (!ref) return DCSIM_ERR(err, DCSIM_ENOMEM, path, line, "out of memory");
  rc = parse_file(F->ex, F->nex, F->cap, ref, n, line, path, err);
  free(ref);
  return rc;
}

/* summary / trace: units of the time columns */
static int units_row(gfile *F, char **cells, dcsim_error *err) {
  layout *L = &F->L;
  L->units_pending = 0;
  snprintf(L->time_unit, sizeof L->time_unit, "%s", cells[L->c_value]);
  dcsim_unit_kind k;
  double sc;
  if (dcsim__parse_unit(L->time_unit, &k, &sc) != 0 || k != DCSIM_UNIT_TIME)
    return DCSIM_ERR(err, DCSIM_EPARSE, F->path, F->line,
                     "units row: '%s' under column %s is not a time unit (nvprof --csv writes s, "
                     "ms, us or ns)",
                     L->time_unit, L->kind == L_NV_TRACE ? "Duration" : "Avg");
  return 0;
}

/* The row's device, the same for every row of an export. */
static int check_device(gfile *F, gexport *g, char **cells, dcsim_error *err) {
  const layout *L = &F->L;
  if (L->c_dev < 0 || !*cells[L->c_dev]) return 0;
  if (!*g->device) {
    snprintf(g->device, sizeof g->device, "%s", cells[L->c_dev]);
    g->device_line = F->line;
  } else if (strcmp(g->device, cells[L->c_dev]) != 0) {
    return DCSIM_ERR(err, DCSIM_EPARSE, F->path, F->line,
                     "device '%s' differs from '%s' (line %d): give one export per GPU",
                     cells[L->c_dev], g->device, g->device_line);
  }
  return 0;
}

/* An nvprof summary or GPU trace row: the kernel's time. */
static int time_row(gfile *F, gexport *g, char **cells, dcsim_error *err) {
  const layout *L = &F->L;
  const char *raw = cells[L->c_kernel];
  int rc = 0;
  if (raw[0] == '[') return 0; /* [CUDA memcpy HtoD], [CUDA memset] */
  if (L->c_type >= 0 && strcmp(cells[L->c_type], "GPU activities") != 0) return 0; /* API calls */
  kacc *k = find_kernel(g, raw, F->path, F->line, err, &rc);
  if (!k) return rc;
  double v;
  int r = value_of(cells[L->c_value], L->time_unit, Q_T, L->kind == L_NV_TRACE ? "Duration" : "Avg",
                   F->path, F->line, &v, err, &rc);
  if (r < 0) return rc;
  if (r == 0) add(k, Q_T, v);
  note_layout(g, "nvprof");
  return 0;
}

/* A metric or event row (nvprof, ncu): the kernel's counter, when Table 7 needs it. */
static int counter_row(gfile *F, gexport *g, char **cells, dcsim_error *err) {
  const layout *L = &F->L;
  const char *metric = cells[L->c_metric];
  int q = -1, rc = 0;
  for (size_t i = 0; i < sizeof metric_map / sizeof *metric_map && q < 0; i++)
    if (strcmp(metric_map[i].name, metric) == 0) q = metric_map[i].q;
  note_layout(g, L->kind == L_NCU ? "ncu" : "nvprof");
  if (q < 0) return 0; /* exports hold many more metrics than Table 7 needs */
  kacc *k = find_kernel(g, cells[L->c_kernel], F->path, F->line, err, &rc);
  if (!k) return rc;
  if (!k->counter_line) k->counter_line = F->line;
  double v;
  int r = value_of(cells[L->c_value], L->kind == L_NCU ? cells[L->c_unit] : NULL, q, metric,
                   F->path, F->line, &v, err, &rc);
  if (r < 0) return rc;
  if (r == 0) add(k, q, v);
  return 0;
}

/* A row under the current header. */
static int data_row(gfile *F, char **cells, size_t nc, dcsim_error *err) {
  const layout *L = &F->L;
  int rc;
  if (nc != L->ncols)
    return DCSIM_ERR(err, DCSIM_EPARSE, F->path, F->line, "%zu cells, the header (line %d) has %zu",
                     nc, L->header_line, L->ncols);
  if (L->kind == L_MANIFEST) return manifest_row(F, cells, err);
  gexport *g = &(*F->ex)[F->gi];
  if (L->units_pending) return units_row(F, cells, err);
  if ((rc = check_device(F, g, cells, err))) return rc;
  if (L->kind == L_NV_SUMMARY || L->kind == L_NV_TRACE) return time_row(F, g, cells, err);
  return counter_row(F, g, cells, err);
}

/* After the last line: a table was read, and its export names kernels (sorted). */
static int finish_file(gfile *F, dcsim_error *err) {
  gexport *ex = *F->ex;
  size_t gi = F->gi;
  if (!F->seen_table)
    return DCSIM_ERR(err, DCSIM_EPARSE, F->path, F->line > 0 ? F->line : 1,
                     "no table: not an nvprof or ncu --csv export");
  if (gi != (size_t)-1 &&
      ex[gi].nk) /* qsort(NULL, 0, ...) is undefined (found by fuzz_calib_gpu) */
    qsort(ex[gi].k, ex[gi].nk, sizeof *ex[gi].k, cmp_kacc);
  if (gi != (size_t)-1 && ex[gi].nk == 0)
    return DCSIM_ERR(err, DCSIM_EPARSE, F->path, F->line,
                     "no kernel with any of the counters of D3.5 Table 7 (doc/calibration.md lists "
                     "the metric names)");
  return 0;
}

/* Reads one export (or a manifest, which adds the exports it lists). */
static int parse_file(gexport **ex, size_t *nex, size_t *cap, const char *path, double N,
                      int N_line, const char *manifest, dcsim_error *err) {
  gfile F = { .ex = ex,
              .nex = nex,
              .cap = cap,
              .path = path,
              .manifest = manifest,
              .N = N,
              .N_line = N_line,
              .gi = (size_t)-1 };
  char *text = NULL, **cells = NULL;
  size_t cells_cap = 0;
  int rc = dcsim__file_read_text(path, &text, err);
  if (rc) return rc;
  for (char *ln = text, *next; ln; ln = next) {
    next = strchr(ln, '\n');
    if (next) *next++ = '\0';
    F.line++;
    size_t len = strlen(ln);
    while (len && (ln[len - 1] == '\r' || ln[len - 1] == ' ' || ln[len - 1] == '\t'))
      ln[--len] = '\0';
    char *s = ln;
    while (*s == ' ' || *s == '\t') s++;
    if (!*s || strncmp(s, "==", 2) == 0) { /* a blank line or an nvprof/ncu message */
      if (F.L.kind != L_MANIFEST) F.L.kind = L_NONE;
      continue;
    }
    if (*s == '#' && (F.L.kind == L_NONE || F.L.kind == L_MANIFEST))
      continue; /* comments (manifests) */
    size_t nc = 0;
    int sr = dcsim__csv_split(s, &cells, &cells_cap, &nc);
    if (sr == -2) {
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, F.line, "out of memory");
      goto out;
    }
    if (sr != 0) {
      rc = DCSIM_ERR(err, DCSIM_EPARSE, path, F.line,
                     "unterminated quoted cell or text after a closing quote");
      goto out;
    }
    if (F.L.kind == L_NONE || (F.L.kind == L_NCU && strcmp(cells[0], "ID") == 0))
      rc = table_header(&F, cells, nc, err);
    else
      rc = data_row(&F, cells, nc, err);
    if (rc) goto out;
  }
  rc = finish_file(&F, err);
out:
  free(cells);
  free(text);
  return rc;
}

static int add_export(gexport **ex, size_t *n, size_t *cap, const char *path, double N, int N_line,
                      const char *manifest, dcsim_error *err) {
  if (!(N > 0))
    return DCSIM_PERR(err, DCSIM_EUSAGE, "domain_size", -1,
                      "%s: no domain size N for this export: give one or list it in a manifest "
                      "(export,domain_size)",
                      path);
  if (DCSIM_GROW(*ex, *cap, *n + 1)) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  gexport *g = &(*ex)[(*n)++];
  memset(g, 0, sizeof *g);
  snprintf(g->path, sizeof g->path, "%s", path);
  snprintf(g->manifest, sizeof g->manifest, "%s", manifest ? manifest : "");
  g->N = N;
  g->N_line = N_line;
  return 0;
}

static double mean_q(const kacc *k, int q) { return k->cnt[q] ? k->sum[q] / k->cnt[q] : NAN; }

/* Table 8 for one kernel of one export. how: what was derived (appended). */
static int kernel_chars(const gexport *g, const kacc *k0, dcsim_gpu_chars *c, char *how,
                        size_t how_size, dcsim_error *err) {
  kacc kk = *k0; /* errors point at the kernel's first counter row */
  const kacc *k = &kk;
  if (kk.counter_line) kk.line = kk.counter_line;
  static const int need[] = { Q_CF, Q_BC, Q_MISC, Q_LDST, Q_INT, Q_FP32, Q_FP64, Q_IE };
  for (size_t i = 0; i < sizeof need / sizeof *need; i++)
    if (!k->cnt[need[i]])
      return DCSIM_ERR(err, DCSIM_EREF, g->path, k->line, "kernel %s: no %s", k->raw,
                       q_names[need[i]]);
  double N = g->N, Ie = mean_q(k, Q_IE);
  if (!(Ie > 0))
    return DCSIM_ERR(err, DCSIM_ERANGE, g->path, k->line, "kernel %s: inst_executed is 0", k->raw);
  double i_all = 0;
  for (int q = Q_CF; q <= Q_FP64; q++) i_all += mean_q(k, q);
  double slots = Ie * 32;
  if (i_all > slots * (1 + 1e-9))
    return DCSIM_ERR(err, DCSIM_ERANGE, g->path, k->line,
                     "kernel %s: %.6g thread instructions exceed 32 x %.6g warp instructions: the "
                     "counters do not belong together",
                     k->raw, i_all, Ie);
  /* IPC: measured, else instructions over active cycles (Table 7), else the per-sub-partition value
   * x 4 */
  double ipc;
  const char *ipc_how;
  if (k->cnt[Q_IPC]) {
    ipc = mean_q(k, Q_IPC);
    ipc_how = "IPC measured";
  } else if (k->cnt[Q_AC] && mean_q(k, Q_AC) > 0) {
    ipc = Ie / mean_q(k, Q_AC);
    ipc_how = "IPC = inst_executed / active_cycles";
  } else if (k->cnt[Q_IPC_SMSP]) {
    ipc = SMSP_PER_SM * mean_q(k, Q_IPC_SMSP);
    ipc_how = "IPC = 4 x smsp IPC (approximate)";
  } else
    return DCSIM_ERR(err, DCSIM_EREF, g->path, k->line,
                     "kernel %s: no ipc (ncu sm__inst_executed.avg.per_cycle_active), and no "
                     "active_cycles (ncu sm__cycles_active.sum) to derive it",
                     k->raw);
  if (!(ipc > 0))
    return DCSIM_ERR(err, DCSIM_ERANGE, g->path, k->line, "kernel %s: IPC is 0", k->raw);
  /* global memory: bytes, or throughput x duration (Table 8: G_r = (G_rl + G_rs + G_rlnc) * T) */
  double req = 0, got = 0;
  int used_rate = 0;
  for (int j = 0; j < 6; j++) {
    int qb = Q_GRL_B + j, qr = Q_GRL_R + j;
    double v;
    if (k->cnt[qb])
      v = mean_q(k, qb);
    else if (k->cnt[qr]) {
      if (!k->cnt[Q_T])
        return DCSIM_ERR(err, DCSIM_EREF, g->path, k->line,
                         "kernel %s: %s is a throughput; it needs %s to become bytes (Table 8: G_r "
                         "= (G_rl + G_rs + G_rlnc) * T)",
                         k->raw, q_names[qr], q_names[Q_T]);
      v = mean_q(k, qr) * mean_q(k, Q_T);
      used_rate = 1;
    } else if (j == 2 || j == 5)
      v = 0; /* no non-coherent path (Fermi; one L1TEX path on sm_70+) */
    else
      return DCSIM_ERR(err, DCSIM_EREF, g->path, k->line, "kernel %s: no %s (nor %s)", k->raw,
                       q_names[qr], q_names[qb]);
    if (j < 3)
      req += v;
    else
      got += v;
  }
  double Ge;
  if (got > 0)
    Ge = req / got;
  else if (req == 0)
    Ge = 1; /* no global memory traffic: T_t = 0 whatever G_e is */
  else
    return DCSIM_ERR(err, DCSIM_ERANGE, g->path, k->line,
                     "kernel %s: requested global bytes but none fetched", k->raw);
  memcpy(c->name, k->name, sizeof c->name); /* same size */
  c->P_inactive = 1 - i_all / slots;
  if (c->P_inactive < 0) c->P_inactive = 0;
  c->P_misc = mean_q(k, Q_MISC) / slots;
  c->P_cfl = mean_q(k, Q_CF) / slots;
  c->G_e = Ge;
  c->G_r_byte = req / N;
  c->i_int = mean_q(k, Q_INT) / N;
  c->i_sp = mean_q(k, Q_FP32) / N;
  c->i_dp = mean_q(k, Q_FP64) / N;
  c->I_e = Ie / N;
  c->IPC_e = ipc;
  if (!strstr(how, ipc_how)) {
    size_t l = strlen(how);
    snprintf(how + l, how_size - l, "; %s", ipc_how);
  }
  if (used_rate && !strstr(how, "bytes = throughput x duration")) {
    size_t l = strlen(how);
    snprintf(how + l, how_size - l, "; bytes = throughput x duration");
  }
  return 0;
}

void dcsim_gpu_calib_free(dcsim_gpu_calib *c) {
  if (!c) return;
  free(c->mean);
  free(c->per_gpu);
  free(c->gpu_label);
  free(c->gpu_file);
  free(c->gpu_how);
  free(c->domain_size);
  free(c);
}

int dcsim_calib_gpu(const char *const *paths, size_t n_paths, double domain_size,
                    dcsim_gpu_calib **out, dcsim_error *err) {
  gexport *ex = NULL;
  size_t nex = 0, cap = 0;
  dcsim_gpu_calib *c = NULL;
  int rc = 0;
  if (n_paths == 0) return DCSIM_PERR(err, DCSIM_EUSAGE, "paths", -1, "no profiler export given");
  for (size_t i = 0; i < n_paths; i++)
    if ((rc = parse_file(&ex, &nex, &cap, paths[i], domain_size, 0, NULL, err))) goto out;
  if (nex == 0) {
    rc = DCSIM_ERR(err, DCSIM_EUSAGE, paths[0], 0, "the manifest lists no export");
    goto out;
  }
  c = calloc(1, sizeof *c);
  if (!c) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, paths[0], 0, "out of memory");
    goto out;
  }
  const gexport *g0 = &ex[0];
  c->n_gpus = nex;
  c->n_kernels = g0->nk;
  c->mean = calloc(g0->nk, sizeof *c->mean);
  c->per_gpu = calloc(nex * g0->nk, sizeof *c->per_gpu);
  c->gpu_label = calloc(nex, sizeof *c->gpu_label);
  c->gpu_file = calloc(nex, sizeof *c->gpu_file);
  c->gpu_how = calloc(nex, sizeof *c->gpu_how);
  c->domain_size = calloc(nex, sizeof *c->domain_size);
  if (!c->mean || !c->per_gpu || !c->gpu_label || !c->gpu_file || !c->gpu_how || !c->domain_size) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, paths[0], 0, "out of memory");
    goto out;
  }
  for (size_t gi = 0; gi < nex; gi++) {
    const gexport *g = &ex[gi];
    const char *base = strrchr(g->path, '/');
    int numeric = *g->device &&
                  strspn(g->device, "0123456789") == strlen(g->device); /* ncu: a device index */
    if (*g->device && !numeric)
      snprintf(c->gpu_label[gi], sizeof c->gpu_label[gi], "%s", g->device);
    else
      snprintf(c->gpu_label[gi], sizeof c->gpu_label[gi], "%.200s%s%.20s",
               base ? base + 1 : g->path, numeric ? " device " : "", numeric ? g->device : "");
    snprintf(c->gpu_file[gi], sizeof c->gpu_file[gi], "%s", g->path);
    snprintf(c->gpu_how[gi], sizeof c->gpu_how[gi], "%s", g->layouts);
    c->domain_size[gi] = g->N;
    if (g->nk != g0->nk) {
      /* name the first kernel one file has and the other lacks */
      const gexport *a = g->nk > g0->nk ? g : g0, *b = g->nk > g0->nk ? g0 : g;
      for (size_t i = 0; i < a->nk; i++) {
        size_t j = 0;
        while (j < b->nk && strcmp(b->k[j].name, a->k[i].name) != 0) j++;
        if (j == b->nk) {
          rc = DCSIM_ERR(
              err, DCSIM_EREF, b->path, 0,
              "no counters for kernel %s (%s:%d has them): give every kernel on every GPU",
              a->k[i].raw, a->path, a->k[i].line);
          goto out;
        }
      }
    }
    for (size_t i = 0; i < g0->nk; i++) {
      size_t j = 0;
      while (j < g->nk && strcmp(g->k[j].name, g0->k[i].name) != 0) j++;
      if (j == g->nk) {
        rc = DCSIM_ERR(err, DCSIM_EREF, g->path, 0,
                       "no counters for kernel %s (%s:%d has them): give every kernel on every GPU",
                       g0->k[i].raw, g0->path, g0->k[i].line);
        goto out;
      }
      if ((rc = kernel_chars(g, &g->k[j], &c->per_gpu[gi * g0->nk + i], c->gpu_how[gi],
                             sizeof c->gpu_how[gi], err)))
        goto out;
    }
  }
  for (size_t i = 0; i < g0->nk; i++) {
    dcsim_gpu_chars *m = &c->mean[i];
    snprintf(m->name, sizeof m->name, "%s", g0->k[i].name);
    for (size_t gi = 0; gi < nex; gi++) {
      const dcsim_gpu_chars *p = &c->per_gpu[gi * g0->nk + i];
      m->P_inactive += p->P_inactive / nex;
      m->P_misc += p->P_misc / nex;
      m->P_cfl += p->P_cfl / nex;
      m->G_e += p->G_e / nex;
      m->G_r_byte += p->G_r_byte / nex;
      m->i_int += p->i_int / nex;
      m->i_sp += p->i_sp / nex;
      m->i_dp += p->i_dp / nex;
      m->I_e += p->I_e / nex;
      m->IPC_e += p->IPC_e / nex;
    }
  }
  *out = c;
  c = NULL;
out:
  dcsim_gpu_calib_free(c);
  if (ex)
    for (size_t i = 0; i < nex; i++) free(ex[i].k);
  free(ex);
  return rc;
}

static void row(FILE *f, const char *label, const dcsim_gpu_chars *p) {
  fprintf(f, "  %-8s %9.4f %9.4f %9.4f %9.4f %10.4g %10.4g %10.4g %10.4g %10.4g %9.4g\n", label,
          p->P_inactive, p->P_misc, p->P_cfl, p->G_e, p->G_r_byte, p->i_int, p->i_sp, p->i_dp,
          p->I_e, p->IPC_e);
}

void dcsim_calib_gpu_report(FILE *f, const dcsim_gpu_calib *c) {
  fprintf(f,
          "GPU kernel characteristics (D3.5 Table 8) from %zu export%s, one per GPU; per point of "
          "N, mean over the GPUs\n",
          c->n_gpus, c->n_gpus == 1 ? "" : "s");
  for (size_t g = 0; g < c->n_gpus; g++)
    fprintf(f, "  GPU %zu: %s (%s, N = %.10g; %s)\n", g + 1, c->gpu_label[g], c->gpu_file[g],
            c->domain_size[g], c->gpu_how[g]);
  for (size_t i = 0; i < c->n_kernels; i++) {
    fprintf(f, "kernel %s\n  %-8s %9s %9s %9s %9s %10s %10s %10s %10s %10s %9s\n", c->mean[i].name,
            "", "P-inact", "P-misc", "P-cfl", "G-e", "G-r-byte", "i-int", "i-sp", "i-dp", "I-e",
            "IPC-e");
    for (size_t g = 0; g < c->n_gpus; g++) {
      char lab[32];
      snprintf(lab, sizeof lab, "GPU %zu", g + 1);
      row(f, lab, &c->per_gpu[g * c->n_kernels + i]);
    }
    if (c->n_gpus > 1) row(f, "mean", &c->mean[i]);
  }
}

static void chars_attrs(FILE *f, const dcsim_gpu_chars *m) {
  fprintf(f,
          " P-inactive=\"%.6g\" P-misc=\"%.6g\" P-cfl=\"%.6g\" G-e=\"%.6g\" G-r-byte=\"%.6g\" "
          "i-int=\"%.6g\" i-sp=\"%.6g\" "
          "i-dp=\"%.6g\" I-e=\"%.6g\" IPC-e=\"%.6g\"",
          m->P_inactive, m->P_misc, m->P_cfl, m->G_e, m->G_r_byte, m->i_int, m->i_sp, m->i_dp,
          m->I_e, m->IPC_e);
}

int dcsim_calib_gpu_kernels_xml(const dcsim_gpu_calib *c, const char *source, char **text,
                                dcsim_error *err) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  fputs(
      "<!-- GENERATED by dcsim calibrate gpu: D3.5 Table 8 characteristics per point of the "
      "domain,\n     mean over ",
      f);
  fprintf(f, "%zu GPU%s (doc/calibration.md):\n", c->n_gpus, c->n_gpus == 1 ? "" : "s");
  for (size_t g = 0; g < c->n_gpus; g++) {
    char line[2048];
    snprintf(line, sizeof line, "       %s: %s, N = %.10g\n", c->gpu_label[g], c->gpu_file[g],
             c->domain_size[g]);
    dcsim__xml_comment_text(f, line);
  }
  fputs(
      "     domain-size below is the profiled N: replace it by the dwarf's formula of its "
      "parameters.\n"
      "     invocations-per-call=\"1\" is an assumption (the exports do not say how often one call "
      "of the\n"
      "     dwarf runs each kernel): set it. -->\n",
      f);
  fprintf(f,
          "<kernels domain-size=\"%.10g\" invocations-per-call=\"1\" "
          "invocations-source=\"assumption: one invocation per "
          "call; not measured by dcsim calibrate gpu\">\n",
          c->domain_size[0]);
  for (size_t i = 0; i < c->n_kernels; i++) {
    fputs("  <kernel name=\"", f);
    dcsim__xml_escape(f, c->mean[i].name);
    fputc('"', f);
    chars_attrs(f, &c->mean[i]);
    fputs(" source=\"", f);
    dcsim__xml_escape(f, source);
    fputs("\"/>\n", f);
  }
  fputs("</kernels>\n", f);
  if (fclose(f) != 0) {
    free(buf);
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  }
  *text = buf;
  return 0;
}

/* a measured kernel quantity: six significant digits, as the profiler reports them */
static void set_num(xmlNode *n, const char *attr, double v) { dcsim__xml_set_num(n, attr, v, 6); }

int dcsim_calib_update_dwarf_kernels(const char *in_path, const char *out_path,
                                     const dcsim_gpu_calib *c, const char *source,
                                     dcsim_error *err) {
  xmlDoc *doc = NULL;
  int rc = dcsim__xml_edit_open(in_path, &doc, err);
  if (rc) return rc;
  xmlNode *root = xmlDocGetRootElement(doc);
  xmlNode *kernels = dcsim__xml_child(root, "kernels");
  if (!kernels) {
    rc = DCSIM_ERR(err, DCSIM_EREF, in_path, (int)xmlGetLineNo(root),
                   "<dwarf>: has no <kernels> (a GPU model) to calibrate");
    goto out;
  }
  for (size_t i = 0; i < c->n_kernels; i++) {
    xmlNode *kn = dcsim__xml_named(kernels, "kernel", c->mean[i].name);
    if (!kn) {
      rc = DCSIM_ERR(err, DCSIM_EREF, in_path, (int)xmlGetLineNo(kernels),
                     "<kernels>: no <kernel name=\"%s\"> (calibrated from %s)", c->mean[i].name,
                     c->gpu_file[0]);
      goto out;
    }
    const dcsim_gpu_chars *m = &c->mean[i];
    set_num(kn, "P-inactive", m->P_inactive);
    set_num(kn, "P-misc", m->P_misc);
    set_num(kn, "P-cfl", m->P_cfl);
    set_num(kn, "G-e", m->G_e);
    set_num(kn, "G-r-byte", m->G_r_byte);
    set_num(kn, "i-int", m->i_int);
    set_num(kn, "i-sp", m->i_sp);
    set_num(kn, "i-dp", m->i_dp);
    set_num(kn, "I-e", m->I_e);
    set_num(kn, "IPC-e", m->IPC_e);
    xmlSetProp(kn, BAD_CAST "source", BAD_CAST source);
  }
  rc = dcsim__xml_save(doc, out_path, err);
out:
  xmlFreeDoc(doc);
  return rc;
}
