/* test_model_comm.c - communication beyond perfect overlap (dcsim/model_comm.h): the Hockney cost
 * of each pattern kind with NODES in its formulas, the overlap composition, D3.5 §4.3's term as
 * the special case (exchange pattern, zero latency, no overlap), the balance point, and the bad
 * <communication> inputs. Run from the source root. */
#include <stdlib.h>

#include "check.h"
#include "dcsim/lib.h"
#include "dcsim/model.h"
#include "dcsim/model_comm.h"

static dcsim_dwarf_t *load_dwarf(const char *path) {
  dcsim_error err = { 0 };
  dcsim_dwarf_t *d = NULL;
  if (dcsim_dwarf_load(path, &d, &err)) fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.msg);
  CHECK(d != NULL);
  return d;
}

static dcsim_dwarf_eval *eval(const dcsim_dwarf_t *d, const char *case_name) {
  dcsim_error err = { 0 };
  dcsim_dwarf_eval *e = NULL;
  if (d && dcsim_dwarf_evaluate(d, case_name, NULL, 0, &e, &err))
    fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.msg);
  CHECK(e != NULL);
  return e;
}

/* time of dcsim_model_run on n E5-2697v3 nodes, 1 core at 2.6 GHz; comm_s gets the raw T_comm */
static double run(const dcsim_dwarf_eval *ev, const dcsim_cpu_profile_t *cpu, unsigned n,
                  double latency_s, double s_per_byte, int overlap_set, double overlap,
                  double *comm_s) {
  dcsim_model_req rq;
  memset(&rq, 0, sizeof rq);
  rq.ev = ev;
  rq.cpu = cpu;
  rq.nodes = n;
  rq.state = (dcsim_cpu_state){ 2.6, NULL, 1 };
  rq.net_s_per_byte = s_per_byte;
  rq.net_latency_s = latency_s;
  rq.overlap_set = overlap_set;
  rq.overlap = overlap;
  rq.energy_form = DCSIM_ENERGY_NONE;
  dcsim_prediction p;
  dcsim_error err = { 0 };
  int rc = dcsim_model_run(&rq, &p, &err);
  CHECK_INT(rc, 0);
  if (rc) {
    fprintf(stderr, "  %s\n", err.msg);
    return NAN;
  }
  double t = p.time_s;
  if (comm_s) *comm_s = p.cpu->node_comm_s[0];
  dcsim_prediction_release(&p);
  return t;
}

/* D3.5 §4.3's T_comm = T_single*(Q_in + Q_out)*iters is the exchange pattern with zero latency and
 * no overlap: tests/data/dwarf/comm.xml (the attributes) and tests/data/comm/exchange.xml (the
 * same term as a pattern) give the same time; a latency adds messages*alpha per iteration. */
static void test_d35_special_case(const dcsim_cpu_profile_t *e5) {
  dcsim_dwarf_t *legacy = load_dwarf("tests/data/dwarf/comm.xml"),
                *pat = load_dwarf("tests/data/comm/exchange.xml");
  dcsim_dwarf_eval *el = eval(legacy, "small"), *ep = eval(pat, "small");
  if (el && ep) {
    const double beta = 1 / 1.25e9,
                 t_comm = beta * 12500 * 10; /* comm.xml: (8000 + 4500) B, 10 iterations */
    for (unsigned n = 1; n <= 4; n++) {
      double cl = 0, cp = 0;
      double tl = run(el, e5, n, 0, beta, 0, 0, &cl), tp = run(ep, e5, n, 0, beta, 0, 0, &cp);
      CHECK_REL(tp, tl, 1e-15);
      CHECK_REL(cp, n > 1 ? t_comm : 0, 1e-12);
      CHECK_REL(cl, cp, 1e-15);
    }
    /* the §4.3 attributes have no message count, so their latency term is 0 */
    double alpha = 3.125e-6, cl = 0, cp = 0;
    double tl = run(el, e5, 3, alpha, beta, 0, 0, &cl), tp = run(ep, e5, 3, alpha, beta, 0, 0, &cp);
    CHECK_REL(cl, t_comm, 1e-12);
    CHECK_REL(cp, t_comm + 3 * alpha * 10, 1e-12);
    CHECK_REL(tp - tl, 3 * alpha * 10, 1e-9);
    /* the heterogeneous form (dcsim_model_cpu) agrees with dcsim_model_run */
    dcsim_cpu_node_spec ns[2] = { { e5, { 2.6, NULL, 1 }, 0.5, 0 },
                                  { e5, { 2.6, NULL, 1 }, 0.5, 0 } };
    dcsim_cpu_result *r = NULL;
    dcsim_error err = { 0 };
    CHECK_INT(dcsim_model_cpu(ep, ns, 2, beta, &r, &err), 0);
    if (r) CHECK_REL(r->time_s, run(ep, e5, 2, 0, beta, 0, 0, NULL), 1e-15);
    dcsim_cpu_result_free(r);
  }
  dcsim_dwarf_eval_free(el);
  dcsim_dwarf_eval_free(ep);
  dcsim_dwarf_free(legacy);
  dcsim_dwarf_free(pat);
}

