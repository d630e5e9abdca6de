/* format.c — the output formats of every command: their names, and which is a picture. */
#include <string.h>

#include "dcsim/format.h"

static const char *const format_names[DCSIM_FMT_END] = { "text", "json", "csv", "png", "svg" };

const char *dcsim_format_name(dcsim_format f) {
  return f >= 0 && f < DCSIM_FMT_END ? format_names[f] : "?";
}

dcsim_format dcsim_format_of_path(const char *path, const dcsim_format *allowed,
                                  dcsim_format dflt) {
  const char *dot = path ? strrchr(path, '.') : NULL;
  for (size_t k = 0; dot && allowed[k] != DCSIM_FMT_END; k++)
    if (strcmp(dot + 1, format_names[allowed[k]]) == 0) return allowed[k];
  return dflt;
}

int dcsim_format_is_picture(dcsim_format f) { return f == DCSIM_FMT_PNG || f == DCSIM_FMT_SVG; }
