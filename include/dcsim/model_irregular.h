/* dcsim/model_irregular.h — the cache-line over-fetch model of irregular accesses (Langguth et
 * al., "Parallel performance modeling of irregular applications in cell-centered finite volume
 * methods over unstructured tetrahedral meshes", seed finite-volume-irregular-performance, §9).
 *
 * A loop needs R regular and U irregular words per flop (word = w bytes). At a cache level i whose
 * level above holds C_i words, with lines of CL_i words and a working set of W words:
 *   h_i    = min(1, C_i/W)                                       hit rate above level i
 *   WpF_i  = R + U*(H*h_i + (1 - h_i)*CL_i)                      words per flop (Eq. 4; H = 1)
 *            Eq. 6 (the FV kernel: a hit on x costs nothing) is H = 0
 *   P_i    = BW_i/(w*WpF_i)                                      bottleneck performance of level i
 *   P_min  = min_i P_i                                           (Eq. 5)
 * dcsim works with totals: a loop of W flop moves Q_i = w*(N_reg + N_irr*(H*h_i + (1-h_i)*CL_i))
 * bytes through level i in Q_i/BW_i seconds; the loop's memory time is the largest (= W/P_min).
 * Levels and their capacities come from the CPU profile's <cache-hierarchy>, bandwidths from its
 * tables at the node's state, the loop's R, U, W, H from the dwarf's <irregular> element.
 *
 * Ownership: results are written into caller-provided arrays; nothing is allocated. */
#ifndef DCSIM_MODEL_IRREGULAR_H
#define DCSIM_MODEL_IRREGULAR_H

#include <stddef.h>

#include "dcsim/dwarf.h"
#include "dcsim/hwprofile.h"

#define DCSIM_IRREGULAR_MAX_LEVELS 4

typedef struct dcsim_irregular_level {
  const char *name;     /* L1, L2, L3, DRAM (borrowed from the profile) */
  double hit_rate;      /* h_i */
  double word_per_flop; /* WpF_i (0 if the loop does no work) */
  double traffic_byte;  /* Q_i for the node's share */
  double bw_bps;        /* BW_i at the node's state */
  double time_s;        /* Q_i/BW_i */
} dcsim_irregular_level;

/* Fills levels[0..*n-1] for one <irregular> loop processed with `share` of its work on a node of
 * profile `cpu` whose bandwidths are `rt`; *bottleneck = index of the slowest level. Errors: the
 * loop is not irregular, the profile has no <cache-hierarchy>, a level's bandwidth is 0. */
int dcsim_model_irregular(const dcsim_cpu_loop *loop, double share, const dcsim_cpu_profile_t *cpu,
                          const dcsim_cpu_rates *rt,
                          dcsim_irregular_level levels[DCSIM_IRREGULAR_MAX_LEVELS], size_t *n,
                          size_t *bottleneck, dcsim_error *err);

#endif
