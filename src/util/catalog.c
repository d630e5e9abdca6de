/* catalog.c — resolving names of profiles, dwarfs and workflows to files (see dcsim/catalog.h). */
#include "dcsim/catalog.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dcsim/strutil.h"

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

static char *suggest_name(dcsim_kind kind, const char *ref);

int dcsim_catalog_find(dcsim_kind kind, const char *ref, const char *ref_file, int ref_line,
                       char **out, dcsim_error *err) {
  const char *where = ref_file ? ref_file : "";
  *out = NULL;
  if (!ref || !*ref)
    return DCSIM_ERR(err, DCSIM_EREF, where, ref_line, "empty %s reference", kind_words[kind]);
  size_t l = strlen(ref);
  int is_path = strchr(ref, '/') || (l > 4 && strcmp(ref + l - 4, ".xml") == 0);
  char *path;
  if (is_path) {
    const char *slash = ref[0] == '/' || !ref_file ? NULL : strrchr(ref_file, '/');
    int dl = slash ? (int)(slash - ref_file) : 0;
    path = dl ? dcsim_strdup_printf("%.*s/%s", dl, ref_file, ref) : dcsim_strdup(ref);
  } else {
    path = dcsim_strdup_printf("%s/%s/%s.xml", dcsim_catalog_root(), kind_dirs[kind], ref);
  }
  if (!path) return DCSIM_ERR(err, DCSIM_ENOMEM, where, ref_line, "out of memory");
  if (!is_file(path)) {
    char *hint = is_path ? NULL : suggest_name(kind, ref);
    int rc = DCSIM_ERR(err, DCSIM_EREF, where, ref_line, "unknown %s '%s' (no file %s)%s",
                       kind_words[kind], ref, path, hint ? hint : "");
    free(hint);
    free(path);
    return rc;
  }
  *out = path;
  return 0;
}

static int xml_entry(const struct dirent *e) {
  size_t l = strlen(e->d_name);
  return l > 4 && strcmp(e->d_name + l - 4, ".xml") == 0 && e->d_name[0] != '.';
}

size_t dcsim_catalog_names(dcsim_kind kind, char **names, size_t max) {
  char *dir = dcsim_path_in(dcsim_catalog_root(), kind_dirs[kind]);
  if (!dir) return 0;
  struct dirent **ents = NULL;
  int n = scandir(dir, &ents, xml_entry, alphasort);
  free(dir);
  size_t k = 0;
  for (int i = 0; i < n; i++) {
    size_t l = strlen(ents[i]->d_name) - 4;
    char *name = k < max ? malloc(l + 1) : NULL;
    if (name) {
      memcpy(name, ents[i]->d_name, l);
      name[l] = '\0';
      names[k++] = name;
    }
    free(ents[i]);
  }
  free(ents);
  return k;
}

/* "; did you mean xeon-e5-2697v3?" when a data file of that kind has a close name (malloc'd), else
 * NULL */
static char *suggest_name(dcsim_kind kind, const char *ref) {
  char *names[512];
  size_t n = dcsim_catalog_names(kind, names, 512);
  const char *best[3];
  size_t k = dcsim_suggest_n(ref, (const char *const *)names, n, best, 3);
  char *hint = k == 1   ? dcsim_strdup_printf("; did you mean %s?", best[0])
               : k == 2 ? dcsim_strdup_printf("; did you mean %s or %s?", best[0], best[1])
               : k == 3
                   ? dcsim_strdup_printf("; did you mean %s, %s or %s?", best[0], best[1], best[2])
                   : NULL;
  for (size_t i = 0; i < n; i++) free(names[i]);
  return hint;
}

/* the part of `path` (a resolved absolute path) below directory `dir` (resolved), or NULL */
static const char *below(const char *path, const char *dir) {
  size_t l = strlen(dir);
  if (l && dir[l - 1] == '/') l--;
  return strncmp(path, dir, l) == 0 && path[l] == '/' ? path + l + 1 : NULL;
}

/* realpath() into a malloc'd string (NULL when p cannot be resolved); -1 when out of memory */
static int resolved(const char *p, char **out) {
  errno = 0;
  *out = p ? realpath(p, NULL) : NULL;
  return !*out && errno == ENOMEM ? -1 : 0;
}

char *dcsim_catalog_relname(const char *path, const char *input) {
  char *rp = NULL, *rr = NULL, *ri = NULL, *out = NULL;
  if (resolved(path, &rp) == 0 && resolved(dcsim_catalog_root(), &rr) == 0 &&
      resolved(input, &ri) == 0) {
    const char *p = rp ? rp : path, *rel = rr ? below(p, rr) : NULL;
    char *slash = !rel && ri ? strrchr(ri, '/') : NULL;
    if (slash) {
      *slash = '\0';
      rel = below(p, ri);
    }
    if (!rel) {
      const char *base = strrchr(p, '/');
      rel = base ? base + 1 : p;
    }
    out = dcsim_strdup(rel);
  }
  free(rp);
  free(rr);
  free(ri);
  return out;
}