/* halo, alltoall and allreduce with NODES in the byte formulas; overlap 0.375 from the file. */
static void test_patterns(const dcsim_cpu_profile_t *e5) {
  dcsim_dwarf_t *d = load_dwarf("tests/data/comm/patterns.xml");
  dcsim_dwarf_eval *ev = eval(d, "c");
  if (ev) {
    CHECK_REL(ev->comm_overlap, 0.375, 0);
    const double N = 23850, IT = 7, a = 2.5e-6, b = 8e-10;
    const double dram = 13.436e9; /* D3.5 Table 29: 1 thread at 2.6 GHz */
    static const unsigned ps[] = { 2, 3, 8, 13 };
    for (size_t k = 0; k < 4; k++) {
      double P = ps[k];
      double halo = IT * 2 * (a + N * 4 / P * b);                  /* Hockney point-to-point */
      double a2a = 2 * IT * (P - 1) * (a + b * (N * 8.5 / P) / P); /* pairwise exchange */
      double ared = IT * ceil(log2(P)) * (a + 64 * b);             /* recursive doubling */
      double comm = halo + a2a + ared, comp = N * IT * 24 / P / dram;
      double got_comm = 0;
      dcsim_network net = { a, b };
      dcsim_error err = { 0 };
      CHECK_INT(dcsim_comm_time(ev, ps[k], &net, &got_comm, &err), 0);
      CHECK_REL(got_comm, comm, 1e-12);
      double t = run(ev, e5, ps[k], a, b, 0, 0, NULL);
      CHECK_REL(t, comp + comm - fmin(0.375 * comm, comp), 1e-12);
      CHECK_REL(run(ev, e5, ps[k], a, b, 1, 0, NULL), comp + comm, 1e-12);      /* --overlap 0 */
      CHECK_REL(run(ev, e5, ps[k], a, b, 1, 1, NULL), fmax(comp, comm), 1e-12); /* --overlap 1 */
    }
    CHECK_REL(run(ev, e5, 1, a, b, 0, 0, NULL), N * IT * 24 / dram, 1e-12); /* one node: none */
    /* overlap outside 0..1 */
    dcsim_model_req rq;
    memset(&rq, 0, sizeof rq);
    rq.ev = ev;
    rq.cpu = e5;
    rq.nodes = 2;
    rq.state = (dcsim_cpu_state){ 2.6, NULL, 1 };
    rq.overlap_set = 1;
    rq.overlap = 1.5;
    dcsim_prediction p;
    dcsim_error err = { 0 };
    CHECK_INT(dcsim_model_run(&rq, &p, &err), DCSIM_ERANGE);
    CHECK(strstr(err.msg, "overlap 1.5 must be in 0..1") != NULL);
  }
  dcsim_dwarf_eval_free(ev);
  dcsim_dwarf_free(d);
}

static void test_compose(void) {
  CHECK_REL(dcsim_comm_compose(2.385, 1.25, 0), 3.635, 1e-15); /* D3.5 §4.3: sum */
  CHECK_REL(dcsim_comm_compose(2.385, 1.25, 1), 2.385, 1e-15); /* perfect overlap: max */
  CHECK_REL(dcsim_comm_compose(1.25, 2.385, 1), 2.385, 1e-15);
  CHECK_REL(dcsim_comm_compose(2.385, 1.25, 0.5), 3.01, 1e-15); /* hides 0.625 */
  CHECK_REL(dcsim_comm_compose(0.25, 1.25, 0.5), 1.25, 1e-15);  /* hides only what computes */
  dcsim_comm_pattern p = { DCSIM_COMM_ALLREDUCE, 8, 0, 1 };
  dcsim_network net = { 1e-6, 0 };
  CHECK_REL(dcsim_comm_pattern_time(&p, 1, &net), 0, 0);
  CHECK_REL(dcsim_comm_pattern_time(&p, 2, &net), 1e-6, 1e-15);
  CHECK_REL(dcsim_comm_pattern_time(&p, 1024, &net), 10e-6, 1e-12);
  CHECK_REL(dcsim_comm_pattern_time(&p, 1025, &net), 11e-6, 1e-12);
}

