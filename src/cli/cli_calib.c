/* cli_calib.c — `dcsim calibrate` (tables, fits, GPU counters, imports) and `dcsim bench`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dcsim/bench.h"
#include "dcsim/calib_report.h"
#include "dcsim/calibdir.h"
#include "dcsim/catalog.h"
#include "dcsim/cli.h"
#include "dcsim/dwarf.h"
#include "dcsim/fit_coeffs.h"
#include "dcsim/fit_scaling.h"
#include "dcsim/hvs.h"
#include "dcsim/hwprofile.h"
#include "dcsim/import_cpu.h"
#include "dcsim/import_gpu.h"
#include "dcsim/import_gpubench.h"
#include "dcsim/import_inputs.h"
#include "dcsim/import_kerncraft.h"
#include "dcsim/import_likwid.h"
#include "dcsim/import_template.h"
#include "dcsim/plot.h"
#include "dcsim/repro.h"
#include "dcsim/sampling.h"
#include "dcsim/strutil.h"
#include "util/fileio.h"
#include "util/xmledit.h"

/* Output: -o PATH (written atomically) or stdout. */
static int emit(const dcsim_args *a, const char *text, dcsim_error *err) {
  const char *out = dcsim_arg(a, "output");
  if (!out || strcmp(out, "-") == 0) {
    fputs(text, stdout);
    return 0;
  }
  return dcsim__file_write_atomic(out, text, err);
}

static int need_pos(const dcsim_args *a, int n, const char *what, dcsim_error *err) {
  if (a->n_positional < n)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 0, "'dcsim calibrate %s' needs %s",
                     a->positional[0], what);
  return 0;
}

static int load_cpu(const dcsim_args *a, dcsim_cpu_profile_t **p, dcsim_error *err) {
  const char *ref = dcsim_arg(a, "cpu");
  if (!ref) return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 0, "--cpu PROFILE is required");
  char *path = NULL;
  int rc = dcsim_catalog_find(DCSIM_KIND_CPU, ref, "command line", dcsim_arg_index(a, "cpu"), &path,
                              err);
  if (!rc) rc = dcsim_cpu_profile_load(path, p, err);
  free(path);
  return rc;
}

/* `dcsim calibrate cpu --template DIR`: the skeleton to fill (dcsim/import_template.h) */
static int cal_cpu_template(const dcsim_args *a, const char *dir, dcsim_error *err) {
  if (a->n_positional > 1 || dcsim_arg(a, "output"))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "template"),
                     "--template DIR writes the directory DIR; it takes no calibration directory "
                     "and no -o");
  int rc = dcsim_calib_cpu_template(dir, err);
  if (!rc && !dcsim_arg_flag(a, "quiet"))
    printf(
        "wrote %s: fill every FILL of machine.xml and the CSV files (README.md says how), then "
        "dcsim calibrate cpu %s\n",
        dir, dir);
  return rc;
}

static int cal_cpu(const dcsim_args *a, dcsim_error *err) {
  const char *tdir = dcsim_arg(a, "template");
  if (tdir) return cal_cpu_template(a, tdir, err);
  int rc = need_pos(a, 2, "a calibration directory (or --template DIR to write one to fill)", err);
  if (rc) return rc;
  /* every placeholder of a template left unfilled, listed at once on stderr */
  if ((rc = dcsim_calib_cpu_unfilled(a->positional[1], stderr, err))) return rc;
  char *text = NULL, *rep = NULL;
  size_t rlen = 0;
  FILE *rf = open_memstream(&rep, &rlen);
  if (!rf) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  rc = dcsim_calib_cpu_profile_report(a->positional[1], &text, rf, err);
  fclose(rf);
  if (!rc) rc = dcsim_calib_check_made_profile(a->positional[1], text, err);
  if (!rc) rc = emit(a, text, err);
  /* what was fitted and assumed: beside the profile on stdout, or on stderr when it is stdout */
  const char *out = dcsim_arg(a, "output");
  if (!rc && rep) fputs(rep, !out || strcmp(out, "-") == 0 ? stderr : stdout);
  free(text);
  free(rep);
  return rc;
}

