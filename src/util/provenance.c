/* provenance.c — kinds of evidence behind a number (see dcsim/provenance.h). */
#include "dcsim/provenance.h"

#include <stdio.h>
#include <string.h>

#include "dcsim/json.h"

static const char *const names[DCSIM_PROV_N] = { "table", "interpolated", "extrapolated", "spec" };

dcsim_prov dcsim_prov_make(dcsim_prov_kind kind, const char *source) {
  dcsim_prov p = { kind, source ? source : "" };
  return p;
}

const char *dcsim_prov_name(dcsim_prov_kind kind) {
  return (unsigned)kind < DCSIM_PROV_N ? names[kind] : "unknown";
}

int dcsim_prov_parse(const char *name, dcsim_prov_kind *out) {
  for (int k = 0; k < DCSIM_PROV_N; k++)
    if (name && strcmp(name, names[k]) == 0) {
      *out = (dcsim_prov_kind)k;
      return 0;
    }
  return -1;
}

dcsim_prov dcsim_prov_weakest(dcsim_prov a, dcsim_prov b) {
  if (!a.source) a.source = "";
  if (!b.source) b.source = "";
  return b.kind > a.kind ? b : a;
}

int dcsim_prov_strict_ok(dcsim_prov_kind kind) { return kind <= DCSIM_PROV_INTERPOLATED; }

void dcsim_prov_format(dcsim_prov p, char *buf, size_t size) {
  if (p.source && *p.source)
    snprintf(buf, size, "[%s: %s]", dcsim_prov_name(p.kind), p.source);
  else
    snprintf(buf, size, "[%s]", dcsim_prov_name(p.kind));
}

void dcsim_prov_json(dcsim_json *j, dcsim_prov p) {
  dcsim_json_obj_begin(j);
  dcsim_json_key(j, "kind");
  dcsim_json_str(j, dcsim_prov_name(p.kind));
  dcsim_json_key(j, "source");
  dcsim_json_str(j, p.source ? p.source : "");
  dcsim_json_obj_end(j);
}

void dcsim_prov_json_member(dcsim_json *j, dcsim_prov time, const dcsim_prov *energy) {
  dcsim_json_key(j, "provenance");
  dcsim_json_obj_begin(j);
  dcsim_json_key(j, "time");
  dcsim_prov_json(j, time);
  dcsim_json_key(j, "energy");
  if (energy)
    dcsim_prov_json(j, *energy);
  else
    dcsim_json_null(j);
  dcsim_json_obj_end(j);
}
