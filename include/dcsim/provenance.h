/* dcsim/provenance.h — where a number comes from (doc/models.md, "Provenance").
 *
 * Every predicted quantity carries the kind of evidence behind it and the source it rests on:
 *   table         measured cells used as they are (D3.5 Table 25, a calibration CSV, ...)
 *   interpolated  between measured cells (the bilinear lookups of dcsim/hwprofile.h)
 *   extrapolated  a model fitted on measured cells, evaluated outside them
 *   spec          computed from datasheet figures only, no measurement of this part behind it
 * Kinds are ordered from the strongest to the weakest; a quantity computed from several inputs
 * takes the weakest of them (and that input's source). `--strict` refuses anything weaker than
 * interpolated (dcsim_prov_allowed).
 *
 * Ownership: `source` strings are borrowed (from a profile, a dwarf, or static text); a dcsim_prov
 * is valid as long as what it borrows from. */
#ifndef DCSIM_PROVENANCE_H
#define DCSIM_PROVENANCE_H

#include <stddef.h>

struct dcsim_json;

typedef enum dcsim_prov_kind {
  DCSIM_PROV_TABLE = 0,
  DCSIM_PROV_INTERPOLATED = 1,
  DCSIM_PROV_EXTRAPOLATED = 2,
  DCSIM_PROV_SPEC = 3
} dcsim_prov_kind;

#define DCSIM_PROV_N 4

typedef struct dcsim_prov {
  dcsim_prov_kind kind;
  const char *source; /* "" when unknown; never NULL once set by dcsim_prov_make */
} dcsim_prov;

dcsim_prov dcsim_prov_make(dcsim_prov_kind kind, const char *source);
/* "table", "interpolated", "extrapolated", "spec". */
const char *dcsim_prov_name(dcsim_prov_kind kind);
/* Parses a name of dcsim_prov_name(); -1 if it is none. */
int dcsim_prov_parse(const char *name, dcsim_prov_kind *out);
/* The weaker of the two (the first on a tie, so the earliest input names the source). */
dcsim_prov dcsim_prov_weakest(dcsim_prov a, dcsim_prov b);
/* Whether --strict accepts the kind: table and interpolated only. */
int dcsim_prov_strict_ok(dcsim_prov_kind kind);

/* "[kind: source]" (or "[kind]" without a source) into buf, for text output. */
void dcsim_prov_format(dcsim_prov p, char *buf, size_t size);
/* {"kind": ..., "source": ...} at the writer's position (a value), for JSON output. */
void dcsim_prov_json(struct dcsim_json *j, dcsim_prov p);
/* "provenance": {"time": ..., "energy": ...} as a member of the object being written; energy NULL
 * (no energy computed) writes null. */
void dcsim_prov_json_member(struct dcsim_json *j, dcsim_prov time, const dcsim_prov *energy);

#endif
