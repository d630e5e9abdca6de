/* test_dwarf.c - loading and evaluating dwarfs: the W and Q formulas of D3.5 Table 24, cases and
 * --set bindings, case overrides, GPU kernels and the errors of evaluation. Run from the source
 * root. */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "dcsim/dwarf.h"
#include "dcsim/lib.h"

static dcsim_dwarf_t *load(const char *path) {
  dcsim_error err = { 0 };
  dcsim_dwarf_t *d = NULL;
  int rc = dcsim_dwarf_load(path, &d, &err);
  CHECK_INT(rc, 0);
  if (rc) fprintf(stderr, "  %s:%d: %s\n", err.file, err.line, err.msg);
  return d;
}

static dcsim_dwarf_eval *eval(const dcsim_dwarf_t *d, const char *case_name, const dcsim_binding *b,
                              size_t n) {
  dcsim_error err = { 0 };
  dcsim_dwarf_eval *e = NULL;
  int rc = dcsim_dwarf_evaluate(d, case_name, b, n, &e, &err);
  CHECK_INT(rc, 0);
  if (rc) fprintf(stderr, "  %s:%d: %s\n", err.file, err.line, err.msg);
  return e;
}

static const dcsim_cpu_loop *loop(const dcsim_dwarf_eval *e, const char *name) {
  for (size_t i = 0; e && i < e->n_loops; i++)
    if (strcmp(e->loops[i].name, name) == 0) return &e->loops[i];
  fprintf(stderr, "no loop %s\n", name);
  CHECK(0);
  static const dcsim_cpu_loop none;
  return &none;
}

static void test_sh(void) {
  dcsim_dwarf_t *d = load("dwarfs/spherical-harmonics.xml");
  if (!d) return;
  CHECK_STR(dcsim_dwarf_name(d), "spherical-harmonics");
  CHECK_INT(dcsim_dwarf_device_of(d), DCSIM_DWARF_CPU);
  CHECK_INT(dcsim_dwarf_n_params(d), 5);
  CHECK_INT(dcsim_dwarf_n_cases(d), 2);
  CHECK_STR(dcsim_dwarf_case(d, 0), "TL159");
  CHECK_STR(dcsim_dwarf_case(d, 1), "TCO639");
  CHECK(dcsim_dwarf_case(d, 2) == NULL);
  CHECK_INT(dcsim_dwarf_has_case(d, "TCO639"), 1);
  CHECK_INT(dcsim_dwarf_has_case(d, "tco639"), 0);
  double v = 0;
  dcsim_error err = { 0 };
  CHECK_INT(dcsim_dwarf_case_value(d, "TCO639", "PTS", &v, &err), 0);
  CHECK_REL(v, 1661440, 1e-15); /* D3.5 Table 22 */
  CHECK_INT(dcsim_dwarf_case_value(d, "TCO639", "NOPE", &v, &err), DCSIM_EREF);

  dcsim_dwarf_eval *e = eval(d, "TCO639", NULL, 0);
  if (e) {
    CHECK_INT(e->n_loops, 15);
    CHECK_INT(e->has_comm, 1);        /* transpositions declared (an assumption, see the file), */
    CHECK_REL(e->comm_overlap, 1, 0); /* §4.3: perfectly overlapped, as D3.5 projects */
    const dcsim_cpu_loop *l = loop(e, "ledir->dgemm_327");
    CHECK_REL(l->work_flop, 8.70736e12, 5e-3);    /* D3.5 Table 24: W = 8.70736E+12 FLOP */
    CHECK_REL(l->traffic_byte, 4.65232e13, 5e-3); /* D3.5 Table 24: Q = W/I = 4.65232E+13 B */
    /* the formula itself: 639^2 * 640 * 0.833 * 100 * 200 * 2 */
    CHECK_REL(l->work_flop, 639.0 * 639 * 640 * 0.833 * 100 * 200 * 2, 1e-12);
    CHECK_REL(l->V, 0.0381, 1e-15); /* D3.5 Table 30 */
    CHECK_REL(l->U, 0.1988, 1e-15); /* D3.5 Table 30 */
    CHECK_INT(l->has_flop, 1);
    l = loop(e, "leinv->dgemm_315");
    CHECK_REL(l->traffic_byte, 1.04509e14, 5e-3); /* D3.5 Table 24 */
    l = loop(e, "asre1b_88");
    CHECK_REL(l->work_flop, 33228800000.0, 1e-12); /* D3.5 Table 24: PTS*ITER*F*1 */
    CHECK_REL(l->traffic_byte, 5.31661e11, 5e-3);  /* D3.5 Table 24 */
    l = loop(e, "Trltog_433");
    CHECK_REL(l->traffic_byte, 6.64576e11, 1e-6); /* D3.5 Table 24 */
    CHECK_INT(l->has_flop, 0);
    CHECK_ABS(l->work_flop, 0, 0);
    l = loop(e, "ltdir_ctl->updsp_132");
    CHECK_REL(l->traffic_byte, 3.78742e11, 1e-5); /* D3.5 Table 24 */
    dcsim_dwarf_eval_free(e);
  }

  /* bindings come after the case and the last one wins: F = 100 halves TCO639's W and Q */
  dcsim_binding b[2] = { { "F", 50, "command line", 3 }, { "F", 100, "command line", 5 } };
  e = eval(d, "TCO639", b, 2);
  if (e) {
    CHECK_REL(loop(e, "ledir->dgemm_327")->work_flop, 8.70736e12 / 2, 5e-3);
    CHECK_REL(loop(e, "Trltog_433")->traffic_byte, 6.64576e11 / 2, 1e-6);
    dcsim_dwarf_eval_free(e);
  }
  /* without a case, every parameter from bindings: TL159 by hand */
  dcsim_binding tl[5] = { { "GRIDN", 80, "command line", 1 },
                          { "PTS", 35718, "command line", 2 },
                          { "NSMAX", 159, "command line", 3 },
                          { "ITER", 100, "command line", 4 },
                          { "F", 274, "command line", 5 } };
  dcsim_dwarf_eval *e1 = eval(d, NULL, tl, 5), *e2 = eval(d, "TL159", NULL, 0);
  if (e1 && e2)
    for (size_t i = 0; i < e1->n_loops; i++) {
      CHECK_REL(e1->loops[i].work_flop + 1, e2->loops[i].work_flop + 1, 1e-15);
      CHECK_REL(e1->loops[i].traffic_byte, e2->loops[i].traffic_byte, 1e-15);
    }
  if (e1) CHECK_REL(loop(e1, "asre1b_88")->work_flop, 35718.0 * 100 * 274, 1e-12);
  dcsim_dwarf_eval_free(e1);
  dcsim_dwarf_eval_free(e2);

  dcsim_energy_coeffs c;
  CHECK_INT(dcsim_dwarf_energy_coeffs(d, &c, &err), 0);
  CHECK_REL(c.pkg_U, 0.58309038, 1e-15); /* D3.5 Table 33 */
  CHECK_INT(dcsim_dwarf_gpu_fraction(d, "geforce-gtx970", &v, &err), DCSIM_EREF);
  dcsim_dwarf_free(d);
}

