/* cli_model.c — `dcsim model` and `dcsim energy`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/bands.h"
#include "dcsim/catalog.h"
#include "dcsim/cli.h"
#include "dcsim/json.h"
#include "dcsim/model.h"
#include "dcsim/model_comm.h"
#include "dcsim/numfmt.h"
#include "dcsim/repro.h"
#include "util/csv.h"
#include "util/xmlio.h"

static int load_dwarf_arg(const dcsim_args *a, dcsim_dwarf_t **d, dcsim_error *err) {
  const char *ref = dcsim_arg(a, "dwarf");
  if (!ref) return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 0, "--dwarf is required");
  char path[4096];
  int rc = dcsim_catalog_resolve(DCSIM_KIND_DWARF, ref, NULL, dcsim_arg_index(a, "dwarf"), path,
                                 sizeof path, err);
  return rc ? rc : dcsim_dwarf_load(path, d, err);
}

static int load_cpu_arg(const dcsim_args *a, const char *opt, dcsim_cpu_profile_t **p,
                        dcsim_error *err) {
  char path[4096];
  int rc = dcsim_catalog_resolve(DCSIM_KIND_CPU, dcsim_arg(a, opt), NULL, dcsim_arg_index(a, opt),
                                 path, sizeof path, err);
  return rc ? rc : dcsim_cpu_profile_load(path, p, err);
}

static int load_gpu_arg(const dcsim_args *a, dcsim_gpu_profile_t **p, dcsim_error *err) {
  char path[4096];
  int rc = dcsim_catalog_resolve(DCSIM_KIND_GPU, dcsim_arg(a, "gpu"), NULL,
                                 dcsim_arg_index(a, "gpu"), path, sizeof path, err);
  return rc ? rc : dcsim_gpu_profile_load(path, p, err);
}

static int parse_energy_form(const dcsim_args *a, dcsim_energy_form *f, dcsim_error *err) {
  const char *v = dcsim_arg(a, "energy-form");
  if (!v)
    *f = DCSIM_ENERGY_MODE; /* the mode's own (dcsim/model.h) */
  else if (strcmp(v, "5.3") == 0)
    *f = DCSIM_ENERGY_53;
  else if (strcmp(v, "5.2") == 0)
    *f = DCSIM_ENERGY_52;
  else if (strcmp(v, "none") == 0)
    *f = DCSIM_ENERGY_NONE;
  else
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "energy-form"),
                     "--energy-form '%s': expected 5.3, 5.2 or none", v);
  return 0;
}

/* What limits a loop: a loop with no work and no traffic (W = Q = 0) is empty, not bound. */
/* --freq min or max that is the nominal clock (a profile with one plain state): said on stderr,
 * not merged silently; the turbo state, when the profile has one, is named. */
static void freq_merged_note(const dcsim_cpu_profile_t *cpu, const char *text,
                             const dcsim_cpu_state *st) {
  if (!text || (strcmp(text, "max") && strcmp(text, "min")) || st->label ||
      st->ghz != dcsim_cpu_profile_nominal_ghz(cpu))
    return;
  double tu = dcsim_cpu_profile_turbo_ghz(cpu);
  char t[64] = " and no turbo state";
  if (tu > 0) snprintf(t, sizeof t, "; its turbo (%s GHz) is --freq turbo", DCSIM_SIG(tu));
  fprintf(stderr, "dcsim: note: --freq %s is the nominal %s GHz: %s has one non-turbo state%s\n",
          text, DCSIM_SIG(st->ghz), dcsim_cpu_profile_name(cpu), t);
}

static const char *bound_name(const dcsim_loop_part *lp) {
  if (lp->work_flop == 0 && lp->traffic_byte == 0) return "empty";
  return lp->compute_bound ? "compute" : "memory";
}

/* How the CPU time scaled with cores (doc/models.md "Thread scaling"): in the default mode on
 * more than one core, the dwarf's measured law or the per-loop model's ideal scaling. */
static void print_threads(const dcsim_model_req *rq, const dcsim_prediction *p) {
  const dcsim_thread_info *ti = &p->threads;
  unsigned n = rq->state.threads;
  if (!p->cpu || n <= 1 || (rq->flags & DCSIM_MODEL_D35)) return;
  if (!ti->law && (rq->flags & DCSIM_MODEL_HW_THREADS)) {
    printf("threads   %u cores: ideal scaling, the per-loop model alone (--threading ideal)\n", n);
    return;
  }
  if (!ti->law) {
    printf(
        "threads   %u cores: ideal scaling, the per-loop model alone (no measured thread "
        "scaling of %s)\n",
        n, dcsim_dwarf_name(rq->ev->dwarf));
    return;
  }
  char tp[600], how[200] = "";
  dcsim_prov_format(ti->prov, tp, sizeof tp);
  double law = dcsim_threads_time_bounded(ti->law, n, ti->one_time_s, ti->hw_time_s);
  if (n > ti->law->cores_max) /* dcsim/model_threads.h: no faster than the law's own curve */
    snprintf(how, sizeof how,
             "; beyond %u cores no faster than the law allows (its coherence cost held at %u "
             "cores; the law continued unchanged, %sx, bounds the band)",
             ti->law->cores_max, ti->law->cores_max, DCSIM_SIG(ti->law_time_s / ti->one_time_s));
  printf(
      "threads   %u cores: %sx the 1-core time by the measured scaling of %s (sigma %s, "
      "kappa %s, fitted on %s up to %u cores%s%s); per-loop model alone %sx  %s\n",
      n, DCSIM_SIG(law / ti->one_time_s), dcsim_dwarf_name(rq->ev->dwarf),
      DCSIM_SIG(ti->law->sigma), DCSIM_SIG(ti->law->kappa), ti->law->cpu, ti->law->cores_max,
      ti->exact ? "" : ", transferred to this CPU as a function of the thread count", how,
      DCSIM_SIG(ti->hw_time_s / ti->one_time_s), tp);
}

/* Which level weights the CPU model used (doc/models.md "Level weights on another CPU"): the
 * cache rule's note when it moved them or could not place the working set; the dwarf's own when
 * it gives no working set. Nothing under --d35 (D3.5's weights) or when the rule left them. */
static const char *weights_text(const dcsim_model_req *rq, const dcsim_prediction *p) {
  if (!p->cpu || (rq->flags & DCSIM_MODEL_D35)) return NULL;
  if (p->cpu->weights_note) return p->cpu->weights_note;
  int any_mop = 0; /* <irregular> loops have no level weights */
  for (size_t l = 0; l < rq->ev->n_loops; l++) any_mop |= !rq->ev->loops[l].irregular;
  if (!rq->ev->has_working_set && any_mop)
    return "level weights as in the dwarf: it gives no working set, so the cache rule does not "
           "carry them to this CPU";
  return NULL;
}

/* "thread_scaling": the law used (or "ideal") and the per-loop model's own computation time. */
static void json_threads(dcsim_json *j, const dcsim_model_req *rq, const dcsim_prediction *p) {
  const dcsim_thread_info *ti = &p->threads;
  dcsim_json_key(j, "thread_scaling");
  dcsim_json_obj_begin(j);
  dcsim_json_key_str(j, "law", ti->law ? "measured" : "ideal");
  dcsim_json_key_num(j, "per_loop_s", ti->hw_time_s);
  if (ti->law) {
    dcsim_json_key_num(j, "sigma", ti->law->sigma);
    dcsim_json_key_num(j, "kappa", ti->law->kappa);
    dcsim_json_key_str(j, "fitted_on", ti->law->cpu);
    dcsim_json_key_int(j, "cores_max", ti->law->cores_max);
    int beyond = rq->state.threads > ti->law->cores_max;
    dcsim_json_key_str(j, "rule",
                       !ti->exact ? (beyond ? "transferred from another CPU; bounded by the "
                                              "law beyond cores_max"
                                            : "transferred from another CPU")
                       : beyond   ? "bounded by the law beyond cores_max"
                                  : "measured range");
    if (beyond) dcsim_json_key_num(j, "law_continued_s", ti->law_time_s);
    dcsim_json_key_num(j, "one_core_s", ti->one_time_s);
    dcsim_json_key(j, "provenance");
    dcsim_prov_json(j, ti->prov);
  } else {
    dcsim_json_key_str(j, "reason",
                       rq->state.threads <= 1        ? "one core"
                       : rq->flags & DCSIM_MODEL_D35 ? "D3.5 model (--d35)"
                                                     : "no measurements");
  }
  dcsim_json_obj_end(j);
}

