/* streams-probe.c — the one-off experiment behind doc/calibration.md "One thread's DRAM: the
 * triad" (issue 38), kept as the record of how streams.txt was measured; not built by CMake.
 * One thread pinned to CPU 0 streams a DRAM-sized working set (argv[1] bytes, 74973184 = the
 * quick bench's 1-thread DRAM size on this VM) with: the load kernel read as 1, 2, 4 or 8
 * streams in lockstep (AVX-512, 8 accumulators), STREAM's triad a = b + 1.5 c (24 B counted per
 * element, no write-allocate; compiled as the build compiles it), the triad with non-temporal
 * stores, and the 1-stream load and the triad on MADV_HUGEPAGE memory. Each pass is timed in
 * 4 MiB windows (argv[3]) so that the best windows miss the preemption of a loaded machine;
 * best, 90th percentile and median window over argv[2] passes, and the whole passes' rate.
 * Build: gcc -O2 streams-probe.c (no -march). */
#define _GNU_SOURCE
#include <immintrin.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}
/* k streams (k=1,2,4,8), stream j = x + j*part; reads elements [i0,i1) of each stream */
__attribute__((target("avx512f"))) static double loadk(const double *x, size_t part, int k,
                                                       size_t i0, size_t i1, double *sum) {
  __m512d s[8];
  for (int j = 0; j < 8; j++) s[j] = _mm512_setzero_pd();
  int per = 8 / k; /* loads per stream per iteration */
  for (size_t i = i0; i < i1; i += 8 * per) {
    for (int j = 0; j < k; j++)
      for (int u = 0; u < per; u++)
        s[j * per + u] = _mm512_add_pd(s[j * per + u], _mm512_load_pd(x + j * part + i + 8 * u));
  }
  __m512d t = s[0];
  for (int j = 1; j < 8; j++) t = _mm512_add_pd(t, s[j]);
  *sum += _mm512_reduce_add_pd(t);
  return 8.0 * (i1 - i0) * k;
}
static double triad(double *restrict a, const double *restrict b, const double *restrict c,
                    size_t i0, size_t i1) {
  for (size_t i = i0; i < i1; i++) a[i] = b[i] + 1.5 * c[i];
  return 24.0 * (i1 - i0);
}
__attribute__((target("avx512f"))) static double triad_nt(double *restrict a,
                                                          const double *restrict b,
                                                          const double *restrict c, size_t i0,
                                                          size_t i1) {
  __m512d s = _mm512_set1_pd(1.5);
  for (size_t i = i0; i < i1; i += 8)
    _mm512_stream_pd(a + i, _mm512_fmadd_pd(s, _mm512_load_pd(c + i), _mm512_load_pd(b + i)));
  _mm_sfence();
  return 24.0 * (i1 - i0);
}
static int cmp(const void *a, const void *b) {
  double x = *(double *)a, y = *(double *)b;
  return x < y ? -1 : x > y;
}
int main(int argc, char **argv) {
  size_t ws = argc > 1 ? atol(argv[1]) : 74973184;
  int passes = argc > 2 ? atoi(argv[2]) : 5;
  size_t chunk_b = argc > 3 ? atol(argv[3]) : (4 << 20);
  cpu_set_t s;
  CPU_ZERO(&s);
  CPU_SET(0, &s);
  sched_setaffinity(0, sizeof s, &s);
  size_t n = ws / 8 / 512 * 512;
  double *x = aligned_alloc(4096, n * 8);
  for (size_t i = 0; i < n; i++) x[i] = (i & 7) * 0.5;
  size_t m = ws / 24 / 64 * 64;
  size_t ab = (m * 8 + 8192) / 4096 * 4096;
  char *blk = aligned_alloc(4096, 3 * ab);
  double *a = (double *)blk, *b = (double *)(blk + ab + 64), *c = (double *)(blk + 2 * ab + 128);
  for (size_t i = 0; i < m; i++) {
    a[i] = 1;
    b[i] = 2;
    c[i] = 3;
  }
  size_t H = 2 << 20, hb = (n * 8 + H - 1) / H * H;
  double *xh = aligned_alloc(H, hb);
  madvise(xh, hb, MADV_HUGEPAGE);
  for (size_t i = 0; i < n; i++) xh[i] = (i & 7) * 0.5;
  size_t ab2 = (m * 8 + H - 1) / H * H + H;
  char *bh = aligned_alloc(H, 3 * ab2);
  madvise(bh, 3 * ab2, MADV_HUGEPAGE);
  double *ah = (double *)bh, *bbh = (double *)(bh + ab2 + 64), *ch = (double *)(bh + 2 * ab2 + 128);
  for (size_t i = 0; i < m; i++) {
    ah[i] = 1;
    bbh[i] = 2;
    ch[i] = 3;
  }
  double sum = 0;
  enum { K = 8 };
  const char *names[K] = { "load1",   "load2",   "load4",     "load8",
                           "triad24", "triadNT", "load1huge", "triadhuge" };
  const int ks[4] = { 1, 2, 4, 8 };
  static double v[K][100000];
  int nv[K] = { 0 };
  double tot[K] = { 0 }, tt[K] = { 0 };
  for (int p = 0; p < passes; p++)
    for (int kk = 0; kk < K; kk++) {
      size_t len = kk < 4 ? n / ks[kk] : kk == 6 ? n : m; /* elements per stream */
      size_t step = kk < 4 ? chunk_b / 8 / ks[kk] : kk == 6 ? chunk_b / 8 : chunk_b / 24;
      step = step / 64 * 64;
      double T0 = now(), B = 0;
      for (size_t i0 = 0; i0 < len; i0 += step) {
        size_t i1 = i0 + step > len ? len : i0 + step;
        i1 = i1 / 64 * 64;
        if (i1 <= i0) break;
        double t0 = now(), by = kk < 4    ? loadk(x, len, ks[kk], i0, i1, &sum)
                                : kk == 4 ? triad(a, b, c, i0, i1)
                                : kk == 5 ? triad_nt(a, b, c, i0, i1)
                                : kk == 6 ? loadk(xh, len, 1, i0, i1, &sum)
                                          : triad(ah, bbh, ch, i0, i1);
        double dt = now() - t0;
        v[kk][nv[kk]++] = by / dt * 1e-9;
        B += by;
      }
      tot[kk] += B;
      tt[kk] += now() - T0;
    }
  for (int kk = 0; kk < K; kk++) {
    qsort(v[kk], nv[kk], 8, cmp);
    int q = nv[kk];
    printf("%-8s chunks %4d best %6.2f p90 %6.2f med %6.2f whole %6.2f\n", names[kk], q,
           v[kk][q - 1], v[kk][q * 9 / 10], v[kk][q / 2], tot[kk] / tt[kk] * 1e-9);
  }
  {
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    while (fgets(line, 256, f))
      if (!strncmp(line, "AnonHuge", 8)) fputs(line, stdout);
    fclose(f);
  }
  fprintf(stderr, "%g\n", sum + a[5]);
  return 0;
}
