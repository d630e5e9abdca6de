/* test_escape.c — every writer of a document escapes what it is given. Names holding
 * < & " ', tab, line feed and carriage return, other control characters, invalid UTF-8 and a
 * 10^5-byte name go through the XML escaping (dcsim__xml_escape, dcsim__xml_comment_text), the
 * gpu-bench profile writer, the JSON writer, the CSV cell writer and an SVG chart; each output is
 * parsed (libxml2, jansson, the CSV reader) and gives back the name: exactly, or with what the
 * format cannot hold replaced as documented (U+FFFD for a byte that is not UTF-8 and, in XML, a
 * control character XML 1.0 forbids; a blank for a line break in a CSV cell). The SQLite writers
 * bind every value (tests/escape-payload.sh reads a run's database back). */
#include <jansson.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "dcsim/import_gpubench.h"
#include "dcsim/json.h"
#include "dcsim/lib.h"
#include "dcsim/plot.h"
#include "dcsim/strutil.h"
#include "dcsim/sweep.h"
#include "util/csv.h"
#include "util/xmledit.h"

#define N_NAMES  7
#define LONG_LEN 100000

static char *names[N_NAMES];

static void make_names(void) {
  static const char *const fixed[] = {
    "lt< amp& quot\" apos' gt>",
    "tab\tline\nreturn\r",
    "ctl\x01\x02\x1b\x7f-end",
    "bad\xff\xfe\xc0\x80\xed\xa0\x80-end", /* stray, overlong, surrogate */
    "utf8 \xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e",
    "x`touch P`\"'$(touch Q)\\",
  };
  for (int i = 0; i < N_NAMES - 1; i++) names[i] = dcsim_strdup(fixed[i]);
  char *l = malloc(LONG_LEN + 1);
  for (size_t i = 0; i < LONG_LEN; i++) l[i] = "n<&\"\x01\xff"[i % 6];
  l[LONG_LEN] = '\0';
  names[N_NAMES - 1] = l;
}

/* s as the format keeps it: a byte that begins no UTF-8 character becomes U+FFFD, and so does a
 * control character other than tab, line feed and return when `xml` (XML 1.0, section 2.2) */
static char *kept(const char *s, int xml) {
  char *o = malloc(3 * strlen(s) + 1), *w = o;
  while (*s) {
    unsigned char c = (unsigned char)*s;
    size_t n = dcsim_utf8_len(s);
    if (n == 0 || (xml && c < 0x20 && c != '\t' && c != '\n' && c != '\r')) {
      memcpy(w, "\xEF\xBF\xBD", 3);
      w += 3;
      s++;
      continue;
    }
    memcpy(w, s, n);
    w += n;
    s += n;
  }
  *w = '\0';
  return o;
}

static void test_xml_escape(void) {
  for (int i = 0; i < N_NAMES; i++) {
    char *doc = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&doc, &len);
    fputs("<r a=\"", f);
    dcsim__xml_escape(f, names[i]);
    fputs("\">", f);
    dcsim__xml_escape(f, names[i]);
    fputs("<!--", f);
    dcsim__xml_comment_text(f, names[i]);
    fputs("--></r>", f);
    fclose(f);
    xmlDoc *d = xmlReadMemory(doc, (int)len, NULL, "UTF-8", XML_PARSE_NONET | XML_PARSE_HUGE);
    CHECK(d != NULL);
    if (d) {
      char *want = kept(names[i], 1);
      xmlNode *r = xmlDocGetRootElement(d);
      xmlChar *a = xmlGetProp(r, (const xmlChar *)"a");
      CHECK(a && strcmp((const char *)a, want) == 0);
      CHECK(r->children && r->children->type == XML_TEXT_NODE &&
            strcmp((const char *)r->children->content, want) == 0);
      CHECK(r->children && r->children->next && r->children->next->type == XML_COMMENT_NODE);
      xmlFree(a);
      free(want);
      xmlFreeDoc(d);
    }
    free(doc);
  }
}

/* The gpu-bench profile: the device name and the bench's path as given (up to the struct's
 * sizes), nothing injected, the profile parses with its four elements. */
static void test_gpubench_writer(void) {
  for (int i = 0; i < N_NAMES; i++) {
    dcsim_gpubench b;
    memset(&b, 0, sizeof b);
    snprintf(b.name, sizeof b.name, "%s", names[i]);
    b.name[sizeof b.name - 1] = '\0';
    snprintf(b.path, sizeof b.path, "tests/data/gpubench/%s", names[i]);
    snprintf(b.arch, sizeof b.arch, "sm_52");
    b.sm = 13;
    b.clock_hz = 1.38e9;
    b.memory_byte = 4294967296.0;
    b.stream_bps = 1.96e11;
    b.limit_w = 250;
    b.idle_w = 12.5;
    char *text = NULL;
    dcsim_error err;
    int rc = dcsim_gpubench_profile_xml(&b, NULL, NULL, "escape-test", &text, &err);
    if (rc) fprintf(stderr, "profile: %s\n", err.msg);
    CHECK_INT(rc, 0);
    if (rc) continue;
    xmlDoc *d = xmlReadMemory(text, (int)strlen(text), NULL, "UTF-8", XML_PARSE_NONET);
    CHECK(d != NULL);
    if (d) {
      xmlNode *r = xmlDocGetRootElement(d);
      xmlChar *model = xmlGetProp(r, (const xmlChar *)"model");
      char *want = kept(b.name, 1);
      CHECK(model && strcmp((const char *)model, want) == 0);
      int elems = 0;
      for (xmlNode *c = r->children; c; c = c->next) elems += c->type == XML_ELEMENT_NODE;
      CHECK_INT(elems, 3); /* device, memory, power */
      xmlFree(model);
      free(want);
      xmlFreeDoc(d);
    }
    free(text);
  }
}

