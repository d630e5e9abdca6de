/* model_records.c — the records of `dcsim model`'s outputs (output/model_records.h): one field
 * table per record and the functions that fill its rows. */
#include "output/model_records.h"

#include <math.h>
#include <stddef.h>

#include "dcsim/numfmt.h"
#include "dcsim/strutil.h"

enum {
  JSON = DCSIM__RO_JSON,
  OPT = DCSIM__RO_JSON_OPT, /* a JSON key only when the field holds a value */
  CSV = DCSIM__RO_CSV,
  TEXT = DCSIM__RO_TEXT
};

/* A line of a prediction: member, kind, unit, NULL rule, outputs (JSON: null without a value;
 * OPT: no key). The hand-written nested objects of the JSON (the model's mode, the provenance,
 * the rates, the thread scaling, the parts) go between fields named in model_report.c. */
/* clang-format off */
#define PRED(m, kind, unit, nulls, out) \
  DCSIM__RECORD_FIELD_OUT(dcsim__prediction_row, m, kind, unit, "", nulls, "0.1.0", out, NULL, 0, PLAIN, NULL)
static const dcsim__record_field prediction_fields[] = {
  PRED(device,             TEXT,  "",  NEVER, JSON),
  PRED(time_s,             REAL,  "s", NEVER, JSON),
  PRED(energy_j,           REAL,  "J", UNDEF, JSON),
  /* the model's mode */
  PRED(weights,            TEXT,  "",  NEVER, OPT),
  PRED(energy_covers,      TEXT,  "",  NEVER, JSON),
  /* the provenance */
  PRED(energy_unavailable, TEXT,  "",  NEVER, OPT),
  PRED(time_band,          PAIR,  "s", NEVER, JSON),
  PRED(energy_band,        PAIR,  "J", UNDEF, JSON),
};
static const dcsim__record_field prediction_cpu_fields[] = {
  PRED(gpu,                        TEXT,  "",  NEVER, OPT),
  PRED(cpu,                        TEXT,  "",  NEVER, OPT),
  PRED(nodes,                      INT64, "",  ZERO,  OPT),
  PRED(cores,                      INT64, "",  ZERO,  OPT),
  PRED(freq,                       TEXT,  "",  NEVER, OPT),
  /* the per-core rates */
  PRED(pkg_j,                      REAL,  "J", UNDEF, OPT),
  PRED(dram_j,                     REAL,  "J", UNDEF, OPT),
  PRED(node_energy_j,              REAL,  "J", UNDEF, OPT),
  PRED(base_j,                     REAL,  "J", UNDEF, OPT),
  PRED(node_power_w,               REAL,  "W", UNDEF, OPT),
  PRED(node_idle_w,                REAL,  "W", UNDEF, OPT),
  PRED(comm_s,                     REAL,  "s", NEVER, JSON),
  /* the thread scaling */
  PRED(turbo_unmeasured_nominal_s, REAL,  "s", UNDEF, OPT),
};
static const dcsim__record_field prediction_gpu_fields[] = {
  PRED(gpu,                     TEXT,  "",     NEVER, JSON),
  PRED(host_cpu,                TEXT,  "",     NEVER, JSON),
  PRED(domain_size,             REAL,  "",     NEVER, JSON),
  PRED(invocations_per_call,    INT64, "",     NEVER, JSON),
  PRED(gpu_j,                   REAL,  "J",    UNDEF, OPT),
  PRED(host_pkg_j,              REAL,  "J",    UNDEF, OPT),
  PRED(gpu_fraction,            REAL,  "",     UNDEF, OPT),
  PRED(dram_j,                  REAL,  "J",    UNDEF, OPT),
  PRED(base_j,                  REAL,  "J",    UNDEF, OPT),
  PRED(node_power_w,            REAL,  "W",    UNDEF, OPT),
  PRED(node_idle_w,             REAL,  "W",    UNDEF, OPT),
  PRED(compute_s,               REAL,  "s",    NEVER, JSON),
  PRED(transfer_s,              REAL,  "s",    NEVER, JSON),
  PRED(inactive_s,              REAL,  "s",    NEVER, JSON),
  PRED(small_domain_overhead_s, REAL,  "s",    UNDEF, OPT),
  PRED(launch_occupancy_s,      REAL,  "s",    UNDEF, OPT),
  PRED(gpus,                    INT64, "",     ZERO,  OPT),
  PRED(min_gpus,                INT64, "",     ZERO,  OPT),
  PRED(domain_per_gpu,          REAL,  "",     UNDEF, OPT),
  PRED(memory_per_gpu_byte,     REAL,  "byte", UNDEF, OPT),
  PRED(kernel_s,                REAL,  "s",    UNDEF, OPT),
  PRED(host_transfer_s,         REAL,  "s",    UNDEF, OPT),
  PRED(halo_s,                  REAL,  "s",    UNDEF, OPT),
};
/* clang-format on */
const dcsim__record dcsim__prediction_record = {
  "", prediction_fields, sizeof prediction_fields / sizeof *prediction_fields
};
const dcsim__record dcsim__prediction_cpu_record = {
  "", prediction_cpu_fields, sizeof prediction_cpu_fields / sizeof *prediction_cpu_fields
};
const dcsim__record dcsim__prediction_gpu_record = {
  "", prediction_gpu_fields, sizeof prediction_gpu_fields / sizeof *prediction_gpu_fields
};

