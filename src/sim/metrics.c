/* metrics.c — job and centre statistics (see dcsim/metrics.h). */
#include "dcsim/metrics.h"

#include <math.h>
#include <stdlib.h>

dcsim_job_metrics dcsim_metrics_job(const dcsim_job_stats *js) {
  dcsim_job_metrics m;
  m.wait_s = (double)(js->start_ns - js->submit_ns) * 1e-9;
  m.flow_s = (double)(js->end_ns - js->submit_ns) * 1e-9;
  m.run_s = (double)(js->end_ns - js->start_ns) * 1e-9;
  m.slowdown = m.run_s > 0 ? m.flow_s / m.run_s : NAN;
  double b = m.flow_s / fmax(m.run_s, DCSIM_BSLD_BOUND_S); /* bounded slowdown, bound 10 s */
  m.bounded_slowdown = b > 1 ? b : 1;
  return m;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Summary of v[0..n-1], NaNs left out; v is sorted in place. */
static dcsim_stat summarise(double *v, size_t n) {
  dcsim_stat s = { 0, 0, 0, 0, 0 };
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (!isnan(v[i])) v[k++] = v[i];
  if (!k) return s;
  qsort(v, k, sizeof *v, cmp_double);
  double sum = 0;
  for (size_t i = 0; i < k; i++) sum += v[i];
  s.n = k;
  s.mean = sum / (double)k;
  s.median = v[(k - 1) / 2];
  size_t r = (size_t)ceil(0.95 * (double)k); /* nearest rank */
  s.p95 = v[(r ? r : 1) - 1];
  s.max = v[k - 1];
  return s;
}

int dcsim_metrics_summarise(const dcsim_run_stats *st, dcsim_metrics_summary *out,
                            dcsim_error *err) {
  size_t n = st->n_jobs;
  double *v = malloc((n ? n : 1) * 4 * sizeof *v);
  if (!v) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  double *w = v, *f = v + n, *sd = v + 2 * n, *b = v + 3 * n;
  for (size_t j = 0; j < n; j++) {
    dcsim_job_metrics m = dcsim_metrics_job(&st->jobs[j]);
    w[j] = m.wait_s;
    f[j] = m.flow_s;
    sd[j] = m.slowdown;
    b[j] = m.bounded_slowdown;
  }
  out->n_jobs = n;
  out->wait_s = summarise(w, n);
  out->flow_s = summarise(f, n);
  out->slowdown = summarise(sd, n);
  out->bounded_slowdown = summarise(b, n);
  free(v);
  out->busy_node_s = out->alloc_node_s = 0;
  for (size_t g = 0; g < st->n_groups; g++) {
    out->busy_node_s += st->groups[g].busy_node_s;
    out->alloc_node_s += st->groups[g].alloc_node_s;
  }
  double cap = (double)st->makespan_ns * 1e-9 * st->n_nodes;
  out->utilisation = cap > 0 ? out->busy_node_s / cap : 0;
  out->allocated = cap > 0 ? out->alloc_node_s / cap : 0;
  return 0;
}

void dcsim_metrics_bucket(const dcsim_run_stats *st, size_t k, double *t0_s, double *t1_s,
                          double *busy, double *allocated) {
  double t0 = (double)k * st->bucket_s, t1 = t0 + st->bucket_s, mk = (double)st->makespan_ns * 1e-9;
  if (t1 > mk) t1 = mk;
  double cap = (t1 - t0) * st->n_nodes;
  *t0_s = t0;
  *t1_s = t1;
  *busy = cap > 0 ? st->bucket_busy_node_s[k] / cap : 0;
  *allocated = cap > 0 ? st->bucket_alloc_node_s[k] / cap : 0;
}

dcsim_deadline_report dcsim_metrics_deadline(const dcsim_run_stats *st, double deadline_s) {
  dcsim_deadline_report r = { 0, 0, 0 };
  int64_t dl = deadline_s > 0 ? llround(deadline_s * 1e9) : 0; /* the engine's nanoseconds */
  for (size_t k = 0; k < st->n_jobs; k++) {
    int64_t run = st->jobs[k].end_ns - st->jobs[k].start_ns;
    if (dl > 0 && run > dl) r.missed++;
    if ((double)run * 1e-9 > r.longest_s) {
      r.longest_s = (double)run * 1e-9;
      r.longest = k;
    }
  }
  return r;
}
