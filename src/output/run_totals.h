/* output/run_totals.h — the run's totals as `dcsim run`'s reports print them (doc/design.md
 * "Result records"): one row filled by one builder (dcsim__totals_row_of) from the finished run,
 * and the field tables (util/record.h) from which output/run_report.c writes the JSON's top-level
 * totals and its "deadline", "statistics", "power_management" and "cost" objects, and the CSV's
 * centre rows under the job rows' columns. The text report's summary is prose written by hand
 * from the same row. The values that the runs table also stores are the row's `db` member, filled
 * by the same function as the database's row (dcsim__run_totals_of).
 *
 * Ownership: a row points into the report's scenario and holds its policy name and cost notes
 * (it is not copied); dcsim__totals_row_release frees what it holds. The tables are static data. */
#ifndef DCSIM_OUTPUT_RUN_TOTALS_H
#define DCSIM_OUTPUT_RUN_TOTALS_H

#include <stdio.h>

#include "dcsim/run_report.h"
#include "dcsim/strutil.h"
#include "output/results_records.h"
#include "util/record.h"

typedef struct dcsim__totals_row {
  const char *input, *platform, *policy; /* policy: "job+task" */
  dcsim__run_totals db;                  /* the runs table's values */
  long long run_id;                      /* 0: none (no --db) */
  const char *energy_covers;
  const char *energy_unknown; /* why the energy is unknown; NULL: known */
  /* the time's and the energy's bands (bands.h) */
  double time_band_low_s, time_band_high_s, energy_band_low_j, energy_band_high_j;
  double held_j;     /* the energy of the nodes the jobs held: the sum of the job rows */
  double off_node_s; /* node-seconds switched off */
  /* --deadline-s (0: none): met by every job, how many missed it, the longest job's run */
  double deadline_s, longest_run_s;
  int met;
  long long jobs_missed;
  /* the cost of what the jobs held and of the whole centre (dcsim/cost.h; NaN: unknown), their
   * bands, the tariff and the lifetime; the reasons a cost is unknown ("" when known) and the
   * JSON's note (the held cost's reason, else the centre's; NULL when both are known) */
  double usd, usd_band_low, usd_band_high, energy_usd, hardware_usd;
  double centre_usd, centre_usd_band_low, centre_usd_band_high, centre_energy_usd;
  double kwh_usd, lifetime_years;
  int known, centre_known; /* the costs are known (not in a table: the NaNs say it) */
  const char *held_note, *centre_note, *note;
  dcsim_str policy_buf;
  char held_note_buf[200], centre_note_buf[200]; /* dcsim_cost_reason's */
} dcsim__totals_row;

/* the JSON's top-level totals (their keys between "allocated" and "energy_covers", and after it,
 * are written by hand: the model mode and the provenance) */
extern const dcsim__record dcsim__totals_record;
/* the JSON's "deadline", "power_management" and "cost" objects (cost: "usd_band" by hand) */
extern const dcsim__record dcsim__totals_deadline_record;
extern const dcsim__record dcsim__totals_power_record;
extern const dcsim__record dcsim__totals_cost_record;
/* a job statistic of "statistics" (a dcsim_stat: mean, median, p95, max) */
extern const dcsim__record dcsim__stat_record;

/* The run's totals of report o (its bands, cost, deadline and job metrics filled). 0, or -1 when
 * out of memory naming the policy (the row then holds "" there). */
int dcsim__totals_row_of(const dcsim_run_report *o, dcsim__totals_row *row);
void dcsim__totals_row_release(dcsim__totals_row *row);

/* The centre's rows of the CSV after the job rows, under the job record's columns: the nodes the
 * jobs held (subtotal), the idle energy of the nodes no job held (idle), the whole centre
 * (total). */
void dcsim__totals_csv_centre(const dcsim__totals_row *row, FILE *f);

#endif
