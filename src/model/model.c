/* model.c — time and energy of one dwarf run (see dcsim/model.h). */
#include "dcsim/model.h"

#include "dcsim/model_comm.h"
#include "dcsim/model_irregular.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void dcsim_prediction_release(dcsim_prediction *p) {
  if (!p) return;
  dcsim_cpu_result_free(p->cpu);
  dcsim_gpu_result_free(p->gpu);
  dcsim_multigpu_result_free(p->multigpu);
  p->cpu = NULL;
  p->gpu = NULL;
  p->multigpu = NULL;
}

/* D3.5 §5.2 or §5.3 on the profile's <energy> table, over time_s of one node (comp_s of it
 * computing, the rest waiting for messages). */
static int cpu_energy_d35(const dcsim_model_req *req, double time_s, double comp_s,
                          dcsim_prediction *out, dcsim_error *err) {
  dcsim_energy_coeffs ec;
  dcsim_cpu_power pw;
  int rc;
  if ((rc = dcsim_cpu_profile_power(req->cpu, &req->state, &pw, err))) return rc;
  dcsim_cpu_energy e;
  if (req->energy_form == DCSIM_ENERGY_52) {
    e = dcsim_energy_cpu_52(&pw, out->cpu->parts, out->cpu->n_loops);
    double comm = time_s - comp_s; /* the communication time not hidden */
    e.pkg_j +=
        pw.pkg_idle_w * comm; /* waiting for messages: idle package (assumption, doc/models.md) */
    e.energy_j = e.pkg_j + e.dram_j;
  } else {
    if ((rc = dcsim_dwarf_energy_coeffs(req->ev->dwarf, &ec, err))) return rc;
    e = dcsim_energy_cpu_53(&ec, &pw, time_s);
  }
  out->has_energy = 1;
  out->energy_prov = dcsim_prov_weakest(pw.prov, out->time_prov);
  out->energy_scope = "CPU packages and DRAM of the nodes used (RAPL domains, D3.5 §5)";
  out->node_energy_j = e.energy_j;
  out->pkg_j = e.pkg_j * req->nodes; /* §5.6: sum over nodes */
  out->dram_j = e.dram_j * req->nodes;
  out->energy_j = e.energy_j * req->nodes;
  return 0;
}

/* The dwarf's <power-activity>, or full load (flagged in *prov) when it declares none. Under
 * --threading ideal (DCSIM_MODEL_HW_THREADS) every active core is busy: the extra cores take the
 * activity of the dwarf's first, busy core (the power model's busy-core power at this code's
 * activity), not the measured code's waiting threads (doc/models.md "Variants"). */
static dcsim_power_activity cpu_activity(const dcsim_model_req *req, dcsim_prov *prov) {
  dcsim_power_activity a = { 1, 1, NULL };
  if (!dcsim_dwarf_power_activity(req->ev->dwarf, &a))
    *prov = dcsim_prov_weakest(
        *prov, dcsim_prov_make(DCSIM_PROV_EXTRAPOLATED,
                               "the dwarf has no <power-activity>: cores at full-load power"));
  if (req->flags & DCSIM_MODEL_HW_THREADS) a.extra_core = a.first_core;
  return a;
}

/* The default: node wall power (dcsim/cpu_power.h) over time_s of each node. */
static int cpu_energy_wall(const dcsim_model_req *req, double time_s, dcsim_prediction *out,
                           dcsim_error *err) {
  double dram_byte = 0;
  for (size_t l = 0; l < out->cpu->n_loops; l++) dram_byte += out->cpu->parts[l].dram_byte;
  dcsim_prov prov = out->time_prov;
  dcsim_node_load ld = { req->state.ghz,
                         req->state.threads,
                         cpu_activity(req, &prov),
                         time_s > 0 ? dram_byte / time_s : 0,
                         0,
                         req->state.label && strcmp(req->state.label, "turbo") == 0 };
  dcsim_node_load idle = { req->state.ghz, 0, ld.act, 0, 0, 0 };
  dcsim_node_power np, ni;
  int rc;
  if ((rc = dcsim_cpu_node_power(req->cpu, req->sockets, req->node_base, &ld, &np, err)) ||
      (rc = dcsim_cpu_node_power(req->cpu, req->sockets, req->node_base, &idle, &ni, err)))
    return rc;
  out->has_energy = 1;
  out->energy_prov = dcsim_prov_weakest(np.prov, prov);
  out->energy_scope =
      "node wall power of the nodes used: CPU packages, DRAM and the node base "
      "power (board, fans, NIC, power-supply and regulator losses)";
  out->node_power_w = np.wall_w;
  out->node_idle_w = ni.wall_w;
  out->node_energy_j = np.wall_w * time_s;
  out->pkg_j = np.pkg_w * time_s * req->nodes; /* §5.6: sum over nodes */
  out->dram_j = np.dram_w * time_s * req->nodes;
  out->base_j = (np.wall_w - np.dc_w) * time_s * req->nodes;
  out->energy_j = out->node_energy_j * req->nodes;
  return 0;
}

