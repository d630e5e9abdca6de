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
 * Ownership: pure functions on caller-owned values; nothing is allocated. */
#ifndef DCSIM_MODEL_THREADS_H
#define DCSIM_MODEL_THREADS_H

#include "dcsim/dwarf.h"
#include "dcsim/model_cpu.h"
#include "dcsim/provenance.h"

/* The law's time on n threads from the 1- and n-thread times of the per-loop model. */
double dcsim_threads_time(const dcsim_thread_scaling *law, unsigned n, double t1_s, double tn_s);

/* Applies the law to r (the per-loop model on n threads) with one (the same on 1 thread, same
 * nodes, loops and state): every loop's times are scaled to the law's time, node times recomputed
 * with the dwarf's communication overlap. */
void dcsim_threads_apply(const dcsim_thread_scaling *law, unsigned n, const dcsim_cpu_result *one,
                         double overlap, dcsim_cpu_result *r);

/* Where the law's number comes from on n threads: interpolated up to the largest measured thread
 * count on the CPU it was fitted on (a fit used inside its data), extrapolated beyond it or on
 * another CPU (exact = 0). */
dcsim_prov dcsim_threads_prov(const dcsim_thread_scaling *law, int exact, unsigned n);

#endif
