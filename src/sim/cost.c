/* cost.c — the cost of a run: energy at a tariff plus amortised purchase (see dcsim/cost.h). */
#include "dcsim/cost.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dcsim/scenario.h"
#include "dcsim/strutil.h"

void dcsim_cost_opts_default(dcsim_cost_opts *o) {
  o->kwh_usd = DCSIM_COST_KWH_USD;
  o->lifetime_years = DCSIM_COST_LIFETIME_YEARS;
  o->n_prices = 0;
  o->prices = NULL;
}

/* every CPU and GPU profile name the scenario loaded, for the --price check and its suggestion */
static size_t profile_names(const dcsim_scenario *s, const char **names, size_t max) {
  size_t n = 0;
  for (size_t i = 0; i < s->n_cpus && n < max; i++) names[n++] = dcsim_cpu_profile_name(s->cpus[i]);
  for (size_t i = 0; i < s->n_gpus && n < max; i++) names[n++] = dcsim_gpu_profile_name(s->gpus[i]);
  return n;
}

int dcsim_cost_check(const dcsim_cost_opts *o, const dcsim_scenario *s, dcsim_error *err) {
  if (!(o->kwh_usd >= 0 && o->kwh_usd <= DCSIM_COST_KWH_MAX_USD))
    return DCSIM_PERR(err, DCSIM_EUSAGE, "kwh_usd", -1, "%g: expected 0 to %g USD per kWh",
                      o->kwh_usd, DCSIM_COST_KWH_MAX_USD);
  if (!(o->lifetime_years >= DCSIM_COST_LIFETIME_MIN_YEARS &&
        o->lifetime_years <= DCSIM_COST_LIFETIME_MAX_YEARS))
    return DCSIM_PERR(err, DCSIM_EUSAGE, "lifetime_years", -1, "%g: expected %g to %g years",
                      o->lifetime_years, DCSIM_COST_LIFETIME_MIN_YEARS,
                      DCSIM_COST_LIFETIME_MAX_YEARS);
  if (o->n_prices > DCSIM_COST_MAX_PRICES)
    return DCSIM_PERR(err, DCSIM_EUSAGE, "prices", -1, "more than %d prices",
                      DCSIM_COST_MAX_PRICES);
  const char *names[256];
  size_t nn = s ? profile_names(s, names, 256) : 0;
  for (size_t i = 0; i < o->n_prices; i++) {
    const dcsim_price_set *p = &o->prices[i];
    if (!(p->usd >= DCSIM_PRICE_MIN_USD && p->usd <= DCSIM_PRICE_MAX_USD))
      return DCSIM_PERR(err, DCSIM_EUSAGE, "prices", (int)i,
                        "%s: expected a unit price of %g to %g USD", p->name, DCSIM_PRICE_MIN_USD,
                        DCSIM_PRICE_MAX_USD);
    for (size_t k = 0; k < i; k++)
      if (strcmp(o->prices[k].name, p->name) == 0)
        return DCSIM_PERR(err, DCSIM_EUSAGE, "prices", (int)i, "%s given twice", p->name);
    size_t k = 0;
    while (k < nn && strcmp(names[k], p->name) != 0) k++;
    if (s && k == nn) {
      const char *sug = dcsim_suggest(p->name, names, nn);
      return DCSIM_PERR(err, DCSIM_EUSAGE, "prices", (int)i,
                        "%s: no CPU or GPU profile of this run is named %s%s%s%s", p->name, p->name,
                        sug ? " (did you mean " : "", sug ? sug : "", sug ? "?)" : "");
    }
  }
  return 0;
}

int dcsim_cost_unit_price(const dcsim_cost_opts *o, const char *name, dcsim_hw_price hp,
                          double *usd) {
  for (size_t i = 0; i < o->n_prices; i++)
    if (strcmp(o->prices[i].name, name) == 0) {
      *usd = o->prices[i].usd;
      return 1;
    }
  *usd = hp.known ? hp.usd : NAN;
  return hp.known;
}

/* The purchase price of one node of group g: its CPU packages and GPU boards (dcsim/cost.h); 0 and
 * the profile's name in missing when one has no price. */
static int node_price(const dcsim_group_rt *gr, const dcsim_cost_opts *o, double *usd,
                      char *missing, size_t size) {
  double cpu, gpu = 0;
  const char *cn = dcsim_cpu_profile_name(gr->cpu);
  if (!dcsim_cost_unit_price(o, cn, dcsim_cpu_profile_price(gr->cpu), &cpu)) {
    snprintf(missing, size, "%s", cn);
    return 0;
  }
  if (gr->gpu) {
    const char *gn = dcsim_gpu_profile_name(gr->gpu);
    if (!dcsim_cost_unit_price(o, gn, dcsim_gpu_profile_price(gr->gpu), &gpu)) {
      snprintf(missing, size, "%s", gn);
      return 0;
    }
  }
  *usd = gr->g->sockets * cpu + gr->g->gpus_per_node * gpu;
  return 1;
}

