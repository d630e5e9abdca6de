// gpu-bench — measures what dcsim's default GPU model needs on this GPU and writes
// tools/gpu-bench's CSV, layout 2 (read by `dcsim calibrate gpu BENCH.csv [POWER.csv]`;
// the layout is in include/dcsim/import_gpubench.h and tools/gpu-bench/README.md):
//   device query (name, compute capability, SMs, clock, memory), STREAM triad bandwidth,
//   FP64 and FP32 FMA peaks, launch overhead (back-to-back and synchronous), the dependent-issue
//   latency of one warp (FP32 and FP64 FMA chains, in cycles), host-to-device copy (pinned),
//   two kernels of the kind of ../shared/data/gpu/h100/loads.cu (transt_like: the ACRANEB2-like
//   column integral; stencil7: a 7-point FP64 stencil) over sizes, each timed as one synchronous
//   launch (OpenACC's default) and by CUDA events, and, with NVML, labelled power phases of
//   8 s each (board power sampled every 100 ms by a sampler thread into POWER.csv with the
//   phase's name): idle before any CUDA context, idle with a context, sustained FP64, FP32 and
//   integer compute, sustained DRAM traffic (triad), L2-resident traffic, a latency-bound
//   dependent chain on every SM, a launch-bound loop of empty synchronous launches, the two
//   kernels at sizes of loads.cu, and idle with a context again. Each phase row says what the
//   phase did (launches, device-busy seconds, and for the synthetic kernels its thread
//   instructions and bytes, counted from the source below) so that the power model can be fitted
//   on labelled phases (doc/calibration.md "GPU power by activity").
// Built only when CMake finds nvcc (tools/CMakeLists.txt); CI never needs a GPU.
// usage: gpu-bench OUT.csv [POWER.csv]
//        gpu-bench --profile     each kernel of the phases once (for Nsight Compute: the
//                                counts of what each launch does, tools/gpu-bench/device-run.sh)
#include <cuda_runtime.h>
#ifdef DCSIM_HAVE_NVML
#include <nvml.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#define CK(x)                                                                  \
  do {                                                                         \
    cudaError_t e_ = (x);                                                      \
    if (e_ != cudaSuccess) {                                                   \
      std::fprintf(stderr, "gpu-bench: %s: %s\n", #x, cudaGetErrorString(e_)); \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

// Unix time in seconds (the power log's timestamps and the phase marks share this clock).
static double now_s() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Device seconds per run of f (after one warm-up) by CUDA events, median of 5 repetitions.
template <class F> static double time_it(F f, int reps) {
  f();
  CK(cudaDeviceSynchronize());
  std::vector<double> t;
  for (int k = 0; k < 5; k++) {
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    CK(cudaEventRecord(a));
    for (int i = 0; i < reps; i++) f();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms * 1e-3 / reps);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
  }
  std::sort(t.begin(), t.end());
  return t[2];
}

// Wall seconds per synchronous launch (launch, then cudaDeviceSynchronize: OpenACC's default),
// median of 5 repetitions of reps launches.
template <class F> static double time_sync(F f, int reps) {
  f();
  CK(cudaDeviceSynchronize());
  std::vector<double> t;
  for (int k = 0; k < 5; k++) {
    double t0 = now_s();
    for (int i = 0; i < reps; i++) {
      f();
      CK(cudaDeviceSynchronize());
    }
    t.push_back((now_s() - t0) / reps);
  }
  std::sort(t.begin(), t.end());
  return t[2];
}

// ---- kernels (the counts each phase reports are read off these loops) ----

// STREAM triad, grid-stride: per element 2 loads + 1 store (24 B of DRAM and L2 traffic), one FP64
// FMA, and about 4 integer/control instructions of the loop.
__global__ void triad(double *a, const double *b, const double *c, double s, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    a[i] = b[i] + s * c[i];
}

// One FMA in the precision of T (fma for double, fmaf for float).
__device__ inline double fma_t(double a, double b, double c) { return fma(a, b, c); }
__device__ inline float fma_t(float a, float b, float c) { return fmaf(a, b, c); }

// 8 independent FMA chains per thread: enough ILP to reach the FP64 (T = double) or FP32 (T =
// float) pipe's throughput. Per thread: 8*iters FMAs and about 2*iters loop instructions.
template <class T> __global__ void fma_chains(T *out, int iters, T x) {
  T r[8];
  for (int k = 0; k < 8; k++) r[k] = x + threadIdx.x + k;
  for (int i = 0; i < iters; i++)
#pragma unroll
    for (int k = 0; k < 8; k++) r[k] = fma_t(r[k], (T)0.999999, (T)1e-7);
  T s = 0;
  for (int k = 0; k < 8; k++) s += r[k];
  if (s == (T)12345.678) out[0] = s; // keeps the loop alive
}

// Integer pipe: 8 independent chains of 32-bit multiply-add, shift and xor (IMAD, SHF, LOP3: 3
// instructions per step): 24*iters integer instructions per thread, plus about 2*iters of loop.
__global__ void int32k(unsigned *out, int iters, unsigned x) {
  unsigned r[8];
  for (int k = 0; k < 8; k++) r[k] = x + threadIdx.x + k;
  for (int i = 0; i < iters; i++)
#pragma unroll
    for (int k = 0; k < 8; k++) r[k] = (r[k] * 1664525u + 1013904223u) ^ (r[k] >> 7);
  unsigned s = 0;
  for (int k = 0; k < 8; k++) s ^= r[k];
  if (s == 12345u) out[0] = s;
}

// L2-resident traffic: copies between two halves of a buffer that fits in L2, loads and stores
// with the .cg cache hint (cache in L2, not in L1): 16 B of L2 traffic per element, no DRAM
// traffic once resident.
__global__ void l2copy(double *buf, size_t half, int reps) {
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  for (int r = 0; r < reps; r++) {
    double *src = buf + (r & 1) * half, *dst = buf + ((r + 1) & 1) * half;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < half; i += stride)
      __stcg(dst + i, __ldcg(src + i) * 1.0000001);
  }
}

// One dependent chain per thread (no ILP): with one warp per SM the kernel is latency-bound.
// Returns the cycles of the chain in *cyc (thread 0 of block 0): per step one FMA.
template <class T> __global__ void chain(T *out, long long *cyc, int steps, T x) {
  T r = x + threadIdx.x;
  long long t0 = clock64();
  for (int i = 0; i < steps; i++) r = fma_t(r, (T)0.999999, (T)1e-7);
  long long t1 = clock64();
  if (threadIdx.x == 0 && blockIdx.x == 0) cyc[0] = t1 - t0;
  if (r == (T)12345.678) out[0] = r;
}

__global__ void empty_kernel() {}

// ACRANEB2-like (as loads.cu's transt_like): one thread per point of an nx x nx x nlev domain;
// each point integrates a transmission over the levels above it (FP64 exp, FMA, divisions)
// reading its column.
__global__ void transt_like(const double *q, double *t, int nx, int nlev) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, npt = nx * nx * nlev;
  if (i >= npt) return;
  int col = i / nlev, lev = i % nlev;
  const double *c = q + (size_t)col * nlev;
  double tau = 0, tr = 1;
  for (int k = 0; k <= lev; k++) {
    tau = fma(c[k], 1.7, tau);
    tr = fma(tr, exp(-tau / (1.0 + k)), 1e-9);
  }
  t[i] = tr / (1.0 + tau);
}

