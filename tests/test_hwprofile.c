/* test_hwprofile.c - CPU/GPU profiles: exact table cells of D3.5, bilinear lookups between measured
 * states, states outside a table, the RAPL power table and the GPU characteristics of Table 10.
 * Run from the source root. Expected values are the paper's table cells, copied here by hand. */
#include <stdlib.h>

#include "check.h"
#include "dcsim/hwprofile.h"
#include "dcsim/lib.h"

#define CPU "hw-profiles/cpu/"
#define GPU "hw-profiles/gpu/"

static dcsim_cpu_profile_t *load_cpu(const char *path) {
  dcsim_error err = { 0 };
  dcsim_cpu_profile_t *p = NULL;
  int rc = dcsim_cpu_profile_load(path, &p, &err);
  CHECK_INT(rc, 0);
  if (rc) fprintf(stderr, "  %s:%d: %s\n", err.file, err.line, err.msg);
  return p;
}

static dcsim_cpu_rates rates(const dcsim_cpu_profile_t *p, double ghz, const char *label,
                             unsigned threads) {
  dcsim_cpu_rates r;
  memset(&r, 0, sizeof r);
  dcsim_cpu_state s = { ghz, label, threads };
  dcsim_error err = { 0 };
  int rc = dcsim_cpu_profile_rates(p, &s, &r, &err);
  CHECK_INT(rc, 0);
  if (rc)
    fprintf(stderr, "  %.3g GHz %s %u threads: %s\n", ghz, label ? label : "", threads, err.msg);
  return r;
}

/* A lookup that must fail with DCSIM_ERANGE, naming the profile file, with `word` in the message.
 */
static void rates_fail(const dcsim_cpu_profile_t *p, double ghz, const char *label,
                       unsigned threads, const char *word) {
  dcsim_cpu_rates r;
  dcsim_cpu_state s = { ghz, label, threads };
  dcsim_error err = { 0 };
  CHECK_INT(dcsim_cpu_profile_rates(p, &s, &r, &err), DCSIM_ERANGE);
  CHECK_STR(err.file, dcsim_cpu_profile_path(p));
  CHECK(err.line > 0); /* the line of the table */
  CHECK(strstr(err.msg, word) != NULL);
  if (!strstr(err.msg, word)) fprintf(stderr, "  message: %s\n", err.msg);
}

static dcsim_cpu_power power(const dcsim_cpu_profile_t *p, double ghz, unsigned cores) {
  dcsim_cpu_power pw = { 0 };
  dcsim_cpu_state s = { ghz, NULL, cores };
  dcsim_error err = { 0 };
  int rc = dcsim_cpu_profile_power(p, &s, &pw, &err);
  CHECK_INT(rc, 0);
  if (rc) fprintf(stderr, "  power at %g GHz, %u cores: %s\n", ghz, cores, err.msg);
  return pw;
}

