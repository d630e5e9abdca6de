/* dcsim/hwprofile.h — CPU and GPU hardware profiles (the files in hw-profiles/cpu and
 * hw-profiles/gpu).
 *
 * A CPU profile holds the benchmark tables of D3.5 §4.3 — peak performance P(f,n) and bandwidths
 * L1/L2/L3/DRAM(f,n) over frequency states f and thread counts n — and the RAPL power table of
 * §5.2 (PKG and DRAM power per active core count, plus idle). Lookups between measured states are
 * bilinear (linear in GHz between unlabelled frequency columns, linear in threads between rows);
 * a labelled state (turbo) is only matched by its label; a state outside a table is an error here.
 * The profile may also hold datasheet figures and a fitted parametric model (<datasheet>,
 * <perf-model>) that dcsim/cpu_rates.h evaluates outside the tables.
 *
 * Ownership: *_load() returns a heap object freed by the matching NULL-safe *_free(). Strings and
 * spec pointers returned by accessors are borrowed from the profile. Profiles are immutable after
 * loading and safe to share between threads. */
#ifndef DCSIM_HWPROFILE_H
#define DCSIM_HWPROFILE_H

#include <stddef.h>

#include "dcsim/error.h"
#include "dcsim/gpuarch.h"
#include "dcsim/provenance.h"

typedef struct dcsim_cpu_profile dcsim_cpu_profile_t;
typedef struct dcsim_gpu_profile dcsim_gpu_profile_t;

/* A CPU operating state: frequency in GHz (ignored when label is set) and active threads. */
typedef struct dcsim_cpu_state {
  double ghz;
  const char *label; /* e.g. "turbo"; NULL for a numeric frequency */
  unsigned threads;
} dcsim_cpu_state;

typedef struct dcsim_cpu_rates {
  double flops; /* P(f,n), flop/s */
  double l1_bps, l2_bps, l3_bps, dram_bps;
  /* A profile may omit the L1, L2 and L3 tables (a machine known only by its peak figures, such
   * as the roofline papers' Xeon and Xeon Phi): the rate is then 0 and the flag 0, and a model
   * that needs that level reports an error. The flops and DRAM tables are always required. */
  int has_l1, has_l2, has_l3;
  dcsim_prov prov; /* the weakest of the lookups, with its table's source (dcsim/provenance.h) */
  /* each quantity's own (indexed by dcsim_cpu_qty; absent levels keep kind table and ""): a
   * loop's time rests only on the rates it is bound by (dcsim/model_cpu.h) */
  dcsim_prov qprov[5];
} dcsim_cpu_rates;

typedef struct dcsim_cpu_power {
  double pkg_w, dram_w;           /* E_pkg(f,n), E_dram(f,n): power under full load, W */
  double pkg_idle_w, dram_idle_w; /* E_pkg(f,idle), E_dram(f,idle) */
  dcsim_prov prov; /* table, interpolated, or extrapolated (other-frequencies="same" elsewhere) */
} dcsim_cpu_power;

/* The cache capacities of <spec> (doc/calibration.md, "Level of a run"): L1 and L2 per core, L3
 * per socket; 0 when the profile does not give the size. With the node's shape, for the cache
 * rule (dcsim/cache_rule.h). */
typedef struct dcsim_cpu_caches {
  unsigned cores_per_socket, sockets;
  double l1_byte, l2_byte, l3_byte;
  int scatter; /* thread placement of the <perf-model> (0: compact, also without one) */
} dcsim_cpu_caches;

int dcsim_cpu_profile_load(const char *path, dcsim_cpu_profile_t **out, dcsim_error *err);
void dcsim_cpu_profile_free(dcsim_cpu_profile_t *p);
const char *dcsim_cpu_profile_name(const dcsim_cpu_profile_t *p);
const char *dcsim_cpu_profile_model(const dcsim_cpu_profile_t *p);
const char *dcsim_cpu_profile_path(const dcsim_cpu_profile_t *p);
unsigned dcsim_cpu_profile_cores_per_socket(const dcsim_cpu_profile_t *p);
unsigned dcsim_cpu_profile_sockets(const dcsim_cpu_profile_t *p);
/* Borrowed from the profile. */
const dcsim_cpu_caches *dcsim_cpu_profile_caches(const dcsim_cpu_profile_t *p);
double dcsim_cpu_profile_nominal_ghz(const dcsim_cpu_profile_t *p);
int dcsim_cpu_profile_has_energy(const dcsim_cpu_profile_t *p);
/* Largest thread count of the performance tables (0 if there are none). */
unsigned dcsim_cpu_profile_max_threads(const dcsim_cpu_profile_t *p);

