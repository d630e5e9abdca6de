/* list_report.c — `dcsim list`: the CPU and GPU profiles, dwarfs and workflows of the data root,
 * and a dwarf's cases, as text, JSON, CSV. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"
#include "dcsim/dwarf.h"
#include "dcsim/format.h"
#include "dcsim/hwprofile.h"
#include "dcsim/hwprofile_power.h"
#include "dcsim/json.h"
#include "dcsim/list_report.h"
#include "dcsim/numfmt.h"
#include "dcsim/strutil.h"
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
static void freq_summary(const dcsim_cpu_profile_t *p, dcsim_str *b) {
  size_t plain = 0;
  for (size_t i = 0; i < dcsim_cpu_profile_n_freqs(p); i++) {
    dcsim_cpu_state st;
    if (dcsim_cpu_profile_freq_at(p, i, &st) == 0 && !st.label) plain++;
  }
  double lo = dcsim_cpu_profile_min_ghz(p), hi = dcsim_cpu_profile_max_ghz(p),
         tu = dcsim_cpu_profile_turbo_ghz(p);
  if (lo < hi)
    dcsim_str_addf(b, "%s-%s GHz (%zu %s, ", DCSIM_SIG(lo), DCSIM_SIG(hi), plain,
                   dcsim_plural(plain, "state", "states"));
  else
    dcsim_str_addf(b, "%s GHz (", DCSIM_SIG(lo));
  dcsim_str_addf(b, "nominal %s", DCSIM_SIG(dcsim_cpu_profile_nominal_ghz(p)));
  if (tu > 0)
    dcsim_str_addf(b, ", turbo %s)", DCSIM_SIG(tu));
  else
    dcsim_str_add(b, ")");
}

/* The tables' coverage: "flops L1 L2 L3 DRAM: 1..14 threads x 8 frequencies", per table when
 * they differ. */
static void table_summary(const dcsim_cpu_profile_t *p, dcsim_str *b) {
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
  if (!any) {
    dcsim_str_add(b, "no performance tables");
    return;
  }
  size_t start = b->len;
  for (int q = 0; q < DCSIM_CPU_NQTY; q++) {
    if (!t[q].present) continue;
    int more = b->len > start;
    if (same)
      dcsim_str_addf(b, "%s%s", more ? " " : "tables ", dcsim_cpu_qty_name((dcsim_cpu_qty)q));
    else
      dcsim_str_addf(b, "%s%s %u..%u x %zu", more ? ", " : "tables ",
                     dcsim_cpu_qty_name((dcsim_cpu_qty)q), t[q].min_threads, t[q].max_threads,
                     t[q].n_cols);
  }
  if (same)
    dcsim_str_addf(b, ": %zu %s %u..%u threads x %zu %s", t[first].n_rows,
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
    dcsim_str freqs = DCSIM_STR_INIT, tables = DCSIM_STR_INIT;
    freq_summary(p, &freqs);
    table_summary(p, &tables);
    if (freqs.oom || tables.oom) {
      dcsim_str_release(&freqs);
      dcsim_str_release(&tables);
      dcsim_cpu_profile_free(p);
      return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    }
    const char *mk = model_kind(p), *pk = power_kind(pw);
    printf("  %-18s %-26s %2u x %2u cores, %s%s%s%s\n", dcsim_cpu_profile_name(p),
           dcsim_cpu_profile_model(p), dcsim_cpu_profile_sockets(p),
           dcsim_cpu_profile_cores_per_socket(p), dcsim_str_cstr(&freqs),
           dcsim_cpu_profile_has_energy(p) ? ", energy table" : "", pw->has_spec ? ", TDP " : "",
           pw->has_spec ? DCSIM_SI(pw->tdp_w, "W") : "");
    printf("  %-18s %s%s%s%s\n", "", dcsim_str_cstr(&tables),
           mk ? (strcmp(mk, "spec") == 0 ? "; performance model from the datasheet (spec)"
                 : strncmp(mk, "published", 9) == 0
                     ? "; performance model anchored on published measurements"
                     : "; performance model fitted beneath the tables")
              : "",
           mk && strstr(mk, "+spec") ? " and the datasheet" : "",
           pk ? (strcmp(pk, "spec") == 0 ? "; power model from the datasheet (spec)"
                                         : "; power model fitted to its energy table")
              : "");
    dcsim_str_release(&freqs);
    dcsim_str_release(&tables);
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
int dcsim_list_kind(dcsim_kind kind, dcsim_json *j, dcsim_format json, dcsim_error *err) {
  char *dir = dcsim_path_in(dcsim_catalog_root(), dcsim_catalog_dir(kind));
  if (!dir) return DCSIM_ERR(err, DCSIM_ENOMEM, dcsim_catalog_root(), 0, "out of memory");
  struct dirent **ents = NULL;
  int n = scandir(dir, &ents, xml_filter, alphasort);
  if (n < 0 && errno == ENOENT && kind == DCSIM_KIND_WORKFLOW) {
    n = 0; /* workflows/ is optional */
  } else if (n < 0) {
    int rc = DCSIM_ERR(err, DCSIM_EIO, dir, 0, "cannot read directory: %s", strerror(errno));
    free(dir);
    return rc;
  }
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
    char *path = dcsim_path_in(dir, ents[i]->d_name);
    if (!path)
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
    else if (kind == DCSIM_KIND_CPU)
      rc = list_cpu(path, j, json, err);
    else if (kind == DCSIM_KIND_GPU)
      rc = list_gpu(path, j, json, err);
    else if (kind == DCSIM_KIND_DWARF)
      rc = list_dwarf(path, j, json, err);
    else
      rc = list_workflow(path, ents[i]->d_name, j, json, err);
    free(path);
  }
  for (int i = 0; i < n; i++) free(ents[i]);
  free(ents);
  free(dir);
  if (json == DCSIM_FMT_JSON)
    dcsim_json_arr_end(j);
  else if (json == DCSIM_FMT_TEXT)
    printf("\n");
  return rc;
}

/* One case of `dcsim list DWARF`: its name and the values it sets, in parameter order (a
 * parameter the case leaves unset: absent from text and JSON, an empty CSV cell). */
void dcsim_list_case(const dcsim_dwarf_t *d, const char *name, dcsim_json *j, dcsim_format fmt) {
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
