/* test_model_irregular.c - the cache-line over-fetch model (dcsim/model_irregular.h, seed
 * finite-volume-irregular-performance "FV", Eq. 4-6) on the Sandy Bridge core of FV Table 1,
 * its use by the CPU model, and the bad inputs of the <irregular> and <cache-hierarchy> elements.
 * FV Table 2 itself is checked by tools/validate-papers (ctest papers_tables). */
#include <stdlib.h>

#include "check.h"
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
  dcsim_irregular_level lv[DCSIM_IRREGULAR_MAX_LEVELS];
  size_t n = 0, b = 9;
  const double tets = 7.385e5;
  /* W = 140 words: every level above holds the working set, WpF = 8/11 (Eq. 6):
   * P_i = BW_i*11/64 -> 6.07, 6.04, 5.19, 2.95 GFLOP/s (FV Table 2, first column) */
  dcsim_cpu_loop l = fv_loop(tets, 140, 0);
  CHECK_INT(dcsim_model_irregular(&l, 1, snb, &rt, lv, &n, &b, &err), 0);
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
  CHECK_INT(dcsim_model_irregular(&l, 1, snb, &rt, lv, &n, &b, &err), 0);
  CHECK_REL(lv[1].hit_rate, 0.125, 1e-15);
  CHECK_REL(lv[1].word_per_flop, 36.0 / 11, 1e-14);
  CHECK_REL(lv[1].traffic_byte, 8 * 36 * tets, 1e-14);
  CHECK_INT(b, 0); /* L1, h = 140/32000: the slowest level */
  /* Eq. 4 (a hit costs one word): L1 at W = 4000, h = 0.035: WpF = (8 + 4*(0.035 + 0.965*8))/11 */
  l = fv_loop(tets, 4000, 1);
  CHECK_INT(dcsim_model_irregular(&l, 1, snb, &rt, lv, &n, &b, &err), 0);
  CHECK_REL(lv[0].word_per_flop, (8 + 4 * (0.035 + 0.965 * 8)) / 11, 1e-14);
  CHECK_REL(lv[2].word_per_flop, 12.0 / 11, 1e-14); /* L3: 32000 >= 4000, hit: R + U */
  /* a node's share scales the traffic, not the hit rates; an empty working set always hits */
  double full = lv[0].traffic_byte;
  CHECK_INT(dcsim_model_irregular(&l, 0.25, snb, &rt, lv, &n, &b, &err), 0);
  CHECK_REL(lv[0].traffic_byte, full / 4, 1e-14);
  l = fv_loop(tets, 0, 0);
  CHECK_INT(dcsim_model_irregular(&l, 1, snb, &rt, lv, &n, &b, &err), 0);
  CHECK_REL(lv[0].hit_rate, 1, 0);
  /* not an irregular loop */
  l.irregular = 0;
  CHECK_INT(dcsim_model_irregular(&l, 1, snb, &rt, lv, &n, &b, &err), DCSIM_EREF);
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
  dcsim_cpu_profile_t *snb = load_cpu("hw-profiles/cpu/xeon-e5-2670.xml");
  if (snb) {
    test_levels(snb);
    test_cpu_model(snb);
  }
  test_bad_inputs();
  dcsim_cpu_profile_free(snb);
  CHECK_DONE();
}
