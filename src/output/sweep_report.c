/* sweep_report.c — reports on a finished sweep's points: the front listing as text and one picture
 * per value of an axis (dcsim/sweep_report.h). */
#include "dcsim/sweep_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/bands.h"
#include "dcsim/cost.h"
#include "dcsim/hwprofile.h"
#include "dcsim/numfmt.h"
#include "dcsim/strutil.h"
#include "dcsim/sweep.h"
#include "output/internal.h"

/* A value of the knee line with its band when it has one (bands wherever a number is
 * printed), in SI form (si) or plain, then its unit. */
static void knee_value(FILE *f, const char *before, double x, const double *band, int si,
                       const char *unit) {
  char *num = (char[96]){ 0 }; /* a number and its band: bounded, as DCSIM_SIG */
  if (si)
    band ? dcsim_fmt_band(num, 96, x, band, unit) : dcsim_fmt_si(num, 96, x, 6, unit);
  else
    band ? dcsim_fmt_band(num, 96, x, band, NULL) : dcsim_fmt_sig(num, 96, x, 6);
  fprintf(f, "%s%s%s%s", before, num, si ? "" : " ", si ? "" : unit);
}

/* The knee line of the text output: over time and energy by default, else naming the
 * objectives and giving the cost. */
static void knee_text(FILE *f, const dcsim_sweep_point *pts, size_t n, unsigned obj) {
  for (size_t i = 0; i < n; i++) {
    if (!pts[i].knee) continue;
    const dcsim_sweep_point *p = &pts[i];
    if (obj == DCSIM_OBJ_DEFAULT)
      fprintf(f,
              "knee (closest to the utopia point, both axes scaled to [0,1] over the front): "
              "point %u",
              p->index);
    else
      fprintf(f,
              "knee (closest to the utopia point, %s each scaled to [0,1] over the front): point "
              "%u",
              dcsim_objectives_name(obj), p->index);
    knee_value(f, ", ", p->time_s, p->has_band ? p->time_band : NULL, 0, "s");
    knee_value(f, ", ", p->energy_j, p->has_band ? p->energy_band : NULL, 1, "J");
    if (obj != DCSIM_OBJ_DEFAULT)
      knee_value(f, ", ", p->cost_usd, p->has_cost_band ? p->cost_band : NULL, 0, "USD");
    fputc('\n', f);
  }
}

/* whether a finished point ran on the CPU called name: the CPUs the two notes below speak of */
static int cpu_swept(const dcsim_sweep_point *pts, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (pts[i].done && strcmp(pts[i].cpu, name) == 0) return 1;
  return 0;
}

/* The cores column is what a point's CPU tasks use per node; say what each CPU's node
 * has (its profile's cores per socket x sockets, as `--cores all`). */
static void cores_available_text(FILE *f, const dcsim_scenario *s, const dcsim_sweep_point *pts,
                                 size_t n) {
  int first = 1;
  for (size_t c = 0; c < s->n_cpus; c++) {
    const char *name = dcsim_cpu_profile_name(s->cpus[c]);
    if (!cpu_swept(pts, n, name)) continue;
    fprintf(f, "%s%s %u", first ? "cores per node available (the cores column: in use): " : ", ",
            name,
            dcsim_cpu_profile_cores_per_socket(s->cpus[c]) * dcsim_cpu_profile_sockets(s->cpus[c]));
    first = 0;
  }
  if (!first) fputc('\n', f);
}

/* Why some points' bands are wider: the CPUs whose per-core rates are a sibling's or an estimate
 * (dcsim__rates_borrowed, doc/models.md "Per-core rates"). */
static void rates_borrowed_text(FILE *f, const dcsim_scenario *s, const dcsim_sweep_point *pts,
                                size_t n) {
  int first = 1;
  for (size_t c = 0; c < s->n_cpus; c++) {
    const char *name = dcsim_cpu_profile_name(s->cpus[c]);
    if (!cpu_swept(pts, n, name) || !dcsim__rates_borrowed(s->cpus[c])) continue;
    fprintf(f, "%s%s (%s)",
            first ? "per-core rates borrowed, their time bands the cpu-time spec band twice "
                    "(doc/models.md \"Per-core rates\"): "
                  : ", ",
            name, dcsim_rates_basis_name(dcsim_cpu_profile_rates_basis(s->cpus[c], NULL)));
    first = 0;
  }
  if (!first) fputc('\n', f);
}

