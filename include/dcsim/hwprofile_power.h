/* dcsim/hwprofile_power.h — the power figures of a CPU profile (doc/models.md, "Power model"):
 * the datasheet's <power-spec> and the parameters of the <power-model>, read and checked when the
 * profile is loaded (dcsim/hwprofile.h). The model itself is dcsim/cpu_power.h.
 *
 *   <power-spec tdp-w="145" source="..."/>                    datasheet, per socket
 *   <power-model basis="fitted|spec" source="...">
 *     <package idle-w awake-w [core-w] voltage-slope source/>  per socket
 *     <dram idle-w j-per-byte source/>                         idle per socket, energy per byte
 *     <node base-w load-overhead source/>                      default node base power
 *   </power-model>
 *
 * Without core-w the per-core power comes from the datasheet: a package at its TDP runs every core
 * at the nominal frequency under full load, so core-w = (TDP - idle-w - awake-w) / cores (needs a
 * <power-spec>). Errors (TDP below the idle package, a missing TDP, negative figures) name the file
 * and the line of the element.
 *
 * Ownership: the structure lives inside its profile (dcsim_cpu_profile_power_model()); its strings
 * are owned by it and live as long as the profile. */
#ifndef DCSIM_HWPROFILE_POWER_H
#define DCSIM_HWPROFILE_POWER_H

#include "dcsim/hwprofile.h"
#include "dcsim/provenance.h"

typedef struct dcsim_cpu_power_model {
  int has_spec; /* <power-spec> given */
  double tdp_w; /* per socket */
  char *spec_source;
  int has_model;             /* <power-model> given: the fields below are set */
  dcsim_prov_kind basis;     /* DCSIM_PROV_EXTRAPOLATED (fitted) or DCSIM_PROV_SPEC */
  char *source;              /* <power-model source> */
  double pkg_idle_w;         /* one socket, no core active (uncore and static power) */
  double pkg_awake_w;        /* one socket: added once any of its cores is active */
  double core_w;             /* one active core at the nominal frequency under full load */
  int core_from_tdp;         /* core_w = (TDP - idle - awake) / cores (no core-w given) */
  double voltage_slope;      /* kappa of V(f)/V(f_nom) = 1 + kappa (f/f_nom - 1) */
  double dram_idle_w;        /* DRAM of one socket, no traffic */
  double dram_j_per_byte;    /* DRAM energy per byte moved */
  double node_base_w;        /* node base power (board, fans, NIC, disks) */
  double node_load_overhead; /* wall power per W drawn by packages, DRAM and GPUs, minus 1 (PSU
                                and voltage-regulator losses, fans) */
  char *pkg_source, *dram_source, *node_source;
} dcsim_cpu_power_model;

/* Frees what the profile loader (input/internal.h) allocated in m. */
void dcsim_cpu_power_model_release(dcsim_cpu_power_model *m);

/* The profile's power figures (never NULL; has_spec / has_model say what is there). */
const dcsim_cpu_power_model *dcsim_cpu_profile_power_model(const dcsim_cpu_profile_t *p);

/* Full-load power of the profile's OWN energy tables (not borrowed-from another processor): the
 * table of the state's frequency, else linear in GHz between the two nearest tables around it, at
 * a core count between the tables' rows; *covered = 0 when no such table covers it (then *out is
 * untouched). Used by the default power model, which keeps measured cells exact
 * (dcsim/cpu_power.h). */
int dcsim_cpu_profile_own_power(const dcsim_cpu_profile_t *p, const dcsim_cpu_state *s,
                                dcsim_cpu_power *out, int *covered, dcsim_error *err);

#endif
