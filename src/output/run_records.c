/* run_records.c — a job's record of a run (output/results_records.h): one field table for the
 * job's row of the results database (results.c) and of `dcsim run`'s JSON, CSV and text reports
 * (run_report.c), and the one function that fills the row. */
#include <math.h>
#include <stddef.h>

#include "dcsim/cost.h"
#include "dcsim/hwprofile.h"
#include "dcsim/metrics.h"
#include "dcsim/numfmt.h"
#include "dcsim/scenario.h"
#include "output/results_records.h"
#include "util/dbschema_run.h"

/* the time-to-solution with the digits its band supports (numfmt.h) */
static const char *cell_tts(const void *row, char *buf, size_t size) {
  const dcsim__job_row *r = row;
  const double band[2] = { r->time_band_low_s, r->time_band_high_s };
  return dcsim_fmt_value(buf, size, r->time_to_solution_s, band, NULL);
}

/* the energy and its parts (tasks, held idle) at the energy's place: they add up as printed
 * (dcsim_round_sum, numfmt.h) */
static const char *cell_energy(const void *row, char *buf, size_t size) {
  const dcsim__job_row *r = row;
  return dcsim_fmt_place(buf, size, r->shown_j[0], r->shown_place, NULL);
}
static const char *cell_task_energy(const void *row, char *buf, size_t size) {
  const dcsim__job_row *r = row;
  return dcsim_fmt_place(buf, size, r->shown_j[1], r->shown_place, NULL);
}
static const char *cell_held_idle(const void *row, char *buf, size_t size) {
  const dcsim__job_row *r = row;
  return dcsim_fmt_place(buf, size, r->shown_j[2], r->shown_place, NULL);
}

enum {
  SQL = DCSIM__RO_SQL,
  ALL = DCSIM__RO_ALL,
  JSON = DCSIM__RO_JSON,
  CSV = DCSIM__RO_CSV,
  TEXT = DCSIM__RO_TEXT,
  OPT = DCSIM__RO_SQL | DCSIM__RO_JSON_OPT | DCSIM__RO_CSV /* a JSON key when not NULL */
};

/* A line: member, kind, unit, SQL type, NULL rule, the outputs, the text column's header, width
 * (negative: left-aligned), format and cell getter. The SQLite columns are util/dbschema_run.h's
 * (the schema's, in the workflows table's order); then the report's own lines, in the CSV's and
 * JSON's order. */
/* clang-format off */
#define JOB_FIELD(m, kind, unit, sql, nulls, out, hdr, w, fmt, cell) \
  DCSIM__RECORD_FIELD_OUT(dcsim__job_row, m, kind, unit, sql, nulls, "0.1.0", out, hdr, w, fmt, cell)
#define JOB_COLUMN(m, kind, unit, sql, nulls, out, hdr, w, fmt, cell, added) \
  JOB_FIELD(m, kind, unit, sql, nulls, out, hdr, w, fmt, cell),
static const dcsim__record_field job_fields[] = {
  DCSIM_JOB_COLUMNS(JOB_COLUMN)
  /* the report's: (the JSON's "wms" object goes before cost_usd) */
  JOB_FIELD(cost_usd,             REAL,  "USD", "",        UNDEF, JSON | CSV, NULL,            0,   PLAIN, NULL),
  JOB_FIELD(cost_note,            TEXT,  "",    "",        NEVER, CSV,        NULL,            0,   PLAIN, NULL),
  JOB_FIELD(kind,                 TEXT,  "",    "",        NEVER, CSV,        NULL,            0,   PLAIN, NULL),
  JOB_FIELD(time_band_low_s,      REAL,  "s",   "",        NEVER, CSV,        NULL,            0,   PLAIN, NULL),
  JOB_FIELD(time_band_high_s,     REAL,  "s",   "",        NEVER, CSV,        NULL,            0,   PLAIN, NULL),
  JOB_FIELD(energy_band_low_j,    REAL,  "J",   "",        NEVER, CSV,        NULL,            0,   PLAIN, NULL),
  JOB_FIELD(energy_band_high_j,   REAL,  "J",   "",        NEVER, CSV,        NULL,            0,   PLAIN, NULL),
};
/* clang-format on */
const dcsim__record dcsim__job_record = { "workflows", job_fields,
                                          sizeof job_fields / sizeof *job_fields };

