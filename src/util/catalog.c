/* catalog.c — resolving names of profiles, dwarfs and workflows to files (see dcsim/catalog.h). */
#include "dcsim/catalog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef DCSIM_SOURCE_DIR
#define DCSIM_SOURCE_DIR "."
#endif

static const char *const kind_dirs[] = { "hw-profiles/cpu", "hw-profiles/gpu", "dwarfs",
                                         "workflows", "hw-profiles/gpu-arch" };
static const char *const kind_words[] = { "CPU profile", "GPU profile", "dwarf", "workflow",
                                          "GPU architecture" };

const char *dcsim_catalog_root(void) {
  const char *r = getenv("DCSIM_DATA");
  return r && *r ? r : DCSIM_SOURCE_DIR;
}

const char *dcsim_catalog_dir(dcsim_kind kind) { return kind_dirs[kind]; }

static int is_file(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

int dcsim_catalog_resolve(dcsim_kind kind, const char *ref, const char *ref_file, int ref_line,
                          char *out, size_t size, dcsim_error *err) {
  const char *where = ref_file ? ref_file : "command line";
  if (!ref || !*ref)
    return DCSIM_ERR(err, DCSIM_EREF, where, ref_line, "empty %s reference", kind_words[kind]);
  size_t l = strlen(ref);
  int is_path = strchr(ref, '/') || (l > 4 && strcmp(ref + l - 4, ".xml") == 0);
  int n;
  if (is_path) {
    if (ref[0] == '/' || !ref_file) {
      n = snprintf(out, size, "%s", ref);
    } else {
      const char *slash = strrchr(ref_file, '/');
      int dl = slash ? (int)(slash - ref_file) : 0;
      n = dl ? snprintf(out, size, "%.*s/%s", dl, ref_file, ref) : snprintf(out, size, "%s", ref);
    }
  } else {
    n = snprintf(out, size, "%s/%s/%s.xml", dcsim_catalog_root(), kind_dirs[kind], ref);
  }
  if (n < 0 || (size_t)n >= size)
    return DCSIM_ERR(err, DCSIM_ERANGE, where, ref_line, "%s reference too long", kind_words[kind]);
  if (!is_file(out))
    return DCSIM_ERR(err, DCSIM_EREF, where, ref_line, "unknown %s '%s' (no file %s)",
                     kind_words[kind], ref, out);
  return 0;
}
