/* plot_heatmap.c — the heat maps of a sweep: energy or time over nodes and cores per node (see
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

/* The panels and axes of a heat map: the distinct node and core counts, and one panel per
 * hardware (CPU, GPU x count, host CPU), frequency and threading variant, in point order. */
typedef struct heat_view {
  const dcsim_sweep_point *pts;
  size_t n;
  unsigned nodes[DCSIM_SWEEP_MAX_LIST], cores[DCSIM_SWEEP_MAX_LIST];
  size_t nn, nc;
  size_t panel_of[DCSIM_PLOT_HEAT_MAX_PANELS]; /* a point of each panel */
  size_t np;
  double vmin, vmax, scale; /* of the feasible points' metric, and its display scale */
  const char *unit;
  int time; /* the metric: 1 time, 0 energy */
  int logc; /* a logarithmic colour scale (the values span 10x or more) */
} heat_view;

static double heat_value(const heat_view *h, const dcsim_sweep_point *p) {
  return (h->time ? p->time_s : p->energy_j) * h->scale;
}

static int same_panel(const dcsim_sweep_point *a, const dcsim_sweep_point *b) {
  return strcmp(a->cpu, b->cpu) == 0 && strcmp(a->gpu, b->gpu) == 0 &&
         strcmp(a->freq, b->freq) == 0 && a->gpus == b->gpus &&
         strcmp(a->host_cpu, b->host_cpu) == 0 && strcmp(a->threading, b->threading) == 0;
}

static void add_sorted(unsigned *v, size_t *n, unsigned x) {
  size_t i = 0;
  while (i < *n && v[i] < x) i++;
  if (i < *n && v[i] == x) return;
  if (*n == DCSIM_SWEEP_MAX_LIST) return;
  memmove(v + i + 1, v + i, (*n - i) * sizeof *v);
  v[i] = x;
  (*n)++;
}

static size_t index_of(const unsigned *v, size_t n, unsigned x) {
  for (size_t i = 0; i < n; i++)
    if (v[i] == x) return i;
  return n;
}

static int heat_scan(heat_view *h, dcsim_error *err) {
  h->vmin = INFINITY;
  h->vmax = 0;
  for (size_t i = 0; i < h->n; i++) {
    const dcsim_sweep_point *p = &h->pts[i];
    if (!p->done) continue;
    add_sorted(h->nodes, &h->nn, p->nodes);
    add_sorted(h->cores, &h->nc, p->cores);
    size_t k = 0;
    while (k < h->np && !same_panel(&h->pts[h->panel_of[k]], p)) k++;
    if (k == h->np) {
      if (h->np == DCSIM_PLOT_HEAT_MAX_PANELS)
        return DCSIM_ERR(err, DCSIM_ERANGE, "", 0,
                         "more than %d hardware, frequency and threading combinations: a heat map "
                         "draws one panel each; choose some with --cpu, --gpu, --freq, --gpus, "
                         "--host-cpu or --threading, or draw one picture per value with --facet",
                         DCSIM_PLOT_HEAT_MAX_PANELS);
      h->panel_of[h->np++] = i;
    }
    if (!p->feasible) continue;
    double v = h->time ? p->time_s : p->energy_j;
    if (v < h->vmin) h->vmin = v;
    if (v > h->vmax) h->vmax = v;
  }
  if (!(h->vmax > 0)) return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "no feasible point to draw");
  h->logc = h->vmin > 0 && h->vmax >= 10 * h->vmin;
  if (h->time)
    h->unit = dcsim__plot_time_unit(h->vmax, &h->scale);
  else
    h->unit = dcsim__plot_energy_unit(h->vmax, &h->scale);
  return 0;
}

/* "xeon-gold-6148 + tesla-k20m x4 on xeon-e5-2697v3 @ 2.4 GHz", what names a panel; a long one
 * with the frequency (and threading variant) on a second line */
static int panel_name(const dcsim_sweep_point *p, dcsim_str *name) {
  if (dcsim__plot_hw_name(p, 1, name)) return -1;
  char *at = name->s ? strstr(name->s, " @ ") : NULL; /* the frequency on a second line: two
                                                         panels' names overlapped */
  if (at && name->len > 40) {
    memmove(at + 1, at + 3, strlen(at + 3) + 1);
    at[0] = '\n';
    name->len -= 2;
  }
  return 0;
}

/* tics that name the counts at their positions 0..n-1 */
static void count_tics(FILE *f, char axis, const unsigned *v, size_t n) {
  fprintf(f, "set %ctics (", axis);
  for (size_t i = 0; i < n; i++) fprintf(f, "%s'%u' %zu", i ? ", " : "", v[i], i);
  fprintf(f, ")\nset %crange [-0.5:%zu.5]\n", axis, n - 1);
}

/* One panel: the cells of its points, their values written in them (white on the dark end of the
 * palette), infeasible cells crossed, the panel's best cell framed. */
