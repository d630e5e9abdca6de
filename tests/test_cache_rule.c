/* test_cache_rule.c — the cache rule (dcsim/cache_rule.h, doc/models.md "Level weights on another
 * CPU"): the level weights of a loop carried to another CPU by where its working set is resident.
 *   - on synthetic capacities: identity on equal caches, a working set that fits the target only
 *     (all of the DRAM weight to L3), a partial fit (the capacity-ratio share), a smaller target
 *     (L3 weight to DRAM), sockets in use by placement, an unknown L3;
 *   - the E5-2697 v3 (the CPU BiFFT's and SH's weights were measured on) unchanged bit for bit;
 *   - BiFFT alaro on a full EPYC 9654 node: its DRAM weight goes to L3, and what that does to the
 *     time. Run from the source root. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "dcsim/cache_rule.h"
#include "dcsim/lib.h"
#include "dcsim/model_cpu.h"

#define MIB 1048576.0

/* E5-2697 v3-like: 14 cores x 2 sockets, 35 MiB of L3 per socket, compact placement */
static const dcsim_cpu_caches SRC = { 14, 2, 32768, 262144, 35 * MIB, 0 };

static void test_share(void) {
  CHECK_REL(dcsim_cache_resident_share(10, 40), 0.25, 0);
  CHECK_REL(dcsim_cache_resident_share(40, 10), 1, 0);
  CHECK_REL(dcsim_cache_resident_share(40, 0), 1, 0); /* an empty working set always hits */
}

static void test_sockets(void) {
  dcsim_cpu_caches c = SRC;
  CHECK_INT(dcsim_cache_sockets_used(&c, 1), 1);
  CHECK_INT(dcsim_cache_sockets_used(&c, 14), 1);
  CHECK_INT(dcsim_cache_sockets_used(&c, 15), 2);
  CHECK_INT(dcsim_cache_sockets_used(&c, 500), 2); /* beyond the node: the node */
  c.scatter = 1;
  CHECK_INT(dcsim_cache_sockets_used(&c, 1), 1);
  CHECK_INT(dcsim_cache_sockets_used(&c, 2), 2);
}

static void test_identity(void) {
  dcsim_cache_move mv;
  double Y = 0.428275464, Z = 0.824183382;
  const double ws[] = { 1e6, 30e6, 184.32e6, 3.3e9 };
  const unsigned th[] = { 1, 7, 14, 15, 28, 192 };
  for (size_t i = 0; i < sizeof ws / sizeof *ws; i++)
    for (size_t k = 0; k < sizeof th / sizeof *th; k++) {
      dcsim_cache_rule(ws[i], &SRC, &SRC, th[k], &mv);
      CHECK_REL(mv.fraction, 0, 0);
      dcsim_cache_rule_apply(&mv, &Y, &Z);
      CHECK(Y == 0.428275464 && Z == 0.824183382); /* bit for bit */
    }
}

/* 184.32 MB (BiFFT alaro) in 2 x 384 MiB (EPYC 9654, 192 cores): the E5 at its 28 cores holds
 * 2 x 35 MiB of it (39.8 %), the target all: the share (1 - h_s) / (1 - h_s) = 1 of Z moves */
static void test_fits_target_only(void) {
  dcsim_cpu_caches dst = { 96, 2, 0, 1048576, 384 * MIB, 0 };
  dcsim_cache_move mv;
  double ws = 184.32e6;
  dcsim_cache_rule(ws, &SRC, &dst, 192, &mv);
  CHECK_INT(mv.src_sockets, 2);
  CHECK_INT(mv.dst_sockets, 2);
  CHECK_REL(mv.src_share, 2 * 35 * MIB / ws, 1e-15);
  CHECK_REL(mv.dst_share, 1, 0);
  CHECK_INT(mv.inward, 1);
  CHECK_REL(mv.fraction, 1, 1e-15);
  double Y = 0.2, Z = 0.7;
  dcsim_cache_rule_apply(&mv, &Y, &Z);
  CHECK_REL(Y, 0.9, 1e-15);
  CHECK(Z == 0);
}

