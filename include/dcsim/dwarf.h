/* dcsim/dwarf.h — dwarfs (the files in dwarfs/): parameters, cases, CPU loops or GPU kernels,
 * energy coefficients. A dwarf is evaluated for one set of parameter values into a
 * dcsim_dwarf_eval: plain numbers (W, Q per loop; characteristics per kernel) that the models
 * consume.
 *
 * Ownership: dcsim_dwarf_load() returns a heap object freed by dcsim_dwarf_free();
 * dcsim_dwarf_evaluate() returns a heap object freed by dcsim_dwarf_eval_free(), which borrows
 * names from the dwarf (free the eval first). Dwarfs are immutable after loading. */
#ifndef DCSIM_DWARF_H
#define DCSIM_DWARF_H

#include <stddef.h>

#include "dcsim/error.h"
#include "dcsim/hwprofile.h"

typedef struct dcsim_dwarf dcsim_dwarf_t;

typedef enum { DCSIM_DWARF_CPU = 0, DCSIM_DWARF_GPU = 1 } dcsim_dwarf_device;

/* A parameter value given by the user (--set) or a workflow (<set>); file/line say where. */
typedef struct dcsim_binding {
  const char *name;
  double value;
  const char *file; /* "command line" for --set */
  int line;         /* argument index or XML line */
} dcsim_binding;

/* One CPU loop evaluated for a parameter set (D3.5 §4.3). */
typedef struct dcsim_cpu_loop {
  const char *name;
  double work_flop, traffic_byte; /* W, Q for the whole dwarf (all nodes) */
  double V, X, Y, Z;              /* Tmop = 1/(L1*V + L2*X + L3*Y + DRAM*Z) */
  int has_flop;
  double U, S_flops; /* Tflop = 1/(P*U + S) */
  /* <irregular> instead of <mop> (finite-volume paper Eq. 4-6): traffic is computed per level of
   * the CPU profile's cache hierarchy from these totals; traffic_byte is then 0 and V..Z unused */
  int irregular;
  double word_byte, regular_word, irregular_word, working_set_word, hit_word;
  double footprint_byte; /* bytes of one pass over the data (0: not given), FV §8 */
  double exchange_word;  /* words crossing the socket link when threads span sockets (0: none) */
} dcsim_cpu_loop;

/* One GPU kernel's characteristics (D3.5 Table 8), fractions in 0..1. */
typedef struct dcsim_gpu_kernel {
  const char *name;
  double P_inactive, P_misc, P_cfl, G_e, G_r_byte, i_int, i_sp, i_dp, I_e, IPC_e;
  /* activity per point for the power model and the latency floor (doc/models.md "GPU power by
   * activity", "Launch and latency"); has_activity: other/dram/l2 given (else 0) */
  int has_activity;
  double other_inst; /* thread instructions neither FP64 nor FP32 */
  double dram_byte, l2_byte;
  double chain_inst; /* dependent instructions of the longest thread; 0 = not given */
  int roofline;      /* time-form="roofline": bulk = max(issue, FP64, FP32, DRAM) */
} dcsim_gpu_kernel;

/* <kernels><launch>: the default GPU model's launch and occupancy parameters (dcsim/model_gpu.h).
 */
typedef struct dcsim_gpu_launch {
  int present, fitted; /* fitted: its source says "fitted" (provenance extrapolated elsewhere) */
  unsigned threads_per_block;
  int has_launch_s; /* launch-s given: the application's per-launch term, used on GPUs whose
                     * profile has no <launch> of its own */
  double launch_s, inflight_byte_per_thread;
  const char *fitted_on; /* GPU profile name, "" if not said (borrowed from the dwarf) */
  const char *source;    /* borrowed */
} dcsim_gpu_launch;

/* Communication patterns of a dwarf (<communication><pattern>), evaluated for one node count;
 * costs in dcsim/model_comm.h. Byte formulas may use NODES, the number of nodes. */
typedef enum {
  DCSIM_COMM_EXCHANGE = 0, /* D3.5 §4.3: byte = Q_in + Q_out per iteration */
  DCSIM_COMM_HALO,         /* point-to-point: `messages` messages of `byte` bytes per iteration */
  DCSIM_COMM_ALLTOALL,     /* personalised all-to-all (transposition): byte = the node's data */
  DCSIM_COMM_ALLREDUCE     /* allreduce of a `byte`-byte vector */
} dcsim_comm_kind;

