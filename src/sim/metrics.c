/* metrics.c — job and centre statistics (see dcsim/metrics.h). */
#include "dcsim/metrics.h"

#include <math.h>
#include <stdlib.h>

#include "dcsim/stats.h"

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

static void swap_d(double *a, double *b) {
  double t = *a;
  *a = *b;
  *b = t;
}

/* The k-th smallest (from 0) of v[0..n-1], NaN-free, v reordered: Hoare's selection with
 * median-of-three pivots and three-way partitions (equal values end it at once); a range that
 * does not shrink within 2 log2(n) + 8 rounds is sorted instead, so the worst case is
 * O(n log n) and the usual one O(n). */
static double select_kth(double *v, size_t n, size_t k) {
  size_t lo = 0, hi = n;
  int rounds = 8;
  for (size_t m = n; m > 1; m >>= 1) rounds += 2;
  while (hi - lo > 16 && rounds-- > 0) {
    double a = v[lo], b = v[lo + (hi - lo) / 2], c = v[hi - 1];
    double p = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
    size_t lt = lo, i = lo, gt = hi; /* [lo, lt) < p, [lt, gt) == p, [gt, hi) > p */
    while (i < gt) {
      if (v[i] < p)
        swap_d(&v[lt++], &v[i++]);
      else if (v[i] > p)
        swap_d(&v[i], &v[--gt]);
      else
        i++;
    }
    if (k < lt)
      hi = lt;
    else if (k >= gt)
      lo = gt;
    else
      return p;
  }
  qsort(v + lo, hi - lo, sizeof *v, dcsim_cmp_double);
  return v[k];
}

/* Summary of v[0..n-1], NaNs left out; v is reordered. The mean sums in job order (compensated:
 * Neumaier), the median and 95th percentile (nearest rank) are selected, not sorted: O(n). */
static dcsim_stat summarise(double *v, size_t n) {
  dcsim_stat s = { 0, 0, 0, 0, 0 };
  size_t k = 0;
  double sum = 0, c = 0, mx = -INFINITY;
  for (size_t i = 0; i < n; i++) {
    double x = v[i];
    if (isnan(x)) continue;
    v[k++] = x;
    double t = sum + x;
    c += fabs(sum) >= fabs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
    if (x > mx) mx = x;
  }
  if (!k) return s;
  s.n = k;
  s.mean = (sum + c) / (double)k;
  size_t r = (size_t)ceil(0.95 * (double)k); /* nearest rank */
  s.p95 = select_kth(v, k, (r ? r : 1) - 1);
  s.median = select_kth(v, k, (k - 1) / 2);
  s.max = mx;
  return s;
}

/* One metric of every job into v (which = 0..3: wait, flow, slowdown, bounded slowdown). */
static void fill_metric(const dcsim_run_stats *st, int which, double *v) {
  for (size_t j = 0; j < st->n_jobs; j++) {
    dcsim_job_metrics m = dcsim_metrics_job(&st->jobs[j]);
    v[j] = which == 0   ? m.wait_s
           : which == 1 ? m.flow_s
           : which == 2 ? m.slowdown
                        : m.bounded_slowdown;
  }
}

int dcsim_metrics_summarise(const dcsim_run_stats *st, dcsim_metrics_summary *out,
                            dcsim_error *err) {
  size_t n = st->n_jobs;
  double *v = malloc((n ? n : 1) * sizeof *v); /* one metric at a time: 8 bytes per job */
  if (!v) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  dcsim_stat *stat[4] = { &out->wait_s, &out->flow_s, &out->slowdown, &out->bounded_slowdown };
  out->n_jobs = n;
  for (int k = 0; k < 4; k++) {
    fill_metric(st, k, v);
    *stat[k] = summarise(v, n);
  }
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

static const char *const job_keys[] = { "submit", "wait", "time", "energy", "cost" };

/* the value job k is sorted by (key: an index into job_keys); NaN: unknown */
static double job_value(const dcsim_scenario *s, const dcsim_run_stats *st,
                        const dcsim_cost_opts *co, size_t k, int key) {
  const dcsim_job_stats *js = &st->jobs[k];
  dcsim_cost c;
  switch (key) {
    case 0: return (double)k; /* the scenario's order */
    case 1: return (double)(js->start_ns - js->submit_ns);
    case 2: return (double)(js->end_ns - js->submit_ns);
    case 3: return js->energy_j;
    default: dcsim_cost_of_job(s, st, k, co, &c); return c.known ? c.usd : NAN;
  }
}

int dcsim_run_job_order(const dcsim_scenario *s, const dcsim_run_stats *st,
                        const dcsim_cost_opts *co, const char *key, size_t *order,
                        dcsim_error *err) {
  int k = dcsim_sort_key_index(key, job_keys, 5);
  if (k < 0)
    return DCSIM_PERR(err, DCSIM_EUSAGE, "sort_key", -1,
                      "'%s': the workflows sort by submit, wait, time, energy or cost", key);
  if (!st) return 0;
  double *v = malloc((st->n_jobs ? st->n_jobs : 1) * sizeof *v);
  if (!v)
    return DCSIM_ERR(err, DCSIM_ENOMEM, NULL, 0, "out of memory sorting %zu jobs", st->n_jobs);
  for (size_t i = 0; i < st->n_jobs; i++) v[i] = job_value(s, st, co, i, k);
  int rc = dcsim_sort_order(v, st->n_jobs, order);
  free(v);
  return rc ? DCSIM_ERR(err, DCSIM_ENOMEM, NULL, 0, "out of memory sorting %zu jobs", st->n_jobs)
            : 0;
}
