/* calibtemplate.c — the FILL placeholders left in a calibration directory made from the template
 * (calibration/template-cpu/, dcsim/import_template.h): machine.xml, parsed without its schema (a
 * template is not yet valid), and the CSV files it names. The one reader of an unfilled
 * directory; calib/import/import_template.c words the refusal. */
#include <stdlib.h>
#include <string.h>

#include "dcsim/strutil.h"
#include "input/internal.h"
#include "util/csv.h"
#include "util/fileio.h"
#include "util/xmlio.h"

typedef struct sink {
  dcsim__calibdir_placeholder_fn fn;
  void *ctx;
} sink;

/* "FILL" or "FILL: a hint" */
static int is_placeholder(const char *s) {
  while (*s == ' ' || *s == '\t' || *s == '\n') s++;
  return strncmp(s, "FILL", 4) == 0 && (s[4] == '\0' || s[4] == ':');
}

/* One line per element: "<table quantity="L1"> FILL in source, ..." (the element named by its
 * quantity, id or level when that is filled), its text too; then its children, in document order.
 */
static void scan_element(const sink *u, const dcsim_xml_doc_t *doc, xmlNode *n) {
  dcsim_str what = DCSIM_STR_INIT;
  size_t count = 0;
  dcsim_str_addf(&what, "<%s", (const char *)n->name);
  static const char *const keys[] = { "quantity", "id", "level" };
  for (size_t k = 0; k < 3; k++) {
    const char *v = dcsim__xml_attr(doc, n, keys[k]);
    if (v && !is_placeholder(v)) {
      dcsim_str_addf(&what, " %s=\"%s\"", keys[k], v);
      break;
    }
  }
  dcsim_str_add(&what, "> FILL in");
  for (xmlAttr *a = n->properties; a; a = a->next) {
    const char *v = dcsim__xml_attr(doc, n, (const char *)a->name);
    if (!v || !is_placeholder(v)) continue;
    dcsim_str_addf(&what, "%s %s", count++ ? "," : "", (const char *)a->name);
  }
  for (xmlNode *c = n->children; c; c = c->next)
    if (c->type == XML_TEXT_NODE && c->content && is_placeholder((const char *)c->content))
      dcsim_str_addf(&what, "%s its text", count++ ? "," : "");
  if (count)
    u->fn(u->ctx, count, dcsim__xml_path(doc), (int)xmlGetLineNo(n), dcsim_str_cstr(&what));
  dcsim_str_release(&what);
  for (xmlNode *c = n->children; c; c = c->next)
    if (c->type == XML_ELEMENT_NODE) scan_element(u, doc, c);
}

/* The rows of one CSV: per line, the columns whose cells are placeholders. An unreadable file is
 * left to the table reader, which names it. */
static void scan_csv(const sink *u, const char *path) {
  char *text = NULL, **cells = NULL, **head = NULL;
  size_t cap = 0, hcap = 0, nh = 0, nc;
  dcsim_error e;
  if (dcsim__file_read_text(path, &text, &e) != 0) return;
  int line = 0;
  for (char *p = text, *nl; p && *p; p = nl ? nl + 1 : NULL) {
    nl = strchr(p, '\n');
    if (nl) *nl = '\0';
    line++;
    if (*p == '#' || strspn(p, " \t\r") == strlen(p)) continue;
    if (!head) { /* the header: its names are kept (the split is in place) */
      if (dcsim__csv_split(p, &head, &hcap, &nh) != 0) break;
      continue;
    }
    if (dcsim__csv_split(p, &cells, &cap, &nc) != 0) continue; /* the table reader says why */
    dcsim_str what = DCSIM_STR_INIT;
    size_t count = 0;
    for (size_t i = 0; i < nc; i++)
      if (is_placeholder(cells[i])) {
        count++;
        dcsim_str_addf(&what, "%s%s", what.len ? ", " : "FILL in ",
                       i < nh ? head[i] : "a cell beyond the header");
      }
    if (count) u->fn(u->ctx, count, path, line, dcsim_str_cstr(&what));
    dcsim_str_release(&what);
  }
  free(cells);
  free(head);
  free(text);
}

/* The CSV files named by machine.xml, each once: <table file>, <energy file>, <dram bandwidth>. */
static void scan_csvs(const sink *u, const char *dir, const dcsim_xml_doc_t *doc, xmlNode *root) {
  const char *files[16];
  size_t nf = 0;
  xmlNode *pm = dcsim__xml_child(root, "power-model");
  xmlNode *srcs[] = { dcsim__xml_child(root, "energy"), pm ? dcsim__xml_child(pm, "dram") : NULL };
  for (xmlNode *t = dcsim__xml_child(root, "table"); t && nf < 8; t = dcsim__xml_next(t, "table"))
    files[nf++] = dcsim__xml_attr(doc, t, "file");
  if (srcs[0]) files[nf++] = dcsim__xml_attr(doc, srcs[0], "file");
  if (srcs[1]) files[nf++] = dcsim__xml_attr(doc, srcs[1], "bandwidth");
  for (size_t i = 0; i < nf; i++) {
    int seen = !files[i] || is_placeholder(files[i]);
    for (size_t j = 0; j < i && !seen; j++) seen = files[j] && strcmp(files[i], files[j]) == 0;
    if (seen) continue;
    char *path = dcsim_path_in(dir, files[i]);
    if (path) scan_csv(u, path);
    free(path);
  }
}

void dcsim__calibdir_placeholders(const char *dir, const char *mpath,
                                  dcsim__calibdir_placeholder_fn fn, void *ctx) {
  dcsim_xml_doc_t *doc = NULL;
  dcsim_error e;
  sink u = { fn, ctx };
  if (dcsim__xml_parse(mpath, &doc, &e) == 0) {
    xmlNode *root = dcsim__xml_root(doc);
    scan_element(&u, doc, root);
    scan_csvs(&u, dir, doc, root);
  }
  dcsim__xml_free(doc);
}
