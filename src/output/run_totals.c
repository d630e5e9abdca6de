/* run_totals.c — the run's totals (output/run_totals.h): the runs table's row and the printed
 * totals of `dcsim run`'s reports, each filled by one function, and the field tables the reports
 * are written from. */
#include "output/run_totals.h"

#include <math.h>
#include <stddef.h>

#include "dcsim/bands.h"
#include "dcsim/cost.h"
#include "dcsim/metrics.h"
#include "dcsim/numfmt.h"
#include "dcsim/sched.h"

void dcsim__run_totals_of(const dcsim_run_stats *st, const dcsim_metrics_summary *ms,
                          dcsim__run_totals *t) {
  double busy = 0, mk = (double)st->makespan_ns * 1e-9;
  for (unsigned i = 0; i < st->n_nodes; i++) busy += st->node_busy_s[i];
  *t = (dcsim__run_totals){
    .time_to_solution_s = mk,
    .energy_to_solution_j = st->energy_j,
    .unallocated_idle_j = st->unallocated_idle_j,
    .nodes = st->n_nodes,
    .jobs = (long long)st->n_jobs,
    .tasks = (long long)st->tasks,
    .events = (long long)st->events,
    /* the busy fraction of the node time (doc/workloads.md) */
    .utilisation = mk > 0 && st->n_nodes ? busy / (mk * st->n_nodes) : 0,
    .allocated = ms->allocated,
    .mean_wait_s = ms->wait_s.mean,
    .max_wait_s = ms->wait_s.max,
    .mean_flow_s = ms->flow_s.mean,
    .mean_slowdown = ms->slowdown.n ? ms->slowdown.mean : NAN,
    .mean_bounded_slowdown = ms->bounded_slowdown.mean,
    .max_bounded_slowdown = ms->bounded_slowdown.max,
    .boots = (long long)st->boots,
    .shutdowns = (long long)st->shutdowns,
  };
}

int dcsim__totals_row_of(const dcsim_run_report *o, dcsim__totals_row *row) {
  const dcsim_scenario *s = o->s;
  const dcsim_run_stats *st = o->st;
  *row = (dcsim__totals_row){ .input = s->input_path,
                              .platform = s->platform->name,
                              .run_id = o->run_id > 0 ? (long long)o->run_id : 0,
                              .energy_covers = dcsim_scenario_energy_scope(s),
                              .energy_unknown = dcsim_scenario_energy_unknown(s),
                              .deadline_s = o->deadline_s,
                              .longest_run_s = o->dl.longest_s,
                              .met = o->dl.missed == 0,
                              .jobs_missed = (long long)o->dl.missed,
                              .kwh_usd = o->cost.kwh_usd,
                              .lifetime_years = o->cost.lifetime_years,
                              .policy_buf = DCSIM_STR_INIT };
  dcsim__run_totals_of(st, &o->ms, &row->db);
  double mk = row->db.time_to_solution_s, e = row->db.energy_to_solution_j;
  row->time_band_low_s = mk * o->band_t[0], row->time_band_high_s = mk * o->band_t[1];
  row->energy_band_low_j = e * o->band_e[0], row->energy_band_high_j = e * o->band_e[1];
  for (size_t k = 0; k < st->n_jobs; k++) row->held_j += st->jobs[k].energy_j;
  for (unsigned i = 0; i < st->n_nodes; i++) row->off_node_s += st->node_off_s[i];
  /* the costs (dcsim/cost.h) and their bands from the time's and the energy's (dcsim_bands_cost:
   * factors of a time and an energy of 1) */
  const dcsim_cost *held = &o->held, *centre = &o->centre;
  double cb[2] = { NAN, NAN };
  row->known = held->known, row->centre_known = centre->known;
  row->usd = held->known ? held->usd : NAN;
  if (held->known) dcsim_bands_cost(held->usd, 1, o->band_t, 1, o->band_e, cb);
  row->usd_band_low = cb[0], row->usd_band_high = cb[1];
  row->energy_usd = held->energy_usd;
  row->hardware_usd = held->known ? held->hardware_usd : NAN;
  cb[0] = cb[1] = NAN;
  row->centre_usd = centre->known ? centre->usd : NAN;
  if (centre->known) dcsim_bands_cost(centre->usd, 1, o->band_t, 1, o->band_e, cb);
  row->centre_usd_band_low = cb[0], row->centre_usd_band_high = cb[1];
  row->centre_energy_usd = centre->energy_usd;
  dcsim_cost_reason(held, row->held_note_buf, sizeof row->held_note_buf);
  dcsim_cost_reason(centre, row->centre_note_buf, sizeof row->centre_note_buf);
  row->held_note = row->held_note_buf, row->centre_note = row->centre_note_buf;
  if (!held->known || !centre->known) row->note = held->known ? row->centre_note : row->held_note;
  dcsim_str_addf(&row->policy_buf, "%s+%s", dcsim_sched_job_name(o->jp),
                 dcsim_sched_task_name(o->tp));
  row->policy = dcsim_str_cstr(&row->policy_buf);
  return row->policy_buf.oom ? -1 : 0;
}