/* The uncertainty bands of one prediction (dcsim/bands.h), in seconds and joules. */
typedef struct model_bands {
  double time[2], energy[2];
} model_bands;

static int bands_of(const dcsim_model_req *rq, const dcsim_prediction *p, int gpu, model_bands *mb,
                    dcsim_error *err) {
  dcsim_bands_t *b = NULL;
  int rc = dcsim_bands_load_default(&b, err);
  if (rc) return rc;
  int cpu = gpu ? 0 : 1 + dcsim_bands_cpu_transferred(rq->cpu);
  dcsim_bands_apply(b, cpu, gpu, p->time_prov.kind, p->energy_prov.kind, p->time_s,
                    p->has_energy ? p->energy_j : 0, mb->time, mb->energy);
  dcsim_bands_cover(p->time_s, p->time_cover_s, mb->time, mb->energy);
  dcsim_bands_free(b);
  return 0;
}

static void json_bands(dcsim_json *j, int has_energy, const model_bands *mb) {
  dcsim_json_key(j, "time_band");
  dcsim_json_arr_begin(j);
  dcsim_json_num(j, mb->time[0]);
  dcsim_json_num(j, mb->time[1]);
  dcsim_json_arr_end(j);
  dcsim_json_key(j, "energy_band");
  if (!has_energy) {
    dcsim_json_null(j);
    return;
  }
  dcsim_json_arr_begin(j);
  dcsim_json_num(j, mb->energy[0]);
  dcsim_json_num(j, mb->energy[1]);
  dcsim_json_arr_end(j);
}

static void print_text(const dcsim_model_req *rq, const dcsim_prediction *p, const char *case_name,
                       const char *why, const dcsim_repro *rp, const model_bands *mb) {
  const dcsim_dwarf_eval *ev = rq->ev;
  printf("dwarf     %s%s%s\n", dcsim_dwarf_name(ev->dwarf), case_name ? " case " : "",
         case_name ? case_name : "");
  if (p->cpu) {
    char fs[32];
    dcsim_cpu_state_freq_str(&rq->state, fs, sizeof fs);
    if (rq->gpu) /* irregular loops on a GPU (dcsim/model_irregular.h) */
      printf("gpu       %s (cache-line model of irregular accesses)\n",
             dcsim_gpu_profile_name(rq->gpu));
    else /* a labelled state prints as "at turbo" */
      printf("cpu       %s, %u %s x %u %s at %s%s\n", dcsim_cpu_profile_name(rq->cpu), rq->nodes,
             dcsim_plural(rq->nodes, "node", "nodes"), rq->state.threads,
             dcsim_plural(rq->state.threads, "core", "cores"), fs, rq->state.label ? "" : " GHz");
    printf("\n%-36s %14s %14s %12s %12s %12s %s\n", "loop (per node)", "W [flop]", "Q [byte]",
           "W*Tflop [s]", "Q*Tmop [s]", "T [s]", "bound");
    for (size_t l = 0; l < p->cpu->n_loops; l++) {
      const dcsim_loop_part *lp = &p->cpu->parts[l];
      printf("%-36s %14s %14s %12s %12s %12s %s%s%s\n", lp->name, DCSIM_SIG(lp->work_flop),
             DCSIM_SIG(lp->traffic_byte), DCSIM_SIG(lp->flop_time_s), DCSIM_SIG(lp->mem_time_s),
             DCSIM_SIG(lp->time_s), bound_name(lp), lp->level ? " " : "",
             lp->level ? lp->level : "");
    }
    if (p->cpu->node_comm_s[0] > 0)
      printf("%-36s %68s %12s\n", "communication (§4.3)", "", DCSIM_SIG(p->cpu->node_comm_s[0]));
  } else {
    printf("gpu       %s%s%s\n", dcsim_gpu_profile_name(rq->gpu), rq->host_cpu ? ", host " : "",
           rq->host_cpu ? dcsim_cpu_profile_name(rq->host_cpu) : "");
    printf("domain    N = %s, %u %s per kernel per call\n", DCSIM_SIG(ev->domain_size),
           ev->invocations, dcsim_plural(ev->invocations, "invocation", "invocations"));
    if (p->multigpu)
      printf("split     %u %s x %s points, %s of GPU memory each (at least %u %s needed)\n",
             p->multigpu->gpus, dcsim_plural(p->multigpu->gpus, "GPU", "GPUs"),
             DCSIM_SIG(p->multigpu->domain_per_gpu),
             DCSIM_SI(p->multigpu->memory_per_gpu_byte, "B"), p->multigpu->min_gpus,
             dcsim_plural(p->multigpu->min_gpus, "GPU", "GPUs"));
    printf("\n%-28s %12s %12s %12s %12s\n", "kernel", "compute [s]", "transfer [s]", "inactive [s]",
           "total [s]");
    for (size_t k = 0; k < p->gpu->n_kernels; k++) {
      const dcsim_kernel_part *kp = &p->gpu->parts[k];
      printf("%-28s %12s %12s %12s %12s\n", kp->name, DCSIM_SIG(kp->compute_s),
             DCSIM_SIG(kp->transfer_s), DCSIM_SIG(kp->inactive_s), DCSIM_SIG(kp->time_s));
    }
    if (rq->gpu_small_domain)
      printf("%-28s %38s %12s  (occupancy %s, launches and ramp)\n", "small-domain overhead", "",
             DCSIM_SIG(p->gpu->overhead_s),
             DCSIM_SIG(p->gpu->n_kernels ? p->gpu->parts[0].occupancy : 1));
    else if (p->gpu->overhead_s > 0)
      printf("%-28s %38s %12s  (achieved %s of the bulk rate)\n", "launch, waves, occupancy", "",
             DCSIM_SIG(p->gpu->overhead_s),
             DCSIM_SIG(p->gpu->n_kernels ? p->gpu->parts[0].occupancy : 1));
    printf("%-28s %12s %12s %12s %12s\n", p->multigpu ? "dwarf (one GPU's part)" : "dwarf",
           DCSIM_SIG(p->gpu->compute_s), DCSIM_SIG(p->gpu->transfer_s),
           DCSIM_SIG(p->gpu->inactive_s), DCSIM_SIG(p->gpu->time_s));
    if (p->multigpu)
      printf("%-28s %38s %12s\n%-28s %38s %12s\n", "host-device transfer", "",
             DCSIM_SIG(p->multigpu->transfer_s), "halo exchange", "",
             DCSIM_SIG(p->multigpu->halo_s));
  }
  char tp[600], ep[600];
  dcsim_prov_format(p->time_prov, tp, sizeof tp);
  dcsim_prov_format(p->energy_prov, ep, sizeof ep);
  printf("\nmodel     %s%s\n",
         rq->flags & DCSIM_MODEL_D35 ? "D3.5 as published (--d35)" : "default",
         rq->flags & DCSIM_MODEL_HW_THREADS ? ", --threading ideal" : "");
  print_threads(rq, p);
  const char *wt = weights_text(rq, p);
  if (wt) printf("weights   %s\n", wt);
  if (p->gpu && (rq->flags & DCSIM_MODEL_HW_THREADS) && !(rq->flags & DCSIM_MODEL_D35))
    printf(
        "kernels   the algorithm done well (--threading ideal): D3.5-form kernels with their "
        "active lanes in full warps at the issue width and only the requested bytes moved "
        "(doc/models.md)\n");
  char tb[160], eb[160];
  dcsim_fmt_band(tb, sizeof tb, p->time_s, mb->time, NULL);
  dcsim_fmt_band(eb, sizeof eb, p->energy_j, mb->energy, "J");
  printf("time      %s s  %s\n", tb, tp);
  if (p->has_energy) {
    if (p->node_power_w > 0 && p->cpu)
      printf("energy    %s (PKG %s, DRAM %s, node base and losses %s; %s per node, %s idle)  %s\n",
             eb, DCSIM_SI(p->pkg_j, "J"), DCSIM_SI(p->dram_j, "J"), DCSIM_SI(p->base_j, "J"),
             DCSIM_SI(p->node_power_w, "W"), DCSIM_SI(p->node_idle_w, "W"), ep);
    else if (p->node_power_w > 0)
      printf(
          "energy    %s (%s %s, host PKG %s, DRAM %s, node base and losses %s; %s, %s idle)  "
          "%s\n",
          eb, p->multigpu && p->multigpu->gpus > 1 ? "GPUs" : "GPU", DCSIM_SI(p->gpu_j, "J"),
          DCSIM_SI(p->pkg_j, "J"), DCSIM_SI(p->dram_j, "J"), DCSIM_SI(p->base_j, "J"),
          DCSIM_SI(p->node_power_w, "W"), DCSIM_SI(p->node_idle_w, "W"), ep);
    else if (p->cpu)
      printf("energy    %s (PKG %s, DRAM %s)  %s\n", eb, DCSIM_SI(p->pkg_j, "J"),
             DCSIM_SI(p->dram_j, "J"), ep);
    else
      printf("energy    %s (%s %s at S = %s of the power limit%s, host package %s)%s  %s\n", eb,
             p->multigpu && p->multigpu->gpus > 1 ? "GPUs" : "GPU", DCSIM_SI(p->gpu_j, "J"),
             DCSIM_SIG(p->gpu_fraction), p->multigpu && p->multigpu->gpus > 1 ? " each" : "",
             DCSIM_SI(p->pkg_j, "J"), rq->host_cpu ? "" : " [no --host-cpu: host excluded]", ep);
    printf("covers    %s\n", p->energy_scope);
  } else if (why) {
    printf("energy    unavailable: %s (the time above stands; --strict refuses)\n", why);
  } else {
    printf("energy    not computed (--energy-form none)\n");
  }
  dcsim_repro_text(stdout, rp);
}

