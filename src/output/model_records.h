/* output/model_records.h — the records of `dcsim model`'s outputs (util/record.h; doc/design.md
 * "Result records"): a prediction's values (the JSON's top-level keys), a part of it (a loop, a
 * kernel, an extra term or the total: the JSON "parts", the CSV's lines, the text tables) and a
 * node count of a node scan (the JSON "scan", the CSV's lines, the text table). Each is a plain row
 * struct and one field table (output/model_records.c); model_report.c fills rows and writes them
 * through util/record's generic writers. No SQLite table: the records have no SQL fields. Static
 * data. */
#ifndef DCSIM_OUTPUT_MODEL_RECORDS_H
#define DCSIM_OUTPUT_MODEL_RECORDS_H

#include "dcsim/model.h"
#include "dcsim/model_report.h"
#include "util/record.h"

/* A prediction's values: the JSON's top-level keys after the dwarf and its case. NaN (NULL, 0
 * for a count): no value, the key left out, or null where the table says JSON rather than OPT.
 * The CPU's and the GPU's keys are two records of the same row (their orders differ); a CPU
 * model of irregular loops on a GPU names the GPU and no CPU. */
typedef struct dcsim__prediction_row {
  const char *device;
  double time_s, energy_j;
  const char *weights, *energy_covers, *energy_unavailable;
  double time_band[2], energy_band[2];
  const char *gpu, *cpu;
  long long nodes, cores;
  const char *freq;
  double pkg_j, dram_j, node_energy_j, base_j, node_power_w, node_idle_w, comm_s;
  double turbo_unmeasured_nominal_s;
  const char *host_cpu;
  double domain_size;
  long long invocations_per_call;
  double gpu_j, host_pkg_j, gpu_fraction, compute_s, transfer_s, inactive_s;
  double small_domain_overhead_s, launch_occupancy_s;
  long long gpus, min_gpus;
  double domain_per_gpu, memory_per_gpu_byte, kernel_s, host_transfer_s, halo_s;
} dcsim__prediction_row;

/* the keys of every prediction, of a CPU model's, of a GPU model's (in the JSON's order) */
extern const dcsim__record dcsim__prediction_record;
extern const dcsim__record dcsim__prediction_cpu_record;
extern const dcsim__record dcsim__prediction_gpu_record;
/* a row with no values (NaN, NULL, 0) */
void dcsim__prediction_row_init(dcsim__prediction_row *row);

/* A part of a prediction: a loop (CPU), a kernel (GPU), an extra term (communication, overhead,
 * transfer, halo) or the total. NaN (NULL): the value does not apply to this part (an empty CSV
 * cell, no JSON key, an empty text cell). */
typedef struct dcsim__model_part_row {
  const char *kind, *name; /* "loop", "kernel", "communication", ..., "total" */
  double time_s, work_flop, traffic_byte, flop_time_s, mem_time_s;
  const char *bound, *level; /* a loop's: what limits it, the cache level it runs from */
  double compute_s, transfer_s, inactive_s, G_e_used; /* a kernel's */
  double energy_j, time_band[2], energy_band[2];      /* the total's */
  const char *note; /* the text table's remark after the row (an overhead's occupancy) */
} dcsim__model_part_row;

/* JSON "parts" objects and the CSV's lines */
extern const dcsim__record dcsim__model_part_record;
/* the text tables of a CPU's loops and of a GPU's kernels (the same rows, their own columns) */
extern const dcsim__record dcsim__loop_text_record;
extern const dcsim__record dcsim__kernel_text_record;

/* a row of nothing but kind, name and time (every other value NaN or NULL) */
void dcsim__model_part_term(const char *kind, const char *name, double time_s,
                            dcsim__model_part_row *row);
void dcsim__model_loop_row(const dcsim_loop_part *lp, dcsim__model_part_row *row);
void dcsim__model_kernel_row(const dcsim_kernel_part *kp, dcsim__model_part_row *row);

/* A node count of a node scan (dcsim_node_scan): energy and its band NaN without energies, the
 * nominal-clock time NaN unless the turbo clock is unmeasured there. */
typedef struct dcsim__scan_row {
  long long nodes;
  double time_s, compute_s, comm_s, energy_j, time_band[2], energy_band[2];
  double turbo_unmeasured_nominal_s;
  int balance_point, least_energy;
  const char *note; /* the text table's remark: "  <- least energy" */
} dcsim__scan_row;

extern const dcsim__record dcsim__scan_record;
void dcsim__scan_row_of(const dcsim_node_scan *S, size_t i, dcsim__scan_row *row);

/* A node scan's own values: the JSON's top-level keys after the dwarf and its case (the CPU, the
 * network, and, after the node counts, where the scan balances and its least time and energy:
 * energy_min_nodes 0, null, without energies). */
typedef struct dcsim__scan_summary_row {
  const char *cpu;
  long long cores;
  const char *freq;
  double net_s_per_byte, net_latency_s, overlap;
  long long balance_nodes;
  int balance_reached;
  long long time_min_nodes, energy_min_nodes;
} dcsim__scan_summary_row;

extern const dcsim__record dcsim__scan_summary_record;

/* What `dcsim energy` prints (dcsim_energy_report): base_j and node_power_w NaN under --d35
 * (no node base power). The JSON's and the CSV's orders differ: the two are fields of their own
 * (the same member) at their places. */
typedef struct dcsim__energy_row {
  double pkg_j, dram_j, base_j, node_power_w, energy_j, time_s;
  long long nodes, cores;
  const char *model, *energy_covers;
  const char *provenance, *source; /* the CSV's: the provenance's kind and source */
} dcsim__energy_row;

extern const dcsim__record dcsim__energy_record;

#endif
