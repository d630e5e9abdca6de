/* dcsim/format.h — the output formats of every command (--format): text, JSON, CSV, and the
 * pictures drawn through gnuplot. The writers of output/ take one; the CLI parses it. */
#ifndef DCSIM_FORMAT_H
#define DCSIM_FORMAT_H

/* The output formats of --format, one set for every command (each accepts some of them). */
typedef enum {
  DCSIM_FMT_TEXT,
  DCSIM_FMT_JSON,
  DCSIM_FMT_CSV,
  DCSIM_FMT_PNG,
  DCSIM_FMT_SVG,
  DCSIM_FMT_END /* ends a list of formats */
} dcsim_format;
/* The format's --format name ("text", "json", ...). */
const char *dcsim_format_name(dcsim_format f);
/* Whether f is a picture drawn through gnuplot (PNG, SVG). */
int dcsim_format_is_picture(dcsim_format f);
/* The allowed format named by path's extension (report.json: DCSIM_FMT_JSON), else dflt. */
dcsim_format dcsim_format_of_path(const char *path, const dcsim_format *allowed, dcsim_format dflt);

#endif
