/* roofline.c — roofline ceilings and placed loops/kernels (see dcsim/roofline.h). */
#include "dcsim/roofline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/json.h"
#include "dcsim/model_cpu.h"
#include "dcsim/model_gpu.h"
#include "dcsim/numfmt.h"
#include "util/csv.h"

void dcsim_roofline_free(dcsim_roofline *r) {
  if (!r) return;
  free(r->points);
  free(r);
}

static dcsim_roofline *roofline_new(size_t n_points) {
  dcsim_roofline *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->points = calloc(n_points + 1, sizeof *r->points);
  if (!r->points) {
    free(r);
    return NULL;
  }
  return r;
}

static void add_ceiling(dcsim_roofline *r, const char *name, double bw_bps) {
  dcsim_roofline_ceiling *c = &r->ceilings[r->n_ceilings++];
  snprintf(c->name, sizeof c->name, "%s", name);
  c->bw_bps = bw_bps;
}

/* places one loop/kernel (or the total) when it has work and a time */
static void add_point(dcsim_roofline *r, const char *name, double w, double q, double t,
                      int total) {
  if (!(w > 0) || !(q > 0) || !(t > 0)) {
    if (!total) r->n_unplaced++;
    return;
  }
  dcsim_roofline_point *p = &r->points[r->n_points++];
  snprintf(p->name, sizeof p->name, "%s", name);
  p->work_flop = w;
  p->traffic_byte = q;
  p->time_s = t;
  p->intensity = w / q;  /* operational intensity, flop/byte */
  p->perf_flops = w / t; /* achieved performance */
  p->is_total = total;
}

int dcsim_roofline_cpu(const dcsim_cpu_profile_t *cpu, const dcsim_cpu_state *st,
                       const dcsim_dwarf_eval *ev, const char *dwarf_label, dcsim_roofline **out,
                       dcsim_error *err) {
  *out = NULL;
  dcsim_cpu_rates rt;
  int rc = dcsim_cpu_rates_at(cpu, st, 0, &rt, err); /* tables, the model beneath them */
  if (rc) return rc;
  dcsim_roofline *r = roofline_new(ev ? ev->n_loops : 0);
  if (!r) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  snprintf(r->device, sizeof r->device, "%s", dcsim_cpu_profile_name(cpu));
  char f[32];
  dcsim_cpu_state_freq_str(st, f, sizeof f);
  snprintf(r->state, sizeof r->state, "%s%s, %u core%s", f, st->label ? "" : " GHz", st->threads,
           st->threads == 1 ? "" : "s");
  snprintf(r->dwarf, sizeof r->dwarf, "%s", dwarf_label ? dwarf_label : "");
  r->peak_flops = rt.flops;
  if (rt.has_l1) add_ceiling(r, "L1", rt.l1_bps); /* a roofline machine has DRAM only */
  if (rt.has_l2) add_ceiling(r, "L2", rt.l2_bps);
  if (rt.has_l3) add_ceiling(r, "L3", rt.l3_bps);
  add_ceiling(r, "DRAM", rt.dram_bps);
  size_t no = 0;
  const dcsim_profile_ceiling *oc = dcsim_cpu_profile_ceilings(cpu, &no);
  for (size_t i = 0; i < no; i++) r->optim[r->n_optim++] = oc[i];
  if (ev) {
    dcsim_cpu_node_spec ns = { cpu, *st, 1.0, 0 };
    dcsim_cpu_result *res = NULL;
    if ((rc = dcsim_model_cpu(ev, &ns, 1, 0, &res, err))) {
      dcsim_roofline_free(r);
      return rc;
    }
    double W = 0, Q = 0;
    for (size_t l = 0; l < res->n_loops; l++) {
      const dcsim_loop_part *p = &res->parts[l];
      add_point(r, p->name, p->work_flop, p->traffic_byte, p->time_s, 0);
      W += p->work_flop;
      Q += p->traffic_byte;
    }
    add_point(r, "dwarf (all loops)", W, Q, res->time_s, 1);
    dcsim_cpu_result_free(res);
  }
  *out = r;
  return 0;
}

int dcsim_roofline_gpu(const dcsim_gpu_profile_t *gpu, const dcsim_dwarf_eval *ev,
                       const char *dwarf_label, dcsim_roofline **out, dcsim_error *err) {
  *out = NULL;
  const dcsim_gpu_spec *g = dcsim_gpu_profile_spec(gpu);
  dcsim_roofline *r = roofline_new(ev ? ev->n_kernels : 0);
  if (!r) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  snprintf(r->device, sizeof r->device, "%s", dcsim_gpu_profile_name(gpu));
  snprintf(r->dwarf, sizeof r->dwarf, "%s", dwarf_label ? dwarf_label : "");
  r->peak_flops = g->peak_dp_flops;
  r->peak_sp_flops = g->peak_sp_flops;
  add_ceiling(r, "memory", g->memory_bw_bps);
  if (ev) {
    dcsim_gpu_result *res = NULL;
    int rc = dcsim_model_gpu(ev, gpu, &res, err);
    if (rc) {
      dcsim_roofline_free(r);
      return rc;
    }
    double W = 0, Q = 0, N = ev->domain_size, inv = ev->invocations;
    for (size_t k = 0; k < res->n_kernels; k++) {
      const dcsim_gpu_kernel *c = &ev->kernels[k];
      /* W = flop_count_dp = FP64 instructions x (1 + FMA share) (doc/models.md "Work counts") */
      double w = ev->dp_flop_per_inst * c->i_dp * N * inv;
      double q = c->G_r_byte * N * inv; /* requested global load+store bytes (Table 1's Q) */
      add_point(r, c->name, w, q, res->parts[k].time_s, 0);
      W += w;
      Q += q;
    }
    add_point(r, "dwarf (all kernels)", W, Q, res->time_s, 1);
    dcsim_gpu_result_free(res);
  }
  *out = r;
  return 0;
}

double dcsim_roofline_attainable(const dcsim_roofline *r, size_t c, double intensity) {
  if (c >= r->n_ceilings) c = r->n_ceilings - 1;
  double m = intensity * r->ceilings[c].bw_bps;
  return m < r->peak_flops ? m : r->peak_flops;
}

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
  for (size_t c = 0; c < r->n_ceilings; c++)
    fprintf(f, "ceiling,%s,,,,%.10g,,%.10g\n", r->ceilings[c].name,
            r->peak_flops / r->ceilings[c].bw_bps, r->ceilings[c].bw_bps);
  for (size_t c = 0; c < r->n_optim; c++) {
    if (r->optim[c].memory)
      fprintf(f, "memory ceiling,\"%s\",,,,,,%.10g\n", r->optim[c].name, r->optim[c].value);
    else
      fprintf(f, "in-core ceiling,\"%s\",,,,,%.10g,\n", r->optim[c].name, r->optim[c].value);
  }
  for (size_t i = 0; i < r->n_points; i++) {
    const dcsim_roofline_point *p = &r->points[i];
    fprintf(f, "%s,", p->is_total ? "dwarf" : "loop");
    dcsim__csv_write_cell(f, p->name);
    fprintf(f, ",%.10g,%.10g,%.10g,%.10g,%.10g,\n", p->work_flop, p->traffic_byte, p->time_s,
            p->intensity, p->perf_flops);
  }
}
