/* model_report.c — a model's prediction, a node scan and an energy written as text, JSON, CSV:
 * rows of their records (output/model_records.h) through util/record, the prose by hand. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/band_rule.h"
#include "dcsim/bands.h"
#include "dcsim/json.h"
#include "dcsim/model.h"
#include "dcsim/model_comm.h"
#include "dcsim/model_report.h"
#include "dcsim/numfmt.h"
#include "dcsim/repro.h"
#include "dcsim/strutil.h"
#include "output/internal.h"
#include "output/model_records.h"

void dcsim__json_model_mode(dcsim_json *j, unsigned flags) {
  dcsim_json_key_str(j, "model", flags & DCSIM_MODEL_D35 ? "d35" : "default");
  if (flags & DCSIM_MODEL_HW_THREADS) /* only then: earlier outputs unchanged */
    dcsim_json_key_str(j, "threading", "ideal");
}

/* p as dcsim_prov_format writes it ("[kind: source]"), whole: a malloc'd string the caller frees,
 * NULL when out of memory (the report then says so in its place, prov_or_oom). */
static char *prov_text(dcsim_prov p) {
  size_t size = strlen(dcsim_prov_name(p.kind)) + (p.source ? strlen(p.source) : 0) + 8;
  char *buf = malloc(size); /* "[" kind ": " source "]" and the NUL */
  if (buf) dcsim_prov_format(p, buf, size);
  return buf;
}
static const char *prov_or_oom(const char *t) { return t ? t : "[provenance: out of memory]"; }
/* the state as dcsim_cpu_state_freq_text wrote it, or a visible mark when that ran out of memory */
static const char *freq_or_oom(const char *t) { return t ? t : "[frequency: out of memory]"; }

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
  char *tp = prov_text(ti->prov);
  double law = dcsim_threads_time_bounded(ti->law, n, ti->one_time_s, ti->hw_time_s);
  printf(
      "threads   %u cores: %sx the 1-core time by the measured scaling of %s (sigma %s, "
      "kappa %s, fitted on %s up to %u cores%s",
      n, DCSIM_SIG(law / ti->one_time_s), dcsim_dwarf_name(rq->ev->dwarf),
      DCSIM_SIG(ti->law->sigma), DCSIM_SIG(ti->law->kappa), ti->law->cpu, ti->law->cores_max,
      ti->exact ? "" : ", transferred to this CPU as a function of the thread count");
  if (n > ti->law->cores_max) /* dcsim/model_threads.h: no faster than the law's own curve */
    printf(
        "; beyond %u cores no faster than the law allows (its coherence cost held at %u "
        "cores; the law continued unchanged, %sx, bounds the band)",
        ti->law->cores_max, ti->law->cores_max, DCSIM_SIG(ti->law_time_s / ti->one_time_s));
  printf("); per-loop model alone %sx  %s\n", DCSIM_SIG(ti->hw_time_s / ti->one_time_s),
         prov_or_oom(tp));
  free(tp);
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

/* The reason a borrowed CPU's band is wider (doc/models.md "Per-core rates"): the basis of its
 * per-core rates and the levels resting on it, on the line the band is printed after. */
static void print_rates(const dcsim_model_req *rq) {
  if (!rq->gpu) dcsim__rates_text(stdout, "rates     ", &rq->cpu, 1);
}

int dcsim_model_report_bands(const dcsim_model_req *rq, const dcsim_prediction *p, int gpu,
                             dcsim_model_bands *mb, dcsim_error *err) {
  dcsim_band_basis q = { .cpu = gpu ? DCSIM_BAND_CPU_NONE : dcsim_band_cpu_of(rq->cpu),
                         .gpu = gpu,
                         .time_kind = p->time_prov.kind,
                         .energy_kind = p->energy_prov.kind,
                         .time_s = p->time_s,
                         .energy_j = p->has_energy ? p->energy_j : 0,
                         .cover_s = { p->time_cover_s[0], p->time_cover_s[1] } };
  return dcsim_band_rule_default(&q, mb->time, mb->energy, err);
}

/* The GPU's table (dcsim__kernel_text_record): its kernels, the overhead with its occupancy, the
 * dwarf's total, and over several GPUs the host-device transfer and the halo exchange. */