/* The node wall power model's figures (dcsim/cpu_power.h), when it made the energy. */
static void json_wall(dcsim_json *j, const dcsim_prediction *p) {
  if (!(p->node_power_w > 0)) return;
  dcsim_json_key_num(j, "base_j", p->base_j);
  dcsim_json_key_num(j, "node_power_w", p->node_power_w);
  dcsim_json_key_num(j, "node_idle_w", p->node_idle_w);
}

/* The CPU model's figures: state, energy split, communication. */
static void json_cpu_prediction(dcsim_json *j, const dcsim_model_req *rq,
                                const dcsim_prediction *p) {
  char fs[32];
  dcsim_cpu_state_freq_str(&rq->state, fs, sizeof fs);
  if (rq->gpu) { /* irregular loops on a GPU (dcsim/model_irregular.h) */
    dcsim_json_key_str(j, "gpu", dcsim_gpu_profile_name(rq->gpu));
  } else {
    dcsim_json_key_str(j, "cpu", dcsim_cpu_profile_name(rq->cpu));
    dcsim_json_key_int(j, "nodes", rq->nodes);
    dcsim_json_key_int(j, "cores", rq->state.threads);
    dcsim_json_key_str(j, "freq", fs);
  }
  if (p->has_energy) {
    dcsim_json_key_num(j, "pkg_j", p->pkg_j);
    dcsim_json_key_num(j, "dram_j", p->dram_j);
    dcsim_json_key_num(j, "node_energy_j", p->node_energy_j);
    json_wall(j, p);
  }
  dcsim_json_key_num(j, "comm_s", p->cpu->node_comm_s[0]);
  json_threads(j, rq, p);
}

/* "parts": one object per loop (CPU) or kernel (GPU), named and timed first. */
static void json_parts(dcsim_json *j, const dcsim_prediction *p) {
  size_t n = p->cpu ? p->cpu->n_loops : p->gpu->n_kernels;
  dcsim_json_key(j, "parts");
  dcsim_json_arr_begin(j);
  for (size_t i = 0; i < n; i++) {
    const dcsim_loop_part *lp = p->cpu ? &p->cpu->parts[i] : NULL;
    const dcsim_kernel_part *kp = p->cpu ? NULL : &p->gpu->parts[i];
    dcsim_json_obj_begin(j);
    dcsim_json_key_str(j, "name", lp ? lp->name : kp->name);
    dcsim_json_key_num(j, "time_s", lp ? lp->time_s : kp->time_s);
    if (lp) {
      dcsim_json_key_num(j, "work_flop", lp->work_flop);
      dcsim_json_key_num(j, "traffic_byte", lp->traffic_byte);
      dcsim_json_key_num(j, "flop_time_s", lp->flop_time_s);
      dcsim_json_key_num(j, "mem_time_s", lp->mem_time_s);
      dcsim_json_key_str(j, "bound", bound_name(lp));
      if (lp->level) dcsim_json_key_str(j, "level", lp->level);
    } else {
      dcsim_json_key_num(j, "compute_s", kp->compute_s);
      dcsim_json_key_num(j, "transfer_s", kp->transfer_s);
      dcsim_json_key_num(j, "inactive_s", kp->inactive_s);
      dcsim_json_key_num(j, "G_e_used", kp->G_e_used);
    }
    dcsim_json_obj_end(j);
  }
  dcsim_json_arr_end(j);
}

/* The GPU model's figures: GPU and host, domain, energy split, times, several GPUs. */
static void json_gpu_prediction(dcsim_json *j, const dcsim_model_req *rq,
                                const dcsim_prediction *p) {
  dcsim_json_key_str(j, "gpu", dcsim_gpu_profile_name(rq->gpu));
  dcsim_json_key(j, "host_cpu");
  if (rq->host_cpu)
    dcsim_json_str(j, dcsim_cpu_profile_name(rq->host_cpu));
  else
    dcsim_json_null(j);
  dcsim_json_key_num(j, "domain_size", rq->ev->domain_size);
  dcsim_json_key_int(j, "invocations_per_call", rq->ev->invocations);
  if (p->has_energy) {
    dcsim_json_key_num(j, "gpu_j", p->gpu_j);
    dcsim_json_key_num(j, "host_pkg_j", p->pkg_j);
    dcsim_json_key_num(j, "gpu_fraction", p->gpu_fraction);
    if (p->node_power_w > 0) dcsim_json_key_num(j, "dram_j", p->dram_j);
    json_wall(j, p);
  }
  dcsim_json_key_num(j, "compute_s", p->gpu->compute_s);
  dcsim_json_key_num(j, "transfer_s", p->gpu->transfer_s);
  dcsim_json_key_num(j, "inactive_s", p->gpu->inactive_s);
  if (rq->gpu_small_domain)
    dcsim_json_key_num(j, "small_domain_overhead_s", p->gpu->overhead_s);
  else if (!(rq->flags & DCSIM_MODEL_D35)) /* the architecture model's launch and waves */
    dcsim_json_key_num(j, "launch_occupancy_s", p->gpu->overhead_s);
  if (p->multigpu) {
    dcsim_json_key_int(j, "gpus", p->multigpu->gpus);
    dcsim_json_key_int(j, "min_gpus", p->multigpu->min_gpus);
    dcsim_json_key_num(j, "domain_per_gpu", p->multigpu->domain_per_gpu);
    dcsim_json_key_num(j, "memory_per_gpu_byte", p->multigpu->memory_per_gpu_byte);
    dcsim_json_key_num(j, "kernel_s", p->multigpu->kernel_s);
    dcsim_json_key_num(j, "host_transfer_s", p->multigpu->transfer_s);
    dcsim_json_key_num(j, "halo_s", p->multigpu->halo_s);
  }
}

