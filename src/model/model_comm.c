/* model_comm.c — Hockney costs of communication patterns, overlap, balance point
 * (see dcsim/model_comm.h). */
#include "dcsim/model_comm.h"

#include <math.h>

double dcsim_comm_pattern_time(const dcsim_comm_pattern *p, unsigned nodes,
                               const dcsim_network *net) {
  if (nodes < 2) return 0; /* D3.5 §4.3: no communication on one node */
  const double a = net->latency_s, b = net->s_per_byte, P = nodes;
  double t = 0;
  switch (p->kind) {
    case DCSIM_COMM_EXCHANGE:
      t = p->messages * a + p->byte * b;
      break; /* D3.5 §4.3 (+ Hockney latency) */
    case DCSIM_COMM_HALO: t = p->messages * (a + p->byte * b); break; /* Hockney point-to-point */
    case DCSIM_COMM_ALLTOALL:
      t = (P - 1) * (a + b * p->byte / P);
      break; /* pairwise exchange (Thakur et al. 2005) */
    case DCSIM_COMM_ALLREDUCE:
      t = ceil(log2(P)) * (a + p->byte * b);
      break; /* recursive doubling (Thakur et al. 2005) */
  }
  return t * p->iterations;
}

int dcsim_comm_time(const dcsim_dwarf_eval *ev, unsigned nodes, const dcsim_network *net,
                    double *comm_s, dcsim_error *err) {
  *comm_s = 0;
  if (!(net->latency_s >= 0) || !(net->s_per_byte >= 0) || !isfinite(net->latency_s) ||
      !isfinite(net->s_per_byte))
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0,
                     "network latency and time per byte must be finite and >= 0");
  if (nodes < 2 || !ev->has_comm) return 0;
  dcsim_comm_pattern p[DCSIM_COMM_MAX_PATTERNS];
  size_t n = 0;
  int rc = dcsim_dwarf_comm(ev, nodes, p, &n, err);
  if (rc) return rc;
  for (size_t i = 0; i < n; i++)
    *comm_s += dcsim_comm_pattern_time(&p[i], nodes, net); /* T_comm = sum of patterns */
  return 0;
}

double dcsim_comm_compose(double comp_s, double comm_s, double overlap) {
  double hidden =
      fmin(overlap * comm_s, comp_s); /* computation hides at most f*T_comm and itself */
  return comp_s + comm_s - hidden;    /* f = 0: D3.5 §4.3 sum; f = 1: max(T_comp, T_comm) */
}

int dcsim_balance_point(const unsigned *nodes, const double *time_s, const double *energy_j,
                        size_t n, dcsim_balance *out, dcsim_error *err) {
  if (n == 0) return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "balance point of an empty scan");
  for (size_t i = 0; i < n; i++) {
    if (i && nodes[i] <= nodes[i - 1])
      return DCSIM_ERR(err, DCSIM_ERANGE, "", 0,
                       "node counts of a scan must increase (%u after %u)", nodes[i], nodes[i - 1]);
    if (!(time_s[i] >= 0) || !isfinite(time_s[i]) ||
        (energy_j && (!(energy_j[i] >= 0) || !isfinite(energy_j[i]))))
      return DCSIM_ERR(err, DCSIM_ERANGE, "", 0,
                       "time or energy of %u nodes is not a finite, non-negative number", nodes[i]);
  }
  dcsim_balance b = { n - 1, 0, 0, 0 };
  for (size_t i = 1; i < n; i++) {
    if (time_s[i] < time_s[b.time_min]) b.time_min = i;
    if (energy_j && energy_j[i] < energy_j[b.energy_min]) b.energy_min = i;
  }
  /* D3.5 §6.1.2, §7: beyond the fastest node count more nodes are no faster (and cost energy);
   * a dip on the way (e.g. 1 -> 2 nodes, when communication first appears) is not the balance */
  b.balance = b.time_min;
  b.reached = b.time_min + 1 < n;
  *out = b;
  return 0;
}