static void text_kernels(const dcsim_model_req *rq, const dcsim_prediction *p) {
  const dcsim_gpu_result *g = p->gpu;
  dcsim__model_part_row row;
  putchar('\n');
  dcsim__record_text_header(&dcsim__kernel_text_record, stdout);
  for (size_t k = 0; k < g->n_kernels; k++) {
    dcsim__model_kernel_row(&g->parts[k], &row);
    dcsim__record_text_row(&dcsim__kernel_text_record, stdout, &row);
  }
  if (rq->gpu_small_domain || g->overhead_s > 0) {
    dcsim_str note = DCSIM_STR_INIT;
    const char *occ = DCSIM_SIG(g->n_kernels ? g->parts[0].occupancy : 1);
    if (rq->gpu_small_domain)
      dcsim_str_addf(&note, "  (occupancy %s, launches and ramp)", occ);
    else
      dcsim_str_addf(&note, "  (achieved %s of the bulk rate)", occ);
    dcsim__model_part_term(
        "overhead", rq->gpu_small_domain ? "small-domain overhead" : "launch, waves, occupancy",
        g->overhead_s, &row);
    row.note = note.oom ? "  (the note: out of memory)" : dcsim_str_cstr(&note);
    dcsim__record_text_row(&dcsim__kernel_text_record, stdout, &row);
    dcsim_str_release(&note);
  }
  dcsim__model_part_term("total", p->multigpu ? "dwarf (one GPU's part)" : "dwarf", g->time_s,
                         &row);
  row.compute_s = g->compute_s;
  row.transfer_s = g->transfer_s;
  row.inactive_s = g->inactive_s;
  dcsim__record_text_row(&dcsim__kernel_text_record, stdout, &row);
  if (p->multigpu) {
    dcsim__model_part_term("transfer", "host-device transfer", p->multigpu->transfer_s, &row);
    dcsim__record_text_row(&dcsim__kernel_text_record, stdout, &row);
    dcsim__model_part_term("halo", "halo exchange", p->multigpu->halo_s, &row);
    dcsim__record_text_row(&dcsim__kernel_text_record, stdout, &row);
  }
}

/* A loop's (CPU) or kernel's (GPU) row, i-th of the prediction. */
static void part_row(const dcsim_prediction *p, size_t i, dcsim__model_part_row *row) {
  if (p->cpu)
    dcsim__model_loop_row(&p->cpu->parts[i], row);
  else
    dcsim__model_kernel_row(&p->gpu->parts[i], row);
}