// 7-point FP64 stencil on n^3 (memory-bound), as loads.cu's stencil7.
__global__ void stencil7(const double *a, double *b, int n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x, N = (size_t)n * n * n;
  if (i >= N) return;
  int x = i % n, y = (i / n) % n, z = i / ((size_t)n * n);
  if (x == 0 || y == 0 || z == 0 || x == n - 1 || y == n - 1 || z == n - 1) {
    b[i] = a[i];
    return;
  }
  size_t s = (size_t)n * n;
  b[i] = 0.4 * a[i] + 0.1 * (a[i - 1] + a[i + 1] + a[i - n] + a[i + n] + a[i - s] + a[i + s]);
}

// D3.5's "inactive" execution (§3.4: threads predicated off or diverged): fma_chains<double>
// with only `lanes` of each warp's 32 threads working (the others return at once). The warp
// issues as many instructions as with 32 lanes; its threads do lanes/32 of the work.
__global__ void fma_diverge(double *out, int iters, double x, int lanes) {
  if ((int)(threadIdx.x & 31) >= lanes) return;
  double r[8];
  for (int k = 0; k < 8; k++) r[k] = x + threadIdx.x + k;
  for (int i = 0; i < iters; i++)
#pragma unroll
    for (int k = 0; k < 8; k++) r[k] = fma(r[k], 0.999999, 1e-7);
  double s = 0;
  for (int k = 0; k < 8; k++) s += r[k];
  if (s == 12345.678) out[0] = s;
}

