/* list_cases.c — the whole listings of `dcsim list` (dcsim/list_cases.h). */
#include "dcsim/list_cases.h"

#include <stdio.h>

#include "dcsim/json.h"
#include "dcsim/list_report.h"
#include "dcsim/numfmt.h"
#include "util/csv.h"

int dcsim_list_data_root(dcsim_format fmt, dcsim_error *err) {
  int rc = 0;
  dcsim_json j;
  dcsim_json_init(&j, stdout, 1);
  if (fmt == DCSIM_FMT_JSON) dcsim_json_obj_begin(&j);
  if (fmt == DCSIM_FMT_CSV)
    puts("kind,name,model,device,max_threads,power_limit_w,parameters,cases");
  for (int k = DCSIM_KIND_CPU; k <= DCSIM_KIND_WORKFLOW && !rc; k++)
    rc = dcsim_list_kind((dcsim_kind)k, &j, fmt, err);
  if (fmt == DCSIM_FMT_JSON && !rc) {
    dcsim_json_obj_end(&j);
    dcsim_json_end(&j);
  }
  return rc;
}

void dcsim_list_dwarf_cases(const dcsim_dwarf_t *d, const char *path, dcsim_format fmt) {
  dcsim_json j;
  dcsim_json_init(&j, stdout, 1);
  size_t np = dcsim_dwarf_n_params(d), nc = dcsim_dwarf_n_cases(d);
  if (fmt == DCSIM_FMT_JSON) {
    dcsim_json_obj_begin(&j);
    dcsim_json_key_str(&j, "dwarf", dcsim_dwarf_name(d));
    dcsim_json_key_str(&j, "file", path);
    dcsim_json_key(&j, "parameters");
    dcsim_json_arr_begin(&j);
    for (size_t k = 0; k < np; k++) dcsim_json_str(&j, dcsim_dwarf_param(d, k));
    dcsim_json_arr_end(&j);
    dcsim_json_key(&j, "cases");
    dcsim_json_arr_begin(&j);
  } else if (fmt == DCSIM_FMT_CSV) {
    printf("case");
    for (size_t k = 0; k < np; k++) {
      putchar(',');
      dcsim__csv_write_cell(stdout, dcsim_dwarf_param(d, k));
    }
    putchar('\n');
  } else
    printf("dwarf %s (%s): %zu %s\n", dcsim_dwarf_name(d), path, nc,
           dcsim_plural(nc, "case", "cases"));
  for (size_t i = 0; i < nc; i++) dcsim_list_case(d, dcsim_dwarf_case(d, i), &j, fmt);
  if (fmt == DCSIM_FMT_JSON) {
    dcsim_json_arr_end(&j);
    dcsim_json_obj_end(&j);
    dcsim_json_end(&j);
  }
}
