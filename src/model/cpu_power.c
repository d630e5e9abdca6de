/* cpu_power.c — the default power model of a CPU node (see dcsim/cpu_power.h, doc/models.md). */
#include "dcsim/cpu_power.h"

#include <math.h>
#include <string.h>

#include "dcsim/cpu_rates.h"

int dcsim_cpu_power_check(const dcsim_cpu_profile_t *cpu, dcsim_error *err) {
  if (dcsim_cpu_profile_power_model(cpu)->has_model) return 0;
  if (!dcsim_cpu_profile_has_energy(cpu)) /* e.g. the A64FX: no TDP in any source read */
    return DCSIM_ERR(err, DCSIM_EREF, dcsim_cpu_profile_path(cpu), 0,
                     "profile %s has neither a <power-model> nor an <energy> table, so its power "
                     "is unknown (--energy-form none models its time alone)",
                     dcsim_cpu_profile_name(cpu));
  return DCSIM_ERR(err, DCSIM_EREF, dcsim_cpu_profile_path(cpu), 0,
                   "profile %s has no <power-model>, so its power is unknown outside D3.5's "
                   "tables (--d35 uses the <energy> table)",
                   dcsim_cpu_profile_name(cpu));
}

double dcsim_cpu_core_w(const dcsim_cpu_power_model *m, double nominal_ghz, double ghz) {
  double r = ghz / nominal_ghz;
  double v = 1 + m->voltage_slope * (r - 1); /* V(f)/V(f_nom), linear in f */
  if (v < 0.1) v = 0.1;                      /* a floor far below any real P-state's voltage */
  return m->core_w * v * v * r;              /* dynamic power C V^2 f, relative to f_nom */
}

dcsim_node_base dcsim_cpu_node_base(const dcsim_cpu_profile_t *cpu) {
  const dcsim_cpu_power_model *m = dcsim_cpu_profile_power_model(cpu);
  dcsim_node_base b = { m->node_base_w, m->node_load_overhead };
  return b;
}

int dcsim_cpu_socket_full_w(const dcsim_cpu_profile_t *cpu, double ghz, unsigned k, double *w,
                            dcsim_prov *prov, int *capped, dcsim_error *err) {
  const dcsim_cpu_power_model *m = dcsim_cpu_profile_power_model(cpu);
  int rc = dcsim_cpu_power_check(cpu, err);
  if (rc) return rc;
  *capped = 0;
  if (k == 0) { /* an idle socket: the model's idle (equal to the table's idle row when fitted) */
    *w = m->pkg_idle_w;
    *prov = dcsim_prov_make(m->basis, m->source);
    return 0;
  }
  dcsim_cpu_state st = { ghz, NULL, k };
  dcsim_cpu_power pw;
  int covered = 0;
  if ((rc = dcsim_cpu_profile_own_power(cpu, &st, &pw, &covered, err))) return rc;
  if (covered) { /* a measured cell (or between two), kept exact */
    *w = pw.pkg_w;
    *prov = pw.prov;
    return 0;
  }
  double f = m->pkg_idle_w + m->pkg_awake_w +
             k * dcsim_cpu_core_w(m, dcsim_cpu_profile_nominal_ghz(cpu), ghz);
  if (m->has_spec && f > m->tdp_w) { /* the package limits itself to its TDP (RAPL PL1) */
    f = m->tdp_w;
    *capped = 1;
  }
  *w = f;
  *prov = dcsim_prov_make(m->basis, m->source);
  return 0;
}

