/* dwarf.c — loading and evaluating dwarfs (see dcsim/dwarf.h). */
#include "dcsim/dwarf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"
#include "dcsim/expr.h"
#include "input/internal.h"
#include "util/xmlio.h"

typedef struct formula {
  dcsim_expr_t *e;
  int line;
} formula;

typedef struct loop_def {
  char *name;
  formula work, traffic;
  double V, X, Y, Z;
  int has_flop;
  double U, S_flops;
  int irregular; /* <irregular> instead of <mop> */
  double word_byte;
  formula regular, irreg, wset, hit;
  formula footprint, exchange; /* optional: e NULL when absent */
} loop_def;

typedef struct override_def {
  size_t loop;
  formula work, traffic;
} override_def;

typedef struct case_def {
  char *name;
  int line;
  double *values; /* per parameter */
  unsigned char *set;
  size_t n_over;
  override_def *over;
} case_def;

typedef struct gpu_frac {
  char *gpu;
  double S;
  int assumed; /* its source is an assumption, not a measurement */
} gpu_frac;

typedef struct pattern_def {
  dcsim_comm_kind kind;
  formula byte, messages, iterations; /* names: the parameters, then NODES */
} pattern_def;

struct dcsim_dwarf {
  char *path, *name;
  dcsim_dwarf_device device;
  size_t n_params;
  char **params;
  int *param_lines; /* line of each <param> */
  size_t n_cases;
  case_def *cases;
  size_t n_loops;
  loop_def *loops;
  size_t n_kernels;
  dcsim_gpu_kernel *kernels;
  char **kernel_names;
  formula domain;
  unsigned invocations;
  double dp_flop_per_inst; /* <kernels dp-flop-per-instruction>; 2 when absent */
  dcsim_gpu_launch launch; /* <kernels><launch> */
  char *measured_on, *launch_fitted_on, *launch_source;
  int has_multi_gpu;
  double mg_memory, mg_transfer;
  formula mg_halo; /* names: the parameters, then GPUS */
  int has_comm, has_comm_attrs;
  formula comm_in, comm_out, comm_iters;
  formula comm_max_nodes; /* <communication max-nodes>; .e NULL when absent */
  char *comm_max_nodes_src;
  double comm_overlap;
  size_t n_patterns;
  pattern_def patterns[DCSIM_COMM_MAX_PATTERNS];
  int has_energy;
  dcsim_energy_coeffs energy;
  int has_activity;
  dcsim_power_activity activity; /* <power-activity>; source owned: activity_source */
  char *activity_source;
  size_t n_gpu_frac;
  gpu_frac *gpu_frac;
  double gpu_activity;       /* <gpu-power activity>; 0 if absent */
  char *gpu_activity_source; /* its source */
  size_t n_scaling;
  dcsim_thread_scaling *scaling; /* cpu and source owned */
  formula wset_byte;             /* <loops><working-set byte>; .e NULL when absent */
  char *weights_cpu, *wset_source;
  dcsim_cpu_caches weights_caches; /* of the profile weights_cpu names, read at load */
};

void dcsim_dwarf_free(dcsim_dwarf_t *d) {
  if (!d) return;
  free(d->measured_on);
  dcsim_expr_free(d->wset_byte.e);
  free(d->weights_cpu);
  free(d->wset_source);
  free(d->launch_fitted_on);
  free(d->launch_source);
  for (size_t i = 0; i < d->n_params; i++) free(d->params[i]);
  free(d->params);
  free(d->param_lines);
  for (size_t i = 0; i < d->n_cases; i++) {
    case_def *c = &d->cases[i];
    free(c->name);
    free(c->values);
    free(c->set);
    for (size_t j = 0; j < c->n_over; j++) {
      dcsim_expr_free(c->over[j].work.e);
      dcsim_expr_free(c->over[j].traffic.e);
    }
    free(c->over);
  }
  free(d->cases);
  for (size_t i = 0; i < d->n_loops; i++) {
    free(d->loops[i].name);
    dcsim_expr_free(d->loops[i].work.e);
    dcsim_expr_free(d->loops[i].traffic.e);
    dcsim_expr_free(d->loops[i].regular.e);
    dcsim_expr_free(d->loops[i].irreg.e);
    dcsim_expr_free(d->loops[i].wset.e);
    dcsim_expr_free(d->loops[i].hit.e);
    dcsim_expr_free(d->loops[i].footprint.e);
    dcsim_expr_free(d->loops[i].exchange.e);
  }
  free(d->loops);
  for (size_t i = 0; i < d->n_kernels; i++) free(d->kernel_names[i]);
  free(d->kernel_names);
  free(d->kernels);
  dcsim_expr_free(d->domain.e);
  dcsim_expr_free(d->mg_halo.e);
  dcsim_expr_free(d->comm_in.e);
  dcsim_expr_free(d->comm_max_nodes.e);
  free(d->comm_max_nodes_src);
  dcsim_expr_free(d->comm_out.e);
  dcsim_expr_free(d->comm_iters.e);
  for (size_t i = 0; i < d->n_patterns; i++) {
    dcsim_expr_free(d->patterns[i].byte.e);
    dcsim_expr_free(d->patterns[i].messages.e);
    dcsim_expr_free(d->patterns[i].iterations.e);
  }
  for (size_t i = 0; i < d->n_gpu_frac; i++) free(d->gpu_frac[i].gpu);
  free(d->gpu_frac);
  free(d->activity_source);
  free(d->gpu_activity_source);
  for (size_t i = 0; i < d->n_scaling; i++) {
    free((char *)d->scaling[i].cpu);
    free((char *)d->scaling[i].source);
  }
  free(d->scaling);
  free(d->path);
  free(d->name);
  free(d);
}

/* Parses attribute `attr` of n as a formula over the parameters, plus `extra` (NODES in
 * communication formulas, GPUS in <multi-gpu>) after the last one when not NULL. */
static int parse_formula_names(dcsim_dwarf_t *d, const dcsim_xml_doc_t *doc, xmlNode *n,
                               const char *attr, const char *extra, formula *f, dcsim_error *err) {
  const char *text = NULL;
  int rc = dcsim__xml_str(doc, n, attr, 1, &text, err);
  if (rc) return rc;
  f->line = (int)xmlGetLineNo(n);
  const char *names[257];
  size_t nn = d->n_params < 256 ? d->n_params : 256;
  for (size_t i = 0; i < nn; i++) names[i] = d->params[i];
  if (extra) names[nn++] = extra;
  rc = dcsim_expr_parse(text, names, nn, &f->e, err);
  if (rc) {
    dcsim_error_at(err, d->path, f->line);
    dcsim_error_prefix(err, "<%s %s>", (const char *)n->name, attr);
  }
  return rc;
}

static int parse_formula(dcsim_dwarf_t *d, const dcsim_xml_doc_t *doc, xmlNode *n, const char *attr,
                         formula *f, dcsim_error *err) {
  return parse_formula_names(d, doc, n, attr, NULL, f, err);
}

