/* dcsim/import_gpubench.h — a GPU profile from measurements on this GPU:
 * the CSV of tools/gpu-bench and, optionally, a power log in nvidia-smi's CSV layout
 * (`nvidia-smi --query-gpu=timestamp,power.draw,utilization.gpu,power.limit,pstate
 * --format=csv`). doc/calibration.md "GPU profile from gpu-bench".
 *
 * Bench CSV: first line "# dcsim gpu-bench 1" or "# dcsim gpu-bench 2", then columns
 * metric,size,value,unit. Metrics (size empty unless said):
 *   device_name, compute_capability (text in value), sm, clock_hz, memory_byte   required
 *   stream_triad_bps (DRAM bandwidth, STREAM triad)                             required
 *   fp64_fma_flops, fp32_fma_flops, int32_ops, launch_s (back to back),
 *   sync_launch_s (launch + synchronise), dep_fp32_cycles, dep_fp64_cycles (one warp's
 *   dependent FMA chain), h2d_bps, l2_copy_bps, power_idle_w, power_active_idle_w,
 *   power_loaded_w, power_limit_w                                               optional
 *   kernel_s, transt_sync_s, transt_event_s, stencil_sync_s, stencil_event_s: size = the
 *   kernel's size (NX or n)                                                     optional
 *   phase rows (layout 2), size = the phase's name:
 *     phase_start_s (Unix s), phase_s (duration), phase_w (median board power after the first
 *     2 s), phase_context (0: before any CUDA context, 1: with one), phase_launches,
 *     phase_busy_s (device seconds of the launches)                required for each phase
 *     phase_fp64_inst, phase_fp32_inst, phase_other_inst (thread instructions),
 *     phase_dram_byte, phase_l2_byte: what the phase's launches did, all five or none
 *     phase_warp_inst (warp instructions issued), phase_request_byte (global-memory bytes the
 *     threads requested): optional, only beside the five (the issue and scatter terms)
 * A phase with counts is fitted; one without (the kernels of loads.cu) is reported only. Every
 * bad row is refused with its file and line.
 *
 * Power from phases (layout 2): idle = the context-0 phase, active idle = the mean of the
 * context-1 phases without launches, and the activity model of doc/models.md ("GPU power by
 * activity") fitted by non-negative least squares on the phases with counts.
 * Power from a log alone (layout 1, or no phases): active idle = the median of the P0 samples
 * at 0 % utilisation, time-weighted, each run of such samples from 1.5 s after its start (the
 * power decays for seconds after a load while the utilisation reads 0); idle = the median at
 * the lowest SM clock when the log has a clocks column and that clock is under half the highest
 * (no CUDA context), else in the deepest power state when deeper than P0, else the active idle
 * (an upper bound, said in the profile's source).
 *
 * Ownership: plain structs filled by the caller's call; the XML text is malloc'd. */
#ifndef DCSIM_IMPORT_GPUBENCH_H
#define DCSIM_IMPORT_GPUBENCH_H

#include <stddef.h>
#include <stdio.h>

#include "dcsim/error.h"

#define DCSIM_GPUBENCH_MAX_SIZES  64
#define DCSIM_GPUBENCH_MAX_PHASES 32

/* A series of one kernel over sizes (kernel_s, transt_sync_s, ...). */
typedef struct dcsim_gpubench_series {
  size_t n;
  double size[DCSIM_GPUBENCH_MAX_SIZES], value[DCSIM_GPUBENCH_MAX_SIZES];
} dcsim_gpubench_series;

/* One labelled power phase; counts are totals over the phase. */
typedef struct dcsim_gpubench_phase {
  char name[48];
  int line;      /* its first row */
  unsigned seen; /* bit per row kind read */
  double start_s, dur_s, power_w, context, launches, busy_s;
  double fp64, fp32, other, dram, l2;
  double warp;    /* warp instructions issued (phase_warp_inst; optional) */
  double request; /* global-memory bytes the threads requested (phase_request_byte; optional) */
  int has_counts, has_warp, has_request;
} dcsim_gpubench_phase;

enum {
  DCSIM_GPUBENCH_SERIES_KERNEL,
  DCSIM_GPUBENCH_SERIES_TRANST_SYNC,
  DCSIM_GPUBENCH_SERIES_TRANST_EVENT,
  DCSIM_GPUBENCH_SERIES_STENCIL_SYNC,
  DCSIM_GPUBENCH_SERIES_STENCIL_EVENT,
  DCSIM_GPUBENCH_N_SERIES
};