void dcsim__prediction_row_init(dcsim__prediction_row *row) {
  *row = (dcsim__prediction_row){ .time_s = NAN,
                                  .energy_j = NAN,
                                  .time_band = { NAN, NAN },
                                  .energy_band = { NAN, NAN },
                                  .pkg_j = NAN,
                                  .dram_j = NAN,
                                  .node_energy_j = NAN,
                                  .base_j = NAN,
                                  .node_power_w = NAN,
                                  .node_idle_w = NAN,
                                  .comm_s = NAN,
                                  .turbo_unmeasured_nominal_s = NAN,
                                  .domain_size = NAN,
                                  .gpu_j = NAN,
                                  .host_pkg_j = NAN,
                                  .gpu_fraction = NAN,
                                  .compute_s = NAN,
                                  .transfer_s = NAN,
                                  .inactive_s = NAN,
                                  .small_domain_overhead_s = NAN,
                                  .launch_occupancy_s = NAN,
                                  .domain_per_gpu = NAN,
                                  .memory_per_gpu_byte = NAN,
                                  .kernel_s = NAN,
                                  .host_transfer_s = NAN,
                                  .halo_s = NAN };
}

/* What limits a loop: a loop with no work and no traffic (W = Q = 0) is empty, not bound. */
static const char *bound_name(const dcsim_loop_part *lp) {
  if (lp->work_flop == 0 && lp->traffic_byte == 0) return "empty";
  return lp->compute_bound ? "compute" : "memory";
}

/* A line of a part: member, kind, unit, NULL rule, outputs, text header, width, format, getter.
 * The CSV's and the JSON's order is the table's: kind, name, time, a loop's, a kernel's, the
 * total's. */
/* clang-format off */
#define PART(m, kind, unit, nulls, out) \
  DCSIM__RECORD_FIELD_OUT(dcsim__model_part_row, m, kind, unit, "", nulls, "0.1.0", out, NULL, 0, PLAIN, NULL)
#define PART_END(name, m, i, unit) \
  DCSIM__RECORD_ELEM(dcsim__model_part_row, name, m, i, REAL, unit, "", UNDEF, "0.1.0", CSV, NULL, 0, PLAIN, NULL)
static const dcsim__record_field part_fields[] = {
  PART(kind,         TEXT, "",     NEVER, CSV),
  PART(name,         TEXT, "",     NEVER, JSON | CSV),
  PART(time_s,       REAL, "s",    NEVER, JSON | CSV),
  PART(work_flop,    REAL, "flop", UNDEF, OPT | CSV),
  PART(traffic_byte, REAL, "byte", UNDEF, OPT | CSV),
  PART(flop_time_s,  REAL, "s",    UNDEF, OPT | CSV),
  PART(mem_time_s,   REAL, "s",    UNDEF, OPT | CSV),
  PART(bound,        TEXT, "",     NEVER, OPT | CSV),
  PART(level,        TEXT, "",     NEVER, OPT),
  PART(compute_s,    REAL, "s",    UNDEF, OPT | CSV),
  PART(transfer_s,   REAL, "s",    UNDEF, OPT | CSV),
  PART(inactive_s,   REAL, "s",    UNDEF, OPT | CSV),
  PART(G_e_used,     REAL, "",     UNDEF, OPT),
  PART(energy_j,     REAL, "J",    UNDEF, CSV),
  PART_END("time_band_low_s",    time_band,   0, "s"),
  PART_END("time_band_high_s",   time_band,   1, "s"),
  PART_END("energy_band_low_j",  energy_band, 0, "J"),
  PART_END("energy_band_high_j", energy_band, 1, "J"),
};
/* clang-format on */
const dcsim__record dcsim__model_part_record = { "", part_fields,
                                                 sizeof part_fields / sizeof *part_fields };

