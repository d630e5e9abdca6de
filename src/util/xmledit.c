/* xmledit.c — editing XML documents in place and writing XML text (see util/xmledit.h). */
#include "util/xmledit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>

#include "dcsim/numfmt.h"
#include "dcsim/strutil.h"
#include "util/fileio.h"

/* Writes the character at s (n bytes) as XML 1.0 allows it (section 2.2, Char: tab, line feed,
 * carriage return and U+0020 upwards, but not U+FFFE or U+FFFF): other control characters and
 * bytes that begin no UTF-8 character (dcsim_utf8_len) become U+FFFD, the replacement
 * character, so the output always parses. How many bytes of s were consumed. */
static size_t put_xml_char(FILE *f, const char *s, int escape) {
  unsigned char c = (unsigned char)*s;
  size_t n = dcsim_utf8_len(s);
  int bad = n == 0 || (c < 0x20 && c != '\t' && c != '\n' && c != '\r') ||
            (n == 3 && c == 0xef && (unsigned char)s[1] == 0xbf && (unsigned char)s[2] >= 0xbe);
  if (bad) {
    fputs("\xEF\xBF\xBD", f);
    return 1;
  }
  if (escape)
    switch (c) { /* attribute values keep tab, line feed and return as references
                  * (section 3.3.3 would normalise them to blanks) */
      case '&': fputs("&amp;", f); return 1;
      case '<': fputs("&lt;", f); return 1;
      case '>': fputs("&gt;", f); return 1;
      case '"': fputs("&quot;", f); return 1;
      case '\t': fputs("&#9;", f); return 1;
      case '\n': fputs("&#10;", f); return 1;
      case '\r': fputs("&#13;", f); return 1;
      default: break;
    }
  fwrite(s, 1, n, f);
  return n;
}

void dcsim__xml_escape(FILE *f, const char *s) {
  while (s && *s) s += put_xml_char(f, s, 1);
}

void dcsim__xml_comment_text(FILE *f, const char *s) {
  while (s && *s) {
    size_t n = put_xml_char(f, s, 0);
    if (*s == '-' && (s[1] == '-' || !s[1])) fputc(' ', f);
    s += n;
  }
}

void dcsim__xml_put_attr(FILE *f, const char *name, const char *v) {
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

/* The first <elem key="value"> child of parent, or NULL; *last (when last is not NULL): parent's
 * last <elem> child. */
static xmlNode *keyed_child(xmlNode *parent, const char *elem, const char *key, const char *value,
                            xmlNode **last) {
  xmlNode *found = NULL;
  for (xmlNode *n = dcsim__xml_child(parent, elem); n && (!found || last);
       n = dcsim__xml_next(n, elem)) {
    if (!found) {
      xmlChar *v = xmlGetProp(n, BAD_CAST key);
      if (v && strcmp((const char *)v, value) == 0) found = n;
      xmlFree(v);
    }
    if (last) *last = n;
  }
  return found;
}

xmlNode *dcsim__xml_named(xmlNode *parent, const char *elem, const char *name) {
  return keyed_child(parent, elem, "name", name, NULL);
}

/* One set: the keyed child found or added after the last of its kind (or the first <after>). */
static void set_child(xmlNode *root, const dcsim__xml_child_set *c) {
  xmlNode *last = NULL, *found = keyed_child(root, c->elem, c->key, c->key_value, &last);
  if (!last) last = dcsim__xml_child(root, c->after);
  if (!found) {
    found = xmlNewNode(NULL, BAD_CAST c->elem);
    xmlNode *ws = xmlNewText(BAD_CAST "\n  ");
    xmlAddNextSibling(last, ws);
    xmlAddNextSibling(ws, found);
    xmlSetProp(found, BAD_CAST c->key, BAD_CAST c->key_value);
  }
  for (size_t i = 0; i < c->n; i++) xmlSetProp(found, BAD_CAST c->names[i], BAD_CAST c->values[i]);
}

int dcsim__xml_edit_children(const char *path, const dcsim__xml_child_set *sets, size_t n,
                             dcsim_error *err) {
  xmlDoc *doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  if (!doc) return DCSIM_ERR(err, DCSIM_EPARSE, path, 0, "cannot parse");
  for (size_t i = 0; i < n; i++) set_child(xmlDocGetRootElement(doc), &sets[i]);
  int rc = dcsim__xml_save(doc, path, err);
  xmlFreeDoc(doc);
  return rc;
}

void dcsim__xml_set_num(xmlNode *node, const char *name, double v, int digits) {
  dcsim_num_text t; /* %.17g of any double is at most 24 characters: it is never cut */
  (void)dcsim_bufprintf(t.s, sizeof t.s, "%.*g", digits < 1 ? 1 : digits > 17 ? 17 : digits, v);
  xmlSetProp(node, BAD_CAST name, BAD_CAST t.s);
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
