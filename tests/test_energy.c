/* test_energy.c - the energy models of D3.5 §5 (src/energy.c): the §5.3 coefficient form against
 * Table 35, the §5.2 form with E_const, the §5.5 GPU form with Table 36 and the two §5.7 closed
 * forms. Expected values are worked out by hand in the comments. Run from the source root. */
#include "check.h"
#include "dcsim/dwarf.h"
#include "dcsim/energy.h"
#include "dcsim/hwprofile.h"
#include "dcsim/lib.h"

/* §5.3, D3.5 Table 35 (SH on the E5-2640v3), 2 cores, computed from the printed numbers only:
 *   PKG  = (U*E_pkg(2) + S*E_pkg(idle)) * T = (0.58309038*54.23 + 0.50242954*31.82) * 71.2
 *        = (31.62099 + 15.98731) * 71.2 = 47.60830 * 71.2 = 3389.71 J
 *   DRAM = (X*E_dram(2) + Y*E_dram(idle)) * T = (0.37420719*14.51 + 0.5*3.71) * 71.2
 *        = (5.42975 + 1.855) * 71.2 = 7.28475 * 71.2 = 518.67 J */
static void test_53_by_hand(void) {
  dcsim_energy_coeffs c = { 0.58309038, 0.50242954, 0.37420719, 0.5 }; /* D3.5 Tables 33-34 */
  dcsim_cpu_power pw = {
    .pkg_w = 54.23, .dram_w = 14.51, .pkg_idle_w = 31.82, .dram_idle_w = 3.71
  };                                                       /* D3.5 Table 35, 2 cores, idle */
  dcsim_cpu_energy e = dcsim_energy_cpu_53(&c, &pw, 71.2); /* D3.5 Table 35 time 71.2 s */
  CHECK_REL(e.pkg_j, 3389.71, 5e-4);                       /* D3.5 Table 35 "Epkg model" */
  CHECK_REL(e.dram_j, 518.67, 5e-4);                       /* D3.5 Table 35 "Edram model" */
  CHECK_REL(e.energy_j, 3908.38, 5e-4);                    /* D3.5 Table 35 "Total energy model" */
  CHECK_REL(e.energy_j, e.pkg_j + e.dram_j, 1e-15);
  /* zero time, zero energy */
  e = dcsim_energy_cpu_53(&c, &pw, 0);
  CHECK_ABS(e.energy_j, 0, 0);
}

/* The same from the data files: every row of D3.5 Table 35 within 0.05 %. */
static void test_53_table35(void) {
  dcsim_error err = { 0 };
  dcsim_dwarf_t *d = NULL;
  dcsim_cpu_profile_t *p = NULL;
  if (dcsim_dwarf_load("dwarfs/spherical-harmonics.xml", &d, &err) ||
      dcsim_cpu_profile_load("hw-profiles/cpu/xeon-e5-2640v3.xml", &p, &err)) {
    fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.msg);
    CHECK(0);
    goto out;
  }
  dcsim_energy_coeffs c;
  CHECK_INT(dcsim_dwarf_energy_coeffs(d, &c, &err), 0);
  CHECK_REL(c.pkg_U, 0.58309038, 1e-15);  /* D3.5 Table 33 */
  CHECK_REL(c.pkg_S, 0.50242954, 1e-15);  /* D3.5 Table 33 */
  CHECK_REL(c.dram_X, 0.37420719, 1e-15); /* D3.5 Table 34 */
  CHECK_REL(c.dram_Y, 0.5, 1e-15);        /* D3.5 Table 34 */
  static const struct {
    unsigned cores;
    double t, pkg, dram, total;
  } t35[] = { { 1, 139.9, 5898.49, 840.61, 6739.11 }, /* D3.5 Table 35 model columns */
              { 2, 71.2, 3389.71, 518.67, 3908.38 },
              { 4, 36.9, 2180.61, 321.96, 2502.58 },
              { 8, 20.1, 1507.77, 186.88, 1694.66 } };
  for (size_t i = 0; i < 4; i++) {
    dcsim_cpu_state s = { 2.6, NULL, t35[i].cores };
    dcsim_cpu_power pw;
    CHECK_INT(dcsim_cpu_profile_power(p, &s, &pw, &err), 0);
    dcsim_cpu_energy e = dcsim_energy_cpu_53(&c, &pw, t35[i].t);
    CHECK_REL(e.pkg_j, t35[i].pkg, 5e-4);      /* D3.5 Table 35 Epkg model */
    CHECK_REL(e.dram_j, t35[i].dram, 5e-4);    /* D3.5 Table 35 Edram model */
    CHECK_REL(e.energy_j, t35[i].total, 5e-4); /* D3.5 Table 35 total model */
  }
