/* wmsfit.h — fitting the fitted parameters of a WMS description (dcsim/wmsconf.h) on recorded
 * WfCommons instances, and measuring the errors of the result on instances it was not fitted on;
 * shared by fit-wms and validate-traces (doc/wms.md).
 *
 * Every instance is loaded once as a scenario on its recorded machines, under the WMS profile its
 * recorded runtime system, version and node type select. A profile's fitted parameters (those
 * with a fit grid) are fitted on the instances of that profile only, by least squares of the log
 * errors ln(simulated / recorded) over the grid: coordinate descent, one parameter at a time over
 * its whole grid with the others fixed, in rounds until a round changes nothing (at most
 * WMSFIT_MAX_ROUNDS). Grids are searched in the order unlimited bandwidth first, then decreasing
 * bandwidths, and increasing times, and a point must be strictly better to replace an earlier
 * one, so equal fits keep the least overhead. Standard errors: Gauss-Newton at the optimum,
 * cov = s^2 (J^T J)^-1 with s^2 = SSE / (n - p) and J the derivatives of the log errors by central
 * differences over the neighbouring grid points (one-sided at an edge), in ln(value) for
 * bandwidths (their standard error is value x that of ln(value)); a parameter at unlimited or
 * whose derivatives vanish has none (NaN). The simulated makespan is the plan's (dcsim/sched.h),
 * which is what `dcsim run` reports for one workflow on its free recorded platform.
 *
 * Ownership: wmsfit_load() fills a caller-owned struct freed by wmsfit_release() (also after a
 * failure). */
#ifndef DCSIM_TOOLS_WMSFIT_H
#define DCSIM_TOOLS_WMSFIT_H

#include <stddef.h>
#include <stdio.h>

#include "dcsim/error.h"
#include "dcsim/scenario.h"
#include "dcsim/wmsconf.h"

#define WMSFIT_MAX_ROUNDS 6

typedef struct wmsfit_inst {
  char *path;
  dcsim_scenario *s;       /* on its recorded machines, under its profile */
  dcsim_wms_profile *prof; /* the profile in s's own copy of the description (varied) */
  size_t profile;          /* index of the profile in the description */
  double recorded_s;       /* recorded makespan */
  double file_s, fit_s;    /* simulated: the file's values, the fit's */
} wmsfit_inst;

typedef struct wmsfit {
  dcsim_wms_conf *conf; /* the description as written */
  size_t n;
  wmsfit_inst *inst; /* instances with a recorded makespan and a WMS profile, by file name */
  size_t n_skipped;  /* instances without one of them */
  double (*fit_v)[DCSIM_WMS_N_PARAMS];  /* per profile: the fit on all its instances */
  double (*fit_se)[DCSIM_WMS_N_PARAMS]; /* per profile: standard errors (NaN: none) */
  int *fitted;                          /* per profile: it has instances and fitted parameters */
  size_t *members;                      /* per profile: the instances fitted on */
  size_t *evaluations;                  /* per profile: simulations of all members */
} wmsfit;

/* Loads the instances (*.json) of dir under the description wms_file (NULL: the shipped one).
 * Returns 77 when dir holds no instance. */
int wmsfit_load(const char *dir, const char *wms_file, wmsfit *f, dcsim_error *err);
/* Simulates every instance with the file's values (file_s; also fit_s until a fit). */
int wmsfit_predict(wmsfit *f, dcsim_error *err);
/* Fits every profile with fitted parameters on its instances (fit_v, fit_se, fit_s). */
int wmsfit_fit(wmsfit *f, dcsim_error *err);
/* Simulates the instances of `to` with the values `from` fitted (fit_s), where `from` fitted
 * their profile; others keep the file's values. */
int wmsfit_apply(const wmsfit *from, wmsfit *to, dcsim_error *err);
void wmsfit_release(wmsfit *f);

const char *wmsfit_base(const char *path);
/* simulated / recorded - 1 */
double wmsfit_rel(double sim, double rec);
/* The instance's family: its file name up to the first '-'. */
size_t wmsfit_family_len(const char *path);

/* Markdown: the fitted parameters with the fit's value, standard error, the description's value
 * (*same = 0 when one differs) and the number of instances it rests on. */
void wmsfit_print_values(const wmsfit *f, int *same);
/* Markdown: every instance with recorded and simulated makespan (fit: fit_s, else file_s). */
void wmsfit_print_instances(const wmsfit *f, int fit);
/* Markdown: per family and profile (node type and version), the number of instances and the
 * median, 90th percentile (nearest rank) and worst |error|, and the median signed error. */
void wmsfit_print_groups(const wmsfit *f, int fit);
/* |errors| (fit: fit_s, else file_s) of the instances whose profile's version-prefix is prefix
 * (NULL: all) into e (n entries, sorted); returns the count. */
size_t wmsfit_abs_errors(const wmsfit *f, int fit, const char *prefix, double *e);
/* The same for |ln(simulated / recorded)|. */
size_t wmsfit_log_errors(const wmsfit *f, int fit, const char *prefix, double *e);
/* The q-quantile (nearest rank) of the sorted a[0..n-1]. */
double wmsfit_quantile(const double *a, size_t n, double q);
/* The uncertainty band of one WMS version (runtime system and version prefix of its profiles)
 * from the errors of a share under the fitted values: band = exp(P90 of |ln(simulated /
 * recorded)|) - 1, rounded to 0.001 (doc/wms.md, "Uncertainty band"). */
typedef struct wmsfit_band {
  const char *system, *prefix; /* borrowed from the description */
  size_t n;
  double median_abs, p90_abs, band;
} wmsfit_band;
/* The bands of f's WMS versions that have instances, in profile order (at most max); returns
 * the count. */
size_t wmsfit_bands(const wmsfit *f, wmsfit_band *out, size_t max);
/* The record (TSV): the fitted parameters with standard errors and the instances fitted on,
 * every instance of fit and test (may be NULL) with its share and error, and test's bands. */
void wmsfit_write_record(FILE *o, const wmsfit *fit, const wmsfit *test);

#endif
