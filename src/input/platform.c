/* platform.c — loading a data-centre description (see dcsim/platform.h). */
#include "dcsim/platform.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/hwprofile.h"
#include "dcsim/strutil.h"
#include "util/xmlio.h"

void dcsim_platform_free(dcsim_platform *p) {
  if (!p) return;
  for (size_t i = 0; i < p->n_groups; i++) {
    dcsim_node_group *g = &p->groups[i];
    free(g->name);
    free(g->cpu);
    free(g->gpu);
    free(g->rack);
  }
  free(p->groups);
  free(p->wms);
  free(p->name);
  free(p->path);
  free(p);
}

long dcsim_platform_find_group(const dcsim_platform *p, const char *name) {
  for (size_t i = 0; i < p->n_groups; i++)
    if (strcmp(p->groups[i].name, name) == 0) return (long)i;
  return -1;
}

/* A profile reference: bare names stay as they are, "*.xml" paths are resolved. */
static char *profile_ref(const char *platform_path, const char *ref) {
  size_t n = strlen(ref);
  if (n > 4 && strcmp(ref + n - 4, ".xml") == 0) return dcsim_path_join(platform_path, ref);
  return dcsim_strdup(ref);
}

static int load_group(const dcsim_xml_doc_t *doc, xmlNode *node, dcsim_node_group *g,
                      dcsim_error *err) {
  const char *name = NULL, *cpu = NULL, *gpu = NULL, *rack = NULL;
  const char *path = dcsim__xml_path(doc);
  int rc;
  if ((rc = dcsim__xml_str(doc, node, "name", 1, &name, err)) ||
      (rc = dcsim__xml_u32(doc, node, "count", 1, &g->count, err)) ||
      (rc = dcsim__xml_str(doc, node, "cpu", 1, &cpu, err)) ||
      (rc = dcsim__xml_u32(doc, node, "sockets", 1, &g->sockets, err)) ||
      (rc = dcsim__xml_u32(doc, node, "cores", 0, &g->cores, err)) ||
      (rc = dcsim__xml_double(doc, node, "memory-byte", 0, &g->memory_byte, err)) ||
      (rc = dcsim__xml_str(doc, node, "gpu", 0, &gpu, err)) ||
      (rc = dcsim__xml_u32(doc, node, "gpus-per-node", 0, &g->gpus_per_node, err)) ||
      (rc = dcsim__xml_str(doc, node, "rack", 0, &rack, err)))
    return rc;
  g->line = (int)xmlGetLineNo(node);
  if (!(g->name = dcsim_strdup(name)) || !(g->cpu = profile_ref(path, cpu)) ||
      (gpu && !(g->gpu = profile_ref(path, gpu))) || (rack && !(g->rack = dcsim_strdup(rack))))
    return DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, node, "out of memory");
  if (g->count < 1)
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, node,
                         "<node-group name=\"%s\">: count must be >= 1", name);
  if (g->sockets < 1)
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, node,
                         "<node-group name=\"%s\">: sockets must be >= 1", name);
  if (gpu && g->gpus_per_node < 1)
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, node,
                         "<node-group name=\"%s\">: gpu needs gpus-per-node >= 1", name);
  if (!gpu && g->gpus_per_node > 0)
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, node,
                         "<node-group name=\"%s\">: gpus-per-node without gpu", name);
  xmlNode *ps = dcsim__xml_child(node, "power-states");
  if (ps) {
    g->has_power_states = 1;
    if ((rc = dcsim__xml_double(doc, ps, "off-w", 1, &g->off_w, err)) ||
        (rc = dcsim__xml_double(doc, ps, "boot-s", 1, &g->boot_s, err)) ||
        (rc = dcsim__xml_double(doc, ps, "boot-j", 1, &g->boot_j, err)) ||
        (rc = dcsim__xml_double(doc, ps, "shutdown-s", 1, &g->shutdown_s, err)) ||
        (rc = dcsim__xml_double(doc, ps, "shutdown-j", 1, &g->shutdown_j, err)))
      return rc;
  }
  xmlNode *np = dcsim__xml_child(node, "node-power");
  if (np) {
    g->has_node_power = 1;
    if ((rc = dcsim__xml_double(doc, np, "base-w", 1, &g->node_base_w, err)) ||
        (rc = dcsim__xml_double(doc, np, "load-overhead", 1, &g->node_load_overhead, err)))
      return rc;
    if (!(g->node_base_w >= 0 && g->node_base_w <= DCSIM_POWER_MAX_W) ||
        !(g->node_load_overhead >= 0 && g->node_load_overhead <= 1e3))
      return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, np,
                           "<node-power>: base-w must be 0 to %g W (dcsim/hwprofile.h) and "
                           "load-overhead 0 to 1000",
                           DCSIM_POWER_MAX_W);
  }
  return 0;
}

