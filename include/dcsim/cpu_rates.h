/* dcsim/cpu_rates.h — the CPU's peak and bandwidths at any state: measured tables where they
 * cover the state, the parametric model of the profile's <perf-model> elsewhere (doc/models.md,
 * "Parametric CPU model").
 *
 * Per quantity (peak, L1, L2, L3, DRAM):
 *   - a state the table covers: the cell (provenance table) or bilinear between cells
 *     (interpolated), exactly as dcsim_cpu_profile_rates();
 *   - outside the table: the model anchored on the nearest covered state a,
 *     value = table(a) * model(s) / model(a), so the measured cells stay exact and the model
 *     supplies only the shape beyond them (extrapolated, with the model's source);
 *   - a quantity without a table: the model alone (spec when its source is a datasheet, else
 *     extrapolated);
 *   - with table_only (`--d35`) or without a model for the quantity: dcsim_cpu_profile_rates()'s
 *     behaviour, "state outside table" and missing tables are errors as in D3.5.
 *
 * The model of one socket with n_s active cores at f GHz (dcsim/hwprofile.h, dcsim_cpu_perf_level)
 *   x = n_s * per_cycle * f_nom * (f/f_nom)^freq_exp * 1e9
 *   B = (x^-k + S(f)^-k)^(-1/k), S(f) = sat_bps * (f/f_nom)^sat_freq_exp   (shared levels)
 *   B = x                                                                 (private levels, peak)
 * summed over the sockets the threads occupy (placement compact: fill one socket, then the next;
 * scatter: spread evenly). At the turbo state each socket runs at the turbo clock of its number of
 * active cores (the profile's <turbo> bins; without bins the turbo state's GHz).
 *
 * Ownership: nothing is allocated; provenance sources are borrowed from the profile. */
#ifndef DCSIM_CPU_RATES_H
#define DCSIM_CPU_RATES_H

#include "dcsim/error.h"
#include "dcsim/hwprofile.h"

/* Threads per socket: n threads on `sockets` sockets of `cores_per_socket` cores. */
void dcsim_cpu_split_threads(unsigned n, unsigned cores_per_socket, unsigned sockets, int scatter,
                             unsigned *per_socket);

/* The rate of one socket with n_s active cores at f GHz for one <perf-model> level. */
double dcsim_cpu_level_socket(const dcsim_cpu_perf_level *lv, double nominal_ghz, double ghz,
                              unsigned n_s);

/* What the model needs of a node besides its <perf-model>. */
typedef struct dcsim_cpu_shape {
  unsigned cores_per_socket, sockets;
  double nominal_ghz;
  double turbo_ghz; /* the turbo state's GHz, used without <turbo> bins; 0 = none */
} dcsim_cpu_shape;

/* The turbo clock of a socket with n_s active cores: the bin covering n_s (the last bin beyond
 * them), else the shape's turbo GHz (0 when neither). */
double dcsim_cpu_turbo_ghz(const dcsim_cpu_perf_model *pm, const dcsim_cpu_shape *sh, unsigned n_s);

/* The model's quantity q for `threads` threads (1..the node's cores) at `ghz`, or at the turbo
 * clock with turbo set; 0 when turbo has no clock. The level must be present. */
double dcsim_cpu_model_eval(const dcsim_cpu_perf_model *pm, const dcsim_cpu_shape *sh,
                            dcsim_cpu_qty q, double ghz, int turbo, unsigned threads);

/* The parametric model alone: quantity q of the node at state s. DCSIM_EREF when the profile has
 * no model for q, DCSIM_ERANGE for a state it cannot hold (0 threads, more than the node's cores,
 * turbo without a turbo clock). */
int dcsim_cpu_model_value(const dcsim_cpu_profile_t *p, dcsim_cpu_qty q, const dcsim_cpu_state *s,
                          double *out, dcsim_error *err);

/* Quantity q at state s: table, interpolated, anchored model or model alone (see above). */
int dcsim_cpu_rate_at(const dcsim_cpu_profile_t *p, dcsim_cpu_qty q, const dcsim_cpu_state *s,
                      int table_only, double *out, dcsim_prov *prov, dcsim_error *err);

/* The highest clock the CPU is known to run at: its turbo state, else its highest plain state. */
double dcsim_cpu_highest_ghz(const dcsim_cpu_profile_t *p);

/* Every rate at state s, as dcsim_cpu_profile_rates() fills them; prov the weakest of them. A
 * plain frequency beyond dcsim_cpu_highest_ghz() is DCSIM_ERANGE (no part runs faster than its
 * highest clock); lower ones are modelled. */
int dcsim_cpu_rates_at(const dcsim_cpu_profile_t *p, const dcsim_cpu_state *s, int table_only,
                       dcsim_cpu_rates *out, dcsim_error *err);

#endif
