// gpu-bench — measures what dcsim's default GPU model needs on this GPU and writes
// tools/gpu-bench's CSV (read by `dcsim calibrate gpu BENCH.csv [POWER.csv]`,
// doc/calibration.md "GPU profile from gpu-bench"):
//   device query (name, compute capability, SMs, clock, memory), STREAM triad bandwidth,
//   FP64 FMA peak, kernel launch overhead (back-to-back), host-to-device copy (pinned),
//   NVML power (idle, active idle, loaded, limit) and a power log in nvidia-smi's CSV layout,
//   and an ACRANEB2-like kernel (one thread per point of NXxNXx80, an FP64-heavy column loop)
//   swept over NX = 5..200.
// Built only when CMake finds nvcc (tools/CMakeLists.txt); CI never needs a GPU.
// usage: gpu-bench OUT.csv [POWER.csv]
#include <cuda_runtime.h>
#ifdef DCSIM_HAVE_NVML
#include <nvml.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#define CK(x)                                                                     \
  do {                                                                            \
    cudaError_t e_ = (x);                                                         \
    if (e_ != cudaSuccess) {                                                      \
      std::fprintf(stderr, "gpu-bench: %s: %s\n", #x, cudaGetErrorString(e_));    \
      std::exit(2);                                                               \
    }                                                                             \
  } while (0)


// Times `reps` runs of f (after one warm-up), median of 5 repetitions, in seconds per run.
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

__global__ void triad(double *a, const double *b, const double *c, double s, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    a[i] = b[i] + s * c[i];
}

// 8 independent FMA chains per thread: enough ILP to reach the FP64 pipe's throughput.
__global__ void fma64(double *out, int iters, double x) {
  double r[8];
  for (int k = 0; k < 8; k++) r[k] = x + threadIdx.x + k;
  for (int i = 0; i < iters; i++)
#pragma unroll
    for (int k = 0; k < 8; k++) r[k] = fma(r[k], 0.999999, 1e-7);
  double s = 0;
  for (int k = 0; k < 8; k++) s += r[k];
  if (s == 12345.678) out[0] = s; // keeps the loop alive
}

__global__ void empty_kernel() {}

// ACRANEB2-like: one thread per point of an nx x nx x 80 domain; each point integrates a
// transmission over the levels above it (FP64 exp, FMA, divisions) reading its column.
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

#ifdef DCSIM_HAVE_NVML
static double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct power_log {
  nvmlDevice_t dev;
  FILE *f = nullptr;
  double sample(const char *what) { // one nvidia-smi-like line; returns the draw in W
    unsigned mw = 0, lim = 0;
    nvmlUtilization_t u{};
    nvmlPstates_t ps = NVML_PSTATE_UNKNOWN;
    nvmlDeviceGetPowerUsage(dev, &mw);
    nvmlDeviceGetEnforcedPowerLimit(dev, &lim);
    nvmlDeviceGetUtilizationRates(dev, &u);
    nvmlDeviceGetPerformanceState(dev, &ps);
    if (f)
      std::fprintf(f, "%.3f, %.2f W, %u %%, %.2f W, P%d\n", now_s(), mw / 1e3, u.gpu, lim / 1e3,
                   (int)ps);
    (void)what;
    return mw / 1e3;
  }
  double limit() {
    unsigned lim = 0;
    nvmlDeviceGetEnforcedPowerLimit(dev, &lim);
    return lim / 1e3;
  }
};
#endif

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: gpu-bench OUT.csv [POWER.csv]\n");
    return 2;
  }
  FILE *out = std::fopen(argv[1], "w");
  if (!out) return std::perror(argv[1]), 2;
  cudaDeviceProp p;
  int dev = 0, clock_khz = 0;
  CK(cudaGetDevice(&dev));
  CK(cudaGetDeviceProperties(&p, dev));
  CK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev));
  std::fprintf(out, "# dcsim gpu-bench 1\n# %s\nmetric,size,value,unit\n", p.name);
  std::fprintf(out, "device_name,,\"%s\",\ncompute_capability,,%d.%d,\nsm,,%d,\n", p.name, p.major,
               p.minor, p.multiProcessorCount);
  std::fprintf(out, "clock_hz,,%.6g,Hz\nmemory_byte,,%zu,B\n", clock_khz * 1e3, p.totalGlobalMem);

  // STREAM triad over 3 x 256 MiB (or a quarter of the memory)
  size_t n = std::min((size_t)(32u << 20), p.totalGlobalMem / 4 / 3 / sizeof(double));
  double *a, *b, *c;
  CK(cudaMalloc(&a, n * sizeof(double)));
  CK(cudaMalloc(&b, n * sizeof(double)));
  CK(cudaMalloc(&c, n * sizeof(double)));
  CK(cudaMemset(b, 0, n * sizeof(double)));
  CK(cudaMemset(c, 0, n * sizeof(double)));
  int grid = p.multiProcessorCount * 32;
  double tt = time_it([&] { triad<<<grid, 256>>>(a, b, c, 3.0, n); }, 20);
  std::fprintf(out, "stream_triad_bps,%zu,%.6g,B/s\n", 3 * n * sizeof(double), 3 * n * sizeof(double) / tt);

  // FP64 FMA peak: 8 chains x iters FMAs x 2 flop per thread
  int iters = 4096, threads = p.multiProcessorCount * 2048;
  double tf = time_it([&] { fma64<<<threads / 256, 256>>>(a, iters, 1.0); }, 5);
  std::fprintf(out, "fp64_fma_flops,,%.6g,flop/s\n", 2.0 * 8 * iters * threads / tf);

  // launch overhead: back-to-back empty kernels
  double tl = time_it([&] { empty_kernel<<<1, 32>>>(); }, 1000);
  std::fprintf(out, "launch_s,,%.6g,s\n", tl);

  // host-to-device copy from pinned memory
  double *h;
  CK(cudaMallocHost(&h, n * sizeof(double)));
  double th = time_it([&] { CK(cudaMemcpy(a, h, n * sizeof(double), cudaMemcpyHostToDevice)); }, 5);
  std::fprintf(out, "h2d_bps,%zu,%.6g,B/s\n", n * sizeof(double), n * sizeof(double) / th);

