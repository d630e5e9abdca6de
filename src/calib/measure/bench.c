/* bench.c — measurement kernels, the clock probe and sysfs cache sizes (see dcsim/bench.h). */
#include "dcsim/bench.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <unistd.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

#include "util/clock.h"

/* ---- sysfs ---- */

double dcsim_bench_parse_size(const char *s) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || errno || v < 0) return -1;
  while (*end == ' ') end++;
  double mul = 1;
  if (*end == 'K' || *end == 'k') {
    mul = 1024;
    end++;
  } else if (*end == 'M') {
    mul = 1024.0 * 1024;
    end++;
  } else if (*end == 'G') {
    mul = 1024.0 * 1024 * 1024;
    end++;
  }
  if (*end == 'B') end++;
  while (*end == ' ' || *end == '\n') end++;
  return *end ? -1 : v * mul;
}

double dcsim_bench_parse_duration(const char *s) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || errno || !(v > 0) || !isfinite(v)) return -1;
  double mul = 1;
  if (*end == 's')
    end++;
  else if (*end == 'm') {
    mul = 60;
    end++;
  } else if (*end == 'h') {
    mul = 3600;
    end++;
  }
  return *end ? -1 : v * mul;
}

static int read_line(const char *path, char *buf, size_t size) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  int ok = fgets(buf, (int)size, f) != NULL;
  fclose(f);
  if (!ok) return -1;
  buf[strcspn(buf, "\n")] = '\0';
  return 0;
}

/* "0-3,8,10-11" -> number of CPUs */
static unsigned count_cpu_list(const char *s) {
  unsigned n = 0;
  while (*s) {
    char *end;
    long a = strtol(s, &end, 10), b = a;
    if (end == s) break;
    if (*end == '-') b = strtol(end + 1, &end, 10);
    if (b >= a) n += (unsigned)(b - a + 1);
    s = *end == ',' ? end + 1 : end;
    if (!*end) break;
  }
  return n;
}

int dcsim_bench_read_caches(const char *cpu_dir, dcsim_bench_caches *out, dcsim_error *err) {
  dcsim_bench_caches c;
  memset(&c, 0, sizeof c);
  char path[1024], buf[256];
  int found = 0;
  for (int i = 0; i < 16; i++) {
    char lvl[32], type[64], size[64], shared[256] = "";
    snprintf(path, sizeof path, "%s/cpu0/cache/index%d/level", cpu_dir, i);
    if (read_line(path, lvl, sizeof lvl) != 0) continue;
    snprintf(path, sizeof path, "%s/cpu0/cache/index%d/type", cpu_dir, i);
    if (read_line(path, type, sizeof type) != 0) continue;
    snprintf(path, sizeof path, "%s/cpu0/cache/index%d/size", cpu_dir, i);
    if (read_line(path, size, sizeof size) != 0) continue;
    snprintf(path, sizeof path, "%s/cpu0/cache/index%d/shared_cpu_list", cpu_dir, i);
    if (read_line(path, shared, sizeof shared) != 0) snprintf(shared, sizeof shared, "0");
    double bytes = dcsim_bench_parse_size(size);
    if (bytes <= 0) {
      snprintf(path, sizeof path, "%s/cpu0/cache/index%d/size", cpu_dir, i);
      return DCSIM_ERR(err, DCSIM_EPARSE, path, 1,
                       "cache size '%s': expected a number with K, M or G", size);
    }
    if (strcmp(type, "Instruction") == 0) continue;
    found = 1;
    if (strcmp(lvl, "1") == 0)
      c.l1d_byte = bytes;
    else if (strcmp(lvl, "2") == 0) {
      c.l2_byte = bytes;
      c.l2_shared_cpus = count_cpu_list(shared);
    } else if (strcmp(lvl, "3") == 0) {
      c.l3_byte = bytes;
      c.l3_shared_cpus = count_cpu_list(shared);
    }
  }
  (void)buf;
  if (!found || c.l1d_byte <= 0 || c.l2_byte <= 0) {
    snprintf(path, sizeof path, "%s/cpu0/cache", cpu_dir);
    return DCSIM_ERR(
        err, DCSIM_EIO, path, 0,
        "no L1 data and L2 cache description found (sysfs cache directory missing or unreadable)");
  }
  c.source = "sysfs";
  *out = c;
  return 0;
}

