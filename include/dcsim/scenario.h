/* dcsim/scenario.h — everything a simulation needs, loaded, cross-checked and precomputed:
 * the platform with its hardware profiles and node powers, the workflows with, for every task
 * template, its placement options (group, nodes, duration, energy, power) computed by the model
 * library (dcsim/model.h), and the jobs (workflow instances with submission times).
 *
 * A `dcsim run FILE` input is a <workflow> (one instance at t = 0) or a <workload> (submissions).
 * The structures (dcsim_scenario and its parts, the options, the override) are in
 * dcsim/scenario_types.h, included here, so that the modules the loader calls (scheduling, traces,
 * recorded tasks) use them without including this header.
 *
 * Ownership: dcsim_scenario_load() returns a heap object freed by dcsim_scenario_free(); all its
 * structures are owned by it and read-only for the engine. */
#ifndef DCSIM_SCENARIO_H
#define DCSIM_SCENARIO_H

#include "dcsim/error.h"
#include "dcsim/repro.h"
#include "dcsim/scenario_types.h"

int dcsim_scenario_load(const char *path, const dcsim_scenario_opts *opts, dcsim_scenario **out,
                        dcsim_error *err);
void dcsim_scenario_free(dcsim_scenario *s);

/* The node group a task of template t (of workflow wf) runs in on one device (gpu: 0 CPU, 1 GPU):
 * its group= if given, else the first group fit for the device — CPU: the first group without
 * GPUs, else the first group; GPU: the first group with GPUs. The one rule that dcsim run, dcsim
 * sweep and the MPI sweep place tasks by. DCSIM_EREF for an unknown group, a group= without GPUs
 * for a GPU task, or no GPU group at all. */
int dcsim_scenario_task_group(const dcsim_scenario *s, const dcsim_workflow *wf,
                              const dcsim_task_template *t, int gpu, uint32_t *group,
                              dcsim_error *err);
/* Whether a task that may run on a CPU (its template's device not GPU) runs in group g by
 * dcsim_scenario_task_group: the groups a sweep point sizes to its node count and whose CPUs the
 * sweep's points without a CPU of their own run on (dcsim_sweep_scenario_transferred). */
int dcsim_scenario_cpu_group_used(const dcsim_scenario *s, size_t g);

/* ---- one set of inputs, many variants (dcsim sweep, doc/sweep.md) ----
 *
 * dcsim_scenario_load_inputs() reads and checks everything dcsim_scenario_load() does (platform,
 * profiles, workflows, dwarfs, jobs) but computes no placement option and no plan: the result is
 * the immutable base of a sweep. Profiles a sweep will use are loaded into it, before it is
 * shared, with dcsim_scenario_cpu_profile()/_gpu_profile() (the returned pointers belong to it).
 *
 * dcsim_scenario_derive() builds, without reading any file, the scenario of one point: the base's
 * platform with CPU groups (groups without GPU) on the override's CPU profile, GPU groups on its
 * GPU profile (their host CPU kept), every CPU task (and the CPU option of a device="any" task)
 * on `nodes` nodes with `cores` cores per node at `freq`, the group of each such task grown to
 * `nodes` nodes when smaller; then options and plans as dcsim_scenario_load() computes them.
 * Zero / NULL fields keep the workflow's values. A state outside a profile's tables fails with
 * DCSIM_ERANGE, a profile unusable for a group or a dwarf (no energy table, no GPU energy
 * fraction) with DCSIM_EREF, naming the task. The derived scenario borrows from the base (keep
 * it alive; the base must not change any more) and is freed with dcsim_scenario_free(); several
 * threads may derive from one base at once. dcsim_scenario_override: dcsim/scenario_types.h. */
int dcsim_scenario_load_inputs(const char *path, const dcsim_scenario_opts *opts,
                               dcsim_scenario **out, dcsim_error *err);
int dcsim_scenario_cpu_profile(dcsim_scenario *s, const char *ref, const dcsim_cpu_profile_t **out,
                               dcsim_error *err);
int dcsim_scenario_gpu_profile(dcsim_scenario *s, const char *ref, const dcsim_gpu_profile_t **out,
                               dcsim_error *err);
/* The weakest provenance of the durations and of the energies of the options the plans chose
 * (dcsim/provenance.h); table with source "" when nothing is planned. */
void dcsim_scenario_provenance(const dcsim_scenario *s, dcsim_prov *time, dcsim_prov *energy);
/* The largest time_cover of the options the plans chose (dcsim_option.time_cover), 1 when none
 * reaches beyond its time: the factor a run's time band must reach (dcsim_bands_cover with
 * {time, time x this}; doc/models.md "Thread scaling"). Each task's duration may stretch to its
 * law continued; under the same plan no task stretches by more than this factor, so neither does
 * the makespan. */
double dcsim_scenario_time_cover(const dcsim_scenario *s);
/* The basis of a run's bands (dcsim/band_rule.h) as factors (time 1 s, energy 1 J): the devices
 * the plans' tasks run on (a CPU task's group's CPU, transferred or not; any GPU task), the weakest
 * provenance (dcsim_scenario_provenance) and the cover (dcsim_scenario_time_cover). */
struct dcsim_band_basis;
void dcsim_scenario_band_basis(const dcsim_scenario *s, struct dcsim_band_basis *q);
/* Whether a planned CPU task (no GPU) runs on node group g (DCSIM_GROUP_RUNS_CPU: then g's CPU
 * enters the run's band, dcsim_scenario_band_basis, and the reports name it when its rates are
 * borrowed), and whether one of them runs at a turbo clock not measured at its active cores
 * (DCSIM_GROUP_TURBO_UNMEASURED, dcsim_option.turbo_unmeasured); 0: neither. */
enum { DCSIM_GROUP_RUNS_CPU = 1, DCSIM_GROUP_TURBO_UNMEASURED = 2 };
int dcsim_scenario_group_runs_cpu(const dcsim_scenario *s, size_t g);

/* What the energies of a run cover, one sentence (static text). */
const char *dcsim_scenario_energy_scope(const dcsim_scenario *s);
/* NULL when every node group's power is known; else why the first one's is not (a profile
 * without a <power-model> or <energy> table): its times are modelled alone and its energies are
 * NaN, "unknown" in the outputs. Borrowed from s. */
const char *dcsim_scenario_energy_unknown(const dcsim_scenario *s);
/* Adds every input file the scenario read, with its SHA-256, to r (dcsim/repro.h). */
int dcsim_scenario_repro(const dcsim_scenario *s, dcsim_repro *r, dcsim_error *err);

int dcsim_scenario_derive(const dcsim_scenario *base, const dcsim_scenario_override *ov,
                          dcsim_scenario **out, dcsim_error *err);

#endif
