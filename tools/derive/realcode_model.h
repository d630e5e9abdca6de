/* realcode_model.h — the real NWP codes for the tools realcode and validate: the
 * measured rows of calibration/realcode/MACHINE/measurements.csv, dcsim's prediction of each with
 * its band, and the fit of the dwarfs' efficiencies on the role=fit rows (tools/derive/realcode.c
 * says how). Ownership: rc_ctx_load fills a caller-owned context freed by rc_ctx_free; row strings
 * are borrowed from it. */
#ifndef DCSIM_TOOLS_REALCODE_MODEL_H
#define DCSIM_TOOLS_REALCODE_MODEL_H

#include <stddef.h>

#include "dcsim/bands.h"
#include "dcsim/dwarf.h"
#include "dcsim/hwprofile.h"
#include "util/csv.h"

#define RC_MAX_MACHINES 16
#define RC_MAX_ROWS     1024
#define RC_MAX_LOOPS    8
#define RC_MAX_CHECK    4

/* the dwarfs of the real codes, in report order: a row belongs to the dwarf named by its variant
 * when the catalogue holds one (cloudsc-c: the C translation of CLOUDSC, another code with other
 * efficiencies), else to the dwarf named by its code (rc_row.dwarf; dcsim__realcode_dwarf of
 * src/calib/fit/fit_realcode.c, the rule `dcsim bench --check` applies too) */
extern const char *const RC_CODES[4];
#define RC_N_CODES 4

typedef struct rc_machine {
  char name[64];
  /* the profile the rows are predicted and fitted with: the manifest's `cpu` as written (a path
   * relative to the manifest or a catalogue name) */
  char cpu_name[256];
  double ghz; /* the manifest's `ghz`; empty there: the profile's first frequency state */
  dcsim_cpu_profile_t *cpu;
  dcsim_csv_t *rows;
  char path[4096];
  /* the manifest's optional columns: catalogue_cpu and catalogue_ghz, a catalogue profile of a
   * similar chip ("" when none); check_profiles, independent `dcsim bench --quick` profiles of
   * the same machine (paths relative to the manifest, separated by spaces), not used for fitting.
   * rc_ctx_profile loads them. */
  char cat_cpu[256];
  double cat_ghz;
  char check[RC_MAX_CHECK][256];
  size_t n_check;
  int line; /* of the manifest */
} rc_machine;

typedef struct rc_row {
  const rc_machine *m;
  size_t r; /* row of m->rows */
  const char *code, *variant;
  const char *dwarf; /* the dwarf that predicts it: the variant's, else the code's */
  int fit;           /* role=fit */
  int contended;     /* the contended column says yes/1/true */
  unsigned threads;
  double measured_s; /* cpu_s_min / threads */
  double median_s;   /* cpu_s_median / threads (shown beside, not fitted or compared) */
} rc_row;

typedef struct rc_ctx {
  rc_machine m[RC_MAX_MACHINES];
  size_t n_m;
  rc_row rows[RC_MAX_ROWS];
  size_t n_rows;
  dcsim_bands_t *bands;
  char manifest[4096]; /* its path: the profiles' references are relative to it */
} rc_ctx;

/* One prediction: the time, its band as dcsim prints it, the provenance class of the time, and
 * whether the CPU's rates were transferred (its band is then cpu-time spec, dcsim/bands.h). */
typedef struct rc_pred {
  double time_s, band[2];
  double fixed_s; /* the loops without a fitted coefficient */
  int unbound;    /* loops whose fitted term is not the one that binds */
  /* the time of the loops bound by the peak flop rate and by their memory traffic (these dwarfs
   * move it from DRAM only): which of the profile's rates the prediction rests on */
  double flop_bound_s, mem_bound_s;
  dcsim_prov_kind kind;
  int transferred;
} rc_pred;

int rc_ctx_load(rc_ctx *c, const char *manifest, dcsim_error *err);
/* The rows of the machines with another profile copied into b, each machine's profile replaced:
 * which = RC_PROFILE_CATALOGUE, its catalogue profile at catalogue_ghz; which = j >= 0, its j-th
 * check profile at that profile's first frequency state (the clock the bench measured). b borrows
 * c's rows and must be freed by rc_ctx_profile_free, not rc_ctx_free. b->n_m = 0 when no machine
 * has one. */
#define RC_PROFILE_CATALOGUE (-1)
int rc_ctx_profile(const rc_ctx *c, int which, rc_ctx *b, dcsim_error *err);
void rc_ctx_profile_free(rc_ctx *b);
void rc_ctx_free(rc_ctx *c);
int rc_is_gpu_variant(const char *variant);
int rc_load_dwarf(const char *name, dcsim_dwarf_t **d, dcsim_error *err);
/* the prediction of a row; x (RC_MAX_LOOPS, may be NULL) gets each loop's time with its fitted
 * coefficient set to 1; coef (NULL: the file's) replaces the fitted coefficients */
int rc_predict(const rc_ctx *c, const dcsim_dwarf_t *d, const rc_row *w, const double *coef,
               double *x, size_t *n_loops, rc_pred *out, dcsim_error *err);
/* the fit of the dwarf on its role=fit rows: coef[k] (U or Z of loop k) */
int rc_fit(const rc_ctx *c, const dcsim_dwarf_t *d, double *coef, size_t *n_loops, size_t *n_fit,
           dcsim_error *err);
/* which coefficient of each loop is fitted, as the file says: 'U' (its <flop> source starts with
 * "fitted"), 'Z' (its <mop> source does), 0 (none) */
int rc_fitted_terms(const dcsim_dwarf_t *d, char *kind, size_t *n, dcsim_error *err);
/* the file's fitted coefficients (0 for a loop without one) */
int rc_file_coefs(const dcsim_dwarf_t *d, double *coef, size_t *n, dcsim_error *err);

#endif
