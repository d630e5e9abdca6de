/* swfmap.c — SWF job -> dwarf rules (see dcsim/swfmap.h). */
#include "dcsim/swfmap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/strutil.h"
#include "util/xmlio.h"

void dcsim_swf_map_free(dcsim_swf_map *m) {
  if (!m) return;
  for (size_t i = 0; i < m->n_rules; i++) {
    dcsim_swf_rule *r = &m->rules[i];
    free(r->name);
    free(r->dwarf);
    free(r->case_name);
    for (size_t k = 0; k < r->n_sets; k++) free(r->sets[k].name);
    free(r->sets);
  }
  free(m->rules);
  free(m->name);
  free(m->path);
  free(m);
}

/* "job" -> job_value, else a whole number >= 1 */
static int job_or_count(const dcsim_xml_doc_t *doc, xmlNode *x, const char *attr,
                        unsigned job_value, unsigned *out, dcsim_error *err) {
  const char *v = dcsim__xml_attr(doc, x, attr);
  if (!v) return 0;
  if (strcmp(v, "job") == 0) {
    *out = job_value;
    return 0;
  }
  int rc = dcsim__xml_u32(doc, x, attr, 1, out, err);
  if (!rc && *out < 1)
    rc = DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, x, "<rule>: %s must be >= 1 or \"job\"", attr);
  return rc;
}

static int id_attr(const dcsim_xml_doc_t *doc, xmlNode *x, const char *attr, long long *out,
                   dcsim_error *err) {
  double v = -1;
  int rc = dcsim__xml_double(doc, x, attr, 0, &v, err);
  /* SWF ids are whole numbers (Feitelson's SWF definition: fields are integers, -1 = unknown);
   * 2^53 keeps every accepted id exact in a double and in range of long long */
  if (!rc && dcsim__xml_attr(doc, x, attr) && !(v >= 0 && v <= 9007199254740992.0 && v == floor(v)))
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, x,
                         "<rule name=\"%s\">: %s must be a whole number from 0 to 2^53 (an SWF id)",
                         dcsim__xml_attr(doc, x, "name"), attr);
  *out = rc ? -1 : (long long)v;
  return rc;
}

static int load_rule(const dcsim_xml_doc_t *doc, xmlNode *x, dcsim_swf_rule *r, dcsim_error *err) {
  const char *name = dcsim__xml_attr(doc, x, "name"), *dwarf = dcsim__xml_attr(doc, x, "dwarf");
  const char *cas = dcsim__xml_attr(doc, x, "case"), *dev = dcsim__xml_attr(doc, x, "device");
  int rc;
  r->line = (int)xmlGetLineNo(x);
  r->min_procs = r->max_procs = r->min_run_s = r->max_run_s = -1;
  if (!(r->name = dcsim_strdup(name)) || !(r->dwarf = dcsim_strdup(dwarf)) ||
      (cas && !(r->case_name = dcsim_strdup(cas))))
    return DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, x, "out of memory");
  r->device = !dev || strcmp(dev, "cpu") == 0 ? DCSIM_DEV_CPU
              : strcmp(dev, "gpu") == 0       ? DCSIM_DEV_GPU
                                              : DCSIM_DEV_ANY;
  if ((rc = job_or_count(doc, x, "nodes", 0, &r->nodes, err)) ||
      (rc = job_or_count(doc, x, "cores-per-node", DCSIM_SWF_RULE_JOB, &r->cores_per_node, err)) ||
      (rc = dcsim__xml_double(doc, x, "min-procs", 0, &r->min_procs, err)) ||
      (rc = dcsim__xml_double(doc, x, "max-procs", 0, &r->max_procs, err)) ||
      (rc = dcsim__xml_double(doc, x, "min-runtime-s", 0, &r->min_run_s, err)) ||
      (rc = dcsim__xml_double(doc, x, "max-runtime-s", 0, &r->max_run_s, err)) ||
      (rc = id_attr(doc, x, "queue", &r->queue, err)) ||
      (rc = id_attr(doc, x, "user", &r->user, err)) ||
      (rc = id_attr(doc, x, "group", &r->group, err)) ||
      (rc = id_attr(doc, x, "app", &r->app, err)) ||
      (rc = id_attr(doc, x, "partition", &r->partition, err)))
    return rc;
  if ((r->max_procs >= 0 && r->min_procs > r->max_procs) ||
      (r->max_run_s >= 0 && r->min_run_s > r->max_run_s))
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, x,
                         "<rule name=\"%s\">: a min- bound above its max- bound", name);
  if (r->device != DCSIM_DEV_CPU && r->nodes != 1)
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, x,
                         "<rule name=\"%s\">: a GPU call runs on one node: give nodes=\"1\"", name);
  size_t n = dcsim__xml_count(x, "set");
  if (n && !(r->sets = calloc(n, sizeof *r->sets)))
    return DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, x, "out of memory");
  for (xmlNode *s = dcsim__xml_child(x, "set"); s; s = dcsim__xml_next(s, "set")) {
    dcsim_param_set *p = &r->sets[r->n_sets];
    if ((rc = dcsim__xml_double(doc, s, "value", 1, &p->value, err))) return rc;
    if (!(p->name = dcsim_strdup(dcsim__xml_attr(doc, s, "name"))))
      return DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, s, "out of memory");
    r->n_sets++;
    for (size_t k = 0; k + 1 < r->n_sets; k++)
      if (strcmp(r->sets[k].name, p->name) == 0)
        return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, s, "<set name=\"%s\">: given twice", p->name);
  }
  return 0;
}

