/* sweep_io.c — the points of a sweep in files: JSON, CSV and text out, JSON and CSV back in
 * (see dcsim/sweep_io.h, doc/sweep.md). */
#include "dcsim/sweep_io.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "dcsim/json.h"
#include "dcsim/numfmt.h"
#include "dcsim/provenance.h"
#include "dcsim/stats.h"
#include "dcsim/strutil.h"
#include "util/csv.h"
#include "util/fileio.h"

void dcsim_sweep_points_free(dcsim_sweep_point *pts, size_t n) {
  if (!pts) return;
  for (size_t i = 0; i < n; i++) free(pts[i].reason);
  free(pts);
}

/* ---- objectives and cost notes ---- */

int dcsim_objectives_parse(const char *s, unsigned *out, dcsim_error *err) {
  static const char *const names[] = { "time", "energy", "cost" };
  unsigned obj = 0, n = 0;
  const char *p = s;
  while (p && *p) {
    const char *c = strchr(p, ',');
    size_t l = c ? (size_t)(c - p) : strlen(p);
    int k = 0;
    while (k < 3 && !(strlen(names[k]) == l && strncmp(p, names[k], l) == 0)) k++;
    if (k == 3 || (obj & (1u << k)))
      return DCSIM_PERR(err, DCSIM_EUSAGE, "objectives", -1,
                        "'%s': expected two or three of time, energy, cost, each once "
                        "(time,energy; time,cost; energy,cost; time,energy,cost)",
                        s);
    obj |= 1u << k;
    n++;
    p = c ? c + 1 : NULL;
  }
  if (n < 2)
    return DCSIM_PERR(err, DCSIM_EUSAGE, "objectives", -1,
                      "'%s': a front needs two or three of time, energy, cost", s);
  *out = obj;
  return 0;
}

const char *dcsim_objectives_name(unsigned obj) {
  switch (obj) {
    case DCSIM_OBJ_TIME | DCSIM_OBJ_COST: return "time,cost";
    case DCSIM_OBJ_ENERGY | DCSIM_OBJ_COST: return "energy,cost";
    case DCSIM_OBJ_TIME | DCSIM_OBJ_ENERGY | DCSIM_OBJ_COST: return "time,energy,cost";
    default: return "time,energy";
  }
}

void dcsim_sweep_cost_note(const dcsim_sweep_point *p, char *buf, size_t size) {
  if (p->feasible && p->cost_missing[0] && p->gpu[0] && !strcmp(p->cost_missing, p->host_cpu))
    snprintf(buf, size,
             "no price for %s (give --price %s=USD, or choose the GPU nodes' CPU with --host-cpu)",
             p->cost_missing, p->cost_missing);
  else if (p->feasible && p->cost_missing[0])
    snprintf(buf, size, "no price for %s (give --price %s=USD)", p->cost_missing, p->cost_missing);
  else if (p->feasible && !isfinite(p->energy_j))
    snprintf(buf, size, "%s", "energy unknown, so its electricity cost is");
  else
    snprintf(buf, size, "%s", "");
}

int dcsim_sweep_check_objectives(const dcsim_sweep_point *pts, size_t n, unsigned obj,
                                 const char *file, dcsim_error *err) {
  if (!(obj & DCSIM_OBJ_COST)) return 0; /* time and energy are known for every feasible point */
  size_t feasible = 0;
  const dcsim_sweep_point *first = NULL;
  for (size_t i = 0; i < n; i++) {
    if (!pts[i].done || !pts[i].feasible) continue;
    feasible++;
    if (isfinite(pts[i].cost_usd)) return 0;
    if (!first) first = &pts[i];
  }
  if (!first) return 0; /* no feasible point: the caller's own error */
  char note[160];
  dcsim_sweep_cost_note(first, note, sizeof note);
  return DCSIM_ERR(err, DCSIM_ERANGE, file, 0,
                   "--objectives %s: the cost of every feasible point (%zu) is unknown, so the "
                   "front is empty: %s%s",
                   dcsim_objectives_name(obj), feasible, note[0] ? note : "no cost recorded",
                   feasible > 1 ? " (the first; see the cost_note column of --format csv)" : "");
}

/* ---- writing ---- */

/* "key": the string, or null when it is empty */
static void json_str_or_null(dcsim_json *j, const char *key, const char *s) {
  dcsim_json_key(j, key);
  if (s[0])
    dcsim_json_str(j, s);
  else
    dcsim_json_null(j);
}

/* "key": the count, or null when it is 0 (the workflow's values differ) */
static void json_count_or_null(dcsim_json *j, const char *key, unsigned v) {
  dcsim_json_key(j, key);
  if (v)
    dcsim_json_int(j, v);
  else
    dcsim_json_null(j);
}

