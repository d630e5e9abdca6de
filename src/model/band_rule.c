/* band_rule.c — the one band rule of every prediction (see dcsim/band_rule.h). */
#include "dcsim/band_rule.h"

dcsim_band_cpu dcsim_band_cpu_of(const dcsim_cpu_profile_t *cpu) {
  return (dcsim_band_cpu)(DCSIM_BAND_CPU_OWN + dcsim_bands_cpu_transferred(cpu));
}

void dcsim_band_basis_add_cpu(dcsim_band_basis *q, dcsim_band_cpu c) {
  if (c > q->cpu) q->cpu = c;
}

void dcsim_band_basis_cover_factor(dcsim_band_basis *q, double factor) {
  q->cover_s[0] = factor > 1 ? q->time_s : 0;
  q->cover_s[1] = factor > 1 ? q->time_s * factor : 0;
}

void dcsim_band_rule(const dcsim_bands_t *b, const dcsim_band_basis *q, double time_band[2],
                     double energy_band[2]) {
  /* the class bands of the devices that ran (doc/models.md "Uncertainty bands"), then the range a
   * thread law's continuation reaches (doc/models.md) */
  dcsim_bands_apply(b, (int)q->cpu, q->gpu, q->time_kind, q->energy_kind, q->time_s, q->energy_j,
                    time_band, energy_band);
  dcsim_bands_cover(q->time_s, q->cover_s, time_band, energy_band);
}

int dcsim_band_rule_default(const dcsim_band_basis *q, double time_band[2], double energy_band[2],
                            dcsim_error *err) {
  dcsim_bands_t *b = NULL;
  int rc = dcsim_bands_load_default(&b, err);
  if (rc) return rc;
  dcsim_band_rule(b, q, time_band, energy_band);
  dcsim_bands_free(b);
  return 0;
}
