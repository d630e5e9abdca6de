/* cli_info.c — `dcsim list` and `dcsim validate` (the full load of each file, not only its schema).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"
#include "dcsim/cli.h"
#include "dcsim/dwarf.h"
#include "dcsim/gpuarch.h"
#include "dcsim/hwprofile.h"
#include "dcsim/hwprofile_power.h"
#include "dcsim/json.h"
#include "dcsim/numfmt.h"
#include "dcsim/platform.h"
#include "dcsim/scenario.h"
#include "dcsim/sched.h"
#include "dcsim/strutil.h"
#include "dcsim/swf.h"
#include "dcsim/swfmap.h"
#include "dcsim/trace.h"
#include "dcsim/wfcommons.h"
#include "dcsim/wmsconf.h"
#include "dcsim/workflow.h"
#include "util/csv.h"
#include "util/xmlio.h"

static int xml_filter(const struct dirent *e) {
  size_t l = strlen(e->d_name);
  return l > 4 && strcmp(e->d_name + l - 4, ".xml") == 0 && e->d_name[0] != '.';
}

/* How the parametric model of a profile was made: "fitted", "spec", "fitted+spec", or NULL. */
static const char *model_kind(const dcsim_cpu_profile_t *p) {
  const dcsim_cpu_perf_model *pm = dcsim_cpu_profile_perf_model(p);
  int fitted = 0, spec = 0, published = 0;
  for (int q = 0; pm && q < DCSIM_CPU_NQTY; q++) {
    if (!pm->q[q].present) continue;
    if (strncmp(pm->q[q].source, "spec", 4) == 0)
      spec = 1;
    else if (strncmp(pm->q[q].source, "published", 9) == 0)
      published = 1; /* anchored on <datasheet><measured> (doc/models.md) */
    else
      fitted = 1;
  }
  if (published) return fitted ? "fitted+published" : spec ? "published+spec" : "published";
  return fitted && spec ? "fitted+spec" : fitted ? "fitted" : spec ? "spec" : NULL;
}

/* The frequency states: "1.2-2.6 GHz (7 states, nominal 2.6, turbo 3.6)". */
static void freq_summary(const dcsim_cpu_profile_t *p, char *buf, size_t size) {
  size_t plain = 0;
  for (size_t i = 0; i < dcsim_cpu_profile_n_freqs(p); i++) {
    dcsim_cpu_state st;
    if (dcsim_cpu_profile_freq_at(p, i, &st) == 0 && !st.label) plain++;
  }
  double lo = dcsim_cpu_profile_min_ghz(p), hi = dcsim_cpu_profile_max_ghz(p),
         tu = dcsim_cpu_profile_turbo_ghz(p);
  int n = lo < hi ? snprintf(buf, size, "%s-%s GHz (%zu %s, ", DCSIM_SIG(lo), DCSIM_SIG(hi), plain,
                             dcsim_plural(plain, "state", "states"))
                  : snprintf(buf, size, "%s GHz (", DCSIM_SIG(lo));
  if (n < 0 || (size_t)n >= size) return;
  int m = snprintf(buf + n, size - (size_t)n, "nominal %s",
                   DCSIM_SIG(dcsim_cpu_profile_nominal_ghz(p)));
  if (m < 0 || (size_t)(n + m) >= size) return;
  if (tu > 0)
    snprintf(buf + n + m, size - (size_t)(n + m), ", turbo %s)", DCSIM_SIG(tu));
  else
    snprintf(buf + n + m, size - (size_t)(n + m), ")");
}

/* The tables' coverage: "flops L1 L2 L3 DRAM: 1..14 threads x 8 frequencies", per table when
 * they differ. */
