/* plot_pareto.c — the Pareto chart of a sweep: energy against time, the front drawn (see
 * dcsim/plot.h). */
#include "dcsim/plot.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/numfmt.h"
#include "dcsim/strutil.h"
#include "output/internal.h"

/* a log axis over [lo, hi] with a margin and tics at 1, 2, 5 x 10^k */
static void log_axis(FILE *f, char axis, double lo, double hi) {
  double a = lo / 1.2, b = hi * 1.2;
  fprintf(f, "set %crange [%.6g:%.6g]\nset %ctics (", axis, a, b, axis);
  int first = 1;
  for (int k = (int)floor(log10(a)); k <= (int)ceil(log10(b)); k++)
    for (int m = 1; m <= 5; m += m == 1 ? 1 : 3) {
      double v = m * pow(10, k);
      if (v < a || v > b) continue;
      fprintf(f, "%s'%g' %.6g", first ? "" : ", ", v, v);
      first = 0;
    }
  fputs(")\n", f);
}

typedef struct series {
  char *key; /* the hardware (dcsim__plot_hw_name), and the nodes; malloc'd */
} series;

/* The points of a Pareto plot and what the phases of dcsim_plot_pareto() learn about them. */
typedef struct pareto_view {
  const dcsim_sweep_point *pts;
  size_t n, nf, n_done; /* points; feasible ones; done ones */
  size_t first;         /* the first feasible point */
  long knee;            /* the (last) knee point, -1 = none */
  double tmin, tmax, emin, emax;
  int var_cpu, var_gpu, var_nodes, var_cores, var_freq; /* what varies among feasible points */
  double es;                                            /* energy scale to unit eu */
  const char *eu;
  /* the axes (--objectives): x holds time_s, y energy_j of the points drawn */
  const char *xq, *xu, *yq, *xbest, *ybest, *deftitle;
  series *ser; /* n_ser series; sid: each feasible point's series */
  size_t *sid, n_ser;
  size_t n_band; /* feasible points with uncertainty bands (dcsim/sweep_bands.h) */
} pareto_view;

/* The axes' ranges cover the bands of the points that have them. */
static void pareto_scan_bands(pareto_view *v) {
  for (size_t i = 0; i < v->n; i++) {
    const dcsim_sweep_point *p = &v->pts[i];
    if (!p->done || !p->feasible || !p->has_band) continue;
    v->n_band++;
    v->tmin = fmin(v->tmin, p->time_band[0]);
    v->tmax = fmax(v->tmax, p->time_band[1]);
    v->emin = fmin(v->emin, p->energy_band[0]);
    v->emax = fmax(v->emax, p->energy_band[1]);
  }
}

/* every banded point's band as an error cross: time, energy, their lows and highs */
static void pareto_bands(FILE *f, const pareto_view *v) {
  if (!v->n_band) return;
  fputs("$bands << EOD\n", f);
  for (size_t i = 0; i < v->n; i++) {
    const dcsim_sweep_point *p = &v->pts[i];
    if (p->done && p->feasible && p->has_band)
      fprintf(f, "%.10g %.10g %.10g %.10g %.10g %.10g\n", p->time_s, p->energy_j * v->es,
              p->time_band[0], p->time_band[1], p->energy_band[0] * v->es,
              p->energy_band[1] * v->es);
  }
  fputs("EOD\n", f);
}

/* Ranges of the feasible points, what varies among them, counts and the knee. */
static void pareto_scan(pareto_view *v) {
  const dcsim_sweep_point *pts = v->pts;
  size_t n = v->n;
  v->first = n;
  v->knee = -1;
  v->tmin = INFINITY;
  v->emin = INFINITY;
  for (size_t i = 0; i < n; i++) {
    const dcsim_sweep_point *p = &pts[i];
    v->n_done += p->done != 0;
    if (p->knee) v->knee = (long)i;
    if (!p->done || !p->feasible) continue;
    if (v->first == n) v->first = i;
    const dcsim_sweep_point *q = &pts[v->first];
    v->var_cpu |= strcmp(p->cpu, q->cpu) != 0;
    v->var_gpu |= strcmp(p->gpu, q->gpu) != 0 || strcmp(p->host_cpu, q->host_cpu) != 0 ||
                  p->gpus != q->gpus || strcmp(p->threading, q->threading) != 0;
    v->var_nodes |= p->nodes != q->nodes;
    v->var_cores |= p->cores != q->cores;
    v->var_freq |= strcmp(p->freq, q->freq) != 0;
    v->nf++;
    if (p->time_s < v->tmin) v->tmin = p->time_s;
    if (p->time_s > v->tmax) v->tmax = p->time_s;
    if (p->energy_j < v->emin) v->emin = p->energy_j;
    if (p->energy_j > v->emax) v->emax = p->energy_j;
  }
}

