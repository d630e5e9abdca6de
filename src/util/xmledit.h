/* util/xmledit.h — editing an XML document in place (comments and layout kept) and writing XML
 * text by hand: the calibration commands that rewrite dwarf files and write profiles.
 *
 * Ownership: dcsim__xml_edit_open() gives a libxml2 document the caller frees (xmlFreeDoc); node
 * pointers are borrowed from their document. Nothing here keeps state. */
#ifndef DCSIM_XMLEDIT_H
#define DCSIM_XMLEDIT_H

#include <stdio.h>

#include <libxml/tree.h>

#include "dcsim/error.h"
#include "util/xmlio.h"

/* The document at path to edit: checked against its schema (dcsim__xml_validate_file), then
 * parsed as libxml2 keeps it (comments and layout stay). The caller frees *doc (xmlFreeDoc). */
int dcsim__xml_edit_open(const char *path, xmlDoc **doc, dcsim_error *err);

/* The first <elem name="name"> child of parent (a document being edited), or NULL. */
xmlNode *dcsim__xml_named(xmlNode *parent, const char *elem, const char *name);

/* Sets node's attribute name to v with `digits` significant digits (printf's %.*g): the one way
 * the calibration commands write a fitted number into a document they edit. */
void dcsim__xml_set_num(xmlNode *node, const char *name, double v, int digits);

/* One child of the root element to set in a document being edited: the first <elem key="key_value">
 * child gets the attributes names[i] = values[i] (set or replaced); when the root has none, a new
 * <elem key="key_value" ...> goes on a line of its own after the root's last <elem> child, else
 * after its first <after> child. */
typedef struct dcsim__xml_child_set {
  const char *elem, *key, *key_value, *after;
  const char *const *names, *const *values;
  size_t n;
} dcsim__xml_child_set;

/* The document at path (comments and layout kept) with the n sets applied in order, written back
 * atomically (dcsim__xml_save): how an importer records in machine.xml the tables it wrote. */
int dcsim__xml_edit_children(const char *path, const dcsim__xml_child_set *sets, size_t n,
                             dcsim_error *err);

/* Writes doc to path as libxml2 prints it (UTF-8), atomically (dcsim__file_write_atomic). */
int dcsim__xml_save(xmlDoc *doc, const char *path, dcsim_error *err);

/* The one XML escaping of text dcsim writes by hand: s for an attribute value or element text into
 * f, & < > " as entities (values are written in double quotes), tab, line feed and carriage return
 * as character references (so that an attribute keeps them), and what XML 1.0 cannot hold (other
 * control characters, U+FFFE, U+FFFF, bytes that are not UTF-8) as U+FFFD. Every valid text
 * round-trips through a parser. */
void dcsim__xml_escape(FILE *f, const char *s);

/* XML comment text: "--" cannot appear inside a comment; it is written as "- -"; what XML cannot
 * hold becomes U+FFFD as in dcsim__xml_escape. */
void dcsim__xml_comment_text(FILE *f, const char *s);

/* ` NAME="value"` with value XML-escaped; nothing when value is NULL (an attribute that is absent):
 * how a profile copies an attribute of its calibration directory's machine.xml as written. */
void dcsim__xml_put_attr(FILE *f, const char *name, const char *value);

#endif
