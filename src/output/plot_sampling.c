/* plot_sampling.c — the adaptive-sampling chart: each sampler's error against the samples (see
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

int dcsim_plot_sampling(const dcsim_sampling_curve *c, size_t n, const char *title, double target,
                        const char *caption, const char *out, dcsim_plot_format fmt,
                        const volatile sig_atomic_t *stop, dcsim_error *err) {
  dcsim_plot_gp g;
  int rc = dcsim__plot_open(&g, out, fmt, 1000, 640, caption, stop, err);
  if (rc) return rc;
  FILE *f = g.f;
  fputs("set title ", f);
  dcsim__plot_str(f, title);
  fputs(
      "\nset logscale y 10\nset xlabel 'samples (states measured)'\n"
      "set ylabel 'mean relative error of the surrogate [%] (median over seeds)'\n"
      "set grid xtics ytics mytics back lc rgb '#e4e4e4', lc rgb '#f2f2f2'\n"
      "set key top right\nset format y '%g'\n",
      f);
  for (size_t s = 0; s < n; s++) {
    fprintf(f, "$s%zu << EOD\n", s);
    for (size_t t = 0; t < c[s].n_steps; t++)
      fprintf(f, "%zu %.10g\n", c[s].samples[t], 100 * c[s].mre[t]);
    fputs("EOD\n", f);
  }
  fputs("plot ", f);
  for (size_t s = 0; s < n; s++) {
    fprintf(f, "$s%zu using 1:2 with linespoints lw 2 pt %zu lc rgb '%s' title ", s, 5 + 2 * s,
            dcsim__plot_color(s));
    dcsim__plot_str(f, dcsim_sampler_name(c[s].sampler));
    fputs(", \\\n     ", f);
  }
  if (target > 0)
    fprintf(f, "%.10g with lines dt 2 lc rgb '#777777' title 'target %.3g %%'\n", 100 * target,
            100 * target);
  else
    fputs("NaN notitle\n", f);
  return dcsim__plot_run(&g, out, err);
}