/* series: one per hardware (CPU, GPU x count, host CPU, threading) when it varies (D3.5 Figure
 * 30), else one per node count (Figure 28); a key names the full hardware */
static int pareto_series(pareto_view *v, dcsim_error *err) {
  int by_hw = v->var_cpu || v->var_gpu;
  v->ser = calloc(v->n, sizeof *v->ser);
  v->sid = calloc(v->n, sizeof *v->sid);
  if (!v->ser || !v->sid) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  for (size_t i = 0; i < v->n; i++) {
    const dcsim_sweep_point *p = &v->pts[i];
    if (!p->done || !p->feasible) continue;
    dcsim_str key = DCSIM_STR_INIT;
    dcsim__plot_hw_name(p, 0, &key); /* a GPU names its node's host CPU */
    if (!by_hw && v->var_nodes)
      dcsim_str_addf(&key, "%s%u node%s", key.len ? ", " : "", p->nodes, p->nodes == 1 ? "" : "s");
    else if (!by_hw && !key.len)
      dcsim_str_add(&key, "configurations");
    if (key.oom) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    size_t k = 0;
    while (k < v->n_ser && strcmp(v->ser[k].key, dcsim_str_cstr(&key)) != 0) k++;
    if (k == v->n_ser && !(v->ser[v->n_ser++].key = dcsim_str_take(&key)))
      return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    dcsim_str_release(&key);
    v->sid[i] = k;
  }
  return 0;
}

/* The title (counts, what the labels show, the knee), axes, grid and margins. */
static int pareto_header(FILE *f, const pareto_view *v, const char *title, dcsim_error *err) {
  int logx = v->tmax > 10 * v->tmin, logy = v->emax > 10 * v->emin;
  dcsim_str t2 = DCSIM_STR_INIT;
  dcsim_str_addf(&t2,
                 "%s\n%zu feasible point%s of %zu%s; A, B, C...: the front's extremes, knee and a "
                 "few more (see the key)",
                 title && *title ? title : v->deftitle, v->nf, v->nf == 1 ? "" : "s", v->n_done,
                 v->n_done > v->nf ? " (infeasible ones not shown)" : "");
  if (v->knee >= 0) {
    const dcsim_sweep_point *p = &v->pts[v->knee];
    dcsim_str_add(&t2, "\nknee: ");
    dcsim__plot_hw_name(p, 0, &t2);
    dcsim_str_add(&t2, ", "); /* "-" for a count or frequency the point leaves unset */
    if (p->nodes)
      dcsim_str_addf(&t2, "%u", p->nodes);
    else
      dcsim_str_add(&t2, "-");
    dcsim_str_addf(&t2, " node%s x ", p->nodes == 1 ? "" : "s");
    if (p->cores)
      dcsim_str_addf(&t2, "%u", p->cores);
    else
      dcsim_str_add(&t2, "-");
    dcsim_str_addf(&t2, " core%s @ ", p->cores == 1 ? "" : "s");
    if (p->freq[0])
      dcsim__plot_freq_text(p->freq, &t2);
    else
      dcsim_str_add(&t2, "-");
    dcsim_str_addf(&t2, ": %.4g %s, %.4g %s", p->time_s, v->xu, p->energy_j * v->es, v->eu);
  }
  if (t2.oom) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  fprintf(f, "set title ");
  dcsim__plot_str(f, dcsim_str_cstr(&t2));
  dcsim_str_release(&t2);
  fprintf(f, "\nset xlabel '%s [%s]%s'\nset ylabel '%s [%s]%s'\n", v->xq, v->xu,
          logx ? " (log scale)" : "", v->yq, v->eu, logy ? " (log scale)" : "");
  if (logx) {
    fputs("set logscale x\n", f);
    log_axis(f, 'x', v->tmin, v->tmax);
  }
  if (logy) {
    fputs("set logscale y\n", f);
    log_axis(f, 'y', v->emin * v->es, v->emax * v->es);
  }
  fputs(
      "set grid back lc rgb '#dddddd'\nset key below horizontal Left reverse samplen 2 spacing 1.2 "
      "width 2 maxrows 4\n"
      "set border lw 1.2\nset format x '%g'\nset format y '%g'\n",
      f);
  fprintf(f, "set offsets graph %g, graph %g, graph %g, graph %g\n", logx ? 0 : 0.04,
          logx ? 0 : 0.06, logy ? 0 : 0.06, logy ? 0 : 0.04);
  return 0;
}