out:
  dcsim_dwarf_free(d);
  dcsim_cpu_profile_free(p);
}

/* §5.2: E = sum over loops of E_pkg*W*Tflop + E_dram*Q*Tmop + E_const. */
static void test_52(void) {
  dcsim_cpu_power pw = { .pkg_w = 41.3, .dram_w = 7.9, .pkg_idle_w = 5.53, .dram_idle_w = 1.31 };
  dcsim_loop_part parts[3];
  memset(parts, 0, sizeof parts);
  /* loop 1, compute-bound: W*Tflop = 2.385 s > Q*Tmop = 1.25 s
   *   PKG  41.3*2.385 = 98.5005
   *   DRAM 7.9*1.25 = 9.875, E_const = E_dram(idle)*(2.385-1.25) = 1.31*1.135 = 1.48685 */
  parts[0].flop_time_s = 2.385;
  parts[0].mem_time_s = 1.25;
  /* loop 2, memory-bound: W*Tflop = 0.75 s < Q*Tmop = 3.917 s
   *   PKG  41.3*0.75 = 30.975, E_const = E_pkg(idle)*(3.917-0.75) = 5.53*3.167 = 17.51351
   *   DRAM 7.9*3.917 = 30.9443 */
  parts[1].flop_time_s = 0.75;
  parts[1].mem_time_s = 3.917;
  dcsim_cpu_energy e = dcsim_energy_cpu_52(&pw, parts, 2);
  CHECK_REL(e.pkg_j, 98.5005 + 30.975 + 17.51351, 1e-12); /* 146.98901 J */
  CHECK_REL(e.dram_j, 9.875 + 1.48685 + 30.9443, 1e-12);  /* 42.30615 J */
  CHECK_REL(e.energy_j, 189.29516, 1e-12);
  /* each loop alone: the E_const goes to DRAM for compute-bound, to PKG for memory-bound */
  e = dcsim_energy_cpu_52(&pw, &parts[0], 1);
  CHECK_REL(e.pkg_j, 98.5005, 1e-12);
  CHECK_REL(e.dram_j, 9.875 + 1.48685, 1e-12);
  e = dcsim_energy_cpu_52(&pw, &parts[1], 1);
  CHECK_REL(e.pkg_j, 30.975 + 17.51351, 1e-12);
  CHECK_REL(e.dram_j, 30.9443, 1e-12);
  /* loop 3, balanced: W*Tflop = Q*Tmop = 0.5 s -> E_const = 0: PKG 20.65, DRAM 3.95 */
  parts[2].flop_time_s = 0.5;
  parts[2].mem_time_s = 0.5;
  e = dcsim_energy_cpu_52(&pw, &parts[2], 1);
  CHECK_REL(e.pkg_j, 20.65, 1e-12);
  CHECK_REL(e.dram_j, 3.95, 1e-12);
  /* a data-movement loop with W = 0: PKG idles for the whole Q*Tmop = 1.5 s: 5.53*1.5 = 8.295 */
  dcsim_loop_part mv;
  memset(&mv, 0, sizeof mv);
  mv.mem_time_s = 1.5;
  e = dcsim_energy_cpu_52(&pw, &mv, 1);
  CHECK_REL(e.pkg_j, 8.295, 1e-12);
  CHECK_REL(e.dram_j, 7.9 * 1.5, 1e-12); /* 11.85 */
  e = dcsim_energy_cpu_52(&pw, parts, 0);
  CHECK_ABS(e.energy_j, 0, 0);
}

/* §5.5: E = T*(E_pkg(f,idle) + S*E_gpu), D3.5 Table 36. */
static void test_gpu(void) {
  /* GTX 970: limit 155 W, S = 58.71 % -> S*E_gpu = 91.0005 W (Table 36 "AVG energy" 91 W/s).
   * With T = 11.9 s and a host idle package of 5.53 W: 11.9*(5.53 + 91.0005) = 1148.71295 J */
  CHECK_REL(dcsim_energy_gpu(11.9, 5.53, 0.5871, 155), 1148.71295, 1e-12);
  CHECK_REL(dcsim_energy_gpu(1.0, 0, 0.5871, 155), 91, 1e-4); /* D3.5 Table 36: 91 W/s */
  /* Tesla K20: 225 W, S = 28.89 % -> 65.0025 W (Table 36: 65 W/s) */
  CHECK_REL(dcsim_energy_gpu(1.0, 0, 0.2889, 225), 65, 1e-4); /* D3.5 Table 36: 65 W/s */
  /* the host term alone: 2.385 s * 31.82 W = 75.8907 J */
  CHECK_REL(dcsim_energy_gpu(2.385, 31.82, 0, 155), 75.8907, 1e-12);
}

