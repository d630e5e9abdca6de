/* test_model_irregular.c - the cache-line over-fetch model (dcsim/model_irregular.h, seed
 * finite-volume-irregular-performance "FV", Eq. 4-6) on the Sandy Bridge core of FV Table 1,
 * its use by the CPU model, and the bad inputs of the <irregular> and <cache-hierarchy> elements.
 * FV Table 2 itself is checked by tools/validate (ctest validation_fv-irregular). */
#include <stdlib.h>

#include "check.h"
#include "dcsim/lib.h"
#include "dcsim/model.h"
#include "dcsim/model_irregular.h"

static dcsim_cpu_profile_t *load_cpu(const char *path) {
  dcsim_error err = { 0 };
  dcsim_cpu_profile_t *p = NULL;
  if (dcsim_cpu_profile_load(path, &p, &err))
    fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.msg);
  CHECK(p != NULL);
  return p;
}

/* The FV kernel as numbers: W flop, 8 regular and 4 irregular words per 11 flop. */
static dcsim_cpu_loop fv_loop(double tets, double wset, double hit) {
  dcsim_cpu_loop l;
  memset(&l, 0, sizeof l);
  l.name = "flux";
  l.work_flop = 11 * tets;
  l.irregular = 1;
  l.word_byte = 8;
  l.regular_word = 8 * tets;
  l.irregular_word = 4 * tets;
  l.working_set_word = wset;
  l.hit_word = hit;
  l.has_flop = 1;
  l.U = 1;
  return l;
}

static void test_levels(const dcsim_cpu_profile_t *snb) {
  dcsim_cpu_state st = { 2.6, NULL, 1 };
  dcsim_cpu_rates rt;
  dcsim_error err = { 0 };
  CHECK_INT(dcsim_cpu_profile_rates(snb, &st, &rt, &err), 0);
  dcsim_irregular_machine m;
  CHECK_INT(dcsim_irregular_machine_cpu(snb, &st, &rt, &m, &err), 0);
  CHECK_INT(m.link_bps == 0, 1); /* one core: one socket */
  dcsim_irregular_level lv[DCSIM_IRREGULAR_MAX_LEVELS];
  size_t n = 0, b = 9;
  const double tets = 7.385e5;
  /* W = 140 words: every level above holds the working set, WpF = 8/11 (Eq. 6):
   * P_i = BW_i*11/64 -> 6.07, 6.04, 5.19, 2.95 GFLOP/s (FV Table 2, first column) */
  dcsim_cpu_loop l = fv_loop(tets, 140, 0);
  CHECK_INT(dcsim_model_irregular(&l, 1, &m, lv, &n, &b, &err), 0);
  CHECK_INT(n, 4);
  CHECK_STR(lv[0].name, "L1");
  CHECK_STR(lv[3].name, "DRAM");
  CHECK_INT(b, 3);
  const double bw[4] = { 35.31e9, 35.14e9, 30.22e9, 17.16e9 }; /* FV Table 1 */
  for (int i = 0; i < 4; i++) {
    CHECK_REL(lv[i].hit_rate, 1, 0);
    CHECK_REL(lv[i].word_per_flop, 8.0 / 11, 1e-15);
    CHECK_REL(l.work_flop / lv[i].time_s, bw[i] * 11 / 64, 1e-12); /* FV Eq. 5 */
  }
  /* W = 32000 words: L2 sees h = 4000/32000 (Eq. 6): WpF = (8 + 4*0.875*8)/11 = 36/11 */
  l = fv_loop(tets, 32000, 0);
  CHECK_INT(dcsim_model_irregular(&l, 1, &m, lv, &n, &b, &err), 0);
  CHECK_REL(lv[1].hit_rate, 0.125, 1e-15);
  CHECK_REL(lv[1].word_per_flop, 36.0 / 11, 1e-14);
  CHECK_REL(lv[1].traffic_byte, 8 * 36 * tets, 1e-14);
  CHECK_INT(b, 0); /* L1, h = 140/32000: the slowest level */
  /* Eq. 4 (a hit costs one word): L1 at W = 4000, h = 0.035: WpF = (8 + 4*(0.035 + 0.965*8))/11 */
  l = fv_loop(tets, 4000, 1);
  CHECK_INT(dcsim_model_irregular(&l, 1, &m, lv, &n, &b, &err), 0);
  CHECK_REL(lv[0].word_per_flop, (8 + 4 * (0.035 + 0.965 * 8)) / 11, 1e-14);
  CHECK_REL(lv[2].word_per_flop, 12.0 / 11, 1e-14); /* L3: 32000 >= 4000, hit: R + U */
  /* a node's share scales the traffic, not the hit rates; an empty working set always hits */
  double full = lv[0].traffic_byte;
  CHECK_INT(dcsim_model_irregular(&l, 0.25, &m, lv, &n, &b, &err), 0);
  CHECK_REL(lv[0].traffic_byte, full / 4, 1e-14);
  l = fv_loop(tets, 0, 0);
  CHECK_INT(dcsim_model_irregular(&l, 1, &m, lv, &n, &b, &err), 0);
  CHECK_REL(lv[0].hit_rate, 1, 0);
  /* not an irregular loop */
  l.irregular = 0;
  CHECK_INT(dcsim_model_irregular(&l, 1, &m, lv, &n, &b, &err), DCSIM_EREF);
}