/* One active socket's package power under the dwarf's activity (dcsim/cpu_power.h). */
static int socket_w(const dcsim_cpu_profile_t *cpu, const dcsim_node_load *ld, double ghz,
                    unsigned k, int first, double *w, dcsim_prov *prov, int *capped,
                    dcsim_error *err) {
  const dcsim_cpu_power_model *m = dcsim_cpu_profile_power_model(cpu);
  double f1, fk;
  dcsim_prov p1, pk;
  int c1, ck, rc;
  if ((rc = dcsim_cpu_socket_full_w(cpu, ghz, 1, &f1, &p1, &c1, err)) ||
      (rc = dcsim_cpu_socket_full_w(cpu, ghz, k, &fk, &pk, &ck, err)))
    return rc;
  double idle = m->pkg_idle_w, a1 = ld->act.first_core, an = ld->act.extra_core;
  /* the first active core of the node takes the first-core share; on the other sockets only the
   * uncore's wake-up does, their first core is an extra core of the run */
  double core1 = first ? 0 : dcsim_cpu_core_w(m, dcsim_cpu_profile_nominal_ghz(cpu), ghz);
  double p = idle + a1 * (f1 - idle - core1) + an * (fk - f1 + core1);
  int from_model = p1.kind >= DCSIM_PROV_EXTRAPOLATED || pk.kind >= DCSIM_PROV_EXTRAPOLATED;
  if (from_model && m->has_spec && p > m->tdp_w) p = m->tdp_w;
  *capped = c1 || ck || (from_model && m->has_spec && p >= m->tdp_w);
  *w = p < idle ? idle : p;
  *prov = dcsim_prov_weakest(p1, pk);
  return 0;
}

int dcsim_cpu_node_power(const dcsim_cpu_profile_t *cpu, unsigned sockets,
                         const dcsim_node_base *base, const dcsim_node_load *load,
                         dcsim_node_power *out, dcsim_error *err) {
  const dcsim_cpu_power_model *m = dcsim_cpu_profile_power_model(cpu);
  int rc = dcsim_cpu_power_check(cpu, err);
  if (rc) return rc;
  if (sockets == 0) sockets = dcsim_cpu_profile_sockets(cpu);
  const unsigned cps = dcsim_cpu_profile_cores_per_socket(cpu);
  if (load->threads > cps * sockets)
    return DCSIM_ERR(err, DCSIM_ERANGE, dcsim_cpu_profile_path(cpu), 0,
                     "%u active cores, a node of %u x %u cores has fewer", load->threads, sockets,
                     cps);
  if (load->threads && !(load->ghz > 0))
    return DCSIM_ERR(err, DCSIM_ERANGE, dcsim_cpu_profile_path(cpu), 0,
                     "frequency %g GHz must be positive", load->ghz);
  if (!(load->dram_bps >= 0) || !(load->other_dc_w >= 0) || !isfinite(load->dram_bps) ||
      !isfinite(load->other_dc_w))
    return DCSIM_ERR(err, DCSIM_ERANGE, dcsim_cpu_profile_path(cpu), 0,
                     "DRAM traffic and other loads must be finite and >= 0");
  memset(out, 0, sizeof *out);
  out->prov = dcsim_prov_make(m->basis, m->source);
  /* the threads on the sockets as the performance model places them (dcsim/cpu_rates.h) */
  const dcsim_cpu_perf_model *pm = dcsim_cpu_profile_perf_model(cpu);
  const dcsim_cpu_shape sh = { cps, sockets, dcsim_cpu_profile_nominal_ghz(cpu),
                               dcsim_cpu_profile_turbo_ghz(cpu) };
  unsigned per[64]; /* as dcsim_cpu_model_eval */
  if (sockets > 64)
    return DCSIM_ERR(err, DCSIM_ERANGE, dcsim_cpu_profile_path(cpu), 0,
                     "%u sockets per node, at most 64", sockets);
  dcsim_cpu_split_threads(load->threads, cps, sockets, pm && pm->scatter, per);
  int first = 1;
  for (unsigned s = 0; s < sockets; s++) {
    double w = m->pkg_idle_w;
    if (per[s]) {
      double ghz = load->turbo ? dcsim_cpu_turbo_ghz(pm, &sh, per[s]) : load->ghz;
      dcsim_prov p;
      int capped = 0;
      if ((rc =
               socket_w(cpu, load, ghz > 0 ? ghz : load->ghz, per[s], first, &w, &p, &capped, err)))
        return rc;
      out->capped |= capped;
      out->prov = first ? p : dcsim_prov_weakest(out->prov, p);
      first = 0;
    }
    out->pkg_w += w;
  }
  out->dram_w = sockets * m->dram_idle_w + m->dram_j_per_byte * load->dram_bps;
  out->dc_w = out->pkg_w + out->dram_w + load->other_dc_w;
  dcsim_node_base b = base ? *base : dcsim_cpu_node_base(cpu);
  out->wall_w = b.base_w + (1 + b.load_overhead) * out->dc_w;
  return 0;
}
