/* dcsim/repro.h — what makes a result reproducible, written the same way into every output
 * (doc/cli.md, "Reproducibility"): the dcsim version and git commit it was built from, the
 * SHA-256 of every input file, and for sweeps the hash of the sweep's definition.
 *
 *   text   a footer:  "reproduce  dcsim 0.1.0, commit 3f2a...; sweep 9c1b..." then one line per
 *          input: "  sha256 <64 hex>  hw-profiles/cpu/xeon-e5-2697v3.xml"
 *   JSON   a key "dcsim": {"version", "commit", "sweep_sha256" (sweeps), "inputs": [{"path",
 *          "sha256"}]}
 *   CSV    comment lines before the header: "# dcsim 0.1.0 commit 3f2a...", "# sweep ...",
 *          "# input <sha256> <path>"
 *   plots  a one-line caption (dcsim_repro_caption) with 12-digit hashes
 *   SQLite the runs and sweeps tables carry dcsim_version and dcsim_commit; inputs are stored
 *          with their hashes (doc/results.md).
 * Input paths are named by dcsim_catalog_relname(), so outputs do not depend on where the checkout
 * lives. The commit is "unknown" in a tree that is no git checkout, and ends in "-dirty" when
 * tracked files differed from it at build time (tools/buildinfo.cmake).
 *
 * Ownership: a dcsim_repro owns its input list; dcsim_repro_release() frees it. */
#ifndef DCSIM_REPRO_H
#define DCSIM_REPRO_H

#include <stddef.h>
#include <stdio.h>

#include "dcsim/error.h"
#include "dcsim/json.h"

/* The version of this dcsim ("0.1.0") and the commit it was built from (40 hex digits, maybe
 * followed by "-dirty", or "unknown"). */
const char *dcsim_version(void);
const char *dcsim_commit(void);

typedef struct dcsim_repro_input {
  char *path; /* dcsim_catalog_relname() of the file */
  char sha256[65];
} dcsim_repro_input;

typedef struct dcsim_repro {
  dcsim_repro_input *inputs;
  size_t n_inputs;
  char sweep_sha256[65];  /* "" unless the output is a sweep's */
  const char *main_input; /* the command's main input: relnames fall back to its directory */
} dcsim_repro;

void dcsim_repro_init(dcsim_repro *r, const char *main_input);
void dcsim_repro_release(dcsim_repro *r);
/* Adds a file whose hash is known (a loaded scenario's inputs), or hashes it (sha256 NULL).
 * A file already listed (same name and hash) is not added twice. */
int dcsim_repro_add(dcsim_repro *r, const char *path, const char *sha256, dcsim_error *err);
/* Adds a file by the name it already has (read back from a sweep definition), not renamed. */
int dcsim_repro_add_name(dcsim_repro *r, const char *name, const char *sha256, dcsim_error *err);

void dcsim_repro_text(FILE *f, const dcsim_repro *r);
/* writes the key "dcsim" and its object into an open JSON object */
void dcsim_repro_json(dcsim_json *j, const dcsim_repro *r);
/* the object alone (as a value) */
void dcsim_repro_json_value(dcsim_json *j, const dcsim_repro *r);
/* the "# dcsim", "# sweep" and "# input SHA256 PATH" comment lines of a CSV output; a control
 * character of a path (a line break would start a row) is written as "?" */
void dcsim_repro_csv(FILE *f, const dcsim_repro *r);
/* "dcsim 0.1.0 (3f2a9c1b2d3e) · alaro.xml 9f86d081884c, ..." cut to fit `size` */
void dcsim_repro_caption(const dcsim_repro *r, char *buf, size_t size);

#endif