/* a loop's bound and, when it has one, the cache level it runs from: "memory L2" */
static const char *cell_bound(const void *row, char *buf, size_t size) {
  const dcsim__model_part_row *r = row;
  if (!r->bound) return "";
  if (!r->level) return r->bound;
  /* a bound and a level name ("memory L2") fit a text cell (64 bytes, util/record.h) */
  return dcsim_bufprintf(buf, size, "%s %s", r->bound, r->level) ? "[bound: cut]" : buf;
}

/* clang-format off */
#define PART_TEXT(m, kind, hdr, w, fmt, cell) \
  DCSIM__RECORD_FIELD_OUT(dcsim__model_part_row, m, kind, "", "", UNDEF, "0.1.0", TEXT, hdr, w, fmt, cell)
static const dcsim__record_field loop_text_fields[] = {
  DCSIM__RECORD_FIELD_OUT(dcsim__model_part_row, name, TEXT, "", "", NEVER, "0.1.0", TEXT, "loop (per node)", -36, PLAIN, NULL),
  PART_TEXT(work_flop,    REAL, "W [flop]",    14, SIG, NULL),
  PART_TEXT(traffic_byte, REAL, "Q [byte]",    14, SIG, NULL),
  PART_TEXT(flop_time_s,  REAL, "W*Tflop [s]", 12, SIG, NULL),
  PART_TEXT(mem_time_s,   REAL, "Q*Tmop [s]",  12, SIG, NULL),
  PART_TEXT(time_s,       REAL, "T [s]",       12, SIG, NULL),
  DCSIM__RECORD_FIELD_OUT(dcsim__model_part_row, bound, TEXT, "", "", NEVER, "0.1.0", TEXT, "bound", 0, PLAIN, cell_bound),
};
static const dcsim__record_field kernel_text_fields[] = {
  DCSIM__RECORD_FIELD_OUT(dcsim__model_part_row, name, TEXT, "", "", NEVER, "0.1.0", TEXT, "kernel", -28, PLAIN, NULL),
  PART_TEXT(compute_s,  REAL, "compute [s]",  12, SIG, NULL),
  PART_TEXT(transfer_s, REAL, "transfer [s]", 12, SIG, NULL),
  PART_TEXT(inactive_s, REAL, "inactive [s]", 12, SIG, NULL),
  PART_TEXT(time_s,     REAL, "total [s]",    12, SIG, NULL),
  DCSIM__RECORD_FIELD_OUT(dcsim__model_part_row, note, TEXT, "", "", NEVER, "0.1.0", TEXT, NULL, 0, NOTE, NULL),
};
/* clang-format on */
const dcsim__record dcsim__loop_text_record = {
  "", loop_text_fields, sizeof loop_text_fields / sizeof *loop_text_fields
};
const dcsim__record dcsim__kernel_text_record = {
  "", kernel_text_fields, sizeof kernel_text_fields / sizeof *kernel_text_fields
};

void dcsim__model_part_term(const char *kind, const char *name, double time_s,
                            dcsim__model_part_row *row) {
  *row = (dcsim__model_part_row){ .kind = kind,
                                  .name = name,
                                  .time_s = time_s,
                                  .work_flop = NAN,
                                  .traffic_byte = NAN,
                                  .flop_time_s = NAN,
                                  .mem_time_s = NAN,
                                  .compute_s = NAN,
                                  .transfer_s = NAN,
                                  .inactive_s = NAN,
                                  .G_e_used = NAN,
                                  .energy_j = NAN,
                                  .time_band = { NAN, NAN },
                                  .energy_band = { NAN, NAN } };
}

void dcsim__model_loop_row(const dcsim_loop_part *lp, dcsim__model_part_row *row) {
  dcsim__model_part_term("loop", lp->name, lp->time_s, row);
  row->work_flop = lp->work_flop;
  row->traffic_byte = lp->traffic_byte;
  row->flop_time_s = lp->flop_time_s;
  row->mem_time_s = lp->mem_time_s;
  row->bound = bound_name(lp);
  row->level = lp->level;
}