typedef struct dcsim_gpubench {
  char path[1024], name[128], arch[32]; /* arch: sm_XY from compute capability X.Y, or gfx... */
  int layout;                           /* 1 or 2 */
  double sm, clock_hz, memory_byte, stream_bps;
  double fp64_flops, fp32_flops, int_ops, launch_s, sync_launch_s, h2d_bps, l2_bps; /* 0: none */
  double dep_fp32_cycles, dep_fp64_cycles;
  double diverge_s, gather_s, mix_s,
      lowipc_s; /* device seconds of one launch of the diverge,
                    gather, mix and lowipc phases' kernels (0: none) */
  double idle_w, active_idle_w, loaded_w, limit_w;
  dcsim_gpubench_series series[DCSIM_GPUBENCH_N_SERIES];
  size_t n_phases;
  dcsim_gpubench_phase phases[DCSIM_GPUBENCH_MAX_PHASES];
} dcsim_gpubench;

/* The power seen in a log (layout 1, or a log beside layout 2). */
typedef struct dcsim_gpu_power_fit {
  size_t n_samples, n_idle; /* all samples; the P0 samples at 0 % utilisation */
  double active_idle_w;     /* median of those */
  double idle_w;            /* no-context idle; = active_idle_w when idle_measured is 0 */
  int idle_measured;        /* 1: samples at a low SM clock (no context) were found */
  double limit_w;
} dcsim_gpu_power_fit;

/* The activity model fitted on labelled phases (doc/models.md "GPU power by activity"). */
#define DCSIM_GPU_PM_TERMS 8 /* busy, fp64, fp32, int, dram, l2, issue, scatter */
typedef struct dcsim_gpu_phase_fit {
  double idle_w, active_idle_w, limit_w;
  int idle_measured;
  double coef_w[DCSIM_GPU_PM_TERMS];
  int exercised[DCSIM_GPU_PM_TERMS]; /* 0: no phase used the resource (coefficient not fitted) */
  size_t n_fit;                      /* phases with counts and launches */
  size_t n_phases;
  struct {
    const dcsim_gpubench_phase *ph;
    double x[DCSIM_GPU_PM_TERMS]; /* its activity (dcsim_gpu_activity's order) */
    int fitted;                   /* 1: in the fit */
    double model_w, loo_w;        /* the fit's power; refitted without it (0 if not fitted) */
  } row[DCSIM_GPUBENCH_MAX_PHASES];
} dcsim_gpu_phase_fit;

/* 1 when path starts with the bench CSV's first line (either layout). */
int dcsim_gpubench_is_bench(const char *path);
int dcsim_gpubench_load(const char *path, dcsim_gpubench *out, dcsim_error *err);
/* The measured FP64 and FP32 FMA rates and integer rate of b against its architecture's
 * peak (SMs x operations per clock per SM x 2 for an FMA x clock; the architecture resolved from
 * the catalogue): at most 1.10 x (the rule of calibrate cpu's flops cells) and at least 10^-3 x
 * that peak; an error naming the metric otherwise. */
int dcsim_gpubench_check_peaks(const dcsim_gpubench *b, dcsim_error *err);
int dcsim_gpu_power_fit_csv(const char *path, dcsim_gpu_power_fit *out, dcsim_error *err);
/* The phase fit of b (its architecture resolved from the catalogue); an error when b has no
 * phases or too few with counts. */
int dcsim_gpubench_fit_phases(const dcsim_gpubench *b, dcsim_gpu_phase_fit *out, dcsim_error *err);
/* The <gpu-profile> of the measurements: power from the phase fit when given, else from the log
 * when given, else from the bench's power rows; name: the profile name; errors when something a
 * profile needs is missing. */
int dcsim_gpubench_profile_xml(const dcsim_gpubench *b, const dcsim_gpu_power_fit *pw,
                               const dcsim_gpu_phase_fit *ph, const char *name, char **text,
                               dcsim_error *err);
void dcsim_gpubench_report(FILE *f, const dcsim_gpubench *b, const dcsim_gpu_power_fit *pw,
                           const dcsim_gpu_phase_fit *ph);

#endif