void dcsim_model_report_text(const dcsim_model_req *rq, const dcsim_prediction *p,
                             const char *case_name, const char *why, const dcsim_repro *rp,
                             const dcsim_model_bands *mb) {
  const dcsim_dwarf_eval *ev = rq->ev;
  printf("dwarf     %s%s%s\n", dcsim_dwarf_name(ev->dwarf), case_name ? " case " : "",
         case_name ? case_name : "");
  if (p->cpu) {
    char *fs = dcsim_cpu_state_freq_text(&rq->state);
    if (rq->gpu) /* irregular loops on a GPU (dcsim/model_irregular.h) */
      printf("gpu       %s (cache-line model of irregular accesses)\n",
             dcsim_gpu_profile_name(rq->gpu));
    else /* a labelled state prints as "at turbo" */
      printf("cpu       %s, %u %s x %u %s at %s%s\n", dcsim_cpu_profile_name(rq->cpu), rq->nodes,
             dcsim_plural(rq->nodes, "node", "nodes"), rq->state.threads,
             dcsim_plural(rq->state.threads, "core", "cores"), freq_or_oom(fs),
             rq->state.label ? "" : " GHz");
    free(fs);
    putchar('\n');
    dcsim__record_text_header(&dcsim__loop_text_record, stdout);
    for (size_t l = 0; l < p->cpu->n_loops; l++) {
      dcsim__model_part_row row;
      dcsim__model_loop_row(&p->cpu->parts[l], &row);
      dcsim__record_text_row(&dcsim__loop_text_record, stdout, &row);
    }
    /* not a row of the table: its time stands right of the loops' */
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
    text_kernels(rq, p);
  }
  char *tp = prov_text(p->time_prov), *ep = prov_text(p->energy_prov);
  printf("\nmodel     %s%s\n",
         rq->flags & DCSIM_MODEL_D35 ? "D3.5 as published (--d35)" : "default",
         rq->flags & DCSIM_MODEL_HW_THREADS ? ", --threading ideal" : "");
  print_threads(rq, p);
  const char *wt = weights_text(rq, p);
  if (wt) printf("weights   %s\n", wt);
  if (p->turbo_unmeasured) /* doc/models.md "Turbo": the clock under load is not measured */
  {
    dcsim__turbo_text(stdout, "clock     ", rq->cpu, rq->state.threads, NULL, "the band reaches");
    printf(", %s s\n", DCSIM_SIG(p->nominal_time_s));
  }
  if (p->gpu && (rq->flags & DCSIM_MODEL_HW_THREADS) && !(rq->flags & DCSIM_MODEL_D35))
    printf(
        "kernels   the algorithm done well (--threading ideal): D3.5-form kernels with their "
        "active lanes in full warps at the issue width and only the requested bytes moved "
        "(doc/models.md)\n");
  /* a band (three numbers with units) fits 64 bytes (numfmt.h); the energy's parts add up to it
   * as printed */
  dcsim_num_text tb, eb, pt[4];
  dcsim_fmt_band(tb.s, sizeof tb.s, p->time_s, mb->time, NULL);
  print_rates(rq);
  printf("time      %s s  %s\n", tb.s, prov_or_oom(tp));
  if (p->has_energy) {
    if (p->node_power_w > 0 && p->cpu) {
      const double parts[] = { p->pkg_j, p->dram_j, p->base_j };
      dcsim_fmt_band_sum(eb.s, sizeof eb.s, p->energy_j, mb->energy, "J", parts, 3,
                         (char *)(void *)pt, sizeof *pt);
      printf("energy    %s (PKG %s, DRAM %s, node base and losses %s; %s per node, %s idle)  %s\n",
             eb.s, pt[0].s, pt[1].s, pt[2].s, DCSIM_SI(p->node_power_w, "W"),
             DCSIM_SI(p->node_idle_w, "W"), prov_or_oom(ep));
    } else if (p->node_power_w > 0) {
      const double parts[] = { p->gpu_j, p->pkg_j, p->dram_j, p->base_j };
      dcsim_fmt_band_sum(eb.s, sizeof eb.s, p->energy_j, mb->energy, "J", parts, 4,
                         (char *)(void *)pt, sizeof *pt);
      printf(
          "energy    %s (%s %s, host PKG %s, DRAM %s, node base and losses %s; %s, %s idle)  "
          "%s\n",
          eb.s, p->multigpu && p->multigpu->gpus > 1 ? "GPUs" : "GPU", pt[0].s, pt[1].s, pt[2].s,
          pt[3].s, DCSIM_SI(p->node_power_w, "W"), DCSIM_SI(p->node_idle_w, "W"), prov_or_oom(ep));
    } else if (p->cpu) {
      const double parts[] = { p->pkg_j, p->dram_j };
      dcsim_fmt_band_sum(eb.s, sizeof eb.s, p->energy_j, mb->energy, "J", parts, 2,
                         (char *)(void *)pt, sizeof *pt);
      printf("energy    %s (PKG %s, DRAM %s)  %s\n", eb.s, pt[0].s, pt[1].s, prov_or_oom(ep));
    } else {
      const double parts[] = { p->gpu_j, p->pkg_j };
      dcsim_fmt_band_sum(eb.s, sizeof eb.s, p->energy_j, mb->energy, "J", parts, 2,
                         (char *)(void *)pt, sizeof *pt);
      printf("energy    %s (%s %s at S = %s of the power limit%s, host package %s)%s  %s\n", eb.s,
             p->multigpu && p->multigpu->gpus > 1 ? "GPUs" : "GPU", pt[0].s,
             DCSIM_SIG(p->gpu_fraction), p->multigpu && p->multigpu->gpus > 1 ? " each" : "",
             pt[1].s, rq->host_cpu ? "" : " [no --host-cpu: host excluded]", prov_or_oom(ep));
    }
    printf("covers    %s\n", p->energy_scope);
  } else if (why) {
    printf("energy    unavailable: %s (the time above stands; --strict refuses)\n", why);
  } else {
    printf("energy    not computed (--energy-form none)\n");
  }
  free(tp);
  free(ep);
  dcsim_repro_text(stdout, rp);
}