#if defined(__x86_64__)
/* One deterministic cache-parameters sub-leaf (Intel SDM vol. 2A, CPUID leaf 04H; AMD APM vol. 3,
 * CPUID Fn8000_001D, same layout): size = ways x partitions x line size x sets. Returns 0 at
 * the end of the list. */
static int cpuid_cache_leaf(unsigned leaf, unsigned sub, dcsim_bench_caches *c) {
  unsigned a, b, cc, d;
  if (!__get_cpuid_count(leaf, sub, &a, &b, &cc, &d)) return 0;
  unsigned type = a & 0x1f, level = (a >> 5) & 7;
  if (type == 0) return 0;
  if (type == 2) return 1; /* instruction cache */
  double bytes = (double)(((b >> 22) & 0x3ff) + 1) * (double)(((b >> 12) & 0x3ff) + 1) *
                 (double)((b & 0xfff) + 1) * ((double)cc + 1);
  unsigned shared = ((a >> 14) & 0xfff) + 1; /* at most this many logical CPUs share it */
  if (level == 1) c->l1d_byte = bytes;
  if (level == 2) {
    c->l2_byte = bytes;
    c->l2_shared_cpus = shared;
  }
  if (level == 3) {
    c->l3_byte = bytes;
    c->l3_shared_cpus = shared;
  }
  return 1;
}
#endif

int dcsim_bench_caches_cpuid(dcsim_bench_caches *out) {
#if defined(__x86_64__)
  dcsim_bench_caches c;
  memset(&c, 0, sizeof c);
  unsigned a, b, cc, d, max_ext = 0;
  if (!__get_cpuid(0, &a, &b, &cc, &d)) return -1;
  unsigned max_std = a;
  int amd = b == 0x68747541; /* "Auth"enticAMD */
  if (__get_cpuid(0x80000000u, &a, &b, &cc, &d)) max_ext = a;
  unsigned leaf = 0;
  if (!amd && max_std >= 4) leaf = 4;
  if (amd && max_ext >= 0x8000001du && __get_cpuid(0x80000001u, &a, &b, &cc, &d) &&
      (cc >> 22) & 1) /* TopologyExtensions */
    leaf = 0x8000001du;
  for (unsigned i = 0; leaf && i < 16; i++)
    if (!cpuid_cache_leaf(leaf, i, &c)) break;
  if (amd && (c.l1d_byte <= 0 || c.l2_byte <= 0) && max_ext >= 0x80000006u) {
    /* AMD APM vol. 3, Fn8000_0005 ECX[31:24] L1d KiB; Fn8000_0006 ECX[31:16] L2 KiB,
     * EDX[31:18] L3 in 512 KiB units */
    if (__get_cpuid(0x80000005u, &a, &b, &cc, &d)) c.l1d_byte = (double)(cc >> 24) * 1024;
    if (__get_cpuid(0x80000006u, &a, &b, &cc, &d)) {
      c.l2_byte = (double)(cc >> 16) * 1024;
      c.l3_byte = (double)(d >> 18) * 512 * 1024;
    }
  }
  if (c.l1d_byte <= 0 || c.l2_byte <= 0) return -1;
  c.source = "CPUID";
  *out = c;
  return 0;
#else
  (void)out;
  return -1;
#endif
}

