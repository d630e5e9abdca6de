/* xmlmsg.c — libxml2's schema errors in plain words (see util/xmlmsg.h). The message forms are
 * those of libxml2's xmlschemas.c (2.9): "Element 'E'[, attribute 'A']: TEXT". */
#include "util/xmlmsg.h"

#include <stdio.h>
#include <string.h>

#include "dcsim/strutil.h"

/* the parts of one message */
typedef struct msg_parts {
  char elem[128], attr[128];
  const char *rest; /* after "Element 'E'[, attribute 'A']: " */
} msg_parts;

/* copies the text between the quote at *p (which must be `open`) and `close` into out; moves *p
 * past close. 0 ok, -1 when the form does not match. */
static int take(const char **p, const char *open, const char *close, char *out, size_t size) {
  size_t lo = strlen(open);
  if (strncmp(*p, open, lo) != 0) return -1;
  const char *s = *p + lo, *e = strstr(s, close);
  if (!e || (size_t)(e - s) >= size) return -1;
  memcpy(out, s, (size_t)(e - s));
  out[e - s] = '\0';
  *p = e + strlen(close);
  return 0;
}

static int split_msg(const char *msg, msg_parts *m) {
  const char *p = msg;
  m->attr[0] = '\0';
  if (take(&p, "Element '", "'", m->elem, sizeof m->elem)) return -1;
  if (strncmp(p, ", attribute '", 13) == 0 &&
      take(&p, ", attribute '", "'", m->attr, sizeof m->attr))
    return -1;
  if (strncmp(p, ": ", 2) != 0) return -1;
  m->rest = p + 2;
  return 0;
}

/* what the patterns of schemas/common.xsd and the others mean */
static const char *pattern_words(const char *pattern) {
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
    if (strcmp(pattern, known[i].pattern) == 0) return known[i].words;
  return NULL;
}

static const char *type_words(const char *type) {
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
    if (strcmp(type, known[i].type) == 0) return known[i].words;
  return NULL;
}

/* "<E A="V">", "<E> value 'V'" (the element's content) or "<E>" */
static void subject(const msg_parts *m, const char *value, char *out, size_t size) {
  if (m->attr[0] && value)
    snprintf(out, size, "<%s %s=\"%s\">", m->elem, m->attr, value);
  else if (value)
    snprintf(out, size, "<%s> value '%s'", m->elem, value);
  else
    snprintf(out, size, "<%s>", m->elem);
}

/* {'a', 'b', 'c'} -> "a, b, c" and the items, for a suggestion */
static size_t set_items(const char *set, char *words, size_t size, char items[][64], size_t max) {
  size_t n = 0, len = 0;
  words[0] = '\0';
  for (const char *p = strchr(set, '\''); p && n < max;) {
    const char *e = strchr(p + 1, '\'');
    if (!e) break;
    snprintf(items[n], 64, "%.*s", (int)(e - p - 1), p + 1);
    len +=
        (size_t)snprintf(words + len, len < size ? size - len : 0, "%s%s", n ? ", " : "", items[n]);
    n++;
    p = strchr(e + 1, '\'');
  }
  return n;
}

/* the last 'quoted' text of s into out; 1 found, 0 not */
static int last_quoted(const char *s, char *out, size_t size) {
  const char *e = strrchr(s, '\'');
  if (!e || e == s) return 0;
  const char *b = e - 1;
  while (b > s && *b != '\'') b--;
  if (*b != '\'' || (size_t)(e - b - 1) >= size) return 0;
  snprintf(out, size, "%.*s", (int)(e - b - 1), b + 1);
  return 1;
}