/* The CPU model takes the slowest level as the loop's memory time and names it. */
static void test_cpu_model(const dcsim_cpu_profile_t *snb) {
  dcsim_error err = { 0 };
  dcsim_dwarf_t *d = NULL;
  dcsim_dwarf_eval *ev = NULL;
  CHECK_INT(dcsim_dwarf_load("dwarfs/fv-tetra.xml", &d, &err), 0);
  if (!d) return;
  CHECK_INT(dcsim_dwarf_evaluate(d, "W500000", NULL, 0, &ev, &err), 0);
  if (ev) {
    CHECK_INT(ev->loops[0].irregular, 1);
    CHECK_REL(ev->loops[0].traffic_byte, 0, 0);
    dcsim_cpu_node_spec ns = { snb, { 2.6, NULL, 1 }, 1, 0 };
    dcsim_cpu_result *r = NULL;
    CHECK_INT(dcsim_model_cpu(ev, &ns, 1, 0, &r, &err), 0);
    if (r) {
      CHECK_STR(r->parts[0].level, "L3"); /* FV Table 2: L3 is the minimum at W = 500000 */
      /* L3 sees h = 32000/500000: (8 + 4*0.936*8)/11 word/flop at 30.22 GB/s */
      CHECK_REL(5.5e8 / r->time_s, 30.22e9 * 11 / (8 * (8 + 4 * 0.936 * 8)), 1e-12);
      CHECK_INT(r->parts[0].compute_bound, 0);
    }
    dcsim_cpu_result_free(r);
    /* a profile without <cache-hierarchy> cannot run it */
    dcsim_cpu_profile_t *hsw = load_cpu("hw-profiles/cpu/xeon-e5-2697v3.xml");
    if (hsw) {
      ns.cpu = hsw;
      r = NULL;
      CHECK_INT(dcsim_model_cpu(ev, &ns, 1, 0, &r, &err), DCSIM_EREF);
      CHECK(strstr(err.msg, "profile xeon-e5-2697v3 needs a <cache-hierarchy>") != NULL);
      dcsim_cpu_profile_free(hsw);
    }
  }
  dcsim_dwarf_eval_free(ev);
  dcsim_dwarf_free(d);
}

