/* validate.c — `dcsim validate`'s check of one input file: its full semantic load by its root
 * element, not only its schema, following the files it references. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"
#include "dcsim/dwarf.h"
#include "dcsim/engine.h"
#include "dcsim/gpuarch.h"
#include "dcsim/hwprofile.h"
#include "dcsim/platform.h"
#include "dcsim/swf.h"
#include "dcsim/swfmap.h"
#include "dcsim/trace.h"
#include "dcsim/validate.h"
#include "dcsim/wfcommons.h"
#include "dcsim/wmsconf.h"
#include "dcsim/workflow.h"
#include "util/xmlio.h"

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
  char *path = NULL;
  int rc = dcsim_catalog_find(kind, ref, NULL, line, &path, err);
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
  free(path);
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
    char *dpath = NULL;
    dcsim_dwarf_t *d = NULL;
    dcsim_dwarf_eval *ev = NULL;
    dcsim_binding b[64];
    if ((rc = dcsim_catalog_find(DCSIM_KIND_DWARF, tt->dwarf, path, tt->line, &dpath, err))) break;
    rc = dcsim_dwarf_load(dpath, &d, err);
    free(dpath);
    if (rc) break;
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
  char *root = NULL;
  dcsim_trace_kind tk = dcsim_trace_detect(path);
  if (tk) return validate_trace(path, tk, v, err);
  int rc = dcsim__xml_peek_root_dup(path, &root, err);
  if (rc) return rc;
  if (depth > 4) {
    free(root);
    return DCSIM_ERR(err, DCSIM_ERANGE, path, 0, "references nested too deeply");
  }
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
  free(root);
  return rc;
}

int dcsim_validate_file(const char *path, const dcsim_budget *budget, int *runnable,
                        dcsim_error *err) {
  vctx v = { budget, 0 };
  int rc = validate_file(path, 0, &v, err);
  if (runnable) *runnable = v.runnable;
  return rc;
}