#ifdef DCSIM_HAVE_NVML
  power_log pl;
  if (nvmlInit() == NVML_SUCCESS && nvmlDeviceGetHandleByIndex(dev, &pl.dev) == NVML_SUCCESS) {
    if (argc == 3 && (pl.f = std::fopen(argv[2], "w")))
      std::fprintf(pl.f, "timestamp, power.draw [W], utilization.gpu [%%], power.limit [W], pstate\n");
    std::this_thread::sleep_for(std::chrono::seconds(20)); // let the board drop to idle
    double idle = 1e9;
    for (int i = 0; i < 10; i++, std::this_thread::sleep_for(std::chrono::milliseconds(200)))
      idle = std::min(idle, pl.sample("idle"));
    empty_kernel<<<1, 32>>>();
    CK(cudaDeviceSynchronize());
    double active = pl.sample("active idle"); // P0 right after a kernel, nothing running
    // loaded: FMA and triad for about 10 s each, sampled every 100 ms
    double loaded = 0, t0 = now_s();
    while (now_s() - t0 < 20) {
      if (now_s() - t0 < 10)
        fma64<<<threads / 256, 256>>>(a, iters, 1.0);
      else
        triad<<<grid, 256>>>(a, b, c, 3.0, n);
      CK(cudaDeviceSynchronize());
      loaded = std::max(loaded, pl.sample("loaded"));
    }
    for (int i = 0; i < 20; i++, std::this_thread::sleep_for(std::chrono::milliseconds(100)))
      pl.sample("after"); // the decay back to idle, utilisation 0
    std::fprintf(out, "power_idle_w,,%.4g,W\npower_active_idle_w,,%.4g,W\n", idle, active);
    std::fprintf(out, "power_loaded_w,,%.4g,W\npower_limit_w,,%.4g,W\n", loaded, pl.limit());
    if (pl.f) std::fclose(pl.f);
    nvmlShutdown();
  }
#endif

  // the ACRANEB2-like kernel over the sizes of D3.5 Table 4
  const int sizes[] = { 5, 10, 15, 20, 30, 40, 50, 100, 150, 200 }, nlev = 80;
  for (int nx : sizes) {
    size_t npt = (size_t)nx * nx * nlev;
    double *q, *t;
    CK(cudaMalloc(&q, npt * sizeof(double)));
    CK(cudaMalloc(&t, npt * sizeof(double)));
    CK(cudaMemset(q, 0, npt * sizeof(double)));
    double tk = time_it(
        [&] {
          transt_like<<<(unsigned)((npt + 127) / 128), 128>>>(q, t, nx, nlev);
          CK(cudaDeviceSynchronize()); // like OpenACC's synchronous kernels
        },
        nx <= 50 ? 20 : 3);
    std::fprintf(out, "kernel_s,%d,%.6g,s\n", nx, tk);
    cudaFree(q);
    cudaFree(t);
  }
  std::fclose(out);
  return 0;
}
