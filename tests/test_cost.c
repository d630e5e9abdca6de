/* test_cost.c — the plausible ranges of the cost options and the check that no
 * derived figure of a run (the energy of a node group, of a job, of the run; a known cost) is
 * printed as inf or null: each overflow is an error naming what overflowed and its input. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "dcsim/cost.h"
#include "dcsim/engine.h"
#include "dcsim/lib.h"
#include "dcsim/scenario.h"

/* The options' ranges: each side of each bound. */
static void check_ranges(void) {
  dcsim_error err;
  dcsim_cost_opts o;
  dcsim_price_set p = { "xeon-e5-2697v3", 2385.5 };
  dcsim_cost_opts_default(&o);
  o.prices = &p;
  o.n_prices = 1;
  CHECK_INT(dcsim_cost_check(&o, NULL, &err), 0);
  o.lifetime_years = 1e-300; /* accepted before */
  CHECK_INT(dcsim_cost_check(&o, NULL, &err), DCSIM_EUSAGE);
  /* the error names the parameter, not an option */
  CHECK_STR(err.param, "lifetime_years");
  CHECK_STR(err.msg, "1e-300: expected 0.01 to 100 years");
  CHECK_STR(err.file, "");
  o.lifetime_years = DCSIM_COST_LIFETIME_MIN_YEARS;
  CHECK_INT(dcsim_cost_check(&o, NULL, &err), 0);
  o.lifetime_years = 100.5;
  CHECK_INT(dcsim_cost_check(&o, NULL, &err), DCSIM_EUSAGE);
  o.lifetime_years = 5;
  o.kwh_usd = 1e308; /* 7e307 USD of energy before */
  CHECK_INT(dcsim_cost_check(&o, NULL, &err), DCSIM_EUSAGE);
  CHECK_STR(err.param, "kwh_usd");
  CHECK(strstr(err.msg, "1e+308: expected") == err.msg);
  o.kwh_usd = DCSIM_COST_KWH_MAX_USD;
  CHECK_INT(dcsim_cost_check(&o, NULL, &err), 0);
  p.usd = 1e308; /* inf USD before */
  CHECK_INT(dcsim_cost_check(&o, NULL, &err), DCSIM_EUSAGE);
  CHECK_STR(err.param, "prices");
  CHECK_INT(err.index, 0);
  CHECK_STR(err.msg, "xeon-e5-2697v3: expected a unit price of 0.01 to 1e+08 USD");
  p.usd = 0.00999;
  CHECK_INT(dcsim_cost_check(&o, NULL, &err), DCSIM_EUSAGE);
  p.usd = DCSIM_PRICE_MAX_USD;
  CHECK_INT(dcsim_cost_check(&o, NULL, &err), 0);
}

/* A real run of workflows/alaro.xml, then its figures made non-finite one at a time. */
static void check_figures(void) {
  dcsim_error err;
  dcsim_scenario_opts so = { .task_policy = DCSIM_TASK_HEFT };
  dcsim_scenario *s = NULL;
  CHECK_INT(dcsim_scenario_load("workflows/alaro.xml", &so, &s, &err), 0);
  if (!s) return;
  dcsim_engine_opts eo = { .job_policy = DCSIM_JOB_FCFS, .sink = NULL };
  dcsim_engine_t *e = dcsim_engine_new(s, &eo, &err);
  CHECK(e != NULL);
  if (!e) goto out;
  CHECK_INT(dcsim_engine_run(e, &err), 0);
  const dcsim_run_stats *st0 = dcsim_engine_stats(e);
  dcsim_cost_opts o;
  dcsim_cost_opts_default(&o);
  dcsim_price_set p = { "xeon-e5-2697v3", 2385.5 };
  o.prices = &p;
  o.n_prices = 1;
  dcsim_cost c;
  dcsim_cost_of_run(s, st0, &o, DCSIM_COST_HELD, &c);
  CHECK(c.known && isfinite(c.usd) && c.usd > 0);
  CHECK_INT(dcsim_cost_check_figures(s, st0, &c, "alaro.xml", &err), 0);

  dcsim_run_stats st = *st0;
  dcsim_group_stats groups[16];
  dcsim_job_stats jobs[16];
  CHECK(st.n_groups >= 1 && st.n_groups <= 16 && st.n_jobs >= 1 && st.n_jobs <= 16);
  if (st.n_groups > 16 || st.n_jobs > 16) goto out;
  memcpy(groups, st0->groups, st.n_groups * sizeof *groups);
  memcpy(jobs, st0->jobs, st.n_jobs * sizeof *jobs);
  st.groups = groups;
  st.jobs = jobs;
  groups[0].energy_j = INFINITY;
  CHECK_INT(dcsim_cost_check_figures(s, &st, NULL, "alaro.xml", &err), DCSIM_ERANGE);
  CHECK_STR(err.file, "alaro.xml");
  CHECK(strstr(err.msg, "the energy of node group hsw overflows (inf J)") != NULL);
  CHECK(strstr(err.msg, "CPU xeon-e5-2697v3") != NULL);
  groups[0].energy_j = st0->groups[0].energy_j;
  jobs[0].energy_j = INFINITY;
  CHECK_INT(dcsim_cost_check_figures(s, &st, NULL, "alaro.xml", &err), DCSIM_ERANGE);
  CHECK(strstr(err.msg, "the energy of the run overflows") != NULL);
  jobs[0].energy_j = st0->jobs[0].energy_j;
  st.energy_j = INFINITY;
  CHECK_INT(dcsim_cost_check_figures(s, &st, NULL, "alaro.xml", &err), DCSIM_ERANGE);
  st.energy_j = st0->energy_j;
  CHECK_INT(dcsim_cost_check_figures(s, &st, NULL, "alaro.xml", &err), 0);
  c.hardware_usd = c.usd = INFINITY;
  CHECK_INT(dcsim_cost_check_figures(s, &st, &c, "alaro.xml", &err), DCSIM_ERANGE);
  CHECK(strstr(err.msg, "the cost of the run overflows (inf USD)") != NULL);
  c.known = 0; /* an unknown cost is reported as unknown, with its reason, not as an overflow */
  c.usd = c.hardware_usd = NAN;
  CHECK_INT(dcsim_cost_check_figures(s, &st, &c, "alaro.xml", &err), 0);
out:
  dcsim_engine_free(e);
  dcsim_scenario_free(s);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  check_ranges();
  check_figures();
  CHECK_DONE();
}
