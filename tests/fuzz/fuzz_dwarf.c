/* fuzz_dwarf.c — dwarf descriptions (schemas/dwarf.xsd): load, then evaluate the default
 * parameters and every case (formulas, overrides), and read the energy coefficients. */
// seeds: dwarfs/*.xml tests/data/dwarf/*.xml tests/data/bad/dwarf-*.xml tests/data/bad/xxe*.xml
// tests/data/bad/billion-laughs*.xml tests/data/bad/malformed-dwarf.xml
// tests/data/validate/bad-formula.xml
#include "dcsim/dwarf.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  dcsim_error err;
  dcsim_dwarf_t *d = NULL;
  int rc = dcsim_dwarf_load(fuzz_file("dwarf.xml", data, size), &d, &err);
  fuzz_check_error(rc, &err);
  if (rc) return 0;
  size_t nc = dcsim_dwarf_n_cases(d);
  for (size_t c = 0; c <= nc; c++) { /* c == nc: no case */
    dcsim_dwarf_eval *ev = NULL;
    rc = dcsim_dwarf_evaluate(d, c < nc ? dcsim_dwarf_case(d, c) : NULL, NULL, 0, &ev, &err);
    fuzz_check_error(rc, &err);
    dcsim_dwarf_eval_free(ev);
  }
  if (dcsim_dwarf_n_params(d)) { /* a binding that overrides the first parameter */
    dcsim_binding b = { dcsim_dwarf_param(d, 0), 3.0, "fuzz", 1 };
    dcsim_dwarf_eval *ev = NULL;
    rc = dcsim_dwarf_evaluate(d, nc ? dcsim_dwarf_case(d, 0) : NULL, &b, 1, &ev, &err);
    fuzz_check_error(rc, &err);
    dcsim_dwarf_eval_free(ev);
  }
  dcsim_energy_coeffs ec;
  double frac;
  fuzz_check_error(dcsim_dwarf_energy_coeffs(d, &ec, &err), &err);
  fuzz_check_error(dcsim_dwarf_gpu_fraction(d, "geforce-gtx970", &frac, &err), &err);
  dcsim_dwarf_free(d);
  return 0;
}
