/* wmsconf.c — workflow management system descriptions (see dcsim/wmsconf.h). */
#include "dcsim/wmsconf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/xmlio.h"

static const char *const param_names[DCSIM_WMS_N_PARAMS] = {
  "dagman-start-s", "dagman-cycle-s", "max-submits-per-cycle", "submit-s",
  "max-jobs",       "max-idle",       "pre-script-s",          "max-pre",
  "post-script-s",  "max-post",       "negotiator-cycle-s",    "matches-per-machine",
  "job-wrapper-s",  "worker-nic-bps", "staging-bps",           "input-bps",
  "aux-job-s",      "claim-reuse",    "claim-worklife-s",      "file-s",
  "job-priorities",
};

const char *dcsim_wms_param_name(dcsim_wms_param k) {
  return (unsigned)k < DCSIM_WMS_N_PARAMS ? param_names[k] : NULL;
}

int dcsim_wms_param_find(const char *name) {
  for (int k = 0; k < DCSIM_WMS_N_PARAMS; k++)
    if (strcmp(param_names[k], name) == 0) return k;
  return -1;
}

int dcsim_wms_param_is_count(dcsim_wms_param k) {
  return k == DCSIM_WMS_MAX_SUBMITS_PER_CYCLE || k == DCSIM_WMS_MAX_JOBS ||
         k == DCSIM_WMS_MAX_IDLE || k == DCSIM_WMS_MAX_PRE || k == DCSIM_WMS_MAX_POST ||
         k == DCSIM_WMS_MATCHES_PER_MACHINE || k == DCSIM_WMS_CLAIM_REUSE ||
         k == DCSIM_WMS_JOB_PRIORITIES;
}

static int is_bandwidth(int k) {
  size_t l = strlen(param_names[k]);
  return l > 4 && strcmp(param_names[k] + l - 4, "-bps") == 0;
}

const char *dcsim_wms_data_name(dcsim_wms_data d) {
  return d == DCSIM_WMS_SHAREDFS   ? "sharedfs"
         : d == DCSIM_WMS_CONDORIO ? "condorio"
                                   : "nonsharedfs";
}

void dcsim_wms_conf_free(dcsim_wms_conf *c) {
  if (!c) return;
  for (size_t i = 0; i < c->n_profiles; i++) {
    dcsim_wms_profile *p = &c->profiles[i];
    free(p->name);
    free(p->runtime_system);
    free(p->version_prefix);
    free(p->band_source);
    free(p->description);
    for (int k = 0; k < DCSIM_WMS_N_PARAMS; k++) free(p->source[k]);
  }
  free(c->profiles);
  free(c->name);
  free(c->path);
  free(c);
}

/* One <param> into profile p (given: the parameters already set at this level). */
static int load_param(const dcsim_xml_doc_t *doc, xmlNode *x, dcsim_wms_profile *p, int *given,
                      dcsim_error *err) {
  const char *name = dcsim__xml_attr(doc, x, "name"), *src = dcsim__xml_attr(doc, x, "source");
  int k = dcsim_wms_param_find(name), rc;
  if (k < 0) return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, x, "<param>: unknown name '%s'", name);
  if (given[k])
    return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, x, "<param name=\"%s\">: given twice", name);
  given[k] = 1;
  double v = 0, steps = 0;
  dcsim_wms_fit f = { 0, 0, 0 };
  if ((rc = dcsim__xml_double(doc, x, "value", 1, &v, err)) ||
      (rc = dcsim__xml_double(doc, x, "fit-min", 0, &f.min, err)) ||
      (rc = dcsim__xml_double(doc, x, "fit-max", 0, &f.max, err)) ||
      (rc = dcsim__xml_double(doc, x, "fit-steps", 0, &steps, err)))
    return rc;
  if (dcsim_wms_param_is_count(k) && (v != floor(v) || v > 1e9))
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, x, "<param name=\"%s\">: %g is not a count", name,
                         v);
  if ((k == DCSIM_WMS_CLAIM_REUSE || k == DCSIM_WMS_JOB_PRIORITIES) && v > 1)
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, x, "<param name=\"%s\">: 0 (off) or 1 (on)", name);
  if ((k == DCSIM_WMS_DAGMAN_CYCLE_S || k == DCSIM_WMS_NEGOTIATOR_CYCLE_S) && !(v > 0))
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, x, "<param name=\"%s\">: a cycle must be > 0 s",
                         name);
  if (v > 1e15 || (!is_bandwidth(k) && !dcsim_wms_param_is_count(k) && v > 1e6))
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, x, "<param name=\"%s\">: %g is out of range", name,
                         v);
  int fitted = strncmp(src, "fitted", 6) == 0;
  int has_grid = dcsim__xml_attr(doc, x, "fit-steps") != NULL;
  if (fitted != has_grid)
    return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, x,
                         "<param name=\"%s\">: a fitted value (source=\"fitted...\") needs its "
                         "grid (fit-min, fit-max, fit-steps) and only a fitted one has one",
                         name);
  if (has_grid && (steps < 2 || steps > 10000 || steps != floor(steps) || !(f.min <= f.max) ||
                   (is_bandwidth(k) && !(f.min > 0)) || dcsim_wms_param_is_count(k)))
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, x,
                         "<param name=\"%s\">: fit grid needs 2 to 10000 steps, fit-min <= "
                         "fit-max (> 0 for a bandwidth) and a parameter that is not a count",
                         name);
  f.steps = (unsigned)steps;
  free(p->source[k]);
  if (!(p->source[k] = dcsim_strdup(src)))
    return DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, x, "out of memory");
  p->p.v[k] = v;
  p->fit[k] = f;
  p->line[k] = (int)xmlGetLineNo(x);
  return 0;
}

