/* hwprofile_gpu.c — GPU hardware profiles: device, characteristics (D3.5 Table 10), cache
 * hierarchy, links and power (see dcsim/hwprofile.h; CPU profiles are in hwprofile.c). */
#include "dcsim/hwprofile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"
#include "dcsim/strutil.h"
#include "input/internal.h"
#include "util/xmlio.h"

struct dcsim_gpu_profile {
  char *path, *name, *model;
  char *source;                    /* <characteristics source>, or <device source> without them */
  char *dev_source;                /* <device source> */
  char *launch_source, *pm_source; /* <launch source>, <power-model source> (NULL without) */
  char *launch_borrowed_from;      /* <launch borrowed-from> (NULL without) */
  dcsim_gpu_spec spec;
  size_t n_levels;
  dcsim_cache_level levels[2]; /* <cache-hierarchy>: L2, DRAM */
  dcsim__price price;          /* <price> */
};

void dcsim_gpu_profile_free(dcsim_gpu_profile_t *p) {
  if (!p) return;
  free(p->path);
  free(p->name);
  free(p->model);
  free(p->source);
  free(p->dev_source);
  free(p->launch_source);
  free(p->launch_borrowed_from);
  free(p->pm_source);
  dcsim__price_release(&p->price);
  free(p);
}

/* <launch sync-s async-s source> and <power-model ... source> (both optional). */
static int gpu_launch_power_model(dcsim_gpu_profile_t *p, const dcsim_xml_doc_t *doc, xmlNode *root,
                                  dcsim_error *err) {
  dcsim_gpu_spec *s = &p->spec;
  xmlNode *l = dcsim__xml_child(root, "launch"), *m = dcsim__xml_child(root, "power-model");
  int rc;
  if (l) {
    if ((rc = dcsim__xml_double(doc, l, "sync-s", 1, &s->launch_sync_s, err)) ||
        (rc = dcsim__xml_double(doc, l, "async-s", 0, &s->launch_async_s, err)) ||
        (rc = dcsim__profile_dup_source(doc, l, &p->launch_source, err)))
      return rc;
    if (!(s->launch_sync_s > 0) || s->launch_async_s < 0 || s->launch_async_s > s->launch_sync_s)
      return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, l,
                           "<launch>: sync-s must be positive and async-s in 0..sync-s");
    s->has_launch = 1;
    const char *from = dcsim__xml_attr(doc, l, "borrowed-from");
    if (from) {
      if (!*from)
        return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, l,
                             "<launch borrowed-from>: name the GPU whose figure it is");
      if (!(p->launch_borrowed_from = dcsim_strdup(from)))
        return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
      s->launch_borrowed = 1;
    }
  }
  if (!m) return 0;
  struct {
    const char *a;
    double *v;
  } f[] = { { "busy-w", &s->pm_busy_w },   { "fp64-w", &s->pm_fp64_w },
            { "fp32-w", &s->pm_fp32_w },   { "int-w", &s->pm_int_w },
            { "dram-w", &s->pm_dram_w },   { "l2-w", &s->pm_l2_w },
            { "issue-w", &s->pm_issue_w }, { "scatter-w", &s->pm_scatter_w } };
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
    /* issue-w and scatter-w may be left out: a fit without phases exercising them (doc) */
    if ((rc = dcsim__xml_double(doc, m, f[i].a, i < 6, f[i].v, err))) return rc;
    if (!(*f[i].v >= 0 && *f[i].v <= DCSIM_POWER_MAX_W))
      return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, m, "<power-model %s>: must be 0 to %g W", f[i].a,
                           DCSIM_POWER_MAX_W);
  }
  if (!(s->active_idle_w > 0))
    return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, m,
                         "<power-model>: needs <power active-idle-w> (the model's floor)");
  if (s->pm_issue_w > 0 && !(s->arch.issue_width > 0))
    return DCSIM_XML_ERR(err, DCSIM_EREF, doc, m,
                         "<power-model issue-w>: architecture '%s' has no <issue-width> (the "
                         "term's denominator)",
                         s->arch.name[0] ? s->arch.name : "(none)");
  if ((rc = dcsim__profile_dup_source(doc, m, &p->pm_source, err))) return rc;
  s->has_power_model = 1;
  return 0;
}