void dcsim__totals_row_release(dcsim__totals_row *row) { dcsim_str_release(&row->policy_buf); }

enum { JSON = DCSIM__RO_JSON, JSON_OPT = DCSIM__RO_JSON_OPT, CSV = DCSIM__RO_CSV };

/* A line of a printed record: its name, the row's member (a member of the runs table's row
 * `db.x` where the runs table stores the value under the same name: the same kind and unit,
 * checked by tests/test_record.c), kind, unit, NULL rule and outputs. No SQL: the runs table is
 * output/results.c's record of the same values. */
/* clang-format off */
#define TOTAL(name, m, kind, unit, nulls, out) \
  DCSIM__RECORD_FIELD_AT(name, dcsim__totals_row, m, kind, unit, "", nulls, "0.1.0", out, NULL, 0, PLAIN, NULL)

/* the JSON's top-level totals, in its order */
static const dcsim__record_field totals_fields[] = {
  TOTAL("input",                input,                   TEXT,  "",  NEVER, JSON),
  TOTAL("platform",             platform,                TEXT,  "",  NEVER, JSON),
  TOTAL("policy",               policy,                  TEXT,  "",  NEVER, JSON),
  TOTAL("time_to_solution_s",   db.time_to_solution_s,   REAL,  "s", NEVER, JSON),
  TOTAL("energy_to_solution_j", db.energy_to_solution_j, REAL,  "J", NEVER, JSON),
  TOTAL("unallocated_idle_j",   db.unallocated_idle_j,   REAL,  "J", NEVER, JSON),
  TOTAL("tasks",                db.tasks,                INT64, "",  NEVER, JSON),
  TOTAL("jobs",                 db.jobs,                 INT64, "",  NEVER, JSON),
  TOTAL("events",               db.events,               INT64, "",  NEVER, JSON),
  TOTAL("nodes",                db.nodes,                INT64, "",  NEVER, JSON),
  TOTAL("utilisation",          db.utilisation,          REAL,  "",  NEVER, JSON),
  TOTAL("run_id",               run_id,                  INT64, "",  ZERO,  JSON_OPT),
  TOTAL("allocated",            db.allocated,            REAL,  "",  NEVER, JSON),
  /* the model mode (dcsim__json_model_mode) by hand */
  TOTAL("energy_covers",        energy_covers,           TEXT,  "",  NEVER, JSON),
  /* the provenance object (dcsim_prov_json_member) by hand */
  TOTAL("energy_unknown",       energy_unknown,          TEXT,  "",  NEVER, JSON_OPT),
};

/* "deadline": --deadline-s met or missed, and by how many jobs (doc/engine.md) */
static const dcsim__record_field deadline_fields[] = {
  TOTAL("deadline_s",           deadline_s,              REAL,  "s", NEVER, JSON),
  TOTAL("met",                  met,                     BOOL,  "",  NEVER, JSON),
  TOTAL("jobs_missed",          jobs_missed,             INT64, "",  NEVER, JSON),
  TOTAL("longest_run_s",        longest_run_s,           REAL,  "s", NEVER, JSON),
};

/* "power_management" */
static const dcsim__record_field power_fields[] = {
  TOTAL("boots",                db.boots,                INT64, "",  NEVER, JSON),
  TOTAL("shutdowns",            db.shutdowns,            INT64, "",  NEVER, JSON),
  TOTAL("off_node_s",           off_node_s,              REAL,  "s", NEVER, JSON),
};

/* "cost": of what the jobs held and of the whole centre (dcsim/cost.h); "usd_band" after "usd"
 * by hand (only when the cost is known) */
