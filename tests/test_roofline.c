/* test_roofline.c — roofline ceilings from the profiles and the placement of loops and kernels,
 * against D3.5 Tables 25-29 (Haswell), 37 (Skylake), 10 (GPUs), 1 (GTX 970 kernels) and §4.3. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "dcsim/dwarf.h"
#include "dcsim/hwprofile.h"
#include "dcsim/lib.h"
#include "dcsim/roofline.h"
#include "dcsim/roofline_report.h"

static const dcsim_roofline_point *find(const dcsim_roofline *r, const char *name) {
  for (size_t i = 0; i < r->n_points; i++)
    if (strcmp(r->points[i].name, name) == 0) return &r->points[i];
  return NULL;
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  dcsim_error err;
  dcsim_cpu_profile_t *hsw = NULL, *skl = NULL;
  dcsim_gpu_profile_t *gtx = NULL;
  dcsim_dwarf_t *sh = NULL, *ac = NULL;
  CHECK_INT(dcsim_cpu_profile_load("hw-profiles/cpu/xeon-e5-2697v3.xml", &hsw, &err), 0);
  CHECK_INT(dcsim_cpu_profile_load("hw-profiles/cpu/xeon-gold-6148.xml", &skl, &err), 0);
  CHECK_INT(dcsim_gpu_profile_load("hw-profiles/gpu/geforce-gtx970.xml", &gtx, &err), 0);
  CHECK_INT(dcsim_dwarf_load("dwarfs/spherical-harmonics.xml", &sh, &err), 0);
  CHECK_INT(dcsim_dwarf_load("dwarfs/acraneb2.xml", &ac, &err), 0);
  if (!hsw || !skl || !gtx || !sh || !ac) CHECK_DONE();

  /* Haswell at 2.6 GHz, 14 threads: Tables 25-29, row 14, column 2.6 */
  dcsim_cpu_state st = { 2.6, NULL, 14 };
  dcsim_roofline *r = NULL;
  CHECK_INT(dcsim_roofline_cpu(hsw, &st, NULL, NULL, &r, &err), 0);
  if (r) {
    CHECK_REL(r->peak_flops, 291.2e9, 1e-12);
    CHECK_INT(r->n_ceilings, 4);
    CHECK_STR(r->ceilings[0].name, "L1");
    CHECK_REL(r->ceilings[0].bw_bps, 1835.762e9, 1e-12);
    CHECK_REL(r->ceilings[3].bw_bps, 56.768e9, 1e-12);
    CHECK_INT(r->n_points, 0);
    /* min(peak, I x bandwidth) */
    CHECK_REL(dcsim_roofline_attainable(r, 3, 0.1), 5.6768e9, 1e-12);
    CHECK_REL(dcsim_roofline_attainable(r, 3, 100), 291.2e9, 1e-12);
  }
  dcsim_roofline_free(r);

  /* Skylake 6148, 1 core (Table 37) with SH TCO639: the dgemm loop of §4.3's worked example */
  dcsim_dwarf_eval *ev = NULL;
  CHECK_INT(dcsim_dwarf_evaluate(sh, "TCO639", NULL, 0, &ev, &err), 0);
  dcsim_cpu_state s1 = { 2.4, NULL, 1 };
  r = NULL;
  CHECK_INT(dcsim_roofline_cpu(skl, &s1, ev, "spherical-harmonics TCO639", &r, &err), 0);
  if (r) {
    CHECK_REL(r->peak_flops, 76.8e9, 1e-12);
    CHECK_REL(r->ceilings[3].bw_bps, 26.61e9, 1e-12);
    CHECK_INT(r->n_points, 4);    /* the three loops with flops and the whole dwarf */
    CHECK_INT(r->n_unplaced, 12); /* the 12 data-movement loops (W = 0) */
    const dcsim_roofline_point *p = find(r, "ledir->dgemm_327");
    CHECK(p != NULL);
    if (p) {
      CHECK_REL(p->work_flop, 8.70736e12, 1e-4);  /* D3.5 §4.3 */
      CHECK_REL(p->intensity, 2.0 / 10.69, 1e-9); /* Table 24: W and Q per iteration */
      CHECK_REL(p->perf_flops, p->work_flop / p->time_s, 1e-12);
    }
    const dcsim_roofline_point *tot = &r->points[r->n_points - 1];
    CHECK(tot->is_total);
    /* the dwarf's performance is W / T of the whole model time, so below every loop's best */
    CHECK(tot->perf_flops < p->perf_flops * 10);
  }
  dcsim_roofline_free(r);
  dcsim_dwarf_eval_free(ev);

  /* GTX 970, ACRANEB2 200x200x80 (Table 1): Q, T and W per kernel; W = 1.513 flop per FP64
   * instruction (the FMA share, doc/models.md "Work counts") */
  ev = NULL;
  CHECK_INT(dcsim_dwarf_evaluate(ac, "200x200x80", NULL, 0, &ev, &err), 0);
  r = NULL;
  CHECK_INT(dcsim_roofline_gpu(gtx, ev, "acraneb2 200x200x80", &r, &err), 0);
  if (r) {
    CHECK_REL(r->peak_flops, 1.44e11, 1e-12); /* Table 10 */
    CHECK_REL(r->peak_sp_flops, 4.59e12, 1e-12);
    CHECK_REL(r->ceilings[0].bw_bps, 2.30e11, 1e-12);
    static const char *const k[] = { "acraneb_transt3_212_gpu_A", "acraneb_transt3_341_gpu_A",
                                     "acraneb_transt3_463_gpu_A", "acraneb_transt3_589_gpu_A",
                                     "acraneb_transt3_649_gpu_A", "acraneb_transt3_827_gpu_A",
                                     "acraneb_transt3_956_gpu_A" };
    static const double q[] = {
      4.25e9, 4.25e9, 6.32e9, 9.22e9, 5.31e9, 6.32e9, 8.23e9
    }; /* Table 1, Q [byte] */
    static const double t[] = { 1.78, 1.44, 2.52, 0.244, 3.23, 2.39, 0.251 }; /* Table 1, T [s] */
    static const double idp[] = {
      9.08e3, 7.17e3, 1.68e4, 4.93e2, 1.62e4, 1.53e4, 4.68e2
    }; /* Table 9 */
    static const double w[] = {
      8.85e10, 7.05e10, 1.63e11, 4.67e9, 1.59e11, 1.49e11, 4.44e9
    }; /* Table 1, W [flop] */
    CHECK_INT(r->n_points, 8);
    for (int i = 0; i < 7; i++) {
      const dcsim_roofline_point *p = find(r, k[i]);
      CHECK(p != NULL);
      if (!p) continue;
      CHECK_REL(p->traffic_byte, q[i],
                0.08); /* G_r of Table 9 x N x 2 invocations; 589/956 differ by 3-7 % */
      CHECK_REL(p->time_s, t[i], 0.02);
      CHECK_REL(p->work_flop, 1.513 * idp[i] * 200 * 200 * 80 * 2, 1e-9);
      CHECK_REL(p->work_flop, w[i], 0.025); /* one FMA share for 7 kernels: within 2.2 % */
    }
    const dcsim_roofline_point *tot = &r->points[7];
    CHECK(tot->is_total);
    CHECK_REL(tot->time_s, 11.9, 0.01); /* Table 1 SUM */
    CHECK_REL(tot->traffic_byte, 4.39e10, 0.03);
    CHECK_REL(tot->work_flop, 6.40e11, 0.01); /* Table 1 SUM: 6.344e11 */
    const dcsim_roofline_point *k589 = find(r, k[3]);
    if (k589) CHECK_REL(k589->intensity, 0.507, 0.01); /* Table 1: below the ridge (0.626) */
  }
  dcsim_roofline_free(r);
  dcsim_dwarf_eval_free(ev);

  /* text, JSON and CSV forms are written without error */
  FILE *f = fopen("/dev/null", "w");
  r = NULL;
  if (f && dcsim_roofline_cpu(hsw, &st, NULL, NULL, &r, &err) == 0) {
    dcsim_roofline_write_text(f, r, NULL);
    dcsim_roofline_write_json(f, r, NULL);
    dcsim_roofline_write_csv(f, r, NULL);
  }
  if (f) fclose(f);
  dcsim_roofline_free(r);
  dcsim_dwarf_free(sh);
  dcsim_dwarf_free(ac);
  dcsim_cpu_profile_free(hsw);
  dcsim_cpu_profile_free(skl);
  dcsim_gpu_profile_free(gtx);
  CHECK_DONE();
}