static int find_param(const dcsim_dwarf_t *d, const char *name) {
  for (size_t i = 0; i < d->n_params; i++)
    if (strcmp(d->params[i], name) == 0) return (int)i;
  return -1;
}

static int find_loop(const dcsim_dwarf_t *d, const char *name) {
  for (size_t i = 0; i < d->n_loops; i++)
    if (strcmp(d->loops[i].name, name) == 0) return (int)i;
  return -1;
}

static int nonneg_attr(const dcsim_xml_doc_t *doc, xmlNode *n, const char *a, double *v,
                       dcsim_error *err) {
  int rc = dcsim__xml_double(doc, n, a, 1, v, err);
  if (rc) return rc;
  if (*v < 0)
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, n, "<%s %s>: must not be negative",
                         (const char *)n->name, a);
  return 0;
}

static int load_params(dcsim_dwarf_t *d, const dcsim_xml_doc_t *doc, xmlNode *root,
                       dcsim_error *err) {
  xmlNode *ps = dcsim__xml_child(root, "parameters");
  size_t n = dcsim__xml_count(ps, "param");
  d->params = calloc(n ? n : 1, sizeof *d->params);
  d->param_lines = calloc(n ? n : 1, sizeof *d->param_lines);
  if (!d->params || !d->param_lines)
    return DCSIM_ERR(err, DCSIM_ENOMEM, d->path, 0, "out of memory");
  for (xmlNode *p = dcsim__xml_child(ps, "param"); p; p = dcsim__xml_next(p, "param")) {
    const char *name = NULL;
    int rc = dcsim__xml_str(doc, p, "name", 1, &name, err);
    if (rc) return rc;
    if (find_param(d, name) >= 0)
      return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, p, "<param name=\"%s\">: declared twice", name);
    if (!(d->params[d->n_params] = dcsim_strdup(name)))
      return DCSIM_ERR(err, DCSIM_ENOMEM, d->path, 0, "out of memory");
    d->param_lines[d->n_params] = (int)xmlGetLineNo(p);
    d->n_params++;
  }
  return 0;
}

static int load_loops(dcsim_dwarf_t *d, const dcsim_xml_doc_t *doc, xmlNode *ls, dcsim_error *err) {
  size_t n = dcsim__xml_count(ls, "loop");
  d->loops = calloc(n ? n : 1, sizeof *d->loops);
  if (!d->loops) return DCSIM_ERR(err, DCSIM_ENOMEM, d->path, 0, "out of memory");
  int rc;
  for (xmlNode *l = dcsim__xml_child(ls, "loop"); l; l = dcsim__xml_next(l, "loop")) {
    loop_def *ld = &d->loops[d->n_loops];
    const char *name = NULL;
    if ((rc = dcsim__xml_str(doc, l, "name", 1, &name, err))) return rc;
    if (find_loop(d, name) >= 0)
      return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, l, "<loop name=\"%s\">: declared twice", name);
    if (!(ld->name = dcsim_strdup(name)))
      return DCSIM_ERR(err, DCSIM_ENOMEM, d->path, 0, "out of memory");
    d->n_loops++;
    if ((rc = parse_formula(d, doc, l, "work-flop", &ld->work, err))) return rc;
    xmlNode *m = dcsim__xml_child(l, "mop"), *irr = dcsim__xml_child(l, "irregular");
    int has_q = dcsim__xml_attr(doc, l, "traffic-byte") != NULL;
    if (irr) { /* finite-volume paper Eq. 4-6: traffic per cache level, no traffic-byte */
      if (has_q)
        return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, l,
                             "<loop name=\"%s\">: an <irregular> loop has no traffic-byte (its "
                             "traffic is computed per cache level)",
                             name);
      ld->irregular = 1;
      if ((rc = nonneg_attr(doc, irr, "word-byte", &ld->word_byte, err)) ||
          (rc = parse_formula(d, doc, irr, "hit-word", &ld->hit, err)) ||
          (rc = parse_formula(d, doc, irr, "regular-word", &ld->regular, err)) ||
          (rc = parse_formula(d, doc, irr, "irregular-word", &ld->irreg, err)) ||
          (rc = parse_formula(d, doc, irr, "working-set-word", &ld->wset, err)) ||
          (dcsim__xml_attr(doc, irr, "footprint-byte") &&
           (rc = parse_formula(d, doc, irr, "footprint-byte", &ld->footprint, err))) ||
          (dcsim__xml_attr(doc, irr, "exchange-word") &&
           (rc = parse_formula(d, doc, irr, "exchange-word", &ld->exchange, err))))
        return rc;
      if (!(ld->word_byte > 0))
        return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, irr,
                             "<loop name=\"%s\"><irregular>: word-byte must be positive", name);
      ld->traffic.line = ld->work.line;
    } else {
      if (!has_q)
        return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, l,
                             "<loop name=\"%s\">: traffic-byte is required with <mop>", name);
      if ((rc = parse_formula(d, doc, l, "traffic-byte", &ld->traffic, err))) return rc;
      if ((rc = nonneg_attr(doc, m, "V", &ld->V, err)) ||
          (rc = nonneg_attr(doc, m, "X", &ld->X, err)) ||
          (rc = nonneg_attr(doc, m, "Y", &ld->Y, err)) ||
          (rc = nonneg_attr(doc, m, "Z", &ld->Z, err)))
        return rc;
      if (ld->V + ld->X + ld->Y + ld->Z <= 0)
        return DCSIM_XML_ERR(
            err, DCSIM_ERANGE, doc, m,
            "<loop name=\"%s\"><mop>: V, X, Y, Z are all zero (Tmop would be infinite)", name);
    }
    xmlNode *f = dcsim__xml_child(l, "flop");
    if (f) {
      ld->has_flop = 1;
      if ((rc = nonneg_attr(doc, f, "U", &ld->U, err)) ||
          (rc = nonneg_attr(doc, f, "s-flops", &ld->S_flops, err)))
        return rc;
      if (ld->U + ld->S_flops <= 0)
        return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, f,
                             "<loop name=\"%s\"><flop>: U and S are both zero", name);
    }
  }
  return 0;
}

/* <loops><working-set>: the working-set formula and the caches of the CPU the weights were
 * measured on, read from its profile (resolved like every CPU reference, dcsim/catalog.h). */
