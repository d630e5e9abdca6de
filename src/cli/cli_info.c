/* cli_info.c — `dcsim list` and `dcsim validate` (the full load of each file, not only its schema).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"
#include "dcsim/cli.h"
#include "dcsim/dwarf.h"
#include "dcsim/list_cases.h"
#include "dcsim/scenario.h"
#include "dcsim/sched.h"
#include "dcsim/strutil.h"
#include "dcsim/trace.h"
#include "dcsim/validate.h"
#include "util/xmlio.h"

/* dcsim list DWARF: the cases of one dwarf (a name of the data root or a path, as --dwarf takes
 * it) with the parameter values each sets; the bash completion of --case reads its CSV. */
static int list_cases(const dcsim_args *a, dcsim_format fmt, dcsim_error *err) {
  char *path = NULL;
  dcsim_dwarf_t *d = NULL;
  int rc = dcsim_catalog_find(DCSIM_KIND_DWARF, a->positional[0], "command line",
                              a->positional_argi[0], &path, err);
  if (!rc && !(rc = dcsim_dwarf_load(path, &d, err))) dcsim_list_dwarf_cases(d, path, fmt);
  dcsim_dwarf_free(d);
  free(path);
  return rc;
}

int dcsim_cmd_list(const dcsim_args *a, dcsim_error *err) {
  static const dcsim_format formats[] = { DCSIM_FMT_TEXT, DCSIM_FMT_JSON, DCSIM_FMT_CSV,
                                          DCSIM_FMT_END };
  dcsim_format fmt = DCSIM_FMT_TEXT;
  int rc = dcsim_arg_format(a, formats, &fmt, err);
  if (rc) return rc;
  return a->n_positional ? list_cases(a, fmt, err) : dcsim_list_data_root(fmt, err);
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
  char *root = NULL;
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
  if (!rc && !tk) rc = dcsim__xml_peek_root_dup(path, &root, &e);
  if (rc) {
    print_error(NULL, &e);
    return rc;
  }
  if (!quiet)
    printf("%s: valid %s\n", path,
           tk ? (tk == DCSIM_TRACE_SWF ? "SWF trace" : "WfCommons instance") : root);
  free(root);
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
