/* test_gpu_small_domain.c - the opt-in small-domain correction of the GPU model
 * (dcsim/model_gpu.h) and its fit (dcsim/fit_gpu.h): off, it is D3.5's Table 11 model exactly;
 * on, each kernel's time is divided by the occupancy min(1, N/(SM*sat)) and gets its launches;
 * the fit recovers known parameters; a profile without <small-domain> refuses it. */
#include <stdlib.h>

#include "check.h"
#include "dcsim/fit_gpu.h"
#include "dcsim/lib.h"
#include "dcsim/model.h"

static dcsim_gpu_result *gpu_run(const dcsim_dwarf_eval *ev, const dcsim_gpu_profile_t *g,
                                 int small, double n) {
  dcsim_gpu_opts o = { small, n, 0 };
  dcsim_gpu_result *r = NULL;
  dcsim_error err = { 0 };
  int rc = dcsim_model_gpu_opts(ev, g, &o, &r, &err);
  CHECK_INT(rc, 0);
  if (rc) fprintf(stderr, "  %s\n", err.msg);
  return r;
}

static void test_correction(const dcsim_dwarf_t *d, const dcsim_gpu_profile_t *gtx,
                            const dcsim_gpu_profile_t *k20) {
  const dcsim_gpu_spec *g = dcsim_gpu_profile_spec(gtx);
  CHECK_INT(g->has_small_domain, 1);
  dcsim_dwarf_eval *ev = NULL;
  dcsim_error err = { 0 };
  CHECK_INT(dcsim_dwarf_evaluate(d, "5x5x80", NULL, 0, &ev, &err), 0);
  if (!ev) return;
  dcsim_gpu_result *base = NULL;
  CHECK_INT(dcsim_model_gpu(ev, gtx, &base, &err), 0);
  dcsim_gpu_result *off = gpu_run(ev, gtx, 0, 0), *on = gpu_run(ev, gtx, 1, 0);
  if (base && off && on) {
    CHECK_REL(off->time_s, base->time_s, 0); /* off: D3.5 Table 11 unchanged */
    CHECK_REL(off->overhead_s, 0, 0);
    const double N = 2000, occ = N / (13 * g->saturation_threads_per_sm);
    CHECK(occ < 1);
    CHECK_REL(on->parts[0].occupancy, occ, 1e-15);
    CHECK_REL(on->time_s, base->time_s / occ + 7 * 2 * g->launch_s,
              1e-12); /* 7 kernels x 2 invocations */
    CHECK_REL(
        on->time_s,
        dcsim_gpu_small_time(base->time_s, N, 13, 14, g->launch_s, g->saturation_threads_per_sm),
        1e-12);
    CHECK_REL(on->overhead_s, on->time_s - base->time_s, 1e-12);
    CHECK_REL(on->compute_s, base->compute_s, 0); /* the Table 11 groups are reported as they are */
  }
  dcsim_gpu_result_free(on);
  /* a large domain runs at full occupancy: only the launches remain */
  on = gpu_run(ev, gtx, 1, 3.2e6);
  dcsim_gpu_result *off_big = gpu_run(ev, gtx, 0, 3.2e6);
  if (on && off_big) {
    CHECK_REL(on->parts[3].occupancy, 1, 0);
    CHECK_REL(on->time_s, off_big->time_s + 14 * g->launch_s, 1e-12);
    CHECK_REL(off_big->time_s, base->time_s * 3.2e6 / 2000,
              1e-12); /* domain override, linear model */
  }
  dcsim_gpu_result_free(on);
  dcsim_gpu_result_free(off_big);
  /* the K20m has no fitted parameters */
  dcsim_gpu_result *r = NULL;
  dcsim_gpu_opts o = { 1, 0, 0 };
  CHECK_INT(dcsim_model_gpu_opts(ev, k20, &o, &r, &err), DCSIM_EREF);
  CHECK(strstr(err.msg, "tesla-k20m has no <small-domain> correction") != NULL);
  /* and through dcsim_model_run */
  dcsim_model_req rq;
  memset(&rq, 0, sizeof rq);
  rq.ev = ev;
  rq.gpu = gtx;
  rq.gpu_small_domain = 1;
  rq.energy_form = DCSIM_ENERGY_NONE;
  dcsim_prediction p;
  /* superseded in the default model (launch and occupancy terms for every GPU) */
  CHECK_INT(dcsim_model_run(&rq, &p, &err), DCSIM_EUSAGE);
  CHECK(strstr(err.msg, "add --d35") != NULL);
  rq.flags = DCSIM_MODEL_D35;
  CHECK_INT(dcsim_model_run(&rq, &p, &err), 0);
  if (off)
    CHECK_REL(p.time_s,
              dcsim_gpu_small_time(off->time_s, 2000, 13, 14, dcsim_gpu_profile_spec(gtx)->launch_s,
                                   dcsim_gpu_profile_spec(gtx)->saturation_threads_per_sm),
              1e-12);
  dcsim_prediction_release(&p);
  dcsim_gpu_result_free(base);
  dcsim_gpu_result_free(off);
  dcsim_dwarf_eval_free(ev);
}

/* Synthetic observations from known parameters: the fit finds them again. */
static void test_fit(void) {
  const double launch = 4.25e-4, sat = 287.5, launches = 14;
  dcsim_gpu_size_obs obs[8];
  const double n[8] = { 1500, 2600, 3900, 7000, 12000, 50000, 2e5, 3.2e6 };
  for (int i = 0; i < 8; i++) {
    obs[i].domain_size = n[i];
    obs[i].model_s = 3.7e-6 * n[i];
    obs[i].measured_s = dcsim_gpu_small_time(obs[i].model_s, n[i], 13, launches, launch, sat);
  }
  dcsim_gpu_small_fit f;
  dcsim_error err = { 0 };
  CHECK_INT(dcsim_fit_gpu_small_domain(obs, 8, 13, launches, &f, &err), 0);
  CHECK_REL(f.launch_s, launch, 1e-4);
  CHECK_REL(f.saturation_threads_per_sm, sat, 1e-4);
  CHECK(f.rss < 1e-12);
  CHECK_INT(dcsim_fit_gpu_small_domain(obs, 1, 13, launches, &f, &err), DCSIM_ERANGE);
  obs[2].measured_s = 0;
  CHECK_INT(dcsim_fit_gpu_small_domain(obs, 8, 13, launches, &f, &err), DCSIM_ERANGE);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  dcsim_error err = { 0 };
  dcsim_dwarf_t *d = NULL;
  dcsim_gpu_profile_t *gtx = NULL, *k20 = NULL;
  CHECK_INT(dcsim_dwarf_load("dwarfs/acraneb2.xml", &d, &err), 0);
  CHECK_INT(dcsim_gpu_profile_load("hw-profiles/gpu/geforce-gtx970.xml", &gtx, &err), 0);
  CHECK_INT(dcsim_gpu_profile_load("hw-profiles/gpu/tesla-k20m.xml", &k20, &err), 0);
  if (d && gtx && k20) test_correction(d, gtx, k20);
  test_fit();
  dcsim_dwarf_free(d);
  dcsim_gpu_profile_free(gtx);
  dcsim_gpu_profile_free(k20);
  CHECK_DONE();
}
