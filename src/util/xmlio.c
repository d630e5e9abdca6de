/* xmlio.c — safe XML loading, schema validation and typed attribute access (see util/xmlio.h). */
#include "util/xmlio.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/xmlschemas.h>

#include "dcsim/strutil.h"
#include "util/xmlmsg.h"

#include "util/fileio.h"

struct dcsim_embedded_schema {
  const char *name;
  const char *text;
  size_t len;
};
extern const struct dcsim_embedded_schema dcsim_embedded_schemas[];

struct dcsim_xml_doc {
  xmlDocPtr doc;
  char *path;
};

/* XML inputs: 256 MiB at most */
static const dcsim_file_rules xml_rules = { 256u * 1024 * 1024, "input larger than 268435456 bytes",
                                            NULL, 1 };

static int read_file(const char *path, char **buf, size_t *len, dcsim_error *err) {
  int rc = dcsim__file_read(path, &xml_rules, buf, len, err);
  if (rc == DCSIM_ENOMEM) dcsim_error_suffix(err, " reading file"); /* XML's own wording */
  return rc;
}

static const struct dcsim_embedded_schema *find_schema(const char *root) {
  for (const struct dcsim_embedded_schema *s = dcsim_embedded_schemas; s->name; s++)
    if (strcmp(s->name, root) == 0) return s;
  return NULL;
}

typedef struct {
  dcsim_error *err;
  const char *path;
  int set;
  int code;
  dcsim_xml_report_fn report; /* NULL: the first error only */
  void *report_ctx;
  size_t n_reported, max_report;
} verr_state;

/* Every error libxml2 reports: the first is recorded in *err (in plain words, util/xmlmsg.h);
 * with a report callback (dcsim__xml_check_file) each one is passed on as well. */
static void on_structured_error(void *ctx, xmlErrorPtr e) {
  verr_state *st = ctx;
  if (!e || e->level < XML_ERR_ERROR) return;
  if (st->set && !st->report) return;
  const char *raw = e->message ? e->message : "invalid";
  char *plain = dcsim__xml_plain_message(raw);
  const char *msg = plain ? plain : raw; /* out of memory: libxml2's own words */
  if (st->report) {
    dcsim_error one;
    memset(&one, 0, sizeof one);
    DCSIM_ERR(&one, st->code, st->path, e->line, "%s", msg);
    if (st->n_reported++ < st->max_report) st->report(st->report_ctx, &one);
  }
  if (!st->set) {
    st->set = 1;
    DCSIM_ERR(st->err, st->code, st->path, e->line, "%s", msg);
  }
  free(plain);
}

/* Structured error callback of the parser: libxml2 passes the parser context as data. */
static void on_parser_error(void *data, xmlErrorPtr e) {
  xmlParserCtxtPtr ctxt = data;
  if (ctxt && ctxt->_private) on_structured_error(ctxt->_private, e);
}

/* Reject DOCTYPE declarations before libxml2 sees them: no DTD, no entities, no XXE. dcsim inputs
 * are UTF-8 text, so a NUL byte (UTF-16, UTF-32, binary) is refused too: the text search below
 * would stop at it. (A DOCTYPE the search misses, e.g. in EBCDIC, stops the parser: on_doctype.) */
static int reject_doctype(const char *path, const char *buf, size_t len, dcsim_error *err) {
  const char *nul = memchr(buf, '\0', len);
  if (nul) {
    int line = 1;
    for (const char *q = buf; q < nul; q++) line += (*q == '\n');
    return DCSIM_ERR(err, DCSIM_EPARSE, path, line,
                     "NUL byte: dcsim inputs are UTF-8 text (not UTF-16 or binary)");
  }
  const char *p = strstr(buf, "<!DOCTYPE");
  if (!p) p = strstr(buf, "<!ENTITY");
  if (!p) return 0;
  int line = 1;
  for (const char *q = buf; q < p; q++) line += (*q == '\n');
  return DCSIM_ERR(err, DCSIM_EPARSE, path, line,
                   "DOCTYPE/ENTITY declarations are not allowed in dcsim inputs");
}