/* Evaluation errors: code, file, line and a word of the message. */
static void eval_fail(const dcsim_dwarf_t *d, const char *case_name, const dcsim_binding *b,
                      size_t n, int code, const char *file, int line, const char *word) {
  dcsim_error err = { 0 };
  dcsim_dwarf_eval *e = (dcsim_dwarf_eval *)1;
  int rc = dcsim_dwarf_evaluate(d, case_name, b, n, &e, &err);
  CHECK_INT(rc, code);
  CHECK(e == (dcsim_dwarf_eval *)1); /* *out untouched on failure */
  CHECK_STR(err.file, file);
  if (line >= 0) CHECK_INT(err.line, line);
  CHECK(strstr(err.msg, word) != NULL);
  if (!strstr(err.msg, word)) fprintf(stderr, "  message: %s\n", err.msg);
}

static void test_errors(void) {
  dcsim_dwarf_t *d = load("dwarfs/spherical-harmonics.xml");
  if (!d) return;
  const char *path = "dwarfs/spherical-harmonics.xml";
  eval_fail(d, "TCO1279", NULL, 0, DCSIM_EREF, path, -1, "no case 'TCO1279'");
  eval_fail(d, "TCO1279", NULL, 0, DCSIM_EREF, path, -1, "TL159, TCO639"); /* lists the cases */
  dcsim_binding b = { "NOPE", 2.385, "command line", 4 };
  eval_fail(d, "TL159", &b, 1, DCSIM_EREF, "command line", 4, "no parameter 'NOPE'");
  b = (dcsim_binding){ "F", -1, "command line", 6 };
  eval_fail(d, "TL159", &b, 1, DCSIM_ERANGE, "command line", 6, "non-negative");
  b = (dcsim_binding){ "F", NAN, "command line", 7 };
  eval_fail(d, "TL159", &b, 1, DCSIM_ERANGE, "command line", 7, "finite");
  b = (dcsim_binding){ "ITER", INFINITY, "workflows/x.xml", 12 };
  eval_fail(d, "TL159", &b, 1, DCSIM_ERANGE, "workflows/x.xml", 12, "finite");
  /* a parameter left without value: no case, only F bound */
  b = (dcsim_binding){ "F", 200, "command line", 2 };
  eval_fail(d, NULL, &b, 1, DCSIM_EREF, path, -1, "has no value");
  eval_fail(d, NULL, &b, 1, DCSIM_EREF, path, -1, "NSMAX"); /* the first one missing is named */
  eval_fail(d, NULL, NULL, 0, DCSIM_EREF, path, -1, "give a case or set it");
  { /* the message points at the <param> declaration */
    dcsim_error err = { 0 };
    dcsim_dwarf_eval *e = NULL;
    CHECK_INT(dcsim_dwarf_evaluate(d, NULL, &b, 1, &e, &err), DCSIM_EREF);
    CHECK(err.line > 0);
  }
  dcsim_dwarf_free(d);

  /* a formula that turns negative for the parameters given: N*ITER*24 with ITER < 0 is caught at
   * the binding; a zero is fine */
  d = load("tests/data/dwarf/comm.xml");
  if (!d) return;
  dcsim_binding z[2] = { { "N", 0, "command line", 1 }, { "ITER", 0, "command line", 2 } };
  dcsim_dwarf_eval *e = eval(d, NULL, z, 2);
  if (e) CHECK_ABS(e->loops[0].traffic_byte, 0, 0);
  dcsim_dwarf_eval_free(e);
  dcsim_dwarf_free(d);
}