/* Parses a frequency into state->ghz/label: a number of GHz ("2.6", "2.6GHz"), a name resolved
 * for this CPU — "nominal" (the <spec> nominal clock), "min" (the lowest plain state), "max" (the
 * highest plain state, turbo excluded), "turbo" (the state labelled turbo) — or another state
 * label; NULL or "" = nominal. Names resolve to plain GHz (label NULL) except turbo and other
 * labels. A GHz value need not be a state of the tables (the model covers it, cpu_rates.h).
 * The label pointer stored in the state is borrowed from the profile. */
int dcsim_cpu_profile_freq(const dcsim_cpu_profile_t *p, const char *text, dcsim_cpu_state *state,
                           dcsim_error *err);
/* A state's frequency as text ("2.6" or "turbo"): a malloc'd string the caller frees (a label of
 * any length); NULL when out of memory. */
char *dcsim_cpu_state_freq_text(const dcsim_cpu_state *s);

/* The lowest and highest plain (unlabelled) frequency states, nominal included; the turbo state's
 * GHz (0 when the profile has none). */
double dcsim_cpu_profile_min_ghz(const dcsim_cpu_profile_t *p);
double dcsim_cpu_profile_max_ghz(const dcsim_cpu_profile_t *p);
double dcsim_cpu_profile_turbo_ghz(const dcsim_cpu_profile_t *p);

/* ---- the measured tables one by one, and the parametric model beneath them ----
 * (the choice between the two is dcsim/cpu_rates.h's, in the model layer) */
typedef enum dcsim_cpu_qty {
  DCSIM_CPU_FLOPS = 0,
  DCSIM_CPU_L1,
  DCSIM_CPU_L2,
  DCSIM_CPU_L3,
  DCSIM_CPU_DRAM
} dcsim_cpu_qty;
#define DCSIM_CPU_NQTY 5
/* "flops", "L1", "L2", "L3", "DRAM" */
const char *dcsim_cpu_qty_name(dcsim_cpu_qty q);
/* The quantity named NAME (as dcsim_cpu_qty_name spells it), or -1 when NAME is none (or NULL). */
int dcsim_cpu_qty_parse(const char *name);

/* What one table covers: its thread rows, its plain frequency columns (lowest, highest), how many
 * columns, and whether it has a labelled turbo column. */
typedef struct dcsim_cpu_table_info {
  int present;
  unsigned min_threads, max_threads;
  size_t n_rows, n_cols;
  double min_ghz, max_ghz; /* of the plain columns; 0 when it has none */
  int has_turbo;
  int line;
  const char *source;
} dcsim_cpu_table_info;
void dcsim_cpu_profile_table_info(const dcsim_cpu_profile_t *p, dcsim_cpu_qty q,
                                  dcsim_cpu_table_info *out);
/* One table at a state: the cell (table), bilinear between cells (interpolated), or
 * DCSIM_ERANGE "state outside table"; DCSIM_EREF when the profile has no such table. */
int dcsim_cpu_profile_lookup(const dcsim_cpu_profile_t *p, dcsim_cpu_qty q,
                             const dcsim_cpu_state *s, double *out, dcsim_prov *prov,
                             dcsim_error *err);
/* The state inside table q nearest to s (threads clamped to its rows, a plain frequency clamped
 * to its columns; a label kept when the table has that column, else its GHz clamped):
 * where the model's extrapolation is anchored. DCSIM_EREF without a usable column. */
int dcsim_cpu_profile_anchor(const dcsim_cpu_profile_t *p, dcsim_cpu_qty q,
                             const dcsim_cpu_state *s, dcsim_cpu_state *anchor, dcsim_error *err);

/* Whose measurement a per-core rate rests on (<measured basis>, doc/models.md "Per-core rates"),
 * weakest last: this CPU's own; a close variant's (the same die and memory system, another core
 * count or clock: the Xeon Platinum 8470 for the 8480+); a sibling's (another part or generation:
 * a Zen 2 EPYC 7452 for a Zen 3 or Zen 4 core); none (an estimate: the reference CPU's per-cycle
 * rates carried by the datasheet). */