void dcsim__model_kernel_row(const dcsim_kernel_part *kp, dcsim__model_part_row *row) {
  dcsim__model_part_term("kernel", kp->name, kp->time_s, row);
  row->compute_s = kp->compute_s;
  row->transfer_s = kp->transfer_s;
  row->inactive_s = kp->inactive_s;
  row->G_e_used = kp->G_e_used;
}

/* The scan's time printed with its two parts, compute and communication (time = compute + comm,
 * no overlap, adds up as printed: dcsim_fmt_band_sum); which: 0 the time, 1 compute, 2 comm. */
static const char *scan_sum(const dcsim__scan_row *r, char *buf, size_t size, int which) {
  dcsim_num_text pt[2];
  const double parts[] = { r->compute_s, r->comm_s };
  dcsim_fmt_band_sum(buf, size, r->time_s, r->time_band, NULL, parts, 2, (char *)(void *)pt,
                     sizeof *pt);
  /* a part (under 64 bytes) fits a text cell (64 bytes, util/record.h) whole */
  if (which && dcsim_bufprintf(buf, size, "%s", pt[which - 1].s)) return "[cell: cut]";
  return buf;
}
static const char *cell_scan_time(const void *row, char *buf, size_t size) {
  return scan_sum(row, buf, size, 0);
}
static const char *cell_scan_compute(const void *row, char *buf, size_t size) {
  return scan_sum(row, buf, size, 1);
}
static const char *cell_scan_comm(const void *row, char *buf, size_t size) {
  return scan_sum(row, buf, size, 2);
}
/* the energy with its band, "-" without energies */
static const char *cell_scan_energy(const void *row, char *buf, size_t size) {
  const dcsim__scan_row *r = row;
  if (isnan(r->energy_j)) return "-";
  return dcsim_fmt_band(buf, size, r->energy_j, r->energy_band, NULL);
}

/* A line of a node count: member, kind, unit, NULL rule, outputs, text header, width, getter.
 * The JSON's order is the table's, then the CSV's own columns. */
/* clang-format off */
#define SCAN(m, kind, unit, nulls, out, hdr, w, fmt, cell) \
  DCSIM__RECORD_FIELD_OUT(dcsim__scan_row, m, kind, unit, "", nulls, "0.1.0", out, hdr, w, fmt, cell)
#define SCAN_END(name, m, i, unit, nulls) \
  DCSIM__RECORD_ELEM(dcsim__scan_row, name, m, i, REAL, unit, "", nulls, "0.1.0", CSV, NULL, 0, PLAIN, NULL)
static const dcsim__record_field scan_fields[] = {
  SCAN(nodes,                      INT64, "",  NEVER, JSON | CSV | TEXT, "nodes",             8,  PLAIN, NULL),
  SCAN(time_s,                     REAL,  "s", NEVER, JSON | CSV | TEXT, "time [s] [band]",   24, PLAIN, cell_scan_time),
  SCAN(compute_s,                  REAL,  "s", NEVER, JSON | CSV | TEXT, "compute [s]",       14, PLAIN, cell_scan_compute),
  SCAN(comm_s,                     REAL,  "s", NEVER, JSON | CSV | TEXT, "comm [s]",          14, PLAIN, cell_scan_comm),
  SCAN(energy_j,                   REAL,  "J", UNDEF, JSON | CSV | TEXT, "energy [J] [band]", 28, PLAIN, cell_scan_energy),
  SCAN(time_band,                  PAIR,  "s", NEVER, JSON,              NULL,                0,  PLAIN, NULL),
  SCAN(energy_band,                PAIR,  "J", UNDEF, JSON,              NULL,                0,  PLAIN, NULL),
  SCAN(turbo_unmeasured_nominal_s, REAL,  "s", UNDEF, OPT,               NULL,                0,  PLAIN, NULL),
  SCAN(balance_point,              BOOL,  "",  NEVER, CSV,               NULL,                0,  PLAIN, NULL),
  SCAN(least_energy,               BOOL,  "",  NEVER, CSV,               NULL,                0,  PLAIN, NULL),
  SCAN_END("time_band_low_s",    time_band,   0, "s", NEVER),
  SCAN_END("time_band_high_s",   time_band,   1, "s", NEVER),
  SCAN_END("energy_band_low_j",  energy_band, 0, "J", UNDEF),
  SCAN_END("energy_band_high_j", energy_band, 1, "J", UNDEF),
  SCAN(note,                       TEXT,  "",  NEVER, TEXT,              NULL,                0,  NOTE,  NULL),
};
/* clang-format on */
const dcsim__record dcsim__scan_record = { "", scan_fields,
                                           sizeof scan_fields / sizeof *scan_fields };

