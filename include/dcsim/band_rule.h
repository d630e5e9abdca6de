/* dcsim/band_rule.h — the one band rule: which band a predicted time and energy get.
 * dcsim run (output/run_report.c), dcsim model and its node scan (output/model_report.c)
 * and dcsim sweep and pareto (sweep/sweep_bands.c) each describe what they predicted as a
 * dcsim_band_basis and call dcsim_band_rule; none of them picks a class or a device itself.
 *
 * The rule (doc/models.md "Uncertainty bands"): the time takes the band of each device that ran
 * some of it at its provenance class (dcsim_bands_apply: the union), a CPU whose rates were carried
 * from another CPU taking the cpu-time spec band (dcsim_bands_cpu_transferred); the energy takes
 * that time band times the power band at its class; then both reach the range a thread law's
 * continuation or an unmeasured turbo state covers (dcsim_bands_cover).
 *
 * Ownership: the basis is a plain value; the rule writes into the caller's arrays. */
#ifndef DCSIM_BAND_RULE_H
#define DCSIM_BAND_RULE_H

#include "dcsim/bands.h"
#include "dcsim/error.h"
#include "dcsim/hwprofile.h"
#include "dcsim/provenance.h"

/* The CPU class of a basis: no CPU work, work on a CPU with its own tables, work on a CPU whose
 * rates were carried from another (its time takes the cpu-time spec band). */
typedef enum dcsim_band_cpu {
  DCSIM_BAND_CPU_NONE = 0,
  DCSIM_BAND_CPU_OWN = 1,
  DCSIM_BAND_CPU_TRANSFERRED = 2,
  /* transferred, and its per-core rates are a sibling's or an estimate, not its own nor a close
   * variant's (dcsim_cpu_profile_rates_basis): the cpu-time spec band twice (dcsim_bands_apply) */
  DCSIM_BAND_CPU_BORROWED = 3
} dcsim_band_cpu;

/* What a prediction's bands depend on. time_s and energy_j: the values banded (1 and 1 give the
 * bands as factors); cover_s: the range the time band must reach ({0, 0}: none). */
typedef struct dcsim_band_basis {
  dcsim_band_cpu cpu;
  int gpu; /* 1: a GPU ran some of it */
  dcsim_prov_kind time_kind, energy_kind;
  double time_s, energy_j;
  double cover_s[2];
} dcsim_band_basis;

/* The CPU class of work on cpu: its own tables, transferred, or transferred on borrowed per-core
 * rates (1 + dcsim_bands_cpu_transferred). */
dcsim_band_cpu dcsim_band_cpu_of(const dcsim_cpu_profile_t *cpu);
/* Adds CPU work of class c to the basis: the widest class of the CPUs that ran wins. */
void dcsim_band_basis_add_cpu(dcsim_band_basis *q, dcsim_band_cpu c);
/* Sets the cover from a factor of the time (dcsim_option.time_cover, a sweep point's time_cover):
 * the range [time_s, time_s x factor] when factor > 1, else none. */
void dcsim_band_basis_cover_factor(dcsim_band_basis *q, double factor);

/* The rule: time_band and energy_band (NULL: no energy) in s and J. */
void dcsim_band_rule(const dcsim_bands_t *b, const dcsim_band_basis *q, double time_band[2],
                     double energy_band[2]);
/* The same with calibration/bands.csv (dcsim_bands_load_default). */
int dcsim_band_rule_default(const dcsim_band_basis *q, double time_band[2], double energy_band[2],
                            dcsim_error *err);

#endif