/* The energy of the form asked for (dcsim/model.h) over time_s of each node. */
static int cpu_energy(const dcsim_model_req *req, double time_s, double comp_s,
                      dcsim_prediction *out, dcsim_error *err) {
  if (req->energy_form == DCSIM_ENERGY_MODE && !(req->flags & DCSIM_MODEL_D35))
    return cpu_energy_wall(req, time_s, out, err);
  return cpu_energy_d35(req, time_s, comp_s, out, err);
}

/* Sum of a node's loop times: its computation. */
static double compute_s(const dcsim_cpu_result *r) {
  double t = 0;
  for (size_t l = 0; l < r->n_loops; l++) t += r->parts[l].time_s;
  return t;
}

/* The dwarf's measured thread scaling on top of the per-loop model (dcsim/model_threads.h), in the
 * default mode on more than one core. */
static int apply_threads(const dcsim_model_req *req, const dcsim_cpu_node_spec *ns,
                         dcsim_prediction *out, dcsim_error *err) {
  dcsim_thread_info *ti = &out->threads;
  ti->hw_time_s = compute_s(out->cpu);
  unsigned n = ns->state.threads;
  if (n <= 1 || (req->flags & (DCSIM_MODEL_D35 | DCSIM_MODEL_HW_THREADS))) return 0;
  ti->law =
      dcsim_dwarf_thread_scaling(req->ev->dwarf, dcsim_cpu_profile_name(req->cpu), &ti->exact);
  if (!ti->law) return 0; /* no measurements: ideal scaling, said by the output */
  dcsim_cpu_node_spec one = *ns;
  one.state.threads = 1;
  dcsim_cpu_result *r1 = NULL;
  int rc = dcsim_model_cpu(req->ev, &one, 1, req->net_s_per_byte, &r1, err);
  if (rc) return rc;
  ti->one_time_s = compute_s(r1);
  ti->prov = dcsim_threads_prov(ti->law, ti->exact, n);
  ti->law_time_s = dcsim_threads_apply(ti->law, n, r1, req->ev->comm_overlap, out->cpu);
  out->cpu->prov = dcsim_prov_weakest(dcsim_prov_weakest(out->cpu->prov, r1->prov), ti->prov);
  dcsim_cpu_result_free(r1);
  return 0;
}

/* Whether the request runs the turbo state on more than one core of a CPU whose turbo clock at
 * that many active cores is not measured: no <turbo> bins in its parametric model and no turbo
 * column in its flops table, so the clock used is the vendor's maximum boost, an upper bound
 * (doc/models.md "Turbo"). */
static int turbo_unmeasured(const dcsim_model_req *req) {
  if (!req->state.label || strcmp(req->state.label, "turbo") != 0 || req->state.threads <= 1 ||
      (req->flags & DCSIM_MODEL_D35))
    return 0;
  const dcsim_cpu_perf_model *pm = dcsim_cpu_profile_perf_model(req->cpu);
  dcsim_cpu_table_info ti;
  dcsim_cpu_profile_table_info(req->cpu, DCSIM_CPU_FLOPS, &ti);
  return !(pm && pm->n_turbo) && !(ti.present && ti.has_turbo);
}

static int run_cpu(const dcsim_model_req *req, dcsim_prediction *out, dcsim_error *err);

/* Under an unmeasured turbo clock the sustained all-core clock lies somewhere between the nominal
 * clock and the maximum boost: the time's band reaches the time at the nominal clock (its own
 * thread-law range included), through time_cover_s like a thread law's (dcsim_bands_cover). */
