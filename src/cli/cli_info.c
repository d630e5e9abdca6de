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
#include "dcsim/hwprofile.h"
#include "dcsim/json.h"
#include "dcsim/platform.h"
#include "dcsim/swf.h"
#include "dcsim/trace.h"
#include "dcsim/wfcommons.h"
#include "dcsim/wmsconf.h"
#include "dcsim/workflow.h"
#include "dcsim/xmlio.h"

static int xml_filter(const struct dirent *e) {
  size_t l = strlen(e->d_name);
  return l > 4 && strcmp(e->d_name + l - 4, ".xml") == 0 && e->d_name[0] != '.';
}

/* One CPU profile of `dcsim list`. */
static int list_cpu(const char *path, dcsim_json *j, int json, dcsim_error *err) {
  dcsim_cpu_profile_t *p = NULL;
  int rc = dcsim_cpu_profile_load(path, &p, err);
  if (rc) return rc;
  if (json) {
    dcsim_json_obj_begin(j);
    dcsim_json_key_str(j, "name", dcsim_cpu_profile_name(p));
    dcsim_json_key_str(j, "model", dcsim_cpu_profile_model(p));
    dcsim_json_key_int(j, "max_threads", dcsim_cpu_profile_max_threads(p));
    dcsim_json_key(j, "energy");
    dcsim_json_bool(j, dcsim_cpu_profile_has_energy(p));
    dcsim_json_obj_end(j);
  } else {
    char tables[64];
    if (dcsim_cpu_profile_max_threads(p))
      snprintf(tables, sizeof tables, "tables up to %u threads", dcsim_cpu_profile_max_threads(p));
    else
      snprintf(tables, sizeof tables, "no performance tables");
    printf("  %-18s %-26s %2u x %2u cores, %s%s\n", dcsim_cpu_profile_name(p),
           dcsim_cpu_profile_model(p), dcsim_cpu_profile_sockets(p),
           dcsim_cpu_profile_cores_per_socket(p), tables,
           dcsim_cpu_profile_has_energy(p) ? ", energy table" : "");
  }
  dcsim_cpu_profile_free(p);
  return 0;
}

/* One GPU profile of `dcsim list`. */
static int list_gpu(const char *path, dcsim_json *j, int json, dcsim_error *err) {
  dcsim_gpu_profile_t *p = NULL;
  int rc = dcsim_gpu_profile_load(path, &p, err);
  if (rc) return rc;
  const dcsim_gpu_spec *s = dcsim_gpu_profile_spec(p);
  if (json) {
    dcsim_json_obj_begin(j);
    dcsim_json_key_str(j, "name", dcsim_gpu_profile_name(p));
    dcsim_json_key_str(j, "model", dcsim_gpu_profile_model(p));
    dcsim_json_key_num(j, "power_limit_w", s->power_limit_w);
    dcsim_json_obj_end(j);
  } else {
    printf("  %-18s %-26s %u SM, %.3g GFLOP/s DP, %.3g GB/s, %.0f W limit\n",
           dcsim_gpu_profile_name(p), dcsim_gpu_profile_model(p), s->sm, s->peak_dp_flops / 1e9,
           s->memory_bw_bps / 1e9, s->power_limit_w);
  }
  dcsim_gpu_profile_free(p);
  return 0;
}