/* SAX handler of a DOCTYPE the text search did not see: stop parsing before any declaration in it
 * is read. libxml2 passes the parser context as user data. */
static void on_doctype(void *data, const xmlChar *name, const xmlChar *ext_id,
                       const xmlChar *sys_id) {
  (void)name;
  (void)ext_id;
  (void)sys_id;
  xmlParserCtxtPtr ctxt = data;
  verr_state *st = ctxt->_private;
  if (st && !st->set) {
    st->set = 1;
    DCSIM_ERR(st->err, DCSIM_EPARSE, st->path, ctxt->input ? ctxt->input->line : 0,
              "DOCTYPE/ENTITY declarations are not allowed in dcsim inputs");
  }
  xmlStopParser(ctxt);
}

static int parse_buffer(const char *path, const char *buf, size_t len, xmlDocPtr *out,
                        dcsim_error *err) {
  int rc = reject_doctype(path, buf, len, err);
  if (rc) return rc;
  xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
  if (!ctxt) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  verr_state st = { err, path, 0, DCSIM_EPARSE, NULL, NULL, 0, 0 };
  /* Report the FIRST well-formedness error (where the input goes wrong, e.g. "Opening and ending
   * tag mismatch: param line 5 and parameters"), not the last one, which for an unclosed tag is
   * only "Premature end of data" at the end of the file. */
  ctxt->_private = &st;
  if (ctxt->sax) {
    ctxt->sax->serror = on_parser_error;
    ctxt->sax->internalSubset = on_doctype;
  }
  /* always UTF-8: a declared encoding (EBCDIC, ISO-2022, UCS-4...) is not honoured, so no
   * conversion runs (libxml2 reports conversion failures on stderr, outside any error handler) */
  xmlDocPtr doc = xmlCtxtReadMemory(ctxt, buf, (int)len, path, "UTF-8",
                                    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
                                        XML_PARSE_BIG_LINES | XML_PARSE_NOCDATA);
  if (!doc || !ctxt->wellFormed || st.set || doc->intSubset || doc->extSubset) {
    xmlErrorPtr e = xmlCtxtGetLastError(ctxt);
    if (e) on_structured_error(&st, e); /* no-op when the first error was recorded */
    if (!st.set) DCSIM_ERR(err, DCSIM_EPARSE, path, 0, "malformed XML");
    xmlFreeDoc(doc);
    xmlFreeParserCtxt(ctxt);
    return DCSIM_EPARSE;
  }
  xmlFreeParserCtxt(ctxt);
  *out = doc;
  return 0;
}

static int validate_doc(const char *path, xmlDocPtr doc, dcsim_xml_report_fn report, void *ctx,
                        size_t max, size_t *n_errors, dcsim_error *err) {
  xmlNode *root = xmlDocGetRootElement(doc);
  if (!root) return DCSIM_ERR(err, DCSIM_ESCHEMA, path, 0, "empty document");
  const struct dcsim_embedded_schema *s = find_schema((const char *)root->name);
  if (!s)
    return DCSIM_ERR(err, DCSIM_ESCHEMA, path, (int)xmlGetLineNo(root),
                     "<%s>: not a dcsim input (unknown root element)", (const char *)root->name);
  int rc = DCSIM_ESCHEMA;
  verr_state st = { err, path, 0, DCSIM_ESCHEMA, report, ctx, 0, max };
  xmlSchemaParserCtxtPtr pctxt = xmlSchemaNewMemParserCtxt(s->text, (int)s->len);
  xmlSchemaPtr schema = NULL;
  xmlSchemaValidCtxtPtr vctxt = NULL;
  if (!pctxt) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  verr_state sst = { err, "embedded schema", 0, DCSIM_EINTERNAL, NULL, NULL, 0, 0 };
  xmlSchemaSetParserStructuredErrors(pctxt, on_structured_error, &sst);
  schema = xmlSchemaParse(pctxt);
  if (!schema) {
    if (!sst.set) DCSIM_ERR(err, DCSIM_EINTERNAL, path, 0, "cannot compile schema %s", s->name);
    rc = DCSIM_EINTERNAL;
    goto out;
  }
  vctxt = xmlSchemaNewValidCtxt(schema);
  if (!vctxt) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  xmlSchemaSetValidStructuredErrors(vctxt, on_structured_error, &st);
  int v = xmlSchemaValidateDoc(vctxt, doc);
  if (n_errors) *n_errors = st.n_reported;
  if (v != 0) {
    if (!st.set) DCSIM_ERR(err, DCSIM_ESCHEMA, path, 0, "does not match schema %s.xsd", s->name);
    goto out;
  }
  rc = 0;
out:
  xmlSchemaFreeValidCtxt(vctxt);
  xmlSchemaFree(schema);
  xmlSchemaFreeParserCtxt(pctxt);
  return rc;
}