static int cover_nominal(const dcsim_model_req *req, dcsim_prediction *out, dcsim_error *err) {
  dcsim_model_req nom = *req;
  nom.state.label = NULL;
  nom.state.ghz = dcsim_cpu_profile_nominal_ghz(req->cpu);
  nom.energy_form = DCSIM_ENERGY_NONE; /* its time alone */
  dcsim_prediction pn;
  memset(&pn, 0, sizeof pn);
  int rc = run_cpu(&nom, &pn, err);
  if (!rc) {
    double hi = fmax(pn.time_s, pn.time_cover_s[1]);
    if (!(out->time_cover_s[1] > 0)) out->time_cover_s[0] = out->time_cover_s[1] = out->time_s;
    out->time_cover_s[0] = fmin(out->time_cover_s[0], pn.time_s);
    out->time_cover_s[1] = fmax(out->time_cover_s[1], hi);
    out->turbo_unmeasured = 1;
    out->nominal_time_s = pn.time_s;
  }
  dcsim_prediction_release(&pn);
  return rc;
}

static int run_cpu(const dcsim_model_req *req, dcsim_prediction *out, dcsim_error *err) {
  if (!req->cpu)
    return DCSIM_PERR(err, DCSIM_EUSAGE, "cpu", -1, "missing: a CPU dwarf needs a CPU profile");
  if (req->nodes == 0) return DCSIM_PERR(err, DCSIM_ERANGE, "nodes", -1, "node count must be >= 1");
  if (req->state.threads == 0)
    return DCSIM_PERR(err, DCSIM_ERANGE, "cores", -1, "core count must be >= 1");
  unsigned cores_node =
      dcsim_cpu_profile_cores_per_socket(req->cpu) * dcsim_cpu_profile_sockets(req->cpu);
  if (req->state.threads > cores_node)
    return DCSIM_ERR(err, DCSIM_ERANGE, dcsim_cpu_profile_path(req->cpu), 0,
                     "%u cores asked, a %s node has %u", req->state.threads,
                     dcsim_cpu_profile_name(req->cpu), cores_node);
  dcsim_cpu_node_spec ns = { req->cpu, req->state, 1.0 / req->nodes,
                             (req->flags & DCSIM_MODEL_D35) != 0 };
  /* homogeneous nodes give identical per-node results: model one node (§4.3: W/n, Q/n) */
  int rc = dcsim_model_cpu(req->ev, &ns, 1, req->net_s_per_byte, &out->cpu, err);
  if (rc || (rc = apply_threads(req, &ns, out, err))) return rc;
  const double comp = out->cpu->node_time_s[0];
  if (req->overlap_set && !(req->overlap >= 0 && req->overlap <= 1))
    return DCSIM_PERR(err, DCSIM_ERANGE, "overlap", -1, "communication overlap %g must be in 0..1",
                      req->overlap);
  if (req->ev->has_comm && req->nodes > 1) { /* §4.3 T_comm only exists with more than one node */
    dcsim_network net = { req->net_latency_s, req->net_s_per_byte };
    double comm = 0, f = req->overlap_set ? req->overlap : req->ev->comm_overlap;
    if ((rc = dcsim_comm_time(req->ev, req->nodes, &net, &comm, err))) return rc;
    out->cpu->node_comm_s[0] = comm;
    out->cpu->node_time_s[0] =
        dcsim_comm_compose(comp, comm, f); /* model_comm.h: T_comp + T_comm - hidden */
    out->cpu->time_s = out->cpu->node_time_s[0];
  }
  out->time_s = out->cpu->time_s;
  out->time_prov = out->cpu->prov;
  if (out->threads.law && out->threads.law_time_s > comp) { /* beyond the law's measured cores */
    out->time_cover_s[0] = out->time_s;
    out->time_cover_s[1] = out->time_s + out->threads.law_time_s - comp;
  }
  if (turbo_unmeasured(req) && (rc = cover_nominal(req, out, err))) return rc;
  if (req->energy_form == DCSIM_ENERGY_NONE) return 0;
  return cpu_energy(req, out->cpu->node_time_s[0], comp, out, err);
}

/* The default for a GPU run: wall power of the GPU's node, its host idle (as D3.5 §5.5 keeps the
 * host package idle) and its GPU boards drawing boards_w (S of the power limit, §5.5). */
