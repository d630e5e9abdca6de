/* test_model_multigpu.c - a GPU dwarf call split over G GPUs (dcsim/model_multigpu.h): the memory
 * check that refuses D3.5 §6.2's operational ALARO domain on one GPU, the split of the Table 11
 * time, the host-device transfer and the halo, the energy of G GPUs, and the errors. */
#include <stdlib.h>

#include "check.h"
#include "dcsim/lib.h"
#include "dcsim/model.h"

static dcsim_dwarf_eval *eval(const char *path, const char *cs, dcsim_dwarf_t **d) {
  dcsim_error err = { 0 };
  dcsim_dwarf_eval *e = NULL;
  *d = NULL;
  if (dcsim_dwarf_load(path, d, &err) || dcsim_dwarf_evaluate(*d, cs, NULL, 0, &e, &err))
    fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.msg);
  CHECK(e != NULL);
  return e;
}

static dcsim_gpu_profile_t *gpu(const char *path) {
  dcsim_error err = { 0 };
  dcsim_gpu_profile_t *p = NULL;
  if (dcsim_gpu_profile_load(path, &p, &err)) fprintf(stderr, "%s: %s\n", path, err.msg);
  CHECK(p != NULL);
  return p;
}

static int run(const dcsim_dwarf_eval *ev, const dcsim_gpu_profile_t *g, unsigned gpus, int small,
               dcsim_prediction *p, dcsim_error *err) {
  dcsim_model_req rq;
  memset(&rq, 0, sizeof rq);
  rq.ev = ev;
  rq.gpu = g;
  rq.gpus = gpus;
  rq.gpu_small_domain = small;
  rq.energy_form = DCSIM_ENERGY_53;
  rq.flags = DCSIM_MODEL_D35; /* the split of D3.5's model; the default model: test_arch_split */
  return dcsim_model_run(&rq, p, err);
}

/* D3.5 §6.2: 540x450x65 fits none of the three GPUs; 999 B per point (acraneb2.xml) */
static void test_alaro_operational(const dcsim_gpu_profile_t *gtx, const dcsim_gpu_profile_t *k20,
                                   const dcsim_gpu_profile_t *m2070) {
  dcsim_dwarf_t *d = NULL;
  dcsim_dwarf_eval *ev = eval("dwarfs/acraneb2.xml", "alaro-operational", &d);
  if (!ev) {
    dcsim_dwarf_free(d);
    return;
  }
  const double N = 540.0 * 450 * 65, need = 999 * N;
  CHECK_REL(ev->domain_size, N, 0);
  dcsim_error err = { 0 };
  dcsim_prediction p;
  const dcsim_gpu_profile_t *g3[3] = { gtx, k20, m2070 };
  const unsigned gmin[3] = { 4, 3, 3 }; /* ceil(15.78 GB / 4, 5, 6 GiB) */
  for (int i = 0; i < 3; i++) {
    unsigned m = 0;
    CHECK_INT(dcsim_multigpu_check_fit(ev, g3[i], 1, &m, &err), DCSIM_ERANGE);
    CHECK_INT(m, gmin[i]);
    CHECK_INT(run(ev, g3[i], 0, 0, &p, &err), DCSIM_ERANGE); /* the single-GPU model refuses it */
    CHECK_INT(run(ev, g3[i], gmin[i] - 1, 0, &p, &err), DCSIM_ERANGE);
    CHECK_INT(dcsim_multigpu_check_fit(ev, g3[i], gmin[i], NULL, &err), 0);
  }
  CHECK(strstr(err.msg, "split the domain over at least 3 GPUs") != NULL);
  /* four GTX 970: Table 11 at N/4 (linear in N), plus the copy in and out over PCIe */
  dcsim_prediction one;
  dcsim_dwarf_eval big = *ev; /* the same dwarf at the full size, unchecked, for the reference */
  dcsim_gpu_result *full = NULL;
  CHECK_INT(dcsim_model_gpu(&big, gtx, &full, &err), 0);
  CHECK_INT(run(ev, gtx, 4, 0, &one, &err), 0);
  if (full && one.multigpu) {
    CHECK_REL(one.multigpu->domain_per_gpu, N / 4, 1e-15);
    CHECK_REL(one.multigpu->memory_per_gpu_byte, need / 4, 1e-15);
    CHECK_REL(one.multigpu->kernel_s, full->time_s / 4, 1e-12);
    CHECK_REL(one.multigpu->transfer_s, 1998 * N / 4 / 1.2e10, 1e-12);
    CHECK_REL(one.multigpu->halo_s, 0, 0); /* radiation columns are independent */
    CHECK_REL(one.time_s, full->time_s / 4 + 1998 * N / 4 / 1.2e10, 1e-12);
    CHECK_REL(one.gpu->time_s, one.multigpu->kernel_s, 0);
    /* §5.5 with four GPUs at S = 0.5871 of 155 W */
    CHECK_REL(one.gpu_j, one.time_s * 4 * 0.5871 * 155, 1e-12);
    CHECK_REL(one.energy_j, one.gpu_j, 1e-12); /* no host CPU given */
  }
  dcsim_gpu_result_free(full);
  dcsim_prediction_release(&one);
  dcsim_dwarf_eval_free(ev);
  dcsim_dwarf_free(d);
}