static void test_e5_2697v3(void) {
  dcsim_cpu_profile_t *p = load_cpu(CPU "xeon-e5-2697v3.xml");
  if (!p) return;
  CHECK_STR(dcsim_cpu_profile_name(p), "xeon-e5-2697v3");
  CHECK_INT(dcsim_cpu_profile_cores_per_socket(p), 14);
  CHECK_INT(dcsim_cpu_profile_sockets(p), 2);
  CHECK_INT(dcsim_cpu_profile_max_threads(p), 14);
  CHECK_REL(dcsim_cpu_profile_nominal_ghz(p), 2.6, 1e-15);
  CHECK_INT(dcsim_cpu_profile_has_energy(p), 1);

  /* exact cells (tolerance 1e-12: only the GB/s -> B/s scaling may round) */
  dcsim_cpu_rates r = rates(p, 2.6, NULL, 14);
  CHECK_REL(r.l1_bps, 1.835762e12, 1e-12); /* D3.5 Table 26: 2.6 GHz, 14 threads 1835.762 GB/s */
  CHECK_REL(r.l2_bps, 1.124870e12, 1e-12); /* D3.5 Table 27: 1124.870 GB/s */
  CHECK_REL(r.l3_bps, 208.916e9, 1e-12);   /* D3.5 Table 28: 208.916 GB/s */
  CHECK_REL(r.dram_bps, 56.768e9, 1e-12);  /* D3.5 Table 29: 56.768 GB/s */
  CHECK_REL(r.flops, 291.2e9, 1e-12);      /* D3.5 Table 25: 291.200 GFLOP/s */
  r = rates(p, 1.2, NULL, 1);
  CHECK_REL(r.dram_bps, 8.639e9, 1e-12); /* D3.5 Table 29: 1.2 GHz, 1 thread 8.639 GB/s */
  CHECK_REL(r.flops, 9.6e9, 1e-12);      /* D3.5 Table 25: 9.600 GFLOP/s */
  CHECK_REL(r.l1_bps, 57.659e9, 1e-12);  /* D3.5 Table 26: 57.659 GB/s */
  r = rates(p, 2.0, NULL, 7);
  CHECK_REL(r.l3_bps, 144.978e9, 1e-12); /* D3.5 Table 28: "2" column, 7 threads 144.978 GB/s */

  /* turbo only by its label (D3.5 Table 25 "trubo" column) */
  dcsim_cpu_state st = { 0, NULL, 5 };
  dcsim_error err = { 0 };
  CHECK_INT(dcsim_cpu_profile_freq(p, "turbo", &st, &err), 0);
  CHECK_STR(st.label, "turbo");
  r = rates(p, st.ghz, st.label, 5);
  CHECK_REL(r.flops, 128e9, 1e-12);       /* D3.5 Table 25: turbo, 5 threads 128.000 GFLOP/s */
  CHECK_REL(r.dram_bps, 57.010e9, 1e-12); /* D3.5 Table 29: turbo, 5 threads 57.010 GB/s */
  char *fs = dcsim_cpu_state_freq_text(&st);
  CHECK_STR(fs, "turbo");
  free(fs);

  /* frequency parsing: nominal, plain number, "GHz" suffix */
  CHECK_INT(dcsim_cpu_profile_freq(p, NULL, &st, &err), 0);
  CHECK_REL(st.ghz, 2.6, 1e-15);
  CHECK(st.label == NULL);
  CHECK_INT(dcsim_cpu_profile_freq(p, "2.4GHz", &st, &err), 0);
  CHECK_REL(st.ghz, 2.4, 1e-15);
  fs = dcsim_cpu_state_freq_text(&st);
  CHECK_STR(fs, "2.4");
  free(fs);

  /* linear in GHz between the 2.4 and 2.6 columns: 2.5 GHz is their midpoint */
  r = rates(p, 2.5, NULL, 14);
  CHECK_REL(r.l1_bps, (1632.194e9 + 1835.762e9) / 2, 1e-12); /* D3.5 Table 26, 14 threads */
  CHECK_REL(r.dram_bps, (56.713e9 + 56.768e9) / 2, 1e-12);   /* D3.5 Table 29, 14 threads */
  r = rates(p, 2.5, NULL, 3);
  CHECK_REL(r.flops, (57.6e9 + 62.4e9) / 2, 1e-12);        /* D3.5 Table 25, 3 threads */
  CHECK_REL(r.l3_bps, (105.386e9 + 112.122e9) / 2, 1e-12); /* D3.5 Table 28, 3 threads */
  /* 2.2 GHz between the 2.0 and 2.4 columns, weight (2.2-2.0)/(2.4-2.0) = 0.5; 1.3 between 1.2
   * and 1.4 */
  r = rates(p, 1.3, NULL, 9);
  CHECK_REL(r.l2_bps, 322.015e9 + 0.5 * (372.631e9 - 322.015e9),
            1e-12); /* D3.5 Table 27, 9 threads */
  r = rates(p, 2.1, NULL, 2);
  /* weight (2.1-2.0)/0.4 = 0.25 */
  CHECK_REL(r.dram_bps, 22.067e9 + 0.25 * (24.413e9 - 22.067e9),
            1e-12); /* D3.5 Table 29, 2 threads */

  /* states outside the tables */
  rates_fail(p, 2.6, NULL, 15, "outside"); /* rows are 1..14 (one socket) */
  rates_fail(p, 2.6, NULL, 15, "1..14");
  rates_fail(p, 3.0, NULL, 4, "outside"); /* above 2.6; turbo is labelled, never interpolated */
  rates_fail(p, 1.0, NULL, 4, "outside"); /* below 1.2 */
  dcsim_cpu_state zero = { 2.6, NULL, 0 };
  CHECK_INT(dcsim_cpu_profile_rates(p, &zero, &r, &err), DCSIM_ERANGE); /* 0 threads */

  /* energy: borrowed i7-4700EQ table, other-frequencies="same" -> any frequency gives the same
   * power */
  dcsim_cpu_power pw = power(p, 2.6, 3);
  CHECK_REL(pw.pkg_w, 42.85, 1e-12);      /* D3.5 Table 32: 3 cores PKG 42.85 */
  CHECK_REL(pw.dram_w, 5.89, 1e-12);      /* D3.5 Table 32: 3 cores DRAM 5.89 */
  CHECK_REL(pw.pkg_idle_w, 5.53, 1e-12);  /* D3.5 Table 32 idle PKG */
  CHECK_REL(pw.dram_idle_w, 1.31, 1e-12); /* D3.5 Tables 33-34 idle DRAM as used in §5.3 */
  dcsim_cpu_power pw2 = power(p, 1.4, 3);
  CHECK_REL(pw2.pkg_w, pw.pkg_w, 1e-15);
  CHECK_REL(pw2.dram_w, pw.dram_w, 1e-15);
  dcsim_cpu_profile_free(p);
}