int dcsim_bench_caches_sysconf(dcsim_bench_caches *out) {
  dcsim_bench_caches c;
  memset(&c, 0, sizeof c);
#if defined(_SC_LEVEL1_DCACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE)
  long l1 = sysconf(_SC_LEVEL1_DCACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  c.l1d_byte = l1 > 0 ? (double)l1 : 0;
  c.l2_byte = l2 > 0 ? (double)l2 : 0;
#if defined(_SC_LEVEL3_CACHE_SIZE)
  long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
  c.l3_byte = l3 > 0 ? (double)l3 : 0;
#endif
#endif
  if (c.l1d_byte <= 0 || c.l2_byte <= 0) return -1;
  c.source = "sysconf";
  *out = c;
  return 0;
}

int dcsim_bench_parse_cache_spec(const char *spec, dcsim_bench_caches *out, dcsim_error *err) {
  const char *p = spec;
  if (!*p)
    return DCSIM_PERR(err, DCSIM_EUSAGE, "cache", -1,
                      "'': expected L1=SIZE,L2=SIZE,L3=SIZE (for example L1=48K,L2=1M)");
  while (*p) {
    size_t len = strcspn(p, ",");
    char item[64];
    if (len >= sizeof item) len = sizeof item - 1;
    memcpy(item, p, len);
    item[len] = '\0';
    char *eq = strchr(item, '=');
    double v = eq ? dcsim_bench_parse_size(eq + 1) : -1;
    int lv = eq && eq - item == 2 && (item[0] == 'L' || item[0] == 'l') ? item[1] - '0' : 0;
    if (lv < 1 || lv > 3 || v < 0 || (lv < 3 && v < 1024) || v > 64e9)
      return DCSIM_PERR(err, DCSIM_EUSAGE, "cache", -1,
                        "'%s': item '%s': expected L1=, L2= or L3= and a size from 1K "
                        "to 64G with K, M or G (L3=0: none)",
                        spec, item);
    if (lv == 1) out->l1d_byte = v;
    if (lv == 2) {
      out->l2_byte = v;
      out->l2_shared_cpus = 0;
    }
    if (lv == 3) {
      out->l3_byte = v;
      out->l3_shared_cpus = 0;
    }
    p += strcspn(p, ",");
    if (*p == ',') p++;
  }
  return 0;
}

int dcsim_bench_find_caches(const char *cpu_dir, const dcsim_bench_caches *hand,
                            dcsim_bench_caches *out, dcsim_error *err) {
  dcsim_bench_caches c;
  memset(&c, 0, sizeof c);
  dcsim_error sys;
  memset(&sys, 0, sizeof sys);
  int found = dcsim_bench_read_caches(cpu_dir, &c, &sys) == 0 ||
              dcsim_bench_caches_cpuid(&c) == 0 || dcsim_bench_caches_sysconf(&c) == 0;
  if (sys.code == DCSIM_EPARSE) { /* a malformed sysfs file is an error, not a reason to guess */
    if (err) *err = sys;
    return sys.code;
  }
  int by_hand = 0;
  if (hand) {
    if (hand->l1d_byte >= 0) c.l1d_byte = hand->l1d_byte, by_hand = 1;
    if (hand->l2_byte >= 0) c.l2_byte = hand->l2_byte, c.l2_shared_cpus = 0, by_hand = 1;
    if (hand->l3_byte >= 0) c.l3_byte = hand->l3_byte, c.l3_shared_cpus = 0, by_hand = 1;
  }
  if (c.l1d_byte <= 0 || c.l2_byte <= 0)
    return DCSIM_ERR(err, DCSIM_EIO, cpu_dir, 0,
                     "cache sizes unknown: %s; CPUID and sysconf give no L1d and L2 size either; "
                     "give them with --cache L1=48K,L2=2M,L3=32M",
                     sys.msg[0] ? sys.msg : "no sysfs cache description");
  if (by_hand && found) /* the sizes read, some of them replaced by --cache */
    c.source = strcmp(c.source, "sysfs") == 0   ? "sysfs and by hand"
               : strcmp(c.source, "CPUID") == 0 ? "CPUID and by hand"
                                                : "sysconf and by hand";
  else if (by_hand)
    c.source = "by hand";
  *out = c;
  return 0;
}

/* ---- ISA ---- */

const char *dcsim_bench_isa_name(dcsim_bench_isa isa) {
  static const char *const names[] = { "generic", "AVX2+FMA", "AVX-512" };
  return (unsigned)isa < 3 ? names[isa] : "?";
}

int dcsim_bench_isa_available(dcsim_bench_isa isa) {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (isa == DCSIM_ISA_AVX2) return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (isa == DCSIM_ISA_AVX512) return __builtin_cpu_supports("avx512f");
#endif
  return isa == DCSIM_ISA_GENERIC;
}

dcsim_bench_isa dcsim_bench_isa_best(void) {
  if (dcsim_bench_isa_available(DCSIM_ISA_AVX512)) return DCSIM_ISA_AVX512;
  if (dcsim_bench_isa_available(DCSIM_ISA_AVX2)) return DCSIM_ISA_AVX2;
  return DCSIM_ISA_GENERIC;
}

/* ---- FMA ---- */

#define NACC \
  12 /* independent accumulators: covers FMA latency x throughput (4-5 cycles x 2 ports) */

static double fma_generic(uint64_t iters, double a, double b, double *sum) {
  double acc[NACC];
  for (int k = 0; k < NACC; k++) acc[k] = k + 1;
  for (uint64_t i = 0; i < iters; i++) {
#pragma GCC unroll 12
    for (int k = 0; k < NACC; k++) acc[k] = acc[k] * a + b;
  }
  double s = 0;
  for (int k = 0; k < NACC; k++) s += acc[k];
  *sum = s;
  return 2.0 * NACC * (double)iters;
}

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) static double fma_avx2(uint64_t iters, double a, double b,
                                                           double *sum) {
  __m256d acc[NACC], va = _mm256_set1_pd(a), vb = _mm256_set1_pd(b);
  for (int k = 0; k < NACC; k++) acc[k] = _mm256_set_pd(4 * k + 4, 4 * k + 3, 4 * k + 2, 4 * k + 1);
  for (uint64_t i = 0; i < iters; i++) {
#pragma GCC unroll 12
    for (int k = 0; k < NACC; k++) acc[k] = _mm256_fmadd_pd(acc[k], va, vb);
  }
  double lanes[4], s = 0;
  for (int k = 0; k < NACC; k++) {
    _mm256_storeu_pd(lanes, acc[k]);
    s += lanes[0] + lanes[1] + lanes[2] + lanes[3];
  }
  *sum = s;
  return 2.0 * 4 * NACC * (double)iters;
}