static void test_bifft_overrides(void) {
  dcsim_dwarf_t *d = load("dwarfs/bifft.xml");
  if (!d) return;
  CHECK_INT(dcsim_dwarf_n_params(d), 4);
  /* 200x180_20 through its case: the overrides hold the LP split derived for that case */
  dcsim_dwarf_eval *ec = eval(d, "200x180_20", NULL, 0);
  /* the same parameters as bindings, no case: the 200x180_525 formulas scaled to 20 fields */
  dcsim_binding b[4] = {
    { "NX", 200, "t", 1 }, { "NY", 180, "t", 2 }, { "FIELDS", 20, "t", 3 }, { "ITER", 100, "t", 4 }
  };
  dcsim_dwarf_eval *ef = eval(d, NULL, b, 4);
  if (ec && ef) {
    const double pts = 200.0 * 180 * 20 * 100;
    const dcsim_cpu_loop *lc = loop(ec, "easre1b_mod.F90:72"), *lf = loop(ef, "easre1b_mod.F90:72");
    CHECK_REL(lc->traffic_byte, 1640500000, 1e-12);        /* the <override> of bifft.xml */
    CHECK_REL(lf->traffic_byte, pts * 22.88465608, 1e-12); /* the loop's formula */
    CHECK(fabs(lc->traffic_byte - lf->traffic_byte) > 1e-3 * lf->traffic_byte);
    lc = loop(ec, "rpassf.F:546");
    lf = loop(ef, "rpassf.F:546");
    CHECK_REL(lc->work_flop, 1547686733, 1e-12);
    CHECK_REL(lf->work_flop, pts * 7.55952381, 1e-12);
    CHECK(fabs(lc->work_flop - lf->work_flop) > 1e-3 * lf->work_flop);
    /* a loop that the formula gives traffic but the 20-field split gives none */
    CHECK_ABS(loop(ec, "trgtol_mod.F90:434")->traffic_byte, 0, 0);
    CHECK(loop(ef, "trgtol_mod.F90:434")->traffic_byte > 0);
    /* coefficients are the same in both */
    CHECK_REL(loop(ec, "qpassf.F:537")->S_flops, 1334821538,
              1e-15); /* D3.5 Table 41: S = 1.334821538 GFLOP/s */
    /* the 20-field totals are those of D3.5 Table 38: W 4.33 GFLOP, Q 32.81 GB */
    double w = 0, q = 0;
    for (size_t i = 0; i < ec->n_loops; i++) {
      w += ec->loops[i].work_flop;
      q += ec->loops[i].traffic_byte;
    }
    CHECK_REL(w, 4.33e9, 1e-6);  /* D3.5 Table 38 */
    CHECK_REL(q, 32.81e9, 1e-6); /* D3.5 Table 38 */
  }
  dcsim_dwarf_eval_free(ec);
  dcsim_dwarf_eval_free(ef);
  /* a binding that changes a value of the case drops its overrides (derived for 20 fields): with
   * FIELDS = 40 the formulas apply; a binding that repeats the case's value keeps them */
  dcsim_binding f40 = { "FIELDS", 40, "command line", 7 },
                f20 = { "FIELDS", 20, "command line", 7 };
  ec = eval(d, "200x180_20", &f40, 1);
  if (ec)
    CHECK_REL(loop(ec, "easre1b_mod.F90:72")->traffic_byte, 200.0 * 180 * 40 * 100 * 22.88465608,
              1e-12);
  dcsim_dwarf_eval_free(ec);
  ec = eval(d, "200x180_20", &f20, 1);
  if (ec) CHECK_REL(loop(ec, "easre1b_mod.F90:72")->traffic_byte, 1640500000, 1e-12);
  dcsim_dwarf_eval_free(ec);
  /* a case without overrides uses the formulas */
  ec = eval(d, "200x180_525", NULL, 0);
  if (ec)
    CHECK_REL(loop(ec, "easre1b_mod.F90:72")->traffic_byte, 200.0 * 180 * 525 * 100 * 22.88465608,
              1e-12);
  dcsim_dwarf_eval_free(ec);
  dcsim_dwarf_free(d);
}

