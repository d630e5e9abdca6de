/* roofline.c — roofline ceilings and placed loops/kernels (see dcsim/roofline.h). */
#include "dcsim/roofline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/model_cpu.h"
#include "dcsim/model_gpu.h"

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
  char *f = dcsim_cpu_state_freq_text(st);
  if (!f) {
    dcsim_roofline_free(r);
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  }
  snprintf(r->state, sizeof r->state, "%s%s, %u core%s", f, st->label ? "" : " GHz", st->threads,
           st->threads == 1 ? "" : "s");
  free(f);
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