int dcsim_swf_map_load(const char *path, dcsim_swf_map **out, dcsim_error *err) {
  dcsim_xml_doc_t *doc = NULL;
  dcsim_swf_map *m = NULL;
  *out = NULL;
  int rc = dcsim__xml_load(path, "swf-map", &doc, err);
  if (rc) goto out;
  xmlNode *root = dcsim__xml_root(doc);
  size_t n = dcsim__xml_count(root, "rule");
  const char *um = dcsim__xml_attr(doc, root, "unmatched");
  if (!(m = calloc(1, sizeof *m)) || !(m->rules = calloc(n ? n : 1, sizeof *m->rules)) ||
      !(m->path = dcsim_strdup(path)) ||
      !(m->name = dcsim_strdup(dcsim__xml_attr(doc, root, "name")))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  m->skip_unmatched = um && strcmp(um, "skip") == 0;
  for (xmlNode *x = dcsim__xml_child(root, "rule"); x; x = dcsim__xml_next(x, "rule")) {
    dcsim_swf_rule *r = &m->rules[m->n_rules++];
    if ((rc = load_rule(doc, x, r, err))) goto out;
    for (size_t k = 0; k + 1 < m->n_rules; k++)
      if (strcmp(m->rules[k].name, r->name) == 0) {
        rc = DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, x,
                           "<rule name=\"%s\">: duplicate name (line %d)", r->name,
                           m->rules[k].line);
        goto out;
      }
  }
  *out = m;
  m = NULL;
out:
  dcsim_swf_map_free(m);
  dcsim__xml_free(doc);
  return rc;
}

long dcsim_swf_map_match(const dcsim_swf_map *m, const dcsim_swf_job *j, long long procs) {
  for (size_t i = 0; i < m->n_rules; i++) {
    const dcsim_swf_rule *r = &m->rules[i];
    if (r->min_procs >= 0 && procs < r->min_procs) continue;
    if (r->max_procs >= 0 && procs > r->max_procs) continue;
    if (r->min_run_s >= 0 && j->run_s < r->min_run_s) continue;
    if (r->max_run_s >= 0 && j->run_s > r->max_run_s) continue;
    if ((r->queue >= 0 && j->queue != r->queue) || (r->user >= 0 && j->user != r->user) ||
        (r->group >= 0 && j->group != r->group) || (r->app >= 0 && j->app != r->app) ||
        (r->partition >= 0 && j->partition != r->partition))
      continue;
    return (long)i;
  }
  return -1;
}