// Uncoalesced gathers: each thread reads `steps` doubles at pseudo-random places of an array of
// mask + 1 (a power of two) doubles, from an LCG of its index: every 8 B requested moves at
// least a 32 B sector (D3.5's global-load efficiency G_e of 25 % or less); latency-bound.
__global__ void gather(const double *a, double *out, size_t mask, int steps) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  unsigned h = (unsigned)i * 2654435761u + 12345u;
  double s = 0;
#pragma unroll 4
  for (int k = 0; k < steps; k++) {
    h = h * 1664525u + 1013904223u;
    s += a[h & mask];
  }
  if (s == 12345.678) out[i & 1023] = s;
}

// The regime D3.5's model gives ACRANEB2 on a large GPU (Table 9: 49-68 % of the issue slots
// inactive, global-load efficiency 31-62 %, IPC well below the issue width): `lanes` of each
// warp's 32 threads work; each step one uncoalesced gather (as gather) feeding two dependent
// FP64 FMA chains of 8 (16 FMAs per gather).
__global__ void acraneb_mix(const double *a, double *out, size_t mask, int steps, int lanes) {
  if ((int)(threadIdx.x & 31) >= lanes) return;
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  unsigned h = (unsigned)i * 2654435761u + 12345u;
  double x = 1.0 + threadIdx.x, y = 2.0 - threadIdx.x;
  for (int k = 0; k < steps; k++) {
    h = h * 1664525u + 1013904223u;
    double v = a[h & mask] + 1e-3;
#pragma unroll
    for (int j = 0; j < 8; j++) {
      x = fma(x, v, 1e-7);
      y = fma(y, v, -1e-7);
    }
  }
  if (x + y == 12345.678) out[i & 1023] = x;
}

// ---- power phases ----

// What one launch of a phase's kernel does (0 where not counted).
// warp: warp instructions issued (thread instructions over the working lanes of a warp);
// req: global-memory bytes the threads request (DRAM bytes beyond them are the scatter term's).
struct counts {
  double fp64, fp32, other, dram, l2, warp, req;
};