static int get_method(const dcsim_args *a, const char *opt, dcsim_fit_method dflt,
                      dcsim_fit_method *m, dcsim_error *err) {
  const char *v = dcsim_arg(a, opt);
  *m = dflt;
  if (v && dcsim_fit_method_parse(v, m) != 0)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, opt),
                     "--%s '%s': expected lad, lsq or endpoints", opt, v);
  return 0;
}

static int cal_loops(const dcsim_args *a, dcsim_error *err) {
  int rc = need_pos(a, 2, "a CSV of loop measurements", err);
  if (rc) return rc;
  dcsim_cpu_profile_t *cpu = NULL;
  dcsim_loop_fit *fits = NULL;
  size_t nf = 0;
  dcsim_loop_fit_opts o = { DCSIM_FIT_LAD, DCSIM_FIT_LSQ,
                            dcsim_arg_flag(a, "quiet") ? NULL : stdout, 0 };
  if ((rc = get_method(a, "method", DCSIM_FIT_LAD, &o.mop_method, err))) goto out;
  if ((rc = get_method(a, "flop-method", DCSIM_FIT_LSQ, &o.flop_method, err))) goto out;
  if ((rc = load_cpu(a, &cpu, err))) goto out;
  if ((rc = dcsim_calib_fit_loops(a->positional[1], cpu, &o, &fits, &nf, err))) goto out;
  const char *dw = dcsim_arg(a, "dwarf"), *outp = dcsim_arg(a, "output");
  if (dw) {
    if (!outp) {
      rc = DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "dwarf"),
                     "--dwarf needs -o OUT.xml (the dwarf with the fitted coefficients)");
      goto out;
    }
    char *src =
        dcsim_strdup_printf("fitted: dcsim calibrate loops %s (%s/%s) on %s", a->positional[1],
                            dcsim_fit_method_name(o.mop_method),
                            dcsim_fit_method_name(o.flop_method), dcsim_cpu_profile_name(cpu));
    const char *user = dcsim_arg(a, "source");
    rc = !src ? DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory")
              : dcsim_calib_update_dwarf(dw, outp, fits, nf, user ? user : src, err);
    free(src);
    if (rc) goto out;
    if (!o.report) goto out;
    printf("wrote %s\n", outp);
  }
out:
  free(fits);
  dcsim_cpu_profile_free(cpu);
  return rc;
}

/* `dcsim calibrate energy CSV --cpu P`: the fit's report, then its elements on stdout or to -o
 * (atomically). */
static int cal_energy(const dcsim_args *a, dcsim_error *err) {
  int rc = need_pos(a, 2, "a CSV of energy measurements (cores,pkg_j,dram_j)", err);
  if (rc) return rc;
  dcsim_cpu_profile_t *cpu = NULL;
  dcsim_fit_method m;
  dcsim_energy_fit ef;
  if ((rc = get_method(a, "method", DCSIM_FIT_LSQ, &m, err))) return rc;
  if ((rc = load_cpu(a, &cpu, err))) return rc;
  rc = dcsim_calib_fit_energy(a->positional[1], cpu, dcsim_arg(a, "freq"), m,
                              dcsim_arg_flag(a, "quiet") ? NULL : stdout, &ef, err);
  char *text = NULL;
  size_t len = 0;
  FILE *f = rc ? NULL : open_memstream(&text, &len);
  if (!rc && !f) rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  if (f) {
    dcsim_energy_fit_xml(f, &ef, m, a->positional[1], dcsim_cpu_profile_name(cpu),
                         dcsim_arg(a, "source"));
    if (fclose(f) != 0) rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  }
  const char *outp = dcsim_arg(a, "output");
  if (!rc && !(rc = emit(a, text, err)) && outp && strcmp(outp, "-") != 0 &&
      !dcsim_arg_flag(a, "quiet"))
    printf("wrote %s\n", outp);
  free(text);
  dcsim_cpu_profile_free(cpu);
  return rc;
}

