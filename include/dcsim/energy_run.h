/* dcsim/energy_run.h — the energy of a run of known time, as `dcsim energy` gives it: D3.5's §5.3
 * form on the CPU profile's <energy> table, or the node wall power model (dcsim/cpu_power.h) with
 * the bytes the run moves from the CPU's performance model.
 *
 * Ownership: nothing is allocated; `covers` points to a static text or into the prediction's
 * static scope texts. */
#ifndef DCSIM_ENERGY_RUN_H
#define DCSIM_ENERGY_RUN_H

#include "dcsim/dwarf.h"
#include "dcsim/error.h"
#include "dcsim/hwprofile.h"
#include "dcsim/provenance.h"

/* The energy of a run: PKG, DRAM and (node wall power model) the node base power, in joules; the
 * node power in watts; where the power comes from and what the energy covers. */
typedef struct dcsim_energy_report {
  double pkg_j, dram_j, base_j, energy_j, node_w;
  dcsim_prov prov;
  const char *covers;
} dcsim_energy_report;

/* D3.5 §5.3 on the <energy> table of cpu at state st, times `nodes` (§5.6), for a run of t
 * seconds. o->prov: the provenance of the power values (the caller refuses what --strict does). */
int dcsim_energy_run_d35(const dcsim_dwarf_t *d, const dcsim_cpu_profile_t *cpu,
                         const dcsim_cpu_state *st, unsigned nodes, double t,
                         dcsim_energy_report *o, dcsim_error *err);

/* The node wall power model at state st on `nodes` nodes for a run of t seconds of the evaluated
 * case ev (model_flags: DCSIM_MODEL_* of dcsim/model.h; dcsim_model_energy_at). */
int dcsim_energy_run_wall(const dcsim_dwarf_eval *ev, const dcsim_cpu_profile_t *cpu,
                          const dcsim_cpu_state *st, unsigned nodes, double t, unsigned model_flags,
                          dcsim_energy_report *o, dcsim_error *err);

#endif