#ifdef DCSIM_HAVE_NVML
// Samples NVML every 100 ms into the power log, labelled with the current phase.
struct sampler {
  nvmlDevice_t dev;
  FILE *f = nullptr;
  std::atomic<int> phase{ -1 }, stop{ 0 };
  // per phase (fixed arrays: the sampler thread reads entry p only after phase = p is stored)
  static const int MAX_PHASES = 32;
  int n_phases = 0;
  std::string names[MAX_PHASES];
  std::vector<std::pair<double, double>> draw[MAX_PHASES]; // (time, W)
  std::thread th;
  int add(const char *name) { // a new phase; its index
    if (n_phases == MAX_PHASES) {
      std::fprintf(stderr, "gpu-bench: more than %d phases\n", MAX_PHASES);
      std::exit(2);
    }
    names[n_phases] = name;
    return n_phases++;
  }
  void sample() {
    unsigned mw = 0, lim = 0, clk = 0;
    nvmlUtilization_t u{};
    nvmlPstates_t ps = NVML_PSTATE_UNKNOWN;
    nvmlDeviceGetPowerUsage(dev, &mw);
    nvmlDeviceGetEnforcedPowerLimit(dev, &lim);
    nvmlDeviceGetUtilizationRates(dev, &u);
    nvmlDeviceGetPerformanceState(dev, &ps);
    nvmlDeviceGetClockInfo(dev, NVML_CLOCK_SM, &clk);
    int p = phase.load();
    double t = now_s();
    if (p >= 0) draw[p].push_back({ t, mw / 1e3 });
    if (f)
      std::fprintf(f, "%.3f, %.2f W, %u %%, %.2f W, P%d, %u MHz, %s\n", t, mw / 1e3, u.gpu,
                   lim / 1e3, (int)ps, clk, p >= 0 ? names[p].c_str() : "-");
  }
  void start() {
    th = std::thread([this] {
      while (!stop.load()) {
        sample();
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    });
  }
  void finish() {
    stop = 1;
    if (th.joinable()) th.join();
    if (f) std::fclose(f);
  }
  double limit() {
    unsigned lim = 0;
    nvmlDeviceGetEnforcedPowerLimit(dev, &lim);
    return lim / 1e3;
  }
};

static const double PHASE_S = 8.0, SETTLE_S = 2.0; // each phase; samples before SETTLE_S dropped

// Median draw of phase p after its first SETTLE_S seconds.
static double phase_median(sampler &s, int p, double t0) {
  std::vector<double> v;
  for (auto &x : s.draw[p])
    if (x.first >= t0 + SETTLE_S) v.push_back(x.second);
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

// Runs one phase: launch() back to back with a synchronisation after each (or sleeps when
// launch is null) for PHASE_S seconds; writes its rows. dev_s: device seconds of one launch.
template <class F>
static void run_phase(FILE *out, sampler &s, const char *name, int context, F launch,
                      double dev_s, const counts *c) {
  int p = s.add(name);
  double t0 = now_s();
  s.phase = p;
  long n = 0;
  while (now_s() - t0 < PHASE_S) {
    if (!launch(n)) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      continue;
    }
    CK(cudaDeviceSynchronize());
    n++;
  }
  double t1 = now_s();
  s.phase = -1;
  double dur = t1 - t0, busy = std::min(dur, n * dev_s);
  std::fprintf(out, "phase_start_s,%s,%.3f,s\nphase_s,%s,%.4g,s\nphase_w,%s,%.5g,W\n", name, t0,
               name, dur, name, phase_median(s, p, t0));
  std::fprintf(out, "phase_context,%s,%d,\nphase_launches,%s,%ld,\nphase_busy_s,%s,%.5g,s\n", name,
               context, name, n, name, busy);
  if (c)
    std::fprintf(out,
                 "phase_fp64_inst,%s,%.6g,inst\nphase_fp32_inst,%s,%.6g,inst\n"
                 "phase_other_inst,%s,%.6g,inst\nphase_dram_byte,%s,%.6g,B\n"
                 "phase_l2_byte,%s,%.6g,B\nphase_warp_inst,%s,%.6g,inst\n"
                 "phase_request_byte,%s,%.6g,B\n",
                 name, n * c->fp64, name, n * c->fp32, name, n * c->other, name, n * c->dram, name,
                 n * c->l2, name, n * c->warp, name, n * c->req);
  std::fflush(out);
}
#endif

// The regimes of the last three phases: 8 of 32 lanes working (diverge), gathers per thread
// (gather), and 12 of 32 lanes with gathers feeding FP64 chains (acraneb_mix).
static const int DIVERGE_LANES = 8, GATHER_STEPS = 1024, MIX_STEPS = 256, MIX_LANES = 12;
// lowipc: acraneb_mix with 8 warps per SM (one block of 256) gathering from 8 MiB (L2-resident):
// latency-bound at an IPC near D3.5's ACRANEB2 (0.45-0.73), masked lanes, little DRAM traffic.
static const int LOWIPC_STEPS = 4096;
static const size_t LOWIPC_MASK = ((size_t)1 << 20) - 1;

// --profile: one launch of each phase's kernel, with the phases' launch configurations.
static int profile_kernels() {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  const int sm = p.multiProcessorCount, grid = sm * 32, iters = 4096, threads = sm * 2048;
  const size_t n = (size_t)32 << 20, half = (size_t)1 << 20, smax = (size_t)512 * 512 * 512;
  double *a, *b, *c, *sa, *sb;
  long long *cyc;
  CK(cudaMalloc(&a, n * sizeof(double)));
  CK(cudaMalloc(&b, n * sizeof(double)));
  CK(cudaMalloc(&c, n * sizeof(double)));
  CK(cudaMalloc(&sa, smax * sizeof(double)));
  CK(cudaMalloc(&sb, smax * sizeof(double)));
  CK(cudaMalloc(&cyc, sizeof(long long)));
  CK(cudaMemset(b, 0, n * sizeof(double)));
  CK(cudaMemset(c, 0, n * sizeof(double)));
  CK(cudaMemset(sa, 0, smax * sizeof(double)));
  triad<<<grid, 256>>>(a, b, c, 3.0, n);
  fma_chains<double><<<threads / 256, 256>>>(a, iters, 1.0);
  fma_chains<float><<<threads / 256, 256>>>((float *)a, iters, 1.0f);
  int32k<<<threads / 256, 256>>>((unsigned *)a, iters, 1u);
  l2copy<<<grid, 256>>>(a, half, 64);
  chain<double><<<sm, 32>>>(b, cyc, 1 << 20, 1.0);
  empty_kernel<<<1, 32>>>();
  for (int nx : { 20, 200 })
    transt_like<<<(unsigned)(((size_t)nx * nx * 80 + 127) / 128), 128>>>(b, c, nx, 80);
  stencil7<<<(unsigned)((smax + 255) / 256), 256>>>(sa, sb, 512);
  fma_diverge<<<threads / 256, 256>>>(a, iters, 1.0, DIVERGE_LANES);
  gather<<<threads / 256, 256>>>(sa, b, smax - 1, GATHER_STEPS);
  acraneb_mix<<<threads / 256, 256>>>(sa, b, smax - 1, MIX_STEPS, MIX_LANES);
  acraneb_mix<<<sm, 256>>>(sa, b, LOWIPC_MASK, LOWIPC_STEPS, MIX_LANES);
  CK(cudaDeviceSynchronize());
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 2 && std::strcmp(argv[1], "--profile") == 0) return profile_kernels();
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: gpu-bench OUT.csv [POWER.csv] | gpu-bench --profile\n");
    return 2;
  }
  FILE *out = std::fopen(argv[1], "w");
  if (!out) return std::perror(argv[1]), 2;