static void table_summary(const dcsim_cpu_profile_t *p, char *buf, size_t size) {
  dcsim_cpu_table_info t[DCSIM_CPU_NQTY];
  int same = 1, any = 0, first = -1;
  for (int q = 0; q < DCSIM_CPU_NQTY; q++) {
    dcsim_cpu_profile_table_info(p, (dcsim_cpu_qty)q, &t[q]);
    if (!t[q].present) continue;
    any = 1;
    if (first < 0) first = q;
    same &= t[q].min_threads == t[first].min_threads && t[q].max_threads == t[first].max_threads &&
            t[q].n_rows == t[first].n_rows && t[q].n_cols == t[first].n_cols;
  }
  buf[0] = '\0';
  if (!any) {
    snprintf(buf, size, "no performance tables");
    return;
  }
  size_t n = 0;
  for (int q = 0; q < DCSIM_CPU_NQTY && n < size; q++) {
    if (!t[q].present) continue;
    int k = same ? snprintf(buf + n, size - n, "%s%s", n ? " " : "tables ",
                            dcsim_cpu_qty_name((dcsim_cpu_qty)q))
                 : snprintf(buf + n, size - n, "%s%s %u..%u x %zu", n ? ", " : "tables ",
                            dcsim_cpu_qty_name((dcsim_cpu_qty)q), t[q].min_threads,
                            t[q].max_threads, t[q].n_cols);
    if (k < 0) return;
    n += (size_t)k;
  }
  if (same && n < size)
    snprintf(buf + n, size - n, ": %zu %s %u..%u threads x %zu %s", t[first].n_rows,
             dcsim_plural(t[first].n_rows, "row", "rows"), t[first].min_threads,
             t[first].max_threads, t[first].n_cols,
             dcsim_plural(t[first].n_cols, "frequency", "frequencies"));
}

/* The profile's frequencies and tables as JSON members. */
static void cpu_json_coverage(dcsim_json *j, const dcsim_cpu_profile_t *p) {
  dcsim_json_key_num(j, "nominal_ghz", dcsim_cpu_profile_nominal_ghz(p));
  dcsim_json_key_num(j, "min_ghz", dcsim_cpu_profile_min_ghz(p));
  dcsim_json_key_num(j, "max_ghz", dcsim_cpu_profile_max_ghz(p));
  dcsim_json_key(j, "turbo_ghz");
  if (dcsim_cpu_profile_turbo_ghz(p) > 0)
    dcsim_json_num(j, dcsim_cpu_profile_turbo_ghz(p));
  else
    dcsim_json_null(j);
  dcsim_json_key(j, "tables");
  dcsim_json_obj_begin(j);
  for (int q = 0; q < DCSIM_CPU_NQTY; q++) {
    dcsim_cpu_table_info t;
    dcsim_cpu_profile_table_info(p, (dcsim_cpu_qty)q, &t);
    if (!t.present) continue;
    dcsim_json_key(j, dcsim_cpu_qty_name((dcsim_cpu_qty)q));
    dcsim_json_obj_begin(j);
    dcsim_json_key_int(j, "rows", t.n_rows);
    dcsim_json_key_int(j, "min_threads", t.min_threads);
    dcsim_json_key_int(j, "max_threads", t.max_threads);
    dcsim_json_key_int(j, "frequencies", t.n_cols);
    dcsim_json_obj_end(j);
  }
  dcsim_json_obj_end(j);
  dcsim_json_key(j, "perf_model"); /* "model" is the CPU's model name */
  if (model_kind(p))
    dcsim_json_str(j, model_kind(p));
  else
    dcsim_json_null(j);
}

/* The power model's basis ("fitted", "spec"), NULL without a <power-model>. */
static const char *power_kind(const dcsim_cpu_power_model *pw) {
  if (!pw->has_model) return NULL;
  return pw->basis == DCSIM_PROV_SPEC ? "spec" : "fitted";
}

/* The power figures of a CPU profile as JSON members: TDP per socket and the power model. */
static void cpu_json_power(dcsim_json *j, const dcsim_cpu_power_model *pw) {
  dcsim_json_key(j, "tdp_w");
  if (pw->has_spec)
    dcsim_json_num(j, pw->tdp_w);
  else
    dcsim_json_null(j);
  dcsim_json_key(j, "power_model");
  if (power_kind(pw))
    dcsim_json_str(j, power_kind(pw));
  else
    dcsim_json_null(j);
}