/* 1 GB on one core: 35 MiB against 100 MiB, both partial: (h_t - h_s) / (1 - h_s) of Z moves */
static void test_partial(void) {
  dcsim_cpu_caches dst = { 8, 1, 0, 0, 100 * MIB, 0 };
  dcsim_cache_move mv;
  dcsim_cache_rule(1e9, &SRC, &dst, 1, &mv);
  double hs = 35 * MIB / 1e9, ht = 100 * MIB / 1e9;
  CHECK_REL(mv.src_share, hs, 1e-15);
  CHECK_REL(mv.dst_share, ht, 1e-15);
  CHECK_REL(mv.fraction, (ht - hs) / (1 - hs), 1e-14);
  double Y = 0.3, Z = 0.5;
  dcsim_cache_rule_apply(&mv, &Y, &Z);
  CHECK_REL(Y, 0.3 + 0.5 * (ht - hs) / (1 - hs), 1e-14);
  CHECK_REL(Y + Z, 0.8, 1e-15); /* weight moves, none is made */
}

/* 30 MB fits the E5's 35 MiB but not 20 MiB: the share (h_s - h_t) / h_s of Y goes to DRAM */
static void test_smaller_target(void) {
  dcsim_cpu_caches dst = { 8, 1, 0, 0, 20 * MIB, 0 };
  dcsim_cache_move mv;
  dcsim_cache_rule(30e6, &SRC, &dst, 1, &mv);
  CHECK_INT(mv.inward, 0);
  CHECK_REL(mv.src_share, 1, 0);
  CHECK_REL(mv.fraction, 1 - 20 * MIB / 30e6, 1e-14);
  double Y = 0.4, Z = 0.1;
  dcsim_cache_rule_apply(&mv, &Y, &Z);
  CHECK_REL(Y, 0.4 * 20 * MIB / 30e6, 1e-14);
  CHECK_REL(Z, 0.1 + 0.4 * (1 - 20 * MIB / 30e6), 1e-14);
  /* the same target on two sockets (scatter, 2 threads): 40 MiB hold it all, as the E5's 35 do
   * not at 2 threads (compact: one socket): then weight moves in */
  dst.sockets = 2;
  dst.scatter = 1;
  dcsim_cache_rule(40e6, &SRC, &dst, 2, &mv);
  CHECK_INT(mv.dst_sockets, 2);
  CHECK_INT(mv.src_sockets, 1);
  CHECK_INT(mv.inward, 1);
  CHECK_REL(mv.fraction, 1, 1e-15);
}

static void test_unknown_l3(void) {
  dcsim_cpu_caches dst = { 48, 1, 65536, 33554432, 0, 0 }; /* A64FX: no l3-byte */
  dcsim_cache_move mv;
  dcsim_cache_rule(184.32e6, &SRC, &dst, 48, &mv);
  CHECK_REL(mv.fraction, 0, 0);
}

static dcsim_cpu_result *run(const dcsim_dwarf_eval *ev, const dcsim_cpu_profile_t *cpu,
                             unsigned threads, int table_only) {
  dcsim_cpu_node_spec ns = {
    cpu, { dcsim_cpu_profile_nominal_ghz(cpu), NULL, threads }, 1, table_only
  };
  dcsim_cpu_result *r = NULL;
  dcsim_error err = { 0 };
  if (dcsim_model_cpu(ev, &ns, 1, 0, &r, &err))
    fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.msg);
  CHECK(r != NULL);
  return r;
}

/* The rule on and off (the dwarf's working set hidden) for one CPU and thread count. */
static void with_without(dcsim_dwarf_eval *ev, const dcsim_cpu_profile_t *cpu, unsigned threads,
                         int table_only, dcsim_cpu_result **on, dcsim_cpu_result **off) {
  *on = run(ev, cpu, threads, table_only);
  ev->has_working_set = 0;
  *off = run(ev, cpu, threads, table_only);
  ev->has_working_set = 1;
}