/* <cache-hierarchy> of a GPU (FV §7): L2 (traffic between L2 and the SMs' first-level caches)
 * and DRAM, each with its bandwidth (DRAM: the device's memory bandwidth by default) */
static int load_gpu_levels(dcsim_gpu_profile_t *p, const dcsim_xml_doc_t *doc, xmlNode *ch,
                           dcsim_error *err) {
  static const char *const names[] = { "L2", "DRAM" };
  int rc;
  for (xmlNode *l = dcsim__xml_child(ch, "level"); l; l = dcsim__xml_next(l, "level")) {
    const char *name = NULL;
    if ((rc = dcsim__xml_str(doc, l, "name", 1, &name, err))) return rc;
    int q = strcmp(name, "L2") == 0 ? 0 : strcmp(name, "DRAM") == 0 ? 1 : -1;
    if (q < 0 || p->n_levels >= 2 || (p->n_levels && strcmp(p->levels[0].name, name) == 0))
      return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, l,
                           "<level name=\"%s\">: a GPU has levels L2 and DRAM, once each", name);
    dcsim_cache_level *cl = &p->levels[p->n_levels];
    cl->name = names[q];
    if ((rc = dcsim__profile_level_sizes(doc, l, name, cl, err)) ||
        (rc = dcsim__xml_double(doc, l, "bw-bps", q == 0, &cl->bw_bps, err)))
      return rc;
    if (q == 1 && cl->bw_bps == 0) cl->bw_bps = p->spec.dev_memory_bw_bps;
    if (!(cl->bw_bps > 0))
      return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, l,
                           "<level name=\"%s\">: bw-bps must be positive", name);
    p->n_levels++;
  }
  return 0;
}

const dcsim_cache_level *dcsim_gpu_profile_cache_levels(const dcsim_gpu_profile_t *p, size_t *n) {
  *n = p->n_levels;
  return p->n_levels ? p->levels : NULL;
}

/* <device>: the architecture file it names, SMs, clock, bandwidth. */
static int gpu_device(const dcsim_xml_doc_t *doc, xmlNode *dv, dcsim_gpu_profile_t *p,
                      dcsim_error *err) {
  dcsim_gpu_spec *s = &p->spec;
  const char *arch = NULL, *src = NULL;
  char *apath = NULL;
  int rc;
  if ((rc = dcsim__xml_str(doc, dv, "arch", 1, &arch, err)) ||
      (rc = dcsim__xml_str(doc, dv, "source", 1, &src, err)) ||
      (rc = dcsim__xml_u32(doc, dv, "sm", 1, &s->dev_sm, err)) ||
      (rc = dcsim__xml_double(doc, dv, "clock-hz", 1, &s->dev_clock_hz, err)) ||
      (rc = dcsim__xml_double(doc, dv, "memory-bw-bps", 1, &s->dev_memory_bw_bps, err)))
    return rc;
  if (s->dev_sm == 0 || !(s->dev_clock_hz > 0) || !(s->dev_memory_bw_bps > 0))
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, dv,
                         "<device>: sm, clock-hz and memory-bw-bps must be positive");
  if (!(p->dev_source = dcsim_strdup(src)))
    return DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, dv, "out of memory");
  if ((rc = dcsim_catalog_find(DCSIM_KIND_GPU_ARCH, arch, dcsim__xml_path(doc),
                               (int)xmlGetLineNo(dv), &apath, err)))
    return rc;
  rc = dcsim_gpu_arch_load(apath, &s->arch, err);
  free(apath);
  return rc;
}

/* No <characteristics>: D3.5 Table 10's values from the device (O = SM x ops x 2 x C_G). */
static void gpu_derive_table10(dcsim_gpu_spec *s) {
  s->clock_hz = s->dev_clock_hz;
  s->sm = s->dev_sm;
  s->dp_per_clock_sm = s->arch.fp64;
  s->sp_per_clock_sm = s->arch.fp32;
  s->int_per_clock_sm = s->arch.int_add;
  s->peak_dp_flops = s->sm * s->arch.fp64 * 2 * s->clock_hz;
  s->peak_sp_flops = s->sm * s->arch.fp32 * 2 * s->clock_hz;
  s->peak_int_ops = s->sm * s->arch.int_add * s->clock_hz;
  s->memory_bw_bps = s->dev_memory_bw_bps;
}

