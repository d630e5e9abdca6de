/* dcsim/calib_report.h — what `dcsim calibrate` writes of a fit (dcsim/fit_coeffs.h) for a profile:
 * XML elements to paste into it. Nothing is allocated for the caller. */
#ifndef DCSIM_CALIB_REPORT_H
#define DCSIM_CALIB_REPORT_H

#include <stdio.h>

#include "dcsim/fit.h"
#include "dcsim/fit_coeffs.h"

/* <energy-coefficients> and, when fitted, <power-activity> of `dcsim calibrate energy`: csv the
 * measurements fitted, cpu the profile's name, user the source= given by the user (--source; NULL:
 * a source naming the fit). */
void dcsim_energy_fit_xml(FILE *f, const dcsim_energy_fit *ef, dcsim_fit_method m, const char *csv,
                          const char *cpu, const char *user);

#endif