static void test_gold_6148(void) {
  dcsim_cpu_profile_t *p = load_cpu(CPU "xeon-gold-6148.xml");
  if (!p) return;
  CHECK_INT(dcsim_cpu_profile_max_threads(p), 40);
  dcsim_cpu_rates r = rates(p, 2.4, NULL, 4);
  CHECK_REL(r.flops, 307.2e9, 1e-12);    /* D3.5 Table 37: 4 cores 307.2 GFLOP/s */
  CHECK_REL(r.l1_bps, 494.43e9, 1e-12);  /* D3.5 Table 37: 494.43 GB/s */
  CHECK_REL(r.dram_bps, 84.25e9, 1e-12); /* D3.5 Table 37: 84.25 GB/s */
  /* rows 1,2,4,8,16,20,30,40: 3 threads is the midpoint of rows 2 and 4 */
  r = rates(p, 2.4, NULL, 3);
  CHECK_REL(r.flops, (153.6e9 + 307.2e9) / 2, 1e-12); /* D3.5 Table 37, rows 2 and 4 */
  CHECK_REL(r.l1_bps, (247.2e9 + 494.43e9) / 2,
            1e-12); /* (2-core L1 garbled in the paper, 247.2 assumed) */
  CHECK_REL(r.l2_bps, (153.93e9 + 307.77e9) / 2, 1e-12);
  CHECK_REL(r.l3_bps, (65.94e9 + 131.26e9) / 2, 1e-12);
  CHECK_REL(r.dram_bps, (53.81e9 + 84.25e9) / 2, 1e-12);
  /* 10 threads: between rows 8 and 16, weight (10-8)/(16-8) = 0.25 */
  r = rates(p, 2.4, NULL, 10);
  CHECK_REL(r.dram_bps, 150.33e9 + 0.25 * (261.01e9 - 150.33e9), 1e-12); /* D3.5 Table 37 */
  CHECK_REL(r.l3_bps, 262.63e9 + 0.25 * (512.84e9 - 262.63e9), 1e-12);
  /* 37 threads: between 30 and 40, weight 0.7; DRAM falls from 330.33 to 309.77 */
  r = rates(p, 2.4, NULL, 37);
  CHECK_REL(r.dram_bps, 330.33e9 + 0.7 * (309.77e9 - 330.33e9), 1e-12);
  /* one frequency column: any other frequency is outside the table */
  rates_fail(p, 2.6, NULL, 4, "outside");
  rates_fail(p, 2.4, NULL, 41, "outside");
  /* the labelled turbo state (Intel ARK: 3.7 GHz, calibration/xeon-gold-6148/machine.xml) names
   * a frequency, but the tables hold none of it */
  dcsim_cpu_state st = { 0, NULL, 4 };
  dcsim_error err = { 0 };
  CHECK_INT(dcsim_cpu_profile_freq(p, "turbo", &st, &err), 0);
  CHECK_REL(st.ghz, 3.7, 0);
  rates_fail(p, 3.7, "turbo", 4, "outside"); /* a labelled state given directly */
  CHECK_INT(dcsim_cpu_profile_freq(p, "fast", &st, &err), DCSIM_ERANGE);
  CHECK_INT(dcsim_cpu_profile_freq(p, "-1", &st, &err), DCSIM_ERANGE);
  CHECK_INT(dcsim_cpu_profile_freq(p, "nan", &st, &err), DCSIM_ERANGE);
  dcsim_cpu_profile_free(p);
}