/* "[facet 'F'] The value 'V' ..." */
static int plain_facet(const msg_parts *m, char *out, size_t size) {
  const char *p = m->rest;
  char facet[32], value[256], subj[512], a[256] = "", b[256] = "";
  if (take(&p, "[facet '", "'] ", facet, sizeof facet)) return -1;
  if (strncmp(p, "The value '", 11) != 0) return -1;
  p += 11;
  const char *q = strstr(p, strcmp(facet, "enumeration") == 0 ? "' is not an element of the set "
                            : strcmp(facet, "pattern") == 0   ? "' is not accepted by the pattern '"
                            : strstr(facet, "Length")         ? "' has a length of '"
                                                              : "' ");
  if (!q || (size_t)(q - p) >= sizeof value) return -1;
  snprintf(value, sizeof value, "%.*s", (int)(q - p), p);
  subject(m, value, subj, sizeof subj);
  const char *what = m->attr[0] ? m->attr : "the content";
  if (strcmp(facet, "enumeration") == 0) {
    char items[32][64], words[1024];
    const char *items_p[32];
    size_t n = set_items(strchr(q, '{'), words, sizeof words, items, 32);
    for (size_t i = 0; i < n; i++) items_p[i] = items[i];
    const char *best = dcsim_suggest(value, items_p, n);
    snprintf(out, size, "%s: expected one of %s%s%s%s", subj, words, best ? " (did you mean " : "",
             best ? best : "", best ? "?)" : "");
  } else if (strcmp(facet, "pattern") == 0) {
    const char *ps = q + strlen("' is not accepted by the pattern '"), *pe = strrchr(ps, '\'');
    snprintf(a, sizeof a, "%.*s", pe ? (int)(pe - ps) : 0, ps);
    const char *words = pattern_words(a);
    if (words && value[0])
      snprintf(out, size, "%s: expected %s", subj, words);
    else if (words)
      snprintf(out, size, "%s: %s is empty; expected %s", subj, what, words);
    else
      snprintf(out, size, "%s: %s does not have the expected form (the pattern %s)", subj, what, a);
  } else if (strstr(facet, "Length")) { /* "...'N'; this underruns ... length of 'M'." */
    const char *r = q + strlen("' has a length of '");
    if (take(&r, "", "'", a, sizeof a) || !last_quoted(r, b, sizeof b)) return -1;
    const char *rel = strcmp(facet, "maxLength") == 0 ? "at most" : "at least";
    if (value[0])
      snprintf(out, size, "%s: %s has %s characters; expected %s %s", subj, what, a, rel, b);
    else
      snprintf(out, size, "%s: %s is empty; expected %s %s characters", subj, what, rel, b);
  } else {
    /* bounds: "... the minimum value allowed ('M')." / "must be greater than 'M'." */
    if (!last_quoted(q + 1, b, sizeof b)) return -1;
    const char *rel = strcmp(facet, "minInclusive") == 0   ? "at least"
                      : strcmp(facet, "maxInclusive") == 0 ? "at most"
                      : strcmp(facet, "minExclusive") == 0 ? "more than"
                      : strcmp(facet, "maxExclusive") == 0 ? "less than"
                                                           : NULL;
    if (!rel) return -1;
    snprintf(out, size, "%s: expected %s %s", subj, rel, b);
  }
  return 0;
}