/* §5.7 with E1 = 1000.5 J, E1const = 37.35 W, E2 = 2385 J, E2const = 5.53 W. */
static void test_nwp(void) {
  /* T1 = 20 s < T2 = 31.5 s
   *   no overlap: 1000.5 + 37.35*31.5 + 2385 + 5.53*20 = 1000.5 + 1176.525 + 2385 + 110.6 =
   * 4672.625 overlap:    1000.5 + 2385 + (31.5-20)*37.35      = 3385.5 + 429.525              =
   * 3815.025 */
  CHECK_REL(dcsim_energy_nwp_nooverlap(1000.5, 37.35, 20, 2385, 5.53, 31.5), 4672.625, 1e-12);
  CHECK_REL(dcsim_energy_nwp_overlap(1000.5, 37.35, 20, 2385, 5.53, 31.5), 3815.025, 1e-12);
  /* T1 = 31.5 s > T2 = 20 s
   *   no overlap: 1000.5 + 37.35*20 + 2385 + 5.53*31.5 = 1000.5 + 747 + 2385 + 174.195 = 4306.695
   *   overlap:    1000.5 + 2385 + (31.5-20)*5.53      = 3385.5 + 63.595              = 3449.095 */
  CHECK_REL(dcsim_energy_nwp_nooverlap(1000.5, 37.35, 31.5, 2385, 5.53, 20), 4306.695, 1e-12);
  CHECK_REL(dcsim_energy_nwp_overlap(1000.5, 37.35, 31.5, 2385, 5.53, 20), 3449.095, 1e-12);
  /* T1 = T2 = 20 s
   *   no overlap: 1000.5 + 37.35*20 + 2385 + 5.53*20 = 1000.5 + 747 + 2385 + 110.6 = 4243.1
   *   overlap:    1000.5 + 2385 + 0                                                = 3385.5 */
  CHECK_REL(dcsim_energy_nwp_nooverlap(1000.5, 37.35, 20, 2385, 5.53, 20), 4243.1, 1e-12);
  CHECK_REL(dcsim_energy_nwp_overlap(1000.5, 37.35, 20, 2385, 5.53, 20), 3385.5, 1e-12);
}

/* The activity model (doc/models.md "GPU power by activity") by hand, high-entropy numbers: the
 * active idle plus each resource's use times its watts, busy clamped to 0..1, never above the
 * limit. */
static void test_gpu_activity(void) {
  dcsim_gpu_spec g;
  memset(&g, 0, sizeof g);
  g.active_idle_w = 122.9;
  g.power_limit_w = 700;
  g.pm_busy_w = 10.35, g.pm_fp64_w = 372.8, g.pm_fp32_w = 208.9, g.pm_int_w = 211.6;
  g.pm_dram_w = 149.4, g.pm_l2_w = 62.45, g.pm_issue_w = 123.4, g.pm_scatter_w = 157.3;
  dcsim_gpu_activity a = { 0.97, 0.265, 0.0038, 0.725, 0.012, 0.028, 0.166, 0.047 };
  double want = 122.9 + 0.97 * 10.35 + 0.265 * 372.8 + 0.0038 * 208.9 + 0.725 * 211.6 +
                0.012 * 149.4 + 0.028 * 62.45 + 0.166 * 123.4 + 0.047 * 157.3;
  CHECK_REL(dcsim_energy_gpu_activity_w(&g, &a), want, 1e-12);
  a.busy = 1.7; /* clamped to 1 */
  CHECK_REL(dcsim_energy_gpu_activity_w(&g, &a), want + 0.03 * 10.35, 1e-12);
  dcsim_gpu_activity hot = { 1, 0.9, 0, 1.5, 0.9, 3, 0, 0 }; /* above the limit: capped */
  CHECK_REL(dcsim_energy_gpu_activity_w(&g, &hot), 700, 0);
  dcsim_gpu_activity none = { 0, 0, 0, 0, 0, 0, 0, 0 };
  CHECK_REL(dcsim_energy_gpu_activity_w(&g, &none), 122.9, 0);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  test_gpu_activity();
  test_53_by_hand();
  test_53_table35();
  test_52();
  test_gpu();
  test_nwp();
  CHECK_DONE();
}
