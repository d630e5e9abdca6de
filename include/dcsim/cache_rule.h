/* dcsim/cache_rule.h — the level weights of a loop carried to another CPU by where its working set
 * is resident (doc/models.md, "Level weights on another CPU").
 *
 * D3.5 fitted each loop's weights V, X, Y, Z (L1, L2, L3, DRAM; §4.3) on one CPU, the dwarf's
 * <working-set weights-cpu>. On a node of another CPU the dwarf's working set per node ws lies in
 * the last-level caches of the sockets in use with the share
 *   h = min(1, C / ws),   C = l3-byte x sockets in use   (the capacity ratio of FV §9, Eq. 4-6,
 *                                                          used by dcsim/model_irregular.h too)
 * on the source CPU (h_s, at the same thread count, at most its own cores) and on the target (h_t).
 * Weight crosses the L3|DRAM boundary with the difference:
 *   h_t > h_s:  the share (h_t - h_s) / (1 - h_s) of Z moves to Y   (more of it fits: DRAM -> L3)
 *   h_t < h_s:  the share (h_s - h_t) / h_s of Y moves to Z          (less of it fits: L3 -> DRAM)
 * so that equal capacities (the source CPU itself) change nothing, bit for bit. V and X (the
 * private levels: the loop's reuse within its blocks, whose size the dwarfs do not give) stay.
 *
 * Ownership: nothing is allocated. */
#ifndef DCSIM_CACHE_RULE_H
#define DCSIM_CACHE_RULE_H

#include "dcsim/hwprofile.h"

/* The share of a working set of ws_byte resident in a cache of cap_byte: min(1, cap/ws); 1 for an
 * empty working set (FV §9: the cache hit rate of a working set, finite-volume paper Eq. 4-6). */
double dcsim_cache_resident_share(double cap_byte, double ws_byte);

/* The sockets `threads` threads occupy: compact fills one socket first, scatter spreads them
 * (dcsim_cpu_split_threads); threads beyond the node count as the whole node. */
unsigned dcsim_cache_sockets_used(const dcsim_cpu_caches *c, unsigned threads);

/* What the rule decided for one node. */
typedef struct dcsim_cache_move {
  double ws_byte; /* the working set of the node */
  unsigned src_sockets, dst_sockets;
  double src_l3_byte, dst_l3_byte; /* per socket */
  double src_share, dst_share;     /* h_s, h_t */
  double fraction; /* of Z moved to Y (inward) or of Y moved to Z (!inward); 0: nothing moves */
  int inward;
} dcsim_cache_move;

/* The move for a node of `dst` running `threads` threads on ws_byte, for weights measured on
 * `src`. A CPU without an l3-byte gives fraction 0 (nothing known to move). */
void dcsim_cache_rule(double ws_byte, const dcsim_cpu_caches *src, const dcsim_cpu_caches *dst,
                      unsigned threads, dcsim_cache_move *mv);

/* Applies the move to one loop's L3 and DRAM weights (Y, Z of D3.5 §4.3). */
void dcsim_cache_rule_apply(const dcsim_cache_move *mv, double *Y, double *Z);

#endif
