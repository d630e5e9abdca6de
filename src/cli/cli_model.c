/* cli_model.c — `dcsim model` and `dcsim energy`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"
#include "dcsim/cli.h"
#include "dcsim/model.h"
#include "dcsim/model_comm.h"
#include "dcsim/model_fallback.h"
#include "dcsim/model_report.h"
#include "dcsim/numfmt.h"
#include "dcsim/repro.h"
#include "dcsim/strutil.h"
#include "util/xmlio.h"

static int load_dwarf_arg(const dcsim_args *a, dcsim_dwarf_t **d, dcsim_error *err) {
  const char *ref = dcsim_arg(a, "dwarf");
  if (!ref) return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 0, "--dwarf is required");
  char *path = NULL;
  int rc = dcsim_catalog_find(DCSIM_KIND_DWARF, ref, "command line", dcsim_arg_index(a, "dwarf"),
                              &path, err);
  if (!rc) rc = dcsim_dwarf_load(path, d, err);
  free(path);
  return rc;
}

static int load_cpu_arg(const dcsim_args *a, const char *opt, dcsim_cpu_profile_t **p,
                        dcsim_error *err) {
  char *path = NULL;
  int rc = dcsim_catalog_find(DCSIM_KIND_CPU, dcsim_arg(a, opt), "command line",
                              dcsim_arg_index(a, opt), &path, err);
  if (!rc) rc = dcsim_cpu_profile_load(path, p, err);
  free(path);
  return rc;
}

static int load_gpu_arg(const dcsim_args *a, dcsim_gpu_profile_t **p, dcsim_error *err) {
  char *path = NULL;
  int rc = dcsim_catalog_find(DCSIM_KIND_GPU, dcsim_arg(a, "gpu"), "command line",
                              dcsim_arg_index(a, "gpu"), &path, err);
  if (!rc) rc = dcsim_gpu_profile_load(path, p, err);
  free(path);
  return rc;
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

/* --freq min or max that is the nominal clock (a profile with one plain state): said on stderr,
 * not merged silently; the turbo state, when the profile has one, is named. */
static void freq_merged_note(const dcsim_cpu_profile_t *cpu, const char *text,
                             const dcsim_cpu_state *st) {
  if (!text || (strcmp(text, "max") && strcmp(text, "min")) || st->label ||
      st->ghz != dcsim_cpu_profile_nominal_ghz(cpu))
    return;
  double tu = dcsim_cpu_profile_turbo_ghz(cpu);
  fprintf(stderr, "dcsim: note: --freq %s is the nominal %s GHz: %s has one non-turbo state", text,
          DCSIM_SIG(st->ghz), dcsim_cpu_profile_name(cpu));
  if (tu > 0)
    fprintf(stderr, "; its turbo (%s GHz) is --freq turbo\n", DCSIM_SIG(tu));
  else
    fputs(" and no turbo state\n", stderr);
}

/* --nodes-scan "1,2,4": strictly increasing whole numbers (at most 64). */
static int parse_scan(const dcsim_args *a, unsigned *nodes, size_t *n, dcsim_error *err) {
  const char *v = dcsim_arg(a, "nodes-scan");
  int ai = dcsim_arg_index(a, "nodes-scan"), rc = 0;
  char *buf = dcsim_strdup(v), *save = NULL;
  if (!buf) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  *n = 0;
  for (char *tok = strtok_r(buf, ",", &save); tok && !rc; tok = strtok_r(NULL, ",", &save)) {
    unsigned x;
    if (dcsim_parse_uint(tok, 1, 1000000, &x) != 0 || *n == 64 || (*n && x <= nodes[*n - 1]))
      rc = DCSIM_ERR(err, DCSIM_EUSAGE, "command line", ai,
                     "--nodes-scan '%s': expected up to 64 increasing whole numbers from 1 to "
                     "1000000, comma-separated",
                     v);
    else
      nodes[(*n)++] = x;
  }
  free(buf);
  if (rc) return rc;
  if (*n == 0)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", ai, "--nodes-scan '%s': no node count", v);
  return 0;
}

/* `dcsim model --nodes-scan`: the model at each node count, the balance point marked
 * (dcsim_balance_point, D3.5 §6.1.2). */
