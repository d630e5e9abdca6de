/* cli_calib.c — `dcsim calibrate` (tables, fits, GPU counters, imports) and `dcsim bench`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/bench.h"
#include "dcsim/calib.h"
#include "dcsim/catalog.h"
#include "dcsim/cli.h"
#include "dcsim/hwprofile.h"
#include "dcsim/xmlio.h"

/* Output: -o PATH (written atomically) or stdout. */
static int emit(const dcsim_args *a, const char *text, dcsim_error *err) {
  const char *out = dcsim_arg(a, "output");
  if (!out || strcmp(out, "-") == 0) {
    fputs(text, stdout);
    return 0;
  }
  return dcsim_calib_write_file(out, text, err);
}

static int need_pos(const dcsim_args *a, int n, const char *what, dcsim_error *err) {
  if (a->n_positional < n)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 0, "'dcsim calibrate %s' needs %s", a->positional[0], what);
  return 0;
}

static int load_cpu(const dcsim_args *a, dcsim_cpu_profile_t **p, dcsim_error *err) {
  const char *ref = dcsim_arg(a, "cpu");
  if (!ref) return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 0, "--cpu PROFILE is required");
  char path[4096];
  int rc = dcsim_catalog_resolve(DCSIM_KIND_CPU, ref, NULL, dcsim_arg_index(a, "cpu"), path, sizeof path, err);
  return rc ? rc : dcsim_cpu_profile_load(path, p, err);
}

static int cal_cpu(const dcsim_args *a, dcsim_error *err) {
  int rc = need_pos(a, 2, "a calibration directory", err);
  if (rc) return rc;
  char *text = NULL;
  if ((rc = dcsim_calib_cpu_profile(a->positional[1], &text, err))) return rc;
  rc = emit(a, text, err);
  free(text);
  return rc;
}

static int get_method(const dcsim_args *a, const char *opt, dcsim_fit_method dflt, dcsim_fit_method *m, dcsim_error *err) {
  const char *v = dcsim_arg(a, opt);
  *m = dflt;
  if (v && dcsim_fit_method_parse(v, m) != 0)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, opt), "--%s '%s': expected lad, lsq or endpoints", opt, v);
  return 0;
}

static int cal_loops(const dcsim_args *a, dcsim_error *err) {
  int rc = need_pos(a, 2, "a CSV of loop measurements", err);
  if (rc) return rc;
  dcsim_cpu_profile_t *cpu = NULL;
  dcsim_loop_fit *fits = NULL;
  size_t nf = 0;
  dcsim_loop_fit_opts o = {DCSIM_FIT_LAD, DCSIM_FIT_LSQ, dcsim_arg_flag(a, "quiet") ? NULL : stdout, 0};
  if ((rc = get_method(a, "method", DCSIM_FIT_LAD, &o.mop_method, err))) goto out;
  if ((rc = get_method(a, "flop-method", DCSIM_FIT_LSQ, &o.flop_method, err))) goto out;
  if ((rc = load_cpu(a, &cpu, err))) goto out;
  if ((rc = dcsim_calib_fit_loops(a->positional[1], cpu, &o, &fits, &nf, err))) goto out;
  const char *dw = dcsim_arg(a, "dwarf"), *outp = dcsim_arg(a, "output");
  if (dw) {
    if (!outp) { rc = DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "dwarf"), "--dwarf needs -o OUT.xml (the dwarf with the fitted coefficients)"); goto out; }
    char src[1024];
    snprintf(src, sizeof src, "fitted: dcsim calibrate loops %s (%s/%s) on %s", a->positional[1], dcsim_fit_method_name(o.mop_method),
             dcsim_fit_method_name(o.flop_method), dcsim_cpu_profile_name(cpu));
    const char *user = dcsim_arg(a, "source");
    if ((rc = dcsim_calib_update_dwarf(dw, outp, fits, nf, user ? user : src, err))) goto out;
    if (!o.report) goto out;
    printf("wrote %s\n", outp);
  }
out:
  free(fits);
  dcsim_cpu_profile_free(cpu);
  return rc;
}

static int cal_energy(const dcsim_args *a, dcsim_error *err) {
  int rc = need_pos(a, 2, "a CSV of energy measurements (cores,pkg_j,dram_j)", err);
  if (rc) return rc;
  dcsim_cpu_profile_t *cpu = NULL;
  dcsim_fit_method m;
  dcsim_energy_fit ef;
  if ((rc = get_method(a, "method", DCSIM_FIT_LSQ, &m, err))) return rc;
  if ((rc = load_cpu(a, &cpu, err))) return rc;
  rc = dcsim_calib_fit_energy(a->positional[1], cpu, dcsim_arg(a, "freq"), m, dcsim_arg_flag(a, "quiet") ? NULL : stdout, &ef, err);
  if (!rc)
    printf("<energy-coefficients pkg-U=\"%.7g\" pkg-S=\"%.7g\" dram-X=\"%.7g\" dram-Y=\"%.7g\" source=\"fitted: dcsim calibrate energy %s (%s) on %s\"/>\n",
           ef.pkg_U, ef.pkg_S, ef.dram_X, ef.dram_Y, a->positional[1], dcsim_fit_method_name(m), dcsim_cpu_profile_name(cpu));
  dcsim_cpu_profile_free(cpu);
  return rc;
}

int dcsim_cmd_calibrate(const dcsim_args *a, dcsim_error *err) {
  const char *what = a->positional[0];
  if (strcmp(what, "cpu") == 0) return cal_cpu(a, err);
  if (strcmp(what, "loops") == 0) return cal_loops(a, err);
  if (strcmp(what, "energy") == 0) return cal_energy(a, err);
  return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 2, "unknown calibration '%s' (cpu, loops or energy)", what);
}

int dcsim_cmd_bench(const dcsim_args *a, dcsim_error *err) {
  dcsim_bench_opts o;
  memset(&o, 0, sizeof o);
  unsigned reps = 0, threads = 0, budget = 0, seed = 0;
  int rc;
  if ((rc = dcsim_arg_uint(a, "reps", 0, &reps, err)) || (rc = dcsim_arg_uint(a, "threads", 0, &threads, err)) ||
      (rc = dcsim_arg_uint(a, "budget", 0, &budget, err)) || (rc = dcsim_arg_uint(a, "seed", 1, &seed, err)))
    return rc;
  o.out_dir = dcsim_arg(a, "output");
  if (!o.out_dir) o.out_dir = "bench-out";
  o.name = dcsim_arg(a, "name");
  if (o.name) {
    for (const char *p = o.name; *p; p++)
      if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-", *p))
        return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "name"), "--name '%s': letters, digits, '_', '.', '+', '-' only", o.name);
  }
  o.db_path = dcsim_arg(a, "db");
  o.quick = dcsim_arg_flag(a, "quick");
  o.reps = reps;
  o.max_threads = threads;
  o.budget = budget;
  o.seed = seed;
  o.sysfs_cpu = dcsim_arg(a, "sysfs-cpu");
  o.powercap = dcsim_arg(a, "powercap");
  o.progress = dcsim_arg_flag(a, "quiet") ? NULL : stderr;
  o.report = stdout;
  return dcsim_bench_run(&o, err);
}
