/* energy_run.c — the energy of a run of known time (dcsim/energy_run.h). */
#include "dcsim/energy_run.h"

#include <string.h>

#include "dcsim/energy.h"
#include "dcsim/model.h"

int dcsim_energy_run_d35(const dcsim_dwarf_t *d, const dcsim_cpu_profile_t *cpu,
                         const dcsim_cpu_state *st, unsigned nodes, double t,
                         dcsim_energy_report *o, dcsim_error *err) {
  dcsim_energy_coeffs ec;
  dcsim_cpu_power pw;
  int rc;
  if ((rc = dcsim_dwarf_energy_coeffs(d, &ec, err))) return rc;
  if ((rc = dcsim_cpu_profile_power(cpu, st, &pw, err))) return rc;
  dcsim_cpu_energy e = dcsim_energy_cpu_53(&ec, &pw, t); /* D3.5 §5.3 */
  o->pkg_j = e.pkg_j * nodes;                            /* D3.5 §5.6: every node alike */
  o->dram_j = e.dram_j * nodes;
  o->energy_j = o->pkg_j + o->dram_j;
  o->prov = pw.prov;
  o->covers = "CPU packages and DRAM of the nodes used (RAPL domains, D3.5 §5)";
  return 0;
}

int dcsim_energy_run_wall(const dcsim_dwarf_eval *ev, const dcsim_cpu_profile_t *cpu,
                          const dcsim_cpu_state *st, unsigned nodes, double t, unsigned model_flags,
                          dcsim_energy_report *o, dcsim_error *err) {
  dcsim_prediction p;
  memset(&p, 0, sizeof p);
  dcsim_model_req rq = { .ev = ev,
                         .cpu = cpu,
                         .nodes = nodes,
                         .state = *st,
                         .energy_form = DCSIM_ENERGY_MODE,
                         .flags = model_flags };
  int rc = dcsim_model_energy_at(&rq, t, &p, err);
  if (!rc) {
    o->pkg_j = p.pkg_j;
    o->dram_j = p.dram_j;
    o->base_j = p.base_j;
    o->energy_j = p.energy_j;
    o->node_w = p.node_power_w;
    o->prov = p.energy_prov;
    o->covers = p.energy_scope;
  }
  dcsim_prediction_release(&p);
  return rc;
}