/* One CPU profile of `dcsim list`: cores, frequency states, table coverage, the models beneath. */
static int list_cpu(const char *path, dcsim_json *j, dcsim_format json, dcsim_error *err) {
  dcsim_cpu_profile_t *p = NULL;
  int rc = dcsim_cpu_profile_load(path, &p, err);
  if (rc) return rc;
  const dcsim_cpu_power_model *pw = dcsim_cpu_profile_power_model(p);
  if (json == DCSIM_FMT_CSV) {
    printf("cpu,%s,", dcsim_cpu_profile_name(p));
    dcsim__csv_write_cell(stdout, dcsim_cpu_profile_model(p));
    printf(",cpu,%u,", dcsim_cpu_profile_max_threads(p));
    if (pw->has_spec) printf("%.10g", pw->tdp_w); /* the package's power limit (RAPL PL1) */
    printf(",,\n");
  } else if (json == DCSIM_FMT_JSON) {
    dcsim_json_obj_begin(j);
    dcsim_json_key_str(j, "name", dcsim_cpu_profile_name(p));
    dcsim_json_key_str(j, "model", dcsim_cpu_profile_model(p));
    dcsim_json_key_int(j, "max_threads", dcsim_cpu_profile_max_threads(p));
    dcsim_json_key(j, "energy");
    dcsim_json_bool(j, dcsim_cpu_profile_has_energy(p));
    dcsim_json_key_int(j, "cores_per_socket", dcsim_cpu_profile_cores_per_socket(p));
    dcsim_json_key_int(j, "sockets", dcsim_cpu_profile_sockets(p));
    cpu_json_coverage(j, p);
    cpu_json_power(j, pw);
    dcsim_json_obj_end(j);
  } else {
    char freqs[160], tables[200], tdp[80] = "";
    freq_summary(p, freqs, sizeof freqs);
    table_summary(p, tables, sizeof tables);
    const char *mk = model_kind(p), *pk = power_kind(pw);
    if (pw->has_spec) snprintf(tdp, sizeof tdp, ", TDP %s", DCSIM_SI(pw->tdp_w, "W"));
    printf("  %-18s %-26s %2u x %2u cores, %s%s%s\n", dcsim_cpu_profile_name(p),
           dcsim_cpu_profile_model(p), dcsim_cpu_profile_sockets(p),
           dcsim_cpu_profile_cores_per_socket(p), freqs,
           dcsim_cpu_profile_has_energy(p) ? ", energy table" : "", tdp);
    printf("  %-18s %s%s%s%s\n", "", tables,
           mk ? (strcmp(mk, "spec") == 0 ? "; performance model from the datasheet (spec)"
                 : strncmp(mk, "published", 9) == 0
                     ? "; performance model anchored on published measurements"
                     : "; performance model fitted beneath the tables")
              : "",
           mk && strstr(mk, "+spec") ? " and the datasheet" : "",
           pk ? (strcmp(pk, "spec") == 0 ? "; power model from the datasheet (spec)"
                                         : "; power model fitted to its energy table")
              : "");
  }
  dcsim_cpu_profile_free(p);
  return 0;
}

