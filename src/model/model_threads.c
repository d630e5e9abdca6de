/* model_threads.c — measured thread scaling on the per-loop model (see dcsim/model_threads.h). */
#include "dcsim/model_threads.h"

#include "dcsim/model_comm.h"

double dcsim_threads_time(const dcsim_thread_scaling *law, unsigned n, double t1_s, double tn_s) {
  if (n <= 1) return tn_s;
  /* USL (Gunther 2007) on the per-loop times: serial part at one thread, the rest at n, plus the
   * coherence cost of n - 1 extra threads (doc/models.md "Thread scaling") */
  return law->sigma * t1_s + (1 - law->sigma) * tn_s + law->kappa * (double)(n - 1) * t1_s;
}

double dcsim_threads_time_bounded(const dcsim_thread_scaling *law, unsigned n, double t1_s,
                                  double tn_s) {
  unsigned m = law->cores_max;
  if (n <= m) return dcsim_threads_time(law, n, t1_s, tn_s);
  /* beyond the measured range: the law's own curve with its coherence cost held at m, T(n) =
   * sigma T_hw(1) + (1 - sigma) T_hw(n) + kappa (m - 1) T_hw(1): only the parallel part speeds
   * up, sigma = 1 gives no further speed-up (dcsim/model_threads.h, doc/models.md) */
  return law->sigma * t1_s + (1 - law->sigma) * tn_s + law->kappa * (double)(m - 1) * t1_s;
}

double dcsim_threads_apply(const dcsim_thread_scaling *law, unsigned n, const dcsim_cpu_result *one,
                           double overlap, dcsim_cpu_result *r) {
  double slowest_law = 0; /* the unbounded law's node time, the band's other end */
  r->time_s = 0;
  for (size_t i = 0; i < r->n_nodes; i++) {
    double t = 0, t_law = 0;
    for (size_t l = 0; l < r->n_loops; l++) {
      dcsim_loop_part *p = &r->parts[i * r->n_loops + l];
      size_t k = i * r->n_loops + l;
      double t1 = one->parts[k].time_s;
      double tl = dcsim_threads_time_bounded(law, n, t1, p->time_s);
      t_law += dcsim_threads_time(law, n, t1, p->time_s);
      double f = p->time_s > 0 ? tl / p->time_s : 1; /* both roofline terms keep their ratio */
      p->flop_time_s *= f;
      p->mem_time_s *= f;
      p->time_s = tl;
      t += tl;
    }
    r->node_time_s[i] = dcsim_comm_compose(t, r->node_comm_s[i], overlap); /* model_comm.h */
    if (r->node_time_s[i] > r->time_s) r->time_s = r->node_time_s[i];
    double nl = dcsim_comm_compose(t_law, r->node_comm_s[i], overlap);
    if (nl > slowest_law) slowest_law = nl;
  }
  return slowest_law;
}

dcsim_prov dcsim_threads_prov(const dcsim_thread_scaling *law, int exact, unsigned n) {
  return dcsim_prov_make(
      exact && n <= law->cores_max ? DCSIM_PROV_INTERPOLATED : DCSIM_PROV_EXTRAPOLATED,
      law->source);
}