/* The 200x200x80 domain of D3.5 fits one GPU: with gpus = 1 the split model is D3.5's plus the
 * host transfer; the default (gpus = 0) is D3.5's model exactly. Split over 8 GPUs with the
 * small-domain correction, each part is small enough for the occupancy ramp. */
static void test_fits(const dcsim_gpu_profile_t *gtx) {
  dcsim_dwarf_t *d = NULL;
  dcsim_dwarf_eval *ev = eval("dwarfs/acraneb2.xml", "200x200x80", &d);
  dcsim_error err = { 0 };
  dcsim_prediction p0, p1, p8;
  if (ev && run(ev, gtx, 0, 0, &p0, &err) == 0 && run(ev, gtx, 1, 0, &p1, &err) == 0) {
    CHECK_REL(p0.time_s, 11.8346, 1e-5); /* D3.5 Table 18, as reproduced (doc/validation.md) */
    CHECK(p0.multigpu == NULL);
    CHECK_REL(p1.time_s, p0.time_s + 1998 * 3.2e6 / 1.2e10, 1e-12);
    dcsim_prediction_release(&p0);
    dcsim_prediction_release(&p1);
  } else {
    CHECK(0);
  }
  dcsim_dwarf_eval_free(ev);
  dcsim_dwarf_free(d);
  ev = eval("dwarfs/acraneb2.xml", "10x10x80", &d);
  if (ev && run(ev, gtx, 8, 1, &p8, &err) == 0) {
    const dcsim_gpu_spec *g = dcsim_gpu_profile_spec(gtx);
    CHECK_REL(p8.multigpu->domain_per_gpu, 1000, 0);
    CHECK_REL(p8.gpu->parts[0].occupancy, 1000 / (13 * g->saturation_threads_per_sm), 1e-12);
    dcsim_prediction_release(&p8);
  } else {
    CHECK(0);
  }
  dcsim_dwarf_eval_free(ev);
  dcsim_dwarf_free(d);
}

/* halo-byte with GPUS: 2 neighbours x 2 rows x NX*NZ doubles for the inner GPUs */
static void test_halo(const dcsim_gpu_profile_t *gtx, const dcsim_gpu_profile_t *nolink) {
  dcsim_dwarf_t *d = NULL;
  dcsim_dwarf_eval *ev = eval("tests/data/gpu/halo.xml", "c", &d);
  dcsim_error err = { 0 };
  dcsim_prediction p;
  if (ev) {
    const double N = 385.0 * 240 * 73;
    for (unsigned G = 1; G <= 4; G++) {
      CHECK_INT(run(ev, gtx, G, 0, &p, &err), 0);
      if (!p.multigpu) continue;
      double h = 2 * 2 * 385.0 * 73 * 8 * fmin(G - 1, 2) / 2;
      CHECK_REL(p.multigpu->halo_s, G > 1 ? 2 * h / 1.2e10 : 0, 1e-12);
      CHECK_REL(p.multigpu->transfer_s, 1250 * N / G / 1.2e10, 1e-12);
      CHECK_REL(p.time_s, p.multigpu->kernel_s + p.multigpu->transfer_s + p.multigpu->halo_s,
                1e-15);
      dcsim_prediction_release(&p);
    }
    CHECK_INT(run(ev, nolink, 2, 0, &p, &err), DCSIM_EREF);
    CHECK(strstr(err.msg, "no-link has no <host-link>") != NULL);
  }
  dcsim_dwarf_eval_free(ev);
  dcsim_dwarf_free(d);
  /* a dwarf without <multi-gpu> cannot be split; its single-GPU model is unchecked */
  ev = eval("tests/data/dwarf/gpu-edge.xml", "one", &d);
  if (ev) {
    CHECK_INT(run(ev, gtx, 2, 0, &p, &err), DCSIM_EREF);
    CHECK(strstr(err.msg, "has no <multi-gpu> element") != NULL);
    unsigned m = 0;
    CHECK_INT(dcsim_multigpu_check_fit(ev, gtx, 1, &m, &err), 0);
    CHECK_INT(m, 1);
    CHECK_INT(dcsim_multigpu_check_fit(ev, gtx, 0, &m, &err), DCSIM_ERANGE);
  }
  dcsim_dwarf_eval_free(ev);
  dcsim_dwarf_free(d);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  dcsim_gpu_profile_t *gtx = gpu("hw-profiles/gpu/geforce-gtx970.xml"),
                      *k20 = gpu("hw-profiles/gpu/tesla-k20m.xml"),
                      *m2070 = gpu("hw-profiles/gpu/tesla-m2070q.xml"),
                      *nolink = gpu("tests/data/gpu/no-link.xml");
  if (gtx && k20 && m2070 && nolink) {
    test_alaro_operational(gtx, k20, m2070);
    test_fits(gtx);
    test_halo(gtx, nolink);
  }
  dcsim_gpu_profile_free(gtx);
  dcsim_gpu_profile_free(k20);
  dcsim_gpu_profile_free(m2070);
  dcsim_gpu_profile_free(nolink);
  CHECK_DONE();
}