/* `dcsim calibrate gpu BENCH.csv [POWER.csv]`: a GPU profile from tools/gpu-bench. */
static int cal_gpu_bench(const dcsim_args *a, dcsim_error *err) {
  if (a->n_positional > 3)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 0,
                     "calibrate gpu with a gpu-bench CSV takes at most one power log after it");
  dcsim_gpubench b;
  dcsim_gpu_power_fit pw;
  dcsim_gpu_phase_fit ph;
  enum { PROFILE_NAME_MAX = 127 }; /* the longest --name */
  char *name = NULL, *text = NULL;
  const char *nm = dcsim_arg(a, "name");
  if (nm && (!*nm || strlen(nm) > PROFILE_NAME_MAX ||
             strspn(nm, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:>+-") !=
                 strlen(nm)))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "name"),
                     "--name: a profile name is 1 to %d letters, digits and _ . : > + -",
                     PROFILE_NAME_MAX);
  int rc = dcsim_gpubench_load(a->positional[1], &b, err);
  if (!rc) rc = dcsim_gpubench_check_peaks(&b, err);
  if (!rc && a->n_positional == 3) rc = dcsim_gpu_power_fit_csv(a->positional[2], &pw, err);
  if (!rc && b.n_phases) rc = dcsim_gpubench_fit_phases(&b, &ph, err);
  if (rc) return rc;
  /* --name is checked above: the profile schema's name, so that the profile loads */
  if (!(name = nm ? dcsim_strdup(nm) : dcsim_calib_gpu_profile_name(b.name)))
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  const dcsim_gpu_power_fit *pp = a->n_positional == 3 ? &pw : NULL;
  const dcsim_gpu_phase_fit *php = b.n_phases ? &ph : NULL;
  rc = dcsim_gpubench_profile_xml(&b, pp, php, name, &text, err);
  free(name);
  if (rc) return rc;
  int quiet = dcsim_arg_flag(a, "quiet");
  const char *outp = dcsim_arg(a, "output");
  if (!quiet) dcsim_gpubench_report(stdout, &b, pp, php);
  if (outp && strcmp(outp, "-") != 0) {
    if (!(rc = emit(a, text, err)) && !quiet) printf("wrote %s\n", outp);
  } else {
    fputs(text, stdout);
  }
  free(text);
  return rc;
}

static int cal_gpu(const dcsim_args *a, dcsim_error *err) {
  int rc = need_pos(a, 2, "profiler exports (nvprof or ncu --csv), one per GPU, or a gpu-bench CSV",
                    err);
  if (rc) return rc;
  if (dcsim_gpubench_is_bench(a->positional[1])) return cal_gpu_bench(a, err);
  double N = 0;
  const char *ns = dcsim_arg(a, "domain-size");
  if (ns && (dcsim_parse_double(ns, &N) != 0 || !(N > 0)))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "domain-size"),
                     "--domain-size '%s': must be a number > 0 (the size N of the profiled domain)",
                     ns);
  dcsim_gpu_calib *c = NULL;
  char *text = NULL;
  if ((rc = dcsim_calib_gpu(a->positional + 1, (size_t)a->n_positional - 1, N, &c, err))) return rc;
  dcsim_str src = DCSIM_STR_INIT; /* the source= of the kernels: the command that made them */
  dcsim_str_add(&src, "calibrated: dcsim calibrate gpu");
  for (int i = 1; i < a->n_positional; i++) dcsim_str_addf(&src, " %s", a->positional[i]);
  dcsim_str_addf(&src, " (D3.5 Table 8, mean over %zu GPU%s)", c->n_gpus,
                 c->n_gpus == 1 ? "" : "s");
  if (src.oom) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    goto out;
  }
  const char *source = dcsim_arg(a, "source") ? dcsim_arg(a, "source") : dcsim_str_cstr(&src);
  int quiet = dcsim_arg_flag(a, "quiet");
  if (!quiet) dcsim_calib_gpu_report(stdout, c);
  const char *dw = dcsim_arg(a, "dwarf"), *outp = dcsim_arg(a, "output");
  if (dw) {
    if (!outp) {
      rc = DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "dwarf"),
                     "--dwarf needs -o OUT.xml (the dwarf with the calibrated kernels)");
      goto out;
    }
    if ((rc = dcsim_calib_update_dwarf_kernels(dw, outp, c, source, err))) goto out;
    if (!quiet) printf("wrote %s\n", outp);
    goto out;
  }
  if ((rc = dcsim_calib_gpu_kernels_xml(c, source, &text, err))) goto out;
  if (outp && strcmp(outp, "-") != 0) {
    if ((rc = emit(a, text, err))) goto out;
    if (!quiet) printf("wrote %s\n", outp);
  } else {
    fputs(text, stdout);
  }