/* front in time order (points are in index order; the front is sorted by time) */
static int pareto_front(FILE *f, const pareto_view *v, dcsim_error *err) {
  const dcsim_sweep_point *pts = v->pts;
  size_t n_front = 0, m = 0;
  for (size_t i = 0; i < v->n; i++) n_front += pts[i].pareto != 0;
  size_t *fi = malloc((n_front ? n_front : 1) * sizeof *fi);
  if (!fi) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  for (size_t i = 0; i < v->n; i++)
    if (pts[i].pareto) fi[m++] = i;
  for (size_t a = 1; a < m; a++) /* insertion sort by time, then energy (fronts are short) */
    for (size_t b = a; b > 0 && (pts[fi[b]].time_s < pts[fi[b - 1]].time_s ||
                                 (pts[fi[b]].time_s == pts[fi[b - 1]].time_s &&
                                  pts[fi[b]].energy_j < pts[fi[b - 1]].energy_j));
         b--) {
      size_t t = fi[b];
      fi[b] = fi[b - 1];
      fi[b - 1] = t;
    }
  fputs("$front << EOD\n", f);
  for (size_t a = 0; a < m; a++)
    fprintf(f, "%.10g %.10g\n", pts[fi[a]].time_s, pts[fi[a]].energy_j * v->es);
  fputs("EOD\n", f);
  free(fi);
  return 0;
}

/* What varies among the points, for a label: "8 nodes", "4 nodes x 2 cores", "x2 @ 2.4 GHz". */
static void point_words(const pareto_view *v, const dcsim_sweep_point *p, dcsim_str *lab) {
  size_t n = lab->len;
  if (v->var_nodes || (!v->var_cores && !v->var_freq))
    dcsim_str_addf(lab, "%u %s", p->nodes, p->nodes == 1 ? "node" : "nodes");
  if (v->var_cores)
    dcsim_str_addf(lab, "%s%u %s", lab->len > n ? " x " : "", p->cores,
                   p->cores == 1 ? "core" : "cores");
  if (v->var_freq) {
    dcsim_str_addf(lab, "%s@ ", lab->len > n ? " " : "");
    dcsim__plot_freq_text(p->freq, lab);
  }
}

/* Labels where they help (a label on every point smeared on large fronts): the fastest
 * and the least-energy points of the front, the knee, and up to two more front points spread along
 * it, marked A, B, C... beside the point and explained in the key ("A  16 nodes: fastest, 1705 s");
 * a front of at most 5 points is marked whole. Writes the marks and *keys (one per line) for the
 * plot command. */
static int pareto_labels(FILE *f, const pareto_view *v, dcsim_str *keys, dcsim_error *err) {
  const dcsim_sweep_point *pts = v->pts;
  size_t m = 0;
  size_t *fi = malloc((v->n ? v->n : 1) * sizeof *fi);
  if (!fi) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  for (size_t i = 0; i < v->n; i++)
    if (pts[i].pareto) fi[m++] = i;
  for (size_t a = 1; a < m; a++) /* by time (the front's energy falls as its time grows) */
    for (size_t b = a; b > 0 && pts[fi[b]].time_s < pts[fi[b - 1]].time_s; b--) {
      size_t t = fi[b];
      fi[b] = fi[b - 1];
      fi[b - 1] = t;
    }
  /* which to mark: the extremes and the knee always, the others when no marked point is close
   * (within 4 % of either axis: their letters would overlap) */
  unsigned char *take = calloc(m ? m : 1, 1);
  if (!take) {
    free(fi);
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  }
  double dx = fmax(v->tmax - v->tmin, 1e-300), dy = fmax((v->emax - v->emin) * v->es, 1e-300);
  for (int pass = 0; pass < 2; pass++)
    for (size_t a = 0; a < m; a++) {
      int must = a == 0 || a + 1 == m || (long)fi[a] == v->knee;
      int spread = m <= 5 || a == m / 3 || a == 2 * m / 3;
      if (pass == 0 ? !must : (must || !spread)) continue;
      int near = 0;
      for (size_t b = 0; b < m && pass; b++)
        near |= take[b] && fabs(pts[fi[a]].time_s - pts[fi[b]].time_s) / dx < 0.04 &&
                fabs(pts[fi[a]].energy_j - pts[fi[b]].energy_j) * v->es / dy < 0.04;
      take[a] = !near;
    }
  char mark = 'A';
  for (size_t a = 0; a < m && mark <= 'Z'; a++) {
    const dcsim_sweep_point *p = &pts[fi[a]];
    int first = a == 0, last = a + 1 == m && m > 1, knee = (long)fi[a] == v->knee;
    if (!take[a]) continue;
    dcsim_str_addf(keys, "%c  ", mark); /* "A  8 nodes: fastest, 1705 s", one a line */
    point_words(v, p, keys);
    if (first)
      dcsim_str_addf(keys, ": %s, %.4g %s\n", v->xbest, p->time_s, v->xu);
    else if (last)
      dcsim_str_addf(keys, ": %s, %.4g %s\n", v->ybest, p->energy_j * v->es, v->eu);
    else
      dcsim_str_addf(keys, "%s, %.4g %s, %.4g %s\n", knee ? " (the knee)" : "", p->time_s, v->xu,
                     p->energy_j * v->es, v->eu);
    fprintf(f,
            "set label '%c' at %.10g, %.10g left offset char %s font ',10' tc rgb '#000000' "
            "front\n",
            mark, p->time_s, p->energy_j * v->es, knee ? "1.9,-0.9" : "0.8,0.7");
    mark++;
  }
  free(take);
  free(fi);
  return keys->oom ? DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory") : 0;
}