static void test_gpu_dwarf(void) {
  dcsim_dwarf_t *d = load("dwarfs/acraneb2.xml");
  if (!d) return;
  CHECK_INT(dcsim_dwarf_device_of(d), DCSIM_DWARF_GPU);
  CHECK_INT(dcsim_dwarf_n_cases(d), 12); /* Table 18's ten, §6.2's alaro and alaro-operational */
  dcsim_dwarf_eval *e = eval(d, "200x200x80", NULL, 0);
  if (e) {
    CHECK_REL(e->domain_size, 3200000, 1e-15); /* D3.5 §3.3: 200x200x80, N = 3200000 */
    CHECK_INT(e->invocations, 2);
    CHECK_INT(e->n_kernels, 7);
    CHECK_INT(e->n_loops, 0);
    CHECK_STR(e->kernels[0].name, "acraneb_transt3_212_gpu_A");
    CHECK_REL(e->kernels[0].P_inactive, 0.6566, 1e-15); /* D3.5 Table 9: 65.66 % */
    CHECK_REL(e->kernels[0].G_e, 0.3092, 1e-15);        /* D3.5 Table 9: 30.92 % */
    CHECK_REL(e->kernels[3].G_e, 0.6153, 1e-15);        /* D3.5 Table 9: 61.53 % */
    CHECK_REL(e->kernels[6].IPC_e, 0.654, 1e-15);       /* D3.5 Table 9 */
    CHECK_REL(e->kernels[4].i_dp, 1.62e4, 1e-15);       /* D3.5 Table 9 */
  }
  dcsim_dwarf_eval_free(e);
  double s = 0;
  dcsim_error err = { 0 };
  CHECK_INT(dcsim_dwarf_gpu_fraction(d, "geforce-gtx970", &s, &err), 0);
  CHECK_REL(s, 0.5871, 1e-15); /* D3.5 Table 36: 58.71 % */
  CHECK_INT(dcsim_dwarf_gpu_fraction(d, "tesla-k20m", &s, &err), 0);
  CHECK_REL(s, 0.2889, 1e-15); /* D3.5 Table 36: 28.89 % */
  CHECK_INT(dcsim_dwarf_gpu_fraction(d, "no-such-gpu", &s, &err), DCSIM_EREF);
  dcsim_energy_coeffs c;
  CHECK_INT(dcsim_dwarf_energy_coeffs(d, &c, &err), DCSIM_EREF);
  dcsim_dwarf_free(d);
}

static void test_comm_dwarf(void) {
  dcsim_dwarf_t *d = load("tests/data/dwarf/comm.xml");
  if (!d) return;
  dcsim_dwarf_eval *e = eval(d, "wide", NULL, 0);
  if (e) {
    CHECK_INT(e->has_comm, 1);
    CHECK_REL(e->comm_in_byte, 23850.0 * 8, 1e-15);
    CHECK_REL(e->comm_out_byte, 23850.0 * 4.5, 1e-15);
    CHECK_REL(e->comm_iterations, 7, 1e-15);
    CHECK_REL(e->loops[1].work_flop, 23850.0 * 7 * 2.385, 1e-15);
  }
  dcsim_dwarf_eval_free(e);
  dcsim_dwarf_free(d);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  test_sh();
  test_errors();
  test_bifft_overrides();
  test_gpu_dwarf();
  test_comm_dwarf();
  dcsim_dwarf_free(NULL);
  dcsim_dwarf_eval_free(NULL);
  CHECK_DONE();
}