/* Opens the JSON document on stdout with the dwarf and its case (null without one). */
static void json_begin(dcsim_json *j, const dcsim_model_req *rq, const char *case_name) {
  dcsim_json_init(j, stdout, 1);
  dcsim_json_obj_begin(j);
  dcsim_json_key_str(j, "dwarf", dcsim_dwarf_name(rq->ev->dwarf));
  dcsim_json_key(j, "case");
  if (case_name)
    dcsim_json_str(j, case_name);
  else
    dcsim_json_null(j);
}

static void print_json(const dcsim_model_req *rq, const dcsim_prediction *p, const char *case_name,
                       const char *why, const dcsim_repro *rp, const model_bands *mb) {
  dcsim_json j;
  json_begin(&j, rq, case_name);
  dcsim_json_key_str(&j, "device", rq->gpu ? "gpu" : "cpu");
  dcsim_json_key_num(&j, "time_s", p->time_s);
  dcsim_json_key(&j, "energy_j");
  if (p->has_energy)
    dcsim_json_num(&j, p->energy_j);
  else
    dcsim_json_null(&j);
  dcsim_json_key_str(&j, "model", rq->flags & DCSIM_MODEL_D35 ? "d35" : "default");
  if (rq->flags & DCSIM_MODEL_HW_THREADS) /* only then: earlier outputs unchanged */
    dcsim_json_key_str(&j, "threading", "ideal");
  const char *wt = weights_text(rq, p);
  if (wt) dcsim_json_key_str(&j, "weights", wt);
  dcsim_json_key(&j, "energy_covers");
  if (p->has_energy)
    dcsim_json_str(&j, p->energy_scope);
  else
    dcsim_json_null(&j);
  dcsim_prov_json_member(&j, p->time_prov, p->has_energy ? &p->energy_prov : NULL);
  if (why) dcsim_json_key_str(&j, "energy_unavailable", why);
  json_bands(&j, p->has_energy, mb);
  if (p->cpu)
    json_cpu_prediction(&j, rq, p);
  else
    json_gpu_prediction(&j, rq, p);
  json_parts(&j, p);
  dcsim_repro_json(&j, rp);
  dcsim_json_obj_end(&j);
  dcsim_json_end(&j);
}

/* --nodes-scan "1,2,4": strictly increasing whole numbers (at most 64). */
static int parse_scan(const dcsim_args *a, unsigned *nodes, size_t *n, dcsim_error *err) {
  const char *v = dcsim_arg(a, "nodes-scan");
  int ai = dcsim_arg_index(a, "nodes-scan");
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", v);
  *n = 0;
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    unsigned x;
    if (dcsim_parse_uint(tok, 1, 1000000, &x) != 0 || *n == 64 || (*n && x <= nodes[*n - 1]))
      return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", ai,
                       "--nodes-scan '%s': expected up to 64 increasing whole numbers from 1 to "
                       "1000000, comma-separated",
                       v);
    nodes[(*n)++] = x;
  }
  if (*n == 0)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", ai, "--nodes-scan '%s': no node count", v);
  return 0;
}

/* A --nodes-scan: the model at each node count and its balance point. */
typedef struct node_scan {
  unsigned nodes[64];
  double t[64], comp[64], comm[64], e[64]; /* time, compute, communication, energy */
  double cover[64][2]; /* the range each time's band must reach (dcsim_prediction.time_cover_s) */
  size_t n;
  int has_e; /* energies computed */
  dcsim_balance b;
  char fs[32];                       /* the frequency */
  double overlap;                    /* the communication overlap used */
  dcsim_prov time_prov, energy_prov; /* the weakest over the node counts */
  double band_t[2], band_e[2];       /* their bands as factors of a time, an energy (bands.h) */
} node_scan;

static int scan_bands(const dcsim_model_req *rq, node_scan *S, dcsim_error *err) {
  dcsim_bands_t *b = NULL;
  int rc = dcsim_bands_load_default(&b, err);
  if (rc) return rc;
  dcsim_bands_apply(b, 1 + dcsim_bands_cpu_transferred(rq->cpu), 0, S->time_prov.kind,
                    S->energy_prov.kind, 1, 1, S->band_t, S->band_e);
  dcsim_bands_free(b);
  return 0;
}

/* The bands of node count i in seconds and joules. */
static model_bands scan_band(const node_scan *S, size_t i) {
  model_bands mb = { { S->t[i] * S->band_t[0], S->t[i] * S->band_t[1] },
                     { S->e[i] * S->band_e[0], S->e[i] * S->band_e[1] } };
  dcsim_bands_cover(S->t[i], S->cover[i], mb.time, mb.energy);
  return mb;
}

/* "time_band" and "energy_band" of one node count (energy null without energies) */
static void scan_json_bands(dcsim_json *j, const node_scan *S, size_t i) {
  const model_bands mb = scan_band(S, i);
  json_bands(j, S->has_e, &mb);
}

/* The model at each node count of the scan. */
static int scan_models(dcsim_model_req *rq, node_scan *S, dcsim_error *err) {
  int rc;
  for (size_t i = 0; i < S->n; i++) {
    dcsim_prediction p;
    rq->nodes = S->nodes[i];
    if ((rc = dcsim_model_run(rq, &p, err))) return rc;
    S->t[i] = p.time_s;
    S->cover[i][0] = p.time_cover_s[0];
    S->cover[i][1] = p.time_cover_s[1];
    S->comm[i] = p.cpu->node_comm_s[0];
    S->comp[i] = 0;
    for (size_t l = 0; l < p.cpu->n_loops; l++) S->comp[i] += p.cpu->parts[l].time_s;
    S->e[i] = p.has_energy ? p.energy_j : 0;
    S->time_prov = i ? dcsim_prov_weakest(S->time_prov, p.time_prov) : p.time_prov;
    S->energy_prov = i ? dcsim_prov_weakest(S->energy_prov, p.energy_prov) : p.energy_prov;
    dcsim_prediction_release(&p);
  }
  return 0;
}

