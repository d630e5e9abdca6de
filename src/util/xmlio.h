/* util/xmlio.h — loading dcsim's XML inputs safely and reading typed attributes with locations.
 *
 * Every input is parsed without network access, without entity substitution and without DTDs
 * (a document with a DOCTYPE is rejected, which stops "billion laughs" and XXE), then validated
 * against the XSD named by its root element (schemas/<root>.xsd, embedded in the library).
 *
 * Ownership: dcsim__xml_load() returns a document the caller frees with dcsim__xml_free(). Node
 * pointers and strings obtained from it are borrowed and live as long as the document. Module
 * parsers use this header; models never see XML. Numbers are read by dcsim_parse_double()
 * (dcsim/strutil.h, included here). */
#ifndef DCSIM_XMLIO_H
#define DCSIM_XMLIO_H

#include <libxml/tree.h>
#include <stddef.h>

#include "dcsim/error.h"
#include "dcsim/strutil.h"

typedef struct dcsim_xml_doc dcsim_xml_doc_t;

/* Loads and validates path. expected_root may be NULL (any known root). */
int dcsim__xml_load(const char *path, const char *expected_root, dcsim_xml_doc_t **out,
                    dcsim_error *err);
void dcsim__xml_free(dcsim_xml_doc_t *doc);
/* Parses path as dcsim_xml_load does (same limits, no DOCTYPE) but checks no schema: for reading
 * a document that is not yet valid (a calibration template's placeholders). */
int dcsim__xml_parse(const char *path, dcsim_xml_doc_t **out, dcsim_error *err);

xmlNode *dcsim__xml_root(const dcsim_xml_doc_t *doc);
const char *dcsim__xml_path(const dcsim_xml_doc_t *doc);
/* Root element name of a file without validating it (for `dcsim validate` / dispatch), into *root,
 * a malloc'd name the caller frees ("" when the document has none; NULL on error). */
int dcsim__xml_peek_root_dup(const char *path, char **root, dcsim_error *err);
/* Validates any file against the schema of its root element. */
int dcsim__xml_validate_file(const char *path, dcsim_error *err);
/* The same, reporting every schema error (not only the first) through report(ctx, e), at most
 * `max` of them; *n_errors counts them all (0 for a malformed file: its first parse error is *err
 * only). Returns 0 when the file is valid, else the status of the first error, which *err holds.
 * Schema errors are in plain words (util/xmlmsg.h), as everywhere. */
typedef void (*dcsim_xml_report_fn)(void *ctx, const dcsim_error *e);
int dcsim__xml_check_file(const char *path, dcsim_xml_report_fn report, void *ctx, size_t max,
                          size_t *n_errors, dcsim_error *err);

/* Element children iteration: first/next element child with the given name (NULL = any). */
xmlNode *dcsim__xml_child(xmlNode *parent, const char *name);
xmlNode *dcsim__xml_next(xmlNode *node, const char *name);
size_t dcsim__xml_count(xmlNode *parent, const char *name);

/* Attribute access. The string is borrowed (NULL if absent). Numbers must be finite; with
 * `required` an absent attribute is an error, otherwise *out is left unchanged. All errors name
 * the file, the line and the element. */
const char *dcsim__xml_attr(const dcsim_xml_doc_t *doc, xmlNode *node, const char *name);
int dcsim__xml_str(const dcsim_xml_doc_t *doc, xmlNode *node, const char *name, int required,
                   const char **out, dcsim_error *err);
int dcsim__xml_double(const dcsim_xml_doc_t *doc, xmlNode *node, const char *name, int required,
                      double *out, dcsim_error *err);
int dcsim__xml_u32(const dcsim_xml_doc_t *doc, xmlNode *node, const char *name, int required,
                   unsigned *out, dcsim_error *err);
/* Text content of an element as a list of finite numbers (malloc'd, caller frees). */
int dcsim__xml_numbers(const dcsim_xml_doc_t *doc, xmlNode *node, double **out, size_t *n,
                       dcsim_error *err);

/* Error at a node: DCSIM_ERR with file and line of the node. */
#define DCSIM_XML_ERR(err, code, doc, node, ...) \
  DCSIM_ERR((err), (code), dcsim__xml_path(doc), (node) ? (int)xmlGetLineNo(node) : 0, __VA_ARGS__)

#endif