__attribute__((target("avx512f"))) static double fma_avx512(uint64_t iters, double a, double b,
                                                            double *sum) {
  __m512d acc[NACC], va = _mm512_set1_pd(a), vb = _mm512_set1_pd(b);
  for (int k = 0; k < NACC; k++)
    acc[k] = _mm512_set_pd(8 * k + 8, 8 * k + 7, 8 * k + 6, 8 * k + 5, 8 * k + 4, 8 * k + 3,
                           8 * k + 2, 8 * k + 1);
  for (uint64_t i = 0; i < iters; i++) {
#pragma GCC unroll 12
    for (int k = 0; k < NACC; k++) acc[k] = _mm512_fmadd_pd(acc[k], va, vb);
  }
  double lanes[8], s = 0;
  for (int k = 0; k < NACC; k++) {
    _mm512_storeu_pd(lanes, acc[k]);
    for (int l = 0; l < 8; l++) s += lanes[l];
  }
  *sum = s;
  return 2.0 * 8 * NACC * (double)iters;
}

/* The L1 load kernel once per ISA, like the FMA kernels above: load_avx2 and load_avx512 have the
 * same shape but are two kernels, not one rule written twice. Each is compiled for its own
 * target (the attribute), with its own vector type, width (4 or 8 doubles, so its own stride and
 * alignment) and intrinsics; a macro making both would hide the very instructions the bench
 * exists to measure, and dcsim_bench_load picks one at run time (doc/design.md, "Helpers once"). */