static void test_json(void) {
  for (int i = 0; i < N_NAMES; i++) {
    char *doc = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&doc, &len);
    dcsim_json j;
    dcsim_json_init(&j, f, 1);
    dcsim_json_obj_begin(&j);
    dcsim_json_key_str(&j, names[i], names[i]);
    dcsim_json_obj_end(&j);
    dcsim_json_end(&j);
    fclose(f);
    json_error_t je;
    json_t *v = json_loadb(doc, len, 0, &je);
    if (!v) fprintf(stderr, "json: %s\n", je.text);
    CHECK(v != NULL);
    char *want = kept(names[i], 0);
    json_t *s = v ? json_object_get(v, want) : NULL;
    CHECK(s && json_is_string(s) && strcmp(json_string_value(s), want) == 0);
    free(want);
    json_decref(v);
    free(doc);
  }
}

static void test_csv(const char *dir) {
  char path[256];
  snprintf(path, sizeof path, "%s/t.csv", dir);
  FILE *f = fopen(path, "w");
  fputs("name,value\n", f);
  for (int i = 0; i < N_NAMES; i++) {
    dcsim__csv_write_cell(f, names[i]);
    fprintf(f, ",%d\n", i);
  }
  fclose(f);
  dcsim_csv_t *t = NULL;
  dcsim_error err;
  int rc = dcsim__csv_load(path, &t, &err);
  if (rc) fprintf(stderr, "csv: %s\n", err.msg);
  CHECK_INT(rc, 0);
  if (!rc) {
    CHECK_INT(dcsim__csv_rows(t), N_NAMES);
    for (int i = 0; i < N_NAMES && (size_t)i < dcsim__csv_rows(t); i++) {
      char *want = dcsim_strdup(names[i]);
      for (char *p = want; *p; p++)
        if (*p == '\n') *p = ' '; /* the documented exception: one line per row */
      CHECK_STR(dcsim__csv_cell(t, (size_t)i, 0), want);
      free(want);
    }
  }
  dcsim__csv_free(t);
  unlink(path);
}

/* An SVG chart: the names as series (cpu names) and title; gnuplot's SVG parses and holds the
 * title's text. */
static void test_svg(const char *dir) {
  dcsim_error err;
  if (dcsim_plot_find_gnuplot(NULL, &err)) {
    fprintf(stderr, "test_escape: gnuplot not installed: the SVG writer is not tested\n");
    return;
  }
  dcsim_sweep_point p[N_NAMES];
  memset(p, 0, sizeof p);
  for (int i = 0; i < N_NAMES; i++) {
    snprintf(p[i].cpu, sizeof p[i].cpu, "%s", names[i]);
    snprintf(p[i].freq, sizeof p[i].freq, "2.6");
    p[i].nodes = 1 + (unsigned)i;
    p[i].cores = 1;
    p[i].done = p[i].feasible = 1;
    p[i].time_s = 100.0 / (i + 1);
    p[i].energy_j = 1000.0 * (i + 1);
    p[i].pareto = 1;
  }
  char out[256];
  snprintf(out, sizeof out, "%s/t.svg", dir);
  for (int i = 0; i < N_NAMES; i++) {
    int rc = dcsim_plot_pareto(p, N_NAMES, names[i], names[i], out, DCSIM_PLOT_SVG, NULL, &err);
    if (rc) fprintf(stderr, "svg: %s\n", err.msg);
    CHECK_INT(rc, 0);
    xmlDoc *d = rc ? NULL : xmlReadFile(out, NULL, XML_PARSE_NONET | XML_PARSE_HUGE);
    CHECK(rc || d != NULL);
    if (d && i != 1 && i != N_NAMES - 1) { /* one line, short enough for the title */
      xmlChar *all = xmlNodeGetContent(xmlDocGetRootElement(d));
      char *want = kept(names[i], 1);
      CHECK(all && strstr((const char *)all, want) != NULL);
      xmlFree(all);
      free(want);
    }
    xmlFreeDoc(d);
    unlink(out);
  }
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  char dir[] = "/tmp/dcsim-test-escape-XXXXXX";
  if (!mkdtemp(dir)) return 1;
  make_names();
  test_xml_escape();
  test_gpubench_writer();
  test_json();
  test_csv(dir);
  test_svg(dir);
  rmdir(dir);
  for (int i = 0; i < N_NAMES; i++) free(names[i]);
  CHECK_DONE();
}