/* The E5-2697 v3: the rule is the identity, every loop bit for bit, with and without --d35 */
static void test_e5(dcsim_dwarf_eval *ev, const dcsim_cpu_profile_t *e5) {
  const unsigned th[] = { 1, 4, 14, 28 };
  for (size_t k = 0; k < sizeof th / sizeof *th; k++)
    for (int d35 = 0; d35 <= (th[k] <= 14); d35++) {
      dcsim_cpu_result *on, *off;
      with_without(ev, e5, th[k], d35, &on, &off);
      if (on && off) {
        CHECK(on->time_s == off->time_s);
        for (size_t l = 0; l < on->n_loops; l++)
          CHECK(on->parts[l].time_s == off->parts[l].time_s &&
                on->parts[l].dram_byte == off->parts[l].dram_byte);
        CHECK(on->weights_note == NULL);
        CHECK_INT(on->prov.kind, off->prov.kind);
      }
      dcsim_cpu_result_free(on);
      dcsim_cpu_result_free(off);
    }
}

/* BiFFT alaro on a full EPYC 9654 node: 184 MB in 2 x 384 MiB of L3; every loop's DRAM weight
 * goes to L3 (DRAM serves nothing), and the memory-bound loops run at the L3 rate. */
static void test_epyc(dcsim_dwarf_eval *ev, const dcsim_cpu_profile_t *epyc) {
  dcsim_cpu_result *on, *off;
  with_without(ev, epyc, 192, 0, &on, &off);
  if (on && off) {
    printf(
        "bifft alaro, epyc-9654 full node: %.4g s with the cache rule, %.4g s with the "
        "E5-2697 v3's weights (%.3gx)\n%s\n",
        on->time_s, off->time_s, off->time_s / on->time_s, on->weights_note);
    double dram = 0, dram_off = 0;
    for (size_t l = 0; l < on->n_loops; l++) {
      dram += on->parts[l].dram_byte;
      dram_off += off->parts[l].dram_byte;
      CHECK(on->parts[l].time_s <= off->parts[l].time_s); /* L3 is faster than DRAM here */
    }
    CHECK(dram == 0);
    CHECK(dram_off > 0);
    CHECK(on->time_s < off->time_s);
    CHECK(on->weights_note && strstr(on->weights_note, "2 x 384 MiB L3") &&
          strstr(on->weights_note, "100 % of the DRAM weight to L3"));
  }
  dcsim_cpu_result_free(on);
  dcsim_cpu_result_free(off);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  test_share();
  test_sockets();
  test_identity();
  test_fits_target_only();
  test_partial();
  test_smaller_target();
  test_unknown_l3();
  dcsim_dwarf_t *d = NULL;
  dcsim_dwarf_eval *ev = NULL;
  dcsim_cpu_profile_t *e5 = NULL, *epyc = NULL;
  dcsim_error err = { 0 };
  if (dcsim_dwarf_load("dwarfs/bifft.xml", &d, &err) ||
      dcsim_dwarf_evaluate(d, "alaro", NULL, 0, &ev, &err) ||
      dcsim_cpu_profile_load("hw-profiles/cpu/xeon-e5-2697v3.xml", &e5, &err) ||
      dcsim_cpu_profile_load("hw-profiles/cpu/epyc-9654.xml", &epyc, &err)) {
    fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.msg);
    CHECK(0);
  } else {
    CHECK_INT(ev->has_working_set, 1);
    CHECK_REL(ev->working_set_byte, 200.0 * 180 * 640 * 8, 0);
    CHECK(strcmp(ev->weights_cpu, "xeon-e5-2697v3") == 0);
    CHECK_REL(ev->weights_caches->l3_byte, 36700160, 0); /* read from the E5's profile */
    test_e5(ev, e5);
    test_epyc(ev, epyc);
  }
  dcsim_cpu_profile_free(e5);
  dcsim_cpu_profile_free(epyc);
  dcsim_dwarf_eval_free(ev);
  dcsim_dwarf_free(d);
  CHECK_DONE();
}