__attribute__((target("avx2"))) static double load_avx2(const double *x, size_t n, uint64_t passes,
                                                        double *sum) {
  __m256d s0 = _mm256_setzero_pd(), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0;
  for (uint64_t p = 0; p < passes; p++) {
    for (size_t i = 0; i < n; i += 32) {
      s0 = _mm256_add_pd(s0, _mm256_load_pd(x + i));
      s1 = _mm256_add_pd(s1, _mm256_load_pd(x + i + 4));
      s2 = _mm256_add_pd(s2, _mm256_load_pd(x + i + 8));
      s3 = _mm256_add_pd(s3, _mm256_load_pd(x + i + 12));
      s4 = _mm256_add_pd(s4, _mm256_load_pd(x + i + 16));
      s5 = _mm256_add_pd(s5, _mm256_load_pd(x + i + 20));
      s6 = _mm256_add_pd(s6, _mm256_load_pd(x + i + 24));
      s7 = _mm256_add_pd(s7, _mm256_load_pd(x + i + 28));
    }
  }
  __m256d t = _mm256_add_pd(_mm256_add_pd(_mm256_add_pd(s0, s1), _mm256_add_pd(s2, s3)),
                            _mm256_add_pd(_mm256_add_pd(s4, s5), _mm256_add_pd(s6, s7)));
  double l[4];
  _mm256_storeu_pd(l, t);
  *sum = l[0] + l[1] + l[2] + l[3];
  return 8.0 * (double)n * (double)passes;
}

/* 8 independent 64-byte accumulators: two loads a cycle on Skylake-SP and later (Intel
 * optimisation manual, table 2-6) need 512-bit loads to reach the L1's 128 B/cycle */
__attribute__((target("avx512f"))) static double load_avx512(const double *x, size_t n,
                                                             uint64_t passes, double *sum) {
  __m512d s0 = _mm512_setzero_pd(), s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0;
  for (uint64_t p = 0; p < passes; p++) {
    for (size_t i = 0; i < n; i += 64) {
      s0 = _mm512_add_pd(s0, _mm512_load_pd(x + i));
      s1 = _mm512_add_pd(s1, _mm512_load_pd(x + i + 8));
      s2 = _mm512_add_pd(s2, _mm512_load_pd(x + i + 16));
      s3 = _mm512_add_pd(s3, _mm512_load_pd(x + i + 24));
      s4 = _mm512_add_pd(s4, _mm512_load_pd(x + i + 32));
      s5 = _mm512_add_pd(s5, _mm512_load_pd(x + i + 40));
      s6 = _mm512_add_pd(s6, _mm512_load_pd(x + i + 48));
      s7 = _mm512_add_pd(s7, _mm512_load_pd(x + i + 56));
    }
  }
  __m512d t = _mm512_add_pd(_mm512_add_pd(_mm512_add_pd(s0, s1), _mm512_add_pd(s2, s3)),
                            _mm512_add_pd(_mm512_add_pd(s4, s5), _mm512_add_pd(s6, s7)));
  *sum = _mm512_reduce_add_pd(t);
  return 8.0 * (double)n * (double)passes;
}
#endif

double dcsim_bench_fma(dcsim_bench_isa isa, uint64_t iters, double a, double b, double *sum) {
#if defined(__x86_64__)
  if (isa == DCSIM_ISA_AVX512 && dcsim_bench_isa_available(isa))
    return fma_avx512(iters, a, b, sum);
  if (isa == DCSIM_ISA_AVX2 && dcsim_bench_isa_available(isa)) return fma_avx2(iters, a, b, sum);
#endif
  (void)isa;
  return fma_generic(iters, a, b, sum);
}