/* The rules a platform's groups obey, whether loaded or built: g (the last of p's groups so far)
 * takes the next g->count node numbers, and the platform has at most DCSIM_PLATFORM_MAX_NODES
 * nodes (an error at file:line). *dup: the index of an earlier group named as g (then nothing is
 * numbered, the caller reports it), else -1. */
static int place_group(dcsim_platform *p, dcsim_node_group *g, uint64_t *nodes, long *dup,
                       const char *file, int line, dcsim_error *err) {
  *dup = -1;
  for (size_t k = 0; k + 1 < p->n_groups && *dup < 0; k++)
    if (strcmp(p->groups[k].name, g->name) == 0) *dup = (long)k;
  if (*dup >= 0) return 0;
  g->first_node = (unsigned)*nodes;
  *nodes += g->count;
  if (*nodes > DCSIM_PLATFORM_MAX_NODES)
    return DCSIM_ERR(err, DCSIM_ERANGE, file, line, "more than %u nodes in the platform",
                     DCSIM_PLATFORM_MAX_NODES);
  return 0;
}

int dcsim_platform_load(const char *path, dcsim_platform **out, dcsim_error *err) {
  dcsim_xml_doc_t *doc = NULL;
  dcsim_platform *p = NULL;
  const char *name = NULL;
  *out = NULL;
  int rc = dcsim__xml_load(path, "platform", &doc, err);
  if (rc) goto out;
  xmlNode *root = dcsim__xml_root(doc);
  size_t n = dcsim__xml_count(root, "node-group");
  p = calloc(1, sizeof *p);
  if (!p || !(p->groups = calloc(n, sizeof *p->groups))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  if ((rc = dcsim__xml_str(doc, root, "name", 1, &name, err))) goto out;
  const char *wms = dcsim__xml_attr(doc, root, "wms");
  if (!(p->path = dcsim_strdup(path)) || !(p->name = dcsim_strdup(name)) ||
      (wms && !(p->wms = dcsim_strdup(wms)))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  xmlNode *net = dcsim__xml_child(root, "network");
  if (net) {
    if ((rc = dcsim__xml_double(doc, net, "bw-bps", 1, &p->net_bw_bps, err)) ||
        (rc = dcsim__xml_double(doc, net, "latency-s", 1, &p->net_latency_s, err)))
      goto out;
    if (p->net_bw_bps <= 0) {
      rc = DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, net, "<network>: bw-bps must be > 0");
      goto out;
    }
  }
  for (xmlNode *r = dcsim__xml_child(root, "rack"); r; r = dcsim__xml_next(r, "rack")) {
    const char *rn = dcsim__xml_attr(doc, r, "name");
    for (xmlNode *q = dcsim__xml_child(root, "rack"); q != r; q = dcsim__xml_next(q, "rack"))
      if (strcmp(dcsim__xml_attr(doc, q, "name"), rn) == 0) {
        rc =
            DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, r,
                          "<rack name=\"%s\">: duplicate name (line %d)", rn, (int)xmlGetLineNo(q));
        goto out;
      }
  }
  uint64_t nodes = 0;
  for (xmlNode *gn = dcsim__xml_child(root, "node-group"); gn;
       gn = dcsim__xml_next(gn, "node-group")) {
    dcsim_node_group *g = &p->groups[p->n_groups++];
    if ((rc = load_group(doc, gn, g, err))) goto out;
    if (g->rack) {
      xmlNode *r = dcsim__xml_child(root, "rack");
      while (r && strcmp(dcsim__xml_attr(doc, r, "name"), g->rack) != 0)
        r = dcsim__xml_next(r, "rack");
      if (!r) {
        rc = DCSIM_XML_ERR(err, DCSIM_EREF, doc, gn, "<node-group name=\"%s\">: unknown rack '%s'",
                           g->name, g->rack);
        goto out;
      }
    }
    long dup;
    if ((rc = place_group(p, g, &nodes, &dup, dcsim__xml_path(doc), (int)xmlGetLineNo(gn), err)))
      goto out;
    if (dup >= 0) {
      rc = DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, gn,
                         "<node-group name=\"%s\">: duplicate name (line %d)", g->name,
                         p->groups[dup].line);
      goto out;
    }
  }
  p->n_nodes = (unsigned)nodes;
  *out = p;
  p = NULL;