/* Interpolation in both directions at once, on a test profile with two columns and rows 2, 6. */
static void test_bilinear(void) {
  dcsim_cpu_profile_t *p = load_cpu("tests/data/hwprofile/bilinear.xml");
  if (!p) return;
  /* 1.8 GHz: weight (1.8-1.5)/(2.5-1.5) = 0.3; 3 threads: weight (3-2)/(6-2) = 0.25 */
  dcsim_cpu_rates r = rates(p, 1.8, NULL, 3);
  double a = 2.385e9 * 0.7 + 3.917e9 * 0.3;       /* row 2 at 1.8 GHz = 2.8446e9 */
  double b = 7.113e9 * 0.7 + 12.47e9 * 0.3;       /* row 6 at 1.8 GHz = 8.7201e9 */
  CHECK_REL(r.flops, a * 0.75 + b * 0.25, 1e-12); /* = 4.31347500e9 */
  CHECK_REL(r.flops, 4.313475e9, 1e-9);
  /* DRAM columns are listed in the order "2.5 1.5": the lookup follows the ids, not the order */
  a = 4.25 * 0.7 + 5.5 * 0.3;                                /* 4.625 GB/s */
  b = 7.125 * 0.7 + 9.75 * 0.3;                              /* 7.9125 GB/s */
  CHECK_REL(r.dram_bps, (a * 0.75 + b * 0.25) * 1e9, 1e-12); /* = 5.446875e9 */
  CHECK_REL(r.dram_bps, 5.446875e9, 1e-9);
  /* corners are exact */
  r = rates(p, 2.5, NULL, 6);
  CHECK_REL(r.flops, 12.47e9, 1e-12);
  CHECK_REL(r.dram_bps, 9.75e9, 1e-12);
  rates_fail(p, 2.0, NULL, 1, "outside"); /* below the first row */
  rates_fail(p, 2.0, NULL, 7, "outside"); /* above the last row */
  /* no energy table */
  dcsim_cpu_power pw;
  dcsim_cpu_state s = { 2.0, NULL, 2 };
  dcsim_error err = { 0 };
  CHECK_INT(dcsim_cpu_profile_power(p, &s, &pw, &err), DCSIM_EREF);
  CHECK(strstr(err.msg, "no <energy> table") != NULL);
  dcsim_cpu_profile_free(p);
}

