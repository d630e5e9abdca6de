/* dcsim/run_report.h — a finished run (dcsim/engine.h) written for people and programs: the text
 * report, JSON and CSV of `dcsim run`, and the uncertainty bands of its time and energy.
 * Nothing is allocated for the caller; the report points into the scenario and the stats. */
#ifndef DCSIM_RUN_REPORT_H
#define DCSIM_RUN_REPORT_H

#include <stdint.h>

#include "dcsim/cost.h"
#include "dcsim/engine.h"
#include "dcsim/error.h"
#include "dcsim/metrics.h"
#include "dcsim/repro.h"
#include "dcsim/scenario.h"
#include "dcsim/sched.h"

/* What the printers of a finished run need. */
typedef struct dcsim_run_report {
  const dcsim_scenario *s;
  const dcsim_run_stats *st;
  dcsim_metrics_summary ms;
  dcsim_job_policy jp;
  dcsim_task_policy tp;
  int64_t run_id;
  const char *db;
  dcsim_repro rp;
  double deadline_s; /* --deadline-s, 0 = none */
  dcsim_deadline_report dl;
  dcsim_cost_opts cost; /* --price, --kwh-price, --lifetime-years */
  int kwh_default;      /* no --kwh-price: the tariff is printed with its year and source */
  dcsim_cost held, centre;
  double band_t[2], band_e[2]; /* uncertainty bands as factors of a time and an energy (bands.h) */
  size_t *order;               /* --sort: the jobs' order in the tables (NULL: as simulated) */
} dcsim_run_report;

/* The bands of the run's times and energies as factors (band_t, band_e): from the provenance of
 * its planned tasks and the devices they run on (dcsim/bands.h), widened by a WMS's own band. */
int dcsim_run_report_bands(dcsim_run_report *o, dcsim_error *err);

/* The report on stdout: the text report (doc/cli.md), one JSON object, or CSV. */
void dcsim_run_report_text(const dcsim_run_report *o);
void dcsim_run_report_json(const dcsim_run_report *o);
void dcsim_run_report_csv(const dcsim_run_report *o);

#endif
