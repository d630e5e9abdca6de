/* dcsim/model_threads.h — measured thread scaling on top of the CPU per-loop model
 * (doc/models.md "Thread scaling").
 *
 * The per-loop model (dcsim/model_cpu.h) speeds a dwarf up with cores as far as the hardware
 * allows: its rates at n threads already hold the bandwidth saturation of shared levels. What it
 * cannot know is how well the code uses the cores. A dwarf's <thread-scaling> (fitted by `dcsim
 * calibrate scaling` on measured time-vs-cores pairs) adds that, in the form of the Universal
 * Scalability Law (Gunther, "Guerrilla Capacity Planning", 2007, ch. 4) put on the per-loop times:
 *
 *   T(n) = sigma*T_hw(1) + (1 - sigma)*T_hw(n) + kappa*(n - 1)*T_hw(1)
 *
 * sigma: the serial fraction (USL contention), which runs at the one-thread speed; the rest runs
 * on n threads as fast as the per-loop model says; kappa: the coherence cost, each extra thread
 * adds kappa of the one-thread time (synchronisation, false sharing, barriers). With ideal
 * hardware, T_hw(n) = T_hw(1)/n, this is exactly USL: T(1)/T(n) = n/(1 + sigma(n-1) +
 * kappa n(n-1)). The law is linear in the times, so it is applied loop by loop (each loop's time
 * from its own 1- and n-thread times) and the dwarf's time is the same as the law on the sums.
 *
 * The law holds within the thread counts it was measured on (1..cores_max). Beyond them the time
 * never falls faster than the law's own curve allows: its parallel part (1 - sigma) speeds up with
 * the hardware, its serial part does not, and its coherence cost is held at what was measured,
 *
 *   T(n) = sigma*T_hw(1) + (1 - sigma)*T_hw(n) + kappa*(m - 1)*T_hw(1),  m = cores_max < n,
 *
 * so sigma = 1 (no parallel part) gives no further speed-up. The law continued unchanged (its
 * coherence cost kappa*(n - 1) growing, USL's retrograde curve) is not measured either: it is
 * the other end of the value's band (dcsim_prediction.time_cover_s, doc/models.md "Thread
 * scaling"). Such values are extrapolated; a law fitted on another CPU is transferred only as
 * this function of the thread count (sigma and kappa are fractions of the 1-thread time,
 * properties of the code's synchronisation) and is extrapolated at every thread count.
 *
 * Ownership: pure functions on caller-owned values; nothing is allocated. */
#ifndef DCSIM_MODEL_THREADS_H
#define DCSIM_MODEL_THREADS_H

#include "dcsim/dwarf.h"
#include "dcsim/model_cpu.h"
#include "dcsim/provenance.h"

/* The law's time on n threads from the 1- and n-thread times of the per-loop model. */
double dcsim_threads_time(const dcsim_thread_scaling *law, unsigned n, double t1_s, double tn_s);

/* The time on n threads by the rule above: the law up to cores_max, beyond it the law with its
 * coherence cost held at cores_max. */
double dcsim_threads_time_bounded(const dcsim_thread_scaling *law, unsigned n, double t1_s,
                                  double tn_s);

/* Applies the rule to r (the per-loop model on n threads) with one (the same on 1 thread, same
 * nodes, loops and state): every loop's times are scaled to the rule's time, node times
 * recomputed with the dwarf's communication overlap. Returns the slowest node's time by the law
 * continued unchanged (dcsim_threads_time on every loop; equal to r->time_s up to cores_max). */
double dcsim_threads_apply(const dcsim_thread_scaling *law, unsigned n, const dcsim_cpu_result *one,
                           double overlap, dcsim_cpu_result *r);

/* Where the law's number comes from on n threads: interpolated up to the largest measured thread
 * count on the CPU it was fitted on (a fit used inside its data), extrapolated beyond it or on
 * another CPU (exact = 0). */
dcsim_prov dcsim_threads_prov(const dcsim_thread_scaling *law, int exact, unsigned n);

#endif
