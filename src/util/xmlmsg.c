/* xmlmsg.c — libxml2's schema errors in plain words (see util/xmlmsg.h). The message forms are
 * those of libxml2's xmlschemas.c (2.9): "Element 'E'[, attribute 'A']: TEXT". */
#include "util/xmlmsg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/strutil.h"

/* a piece of the message: n bytes at p (printed with "%.*s"), not terminated */
typedef struct span {
  const char *p;
  int n;
} span;

/* the parts of one message */
typedef struct msg_parts {
  span elem, attr;  /* attr.n == 0: none */
  const char *rest; /* after "Element 'E'[, attribute 'A']: " */
} msg_parts;

/* the text between `open` at *p and the next `close` into *out; moves *p past close. 0 ok, -1
 * when the form does not match. */
static int take(const char **p, const char *open, const char *close, span *out) {
  size_t lo = strlen(open);
  if (strncmp(*p, open, lo) != 0) return -1;
  const char *s = *p + lo, *e = strstr(s, close);
  if (!e || e - s > 4096) return -1; /* no name or value of a dcsim input is that long */
  out->p = s;
  out->n = (int)(e - s);
  *p = e + strlen(close);
  return 0;
}

/* a terminated copy of a span (the caller frees it; NULL when out of memory) */
static char *span_dup(span s) { return dcsim_strdup_printf("%.*s", s.n, s.p); }

static int split_msg(const char *msg, msg_parts *m) {
  const char *p = msg;
  m->attr = (span){ "", 0 };
  if (take(&p, "Element '", "'", &m->elem)) return -1;
  if (strncmp(p, ", attribute '", 13) == 0 && take(&p, ", attribute '", "'", &m->attr)) return -1;
  if (strncmp(p, ": ", 2) != 0) return -1;
  m->rest = p + 2;
  return 0;
}

/* whether span s is the text t */
static int span_is(span s, const char *t) {
  return strlen(t) == (size_t)s.n && strncmp(s.p, t, (size_t)s.n) == 0;
}

/* what the patterns of schemas/common.xsd and the others mean */
static const char *pattern_words(span pattern) {
  static const struct {
    const char *pattern, *words;
  } known[] = {
    { "[A-Za-z0-9_.:>+\\-]+", "a name: letters, digits and _ . : > + - (at least one)" },
    { "\\+?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+\\-]?[0-9]+)?", "a finite, non-negative number" },
    { "[A-Za-z0-9_.+\\-*/^(), \\t]+",
      "a formula: numbers, parameter names, + - * / ^ ( ) and functions" },
    { ".+\\.xml", "the path of an .xml file" },
    { "[A-Za-z][A-Za-z0-9_\\-]*", "a label: a letter, then letters, digits, _ or -" },
  };
  for (size_t i = 0; i < sizeof known / sizeof *known; i++)
    if (span_is(pattern, known[i].pattern)) return known[i].words;
  return NULL;
}

static const char *type_words(span type) {
  static const struct {
    const char *type, *words;
  } known[] = {
    { "xs:double", "a number" },
    { "xs:decimal", "a number" },
    { "xs:float", "a number" },
    { "xs:integer", "a whole number" },
    { "xs:int", "a whole number" },
    { "xs:long", "a whole number" },
    { "xs:positiveInteger", "a whole number of at least 1" },
    { "xs:nonNegativeInteger", "a whole number of at least 0" },
    { "xs:boolean", "true or false" },
  };
  for (size_t i = 0; i < sizeof known / sizeof *known; i++)
    if (span_is(type, known[i].type)) return known[i].words;
  return NULL;
}

/* appends "<E A="V">", "<E> value 'V'" (the element's content) or "<E>" */
static void subject(const msg_parts *m, const span *value, dcsim_str *out) {
  if (m->attr.n && value)
    dcsim_str_addf(out, "<%.*s %.*s=\"%.*s\">", m->elem.n, m->elem.p, m->attr.n, m->attr.p,
                   value->n, value->p);
  else if (value)
    dcsim_str_addf(out, "<%.*s> value '%.*s'", m->elem.n, m->elem.p, value->n, value->p);
  else
    dcsim_str_addf(out, "<%.*s>", m->elem.n, m->elem.p);
}