/* <characteristics>: the 11 values of D3.5 Table 10. */
static int gpu_characteristics(const dcsim_xml_doc_t *doc, xmlNode *c, dcsim_gpu_profile_t *p,
                               dcsim_error *err) {
  dcsim_gpu_spec *s = &p->spec;
  struct {
    const char *attr;
    double *dst;
  } fields[] = { { "gpu-clock-hz", &s->clock_hz },
                 { "memory-clock-hz", &s->memory_clock_hz },
                 { "memory-bus-bit", &s->memory_bus_bit },
                 { "dp-ops-per-clock-sm", &s->dp_per_clock_sm },
                 { "sp-ops-per-clock-sm", &s->sp_per_clock_sm },
                 { "int-ops-per-clock-sm", &s->int_per_clock_sm },
                 { "peak-dp-flops", &s->peak_dp_flops },
                 { "peak-sp-flops", &s->peak_sp_flops },
                 { "peak-int-ops", &s->peak_int_ops },
                 { "memory-bw-bps", &s->memory_bw_bps } };
  int rc;
  for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
    if ((rc = dcsim__xml_double(doc, c, fields[i].attr, 1, fields[i].dst, err))) return rc;
    if (!(*fields[i].dst > 0))
      return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, c, "<characteristics %s>: must be positive",
                           fields[i].attr);
  }
  if ((rc = dcsim__xml_u32(doc, c, "sm", 1, &s->sm, err))) return rc;
  const char *csrc = NULL;
  if ((rc = dcsim__xml_str(doc, c, "source", 1, &csrc, err))) return rc;
  free(p->source);
  if (!(p->source = dcsim_strdup(csrc)))
    return DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, c, "out of memory");
  if (s->sm == 0)
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, c, "<characteristics sm>: must be >= 1");
  s->has_characteristics = 1;
  return 0;
}

/* <peer-link> and the optional P0 idle of <power>. */
static int gpu_links_power(const dcsim_xml_doc_t *doc, xmlNode *root, dcsim_gpu_spec *s,
                           dcsim_error *err) {
  int rc;
  xmlNode *pl = dcsim__xml_child(root, "peer-link");
  if (pl) {
    const char *kind = NULL;
    if ((rc = dcsim__xml_double(doc, pl, "bw-bps", 1, &s->peer_link_bps, err)) ||
        (rc = dcsim__xml_str(doc, pl, "kind", 1, &kind, err)))
      return rc;
    if (!(s->peer_link_bps > 0))
      return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, pl, "<peer-link bw-bps>: must be positive");
    snprintf(s->peer_link_kind, sizeof s->peer_link_kind, "%s", kind);
  }
  xmlNode *pw = dcsim__xml_child(root, "power");
  if ((rc = dcsim__xml_double(doc, pw, "limit-w", 1, &s->power_limit_w, err)) ||
      (rc = dcsim__xml_double(doc, pw, "idle-w", 1, &s->idle_w, err)) ||
      (rc = dcsim__xml_double(doc, pw, "active-idle-w", 0, &s->active_idle_w, err)))
    return rc;
  if (!(s->power_limit_w > s->idle_w) || s->active_idle_w >= s->power_limit_w)
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, pw,
                         "<power>: idle-w and active-idle-w must be below limit-w");
  if (!(s->power_limit_w <= DCSIM_POWER_MAX_W))
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, pw,
                         "<power limit-w=\"%g\">: above the plausible %g W of one power figure",
                         s->power_limit_w, DCSIM_POWER_MAX_W);
  if (s->active_idle_w > 0 && !dcsim__xml_attr(doc, pw, "active-idle-source"))
    return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, pw,
                         "<power>: active-idle-w needs active-idle-source");
  return 0;
}