static void scan_json(const dcsim_model_req *rq, const node_scan *S, const char *case_name,
                      const dcsim_repro *rp) {
  dcsim_json j;
  json_begin(&j, rq, case_name);
  dcsim_json_key_str(&j, "cpu", dcsim_cpu_profile_name(rq->cpu));
  dcsim_json_key_int(&j, "cores", rq->state.threads);
  dcsim_json_key_str(&j, "freq", S->fs);
  dcsim_json_key_num(&j, "net_s_per_byte", rq->net_s_per_byte);
  dcsim_json_key_num(&j, "net_latency_s", rq->net_latency_s);
  dcsim_json_key_num(&j, "overlap", S->overlap);
  dcsim_json_key_str(&j, "model", rq->flags & DCSIM_MODEL_D35 ? "d35" : "default");
  if (rq->flags & DCSIM_MODEL_HW_THREADS) /* only then: earlier outputs unchanged */
    dcsim_json_key_str(&j, "threading", "ideal");
  dcsim_prov_json_member(&j, S->time_prov, S->has_e ? &S->energy_prov : NULL);
  dcsim_json_key(&j, "scan");
  dcsim_json_arr_begin(&j);
  for (size_t i = 0; i < S->n; i++) {
    dcsim_json_obj_begin(&j);
    dcsim_json_key_int(&j, "nodes", S->nodes[i]);
    dcsim_json_key_num(&j, "time_s", S->t[i]);
    dcsim_json_key_num(&j, "compute_s", S->comp[i]);
    dcsim_json_key_num(&j, "comm_s", S->comm[i]);
    dcsim_json_key(&j, "energy_j");
    if (S->has_e)
      dcsim_json_num(&j, S->e[i]);
    else
      dcsim_json_null(&j);
    scan_json_bands(&j, S, i);
    dcsim_json_obj_end(&j);
  }
  dcsim_json_arr_end(&j);
  dcsim_json_key_int(&j, "balance_nodes", S->nodes[S->b.balance]);
  dcsim_json_key(&j, "balance_reached");
  dcsim_json_bool(&j, S->b.reached);
  dcsim_json_key_int(&j, "time_min_nodes", S->nodes[S->b.time_min]);
  dcsim_json_key(&j, "energy_min_nodes");
  if (S->has_e)
    dcsim_json_int(&j, S->nodes[S->b.energy_min]);
  else
    dcsim_json_null(&j);
  dcsim_repro_json(&j, rp);
  dcsim_json_obj_end(&j);
  dcsim_json_end(&j);
}

static void scan_text(const dcsim_model_req *rq, const node_scan *S, const char *case_name,
                      const dcsim_repro *rp) {
  const dcsim_balance *b = &S->b;
  printf("dwarf     %s%s%s\n", dcsim_dwarf_name(rq->ev->dwarf), case_name ? " case " : "",
         case_name ? case_name : "");
  printf("cpu       %s, %u %s per node at %s%s\n", dcsim_cpu_profile_name(rq->cpu),
         rq->state.threads, dcsim_plural(rq->state.threads, "core", "cores"), S->fs,
         rq->state.label ? "" : " GHz");
  if (rq->net_s_per_byte > 0)
    printf("network   %s, latency %s s, overlap %s%s\n", DCSIM_SI(1 / rq->net_s_per_byte, "B/s"),
           DCSIM_SIG(rq->net_latency_s), DCSIM_SIG(S->overlap),
           rq->overlap_set ? "" : " (the dwarf's)");
  else
    printf("network   none given: communication costs nothing (D3.5's perfect overlap)\n");
  printf("\n%8s %24s %14s %14s %28s\n", "nodes", "time [s] [band]", "compute [s]", "comm [s]",
         "energy [J] [band]");
  for (size_t i = 0; i < S->n; i++) {
    char tb[96], eb[96] = "-";
    const model_bands mb = scan_band(S, i);
    dcsim_fmt_band(tb, sizeof tb, S->t[i], mb.time, NULL);
    if (S->has_e) dcsim_fmt_band(eb, sizeof eb, S->e[i], mb.energy, NULL);
    printf("%8u %24s %14s %14s %28s%s%s\n", S->nodes[i], tb, DCSIM_SIG(S->comp[i]),
           DCSIM_SIG(S->comm[i]), eb,
           b->reached && i == b->balance ? "  <- balance point: more nodes are not faster" : "",
           S->has_e && i == b->energy_min ? "  <- least energy" : "");
  }
  char tp[600], ep[600];
  dcsim_prov_format(S->time_prov, tp, sizeof tp);
  dcsim_prov_format(S->energy_prov, ep, sizeof ep);
  printf("\nmodel     %s; times %s%s%s\n",
         rq->flags & DCSIM_MODEL_D35 ? "D3.5 as published (--d35)" : "default", tp,
         S->has_e ? ", energies " : "", S->has_e ? ep : "");
  if (!b->reached)
    printf("\nno balance point in this scan: the time still falls at %u nodes\n",
           S->nodes[S->n - 1]);
  dcsim_repro_text(stdout, rp);
}

/* --format csv: one line per loop or kernel (the JSON "parts"), then the extra terms and the total;
 * cells that do not apply are empty. */
static void print_csv(const dcsim_model_req *rq, const dcsim_prediction *p, const char *why,
                      const dcsim_repro *rp, const model_bands *mb) {
  dcsim_repro_csv(stdout, rp);
  if (why) printf("# energy unavailable: %s\n", why);
  puts(
      "kind,name,time_s,work_flop,traffic_byte,flop_time_s,mem_time_s,bound,compute_s,"
      "transfer_s,inactive_s,energy_j,time_band_low_s,time_band_high_s,energy_band_low_j,"
      "energy_band_high_j");
  size_t n = p->cpu ? p->cpu->n_loops : p->gpu->n_kernels;
  for (size_t i = 0; i < n; i++) {
    const dcsim_loop_part *lp = p->cpu ? &p->cpu->parts[i] : NULL;
    const dcsim_kernel_part *kp = p->cpu ? NULL : &p->gpu->parts[i];
    printf("%s,", lp ? "loop" : "kernel");
    dcsim__csv_write_cell(stdout, lp ? lp->name : kp->name);
    if (lp)
      printf(",%.10g,%.10g,%.10g,%.10g,%.10g,%s,,,,,,,,\n", lp->time_s, lp->work_flop,
             lp->traffic_byte, lp->flop_time_s, lp->mem_time_s, bound_name(lp));
    else
      printf(",%.10g,,,,,,%.10g,%.10g,%.10g,,,,,\n", kp->time_s, kp->compute_s, kp->transfer_s,
             kp->inactive_s);
  }
  if (p->cpu && p->cpu->node_comm_s[0] > 0)
    printf("communication,§4.3,%.10g,,,,,,,,,,,,,\n", p->cpu->node_comm_s[0]);
  if (!p->cpu && p->gpu->overhead_s > 0)
    printf("overhead,%s,%.10g,,,,,,,,,,,,,\n",
           rq->gpu_small_domain ? "small-domain launches and ramp" : "launch waves occupancy",
           p->gpu->overhead_s);
  if (p->multigpu)
    printf("transfer,host-device,%.10g,,,,,,,,,,,,,\nhalo,halo exchange,%.10g,,,,,,,,,,,,,\n",
           p->multigpu->transfer_s, p->multigpu->halo_s);
  printf("total,%s,%.10g,,,,,,,,,", dcsim_dwarf_name(rq->ev->dwarf), p->time_s);
  if (p->has_energy) printf("%.10g", p->energy_j);
  printf(",%.10g,%.10g,", mb->time[0], mb->time[1]);
  if (p->has_energy) printf("%.10g,%.10g", mb->energy[0], mb->energy[1]);
  putchar('\n');
}

/* --nodes-scan --format csv: one line per node count. */
static void scan_csv(const node_scan *S, const dcsim_repro *rp) {
  dcsim_repro_csv(stdout, rp);
  puts(
      "nodes,time_s,compute_s,comm_s,energy_j,balance_point,least_energy,time_band_low_s,"
      "time_band_high_s,energy_band_low_j,energy_band_high_j");
  for (size_t i = 0; i < S->n; i++) {
    printf("%u,%.10g,%.10g,%.10g,", S->nodes[i], S->t[i], S->comp[i], S->comm[i]);
    if (S->has_e) printf("%.10g", S->e[i]);
    const model_bands mb = scan_band(S, i);
    printf(",%d,%d,%.10g,%.10g,", S->b.reached && i == S->b.balance,
           S->has_e && i == S->b.energy_min, mb.time[0], mb.time[1]);
    if (S->has_e) printf("%.10g,%.10g", mb.energy[0], mb.energy[1]);
    putchar('\n');
  }
}