double dcsim_bench_load(dcsim_bench_isa isa, const double *x, size_t n, uint64_t passes,
                        double *sum) {
#if defined(__x86_64__)
  if (isa == DCSIM_ISA_AVX512 && dcsim_bench_isa_available(DCSIM_ISA_AVX512) &&
      ((uintptr_t)x & 63) == 0 && n % 64 == 0)
    return load_avx512(x, n, passes, sum);
  if (isa != DCSIM_ISA_GENERIC && dcsim_bench_isa_available(DCSIM_ISA_AVX2) &&
      ((uintptr_t)x & 31) == 0 && n % 32 == 0)
    return load_avx2(x, n, passes, sum);
#endif
  (void)isa;
  double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  for (uint64_t p = 0; p < passes; p++) {
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
      s0 += x[i];
      s1 += x[i + 1];
      s2 += x[i + 2];
      s3 += x[i + 3];
    }
    for (; i < n; i++) s0 += x[i];
  }
  *sum = s0 + s1 + s2 + s3;
  return 8.0 * (double)n * (double)passes;
}

/* ---- loop kernels ---- */

/* Q per element is what the code loads plus what it stores, no write-allocate (Intel Advisor's
 * convention, which D3.5 used; STREAM counts its triad the same way, 24 B: McCalpin, "STREAM:
 * Sustainable Memory Bandwidth in High Performance Computers", stream.c's bytes[] table) */
static const dcsim_bench_loop_info loop_info[DCSIM_LOOP_COUNT] = {
  { "copy", "b[i] = a[i]", 16, 0, 16, 8, 8 },
  { "triad", "a[i] = b[i] + s*c[i]", 24, 2, 24, 16, 8 },
  { "dot", "s += a[i]*b[i]", 16, 2, 16, 16, 0 },
  { "stencil7", "out = c0*in + c1*(6 neighbours), 3-D grid", 64, 8, 16, 56, 8 },
  { "gather", "s += b[idx[i]], idx distinct random indices into b", 12, 1, 12, 12, 0 },
};

/* the bandwidth cells' load kernel in the same terms: 8 B loaded per element, nothing stored (the
 * adds are not counted as work) */
static const dcsim_bench_loop_info load_info = { "load", "s += x[i]", 8, 0, 8, 8, 0 };

const dcsim_bench_loop_info *dcsim_bench_load_info(void) { return &load_info; }

const dcsim_bench_loop_info *dcsim_bench_loop(dcsim_bench_loop_kind k) {
  return (unsigned)k < DCSIM_LOOP_COUNT ? &loop_info[k] : NULL;
}

size_t dcsim_bench_loop_elems(dcsim_bench_loop_kind k, size_t n) {
  if (k == DCSIM_LOOP_STENCIL7) {
    size_t m = (size_t)cbrt((double)n);
    while ((m + 1) * (m + 1) * (m + 1) <= n) m++;
    if (m < 2) m = 2;
    return m * m * m;
  }
  /* gather: at most 2^20 accesses per pass into a table of n (one pass over a DRAM-sized table
   * of random accesses took 5.9 s on the development VM; the table keeps its size) */
  if (k == DCSIM_LOOP_GATHER && n > DCSIM_BENCH_GATHER_MAX) return DCSIM_BENCH_GATHER_MAX;
  return n;
}

struct dcsim_bench_loop_data {
  dcsim_bench_loop_kind kind;
  size_t n, m;       /* elements; stencil: interior edge m, n = m^3; gather: m = table size */
  double *a, *b, *c; /* streams inside block (c: triad only) */
  void *block;       /* the one allocation a, b and c lie in */
  int32_t *idx;
};

void dcsim_bench_loop_free(dcsim_bench_loop_data *d) {
  if (!d) return;
  free(d->block);
  free(d->idx);
  free(d);
}

/* The streams' placement. A load whose address equals that of an earlier store still in the
 * store buffer in bits 11:0 waits for it ("4K aliasing": Intel 64 and IA-32 Architectures
 * Optimization Reference Manual, order no. 248966, section "4K Aliasing"). Separate allocations
 * put the streams wherever the C library does (large arrays from their own mmap at one page
 * offset, small ones from the heap a few hundred bytes apart), so how often a kernel's loads
 * waited changed with the sizes and the heap. A streaming loop's load of element i can only
 * alias a store to an element j < i: the read streams start a little *above* the written one
 * within the page (64 and 128 bytes), so a store that a load matches in bits 11:0 lies 4096 - 64
 * bytes or more behind it, beyond what a store buffer holds (56 stores on Skylake-SP, 3584 bytes
 * even at 64 bytes each). Measured here (doc/calibration.md "Stream placement"): the L1 triad
 * with its written stream 128 bytes above the read ones ran at 62.9 GB/s against 72.3 with this
 * layout, and the copy with its written stream 1088 bytes above the read one at 14.9 against
 * 23.9 GB/s. */
