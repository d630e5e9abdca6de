/* fuzz_gpubench_profile.c — `dcsim calibrate gpu BENCH.csv`: a tools/gpu-bench CSV read and, when
 * it is accepted, written as a <gpu-profile> (dcsim_gpubench_profile_xml) under a name from the
 * input. Whatever the CSV's device_name and the path hold, the profile is well-formed
 * XML with no element but the writer's (device, memory, host-link, power, launch, power-model)
 * and its model attribute reads back as the device name (with what XML cannot hold as U+FFFD). */
// seeds: tests/data/gpubench/*.csv
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "dcsim/import_gpubench.h"
#include "dcsim/strutil.h"
#include "fuzz.h"

/* the device name as the XML escaping keeps it (util/xmledit.h) */
static char *kept(const char *s) {
  char *o = malloc(3 * strlen(s) + 1), *w = o;
  if (!o) abort();
  while (*s) {
    unsigned char c = (unsigned char)*s;
    size_t n = dcsim_utf8_len(s);
    if (n == 0 || (c < 0x20 && c != '\t' && c != '\n' && c != '\r') ||
        (n == 3 && c == 0xef && (unsigned char)s[1] == 0xbf && (unsigned char)s[2] >= 0xbe)) {
      memcpy(w, "\xEF\xBF\xBD", 3), w += 3, s++;
      continue;
    }
    memcpy(w, s, n), w += n, s += n;
  }
  *w = '\0';
  return o;
}

static void check_profile(const dcsim_gpubench *b, const char *text) {
  xmlDoc *d = xmlReadMemory(text, (int)strlen(text), NULL, "UTF-8",
                            XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
  if (!d) {
    fprintf(stderr, "fuzz_gpubench_profile: the profile does not parse:\n%.2000s\n", text);
    abort();
  }
  static const char *const allowed[] = { "device", "memory", "host-link",
                                         "power",  "launch", "power-model" };
  xmlNode *r = xmlDocGetRootElement(d);
  int ok = r && strcmp((const char *)r->name, "gpu-profile") == 0;
  for (xmlNode *c = r ? r->children : NULL; ok && c; c = c->next) {
    if (c->type != XML_ELEMENT_NODE) continue;
    int known = 0;
    for (size_t i = 0; i < sizeof allowed / sizeof *allowed; i++)
      known |= strcmp((const char *)c->name, allowed[i]) == 0;
    ok = known && c->children == NULL;
  }
  xmlChar *model = r ? xmlGetProp(r, (const xmlChar *)"model") : NULL;
  char *want = kept(b->name);
  ok = ok && model && strcmp((const char *)model, want) == 0;
  free(want);
  xmlFree(model);
  xmlFreeDoc(d);
  if (!ok) {
    fprintf(stderr, "fuzz_gpubench_profile: injected or lost text:\n%.2000s\n", text);
    abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  dcsim_error err;
  const char *path = fuzz_file("bench<&\"'\x01.csv", data, size);
  dcsim_gpubench b;
  int rc = dcsim_gpubench_load(path, &b, &err);
  fuzz_check_error(rc, &err);
  if (rc) return 0;
  char *text = NULL;
  rc = dcsim_gpubench_profile_xml(&b, NULL, NULL, "fuzz-profile", &text, &err);
  fuzz_check_error(rc, &err);
  if (!rc) check_profile(&b, text);
  free(text);
  return 0;
}
