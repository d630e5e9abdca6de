/* import_inputs.c — the name of a GPU profile made from a device and the check of a made CPU
 * profile (dcsim/import_inputs.h); what `dcsim calibrate` finds in a calibration directory is read
 * by the input layer (input/calibdir.c, dcsim/calibdir.h). */
#include "dcsim/import_inputs.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dcsim/hwprofile.h"
#include "dcsim/strutil.h"
#include "util/xmlio.h"

char *dcsim_calib_gpu_profile_name(const char *device) {
  char *out = malloc(strlen(device) + 4); /* the name is never longer than the device, or "gpu" */
  size_t n = 0;
  if (!out) return NULL;
  for (const char *p = device; *p; p++) {
    char c = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;
    int ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (ok)
      out[n++] = c;
    else if (n && out[n - 1] != '-')
      out[n++] = '-';
  }
  while (n && out[n - 1] == '-') n--;
  out[n] = 0;
  if (!n) memcpy(out, "gpu", 4);
  return out;
}

/* the schema errors of a made profile, every one, as "line N: msg; line M: msg" */
static void on_made_error(void *ctx, const dcsim_error *e) {
  dcsim_str *m = ctx;
  dcsim_str_addf(m, "%sline %d: %s", m->len ? "; " : "", e->line, e->msg);
}

/* text into a new temporary file (*tmp, its path, malloc'd); the caller removes and frees it */
static int write_temp(const char *text, char **tmp, dcsim_error *err) {
  const char *td = getenv("TMPDIR");
  if (!(*tmp = dcsim_strdup_printf("%s/dcsim-calibrate-XXXXXX", td && *td ? td : "/tmp")))
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  int fd = mkstemp(*tmp);
  if (fd < 0) {
    DCSIM_ERR(err, DCSIM_EIO, *tmp, 0, "cannot create a temporary file");
    free(*tmp);
    *tmp = NULL;
    return DCSIM_EIO;
  }
  size_t len = strlen(text);
  int ok = write(fd, text, len) == (ssize_t)len;
  close(fd);
  return ok ? 0 : DCSIM_ERR(err, DCSIM_EIO, *tmp, 0, "write error");
}

int dcsim_calib_check_made_profile(const char *dir, const char *text, dcsim_error *err) {
  char *tmp = NULL;
  dcsim_cpu_profile_t *p = NULL;
  dcsim_error e;
  memset(&e, 0, sizeof e);
  dcsim_str me = DCSIM_STR_INIT;
  size_t n_schema = 0;
  int rc = write_temp(text, &tmp, &e);
  if (!tmp) { /* nothing to check: the temporary file's error is the caller's */
    if (err) *err = e;
    return rc;
  }
  if (!rc) rc = dcsim__xml_check_file(tmp, on_made_error, &me, 20, &n_schema, &e);
  if (!rc) rc = dcsim_cpu_profile_load(tmp, &p, &e);
  dcsim_cpu_profile_free(p);
  unlink(tmp);
  free(tmp);
  char *mpath = rc ? dcsim_path_in(dir, "machine.xml") : NULL;
  if (rc && !mpath)
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  else if (rc && n_schema)
    rc = DCSIM_ERR(err, DCSIM_ESCHEMA, mpath, 0,
                   "the profile made from it would not load: %zu %s (%s); fix this file, "
                   "nothing was written",
                   n_schema, n_schema == 1 ? "error" : "errors", dcsim_str_cstr(&me));
  else if (rc)
    rc = DCSIM_ERR(err, rc == DCSIM_EIO ? DCSIM_EIO : DCSIM_ESCHEMA, mpath, 0,
                   "the profile made from it would not load (its line %d: %s); fix this file, "
                   "nothing was written",
                   e.line, e.msg);
  free(mpath);
  dcsim_str_release(&me);
  return rc;
}
