/* cli_info.c — `dcsim list` and `dcsim validate` (the full load of each file, not only its schema).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"
#include "dcsim/cli.h"
#include "dcsim/dwarf.h"
#include "dcsim/json.h"
#include "dcsim/list_report.h"
#include "dcsim/numfmt.h"
#include "dcsim/scenario.h"
#include "dcsim/sched.h"
#include "dcsim/strutil.h"
#include "dcsim/trace.h"
#include "dcsim/validate.h"
#include "util/csv.h"
#include "util/xmlio.h"

/* dcsim list DWARF: the cases of one dwarf (a name of the data root or a path, as --dwarf takes
 * it) with the parameter values each sets; the bash completion of --case reads its CSV. */
static int list_cases(const dcsim_args *a, dcsim_format fmt, dcsim_error *err) {
  char path[4096];
  dcsim_dwarf_t *d = NULL;
  int rc = dcsim_catalog_resolve(DCSIM_KIND_DWARF, a->positional[0], "command line",
                                 a->positional_argi[0], path, sizeof path, err);
  if (rc || (rc = dcsim_dwarf_load(path, &d, err))) return rc;
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
  dcsim_dwarf_free(d);
  return 0;
}

int dcsim_cmd_list(const dcsim_args *a, dcsim_error *err) {
  static const dcsim_format formats[] = { DCSIM_FMT_TEXT, DCSIM_FMT_JSON, DCSIM_FMT_CSV,
                                          DCSIM_FMT_END };
  dcsim_format fmt = DCSIM_FMT_TEXT;
  int rc = dcsim_arg_format(a, formats, &fmt, err);
  if (rc) return rc;
  if (a->n_positional) return list_cases(a, fmt, err);
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

/* ---- dcsim validate: the full semantic load of each file, not only its schema ---- */

/* a schema error of one file, as dcsim prints errors */
static void print_error(void *ctx, const dcsim_error *e) {
  (void)ctx;
  char buf[2048];
  dcsim_error_format(e, buf, sizeof buf);
  fprintf(stderr, "dcsim: %s\n", buf);
}

enum { MAX_SCHEMA_ERRORS = 20 };

/* What `dcsim run FILE` checks before it simulates, for a workflow or workload naming its
 * platform: the scenario (profiles, dwarfs, frequencies on the chosen nodes, options, plans) with
 * run's default policy, and the run's size against the budget. */
static int validate_as_run(const char *path, const dcsim_budget *b, dcsim_error *err) {
  dcsim_scenario_opts so;
  memset(&so, 0, sizeof so);
  dcsim_job_policy jp;
  dcsim_task_policy tp;
  dcsim_scenario *s = NULL;
  int rc = dcsim_sched_parse_policy(NULL, &jp, &tp, err);
  so.task_policy = tp;
  so.budget = b;
  if (!rc) rc = dcsim_scenario_load(path, &so, &s, err);
  if (!rc) {
    dcsim_engine_opts eo;
    memset(&eo, 0, sizeof eo);
    eo.job_policy = jp;
    dcsim_run_size sz;
    dcsim_engine_size(s, &eo, &sz);
    rc = dcsim_cli_check_size(b, &sz, path, err);
  }
  dcsim_scenario_free(s);
  return rc;
}

/* One file: every schema error, else the first error of the full load; "FILE: valid ROOT". */
static int validate_one(const char *path, int quiet, const dcsim_budget *b) {
  dcsim_error e;
  memset(&e, 0, sizeof e);
  char root[64];
  dcsim_trace_kind tk = dcsim_trace_detect(path);
  size_t n = 0;
  int rc = tk ? 0 : dcsim__xml_check_file(path, print_error, NULL, MAX_SCHEMA_ERRORS, &n, &e);
  if (rc && n > MAX_SCHEMA_ERRORS)
    fprintf(stderr, "dcsim: %s: ... and %zu more schema errors\n", path, n - MAX_SCHEMA_ERRORS);
  if (rc) {
    if (!n) print_error(NULL, &e); /* malformed: its first parse error */
    return rc;
  }
  int runnable = 0;
  if (!(rc = dcsim_validate_file(path, b, &runnable, &e)) && runnable)
    rc = validate_as_run(path, b, &e);
  if (!rc && tk)
    snprintf(root, sizeof root, "%s", tk == DCSIM_TRACE_SWF ? "SWF trace" : "WfCommons instance");
  else if (!rc)
    rc = dcsim__xml_peek_root(path, root, sizeof root, &e);
  if (rc) {
    print_error(NULL, &e);
    return rc;
  }
  if (!quiet) printf("%s: valid %s\n", path, root);
  return 0;
}

/* Every file is checked and every error reported, as compilers and xmllint do; the exit status is
 * that of the first file that failed. */
int dcsim_cmd_validate(const dcsim_args *a, dcsim_error *err) {
  int first = 0, quiet = dcsim_arg_flag(a, "quiet");
  size_t bad = 0;
  dcsim_budget budget;
  int rc = dcsim_cli_budget(a, &budget, err);
  if (rc) return rc;
  for (int i = 0; i < a->n_positional; i++) {
    rc = validate_one(a->positional[i], quiet, &budget);
    if (rc && !first) first = rc;
    bad += rc != 0;
  }
  if (bad && a->n_positional > 1)
    fprintf(stderr, "dcsim: %zu of %d files failed validation\n", bad, a->n_positional);
  return first ? dcsim_cli_exit_code(first) : 0;
}
