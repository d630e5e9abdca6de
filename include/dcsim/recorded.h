/* dcsim/recorded.h — recorded-runtime tasks (runtime-s= in a workflow, and every task of an
 * imported trace, dcsim/trace.h): their duration and power on a node group at one CPU frequency.
 *
 * Duration: T = runtime_s x r / f, where f is the frequency the task runs at (the group's nominal
 * frequency unless DVFS chose another state) and r the clock the runtime was recorded at: ref_ghz,
 * or the group's nominal frequency when ref_ghz = 0 (the runtime was measured on this kind of
 * node). Time is taken as inversely proportional to the clock: a CPU-bound assumption (a memory-
 * or I/O-bound task slows down less than this). Cores do not change the time: the task uses the
 * cores it was recorded with.
 *
 * Power above idle of each of its nodes (never silently zero):
 *     c x p_core(f),   p_core(f) = (E_pkg(f,m) + E_dram(f,m) - E_pkg(f,idle) - E_dram(f,idle)) / m
 * with c its cores per node and m the largest core count of the CPU profile's energy table at f,
 * i.e. its measured full load of one socket (D3.5 §5.2 RAPL tables, powers in W). This is linear
 * in the cores between idle and the measured full load, so tasks sharing a node add up to the
 * socket's measured full-load power when they fill m cores, and the sum never depends on how the
 * cores are split among tasks. (The measured curve is concave: one busy core of four draws more
 * than a quarter of the full-load increment, so partial loads are under-estimated, by at most
 * 9 W per socket with the shipped Table 32.)
 * Task energy: T x nodes x (c x p_core(f) + (c / C) x P_idle), C the node's cores and P_idle its
 * idle power: the power it adds plus its share of the node's idle power (all of it when it uses
 * every core). DVFS (dcsim/scenario.h) compares these energies.
 *
 * Ownership: no allocation; *o is caller-owned. */
#ifndef DCSIM_RECORDED_H
#define DCSIM_RECORDED_H

#include "dcsim/error.h"
#include "dcsim/hwprofile.h"
#include "dcsim/scenario_types.h"

/* Fills o->duration_ns, energy_j, node_delta_w and cores (o->group and o->nodes are set by the
 * caller) for template t on group g at state f (f->threads is ignored). `file` names the input
 * in messages. Errors: cores above the node's, a state outside the energy tables, a duration
 * above 10^10 s. */
int dcsim_recorded_option(const dcsim_group_rt *g, const dcsim_task_template *t,
                          const dcsim_cpu_state *f, const char *file, dcsim_option *o,
                          dcsim_error *err);

/* p_core(f) of the rule above, in W per core. */
int dcsim_recorded_core_power(const dcsim_cpu_profile_t *cpu, const dcsim_cpu_state *f,
                              double *core_w, dcsim_prov *prov, dcsim_error *err);

#endif