/* FV §8: more cores share the L3, a resident instance leaves DRAM, two sockets cross QPI */
static void test_cores(const dcsim_cpu_profile_t *snb) {
  dcsim_error err = { 0 };
  dcsim_cpu_rates rt;
  dcsim_irregular_machine m;
  dcsim_irregular_level lv[DCSIM_IRREGULAR_MAX_LEVELS];
  size_t n = 0, b = 9;
  dcsim_cpu_state st8 = { 2.6, NULL, 8 }, st16 = { 2.6, NULL, 16 };
  CHECK_INT(dcsim_cpu_profile_rates(snb, &st8, &rt, &err), 0);
  CHECK_INT(dcsim_irregular_machine_cpu(snb, &st8, &rt, &m, &err), 0);
  CHECK_REL(m.levels[3].above_byte, 20e6 / 8, 1e-15); /* one socket: 8 threads share its L3 */
  CHECK_REL(m.resident_byte, 20e6, 1e-15);
  CHECK_REL(m.link_bps, 0, 0);
  /* 5,000,000 tetrahedra, b = n: DRAM sees h = 312,500/5e6 (Fig. 15's minimum, 1.59 GFLOP/s) */
  dcsim_cpu_loop l = fv_loop(5e6, 5e6, 0);
  l.footprint_byte = 64 * 5e6;
  l.exchange_word = 5e6;
  CHECK_INT(dcsim_model_irregular(&l, 1, &m, lv, &n, &b, &err), 0);
  CHECK_INT(n, 4);
  CHECK_REL(lv[3].hit_rate, 312500 / 5e6, 1e-15);
  CHECK_REL(l.work_flop / lv[b].time_s, 44e9 * 11 / (8 * (8 + 4 * (1 - 0.0625) * 8)), 1e-12);
  /* 16 threads on two sockets: 8 per L3, the link appears */
  CHECK_INT(dcsim_cpu_profile_rates(snb, &st16, &rt, &err), 0);
  CHECK_INT(dcsim_irregular_machine_cpu(snb, &st16, &rt, &m, &err), 0);
  CHECK_REL(m.levels[3].above_byte, 20e6 / 8, 1e-15);
  CHECK_REL(m.resident_byte, 40e6, 1e-15);
  CHECK_REL(m.link_bps, 32e9, 0);
  /* 500,000 tetrahedra (32 MB) x 100 steps stay in the two L3s: DRAM moves them once; QPI binds
   * (44 GFLOP/s) */
  l = fv_loop(5e7, 140, 0);
  l.footprint_byte = 64 * 5e5;
  l.exchange_word = 5e7;
  CHECK_INT(dcsim_model_irregular(&l, 1, &m, lv, &n, &b, &err), 0);
  CHECK_INT(n, 5);
  CHECK_STR(lv[4].name, "link");
  CHECK_REL(lv[3].traffic_byte, 64 * 5e5, 1e-15);
  CHECK_REL(lv[3].word_per_flop, 64 * 5e5 / 8 / 5.5e8, 1e-15);
  CHECK_INT(b, 4);
  CHECK_REL(l.work_flop / lv[b].time_s, 44e9, 1e-12); /* FV §8: 32 GB/s / 8 bytes x 11 flop */
  /* without a footprint it is not resident */
  l.footprint_byte = 0;
  CHECK_INT(dcsim_model_irregular(&l, 1, &m, lv, &n, &b, &err), 0);
  CHECK_REL(lv[3].traffic_byte, 64 * 5e7, 1e-15);  /* 64 bytes per tetrahedron and step */
  CHECK_REL(lv[3].word_per_flop, 8.0 / 11, 1e-15); /* Eq. 6 */
}

