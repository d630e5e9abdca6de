/* test_sampling.c — the adaptive sampling family and ASK's protocol (dcsim/hvs.h, dcsim/gbm.h,
 * dcsim/sampling.h): boosted trees fit what they should, every sampler draws distinct unmeasured
 * points, Latin hypercubes cover their strata, the weights follow ASK §5, and on dcsim's own
 * problem (the E5-2697v3's DRAM table over (frequency, cores)) the adaptive samplers need fewer
 * states than random sampling. Fixed seeds, no timing. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "dcsim/gbm.h"
#include "dcsim/hvs.h"
#include "dcsim/lib.h"
#include "dcsim/sampling.h"

static void test_gbm(void) {
  /* a step and a ramp in 2D: y = (x0 > 0.5 ? 3.25 : 1.5) + 2 x1 on a 10 x 10 grid */
  double x[200], y[100];
  for (int i = 0; i < 100; i++) {
    x[2 * i] = (i % 10 + 0.5) / 10;
    x[2 * i + 1] = (i / 10 + 0.5) / 10;
    y[i] = (x[2 * i] > 0.5 ? 3.25 : 1.5) + 2 * x[2 * i + 1];
  }
  dcsim_gbm_params p = { 400, 3, 2, 0.1 };
  dcsim_gbm_t *m = NULL;
  dcsim_error err = { 0 };
  CHECK_INT(dcsim_gbm_fit(100, 2, x, y, NULL, &p, &m, &err), 0);
  double worst = 0;
  for (int i = 0; m && i < 100; i++)
    worst = fmax(worst, fabs(dcsim_gbm_predict(m, x + 2 * i) - y[i]));
  CHECK(worst < 0.11); /* the ramp's steps of 0.2 are halved by the splits between them */
  dcsim_gbm_free(m);
  /* weights: a point of weight 0 does not pull the fit */
  double xs[3] = { 1, 2, 3 }, ys[3] = { 5, 5, 100 }, w[3] = { 1, 1, 0 };
  dcsim_gbm_params p1 = { 50, 1, 1, 0.5 };
  CHECK_INT(dcsim_gbm_fit(3, 1, xs, ys, w, &p1, &m, &err), 0);
  if (m) CHECK_REL(dcsim_gbm_predict(m, xs), 5, 1e-9);
  dcsim_gbm_free(m);
  CHECK_INT(dcsim_gbm_fit(0, 1, xs, ys, NULL, &p1, &m, &err), DCSIM_ERANGE);
}

/* every sampler: k distinct points, none measured before */
static void test_samplers(void) {
  double x[2 * 64];
  for (int i = 0; i < 64; i++) {
    x[2 * i] = i % 8;
    x[2 * i + 1] = i / 8;
  }
  for (int s = DCSIM_SAMPLER_RANDOM; s <= DCSIM_SAMPLER_QBC; s++) {
    dcsim_hvs_t *h = NULL;
    dcsim_error err = { 0 };
    CHECK_INT(dcsim_hvs_new(64, 2, x, 0.1, 7, &h, &err), 0);
    if (!h) continue;
    unsigned char seen[64] = { 0 };
    size_t pts[16], total = 0;
    for (int b = 0; b < 4; b++) {
      size_t k = dcsim_hvs_next_with(h, (dcsim_sampler)s, 8, pts);
      CHECK_INT(k, 8);
      for (size_t i = 0; i < k; i++) {
        CHECK(pts[i] < 64 && !seen[pts[i]]);
        seen[pts[i]] = 1;
        dcsim_hvs_add(h, pts[i], x[2 * pts[i]] * x[2 * pts[i] + 1] + (pts[i] % 3), &err);
        total++;
      }
    }
    CHECK_INT(total, 32);
    /* ASK §5: the weights give every region its share of the space: sum of w_i = n_s */
    double w[32], sum = 0;
    CHECK_INT(dcsim_hvs_fit(h, &err), 0);
    CHECK_INT(dcsim_hvs_weights(h, w), 0);
    for (int i = 0; i < 32; i++) sum += w[i];
    CHECK_REL(sum, 32, 1e-9);
    dcsim_hvs_free(h);
  }
  /* a Latin hypercube of 8 on an 8 x 8 grid: one point per column and per row */
  dcsim_hvs_t *h = NULL;
  dcsim_error err = { 0 };
  CHECK_INT(dcsim_hvs_new(64, 2, x, 0.1, 3, &h, &err), 0);
  size_t pts[8];
  CHECK_INT(dcsim_hvs_next_lhs(h, 8, pts), 8);
  unsigned char col[8] = { 0 }, row[8] = { 0 };
  for (int i = 0; i < 8; i++) {
    col[(int)x[2 * pts[i]]]++;
    row[(int)x[2 * pts[i] + 1]]++;
  }
  for (int i = 0; i < 8; i++) CHECK(col[i] == 1 && row[i] == 1);
  dcsim_hvs_free(h);
  dcsim_sampler s;
  CHECK_INT(dcsim_sampler_parse("hvs-relative", &s), 0);
  CHECK_INT(s, DCSIM_SAMPLER_HVS_RELATIVE);
  CHECK_INT(dcsim_sampler_parse("amart", &s), -1);
}

/* dcsim's problem: which (frequency, cores) states of the E5-2697v3 to measure */
static void test_study(void) {
  dcsim_error err = { 0 };
  dcsim_cpu_profile_t *cpu = NULL;
  CHECK_INT(dcsim_cpu_profile_load("hw-profiles/cpu/xeon-e5-2697v3.xml", &cpu, &err), 0);
  if (!cpu) return;
  double *x = NULL, *y = NULL;
  size_t n = 0;
  CHECK_INT(dcsim_sampling_profile_problem(cpu, "DRAM", &x, &y, &n, &err), 0);
  CHECK_INT(n, 98); /* 7 plain frequencies x 14 threads; turbo has no GHz to interpolate in */
  CHECK_REL(x[0], 1.2, 0);
  CHECK_REL(x[1], 1, 0);
  dcsim_sampling_problem p = { n, 2, x, y };
  dcsim_sampling_opts o;
  dcsim_sampling_default_opts(&o);
  const dcsim_sampler s[] = { DCSIM_SAMPLER_RANDOM, DCSIM_SAMPLER_HVS, DCSIM_SAMPLER_QBC };
  dcsim_sampling_curve c[3];
  CHECK_INT(dcsim_sampling_study(&p, &o, s, 3, c, &err), 0);
  CHECK_INT(c[0].n_steps, 8);
  CHECK_INT(c[0].samples[7], 64);
  /* the adaptive samplers reach 5 % with fewer states than random sampling (16 vs 32) */
  CHECK(c[1].to_target > 0 && c[1].to_target < c[0].to_target);
  CHECK(c[2].to_target > 0 && c[2].to_target < c[0].to_target);
  CHECK(c[1].mre[7] < c[0].mre[7]);
  size_t plan[98], np = 0;
  o.budget = 16;
  CHECK_INT(dcsim_sampling_plan(&p, DCSIM_SAMPLER_HVS, &o, plan, &np, &err), 0);
  CHECK_INT(np, 16);
  CHECK_INT(dcsim_sampling_profile_problem(cpu, "L4", &x, &y, &n, &err), DCSIM_EUSAGE);
  free(x);
  free(y);
  dcsim_cpu_profile_free(cpu);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  test_gbm();
  test_samplers();
  test_study();
  CHECK_DONE();
}