enum { STREAM_READ_AHEAD_BYTE = 64 };

/* which of a, b, c the kernel writes (0, 1, 2), or -1 */
static int written_stream(dcsim_bench_loop_kind k) {
  return k == DCSIM_LOOP_TRIAD ? 0 : k == DCSIM_LOOP_COPY || k == DCSIM_LOOP_STENCIL7 ? 1 : -1;
}

/* the streams a, b (and c) of cells, cells and c_cells doubles in one page-aligned block, each
 * beginning on its own page: the written one at offset 0, the read ones 64, 128 bytes above; 0 or
 * -1 (out of memory) */
static int streams_alloc(dcsim_bench_loop_data *d, size_t cells, size_t c_cells) {
  size_t sz[3] = { cells, cells, c_cells }, pos[3], total = 0;
  int w = written_stream(d->kind), ns = c_cells ? 3 : 2, r = 0;
  for (int s = 0; s < ns; s++) {
    pos[s] = total + (s == w ? 0 : (size_t)STREAM_READ_AHEAD_BYTE * (size_t)++r);
    size_t end = pos[s] + (sz[s] ? sz[s] : 1) * sizeof(double);
    total = (end + 4095) / 4096 * 4096;
  }
  char *blk = aligned_alloc(4096, total);
  if (!blk) return -1;
  d->block = blk;
  d->a = (double *)(blk + pos[0]);
  d->b = (double *)(blk + pos[1]);
  d->c = c_cells ? (double *)(blk + pos[2]) : NULL;
  return 0;
}

int dcsim_bench_loop_streams(const dcsim_bench_loop_data *d, const double *s[3], int *written) {
  s[0] = d->a;
  s[1] = d->b;
  s[2] = d->c;
  if (written) *written = written_stream(d->kind);
  return d->c ? 3 : 2;
}

int dcsim_bench_loop_alloc(dcsim_bench_loop_kind k, size_t n, uint64_t seed,
                           dcsim_bench_loop_data **out, dcsim_error *err) {
  if ((unsigned)k >= DCSIM_LOOP_COUNT || n < 8)
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "loop kernel: bad kind or fewer than 8 elements");
  dcsim_bench_loop_data *d = calloc(1, sizeof *d);
  if (!d) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  d->kind = k;
  if (k == DCSIM_LOOP_GATHER && n > INT32_MAX) n = INT32_MAX;
  size_t table = n;
  n = dcsim_bench_loop_elems(k, n);
  size_t cells = k == DCSIM_LOOP_GATHER ? table : n;
  if (k == DCSIM_LOOP_STENCIL7) {
    size_t m = (size_t)llround(cbrt((double)n));
    d->m = m;
    cells = (m + 2) * (m + 2) * (m + 2);
  }
  d->n = n;
  int fail = streams_alloc(d, cells, k == DCSIM_LOOP_TRIAD ? n : 0) != 0;
  if (k == DCSIM_LOOP_GATHER) d->idx = malloc(table * sizeof *d->idx);
  if (fail || (k == DCSIM_LOOP_GATHER && !d->idx)) {
    dcsim_bench_loop_free(d);
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory (%zu elements)", n);
  }
  for (size_t i = 0; i < cells; i++) {
    d->a[i] = 1.0 + (double)(i % 7) * 0.125;
    d->b[i] = 0.5 * (double)(i % 5);
  }
  if (d->c)
    for (size_t i = 0; i < n; i++) d->c[i] = 0.25 * (double)(i % 3);
  if (d->idx) {
    uint64_t s = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    for (size_t i = 0; i < table; i++) d->idx[i] = (int32_t)i;
    /* the first n of a Fisher-Yates shuffle (64-bit LCG): a random permutation when n = table,
     * else n distinct random indices */
    for (size_t i = 0; i < n && i + 1 < table; i++) {
      s = s * 6364136223846793005ULL + 1442695040888963407ULL;
      size_t j = i + (size_t)((s >> 33) % (table - i));
      int32_t t = d->idx[i];
      d->idx[i] = d->idx[j];
      d->idx[j] = t;
    }
  }
  *out = d;
  return 0;
}