/* "parts": one object per loop (CPU) or kernel (GPU), named and timed first. */
static void json_parts(dcsim_json *j, const dcsim_prediction *p) {
  size_t n = p->cpu ? p->cpu->n_loops : p->gpu->n_kernels;
  dcsim_json_key(j, "parts");
  dcsim_json_arr_begin(j);
  for (size_t i = 0; i < n; i++) {
    dcsim__model_part_row row;
    part_row(p, i, &row);
    dcsim__record_json(&dcsim__model_part_record, j, &row);
  }
  dcsim_json_arr_end(j);
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

/* The prediction's values as a row of its records (output/model_records.h). The row points at
 * *freq, the frequency's allocated text (NULL without a CPU), which the caller frees. */
static void prediction_row(const dcsim_model_req *rq, const dcsim_prediction *p, const char *why,
                           const dcsim_model_bands *mb, dcsim__prediction_row *row, char **freq) {
  dcsim__prediction_row_init(row);
  *freq = NULL;
  row->device = rq->gpu ? "gpu" : "cpu";
  row->time_s = p->time_s;
  row->weights = weights_text(rq, p);
  row->energy_unavailable = why;
  row->time_band[0] = mb->time[0];
  row->time_band[1] = mb->time[1];
  int wall = p->has_energy && p->node_power_w > 0; /* the node wall power model made the energy */
  if (p->has_energy) {
    row->energy_j = p->energy_j;
    row->energy_covers = p->energy_scope;
    row->energy_band[0] = mb->energy[0];
    row->energy_band[1] = mb->energy[1];
  }
  if (wall) { /* dcsim/cpu_power.h */
    row->base_j = p->base_j;
    row->node_power_w = p->node_power_w;
    row->node_idle_w = p->node_idle_w;
  }
  if (p->cpu) {
    if (rq->gpu) { /* irregular loops on a GPU (dcsim/model_irregular.h) */
      row->gpu = dcsim_gpu_profile_name(rq->gpu);
    } else {
      row->cpu = dcsim_cpu_profile_name(rq->cpu);
      row->nodes = rq->nodes;
      row->cores = rq->state.threads;
      row->freq = freq_or_oom(*freq = dcsim_cpu_state_freq_text(&rq->state));
    }
    if (p->has_energy) {
      row->pkg_j = p->pkg_j;
      row->dram_j = p->dram_j;
      row->node_energy_j = p->node_energy_j;
    }
    row->comm_s = p->cpu->node_comm_s[0];
    if (p->turbo_unmeasured) /* the band's other end (doc/models.md "Turbo") */
      row->turbo_unmeasured_nominal_s = p->nominal_time_s;
    return;
  }
  row->gpu = dcsim_gpu_profile_name(rq->gpu);
  row->host_cpu = rq->host_cpu ? dcsim_cpu_profile_name(rq->host_cpu) : NULL;
  row->domain_size = rq->ev->domain_size;
  row->invocations_per_call = rq->ev->invocations;
  if (p->has_energy) {
    row->gpu_j = p->gpu_j;
    row->host_pkg_j = p->pkg_j;
    row->gpu_fraction = p->gpu_fraction;
  }
  if (wall) row->dram_j = p->dram_j;
  row->compute_s = p->gpu->compute_s;
  row->transfer_s = p->gpu->transfer_s;
  row->inactive_s = p->gpu->inactive_s;
  if (rq->gpu_small_domain)
    row->small_domain_overhead_s = p->gpu->overhead_s;
  else if (!(rq->flags & DCSIM_MODEL_D35)) /* the architecture model's launch and waves */
    row->launch_occupancy_s = p->gpu->overhead_s;
  if (p->multigpu) {
    const dcsim_multigpu_result *m = p->multigpu;
    row->gpus = m->gpus;
    row->min_gpus = m->min_gpus;
    row->domain_per_gpu = m->domain_per_gpu;
    row->memory_per_gpu_byte = m->memory_per_gpu_byte;
    row->kernel_s = m->kernel_s;
    row->host_transfer_s = m->transfer_s;
    row->halo_s = m->halo_s;
  }
}

/* The fields of r from the one named first to the one named last into the object open in j. */
static void json_fields(dcsim_json *j, const dcsim__record *r, const void *row, const char *first,
                        const char *last) {
  dcsim__record_json_members(r, j, row, dcsim__record_find(r, first),
                             dcsim__record_find(r, last) + 1);
}

void dcsim_model_report_json(const dcsim_model_req *rq, const dcsim_prediction *p,
                             const char *case_name, const char *why, const dcsim_repro *rp,
                             const dcsim_model_bands *mb) {
  dcsim__prediction_row row;
  char *fs;
  prediction_row(rq, p, why, mb, &row, &fs);
  const dcsim__record *r = &dcsim__prediction_record;
  dcsim_json j;
  json_begin(&j, rq, case_name);
  json_fields(&j, r, &row, "device", "energy_j");
  dcsim__json_model_mode(&j, rq->flags);
  json_fields(&j, r, &row, "weights", "energy_covers");
  dcsim_prov_json_member(&j, p->time_prov, p->has_energy ? &p->energy_prov : NULL);
  json_fields(&j, r, &row, "energy_unavailable", "energy_band");
  if (p->cpu) {
    r = &dcsim__prediction_cpu_record;
    json_fields(&j, r, &row, "gpu", "freq");
    if (!rq->gpu) dcsim__rates_json(&j, rq->cpu);
    json_fields(&j, r, &row, "pkg_j", "comm_s");
    json_threads(&j, rq, p);
    json_fields(&j, r, &row, "turbo_unmeasured_nominal_s", "turbo_unmeasured_nominal_s");
  } else {
    r = &dcsim__prediction_gpu_record;
    dcsim__record_json_members(r, &j, &row, 0, r->n_fields);
  }
  free(fs);
  json_parts(&j, p);
  dcsim_repro_json(&j, rp);
  dcsim_json_obj_end(&j);
  dcsim_json_end(&j);
}

int dcsim_node_scan_bands(const dcsim_model_req *rq, dcsim_node_scan *S, dcsim_error *err) {
  dcsim_bands_t *b = NULL;
  int rc = dcsim_bands_load_default(&b, err);
  if (rc) return rc;
  for (size_t i = 0; i < S->n; i++) {
    const dcsim_band_basis q = { .cpu = dcsim_band_cpu_of(rq->cpu),
                                 .time_kind = S->time_prov.kind,
                                 .energy_kind = S->energy_prov.kind,
                                 .time_s = S->t[i],
                                 .energy_j = S->e[i],
                                 .cover_s = { S->cover[i][0], S->cover[i][1] } };
    dcsim_band_rule(b, &q, S->band[i].time, S->band[i].energy);
  }
  dcsim_bands_free(b);
  return 0;
}

/* The model at each node count of the scan. */
int dcsim_node_scan_models(dcsim_model_req *rq, dcsim_node_scan *S, dcsim_error *err) {
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
    S->turbo_unmeasured |= p.turbo_unmeasured;
    S->nominal_s[i] = p.turbo_unmeasured ? p.nominal_time_s : 0;
    S->time_prov = i ? dcsim_prov_weakest(S->time_prov, p.time_prov) : p.time_prov;
    S->energy_prov = i ? dcsim_prov_weakest(S->energy_prov, p.energy_prov) : p.energy_prov;
    dcsim_prediction_release(&p);
  }
  return 0;
}