static int load_working_set(dcsim_dwarf_t *d, const dcsim_xml_doc_t *doc, xmlNode *ws,
                            dcsim_error *err) {
  const char *cpu = NULL, *src = NULL;
  char *path = NULL;
  dcsim_cpu_profile_t *p = NULL;
  int rc;
  if ((rc = parse_formula(d, doc, ws, "byte", &d->wset_byte, err)) ||
      (rc = dcsim__xml_str(doc, ws, "weights-cpu", 1, &cpu, err)) ||
      (rc = dcsim__xml_str(doc, ws, "source", 1, &src, err)))
    return rc;
  if ((rc = dcsim_catalog_find(DCSIM_KIND_CPU, cpu, d->path, (int)xmlGetLineNo(ws), &path, err)) ||
      (rc = dcsim_cpu_profile_load(path, &p, err))) {
    dcsim_error_prefix(err, "<working-set weights-cpu=\"%s\">", cpu);
    free(path);
    return rc;
  }
  free(path);
  d->weights_caches = *dcsim_cpu_profile_caches(p);
  if (!(d->weights_caches.l3_byte > 0))
    rc = DCSIM_XML_ERR(err, DCSIM_EREF, doc, ws,
                       "<working-set weights-cpu=\"%s\">: the profile gives no l3-byte", cpu);
  else if (!(d->weights_cpu = dcsim_strdup(dcsim_cpu_profile_name(p))) ||
           !(d->wset_source = dcsim_strdup(src)))
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, d->path, 0, "out of memory");
  dcsim_cpu_profile_free(p);
  return rc;
}

/* <launch>: the default GPU model's launch and occupancy parameters. */
static int load_launch(dcsim_dwarf_t *d, const dcsim_xml_doc_t *doc, xmlNode *l, dcsim_error *err) {
  if (!l) return 0;
  int rc;
  const char *src = NULL;
  if ((rc = dcsim__xml_u32(doc, l, "threads-per-block", 1, &d->launch.threads_per_block, err)) ||
      (rc = dcsim__xml_double(doc, l, "launch-s", 0, &d->launch.launch_s, err)) ||
      (rc = dcsim__xml_double(doc, l, "inflight-byte-per-thread", 1,
                              &d->launch.inflight_byte_per_thread, err)) ||
      (rc = dcsim__xml_str(doc, l, "source", 1, &src, err)))
    return rc;
  if (d->launch.threads_per_block == 0 || !(d->launch.inflight_byte_per_thread > 0))
    return DCSIM_XML_ERR(
        err, DCSIM_ERANGE, doc, l,
        "<launch>: threads-per-block and inflight-byte-per-thread must be positive");
  const char *on = dcsim__xml_attr(doc, l, "fitted-on");
  d->launch_fitted_on = dcsim_strdup(on ? on : "");
  d->launch_source = dcsim_strdup(src);
  if (!d->launch_fitted_on || !d->launch_source)
    return DCSIM_ERR(err, DCSIM_ENOMEM, d->path, 0, "out of memory");
  d->launch.fitted_on = d->launch_fitted_on;
  d->launch.source = d->launch_source;
  d->launch.present = 1;
  d->launch.has_launch_s = xmlHasProp(l, BAD_CAST "launch-s") != NULL;
  d->launch.fitted = strncmp(src, "fitted", 6) == 0;
  return 0;
}

/* The optional activity of a <kernel> (dcsim/dwarf.h): other-inst, dram-byte and l2-byte all or
 * none, chain-inst, time-form; activity-source when any is given. */
static int kernel_activity(const dcsim_xml_doc_t *doc, xmlNode *k, const char *name,
                           dcsim_gpu_kernel *g, dcsim_error *err) {
  const char *act[] = { "other-inst", "dram-byte", "l2-byte" };
  double *dst[] = { &g->other_inst, &g->dram_byte, &g->l2_byte };
  int n = 0, rc;
  for (int i = 0; i < 3; i++)
    if (xmlHasProp(k, BAD_CAST act[i])) {
      if ((rc = nonneg_attr(doc, k, act[i], dst[i], err))) return rc;
      n++;
    }
  if (n != 0 && n != 3)
    return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, k,
                         "<kernel name=\"%s\">: other-inst, dram-byte and l2-byte go together",
                         name);
  g->has_activity = n == 3;
  if (xmlHasProp(k, BAD_CAST "chain-inst") &&
      (rc = nonneg_attr(doc, k, "chain-inst", &g->chain_inst, err)))
    return rc;
  if ((n || g->chain_inst > 0) && !xmlHasProp(k, BAD_CAST "activity-source"))
    return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, k,
                         "<kernel name=\"%s\">: activity counts need activity-source", name);
  const char *form = dcsim__xml_attr(doc, k, "time-form");
  if (form && strcmp(form, "roofline") != 0 && strcmp(form, "d35") != 0)
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, k,
                         "<kernel name=\"%s\" time-form=\"%s\">: want d35 or roofline", name, form);
  g->roofline = form && strcmp(form, "roofline") == 0;
  if (g->roofline && !g->has_activity)
    return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, k,
                         "<kernel name=\"%s\">: time-form=\"roofline\" needs dram-byte", name);
  return 0;
}

