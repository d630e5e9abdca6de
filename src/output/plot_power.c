/* plot_power.c — the power chart of a run: each node group's power over time (see dcsim/plot.h). */
#include "dcsim/plot.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/numfmt.h"
#include "dcsim/strutil.h"
#include "output/internal.h"

typedef struct pev {
  int64_t t;
  uint32_t group;
  double dw;
} pev;

static int cmp_pev(const void *a, const void *b) {
  const pev *x = a, *y = b;
  return (x->t > y->t) - (x->t < y->t);
}

/* Title, axes, one filled band per group (stacked, with its energy) and the centre's outline. 0, or
 * -1 when out of memory. */
static int power_plot(FILE *f, const dcsim_plot_trace_t *t, const double *gj, double energy,
                      double pmax, double ts, const char *tu) {
  const dcsim_scenario *s = t->s;
  size_t ng = s->n_groups;
  double ps = pmax >= 2e4 ? 1e-3 : 1;
  dcsim_str title = DCSIM_STR_INIT;
  dcsim_str_addf(&title,
                 "Power of the centre, stacked by node group: %s on %s (energy %s = %s kWh over "
                 "%.4g %s)",
                 s->n_wfs == 1 ? s->wfs[0].wf->name : "workload", s->platform->name,
                 dcsim_fmt_si((char[48]){ 0 }, 48, energy, 4, "J"),
                 dcsim_fmt_sig((char[48]){ 0 }, 48, energy / 3.6e6, 4),
                 (double)t->end_ns * 1e-9 * ts, tu);
  if (title.oom) return -1;
  fputs("set title ", f);
  dcsim__plot_str(f, dcsim_str_cstr(&title));
  dcsim_str_release(&title);
  fprintf(f,
          "\nset xlabel 'time [%s]'\nset ylabel 'power [%s]'\nset yrange [0:*]\nset xrange [0:*]\n"
          "set grid front lc rgb '#cccccc'\nset key outside right top Left reverse samplen 2\n"
          "set format x '%%g'\nset format y '%%g'\nset offsets 0, 0, graph 0.08, 0\n"
          "set style fill solid 0.8 noborder\nplot ",
          tu, ps >= 1 ? "W" : "kW");
  for (size_t gi = 0; gi < ng; gi++) {
    if (gi) /* the band between the groups below and this one */
      fprintf(f, "$p using 1:($%zu*%g):($%zu*%g) with filledcurves lc rgb '%s' title ", gi + 1, ps,
              gi + 2, ps, dcsim__plot_color(gi));
    else
      fprintf(f, "$p using 1:(0):($%zu*%g) with filledcurves lc rgb '%s' title ", gi + 2, ps,
              dcsim__plot_color(gi));
    char *lt = dcsim_strdup_printf("%s (%u node%s): %s", s->groups[gi].g->name,
                                   s->groups[gi].g->count, s->groups[gi].g->count == 1 ? "" : "s",
                                   dcsim_fmt_si((char[48]){ 0 }, 48, gj[gi], 4, "J"));
    if (!lt) return -1;
    dcsim__plot_str(f, lt);
    free(lt);
    fputs(", \\\n     ", f);
  }
  fprintf(f, "$p using 1:($%zu*%g) with lines lw 1.5 lc rgb '#000000' title 'centre (all nodes)'\n",
          ng + 1, ps);
  return 0;
}

/* The power of every group as stairs: at each instant with changes, one row with the levels
 * before and one with the levels after, cumulated over the groups (time, g0, g0+g1, ..., centre),
 * so that filled curves between consecutive columns stack the groups. *pmax: the highest total. */
static void power_stairs(FILE *f, const pev *ev, size_t ne, size_t ng, double ts, double *cur,
                         double *pmax) {
  fputs("$p << EOD\n", f);
  for (size_t i = 0; i < ne;) {
    int64_t now = ev[i].t;
    for (int side = 0; side < 2; side++) {
      if (side) /* apply every change at this instant */
        for (; i < ne && ev[i].t == now; i++) cur[ev[i].group] += ev[i].dw;
      double cum = 0;
      fprintf(f, "%.9g", (double)now * 1e-9 * ts);
      for (size_t gi = 0; gi < ng; gi++) {
        cum += fabs(cur[gi]) < 1e-9 ? 0 : cur[gi];
        fprintf(f, " %.9g", cum);
      }
      fputc('\n', f);
      if (cum > *pmax) *pmax = cum;
    }
  }
  fputs("EOD\n", f);
}

int dcsim_plot_power(const dcsim_plot_trace_t *t, const char *caption, const char *out,
                     dcsim_plot_format fmt, const volatile sig_atomic_t *stop, dcsim_error *err) {
  const dcsim_scenario *s = t->s;
  if (!t->n_segs) return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "no power record: nothing to draw");
  size_t ng = s->n_groups, ne = 2 * t->n_segs;
  pev *ev = malloc(ne * sizeof *ev);
  double *cur = calloc(ng + 1, sizeof *cur), *gj = calloc(ng + 1, sizeof *gj);
  if (!ev || !cur || !gj) {
    free(ev);
    free(cur);
    free(gj);
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  }
  double energy = 0;
  for (size_t i = 0; i < t->n_segs; i++) {
    const dcsim_plot_seg *sg = &t->segs[i];
    uint32_t gi = (uint32_t)dcsim__plot_group_of(s, sg->node);
    ev[2 * i] = (pev){ sg->t0, gi, sg->w };
    ev[2 * i + 1] = (pev){ sg->t1, gi, -sg->w };
    gj[gi] += sg->w * (double)(sg->t1 - sg->t0) * 1e-9;
    energy += sg->w * (double)(sg->t1 - sg->t0) * 1e-9;
  }
  qsort(ev, ne, sizeof *ev, cmp_pev);
  double ts, pmax = 0;
  const char *tu = dcsim__plot_time_unit((double)t->end_ns * 1e-9, &ts);
  dcsim_plot_gp g;
  int rc = dcsim__plot_open(&g, out, fmt, 1200, 640, caption, stop, err);
  if (!rc) {
    power_stairs(g.f, ev, ne, ng, ts, cur, &pmax);
    if (power_plot(g.f, t, gj, energy, pmax, ts, tu)) {
      dcsim__plot_cleanup(&g);
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    } else {
      rc = dcsim__plot_run(&g, out, err);
    }
  }
  free(ev);
  free(cur);
  free(gj);
  return rc;
}
