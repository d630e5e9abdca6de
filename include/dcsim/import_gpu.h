/* dcsim/import_gpu.h — GPU kernel characteristics (D3.5 §3.4, Tables 7-9) from profiler exports
 * (nvprof, ncu). Ownership: dcsim_gpu_calib_free() frees a result; *text is malloc'd. */
#ifndef DCSIM_IMPORT_GPU_H
#define DCSIM_IMPORT_GPU_H

#include <stddef.h>
#include <stdio.h>

#include "dcsim/error.h"

/* ---- GPU kernel characteristics (§3.4, Tables 7-9) ----
 * Profiler exports, one per GPU: nvprof --csv (metric, event, summary or GPU-trace tables, several
 * tables per file allowed) or ncu --csv. Each export is normalised by its domain size N (Table 7)
 * and the per-GPU characteristics of Table 8 are averaged over the GPUs. An argument may also be a
 * manifest CSV with the columns export, domain_size (paths relative to the manifest). */
typedef struct dcsim_gpu_chars {
  char name[256]; /* kernel name as the dwarf writes it (letters, digits, _ . : + -) */
  double P_inactive, P_misc, P_cfl, G_e, G_r_byte, i_int, i_sp, i_dp, I_e, IPC_e;
} dcsim_gpu_chars;

typedef struct dcsim_gpu_calib {
  size_t n_kernels, n_gpus;
  dcsim_gpu_chars *mean;    /* n_kernels, in order of first appearance: the averages */
  dcsim_gpu_chars *per_gpu; /* n_gpus * n_kernels, GPU-major */
  char (*gpu_label)[256];   /* n_gpus: device name from the export, or the file name */
  char (*gpu_file)[1024];   /* n_gpus: the export */
  char (*gpu_how)[256];     /* n_gpus: layout and the derivations used (IPC, bytes) */
  double *domain_size;      /* n_gpus: N of each export */
} dcsim_gpu_calib;

/* paths: exports or manifests; domain_size: N of every export not listed in a manifest (0 = none
 * given, an error for such an export). *out is freed by dcsim_gpu_calib_free(). */
int dcsim_calib_gpu(const char *const *paths, size_t n_paths, double domain_size,
                    dcsim_gpu_calib **out, dcsim_error *err);
void dcsim_gpu_calib_free(dcsim_gpu_calib *c);
/* Per-GPU and mean characteristics, one block per kernel. */
void dcsim_calib_gpu_report(FILE *f, const dcsim_gpu_calib *c);
/* A dwarf <kernels> element (with a leading comment) holding the means; *text is malloc'd. */
int dcsim_calib_gpu_kernels_xml(const dcsim_gpu_calib *c, const char *source, char **text,
                                dcsim_error *err);
/* Rewrites the characteristics of the named kernels of dwarf file in_path into out_path (other
 * content kept; a calibrated kernel the dwarf lacks is an error). */
int dcsim_calib_update_dwarf_kernels(const char *in_path, const char *out_path,
                                     const dcsim_gpu_calib *c, const char *source,
                                     dcsim_error *err);

#endif
