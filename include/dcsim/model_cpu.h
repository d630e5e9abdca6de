/* dcsim/model_cpu.h — the CPU per-loop roofline model and its multinode form (D3.5 §4.3).
 *
 *   Tflop = 1/(P(f,n)*U + S)                         (§4.3, §6.1.2)
 *   Tmop  = 1/(L1*V + L2*X + L3*Y + DRAM*Z)          (§4.3)
 *   T_loop = max(W*Tflop, Q*Tmop);  T_i = sum of loops + T_comm_i;  T = max_i T_i
 *   node i gets share_i of W and Q (1/n for the paper's equal split)
 *   T_comm_i = T_single*(Q_in + Q_out)*iters when the dwarf declares communication: more generally
 *   the patterns of dcsim/model_comm.h on this network (latency 0 here) with the dwarf's overlap.
 *   P, L1..DRAM at the node's state come from dcsim/cpu_rates.h (tables, the model beneath them).
 *   The dwarf's L3 and DRAM weights move with its working set on a CPU whose L3 holds more or
 *   less of it than the CPU they were measured on (dcsim/cache_rule.h; not with table_only).
 *   A loop with <irregular> accesses replaces Q*Tmop by the slowest level of the cache-line
 *   over-fetch model (dcsim/model_irregular.h, finite-volume paper Eq. 4-6).
 *
 * Ownership: dcsim_model_cpu() returns a result freed with dcsim_cpu_result_free(); part names
 * are borrowed from the dwarf. */
#ifndef DCSIM_MODEL_CPU_H
#define DCSIM_MODEL_CPU_H

#include <stddef.h>

#include "dcsim/cpu_rates.h"
#include "dcsim/dwarf.h"
#include "dcsim/hwprofile.h"

typedef struct dcsim_cpu_node_spec {
  const dcsim_cpu_profile_t *cpu;
  dcsim_cpu_state state;
  double share;   /* fraction of the dwarf's W and Q processed by this node */
  int table_only; /* 1: D3.5's table-only rates (`--d35`); 0: tables and the parametric model
                     beneath them (dcsim/cpu_rates.h) */
} dcsim_cpu_node_spec;

typedef struct dcsim_loop_part {
  const char *name;
  double work_flop, traffic_byte; /* per node */
  double dram_byte; /* the part of traffic_byte that DRAM serves: its share Z*DRAM of the loop's
                       bandwidth L1*V + L2*X + L3*Y + DRAM*Z (§4.3); irregular loops: the DRAM
                       level's traffic of the cache-line model. For the default power model */
  double flop_time_s, mem_time_s; /* W*Tflop, Q*Tmop */
  double time_s;                  /* max of the two */
  int compute_bound;
  const char *level; /* <irregular> loops: the bottleneck cache level (traffic_byte and
                        mem_time_s are that level's, dcsim/model_irregular.h); else NULL */
} dcsim_loop_part;

typedef struct dcsim_cpu_result {
  size_t n_nodes, n_loops;
  dcsim_loop_part *parts; /* parts[node * n_loops + loop] */
  double *node_time_s;    /* per node, communication included */
  double *node_comm_s;
  double time_s;   /* slowest node */
  dcsim_prov prov; /* of the rates used: the weakest over the nodes (dcsim/provenance.h) */
  /* the cache rule (dcsim/cache_rule.h): why the level weights differ from the dwarf's, for the
   * first node whose weights moved ("level weights moved by the cache rule: working set ...") or
   * that the rule could not judge (a CPU without an L3 size); NULL when the rule left the dwarf's
   * weights as they are (or did not run: --d35, no <working-set>). Owned. */
  char *weights_note;
} dcsim_cpu_result;

/* net_s_per_byte: T_single of §4.3 (0 = perfect overlap, the assumption of D3.5 §4.3/§6). */
int dcsim_model_cpu(const dcsim_dwarf_eval *ev, const dcsim_cpu_node_spec *nodes, size_t n_nodes,
                    double net_s_per_byte, dcsim_cpu_result **out, dcsim_error *err);
void dcsim_cpu_result_free(dcsim_cpu_result *r);

#endif