/* One GPU profile of `dcsim list`. */
static int list_gpu(const char *path, dcsim_json *j, dcsim_format json, dcsim_error *err) {
  dcsim_gpu_profile_t *p = NULL;
  int rc = dcsim_gpu_profile_load(path, &p, err);
  if (rc) return rc;
  const dcsim_gpu_spec *s = dcsim_gpu_profile_spec(p);
  if (json == DCSIM_FMT_CSV) {
    printf("gpu,%s,", dcsim_gpu_profile_name(p));
    dcsim__csv_write_cell(stdout, dcsim_gpu_profile_model(p));
    printf(",gpu,,%.10g,,\n", s->power_limit_w);
  } else if (json == DCSIM_FMT_JSON) {
    dcsim_json_obj_begin(j);
    dcsim_json_key_str(j, "name", dcsim_gpu_profile_name(p));
    dcsim_json_key_str(j, "model", dcsim_gpu_profile_model(p));
    dcsim_json_key_num(j, "power_limit_w", s->power_limit_w);
    dcsim_json_obj_end(j);
  } else {
    printf("  %-18s %-26s %u SM, %s DP, %s, %s limit\n", dcsim_gpu_profile_name(p),
           dcsim_gpu_profile_model(p), s->sm, DCSIM_SI(s->peak_dp_flops, "FLOP/s"),
           DCSIM_SI(s->memory_bw_bps, "B/s"), DCSIM_SI(s->power_limit_w, "W"));
  }
  dcsim_gpu_profile_free(p);
  return 0;
}

/* One dwarf of `dcsim list`: its device, parameters and cases. */
static int list_dwarf(const char *path, dcsim_json *j, dcsim_format json, dcsim_error *err) {
  dcsim_dwarf_t *d = NULL;
  int rc = dcsim_dwarf_load(path, &d, err);
  if (rc) return rc;
  if (json == DCSIM_FMT_CSV) {
    printf("dwarf,%s,,%s,,,\"", dcsim_dwarf_name(d),
           dcsim_dwarf_device_of(d) == DCSIM_DWARF_GPU ? "gpu" : "cpu");
    for (size_t k = 0; k < dcsim_dwarf_n_params(d); k++)
      printf("%s%s", k ? " " : "", dcsim_dwarf_param(d, k));
    printf("\",\"");
    for (size_t k = 0; k < dcsim_dwarf_n_cases(d); k++)
      printf("%s%s", k ? " " : "", dcsim_dwarf_case(d, k));
    printf("\"\n");
  } else if (json == DCSIM_FMT_JSON) {
    dcsim_json_obj_begin(j);
    dcsim_json_key_str(j, "name", dcsim_dwarf_name(d));
    dcsim_json_key_str(j, "device", dcsim_dwarf_device_of(d) == DCSIM_DWARF_GPU ? "gpu" : "cpu");
    dcsim_json_key(j, "parameters");
    dcsim_json_arr_begin(j);
    for (size_t k = 0; k < dcsim_dwarf_n_params(d); k++) dcsim_json_str(j, dcsim_dwarf_param(d, k));
    dcsim_json_arr_end(j);
    dcsim_json_key(j, "cases");
    dcsim_json_arr_begin(j);
    for (size_t k = 0; k < dcsim_dwarf_n_cases(d); k++) dcsim_json_str(j, dcsim_dwarf_case(d, k));
    dcsim_json_arr_end(j);
    dcsim_json_obj_end(j);
  } else {
    printf("  %-18s %s; parameters", dcsim_dwarf_name(d),
           dcsim_dwarf_device_of(d) == DCSIM_DWARF_GPU ? "gpu" : "cpu");
    for (size_t k = 0; k < dcsim_dwarf_n_params(d); k++) printf(" %s", dcsim_dwarf_param(d, k));
    printf("; cases");
    for (size_t k = 0; k < dcsim_dwarf_n_cases(d); k++) printf(" %s", dcsim_dwarf_case(d, k));
    printf("\n");
  }
  dcsim_dwarf_free(d);
  return 0;
}

/* One workflow of `dcsim list` (file name), once it validates. */
static int list_workflow(const char *path, const char *name, dcsim_json *j, dcsim_format json,
                         dcsim_error *err) {
  int rc = dcsim__xml_validate_file(path, err);
  if (rc) return rc;
  if (json == DCSIM_FMT_CSV)
    printf("workflow,%.*s,,,,,,\n", (int)(strlen(name) - 4), name); /* without ".xml" */
  else if (json == DCSIM_FMT_JSON)
    dcsim_json_str(j, name);
  else
    printf("  %s\n", name);
  return 0;
}