enum { MAX_ITEMS = 32 }; /* items of a set, names of an "Expected is ( ... )" read */

/* {'a', 'b', 'c'} -> "a, b, c" appended to words; the items (at most MAX_ITEMS) into items[],
 * pointing into *store (a copy of set the caller frees). How many; -1 when out of memory. */
static int set_items(const char *set, dcsim_str *words, const char **items, char **store) {
  int n = 0;
  *store = dcsim_strdup(set);
  if (!*store) return -1;
  for (char *p = strchr(*store, '\''); p && n < MAX_ITEMS;) {
    char *e = strchr(p + 1, '\'');
    if (!e) break;
    *e = '\0';
    items[n] = p + 1;
    dcsim_str_addf(words, "%s%s", n ? ", " : "", items[n]);
    n++;
    p = strchr(e + 1, '\'');
  }
  return n;
}

/* the last 'quoted' text of s into *out; 1 found, 0 not */
static int last_quoted(const char *s, span *out) {
  const char *e = strrchr(s, '\'');
  if (!e || e == s) return 0;
  const char *b = e - 1;
  while (b > s && *b != '\'') b--;
  if (*b != '\'') return 0;
  out->p = b + 1;
  out->n = (int)(e - b - 1);
  return 1;
}

/* "[facet 'enumeration'] The value 'V' is not an element of the set {...}." */
static int facet_enumeration(const msg_parts *m, span value, const char *q, dcsim_str *out) {
  const char *items[MAX_ITEMS];
  char *store = NULL, *v = span_dup(value);
  dcsim_str words = DCSIM_STR_INIT;
  int n = v ? set_items(strchr(q, '{') ? strchr(q, '{') : "", &words, items, &store) : -1;
  const char *best = n > 0 ? dcsim_suggest(v, items, (size_t)n) : NULL;
  subject(m, &value, out);
  dcsim_str_addf(out, ": expected one of %s%s%s%s", dcsim_str_cstr(&words),
                 best ? " (did you mean " : "", best ? best : "", best ? "?)" : "");
  if (n < 0 || words.oom) out->oom = 1;
  dcsim_str_release(&words);
  free(store);
  free(v);
  return 0;
}

