/* dcsim/cpu_power.h — the default power model of a CPU node (doc/models.md, "Power model"):
 * packages, DRAM and node wall power from the profile's <power-model> (dcsim/hwprofile_power.h).
 *
 * Per socket s with k_s active cores at frequency f (the threads placed on the sockets as the
 * profile's <perf-model placement> says, compact without one: dcsim_cpu_split_threads; at the
 * turbo state each socket at the turbo clock of its k_s active cores, dcsim_cpu_turbo_ghz, as
 * the performance model runs them):
 *   full load   F(k) = min(TDP, idle + awake + k * core(f))                 (mprime, D3.5 §5.2)
 *               core(f) = core_w * v(f)^2 * f/f_nom,  v(f) = 1 + kappa (f/f_nom - 1)
 *               (dynamic power C V^2 f with V linear in f; kappa = 0.5 makes it locally f^2 at
 *               f_nom, the quadratic assumption of Hager et al. 2014 quoted in D3.5 §5.1)
 *               where the profile's own energy table measured (f, k), F(k) is that table's value
 *               (measured cells stay exact, interpolated between its rows, never capped)
 *   a dwarf     P_s = idle + a1 (F(1) - idle) + aN (F(k) - F(1))    on the first active socket,
 *               P_s = idle + a1 (F(1) - idle - core(f)) + aN (F(k) - F(1) + core(f)) on the others
 *               (a1, aN: the dwarf's <power-activity>, dcsim/dwarf.h; 1, 1 = full load), at most
 *               the TDP where F comes from the model; an idle socket draws idle.
 *   DRAM        sockets * dram_idle + j_per_byte * (DRAM bytes per second of the node)
 *   node wall   base + (1 + load_overhead) * (packages + DRAM + other DC loads such as GPU boards)
 *
 * Pure functions of a profile and plain numbers; nothing is kept. */
#ifndef DCSIM_CPU_POWER_H
#define DCSIM_CPU_POWER_H

#include "dcsim/dwarf.h"
#include "dcsim/hwprofile.h"
#include "dcsim/hwprofile_power.h"

/* Node base power: the platform's <node-power> or the CPU profile's <power-model><node>. */
typedef struct dcsim_node_base {
  double base_w, load_overhead;
} dcsim_node_base;

/* What a node is doing. threads = 0: on and idle. */
typedef struct dcsim_node_load {
  double ghz;               /* frequency of the active cores */
  unsigned threads;         /* active cores of the node */
  dcsim_power_activity act; /* {1, 1, NULL}: full load */
  double dram_bps;          /* DRAM traffic of the node, bytes per second */
  double other_dc_w;        /* other loads behind the power supply (GPU boards), W */
  int turbo;                /* at the turbo state: each socket at its turbo clock (0: ghz) */
} dcsim_node_load;

typedef struct dcsim_node_power {
  double pkg_w;    /* every package of the node */
  double dram_w;   /* every socket's DRAM */
  double dc_w;     /* pkg_w + dram_w + other_dc_w */
  double wall_w;   /* base + (1 + load_overhead) * dc_w */
  int capped;      /* a package's modelled power was limited to its TDP */
  dcsim_prov prov; /* of the package power: table / interpolated (own energy table) or the
                      power model's basis (extrapolated for fitted, spec for datasheet) */
} dcsim_node_power;

/* DCSIM_EREF naming the profile when it has no <power-model>. */
int dcsim_cpu_power_check(const dcsim_cpu_profile_t *cpu, dcsim_error *err);

/* core(f) above: one active core's full-load power at ghz, W (no cap). */
double dcsim_cpu_core_w(const dcsim_cpu_power_model *m, double nominal_ghz, double ghz);

/* F(k) above for one socket, with its provenance. */
int dcsim_cpu_socket_full_w(const dcsim_cpu_profile_t *cpu, double ghz, unsigned k, double *w,
                            dcsim_prov *prov, int *capped, dcsim_error *err);

/* The node's power under `load` with `sockets` sockets (0 = the profile's); base NULL = the
 * profile's default. DCSIM_ERANGE when the threads do not fit the sockets. */
int dcsim_cpu_node_power(const dcsim_cpu_profile_t *cpu, unsigned sockets,
                         const dcsim_node_base *base, const dcsim_node_load *load,
                         dcsim_node_power *out, dcsim_error *err);

/* The profile's default node base power (its <power-model><node>). */
dcsim_node_base dcsim_cpu_node_base(const dcsim_cpu_profile_t *cpu);

#endif
