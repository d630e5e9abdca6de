/* dcsim/catalog.h — finding data files by name.
 *
 * A reference is either a path (it contains '/' or ends in ".xml"), taken relative to the file
 * that makes it (or to the working directory for the command line), or a bare name resolved as
 * <data root>/<kind dir>/<name>.xml. The data root is $DCSIM_DATA if set, else the source tree
 * the binary was built from. Kind dirs: "hw-profiles/cpu", "hw-profiles/gpu", "dwarfs",
 * "workflows", "hw-profiles/gpu-arch". Results are written into caller buffers; nothing is
 * allocated. */
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
/* ref_file/ref_line: where the reference is written (for errors and relative paths); may be NULL.
 */
int dcsim_catalog_resolve(dcsim_kind kind, const char *ref, const char *ref_file, int ref_line,
                          char *out, size_t size, dcsim_error *err);

#endif
