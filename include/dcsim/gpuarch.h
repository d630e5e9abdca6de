/* dcsim/gpuarch.h — a GPU architecture (hw-profiles/gpu-arch/<name>.xml, schemas/gpu-arch.xsd):
 * native instruction throughput per clock per multiprocessor by compute capability (CUDA
 * Programming Guide), occupancy limits and DRAM latency. A GPU profile names its architecture
 * (<device arch>) and the default GPU model (dcsim/model_gpu.h) derives every throughput from it.
 * Plain data: the loader fills a caller-owned struct. */
#ifndef DCSIM_GPUARCH_H
#define DCSIM_GPUARCH_H

#include "dcsim/error.h"

typedef struct dcsim_gpu_arch {
  char name[32], family[32], cc[16];
  /* operations per clock per SM (FMA = 1); 0 = no native instruction ("multiple") */
  double fp64, fp32, int_add, int_mul, shift, compare, logic, special, convert_64, convert;
  unsigned warp_size, max_threads_sm, max_blocks_sm, max_warps_sm, registers_sm;
  double shared_memory_sm_byte;
  double memory_latency_cycles;
  int latency_assumed;     /* 1 when the latency's source is an assumption */
  double dep_issue_cycles; /* <issue-latency dependent-cycles>; 0 if not given */
  double issue_width;      /* <issue-width warps-per-clock>: warp instructions per clock per SM;
                              0 if not given */
} dcsim_gpu_arch;

/* Loads path (a <gpu-arch> file). */
int dcsim_gpu_arch_load(const char *path, dcsim_gpu_arch *out, dcsim_error *err);

#endif