void dcsim_cost_of_run(const dcsim_scenario *s, const dcsim_run_stats *st, const dcsim_cost_opts *o,
                       dcsim_cost_scope scope, dcsim_cost *out) {
  double energy_j = 0, hw = 0;
  double mk_s = (double)st->makespan_ns * 1e-9;
  double lifetime_s = o->lifetime_years * 365.25 * 86400; /* Julian years */
  if (scope == DCSIM_COST_CENTRE)
    energy_j = st->energy_j;
  else
    for (size_t j = 0; j < st->n_jobs; j++) energy_j += st->jobs[j].energy_j;
  memset(out, 0, sizeof *out);
  out->known = 1;
  out->energy_usd = energy_j / 3.6e6 * o->kwh_usd; /* 1 kWh = 3.6e6 J */
  for (size_t g = 0; g < st->n_groups && g < s->n_groups; g++) {
    double node_s =
        scope == DCSIM_COST_CENTRE ? mk_s * s->groups[g].g->count : st->groups[g].alloc_node_s;
    if (!(node_s > 0)) continue; /* a group not used costs nothing of this run */
    double p;
    if (!node_price(&s->groups[g], o, &p, out->missing, sizeof out->missing)) {
      out->known = 0;
      break;
    }
    hw += p * node_s / lifetime_s;
  }
  out->hardware_usd = out->known ? hw : NAN;
  out->usd = out->known ? out->energy_usd + hw : NAN;
}

void dcsim_cost_of_job(const dcsim_scenario *s, const dcsim_run_stats *st, size_t k,
                       const dcsim_cost_opts *o, dcsim_cost *out) {
  const dcsim_job_stats *js = &st->jobs[k];
  const dcsim_wf_plan *plan = &s->wfs[s->jobs[k].wf].plan;
  double held_s = (double)(js->end_ns - js->alloc_ns) * 1e-9, hw = 0;
  double lifetime_s = o->lifetime_years * 365.25 * 86400;
  memset(out, 0, sizeof *out);
  out->known = 1;
  out->energy_usd = js->energy_j / 3.6e6 * o->kwh_usd;
  for (size_t g = 0; g < s->n_groups; g++) {
    if (!plan->alloc || !plan->alloc[g] || !(held_s > 0)) continue;
    double p;
    if (!node_price(&s->groups[g], o, &p, out->missing, sizeof out->missing)) {
      out->known = 0;
      break;
    }
    hw += p * plan->alloc[g] * held_s / lifetime_s;
  }
  out->hardware_usd = out->known ? hw : NAN;
  out->usd = out->known ? out->energy_usd + hw : NAN;
}

void dcsim_cost_reason(const dcsim_cost *c, char *buf, size_t size) {
  if (c->known)
    snprintf(buf, size, "%s", "");
  else
    snprintf(buf, size, "no price for %s (give --price %s=USD)", c->missing, c->missing);
}

int dcsim_cost_check_figures(const dcsim_scenario *s, const dcsim_run_stats *st,
                             const dcsim_cost *c, const char *file, dcsim_error *err) {
  for (size_t g = 0; g < st->n_groups && g < s->n_groups; g++) {
    const dcsim_group_rt *gr = &s->groups[g];
    /* NaN is a group whose power is unknown (its energy_unknown says why): not an overflow */
    if (!isfinite(st->groups[g].energy_j) &&
        !(isnan(st->groups[g].energy_j) && gr->energy_unknown[0]))
      return DCSIM_ERR(err, DCSIM_ERANGE, file, 0,
                       "the energy of node group %s overflows (%g J): the power figures of its "
                       "profiles (CPU %s%s%s) or of the platform are out of range",
                       gr->g->name, st->groups[g].energy_j, dcsim_cpu_profile_name(gr->cpu),
                       gr->gpu ? ", GPU " : "", gr->gpu ? dcsim_gpu_profile_name(gr->gpu) : "");
  }
  int unknown = dcsim_scenario_energy_unknown(s) != NULL, bad_job = 0;
  for (size_t j = 0; j < st->n_jobs; j++)
    bad_job |= isinf(st->jobs[j].energy_j) || (isnan(st->jobs[j].energy_j) && !unknown);
  if (isinf(st->energy_j) || (isnan(st->energy_j) && !unknown) || bad_job)
    return DCSIM_ERR(err, DCSIM_ERANGE, file, 0,
                     "the energy of the run overflows (%g J): a power figure of its profiles or "
                     "platform is out of range",
                     st->energy_j);
  if (c && c->known && !(isfinite(c->usd) && isfinite(c->energy_usd) && isfinite(c->hardware_usd)))
    return DCSIM_ERR(err, DCSIM_ERANGE, file, 0,
                     "the cost of the run overflows (%g USD): --price, --kwh-price, "
                     "--lifetime-years or a profile's <price> is out of range",
                     c->usd);
  return 0;
}