/* read, parse, check the root (expected_root may be NULL) and, with validate, the schema */
static int load_doc(const char *path, const char *expected_root, int validate,
                    dcsim_xml_doc_t **out, dcsim_error *err) {
  char *buf = NULL;
  size_t len = 0;
  xmlDocPtr doc = NULL;
  dcsim_xml_doc_t *d = NULL;
  int rc = read_file(path, &buf, &len, err);
  if (rc) goto out;
  rc = parse_buffer(path, buf, len, &doc, err);
  if (rc) goto out;
  xmlNode *root = xmlDocGetRootElement(doc);
  if (expected_root && (!root || strcmp((const char *)root->name, expected_root) != 0)) {
    rc = DCSIM_ERR(err, DCSIM_ESCHEMA, path, root ? (int)xmlGetLineNo(root) : 0,
                   "expected a <%s> document, found <%s>", expected_root,
                   root ? (const char *)root->name : "nothing");
    goto out;
  }
  if (validate && (rc = validate_doc(path, doc, NULL, NULL, 0, NULL, err))) goto out;
  d = calloc(1, sizeof *d);
  if (!d || !(d->path = dcsim_strdup(path))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  d->doc = doc;
  doc = NULL;
  *out = d;
  d = NULL;
out:
  if (d) free(d->path);
  free(d);
  xmlFreeDoc(doc);
  free(buf);
  return rc;
}

int dcsim__xml_load(const char *path, const char *expected_root, dcsim_xml_doc_t **out,
                    dcsim_error *err) {
  return load_doc(path, expected_root, 1, out, err);
}

int dcsim__xml_parse(const char *path, dcsim_xml_doc_t **out, dcsim_error *err) {
  return load_doc(path, NULL, 0, out, err);
}

void dcsim__xml_free(dcsim_xml_doc_t *d) {
  if (!d) return;
  xmlFreeDoc(d->doc);
  free(d->path);
  free(d);
}

xmlNode *dcsim__xml_root(const dcsim_xml_doc_t *d) { return xmlDocGetRootElement(d->doc); }
const char *dcsim__xml_path(const dcsim_xml_doc_t *d) { return d ? d->path : ""; }

int dcsim__xml_peek_root_dup(const char *path, char **root, dcsim_error *err) {
  char *buf = NULL;
  size_t len = 0;
  xmlDocPtr doc = NULL;
  *root = NULL;
  int rc = read_file(path, &buf, &len, err);
  if (rc) goto out;
  rc = parse_buffer(path, buf, len, &doc, err);
  if (rc) goto out;
  xmlNode *r = xmlDocGetRootElement(doc);
  if (!(*root = dcsim_strdup(r ? (const char *)r->name : "")))
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
out:
  xmlFreeDoc(doc);
  free(buf);
  return rc;
}

int dcsim__xml_validate_file(const char *path, dcsim_error *err) {
  dcsim_xml_doc_t *d = NULL;
  int rc = dcsim__xml_load(path, NULL, &d, err);
  dcsim__xml_free(d);
  return rc;
}

int dcsim__xml_check_file(const char *path, dcsim_xml_report_fn report, void *ctx, size_t max,
                          size_t *n_errors, dcsim_error *err) {
  char *buf = NULL;
  size_t len = 0;
  xmlDocPtr doc = NULL;
  *n_errors = 0;
  int rc = read_file(path, &buf, &len, err);
  if (!rc) rc = parse_buffer(path, buf, len, &doc, err);
  if (!rc) rc = validate_doc(path, doc, report, ctx, max, n_errors, err);
  xmlFreeDoc(doc);
  free(buf);
  return rc;
}

xmlNode *dcsim__xml_next(xmlNode *n, const char *name) {
  for (n = n ? n->next : NULL; n; n = n->next)
    if (n->type == XML_ELEMENT_NODE && (!name || strcmp((const char *)n->name, name) == 0))
      return n;
  return NULL;
}

xmlNode *dcsim__xml_child(xmlNode *parent, const char *name) {
  if (!parent) return NULL;
  for (xmlNode *n = parent->children; n; n = n->next)
    if (n->type == XML_ELEMENT_NODE && (!name || strcmp((const char *)n->name, name) == 0))
      return n;
  return NULL;
}

size_t dcsim__xml_count(xmlNode *parent, const char *name) {
  size_t c = 0;
  for (xmlNode *n = dcsim__xml_child(parent, name); n; n = dcsim__xml_next(n, name)) c++;
  return c;
}

const char *dcsim__xml_attr(const dcsim_xml_doc_t *doc, xmlNode *node, const char *name) {
  (void)doc;
  xmlAttr *a = xmlHasProp(node, (const xmlChar *)name);
  if (!a || !a->children || !a->children->content) return NULL;
  return (const char *)a->children->content;
}

int dcsim__xml_str(const dcsim_xml_doc_t *doc, xmlNode *node, const char *name, int required,
                   const char **out, dcsim_error *err) {
  const char *v = dcsim__xml_attr(doc, node, name);
  if (!v) {
    if (required)
      return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, node, "<%s>: missing attribute '%s'",
                           (const char *)node->name, name);
    return 0;
  }
  *out = v;
  return 0;
}

