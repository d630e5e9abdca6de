/* model_gpu.c — GPU instruction-counter model (see dcsim/model_gpu.h, D3.5 §3.4 Table 11). */
#include "dcsim/model_gpu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void dcsim_gpu_result_free(dcsim_gpu_result *r) {
  if (!r) return;
  free(r->parts);
  free(r);
}

/* The dwarf's sums over its kernels. */
static void add_part(dcsim_gpu_result *r, const dcsim_kernel_part *p) {
  r->overhead_s += p->ramp_s + p->launch_s + p->latency_s;
  r->launch_only_s += p->launch_s;
  r->compute_s += p->compute_s;
  r->transfer_s += p->transfer_s;
  r->inactive_s += p->inactive_s;
  r->time_s += p->time_s;
}

double dcsim_gpu_occupancy(double domain_size, unsigned sm, double saturation_threads_per_sm) {
  return fmin(1, domain_size / (sm * saturation_threads_per_sm)); /* one thread per point */
}

int dcsim_model_gpu(const dcsim_dwarf_eval *ev, const dcsim_gpu_profile_t *gpu,
                    dcsim_gpu_result **out, dcsim_error *err) {
  return dcsim_model_gpu_opts(ev, gpu, NULL, out, err);
}

int dcsim_model_gpu_opts(const dcsim_dwarf_eval *ev, const dcsim_gpu_profile_t *gpu,
                         const dcsim_gpu_opts *opts, dcsim_gpu_result **out, dcsim_error *err) {
  if (ev->n_kernels == 0)
    return DCSIM_ERR(err, DCSIM_EREF, dcsim_dwarf_path(ev->dwarf), 0,
                     "dwarf %s has no GPU model (<kernels>)", dcsim_dwarf_name(ev->dwarf));
  if (opts && opts->arch)
    return dcsim_model_gpu_arch(
        ev, gpu, opts->domain_size > 0 ? opts->domain_size : ev->domain_size, out, err);
  const dcsim_gpu_spec *g = dcsim_gpu_profile_spec(gpu);
  const int small = opts && opts->small_domain;
  if (small && !g->has_small_domain)
    return DCSIM_ERR(err, DCSIM_EREF, dcsim_gpu_profile_path(gpu), 0,
                     "GPU profile %s has no <small-domain> correction (it is fitted on the GeForce "
                     "GTX 970 only)",
                     dcsim_gpu_profile_name(gpu));
  dcsim_gpu_result *r = calloc(1, sizeof *r);
  if (r) r->parts = calloc(ev->n_kernels ? ev->n_kernels : 1, sizeof *r->parts);
  if (!r || !r->parts) {
    dcsim_gpu_result_free(r);
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  }
  r->n_kernels = ev->n_kernels;
  const double N = opts && opts->domain_size > 0 ? opts->domain_size : ev->domain_size,
               inv = ev->invocations;
  const double issue_rate = g->clock_hz * g->sm; /* C_G * SM */
  /* small-domain correction: one thread per point fills min(1, N/(SM*sat)) of the GPU */
  const double occupancy = small ? dcsim_gpu_occupancy(N, g->sm, g->saturation_threads_per_sm) : 1;
  if (!(occupancy > 0)) {
    dcsim_gpu_result_free(r);
    return DCSIM_ERR(err, DCSIM_ERANGE, dcsim_dwarf_path(ev->dwarf), 0,
                     "domain size %g: the GPU would do nothing", N);
  }
  for (size_t k = 0; k < ev->n_kernels; k++) {
    const dcsim_gpu_kernel *c = &ev->kernels[k];
    dcsim_kernel_part *p = &r->parts[k];
    p->name = c->name;
    double ge = c->G_e;
    if (g->has_ge_adjust) /* §3.4: G_e(fermi) = 1/4 G_e if G_e < 40%, else 2/3 G_e */
      ge = c->G_e < g->ge_threshold ? g->ge_below * c->G_e : g->ge_at_or_above * c->G_e;
    p->G_e_used = ge;
    double issued = c->I_e * N / (c->IPC_e * issue_rate);
    p->inactive_only_s = inv * c->P_inactive * issued;               /* Table 11: T_i */
    p->misc_s = inv * c->P_misc * issued;                            /* Table 11: T_m */
    p->cfl_s = inv * c->P_cfl * issued;                              /* Table 11: T_cfl */
    p->sp_s = inv * N * c->i_sp * 2 / g->peak_sp_flops;              /* Table 11: T_cf */
    p->dp_s = inv * N * c->i_dp * 2 / g->peak_dp_flops;              /* Table 11: T_cd */
    p->int_s = inv * N * c->i_int / g->peak_int_ops;                 /* Table 11: T_ci */
    p->transfer_s = inv * c->G_r_byte * N / (g->memory_bw_bps * ge); /* Table 11: T_t */
    p->compute_s = p->sp_s + p->dp_s + p->int_s;
    p->inactive_s = p->inactive_only_s + p->misc_s + p->cfl_s;
    p->time_s = p->compute_s + p->transfer_s + p->inactive_s; /* Table 11: T_sim */
    p->occupancy = occupancy;
    p->ramp_s = p->time_s * (1 / occupancy - 1); /* small domain: T_k/occupancy */
    p->launch_s = small ? inv * g->launch_s : 0; /* small domain: launches */
    p->time_s += p->ramp_s + p->launch_s;
    add_part(r, p);
  }
  *out = r;
  return 0;
}