/* whether a done point's time band reaches the nominal clock's time (turbo_unmeasured) */
static int turbo_point(const dcsim_sweep_point *p) {
  return p->done && p->feasible && p->turbo_unmeasured;
}

/* the indices of such points of pts whose CPU is cpu, as "point 3" or "points 0, 2" (the first
 * ten, then how many more) */
static size_t turbo_points(dcsim_str *b, const dcsim_sweep_point *pts, size_t n, const char *cpu) {
  size_t count = 0, shown = 0;
  for (size_t i = 0; i < n; i++) count += turbo_point(&pts[i]) && strcmp(pts[i].cpu, cpu) == 0;
  dcsim_str_add(b, count > 1 ? "points " : "point ");
  for (size_t i = 0; i < n && shown < 10; i++)
    if (turbo_point(&pts[i]) && strcmp(pts[i].cpu, cpu) == 0)
      dcsim_str_addf(b, "%s%u", shown++ ? ", " : "", pts[i].index);
  if (count > shown) dcsim_str_addf(b, " and %zu more", count - shown);
  return count;
}

/* Why some points' time bands are wider: a CPU at a turbo clock not measured at their active
 * cores (dcsim_sweep_point.turbo_unmeasured; doc/models.md "Turbo"), a line per CPU naming its
 * points, in the wording of dcsim model and dcsim run (dcsim__turbo_text) when s, the sweep's
 * scenario, holds the CPU's profile; else (dcsim pareto: points read back, s NULL; a point whose
 * tasks' CPUs differ, its cpu "") by the CPU's name alone. */
static void turbo_text(FILE *f, const dcsim_scenario *s, const dcsim_sweep_point *pts, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (!turbo_point(&pts[i])) continue;
    size_t k = 0; /* each CPU once, at its first point */
    while (k < i && !(turbo_point(&pts[k]) && strcmp(pts[k].cpu, pts[i].cpu) == 0)) k++;
    if (k < i) continue;
    const dcsim_cpu_profile_t *cpu = NULL;
    for (size_t c = 0; s && c < s->n_cpus && !cpu; c++)
      if (strcmp(dcsim_cpu_profile_name(s->cpus[c]), pts[i].cpu) == 0) cpu = s->cpus[c];
    dcsim_str on = DCSIM_STR_INIT;
    dcsim_str_add(&on, "the cores of ");
    const char *bands = turbo_points(&on, pts, n, pts[i].cpu) > 1 ? "their time bands reach"
                                                                  : "its time band reaches";
    if (cpu)
      dcsim__turbo_text(f, "clock: ", cpu, 0, dcsim_str_cstr(&on), bands);
    else
      fprintf(f,
              "clock: the turbo clock of %s is not measured on %s: %s the time at the nominal "
              "clock",
              pts[i].cpu[0] ? pts[i].cpu : "their CPUs", dcsim_str_cstr(&on), bands);
    fputs(" (doc/models.md \"Turbo\")\n", f);
    dcsim_str_release(&on);
  }
}

/* A sweep over GPU nodes without a choice of host CPU says which CPU those nodes have
 * (the platform's), since it weighs in their power and cost. */
static void gpu_host_text(FILE *f, const dcsim_sweep_point *pts, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (pts[i].done && pts[i].gpu[0] && pts[i].host_cpu[0]) {
      fprintf(f, "GPU nodes' host CPU: %s, the platform's (--host-cpu chooses others)\n",
              pts[i].host_cpu);
      return;
    }
}

/* The tariff and lifetime a cost column is at, the default tariff with its year
 * and source (dcsim/cost.h), when a point's cost is known. */
