/* plot_roofline.c — the roofline chart: ceilings and a dwarf's loops or kernels on them (see
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

int dcsim_plot_roofline(const dcsim_roofline *r, int cache_aware, const char *caption,
                        const char *out, dcsim_plot_format fmt, const volatile sig_atomic_t *stop,
                        dcsim_error *err) {
  dcsim_plot_gp g;
  int rc = dcsim__plot_open(&g, out, fmt, 1100, 720, caption, stop, err);
  if (rc) return rc;
  FILE *f = g.f;
  /* x range: from below the smallest intensity to beyond the largest ridge or point */
  double imin = INFINITY, imax = 0, pmin = INFINITY;
  size_t c0 = cache_aware ? 0 : r->n_ceilings - 1;
  for (size_t c = c0; c < r->n_ceilings; c++) {
    double ridge = r->peak_flops / r->ceilings[c].bw_bps;
    if (ridge > imax) imax = ridge;
    if (ridge < imin) imin = ridge;
  }
  for (size_t i = 0; i < r->n_points; i++) {
    if (r->points[i].intensity < imin) imin = r->points[i].intensity;
    if (r->points[i].intensity > imax) imax = r->points[i].intensity;
    if (r->points[i].perf_flops < pmin) pmin = r->points[i].perf_flops;
  }
  double x0 = pow(10, floor(log10(imin / 3))), x1 = pow(10, ceil(log10(imax * 3)));
  double ylo = r->ceilings[r->n_ceilings - 1].bw_bps * x0;
  if (pmin < ylo) ylo = pmin;
  double y0 = pow(10, floor(log10(ylo * 1e-9 / 2))),
         y1 = pow(10, ceil(log10(r->peak_flops * 1e-9 * 3)));
  if (r->peak_sp_flops > 0) y1 = pow(10, ceil(log10(r->peak_sp_flops * 1e-9 * 2)));
  dcsim_str t = DCSIM_STR_INIT;
  dcsim_str_addf(&t, "%s: %s%s%s%s%s",
                 cache_aware && r->n_ceilings > 1 ? "Cache-aware roofline" : "Roofline", r->device,
                 r->state[0] ? " at " : "", r->state, r->dwarf[0] ? ", " : "", r->dwarf);
  if (r->dwarf[0]) {
    if (r->peak_sp_flops > 0)
      dcsim_str_add(
          &t,
          "\nkernels at (W/Q, W/T): W = 2 x DP instructions (Table 11), Q = requested global "
          "bytes, T = model time");
    else
      dcsim_str_addf(
          &t, "\nloops at (W/Q, W/T), T = the §4.3 model time of the loop%s%s",
          r->n_unplaced ? "; loops without flops not shown" : "",
          cache_aware
              ? ""
              : "\nclassic roofline (DRAM only): loops served from the caches can lie above it");
  }
  if (t.oom) {
    dcsim_str_release(&t);
    dcsim__plot_cleanup(&g);
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  }
  fputs("set title ", f);
  dcsim__plot_str(f, dcsim_str_cstr(&t));
  dcsim_str_release(&t);
  fprintf(f, "\nset logscale xy 10\nset xrange [%g:%g]\nset yrange [%g:%g]\n", x0, x1, y0, y1);
  fputs(
      "set xlabel 'operational intensity W/Q [flop/byte] (log scale)'\n"
      "set ylabel 'performance [GFLOP/s] (log scale)'\n"
      "set format x '%g'\nset format y '%g'\nset grid xtics ytics mxtics mytics back lc rgb "
      "'#e4e4e4', lc rgb '#f2f2f2'\n"
      "set key outside right top Left reverse samplen 2 spacing 1.1 font ',9'\nset samples 2000\n",
      f);
  fprintf(f, "P = %.10g\n", r->peak_flops * 1e-9);
  for (size_t c = c0; c < r->n_ceilings; c++)
    fprintf(f, "b%zu = %.10g\nroof%zu(x) = x*b%zu < P ? x*b%zu : P\n", c,
            r->ceilings[c].bw_bps * 1e-9, c, c, c);
  fprintf(f, "set label 20 'peak %s%.4g GFLOP/s' at %g,%g font ',9' offset 0,0.7\n",
          r->peak_sp_flops > 0 ? "DP " : "", r->peak_flops * 1e-9, x1 / 40, r->peak_flops * 1e-9);
  if (r->peak_sp_flops > 0)
    fprintf(
        f, "set label 21 'peak SP %.4g GFLOP/s' at %g,%g font ',9' tc rgb '#777777' offset 0,0.7\n",
        r->peak_sp_flops * 1e-9, x1 / 40, r->peak_sp_flops * 1e-9);
  for (size_t i = 0; i < r->n_points; i++) {
    fprintf(f, "$p%zu << EOD\n%.10g %.10g\nEOD\n", i, r->points[i].intensity,
            r->points[i].perf_flops * 1e-9);
  }
  fputs("plot ", f);
  for (size_t c = c0; c < r->n_ceilings; c++) {
    fprintf(f, "roof%zu(x) with lines lw 2 lc rgb '%s' title ", c, dcsim__plot_color(c));
    dcsim__plot_str(f, r->ceilings[c].name); /* 'name'.' 12.3 GB/s' */
    fprintf(f, ".' %.4g GB/s', \\\n     ", r->ceilings[c].bw_bps * 1e-9);
  }
  if (r->peak_sp_flops > 0)
    fprintf(f,
            "(x*b%zu < %.10g ? x*b%zu : %.10g) with lines lw 1.5 dt 2 lc rgb '#777777' title 'SP "
            "peak', \\\n     ",
            r->n_ceilings - 1, r->peak_sp_flops * 1e-9, r->n_ceilings - 1, r->peak_sp_flops * 1e-9);
  /* the optimisation ceilings under the roofs (CACM 2009 Fig. 2): in-core ones flat from where the
   * DRAM roof reaches them, memory ones diagonal up to the peak; dashed */
  for (size_t c = 0; c < r->n_optim; c++) {
    double v = r->optim[c].value * 1e-9;
    if (r->optim[c].memory)
      fprintf(f, "(x*%.10g < P ? x*%.10g : P) with lines lw 1.2 dt 2 lc rgb '#8c564b' title ", v,
              v);
    else
      fprintf(f, "(x*b%zu < %.10g ? x*b%zu : %.10g) with lines lw 1.2 dt 4 lc rgb '#1f77b4' title ",
              r->n_ceilings - 1, v, r->n_ceilings - 1, v);
    char *lab = dcsim_strdup_printf("%s %.3g %s", r->optim[c].name, v,
                                    r->optim[c].memory ? "GB/s" : "GFLOP/s");
    if (!lab) {
      dcsim__plot_cleanup(&g);
      return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    }
    dcsim__plot_str(f, lab);
    free(lab);
    fputs(", \\\n     ", f);
  }
  static const int ptypes[] = { 5, 7, 9, 11, 13, 4, 6, 8, 10, 12 };
  size_t k = 0;
  for (size_t i = 0; i < r->n_points; i++) {
    const dcsim_roofline_point *p = &r->points[i];
    if (p->is_total)
      fprintf(f, "$p%zu using 1:2 with points pt 3 ps 3 lw 2.5 lc rgb '#000000' title ", i);
    else {
      fprintf(f, "$p%zu using 1:2 with points pt %d ps 1.5 lc rgb '%s' title ", i, ptypes[k % 10],
              dcsim__plot_color((k / 10 + k)));
      k++;
    }
    dcsim__plot_str(f, p->name);
    fputs(i + 1 < r->n_points ? ", \\\n     " : "\n", f);
  }
  if (!r->n_points) fputs("NaN notitle\n", f);
  return dcsim__plot_run(&g, out, err);
}
