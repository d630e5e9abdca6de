/* gpuarch.c — loading a GPU architecture file (see dcsim/gpuarch.h). */
#include "dcsim/gpuarch.h"

#include <stdio.h>
#include <string.h>

#include "util/xmlio.h"

static int copy_str(const dcsim_xml_doc_t *doc, xmlNode *n, const char *attr, char *dst,
                    size_t size, dcsim_error *err) {
  const char *v = NULL;
  int rc = dcsim__xml_str(doc, n, attr, 1, &v, err);
  if (rc) return rc;
  if (strlen(v) >= size)
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, n, "<gpu-arch %s>: longer than %zu characters",
                         attr, size - 1);
  memcpy(dst, v, strlen(v) + 1); /* fits: checked above */
  return 0;
}

static int read_throughput(const dcsim_xml_doc_t *doc, xmlNode *t, dcsim_gpu_arch *a,
                           dcsim_error *err) {
  struct {
    const char *attr;
    double *dst;
    int required;
  } f[] = { { "fp64", &a->fp64, 1 },
            { "fp32", &a->fp32, 1 },
            { "int-add", &a->int_add, 1 },
            { "int-mul", &a->int_mul, 0 },
            { "shift", &a->shift, 0 },
            { "compare", &a->compare, 0 },
            { "logic", &a->logic, 0 },
            { "special", &a->special, 0 },
            { "convert-64", &a->convert_64, 0 },
            { "convert", &a->convert, 0 } };
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
    int rc = dcsim__xml_double(doc, t, f[i].attr, f[i].required, f[i].dst, err);
    if (rc) return rc;
    if (f[i].required && !(*f[i].dst > 0))
      return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, t, "<throughput %s>: must be positive",
                           f[i].attr);
  }
  return 0;
}

static int read_occupancy(const dcsim_xml_doc_t *doc, xmlNode *o, dcsim_gpu_arch *a,
                          dcsim_error *err) {
  int rc;
  if ((rc = dcsim__xml_u32(doc, o, "warp-size", 1, &a->warp_size, err)) ||
      (rc = dcsim__xml_u32(doc, o, "max-threads-per-sm", 1, &a->max_threads_sm, err)) ||
      (rc = dcsim__xml_u32(doc, o, "max-blocks-per-sm", 1, &a->max_blocks_sm, err)) ||
      (rc = dcsim__xml_u32(doc, o, "max-warps-per-sm", 1, &a->max_warps_sm, err)) ||
      (rc = dcsim__xml_u32(doc, o, "registers-per-sm", 1, &a->registers_sm, err)) ||
      (rc = dcsim__xml_double(doc, o, "shared-memory-per-sm-byte", 1, &a->shared_memory_sm_byte,
                              err)))
    return rc;
  if (a->warp_size == 0 || a->max_threads_sm == 0 || a->max_blocks_sm == 0)
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, o, "<occupancy>: limits must be >= 1");
  return 0;
}

int dcsim_gpu_arch_load(const char *path, dcsim_gpu_arch *out, dcsim_error *err) {
  dcsim_xml_doc_t *doc = NULL;
  memset(out, 0, sizeof *out);
  int rc = dcsim__xml_load(path, "gpu-arch", &doc, err);
  if (rc) return rc;
  xmlNode *root = dcsim__xml_root(doc), *lat = dcsim__xml_child(root, "memory-latency");
  const char *lsrc = NULL;
  if ((rc = copy_str(doc, root, "name", out->name, sizeof out->name, err)) ||
      (rc = copy_str(doc, root, "family", out->family, sizeof out->family, err)) ||
      (rc = copy_str(doc, root, "compute-capability", out->cc, sizeof out->cc, err)) ||
      (rc = read_throughput(doc, dcsim__xml_child(root, "throughput"), out, err)) ||
      (rc = read_occupancy(doc, dcsim__xml_child(root, "occupancy"), out, err)) ||
      (rc = dcsim__xml_double(doc, lat, "cycles", 1, &out->memory_latency_cycles, err)) ||
      (rc = dcsim__xml_str(doc, lat, "source", 1, &lsrc, err)))
    goto out;
  if (!(out->memory_latency_cycles > 0))
    rc = DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, lat, "<memory-latency cycles>: must be positive");
  out->latency_assumed = strncmp(lsrc, "assumption", 10) == 0;
  xmlNode *il = dcsim__xml_child(root, "issue-latency");
  if (!rc && il &&
      !(rc = dcsim__xml_double(doc, il, "dependent-cycles", 1, &out->dep_issue_cycles, err)) &&
      !(out->dep_issue_cycles >= 1))
    rc =
        DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, il, "<issue-latency dependent-cycles>: must be >= 1");
  xmlNode *iw = dcsim__xml_child(root, "issue-width");
  if (!rc && iw &&
      !(rc = dcsim__xml_double(doc, iw, "warps-per-clock", 1, &out->issue_width, err)) &&
      !(out->issue_width > 0))
    rc = DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, iw, "<issue-width warps-per-clock>: must be > 0");
out:
  dcsim__xml_free(doc);
  return rc;
}