static int gpu_energy_wall(const dcsim_model_req *req, double boards_w, dcsim_prov board_prov,
                           dcsim_prediction *out, dcsim_error *err) {
  const dcsim_gpu_spec *g = dcsim_gpu_profile_spec(req->gpu);
  const double n_gpus = req->gpus >= 1 ? req->gpus : 1;
  dcsim_power_activity full = { 1, 1, NULL };
  dcsim_node_load ld = { dcsim_cpu_profile_nominal_ghz(req->host_cpu), 0, full, 0, boards_w, 0 };
  dcsim_node_load idle = ld;
  idle.other_dc_w = n_gpus * g->idle_w;
  dcsim_node_power np, ni;
  int rc;
  if ((rc = dcsim_cpu_node_power(req->host_cpu, req->sockets, req->node_base, &ld, &np, err)) ||
      (rc = dcsim_cpu_node_power(req->host_cpu, req->sockets, req->node_base, &idle, &ni, err)))
    return rc;
  const double t = out->time_s;
  out->has_energy = 1;
  out->energy_prov = dcsim_prov_weakest(board_prov, np.prov);
  out->energy_scope =
      "node wall power of the GPU node: GPU boards (S of the power limit), the "
      "host's CPU packages and DRAM idle, and the node base power (board, fans, "
      "NIC, power-supply and regulator losses)";
  out->host_idle_w = np.pkg_w;
  out->node_power_w = np.wall_w;
  out->node_idle_w = ni.wall_w;
  out->energy_j = out->node_energy_j = np.wall_w * t;
  out->gpu_j = boards_w * t;
  out->pkg_j = np.pkg_w * t;
  out->dram_j = np.dram_w * t;
  out->base_j = (np.wall_w - np.dc_w) * t;
  return 0;
}

/* Whether name is one of the space-separated names of list. */
static int in_list(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0)) return 1;
  return 0;
}

/* Provenance of a GPU time (doc/models.md "Provenance"): D3.5's model and the architecture model
 * on a GPU whose counters were measured (and, with launch terms, fitted on it) are table; the
 * architecture model elsewhere is extrapolated when it uses fitted launch terms, else spec. On a
 * GPU with its own <launch>: table where the dwarf's counters were measured on it, else
 * extrapolated (counts measured elsewhere), or spec without the dwarf's <launch>; with a launch
 * figure borrowed from another GPU (<launch borrowed-from>) spec, its source the reason.
 */
static dcsim_prov gpu_time_prov(const dcsim_model_req *req, int arch) {
  const dcsim_dwarf_eval *ev = req->ev;
  const char *name = dcsim_gpu_profile_name(req->gpu);
  if (!arch) /* D3.5's model: Table 10's values, or datasheet-derived ones without them */
    return dcsim_gpu_profile_spec(req->gpu)->has_characteristics
               ? dcsim_prov_make(DCSIM_PROV_TABLE, dcsim_gpu_profile_source(req->gpu))
               : dcsim_prov_make(DCSIM_PROV_SPEC, dcsim_gpu_profile_device_source(req->gpu));
  int measured = in_list(ev->measured_on, name);
  if (dcsim_gpu_profile_spec(req->gpu)->launch_borrowed) /* another GPU's figure: the widest band */
    return dcsim_prov_make(DCSIM_PROV_SPEC, dcsim_gpu_profile_launch_source(req->gpu));
  if (dcsim_gpu_profile_spec(req->gpu)->has_launch) /* the GPU's own launch cost and floors */
    return measured ? dcsim_prov_make(DCSIM_PROV_TABLE, dcsim_gpu_profile_launch_source(req->gpu))
           : *ev->measured_on /* the counters of other GPUs (their names) on this one */
               ? dcsim_prov_make(DCSIM_PROV_EXTRAPOLATED, ev->measured_on)
               : dcsim_prov_make(DCSIM_PROV_SPEC, dcsim_gpu_profile_device_source(req->gpu));
  int own_fit = !ev->launch.present || strcmp(ev->launch.fitted_on, name) == 0;
  if (measured && own_fit)
    return dcsim_prov_make(DCSIM_PROV_TABLE, ev->launch.present
                                                 ? ev->launch.source
                                                 : dcsim_gpu_profile_source(req->gpu));
  if (ev->launch.present && ev->launch.fitted)
    return dcsim_prov_make(DCSIM_PROV_EXTRAPOLATED, ev->launch.source);
  return dcsim_prov_make(DCSIM_PROV_SPEC, dcsim_gpu_profile_device_source(req->gpu));
}

static int kernels_have_activity(const dcsim_dwarf_eval *ev) {
  for (size_t k = 0; k < ev->n_kernels; k++)
    if (!ev->kernels[k].has_activity) return 0;
  return ev->n_kernels > 0;
}