static int run_scan(const dcsim_args *a, dcsim_model_req *rq, const char *case_name,
                    dcsim_format fmt, const dcsim_repro *rp, dcsim_error *err) {
  dcsim_node_scan S;
  int rc;
  memset(&S, 0, sizeof S);
  if ((rc = parse_scan(a, S.nodes, &S.n, err)) || (rc = dcsim_node_scan_models(rq, &S, err)) ||
      (rc = dcsim_node_scan_bands(rq, &S, err)))
    return rc;
  S.has_e = rq->energy_form != DCSIM_ENERGY_NONE;
  if ((rc = dcsim_balance_point(S.nodes, S.t, S.has_e ? S.e : NULL, S.n, &S.b, err))) return rc;
  S.overlap = rq->overlap_set ? rq->overlap : rq->ev->comm_overlap;
  if (fmt == DCSIM_FMT_JSON)
    dcsim_node_scan_json(rq, &S, case_name, rp);
  else if (fmt == DCSIM_FMT_CSV)
    dcsim_node_scan_csv(&S, rp);
  else
    dcsim_node_scan_text(rq, &S, case_name, rp);
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

/* What makes `dcsim model` differ from the same task in `dcsim run` or `sweep`,
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
  char *why = NULL; /* why the energy is unavailable, when only the time is kept */
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
  /* the time is kept when only the energy fails (dcsim/model_fallback.h) */
  if ((rc = dcsim_model_run_time_first(&rq, &pred, &why, err))) goto out;
  if (!use_gpu) model_notes(a, &rq, dcsim_dwarf_name(d));
  dcsim_model_bands mb;
  if ((rc = dcsim_model_report_bands(&rq, &pred, use_gpu, &mb, err))) goto out;
  if (fmt == DCSIM_FMT_JSON)
    dcsim_model_report_json(&rq, &pred, case_name, why, &rp, &mb);
  else if (fmt == DCSIM_FMT_CSV)
    dcsim_model_report_csv(&rq, &pred, why, &rp, &mb);
  else
    dcsim_model_report_text(&rq, &pred, case_name, why, &rp, &mb);
out:
  free(why);
  dcsim_repro_release(&rp);
  dcsim_prediction_release(&pred);
  dcsim_dwarf_eval_free(ev);
  dcsim_dwarf_free(d);
  dcsim_cpu_profile_free(cpu);
  dcsim_cpu_profile_free(host);
  dcsim_gpu_profile_free(gpu);
  return rc;
}

/* --d35: §5.3 on the profile's <energy> table (D3.5 §5.3, §5.6), refused by --strict when its
 * power values are not measured or published ones. */
static int energy_d35(const dcsim_args *a, const dcsim_dwarf_t *d, const dcsim_cpu_profile_t *cpu,
                      const dcsim_cpu_state *st, unsigned nodes, double t, dcsim_energy_report *o,
                      dcsim_error *err) {
  int rc = dcsim_energy_run_d35(d, cpu, st, nodes, t, o, err);
  if (!rc && (dcsim_arg_model_flags(a) & DCSIM_MODEL_STRICT) && !dcsim_prov_strict_ok(o->prov.kind))
    rc = DCSIM_ERR(err, DCSIM_ERANGE, dcsim_cpu_profile_path(cpu), 0,
                   "--strict: the power of %s at this state rests on %s values (%s)",
                   dcsim_cpu_profile_name(cpu), dcsim_prov_name(o->prov.kind), o->prov.source);
  return rc;
}

/* Default: node wall power (dcsim/cpu_power.h); the CPU model gives the bytes the run moves. */
static int energy_wall(const dcsim_args *a, const dcsim_dwarf_t *d, const dcsim_cpu_profile_t *cpu,
                       const dcsim_cpu_state *st, unsigned nodes, double t, dcsim_energy_report *o,
                       dcsim_error *err) {
  dcsim_dwarf_eval *ev = NULL;
  int rc = dcsim_dwarf_evaluate(d, dcsim_arg(a, "case"), NULL, 0, &ev, err);
  if (rc)
    dcsim_error_prefix(err,
                       "the default model needs the bytes the run moves (give --case, or "
                       "--d35 for D3.5's §5.3 form)");
  else if ((rc = dcsim_energy_run_wall(ev, cpu, st, nodes, t, dcsim_arg_model_flags(a), o, err)))
    dcsim_error_prefix(err,
                       "the default model takes the bytes the run moves from the CPU's "
                       "performance model (or --d35 for D3.5's §5.3 form)");
  dcsim_dwarf_eval_free(ev);
  return rc;
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
  dcsim_energy_report o;
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
  if (rc) goto out;
  if (fmt == DCSIM_FMT_JSON)
    dcsim_energy_report_json(d35, nodes, st.threads, t, &o, &rp);
  else if (fmt == DCSIM_FMT_CSV)
    dcsim_energy_report_csv(d35, nodes, st.threads, t, &o, &rp);
  else
    dcsim_energy_report_text(d35, d, cpu, nodes, st.threads, t, &o, &rp);
out:
  dcsim_repro_release(&rp);
  dcsim_dwarf_free(d);
  dcsim_cpu_profile_free(cpu);
  return rc;
}
