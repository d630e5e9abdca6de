/* dcsim/bench.h — measuring this machine (`dcsim bench`): peak GFLOP/s and bandwidth per memory
 * level per thread count, a set of loop kernels, their fitted coefficients and how well the §4.3
 * model predicts held-out thread counts (doc/calibration.md "dcsim bench").
 *
 * The kernels are exported so that tests can check their results (never their speed). Runs are
 * pinned: thread i of a measurement runs on the i-th CPU of the process's affinity mask.
 * Ownership: dcsim_bench_run() writes into o->out_dir and the optional database; everything it
 * allocates is freed before it returns. */
#ifndef DCSIM_BENCH_H
#define DCSIM_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dcsim/error.h"

/* ---- cache sizes: sysfs, CPUID, sysconf or by hand ---- */
typedef struct dcsim_bench_caches {
  double l1d_byte, l2_byte, l3_byte; /* per instance; 0 = unknown (L3: none) */
  unsigned l2_shared_cpus, l3_shared_cpus;
  /* where the sizes came from, a literal: "sysfs", "CPUID", "sysconf", "by hand" (--cache), or one
   * of the first three followed by " and by hand"; NULL until a reader sets it */
  const char *source;
} dcsim_bench_caches;
/* cpu_dir: normally "/sys/devices/system/cpu"; reads cpu0/cache/index*. */
int dcsim_bench_read_caches(const char *cpu_dir, dcsim_bench_caches *out, dcsim_error *err);
/* The caches the CPUID instruction describes (x86-64: Intel leaf 4, AMD leaf 0x8000001D or the
 * legacy leaves 0x80000005/6); 0, or -1 where CPUID gives no L1d and L2 size (other
 * architectures, a hypervisor that hides the leaves). */
int dcsim_bench_caches_cpuid(dcsim_bench_caches *out);
/* The C library's sysconf(_SC_LEVEL1_DCACHE_SIZE, ...); 0, or -1 where it gives no L1d and L2. */
int dcsim_bench_caches_sysconf(dcsim_bench_caches *out);
/* "L1=48K,L2=1M,L3=30M" (any subset; sizes as dcsim_bench_parse_size; L3=0: no L3) into the
 * levels of *out it names (others untouched; a named level's sharing count becomes 0). */
int dcsim_bench_parse_cache_spec(const char *spec, dcsim_bench_caches *out, dcsim_error *err);
/* The caches of this machine: sysfs under cpu_dir, else CPUID, else sysconf; then the levels that
 * `hand` (may be NULL; a --cache spec parsed with every level -1 = not given) names replace the
 * found ones. An error, naming what was tried, when L1d or L2 stays unknown. */
int dcsim_bench_find_caches(const char *cpu_dir, const dcsim_bench_caches *hand,
                            dcsim_bench_caches *out, dcsim_error *err);
/* "32K" "512K" "32768K" "1M" -> bytes; -1 if malformed */
double dcsim_bench_parse_size(const char *s);

/* ---- kernels ---- */
typedef enum { DCSIM_ISA_GENERIC = 0, DCSIM_ISA_AVX2 = 1, DCSIM_ISA_AVX512 = 2 } dcsim_bench_isa;
const char *dcsim_bench_isa_name(dcsim_bench_isa isa);
int dcsim_bench_isa_available(dcsim_bench_isa isa);
dcsim_bench_isa dcsim_bench_isa_best(void);
/* iters rounds of independent multiply-adds acc = acc*a + b on every accumulator (fused on AVX2 and
 * AVX-512). Returns the flop count (2 per lane per FMA); *sum = sum of all accumulator lanes,
 * which start at 1, 2, 3, ... */
double dcsim_bench_fma(dcsim_bench_isa isa, uint64_t iters, double a, double b, double *sum);
/* passes over n doubles summing them: 512-bit loads where isa is AVX-512, x 64-byte aligned and n
 * a multiple of 64, else 256-bit loads where x is 32-byte aligned and n a multiple of 32, else
 * scalar; returns the bytes read, dcsim_bench_load_info()->byte_per_elem per element; *sum = the
 * total */
double dcsim_bench_load(dcsim_bench_isa isa, const double *x, size_t n, uint64_t passes,
                        double *sum);

enum { DCSIM_BENCH_GATHER_MAX = 1 << 20 }; /* accesses per pass of the gather kernel */
typedef enum {
  DCSIM_LOOP_COPY,
  DCSIM_LOOP_TRIAD,
  DCSIM_LOOP_DOT,
  DCSIM_LOOP_STENCIL7,
  DCSIM_LOOP_GATHER,
  DCSIM_LOOP_COUNT
} dcsim_bench_loop_kind;
typedef struct dcsim_bench_loop_info {
  const char *name;
  const char *code;           /* what it computes */
  double byte_per_elem;       /* Q per element: bytes loaded + stored by the code */
  double flop_per_elem;       /* W per element */
  double footprint_per_elem;  /* bytes of arrays per element (working set) */
  double load_byte_per_elem;  /* of Q: bytes loaded */
  double store_byte_per_elem; /* of Q: bytes stored (a store's write-allocate read not counted) */
} dcsim_bench_loop_info;
const dcsim_bench_loop_info *dcsim_bench_loop(dcsim_bench_loop_kind k);
/* the bandwidth cells' kernel (dcsim_bench_load) described in the loop kernels' terms */
const dcsim_bench_loop_info *dcsim_bench_load_info(void);
/* Per-thread data of a loop kernel: n elements (stencil: n interior points rounded down to a cube).
 */