/* FV §7 on the K20: the theoretical 35.75 GFLOP/s, 1.75 accesses at b = 8, 192 bytes at worst */
static void test_gpu(void) {
  dcsim_error err = { 0 };
  dcsim_gpu_profile_t *k20 = NULL;
  CHECK_INT(dcsim_gpu_profile_load("hw-profiles/gpu/tesla-k20m.xml", &k20, &err), 0);
  if (!k20) return;
  dcsim_irregular_machine m;
  dcsim_irregular_level lv[DCSIM_IRREGULAR_MAX_LEVELS];
  size_t n = 0, b = 9;
  CHECK_INT(dcsim_irregular_machine_gpu(k20, &m, &err), 0);
  CHECK_INT(m.n_levels, 2);
  CHECK_REL(m.bw_bps[1], 2.08e11, 0); /* DRAM: the characteristics' memory bandwidth */
  dcsim_cpu_loop l = fv_loop(1e6, 8, 0);
  CHECK_INT(dcsim_model_irregular(&l, 1, &m, lv, &n, &b, &err), 0);
  CHECK_STR(lv[b].name, "DRAM");
  CHECK_REL(l.work_flop / lv[b].time_s, 208e9 * 11 / 64, 1e-12);
  l = fv_loop(1e6, 1e15, 0);
  CHECK_INT(dcsim_model_irregular(&l, 1, &m, lv, &n, &b, &err), 0);
  CHECK_REL(lv[1].traffic_byte / 1e6, 192, 1e-6); /* 5.75 reads + 0.25 writes of 32 bytes */
  /* a whole dwarf on the GPU; a loop that is not irregular has no model there */
  dcsim_dwarf_t *d = NULL;
  dcsim_dwarf_eval *ev = NULL;
  dcsim_cpu_result *r = NULL;
  CHECK_INT(dcsim_dwarf_load("dwarfs/fv-tetra.xml", &d, &err), 0);
  if (d && dcsim_dwarf_evaluate(d, "n1M-b8", NULL, 0, &ev, &err) == 0) {
    CHECK(dcsim_dwarf_has_gpu_model(d));
    CHECK_INT(dcsim_model_irregular_gpu(ev, k20, &r, &err), 0);
    if (r) CHECK_REL(1.1e9 / r->time_s, 208e9 * 11 / 64, 1e-12);
    dcsim_cpu_result_free(r);
    r = NULL;
    ev->loops[0].irregular = 0;
    CHECK_INT(dcsim_model_irregular_gpu(ev, k20, &r, &err), DCSIM_EREF);
    CHECK(strstr(err.msg, "has no <irregular> accesses") != NULL);
  }
  dcsim_dwarf_eval_free(ev);
  dcsim_dwarf_free(d);
  dcsim_gpu_profile_free(k20);
  /* a GPU without <cache-hierarchy> */
  dcsim_gpu_profile_t *gtx = NULL;
  CHECK_INT(dcsim_gpu_profile_load("hw-profiles/gpu/geforce-gtx970.xml", &gtx, &err), 0);
  if (gtx) CHECK_INT(dcsim_irregular_machine_gpu(gtx, &m, &err), DCSIM_EREF);
  dcsim_gpu_profile_free(gtx);
}

static void test_bad_inputs(void) {
  dcsim_error err = { 0 };
  dcsim_dwarf_t *d = NULL;
  CHECK_INT(dcsim_dwarf_load("tests/data/irregular/irregular-with-q.xml", &d, &err), DCSIM_ESCHEMA);
  CHECK_INT(err.line, 7);
  CHECK(strstr(err.msg, "an <irregular> loop has no traffic-byte") != NULL);
  CHECK_INT(dcsim_dwarf_load("tests/data/irregular/mop-without-q.xml", &d, &err), DCSIM_ESCHEMA);
  CHECK(strstr(err.msg, "traffic-byte is required with <mop>") != NULL);
  dcsim_cpu_profile_t *p = NULL;
  CHECK_INT(dcsim_cpu_profile_load("tests/data/irregular/level-without-table.xml", &p, &err),
            DCSIM_EREF);
  CHECK_INT(err.line, 9);
  CHECK(strstr(err.msg, "<level name=\"L3\">: the profile has no L3 bandwidth table") != NULL);
  CHECK(d == NULL && p == NULL);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  dcsim_cpu_profile_t *snb = load_cpu("hw-profiles/cpu/xeon-e5-2670.xml");
  if (snb) {
    test_levels(snb);
    test_cpu_model(snb);
    test_cores(snb);
  }
  test_gpu();
  test_bad_inputs();
  dcsim_cpu_profile_free(snb);
  CHECK_DONE();
}