/* `dcsim model --nodes-scan`: the model at each node count, the balance point marked
 * (dcsim_balance_point, D3.5 §6.1.2). */
static int run_scan(const dcsim_args *a, dcsim_model_req *rq, const char *case_name,
                    dcsim_format fmt, const dcsim_repro *rp, dcsim_error *err) {
  node_scan S;
  int rc;
  memset(&S, 0, sizeof S);
  if ((rc = parse_scan(a, S.nodes, &S.n, err)) || (rc = scan_models(rq, &S, err)) ||
      (rc = scan_bands(rq, &S, err)))
    return rc;
  S.has_e = rq->energy_form != DCSIM_ENERGY_NONE;
  if ((rc = dcsim_balance_point(S.nodes, S.t, S.has_e ? S.e : NULL, S.n, &S.b, err))) return rc;
  dcsim_cpu_state_freq_str(&rq->state, S.fs, sizeof S.fs);
  S.overlap = rq->overlap_set ? rq->overlap : rq->ev->comm_overlap;
  if (fmt == DCSIM_FMT_JSON)
    scan_json(rq, &S, case_name, rp);
  else if (fmt == DCSIM_FMT_CSV)
    scan_csv(&S, rp);
  else
    scan_text(rq, &S, case_name, rp);
  return 0;
}

/* --gpu selects the GPU model, --cpu the CPU model; a dwarf may have one or both */
static int choose_model(const dcsim_args *a, const dcsim_dwarf_t *d, int *use_gpu,
                        dcsim_error *err) {
  *use_gpu = dcsim_arg(a, "gpu") != NULL;
  if (*use_gpu && dcsim_arg(a, "cpu"))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "cpu"),
                     "give --cpu or --gpu, not both (a GPU's host is --host-cpu)");
  if (*use_gpu && !dcsim_dwarf_has_gpu_model(d))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "gpu"),
                     "dwarf %s has no GPU model: --gpu does not apply", dcsim_dwarf_name(d));
  if (!*use_gpu && !dcsim_dwarf_has_cpu_model(d))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 0,
                     "dwarf %s runs on a GPU: give --gpu PROFILE", dcsim_dwarf_name(d));
  return 0;
}

/* The CPU model's request from the options: profile, nodes, cores, frequency, network. */
static int cpu_request(const dcsim_args *a, const dcsim_dwarf_t *d, dcsim_model_req *rq,
                       dcsim_cpu_profile_t **cpu, dcsim_error *err) {
  int rc;
  if (!dcsim_arg(a, "cpu"))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 0,
                     "dwarf %s runs on a CPU: give --cpu PROFILE", dcsim_dwarf_name(d));
  if (dcsim_arg(a, "gpus"))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "gpus"),
                     "--gpus applies to the GPU model only");
  if (dcsim_arg_flag(a, "small-domain"))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "small-domain"),
                     "--small-domain applies to the GPU model only");
  if (dcsim_arg_flag(a, "gpu-power-activity"))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "gpu-power-activity"),
                     "--gpu-power-activity applies to the GPU model only");
  if ((rc = load_cpu_arg(a, "cpu", cpu, err))) return rc;
  rq->cpu = *cpu;
  if ((rc = dcsim_arg_uint(a, "nodes", 1, &rq->nodes, err))) return rc;
  if (dcsim_arg(a, "nodes") && dcsim_arg(a, "nodes-scan"))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "nodes-scan"),
                     "give --nodes or --nodes-scan, not both");
  if ((rc = dcsim_arg_cores(a, *cpu, &rq->state.threads, err))) return rc;
  if ((rc = dcsim_cpu_profile_freq(*cpu, dcsim_arg(a, "freq"), &rq->state, err))) {
    dcsim_error_at(err, "command line", dcsim_arg_index(a, "freq"));
    return rc;
  }
  freq_merged_note(*cpu, dcsim_arg(a, "freq"), &rq->state);
  double bw = 0;
  if ((rc = dcsim_arg_quantity(a, "net-bw-bps", "B/s", 0, &bw, err))) return rc;
  if (dcsim_arg(a, "net-bw-bps") && !(bw > 0))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "net-bw-bps"),
                     "--net-bw-bps must be positive");
  rq->net_s_per_byte = bw > 0 ? 1.0 / bw : 0; /* §4.3: T_single, time to send one byte */
  if ((rc = dcsim_arg_quantity(a, "net-latency-s", "s", 0, &rq->net_latency_s, err))) return rc;
  if (dcsim_arg(a, "overlap")) {
    rq->overlap_set = 1;
    if ((rc = dcsim_arg_double(a, "overlap", 0, &rq->overlap, err))) return rc;
    if (rq->overlap > 1)
      return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "overlap"),
                       "--overlap '%s': expected a fraction from 0 to 1", dcsim_arg(a, "overlap"));
  }
  return 0;
}

/* The GPU model's request from the options: profile, several GPUs, small domains, host CPU. */
static int gpu_request(const dcsim_args *a, const dcsim_dwarf_t *d, dcsim_model_req *rq,
                       dcsim_gpu_profile_t **gpu, dcsim_cpu_profile_t **host, dcsim_error *err) {
  const char *cpu_only[] = { "cpu",        "nodes",         "cores",   "freq",
                             "net-bw-bps", "net-latency-s", "overlap", "nodes-scan" };
  int rc;
  for (size_t i = 0; i < 8; i++)
    if (dcsim_arg(a, cpu_only[i]))
      return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, cpu_only[i]),
                       "dwarf %s runs on the GPU here: --%s does not apply", dcsim_dwarf_name(d),
                       cpu_only[i]);
  if ((rc = load_gpu_arg(a, gpu, err))) return rc;
  rq->gpu = *gpu;
  rq->gpu_small_domain = dcsim_arg_flag(a, "small-domain");
  rq->gpu_power_activity = dcsim_arg_flag(a, "gpu-power-activity");
  if ((rc = dcsim_arg_uint(a, "gpus", 0, &rq->gpus, err))) return rc;
  if (dcsim_arg(a, "host-cpu") && (rc = load_cpu_arg(a, "host-cpu", host, err))) return rc;
  rq->host_cpu = *host;
  return 0;
}

/* Issue 26, item 5: what makes `dcsim model` differ from the same task in `dcsim run` or `sweep`,
 * said on stderr: communication left out for want of a network (run and sweep take their
 * platform's <network>), and a node count beyond the finest split of the domain. */
static void model_notes(const dcsim_args *a, const dcsim_model_req *rq, const char *dwarf) {
  const dcsim_dwarf_eval *ev = rq->ev;
  if (ev->has_comm && rq->nodes > 1 && !(rq->net_s_per_byte > 0))
    fprintf(stderr,
            "dcsim: note: no --net-bw-bps: the communication of %s over %u nodes is left out; "
            "dcsim run and sweep take their platform's <network> (the shipped platforms: "
            "--net-bw-bps 1.25e10 --net-latency-s 1e-6)\n",
            dwarf, rq->nodes);
  if (ev->comm_max_nodes > 0 && rq->nodes > ev->comm_max_nodes)
    fprintf(stderr,
            "dcsim: note: --nodes %u splits the domain of %s finer than its grid: it splits over "
            "at most %.0f nodes (%s); beyond that the model is no decomposition of the grid\n",
            rq->nodes, dwarf, ev->comm_max_nodes, ev->comm_max_nodes_source);
  (void)a;
}