static void test_e5_2640v3_energy(void) {
  dcsim_cpu_profile_t *p = load_cpu(CPU "xeon-e5-2640v3.xml");
  if (!p) return;
  CHECK_INT(dcsim_cpu_profile_max_threads(p), 0); /* energy only, no performance tables */
  static const struct {
    unsigned cores;
    double pkg, dram;
  } t35[] = {
    { 1, 44.89, 11.1 }, { 2, 54.23, 14.51 }, { 4, 73.93, 18.36 }, { 8, 101.23, 19.89 }
  }; /* D3.5 Table 35 */
  for (size_t i = 0; i < 4; i++) {
    dcsim_cpu_power pw = power(p, 2.6, t35[i].cores);
    CHECK_REL(pw.pkg_w, t35[i].pkg, 1e-12);   /* D3.5 Table 35 Epkg */
    CHECK_REL(pw.dram_w, t35[i].dram, 1e-12); /* D3.5 Table 35 Edram */
    CHECK_REL(pw.pkg_idle_w, 31.82, 1e-12);   /* D3.5 Table 35 idle */
    CHECK_REL(pw.dram_idle_w, 3.71, 1e-12);
  }
  /* 3 cores: linear between the 2- and 4-core rows of Table 35 */
  dcsim_cpu_power pw = power(p, 2.6, 3);
  CHECK_REL(pw.pkg_w, (54.23 + 73.93) / 2, 1e-12);  /* 64.08 */
  CHECK_REL(pw.dram_w, (14.51 + 18.36) / 2, 1e-12); /* 16.435 */
  /* 6 cores: between 4 and 8, weight 0.5 */
  pw = power(p, 2.6, 6);
  CHECK_REL(pw.pkg_w, 73.93 + 0.5 * (101.23 - 73.93), 1e-12);
  /* 16 cores: above the table */
  dcsim_cpu_state s = { 2.6, NULL, 16 };
  dcsim_error err = { 0 };
  CHECK_INT(dcsim_cpu_profile_power(p, &s, &pw, &err), DCSIM_ERANGE);
  CHECK(strstr(err.msg, "outside") != NULL);
  CHECK(strstr(err.msg, "16") != NULL);
  CHECK_STR(err.file, CPU "xeon-e5-2640v3.xml");
  CHECK(err.line > 0);
  /* label "turbo" on a profile without it */
  CHECK_INT(dcsim_cpu_profile_freq(p, "turbo", &s, &err), DCSIM_ERANGE);
  CHECK_STR(err.file, CPU "xeon-e5-2640v3.xml");
  CHECK(strstr(err.msg, "'turbo'") != NULL);
  CHECK(strstr(err.msg, "state label") != NULL);
  /* other-frequencies="error": 2.4 GHz is not the measured frequency */
  s.threads = 2;
  s.ghz = 2.4;
  memset(&err, 0, sizeof err);
  CHECK_INT(dcsim_cpu_profile_power(p, &s, &pw, &err), DCSIM_ERANGE);
  CHECK(strstr(err.msg, "2.4") != NULL);
  CHECK(strstr(err.msg, "outside") != NULL);
  /* and the performance tables are absent */
  dcsim_cpu_rates r;
  s.ghz = 2.6;
  CHECK_INT(dcsim_cpu_profile_rates(p, &s, &r, &err), DCSIM_EREF);
  dcsim_cpu_profile_free(p);
}

/* Several <energy> tables: exact frequencies, linear interpolation in GHz between tables, and
 * frequencies outside every table (other-frequencies="error"). */