static int load_kernels(dcsim_dwarf_t *d, const dcsim_xml_doc_t *doc, xmlNode *ks,
                        dcsim_error *err) {
  int rc;
  if ((rc = parse_formula(d, doc, ks, "domain-size", &d->domain, err))) return rc;
  if ((rc = dcsim__xml_u32(doc, ks, "invocations-per-call", 1, &d->invocations, err))) return rc;
  if (d->invocations == 0)
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, ks,
                         "<kernels>: invocations-per-call must be >= 1");
  d->dp_flop_per_inst = 2; /* absent: every FP64 instruction an FMA, Table 11's convention */
  if ((rc = dcsim__xml_double(doc, ks, "dp-flop-per-instruction", 0, &d->dp_flop_per_inst, err)))
    return rc;
  if (!(d->dp_flop_per_inst >= 1 && d->dp_flop_per_inst <= 2))
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, ks,
                         "<kernels>: dp-flop-per-instruction %g is outside 1..2 (an add or a "
                         "multiply is 1 flop, an FMA 2)",
                         d->dp_flop_per_inst);
  if (xmlHasProp(ks, BAD_CAST "dp-flop-per-instruction") &&
      !xmlHasProp(ks, BAD_CAST "dp-flop-source"))
    return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, ks,
                         "<kernels>: dp-flop-per-instruction needs dp-flop-source");
  if ((rc = load_launch(d, doc, dcsim__xml_child(ks, "launch"), err))) return rc;
  const char *mon = dcsim__xml_attr(doc, ks, "measured-on");
  if (!(d->measured_on = dcsim_strdup(mon ? mon : "")))
    return DCSIM_ERR(err, DCSIM_ENOMEM, d->path, 0, "out of memory");
  xmlNode *mg = dcsim__xml_child(ks, "multi-gpu");
  if (mg) {
    if (find_param(d, "GPUS") >= 0)
      return DCSIM_XML_ERR(
          err, DCSIM_ESCHEMA, doc, mg,
          "<multi-gpu>: GPUS is the GPU count in halo-byte; rename the parameter GPUS");
    d->has_multi_gpu = 1;
    if ((rc = nonneg_attr(doc, mg, "memory-byte-per-point", &d->mg_memory, err)) ||
        (rc = nonneg_attr(doc, mg, "transfer-byte-per-point", &d->mg_transfer, err)) ||
        (rc = parse_formula_names(d, doc, mg, "halo-byte", "GPUS", &d->mg_halo, err)))
      return rc;
  }
  size_t n = dcsim__xml_count(ks, "kernel");
  d->kernels = calloc(n ? n : 1, sizeof *d->kernels);
  d->kernel_names = calloc(n ? n : 1, sizeof *d->kernel_names);
  if (!d->kernels || !d->kernel_names)
    return DCSIM_ERR(err, DCSIM_ENOMEM, d->path, 0, "out of memory");
  for (xmlNode *k = dcsim__xml_child(ks, "kernel"); k; k = dcsim__xml_next(k, "kernel")) {
    dcsim_gpu_kernel *g = &d->kernels[d->n_kernels];
    const char *name = NULL;
    if ((rc = dcsim__xml_str(doc, k, "name", 1, &name, err))) return rc;
    for (size_t i = 0; i < d->n_kernels; i++)
      if (strcmp(d->kernel_names[i], name) == 0)
        return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, k, "<kernel name=\"%s\">: declared twice",
                             name);
    if (!(d->kernel_names[d->n_kernels] = dcsim_strdup(name)))
      return DCSIM_ERR(err, DCSIM_ENOMEM, d->path, 0, "out of memory");
    g->name = d->kernel_names[d->n_kernels];
    d->n_kernels++;
    struct {
      const char *a;
      double *v;
      int frac;
    } f[] = { { "P-inactive", &g->P_inactive, 1 },
              { "P-misc", &g->P_misc, 1 },
              { "P-cfl", &g->P_cfl, 1 },
              { "G-e", &g->G_e, 1 },
              { "G-r-byte", &g->G_r_byte, 0 },
              { "i-int", &g->i_int, 0 },
              { "i-sp", &g->i_sp, 0 },
              { "i-dp", &g->i_dp, 0 },
              { "I-e", &g->I_e, 0 },
              { "IPC-e", &g->IPC_e, 0 } };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
      if ((rc = nonneg_attr(doc, k, f[i].a, f[i].v, err))) return rc;
      if (f[i].frac && *f[i].v > 1)
        return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, k,
                             "<kernel name=\"%s\" %s>: a fraction must be in 0..1", name, f[i].a);
    }
    if (!(g->G_e > 0) || !(g->IPC_e > 0))
      return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, k,
                           "<kernel name=\"%s\">: G-e and IPC-e must be positive", name);
    if ((rc = kernel_activity(doc, k, name, g, err))) return rc;
  }
  return 0;
}

static int load_cases(dcsim_dwarf_t *d, const dcsim_xml_doc_t *doc, xmlNode *root,
                      dcsim_error *err) {
  size_t n = dcsim__xml_count(root, "case");
  d->cases = calloc(n ? n : 1, sizeof *d->cases);
  if (!d->cases) return DCSIM_ERR(err, DCSIM_ENOMEM, d->path, 0, "out of memory");
  int rc;
  for (xmlNode *c = dcsim__xml_child(root, "case"); c; c = dcsim__xml_next(c, "case")) {
    case_def *cd = &d->cases[d->n_cases];
    const char *name = NULL;
    if ((rc = dcsim__xml_str(doc, c, "name", 1, &name, err))) return rc;
    if (dcsim_dwarf_has_case(d, name))
      return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, c, "<case name=\"%s\">: declared twice", name);
    cd->name = dcsim_strdup(name);
    cd->line = (int)xmlGetLineNo(c);
    cd->values = calloc(d->n_params ? d->n_params : 1, sizeof *cd->values);
    cd->set = calloc(d->n_params ? d->n_params : 1, 1);
    size_t no = dcsim__xml_count(c, "override");
    cd->over = calloc(no ? no : 1, sizeof *cd->over);
    d->n_cases++;
    if (!cd->name || !cd->values || !cd->set || !cd->over)
      return DCSIM_ERR(err, DCSIM_ENOMEM, d->path, 0, "out of memory");
    for (xmlNode *s = dcsim__xml_child(c, "set"); s; s = dcsim__xml_next(s, "set")) {
      const char *pn = NULL;
      if ((rc = dcsim__xml_str(doc, s, "name", 1, &pn, err))) return rc;
      int pi = find_param(d, pn);
      if (pi < 0)
        return DCSIM_XML_ERR(err, DCSIM_EREF, doc, s,
                             "<case name=\"%s\"><set name=\"%s\">: unknown parameter", name, pn);
      if ((rc = nonneg_attr(doc, s, "value", &cd->values[pi], err))) return rc;
      cd->set[pi] = 1;
    }
    for (xmlNode *o = dcsim__xml_child(c, "override"); o; o = dcsim__xml_next(o, "override")) {
      const char *ln = NULL;
      if ((rc = dcsim__xml_str(doc, o, "loop", 1, &ln, err))) return rc;
      int li = find_loop(d, ln);
      if (li < 0)
        return DCSIM_XML_ERR(err, DCSIM_EREF, doc, o, "<override loop=\"%s\">: unknown loop", ln);
      if (d->loops[li].irregular)
        return DCSIM_XML_ERR(
            err, DCSIM_ESCHEMA, doc, o,
            "<override loop=\"%s\">: an <irregular> loop's traffic cannot be overridden", ln);
      override_def *od = &cd->over[cd->n_over++];
      od->loop = (size_t)li;
      if ((rc = parse_formula(d, doc, o, "work-flop", &od->work, err))) return rc;
      if ((rc = parse_formula(d, doc, o, "traffic-byte", &od->traffic, err))) return rc;
    }
  }
  return 0;
}