static const dcsim__record_field cost_fields[] = {
  TOTAL("usd",                  usd,                     REAL,  "USD", UNDEF, JSON),
  TOTAL("energy_usd",           energy_usd,              REAL,  "USD", NEVER, JSON),
  TOTAL("hardware_usd",         hardware_usd,            REAL,  "USD", UNDEF, JSON),
  TOTAL("centre_usd",           centre_usd,              REAL,  "USD", UNDEF, JSON),
  TOTAL("centre_energy_usd",    centre_energy_usd,       REAL,  "USD", NEVER, JSON),
  TOTAL("note",                 note,                    TEXT,  "",    NEVER, JSON_OPT),
  TOTAL("kwh_usd",              kwh_usd,                 REAL,  "USD", NEVER, JSON),
  TOTAL("lifetime_years",       lifetime_years,          REAL,  "",    NEVER, JSON),
};

/* a job statistic (doc/workloads.md) */
#define STAT(m) DCSIM__RECORD_FIELD_OUT(dcsim_stat, m, REAL, "", "", NEVER, "0.1.0", JSON, NULL, 0, PLAIN, NULL)
static const dcsim__record_field stat_fields[] = { STAT(mean), STAT(median), STAT(p95), STAT(max) };
#undef STAT

/* a centre's row of the CSV, named as the job record's columns it fills (output/run_records.c):
 * the bands are the total row's alone (centre_total_record; its NaN band of an unknown energy is
 * `nan`, as a job row's) */
typedef struct centre_row {
  const char *name, *cost_note, *kind;
  double start_s, end_s, energy_to_solution_j, cost_usd;
  double time_band_low_s, time_band_high_s, energy_band_low_j, energy_band_high_j;
} centre_row;
#define CENTRE(m, kind, unit, nulls) \
  DCSIM__RECORD_FIELD_OUT(centre_row, m, kind, unit, "", nulls, "0.1.0", CSV, NULL, 0, PLAIN, NULL)
/* the subtotal's and the idle row's: name to kind; the total's: then its bands */
#define CENTRE_FIELDS                           \
  CENTRE(name,                 TEXT, "",    NEVER), \
  CENTRE(start_s,              REAL, "s",   NEVER), \
  CENTRE(end_s,                REAL, "s",   NEVER), \
  CENTRE(energy_to_solution_j, REAL, "J",   NEVER), \
  CENTRE(cost_usd,             REAL, "USD", UNDEF), \
  CENTRE(cost_note,            TEXT, "",    NEVER), \
  CENTRE(kind,                 TEXT, "",    NEVER)
static const dcsim__record_field centre_fields[] = { CENTRE_FIELDS };
static const dcsim__record_field centre_total_fields[] = {
  CENTRE_FIELDS,
  CENTRE(time_band_low_s,      REAL, "s",   NEVER),
  CENTRE(time_band_high_s,     REAL, "s",   NEVER),
  CENTRE(energy_band_low_j,    REAL, "J",   NEVER),
  CENTRE(energy_band_high_j,   REAL, "J",   NEVER),
};
#undef CENTRE_FIELDS
/* clang-format on */
#undef CENTRE
#undef TOTAL

#define RECORD(fields) \
  { "", fields, sizeof fields / sizeof *fields }
const dcsim__record dcsim__totals_record = RECORD(totals_fields);
const dcsim__record dcsim__totals_deadline_record = RECORD(deadline_fields);
const dcsim__record dcsim__totals_power_record = RECORD(power_fields);
const dcsim__record dcsim__totals_cost_record = RECORD(cost_fields);
const dcsim__record dcsim__stat_record = RECORD(stat_fields);
static const dcsim__record centre_record = RECORD(centre_fields);
static const dcsim__record centre_total_record = RECORD(centre_total_fields);
#undef RECORD

/* The job rows and the idle row add up to the total row: held + unallocated idle = the
 * energy-to-solution (the JSON's energy_to_solution_j). */
void dcsim__totals_csv_centre(const dcsim__totals_row *t, FILE *f) {
  double mk = t->db.time_to_solution_s;
  const centre_row rows[] = {
    { "centre:allocated", t->held_note, "subtotal", 0, mk, t->held_j, t->usd, NAN, NAN, NAN, NAN },
    { "centre:idle-unallocated", NULL, "idle", 0, mk, t->db.unallocated_idle_j, NAN, NAN, NAN, NAN,
      NAN },
    { "centre:total", t->centre_note, "total", 0, mk, t->db.energy_to_solution_j, t->centre_usd,
      t->time_band_low_s, t->time_band_high_s, t->energy_band_low_j, t->energy_band_high_j },
  };
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
    dcsim__record_csv_row_under(&dcsim__job_record, i == 2 ? &centre_total_record : &centre_record,
                                f, &rows[i]);
}