out:
  dcsim_str_release(&src);
  free(text);
  dcsim_gpu_calib_free(c);
  return rc;
}

/* What `calibrate scaling` fits: the runs CSV, the calibration directory, the dwarf (its name,
 * then its path) and the CPU profile's name; malloc'd, each. */
typedef struct scaling_inputs {
  char *csv, *dir, *dwarf, *cpu;
} scaling_inputs;

static void scaling_inputs_release(scaling_inputs *in) {
  free(in->csv);
  free(in->dir);
  free(in->dwarf);
  free(in->cpu);
}

/* in->dwarf named by --dwarf, by the directory's one DWARF-runs.csv, or by the CSV's name */
static int scaling_names(const dcsim_args *a, const char *pos, int is_dir, scaling_inputs *in,
                         dcsim_error *err) {
  const char *dw = dcsim_arg(a, "dwarf");
  const char *base = strrchr(pos, '/') ? strrchr(pos, '/') + 1 : pos;
  size_t l = strlen(base), sfx = strlen("-runs.csv");
  if (is_dir && !dw) return dcsim_calibdir_find_runs_csv(pos, &in->csv, &in->dwarf, err);
  if (!is_dir && !(in->csv = dcsim_strdup(pos)))
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  if (!is_dir && !dw && (l <= sfx || strcmp(base + l - sfx, "-runs.csv") != 0))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 0,
                     "%s: name the dwarf with --dwarf (or call the file DWARF-runs.csv)", pos);
  in->dwarf = dw ? dcsim_strdup(dw) : dcsim_strdup_printf("%.*s", (int)(l - sfx), base);
  return in->dwarf ? 0 : DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
}

/* DIR (NAME-runs.csv, machine.xml) or a CSV (its directory holds machine.xml); --dwarf and --cpu
 * name them otherwise. */
static int scaling_resolve(const dcsim_args *a, dcsim_dwarf_t **d, dcsim_cpu_profile_t **cpu,
                           scaling_inputs *in, dcsim_error *err) {
  const char *pos = a->positional[1];
  struct stat sb;
  int rc, is_dir = stat(pos, &sb) == 0 && S_ISDIR(sb.st_mode);
  const char *slash = strrchr(pos, '/');
  in->dir = is_dir  ? dcsim_strdup(pos)
            : slash ? dcsim_strdup_printf("%.*s", (int)(slash - pos), pos)
                    : dcsim_strdup(".");
  if (!in->dir) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  if ((rc = scaling_names(a, pos, is_dir, in, err))) return rc;
  char *path = NULL;
  if ((rc = dcsim_catalog_find(DCSIM_KIND_DWARF, in->dwarf, "command line",
                               dcsim_arg_index(a, "dwarf"), &path, err)) ||
      (rc = dcsim_dwarf_load(path, d, err))) {
    free(path);
    return rc;
  }
  free(in->dwarf);
  in->dwarf = path;
  if (is_dir && !in->csv &&
      !(in->csv = dcsim_strdup_printf("%s/%s-runs.csv", pos, dcsim_dwarf_name(*d))))
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  if (dcsim_arg(a, "cpu")) return load_cpu(a, cpu, err);
  if ((rc = dcsim_calibdir_machine_name(in->dir, &in->cpu, err)) ||
      (rc = dcsim_catalog_find(DCSIM_KIND_CPU, in->cpu, "command line", 0, &path, err)))
    return rc;
  rc = dcsim_cpu_profile_load(path, cpu, err);
  free(path);
  return rc;
}

