/* hwprofile_power.c — <power-spec> and <power-model> of a CPU profile (dcsim/hwprofile_power.h). */
#include "dcsim/hwprofile_power.h"

#include <stdlib.h>
#include <string.h>

#include "input/internal.h"

void dcsim_cpu_power_model_release(dcsim_cpu_power_model *m) {
  if (!m) return;
  free(m->spec_source);
  free(m->source);
  free(m->pkg_source);
  free(m->dram_source);
  free(m->node_source);
  memset(m, 0, sizeof *m);
}

/* A copy of the element's source= into *out. */
static int copy_source(const dcsim_xml_doc_t *doc, xmlNode *n, char **out, dcsim_error *err) {
  const char *s = NULL;
  int rc = dcsim__xml_str(doc, n, "source", 1, &s, err);
  if (rc) return rc;
  if (!(*out = dcsim_strdup(s))) return DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, n, "out of memory");
  return 0;
}

/* DRAM energy per byte is about 3e-10 J (D3.5 Tables 35 and 29: 2.989e-10); 10^-6 J is
 * 10^3 x beyond any memory. The factors (voltage-slope 0.5, load-overhead 0.207 in the shipped
 * profiles) at most 10^3. */
#define MAX_J_PER_BYTE 1e-6
#define MAX_FACTOR     1e3

/* A required attribute that must be >= 0 (the schema says so; checked again for built files) and,
 * at most DCSIM_POWER_MAX_W for a power (a name ending in -w), MAX_J_PER_BYTE or MAX_FACTOR. */
static int nonneg(const dcsim_xml_doc_t *doc, xmlNode *n, const char *name, double *out,
                  dcsim_error *err) {
  int rc = dcsim__xml_double(doc, n, name, 1, out, err);
  if (rc) return rc;
  if (!(*out >= 0))
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, n, "<%s>: %s must be >= 0", (const char *)n->name,
                         name);
  size_t l = strlen(name);
  int watts = l > 2 && strcmp(name + l - 2, "-w") == 0, jpb = strcmp(name, "j-per-byte") == 0;
  double hi = watts ? DCSIM_POWER_MAX_W : jpb ? MAX_J_PER_BYTE : MAX_FACTOR;
  if (*out > hi)
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, n, "<%s %s=\"%g\">: above the plausible %g%s",
                         (const char *)n->name, name, *out, hi,
                         watts ? " W of one power figure"
                         : jpb ? " J per byte of DRAM traffic"
                               : " of a dimensionless factor");
  return 0;
}

static int load_package(const dcsim_xml_doc_t *doc, xmlNode *pk, unsigned cores,
                        dcsim_cpu_power_model *m, dcsim_error *err) {
  int rc;
  if ((rc = nonneg(doc, pk, "idle-w", &m->pkg_idle_w, err)) ||
      (rc = nonneg(doc, pk, "awake-w", &m->pkg_awake_w, err)) ||
      (rc = nonneg(doc, pk, "voltage-slope", &m->voltage_slope, err)) ||
      (rc = copy_source(doc, pk, &m->pkg_source, err)))
    return rc;
  double idle = m->pkg_idle_w + m->pkg_awake_w;
  if (m->has_spec && !(m->tdp_w > m->pkg_idle_w))
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, pk,
                         "<package>: the TDP of %g W (<power-spec>) is not above the idle package "
                         "power of %g W",
                         m->tdp_w, m->pkg_idle_w);
  if (m->has_spec && !(m->tdp_w > idle))
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, pk,
                         "<package>: the TDP of %g W (<power-spec>) leaves no power for the cores "
                         "above idle %g W + awake %g W",
                         m->tdp_w, m->pkg_idle_w, m->pkg_awake_w);
  if (dcsim__xml_attr(doc, pk, "core-w")) return nonneg(doc, pk, "core-w", &m->core_w, err);
  /* a package at its TDP runs every core at the nominal frequency under full load */
  if (!m->has_spec)
    return DCSIM_XML_ERR(err, DCSIM_EREF, doc, pk,
                         "<package>: without core-w the per-core power comes from the TDP, and "
                         "the profile has no <power-spec tdp-w>");
  m->core_w = (m->tdp_w - idle) / cores;
  m->core_from_tdp = 1;
  return 0;
}

static int load_model(const dcsim_xml_doc_t *doc, xmlNode *pm, unsigned cores,
                      dcsim_cpu_power_model *m, dcsim_error *err) {
  const char *basis = dcsim__xml_attr(doc, pm, "basis");
  m->basis = basis && strcmp(basis, "spec") == 0 ? DCSIM_PROV_SPEC : DCSIM_PROV_EXTRAPOLATED;
  int rc = copy_source(doc, pm, &m->source, err);
  if (rc) return rc;
  xmlNode *pk = dcsim__xml_child(pm, "package"), *dr = dcsim__xml_child(pm, "dram"),
          *nd = dcsim__xml_child(pm, "node");
  if (!pk || !dr || !nd)
    return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, pm,
                         "<power-model>: needs <package>, <dram> and <node>");
  if ((rc = load_package(doc, pk, cores, m, err))) return rc;
  if ((rc = nonneg(doc, dr, "idle-w", &m->dram_idle_w, err)) ||
      (rc = nonneg(doc, dr, "j-per-byte", &m->dram_j_per_byte, err)) ||
      (rc = copy_source(doc, dr, &m->dram_source, err)) ||
      (rc = nonneg(doc, nd, "base-w", &m->node_base_w, err)) ||
      (rc = nonneg(doc, nd, "load-overhead", &m->node_load_overhead, err)) ||
      (rc = copy_source(doc, nd, &m->node_source, err)))
    return rc;
  m->has_model = 1;
  return 0;
}

int dcsim__cpu_power_model_load(const dcsim_xml_doc_t *doc, xmlNode *root,
                                unsigned cores_per_socket, size_t n_energy_tables,
                                dcsim_cpu_power_model *m, dcsim_error *err) {
  memset(m, 0, sizeof *m);
  int rc;
  xmlNode *ps = dcsim__xml_child(root, "power-spec");
  if (ps) {
    if ((rc = nonneg(doc, ps, "tdp-w", &m->tdp_w, err)) ||
        (rc = copy_source(doc, ps, &m->spec_source, err)))
      return rc;
    if (!(m->tdp_w > 0))
      return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, ps, "<power-spec>: tdp-w must be positive");
    m->has_spec = 1;
  }
  xmlNode *pm = dcsim__xml_child(root, "power-model");
  if (!pm) return 0;
  if (cores_per_socket == 0)
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, pm, "<power-model>: the profile has no cores");
  /* the label follows the data: a model labelled fitted is printed as a RAPL fit with
   * its band, so it must carry the measured power it was fitted on, the profile's <energy> tables
   * (as calibrate cpu writes them beside the fit); a model written by hand from datasheet
   * figures is basis="spec" */
  const char *basis = dcsim__xml_attr(doc, pm, "basis");
  if (basis && strcmp(basis, "fitted") == 0 && n_energy_tables == 0)
    return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, pm,
                         "<power-model basis=\"fitted\">: the profile has no <energy> table, the "
                         "measured (RAPL) power a fit is made on; give the measurements it was "
                         "fitted on, or write basis=\"spec\" for a model from datasheet figures");
  return load_model(doc, pm, cores_per_socket, m, err);
}