void dcsim_node_scan_json(const dcsim_model_req *rq, const dcsim_node_scan *S,
                          const char *case_name, const dcsim_repro *rp) {
  dcsim_json j;
  json_begin(&j, rq, case_name);
  char *fs = dcsim_cpu_state_freq_text(&rq->state);
  const dcsim__scan_summary_row sum = { .cpu = dcsim_cpu_profile_name(rq->cpu),
                                        .cores = rq->state.threads,
                                        .freq = freq_or_oom(fs),
                                        .net_s_per_byte = rq->net_s_per_byte,
                                        .net_latency_s = rq->net_latency_s,
                                        .overlap = S->overlap,
                                        .balance_nodes = S->nodes[S->b.balance],
                                        .balance_reached = S->b.reached,
                                        .time_min_nodes = S->nodes[S->b.time_min],
                                        .energy_min_nodes =
                                            S->has_e ? S->nodes[S->b.energy_min] : 0 };
  const dcsim__record *r = &dcsim__scan_summary_record;
  json_fields(&j, r, &sum, "cpu", "freq");
  dcsim__rates_json(&j, rq->cpu);
  json_fields(&j, r, &sum, "net_s_per_byte", "overlap");
  free(fs);
  dcsim__json_model_mode(&j, rq->flags);
  dcsim_prov_json_member(&j, S->time_prov, S->has_e ? &S->energy_prov : NULL);
  dcsim_json_key(&j, "scan");
  dcsim_json_arr_begin(&j);
  for (size_t i = 0; i < S->n; i++) {
    dcsim__scan_row row;
    dcsim__scan_row_of(S, i, &row);
    dcsim__record_json(&dcsim__scan_record, &j, &row);
  }
  dcsim_json_arr_end(&j);
  json_fields(&j, r, &sum, "balance_nodes", "energy_min_nodes");
  dcsim_repro_json(&j, rp);
  dcsim_json_obj_end(&j);
  dcsim_json_end(&j);
}