typedef struct dcsim_comm_pattern {
  dcsim_comm_kind kind;
  double byte, messages, iterations; /* per node; messages only for exchange and halo */
} dcsim_comm_pattern;

#define DCSIM_COMM_MAX_PATTERNS 16

typedef struct dcsim_dwarf_eval {
  const dcsim_dwarf_t *dwarf;
  dcsim_dwarf_device device; /* the dwarf's default device */
  size_t n_loops;
  dcsim_cpu_loop *loops;
  size_t n_kernels;
  const dcsim_gpu_kernel *kernels;
  double domain_size;   /* N of D3.5 Table 7 (GPU) */
  unsigned invocations; /* kernel invocations per call (GPU) */
  /* flop per FP64 thread instruction (GPU work W, doc/models.md "Work counts"): 1 + the FMA share;
   * 2 when the dwarf does not say (every instruction an FMA, Table 11's convention) */
  double dp_flop_per_inst;
  dcsim_gpu_launch launch; /* present = 0: no launch or occupancy terms */
  const char *measured_on; /* <kernels measured-on>: GPU names, space-separated ("" if none) */
  int has_multi_gpu;       /* <multi-gpu>: memory and traffic for splitting the domain */
  double gpu_memory_byte_per_point, gpu_transfer_byte_per_point;
  int has_comm;                                        /* §4.3 communication term declared */
  double comm_in_byte, comm_out_byte, comm_iterations; /* per node (the §4.3 attributes) */
  double comm_overlap; /* fraction of the communication time computation can hide (0..1) */
  /* <communication max-nodes>: the most nodes the domain splits over (finer is no longer a
   * decomposition of its grid), 0 when the dwarf gives none; its source (borrowed) */
  double comm_max_nodes;
  const char *comm_max_nodes_source;
  /* <loops><working-set> (the cache rule, dcsim/cache_rule.h): the bytes the dwarf's data occupies
   * for these values (all nodes together), the CPU profile the <mop> weights were measured on and
   * its caches (borrowed from the dwarf). has_working_set 0: the weights are used as they are on
   * every CPU. */
  int has_working_set;
  double working_set_byte;
  const char *weights_cpu, *working_set_source;
  const dcsim_cpu_caches *weights_caches;
  double *values; /* the parameter values used, in dcsim_dwarf_param() order (owned) */
} dcsim_dwarf_eval;

int dcsim_dwarf_load(const char *path, dcsim_dwarf_t **out, dcsim_error *err);
void dcsim_dwarf_free(dcsim_dwarf_t *d);

const char *dcsim_dwarf_name(const dcsim_dwarf_t *d);
const char *dcsim_dwarf_path(const dcsim_dwarf_t *d);
dcsim_dwarf_device dcsim_dwarf_device_of(const dcsim_dwarf_t *d);
size_t dcsim_dwarf_n_params(const dcsim_dwarf_t *d);
const char *dcsim_dwarf_param(const dcsim_dwarf_t *d, size_t i);
size_t dcsim_dwarf_n_cases(const dcsim_dwarf_t *d);
const char *dcsim_dwarf_case(const dcsim_dwarf_t *d, size_t i);
/* The case closest to a mistyped `name` ("did you mean"), or NULL (dcsim_suggest). */
const char *dcsim_dwarf_suggest_case(const dcsim_dwarf_t *d, const char *name);
int dcsim_dwarf_has_case(const dcsim_dwarf_t *d, const char *case_name);
/* A dwarf has a CPU model (<loops>), a GPU model (<kernels>) or both; `device` is its default. */
int dcsim_dwarf_has_cpu_model(const dcsim_dwarf_t *d);
int dcsim_dwarf_has_gpu_model(const dcsim_dwarf_t *d);
/* Value a case gives a parameter; DCSIM_EREF if the case or parameter is unknown or unset. */
int dcsim_dwarf_case_value(const dcsim_dwarf_t *d, const char *case_name, const char *param,
                           double *out, dcsim_error *err);

