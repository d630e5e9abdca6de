/* roofline_report.c — a roofline as text, JSON or CSV (see dcsim/roofline_report.h). */
#include "dcsim/roofline_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/json.h"
#include "dcsim/numfmt.h"
#include "util/csv.h"

/* The lowest roof min(peak, I x bandwidth) still above a point: its bound on the cache-aware
 * roofline ("peak" when that roof is the flat compute part). */
static const char *bound_of(const dcsim_roofline *r, const dcsim_roofline_point *p) {
  size_t best = r->n_ceilings;
  double best_roof = INFINITY;
  for (size_t c = 0; c < r->n_ceilings; c++) {
    double roof = dcsim_roofline_attainable(r, c, p->intensity);
    if (p->perf_flops <= roof * (1 + 1e-9) && roof < best_roof) {
      best = c;
      best_roof = roof;
    }
  }
  if (best == r->n_ceilings) return "above all";
  return best_roof >= r->peak_flops ? "peak" : r->ceilings[best].name;
}

static void write_text_body(FILE *f, const dcsim_roofline *r) {
  fprintf(f, "roofline    %s%s%s\n", r->device, r->state[0] ? " at " : "", r->state);
  fprintf(f, "peak        %s%s", DCSIM_SI(r->peak_flops, "FLOP/s"),
          r->peak_sp_flops > 0 ? " (double precision)" : "");
  if (r->peak_sp_flops > 0)
    fprintf(f, ", %s single precision", DCSIM_SI(r->peak_sp_flops, "FLOP/s"));
  fputc('\n', f);
  for (size_t c = 0; c < r->n_ceilings; c++)
    fprintf(f, "%-11s %s, ridge at %s flop/byte\n", r->ceilings[c].name,
            DCSIM_SI(r->ceilings[c].bw_bps, "B/s"),
            DCSIM_SIG(r->peak_flops / r->ceilings[c].bw_bps));
  for (size_t c = 0; c < r->n_optim; c++)
    fprintf(f, "ceiling     %s: %s (%s)\n", r->optim[c].name,
            DCSIM_SI(r->optim[c].value, r->optim[c].memory ? "B/s" : "FLOP/s"),
            r->optim[c].memory ? "memory" : "in-core");
  if (!r->dwarf[0]) return;
  fprintf(f, "\n%s: %zu placed%s", r->dwarf, r->n_points, r->n_unplaced ? "" : "\n");
  if (r->n_unplaced) fprintf(f, ", %zu without work (W = 0) not placed\n", r->n_unplaced);
  fprintf(f, "%-28s %14s %14s %12s %12s %12s  %s\n", "loop / kernel", "W [flop]", "Q [byte]",
          "T [s]", "W/Q", "W/T [GF/s]", "under");
  for (size_t i = 0; i < r->n_points; i++) {
    const dcsim_roofline_point *p = &r->points[i];
    fprintf(f, "%-28s %14s %14s %12s %12s %12s  %s\n", p->name, DCSIM_SIG(p->work_flop),
            DCSIM_SIG(p->traffic_byte), DCSIM_SIG(p->time_s), DCSIM_SIG(p->intensity),
            DCSIM_SIG(p->perf_flops * 1e-9), bound_of(r, p));
  }
}

void dcsim_roofline_write_text(FILE *f, const dcsim_roofline *r, const dcsim_repro *rp) {
  write_text_body(f, r);
  if (rp) dcsim_repro_text(f, rp);
}