static void tariff_text(FILE *f, const dcsim_cost_opts *o, int kwh_default,
                        const dcsim_sweep_point *pts, size_t n) {
  size_t i = 0;
  while (i < n && !(pts[i].done && pts[i].feasible && isfinite(pts[i].cost_usd))) i++;
  if (i == n) return;
  fprintf(f, "cost at %s USD/kWh (%s) and list prices amortised over %s years\n",
          DCSIM_SIG(o->kwh_usd), kwh_default ? "default: " DCSIM_COST_KWH_SOURCE : "--kwh-price",
          DCSIM_SIG(o->lifetime_years));
}

void dcsim_sweep_summary_text(FILE *f, const dcsim_scenario *base, const dcsim_sweep_point *pts,
                              size_t n, unsigned obj, const dcsim_sweep_text_notes *tn) {
  knee_text(f, pts, n, obj);
  cores_available_text(f, base, pts, n);
  rates_borrowed_text(f, base, pts, n);
  turbo_text(f, base, pts, n);
  if (!tn->host_cpu_chosen) gpu_host_text(f, pts, n);
  tariff_text(f, tn->cost, tn->kwh_default, pts, n);
  if (tn->db_path) fprintf(f, "results: %s, sweep %lld\n", tn->db_path, (long long)tn->sweep_id);
  dcsim_repro_text(f, tn->rp);
}

void dcsim_sweep_front_text(FILE *f, const dcsim_sweep_point *pts, size_t n_read, size_t kept,
                            const char *filters, size_t listed, size_t near, unsigned obj,
                            const char *order, const dcsim_repro *rp) {
  size_t feas = 0;
  fprintf(f, "%zu %s read", n_read, dcsim_plural(n_read, "point", "points"));
  if (kept < n_read) fprintf(f, ", %zu of them chosen by %s", kept, filters);
  for (size_t i = 0; i < kept; i++) feas += pts[i].feasible != 0;
  fprintf(f,
          ", %zu of them feasible; the Pareto front over %s has %zu of them, and %zu "
          "more are indistinguishable from it (their uncertainty bands meet a front point's on "
          "every objective), listed below by %s (knee: closest to the utopia point after "
          "scaling each objective to [0,1]%s)\n\n",
          feas, dcsim_objectives_name(obj), listed - near, near, order,
          obj & DCSIM_OBJ_COST ? "; a point of unknown cost is on no front" : "");
  dcsim_sweep_write_text(f, pts, listed, 0);
  turbo_text(f, NULL, pts, listed);
  dcsim_repro_text(f, rp);
}

int dcsim_sweep_front_write(const char *out, dcsim_format fmt, const dcsim_sweep_point *pts,
                            size_t n_read, size_t kept, const char *filters, size_t listed,
                            size_t near, unsigned obj, const char *order, const dcsim_repro *rp,
                            dcsim_error *err) {
  FILE *f = out ? fopen(out, "w") : stdout;
  if (!f) return DCSIM_ERR(err, DCSIM_EIO, out, 0, "cannot write");
  if (fmt == DCSIM_FMT_CSV)
    dcsim_sweep_write_csv(f, pts, listed, rp);
  else if (fmt == DCSIM_FMT_JSON)
    dcsim_sweep_write_json(f, pts, listed, rp);
  else
    dcsim_sweep_front_text(f, pts, n_read, kept, filters, listed, near, obj, order, rp);
  if (out && fclose(f) != 0) return DCSIM_ERR(err, DCSIM_EIO, out, 0, "write error");
  return 0;
}

void dcsim_sweepdb_merge_text(FILE *f, const dcsim_sweepdb_merge_report *rep,
                              const char *const *inputs, const size_t *per_input, size_t n,
                              const char *out) {
  fprintf(f, "sweep %.12s (%s): %zu points\n", rep->def_sha256, rep->input, rep->n_points);
  for (size_t k = 0; k < n; k++) fprintf(f, "  %s: %zu points\n", inputs[k], per_input[k]);
  fprintf(f, "%s: %zu of %zu points (%zu identical duplicate%s dropped)\n", out, rep->n_stored,
          rep->n_points, rep->n_duplicates, rep->n_duplicates == 1 ? "" : "s");
}

