/* dcsim/calib_gpubench.h — a GPU profile from measurements on this GPU (issue 14 item 6):
 * the CSV of tools/gpu-bench and, optionally, a power log in nvidia-smi's CSV layout
 * (`nvidia-smi --query-gpu=timestamp,power.draw,utilization.gpu,power.limit,pstate
 * --format=csv`, which tools/gpu-bench also writes from NVML). doc/calibration.md.
 *
 * Bench CSV: first line "# dcsim gpu-bench 1", then columns metric,size,value,unit. Metrics:
 *   device_name, compute_capability (text in value), sm, clock_hz, memory_byte   required
 *   stream_triad_bps (DRAM bandwidth, STREAM triad)                             required
 *   fp64_fma_flops, launch_s, h2d_bps, power_idle_w, power_active_idle_w,
 *   power_loaded_w, power_limit_w, kernel_s (size = points per side, 80 levels)  optional
 * Power CSV: the columns power.draw [W], utilization.gpu [%], power.limit [W] (pstate optional);
 * the fit is P = P0 + k*u over the samples in P0 (all samples without a pstate column), by least
 * squares; idle = the lowest draw in the deepest pstate present.
 *
 * Ownership: plain structs filled by the caller's call; the XML text is malloc'd. */
#ifndef DCSIM_CALIB_GPUBENCH_H
#define DCSIM_CALIB_GPUBENCH_H

#include <stddef.h>
#include <stdio.h>

#include "dcsim/error.h"

#define DCSIM_GPUBENCH_MAX_SIZES 64

typedef struct dcsim_gpubench {
  char path[1024], name[128], arch[32]; /* arch: sm_XY from compute capability X.Y, or gfx... */
  double sm, clock_hz, memory_byte, stream_bps;
  double fp64_flops, launch_s, h2d_bps; /* 0 when not measured */
  double idle_w, active_idle_w, loaded_w, limit_w;
  size_t n_sizes;
  double size[DCSIM_GPUBENCH_MAX_SIZES], kernel_s[DCSIM_GPUBENCH_MAX_SIZES];
} dcsim_gpubench;

typedef struct dcsim_gpu_power_fit {
  size_t n_samples, n_fit;
  double active_idle_w, slope_w; /* P = active_idle + slope * utilisation (0..1) */
  double idle_w, limit_w;
  char deepest_pstate[8];
} dcsim_gpu_power_fit;

/* 1 when path starts with the bench CSV's first line. */
int dcsim_gpubench_is_bench(const char *path);
int dcsim_gpubench_load(const char *path, dcsim_gpubench *out, dcsim_error *err);
int dcsim_gpu_power_fit_csv(const char *path, dcsim_gpu_power_fit *out, dcsim_error *err);
/* The <gpu-profile> of the measurements (power from the fit when given, else from the bench's
 * power rows); name: the profile name; errors when something a profile needs is missing. */
int dcsim_gpubench_profile_xml(const dcsim_gpubench *b, const dcsim_gpu_power_fit *pw,
                               const char *name, char **text, dcsim_error *err);
void dcsim_gpubench_report(FILE *f, const dcsim_gpubench *b, const dcsim_gpu_power_fit *pw);

#endif
