/* recorded.c — duration and power of recorded-runtime tasks (see dcsim/recorded.h). */
#include "dcsim/recorded.h"

#include <math.h>
#include <stdio.h>

#include "dcsim/cpu_power.h"
#include "dcsim/model.h"

int dcsim_recorded_core_power(const dcsim_cpu_profile_t *cpu, const dcsim_cpu_state *f,
                              double *core_w, dcsim_prov *prov, dcsim_error *err) {
  dcsim_cpu_state st = *f;
  st.threads = dcsim_cpu_profile_energy_max_cores(cpu, f);
  if (!st.threads)
    return DCSIM_ERR(err, DCSIM_EREF, dcsim_cpu_profile_path(cpu), 0,
                     "profile %s has no <energy> table", dcsim_cpu_profile_name(cpu));
  dcsim_cpu_power pw;
  int rc = dcsim_cpu_profile_power(cpu, &st, &pw, err);
  if (rc) return rc;
  /* D3.5 §5.2 tables: full-load minus idle package and DRAM power of one socket, per core */
  *core_w = (pw.pkg_w + pw.dram_w - pw.pkg_idle_w - pw.dram_idle_w) / st.threads;
  if (prov) *prov = pw.prov;
  if (!(*core_w >= 0))
    return DCSIM_ERR(err, DCSIM_ERANGE, dcsim_cpu_profile_path(cpu), 0,
                     "profile %s: full-load power below idle power in its energy table",
                     dcsim_cpu_profile_name(cpu));
  return 0;
}

/* The default model: a busy core's share of a fully loaded socket above idle, at the wall
 * (dcsim/cpu_power.h); recorded tasks say nothing about their activity or memory traffic. */
static int wall_core_power(const dcsim_group_rt *g, const dcsim_cpu_state *f, double *core_w,
                           dcsim_prov *prov, dcsim_error *err) {
  unsigned cps = dcsim_cpu_profile_cores_per_socket(g->cpu);
  double full;
  int capped;
  int rc = dcsim_cpu_socket_full_w(g->cpu, f->ghz, cps, &full, prov, &capped, err);
  if (rc) return rc;
  double idle = dcsim_cpu_profile_power_model(g->cpu)->pkg_idle_w;
  *core_w = (1 + g->load_overhead) * (full - idle) / cps;
  return 0;
}

int dcsim_recorded_option(const dcsim_group_rt *g, const dcsim_task_template *t,
                          const dcsim_cpu_state *f, const char *file, dcsim_option *o,
                          dcsim_error *err) {
  unsigned c = t->cores_per_node ? t->cores_per_node : g->cores_per_node;
  if (c > g->cores_per_node)
    return DCSIM_ERR(err, DCSIM_ERANGE, file, t->line,
                     "<task name=\"%s\">: asks for %u cores per node, nodes of '%s' have %u",
                     t->name, c, g->g->name, g->cores_per_node);
  double nominal = dcsim_cpu_profile_nominal_ghz(g->cpu);
  double ref = t->ref_ghz > 0 ? t->ref_ghz : nominal;
  double time_s = t->runtime_s * ref / f->ghz; /* time inversely proportional to the clock */
  if (!(time_s >= 0) || time_s > 1e10)
    return DCSIM_ERR(err, DCSIM_ERANGE, file, t->line,
                     "<task name=\"%s\">: duration %g s is out of range", t->name, time_s);
  double core_w = 0;
  dcsim_prov power_prov = dcsim_prov_make(DCSIM_PROV_SPEC, "");
  int rc = 0;
  if (g->model_flags & DCSIM_MODEL_D35)
    rc = dcsim_recorded_core_power(g->cpu, f, &core_w, &power_prov, err);
  else if (g->energy_unknown[0])
    core_w = NAN; /* the group's power is unknown: the time alone */
  else
    rc = wall_core_power(g, f, &core_w, &power_prov, err);
  if (rc) {
    dcsim_error_prefix(err, "<task name=\"%s\"> on group '%s'", t->name, g->g->name);
    dcsim_error_at(err, file, t->line);
    return rc;
  }
  o->cores = c;
  o->gpu = 0;
  o->duration_ns = llround(time_s * 1e9);
  o->node_delta_w = c * core_w;
  /* what it adds, plus its share of the idle power of the nodes it runs on */
  o->energy_j = time_s * o->nodes * (o->node_delta_w + (double)c / g->cores_per_node * g->idle_w);
  /* the recorded time itself, or carried to another clock (dcsim/provenance.h) */
  o->time_prov =
      dcsim_prov_make(fabs(f->ghz - ref) < 1e-9 ? DCSIM_PROV_TABLE : DCSIM_PROV_EXTRAPOLATED,
                      "recorded runtime of the input");
  o->energy_prov =
      dcsim_prov_weakest(power_prov, o->time_prov); /* on a tie the power table names it */
  return 0;
}