#ifdef DCSIM_HAVE_NVML
  // idle before any CUDA context: NVML only (NVML index 0 = the GPU CUDA calls device 0 when
  // CUDA_VISIBLE_DEVICES is unset and the box has one GPU; see README)
  sampler smp;
  int have_nvml = nvmlInit() == NVML_SUCCESS && nvmlDeviceGetHandleByIndex(0, &smp.dev) == NVML_SUCCESS;
  std::vector<std::string> pre_rows;
  if (have_nvml) {
    if (argc == 3 && (smp.f = std::fopen(argv[2], "w")))
      std::fprintf(smp.f, "timestamp, power.draw [W], utilization.gpu [%%], power.limit [W], "
                          "pstate, clocks.sm [MHz], phase\n");
    smp.start();
    int p0 = smp.add("idle_nocontext");
    double t0 = now_s();
    smp.phase = p0;
    std::this_thread::sleep_for(std::chrono::duration<double>(PHASE_S));
    smp.phase = -1;
    char row[512];
    std::snprintf(row, sizeof row,
                  "phase_start_s,idle_nocontext,%.3f,s\nphase_s,idle_nocontext,%.4g,s\n"
                  "phase_w,idle_nocontext,%.5g,W\nphase_context,idle_nocontext,0,\n"
                  "phase_launches,idle_nocontext,0,\nphase_busy_s,idle_nocontext,0,s\n",
                  t0, now_s() - t0, phase_median(smp, p0, t0));
    pre_rows.push_back(row);
  }
