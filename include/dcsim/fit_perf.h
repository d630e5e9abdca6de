/* dcsim/fit_perf.h — fitting the parametric CPU performance model (dcsim/cpu_rates.h) to whatever
 * table cells a machine has, and deriving it from datasheet figures where it has none
 * (doc/calibration.md, "The parametric model").
 *
 * Per quantity (peak, L1, L2, L3, DRAM) the fit minimises the squared log-ratios of model to cell
 * (relative errors) with GSL's trust-region Levenberg-Marquardt (gsl_multifit_nlinear), from a few
 * fixed starting points (deterministic). Only what the cells determine is fitted:
 *   per-cycle rate            always (the peak: flop per cycle, its frequency exponent fixed at 1)
 *   frequency exponent        with two or more plain frequencies
 *   saturation (L3, DRAM)     when the fitted ceiling lies within twice the highest measured rate
 *                             of a socket (otherwise the data never reach it)
 *   its frequency exponent    with saturation and two or more frequencies
 *   knee sharpness            with saturation and four or more thread counts per socket
 * The rest is assumed: from the reference machine's fit when there is one (its frequency
 * exponents, knee; its ceilings scaled by the datasheets: L3 by cores per socket, DRAM by the
 * memory's sustained or peak bandwidth), otherwise from fixed defaults, each named in the report
 * and in the level's source. A quantity without cells is derived from the datasheet (the peak from
 * the ISA's flop per cycle) and the reference (cache and memory rates carried per core as functions
 * of the clock), flagged "spec: ...". The turbo clock per active cores of a socket is read off the
 * peak table's turbo column (turbo cell / (cores x flop per cycle)).
 *
 * Ownership: results are caller-owned values; their strings are copies inside them. */
#ifndef DCSIM_FIT_PERF_H
#define DCSIM_FIT_PERF_H

#include <stddef.h>
#include <stdio.h>

#include "dcsim/error.h"
#include "dcsim/hwprofile.h"

/* One table cell: quantity, frequency (a plain GHz, or turbo), threads, value in flop/s or B/s. */
typedef struct dcsim_perf_obs {
  dcsim_cpu_qty q;
  double ghz; /* 0 for a turbo cell */
  int turbo;
  unsigned threads;
  double value;
} dcsim_perf_obs;

/* What the fit needs of a machine besides its cells (strings borrowed). */
typedef struct dcsim_perf_machine {
  const char *name;
  unsigned cores_per_socket, sockets;
  double nominal_ghz;
  int scatter;                              /* placement of the tables' threads */
  dcsim_cpu_datasheet ds;                   /* 0 where unknown */
  const char *table_source[DCSIM_CPU_NQTY]; /* the table's source=, NULL without a table */
} dcsim_perf_machine;

typedef struct dcsim_perf_level_report {
  size_t n_cells;
  double rms_rel, max_rel; /* relative errors of the model at the cells */
  unsigned worst_threads;
  double worst_ghz; /* 0: the turbo column */
  char fitted[160], assumed[1024];
} dcsim_perf_level_report;

typedef struct dcsim_perf_fit {
  dcsim_perf_machine machine; /* as given */
  dcsim_cpu_perf_model model; /* sources point into src / model_src */
  char src[DCSIM_CPU_NQTY][1024];
  char model_src[256];
  char turbo_src[512];
  /* per bin: the source of a published clock (calibration <perf-fit><turbo>); NULL: turbo_src.
   * Borrowed from the calibration document, valid while it is. */
  const char *turbo_bin_src[DCSIM_CPU_MAX_TURBO_BINS];
  dcsim_perf_level_report rep[DCSIM_CPU_NQTY];
} dcsim_perf_fit;

/* Fits (or derives) the model of machine m from its n cells; ref (NULL = none) is a fitted machine
 * whose rates and exponents fill in what the cells cannot determine. DCSIM_EREF when a quantity
 * without cells cannot be derived because a datasheet figure or the reference is missing (the
 * message names the figure); DCSIM_EINTERNAL when GSL fails. */
int dcsim_perf_fit_run(const dcsim_perf_machine *m, const dcsim_perf_obs *obs, size_t n,
                       const dcsim_perf_fit *ref, dcsim_perf_fit *out, dcsim_error *err);

/* The <perf-model> element of a CPU profile (schemas/cpu-profile.xsd) holding the fit. */
void dcsim_perf_fit_xml(FILE *f, const dcsim_perf_fit *fit);

/* What was fitted, what was assumed, the errors at the cells: one block per quantity. */
void dcsim_perf_fit_report(const dcsim_perf_fit *f, FILE *out);

#endif