/* Lists one kind directory; every file must load (a broken data file is an error). */
static int list_kind(dcsim_kind kind, dcsim_json *j, dcsim_format json, dcsim_error *err) {
  char dir[4096];
  if (dcsim_bufprintf(dir, sizeof dir, "%s/%s", dcsim_catalog_root(), dcsim_catalog_dir(kind)))
    return DCSIM_ERR(err, DCSIM_ERANGE, dcsim_catalog_root(), 0, "data directory path too long");
  struct dirent **ents = NULL;
  int n = scandir(dir, &ents, xml_filter, alphasort);
  if (n < 0 && errno == ENOENT && kind == DCSIM_KIND_WORKFLOW)
    n = 0; /* workflows/ is optional */
  else if (n < 0)
    return DCSIM_ERR(err, DCSIM_EIO, dir, 0, "cannot read directory: %s", strerror(errno));
  static const char *const titles[] = { "CPU profiles", "GPU profiles", "dwarfs", "workflows" };
  int rc = 0;
  if (json == DCSIM_FMT_JSON) {
    dcsim_json_key(j, kind == DCSIM_KIND_CPU     ? "cpu"
                      : kind == DCSIM_KIND_GPU   ? "gpu"
                      : kind == DCSIM_KIND_DWARF ? "dwarfs"
                                                 : "workflows");
    dcsim_json_arr_begin(j);
  } else if (json == DCSIM_FMT_TEXT)
    printf("%s (%s):\n", titles[kind], dir);
  for (int i = 0; i < n && !rc; i++) {
    char path[4600];
    if (dcsim_bufprintf(path, sizeof path, "%s/%s", dir, ents[i]->d_name))
      rc = DCSIM_ERR(err, DCSIM_ERANGE, dir, 0, "%s: path too long", ents[i]->d_name);
    else if (kind == DCSIM_KIND_CPU)
      rc = list_cpu(path, j, json, err);
    else if (kind == DCSIM_KIND_GPU)
      rc = list_gpu(path, j, json, err);
    else if (kind == DCSIM_KIND_DWARF)
      rc = list_dwarf(path, j, json, err);
    else
      rc = list_workflow(path, ents[i]->d_name, j, json, err);
  }
  for (int i = 0; i < n; i++) free(ents[i]);
  free(ents);
  if (json == DCSIM_FMT_JSON)
    dcsim_json_arr_end(j);
  else if (json == DCSIM_FMT_TEXT)
    printf("\n");
  return rc;
}

/* One case of `dcsim list DWARF`: its name and the values it sets, in parameter order (a
 * parameter the case leaves unset: absent from text and JSON, an empty CSV cell). */
static void list_case(const dcsim_dwarf_t *d, const char *name, dcsim_json *j, dcsim_format fmt) {
  if (fmt == DCSIM_FMT_JSON) {
    dcsim_json_obj_begin(j);
    dcsim_json_key_str(j, "name", name);
    dcsim_json_key(j, "values");
    dcsim_json_obj_begin(j);
  } else if (fmt == DCSIM_FMT_CSV)
    dcsim__csv_write_cell(stdout, name);
  else
    printf("  %-20s", name);
  for (size_t k = 0; k < dcsim_dwarf_n_params(d); k++) {
    double v;
    int set = dcsim_dwarf_case_value(d, name, dcsim_dwarf_param(d, k), &v, NULL) == 0;
    if (fmt == DCSIM_FMT_JSON && set)
      dcsim_json_key_num(j, dcsim_dwarf_param(d, k), v);
    else if (fmt == DCSIM_FMT_CSV)
      printf(set ? ",%.15g" : ",", v);
    else if (fmt == DCSIM_FMT_TEXT && set)
      printf(" %s=%.15g", dcsim_dwarf_param(d, k), v);
  }
  if (fmt == DCSIM_FMT_JSON) {
    dcsim_json_obj_end(j);
    dcsim_json_obj_end(j);
  } else
    putchar('\n');
}

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
  for (size_t i = 0; i < nc; i++) list_case(d, dcsim_dwarf_case(d, i), &j, fmt);
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
    rc = list_kind((dcsim_kind)k, &j, fmt, err);
  if (fmt == DCSIM_FMT_JSON && !rc) {
    dcsim_json_obj_end(&j);
    dcsim_json_end(&j);
  }
  return rc;
}