/* Issue 26, item 4: a time answer is not blocked by a missing energy model. When the model fails
 * and the same request without energy succeeds, the failure was the energy's (a CPU without power
 * data, a state outside D3.5's energy table): the time is kept, the energy marked unavailable with
 * that reason (*lost, why). --strict refuses instead, as does --energy-form none's own failure. */
static int run_time_first(dcsim_model_req *rq, dcsim_prediction *p, int *lost, char *why,
                          size_t size, dcsim_error *err) {
  dcsim_error first;
  memset(&first, 0, sizeof first);
  int rc = dcsim_model_run(rq, p, &first);
  *lost = 0;
  if (!rc) return 0;
  dcsim_energy_form form = rq->energy_form;
  if (form == DCSIM_ENERGY_NONE || (rq->flags & DCSIM_MODEL_STRICT)) {
    if (err) *err = first;
    return rc;
  }
  dcsim_prediction_release(p);
  memset(p, 0, sizeof *p);
  rq->energy_form = DCSIM_ENERGY_NONE;
  int rc2 = dcsim_model_run(rq, p, NULL);
  rq->energy_form = form;
  if (rc2) {
    if (err) *err = first;
    return rc;
  }
  char rel[sizeof first.file];
  dcsim_catalog_relname(first.file, first.file, rel, sizeof rel); /* location-independent */
  snprintf(first.file, sizeof first.file, "%s", rel);
  dcsim_error_format(&first, why, size);
  *lost = 1;
  return 0;
}

/* The input files of a model: the dwarf and the profiles, with their hashes. */
static int model_repro(const dcsim_dwarf_t *d, const dcsim_cpu_profile_t *cpu,
                       const dcsim_gpu_profile_t *gpu, const dcsim_cpu_profile_t *host,
                       dcsim_repro *rp, dcsim_error *err) {
  int rc = dcsim_repro_add(rp, dcsim_dwarf_path(d), NULL, err);
  if (!rc && cpu) rc = dcsim_repro_add(rp, dcsim_cpu_profile_path(cpu), NULL, err);
  if (!rc && gpu) rc = dcsim_repro_add(rp, dcsim_gpu_profile_path(gpu), NULL, err);
  if (!rc && host) rc = dcsim_repro_add(rp, dcsim_cpu_profile_path(host), NULL, err);
  return rc;
}

int dcsim_cmd_model(const dcsim_args *a, dcsim_error *err) {
  static const dcsim_format formats[] = { DCSIM_FMT_TEXT, DCSIM_FMT_JSON, DCSIM_FMT_CSV,
                                          DCSIM_FMT_END };
  dcsim_dwarf_t *d = NULL;
  dcsim_dwarf_eval *ev = NULL;
  dcsim_cpu_profile_t *cpu = NULL, *host = NULL;
  dcsim_gpu_profile_t *gpu = NULL;
  dcsim_prediction pred;
  memset(&pred, 0, sizeof pred);
  dcsim_binding b[16];
  char names[16][64];
  size_t nb = 0;
  dcsim_format fmt = DCSIM_FMT_TEXT;
  int use_gpu = 0;
  dcsim_model_req rq;
  memset(&rq, 0, sizeof rq);
  dcsim_repro rp;
  dcsim_repro_init(&rp, NULL);
  int rc;
  if ((rc = dcsim_arg_format(a, formats, &fmt, err))) goto out;
  if ((rc = parse_energy_form(a, &rq.energy_form, err))) goto out;
  rq.flags = dcsim_arg_model_flags(a);
  if ((rc = dcsim_arg_threading(a, &rq.flags, err))) goto out;
  if ((rc = dcsim_arg_sets(a, b, names, sizeof b / sizeof *b, &nb, err))) goto out;
  if ((rc = load_dwarf_arg(a, &d, err))) goto out;
  const char *case_name = dcsim_arg(a, "case");
  if (case_name && !dcsim_dwarf_has_case(d, case_name)) {
    rc = DCSIM_ERR(
        err, DCSIM_EREF, "command line", dcsim_arg_index(a, "case"),
        "dwarf %s has no case '%s'%s%s%s (see dcsim list)", dcsim_dwarf_name(d), case_name,
        dcsim_dwarf_suggest_case(d, case_name) ? "; did you mean " : "",
        dcsim_dwarf_suggest_case(d, case_name) ? dcsim_dwarf_suggest_case(d, case_name) : "",
        dcsim_dwarf_suggest_case(d, case_name) ? "?" : "");
    goto out;
  }
  if ((rc = dcsim_dwarf_evaluate(d, case_name, b, nb, &ev, err))) goto out;
  rq.ev = ev;
  if ((rc = choose_model(a, d, &use_gpu, err))) goto out;
  if (!use_gpu) {
    if ((rc = cpu_request(a, d, &rq, &cpu, err))) goto out;
  } else if ((rc = gpu_request(a, d, &rq, &gpu, &host, err))) {
    goto out;
  }
  if ((rc = model_repro(d, cpu, gpu, host, &rp, err))) goto out;
  if (!use_gpu && dcsim_arg(a, "nodes-scan")) {
    rc = run_scan(a, &rq, case_name, fmt, &rp, err);
    goto out;
  }
  char why[sizeof err->msg + sizeof err->file + 32];
  int energy_lost = 0;
  if ((rc = run_time_first(&rq, &pred, &energy_lost, why, sizeof why, err))) goto out;
  if (!use_gpu) model_notes(a, &rq, dcsim_dwarf_name(d));
  model_bands mb;
  if ((rc = bands_of(&rq, &pred, use_gpu, &mb, err))) goto out;
  if (fmt == DCSIM_FMT_JSON)
    print_json(&rq, &pred, case_name, energy_lost ? why : NULL, &rp, &mb);
  else if (fmt == DCSIM_FMT_CSV)
    print_csv(&rq, &pred, energy_lost ? why : NULL, &rp, &mb);
  else
    print_text(&rq, &pred, case_name, energy_lost ? why : NULL, &rp, &mb);
out:
  dcsim_repro_release(&rp);
  dcsim_prediction_release(&pred);
  dcsim_dwarf_eval_free(ev);
  dcsim_dwarf_free(d);
  dcsim_cpu_profile_free(cpu);
  dcsim_cpu_profile_free(host);
  dcsim_gpu_profile_free(gpu);
  return rc;
}

/* What `dcsim energy` prints: PKG, DRAM and (node wall power model) the node base power. */
typedef struct energy_out {
  double pkg_j, dram_j, base_j, energy_j, node_w;
  dcsim_prov prov;
  const char *covers;
} energy_out;

/* --d35: §5.3 on the profile's <energy> table (D3.5 §5.3, §5.6). */
static int energy_d35(const dcsim_args *a, const dcsim_dwarf_t *d, const dcsim_cpu_profile_t *cpu,
                      const dcsim_cpu_state *st, unsigned nodes, double t, energy_out *o,
                      dcsim_error *err) {
  dcsim_energy_coeffs ec;
  dcsim_cpu_power pw;
  int rc;
  if ((rc = dcsim_dwarf_energy_coeffs(d, &ec, err))) return rc;
  if ((rc = dcsim_cpu_profile_power(cpu, st, &pw, err))) return rc;
  if ((dcsim_arg_model_flags(a) & DCSIM_MODEL_STRICT) && !dcsim_prov_strict_ok(pw.prov.kind))
    return DCSIM_ERR(err, DCSIM_ERANGE, dcsim_cpu_profile_path(cpu), 0,
                     "--strict: the power of %s at this state rests on %s values (%s)",
                     dcsim_cpu_profile_name(cpu), dcsim_prov_name(pw.prov.kind), pw.prov.source);
  dcsim_cpu_energy e = dcsim_energy_cpu_53(&ec, &pw, t); /* §5.3 */
  o->pkg_j = e.pkg_j * nodes;                            /* §5.6 */
  o->dram_j = e.dram_j * nodes;
  o->energy_j = o->pkg_j + o->dram_j;
  o->prov = pw.prov;
  o->covers = "CPU packages and DRAM of the nodes used (RAPL domains, D3.5 §5)";
  return 0;
}