static void test_energy_per_frequency(void) {
  dcsim_cpu_profile_t *p = load_cpu("tests/data/hwprofile/dvfs.xml");
  if (!p) return;
  dcsim_cpu_power a = power(p, 2.4, 2), b = power(p, 1.2, 2), m = power(p, 1.8, 3);
  CHECK_REL(a.pkg_w, 31.29, 1e-12);
  CHECK_REL(a.pkg_idle_w, 7.85, 1e-12);
  CHECK_REL(b.pkg_w, 12.9, 1e-12);
  CHECK_REL(b.dram_idle_w, 1.41, 1e-12);
  /* 1.8 GHz is halfway between the tables; 3 cores halfway between rows 2 and 4 of each */
  CHECK_REL(m.pkg_w, 0.5 * (0.5 * (31.29 + 52.61)) + 0.5 * (0.5 * (12.9 + 19.1)), 1e-12);
  CHECK_REL(m.dram_w, 0.5 * (0.5 * (4.47 + 5.83)) + 0.5 * (0.5 * (3.66 + 4.40)), 1e-12);
  CHECK_REL(m.pkg_idle_w, 0.5 * (7.85 + 5.97), 1e-12);
  CHECK_INT(dcsim_cpu_profile_energy_max_cores(p, &(dcsim_cpu_state){ 2.4, NULL, 1 }), 4);
  CHECK_INT(dcsim_cpu_profile_n_freqs(p), 4);
  dcsim_cpu_state st;
  CHECK_INT(dcsim_cpu_profile_freq_at(p, 3, &st), 0);
  CHECK_STR(st.label, "turbo");
  CHECK_INT(dcsim_cpu_profile_freq_at(p, 4, &st), DCSIM_ERANGE);
  dcsim_cpu_power pw;
  dcsim_error err = { 0 };
  CHECK_INT(dcsim_cpu_profile_power(p, &(dcsim_cpu_state){ 1.0, NULL, 1 }, &pw, &err),
            DCSIM_ERANGE);
  CHECK(strstr(err.msg, "not covered by the energy tables") != NULL);
  CHECK_INT(dcsim_cpu_profile_power(p, &(dcsim_cpu_state){ 3.1, "turbo", 1 }, &pw, &err),
            DCSIM_ERANGE);
  dcsim_cpu_profile_free(p);
}

static dcsim_gpu_profile_t *load_gpu(const char *path) {
  dcsim_error err = { 0 };
  dcsim_gpu_profile_t *p = NULL;
  int rc = dcsim_gpu_profile_load(path, &p, &err);
  CHECK_INT(rc, 0);
  if (rc) fprintf(stderr, "  %s:%d: %s\n", err.file, err.line, err.msg);
  return p;
}

static void test_gpus(void) {
  /* D3.5 Table 10, columns GeForce 970 / Tesla K20m / Tesla 2070-q; power limits of Table 36 */
  static const struct {
    const char *file, *name;
    double clk, mclk, bus;
    unsigned sm;
    double osmd, osmf, osmi, od, of, oi, gmax, limit;
    int fermi;
  } t10[] = {
    { GPU "geforce-gtx970.xml", "geforce-gtx970", 1.38e9, 3.60e9, 256, 13, 4, 128, 128, 1.44e11,
      4.59e12, 2.30e12, 2.30e11, 155, 0 },
    { GPU "tesla-k20m.xml", "tesla-k20m", 7.06e8, 2.60e9, 320, 13, 64, 192, 160, 1.17e12, 3.52e12,
      1.47e12, 2.08e11, 225, 0 },
    { GPU "tesla-m2070q.xml", "tesla-m2070q", 1.15e9, 1.57e9, 384, 14, 8, 192, 160, 2.57e11,
      6.17e12, 2.57e12, 1.50e11, 225, 1 },
  };
  for (size_t i = 0; i < 3; i++) {
    dcsim_gpu_profile_t *p = load_gpu(t10[i].file);
    if (!p) continue;
    const dcsim_gpu_spec *s = dcsim_gpu_profile_spec(p);
    CHECK_STR(dcsim_gpu_profile_name(p), t10[i].name);
    CHECK_REL(s->clock_hz, t10[i].clk, 1e-15);                   /* D3.5 Table 10 C_G */
    CHECK_REL(s->memory_clock_hz, t10[i].mclk, 1e-15);           /* C_M */
    CHECK_REL(s->memory_bus_bit, t10[i].bus, 1e-15);             /* G_bit */
    CHECK_INT(s->sm, t10[i].sm);                                 /* SM */
    CHECK_REL(s->dp_per_clock_sm, t10[i].osmd, 1e-15);           /* O_SMd */
    CHECK_REL(s->sp_per_clock_sm, t10[i].osmf, 1e-15);           /* O_SMf */
    CHECK_REL(s->int_per_clock_sm, t10[i].osmi, 1e-15);          /* O_SMi */
    CHECK_REL(s->peak_dp_flops, t10[i].od, 1e-15);               /* O_d */
    CHECK_REL(s->peak_sp_flops, t10[i].of, 1e-15);               /* O_f */
    CHECK_REL(s->peak_int_ops, t10[i].oi, 1e-15);                /* O_i */
    CHECK_REL(s->memory_bw_bps, t10[i].gmax, 1e-15);             /* G_max */
    if (i < 2) CHECK_REL(s->power_limit_w, t10[i].limit, 1e-15); /* D3.5 Table 36 */
    CHECK_INT(s->has_ge_adjust, t10[i].fermi); /* §3.4: the adjustment is Fermi-only */
    if (t10[i].fermi) {
      CHECK_REL(s->ge_threshold, 0.40, 1e-15);       /* §3.4: G_e < 40 % */
      CHECK_REL(s->ge_below, 0.25, 1e-15);           /* 1/4 G_e */
      CHECK_REL(s->ge_at_or_above, 2.0 / 3.0, 1e-9); /* 2/3 G_e (written 0.666666667) */
    }
    dcsim_gpu_profile_free(p);
  }
}