/* ---- the architecture model (dcsim/model_gpu.h) ---- */

double dcsim_gpu_saturation_threads(const dcsim_dwarf_eval *ev, const dcsim_gpu_spec *g) {
  if (!ev->launch.present) return 0;
  double latency_s = g->arch.memory_latency_cycles / g->dev_clock_hz;
  /* Little's law: bytes in flight per SM = latency x bandwidth per SM */
  return latency_s * (g->dev_memory_bw_bps / g->dev_sm) / ev->launch.inflight_byte_per_thread;
}

/* time-form="roofline" (dcsim/model_gpu.h): the bulk is the largest of the issue time at the
 * kernel's measured IPC, the FP64 and FP32 pipes and DRAM; it is booked as compute or transfer,
 * whichever bounds it. */
static void roofline_bulk(const dcsim_gpu_kernel *c, const dcsim_gpu_spec *g, double N,
                          dcsim_kernel_part *p) {
  const double f = g->dev_clock_hz, sm = g->dev_sm;
  const double issue = N * c->I_e / (c->IPC_e * f * sm); /* warp instructions at IPC_e */
  p->dp_s = N * c->i_dp / (sm * g->arch.fp64 * f);       /* one lane slot each */
  p->sp_s = N * c->i_sp / (sm * g->arch.fp32 * f);
  const double mem = N * c->dram_byte / g->dev_memory_bw_bps; /* DRAM traffic */
  const double comp = fmax(issue, fmax(p->dp_s, p->sp_s));
  p->G_e_used = c->G_e;
  p->compute_s = comp >= mem ? comp : 0;
  p->transfer_s = comp >= mem ? 0 : mem;
  p->time_s = fmax(comp, mem);
}

/* One kernel's bulk terms at N points for one invocation: the D3.5 decomposition with the
 * architecture's per-clock throughput instead of Table 10's. */
static void arch_bulk(const dcsim_gpu_kernel *c, const dcsim_gpu_spec *g, double N,
                      dcsim_kernel_part *p) {
  if (c->roofline) {
    roofline_bulk(c, g, N, p);
    return;
  }
  const double f = g->dev_clock_hz, sm = g->dev_sm;
  double ge = c->G_e;
  if (g->has_ge_adjust) /* §3.4: G_e(fermi) = 1/4 G_e if G_e < 40%, else 2/3 G_e */
    ge = c->G_e < g->ge_threshold ? g->ge_below * c->G_e : g->ge_at_or_above * c->G_e;
  p->G_e_used = ge;
  const double issued = c->I_e * N / (c->IPC_e * f * sm); /* cycles of issue over the SMs */
  p->inactive_only_s = c->P_inactive * issued;
  p->misc_s = c->P_misc * issued;
  p->cfl_s = c->P_cfl * issued;
  p->dp_s = N * c->i_dp / (sm * g->arch.fp64 * f); /* one FP64 instruction per lane slot */
  p->sp_s = N * c->i_sp / (sm * g->arch.fp32 * f);
  p->int_s = N * c->i_int / (sm * g->arch.int_add * f);
  p->transfer_s = c->G_r_byte * N / (g->dev_memory_bw_bps * ge);
  p->compute_s = p->sp_s + p->dp_s + p->int_s;
  p->inactive_s = p->inactive_only_s + p->misc_s + p->cfl_s;
  p->time_s = p->compute_s + p->transfer_s + p->inactive_s;
}