void dcsim__job_row_of(const dcsim_scenario *s, const dcsim_run_stats *st, size_t k,
                       const dcsim__job_row_opts *o, dcsim__job_row *row) {
  const dcsim_job_stats *js = &st->jobs[k];
  dcsim_job_metrics m = dcsim_metrics_job(js);
  *row = (dcsim__job_row){ .job = (long long)k,
                           .name = s->wfs[s->jobs[k].wf].wf->name,
                           .instance = s->jobs[k].instance,
                           .submit_s = (double)js->submit_ns * 1e-9,
                           .start_s = (double)js->start_ns * 1e-9,
                           .end_s = (double)js->end_ns * 1e-9,
                           .wait_s = (double)(js->start_ns - js->submit_ns) * 1e-9,
                           .time_to_solution_s = (double)(js->end_ns - js->submit_ns) * 1e-9,
                           .energy_to_solution_j = js->energy_j,
                           .task_energy_j = js->task_energy_j,
                           .held_idle_j = dcsim_num_diff(js->energy_j, js->task_energy_j),
                           .tasks = js->tasks,
                           .flow_s = m.flow_s,
                           .slowdown = m.slowdown,
                           .bounded_slowdown = m.bounded_slowdown,
                           .boot_wait_s = (double)(js->start_ns - js->alloc_ns) * 1e-9,
                           .trace_job = s->jobs[k].trace_job,
                           .procs = s->jobs[k].trace_procs,
                           .cost_usd = NAN,
                           .kind = "job",
                           .time_band_low_s = NAN,
                           .time_band_high_s = NAN,
                           .energy_band_low_j = NAN,
                           .energy_band_high_j = NAN };
  if (!o) return;
  if (o->cost) { /* dcsim/cost.h: the cost of what the job held, or why it is unknown */
    dcsim_cost c;
    dcsim_cost_of_job(s, st, k, o->cost, &c);
    if (o->note) { /* the CSV's */
      dcsim_cost_reason(&c, o->note, o->note_size);
      row->cost_note = o->note;
    }
    if (c.known) row->cost_usd = c.usd;
  }
  if (o->band_t && o->band_e) { /* the bands as factors of the time and the energy */
    double t = row->time_to_solution_s, e = js->energy_j;
    row->time_band_low_s = t * o->band_t[0], row->time_band_high_s = t * o->band_t[1];
    row->energy_band_low_j = e * o->band_e[0], row->energy_band_high_j = e * o->band_e[1];
    /* energy = tasks + held idle, as printed (numfmt.h) */
    const double eband[2] = { row->energy_band_low_j, row->energy_band_high_j },
                 parts[] = { row->task_energy_j, row->held_idle_j };
    row->shown_j[0] = dcsim_round_sum(e, dcsim_band_digits(e, eband), parts, 2, row->shown_j + 1,
                                      &row->shown_place);
  }
}

/* ---- a node group's record: `dcsim run`'s JSON "groups" and the text table of node groups */

/* the group's energy: at the run's energy's place when the groups' parts were rounded to it
 * (numfmt.h dcsim_round_sum), else with the digits its band supports */
static const char *cell_group_energy(const void *row, char *buf, size_t size) {
  const dcsim__group_row *r = row;
  const double band[2] = { r->energy_band_low_j, r->energy_band_high_j };
  return r->shown ? dcsim_fmt_place(buf, size, r->shown_j, r->shown_place, NULL)
                  : dcsim_fmt_value(buf, size, r->energy_j, band, NULL);
}

/* A line: member, kind, unit, NULL rule, the outputs, the text column's header, width (negative:
 * left-aligned), format and cell getter; in the JSON's order. No SQL, no CSV (the run's CSV has
 * no group lines). */