/* <communication>: the §4.3 attributes (all three or none), <pattern>s, the overlap fraction. */
static int load_comm(dcsim_dwarf_t *d, const dcsim_xml_doc_t *doc, xmlNode *cm, dcsim_error *err) {
  static const char *const kinds[] = { "exchange", "halo", "alltoall", "allreduce" };
  int rc;
  if (find_param(d, "NODES") >= 0)
    return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, cm,
                         "<communication>: NODES is the node count in communication formulas; "
                         "rename the parameter NODES");
  d->has_comm = 1;
  int na = (dcsim__xml_attr(doc, cm, "in-byte") != NULL) +
           (dcsim__xml_attr(doc, cm, "out-byte") != NULL) +
           (dcsim__xml_attr(doc, cm, "iterations") != NULL);
  if (na != 0 && na != 3)
    return DCSIM_XML_ERR(
        err, DCSIM_ESCHEMA, doc, cm,
        "<communication>: give in-byte, out-byte and iterations together (D3.5 §4.3), or none");
  if (na == 3) {
    d->has_comm_attrs = 1;
    if ((rc = parse_formula(d, doc, cm, "in-byte", &d->comm_in, err)) ||
        (rc = parse_formula(d, doc, cm, "out-byte", &d->comm_out, err)) ||
        (rc = parse_formula(d, doc, cm, "iterations", &d->comm_iters, err)))
      return rc;
  }
  if (dcsim__xml_attr(doc, cm, "max-nodes")) { /* the finest split of the domain */
    const char *src = dcsim__xml_attr(doc, cm, "max-nodes-source");
    if (!src)
      return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, cm,
                           "<communication max-nodes>: needs max-nodes-source (why that limit)");
    if ((rc = parse_formula(d, doc, cm, "max-nodes", &d->comm_max_nodes, err))) return rc;
    if (!(d->comm_max_nodes_src = dcsim_strdup(src)))
      return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  }
  if ((rc = dcsim__xml_double(doc, cm, "overlap", 0, &d->comm_overlap, err))) return rc;
  if (d->comm_overlap < 0 || d->comm_overlap > 1)
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, cm, "<communication overlap>: must be in 0..1");
  for (xmlNode *p = dcsim__xml_child(cm, "pattern"); p; p = dcsim__xml_next(p, "pattern")) {
    if (d->n_patterns == DCSIM_COMM_MAX_PATTERNS)
      return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, p, "<pattern>: more than %d patterns",
                           DCSIM_COMM_MAX_PATTERNS);
    pattern_def *pd = &d->patterns[d->n_patterns];
    const char *kind = NULL;
    if ((rc = dcsim__xml_str(doc, p, "kind", 1, &kind, err))) return rc;
    int k = -1;
    for (int i = 0; i < 4; i++)
      if (strcmp(kind, kinds[i]) == 0) k = i;
    if (k < 0)
      return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, p, "<pattern kind=\"%s\">: unknown kind", kind);
    pd->kind = (dcsim_comm_kind)k;
    int has_msgs = dcsim__xml_attr(doc, p, "messages") != NULL;
    if ((k == DCSIM_COMM_HALO || k == DCSIM_COMM_EXCHANGE) != has_msgs)
      return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, p,
                           has_msgs
                               ? "<pattern kind=\"%s\">: messages only applies to exchange and halo"
                               : "<pattern kind=\"%s\">: needs messages",
                           kind);
    d->n_patterns++;
    if ((rc = parse_formula_names(d, doc, p, "byte", "NODES", &pd->byte, err)) ||
        (has_msgs &&
         (rc = parse_formula_names(d, doc, p, "messages", "NODES", &pd->messages, err))) ||
        (rc = parse_formula_names(d, doc, p, "iterations", "NODES", &pd->iterations, err)))
      return rc;
  }
  if (!d->has_comm_attrs && d->n_patterns == 0)
    return DCSIM_XML_ERR(
        err, DCSIM_ESCHEMA, doc, cm,
        "<communication>: declares nothing (give the §4.3 attributes or <pattern>s)");
  return 0;
}

/* <power-activity>: fractions of the full-load core power (doc/models.md, "Power model"). */
static int load_activity(dcsim_dwarf_t *d, const dcsim_xml_doc_t *doc, xmlNode *pa,
                         dcsim_error *err) {
  const char *src = NULL;
  int rc;
  if ((rc = nonneg_attr(doc, pa, "first-core", &d->activity.first_core, err)) ||
      (rc = nonneg_attr(doc, pa, "extra-core", &d->activity.extra_core, err)) ||
      (rc = dcsim__xml_str(doc, pa, "source", 1, &src, err)))
    return rc;
  if (d->activity.first_core > 1.5 || d->activity.extra_core > 1.5)
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, pa,
                         "<power-activity>: %g and %g must be fractions of the full-load power "
                         "(at most 1.5)",
                         d->activity.first_core, d->activity.extra_core);
  if (!(d->activity_source = dcsim_strdup(src)))
    return DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, pa, "out of memory");
  d->activity.source = d->activity_source;
  d->has_activity = 1;
  return 0;
}

/* <thread-scaling> elements: one per CPU profile, sigma in 0..1 (the <fit-point>s are a record of
 * the fit for readers and are not loaded). */
static int load_scaling(dcsim_dwarf_t *d, const dcsim_xml_doc_t *doc, xmlNode *root,
                        dcsim_error *err) {
  size_t n = dcsim__xml_count(root, "thread-scaling");
  d->scaling = calloc(n ? n : 1, sizeof *d->scaling);
  if (!d->scaling) return DCSIM_ERR(err, DCSIM_ENOMEM, d->path, 0, "out of memory");
  for (xmlNode *t = dcsim__xml_child(root, "thread-scaling"); t;
       t = dcsim__xml_next(t, "thread-scaling")) {
    dcsim_thread_scaling *ts = &d->scaling[d->n_scaling];
    const char *cpu = NULL, *src = NULL;
    int rc;
    if ((rc = dcsim__xml_str(doc, t, "cpu", 1, &cpu, err)) ||
        (rc = dcsim__xml_str(doc, t, "source", 1, &src, err)) ||
        (rc = nonneg_attr(doc, t, "sigma", &ts->sigma, err)) ||
        (rc = nonneg_attr(doc, t, "kappa", &ts->kappa, err)) ||
        (rc = dcsim__xml_u32(doc, t, "cores-max", 1, &ts->cores_max, err)))
      return rc;
    if (ts->sigma > 1)
      return DCSIM_XML_ERR(
          err, DCSIM_ERANGE, doc, t,
          "<thread-scaling cpu=\"%s\">: sigma %g is a fraction, it must be in 0..1", cpu,
          ts->sigma);
    if (ts->cores_max == 0)
      return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, t,
                           "<thread-scaling cpu=\"%s\">: cores-max must be >= 1", cpu);
    for (size_t i = 0; i < d->n_scaling; i++)
      if (strcmp(d->scaling[i].cpu, cpu) == 0)
        return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, t,
                             "<thread-scaling cpu=\"%s\">: a second law for the same CPU", cpu);
    ts->cpu = dcsim_strdup(cpu);
    ts->source = dcsim_strdup(src);
    d->n_scaling++;
    if (!ts->cpu || !ts->source) return DCSIM_ERR(err, DCSIM_ENOMEM, d->path, 0, "out of memory");
  }
  return 0;
}