/* One dwarf of `dcsim list`: its device, parameters and cases. */
static int list_dwarf(const char *path, dcsim_json *j, int json, dcsim_error *err) {
  dcsim_dwarf_t *d = NULL;
  int rc = dcsim_dwarf_load(path, &d, err);
  if (rc) return rc;
  if (json) {
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
static int list_workflow(const char *path, const char *name, dcsim_json *j, int json,
                         dcsim_error *err) {
  int rc = dcsim_xml_validate_file(path, err);
  if (rc) return rc;
  if (json)
    dcsim_json_str(j, name);
  else
    printf("  %s\n", name);
  return 0;
}

/* Lists one kind directory; every file must load (a broken data file is an error). */
static int list_kind(dcsim_kind kind, dcsim_json *j, int json, dcsim_error *err) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/%s", dcsim_catalog_root(), dcsim_catalog_dir(kind));
  struct dirent **ents = NULL;
  int n = scandir(dir, &ents, xml_filter, alphasort);
  if (n < 0 && errno == ENOENT && kind == DCSIM_KIND_WORKFLOW)
    n = 0; /* workflows/ is optional */
  else if (n < 0)
    return DCSIM_ERR(err, DCSIM_EIO, dir, 0, "cannot read directory: %s", strerror(errno));
  static const char *const titles[] = { "CPU profiles", "GPU profiles", "dwarfs", "workflows" };
  int rc = 0;
  if (json) {
    dcsim_json_key(j, kind == DCSIM_KIND_CPU     ? "cpu"
                      : kind == DCSIM_KIND_GPU   ? "gpu"
                      : kind == DCSIM_KIND_DWARF ? "dwarfs"
                                                 : "workflows");
    dcsim_json_arr_begin(j);
  } else
    printf("%s (%s):\n", titles[kind], dir);
  for (int i = 0; i < n && !rc; i++) {
    char path[4600];
    snprintf(path, sizeof path, "%s/%s", dir, ents[i]->d_name);
    if (kind == DCSIM_KIND_CPU)
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
  if (json)
    dcsim_json_arr_end(j);
  else
    printf("\n");
  return rc;
}

int dcsim_cmd_list(const dcsim_args *a, dcsim_error *err) {
  static const char *const formats[] = { "text", "json", NULL };
  int fmt = 0;
  int rc = dcsim_arg_format(a, formats, &fmt, err);
  if (rc) return rc;
  dcsim_json j;
  dcsim_json_init(&j, stdout, 1);
  if (fmt) dcsim_json_obj_begin(&j);
  for (int k = DCSIM_KIND_CPU; k <= DCSIM_KIND_WORKFLOW && !rc; k++)
    rc = list_kind((dcsim_kind)k, &j, fmt, err);
  if (fmt && !rc) {
    dcsim_json_obj_end(&j);
    dcsim_json_end(&j);
  }
  return rc;
}

/* ---- dcsim validate: the full semantic load of each file, not only its schema ---- */

static int validate_file(const char *path, int depth, dcsim_error *err);

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
static int validate_workflow(const char *path, int depth, dcsim_error *err) {
  dcsim_workflow *wf = NULL;
  int rc = dcsim_workflow_load(path, &wf, err);
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
      rc = DCSIM_ERR(err, DCSIM_EREF, path, tt->line,
                     "<task name=\"%s\">: dwarf %s has no case '%s'", tt->name, dcsim_dwarf_name(d),
                     tt->case_name);
    } else if (tt->n_sets > sizeof b / sizeof b[0]) {
      rc = DCSIM_ERR(err, DCSIM_ERANGE, path, tt->line,
                     "<task name=\"%s\">: more than %zu <set> elements", tt->name,
                     sizeof b / sizeof b[0]);
    } else {
      for (size_t k = 0; k < tt->n_sets; k++)
        b[k] = (dcsim_binding){ tt->sets[k].name, tt->sets[k].value, path, tt->line };
      for (size_t k = 0; !rc && k < dcsim_dwarf_n_params(d); k++) { /* every parameter given here */
        const char *pn = dcsim_dwarf_param(d, k);
        double v;
        int given = tt->case_name && dcsim_dwarf_case_value(d, tt->case_name, pn, &v, NULL) == 0;
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
  if (!rc && wf->platform) rc = validate_file(wf->platform, depth + 1, err);
  dcsim_workflow_free(wf);
  return rc;
}

static int validate_workload(const char *path, int depth, dcsim_error *err) {
  dcsim_workload *wl = NULL;
  int rc = dcsim_workload_load(path, &wl, err);
  for (size_t i = 0; !rc && i < wl->n_submissions; i++)
    rc = validate_file(wl->subs[i].workflow_path, depth + 1, err);
  if (!rc && wl->platform) rc = validate_file(wl->platform, depth + 1, err);
  dcsim_workload_free(wl);
  return rc;
}

/* An SWF trace parses; a WfCommons instance parses and its DAG has no cycle (doc/workloads.md). */
static int validate_trace(const char *path, dcsim_trace_kind kind, dcsim_error *err) {
  int rc;
  if (kind == DCSIM_TRACE_SWF) {
    dcsim_swf *t = NULL;
    rc = dcsim_swf_load(path, &t, err);
    dcsim_swf_free(t);
    return rc;
  }
  dcsim_wfc *w = NULL;
  dcsim_workflow *wf = NULL;
  dcsim_wfc_opts o = { 0, 0, 0, 0 };
  rc = dcsim_wfc_load(path, &w, err);
  if (!rc) rc = dcsim_wfc_workflow(w, &o, &wf, err);
  dcsim_workflow_free(wf);
  dcsim_wfc_free(w);
  return rc;
}

/* Dispatches on the root element to the module's loader, which checks the schema first. */
static int validate_file(const char *path, int depth, dcsim_error *err) {
  char root[64];
  dcsim_trace_kind tk = dcsim_trace_detect(path);
  if (tk) return validate_trace(path, tk, err);
  int rc = dcsim_xml_peek_root(path, root, sizeof root, err);
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
    rc = validate_workflow(path, depth, err);
  } else if (strcmp(root, "workload") == 0) {
    rc = validate_workload(path, depth, err);
  } else if (strcmp(root, "wms") == 0) {
    dcsim_wms_conf *c = NULL;
    rc = dcsim_wms_conf_load(path, &c, err);
    dcsim_wms_conf_free(c);
  } else {
    rc = dcsim_xml_validate_file(path, err); /* names the unknown root */
  }
  return rc;
}

int dcsim_cmd_validate(const dcsim_args *a, dcsim_error *err) {
  for (int i = 0; i < a->n_positional; i++) {
    char root[64];
    dcsim_trace_kind tk = dcsim_trace_detect(a->positional[i]);
    int rc = validate_file(a->positional[i], 0, err);
    if (!rc && tk)
      snprintf(root, sizeof root, "%s", tk == DCSIM_TRACE_SWF ? "SWF trace" : "WfCommons instance");
    else if (!rc)
      rc = dcsim_xml_peek_root(a->positional[i], root, sizeof root, err);
    if (rc) return rc;
    if (!dcsim_arg_flag(a, "quiet")) printf("%s: valid %s\n", a->positional[i], root);
  }
  return 0;
}