/* "[facet 'F'] The value 'V' ..." */
static int plain_facet(const msg_parts *m, dcsim_str *out) {
  const char *p = m->rest;
  span facet, value, a, b;
  if (take(&p, "[facet '", "'] ", &facet)) return -1;
  if (strncmp(p, "The value '", 11) != 0) return -1;
  p += 11;
  int is_length = 0; /* minLength, maxLength */
  for (int i = 0; i + 6 <= facet.n && !is_length; i++)
    is_length = !strncmp(facet.p + i, "Length", 6);
  const char *q = strstr(p, span_is(facet, "enumeration") ? "' is not an element of the set "
                            : span_is(facet, "pattern")   ? "' is not accepted by the pattern '"
                            : is_length                   ? "' has a length of '"
                                                          : "' ");
  if (!q) return -1;
  value = (span){ p, (int)(q - p) };
  const char *what = m->attr.n ? "" : "the content";
  int wn = m->attr.n ? m->attr.n : (int)strlen(what);
  const char *wp = m->attr.n ? m->attr.p : what;
  if (span_is(facet, "enumeration")) return facet_enumeration(m, value, q, out);
  if (span_is(facet, "pattern")) {
    const char *ps = q + strlen("' is not accepted by the pattern '"), *pe = strrchr(ps, '\'');
    a = (span){ ps, pe ? (int)(pe - ps) : 0 };
    const char *words = pattern_words(a);
    subject(m, &value, out);
    if (words && value.n)
      dcsim_str_addf(out, ": expected %s", words);
    else if (words)
      dcsim_str_addf(out, ": %.*s is empty; expected %s", wn, wp, words);
    else
      dcsim_str_addf(out, ": %.*s does not have the expected form (the pattern %.*s)", wn, wp, a.n,
                     a.p);
  } else if (is_length) { /* "...'N'; this underruns ... length of 'M'." */
    const char *r = q + strlen("' has a length of '");
    if (take(&r, "", "'", &a) || !last_quoted(r, &b)) return -1;
    const char *rel = span_is(facet, "maxLength") ? "at most" : "at least";
    subject(m, &value, out);
    if (value.n)
      dcsim_str_addf(out, ": %.*s has %.*s characters; expected %s %.*s", wn, wp, a.n, a.p, rel,
                     b.n, b.p);
    else
      dcsim_str_addf(out, ": %.*s is empty; expected %s %.*s characters", wn, wp, rel, b.n, b.p);
  } else {
    /* bounds: "... the minimum value allowed ('M')." / "must be greater than 'M'." */
    if (!last_quoted(q + 1, &b)) return -1;
    const char *rel = span_is(facet, "minInclusive")   ? "at least"
                      : span_is(facet, "maxInclusive") ? "at most"
                      : span_is(facet, "minExclusive") ? "more than"
                      : span_is(facet, "maxExclusive") ? "less than"
                                                       : NULL;
    if (!rel) return -1;
    subject(m, &value, out);
    dcsim_str_addf(out, ": expected %s %.*s", rel, b.n, b.p);
  }
  return 0;
}