int dcsim_dwarf_load(const char *path, dcsim_dwarf_t **out, dcsim_error *err) {
  dcsim_xml_doc_t *doc = NULL;
  const char *dev = NULL;
  dcsim_dwarf_t *d = calloc(1, sizeof *d);
  if (!d) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  int rc = dcsim__input_open(path, "dwarf", &doc, &d->path, &d->name, err);
  if (rc) goto out;
  xmlNode *root = dcsim__xml_root(doc);
  if ((rc = dcsim__xml_str(doc, root, "device", 1, &dev, err))) goto out;
  d->device = strcmp(dev, "gpu") == 0 ? DCSIM_DWARF_GPU : DCSIM_DWARF_CPU;
  if ((rc = load_params(d, doc, root, err))) goto out;
  xmlNode *ls = dcsim__xml_child(root, "loops"), *ks = dcsim__xml_child(root, "kernels");
  if (d->device == DCSIM_DWARF_CPU && !ls) {
    rc = DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, root, "<dwarf device=\"cpu\">: needs <loops>");
    goto out;
  }
  if (d->device == DCSIM_DWARF_GPU && !ks) {
    rc = DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, root, "<dwarf device=\"gpu\">: needs <kernels>");
    goto out;
  }
  if (ls && (rc = load_loops(d, doc, ls, err))) goto out;
  xmlNode *ws = ls ? dcsim__xml_child(ls, "working-set") : NULL;
  if (ws && (rc = load_working_set(d, doc, ws, err))) goto out;
  if (ks && (rc = load_kernels(d, doc, ks, err))) goto out;
  if ((rc = load_cases(d, doc, root, err))) goto out;
  xmlNode *cm = dcsim__xml_child(root, "communication");
  if (cm && (rc = load_comm(d, doc, cm, err))) goto out;
  if ((rc = load_scaling(d, doc, root, err))) goto out;
  xmlNode *ec = dcsim__xml_child(root, "energy-coefficients");
  if (ec) {
    d->has_energy = 1;
    if ((rc = nonneg_attr(doc, ec, "pkg-U", &d->energy.pkg_U, err)) ||
        (rc = nonneg_attr(doc, ec, "pkg-S", &d->energy.pkg_S, err)) ||
        (rc = nonneg_attr(doc, ec, "dram-X", &d->energy.dram_X, err)) ||
        (rc = nonneg_attr(doc, ec, "dram-Y", &d->energy.dram_Y, err)))
      goto out;
  }
  xmlNode *pa = dcsim__xml_child(root, "power-activity");
  if (pa && (rc = load_activity(d, doc, pa, err))) goto out;
  size_t ng = dcsim__xml_count(root, "gpu-energy");
  d->gpu_frac = calloc(ng ? ng : 1, sizeof *d->gpu_frac);
  if (!d->gpu_frac) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  for (xmlNode *g = dcsim__xml_child(root, "gpu-energy"); g; g = dcsim__xml_next(g, "gpu-energy")) {
    const char *gn = NULL;
    gpu_frac *gf = &d->gpu_frac[d->n_gpu_frac];
    if ((rc = dcsim__xml_str(doc, g, "gpu", 1, &gn, err))) goto out;
    if ((rc = nonneg_attr(doc, g, "fraction", &gf->S, err))) goto out;
    const char *fsrc = dcsim__xml_attr(doc, g, "source");
    gf->assumed = fsrc && strncmp(fsrc, "assumption", 10) == 0;
    if (gf->S > 1) {
      rc = DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, g,
                         "<gpu-energy gpu=\"%s\">: fraction must be in 0..1", gn);
      goto out;
    }
    if (!(gf->gpu = dcsim_strdup(gn))) {
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
      goto out;
    }
    d->n_gpu_frac++;
  }
  xmlNode *gp = dcsim__xml_child(root, "gpu-power");
  if (gp) {
    const char *src = NULL;
    if ((rc = nonneg_attr(doc, gp, "activity", &d->gpu_activity, err)) ||
        (rc = dcsim__xml_str(doc, gp, "source", 1, &src, err)))
      goto out;
    if (!(d->gpu_activity > 0 && d->gpu_activity <= 1)) {
      rc = DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, gp, "<gpu-power activity>: must be in (0, 1]");
      goto out;
    }
    if (!(d->gpu_activity_source = dcsim_strdup(src))) {
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
      goto out;
    }
  }
  *out = d;
  d = NULL;
out:
  dcsim_dwarf_free(d);
  dcsim__xml_free(doc);
  return rc;
}

const char *dcsim_dwarf_name(const dcsim_dwarf_t *d) { return d->name; }
const char *dcsim_dwarf_path(const dcsim_dwarf_t *d) { return d->path; }
dcsim_dwarf_device dcsim_dwarf_device_of(const dcsim_dwarf_t *d) { return d->device; }
size_t dcsim_dwarf_n_params(const dcsim_dwarf_t *d) { return d->n_params; }
const char *dcsim_dwarf_param(const dcsim_dwarf_t *d, size_t i) {
  return i < d->n_params ? d->params[i] : NULL;
}
size_t dcsim_dwarf_n_cases(const dcsim_dwarf_t *d) { return d->n_cases; }
const char *dcsim_dwarf_case(const dcsim_dwarf_t *d, size_t i) {
  return i < d->n_cases ? d->cases[i].name : NULL;
}

int dcsim_dwarf_has_cpu_model(const dcsim_dwarf_t *d) { return d->n_loops > 0; }
/* GPU kernels (D3.5 §3.4), or loops that are all <irregular> (FV §7: a GPU has a cache-line model
 * too, dcsim/model_irregular.h) */
int dcsim_dwarf_has_gpu_model(const dcsim_dwarf_t *d) {
  int all_irregular = d->n_loops > 0;
  for (size_t i = 0; i < d->n_loops; i++) all_irregular &= d->loops[i].irregular;
  return d->n_kernels > 0 || all_irregular;
}

int dcsim_dwarf_has_case(const dcsim_dwarf_t *d, const char *case_name) {
  for (size_t i = 0; i < d->n_cases; i++)
    if (strcmp(d->cases[i].name, case_name) == 0) return 1;
  return 0;
}

int dcsim_dwarf_case_value(const dcsim_dwarf_t *d, const char *case_name, const char *param,
                           double *out, dcsim_error *err) {
  int pi = find_param(d, param);
  for (size_t i = 0; pi >= 0 && i < d->n_cases; i++)
    if (strcmp(d->cases[i].name, case_name) == 0 && d->cases[i].set[pi]) {
      *out = d->cases[i].values[pi];
      return 0;
    }
  return DCSIM_ERR(err, DCSIM_EREF, d->path, 0, "dwarf %s: case '%s' sets no parameter '%s'",
                   d->name, case_name, param);
}

static int eval_formula(const dcsim_dwarf_t *d, const formula *f, const double *vals,
                        const char *what, double *out, dcsim_error *err) {
  int rc = dcsim_expr_eval(f->e, vals, out, err);
  if (rc) {
    dcsim_error_at(err, d->path, f->line);
    return rc;
  }
  if (*out < 0)
    return DCSIM_ERR(err, DCSIM_ERANGE, d->path, f->line,
                     "%s = %g is negative for these parameters", what, *out);
  return 0;
}

void dcsim_dwarf_eval_free(dcsim_dwarf_eval *e) {
  if (!e) return;
  free(e->loops);
  free(e->values);
  free(e);
}