size_t dcsim_bench_loop_n(const dcsim_bench_loop_data *d) { return d->n; }

double dcsim_bench_loop_out(const dcsim_bench_loop_data *d, size_t i) {
  switch (d->kind) {
    case DCSIM_LOOP_COPY: return d->b[i];
    case DCSIM_LOOP_TRIAD: return d->a[i];
    case DCSIM_LOOP_STENCIL7: return d->b[i];
    default: return NAN;
  }
}

double dcsim_bench_loop_run(dcsim_bench_loop_data *d, uint64_t passes) {
  size_t n = d->n;
  double *restrict a = d->a, *restrict b = d->b, *restrict c = d->c;
  double chk = 0;
  for (uint64_t p = 0; p < passes; p++) {
    switch (d->kind) {
      case DCSIM_LOOP_COPY:
        for (size_t i = 0; i < n; i++) b[i] = a[i];
        chk += b[p % n];
        break;
      case DCSIM_LOOP_TRIAD: {
        const double s = 1.5;
        for (size_t i = 0; i < n; i++) a[i] = b[i] + s * c[i];
        chk += a[p % n];
        break;
      }
      case DCSIM_LOOP_DOT: {
        double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        size_t i = 0;
        for (; i + 4 <= n; i += 4) {
          s0 += a[i] * b[i];
          s1 += a[i + 1] * b[i + 1];
          s2 += a[i + 2] * b[i + 2];
          s3 += a[i + 3] * b[i + 3];
        }
        for (; i < n; i++) s0 += a[i] * b[i];
        chk += s0 + s1 + s2 + s3;
        break;
      }
      case DCSIM_LOOP_STENCIL7: {
        size_t m = d->m, e = m + 2, pl = e * e;
        const double c0 = 0.5, c1 = 1.0 / 12;
        for (size_t z = 1; z <= m; z++)
          for (size_t y = 1; y <= m; y++) {
            size_t o = z * pl + y * e;
            for (size_t x = 1; x <= m; x++) {
              size_t q = o + x;
              b[q] = c0 * a[q] +
                     c1 * (a[q - 1] + a[q + 1] + a[q - e] + a[q + e] + a[q - pl] + a[q + pl]);
            }
          }
        chk += b[pl + e + 1];
        break;
      }
      case DCSIM_LOOP_GATHER: {
        const int32_t *restrict idx = d->idx;
        double s = 0;
        for (size_t i = 0; i < n; i++) s += b[idx[i]];
        chk += s;
        break;
      }
      default: break;
    }
  }
  return chk;
}

/* ---- clock ---- */

double dcsim_bench_clock_probe_ghz(uint64_t n) {
#if defined(__x86_64__)
  uint64_t x = 0, one = 1, rounds = n / 64 ? n / 64 : 1;
  double t0 = dcsim__clock_s();
  /* 64 dependent register-register adds: 64 cycles. Not `add $1, reg`: Golden Cove and later
   * cores (Sapphire and Emerald Rapids) fold immediate adds at rename and ran that chain at
   * about 20 "GHz" on the development VM (doc/calibration.md) */
  for (uint64_t r = 0; r < rounds; r++)
    __asm__ volatile(".rept 64\n\tadd %1, %0\n\t.endr" : "+r"(x) : "r"(one));
  double t = dcsim__clock_s() - t0;
  return t > 0 && x == rounds * 64 ? (double)(rounds * 64) / t * 1e-9 : 0;
#else
  (void)n;
  return 0;
#endif
}