typedef enum dcsim_rates_basis {
  DCSIM_RATES_OWN = 0,
  DCSIM_RATES_VARIANT = 1,
  DCSIM_RATES_SIBLING = 2,
  DCSIM_RATES_ESTIMATE = 3
} dcsim_rates_basis;
/* "own", "variant", "sibling", "estimate". */
const char *dcsim_rates_basis_name(dcsim_rates_basis b);

/* <datasheet><measured>: a published bandwidth of one level (0 / NULL when absent). */
typedef struct dcsim_cpu_measured_bw {
  double one_core_bps; /* one core */
  double ghz;          /* the clock it was measured at */
  double socket_bps;   /* one socket with socket_cores active (0: not given) */
  unsigned socket_cores;
  dcsim_rates_basis basis; /* whose measurement it is (attribute basis, required) */
  const char *source;
} dcsim_cpu_measured_bw;

/* <datasheet>: the figures the parametric model is derived from (0 when absent). */
typedef struct dcsim_cpu_datasheet {
  double isa_flop_per_cycle; /* DP flop per cycle and core of the ISA (FMA counted as 2) */
  const char *isa_source;
  double mem_peak_bps, mem_sustained_bps; /* one socket; sustained 0 = not measured */
  const char *mem_source;
  dcsim_cpu_measured_bw measured[5]; /* by dcsim_cpu_qty; [0] (flops) unused */
} dcsim_cpu_datasheet;
const dcsim_cpu_datasheet *dcsim_cpu_profile_datasheet(const dcsim_cpu_profile_t *p);
/* What the CPU's per-core rates rest on: DCSIM_RATES_OWN for a profile with its own measured
 * tables; else the weakest basis of its <datasheet><measured> figures, DCSIM_RATES_ESTIMATE when
 * it has none (the reference's per-cycle rates). levels (may be NULL): the bit 1 << q of each
 * level (dcsim_cpu_qty) that rests on that weakest basis, every memory level for an estimate. */
dcsim_rates_basis dcsim_cpu_profile_rates_basis(const dcsim_cpu_profile_t *p, unsigned *levels);

/* One quantity of <perf-model> (doc/models.md, "Parametric CPU model"): with f in GHz and n_s
 * active cores on a socket, rate of one core r(f) = per_cycle * f_nom * (f/f_nom)^freq_exp * 1e9
 * and, for a level that saturates, the socket's B = (x^-k + S(f)^-k)^(-1/k) with x = n_s * r(f),
 * S(f) = sat_bps * (f/f_nom)^sat_freq_exp, k = knee; else B = x. The node sums its sockets. */
typedef struct dcsim_cpu_perf_level {
  int present;
  double per_cycle, freq_exp;
  int saturates;
  double sat_bps, sat_freq_exp, knee;
  const char *source; /* "fitted: ..." or "spec: ..." */
  int line;
} dcsim_cpu_perf_level;

typedef struct dcsim_cpu_turbo_bin {
  unsigned cores; /* up to this many active cores of a socket ... */
  double ghz;     /* ... the turbo clock is this */
} dcsim_cpu_turbo_bin;

#define DCSIM_CPU_MAX_TURBO_BINS 32
typedef struct dcsim_cpu_perf_model {
  int scatter; /* placement: 0 compact (fill one socket first), 1 scatter (spread evenly) */
  dcsim_cpu_perf_level q[DCSIM_CPU_NQTY];
  size_t n_turbo;
  dcsim_cpu_turbo_bin turbo[DCSIM_CPU_MAX_TURBO_BINS]; /* ascending cores */
  const char *source;
  int line;
} dcsim_cpu_perf_model;
/* The profile's <perf-model>; NULL when it has none. */
const dcsim_cpu_perf_model *dcsim_cpu_profile_perf_model(const dcsim_cpu_profile_t *p);

/* One level of the cache-line model of irregular accesses (finite-volume paper Table 1, Eq. 4-6):
 * above_byte is the capacity of the level above it (whose misses reach this level), line_byte its
 * line size. CPU: the bandwidth is the profile's table of the same name (L1, L2, L3, DRAM), and
 * above_shared says that the cache above is shared by the threads of a socket (FV §8: the L3's
 * capacity is divided among the cores that use it). GPU: bw_bps is the level's bandwidth. */
typedef struct dcsim_cache_level {
  const char *name;
  double above_byte, line_byte;
  int above_shared; /* CPU: <level above-shared="socket"> */
  double bw_bps;    /* GPU: the level's bandwidth; CPU: 0 (the table of the level's name) */
  int line;         /* line of the <level> element, for errors */
} dcsim_cache_level;