/* "key": the number when the point is feasible, else null */
static void json_result(dcsim_json *j, const char *key, int feasible, double v) {
  dcsim_json_key(j, key);
  if (feasible)
    dcsim_json_num(j, v);
  else
    dcsim_json_null(j);
}

static void json_flag(dcsim_json *j, const char *key, int v) {
  dcsim_json_key(j, key);
  dcsim_json_bool(j, v);
}

/* "cost_usd": the cost, or null with "cost_note" saying why (appended keys) */
static void json_cost(dcsim_json *j, const dcsim_sweep_point *p) {
  json_result(j, "cost_usd", p->feasible && isfinite(p->cost_usd), p->cost_usd);
  char note[256];
  dcsim_sweep_cost_note(p, note, sizeof note);
  if (note[0]) {
    dcsim_json_key(j, "cost_note");
    dcsim_json_str(j, note);
  }
}

/* Whether a point of the array runs the ideal thread-scaling variant: only then do the writers
 * name each point's variant (a column at the end), so that the outputs of sweeps without
 * `--threading ideal` stay as they were; a missing column means measured (doc/sweep.md). */
static int any_ideal(const dcsim_sweep_point *pts, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (pts[i].done && strcmp(pts[i].threading, "ideal") == 0) return 1;
  return 0;
}

static const char *threading_of(const dcsim_sweep_point *p) {
  return p->threading[0] ? p->threading : "measured";
}

/* the bands of a marked point (dcsim/sweep_bands.h) */
static void json_bands(dcsim_json *j, const dcsim_sweep_point *p) {
  if (!p->has_band) return;
  const char *key[3] = { "time_band", "energy_band", "cost_band" };
  const double *band[3] = { p->time_band, p->energy_band, p->cost_band };
  for (int k = 0; k < 2 + (p->has_cost_band != 0); k++) {
    dcsim_json_key(j, key[k]);
    dcsim_json_arr_begin(j);
    dcsim_json_num(j, band[k][0]);
    dcsim_json_num(j, band[k][1]);
    dcsim_json_arr_end(j);
  }
  json_flag(j, "indistinguishable_from_front", p->near_front);
}

static void json_point(dcsim_json *j, const dcsim_sweep_point *p, int variants) {
  dcsim_json_obj_begin(j);
  json_str_or_null(j, "cpu", p->cpu);
  json_str_or_null(j, "gpu", p->gpu);
  json_count_or_null(j, "nodes", p->nodes);
  json_count_or_null(j, "cores", p->cores);
  json_str_or_null(j, "freq", p->freq);
  json_result(j, "time_s", p->feasible, p->time_s);
  json_result(j, "energy_j", p->feasible, p->energy_j);
  json_flag(j, "pareto", p->pareto);
  json_flag(j, "knee", p->knee);
  json_flag(j, "balance", p->balance);
  json_flag(j, "feasible", p->feasible);
  if (!p->feasible) {
    dcsim_json_key(j, "reason");
    dcsim_json_str(j, p->reason ? p->reason : "");
  } else {
    dcsim_json_key(j, "time_provenance");
    dcsim_json_str(j, dcsim_prov_name((dcsim_prov_kind)p->time_prov));
    dcsim_json_key(j, "energy_provenance");
    if (isfinite(p->energy_j))
      dcsim_json_str(j, dcsim_prov_name((dcsim_prov_kind)p->energy_prov));
    else
      dcsim_json_null(j);
    json_bands(j, p);
    if (p->reason) { /* why the energy is unknown */
      dcsim_json_key(j, "reason");
      dcsim_json_str(j, p->reason);
    }
  }
  dcsim_json_key(j, "index");
  dcsim_json_int(j, p->index);
  json_cost(j, p);
  if (p->gpus) { /* --gpus, --host-cpu: only in sweeps that set them */
    dcsim_json_key(j, "gpus");
    dcsim_json_int(j, p->gpus);
  }
  if (p->host_cpu[0]) {
    dcsim_json_key(j, "host_cpu");
    dcsim_json_str(j, p->host_cpu);
  }
  if (variants) {
    dcsim_json_key(j, "threading");
    dcsim_json_str(j, threading_of(p));
  }
  dcsim_json_obj_end(j);
}

void dcsim_sweep_write_json(FILE *f, const dcsim_sweep_point *pts, size_t n,
                            const dcsim_repro *rp) {
  fputs("{", f);
  if (rp) {
    dcsim_json j;
    fputs("\n\"dcsim\": ", f);
    dcsim_json_init(&j, f, 0);
    dcsim_repro_json_value(&j, rp);
    fputc(',', f);
  }
  fputs("\n\"points\": [", f);
  int first = 1, variants = any_ideal(pts, n);
  for (size_t i = 0; i < n; i++) {
    if (!pts[i].done) continue;
    fputs(first ? "\n  " : ",\n  ", f);
    first = 0;
    dcsim_json j;
    dcsim_json_init(&j, f, 0);
    json_point(&j, &pts[i], variants);
  }
  fputs(first ? "]\n}\n" : "\n]\n}\n", f);
}