int dcsim_gpu_profile_load(const char *path, dcsim_gpu_profile_t **out, dcsim_error *err) {
  dcsim_xml_doc_t *doc = NULL;
  dcsim_gpu_profile_t *p = calloc(1, sizeof *p);
  if (!p) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  int rc = dcsim__profile_open(path, "gpu-profile", &doc, &p->path, &p->name, &p->model, err);
  if (rc) goto out;
  xmlNode *root = dcsim__xml_root(doc);
  dcsim_gpu_spec *s = &p->spec;
  if ((rc = gpu_device(doc, dcsim__xml_child(root, "device"), p, err))) goto out;
  xmlNode *c = dcsim__xml_child(root, "characteristics");
  if (c) {
    if ((rc = gpu_characteristics(doc, c, p, err))) goto out;
  } else {
    gpu_derive_table10(s);
    if (!(p->source = dcsim_strdup(p->dev_source))) {
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
      goto out;
    }
  }
  xmlNode *adj = dcsim__xml_child(root, "global-efficiency-adjustment");
  if (adj) {
    s->has_ge_adjust = 1;
    if ((rc = dcsim__xml_double(doc, adj, "threshold", 1, &s->ge_threshold, err))) goto out;
    if ((rc = dcsim__xml_double(doc, adj, "below", 1, &s->ge_below, err))) goto out;
    if ((rc = dcsim__xml_double(doc, adj, "at-or-above", 1, &s->ge_at_or_above, err))) goto out;
    if (!(s->ge_below > 0) || !(s->ge_at_or_above > 0)) {
      rc = DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, adj,
                         "<global-efficiency-adjustment>: factors must be positive");
      goto out;
    }
  }
  xmlNode *sd = dcsim__xml_child(root, "small-domain");
  if (sd) {
    s->has_small_domain = 1;
    if ((rc = dcsim__xml_double(doc, sd, "launch-s", 1, &s->launch_s, err)) ||
        (rc = dcsim__xml_double(doc, sd, "saturation-threads-per-sm", 1,
                                &s->saturation_threads_per_sm, err)))
      goto out;
    if (!(s->saturation_threads_per_sm > 0)) {
      rc = DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, sd,
                         "<small-domain>: saturation-threads-per-sm must be positive");
      goto out;
    }
  }
  xmlNode *mem = dcsim__xml_child(root, "memory");
  if (mem && (rc = dcsim__xml_double(doc, mem, "byte", 1, &s->memory_byte, err))) goto out;
  xmlNode *hl = dcsim__xml_child(root, "host-link");
  if (hl && (rc = dcsim__xml_double(doc, hl, "bw-bps", 1, &s->host_link_bps, err))) goto out;
  if (hl && !(s->host_link_bps > 0)) {
    rc = DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, hl, "<host-link bw-bps>: must be positive");
    goto out;
  }
  xmlNode *ch = dcsim__xml_child(root, "cache-hierarchy");
  if (ch && (rc = load_gpu_levels(p, doc, ch, err))) goto out;
  if ((rc = gpu_links_power(doc, root, s, err))) goto out;
  if ((rc = gpu_launch_power_model(p, doc, root, err))) goto out;
  if ((rc = dcsim__price_load(doc, root, &p->price, err))) goto out;
  *out = p;
  p = NULL;
out:
  dcsim_gpu_profile_free(p);
  dcsim__xml_free(doc);
  return rc;
}

const char *dcsim_gpu_profile_name(const dcsim_gpu_profile_t *p) { return p->name; }
dcsim_hw_price dcsim_gpu_profile_price(const dcsim_gpu_profile_t *p) {
  return dcsim__price_public(&p->price);
}
const char *dcsim_gpu_profile_model(const dcsim_gpu_profile_t *p) { return p->model; }
const char *dcsim_gpu_profile_path(const dcsim_gpu_profile_t *p) { return p->path; }
const dcsim_gpu_spec *dcsim_gpu_profile_spec(const dcsim_gpu_profile_t *p) { return &p->spec; }

const char *dcsim_gpu_profile_source(const dcsim_gpu_profile_t *p) { return p->source; }
const char *dcsim_gpu_profile_device_source(const dcsim_gpu_profile_t *p) { return p->dev_source; }
const char *dcsim_gpu_profile_launch_borrowed_from(const dcsim_gpu_profile_t *p) {
  return p->launch_borrowed_from ? p->launch_borrowed_from : "";
}

const char *dcsim_gpu_profile_launch_source(const dcsim_gpu_profile_t *p) {
  return p->launch_source ? p->launch_source : "";
}
const char *dcsim_gpu_profile_power_model_source(const dcsim_gpu_profile_t *p) {
  return p->pm_source ? p->pm_source : "";
}
