/* dcsim/model.h — one call that predicts time and energy of one dwarf run on given resources,
 * composing model_cpu / model_gpu with the energy models. Used by `dcsim model` and the engine,
 * so a task's duration and energy are never recomputed ad hoc.
 *
 * Ownership: dcsim_model_run() fills a caller-owned dcsim_prediction whose result pointers are
 * released by dcsim_prediction_release(). */
#ifndef DCSIM_MODEL_H
#define DCSIM_MODEL_H

#include "dcsim/cpu_power.h"
#include "dcsim/dwarf.h"
#include "dcsim/energy.h"
#include "dcsim/hwprofile.h"
#include "dcsim/model_cpu.h"
#include "dcsim/model_gpu.h"
#include "dcsim/model_multigpu.h"
#include "dcsim/model_threads.h"

typedef enum {
  DCSIM_ENERGY_NONE = 0, /* time only */
  DCSIM_ENERGY_MODE = 1, /* the mode's own: node wall power (dcsim/cpu_power.h) by default, the
                            §5.3 coefficient form under DCSIM_MODEL_D35 */
  DCSIM_ENERGY_53 = 53,  /* §5.3 coefficient form on the <energy> table, in either mode */
  DCSIM_ENERGY_52 = 52   /* §5.2 form with E_const on the <energy> table, in either mode */
} dcsim_energy_form;

/* Model modes (doc/models.md, "Model modes"), or-ed into dcsim_model_req.flags:
 *   DCSIM_MODEL_D35     D3.5's published models exactly (`--d35`): table-only CPU states, the
 *                       energy tables and coefficients of the paper, the GPU model as published.
 *                       Without it the default is the best model dcsim has.
 *   DCSIM_MODEL_STRICT  refuse any prediction whose time or energy rests on extrapolated or
 *                       datasheet-only values (`--strict`, dcsim/provenance.h).
 *   DCSIM_MODEL_HW_THREADS  the per-loop model's own thread scaling, without the dwarf's measured
 *                       <thread-scaling>: `--threading ideal`, the same algorithm threaded well
 *                       (what `dcsim calibrate scaling` fits against); --d35 implies it. Without
 *                       it (`--threading measured`, the default) the dwarf's measured law
 *                       applies (dcsim/model_threads.h). */
enum { DCSIM_MODEL_D35 = 1u << 0, DCSIM_MODEL_STRICT = 1u << 1, DCSIM_MODEL_HW_THREADS = 1u << 2 };

/* With `gpu` set the GPU model runs (the dwarf needs <kernels>), otherwise the CPU model. */
typedef struct dcsim_model_req {
  const dcsim_dwarf_eval *ev;
  /* CPU dwarfs: n identical nodes at one state (the paper's homogeneous split) */
  const dcsim_cpu_profile_t *cpu;
  unsigned nodes;
  dcsim_cpu_state state; /* threads = cores used per node */
  double net_s_per_byte;
  double net_latency_s; /* Hockney alpha of the network (dcsim/model_comm.h); 0 = D3.5 §4.3 */
  int overlap_set;      /* 1: `overlap` replaces the dwarf's communication overlap fraction */
  double overlap;
  /* GPU dwarfs */
  const dcsim_gpu_profile_t *gpu;
  const dcsim_cpu_profile_t *host_cpu; /* may be NULL: then E excludes the host package */
  int gpu_small_domain;   /* 1: the fitted small-domain correction (dcsim/model_gpu.h) */
  int gpu_power_activity; /* 1: board power by activity even where D3.5 measured S (Table 36) */
  unsigned gpus;          /* >= 1: the domain split over that many GPUs of one node with host-device
                             transfer and halo (dcsim/model_multigpu.h); 0: one GPU, which the default model
                             takes as the split at 1 for a dwarf with <multi-gpu> (one model per GPU count)
                             and --d35 as D3.5's single-GPU model without host transfer */
  dcsim_energy_form energy_form;
  unsigned flags; /* DCSIM_MODEL_* */
  /* default power model (dcsim/cpu_power.h): CPU sockets of a node (0 = the profile's) and the
   * node base power (NULL = the CPU or host profile's <power-model><node>) */
  unsigned sockets;
  const dcsim_node_base *node_base;
} dcsim_model_req;

/* How a CPU prediction scaled with the cores of a node (dcsim/model_threads.h). */
typedef struct dcsim_thread_info {
  const dcsim_thread_scaling *law; /* the dwarf's measured law used; NULL: the per-loop model's
                                      own scaling (one core, --d35, or no measurements) */
  int exact;                       /* the law was fitted on this CPU */
  double hw_time_s;                /* a node's computation on n cores by the per-loop model alone */
  double one_time_s;               /* the same on one core (0 when no law was applied) */
  double law_time_s; /* the time by the law continued unchanged beyond cores_max (its coherence
                        cost growing); equal to the prediction's time up to cores_max */
  dcsim_prov prov;   /* of the law (only with law) */
} dcsim_thread_info;

typedef struct dcsim_prediction {
  double time_s;
  int has_energy;
  double energy_j, pkg_j, dram_j, gpu_j;
  double node_energy_j; /* energy of one node (CPU, homogeneous) */
  double base_j;        /* node wall power model: node base power and conversion losses */
  double node_power_w;  /* node wall power model: one node while the run lasts (0 otherwise) */
  double node_idle_w;   /* node wall power model: the same node on and idle */
  double host_idle_w;   /* GPU: host package idle power used (0 without host) */
  double gpu_fraction;  /* GPU: S of §5.5 */
  dcsim_cpu_result *cpu;
  dcsim_gpu_result *gpu;           /* with a split: one GPU's part of the split domain */
  dcsim_multigpu_result *multigpu; /* with a split, NULL without (its `gpu` moved to the above) */
  /* where the numbers come from (dcsim/provenance.h): the weakest input of each */
  dcsim_prov time_prov, energy_prov;
  const char *energy_scope;  /* what the energy covers, one phrase (static text) */
  dcsim_thread_info threads; /* CPU: measured thread scaling or not */
  /* a range of times the time's band must reach besides its class band (dcsim/bands.h,
   * dcsim_bands_cover): beyond a thread law's measured cores, [time, the law continued]
   * (doc/models.md "Thread scaling"); under a turbo clock not measured at this core count
   * (turbo_unmeasured), also the time at the nominal clock; {0, 0}: none */
  double time_cover_s[2];
  /* CPU under its turbo state on more than one core whose turbo clock is the vendor's maximum
   * boost, not a clock measured at that many active cores (no <turbo> bins, no turbo column):
   * the time at the nominal clock, nominal_time_s, bounds the band (doc/models.md "Turbo") */
  int turbo_unmeasured;
  double nominal_time_s;
} dcsim_prediction;

/* The prediction; with DCSIM_MODEL_STRICT, DCSIM_ERANGE when its time or energy is not table or
 * interpolated (naming the source). */
int dcsim_model_run(const dcsim_model_req *req, dcsim_prediction *out, dcsim_error *err);
void dcsim_prediction_release(dcsim_prediction *p);
/* The energy of a CPU run whose time was measured (`dcsim energy`): the model gives the bytes the
 * dwarf moves (DRAM traffic = bytes / time_s), the energy form of the request the power. time_s of
 * the prediction stays the model's. */
int dcsim_model_energy_at(const dcsim_model_req *req, double time_s, dcsim_prediction *out,
                          dcsim_error *err);

#endif