/* ---- dcsim validate: the full semantic load of each file, not only its schema ---- */

/* What validating one command-line file carries down its references: the budget of the loaders,
 * and whether the file is something `dcsim run` takes with a platform it names (then validate also
 * does what run does before simulating). */
typedef struct vctx {
  const dcsim_budget *budget;
  int runnable;
} vctx;

static int validate_file(const char *path, int depth, vctx *v, dcsim_error *err);

/* A dwarf loads, and every case that sets all parameters evaluates (formulas finite and
 * non-negative, loops with work have <flop> coefficients). */
static int validate_dwarf(const char *path, dcsim_error *err) {
  dcsim_dwarf_t *d = NULL;
  int rc = dcsim_dwarf_load(path, &d, err);
  for (size_t c = 0; !rc && c < dcsim_dwarf_n_cases(d); c++) {
    const char *cn = dcsim_dwarf_case(d, c);
    int complete = 1;
    for (size_t k = 0; k < dcsim_dwarf_n_params(d) && complete; k++) {
      double v;
      complete = dcsim_dwarf_case_value(d, cn, dcsim_dwarf_param(d, k), &v, NULL) == 0;
    }
    if (!complete) continue; /* a case meant to be completed with --set */
    dcsim_dwarf_eval *ev = NULL;
    rc = dcsim_dwarf_evaluate(d, cn, NULL, 0, &ev, err);
    dcsim_dwarf_eval_free(ev);
  }
  dcsim_dwarf_free(d);
  return rc;
}

/* Resolves a profile reference of a platform group and loads the profile. The platform loader has
 * already resolved paths against the platform file; bare names go to the data root. */
static int validate_profile_ref(dcsim_kind kind, const char *ref, const char *file, int line,
                                dcsim_error *err) {
  char path[4096];
  int rc = dcsim_catalog_resolve(kind, ref, NULL, line, path, sizeof path, err);
  if (rc) {
    dcsim_error_at(err, file, line);
    return rc;
  }
  if (kind == DCSIM_KIND_CPU) {
    dcsim_cpu_profile_t *p = NULL;
    rc = dcsim_cpu_profile_load(path, &p, err);
    dcsim_cpu_profile_free(p);
  } else {
    dcsim_gpu_profile_t *p = NULL;
    rc = dcsim_gpu_profile_load(path, &p, err);
    dcsim_gpu_profile_free(p);
  }
  return rc;
}

static int validate_platform(const char *path, dcsim_error *err) {
  dcsim_platform *p = NULL;
  int rc = dcsim_platform_load(path, &p, err);
  for (size_t g = 0; !rc && g < p->n_groups; g++) {
    const dcsim_node_group *ng = &p->groups[g];
    rc = validate_profile_ref(DCSIM_KIND_CPU, ng->cpu, path, ng->line, err);
    if (!rc && ng->gpu) rc = validate_profile_ref(DCSIM_KIND_GPU, ng->gpu, path, ng->line, err);
  }
  dcsim_platform_free(p);
  return rc;
}

/* Every task's dwarf resolves and loads, runs on the task's device, and evaluates with the task's
 * case and <set>s; the platform it names, if any, validates too. */
