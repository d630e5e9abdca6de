/* cli_info.c — `dcsim list` and `dcsim validate`. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"
#include "dcsim/cli.h"
#include "dcsim/dwarf.h"
#include "dcsim/hwprofile.h"
#include "dcsim/json.h"
#include "dcsim/xmlio.h"

static int xml_filter(const struct dirent *e) {
  size_t l = strlen(e->d_name);
  return l > 4 && strcmp(e->d_name + l - 4, ".xml") == 0 && e->d_name[0] != '.';
}

/* Lists one kind directory; every file must load (a broken data file is an error). */
static int list_kind(dcsim_kind kind, dcsim_json *j, int json, dcsim_error *err) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/%s", dcsim_catalog_root(), dcsim_catalog_dir(kind));
  struct dirent **ents = NULL;
  int n = scandir(dir, &ents, xml_filter, alphasort);
  if (n < 0) return DCSIM_ERR(err, DCSIM_EIO, dir, 0, "cannot read directory");
  static const char *const titles[] = {"CPU profiles", "GPU profiles", "dwarfs", "workflows"};
  int rc = 0;
  if (json) { dcsim_json_key(j, kind == DCSIM_KIND_CPU ? "cpu" : kind == DCSIM_KIND_GPU ? "gpu" : kind == DCSIM_KIND_DWARF ? "dwarfs" : "workflows"); dcsim_json_arr_begin(j); }
  else printf("%s (%s):\n", titles[kind], dir);
  for (int i = 0; i < n; i++) {
    char path[4600];
    snprintf(path, sizeof path, "%s/%s", dir, ents[i]->d_name);
    if (rc) continue;
    if (kind == DCSIM_KIND_CPU) {
      dcsim_cpu_profile_t *p = NULL;
      if ((rc = dcsim_cpu_profile_load(path, &p, err))) continue;
      if (json) {
        dcsim_json_obj_begin(j);
        dcsim_json_key(j, "name"); dcsim_json_str(j, dcsim_cpu_profile_name(p));
        dcsim_json_key(j, "model"); dcsim_json_str(j, dcsim_cpu_profile_model(p));
        dcsim_json_key(j, "max_threads"); dcsim_json_int(j, dcsim_cpu_profile_max_threads(p));
        dcsim_json_key(j, "energy"); dcsim_json_bool(j, dcsim_cpu_profile_has_energy(p));
        dcsim_json_obj_end(j);
      } else {
        printf("  %-18s %-26s %2u x %2u cores, tables up to %u threads%s\n", dcsim_cpu_profile_name(p), dcsim_cpu_profile_model(p),
               dcsim_cpu_profile_sockets(p), dcsim_cpu_profile_cores_per_socket(p), dcsim_cpu_profile_max_threads(p),
               dcsim_cpu_profile_has_energy(p) ? ", energy table" : "");
      }
      dcsim_cpu_profile_free(p);
    } else if (kind == DCSIM_KIND_GPU) {
      dcsim_gpu_profile_t *p = NULL;
      if ((rc = dcsim_gpu_profile_load(path, &p, err))) continue;
      const dcsim_gpu_spec *s = dcsim_gpu_profile_spec(p);
      if (json) {
        dcsim_json_obj_begin(j);
        dcsim_json_key(j, "name"); dcsim_json_str(j, dcsim_gpu_profile_name(p));
        dcsim_json_key(j, "model"); dcsim_json_str(j, dcsim_gpu_profile_model(p));
        dcsim_json_key(j, "power_limit_w"); dcsim_json_num(j, s->power_limit_w);
        dcsim_json_obj_end(j);
      } else {
        printf("  %-18s %-26s %u SM, %.3g GFLOP/s DP, %.3g GB/s, %.0f W limit\n", dcsim_gpu_profile_name(p), dcsim_gpu_profile_model(p),
               s->sm, s->peak_dp_flops / 1e9, s->memory_bw_bps / 1e9, s->power_limit_w);
      }
      dcsim_gpu_profile_free(p);
    } else if (kind == DCSIM_KIND_DWARF) {
      dcsim_dwarf_t *d = NULL;
      if ((rc = dcsim_dwarf_load(path, &d, err))) continue;
      if (json) {
        dcsim_json_obj_begin(j);
        dcsim_json_key(j, "name"); dcsim_json_str(j, dcsim_dwarf_name(d));
        dcsim_json_key(j, "device"); dcsim_json_str(j, dcsim_dwarf_device_of(d) == DCSIM_DWARF_GPU ? "gpu" : "cpu");
        dcsim_json_key(j, "parameters"); dcsim_json_arr_begin(j);
        for (size_t k = 0; k < dcsim_dwarf_n_params(d); k++) dcsim_json_str(j, dcsim_dwarf_param(d, k));
        dcsim_json_arr_end(j);
        dcsim_json_key(j, "cases"); dcsim_json_arr_begin(j);
        for (size_t k = 0; k < dcsim_dwarf_n_cases(d); k++) dcsim_json_str(j, dcsim_dwarf_case(d, k));
        dcsim_json_arr_end(j);
        dcsim_json_obj_end(j);
      } else {
        printf("  %-18s %s; parameters", dcsim_dwarf_name(d), dcsim_dwarf_device_of(d) == DCSIM_DWARF_GPU ? "gpu" : "cpu");
        for (size_t k = 0; k < dcsim_dwarf_n_params(d); k++) printf(" %s", dcsim_dwarf_param(d, k));
        printf("; cases");
        for (size_t k = 0; k < dcsim_dwarf_n_cases(d); k++) printf(" %s", dcsim_dwarf_case(d, k));
        printf("\n");
      }
      dcsim_dwarf_free(d);
    } else {
      if ((rc = dcsim_xml_validate_file(path, err))) continue;
      if (json) dcsim_json_str(j, ents[i]->d_name);
      else printf("  %s\n", ents[i]->d_name);
    }
  }
  for (int i = 0; i < n; i++) free(ents[i]);
  free(ents);
  if (json) dcsim_json_arr_end(j);
  else printf("\n");
  return rc;
}

int dcsim_cmd_list(const dcsim_args *a, dcsim_error *err) {
  static const char *const formats[] = {"text", "json", NULL};
  int fmt = 0;
  int rc = dcsim_arg_format(a, formats, &fmt, err);
  if (rc) return rc;
  dcsim_json j;
  dcsim_json_init(&j, stdout, 1);
  if (fmt) dcsim_json_obj_begin(&j);
  for (int k = DCSIM_KIND_CPU; k <= DCSIM_KIND_WORKFLOW && !rc; k++) rc = list_kind((dcsim_kind)k, &j, fmt, err);
  if (fmt && !rc) { dcsim_json_obj_end(&j); dcsim_json_end(&j); }
  return rc;
}

int dcsim_cmd_validate(const dcsim_args *a, dcsim_error *err) {
  for (int i = 0; i < a->n_positional; i++) {
    int rc = dcsim_xml_validate_file(a->positional[i], err);
    if (rc) return rc;
    if (!dcsim_arg_flag(a, "quiet")) printf("%s: valid\n", a->positional[i]);
  }
  return 0;
}