void dcsim__scan_row_of(const dcsim_node_scan *S, size_t i, dcsim__scan_row *row) {
  const dcsim_model_bands *mb = &S->band[i];
  int balance = S->b.reached && i == S->b.balance, least = S->has_e && i == S->b.energy_min;
  *row = (dcsim__scan_row){
    .nodes = S->nodes[i],
    .time_s = S->t[i],
    .compute_s = S->comp[i],
    .comm_s = S->comm[i],
    .energy_j = S->has_e ? S->e[i] : NAN,
    .time_band = { mb->time[0], mb->time[1] },
    .energy_band = { S->has_e ? mb->energy[0] : NAN, S->has_e ? mb->energy[1] : NAN },
    .turbo_unmeasured_nominal_s = S->nominal_s[i] > 0 ? S->nominal_s[i] : NAN,
    .balance_point = balance,
    .least_energy = least,
    .note = balance && least ? "  <- balance point: more nodes are not faster  <- least energy"
            : balance        ? "  <- balance point: more nodes are not faster"
            : least          ? "  <- least energy"
                             : NULL
  };
}

/* clang-format off */
#define SUM(m, kind, unit, nulls) \
  DCSIM__RECORD_FIELD_OUT(dcsim__scan_summary_row, m, kind, unit, "", nulls, "0.1.0", JSON, NULL, 0, PLAIN, NULL)
static const dcsim__record_field scan_summary_fields[] = {
  SUM(cpu,              TEXT,  "",       NEVER),
  SUM(cores,            INT64, "",       NEVER),
  SUM(freq,             TEXT,  "",       NEVER),
  /* the per-core rates */
  SUM(net_s_per_byte,   REAL,  "s/byte", NEVER),
  SUM(net_latency_s,    REAL,  "s",      NEVER),
  SUM(overlap,          REAL,  "",       NEVER),
  /* the model's mode, the provenance, the node counts */
  SUM(balance_nodes,    INT64, "",       NEVER),
  SUM(balance_reached,  BOOL,  "",       NEVER),
  SUM(time_min_nodes,   INT64, "",       NEVER),
  SUM(energy_min_nodes, INT64, "",       ZERO),
};
/* clang-format on */
const dcsim__record dcsim__scan_summary_record = {
  "", scan_summary_fields, sizeof scan_summary_fields / sizeof *scan_summary_fields
};

/* clang-format off */
#define ENERGY(m, kind, unit, nulls, out) \
  DCSIM__RECORD_FIELD_OUT(dcsim__energy_row, m, kind, unit, "", nulls, "0.1.0", out, NULL, 0, PLAIN, NULL)
static const dcsim__record_field energy_fields[] = {
  ENERGY(pkg_j,         REAL,  "J", NEVER, JSON | CSV),
  ENERGY(dram_j,        REAL,  "J", NEVER, JSON | CSV),
  ENERGY(base_j,        REAL,  "J", UNDEF, OPT),
  ENERGY(node_power_w,  REAL,  "W", UNDEF, OPT),
  ENERGY(energy_j,      REAL,  "J", NEVER, JSON | CSV),
  ENERGY(time_s,        REAL,  "s", NEVER, JSON | CSV),
  ENERGY(nodes,         INT64, "",  NEVER, JSON | CSV),
  ENERGY(cores,         INT64, "",  NEVER, JSON | CSV),
  ENERGY(base_j,        REAL,  "J", UNDEF, CSV),
  ENERGY(node_power_w,  REAL,  "W", UNDEF, CSV),
  ENERGY(model,         TEXT,  "",  NEVER, JSON | CSV),
  ENERGY(energy_covers, TEXT,  "",  NEVER, JSON),
  /* the JSON's provenance object */
  ENERGY(provenance,    TEXT,  "",  NEVER, CSV),
  ENERGY(source,        TEXT,  "",  NEVER, CSV),
};
/* clang-format on */
const dcsim__record dcsim__energy_record = { "", energy_fields,
                                             sizeof energy_fields / sizeof *energy_fields };
