/* xmledit.c — editing XML documents in place and writing XML text (see util/xmledit.h). */
#include "util/xmledit.h"

#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>

#include "dcsim/strutil.h"
#include "util/fileio.h"

void dcsim__xml_escape(FILE *f, const char *s) {
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

void dcsim__xml_comment_text(FILE *f, const char *s) {
  for (; *s; s++) {
    fputc(*s, f);
    if (*s == '-' && (s[1] == '-' || !s[1])) fputc(' ', f);
  }
}

void dcsim__xml_copy_attr(FILE *f, const dcsim_xml_doc_t *doc, xmlNode *n, const char *name) {
  const char *v = dcsim__xml_attr(doc, n, name);
  if (!v) return;
  fprintf(f, " %s=\"", name);
  dcsim__xml_escape(f, v);
  fputc('"', f);
}

int dcsim__xml_edit_open(const char *path, xmlDoc **doc, dcsim_error *err) {
  dcsim_error verr;
  int rc = dcsim__xml_validate_file(path, &verr);
  if (rc) {
    if (err) *err = verr;
    return rc;
  }
  *doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  if (!*doc) return DCSIM_ERR(err, DCSIM_EPARSE, path, 0, "cannot parse");
  return 0;
}

xmlNode *dcsim__xml_named(xmlNode *parent, const char *elem, const char *name) {
  xmlNode *found = NULL;
  for (xmlNode *n = dcsim__xml_child(parent, elem); n && !found; n = dcsim__xml_next(n, elem)) {
    xmlChar *nm = xmlGetProp(n, BAD_CAST "name");
    if (nm && strcmp((const char *)nm, name) == 0) found = n;
    xmlFree(nm);
  }
  return found;
}

int dcsim__xml_save(xmlDoc *doc, const char *path, dcsim_error *err) {
  xmlChar *mem = NULL;
  int len = 0;
  xmlDocDumpFormatMemoryEnc(doc, &mem, &len, "UTF-8", 0);
  if (!mem) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  char *text = dcsim_strdup((const char *)mem);
  xmlFree(mem);
  if (!text) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  int rc = dcsim__file_write_atomic(path, text, err);
  free(text);
  return rc;
}