/* The values the case sets (*cd: the case, NULL without case_name). */
static int bind_case(const dcsim_dwarf_t *d, const char *case_name, double *vals,
                     unsigned char *set, const case_def **cd_out, dcsim_error *err) {
  const case_def *cd = NULL;
  *cd_out = NULL;
  if (!case_name) return 0;
  for (size_t i = 0; i < d->n_cases; i++)
    if (strcmp(d->cases[i].name, case_name) == 0) cd = &d->cases[i];
  if (!cd) {
    dcsim_str list = DCSIM_STR_INIT;
    for (size_t i = 0; i < d->n_cases; i++)
      dcsim_str_addf(&list, "%s%s", i ? ", " : "", d->cases[i].name);
    if (list.oom) return DCSIM_ERR(err, DCSIM_ENOMEM, d->path, 0, "out of memory");
    const char *best = dcsim_dwarf_suggest_case(d, case_name);
    int rc = DCSIM_ERR(err, DCSIM_EREF, d->path, 0, "dwarf %s has no case '%s'%s%s%s (cases: %s)",
                       d->name, case_name, best ? "; did you mean " : "", best ? best : "",
                       best ? "?" : "", dcsim_str_cstr(&list));
    dcsim_str_release(&list);
    return rc;
  }
  for (size_t i = 0; i < d->n_params; i++)
    if (cd->set[i]) {
      vals[i] = cd->values[i];
      set[i] = 1;
    }
  *cd_out = cd;
  return 0;
}

/* The bindings over the case's values; then every parameter must have a value. */
static int bind_params(const dcsim_dwarf_t *d, const dcsim_binding *b, size_t n_b, double *vals,
                       unsigned char *set, dcsim_error *err) {
  for (size_t k = 0; k < n_b; k++) {
    int pi = find_param(d, b[k].name);
    if (pi < 0)
      return DCSIM_ERR(err, DCSIM_EREF, b[k].file ? b[k].file : "", b[k].line,
                       "dwarf %s has no parameter '%s'", d->name, b[k].name);
    if (!isfinite(b[k].value) || b[k].value < 0)
      return DCSIM_ERR(err, DCSIM_ERANGE, b[k].file ? b[k].file : "", b[k].line,
                       "parameter %s = %g must be a finite, non-negative number", b[k].name,
                       b[k].value);
    vals[pi] = b[k].value;
    set[pi] = 1;
  }
  for (size_t i = 0; i < d->n_params; i++)
    if (!set[i])
      return DCSIM_ERR(err, DCSIM_EREF, d->path, d->param_lines[i],
                       "parameter %s of dwarf %s has no value (give a case or set it)",
                       d->params[i], d->name);
  return 0;
}

/* Loop i for these values: its work and traffic (the case's <override> when over is set). */
static int eval_loop(const dcsim_dwarf_t *d, const case_def *over, size_t i, const double *vals,
                     dcsim_cpu_loop *l, dcsim_error *err) {
  const loop_def *ld = &d->loops[i];
  const formula *fw = &ld->work, *fq = &ld->traffic;
  int rc;
  for (size_t j = 0; over && j < over->n_over; j++)
    if (over->over[j].loop == i) {
      fw = &over->over[j].work;
      fq = &over->over[j].traffic;
    }
  l->name = ld->name;
  if ((rc = eval_formula(d, fw, vals, "work-flop", &l->work_flop, err))) return rc;
  if (ld->irregular) {
    l->irregular = 1;
    l->word_byte = ld->word_byte;
    if ((rc = eval_formula(d, &ld->hit, vals, "hit-word", &l->hit_word, err)) ||
        (rc = eval_formula(d, &ld->regular, vals, "regular-word", &l->regular_word, err)) ||
        (rc = eval_formula(d, &ld->irreg, vals, "irregular-word", &l->irregular_word, err)) ||
        (rc = eval_formula(d, &ld->wset, vals, "working-set-word", &l->working_set_word, err)) ||
        (ld->footprint.e &&
         (rc = eval_formula(d, &ld->footprint, vals, "footprint-byte", &l->footprint_byte, err))) ||
        (ld->exchange.e &&
         (rc = eval_formula(d, &ld->exchange, vals, "exchange-word", &l->exchange_word, err))))
      return rc;
  } else if ((rc = eval_formula(d, fq, vals, "traffic-byte", &l->traffic_byte, err))) {
    return rc;
  }
  if (l->work_flop > 0 && !ld->has_flop)
    return DCSIM_ERR(err, DCSIM_EREF, d->path, fw->line,
                     "loop %s does work (W = %g flop) but has no <flop> coefficients", ld->name,
                     l->work_flop);
  l->V = ld->V;
  l->X = ld->X;
  l->Y = ld->Y;
  l->Z = ld->Z;
  l->has_flop = ld->has_flop;
  l->U = ld->U;
  l->S_flops = ld->S_flops;
  return 0;
}

/* The GPU model's domain and the communication's volumes for these values. */
static int eval_gpu_comm(const dcsim_dwarf_t *d, const double *vals, dcsim_dwarf_eval *e,
                         dcsim_error *err) {
  int rc;
  e->n_kernels = d->n_kernels;
  e->kernels = d->kernels;
  e->invocations = d->invocations;
  e->dp_flop_per_inst = d->dp_flop_per_inst;
  e->launch = d->launch;
  e->measured_on = d->measured_on ? d->measured_on : "";
  e->has_multi_gpu = d->has_multi_gpu;
  e->gpu_memory_byte_per_point = d->mg_memory;
  e->gpu_transfer_byte_per_point = d->mg_transfer;
  if (d->n_kernels && (rc = eval_formula(d, &d->domain, vals, "domain-size", &e->domain_size, err)))
    return rc;
  if (d->has_comm) {
    e->has_comm = 1;
    e->comm_overlap = d->comm_overlap;
  }
  if (d->comm_max_nodes.e) {
    if ((rc = eval_formula(d, &d->comm_max_nodes, vals, "max-nodes", &e->comm_max_nodes, err)))
      return rc;
    e->comm_max_nodes_source = d->comm_max_nodes_src;
  }
  if (d->has_comm_attrs &&
      ((rc = eval_formula(d, &d->comm_in, vals, "in-byte", &e->comm_in_byte, err)) ||
       (rc = eval_formula(d, &d->comm_out, vals, "out-byte", &e->comm_out_byte, err)) ||
       (rc = eval_formula(d, &d->comm_iters, vals, "iterations", &e->comm_iterations, err))))
    return rc;
  return 0;
}