/* Board power by activity (doc/models.md "GPU power by activity") as a fraction of the limit:
 * the profile's <power-model> on what one GPU's kernels do over the modelled time. Provenance:
 * the weaker of the time's and the power model's (extrapolated: a fit evaluated on other loads). */
static int gpu_activity_fraction(const dcsim_model_req *req, const dcsim_prediction *out, double *S,
                                 dcsim_prov *prov, dcsim_error *err) {
  const dcsim_gpu_spec *g = dcsim_gpu_profile_spec(req->gpu);
  const double N = out->multigpu ? out->multigpu->domain_per_gpu : req->ev->domain_size;
  dcsim_gpu_activity a;
  int rc = dcsim_gpu_activity_of(req->ev, g, out->gpu, N, &a, err);
  if (rc) return rc;
  *S = dcsim_energy_gpu_activity_w(g, &a) / g->power_limit_w;
  *prov = dcsim_prov_weakest(
      out->time_prov,
      dcsim_prov_make(DCSIM_PROV_EXTRAPOLATED, dcsim_gpu_profile_power_model_source(req->gpu)));
  return 0;
}

/* The board power of one GPU as a fraction of its limit (S of §5.5) and its provenance: the
 * dwarf's measured S for this GPU (D3.5 Table 36), or in the default model without one
 * P = P_0 + activity * busy * (P_limit - P_0), P_0 the active idle (P0 state) and busy the
 * share of the modelled time spent computing or transferring (doc/models.md "GPU power"). */
static int gpu_board_fraction(const dcsim_model_req *req, const dcsim_prediction *out, int arch,
                              double *S, dcsim_prov *prov, dcsim_error *err) {
  const dcsim_dwarf_t *d = req->ev->dwarf;
  const char *name = dcsim_gpu_profile_name(req->gpu);
  const dcsim_gpu_spec *g = dcsim_gpu_profile_spec(req->gpu);
  if (!arch || (dcsim_dwarf_gpu_fraction_measured(d, name) && !req->gpu_power_activity)) {
    *prov = out->time_prov;
    return dcsim_dwarf_gpu_fraction(d, name, S, err);
  }
  if (g->has_power_model && out->gpu && kernels_have_activity(req->ev))
    return gpu_activity_fraction(req, out, S, prov, err);
  if (req->gpu_power_activity)
    return DCSIM_ERR(err, DCSIM_EREF, dcsim_gpu_profile_path(req->gpu), 0,
                     "board power by activity needs the profile's <power-model> and the kernels' "
                     "activity counts (GPU %s, dwarf %s)",
                     name, dcsim_dwarf_name(d));
  double a;
  const char *src;
  int rc = dcsim_dwarf_gpu_activity(d, &a, &src, err);
  if (rc) return rc;
  const dcsim_gpu_result *r = out->gpu;
  /* the cache-line model of irregular loops (no kernel result) is busy all its time */
  double busy = !r ? 1 : r->time_s > 0 ? (r->compute_s + r->transfer_s) / r->time_s : 0;
  *S = dcsim_energy_gpu_board_w(g, a, busy) / g->power_limit_w;
  *prov = dcsim_prov_weakest(dcsim_prov_make(DCSIM_PROV_EXTRAPOLATED, src), out->time_prov);
  return 0;
}