/* Evaluates the dwarf: parameter values come from case_name (may be NULL) then the bindings,
 * in order (later wins). The case's <override>s (W, Q derived for the case's own values) apply
 * only if the bindings leave every value the case sets unchanged; otherwise the loops' formulas
 * do. Unknown case or parameter name, a parameter left without value, or a formula that is not
 * finite/negative -> error naming the input. */
int dcsim_dwarf_evaluate(const dcsim_dwarf_t *d, const char *case_name, const dcsim_binding *b,
                         size_t n_b, dcsim_dwarf_eval **out, dcsim_error *err);
void dcsim_dwarf_eval_free(dcsim_dwarf_eval *e);

/* The dwarf's communication on `nodes` nodes: the §4.3 attributes of <communication> as one
 * exchange pattern, then its <pattern>s, formulas evaluated with the eval's parameter values and
 * NODES = nodes. *n = 0 if the dwarf declares no communication. */
int dcsim_dwarf_comm(const dcsim_dwarf_eval *ev, unsigned nodes,
                     dcsim_comm_pattern out[DCSIM_COMM_MAX_PATTERNS], size_t *n, dcsim_error *err);

/* Bytes each of `gpus` GPUs exchanges with its neighbours per call (<multi-gpu halo-byte>,
 * GPUS = gpus); 0 without <multi-gpu>. */
int dcsim_dwarf_gpu_halo(const dcsim_dwarf_eval *ev, unsigned gpus, double *halo_byte,
                         dcsim_error *err);

/* §5.3 energy coefficients; DCSIM_EREF if the dwarf declares none. */
typedef struct dcsim_energy_coeffs {
  double pkg_U, pkg_S, dram_X, dram_Y;
} dcsim_energy_coeffs;
int dcsim_dwarf_energy_coeffs(const dcsim_dwarf_t *d, dcsim_energy_coeffs *out, dcsim_error *err);
/* <power-activity> (doc/models.md, "Power model"): the package power a dwarf draws, as fractions
 * of the full-load (mprime, D3.5 §5.2) power above idle: first_core of the first active core's
 * step (awake + one core), extra_core of each further core's. Fitted by `dcsim calibrate energy`
 * from measured package power (D3.5 Tables 33, 42). source is borrowed from the dwarf. */
typedef struct dcsim_power_activity {
  double first_core, extra_core;
  const char *source;
} dcsim_power_activity;
/* 1 and *out filled when the dwarf declares one, else 0 (*out untouched). */
int dcsim_dwarf_power_activity(const dcsim_dwarf_t *d, dcsim_power_activity *out);
/* §5.5 fraction S of the GPU's power limit; DCSIM_EREF if none for that GPU profile name. */
int dcsim_dwarf_gpu_fraction(const dcsim_dwarf_t *d, const char *gpu_name, double *out,
                             dcsim_error *err);
/* 1 when that GPU's <gpu-energy> fraction is measured (its source is not "assumption: ..."). */
int dcsim_dwarf_gpu_fraction_measured(const dcsim_dwarf_t *d, const char *gpu_name);
/* <gpu-power activity>: the dwarf's dynamic power per unit of busy time, as a fraction of
 * (limit - active idle) (doc/models.md "GPU power"); DCSIM_EREF if absent. */
int dcsim_dwarf_gpu_activity(const dcsim_dwarf_t *d, double *activity, const char **source,
                             dcsim_error *err);

/* Measured thread scaling of the dwarf on one CPU profile (<thread-scaling>, written by `dcsim
 * calibrate scaling`; law in dcsim/scaling.h, doc/models.md "Thread scaling"). Strings are
 * borrowed from the dwarf. */
typedef struct dcsim_thread_scaling {
  const char *cpu;    /* name of the CPU profile the law was fitted on */
  double sigma;       /* serial fraction (USL contention), 0..1 */
  double kappa;       /* coherence cost per extra thread (USL), >= 0 */
  unsigned cores_max; /* the largest thread count measured */
  const char *source;
} dcsim_thread_scaling;

/* The law for the CPU profile named cpu: the one fitted on it (*exact = 1), else the dwarf's first
 * (document order) fitted on another CPU (*exact = 0); NULL when the dwarf has none (ideal
 * scaling). */
const dcsim_thread_scaling *dcsim_dwarf_thread_scaling(const dcsim_dwarf_t *d, const char *cpu,
                                                       int *exact);

#endif