int dcsim_dwarf_evaluate(const dcsim_dwarf_t *d, const char *case_name, const dcsim_binding *b,
                         size_t n_b, dcsim_dwarf_eval **out, dcsim_error *err) {
  int rc = 0;
  double *vals = calloc(d->n_params ? d->n_params : 1, sizeof *vals);
  unsigned char *set = calloc(d->n_params ? d->n_params : 1, 1);
  dcsim_dwarf_eval *e = calloc(1, sizeof *e);
  const case_def *cd = NULL;
  if (!vals || !set || !e) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, d->path, 0, "out of memory");
    goto out;
  }
  if ((rc = bind_case(d, case_name, vals, set, &cd, err)) ||
      (rc = bind_params(d, b, n_b, vals, set, err)))
    goto out;
  /* A case's <override>s are numbers derived for the case's own parameter values (the BiFFT LP
   * split): they apply only while bindings leave those values unchanged; a binding that changes
   * one (--set FIELDS=40 after case 200x180_20) falls back to the loops' formulas. */
  int use_over = cd != NULL;
  for (size_t i = 0; cd && i < d->n_params; i++)
    if (cd->set[i] && vals[i] != cd->values[i]) use_over = 0;
  e->dwarf = d;
  e->device = d->device;
  e->n_loops = d->n_loops;
  e->loops = calloc(d->n_loops ? d->n_loops : 1, sizeof *e->loops);
  if (!e->loops) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, d->path, 0, "out of memory");
    goto out;
  }
  for (size_t i = 0; i < d->n_loops; i++)
    if ((rc = eval_loop(d, use_over ? cd : NULL, i, vals, &e->loops[i], err))) goto out;
  if ((rc = eval_gpu_comm(d, vals, e, err))) goto out;
  if (d->wset_byte.e) {
    if ((rc =
             eval_formula(d, &d->wset_byte, vals, "<working-set byte>", &e->working_set_byte, err)))
      goto out;
    e->has_working_set = 1;
    e->weights_cpu = d->weights_cpu;
    e->working_set_source = d->wset_source;
    e->weights_caches = &d->weights_caches;
  }
  e->values = vals; /* kept for formulas evaluated later (dcsim_dwarf_comm) */
  vals = NULL;
  *out = e;
  e = NULL;
out:
  dcsim_dwarf_eval_free(e);
  free(vals);
  free(set);
  return rc;
}

int dcsim_dwarf_gpu_halo(const dcsim_dwarf_eval *ev, unsigned gpus, double *halo_byte,
                         dcsim_error *err) {
  const dcsim_dwarf_t *d = ev->dwarf;
  *halo_byte = 0;
  if (!d->has_multi_gpu) return 0;
  double *vals = malloc((d->n_params + 1) * sizeof *vals);
  if (!vals) return DCSIM_ERR(err, DCSIM_ENOMEM, d->path, 0, "out of memory");
  if (d->n_params) memcpy(vals, ev->values, d->n_params * sizeof *vals);
  vals[d->n_params] = gpus; /* GPUS */
  int rc = eval_formula(d, &d->mg_halo, vals, "halo-byte", halo_byte, err);
  free(vals);
  return rc;
}

int dcsim_dwarf_comm(const dcsim_dwarf_eval *ev, unsigned nodes,
                     dcsim_comm_pattern out[DCSIM_COMM_MAX_PATTERNS], size_t *n, dcsim_error *err) {
  const dcsim_dwarf_t *d = ev->dwarf;
  *n = 0;
  if (!d->has_comm) return 0;
  if (d->has_comm_attrs) /* D3.5 §4.3: (Q_in + Q_out) per iteration, no message count */
    out[(*n)++] = (dcsim_comm_pattern){ DCSIM_COMM_EXCHANGE, ev->comm_in_byte + ev->comm_out_byte,
                                        0, ev->comm_iterations };
  double *vals = malloc((d->n_params + 1) * sizeof *vals);
  if (!vals) return DCSIM_ERR(err, DCSIM_ENOMEM, d->path, 0, "out of memory");
  if (d->n_params) memcpy(vals, ev->values, d->n_params * sizeof *vals);
  vals[d->n_params] = nodes; /* NODES */
  int rc = 0;
  for (size_t i = 0; i < d->n_patterns && *n < DCSIM_COMM_MAX_PATTERNS; i++) {
    const pattern_def *pd = &d->patterns[i];
    dcsim_comm_pattern *p = &out[*n];
    p->kind = pd->kind;
    p->messages = 0;
    if ((rc = eval_formula(d, &pd->byte, vals, "byte", &p->byte, err)) ||
        (pd->messages.e &&
         (rc = eval_formula(d, &pd->messages, vals, "messages", &p->messages, err))) ||
        (rc = eval_formula(d, &pd->iterations, vals, "iterations", &p->iterations, err)))
      break;
    (*n)++;
  }
  free(vals);
  return rc;
}

int dcsim_dwarf_energy_coeffs(const dcsim_dwarf_t *d, dcsim_energy_coeffs *out, dcsim_error *err) {
  if (!d->has_energy)
    return DCSIM_ERR(err, DCSIM_EREF, d->path, 0, "dwarf %s has no <energy-coefficients>", d->name);
  *out = d->energy;
  return 0;
}

int dcsim_dwarf_power_activity(const dcsim_dwarf_t *d, dcsim_power_activity *out) {
  if (!d->has_activity) return 0;
  *out = d->activity;
  return 1;
}

int dcsim_dwarf_gpu_fraction(const dcsim_dwarf_t *d, const char *gpu_name, double *out,
                             dcsim_error *err) {
  for (size_t i = 0; i < d->n_gpu_frac; i++)
    if (strcmp(d->gpu_frac[i].gpu, gpu_name) == 0) {
      *out = d->gpu_frac[i].S;
      return 0;
    }
  return DCSIM_ERR(err, DCSIM_EREF, d->path, 0, "dwarf %s has no <gpu-energy> fraction for GPU %s",
                   d->name, gpu_name);
}

const char *dcsim_dwarf_suggest_case(const dcsim_dwarf_t *d, const char *name) {
  const char *names[64];
  size_t n = 0;
  for (size_t i = 0; i < d->n_cases && n < 64; i++) names[n++] = d->cases[i].name;
  return dcsim_suggest(name, names, n);
}

int dcsim_dwarf_gpu_fraction_measured(const dcsim_dwarf_t *d, const char *gpu_name) {
  for (size_t i = 0; i < d->n_gpu_frac; i++)
    if (strcmp(d->gpu_frac[i].gpu, gpu_name) == 0) return !d->gpu_frac[i].assumed;
  return 0;
}

int dcsim_dwarf_gpu_activity(const dcsim_dwarf_t *d, double *activity, const char **source,
                             dcsim_error *err) {
  if (!(d->gpu_activity > 0))
    return DCSIM_ERR(err, DCSIM_EREF, d->path, 0,
                     "dwarf %s has no <gpu-power activity>: the energy on a GPU without a measured "
                     "<gpu-energy> fraction is unknown",
                     d->name);
  *activity = d->gpu_activity;
  *source = d->gpu_activity_source;
  return 0;
}

const dcsim_thread_scaling *dcsim_dwarf_thread_scaling(const dcsim_dwarf_t *d, const char *cpu,
                                                       int *exact) {
  *exact = 0;
  for (size_t i = 0; i < d->n_scaling; i++)
    if (strcmp(d->scaling[i].cpu, cpu) == 0) {
      *exact = 1;
      return &d->scaling[i];
    }
  return d->n_scaling ? &d->scaling[0] : NULL;
}
