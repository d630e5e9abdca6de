/* dcsim/model_comm.h — communication between nodes beyond D3.5's perfect overlap, and the
 * balance point of a node scan (D3.5 §4.3, §6.1.2, §7).
 *
 * Network: Hockney's latency-bandwidth model, a message of m bytes costs alpha + m*beta
 * (alpha = latency-s of the platform's <network>, beta = 1/bw-bps). On P nodes, per iteration
 * and per node:
 *   exchange   messages*alpha + byte*beta          byte = Q_in + Q_out; with alpha = 0 this is
 *                                                  D3.5 §4.3's T_single*(Q_in + Q_out)
 *   halo       messages*(alpha + byte*beta)        point-to-point, `messages` neighbours
 *   alltoall   (P - 1)*(alpha + beta*byte/P)       pairwise-exchange personalised all-to-all of the
 *                                                  node's `byte` bytes (Thakur, Rabenseifner and
 *                                                  Gropp 2005, "Optimization of collective
 *                                                  communication operations in MPICH", §3.5)
 *   allreduce  ceil(log2 P)*(alpha + byte*beta)    recursive doubling (same paper, §4.3; the
 *                                                  reduction arithmetic is neglected)
 * each times the pattern's `iterations`; T_comm = the sum over patterns; 0 on one node.
 * Overlap (fraction f of the dwarf, 0..1): computation hides at most f*T_comm and at most all of
 * its own time, so a node takes
 *   T_i = T_comp + T_comm - min(f*T_comm, T_comp)
 * f = 0 is D3.5 §4.3's sum, f = 1 is max(T_comp, T_comm) (perfect overlap: communication costs
 * nothing while computation lasts, as D3.5 assumes in its projections).
 *
 * Balance point: over a scan of node counts, where adding nodes stops reducing the
 * time-to-solution (D3.5 §6.1.2: "adding more nodes result in longer time-to-solution and
 * energy-to-solution"), and where energy is least.
 *
 * Ownership: pure functions on caller-owned values; nothing is allocated. */
#ifndef DCSIM_MODEL_COMM_H
#define DCSIM_MODEL_COMM_H

#include <stddef.h>

#include "dcsim/dwarf.h"

typedef struct dcsim_network {
  double latency_s;  /* alpha */
  double s_per_byte; /* beta = 1/bandwidth (D3.5 §4.3's T_single); 0 = infinitely fast */
} dcsim_network;

/* Time of one pattern on `nodes` nodes (0 for one node). */
double dcsim_comm_pattern_time(const dcsim_comm_pattern *p, unsigned nodes,
                               const dcsim_network *net);

/* T_comm of a dwarf evaluation on `nodes` nodes: the sum over its patterns (dcsim_dwarf_comm). */
int dcsim_comm_time(const dcsim_dwarf_eval *ev, unsigned nodes, const dcsim_network *net,
                    double *comm_s, dcsim_error *err);

/* A node's time with overlap fraction f: T_comp + T_comm - min(f*T_comm, T_comp). */
double dcsim_comm_compose(double comp_s, double comm_s, double overlap);

typedef struct dcsim_balance {
  size_t balance;    /* index where adding nodes stops reducing time: the fastest node count
                        of the scan (the first one on ties); the last index if time falls to the end */
  int reached;       /* 1 if that happens inside the scan (balance < n - 1) */
  size_t time_min;   /* index of the least time (the first one on ties) */
  size_t energy_min; /* index of the least energy (0 without energies) */
} dcsim_balance;

/* nodes must be strictly increasing, times and energies (may be NULL) finite and >= 0. */
int dcsim_balance_point(const unsigned *nodes, const double *time_s, const double *energy_j,
                        size_t n, dcsim_balance *out, dcsim_error *err);

#endif