static int starts(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* "( a, b )" -> "<a>, <b>" appended to names; how many names; *best: the name closest to `near`
 * (dcsim_suggest; NULL when none is close or near is NULL), pointing into *store (the caller
 * frees it). -1 when out of memory. */
static int expected_names(const char *p, dcsim_str *names, const char **best, char **store,
                          const char *near) {
  const char *x = strstr(p, "Expected is"), *o = x ? strchr(x, '(') : NULL;
  const char *c = o ? strchr(o, ')') : NULL;
  const char *np[MAX_ITEMS];
  int k = 0;
  *best = NULL;
  *store = NULL;
  if (!o || !c) return 0;
  *store = dcsim_strdup_printf("%.*s", (int)(c - o - 1), o + 1);
  if (!*store) return -1;
  char *end = *store + strlen(*store);
  for (char *s = *store; s < end && k < MAX_ITEMS;) {
    while (s < end && (*s == ' ' || *s == ',')) s++;
    char *e = s;
    while (e < end && *e != ',' && *e != ' ') e++;
    if (e > s) {
      *e = '\0';
      np[k] = s;
      dcsim_str_addf(names, "%s<%s>", k ? ", " : "", s);
      k++;
    }
    s = e + 1;
  }
  *best = near ? dcsim_suggest(near, np, (size_t)k) : NULL;
  return k;
}

/* "This element is not expected. Expected is ( ... )." or "Missing child element(s). ..." */
static void plain_expected(const msg_parts *m, const char *r, int missing, dcsim_str *out) {
  dcsim_str names = DCSIM_STR_INIT;
  const char *first = NULL; /* the expected name closest to the element */
  char *store = NULL, *elem = missing ? NULL : span_dup(m->elem);
  int k = missing || elem ? expected_names(r, &names, &first, &store, elem) : -1;
  const char *list = dcsim_str_cstr(&names);
  subject(m, NULL, out);
  if (missing)
    dcsim_str_addf(out, ": %s%s is missing (required here)", k > 1 ? "one of " : "",
                   k > 0 ? list : "a child element");
  else if (k <= 0)
    dcsim_str_addf(out, ": this element is not allowed here");
  else if (k > 1 && first)
    dcsim_str_addf(out, ": not allowed here; expected one of %s (did you mean <%s>?)", list, first);
  else
    dcsim_str_addf(out, ": not allowed here; expected %s%s", k > 1 ? "one of " : "", list);
  if (k < 0 || names.oom) out->oom = 1;
  dcsim_str_release(&names);
  free(store);
  free(elem);
}

/* the messages about structure: attributes, elements, text, the root */
static int plain_structure(const msg_parts *m, dcsim_str *out) {
  const char *r = m->rest;
  span a;
  if (take(&r, "The attribute '", "' is required but missing.", &a) == 0) {
    subject(m, NULL, out);
    dcsim_str_addf(out, ": the attribute %.*s is missing (it is required)", a.n, a.p);
  } else if (take(&r, "The attribute '", "' is not allowed.", &a) == 0) {
    subject(m, NULL, out);
    dcsim_str_addf(out, ": unknown attribute %.*s", a.n, a.p);
  } else if (starts(r, "This element is not expected."))
    plain_expected(m, r, 0, out);
  else if (starts(r, "Missing child element(s)."))
    plain_expected(m, r, 1, out);
  else {
    const char *text =
        starts(r, "Character content other than whitespace is not allowed")
            ? "holds text, but only elements belong there"
        : starts(r, "Element content is not allowed")
            ? "holds elements, but only a value belongs there"
        : starts(r, "No matching global declaration available for the validation root")
            ? "not a dcsim input (unknown root element)"
            : NULL;
    if (!text) return -1;
    subject(m, NULL, out);
    dcsim_str_addf(out, ": %s", text);
  }
  return 0;
}

/* "'V' is not a valid value of the [local] atomic type 'T'." */
static int plain_type(const msg_parts *m, dcsim_str *out) {
  const char *r = m->rest;
  span value;
  if (take(&r, "'", "' is not a valid value of the ", &value)) return -1;
  const char *t = strstr(r, "type '"), *te = t ? strchr(t + 6, '\'') : NULL;
  if (!te) return -1;
  span type = { t + 6, (int)(te - t - 6) };
  const char *words = type_words(type);
  subject(m, &value, out);
  if (words)
    dcsim_str_addf(out, ": expected %s", words);
  else
    dcsim_str_addf(out, ": expected a value of type %.*s", type.n, type.p);
  return 0;
}

/* the message without its trailing blanks; the parser's size limits in dcsim's words (they name
 * an option of libxml2 users cannot set): from " use XML_PARSE_HUGE option" on, the text becomes
 * " (a limit of dcsim's XML reader)" */
static void clean_input(const char *msg, dcsim_str *in) {
  size_t l = strlen(msg);
  while (l && (msg[l - 1] == '\n' || msg[l - 1] == ' ')) l--;
  const char *huge = strstr(msg, " use XML_PARSE_HUGE option");
  if (huge && (size_t)(huge - msg) < l)
    dcsim_str_addf(in, "%.*s (a limit of dcsim's XML reader)", (int)(huge - msg), msg);
  else
    dcsim_str_addf(in, "%.*s", (int)l, msg);
}

char *dcsim__xml_plain_message(const char *msg) {
  dcsim_str in = DCSIM_STR_INIT, out = DCSIM_STR_INIT;
  clean_input(msg ? msg : "", &in);
  const char *text = dcsim_str_cstr(&in);
  int depth = 0;
  msg_parts m;
  if (sscanf(text, "Excessive depth in document: %d", &depth) == 1)
    dcsim_str_addf(&out, "elements nested more than %d deep (dcsim inputs nest a few levels)",
                   depth);
  else if (split_msg(text, &m) != 0 ||
           (plain_facet(&m, &out) != 0 && plain_structure(&m, &out) != 0 &&
            plain_type(&m, &out) != 0)) {
    dcsim_str_release(&out);
    dcsim_str_add(&out, text);
  }
  if (in.oom) out.oom = 1;
  dcsim_str_release(&in);
  return dcsim_str_take(&out);
}