static int validate_workflow(const char *path, int depth, vctx *v, dcsim_error *err) {
  dcsim_workflow *wf = NULL;
  int rc = dcsim_workflow_load_budget(path, v->budget, &wf, err);
  if (!rc && depth == 0) v->runnable = wf->platform != NULL;
  for (size_t t = 0; !rc && t < wf->n_templates; t++) {
    const dcsim_task_template *tt = &wf->templates[t];
    if (!tt->dwarf) continue; /* a recorded runtime: no dwarf */
    char dpath[4096];
    dcsim_dwarf_t *d = NULL;
    dcsim_dwarf_eval *ev = NULL;
    dcsim_binding b[64];
    if ((rc = dcsim_catalog_resolve(DCSIM_KIND_DWARF, tt->dwarf, path, tt->line, dpath,
                                    sizeof dpath, err)))
      break;
    if ((rc = dcsim_dwarf_load(dpath, &d, err))) break;
    int cpu_ok = dcsim_dwarf_has_cpu_model(d), gpu_ok = dcsim_dwarf_has_gpu_model(d);
    if ((tt->device == DCSIM_DEV_CPU && !cpu_ok) || (tt->device == DCSIM_DEV_GPU && !gpu_ok) ||
        (tt->device == DCSIM_DEV_ANY && !(cpu_ok && gpu_ok))) {
      rc = DCSIM_ERR(err, DCSIM_EREF, path, tt->line,
                     "<task name=\"%s\" device=\"%s\">: dwarf %s has %s", tt->name,
                     tt->device == DCSIM_DEV_CPU   ? "cpu"
                     : tt->device == DCSIM_DEV_GPU ? "gpu"
                                                   : "any",
                     dcsim_dwarf_name(d),
                     tt->device == DCSIM_DEV_CPU   ? "no CPU model"
                     : tt->device == DCSIM_DEV_GPU ? "no GPU model"
                                                   : "not both a CPU and a GPU model");
    } else if (tt->case_name && !dcsim_dwarf_has_case(d, tt->case_name)) {
      const char *best = dcsim_dwarf_suggest_case(d, tt->case_name);
      rc = DCSIM_ERR(err, DCSIM_EREF, path, tt->line,
                     "<task name=\"%s\">: dwarf %s has no case '%s'%s%s%s", tt->name,
                     dcsim_dwarf_name(d), tt->case_name, best ? "; did you mean " : "",
                     best ? best : "", best ? "?" : "");
    } else if (tt->n_sets > sizeof b / sizeof b[0]) {
      rc = DCSIM_ERR(err, DCSIM_ERANGE, path, tt->line,
                     "<task name=\"%s\">: more than %zu <set> elements", tt->name,
                     sizeof b / sizeof b[0]);
    } else {
      for (size_t k = 0; k < tt->n_sets; k++)
        b[k] = (dcsim_binding){ tt->sets[k].name, tt->sets[k].value, path, tt->line };
      for (size_t k = 0; !rc && k < dcsim_dwarf_n_params(d); k++) { /* every parameter given here */
        const char *pn = dcsim_dwarf_param(d, k);
        double val;
        int given = tt->case_name && dcsim_dwarf_case_value(d, tt->case_name, pn, &val, NULL) == 0;
        for (size_t j = 0; j < tt->n_sets && !given; j++) given = strcmp(tt->sets[j].name, pn) == 0;
        if (!given)
          rc = DCSIM_ERR(
              err, DCSIM_EREF, path, tt->line,
              "<task name=\"%s\">: parameter %s of dwarf %s has no value (give case= or a <set>)",
              tt->name, pn, dcsim_dwarf_name(d));
      }
      if (!rc && (rc = dcsim_dwarf_evaluate(d, tt->case_name, b, tt->n_sets, &ev, err)) && err &&
          strcmp(err->file, path) != 0) /* a formula of the dwarf: say which task evaluated it */
        dcsim_error_suffix(err, " (task '%.100s' of %.150s:%d)", tt->name, path, tt->line);
    }
    dcsim_dwarf_eval_free(ev);
    dcsim_dwarf_free(d);
  }
  if (!rc && wf->platform) rc = validate_file(wf->platform, depth + 1, v, err);
  dcsim_workflow_free(wf);
  return rc;
}