/* The <param>s under node into p; set[] marks what p has (shared values first). */
static int load_params(const dcsim_xml_doc_t *doc, xmlNode *node, dcsim_wms_profile *p, int *set,
                       dcsim_error *err) {
  int given[DCSIM_WMS_N_PARAMS] = { 0 }, rc;
  for (xmlNode *x = dcsim__xml_child(node, "param"); x; x = dcsim__xml_next(x, "param")) {
    if ((rc = load_param(doc, x, p, given, err))) return rc;
  }
  for (int k = 0; k < DCSIM_WMS_N_PARAMS; k++) set[k] |= given[k];
  return 0;
}

/* A <profile>: the shared values, then its own; every parameter must end up valued. */
static int load_profile(const dcsim_xml_doc_t *doc, xmlNode *x, const dcsim_wms_profile *shared,
                        const int *shared_set, dcsim_wms_profile *p, dcsim_error *err) {
  int set[DCSIM_WMS_N_PARAMS], rc;
  memcpy(set, shared_set, sizeof set);
  p->p = shared->p;
  memcpy(p->fit, shared->fit, sizeof p->fit);
  memcpy(p->line, shared->line, sizeof p->line);
  p->profile_line = (int)xmlGetLineNo(x);
  for (int k = 0; k < DCSIM_WMS_N_PARAMS; k++)
    if (shared->source[k] && !(p->source[k] = dcsim_strdup(shared->source[k])))
      return DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, x, "out of memory");
  const char *data = dcsim__xml_attr(doc, x, "data");
  p->p.data = strcmp(data, "sharedfs") == 0   ? DCSIM_WMS_SHAREDFS
              : strcmp(data, "condorio") == 0 ? DCSIM_WMS_CONDORIO
                                              : DCSIM_WMS_NONSHAREDFS;
  if (!(p->name = dcsim_strdup(dcsim__xml_attr(doc, x, "name"))) ||
      !(p->runtime_system = dcsim_strdup(dcsim__xml_attr(doc, x, "runtime-system"))) ||
      !(p->version_prefix = dcsim_strdup(dcsim__xml_attr(doc, x, "version-prefix"))))
    return DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, x, "out of memory");
  double cores = 0;
  if ((rc = dcsim__xml_double(doc, x, "machine-cores", 0, &cores, err)) ||
      (rc = dcsim__xml_double(doc, x, "band", 0, &p->band_rel, err)))
    return rc;
  if (cores != floor(cores) || cores > 1e6)
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, x,
                         "<profile>: machine-cores %g is not a whole number of cores", cores);
  p->machine_cores = (unsigned)cores;
  const char *bsrc = dcsim__xml_attr(doc, x, "band-source");
  if ((p->band_rel > 0) != (bsrc != NULL) || p->band_rel >= 10)
    return DCSIM_XML_ERR(
        err, DCSIM_ESCHEMA, doc, x,
        "<profile>: a band (> 0 and < 10: mk / (1 + band) .. mk x (1 + band)) needs its "
        "band-source, and a band-source its band");
  const char *desc = dcsim__xml_attr(doc, x, "description");
  if (desc && !(p->description = dcsim_strdup(desc)))
    return DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, x, "out of memory");
  if (bsrc && !(p->band_source = dcsim_strdup(bsrc)))
    return DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, x, "out of memory");
  if ((rc = load_params(doc, x, p, set, err))) return rc;
  for (int k = 0; k < DCSIM_WMS_N_PARAMS; k++)
    if (!set[k])
      return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, x,
                           "<profile name=\"%s\">: no value for %s (give it here or at the top "
                           "level)",
                           p->name, param_names[k]);
  return 0;
}