static void test_balance(void) {
  dcsim_balance b;
  dcsim_error err = { 0 };
  const unsigned n[6] = { 1, 2, 4, 8, 16, 32 };
  /* a rise from 1 to 2 nodes (communication appears), a plateau from 8 to 16,
   * slower again at 32: the balance is the fastest count: 8 (tied with 16: the first), not the
   * early dip at 1 */
  const double t[6] = { 9.5, 10.25, 4.75, 2.875, 2.875, 3.5 };
  const double e[6] = { 750, 1190, 1415, 1555, 1740, 2300 };
  CHECK_INT(dcsim_balance_point(n, t, e, 6, &b, &err), 0);
  CHECK_INT(b.reached, 1);
  CHECK_INT(n[b.balance], 8); /* the fastest node count (the first one of the tie 8/16) */
  CHECK_INT(n[b.time_min], 8);
  CHECK_INT(n[b.energy_min], 1);
  const double down[3] = { 3, 2, 1 }, up[3] = { 3, 4, 5 };
  CHECK_INT(dcsim_balance_point(n, down, NULL, 3, &b, &err), 0);
  CHECK_INT(b.reached, 0);
  CHECK_INT(b.balance, 2);
  CHECK_INT(b.energy_min, 0);
  CHECK_INT(dcsim_balance_point(n, up, NULL, 3, &b, &err), 0);
  CHECK_INT(b.reached, 1);
  CHECK_INT(b.balance, 0);
  const unsigned bad_n[3] = { 1, 4, 4 };
  CHECK_INT(dcsim_balance_point(bad_n, down, NULL, 3, &b, &err), DCSIM_ERANGE);
  CHECK(strstr(err.msg, "must increase") != NULL);
  const double nan_t[2] = { 1, NAN };
  CHECK_INT(dcsim_balance_point(n, nan_t, NULL, 2, &b, &err), DCSIM_ERANGE);
  CHECK_INT(dcsim_balance_point(n, t, e, 0, &b, &err), DCSIM_ERANGE);
}

static void test_bad_inputs(void) {
  static const struct {
    const char *file;
    int code;
    const char *msg;
  } bad[] = {
    { "bad-in-only", DCSIM_ESCHEMA, "give in-byte, out-byte and iterations together" },
    { "bad-msgs-alltoall", DCSIM_ESCHEMA,
      "<pattern kind=\"alltoall\">: messages only applies to exchange and halo" },
    { "bad-halo-no-msgs", DCSIM_ESCHEMA, "<pattern kind=\"halo\">: needs messages" },
    { "bad-empty", DCSIM_ESCHEMA, "<communication>: declares nothing" },
    { "bad-overlap-big", DCSIM_ERANGE, "<communication overlap>: must be in 0..1" },
    { "bad-nodes-param", DCSIM_ESCHEMA, "rename the parameter NODES" },
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char path[256];
    snprintf(path, sizeof path, "tests/data/comm/%s.xml", bad[i].file);
    dcsim_dwarf_t *d = NULL;
    dcsim_error err = { 0 };
    CHECK_INT(dcsim_dwarf_load(path, &d, &err), bad[i].code);
    CHECK_INT(err.line, 11);
    if (!strstr(err.msg, bad[i].msg)) fprintf(stderr, "  %s: %s\n", path, err.msg);
    CHECK(strstr(err.msg, bad[i].msg) != NULL);
    CHECK(d == NULL);
  }
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  dcsim_error err = { 0 };
  dcsim_cpu_profile_t *e5 = NULL;
  if (dcsim_cpu_profile_load("hw-profiles/cpu/xeon-e5-2697v3.xml", &e5, &err))
    fprintf(stderr, "%s\n", err.msg);
  CHECK(e5 != NULL);
  if (e5) {
    test_d35_special_case(e5);
    test_patterns(e5);
  }
  test_compose();
  test_balance();
  test_bad_inputs();
  dcsim_cpu_profile_free(e5);
  CHECK_DONE();
}
