/* toolutil.h — what the derivation and validation programs of tools/derive share. Nothing here
 * keeps state; the loaders hand the caller an object it frees with the type's _free. */
#ifndef DCSIM_TOOLUTIL_H
#define DCSIM_TOOLUTIL_H

#include "dcsim/dwarf.h"
#include "dcsim/error.h"
#include "dcsim/hwprofile.h"
#include "util/csv.h"

/* Loads the data file that ref names (a catalogue name or a path, dcsim_catalog_find) into *out. */
int tool_load_dwarf(const char *ref, dcsim_dwarf_t **out, dcsim_error *err);
int tool_load_cpu(const char *ref, dcsim_cpu_profile_t **out, dcsim_error *err);
int tool_load_gpu(const char *ref, dcsim_gpu_profile_t **out, dcsim_error *err);

/* Prints "PROG: <the error, formatted as the CLI does>" on stderr and returns status (the exit
 * status the program gives for it). */
int tool_die(const char *prog, const dcsim_error *e, int status);

/* The --check of a fitting program: whether the data file at path holds, in its <element>, the
 * two fitted parameters named name[k] (have[k] as read, fit[k] as fitted), each within a relative
 * 1e-3 (written with four significant digits and read back). Prints "PATH holds the fitted WHAT"
 * on stdout and returns 0, or prints what differs on stderr and returns 1 (also when the element
 * is not present). */
int tool_check_fitted(const char *path, const char *element, const char *what, int present,
                      const char *const name[2], const double have[2], const double fit[2]);

/* The inputs of a GPU fitting program, `PROG DWARF GPU RUNS.csv (--xml | --check)` (fit-gpu-arch,
 * fit-gpu-small-domain): the dwarf and the GPU profile (catalogue names or paths) as loaded (the
 * paths they were loaded from, what --check names, are dcsim_dwarf_path and
 * dcsim_gpu_profile_path), and the profiled runs' CSV. */
typedef struct tool_gpu_fit_in {
  dcsim_dwarf_t *dwarf;
  dcsim_gpu_profile_t *gpu;
  dcsim_csv_t *runs;
  int check; /* --check (else --xml) */
} tool_gpu_fit_in;

/* Reads argv into in: prints the usage and returns 2 when the arguments are off, prints the
 * error as tool_die does and returns 2 (nothing left loaded) when an input does not load, else
 * returns 0 and what it loaded is freed by tool_gpu_fit_in_free. */
int tool_gpu_fit_in_load(const char *prog, int argc, char **argv, tool_gpu_fit_in *in);
void tool_gpu_fit_in_free(tool_gpu_fit_in *in);

#endif