static int cal_scaling(const dcsim_args *a, dcsim_error *err) {
  int rc = need_pos(a, 2, "a calibration directory or a CSV of runs (case,threads,freq_ghz,time_s)",
                    err);
  if (rc) return rc;
  scaling_inputs in = { NULL, NULL, NULL, NULL };
  dcsim_dwarf_t *d = NULL;
  dcsim_cpu_profile_t *cpu = NULL;
  dcsim_scaling_fit fit = { 0 };
  char *src = NULL; /* the source= of the fitted elements */
  if ((rc = scaling_resolve(a, &d, &cpu, &in, err)) ||
      (rc = dcsim_calib_fit_scaling(in.csv, d, cpu, &fit, err)))
    goto out;
  const char *cname = dcsim_cpu_profile_name(cpu), *outp = dcsim_arg(a, "output");
  if (!(src = dcsim_strdup_printf("fitted: dcsim calibrate scaling %s on %s", in.csv, cname))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    goto out;
  }
  const char *source = dcsim_arg(a, "source") ? dcsim_arg(a, "source") : src;
  int quiet = dcsim_arg_flag(a, "quiet");
  if (!quiet) {
    dcsim_calib_scaling_report(stdout, &fit, dcsim_dwarf_name(d), cname, in.csv);
    putchar('\n');
  }
  if (outp && strcmp(outp, "-") != 0) {
    if ((rc = dcsim_calib_update_dwarf_scaling(in.dwarf, outp, &fit, cname, source, err))) goto out;
    if (!quiet) printf("wrote %s\n", outp);
  } else {
    dcsim_calib_scaling_xml(stdout, &fit, cname, source);
  }
out:
  free(src);
  scaling_inputs_release(&in);
  dcsim_scaling_fit_release(&fit);
  dcsim_cpu_profile_free(cpu);
  dcsim_dwarf_free(d);
  return rc;
}

static int need_dir(const dcsim_args *a, const char **dir, dcsim_error *err) {
  *dir = dcsim_arg(a, "output");
  if (!*dir || strcmp(*dir, "-") == 0)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 0,
                     "'dcsim calibrate %s' needs -o DIR (the calibration directory to write)",
                     a->positional[0]);
  return 0;
}

static int cal_import_likwid(const dcsim_args *a, dcsim_error *err) {
  const char *dir;
  int rc = need_pos(a, 2, "likwid-bench output files", err);
  if (rc || (rc = need_dir(a, &dir, err))) return rc;
  return dcsim_calib_import_likwid(a->positional + 1, (size_t)a->n_positional - 1, dir,
                                   dcsim_arg(a, "test"), dcsim_arg(a, "freq"),
                                   dcsim_arg_flag(a, "quiet") ? NULL : stdout, err);
}

static int cal_import_kerncraft(const dcsim_args *a, dcsim_error *err) {
  const char *dir;
  int rc = need_pos(a, 2, "a Kerncraft machine file (YAML)", err);
  if (rc || (rc = need_dir(a, &dir, err))) return rc;
  return dcsim_calib_import_kerncraft(a->positional[1], dir, dcsim_arg(a, "test"),
                                      dcsim_arg_flag(a, "quiet") ? NULL : stdout, err);
}

/* the options of `calibrate sampling` into o (defaults: dcsim_sampling_default_opts) */
static int sampling_opts(const dcsim_args *a, dcsim_sampling_opts *o, dcsim_error *err) {
  unsigned budget = 64, batch = 8, seeds = 9, seed = 1;
  int rc;
  dcsim_sampling_default_opts(o);
  if ((rc = dcsim_arg_uint(a, "budget", 64, &budget, err)) ||
      (rc = dcsim_arg_uint(a, "batch", 8, &batch, err)) ||
      (rc = dcsim_arg_uint(a, "seeds", 9, &seeds, err)) ||
      (rc = dcsim_arg_uint(a, "seed", 1, &seed, err)) ||
      (rc = dcsim_arg_double(a, "target", 0.05, &o->target, err)))
    return rc;
  if (budget == 0 || batch == 0 || seeds == 0 || seeds > 99 || !(o->target >= 0))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 0,
                     "sampling: budget, batch and seeds must be >= 1 (seeds <= 99), target >= 0");
  o->budget = budget;
  o->batch = batch;
  o->seeds = seeds;
  o->seed0 = seed;
  return 0;
}

