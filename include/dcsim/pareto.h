/* dcsim/pareto.h — the Pareto front of (time, energy) pairs, both minimised, and its knee.
 *
 * Dominance: p dominates q when p is no worse in both (time_p <= time_q, energy_p <= energy_q)
 * and better in one. Values within DCSIM_PARETO_REL_TOL of each other (relative) are the same:
 * the energies of one run on 4 and on 8 nodes differ in their last bits because their sums were
 * taken in another order, and the faster run must dominate. The front is the set of valid points
 * no valid point dominates (two identical points are both on it).
 *
 * Knee (doc/sweep.md): the front point closest, in Euclidean distance, to the utopia point
 * (least time, least energy of the front) after each axis is scaled to [0, 1] over the front:
 *   t' = (t - t_min)/(t_max - t_min),  e' = (e - e_min)/(e_max - e_min)  (0 when max = min),
 *   knee = argmin sqrt(t'^2 + e'^2); ties (the two ends of a two-point front are always tied) go
 *   to the smaller energy-delay product time x energy, then to the lower index.
 * It is the "balanced" compromise of the front, independent of the units of the two axes.
 *
 * Nothing is allocated but a temporary index array; functions are thread-safe. */
#ifndef DCSIM_PARETO_H
#define DCSIM_PARETO_H

#include <stddef.h>

#define DCSIM_PARETO_REL_TOL 1e-9

/* front[i] = 1 when point i is valid (valid == NULL: all; non-finite values never are) and not
 * dominated, else 0. Returns the number of front points, or -1 when out of memory. */
long dcsim_pareto_front(size_t n, const double *time_s, const double *energy_j,
                        const unsigned char *valid, unsigned char *front);

/* Index of the knee among the points with front[i] set, or -1 when there is none. */
long dcsim_pareto_knee(size_t n, const double *time_s, const double *energy_j,
                       const unsigned char *front);

/* The same over three objectives (time, energy, cost): dominance in all three, the knee closest to
 * the utopia point with each axis scaled to [0, 1] over the front (ties: the smaller product of the
 * three, then the lower index). */
long dcsim_pareto_front3(size_t n, const double *a, const double *b, const double *c,
                         const unsigned char *valid, unsigned char *front);
long dcsim_pareto_knee3(size_t n, const double *a, const double *b, const double *c,
                        const unsigned char *front);

#endif