/* The profiles of the document's root, and the default one. */
static int load_profiles(const dcsim_xml_doc_t *doc, xmlNode *root, dcsim_wms_conf *c,
                         dcsim_error *err) {
  dcsim_wms_profile shared;
  int set[DCSIM_WMS_N_PARAMS] = { 0 }, rc;
  memset(&shared, 0, sizeof shared);
  rc = load_params(doc, root, &shared, set, err);
  for (xmlNode *x = dcsim__xml_child(root, "profile"); x && !rc;
       x = dcsim__xml_next(x, "profile")) {
    dcsim_wms_profile *p = &c->profiles[c->n_profiles++];
    if ((rc = load_profile(doc, x, &shared, set, p, err))) break;
    for (size_t i = 0; i + 1 < c->n_profiles && !rc; i++)
      if (strcmp(c->profiles[i].name, p->name) == 0)
        rc = DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, x,
                           "<profile name=\"%s\">: duplicate name (line %d)", p->name,
                           c->profiles[i].profile_line);
  }
  for (int k = 0; k < DCSIM_WMS_N_PARAMS; k++) free(shared.source[k]);
  if (rc) return rc;
  const char *def = dcsim__xml_attr(doc, root, "default-profile");
  for (size_t i = 0; i < c->n_profiles; i++)
    if (strcmp(c->profiles[i].name, def) == 0) {
      c->default_profile = i;
      return 0;
    }
  return DCSIM_XML_ERR(err, DCSIM_EREF, doc, root, "<wms>: default-profile '%s' is not a profile",
                       def);
}

int dcsim_wms_conf_load(const char *path, dcsim_wms_conf **out, dcsim_error *err) {
  dcsim_xml_doc_t *doc = NULL;
  dcsim_wms_conf *c = NULL;
  *out = NULL;
  int rc = dcsim__xml_load(path, "wms", &doc, err);
  if (rc) goto out;
  xmlNode *root = dcsim__xml_root(doc);
  size_t n = dcsim__xml_count(root, "profile");
  if (!(c = calloc(1, sizeof *c)) || !(c->profiles = calloc(n ? n : 1, sizeof *c->profiles)) ||
      !(c->path = dcsim_strdup(path)) ||
      !(c->name = dcsim_strdup(dcsim__xml_attr(doc, root, "name")))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  if ((rc = load_profiles(doc, root, c, err))) goto out;
  *out = c;
  c = NULL;
out:
  dcsim_wms_conf_free(c);
  dcsim__xml_free(doc);
  return rc;
}

const dcsim_wms_profile *dcsim_wms_conf_select(const dcsim_wms_conf *c, const char *system,
                                               const char *version, unsigned machine_cores) {
  if (!system || !*system) return &c->profiles[c->default_profile];
  int named = 0;
  for (size_t i = 0; i < c->n_profiles; i++) {
    const dcsim_wms_profile *p = &c->profiles[i];
    if (strcasecmp(p->runtime_system, system) != 0) continue;
    named = 1;
    if (p->machine_cores && p->machine_cores != machine_cores) continue;
    if (version && strncmp(version, p->version_prefix, strlen(p->version_prefix)) == 0) return p;
  }
  return named ? &c->profiles[c->default_profile] : NULL;
}