int dcsim_sweep_facet_path(const char *out, const char *axis, const char *v, char **path,
                           dcsim_error *err) {
  const char *slash = strrchr(out, '/'), *dot = strrchr(out, '.');
  if (!dot || (slash && dot < slash)) dot = out + strlen(out);
  char *buf =
      dcsim_strdup_printf("%.*s-%s-%s%s", (int)(dot - out), out, axis, v[0] ? v : "platform", dot);
  if (!(*path = buf)) return DCSIM_ERR(err, DCSIM_ENOMEM, out, 0, "out of memory");
  size_t k = strlen(buf);
  for (char *c = buf + (dot - out) + 1; *c && c < buf + k - strlen(dot); c++)
    if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.+_-", *c)) *c = '_';
  return 0;
}

/* Marks done only the points (of those done before, was) whose value on ax is v; *m: how many,
 * *feasible: how many of them are feasible. */
static void keep_value(dcsim_sweep_point *pts, size_t n, const unsigned char *was,
                       dcsim_sweep_axis ax, const char *v, size_t *m, size_t *feasible) {
  *m = *feasible = 0;
  for (size_t j = 0; j < n; j++) {
    dcsim_sweep_axis_text w;
    dcsim_sweep_axis_value(&pts[j], ax, w);
    pts[j].done = was[j] && strcmp(v, w) == 0;
    *m += pts[j].done != 0;
    *feasible += pts[j].done && pts[j].feasible;
  }
}

int dcsim_sweep_draw_facets(dcsim_sweep_point *pts, size_t n, const char *out,
                            const dcsim_sweep_facets *fc, dcsim_error *err) {
  enum { MAX_FACETS = DCSIM_SWEEP_MAX_LIST };
  dcsim_sweep_axis_text vals[MAX_FACETS];
  const char *axis = dcsim_sweep_axis_name(fc->axis);
  size_t nv = dcsim_sweep_axis_distinct(pts, n, fc->axis, vals, MAX_FACETS);
  if (nv > MAX_FACETS)
    return DCSIM_PERR(err, DCSIM_EUSAGE, "facet", -1,
                      "%s: more than %d values, one picture each; keep at most %d of them",
                      fc->what, MAX_FACETS, MAX_FACETS);
  unsigned char *was = malloc(n ? n : 1);
  char **paths = calloc(nv ? nv : 1, sizeof *paths); /* malloc'd, each */
  int rc = 0;
  size_t drawn = 0;
  if (!was || !paths) rc = DCSIM_ERR(err, DCSIM_ENOMEM, out, 0, "out of memory");
  for (size_t i = 0; !rc && i < n; i++) was[i] = (unsigned char)(pts[i].done != 0);
  for (size_t k = 0; !rc && k < nv; k++) {
    const char *v = vals[k];
    if ((rc = dcsim_sweep_facet_path(out, axis, v, &paths[k], err))) break;
    for (size_t q = 0; q < k; q++)
      if (strcmp(paths[q], paths[k]) == 0)
        rc = DCSIM_PERR(err, DCSIM_EUSAGE, "facet", -1, "%s: two values are both written as %s",
                        fc->what, paths[k]);
    if (rc || (rc = dcsim_path_check_writable(paths[k], fc->out_what, err))) break;
    size_t m, feasible;
    keep_value(pts, n, was, fc->axis, v, &m, &feasible);
    /* a value none of whose points is feasible has nothing to draw: said, and the others drawn */
    if (!feasible)
      fprintf(fc->report, "%s: not drawn: %s %s, none of its %zu %s feasible\n", paths[k], axis,
              v[0] ? v : "(the platform's)", m, m == 1 ? "point is" : "points are");
    else if (!(rc = fc->draw(fc->ctx, pts, n, paths[k], err))) {
      fprintf(fc->report, "%s: %s %s, %zu %s\n", paths[k], axis, v[0] ? v : "(the platform's)", m,
              dcsim_plural(m, "point", "points"));
      drawn++;
    }
  }
  if (!rc && !drawn)
    rc = DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "%s: no value has a feasible point to draw", fc->what);
  for (size_t i = 0; was && i < n; i++) pts[i].done = was[i];
  free(was);
  for (size_t k = 0; paths && k < nv; k++) free(paths[k]);
  free(paths);
  return rc;
}