/* clang-format off */
#define GROUP_FIELD(m, kind, unit, nulls, out, hdr, w, fmt, cell) \
  DCSIM__RECORD_FIELD_OUT(dcsim__group_row, m, kind, unit, "", nulls, "0.1.0", out, hdr, w, fmt, cell)
static const dcsim__record_field group_fields[] = {
  GROUP_FIELD(name,              TEXT,  "",  NEVER, JSON | TEXT,         "node group",    -12, PLAIN,   NULL),
  GROUP_FIELD(nodes,             INT64, "",  NEVER, JSON | TEXT,         "nodes",         6,   PLAIN,   NULL),
  GROUP_FIELD(cpu,               TEXT,  "",  NEVER, JSON,                NULL,            0,   PLAIN,   NULL),
  /* (the CPU's rates_basis and rates_levels, written by hand) */
  GROUP_FIELD(turbo_unmeasured,  BOOL,  "",  ZERO,  DCSIM__RO_JSON_OPT,  NULL,            0,   PLAIN,   NULL),
  GROUP_FIELD(gpu,               TEXT,  "",  NEVER, DCSIM__RO_JSON_OPT,  NULL,            0,   PLAIN,   NULL),
  GROUP_FIELD(host_cpu,          TEXT,  "",  NEVER, DCSIM__RO_JSON_OPT,  NULL,            0,   PLAIN,   NULL),
  GROUP_FIELD(energy_j,          REAL,  "J", NEVER, JSON | TEXT,         "energy [J]",    14,  PLAIN,   cell_group_energy),
  GROUP_FIELD(busy_node_s,       REAL,  "s", NEVER, JSON | TEXT,         "busy [node-s]", 14,  SIG,     NULL),
  GROUP_FIELD(utilisation,       REAL,  "",  NEVER, JSON | TEXT,         "utilisation",   12,  PERCENT, NULL),
  GROUP_FIELD(allocated,         REAL,  "",  NEVER, JSON | TEXT,         "held",          12,  PERCENT, NULL),
  GROUP_FIELD(mean_node_power_w, REAL,  "W", NEVER, JSON | TEXT,         "mean [W/node]", 14,  SIG,     NULL),
};
/* clang-format on */
const dcsim__record dcsim__group_record = { "", group_fields,
                                            sizeof group_fields / sizeof *group_fields };

void dcsim__group_row_of(const dcsim_scenario *s, const dcsim_run_stats *st, size_t g,
                         const double *band_e, dcsim__group_row *row) {
  const dcsim_group_rt *gr = &s->groups[g];
  const dcsim_group_stats *gs = &st->groups[g];
  double mk = (double)st->makespan_ns * 1e-9, node_s = mk * gr->g->count; /* node-seconds */
  *row = (dcsim__group_row){
    .name = gr->g->name,
    .nodes = gr->g->count,
    .cpu = dcsim_cpu_profile_name(gr->cpu),
    .turbo_unmeasured = (dcsim_scenario_group_runs_cpu(s, g) & DCSIM_GROUP_TURBO_UNMEASURED) != 0,
    .gpu = gr->gpu ? dcsim_gpu_profile_name(gr->gpu) : NULL,
    .host_cpu = gr->gpu ? dcsim_cpu_profile_name(gr->cpu) : NULL,
    .energy_j = gs->energy_j,
    .busy_node_s = gs->busy_node_s,
    /* fractions of the group's node-seconds over the makespan (0 for an empty run) */
    .utilisation = mk > 0 ? gs->busy_node_s / node_s : 0,
    .allocated = mk > 0 ? gs->alloc_node_s / node_s : 0,
    .mean_node_power_w = mk > 0 ? gs->energy_j / node_s : 0,
    .energy_band_low_j = band_e ? gs->energy_j * band_e[0] : NAN,
    .energy_band_high_j = band_e ? gs->energy_j * band_e[1] : NAN,
  };
}