static int run_gpu_as(const dcsim_model_req *req, dcsim_prediction *out, dcsim_error *err) {
  if (!req->gpu)
    return DCSIM_PERR(err, DCSIM_EUSAGE, "gpu", -1, "missing: a GPU dwarf needs a GPU profile");
  int rc;
  const int arch = !(req->flags & DCSIM_MODEL_D35);
  if (arch && req->gpu_small_domain)
    return DCSIM_PERR(err, DCSIM_EUSAGE, "gpu_small_domain", -1,
                      "D3.5's model with a GTX 970 correction: the default "
                      "model has launch and occupancy terms for every GPU; add --d35 to use it");
  if (!arch && req->gpu_power_activity)
    return DCSIM_PERR(err, DCSIM_EUSAGE, "gpu_power_activity", -1,
                      "dcsim's default GPU power model; --d35 keeps "
                      "§5.5's measured fraction S");
  dcsim_gpu_opts mode = { req->gpu_small_domain, 0, arch };
  const int irregular = req->ev->n_kernels == 0;
  /* One model per GPU count: in the default model one GPU is the split at G = 1, so the
   * host transfer of a dwarf with <multi-gpu> is counted for one GPU as for several; --d35 keeps
   * D3.5's single-GPU model, which leaves it out (§3.3), when no count is given. */
  const unsigned gpus = req->gpus >= 1 ? req->gpus : arch && req->ev->has_multi_gpu ? 1 : 0;
  if (irregular) { /* irregular loops on a GPU (dcsim/model_irregular.h, FV §7) */
    if (req->gpus > 1)
      return DCSIM_PERR(err, DCSIM_EUSAGE, "gpus", -1,
                        "dwarf %s has no GPU kernels: it runs on one GPU",
                        dcsim_dwarf_name(req->ev->dwarf));
    if ((rc = dcsim_model_irregular_gpu(req->ev, req->gpu, &out->cpu, err))) return rc;
    out->time_s = out->cpu->time_s;
  } else if (gpus >= 1) { /* the domain split over G GPUs (dcsim/model_multigpu.h) */
    if ((rc = dcsim_model_multigpu(req->ev, req->gpu, gpus, &mode, &out->multigpu, err))) return rc;
    out->gpu = out->multigpu->gpu; /* one GPU's part, for the per-kernel report */
    out->multigpu->gpu = NULL;
    out->time_s = out->multigpu->time_s;
  } else { /* D3.5 §3.4, one GPU: refuse a domain that does not fit its memory */
    if ((rc = dcsim_multigpu_check_fit(req->ev, req->gpu, 1, NULL, err))) return rc;
    if ((rc = dcsim_model_gpu_opts(req->ev, req->gpu, &mode, &out->gpu, err))) return rc;
    out->time_s = out->gpu->time_s;
  }
  const double n_gpus = gpus >= 1 ? gpus : 1;
  /* the cache-line model rests on the profile's bandwidths in either mode */
  out->time_prov = gpu_time_prov(req, arch && !irregular);
  if (req->energy_form == DCSIM_ENERGY_NONE) return 0;
  const dcsim_gpu_spec *g = dcsim_gpu_profile_spec(req->gpu);
  dcsim_prov board_prov;
  if ((rc = gpu_board_fraction(req, out, arch, &out->gpu_fraction, &board_prov, err))) return rc;
  if (req->host_cpu && req->energy_form == DCSIM_ENERGY_MODE && !(req->flags & DCSIM_MODEL_D35))
    return gpu_energy_wall(req, n_gpus * out->gpu_fraction * g->power_limit_w, board_prov, out,
                           err);
  if (req->host_cpu) {
    dcsim_cpu_state hs = { dcsim_cpu_profile_nominal_ghz(req->host_cpu), NULL, 1 };
    dcsim_cpu_power pw;
    if ((rc = dcsim_cpu_profile_power(req->host_cpu, &hs, &pw, err))) return rc;
    out->host_idle_w = pw.pkg_idle_w;
    out->energy_prov = dcsim_prov_weakest(pw.prov, board_prov);
  } else {
    out->energy_prov = board_prov;
  }
  out->has_energy = 1;
  out->energy_scope = req->host_cpu ? "GPU boards (S of the power limit) and the host package idle"
                                    : "GPU boards (S of the power limit); host excluded";
  /* §5.5 for each of the G GPUs of the split (assumption: every GPU draws S of its limit) */
  out->energy_j =
      dcsim_energy_gpu(out->time_s, out->host_idle_w, n_gpus * out->gpu_fraction, g->power_limit_w);
  out->gpu_j = out->time_s * n_gpus * out->gpu_fraction * g->power_limit_w;
  out->pkg_j = out->time_s * out->host_idle_w;
  out->node_energy_j = out->energy_j;
  return 0;
}

/* `--threading ideal` on a GPU (doc/models.md "GPU: the algorithm done well"): each D3.5-form
 * kernel as a well-ported code would run it, the roofline form on the same work: the active lanes'
 * instructions packed into full warps ((1 - P_inactive) I_e warp instructions, D3.5 Table 8: P_i =
 * 1 - i/(32 I_e)) issued at the architecture's issue width, and only the requested bytes moved
 * (G_e = 1, dram-byte = l2-byte = G_r). Kernels measured on their GPU (time-form="roofline") stay
 * as measured. The default (measured) mode keeps D3.5's counters of the OpenACC code. */
