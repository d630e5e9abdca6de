/* plot_gantt.c — the Gantt chart of a run: one row per node, one bar per task (see dcsim/plot.h).
 */
#include "dcsim/plot.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/numfmt.h"
#include "dcsim/strutil.h"
#include "output/internal.h"

int dcsim_plot_gantt(const dcsim_plot_trace_t *t, const char *caption, const char *out,
                     dcsim_plot_format fmt, const volatile sig_atomic_t *stop, dcsim_error *err) {
  const dcsim_scenario *s = t->s;
  if (!t->n_bars) return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "no task ran: nothing to draw");
  unsigned nn = s->platform->n_nodes;
  int32_t *row = malloc((nn ? nn : 1) * sizeof *row);
  if (!row) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  for (unsigned i = 0; i < nn; i++) row[i] = -1;
  for (size_t i = 0; i < t->n_bars; i++) row[t->bars[i].node] = 0;
  int32_t rows = 0;
  for (unsigned i = 0; i < nn; i++)
    if (row[i] == 0) row[i] = rows++; /* only nodes that ran something, in order */
  double ts;
  const char *tu = dcsim__plot_time_unit((double)t->end_ns * 1e-9, &ts);
  dcsim_plot_gp g;
  int height = 220 + 22 * (rows < 40 ? rows : 40);
  int rc = dcsim__plot_open(&g, out, fmt, 1200, height, caption, stop, err);
  if (rc) {
    free(row);
    return rc;
  }
  FILE *f = g.f;
  char *title = dcsim_strdup_printf(
      "Tasks per node: %s on %s (%zu task-node bars, %d of %u nodes used)",
      s->n_wfs == 1 ? s->wfs[0].wf->name : "workload", s->platform->name, t->n_bars, rows, nn);
  if (!title) {
    dcsim__plot_cleanup(&g);
    free(row);
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  }
  fputs("set title ", f);
  dcsim__plot_str(f, title);
  free(title);
  fprintf(f,
          "\nset xlabel 'time [%s]'\nset ylabel 'node'\nset yrange [-0.7:%d]\nset xrange "
          "[0:*]\nset grid xtics back lc rgb '#e8e8e8'\n"
          "set key outside right top Left reverse samplen 2\nset style fill solid 0.9 noborder\n"
          "set ytics font ',9'\nset format x '%%g'\n",
          tu, rows);
  /* y tics: "group:index" for up to 40 rows, else let gnuplot choose numbers */
  if (rows <= 40) {
    fputs("set ytics (", f);
    int firstt = 1;
    for (unsigned i = 0; i < nn; i++) {
      if (row[i] < 0) continue;
      size_t gi = dcsim__plot_group_of(s, i);
      fputs(firstt ? "" : ", ", f);
      dcsim__plot_str(f, s->groups[gi].g->name); /* 'group'.' index' position */
      fprintf(f, ".' %u' %d", i - s->groups[gi].g->first_node, row[i]);
      firstt = 0;
    }
    fputs(")\n", f);
  } else { /* many rows: numbers, with the groups named and separated */
    fputs("set key above horizontal\nset rmargin 12\n", f);
    int lo = -1, hi = -1, k = 0;
    for (size_t gi = 0; gi < s->n_groups; gi++) {
      lo = hi = -1;
      for (unsigned i = s->groups[gi].g->first_node;
           i < s->groups[gi].g->first_node + s->groups[gi].g->count; i++)
        if (row[i] >= 0) {
          if (lo < 0) lo = row[i];
          hi = row[i];
        }
      if (lo < 0) continue;
      fprintf(f, "set label %d ", ++k);
      dcsim__plot_str(f, s->groups[gi].g->name);
      fprintf(f, " at graph 1.01, first %g left font ',10'\n", (lo + hi) / 2.0);
      if (lo > 0)
        fprintf(f,
                "set arrow %d from graph 0, first %g to graph 1, first %g nohead dt 3 lc rgb "
                "'#888888'\n",
                k, lo - 0.5, lo - 0.5);
    }
  }
  for (size_t l = 0; l < t->n_labels; l++) {
    fprintf(f, "$b%zu << EOD\n", l);
    for (size_t i = 0; i < t->n_bars; i++) {
      const dcsim_plot_bar *b = &t->bars[i];
      if (b->label != l) continue;
      double x0 = (double)b->t0 * 1e-9 * ts, x1 = (double)b->t1 * 1e-9 * ts, y = row[b->node];
      fprintf(f, "%.9g %d %.9g %.9g %.2f %.2f\n", (x0 + x1) / 2, (int)y, x0, x1, y - 0.38,
              y + 0.38);
    }
    fputs("EOD\n", f);
  }
  fputs("plot ", f);
  for (size_t l = 0; l < t->n_labels; l++) {
    fprintf(f, "$b%zu using 1:2:3:4:5:6 with boxxyerror lc rgb '%s' title ", l,
            dcsim__plot_color(l));
    dcsim__plot_str(f, t->labels[l]);
    fputs(l + 1 < t->n_labels ? ", \\\n     " : "\n", f);
  }
  free(row);
  return dcsim__plot_run(&g, out, err);
}