/* The <cache-hierarchy> levels in file order; *n = 0 (and NULL) if the profile has none. */
const dcsim_cache_level *dcsim_cpu_profile_cache_levels(const dcsim_cpu_profile_t *p, size_t *n);
const dcsim_cache_level *dcsim_gpu_profile_cache_levels(const dcsim_gpu_profile_t *p, size_t *n);
/* Bandwidth of the link between the sockets (<socket-link>, FV §8: QPI), 0 if not given. */
double dcsim_cpu_profile_socket_link_bps(const dcsim_cpu_profile_t *p);

/* A roofline ceiling (<ceilings>, Williams et al., CACM 2009): the performance without an
 * optimisation, in-core (value in flop/s) or of the memory system (B/s). */
#define DCSIM_MAX_CEILINGS 8
typedef struct dcsim_profile_ceiling {
  int memory;    /* 0: in-core (compute), 1: memory */
  char name[64]; /* "mul/add imbalance", "w/out SW prefetch", ... */
  double value;  /* flop/s (compute) or B/s (memory) */
} dcsim_profile_ceiling;

/* The <ceilings> in file order; *n = 0 (and NULL) if the profile has none. */
const dcsim_profile_ceiling *dcsim_cpu_profile_ceilings(const dcsim_cpu_profile_t *p, size_t *n);

/* The rates of the tables only (D3.5's model, `--d35`): a state outside a table is an error.
 * The default model is dcsim_cpu_rates_at() of dcsim/cpu_rates.h. */
int dcsim_cpu_profile_rates(const dcsim_cpu_profile_t *p, const dcsim_cpu_state *s,
                            dcsim_cpu_rates *out, dcsim_error *err);
/* Power at a state from the profile's <energy> tables (one per measured frequency): the table of
 * the state's frequency; else, for a plain frequency between two tables, linear interpolation in
 * GHz between the nearest two (like the performance tables); else the nearest table when it says
 * other-frequencies="same" (an explicit assumption that power does not depend on frequency);
 * else "state outside table". Core counts between rows are interpolated linearly. */
int dcsim_cpu_profile_power(const dcsim_cpu_profile_t *p, const dcsim_cpu_state *s,
                            dcsim_cpu_power *out, dcsim_error *err);

/* The frequency states of the profile in document order (<frequencies>): i < n_freqs. The label
 * pointer stored in *s is borrowed from the profile. DCSIM_ERANGE for i out of range. */
size_t dcsim_cpu_profile_n_freqs(const dcsim_cpu_profile_t *p);
int dcsim_cpu_profile_freq_at(const dcsim_cpu_profile_t *p, size_t i, dcsim_cpu_state *s);

/* Largest core count of the energy table used at state s (its measured full load of one socket);
 * between two tables the smaller of theirs. 0 without an energy table. */
unsigned dcsim_cpu_profile_energy_max_cores(const dcsim_cpu_profile_t *p, const dcsim_cpu_state *s);

/* A GPU: its architecture and <device> (the default model), the characteristics of D3.5 Table 10
 * (`--d35`; derived from the device when the profile has no <characteristics>), the Fermi G_e
 * adjustment (§3.4), memory, links and power. */