/* ",COST,NOTE[,GPUS,HOST]\n": the cost (empty when unknown or infeasible) and why it is unknown;
 * with axes, the GPUs per node and the host CPU */
/* the band columns of a point (empty cells when not marked) */
static void csv_bands(FILE *f, const dcsim_sweep_point *p) {
  if (p->has_band && isfinite(p->energy_j))
    fprintf(f, ",%.10g,%.10g,%.10g,%.10g,%d", p->time_band[0], p->time_band[1], p->energy_band[0],
            p->energy_band[1], p->near_front);
  else if (p->has_band) /* energy unknown: its band too */
    fprintf(f, ",%.10g,%.10g,,,%d", p->time_band[0], p->time_band[1], p->near_front);
  else
    fputs(",,,,,", f);
  if (p->has_cost_band)
    fprintf(f, ",%.10g,%.10g", p->cost_band[0], p->cost_band[1]);
  else
    fputs(",,", f);
}

static void csv_cost(FILE *f, const dcsim_sweep_point *p, int axes, const char *threading) {
  char note[256];
  dcsim_sweep_cost_note(p, note, sizeof note);
  fputc(',', f);
  if (p->feasible && isfinite(p->cost_usd)) fprintf(f, "%.10g", p->cost_usd);
  fputc(',', f);
  dcsim__csv_write_cell(f, note);
  csv_bands(f, p);
  if (axes) {
    fputc(',', f);
    if (p->gpus) fprintf(f, "%u", p->gpus);
    fputc(',', f);
    dcsim__csv_write_cell(f, p->host_cpu);
  }
  if (threading) fprintf(f, ",%s", threading);
  fputc('\n', f);
}

void dcsim_sweep_write_csv(FILE *f, const dcsim_sweep_point *pts, size_t n, const dcsim_repro *rp) {
  if (rp) dcsim_repro_csv(f, rp);
  int variants = any_ideal(pts, n);
  fputs(
      "index,cpu,gpu,nodes,cores,freq,time_s,energy_j,pareto,knee,feasible,reason,balance,"
      "time_provenance,energy_provenance,cost_usd,cost_note,time_band_low_s,time_band_high_s,"
      "energy_band_low_j,energy_band_high_j,indistinguishable_from_front,cost_band_low_usd,"
      "cost_band_high_usd",
      f);
  int axes = 0; /* --gpus, --host-cpu: two more columns in sweeps that set them */
  for (size_t i = 0; i < n && !axes; i++) axes = pts[i].gpus || pts[i].host_cpu[0];
  fputs(axes ? ",gpus,host_cpu" : "", f);
  fputs(variants ? ",threading\n" : "\n", f);
  for (size_t i = 0; i < n; i++) {
    const dcsim_sweep_point *p = &pts[i];
    if (!p->done) continue;
    fprintf(f, "%u,", p->index);
    dcsim__csv_write_cell(f, p->cpu);
    fputc(',', f);
    dcsim__csv_write_cell(f, p->gpu);
    fputc(',', f);
    if (p->nodes) fprintf(f, "%u", p->nodes);
    fputc(',', f);
    if (p->cores) fprintf(f, "%u", p->cores);
    fputc(',', f);
    dcsim__csv_write_cell(f, p->freq);
    if (p->feasible) {
      fprintf(f, ",%.10g,", p->time_s);
      if (isfinite(p->energy_j)) fprintf(f, "%.10g", p->energy_j); /* empty: unknown */
      fputc(',', f);
    } else {
      fputs(",,,", f);
    }
    fprintf(f, "%d,%d,%d,", p->pareto, p->knee, p->feasible);
    if (p->reason) dcsim__csv_write_cell(f, p->reason); /* feasible: why the energy is unknown */
    fprintf(f, ",%d", p->balance);
    if (p->feasible)
      fprintf(f, ",%s,%s", dcsim_prov_name((dcsim_prov_kind)p->time_prov),
              isfinite(p->energy_j) ? dcsim_prov_name((dcsim_prov_kind)p->energy_prov) : "");
    else
      fputs(",,", f);
    csv_cost(f, p, axes, variants ? threading_of(p) : NULL);
  }
}

