/* dcsim/model_irregular.h — the cache-line over-fetch model of irregular accesses (Langguth et
 * al., "Parallel performance modeling of irregular applications in cell-centered finite volume
 * methods over unstructured tetrahedral meshes", seed finite-volume-irregular-performance, §9),
 * on the cores of a CPU node or on a GPU.
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
 *
 * Beyond one core (FV §6, §8), with n threads on a CPU:
 *   - bandwidths are the profile's tables at n threads (aggregate);
 *   - a cache shared by the threads of a socket (the L3: <level above-shared="socket">) gives each
 *     thread its part, C_i / (threads on a socket) (FV §8: "its nominal capacity ... must be
 *     divided by the number of cores"); the working set W stays per thread (a block);
 *   - resident data: when the loop's footprint (bytes of one pass) fits in the shared cache of
 *     every socket used together, the last level (DRAM) moves it once instead of at every pass
 *     (FV §8: 500,000 tetrahedra, 32 MB, in the 40 MB of two L3s);
 *   - threads on two sockets exchange the loop's exchange words over the socket link, one more
 *     bottleneck level, "link" (FV §8: the x vector over QPI, 44 GFLOP/s).
 * On a GPU (FV §7) the levels are L2 (traffic between L2 and the SMs' read-only caches, whose
 * capacity is above L2) and DRAM (the part of L2 holding the working set above it), each with the
 * bandwidth of the GPU profile's <cache-hierarchy>; compute runs at peak DP x U.
 *
 * Ownership: results are written into caller-provided structs; dcsim_model_irregular_gpu returns
 * a dcsim_cpu_result freed by dcsim_cpu_result_free(). */
#ifndef DCSIM_MODEL_IRREGULAR_H
#define DCSIM_MODEL_IRREGULAR_H

#include <stddef.h>

#include "dcsim/dwarf.h"
#include "dcsim/hwprofile.h"
#include "dcsim/model_cpu.h"

#define DCSIM_IRREGULAR_MAX_LEVELS 5 /* L1, L2, L3, DRAM and the socket link */

/* The levels a loop's traffic goes through, at one state of one device. */
typedef struct dcsim_irregular_machine {
  const char *name, *path; /* the profile, for errors */
  size_t n_levels;
  dcsim_cache_level levels[DCSIM_IRREGULAR_MAX_LEVELS]; /* above_byte: one thread's part */
  double bw_bps[DCSIM_IRREGULAR_MAX_LEVELS];
  double resident_byte; /* capacity above the last level on all sockets used (0: none) */
  double link_bps;      /* socket link when the threads span sockets, else 0 */
} dcsim_irregular_machine;

typedef struct dcsim_irregular_level {
  const char *name;     /* L1, L2, L3, DRAM, link (borrowed) */
  double hit_rate;      /* h_i */
  double word_per_flop; /* WpF_i (0 if the loop does no work) */
  double traffic_byte;  /* Q_i for the node's share */
  double bw_bps;        /* BW_i at the state */
  double time_s;        /* Q_i/BW_i */
} dcsim_irregular_level;

/* The machine of n = st->threads threads of a CPU node with bandwidths rt (at that state). Errors:
 * no <cache-hierarchy>, a level without bandwidth at this state. */
int dcsim_irregular_machine_cpu(const dcsim_cpu_profile_t *cpu, const dcsim_cpu_state *st,
                                const dcsim_cpu_rates *rt, dcsim_irregular_machine *m,
                                dcsim_error *err);
/* The machine of a GPU. Error: its profile has no <cache-hierarchy>. */
int dcsim_irregular_machine_gpu(const dcsim_gpu_profile_t *gpu, dcsim_irregular_machine *m,
                                dcsim_error *err);

/* Fills levels[0..*n-1] for one <irregular> loop processed with `share` of its work on machine m;
 * *bottleneck = index of the slowest level. Error: the loop is not irregular. */
int dcsim_model_irregular(const dcsim_cpu_loop *loop, double share,
                          const dcsim_irregular_machine *m,
                          dcsim_irregular_level levels[DCSIM_IRREGULAR_MAX_LEVELS], size_t *n,
                          size_t *bottleneck, dcsim_error *err);

/* A dwarf whose loops are all <irregular> on one GPU: per loop max(W/(peak DP x U + S), the
 * slowest level), summed (the loop table of a CPU result, one node). Error: a loop that is not
 * irregular (its traffic has no meaning on a GPU), a profile without <cache-hierarchy>. */
int dcsim_model_irregular_gpu(const dcsim_dwarf_eval *ev, const dcsim_gpu_profile_t *gpu,
                              dcsim_cpu_result **out, dcsim_error *err);

#endif