/* the sampler of --sampler, or the first to reach the target (hvs if none does) */
static int plan_sampler(const dcsim_args *a, const dcsim_sampling_curve *c, size_t n,
                        dcsim_sampler *s, dcsim_error *err) {
  const char *name = dcsim_arg(a, "sampler");
  if (name && dcsim_sampler_parse(name, s) != 0)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "sampler"),
                     "--sampler '%s': hvs, hvs-relative, qbc, lhs or random", name);
  if (name) return 0;
  *s = DCSIM_SAMPLER_HVS;
  size_t best = 0;
  for (size_t i = 0; i < n; i++)
    if (c[i].to_target && (!best || c[i].to_target < best)) {
      best = c[i].to_target;
      *s = c[i].sampler;
    }
  return 0;
}

/* The study as a picture, captioned with the profile it ran on (dcsim/repro.h). */
static int sampling_plot(const dcsim_sampling_curve *c, const char *what, double target,
                         const char *profile, const char *pf, dcsim_error *err) {
  dcsim_plot_format fmt = DCSIM_PLOT_PNG;
  dcsim_repro rp;
  char caption[512];
  dcsim_repro_init(&rp, profile);
  int rc = dcsim_plot_format_of(pf, NULL, &fmt, err);
  if (!rc) rc = dcsim_repro_add(&rp, profile, NULL, err);
  if (!rc) {
    dcsim_repro_caption(&rp, caption, sizeof caption);
    rc = dcsim_plot_sampling(c, 5, what, target, caption, pf, fmt, dcsim_cli_catch_interrupts(),
                             err);
  }
  dcsim_repro_release(&rp);
  return rc;
}

/* ASK's protocol on a profile's table: which (frequency, cores) states to measure */
static int cal_sampling(const dcsim_args *a, dcsim_error *err) {
  static const dcsim_sampler all[] = { DCSIM_SAMPLER_RANDOM, DCSIM_SAMPLER_LHS, DCSIM_SAMPLER_HVS,
                                       DCSIM_SAMPLER_HVS_RELATIVE, DCSIM_SAMPLER_QBC };
  char *path = NULL, *what = NULL; /* the profile's path; what the study is of */
  const char *q = dcsim_arg(a, "quantity") ? dcsim_arg(a, "quantity") : "DRAM";
  dcsim_cpu_profile_t *cpu = NULL;
  double *x = NULL, *y = NULL;
  size_t n = 0, *plan = NULL, n_plan = 0;
  dcsim_sampling_opts o;
  dcsim_sampling_curve c[5];
  dcsim_sampler ps;
  int rc;
  if ((rc = need_pos(a, 2, "a CPU profile", err)) || (rc = sampling_opts(a, &o, err)) ||
      (rc = plan_sampler(a, NULL, 0, &ps, err)) ||
      (rc = dcsim_catalog_find(DCSIM_KIND_CPU, a->positional[1], "command line", 2, &path, err)) ||
      (rc = dcsim_cpu_profile_load(path, &cpu, err)) ||
      (rc = dcsim_sampling_profile_problem(cpu, q, &x, &y, &n, err)))
    goto out;
  dcsim_sampling_problem p = { n, 2, x, y };
  if ((rc = dcsim_sampling_study(&p, &o, all, 5, c, err)) || (rc = plan_sampler(a, c, 5, &ps, err)))
    goto out;
  size_t best = 0;
  for (size_t i = 0; i < 5; i++)
    if (c[i].sampler == ps) best = c[i].to_target;
  dcsim_sampling_opts po = o;
  po.budget = best ? best : o.budget; /* the plan: as many states as the sampler needed */
  if (!(plan = malloc(n * sizeof *plan))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    goto out;
  }
  if ((rc = dcsim_sampling_plan(&p, ps, &po, plan, &n_plan, err))) goto out;
  if (!(what =
            dcsim_strdup_printf("%s %s over (frequency, cores)", dcsim_cpu_profile_name(cpu), q))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    goto out;
  }
  dcsim_sampling_write_text(stdout, what, &p, &o, c, 5, plan, n_plan, ps);
  const char *pf = dcsim_arg(a, "plot");
  if (pf) rc = sampling_plot(c, what, o.target, path, pf, err);
out:
  free(what);
  free(path);
  free(plan);
  free(x);
  free(y);
  dcsim_cpu_profile_free(cpu);
  return rc;
}