/* the gpu column: the GPU, "x N" per node with --gpus, "on HOST" with --host-cpu */
static void gpu_text(const dcsim_sweep_point *p, char *buf, size_t size) {
  dcsim_str b = DCSIM_STR_INIT;
  dcsim_str_add(&b, p->gpu[0] ? p->gpu : "-");
  if (p->gpus) dcsim_str_addf(&b, " x%u", p->gpus);
  if (p->host_cpu[0]) dcsim_str_addf(&b, " on %s", p->host_cpu);
  dcsim_str_copy_to(&b, buf, size); /* the column's width: cut as before */
  dcsim_str_release(&b);
}

/* a point's time and energy for the text table: with their bands when marked, each to the digits
 * its band supports (dcsim/numfmt.h) */
static void text_values(const dcsim_sweep_point *p, char *tb, size_t ts, char *eb, size_t es) {
  if (p->has_band) {
    dcsim_fmt_band(tb, ts, p->time_s, p->time_band, NULL);
    dcsim_fmt_band(eb, es, p->energy_j, p->energy_band, NULL);
  } else {
    dcsim_fmt_sig(tb, ts, p->time_s, DCSIM_NUM_DIGITS);
    dcsim_fmt_sig(eb, es, p->energy_j, DCSIM_NUM_DIGITS);
  }
  if (!isfinite(p->energy_j)) snprintf(eb, es, "unknown"); /* the note under the table: why */
}

static const char *const sort_keys[] = { "point", "time", "energy", "cost" };

/* the value a point is sorted by (key: an index into sort_keys); NaN: unknown */
static double sort_value(const dcsim_sweep_point *p, int key) {
  if (key == 0) return p->index;
  if (!p->feasible) return NAN;
  return key == 1 ? p->time_s : key == 2 ? p->energy_j : p->cost_usd;
}

int dcsim_sweep_sorted(const dcsim_sweep_point *pts, size_t n, const char *key,
                       dcsim_sweep_point **out, dcsim_error *err) {
  int k = dcsim_sort_key_index(key, sort_keys, 4), rc = -1;
  *out = NULL;
  if (k < 0)
    return DCSIM_PERR(err, DCSIM_EUSAGE, "sort_key", -1,
                      "'%s': the points sort by point, time, energy or cost", key);
  double *v = malloc((n ? n : 1) * sizeof *v);
  size_t *by_index = malloc((n ? n : 1) * sizeof *by_index),
         *order = malloc((n ? n : 1) * sizeof *order);
  dcsim_sweep_point *r = malloc((n ? n : 1) * sizeof *r);
  if (!v || !by_index || !order || !r) goto out;
  /* first by point index, then by the key: equal keys keep the index order */
  for (size_t i = 0; i < n; i++) v[i] = pts[i].index;
  if (dcsim_sort_order(v, n, by_index)) goto out;
  for (size_t i = 0; i < n; i++) v[i] = sort_value(&pts[by_index[i]], k);
  if (dcsim_sort_order(v, n, order)) goto out;
  for (size_t i = 0; i < n; i++) r[i] = pts[by_index[order[i]]];
  *out = r;
  r = NULL;
  rc = 0;
out:
  if (rc) rc = DCSIM_ERR(err, DCSIM_ENOMEM, NULL, 0, "out of memory sorting %zu points", n);
  free(v);
  free(by_index);
  free(order);
  free(r);
  return rc;
}

