/* wmsfit.h — fitting the fitted parameters of a WMS description (dcsim/wmsconf.h) on recorded
 * WfCommons instances, with leave-one-out; shared by fit-wms and validate-traces (doc/wms.md).
 *
 * Every instance is loaded once as a scenario on its recorded machines, under the WMS profile its
 * recorded runtime system selects. A profile's fitted parameters (those with a fit grid) are fitted
 * on the instances of that profile only: the grid point of least sum of squared log errors
 * ln(simulated / recorded); grids are searched in the order unlimited bandwidth first, then
 * decreasing bandwidths, and increasing times, and a point must be strictly better to replace an
 * earlier one, so equal fits keep the least overhead. Leave-one-out: each instance is predicted
 * with its profile fitted on the other instances of the profile (with the least-overhead grid point
 * when no other instance has that profile). The simulated makespan is the plan's (dcsim/sched.h),
 * which is what `dcsim run` reports for one workflow on its free recorded platform.
 *
 * Ownership: wmsfit_load() fills a caller-owned struct freed by wmsfit_release() (also after a
 * failure). */
#ifndef DCSIM_TOOLS_WMSFIT_H
#define DCSIM_TOOLS_WMSFIT_H

#include <stddef.h>

#include "dcsim/error.h"
#include "dcsim/scenario.h"
#include "dcsim/wmsconf.h"

typedef struct wmsfit_inst {
  char *path;
  dcsim_scenario *s;                /* on its recorded machines, under its profile */
  dcsim_wms_profile *prof;          /* the profile in s's own copy of the description (varied) */
  size_t profile;                   /* index of the profile in the description */
  double recorded_s;                /* recorded makespan */
  double file_s, fit_s, loo_s;      /* simulated: the file's values, the fit's, leave-one-out's */
  double loo_v[DCSIM_WMS_N_PARAMS]; /* leave-one-out values of the profile's fitted parameters */
  int loo_refit; /* 0: no other instance has its profile (least-overhead point) */
} wmsfit_inst;

typedef struct wmsfit {
  dcsim_wms_conf *conf; /* the description as written */
  size_t n;
  wmsfit_inst *inst; /* instances with a recorded makespan and a WMS profile, by file name */
  size_t n_skipped;  /* instances without one of them */
  double (*fit_v)[DCSIM_WMS_N_PARAMS]; /* per profile: the fit on all its instances */
  int *fitted;                         /* per profile: it has instances and fitted parameters */
} wmsfit;

/* Loads the instances (*.json) of dir under the description wms_file (NULL: the shipped one).
 * Returns 77 when dir holds no instance. */
int wmsfit_load(const char *dir, const char *wms_file, wmsfit *f, dcsim_error *err);
/* Simulates every instance with the file's values, fits every profile on all its instances and,
 * with loo, on all but each one. */
int wmsfit_run(wmsfit *f, int loo, dcsim_error *err);
void wmsfit_release(wmsfit *f);

const char *wmsfit_base(const char *path);
/* simulated / recorded - 1 */
double wmsfit_rel(double sim, double rec);
/* Markdown: the fitted parameters, the fit's value and the description's (*same = 0 when one
 * differs); every instance with the fit and under leave-one-out, with mean and worst errors. */
void wmsfit_print_values(const wmsfit *f, int *same);
void wmsfit_print_fit(const wmsfit *f);

#endif
