/* fuzz_expr.c — the formula evaluator (dcsim/expr.h): compile the input over the parameter names
 * of the shipped dwarfs, then evaluate it with ordinary, zero and huge values. */
// seed-formulas: dwarfs/*.xml tests/data/dwarf/*.xml tests/data/validate/bad-formula.xml
#include "dcsim/expr.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const names[] = { "N",     "NX", "NY",  "FIELDS", "ITER", "NSMAX",
                                       "GRIDN", "F",  "KLO", "KLA",    "KLEV", "x_1" };
  enum { NN = sizeof names / sizeof *names };
  static const double sets[3][NN] = {
    { 200, 200, 180, 640, 100, 639, 0.5, 2.385, 200, 200, 80, -1.5 },
    { 0 },
    { 1e300, 1e308, 1e-308, 4294967295.0, 1e30, 1e155, 1e155, -1e308, 1, 2, 3, 1e-300 }
  };
  char *text = fuzz_str(data, size);
  dcsim_error err;
  dcsim_expr_t *e = NULL;
  int rc = dcsim_expr_parse(text, names, NN, &e, &err);
  fuzz_check_error(rc, &err);
  if (!rc) {
    for (int s = 0; s < 3; s++) {
      double v;
      fuzz_check_error(dcsim_expr_eval(e, sets[s], &v, &err), &err);
    }
    for (size_t i = 0; i < NN; i++) dcsim_expr_uses(e, i);
    if (strcmp(dcsim_expr_text(e), text) != 0) abort();
  }
  dcsim_expr_free(e);
  free(text);
  return 0;
}