static int validate_workload(const char *path, int depth, vctx *v, dcsim_error *err) {
  dcsim_workload *wl = NULL;
  int rc = dcsim_workload_load(path, &wl, err);
  for (size_t i = 0; !rc && i < wl->n_submissions; i++)
    rc = validate_file(wl->subs[i].workflow_path, depth + 1, v, err);
  if (!rc && wl->platform) rc = validate_file(wl->platform, depth + 1, v, err);
  if (!rc && depth == 0) v->runnable = wl->platform != NULL;
  dcsim_workload_free(wl);
  return rc;
}

/* An SWF trace parses; a WfCommons instance parses and its DAG has no cycle (doc/workloads.md). */
static int validate_trace(const char *path, dcsim_trace_kind kind, vctx *v, dcsim_error *err) {
  int rc;
  if (kind == DCSIM_TRACE_SWF) {
    dcsim_swf *t = NULL;
    dcsim_budget b = *v->budget; /* per job what dcsim run keeps too, as run charges it */
    b.job_bytes = dcsim_engine_job_bytes();
    rc = dcsim_swf_load_budget(path, &b, &t, err);
    dcsim_swf_free(t);
    return rc;
  }
  dcsim_wfc *w = NULL;
  dcsim_workflow *wf = NULL;
  dcsim_wfc_opts o = { 0, 0, 0, 0 };
  rc = dcsim_wfc_load_budget(path, v->budget, &w, err);
  if (!rc) rc = dcsim_wfc_workflow(w, &o, &wf, err);
  dcsim_workflow_free(wf);
  dcsim_wfc_free(w);
  return rc;
}

/* Dispatches on the root element to the module's loader, which checks the schema first. */
static int validate_file(const char *path, int depth, vctx *v, dcsim_error *err) {
  char root[64];
  dcsim_trace_kind tk = dcsim_trace_detect(path);
  if (tk) return validate_trace(path, tk, v, err);
  int rc = dcsim__xml_peek_root(path, root, sizeof root, err);
  if (rc) return rc;
  if (depth > 4) return DCSIM_ERR(err, DCSIM_ERANGE, path, 0, "references nested too deeply");
  if (strcmp(root, "cpu-profile") == 0) {
    dcsim_cpu_profile_t *p = NULL;
    rc = dcsim_cpu_profile_load(path, &p, err);
    dcsim_cpu_profile_free(p);
  } else if (strcmp(root, "gpu-profile") == 0) {
    dcsim_gpu_profile_t *p = NULL;
    rc = dcsim_gpu_profile_load(path, &p, err);
    dcsim_gpu_profile_free(p);
  } else if (strcmp(root, "dwarf") == 0) {
    rc = validate_dwarf(path, err);
  } else if (strcmp(root, "platform") == 0) {
    rc = validate_platform(path, err);
  } else if (strcmp(root, "workflow") == 0) {
    rc = validate_workflow(path, depth, v, err);
  } else if (strcmp(root, "workload") == 0) {
    rc = validate_workload(path, depth, v, err);
  } else if (strcmp(root, "wms") == 0) {
    dcsim_wms_conf *c = NULL;
    rc = dcsim_wms_conf_load(path, &c, err);
    dcsim_wms_conf_free(c);
  } else if (strcmp(root, "swf-map") == 0) {
    dcsim_swf_map *m = NULL;
    rc = dcsim_swf_map_load(path, &m, err);
    dcsim_swf_map_free(m);
  } else if (strcmp(root, "gpu-arch") == 0) {
    dcsim_gpu_arch a;
    rc = dcsim_gpu_arch_load(path, &a, err);
  } else {
    rc = dcsim__xml_validate_file(path, err); /* names the unknown root */
  }
  return rc;
}

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
  vctx v = { b, 0 };
  if (!(rc = validate_file(path, 0, &v, &e)) && v.runnable) rc = validate_as_run(path, b, &e);
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
