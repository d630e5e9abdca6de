/* xmledit.c — editing XML documents in place and writing XML text (see dcsim/xmledit.h). */
#include "dcsim/xmledit.h"

#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>

#include "dcsim/fileio.h"

void dcsim_xml_escape(FILE *f, const char *s) {
  for (; s && *s; s++) {
    switch (*s) {
      case '&': fputs("&amp;", f); break;
      case '<': fputs("&lt;", f); break;
      case '>': fputs("&gt;", f); break;
      case '"': fputs("&quot;", f); break;
      default: fputc(*s, f);
    }
  }
}

void dcsim_xml_comment_text(FILE *f, const char *s) {
  for (; *s; s++) {
    fputc(*s, f);
    if (*s == '-' && (s[1] == '-' || !s[1])) fputc(' ', f);
  }
}

void dcsim_xml_copy_attr(FILE *f, const dcsim_xml_doc_t *doc, xmlNode *n, const char *name) {
  const char *v = dcsim_xml_attr(doc, n, name);
  if (!v) return;
  fprintf(f, " %s=\"", name);
  dcsim_xml_escape(f, v);
  fputc('"', f);
}

int dcsim_xml_edit_open(const char *path, xmlDoc **doc, dcsim_error *err) {
  dcsim_error verr;
  int rc = dcsim_xml_validate_file(path, &verr);
  if (rc) {
    if (err) *err = verr;
    return rc;
  }
  *doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  if (!*doc) return DCSIM_ERR(err, DCSIM_EPARSE, path, 0, "cannot parse");
  return 0;
}

xmlNode *dcsim_xml_named(xmlNode *parent, const char *elem, const char *name) {
  xmlNode *found = NULL;
  for (xmlNode *n = dcsim_xml_child(parent, elem); n && !found; n = dcsim_xml_next(n, elem)) {
    xmlChar *nm = xmlGetProp(n, BAD_CAST "name");
    if (nm && strcmp((const char *)nm, name) == 0) found = n;
    xmlFree(nm);
  }
  return found;
}

int dcsim_xml_save(xmlDoc *doc, const char *path, dcsim_error *err) {
  xmlChar *mem = NULL;
  int len = 0;
  xmlDocDumpFormatMemoryEnc(doc, &mem, &len, "UTF-8", 0);
  if (!mem) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  char *text = strdup((const char *)mem);
  xmlFree(mem);
  if (!text) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  int rc = dcsim_file_write_atomic(path, text, err);
  free(text);
  return rc;
}