/* An option given that the command `cmd` ("calibrate cpu", "bench --from") does not read (not in
 * the comma-separated `opts`) is refused, naming the ones it reads: no option is silently ignored
 * (calibrate energy once dropped -o and --source silently). */
static int only_options(const dcsim_args *a, const char *cmd, const char *opts, dcsim_error *err) {
  for (size_t i = 0; i < a->n_specs; i++) {
    const char *name = a->specs[i].name;
    size_t l = strlen(name);
    int listed = 0;
    for (const char *p = opts; *p && !listed; p += strcspn(p, ",") + (p[strcspn(p, ",")] != 0))
      listed = strncmp(p, name, l) == 0 && (p[l] == ',' || p[l] == 0);
    if (a->count[i] == 0 || listed) continue;
    dcsim_str list = DCSIM_STR_INIT; /* "--a, --b" */
    for (const char *p = opts; *p;) {
      size_t k = strcspn(p, ",");
      dcsim_str_addf(&list, "%s--%.*s", list.len ? ", " : "", (int)k, p);
      p += k + (p[k] != 0);
    }
    int rc = list.oom ? DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory")
                      : DCSIM_ERR(err, DCSIM_EUSAGE, "command line", a->argi[i][0],
                                  "--%s is not an option of 'dcsim %s', which reads %s", name, cmd,
                                  dcsim_str_cstr(&list));
    dcsim_str_release(&list);
    return rc;
  }
  return 0;
}

int dcsim_cmd_calibrate(const dcsim_args *a, dcsim_error *err) {
  static const struct {
    const char *name;
    int (*run)(const dcsim_args *, dcsim_error *);
    int many;
    int out_file;     /* -o names a file (checked before the work), else a directory */
    const char *opts; /* the options it reads: any other is refused */
  } subs[] = {
    { "cpu", cal_cpu, 0, 1, "template,output,quiet" },
    { "loops", cal_loops, 0, 1, "cpu,dwarf,method,flop-method,source,output,quiet" },
    { "energy", cal_energy, 0, 1, "cpu,method,freq,source,output,quiet" },
    { "scaling", cal_scaling, 0, 1, "cpu,dwarf,source,output,quiet" },
    { "gpu", cal_gpu, 1, 1, "dwarf,domain-size,name,source,output,quiet" },
    { "import-likwid", cal_import_likwid, 1, 0, "test,freq,output,quiet" },
    { "import-kerncraft", cal_import_kerncraft, 0, 0, "test,output,quiet" },
    { "sampling", cal_sampling, 0, 0, "quantity,budget,batch,seeds,seed,target,sampler,plot" },
  };
  const char *what = a->positional[0], *out = dcsim_arg(a, "output");
  for (size_t i = 0; i < sizeof subs / sizeof *subs; i++) {
    if (strcmp(what, subs[i].name) != 0) continue;
    if (i > 0 && dcsim_arg(a, "template"))
      return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "template"),
                       "--template is for 'dcsim calibrate cpu' only");
    if (!subs[i].many && a->n_positional > 2)
      return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 0,
                       "'dcsim calibrate %s' takes one argument, not %d", what,
                       a->n_positional - 1);
    char *cmd = dcsim_strdup_printf("calibrate %s", what);
    int rc = cmd ? only_options(a, cmd, subs[i].opts, err)
                 : DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    free(cmd);
    if (rc) return rc;
    if (subs[i].out_file && out && strcmp(out, "-") != 0 &&
        (rc = dcsim_path_check_writable(out, "-o", err)))
      return rc;
    return subs[i].run(a, err);
  }
  const char *names[sizeof subs / sizeof *subs];
  for (size_t i = 0; i < sizeof subs / sizeof *subs; i++) names[i] = subs[i].name;
  const char *best = dcsim_suggest(what, names, sizeof names / sizeof *names);
  return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 2,
                   "unknown calibration '%s'%s%s%s (cpu, loops, energy, scaling, gpu, "
                   "import-likwid, import-kerncraft or sampling)",
                   what, best ? "; did you mean " : "", best ? best : "", best ? "?" : "");
}

/* `dcsim bench --from DIR`: --compare and --check on a recorded bench directory, nothing measured;
 * its profile is DIR/NAME.xml, NAME from --name or DIR/machine.xml */