#endif

  CK(cudaFree(0)); // creates the context
  cudaDeviceProp p;
  int dev = 0, clock_khz = 0;
  CK(cudaGetDevice(&dev));
  CK(cudaGetDeviceProperties(&p, dev));
  CK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev));
  const double clock_hz = clock_khz * 1e3;
  std::fprintf(out, "# dcsim gpu-bench 2\n# %s\nmetric,size,value,unit\n", p.name);
  std::fprintf(out, "device_name,,\"%s\",\ncompute_capability,,%d.%d,\nsm,,%d,\n", p.name, p.major,
               p.minor, p.multiProcessorCount);
  std::fprintf(out, "clock_hz,,%.6g,Hz\nmemory_byte,,%zu,B\n", clock_hz, p.totalGlobalMem);
  const int sm = p.multiProcessorCount;

  // STREAM triad over 3 x 256 MiB (or a quarter of the memory)
  size_t n = std::min((size_t)(32u << 20), p.totalGlobalMem / 4 / 3 / sizeof(double));
  double *a, *b, *c;
  CK(cudaMalloc(&a, n * sizeof(double)));
  CK(cudaMalloc(&b, n * sizeof(double)));
  CK(cudaMalloc(&c, n * sizeof(double)));
  CK(cudaMemset(a, 0, n * sizeof(double)));
  CK(cudaMemset(b, 0, n * sizeof(double)));
  CK(cudaMemset(c, 0, n * sizeof(double)));
  const int grid = sm * 32;
  auto k_triad = [&] { triad<<<grid, 256>>>(a, b, c, 3.0, n); };
  double tt = time_it(k_triad, 20);
  std::fprintf(out, "stream_triad_bps,%zu,%.6g,B/s\n", 3 * n * sizeof(double),
               3 * n * sizeof(double) / tt);

  // FP64 and FP32 FMA peaks: 8 chains x iters FMAs x 2 flop per thread
  const int iters = 4096, threads = sm * 2048;
  auto k_fma64 = [&] { fma_chains<double><<<threads / 256, 256>>>(a, iters, 1.0); };
  auto k_fma32 = [&] { fma_chains<float><<<threads / 256, 256>>>((float *)a, iters, 1.0f); };
  auto k_int = [&] { int32k<<<threads / 256, 256>>>((unsigned *)a, iters, 1u); };
  double tf = time_it(k_fma64, 5), tf32 = time_it(k_fma32, 5), ti = time_it(k_int, 5);
  std::fprintf(out, "fp64_fma_flops,,%.6g,flop/s\n", 2.0 * 8 * iters * threads / tf);
  std::fprintf(out, "fp32_fma_flops,,%.6g,flop/s\n", 2.0 * 8 * iters * threads / tf32);
  std::fprintf(out, "int32_ops,,%.6g,op/s\n", 24.0 * iters * threads / ti);

  // launch overhead: back-to-back empty kernels (device time) and one synchronous launch (wall)
  auto k_empty = [&] { empty_kernel<<<1, 32>>>(); };
  double tl = time_it(k_empty, 1000);
  std::fprintf(out, "launch_s,,%.6g,s\n", tl);
  double tls = time_sync(k_empty, 2000);
  std::fprintf(out, "sync_launch_s,,%.6g,s\n", tls);

  // dependent-issue latency of one warp: cycles per step of a dependent FMA chain (clock64)
  long long *cyc, hc = 0;
  CK(cudaMalloc(&cyc, sizeof(long long)));
  const int steps = 1 << 16;
  chain<float><<<1, 32>>>((float *)b, cyc, steps, 1.0f);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(&hc, cyc, sizeof hc, cudaMemcpyDeviceToHost));
  std::fprintf(out, "dep_fp32_cycles,,%.4g,cycle\n", (double)hc / steps);
  chain<double><<<1, 32>>>(b, cyc, steps, 1.0);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(&hc, cyc, sizeof hc, cudaMemcpyDeviceToHost));
  std::fprintf(out, "dep_fp64_cycles,,%.4g,cycle\n", (double)hc / steps);

  // host-to-device copy from pinned memory
  double *h;
  CK(cudaMallocHost(&h, n * sizeof(double)));
  double th = time_it([&] { CK(cudaMemcpy(a, h, n * sizeof(double), cudaMemcpyHostToDevice)); }, 5);
  std::fprintf(out, "h2d_bps,%zu,%.6g,B/s\n", n * sizeof(double), n * sizeof(double) / th);
  CK(cudaFreeHost(h));

  // the ACRANEB2-like kernel over the sizes of D3.5 Table 4 (layout 1's kernel_s rows)
  const int nlev = 80;
  double *q = b, *t = c; // 300 x 300 x 80 doubles = 57.6 MB fit the triad arrays
  auto k_transt = [&](int nx) {
    size_t npt = (size_t)nx * nx * nlev;
    transt_like<<<(unsigned)((npt + 127) / 128), 128>>>(q, t, nx, nlev);
  };
  for (int nx : { 5, 10, 15, 20, 30, 40, 50, 100, 150, 200 }) {
    double tk = time_it(
        [&] {
          k_transt(nx);
          CK(cudaDeviceSynchronize());
        },
        nx <= 50 ? 20 : 3);
    std::fprintf(out, "kernel_s,%d,%.6g,s\n", nx, tk);
  }
  // loads.cu's kernels: one synchronous launch (wall) and the device time by events
  for (int nx : { 5, 10, 20, 50, 100, 200, 300 }) {
    std::fprintf(out, "transt_sync_s,%d,%.6g,s\n", nx,
                 time_sync([&] { k_transt(nx); }, nx <= 50 ? 50 : 5));
    std::fprintf(out, "transt_event_s,%d,%.6g,s\n", nx, time_it([&] { k_transt(nx); }, 1));
  }
  // stencil7 on up to 512^3 doubles (1 GiB each for a and b)
  double *sa, *sb;
  const size_t smax = (size_t)512 * 512 * 512;
  CK(cudaMalloc(&sa, smax * sizeof(double)));
  CK(cudaMalloc(&sb, smax * sizeof(double)));
  CK(cudaMemset(sa, 0, smax * sizeof(double)));
  CK(cudaMemset(sb, 0, smax * sizeof(double)));
  auto k_stencil = [&](int sn) {
    size_t npt = (size_t)sn * sn * sn;
    stencil7<<<(unsigned)((npt + 255) / 256), 256>>>(sa, sb, sn);
  };
  for (int sn : { 16, 32, 64, 128, 256, 512 }) {
    std::fprintf(out, "stencil_sync_s,%d,%.6g,s\n", sn,
                 time_sync([&] { k_stencil(sn); }, sn <= 64 ? 50 : 5));
    std::fprintf(out, "stencil_event_s,%d,%.6g,s\n", sn, time_it([&] { k_stencil(sn); }, 1));
  }
  std::fflush(out);