typedef struct dcsim_gpu_spec {
  dcsim_gpu_arch arch;      /* <device arch> */
  unsigned dev_sm;          /* <device sm> */
  double dev_clock_hz;      /* <device clock-hz> */
  double dev_memory_bw_bps; /* <device memory-bw-bps> */
  int has_characteristics;  /* 1: Table 10 values of the profile; 0: derived from <device> */
  double peer_link_bps;     /* <peer-link>: GPU-GPU bandwidth per direction; 0 if none */
  char peer_link_kind[24];  /* "NVLink3", ... ("" if none) */
  double active_idle_w;     /* <power active-idle-w>: P0 with no kernel; 0 if unknown */
  double clock_hz, memory_clock_hz, memory_bus_bit;
  unsigned sm;
  double dp_per_clock_sm, sp_per_clock_sm, int_per_clock_sm;
  double peak_dp_flops, peak_sp_flops, peak_int_ops, memory_bw_bps;
  int has_ge_adjust;
  double ge_threshold, ge_below, ge_at_or_above;
  double memory_byte;   /* 0 if unknown */
  double host_link_bps; /* <host-link>: host-device bandwidth of one GPU; 0 if unknown */
  int has_small_domain; /* <small-domain>: fitted small-domain correction (model_gpu.h) */
  double launch_s;      /* fixed overhead per kernel invocation */
  double saturation_threads_per_sm; /* threads per SM at which the GPU is fully used */
  double power_limit_w, idle_w;
  /* <launch>: the GPU's own launch cost (measured by tools/gpu-bench or cited); without it the
   * default model uses the dwarf's fitted per-launch term (doc/models.md "Launch and latency") */
  int has_launch;
  double launch_sync_s;  /* one launch followed by a device synchronisation, wall seconds */
  double launch_async_s; /* back-to-back launches, seconds each (0 if not given) */
  /* <launch borrowed-from="GPU">: no figure of this GPU's own nor a published one, the nearest
   * architecture's measured one: the time's provenance is then spec (the widest band)
   * and its source says whose figure it is */
  int launch_borrowed;
  /* <power-model>: board power by activity (doc/models.md "GPU power by activity"), watts above
   * the active idle at full use of each resource: P = P_ctx + busy*busy_w + u64*fp64_w +
   * u32*fp32_w + uint*int_w + udram*dram_w + ul2*l2_w + uissue*issue_w + uscatter*scatter_w
   * (the last two 0 when the profile's fit had no phase exercising them) */
  int has_power_model;
  double pm_busy_w, pm_fp64_w, pm_fp32_w, pm_int_w, pm_dram_w, pm_l2_w, pm_issue_w, pm_scatter_w;
} dcsim_gpu_spec;

int dcsim_gpu_profile_load(const char *path, dcsim_gpu_profile_t **out, dcsim_error *err);
void dcsim_gpu_profile_free(dcsim_gpu_profile_t *p);
const char *dcsim_gpu_profile_name(const dcsim_gpu_profile_t *p);

/* A profile's list price (<price usd date source>, doc/sweep.md "Cost"): the price of
 * one unit (a CPU package, a GPU board) in US dollars, when and where it was published. known = 0
 * when the profile has none (no price is invented). Strings borrowed from the profile. */
/* The plausible power of one figure of a profile or a calibration table: at most 10^6 W,
 * 10^3 x the 1 kW of a node's two CPU packages at the highest TDP (500 W: AMD EPYC 9965, Intel
 * Xeon 6980P) or of a GPU board (B200: 1000 W). With it (and the bounds of counts and times) the
 * energy of a run stays far from overflowing; dcsim_run_stats_check() still refuses one that does.
 */
#define DCSIM_POWER_MAX_W 1e6

/* The plausible unit price: 0.01 USD to 10^8 USD, beyond 10^-3 x the cheapest and 10^3 x
 * the dearest CPU package or GPU board (tens of dollars to about 40 000 USD for an H100 board); a
 * price outside is refused, in a profile and in --price. */
#define DCSIM_PRICE_MIN_USD 0.01
#define DCSIM_PRICE_MAX_USD 1e8

typedef struct dcsim_hw_price {
  int known;
  double usd;
  const char *date, *source;
} dcsim_hw_price;
dcsim_hw_price dcsim_cpu_profile_price(const dcsim_cpu_profile_t *p);
dcsim_hw_price dcsim_gpu_profile_price(const dcsim_gpu_profile_t *p);
const char *dcsim_gpu_profile_model(const dcsim_gpu_profile_t *p);
const char *dcsim_gpu_profile_path(const dcsim_gpu_profile_t *p);
const dcsim_gpu_spec *dcsim_gpu_profile_spec(const dcsim_gpu_profile_t *p);
/* The source of its <characteristics> (dcsim/provenance.h); of <device> without them. */
const char *dcsim_gpu_profile_source(const dcsim_gpu_profile_t *p);
/* The source of its <device> (the default model's inputs). */
const char *dcsim_gpu_profile_device_source(const dcsim_gpu_profile_t *p);
/* <launch borrowed-from>: the GPU whose launch figure this profile borrows ("" when its own or
 * published; dcsim_gpu_spec launch_borrowed). */
const char *dcsim_gpu_profile_launch_borrowed_from(const dcsim_gpu_profile_t *p);
/* The sources of its <launch> and <power-model> ("" without them). */
const char *dcsim_gpu_profile_launch_source(const dcsim_gpu_profile_t *p);
const char *dcsim_gpu_profile_power_model_source(const dcsim_gpu_profile_t *p);

#endif