static int gpu_ideal_kernels(const dcsim_dwarf_eval *ev, const dcsim_gpu_profile_t *gpu,
                             dcsim_gpu_kernel **out, dcsim_error *err) {
  const dcsim_gpu_spec *g = dcsim_gpu_profile_spec(gpu);
  dcsim_gpu_kernel *k = calloc(ev->n_kernels, sizeof *k);
  if (!k) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  for (size_t i = 0; i < ev->n_kernels; i++) {
    k[i] = ev->kernels[i];
    if (k[i].roofline) continue;
    if (!(g->arch.issue_width > 0)) {
      free(k);
      return DCSIM_PERR(err, DCSIM_EUSAGE, "threading", -1,
                        "ideal on GPU %s needs its architecture's <issue-width> (%s has none): use "
                        "measured",
                        dcsim_gpu_profile_name(gpu), g->arch.name);
    }
    k[i].I_e = (1 - k[i].P_inactive) * k[i].I_e;
    k[i].IPC_e = g->arch.issue_width;
    k[i].P_inactive = k[i].P_misc = k[i].P_cfl = 0;
    k[i].G_e = 1;
    k[i].dram_byte = k[i].l2_byte = k[i].G_r_byte;
    k[i].roofline = 1;
  }
  *out = k;
  return 0;
}

static int run_gpu(const dcsim_model_req *req, dcsim_prediction *out, dcsim_error *err) {
  if (!req->gpu || !(req->flags & DCSIM_MODEL_HW_THREADS) || (req->flags & DCSIM_MODEL_D35) ||
      req->ev->n_kernels == 0)
    return run_gpu_as(req, out, err);
  dcsim_gpu_kernel *k = NULL;
  int rc = gpu_ideal_kernels(req->ev, req->gpu, &k, err);
  if (rc) return rc;
  dcsim_dwarf_eval ev = *req->ev;
  ev.kernels = k;
  dcsim_model_req r = *req;
  r.ev = &ev;
  rc = run_gpu_as(&r, out, err);
  free(k);
  return rc;
}

/* --strict: only measured or interpolated values (dcsim/provenance.h). */
static int check_strict(const dcsim_model_req *req, const dcsim_prediction *p, dcsim_error *err) {
  if (!(req->flags & DCSIM_MODEL_STRICT)) return 0;
  const dcsim_prov *bad = !dcsim_prov_strict_ok(p->time_prov.kind) ? &p->time_prov
                          : p->has_energy && !dcsim_prov_strict_ok(p->energy_prov.kind)
                              ? &p->energy_prov
                              : NULL;
  if (!bad) return 0;
  const char *path = req->gpu ? dcsim_gpu_profile_path(req->gpu) : dcsim_cpu_profile_path(req->cpu);
  return DCSIM_ERR(err, DCSIM_ERANGE, path, 0,
                   "--strict: the %s of %s rests on %s values (%s); drop --strict to accept them",
                   bad == &p->time_prov ? "time" : "energy", dcsim_dwarf_name(req->ev->dwarf),
                   dcsim_prov_name(bad->kind), bad->source);
}

int dcsim_model_run(const dcsim_model_req *req, dcsim_prediction *out, dcsim_error *err) {
  memset(out, 0, sizeof *out);
  out->time_prov = out->energy_prov = dcsim_prov_make(DCSIM_PROV_TABLE, "");
  int rc =
      req->gpu ? run_gpu(req, out, err) : run_cpu(req, out, err); /* the resources pick the model */
  if (!rc) rc = check_strict(req, out, err);
  if (rc) dcsim_prediction_release(out);
  return rc;
}

int dcsim_model_energy_at(const dcsim_model_req *req, double time_s, dcsim_prediction *out,
                          dcsim_error *err) {
  memset(out, 0, sizeof *out);
  out->time_prov = out->energy_prov = dcsim_prov_make(DCSIM_PROV_TABLE, "");
  if (req->gpu || !(time_s >= 0) || !isfinite(time_s))
    return DCSIM_PERR(err, DCSIM_EUSAGE, "time_s", -1,
                      "the energy of a measured run needs a CPU dwarf and a time >= 0");
  dcsim_model_req r = *req;
  r.energy_form = DCSIM_ENERGY_NONE; /* the model for the bytes the run moves, not its time */
  int rc = run_cpu(&r, out, err);
  if (!rc) rc = cpu_energy(req, time_s, time_s, out, err);
  if (!rc) rc = check_strict(req, out, err);
  if (rc) dcsim_prediction_release(out);
  return rc;
}