/* Time of the waves of one invocation whose bulk time is bulk_s (doc/models.md). */
static double arch_waves(double bulk_s, double N, const dcsim_gpu_spec *g, unsigned b, double sat) {
  const double sm = g->dev_sm, per_point = bulk_s / N;
  unsigned r = g->arch.max_threads_sm / b;
  if (r > g->arch.max_blocks_sm) r = g->arch.max_blocks_sm;
  const double wave_points = sm * r * (double)b;
  const double full = floor(N / wave_points), rest = N - full * wave_points;
  /* a wave with p points on its busiest SM: p*SM*per_point at rate min(1, p/sat) */
  double p_full = (double)r * b, t = 0;
  t += full * p_full * sm * per_point / (sat > 0 ? fmin(1, p_full / sat) : 1);
  if (rest > 0) {
    double blocks = ceil(rest / b), p = ceil(blocks / sm) * b;
    if (p > rest) p = rest;
    t += p * sm * per_point / (sat > 0 ? fmin(1, p / sat) : 1);
  }
  return t;
}

/* Per invocation of kernel c: the launch cost and the latency floor (dcsim/model_gpu.h "Launch
 * and latency"). */
static int arch_launch(const dcsim_dwarf_eval *ev, const dcsim_gpu_profile_t *gpu,
                       const dcsim_gpu_kernel *c, double *launch_s, double *latency_s,
                       dcsim_error *err) {
  const dcsim_gpu_spec *g = dcsim_gpu_profile_spec(gpu);
  *latency_s = 0;
  if (!g->has_launch) {
    if (!ev->launch.has_launch_s)
      return DCSIM_ERR(err, DCSIM_EREF, dcsim_gpu_profile_path(gpu), 0,
                       "GPU profile %s has no <launch> (its launch cost) and dwarf %s no fitted "
                       "<launch launch-s>: nothing gives the cost of a launch",
                       dcsim_gpu_profile_name(gpu), dcsim_dwarf_name(ev->dwarf));
    *launch_s = ev->launch.launch_s; /* the application's term, fitted on another GPU */
    return 0;
  }
  *launch_s = g->launch_sync_s; /* the GPU's own synchronous launch */
  if (c->chain_inst > 0) {
    if (!(g->arch.dep_issue_cycles > 0))
      return DCSIM_ERR(err, DCSIM_EREF, dcsim_gpu_profile_path(gpu), 0,
                       "architecture %s has no <issue-latency>: the latency floor of kernel %s "
                       "needs its dependent-issue cycles",
                       g->arch.name, c->name);
    /* Brent (1974): T <= W/P + S, the span S = the longest thread's dependent chain */
    *latency_s = c->chain_inst * g->arch.dep_issue_cycles / g->dev_clock_hz;
  }
  return 0;
}

int dcsim_gpu_activity_of(const dcsim_dwarf_eval *ev, const dcsim_gpu_spec *g,
                          const dcsim_gpu_result *r, double N, dcsim_gpu_activity *a,
                          dcsim_error *err) {
  memset(a, 0, sizeof *a);
  const double T = r->time_s, f = g->dev_clock_hz, sm = g->dev_sm, inv = ev->invocations;
  if (!(T > 0)) return DCSIM_ERR(err, DCSIM_ERANGE, dcsim_dwarf_path(ev->dwarf), 0, "no time");
  for (size_t k = 0; k < ev->n_kernels; k++) {
    const dcsim_gpu_kernel *c = &ev->kernels[k];
    if (!c->has_activity)
      return DCSIM_ERR(err, DCSIM_EREF, dcsim_dwarf_path(ev->dwarf), 0,
                       "kernel %s has no activity counts (other-inst, dram-byte, l2-byte)",
                       c->name);
    const double n = inv * N / T; /* points per second */
    a->u_fp64 += n * c->i_dp / (sm * g->arch.fp64 * f);
    a->u_fp32 += n * c->i_sp / (sm * g->arch.fp32 * f);
    a->u_int += n * c->other_inst / (sm * g->arch.int_add * f);
    a->u_dram += n * c->dram_byte / g->dev_memory_bw_bps;
    a->u_l2 += n * c->l2_byte / g->dev_memory_bw_bps;
    /* warp instructions over the issue slots, whatever their active lanes: D3.5's "inactive"
     * threads still occupy the scheduler, operand collectors and pipes (gpu-bench's diverge
     * phase, doc/models.md "GPU power by activity") */
    if (g->arch.issue_width > 0) a->u_issue += n * c->I_e / (sm * g->arch.issue_width * f);
    /* bytes moved beyond those requested: G_e = requested / transferred (D3.5 Table 8), so
     * transferred - requested = dram-byte x (1 - G_e); each such access opens a DRAM row for
     * little data (gpu-bench's gather phase) */
    if (c->G_e > 0 && c->G_e < 1)
      a->u_scatter += n * c->dram_byte * (1 - c->G_e) / g->dev_memory_bw_bps;
  }
  a->busy = fmax(0, 1 - r->launch_only_s / T);
  return 0;
}