void dcsim_sweep_write_text(FILE *f, const dcsim_sweep_point *pts, size_t n, int summary) {
  size_t feasible = 0, front = 0, shown = 0;
  int cw = 16, gw = 14; /* the name columns widen for longer names (xeon-platinum-8480+) */
  char gname[160];
  for (size_t i = 0; i < n; i++) {
    if (!pts[i].done) continue;
    if ((int)strlen(pts[i].cpu) > cw) cw = (int)strlen(pts[i].cpu);
    gpu_text(&pts[i], gname, sizeof gname);
    if ((int)strlen(gname) > gw) gw = (int)strlen(gname);
  }
  int variants = any_ideal(pts, n);
  fprintf(f, "%6s  %-*s %-*s %5s %5s %-8s %s%24s %30s %26s  %-12s %-12s  %s\n", "point", cw, "cpu",
          gw, "gpu", "nodes", "cores", "freq", variants ? "threading " : "", "time [s] [band]",
          "energy [J] [band]", "cost [USD] [band]", "time from", "energy from", "pareto");
  size_t no_cost = 0, no_energy = 0;
  const dcsim_sweep_point *first_no_cost = NULL, *first_no_energy = NULL;
  for (size_t i = 0; i < n; i++) {
    const dcsim_sweep_point *p = &pts[i];
    if (!p->done) continue;
    shown++;
    char nodes[16] = "-", cores[16] = "-";
    if (p->nodes) snprintf(nodes, sizeof nodes, "%u", p->nodes);
    if (p->cores) snprintf(cores, sizeof cores, "%u", p->cores);
    gpu_text(p, gname, sizeof gname);
    fprintf(f, "%6u  %-*s %-*s %5s %5s %-8s ", p->index, cw, p->cpu[0] ? p->cpu : "-", gw, gname,
            nodes, cores, p->freq[0] ? p->freq : "-");
    if (variants) fprintf(f, "%-9s ", threading_of(p));
    if (p->feasible) {
      feasible++;
      front += p->pareto != 0;
      if (!isfinite(p->cost_usd) && !no_cost++) first_no_cost = p;
      if (!isfinite(p->energy_j) && !no_energy++) first_no_energy = p;
      char tb[96], eb[96], cb[96];
      text_values(p, tb, sizeof tb, eb, sizeof eb);
      if (p->has_cost_band)
        dcsim_fmt_band(cb, sizeof cb, p->cost_usd, p->cost_band, NULL);
      else
        snprintf(cb, sizeof cb, "%s", isfinite(p->cost_usd) ? DCSIM_SIG(p->cost_usd) : "-");
      fprintf(f, "%24s %30s %26s  %-12s %-12s  %s%s\n", tb, eb, cb,
              dcsim_prov_name((dcsim_prov_kind)p->time_prov),
              isfinite(p->energy_j) ? dcsim_prov_name((dcsim_prov_kind)p->energy_prov) : "unknown",
              p->knee         ? "knee"
              : p->pareto     ? "yes"
              : p->near_front ? "indistinguishable"
                              : "",
              p->balance ? (p->pareto || p->near_front ? ", balance point" : "balance point") : "");
    } else {
      fprintf(f, "%24s %30s %26s  infeasible: %s\n", "-", "-", "-", p->reason ? p->reason : "");
    }
  }
  if (summary) {
    size_t near = 0;
    for (size_t i = 0; i < n; i++) near += pts[i].done && pts[i].near_front;
    fprintf(f, "\n%zu %s: %zu feasible, %zu infeasible; %zu on the Pareto front", shown,
            dcsim_plural(shown, "point", "points"), feasible, shown - feasible, front);
    if (near)
      fprintf(f, ", %zu more indistinguishable from it (their bands meet a front point's)", near);
    fputc('\n', f);
  }
  if (summary && no_cost) {
    char note[256];
    dcsim_sweep_cost_note(first_no_cost, note, sizeof note);
    fprintf(f, "cost unknown for %zu feasible %s: %s%s\n", no_cost,
            dcsim_plural(no_cost, "point", "points"), note,
            no_cost > 1 ? " (the first; see the cost_note column of --format csv)" : "");
  }
  if (summary && no_energy) { /* the times stand, the energies are not made up */
    const char *why = first_no_energy->reason ? first_no_energy->reason : "";
    if (strncmp(why, "energy unknown: ", 16) == 0) why += 16;
    fprintf(f, "energy unknown for %zu feasible %s (on no Pareto front): %s%s\n", no_energy,
            dcsim_plural(no_energy, "point", "points"), why,
            no_energy > 1 ? " (the first's reason; each point's is in the reason column)" : "");
  }
}

/* ---- reading points back (dcsim pareto) ---- */

static int set_field(dcsim_sweep_point *pt, const char *key, const char *str, double num,
                     int is_null) {
  if (strcmp(key, "cpu") == 0)
    snprintf(pt->cpu, sizeof pt->cpu, "%s", str);
  else if (strcmp(key, "gpu") == 0)
    snprintf(pt->gpu, sizeof pt->gpu, "%s", str);
  else if (strcmp(key, "freq") == 0)
    snprintf(pt->freq, sizeof pt->freq, "%s", str);
  else if (strcmp(key, "threading") == 0)
    snprintf(pt->threading, sizeof pt->threading, "%s", str);
  else if (strcmp(key, "nodes") == 0)
    pt->nodes = is_null || !(num >= 1 && num < 4e9) ? 0 : (unsigned)num;
  else if (strcmp(key, "cores") == 0)
    pt->cores = is_null || !(num >= 1 && num < 4e9) ? 0 : (unsigned)num;
  else if (strcmp(key, "time_s") == 0)
    pt->time_s = is_null ? NAN : num;
  else if (strcmp(key, "energy_j") == 0)
    pt->energy_j = is_null ? NAN : num;
  else if (strcmp(key, "feasible") == 0)
    pt->feasible = num == 1;
  else if (strcmp(key, "time_provenance") == 0 || strcmp(key, "energy_provenance") == 0) {
    dcsim_prov_kind k = DCSIM_PROV_TABLE;
    if (!is_null && str[0] && dcsim_prov_parse(str, &k) != 0) return -2;
    if (key[0] == 't')
      pt->time_prov = (unsigned char)k;
    else
      pt->energy_prov = (unsigned char)k;
  } else if (strcmp(key, "index") == 0)
    pt->index = num >= 0 && num < 4e9 ? (uint32_t)num : 0;
  else if (strcmp(key, "gpus") == 0)
    pt->gpus = is_null || !(num >= 1 && num <= 64) ? 0 : (unsigned)num;
  else if (strcmp(key, "host_cpu") == 0)
    snprintf(pt->host_cpu, sizeof pt->host_cpu, "%s", str);
  else if (strcmp(key, "cost_usd") == 0)
    pt->cost_usd = is_null ? NAN : num;
  else if (strcmp(key, "cost_note") == 0 && str[0]) {
    if (sscanf(str, "no price for %63s", pt->cost_missing) != 1) pt->cost_missing[0] = '\0';
  } else if (strcmp(key, "reason") == 0 && str[0]) {
    free(pt->reason);
    if (!(pt->reason = dcsim_strdup(str))) return -1;
  }
  return 0;
}

