/* check_power.c — the `power` checker of validate (validate.h): D3.5's measured power and energy
 * against the default power model (doc/models.md, "Power model"), and D3.5's §5.3 coefficients
 * against refits of the columns they were fitted on.
 *
 * Columns: cpu (a CPU profile), dwarf, case, cores, time_s, power (a power CSV: a calibration
 * directory's power.csv, or a dcsim calibrate energy CSV), bandwidth (a DRAM table CSV), method
 * (lsq or endpoints), quantity:
 *   pkg_loo      the package power at `cores` of the full-load table `power` predicted by the
 *                package fit on its other rows (dcsim/fit_power.h), at most the profile's TDP
 *   dram_loo     the DRAM power at `cores` predicted by the DRAM fit on the other rows, traffic
 *                from `bandwidth` at the table's frequency
 *   pkg_j        the default model's package energy of `dwarf` on `cores` cores over the measured
 *                `time_s`: the profile's own full-load table with the dwarf's <power-activity>
 *   dram_w       the default model's DRAM power of `dwarf` (`case`, `cores`) above idle, plus the
 *                1.31 W idle of D3.5's measurement (Tables 34, 43)
 *   U, S, X, Y   the §5.3 coefficient refitted by `dcsim calibrate energy` (`method`) from the
 *                measured columns of `power` against the profile's energy table
 *   emdram_w     the §5.3 DRAM power at `cores` with the dwarf's printed coefficients
 * No extra table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"
#include "dcsim/cpu_power.h"
#include "dcsim/fit_coeffs.h"
#include "dcsim/fit_power.h"
#include "dcsim/model.h"
#include "input/internal.h"
#include "toolutil.h"
#include "validate.h"

static int load_cpu(const val_row *w, dcsim_cpu_profile_t **cpu, dcsim_error *err) {
  return tool_load_cpu(val_col(w, "cpu"), cpu, err);
}

static int load_dwarf(const val_row *w, dcsim_dwarf_t **d, dcsim_error *err) {
  return tool_load_dwarf(val_col(w, "dwarf"), d, err);
}

/* pkg_loo, dram_loo: refit without the held-out core count, predict it. */
static int leave_out(const val_row *w, int dram, double *out, dcsim_error *err) {
  dcsim__power_table R = { 0 }; /* the library's reader (input/power_table.c): every row, no cap */
  double cores = 0, held_bw = 0, awake, core, e;
  unsigned *c = NULL;
  double *p = NULL, *b = NULL, *bw = NULL;
  dcsim_power_fit_stats st;
  dcsim_cpu_profile_t *cpu = NULL;
  int rc = val_num(w, "cores", &cores, err);
  if (!rc) rc = dcsim__power_table_load(val_col(w, "power"), NULL, NULL, NULL, &R, err);
  size_t n = rc ? 1 : R.n + 1, m = 0;
  if (!rc && (!(c = calloc(n, sizeof *c)) || !(p = calloc(n, sizeof *p)) ||
              !(b = calloc(n, sizeof *b)) || !(bw = calloc(n, sizeof *bw))))
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, w->path, 0, "out of memory");
  if (!rc && dram) rc = dcsim__power_table_bandwidths(&R, val_col(w, "bandwidth"), bw, err);
  for (size_t k = 0; !rc && k < R.n; k++) {
    if (R.cores[k] == (unsigned)cores) {
      held_bw = bw[k];
      continue;
    }
    c[m] = R.cores[k];
    b[m] = bw[k];
    p[m++] = dram ? R.dram_w[k] : R.pkg_w[k];
  }
  if (!rc && m == R.n) rc = DCSIM_ERR(err, DCSIM_EREF, w->path, 0, "no row of %g cores", cores);
  if (!rc && dram && !(rc = dcsim_fit_dram(R.dram_idle_w, b, p, m, &e, &st, err)))
    *out = R.dram_idle_w + e * held_bw;
  if (!rc && !dram && !(rc = dcsim_fit_package(R.pkg_idle_w, c, p, m, &awake, &core, &st, err)) &&
      !(rc = load_cpu(w, &cpu, err))) {
    const dcsim_cpu_power_model *pm = dcsim_cpu_profile_power_model(cpu);
    *out = R.pkg_idle_w + awake + cores * core;
    if (pm->has_spec && *out > pm->tdp_w) *out = pm->tdp_w; /* as the model evaluates it */
  }
  dcsim_cpu_profile_free(cpu);
  dcsim__power_table_free(&R);
  free(c);
  free(p);
  free(b);
  free(bw);
  return rc;
}

/* pkg_j: the default package power of the dwarf on its own full-load table, over time_s. */
static int sh_energy(const val_row *w, double *out, dcsim_error *err) {
  dcsim_cpu_profile_t *cpu = NULL;
  dcsim_dwarf_t *d = NULL;
  double cores = 0, t = 0;
  int rc;
  if ((rc = val_num(w, "cores", &cores, err)) || (rc = val_num(w, "time_s", &t, err)) ||
      (rc = load_cpu(w, &cpu, err)) || (rc = load_dwarf(w, &d, err)))
    goto out;
  dcsim_node_load ld = {
    dcsim_cpu_profile_nominal_ghz(cpu), (unsigned)cores, { 1, 1, NULL }, 0, 0, 0
  };
  if (!dcsim_dwarf_power_activity(d, &ld.act)) {
    rc = DCSIM_ERR(err, DCSIM_EREF, w->path, 0, "dwarf %s has no <power-activity>",
                   dcsim_dwarf_name(d));
    goto out;
  }
  dcsim_node_power np;
  if (!(rc = dcsim_cpu_node_power(cpu, 0, NULL, &ld, &np, err))) *out = np.pkg_w * t;
out:
  dcsim_dwarf_free(d);
  dcsim_cpu_profile_free(cpu);
  return rc;
}