int dcsim_model_gpu_arch(const dcsim_dwarf_eval *ev, const dcsim_gpu_profile_t *gpu, double N,
                         dcsim_gpu_result **out, dcsim_error *err) {
  if (ev->n_kernels == 0)
    return DCSIM_ERR(err, DCSIM_EREF, dcsim_dwarf_path(ev->dwarf), 0,
                     "dwarf %s has no GPU model (<kernels>)", dcsim_dwarf_name(ev->dwarf));
  const dcsim_gpu_spec *g = dcsim_gpu_profile_spec(gpu);
  const unsigned b = ev->launch.present ? ev->launch.threads_per_block : 0;
  if (!(N > 0))
    return DCSIM_ERR(err, DCSIM_ERANGE, dcsim_dwarf_path(ev->dwarf), 0,
                     "domain size %g: the GPU would do nothing", N);
  if (b && (b > g->arch.max_threads_sm || b % g->arch.warp_size))
    return DCSIM_ERR(err, DCSIM_ERANGE, dcsim_dwarf_path(ev->dwarf), 0,
                     "<launch threads-per-block> %u: not a multiple of %s's warp size %u or more "
                     "than its %u threads per SM",
                     b, g->arch.name, g->arch.warp_size, g->arch.max_threads_sm);
  dcsim_gpu_result *r = calloc(1, sizeof *r);
  if (r) r->parts = calloc(ev->n_kernels, sizeof *r->parts);
  if (!r || !r->parts) {
    dcsim_gpu_result_free(r);
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  }
  r->n_kernels = ev->n_kernels;
  const double inv = ev->invocations, sat = dcsim_gpu_saturation_threads(ev, g);
  for (size_t k = 0; k < ev->n_kernels; k++) {
    dcsim_kernel_part *p = &r->parts[k];
    p->name = ev->kernels[k].name;
    arch_bulk(&ev->kernels[k], g, N, p);
    /* a roofline kernel bound by its instructions has no memory-latency ramp: its latency is the
     * floor of its longest thread */
    const double ksat = g->has_launch || (ev->kernels[k].roofline && p->transfer_s == 0) ? 0 : sat;
    double bulk = p->time_s, waves = b ? arch_waves(bulk, N, g, b, ksat) : bulk;
    double *terms[] = { &p->inactive_only_s, &p->misc_s,    &p->cfl_s,      &p->sp_s,      &p->dp_s,
                        &p->int_s,           &p->compute_s, &p->transfer_s, &p->inactive_s };
    for (size_t i = 0; i < sizeof terms / sizeof terms[0]; i++) *terms[i] *= inv;
    p->occupancy = bulk / waves; /* achieved fraction of the bulk rate */
    p->ramp_s = inv * (waves - bulk);
    double launch = 0, latency = 0;
    int rc = b ? arch_launch(ev, gpu, &ev->kernels[k], &launch, &latency, err) : 0;
    if (rc) {
      dcsim_gpu_result_free(r);
      return rc;
    }
    p->launch_s = inv * launch;
    p->latency_s = inv * latency;
    p->time_s = inv * bulk + p->ramp_s + p->launch_s + p->latency_s;
    add_part(r, p);
  }
  *out = r;
  return 0;
}
