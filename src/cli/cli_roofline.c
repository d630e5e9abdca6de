/* cli_roofline.c — `dcsim roofline`: a CPU state's or a GPU's roofline with a dwarf's loops or
 * kernels on it, as text, JSON, CSV or a picture (doc/sweep.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"
#include "dcsim/cli.h"
#include "dcsim/dwarf.h"
#include "dcsim/hwprofile.h"
#include "dcsim/plot.h"
#include "dcsim/repro.h"
#include "dcsim/roofline.h"
#include "dcsim/roofline_report.h"
#include "dcsim/strutil.h"

int dcsim_cmd_roofline(const dcsim_args *a, dcsim_error *err) {
  static const dcsim_format formats[] = { DCSIM_FMT_TEXT, DCSIM_FMT_JSON, DCSIM_FMT_CSV,
                                          DCSIM_FMT_PNG,  DCSIM_FMT_SVG,  DCSIM_FMT_END };
  dcsim_format fmt;
  int rc = dcsim_arg_out_format(a, formats, &fmt, err);
  if (rc) return rc;
  const char *out = dcsim_arg(a, "out");
  const int picture = dcsim_format_is_picture(fmt);
  const char *cpu = dcsim_arg(a, "cpu"), *gpu = dcsim_arg(a, "gpu"), *dwarf = dcsim_arg(a, "dwarf");
  const char *kind = dcsim_arg(a, "kind");
  int cache_aware = 1;
  if (kind && strcmp(kind, "classic") == 0)
    cache_aware = 0;
  else if (kind && strcmp(kind, "cache-aware") != 0)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "kind"),
                     "--kind '%s': classic or cache-aware", kind);
  if (kind && !picture) /* no option silently ignored */
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "kind"),
                     "--kind chooses the picture: --format png|svg or --out FILE.png|svg");
  if (!!cpu == !!gpu)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 0,
                     "give either --cpu PROFILE or --gpu PROFILE");
  if (dcsim_arg(a, "case") && !dwarf)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "case"),
                     "--case needs --dwarf");
  char *path = NULL, *label = NULL; /* the loops' label: the dwarf and its case */
  dcsim_cpu_profile_t *cp = NULL;
  dcsim_gpu_profile_t *gp = NULL;
  dcsim_dwarf_t *d = NULL;
  dcsim_dwarf_eval *ev = NULL;
  dcsim_roofline *r = NULL;
  FILE *f = NULL;
  dcsim_repro rp;
  dcsim_repro_init(&rp, NULL);
  if ((rc = dcsim_catalog_find(cpu ? DCSIM_KIND_CPU : DCSIM_KIND_GPU, cpu ? cpu : gpu,
                               "command line", 0, &path, err)) ||
      (rc = cpu ? dcsim_cpu_profile_load(path, &cp, err) : dcsim_gpu_profile_load(path, &gp, err)))
    goto out;
  if (dwarf) {
    const char *cs = dcsim_arg(a, "case");
    free(path);
    path = NULL;
    if ((rc = dcsim_catalog_find(DCSIM_KIND_DWARF, dwarf, "command line", 0, &path, err)) ||
        (rc = dcsim_dwarf_load(path, &d, err)) ||
        (rc = dcsim_dwarf_evaluate(d, cs, NULL, 0, &ev, err)))
      goto out;
    label = dcsim_strdup_printf("%s%s%s", dcsim_dwarf_name(d), cs ? " " : "", cs ? cs : "");
    if (!label) {
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
      goto out;
    }
  }
  if (cp) {
    unsigned cores = 1;
    if ((rc = dcsim_arg_cores(a, cp, &cores, err))) goto out;
    dcsim_cpu_state st = { 0, NULL, cores };
    if ((rc = dcsim_cpu_profile_freq(cp, dcsim_arg(a, "freq"), &st, err))) goto out;
    rc = dcsim_roofline_cpu(cp, &st, ev, label ? label : "", &r, err);
  } else {
    if (dcsim_arg(a, "cores") || dcsim_arg(a, "freq")) {
      rc = DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 0,
                     "--cores and --freq apply to a CPU roofline only");
      goto out;
    }
    rc = dcsim_roofline_gpu(gp, ev, label ? label : "", &r, err);
  }
  if (rc ||
      (rc = dcsim_repro_add(&rp, cp ? dcsim_cpu_profile_path(cp) : dcsim_gpu_profile_path(gp), NULL,
                            err)) ||
      (d && (rc = dcsim_repro_add(&rp, dcsim_dwarf_path(d), NULL, err))))
    goto out;
  if (picture) {
    char caption[512];
    dcsim_repro_caption(&rp, caption, sizeof caption);
    rc = dcsim_plot_roofline(r, cache_aware, caption, out,
                             fmt == DCSIM_FMT_SVG ? DCSIM_PLOT_SVG : DCSIM_PLOT_PNG,
                             dcsim_cli_catch_interrupts(), err);
    goto out;
  }
  f = out ? fopen(out, "w") : stdout;
  if (!f) {
    rc = DCSIM_ERR(err, DCSIM_EIO, out, 0, "cannot write");
    goto out;
  }
  if (fmt == DCSIM_FMT_JSON)
    dcsim_roofline_write_json(f, r, &rp);
  else if (fmt == DCSIM_FMT_CSV)
    dcsim_roofline_write_csv(f, r, &rp);
  else
    dcsim_roofline_write_text(f, r, &rp);
  if (out && fclose(f) != 0) rc = DCSIM_ERR(err, DCSIM_EIO, out, 0, "write error");
  f = NULL;
out:
  if (f && f != stdout) fclose(f);
  free(label);
  free(path);
  dcsim_repro_release(&rp);
  dcsim_roofline_free(r);
  dcsim_dwarf_eval_free(ev);
  dcsim_dwarf_free(d);
  dcsim_cpu_profile_free(cp);
  dcsim_gpu_profile_free(gp);
  return rc;
}