/* a new point at the end of *pts: done, feasible until read otherwise, its position as index */
static dcsim_sweep_point *new_point(dcsim_sweep_point **pts, size_t *n, size_t *cap) {
  if (DCSIM_GROW(*pts, *cap, *n + 1)) return NULL;
  dcsim_sweep_point *pt = &(*pts)[(*n)++];
  memset(pt, 0, sizeof *pt);
  pt->index = (uint32_t)(*n - 1);
  pt->done = 1;
  pt->feasible = 1;
  pt->time_s = pt->energy_j = pt->cost_usd = NAN;
  return pt;
}

/* a feasible point: finite, non-negative time; energy the same, or empty/null = unknown (a
 * profile without power data: on no front) */
static int check_feasible(const dcsim_sweep_point *pt) {
  return !pt->feasible || (isfinite(pt->time_s) && pt->time_s >= 0 &&
                           (isnan(pt->energy_j) || (isfinite(pt->energy_j) && pt->energy_j >= 0)));
}

/* JSON: an array of flat objects. The structure is walked here so that every error names its line
 * and field; each key and value is decoded by jansson. */
typedef struct jwalk {
  const char *s;
  size_t i, n;
  int line;
} jwalk;

static void jw_ws(jwalk *w) {
  while (w->i < w->n && isspace((unsigned char)w->s[w->i])) {
    if (w->s[w->i] == '\n') w->line++;
    w->i++;
  }
}

/* skips blanks; consumes c when it comes next */
static int jw_is(jwalk *w, char c) {
  jw_ws(w);
  if (w->i >= w->n || w->s[w->i] != c) return 0;
  w->i++;
  return 1;
}

/* the JSON value at the cursor (after blanks), decoded by jansson; NULL when there is none */
static json_t *jw_value(jwalk *w) {
  json_error_t je;
  jw_ws(w);
  json_t *v = json_loadb(w->s + w->i, w->n - w->i, JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK, &je);
  if (v) w->i += (size_t)je.position; /* a value holds no raw line break */
  return v;
}

/* a string, number, true/false (*num 1/0) or null (*is_null); -1 for an array or object */
static int scalar_of(const json_t *v, char *str, size_t size, double *num, int *is_null) {
  *is_null = 0;
  str[0] = '\0';
  *num = NAN;
  if (json_is_string(v))
    snprintf(str, size, "%s", json_string_value(v));
  else if (json_is_number(v))
    *num = json_number_value(v);
  else if (json_is_boolean(v))
    *num = json_is_true(v);
  else if (json_is_null(v))
    *is_null = 1;
  else
    return -1;
  return 0;
}

/* the fields of one point, after its '{' */
static int read_json_fields(jwalk *w, const char *path, dcsim_sweep_point *pt, dcsim_error *err) {
  if (jw_is(w, '}')) return 0;
  for (;;) {
    char key[64], str[2048];
    double num;
    int is_null;
    jw_ws(w);
    int line = w->line;
    json_t *v = jw_value(w);
    int ok = json_is_string(v);
    if (ok) snprintf(key, sizeof key, "%s", json_string_value(v));
    json_decref(v);
    if (!ok) return DCSIM_ERR(err, DCSIM_EPARSE, path, line, "expected a key");
    if (!jw_is(w, ':'))
      return DCSIM_ERR(err, DCSIM_EPARSE, path, w->line, "expected ':' after \"%s\"", key);
    jw_ws(w);
    line = w->line;
    v = jw_value(w);
    /* bands are arrays, recomputed from the provenance (dcsim/sweep_bands.h): skipped */
    int skip = v && json_is_array(v) && (!strcmp(key, "time_band") || !strcmp(key, "energy_band"));
    ok = v && (skip || scalar_of(v, str, sizeof str, &num, &is_null) == 0);
    json_decref(v);
    if (!ok)
      return DCSIM_ERR(err, DCSIM_EPARSE, path, line,
                       "\"%s\": expected a string, number, true, false or null", key);
    int sf = skip ? 0 : set_field(pt, key, str, num, is_null);
    if (sf == -2)
      return DCSIM_ERR(err, DCSIM_EPARSE, path, line,
                       "\"%s\": '%s' is not table, interpolated, extrapolated or spec", key, str);
    if (sf) return DCSIM_ERR(err, DCSIM_ENOMEM, path, w->line, "out of memory");
    if (jw_is(w, ',')) continue;
    if (jw_is(w, '}')) return 0;
    return DCSIM_ERR(err, DCSIM_EPARSE, path, w->line, "expected ',' or '}'");
  }
}