/* dram_w: the default model's DRAM power of the dwarf above idle, plus D3.5's 1.31 W idle. */
static int dwarf_dram(const val_row *w, double *out, dcsim_error *err) {
  dcsim_cpu_profile_t *cpu = NULL;
  dcsim_dwarf_t *d = NULL;
  dcsim_dwarf_eval *ev = NULL;
  dcsim_prediction p;
  memset(&p, 0, sizeof p);
  double cores = 0;
  int rc;
  if ((rc = val_num(w, "cores", &cores, err)) || (rc = load_cpu(w, &cpu, err)) ||
      (rc = load_dwarf(w, &d, err)) ||
      (rc = dcsim_dwarf_evaluate(d, val_col(w, "case"), NULL, 0, &ev, err)))
    goto out;
  dcsim_model_req rq = { .ev = ev,
                         .cpu = cpu,
                         .nodes = 1,
                         .state = { dcsim_cpu_profile_nominal_ghz(cpu), NULL, (unsigned)cores },
                         .energy_form = DCSIM_ENERGY_MODE };
  if ((rc = dcsim_model_run(&rq, &p, err))) goto out;
  const dcsim_cpu_power_model *m = dcsim_cpu_profile_power_model(cpu);
  *out = p.dram_j / p.time_s - dcsim_cpu_profile_sockets(cpu) * m->dram_idle_w + 1.31;
out:
  dcsim_prediction_release(&p);
  dcsim_dwarf_eval_free(ev);
  dcsim_dwarf_free(d);
  dcsim_cpu_profile_free(cpu);
  return rc;
}

/* U, S, X, Y: dcsim calibrate energy's refit; emdram_w: the printed coefficients' DRAM power. */
static int coefficients(const val_row *w, const char *q, double *out, dcsim_error *err) {
  dcsim_cpu_profile_t *cpu = NULL;
  int rc = load_cpu(w, &cpu, err);
  if (rc) return rc;
  if (strcmp(q, "emdram_w") == 0) {
    dcsim_dwarf_t *d = NULL;
    dcsim_energy_coeffs ec;
    dcsim_cpu_power pw;
    double cores = 0;
    dcsim_cpu_state st = { dcsim_cpu_profile_nominal_ghz(cpu), NULL, 0 };
    if (!(rc = val_num(w, "cores", &cores, err)) && !(rc = load_dwarf(w, &d, err)) &&
        !(rc = dcsim_dwarf_energy_coeffs(d, &ec, err))) {
      st.threads = (unsigned)cores;
      if (!(rc = dcsim_cpu_profile_power(cpu, &st, &pw, err)))
        *out = ec.dram_X * pw.dram_w + ec.dram_Y * pw.dram_idle_w; /* §5.3 DRAM, per second */
    }
    dcsim_dwarf_free(d);
    dcsim_cpu_profile_free(cpu);
    return rc;
  }
  dcsim_fit_method m;
  dcsim_energy_fit ef;
  if (dcsim_fit_method_parse(val_col(w, "method"), &m) != 0)
    rc = DCSIM_ERR(err, DCSIM_EPARSE, w->path, 0, "method '%s'", val_col(w, "method"));
  if (!rc) rc = dcsim_calib_fit_energy(val_col(w, "power"), cpu, NULL, m, NULL, &ef, err);
  if (!rc)
    *out = q[0] == 'U' ? ef.pkg_U : q[0] == 'S' ? ef.pkg_S : q[0] == 'X' ? ef.dram_X : ef.dram_Y;
  dcsim_cpu_profile_free(cpu);
  return rc;
}

static void label(const val_row *w, char *buf, size_t size) {
  const char *q = val_col(w, "quantity");
  if (!strcmp(q, "pkg_loo") || !strcmp(q, "dram_loo"))
    snprintf(buf, size, "%s %s cores, held out (%s)", q, val_col(w, "cores"), val_col(w, "cpu"));
  else if (!strcmp(q, "pkg_j") || !strcmp(q, "dram_w") || !strcmp(q, "emdram_w"))
    snprintf(buf, size, "%s %s, %s cores (%s)", q, val_col(w, "dwarf"), val_col(w, "cores"),
             val_col(w, "cpu"));
  else
    snprintf(buf, size, "%s refitted (%s, %s)", q, val_col(w, "method"), val_col(w, "power"));
}

static int compute(void *state, const val_row *w, double *out, dcsim_error *err) {
  (void)state;
  const char *q = val_col(w, "quantity");
  if (!strcmp(q, "pkg_loo") || !strcmp(q, "dram_loo")) return leave_out(w, q[0] == 'd', out, err);
  if (!strcmp(q, "pkg_j")) return sh_energy(w, out, err);
  if (!strcmp(q, "dram_w")) return dwarf_dram(w, out, err);
  if (!strcmp(q, "U") || !strcmp(q, "S") || !strcmp(q, "X") || !strcmp(q, "Y") ||
      !strcmp(q, "emdram_w"))
    return coefficients(w, q, out, err);
  return DCSIM_ERR(err, DCSIM_EPARSE, w->path, 0, "unknown quantity '%s'", q);
}

const val_checker val_power = VAL_CHECKER(
    "power", NULL, NULL, label, compute, NULL, NULL,
    "D3.5's measured power and energy against the default power model, and its §5.3 coefficients "
    "against refits of the columns they were fitted on");