#ifdef DCSIM_HAVE_NVML
  if (have_nvml) {
    for (auto &r : pre_rows) std::fputs(r.c_str(), out);
    std::fprintf(out, "power_limit_w,,%.4g,W\n", smp.limit());
    auto none = [](long) { return false; };
    run_phase(out, smp, "idle_context", 1, none, 0, nullptr);
    // sustained compute: per launch threads x 8 x iters FMAs (+ 2 x iters loop instructions)
    // The other (neither FP64 nor FP32) thread instructions per unit of work below are what
    // Nsight Compute counted on an H100 with CUDA 13 (calibration/h100-sxm5-run2/ncu.csv): they
    // depend on the compiler; device-run.sh's ncu.csv and tools/derive/gpu_phases.py --recount
    // replace them by this GPU's own counts.
    counts c64 = { 8.0 * iters * threads, 0, 1.75 * iters * threads, 0, 0, 9.75 * iters * threads / 32, 0 };
    run_phase(out, smp, "fp64", 1, [&](long) { return k_fma64(), true; }, tf, &c64);
    counts c32 = { 0, 8.0 * iters * threads, 1.0 * iters * threads, 0, 0, 9.0 * iters * threads / 32, 0 };
    run_phase(out, smp, "fp32", 1, [&](long) { return k_fma32(), true; }, tf32, &c32);
    counts ci = { 0, 0, 25.0 * iters * threads, 0, 0, 25.0 * iters * threads / 32, 0 };
    run_phase(out, smp, "int", 1, [&](long) { return k_int(), true; }, ti, &ci);
    // sustained DRAM: triad, 24 B per element through L2 and DRAM
    counts ct = { (double)n, 0, 16.7 * n, 24.0 * n, 36.6 * n, 17.7 * n / 32, 24.0 * n };
    run_phase(out, smp, "dram", 1, [&](long) { return k_triad(), true; }, tt, &ct);
    // cache-heavy: L2-resident copy, 2 x 8 MiB, 64 passes per launch
    const size_t half = (size_t)1 << 20;
    const int l2reps = 64;
    auto k_l2 = [&] { l2copy<<<grid, 256>>>(a, half, l2reps); };
    double tl2 = time_it(k_l2, 3);
    std::fprintf(out, "l2_copy_bps,%zu,%.6g,B/s\n", 2 * half * sizeof(double),
                 16.0 * half * l2reps / tl2);
    counts cl = { 1.0 * half * l2reps, 0, 34.6 * half * l2reps, 0, 20.1 * half * l2reps,
                  35.6 * half * l2reps / 32, 16.0 * half * l2reps };
    run_phase(out, smp, "l2", 1, [&](long) { return k_l2(), true; }, tl2, &cl);
    // latency-bound: one warp per SM, one dependent FP64 chain per thread
    const int lsteps = 1 << 20;
    auto k_lat = [&] { chain<double><<<sm, 32>>>(b, cyc, lsteps, 1.0); };
    double tlat = time_it(k_lat, 1);
    counts cla = { (double)sm * 32 * lsteps, 0, 0.44 * sm * 32 * lsteps, 0, 0, 1.44 * sm * lsteps, 0 };
    run_phase(out, smp, "latency", 1, [&](long) { return k_lat(), true; }, tlat, &cla);
    // launch-bound: empty kernels, one synchronous launch after another
    counts ce = { 0, 0, 0, 0, 0, 0, 0 };
    run_phase(out, smp, "launch", 1, [&](long) { return k_empty(), true; }, tl, &ce);
    // loads.cu's phases (counts: the dwarfs' own, dwarfs/transt-like.xml and stencil7.xml)
    double t200 = time_it([&] { k_transt(200); }, 3), t300 = time_it([&] { k_transt(300); }, 3),
           t20 = time_it([&] { k_transt(20); }, 20), s512 = time_it([&] { k_stencil(512); }, 3);
    run_phase(out, smp, "transt200", 1, [&](long) { return k_transt(200), true; }, t200, nullptr);
    run_phase(out, smp, "transt300", 1, [&](long) { return k_transt(300), true; }, t300, nullptr);
    run_phase(out, smp, "transt20_sync", 1, [&](long) { return k_transt(20), true; }, t20, nullptr);
    run_phase(out, smp, "stencil512", 1, [&](long) { return k_stencil(512), true; }, s512,
              nullptr);
    // D3.5's regime of ACRANEB2 (after the fit's phases, so that a board's power has settled
    // the same way for each): masked lanes, uncoalesced gathers, and both with FP64 chains.
    // Counts from the source (per working thread: diverge as fp64; gather 1 load of 8 B
    // requested, 1 DADD and about 5 integer instructions of the LCG and address; mix the same
    // plus 16 DFMA). A random 8 B load moves 64 B of DRAM traffic on an H100 (Nsight Compute,
    // calibration/h100-sxm5-run4/ncu.csv). device-run.sh's ncu.csv and --recount replace the
    // counts but the requested bytes (a property of the source) by the measured ones.
    const double wd = (double)threads * DIVERGE_LANES / 32, wm = (double)threads * MIX_LANES / 32;
    auto k_div = [&] { fma_diverge<<<threads / 256, 256>>>(a, iters, 1.0, DIVERGE_LANES); };
    auto k_gat = [&] { gather<<<threads / 256, 256>>>(sa, b, smax - 1, GATHER_STEPS); };
    auto k_mix = [&] { acraneb_mix<<<threads / 256, 256>>>(sa, b, smax - 1, MIX_STEPS, MIX_LANES); };
    double tdv = time_it(k_div, 3), tga = time_it(k_gat, 3), tmx = time_it(k_mix, 3);
    std::fprintf(out, "diverge_s,,%.6g,s\ngather_s,,%.6g,s\nmix_s,,%.6g,s\n", tdv, tga, tmx);
    counts cdv = { 8.0 * iters * wd, 0, 1.75 * iters * wd, 0, 0, 9.75 * iters * wd / DIVERGE_LANES, 0 };
    run_phase(out, smp, "diverge", 1, [&](long) { return k_div(), true; }, tdv, &cdv);
    const double gl = (double)threads * GATHER_STEPS, ml = wm * MIX_STEPS;
    counts cga = { gl, 0, 6.0 * gl, 64.0 * gl, 64.0 * gl, 7.0 * gl / 32, 8.0 * gl };
    run_phase(out, smp, "gather", 1, [&](long) { return k_gat(), true; }, tga, &cga);
    counts cmx = { 16.0 * ml, 0, 6.0 * ml, 64.0 * ml, 64.0 * ml, 22.0 * ml / MIX_LANES, 8.0 * ml };
    run_phase(out, smp, "mix", 1, [&](long) { return k_mix(), true; }, tmx, &cmx);
    auto k_low = [&] { acraneb_mix<<<sm, 256>>>(sa, b, LOWIPC_MASK, LOWIPC_STEPS, MIX_LANES); };
    double tlo = time_it(k_low, 3);
    std::fprintf(out, "lowipc_s,,%.6g,s\n", tlo);
    const double ll = (double)sm * 256 * MIX_LANES / 32 * LOWIPC_STEPS;
    counts clo = { 16.0 * ll, 0, 6.0 * ll, 0, 32.0 * ll, 22.0 * ll / MIX_LANES, 8.0 * ll };
    run_phase(out, smp, "lowipc", 1, [&](long) { return k_low(), true; }, tlo, &clo);
    run_phase(out, smp, "idle_context2", 1, none, 0, nullptr);
    smp.finish();
    nvmlShutdown();
  }
#endif
  std::fclose(out);
  return 0;
}