static int bench_from(const dcsim_args *a, const char *dir, dcsim_error *err) {
  const char *cmp = dcsim_arg(a, "compare"), *chk = dcsim_arg(a, "check");
  if (!cmp && !chk)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "from"),
                     "--from DIR needs --compare CPU or --check WORKFLOW (it measures nothing)");
  int rc = 0;
  if (cmp && (rc = dcsim_bench_compare(dir, cmp, stdout, err))) return rc;
  if (!chk) return 0;
  char *name = NULL, *ppath = NULL;
  if (dcsim_arg(a, "name") ? !(name = dcsim_strdup(dcsim_arg(a, "name")))
                           : (rc = dcsim_calibdir_machine_name(dir, &name, err)) != 0)
    return rc ? rc : DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  if (!(ppath = dcsim_strdup_printf("%s/%s.xml", dir, name)))
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  if (!rc && cmp) fputc('\n', stdout);
  if (!rc) rc = dcsim_bench_check(dir, chk, ppath, stdout, err);
  free(name);
  free(ppath);
  return rc;
}

int dcsim_cmd_bench(const dcsim_args *a, dcsim_error *err) {
  dcsim_bench_opts o;
  memset(&o, 0, sizeof o);
  unsigned reps = 0, threads = 0, budget = 0, seed = 0;
  int rc;
  if ((rc = dcsim_arg_uint(a, "reps", 0, &reps, err)) ||
      (rc = dcsim_arg_uint(a, "threads", 0, &threads, err)) ||
      (rc = dcsim_arg_uint(a, "budget", 0, &budget, err)) ||
      (rc = dcsim_arg_uint(a, "seed", 1, &seed, err)))
    return rc;
  o.out_dir = dcsim_arg(a, "output");
  if (!o.out_dir) o.out_dir = "bench-out";
  o.name = dcsim_arg(a, "name");
  if (o.name) {
    for (const char *p = o.name; *p; p++)
      if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-", *p))
        return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "name"),
                         "--name '%s': letters, digits, '_', '.', '+', '-' only", o.name);
  }
  o.db_path = dcsim_arg(a, "db");
  o.quick = dcsim_arg_flag(a, "quick");
  o.probe = dcsim_arg_flag(a, "probe");
  o.keep_suspect = dcsim_arg_flag(a, "keep-suspect");
  o.reps = reps;
  o.max_threads = threads;
  o.budget = budget;
  o.seed = seed;
  dcsim_sampler sm = DCSIM_SAMPLER_HVS;
  if (dcsim_arg(a, "sampler") && dcsim_sampler_parse(dcsim_arg(a, "sampler"), &sm) != 0)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "sampler"),
                     "--sampler '%s': hvs, hvs-relative, qbc, lhs or random",
                     dcsim_arg(a, "sampler"));
  o.sampler = (int)sm;
  o.sysfs_cpu = dcsim_arg(a, "sysfs-cpu");
  o.powercap = dcsim_arg(a, "powercap");
  o.progress = dcsim_arg_flag(a, "quiet") ? NULL : stderr;
  o.report = stdout;
  o.compare_cpu = dcsim_arg(a, "compare");
  o.check_workflow = dcsim_arg(a, "check");
  const char *tb = dcsim_arg(a, "time-budget");
  if (tb && !((o.time_budget_s = dcsim_bench_parse_duration(tb)) >= 5 && o.time_budget_s <= 86400))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "time-budget"),
                     "--time-budget '%s': a duration from 5s to 24h such as 90, 90s, 2m or 1h", tb);
  dcsim_bench_caches hand = { -1, -1, -1, 0, 0, "" };
  const char *cs = dcsim_arg(a, "cache");
  if (cs) {
    if ((rc = dcsim_bench_parse_cache_spec(cs, &hand, err))) return rc;
    o.caches = &hand;
  }
  if (dcsim_arg(a, "sampler") && !budget) /* no option silently ignored */
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "sampler"),
                     "--sampler chooses the points of --budget N; there is no --budget");
  const char *from = dcsim_arg(a, "from");
  if (from && (rc = only_options(a, "bench --from", "from,compare,check,name", err))) return rc;
  if (from) return bench_from(a, from, err);
  return dcsim_bench_run(&o, err);
}