/* Default: node wall power (dcsim/cpu_power.h); the CPU model gives the bytes the run moves. */
static int energy_wall(const dcsim_args *a, const dcsim_dwarf_t *d, const dcsim_cpu_profile_t *cpu,
                       const dcsim_cpu_state *st, unsigned nodes, double t, energy_out *o,
                       dcsim_error *err) {
  dcsim_dwarf_eval *ev = NULL;
  dcsim_prediction p;
  memset(&p, 0, sizeof p);
  int rc = dcsim_dwarf_evaluate(d, dcsim_arg(a, "case"), NULL, 0, &ev, err);
  if (rc) {
    dcsim_error_prefix(err,
                       "the default model needs the bytes the run moves (give --case, or "
                       "--d35 for D3.5's §5.3 form)");
    return rc;
  }
  dcsim_model_req rq = { .ev = ev,
                         .cpu = cpu,
                         .nodes = nodes,
                         .state = *st,
                         .energy_form = DCSIM_ENERGY_MODE,
                         .flags = dcsim_arg_model_flags(a) };
  if ((rc = dcsim_model_energy_at(&rq, t, &p, err))) {
    dcsim_error_prefix(err,
                       "the default model takes the bytes the run moves from the CPU's "
                       "performance model (or --d35 for D3.5's §5.3 form)");
  } else {
    o->pkg_j = p.pkg_j;
    o->dram_j = p.dram_j;
    o->base_j = p.base_j;
    o->energy_j = p.energy_j;
    o->node_w = p.node_power_w;
    o->prov = p.energy_prov;
    o->covers = p.energy_scope;
  }
  dcsim_prediction_release(&p);
  dcsim_dwarf_eval_free(ev);
  return rc;
}

static void energy_json(int d35, unsigned nodes, unsigned cores, double t, const energy_out *o,
                        const dcsim_repro *rp) {
  dcsim_json j;
  dcsim_json_init(&j, stdout, 1);
  dcsim_json_obj_begin(&j);
  dcsim_json_key_num(&j, "pkg_j", o->pkg_j);
  dcsim_json_key_num(&j, "dram_j", o->dram_j);
  if (!d35) {
    dcsim_json_key_num(&j, "base_j", o->base_j);
    dcsim_json_key_num(&j, "node_power_w", o->node_w);
  }
  dcsim_json_key_num(&j, "energy_j", o->energy_j);
  dcsim_json_key_num(&j, "time_s", t);
  dcsim_json_key_int(&j, "nodes", nodes);
  dcsim_json_key_int(&j, "cores", cores);
  dcsim_json_key_str(&j, "model", d35 ? "d35" : "default");
  dcsim_json_key_str(&j, "energy_covers", o->covers);
  dcsim_json_key(&j, "provenance");
  dcsim_prov_json(&j, o->prov);
  dcsim_repro_json(&j, rp);
  dcsim_json_obj_end(&j);
  dcsim_json_end(&j);
}

/* What `dcsim energy` prints, in the format asked (0 text, 1 JSON, 2 CSV). */
static void energy_print(dcsim_format fmt, int d35, const dcsim_dwarf_t *d,
                         const dcsim_cpu_profile_t *cpu, unsigned nodes, unsigned cores, double t,
                         const energy_out *o, const dcsim_repro *rp) {
  if (fmt == DCSIM_FMT_JSON) {
    energy_json(d35, nodes, cores, t, o, rp);
  } else if (fmt == DCSIM_FMT_CSV) {
    dcsim_repro_csv(stdout, rp);
    puts("pkg_j,dram_j,energy_j,time_s,nodes,cores,base_j,node_power_w,model,provenance,source");
    printf("%.10g,%.10g,%.10g,%.10g,%u,%u,", o->pkg_j, o->dram_j, o->energy_j, t, nodes, cores);
    if (!d35)
      printf("%.10g,%.10g", o->base_j, o->node_w);
    else
      putchar(',');
    printf(",%s,%s,", d35 ? "d35" : "default", dcsim_prov_name(o->prov.kind));
    dcsim__csv_write_cell(stdout, o->prov.source ? o->prov.source : "");
    putchar('\n');
  } else {
    char ep[600];
    dcsim_prov_format(o->prov, ep, sizeof ep);
    printf("%s on %s, %u %s x %u %s, %s s\n", dcsim_dwarf_name(d), dcsim_cpu_profile_name(cpu),
           nodes, dcsim_plural(nodes, "node", "nodes"), cores, dcsim_plural(cores, "core", "cores"),
           DCSIM_SIG(t));
    printf("PKG     %s\nDRAM    %s\n", DCSIM_SI(o->pkg_j, "J"), DCSIM_SI(o->dram_j, "J"));
    if (!d35)
      printf("base    %s (node base power and losses; %s per node)\n", DCSIM_SI(o->base_j, "J"),
             DCSIM_SI(o->node_w, "W"));
    printf("energy  %s  %s\ncovers  %s\n", DCSIM_SI(o->energy_j, "J"), ep, o->covers);
    dcsim_repro_text(stdout, rp);
  }
}

int dcsim_cmd_energy(const dcsim_args *a, dcsim_error *err) {
  static const dcsim_format formats[] = { DCSIM_FMT_TEXT, DCSIM_FMT_JSON, DCSIM_FMT_CSV,
                                          DCSIM_FMT_END };
  dcsim_dwarf_t *d = NULL;
  dcsim_cpu_profile_t *cpu = NULL;
  dcsim_format fmt = DCSIM_FMT_TEXT;
  int rc;
  dcsim_cpu_state st = { 0, NULL, 0 };
  unsigned nodes = 1;
  double t = 0;
  dcsim_repro rp;
  dcsim_repro_init(&rp, NULL);
  energy_out o;
  memset(&o, 0, sizeof o);
  if ((rc = dcsim_arg_format(a, formats, &fmt, err))) goto out;
  if (!dcsim_arg(a, "cpu") || !dcsim_arg(a, "cores") || !dcsim_arg(a, "time")) {
    rc = DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 0,
                   "dcsim energy needs --dwarf, --cpu, --cores and --time");
    goto out;
  }
  if ((rc = dcsim_arg_uint(a, "nodes", 1, &nodes, err))) goto out;
  if ((rc = dcsim_arg_quantity(a, "time", "s", 0, &t, err))) goto out;
  if ((rc = load_dwarf_arg(a, &d, err))) goto out;
  if ((rc = load_cpu_arg(a, "cpu", &cpu, err))) goto out;
  if ((rc = dcsim_arg_cores(a, cpu, &st.threads, err))) goto out;
  if ((rc = dcsim_cpu_profile_freq(cpu, dcsim_arg(a, "freq"), &st, err))) goto out;
  if ((rc = model_repro(d, cpu, NULL, NULL, &rp, err))) goto out;
  const int d35 = (dcsim_arg_model_flags(a) & DCSIM_MODEL_D35) != 0;
  rc = d35 ? energy_d35(a, d, cpu, &st, nodes, t, &o, err)
           : energy_wall(a, d, cpu, &st, nodes, t, &o, err);
  if (!rc) energy_print(fmt, d35, d, cpu, nodes, st.threads, t, &o, &rp);
out:
  dcsim_repro_release(&rp);
  dcsim_dwarf_free(d);
  dcsim_cpu_profile_free(cpu);
  return rc;
}