/* the data: one block per series, the front, the labels, the knee */
static int pareto_data(FILE *f, const pareto_view *v, dcsim_str *keys, dcsim_error *err) {
  int rc;
  pareto_bands(f, v);
  for (size_t k = 0; k < v->n_ser; k++) {
    fprintf(f, "$s%zu << EOD\n", k);
    for (size_t i = 0; i < v->n; i++)
      if (v->pts[i].done && v->pts[i].feasible && v->sid[i] == k)
        fprintf(f, "%.10g %.10g\n", v->pts[i].time_s, v->pts[i].energy_j * v->es);
    fputs("EOD\n", f);
  }
  if ((rc = pareto_front(f, v, err)) || (rc = pareto_labels(f, v, keys, err))) return rc;
  if (v->knee >= 0) {
    const dcsim_sweep_point *p = &v->pts[v->knee];
    fprintf(f, "$knee << EOD\n%.10g %.10g\nEOD\n", p->time_s, p->energy_j * v->es);
    fputs("knee_title = ", f);
    dcsim__plot_str(f, "knee (closest to the utopia point)");
    fputc('\n', f);
  }
  return 0;
}

/* The plot command: the series, the front, the knee, the labels. */
static void pareto_plot_cmd(FILE *f, const pareto_view *v, dcsim_str *keys) {
  fputs("plot ", f);
  if (v->n_band)
    fputs(
        "$bands using 1:2:3:4:5:6 with xyerrorbars pt -1 lw 1 lc rgb '#bbbbbb' title "
        "'uncertainty band (doc/validation.md)', \\\n     ",
        f);
  static const int shapes[] = { 7, 5, 9, 11, 13 }; /* circle, square, triangles, diamond */
  for (size_t k = 0; k < v->n_ser; k++) {
    char col[8];
    /* more series than the palette's 10 colours get distinct colours and shapes */
    fprintf(f, "$s%zu using 1:2 with points pt %d ps 1.1 lc rgb '%s' title ", k,
            v->n_ser > 10 ? shapes[k % 5] : 7, dcsim__plot_color_n(k, v->n_ser, col));
    dcsim__plot_str(f, v->ser[k].key);
    fputs(", \\\n     ", f);
  }
  fputs(
      "$front using 1:2 with lines lw 1.5 dt 2 lc rgb '#000000' title 'Pareto front', \\\n"
      "     $front using 1:2 with points pt 6 ps 1.6 lw 1.5 lc rgb '#000000' notitle, \\\n",
      f);
  if (v->knee >= 0)
    fputs(
        "     $knee using 1:2 with points pt 6 ps 3.5 lw 2.5 lc rgb '#d62728' title knee_title, "
        "\\\n",
        f);
  for (char *k = keys->s; k && *k;) { /* the marked points, explained in the key: each line */
    char *e = strchr(k, '\n');
    if (e) *e = '\0';
    fputs("     NaN with points ps 0 lc rgb '#ffffff' title ", f);
    dcsim__plot_str(f, k);
    fputs(", \\\n", f);
    k = e ? e + 1 : k + strlen(k);
  }
  fputs("     NaN notitle\n", f);
}

int dcsim_plot_pareto(const dcsim_sweep_point *pts, size_t n, const char *title,
                      const char *caption, const char *out, dcsim_plot_format fmt,
                      const volatile sig_atomic_t *stop, dcsim_error *err) {
  return dcsim_plot_pareto_on(pts, n, DCSIM_OBJ_DEFAULT, title, caption, out, fmt, stop, err);
}