out:
  dcsim_platform_free(p);
  dcsim__xml_free(doc);
  return rc;
}

int dcsim_platform_build(const char *name, const dcsim_node_group *groups, size_t n_groups,
                         double net_bw_bps, double net_latency_s, dcsim_platform **out,
                         dcsim_error *err) {
  int rc = 0;
  *out = NULL;
  dcsim_platform *p = calloc(1, sizeof *p);
  if (!p || !(p->groups = calloc(n_groups ? n_groups : 1, sizeof *p->groups)) ||
      !(p->path = dcsim_strdup(name)) || !(p->name = dcsim_strdup(name))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, name, 0, "out of memory");
    goto out;
  }
  if (!n_groups) {
    rc = DCSIM_ERR(err, DCSIM_ESCHEMA, name, 0, "a platform needs at least one node group");
    goto out;
  }
  if (!(net_bw_bps >= 0) || !(net_latency_s >= 0) || net_bw_bps > 1e30 || net_latency_s > 1e30) {
    rc = DCSIM_ERR(err, DCSIM_ERANGE, name, 0,
                   "<network>: bw-bps and latency-s must be finite and >= 0");
    goto out;
  }
  p->net_bw_bps = net_bw_bps;
  p->net_latency_s = net_latency_s;
  uint64_t nodes = 0;
  for (size_t i = 0; i < n_groups; i++) {
    const dcsim_node_group *src = &groups[i];
    dcsim_node_group *g = &p->groups[p->n_groups++];
    *g = *src;
    g->name = g->cpu = g->gpu = g->rack = NULL;
    if (!src->name || !src->cpu) {
      rc = DCSIM_ERR(err, DCSIM_ESCHEMA, name, src->line, "<node-group>: needs a name and a cpu");
      goto out;
    }
    if (!(g->name = dcsim_strdup(src->name)) || !(g->cpu = dcsim_strdup(src->cpu)) ||
        (src->gpu && !(g->gpu = dcsim_strdup(src->gpu))) ||
        (src->rack && !(g->rack = dcsim_strdup(src->rack)))) {
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, name, 0, "out of memory");
      goto out;
    }
    if (g->count < 1 || g->sockets < 1 || (g->gpu != NULL) != (g->gpus_per_node > 0)) {
      rc = DCSIM_ERR(err, DCSIM_ERANGE, name, src->line,
                     "<node-group name=\"%s\">: count and sockets must be >= 1, gpus-per-node >= 1 "
                     "exactly with a gpu",
                     g->name);
      goto out;
    }
    long dup;
    if ((rc = place_group(p, g, &nodes, &dup, name, src->line, err))) goto out;
    if (dup >= 0) {
      rc = DCSIM_ERR(err, DCSIM_ESCHEMA, name, src->line,
                     "<node-group name=\"%s\">: duplicate name", g->name);
      goto out;
    }
  }
  p->n_nodes = (unsigned)nodes;
  *out = p;
  p = NULL;
out:
  dcsim_platform_free(p);
  return rc;
}
