/* dcsim/catalog.h — finding data files by name.
 *
 * A reference is either a path (it contains '/' or ends in ".xml"), taken relative to the file
 * that makes it (or to the working directory for the command line), or a bare name resolved as
 * <data root>/<kind dir>/<name>.xml. The data root is $DCSIM_DATA if set, else the source tree
 * the binary was built from. Kind dirs: "hw-profiles/cpu", "hw-profiles/gpu", "dwarfs",
 * "workflows", "hw-profiles/gpu-arch". Results are written into caller buffers, except
 * dcsim_catalog_find()'s, a malloc'd path. */
#ifndef DCSIM_CATALOG_H
#define DCSIM_CATALOG_H

#include <stddef.h>

#include "dcsim/error.h"

typedef enum {
  DCSIM_KIND_CPU,
  DCSIM_KIND_GPU,
  DCSIM_KIND_DWARF,
  DCSIM_KIND_WORKFLOW,
  DCSIM_KIND_GPU_ARCH /* hw-profiles/gpu-arch: named by a GPU profile's <device arch> */
} dcsim_kind;

const char *dcsim_catalog_root(void);
const char *dcsim_catalog_dir(dcsim_kind kind); /* "hw-profiles/cpu", ... */
/* The path of the data file that ref names (a catalogue name or a path), in a malloc'd string of
 * its own length (*out, which the caller frees; NULL on error): no reference is too long.
 * ref_file/ref_line: where the reference is written (for errors and relative paths); NULL when the
 * caller passes a name of its own (the error then names no input: the caller adds where). */
int dcsim_catalog_find(dcsim_kind kind, const char *ref, const char *ref_file, int ref_line,
                       char **out, dcsim_error *err);
/* The name of the file `path` that does not depend on where the checkout or the working directory
 * is: its path relative to the data root when it lies inside it, else relative to the directory of
 * the file `input` (may be NULL) when it lies there, else its base name (symbolic links resolved).
 * Sweep definitions and the input lists of every output use it (doc/sweep.md). A malloc'd string
 * the caller frees; NULL when out of memory. */
char *dcsim_catalog_relname(const char *path, const char *input);
/* The names of the existing data files of a kind (<data root>/<kind dir>/NAME.xml), sorted, for
 * suggestions and completion: fills up to `max` malloc'd names into names[] and returns how many
 * (0 when the directory cannot be read). The caller frees each name. */
size_t dcsim_catalog_names(dcsim_kind kind, char **names, size_t max);

#endif