/* the points of the array, after its '[' */
static int read_json_points(jwalk *w, const char *path, dcsim_sweep_point **pts, size_t *n,
                            dcsim_error *err) {
  size_t cap = 0;
  if (jw_is(w, ']')) return 0;
  for (;;) {
    if (!jw_is(w, '{'))
      return DCSIM_ERR(err, DCSIM_EPARSE, path, w->line, "expected '{' (a sweep point)");
    int line = w->line, rc;
    dcsim_sweep_point *pt = new_point(pts, n, &cap);
    if (!pt) return DCSIM_ERR(err, DCSIM_ENOMEM, path, line, "out of memory");
    if ((rc = read_json_fields(w, path, pt, err))) return rc;
    if (!check_feasible(pt))
      return DCSIM_ERR(err, DCSIM_ERANGE, path, line,
                       "point %zu: a feasible point needs finite, non-negative time_s and "
                       "energy_j",
                       *n - 1);
    if (jw_is(w, ',')) continue;
    if (jw_is(w, ']')) return 0;
    return DCSIM_ERR(err, DCSIM_EPARSE, path, w->line, "expected ',' or ']'");
  }
}

/* {"dcsim": {...}, "points": [...]}, after its '{': the points; other keys are skipped */
static int read_json_object(jwalk *w, const char *path, dcsim_sweep_point **pts, size_t *n,
                            dcsim_error *err) {
  int seen = 0, rc;
  for (;;) {
    jw_ws(w);
    int line = w->line;
    json_t *k = jw_value(w);
    char key[64] = "";
    int ok = json_is_string(k);
    if (ok) snprintf(key, sizeof key, "%s", json_string_value(k));
    json_decref(k);
    if (!ok) return DCSIM_ERR(err, DCSIM_EPARSE, path, line, "expected a key");
    if (!jw_is(w, ':'))
      return DCSIM_ERR(err, DCSIM_EPARSE, path, w->line, "expected ':' after \"%s\"", key);
    if (strcmp(key, "points") == 0) {
      if (!jw_is(w, '['))
        return DCSIM_ERR(err, DCSIM_EPARSE, path, w->line, "\"points\": expected an array");
      if ((rc = read_json_points(w, path, pts, n, err))) return rc;
      seen = 1;
    } else {
      json_t *v = jw_value(w); /* "dcsim" and keys of later versions */
      if (!v) return DCSIM_ERR(err, DCSIM_EPARSE, path, w->line, "\"%s\": bad value", key);
      json_decref(v);
    }
    if (jw_is(w, ',')) continue;
    if (jw_is(w, '}')) break;
    return DCSIM_ERR(err, DCSIM_EPARSE, path, w->line, "expected ',' or '}'");
  }
  if (!seen) return DCSIM_ERR(err, DCSIM_EPARSE, path, w->line, "no \"points\" array");
  return 0;
}

static int read_json(const char *path, const char *text, size_t len, dcsim_sweep_point **out,
                     size_t *n_out, dcsim_error *err) {
  jwalk w = { text, 0, len, 1 };
  dcsim_sweep_point *pts = NULL;
  size_t n = 0;
  int rc = -1;
  if (jw_is(&w, '{'))
    rc = read_json_object(&w, path, &pts, &n, err);
  else if (jw_is(&w, '['))
    rc = read_json_points(&w, path, &pts, &n, err);
  else
    rc = DCSIM_ERR(err, DCSIM_EPARSE, path, w.line,
                   "expected a JSON object with \"points\" (or an array) of sweep points");
  if (rc) goto out;
  jw_ws(&w);
  if (w.i < w.n) {
    rc = DCSIM_ERR(err, DCSIM_EPARSE, path, w.line, "text after the points");
    goto out;
  }
  *out = pts;
  *n_out = n;
  pts = NULL;
out:
  dcsim_sweep_points_free(pts, n);
  return rc;
}