typedef struct dcsim_bench_loop_data dcsim_bench_loop_data;
int dcsim_bench_loop_alloc(dcsim_bench_loop_kind k, size_t n, uint64_t seed,
                           dcsim_bench_loop_data **out, dcsim_error *err);
void dcsim_bench_loop_free(dcsim_bench_loop_data *d);
size_t dcsim_bench_loop_n(const dcsim_bench_loop_data *d); /* elements actually used */
/* runs `passes` passes; returns a checksum (sum of the output or the reduction) */
double dcsim_bench_loop_run(dcsim_bench_loop_data *d, uint64_t passes);
/* element i of the output array (copy: b, triad: a, stencil: out), for tests */
double dcsim_bench_loop_out(const dcsim_bench_loop_data *d, size_t i);
/* The kernel's streams a, b (and c) into s[0..2] (s[2] NULL where there is none); returns how
 * many; *written (may be NULL): the index of the one the kernel stores to, or -1. They lie in one
 * block, each on its own pages: the written stream at page offset 0, the read ones 64 and 128
 * bytes above it (4K aliasing, bench.c). */
int dcsim_bench_loop_streams(const dcsim_bench_loop_data *d, const double *s[3], int *written);

/* The core clock measured on the calling thread: n dependent integer additions (one cycle each on
 * x86-64) timed with CLOCK_MONOTONIC. GHz, or 0 where no probe exists for this architecture. */
double dcsim_bench_clock_probe_ghz(uint64_t n);

/* ---- a whole run ---- */
/* One timed region, as an injected timer sees it (tests: a synthetic, noisy machine). */
typedef struct dcsim_bench_region {
  const char *phase;  /* "warmup", "peak", "bw", "loop", "hvs", "energy" */
  const char *kernel; /* "fma-AVX2+FMA", "load", "triad.L2", ... */
  const char *level;  /* "L1".."DRAM", or "" */
  unsigned threads;
  uint64_t passes;
  double ws_byte;   /* working set per thread */
  double clock_ghz; /* out: the core clock the timer pretends (0: none) */
  /* out, what the interference checks see (doc/calibration.md "Interference"): the threads' CPU
   * time in the kernel over threads x the region's wall time (1: nothing else ran on their CPUs;
   * a timer that leaves it says 1), and the share of the CPUs' time stolen by the hypervisor
   * (/proc/stat steal; a timer that leaves it says 0) */
  double cpu_share, steal_frac;
} dcsim_bench_region;
/* Seconds the region took. With a timer the kernels are not run and no CPU is pinned. */
typedef double (*dcsim_bench_timer_fn)(void *user, dcsim_bench_region *r);

typedef struct dcsim_bench_opts {
  const char *out_dir;  /* calibration directory written (created) */
  const char *name;     /* profile name; NULL: from the CPU model name */
  const char *db_path;  /* SQLite results database, or NULL */
  int quick;            /* time budget 60 s unless time_budget_s says otherwise */
  double time_budget_s; /* 0: quick 60 s, else 300 s */
  unsigned reps;        /* > 0: exactly this many repetitions per point (no adaptive count) */
  unsigned max_threads; /* 0: all CPUs of the affinity mask */
  unsigned budget;      /* > 0: adaptive sampling of this many bandwidth points */
  int sampler;          /* dcsim_sampler of dcsim/hvs.h (0: random; the CLI's default is hvs) */
  uint64_t seed;
  const char *sysfs_cpu;            /* NULL: /sys/devices/system/cpu */
  const char *powercap;             /* NULL: /sys/class/powercap */
  const dcsim_bench_caches *caches; /* --cache by hand (levels < 0: not given), or NULL */
  const char *compare_cpu;          /* --compare: a catalogue CPU profile, or NULL */
  const char *check_workflow;       /* --check: a workflow file, or NULL */
  dcsim_bench_timer_fn timer;       /* NULL: the real clock around the real kernels */
  void *timer_user;
  unsigned socket_cpus; /* with a timer: CPUs of one socket (0: all) */
  int keep_suspect;     /* --keep-suspect: cells that fail the checks are kept and flagged, not
                           left out, and the run never refuses (tests of the file formats) */
  int probe;            /* --probe: the harness against plain loops at 1 thread (probe.csv) */
  FILE *progress;       /* progress lines (stderr), may be NULL */
  FILE *report;         /* the report (stdout), may be NULL */
} dcsim_bench_opts;

int dcsim_bench_run(const dcsim_bench_opts *o, dcsim_error *err);

/* `--compare CPU`: the measured ceilings of a bench directory (flops.csv, L1.csv .. DRAM.csv)
 * per level and thread count beside those of the catalogue profile cpu_ref (a name or a path) at
 * its state nearest the measured clock, and of its parametric model at the measured clock, with
 * their ratios. */
int dcsim_bench_compare(const char *dir, const char *cpu_ref, FILE *out, dcsim_error *err);

/* `--check WORKFLOW`: the first CPU task of the workflow, its dwarf and case, predicted with the
 * profile at profile_path against the replay of its loops recorded in dir/check.csv by a bench run
 * with --check (doc/calibration.md "--check"). */
int dcsim_bench_check(const char *dir, const char *workflow, const char *profile_path, FILE *out,
                      dcsim_error *err);

/* Duration "90", "90s", "2m", "1.5m", "1h" -> seconds; -1 if malformed or not positive */
double dcsim_bench_parse_duration(const char *s);
/* elements a loop of kind k uses when asked for n (the stencil rounds down to a cube) */
size_t dcsim_bench_loop_elems(dcsim_bench_loop_kind k, size_t n);

#endif