static void test_load_errors(void) {
  dcsim_error err = { 0 };
  dcsim_cpu_profile_t *c = NULL;
  dcsim_gpu_profile_t *g = NULL;
  /* a GPU profile is not a CPU profile */
  CHECK_INT(dcsim_cpu_profile_load(GPU "tesla-k20m.xml", &c, &err), DCSIM_ESCHEMA);
  CHECK(c == NULL);
  CHECK(strstr(err.msg, "expected a <cpu-profile> document") != NULL);
  CHECK_INT(dcsim_gpu_profile_load(CPU "xeon-e5-2697v3.xml", &g, &err), DCSIM_ESCHEMA);
  CHECK(g == NULL);
  CHECK_INT(dcsim_cpu_profile_load("tests/data/hwprofile/no-such-file.xml", &c, &err), DCSIM_EIO);
  CHECK_STR(err.file, "tests/data/hwprofile/no-such-file.xml");
  dcsim_cpu_profile_free(NULL);
  dcsim_gpu_profile_free(NULL);
}

/* provenance of lookups (dcsim/provenance.h): a measured cell is "table" with its table's source,
 * a state between cells "interpolated"; power carried to another frequency by
 * other-frequencies="same" is "extrapolated". */
static void test_provenance(void) {
  dcsim_cpu_profile_t *p = load_cpu(CPU "xeon-e5-2697v3.xml");
  if (!p) return;
  dcsim_cpu_rates r = rates(p, 2.6, NULL, 4);
  CHECK_INT(r.prov.kind, DCSIM_PROV_TABLE);
  CHECK_STR(r.prov.source, "D3.5 Table 25"); /* all table: the first lookup names it */
  r = rates(p, 2.5, NULL, 4);                /* between the 2.4 and 2.6 GHz columns */
  CHECK_INT(r.prov.kind, DCSIM_PROV_INTERPOLATED);
  r = rates(p, 2.6, NULL, 1);
  CHECK_INT(r.prov.kind, DCSIM_PROV_TABLE);
  dcsim_cpu_power pw = power(p, 2.6, 3);
  CHECK_INT(pw.prov.kind, DCSIM_PROV_TABLE);
  CHECK(strstr(pw.prov.source, "Table 32") != NULL);
  pw = power(p, 1.4, 3); /* the 2.6 GHz table, other-frequencies="same" */
  CHECK_INT(pw.prov.kind, DCSIM_PROV_EXTRAPOLATED);
  dcsim_cpu_profile_free(p);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  test_provenance();
  test_energy_per_frequency();
  test_e5_2697v3();
  test_gold_6148();
  test_bilinear();
  test_e5_2640v3_energy();
  test_gpus();
  test_load_errors();
  CHECK_DONE();
}