int dcsim__xml_double(const dcsim_xml_doc_t *doc, xmlNode *node, const char *name, int required,
                      double *out, dcsim_error *err) {
  const char *v = NULL;
  int rc = dcsim__xml_str(doc, node, name, required, &v, err);
  if (rc || !v) return rc;
  double x;
  if (dcsim_parse_double(v, &x) != 0)
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, node, "<%s %s=\"%s\">: not a finite number",
                         (const char *)node->name, name, v);
  *out = x;
  return 0;
}

int dcsim__xml_u32(const dcsim_xml_doc_t *doc, xmlNode *node, const char *name, int required,
                   unsigned *out, dcsim_error *err) {
  double x = 0;
  const char *v = dcsim__xml_attr(doc, node, name);
  int rc = dcsim__xml_double(doc, node, name, required, &x, err);
  if (rc || !v) return rc;
  if (x < 0 || x > 4294967295.0 || x != floor(x))
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, node,
                         "<%s %s=\"%s\">: not a whole number in 0..4294967295",
                         (const char *)node->name, name, v);
  *out = (unsigned)x;
  return 0;
}

int dcsim__xml_numbers(const dcsim_xml_doc_t *doc, xmlNode *node, double **out, size_t *n,
                       dcsim_error *err) {
  xmlChar *text = xmlNodeGetContent(node);
  int rc = 0;
  double *vals = NULL;
  size_t cnt = 0, cap = 0;
  if (!text) return DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, node, "out of memory");
  char *save = NULL;
  for (char *tok = strtok_r((char *)text, " \t\r\n", &save); tok;
       tok = strtok_r(NULL, " \t\r\n", &save)) {
    double x;
    if (dcsim_parse_double(tok, &x) != 0) {
      rc = DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, node, "<%s>: '%s' is not a finite number",
                         (const char *)node->name, tok);
      goto out;
    }
    if (DCSIM_GROW(vals, cap, cnt + 1)) {
      rc = DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, node, "out of memory");
      goto out;
    }
    vals[cnt++] = x;
  }
  *out = vals;
  *n = cnt;
  vals = NULL;
out:
  free(vals);
  xmlFree(text);
  return rc;
}