void dcsim_node_scan_text(const dcsim_model_req *rq, const dcsim_node_scan *S,
                          const char *case_name, const dcsim_repro *rp) {
  const dcsim_balance *b = &S->b;
  printf("dwarf     %s%s%s\n", dcsim_dwarf_name(rq->ev->dwarf), case_name ? " case " : "",
         case_name ? case_name : "");
  char *fs = dcsim_cpu_state_freq_text(&rq->state);
  printf("cpu       %s, %u %s per node at %s%s\n", dcsim_cpu_profile_name(rq->cpu),
         rq->state.threads, dcsim_plural(rq->state.threads, "core", "cores"), freq_or_oom(fs),
         rq->state.label ? "" : " GHz");
  free(fs);
  if (rq->net_s_per_byte > 0)
    printf("network   %s, latency %s s, overlap %s%s\n", DCSIM_SI(1 / rq->net_s_per_byte, "B/s"),
           DCSIM_SIG(rq->net_latency_s), DCSIM_SIG(S->overlap),
           rq->overlap_set ? "" : " (the dwarf's)");
  else
    printf("network   none given: communication costs nothing (D3.5's perfect overlap)\n");
  print_rates(rq);         /* why the bands below are wider */
  if (S->turbo_unmeasured) /* doc/models.md "Turbo", as print_prediction's clock line */
  {
    dcsim__turbo_text(stdout, "clock     ", rq->cpu, rq->state.threads, NULL, "each band reaches");
    putchar('\n');
  }
  putchar('\n');
  dcsim__record_text_header(&dcsim__scan_record, stdout);
  for (size_t i = 0; i < S->n; i++) {
    dcsim__scan_row row;
    dcsim__scan_row_of(S, i, &row);
    dcsim__record_text_row(&dcsim__scan_record, stdout, &row);
  }
  char *tp = prov_text(S->time_prov), *ep = prov_text(S->energy_prov);
  printf("\nmodel     %s; times %s%s%s\n",
         rq->flags & DCSIM_MODEL_D35 ? "D3.5 as published (--d35)" : "default", prov_or_oom(tp),
         S->has_e ? ", energies " : "", S->has_e ? prov_or_oom(ep) : "");
  free(tp);
  free(ep);
  if (!b->reached)
    printf("\nno balance point in this scan: the time still falls at %u nodes\n",
           S->nodes[S->n - 1]);
  dcsim_repro_text(stdout, rp);
}

/* --format csv: one line per loop or kernel (the JSON "parts"), then the extra terms and the total;
 * cells that do not apply are empty. */
void dcsim_model_report_csv(const dcsim_model_req *rq, const dcsim_prediction *p, const char *why,
                            const dcsim_repro *rp, const dcsim_model_bands *mb) {
  dcsim_repro_csv(stdout, rp);
  if (why) printf("# energy unavailable: %s\n", why);
  const dcsim__record *r = &dcsim__model_part_record;
  dcsim__record_csv_header(r, stdout);
  dcsim__model_part_row row;
  size_t n = p->cpu ? p->cpu->n_loops : p->gpu->n_kernels;
  for (size_t i = 0; i < n; i++) {
    part_row(p, i, &row);
    dcsim__record_csv_row(r, stdout, &row);
  }
  if (p->cpu && p->cpu->node_comm_s[0] > 0) {
    dcsim__model_part_term("communication", "§4.3", p->cpu->node_comm_s[0], &row);
    dcsim__record_csv_row(r, stdout, &row);
  }
  if (!p->cpu && p->gpu->overhead_s > 0) {
    dcsim__model_part_term(
        "overhead",
        rq->gpu_small_domain ? "small-domain launches and ramp" : "launch waves occupancy",
        p->gpu->overhead_s, &row);
    dcsim__record_csv_row(r, stdout, &row);
  }
  if (p->multigpu) {
    dcsim__model_part_term("transfer", "host-device", p->multigpu->transfer_s, &row);
    dcsim__record_csv_row(r, stdout, &row);
    dcsim__model_part_term("halo", "halo exchange", p->multigpu->halo_s, &row);
    dcsim__record_csv_row(r, stdout, &row);
  }
  dcsim__model_part_term("total", dcsim_dwarf_name(rq->ev->dwarf), p->time_s, &row);
  row.time_band[0] = mb->time[0];
  row.time_band[1] = mb->time[1];
  if (p->has_energy) {
    row.energy_j = p->energy_j;
    row.energy_band[0] = mb->energy[0];
    row.energy_band[1] = mb->energy[1];
  }
  dcsim__record_csv_row(r, stdout, &row);
}

