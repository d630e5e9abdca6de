/* test_metrics.c — wait, flow, slowdown, bounded slowdown (10 s bound), summaries (against a
 * sorted reference on many jobs: ties, runs, sorted and reversed orders), buckets. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "dcsim/lib.h"
#include "dcsim/metrics.h"

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Waits of n jobs in one of five patterns: random with many ties, sorted, reversed, all equal,
 * organ pipe (up then down). */
static void waits(int64_t *w, size_t n, int pattern, uint64_t *rng) {
  for (size_t i = 0; i < n; i++) {
    *rng = *rng * 6364136223846793005u + 1442695040888963407u;
    int64_t r = (int64_t)(*rng >> 40) % 97;
    w[i] = pattern == 0   ? r * 1000000
           : pattern == 1 ? (int64_t)i
           : pattern == 2 ? (int64_t)(n - i)
           : pattern == 3 ? 7
                          : (int64_t)(i < n / 2 ? i : n - i);
  }
}

/* The summary of many jobs' waits equals the one a full sort gives. */
static void check_many(size_t n, int pattern) {
  dcsim_job_stats *j = calloc(n, sizeof *j);
  int64_t *w = malloc(n * sizeof *w);
  double *ref = malloc(n * sizeof *ref);
  uint64_t rng = 2385 + n;
  waits(w, n, pattern, &rng);
  double sum = 0;
  for (size_t i = 0; i < n; i++) {
    j[i] = (dcsim_job_stats){ .submit_ns = 0, .start_ns = w[i], .end_ns = w[i] + 1000000000 };
    ref[i] = (double)w[i] * 1e-9;
    sum += ref[i];
  }
  qsort(ref, n, sizeof *ref, cmp_d);
  dcsim_run_stats st = { .makespan_ns = 1, .n_jobs = n, .jobs = j };
  dcsim_metrics_summary sum_out;
  dcsim_error err;
  CHECK_INT(dcsim_metrics_summarise(&st, &sum_out, &err), 0);
  size_t r = (size_t)ceil(0.95 * (double)n);
  CHECK_REL(sum_out.wait_s.median, ref[(n - 1) / 2], 0);
  CHECK_REL(sum_out.wait_s.p95, ref[r - 1], 0);
  CHECK_REL(sum_out.wait_s.max, ref[n - 1], 0);
  CHECK_REL(sum_out.wait_s.mean, sum / (double)n, 1e-12);
  free(j);
  free(w);
  free(ref);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  for (int pattern = 0; pattern < 5; pattern++) {
    check_many(10000, pattern);
    check_many(10001, pattern);
    check_many(17, pattern);
  }
  const int64_t s = 1000000000;
  dcsim_job_stats j[4] = {
    { .submit_ns = 0, .start_ns = 0, .end_ns = 100 * s },          /* no wait */
    { .submit_ns = 10 * s, .start_ns = 70 * s, .end_ns = 73 * s }, /* 3 s job that waited 60 s */
    { .submit_ns = 5 * s, .start_ns = 25 * s, .end_ns = 65 * s },  /* 40 s job, 20 s wait */
    { .submit_ns = 7 * s, .start_ns = 8 * s, .end_ns = 8 * s }
  }; /* zero length */
  dcsim_job_metrics m = dcsim_metrics_job(&j[1]);
  CHECK_REL(m.wait_s, 60, 1e-15);
  CHECK_REL(m.flow_s, 63, 1e-15);
  CHECK_REL(m.slowdown, 21, 1e-15);
  CHECK_REL(m.bounded_slowdown, 6.3, 1e-15); /* 63 / max(3, 10) */
  m = dcsim_metrics_job(&j[2]);
  CHECK_REL(m.slowdown, 1.5, 1e-15);
  CHECK_REL(m.bounded_slowdown, 1.5, 1e-15);
  m = dcsim_metrics_job(&j[3]);
  CHECK(isnan(m.slowdown));
  CHECK_REL(m.bounded_slowdown, 1, 0); /* max(1, 1 / 10) */
  dcsim_group_stats g = { .busy_node_s = 143, .alloc_node_s = 150 };
  double busy[2] = { 60, 83 }, alloc[2] = { 64, 86 };
  dcsim_run_stats st = { .makespan_ns = 100 * s,
                         .n_jobs = 4,
                         .jobs = j,
                         .n_groups = 1,
                         .groups = &g,
                         .n_nodes = 2,
                         .bucket_s = 60,
                         .n_buckets = 2,
                         .bucket_busy_node_s = busy,
                         .bucket_alloc_node_s = alloc };
  dcsim_metrics_summary sum;
  dcsim_error err;
  CHECK_INT(dcsim_metrics_summarise(&st, &sum, &err), 0);
  CHECK_INT((long long)sum.wait_s.n, 4);
  CHECK_REL(sum.wait_s.mean, (0 + 60 + 20 + 1) / 4.0, 1e-15);
  CHECK_REL(sum.wait_s.median, 1, 0);   /* lower middle of 0 1 20 60 */
  CHECK_REL(sum.wait_s.p95, 60, 1e-12); /* nearest rank: ceil(3.8) = 4th */
  CHECK_REL(sum.wait_s.max, 60, 1e-12);
  CHECK_INT((long long)sum.slowdown.n, 3); /* the zero-length job is left out */
  CHECK_REL(sum.slowdown.mean, (1 + 21 + 1.5) / 3, 1e-15);
  CHECK_REL(sum.bounded_slowdown.mean, (1 + 6.3 + 1.5 + 1) / 4, 1e-15);
  CHECK_REL(sum.utilisation, 143.0 / 200, 1e-15);
  CHECK_REL(sum.allocated, 150.0 / 200, 1e-15);
  double t0, t1, b, a;
  dcsim_metrics_bucket(&st, 1, &t0, &t1, &b, &a);
  CHECK_REL(t0, 60, 0);
  CHECK_REL(t1, 100, 0); /* the last bucket ends at the makespan */
  CHECK_REL(b, 83.0 / 80, 1e-15);
  CHECK_REL(a, 86.0 / 80, 1e-15);
  CHECK_DONE();
}