/* The points as drawn over the objectives obj: x (time_s) the time, else the energy; y (energy_j)
 * the cost when it is an objective, else the energy. A point without a value is left out (as an
 * infeasible one). Three objectives are drawn over time and cost, the front being the points no
 * point beats in all three. */
static dcsim_sweep_point *axes_points(const dcsim_sweep_point *pts, size_t n, unsigned obj) {
  dcsim_sweep_point *q = malloc((n ? n : 1) * sizeof *q);
  for (size_t i = 0; q && i < n; i++) {
    q[i] = pts[i];
    q[i].time_s = obj & DCSIM_OBJ_TIME ? pts[i].time_s : pts[i].energy_j;
    q[i].energy_j = obj & DCSIM_OBJ_COST ? pts[i].cost_usd : pts[i].energy_j;
    /* the bands follow their quantities onto the axes (dcsim/sweep_bands.h) */
    if (!(obj & DCSIM_OBJ_TIME)) memcpy(q[i].time_band, pts[i].energy_band, sizeof q[i].time_band);
    if (obj & DCSIM_OBJ_COST) {
      memcpy(q[i].energy_band, pts[i].cost_band, sizeof q[i].energy_band);
      q[i].has_band = pts[i].has_band && pts[i].has_cost_band;
    }
    if (!isfinite(q[i].time_s) || !isfinite(q[i].energy_j)) q[i].feasible = 0;
  }
  return q;
}

/* the default title of the chart over obj */
static const char *chart_title(unsigned obj) {
  if (obj == DCSIM_OBJ_DEFAULT) return "Time-to-solution vs energy-to-solution";
  if (obj == (DCSIM_OBJ_TIME | DCSIM_OBJ_COST)) return "Time-to-solution vs cost";
  if (obj == (DCSIM_OBJ_ENERGY | DCSIM_OBJ_COST)) return "Energy-to-solution vs cost";
  return "Time-to-solution vs cost (front over time, energy and cost)";
}

int dcsim_plot_pareto_on(const dcsim_sweep_point *pts0, size_t n, unsigned obj, const char *title,
                         const char *caption, const char *out, dcsim_plot_format fmt,
                         const volatile sig_atomic_t *stop, dcsim_error *err) {
  if (obj == 0) obj = DCSIM_OBJ_DEFAULT;
  dcsim_sweep_point *copy = obj == DCSIM_OBJ_DEFAULT ? NULL : axes_points(pts0, n, obj);
  if (obj != DCSIM_OBJ_DEFAULT && !copy)
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  int xt = (obj & DCSIM_OBJ_TIME) != 0, yc = (obj & DCSIM_OBJ_COST) != 0;
  pareto_view v = { .pts = copy ? copy : pts0,
                    .n = n,
                    .xq = xt ? "time-to-solution" : "energy-to-solution",
                    .xu = xt ? "s" : "J",
                    .yq = yc ? "cost" : "energy-to-solution",
                    .xbest = xt ? "fastest" : "least energy",
                    .ybest = yc ? "least cost" : "least energy",
                    .deftitle = chart_title(obj) };
  dcsim_plot_gp g;
  dcsim_str keys = DCSIM_STR_INIT; /* the key of the marked points, one a line */
  int rc = 0;
  pareto_scan(&v);
  if (v.nf == 0) {
    rc = DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "no feasible point%s to plot (%zu infeasible)",
                   yc ? " with a cost" : "", v.n_done);
    free(copy);
    return rc;
  }
  pareto_scan_bands(&v); /* the bands of the quantities drawn */
  if (yc) {
    v.eu = "USD";
    v.es = 1;
  } else
    v.eu = dcsim__plot_energy_unit(v.emax, &v.es);
  if ((rc = pareto_series(&v, err)) ||
      (rc = dcsim__plot_open(&g, out, fmt, 1100, 760, caption, stop, err)))
    goto out;
  if ((rc = pareto_header(g.f, &v, title, err)) || (rc = pareto_data(g.f, &v, &keys, err))) {
    dcsim__plot_cleanup(&g);
    goto out;
  }
  pareto_plot_cmd(g.f, &v, &keys);
  rc = dcsim__plot_run(&g, out, err);
out:
  dcsim_str_release(&keys);
  for (size_t k = 0; k < v.n_ser; k++) free(v.ser[k].key);
  free(v.ser);
  free(v.sid);
  free(copy);
  return rc;
}