/* --nodes-scan --format csv: one line per node count. */
void dcsim_node_scan_csv(const dcsim_node_scan *S, const dcsim_repro *rp) {
  dcsim_repro_csv(stdout, rp);
  dcsim__record_csv_header(&dcsim__scan_record, stdout);
  for (size_t i = 0; i < S->n; i++) {
    dcsim__scan_row row;
    dcsim__scan_row_of(S, i, &row);
    dcsim__record_csv_row(&dcsim__scan_record, stdout, &row);
  }
}

/* `dcsim energy`'s values as a row of its record (output/model_records.h) */
static dcsim__energy_row energy_row(int d35, unsigned nodes, unsigned cores, double t,
                                    const dcsim_energy_report *o) {
  return (dcsim__energy_row){ .pkg_j = o->pkg_j,
                              .dram_j = o->dram_j,
                              .base_j = d35 ? NAN : o->base_j,
                              .node_power_w = d35 ? NAN : o->node_w,
                              .energy_j = o->energy_j,
                              .time_s = t,
                              .nodes = nodes,
                              .cores = cores,
                              .model = d35 ? "d35" : "default",
                              .energy_covers = o->covers,
                              .provenance = dcsim_prov_name(o->prov.kind),
                              .source = o->prov.source };
}

void dcsim_energy_report_json(int d35, unsigned nodes, unsigned cores, double t,
                              const dcsim_energy_report *o, const dcsim_repro *rp) {
  const dcsim__energy_row row = energy_row(d35, nodes, cores, t, o);
  dcsim_json j;
  dcsim_json_init(&j, stdout, 1);
  dcsim_json_obj_begin(&j);
  dcsim__record_json_members(&dcsim__energy_record, &j, &row, 0, dcsim__energy_record.n_fields);
  dcsim_json_key(&j, "provenance");
  dcsim_prov_json(&j, o->prov);
  dcsim_repro_json(&j, rp);
  dcsim_json_obj_end(&j);
  dcsim_json_end(&j);
}

/* `dcsim energy` as CSV: one header line and one row. */
void dcsim_energy_report_csv(int d35, unsigned nodes, unsigned cores, double t,
                             const dcsim_energy_report *o, const dcsim_repro *rp) {
  const dcsim__energy_row row = energy_row(d35, nodes, cores, t, o);
  dcsim_repro_csv(stdout, rp);
  dcsim__record_csv_header(&dcsim__energy_record, stdout);
  dcsim__record_csv_row(&dcsim__energy_record, stdout, &row);
}

/* `dcsim energy` as text. */
void dcsim_energy_report_text(int d35, const dcsim_dwarf_t *d, const dcsim_cpu_profile_t *cpu,
                              unsigned nodes, unsigned cores, double t,
                              const dcsim_energy_report *o, const dcsim_repro *rp) {
  char *ep = prov_text(o->prov);
  printf("%s on %s, %u %s x %u %s, %s s\n", dcsim_dwarf_name(d), dcsim_cpu_profile_name(cpu), nodes,
         dcsim_plural(nodes, "node", "nodes"), cores, dcsim_plural(cores, "core", "cores"),
         DCSIM_SIG(t));
  printf("PKG     %s\nDRAM    %s\n", DCSIM_SI(o->pkg_j, "J"), DCSIM_SI(o->dram_j, "J"));
  if (!d35)
    printf("base    %s (node base power and losses; %s per node)\n", DCSIM_SI(o->base_j, "J"),
           DCSIM_SI(o->node_w, "W"));
  printf("energy  %s  %s\ncovers  %s\n", DCSIM_SI(o->energy_j, "J"), prov_or_oom(ep), o->covers);
  free(ep);
  dcsim_repro_text(stdout, rp);
}