/* CSV: a header naming the columns (time_s and energy_j at least), then one point per line */
static int read_csv_header(const char *path, int line, char **hdr, size_t nh, dcsim_error *err) {
  int has_t = 0, has_e = 0;
  for (size_t k = 0; k < nh; k++) {
    has_t |= strcmp(hdr[k], "time_s") == 0;
    has_e |= strcmp(hdr[k], "energy_j") == 0;
  }
  if (!has_t || !has_e)
    return DCSIM_ERR(err, DCSIM_EPARSE, path, line,
                     "CSV header needs the columns time_s and energy_j");
  return 0;
}

/* one point from its cells, under the header's column names */
static int read_csv_point(const char *path, int line, char *const *hdr, size_t nh,
                          char *const *cells, size_t nc, dcsim_sweep_point *pt, dcsim_error *err) {
  for (size_t k = 0; k < nh && k < nc; k++) {
    const char *key = hdr[k], *v = cells[k];
    double num = NAN;
    int is_null = !*v;
    int text = !strcmp(key, "cpu") || !strcmp(key, "gpu") || !strcmp(key, "freq") ||
               !strcmp(key, "reason") || !strcmp(key, "time_provenance") ||
               !strcmp(key, "energy_provenance") || !strcmp(key, "cost_note") ||
               !strcmp(key, "host_cpu") || !strcmp(key, "threading");
    if (!is_null && !text && dcsim_parse_double(v, &num) != 0)
      return DCSIM_ERR(err, DCSIM_EPARSE, path, line, "column %s: '%s' is not a number", key, v);
    int sf = set_field(pt, key, v, num, is_null);
    if (sf == -2)
      return DCSIM_ERR(err, DCSIM_EPARSE, path, line,
                       "column %s: '%s' is not table, interpolated, extrapolated or spec", key, v);
    if (sf) return DCSIM_ERR(err, DCSIM_ENOMEM, path, line, "out of memory");
  }
  if (!check_feasible(pt))
    return DCSIM_ERR(err, DCSIM_ERANGE, path, line,
                     "a feasible point needs finite, non-negative time_s and energy_j");
  return 0;
}

static int read_csv(const char *path, char *text, dcsim_sweep_point **out, size_t *n_out,
                    dcsim_error *err) {
  char **hdr = NULL, **cells = NULL;
  dcsim_sweep_point *pts = NULL;
  size_t n = 0, cap = 0, nh = 0, hdr_cap = 0, cells_cap = 0;
  int rc = 0, line = 0;
  char *save = NULL;
  for (char *l = strtok_r(text, "\n", &save); l && !rc; l = strtok_r(NULL, "\n", &save)) {
    line++;
    size_t ll = strlen(l);
    if (ll && l[ll - 1] == '\r') l[--ll] = '\0';
    if (!ll || l[0] == '#') continue;
    size_t nc = 0;
    int split;
    if (!nh) {
      if (!(split = dcsim__csv_split(l, &hdr, &hdr_cap, &nh)))
        rc = read_csv_header(path, line, hdr, nh, err);
    } else if (!(split = dcsim__csv_split(l, &cells, &cells_cap, &nc))) {
      dcsim_sweep_point *pt = new_point(&pts, &n, &cap);
      rc = pt ? read_csv_point(path, line, hdr, nh, cells, nc, pt, err)
              : DCSIM_ERR(err, DCSIM_ENOMEM, path, line, "out of memory");
    }
    if (split)
      rc = split == -2 ? DCSIM_ERR(err, DCSIM_ENOMEM, path, line, "out of memory")
                       : DCSIM_ERR(err, DCSIM_EPARSE, path, line,
                                   "unterminated quoted cell or text after a closing quote");
  }
  if (!rc && !nh) rc = DCSIM_ERR(err, DCSIM_EPARSE, path, 0, "empty CSV file");
  if (!rc) {
    *out = pts;
    *n_out = n;
    pts = NULL;
  }
  dcsim_sweep_points_free(pts, n);
  free(hdr);
  free(cells);
  return rc;
}

int dcsim_sweep_points_read(const char *path, dcsim_sweep_point **out, size_t *n,
                            dcsim_error *err) {
  static const dcsim_file_rules rules = {
    0, NULL, "not a text file (a NUL byte); give a JSON or CSV file of sweep points", 0
  }; /* a pipe is fine: dcsim pareto /dev/stdin (doc/sweep.md) */
  *out = NULL;
  *n = 0;
  char *text = NULL;
  size_t len = 0;
  int rc = dcsim__file_read(path, &rules, &text, &len, err);
  if (rc) return rc;
  size_t i = 0;
  while (i < len && isspace((unsigned char)text[i])) i++;
  if (i < len && (text[i] == '[' || text[i] == '{'))
    rc = read_json(path, text, len, out, n, err);
  else
    rc = read_csv(path, text, out, n, err);
  free(text);
  return rc;
}