static int starts(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* "( a, b )" -> "<a>, <b>"; *best: the name closest to `near` (dcsim_suggest; "" when none is
 * close or near is NULL) */
static void expected_names(const char *p, char *out, size_t size, char *best, size_t bsize,
                           const char *near) {
  const char *x = strstr(p, "Expected is"), *o = x ? strchr(x, '(') : NULL;
  const char *c = o ? strchr(o, ')') : NULL;
  char names[32][64];
  const char *np[32];
  size_t len = 0, k = 0;
  out[0] = best[0] = '\0';
  if (!o || !c) return;
  for (const char *s = o + 1; s < c && k < 32;) {
    while (s < c && (*s == ' ' || *s == ',')) s++;
    const char *e = s;
    while (e < c && *e != ',' && *e != ' ') e++;
    if (e > s) {
      snprintf(names[k], sizeof names[k], "%.*s", (int)(e - s), s);
      np[k] = names[k];
      len += (size_t)snprintf(out + len, len < size ? size - len : 0, "%s<%s>", k ? ", " : "",
                              names[k]);
      k++;
    }
    s = e;
  }
  const char *b = near ? dcsim_suggest(near, np, k) : NULL;
  if (b) snprintf(best, bsize, "%s", b);
}

/* the messages about structure: attributes, elements, text, the root */
static int plain_structure(const msg_parts *m, char *out, size_t size) {
  const char *r = m->rest;
  char a[128], subj[300], names[512], first[128];
  subject(m, NULL, subj, sizeof subj);
  if (take(&r, "The attribute '", "' is required but missing.", a, sizeof a) == 0)
    snprintf(out, size, "%s: the attribute %s is missing (it is required)", subj, a);
  else if (take(&r, "The attribute '", "' is not allowed.", a, sizeof a) == 0)
    snprintf(out, size, "%s: unknown attribute %s", subj, a);
  else if (starts(r, "This element is not expected.")) {
    expected_names(r, names, sizeof names, first, sizeof first, m->elem);
    if (!names[0])
      snprintf(out, size, "%s: this element is not allowed here", subj);
    else if (strchr(names, ',') && first[0]) /* first: the expected name closest to the element */
      snprintf(out, size, "%s: not allowed here; expected one of %s (did you mean <%s>?)", subj,
               names, first);
    else
      snprintf(out, size, "%s: not allowed here; expected %s%s", subj,
               strchr(names, ',') ? "one of " : "", names);
  } else if (starts(r, "Missing child element(s).")) {
    expected_names(r, names, sizeof names, first, sizeof first, NULL);
    snprintf(out, size, "%s: %s%s is missing (required here)", subj,
             strchr(names, ',') ? "one of " : "", names[0] ? names : "a child element");
  } else if (starts(r, "Character content other than whitespace is not allowed"))
    snprintf(out, size, "%s: holds text, but only elements belong there", subj);
  else if (starts(r, "Element content is not allowed"))
    snprintf(out, size, "%s: holds elements, but only a value belongs there", subj);
  else if (starts(r, "No matching global declaration available for the validation root"))
    snprintf(out, size, "%s: not a dcsim input (unknown root element)", subj);
  else
    return -1;
  return 0;
}

/* "'V' is not a valid value of the [local] atomic type 'T'." */
static int plain_type(const msg_parts *m, char *out, size_t size) {
  const char *r = m->rest;
  char value[256], subj[600];
  if (take(&r, "'", "' is not a valid value of the ", value, sizeof value)) return -1;
  const char *t = strstr(r, "type '"), *te = t ? strchr(t + 6, '\'') : NULL;
  if (!te) return -1;
  char type[128];
  snprintf(type, sizeof type, "%.*s", (int)(te - t - 6), t + 6);
  const char *words = type_words(type);
  subject(m, value, subj, sizeof subj);
  if (words)
    snprintf(out, size, "%s: expected %s", subj, words);
  else
    snprintf(out, size, "%s: expected a value of type %s", subj, type);
  return 0;
}

void dcsim__xml_plain_message(const char *msg, char *out, size_t size) {
  if (!out || !size) return;
  char in[1024];
  snprintf(in, sizeof in, "%s", msg ? msg : "");
  size_t l = strlen(in);
  while (l && (in[l - 1] == '\n' || in[l - 1] == ' ')) in[--l] = '\0';
  /* the parser's size limits name an option of libxml2 users cannot set: say what the limit is */
  int depth = 0;
  if (sscanf(in, "Excessive depth in document: %d", &depth) == 1) {
    snprintf(out, size, "elements nested more than %d deep (dcsim inputs nest a few levels)",
             depth);
    return;
  }
  char *huge = strstr(in, " use XML_PARSE_HUGE option");
  if (!huge) huge = strstr(in, ", use XML_PARSE_HUGE option");
  if (huge) snprintf(huge, sizeof in - (size_t)(huge - in), " (a limit of dcsim's XML reader)");
  msg_parts m;
  if (split_msg(in, &m) == 0 &&
      (plain_facet(&m, out, size) == 0 || plain_structure(&m, out, size) == 0 ||
       plain_type(&m, out, size) == 0))
    return;
  snprintf(out, size, "%s", in);
}
