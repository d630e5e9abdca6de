/* test_provenance.c — kinds of evidence (dcsim/provenance.h): names, order, the weakest of two,
 * --strict's rule, text and JSON forms. */
#include <stdlib.h>

#include "check.h"
#include "dcsim/json.h"
#include "dcsim/lib.h"
#include "dcsim/provenance.h"

static void test_names(void) {
  static const char *const want[] = { "table", "interpolated", "extrapolated", "spec" };
  for (int k = 0; k < DCSIM_PROV_N; k++) {
    CHECK_STR(dcsim_prov_name((dcsim_prov_kind)k), want[k]);
    dcsim_prov_kind back = DCSIM_PROV_SPEC;
    CHECK_INT(dcsim_prov_parse(want[k], &back), 0);
    CHECK_INT(back, k);
  }
  dcsim_prov_kind k = DCSIM_PROV_TABLE;
  CHECK_INT(dcsim_prov_parse("measured", &k), -1);
  CHECK_INT(dcsim_prov_parse(NULL, &k), -1);
  CHECK_STR(dcsim_prov_name((dcsim_prov_kind)7), "unknown");
}

static void test_weakest(void) {
  dcsim_prov t = dcsim_prov_make(DCSIM_PROV_TABLE, "D3.5 Table 25");
  dcsim_prov i = dcsim_prov_make(DCSIM_PROV_INTERPOLATED, "D3.5 Table 29");
  dcsim_prov e = dcsim_prov_make(DCSIM_PROV_EXTRAPOLATED, "fit of Table 29");
  dcsim_prov s = dcsim_prov_make(DCSIM_PROV_SPEC, NULL);
  CHECK_STR(s.source, ""); /* NULL becomes "" */
  CHECK_STR(dcsim_prov_weakest(t, i).source, "D3.5 Table 29");
  CHECK_STR(dcsim_prov_weakest(i, t).source, "D3.5 Table 29");
  CHECK_INT(dcsim_prov_weakest(e, s).kind, DCSIM_PROV_SPEC);
  CHECK_INT(dcsim_prov_weakest(s, e).kind, DCSIM_PROV_SPEC);
  /* a tie keeps the first, so the earliest input names the source */
  dcsim_prov t2 = dcsim_prov_make(DCSIM_PROV_TABLE, "D3.5 Table 32");
  CHECK_STR(dcsim_prov_weakest(t2, t).source, "D3.5 Table 32");
  CHECK(dcsim_prov_strict_ok(DCSIM_PROV_TABLE));
  CHECK(dcsim_prov_strict_ok(DCSIM_PROV_INTERPOLATED));
  CHECK(!dcsim_prov_strict_ok(DCSIM_PROV_EXTRAPOLATED));
  CHECK(!dcsim_prov_strict_ok(DCSIM_PROV_SPEC));
}

static void test_forms(void) {
  char buf[64];
  dcsim_prov_format(dcsim_prov_make(DCSIM_PROV_INTERPOLATED, "D3.5 Table 26"), buf, sizeof buf);
  CHECK_STR(buf, "[interpolated: D3.5 Table 26]");
  dcsim_prov_format(dcsim_prov_make(DCSIM_PROV_SPEC, ""), buf, sizeof buf);
  CHECK_STR(buf, "[spec]");
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  CHECK(f != NULL);
  if (!f) return;
  dcsim_json j;
  dcsim_json_init(&j, f, 0);
  dcsim_prov_json(&j, dcsim_prov_make(DCSIM_PROV_EXTRAPOLATED, "say \"x\""));
  dcsim_json_end(&j);
  fclose(f);
  CHECK_STR(out, "{\"kind\":\"extrapolated\",\"source\":\"say \\\"x\\\"\"}\n");
  free(out);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  test_names();
  test_weakest();
  test_forms();
  CHECK_DONE();
}
