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
 * The law holds within the thread counts it was measured on (1..cores_max). Beyond them it is
 * not extended by its curvature (kappa n^2 grows without bound): the code keeps the parallel
 * efficiency it had at cores_max relative to the per-loop model,
 *
 *   T(n) = T_law(m) * T_hw(n) / T_hw(m),  m = cores_max < n,
 *
 * so the extra cores help exactly as much as the hardware lets them (more sockets, more
 * bandwidth) and the code's measured inefficiency stays what it was. Such values are
 * extrapolated; a law fitted on another CPU is transferred only as this function of the thread
 * count (sigma and kappa are fractions of the 1-thread time, properties of the code's
 * synchronisation) and is extrapolated at every thread count (doc/models.md "Thread scaling").
 *
 * Ownership: pure functions on caller-owned values; nothing is allocated. */
#ifndef DCSIM_MODEL_THREADS_H
#define DCSIM_MODEL_THREADS_H

#include "dcsim/dwarf.h"
#include "dcsim/model_cpu.h"
#include "dcsim/provenance.h"

/* The law's time on n threads from the 1- and n-thread times of the per-loop model. */
double dcsim_threads_time(const dcsim_thread_scaling *law, unsigned n, double t1_s, double tn_s);

/* The time on n threads by the rule above: the law up to cores_max, the held efficiency beyond.
 * tm_s: the per-loop model's time on cores_max threads (used only when n > cores_max). */
double dcsim_threads_time_held(const dcsim_thread_scaling *law, unsigned n, double t1_s,
                               double tm_s, double tn_s);

/* Applies the rule to r (the per-loop model on n threads) with one (the same on 1 thread, same
 * nodes, loops and state) and at_max (the same on cores_max threads; may be NULL when n <=
 * cores_max): every loop's times are scaled to the rule's time, node times recomputed with the
 * dwarf's communication overlap. */
void dcsim_threads_apply(const dcsim_thread_scaling *law, unsigned n, const dcsim_cpu_result *one,
                         const dcsim_cpu_result *at_max, double overlap, dcsim_cpu_result *r);

/* Where the law's number comes from on n threads: interpolated up to the largest measured thread
 * count on the CPU it was fitted on (a fit used inside its data), extrapolated beyond it or on
 * another CPU (exact = 0). */
dcsim_prov dcsim_threads_prov(const dcsim_thread_scaling *law, int exact, unsigned n);

#endif