void dcsim_roofline_write_json(FILE *f, const dcsim_roofline *r, const dcsim_repro *rp) {
  dcsim_json j;
  dcsim_json_init(&j, f, 1);
  dcsim_json_obj_begin(&j);
  dcsim_json_key(&j, "device");
  dcsim_json_str(&j, r->device);
  dcsim_json_key(&j, "state");
  if (r->state[0])
    dcsim_json_str(&j, r->state);
  else
    dcsim_json_null(&j);
  dcsim_json_key(&j, "dwarf");
  if (r->dwarf[0])
    dcsim_json_str(&j, r->dwarf);
  else
    dcsim_json_null(&j);
  dcsim_json_key(&j, "peak_flops");
  dcsim_json_num(&j, r->peak_flops);
  if (r->peak_sp_flops > 0) {
    dcsim_json_key(&j, "peak_sp_flops");
    dcsim_json_num(&j, r->peak_sp_flops);
  }
  dcsim_json_key(&j, "ceilings");
  dcsim_json_arr_begin(&j);
  for (size_t c = 0; c < r->n_ceilings; c++) {
    dcsim_json_obj_begin(&j);
    dcsim_json_key(&j, "name");
    dcsim_json_str(&j, r->ceilings[c].name);
    dcsim_json_key(&j, "bw_bps");
    dcsim_json_num(&j, r->ceilings[c].bw_bps);
    dcsim_json_key(&j, "ridge_flop_per_byte");
    dcsim_json_num(&j, r->peak_flops / r->ceilings[c].bw_bps);
    dcsim_json_obj_end(&j);
  }
  dcsim_json_arr_end(&j);
  if (r->n_optim) {
    dcsim_json_key(&j, "optimisation_ceilings");
    dcsim_json_arr_begin(&j);
    for (size_t c = 0; c < r->n_optim; c++) {
      dcsim_json_obj_begin(&j);
      dcsim_json_key(&j, "kind");
      dcsim_json_str(&j, r->optim[c].memory ? "memory" : "compute");
      dcsim_json_key(&j, "name");
      dcsim_json_str(&j, r->optim[c].name);
      dcsim_json_key(&j, r->optim[c].memory ? "bw_bps" : "flops");
      dcsim_json_num(&j, r->optim[c].value);
      dcsim_json_obj_end(&j);
    }
    dcsim_json_arr_end(&j);
  }
  dcsim_json_key(&j, "points");
  dcsim_json_arr_begin(&j);
  for (size_t i = 0; i < r->n_points; i++) {
    const dcsim_roofline_point *p = &r->points[i];
    dcsim_json_obj_begin(&j);
    dcsim_json_key(&j, "name");
    dcsim_json_str(&j, p->name);
    dcsim_json_key(&j, "work_flop");
    dcsim_json_num(&j, p->work_flop);
    dcsim_json_key(&j, "traffic_byte");
    dcsim_json_num(&j, p->traffic_byte);
    dcsim_json_key(&j, "time_s");
    dcsim_json_num(&j, p->time_s);
    dcsim_json_key(&j, "intensity_flop_per_byte");
    dcsim_json_num(&j, p->intensity);
    dcsim_json_key(&j, "perf_flops");
    dcsim_json_num(&j, p->perf_flops);
    dcsim_json_key(&j, "under");
    dcsim_json_str(&j, bound_of(r, p));
    dcsim_json_key(&j, "total");
    dcsim_json_bool(&j, p->is_total);
    dcsim_json_obj_end(&j);
  }
  dcsim_json_arr_end(&j);
  dcsim_json_key(&j, "unplaced");
  dcsim_json_int(&j, (long long)r->n_unplaced);
  if (rp) dcsim_repro_json(&j, rp);
  dcsim_json_obj_end(&j);
  dcsim_json_end(&j);
}

void dcsim_roofline_write_csv(FILE *f, const dcsim_roofline *r, const dcsim_repro *rp) {
  if (rp) dcsim_repro_csv(f, rp);
  fputs("kind,name,work_flop,traffic_byte,time_s,intensity_flop_per_byte,perf_flops,bw_bps\n", f);
  fprintf(f, "peak,%s,,,,,%.10g,\n", r->peak_sp_flops > 0 ? "double precision" : "flops",
          r->peak_flops);
  if (r->peak_sp_flops > 0) fprintf(f, "peak,single precision,,,,,%.10g,\n", r->peak_sp_flops);
  for (size_t c = 0; c < r->n_ceilings; c++) {
    fputs("ceiling,", f);
    dcsim__csv_write_cell(f, r->ceilings[c].name);
    fprintf(f, ",,,,%.10g,,%.10g\n", r->peak_flops / r->ceilings[c].bw_bps, r->ceilings[c].bw_bps);
  }
  for (size_t c = 0; c < r->n_optim; c++) { /* names through the one CSV quoting */
    fputs(r->optim[c].memory ? "memory ceiling," : "in-core ceiling,", f);
    dcsim__csv_write_cell(f, r->optim[c].name);
    if (r->optim[c].memory)
      fprintf(f, ",,,,,,%.10g\n", r->optim[c].value);
    else
      fprintf(f, ",,,,,%.10g,\n", r->optim[c].value);
  }
  for (size_t i = 0; i < r->n_points; i++) {
    const dcsim_roofline_point *p = &r->points[i];
    fprintf(f, "%s,", p->is_total ? "dwarf" : "loop");
    dcsim__csv_write_cell(f, p->name);
    fprintf(f, ",%.10g,%.10g,%.10g,%.10g,%.10g,\n", p->work_flop, p->traffic_byte, p->time_s,
            p->intensity, p->perf_flops);
  }
}