static int heat_panel(FILE *f, const heat_view *h, size_t k, int last, dcsim_error *err) {
  const dcsim_sweep_point *ref = &h->pts[h->panel_of[k]];
  dcsim_str name = DCSIM_STR_INIT;
  if (panel_name(ref, &name)) {
    dcsim_str_release(&name);
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  }
  fputs("set title ", f);
  dcsim__plot_str(f, dcsim_str_cstr(&name));
  dcsim_str_release(&name);
  fputc('\n', f);
  long best = -1;
  fprintf(f, "$h%zu << EOD\n", k);
  for (size_t i = 0; i < h->n; i++) {
    const dcsim_sweep_point *p = &h->pts[i];
    if (!p->done || !same_panel(p, ref)) continue;
    size_t x = index_of(h->nodes, h->nn, p->nodes), y = index_of(h->cores, h->nc, p->cores);
    if (!p->feasible) {
      fprintf(f, "%zu %zu NaN 2\n", x, y);
      continue;
    }
    double v = heat_value(h, p), lo = h->vmin * h->scale, hi = h->vmax * h->scale;
    double rel =
        h->logc ? (log(v) - log(lo)) / fmax(log(hi / lo), 1e-12) : (v - lo) / fmax(hi - lo, 1e-300);
    fprintf(f, "%zu %zu %.10g %d\n", x, y, v, rel < 0.45);
    if (best < 0 || v < heat_value(h, &h->pts[best])) best = (long)i;
  }
  fputs("EOD\n", f);
  int cells = h->nn * h->nc <= 120;
  if (best >= 0) {
    size_t bx = index_of(h->nodes, h->nn, h->pts[best].nodes),
           by = index_of(h->cores, h->nc, h->pts[best].cores);
    fprintf(f,
            "set object 1 rect from %g,%g to %g,%g front fillstyle empty border lc rgb '#d62728' "
            "lw 3\n",
            bx - 0.46, by - 0.46, bx + 0.46, by + 0.46);
  }
  if (last)
    fputs("set colorbox user origin screen 0.875, screen 0.2 size screen 0.018, screen 0.6\n", f);
  else
    fputs("unset colorbox\n", f);
  /* cells as boxes, not `with image` (gnuplot needs 2 x 2 pixels for an image: a sweep with one
   * value on an axis drew empty panels): a strip or a bar row draws as well as a grid */
  fprintf(f,
          "plot $h%zu using 1:2:(0.5):(0.5):($4 == 2 ? NaN : $3) with boxxyerror fs solid 1.0 "
          "noborder lc palette notitle",
          k);
  if (cells)
    fprintf(
        f,
        ", \\\n     $h%zu using 1:2:($4 == 1 ? sprintf('%%.4g', $3) : '') with labels font ',8' "
        "tc rgb '#ffffff' notitle, \\\n     $h%zu using 1:2:($4 == 0 ? sprintf('%%.4g', $3) : "
        "'') with labels font ',8' tc rgb '#000000' notitle",
        k, k);
  fprintf(f,
          ", \\\n     $h%zu using 1:2:($4 == 2 ? 'x' : '') with labels font ',10' tc rgb "
          "'#999999' notitle",
          k);
  fputc('\n', f);
  fputs("unset label 999\nunset object 1\n", f); /* the caption is drawn once */
  return 0;
}

int dcsim_plot_heatmap(const dcsim_sweep_point *pts, size_t n, int time, const char *title,
                       const char *caption, const char *out, dcsim_plot_format fmt,
                       const volatile sig_atomic_t *stop, dcsim_error *err) {
  heat_view *h = calloc(1, sizeof *h);
  if (!h) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  h->pts = pts;
  h->n = n;
  h->time = time;
  dcsim_plot_gp g;
  int rc = heat_scan(h, err);
  size_t cols = h->np <= 1 ? 1 : h->np <= 4 ? 2 : 3, rows = (h->np + cols - 1) / (cols ? cols : 1);
  int width = 420 * (int)cols + 260;
  if (!rc)
    rc = dcsim__plot_open(&g, out, fmt, width < 960 ? 960 : width, 330 * (int)rows + 170, caption,
                          stop, err);
  if (rc) {
    free(h);
    return rc;
  }
  FILE *f = g.f;
  char *t = dcsim_strdup_printf(
      "%s\n%s of every point [%s]%s, the least of each panel framed; x: not feasible",
      title && *title ? title : "Sweep heat map: nodes x cores",
      time ? "time-to-solution" : "energy-to-solution", h->unit,
      h->logc ? " (log colour scale)" : "");
  if (!t) {
    dcsim__plot_cleanup(&g);
    free(h);
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  }
  fprintf(f,
          "set palette defined (0 '#440154', 0.25 '#3b528b', 0.5 '#21918c', 0.75 '#5ec962', 1 "
          "'#fde725')\n%sset format cb '%%g'\n",
          h->logc ? "set logscale cb\n" : "");
  /* the label clear of the tick labels (they overlapped) */
  fprintf(f, "set cbrange [%.10g:%.10g]\nset cblabel '%s [%s]' offset char 2,0\n",
          h->vmin * h->scale, h->vmax * h->scale * (h->vmax > h->vmin ? 1 : 1.01),
          time ? "time" : "energy", h->unit);
  fputs("set xlabel 'nodes'\nset ylabel 'cores per node'\nset tics out nomirror\n", f);
  count_tics(f, 'x', h->nodes, h->nn);
  count_tics(f, 'y', h->cores, h->nc);
  double height = 330.0 * (double)rows + 170; /* margins in pixels, as fractions */
  fprintf(f, "set multiplot layout %zu,%zu margins 0.08,0.85,%.3f,%.3f spacing 0.07,%.3f title ",
          rows, cols, 105 / height, 1 - 95 / height, 115 / height);
  dcsim__plot_str(f, t);
  free(t);
  fputc('\n', f);
  for (size_t k = 0; k < h->np; k++)
    if ((rc = heat_panel(f, h, k, k + 1 == h->np, err))) {
      dcsim__plot_cleanup(&g);
      free(h);
      return rc;
    }
  fputs("unset multiplot\n", f);
  free(h);
  return dcsim__plot_run(&g, out, err);
}
