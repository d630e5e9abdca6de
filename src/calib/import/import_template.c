/* import_template.c — the calibration directory skeleton and its FILL placeholders (see
 * dcsim/import_template.h, doc/calibration.md "A directory to fill"). */
#include "dcsim/import_template.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/strutil.h"
#include "input/internal.h"
#include "util/fileio.h"

/* calibration/template-cpu/, embedded by tools/embed-templates.cmake */
struct dcsim_embedded_file {
  const char *name;
  const char *text;
  size_t len;
};
extern const struct dcsim_embedded_file dcsim_cpu_template_files[];

int dcsim_calib_cpu_template(const char *dir, dcsim_error *err) {
  const char *names[16], *texts[16];
  size_t n = 0;
  for (const struct dcsim_embedded_file *f = dcsim_cpu_template_files; f->name && n < 16; f++) {
    names[n] = f->name;
    texts[n++] = f->text;
  }
  int rc = dcsim__dir_write_atomic(dir, names, texts, n, err);
  if (rc == DCSIM_EIO)
    dcsim_error_suffix(err, "; the template is written into a new or empty directory only");
  return rc;
}

/* The message names the first placeholders in at most this many bytes, cut at whole items. */
#define FIRST_MAX 600

/* The placeholders found: their count, each as a line of text, the first few for the message. */
typedef struct unfilled {
  size_t n;
  FILE *list;      /* every item, NULL: none */
  dcsim_str first; /* the first items, "; "-separated, under FIRST_MAX bytes */
  int first_full;
} unfilled;

/* One placeholder item (a dcsim__calibdir_placeholder_fn; ctx: the unfilled). */
static void add_item(void *ctx, size_t count, const char *path, int line, const char *what) {
  unfilled *u = ctx;
  u->n += count;
  if (u->list) fprintf(u->list, "%s:%d: %s\n", path, line, what);
  char *item = dcsim_strdup_printf("%s%s:%d %s", u->first.len ? "; " : "", path, line, what);
  size_t l = item ? strlen(item) : 0;
  if (!item || u->first_full || u->first.len + l >= FIRST_MAX || dcsim_str_add(&u->first, item))
    u->first_full = 1;
  free(item);
}

int dcsim_calib_cpu_unfilled(const char *dir, FILE *list, dcsim_error *err) {
  char *mpath = dcsim_path_in(dir, "machine.xml");
  if (!mpath) return DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  unfilled u;
  memset(&u, 0, sizeof u);
  u.list = list;
  int rc = 0;
  dcsim__calibdir_placeholders(dir, mpath, add_item, &u); /* input/calibtemplate.c */
  if (u.n && list)
    rc = DCSIM_ERR(err, DCSIM_ESCHEMA, mpath, 0,
                   "not filled in: %zu placeholder%s FILL left (every one is listed above); give "
                   "each its figure and source, nothing was written",
                   u.n, u.n == 1 ? "" : "s");
  else if (u.n)
    rc = DCSIM_ERR(err, DCSIM_ESCHEMA, mpath, 0,
                   "not filled in: %zu placeholder%s FILL left (%s%s); give each its figure and "
                   "source, nothing was written",
                   u.n, u.n == 1 ? "" : "s", dcsim_str_cstr(&u.first), u.first_full ? "; ..." : "");
  dcsim_str_release(&u.first);
  free(mpath);
  return rc;
}
