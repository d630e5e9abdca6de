/* dcsim/cost.h — the cost of a run (doc/sweep.md "Cost"), the axis a purchase is decided
 * on: the energy the nodes drew at a price per kWh, plus the purchase price of every node kind
 * amortised over the hardware's lifetime in proportion to the node-seconds used:
 *
 *   cost = E / 3.6e6 J/kWh x kwh_usd + sum over node groups g of price_g x node_s_g / lifetime_s
 *   price_g = sockets_g x price(CPU_g) + gpus_per_node_g x price(GPU_g)
 *   lifetime_s = lifetime_years x 365.25 x 86400
 *
 * (straight-line depreciation of the purchase over the lifetime, each node-second used paying its
 * share; the energy at one flat tariff). The prices are the list prices of the profiles
 * (<price usd date source>, dcsim/hwprofile.h) or --price NAME=USD; only the CPU packages and GPU
 * boards are priced (board, memory, network and building are not: the cost is a lower bound, and
 * comparable between mixes only as far as those are alike). A node group that was used but whose
 * CPU or GPU has no price makes the cost unknown: `missing` names the profile (no price is
 * guessed). Energy and node-seconds are those of what the jobs held (a sweep point's energy) or of
 * the whole centre from 0 to the makespan (dcsim run's centre total).
 *
 * Defaults (doc/sweep.md): 0.0688 USD/kWh, the US industrial average retail price of 2011 (EIA,
 * Electric Power Monthly, Table 5.3, release of 24 September 2012); a lifetime of 5 years, the
 * upper end of the "field life of three to five years" of servers (Tom's Hardware, Xeon E5-2600 v3
 * launch review, 8 September 2014).
 *
 * Ownership: plain values; the options borrow their names. */
#ifndef DCSIM_COST_H
#define DCSIM_COST_H

#include <stddef.h>

#include "dcsim/engine.h"
#include "dcsim/error.h"
#include "dcsim/scenario.h"

#define DCSIM_COST_KWH_USD 0.0688 /* EIA Electric Power Monthly Table 5.3, industrial, 2011 */
/* what the default tariff is, as printed beside it (its year and source) */
#define DCSIM_COST_KWH_SOURCE "US industrial average of 2011, EIA"
/* The tariffs --kwh-price accepts (150 was taken silently, 106.6 USD per run): a factor
 * of about 5 below and 2 above the average retail prices of the US states in 2023, from 0.0575
 * USD/kWh (New Mexico, industrial) to 0.4239 (Hawaii, residential) (EIA, Electric Power Annual
 * 2023, "Average revenue per kilowatthour", released 17 October 2024). Outside them the value is
 * taken to be a mistake (a price per MWh, cents) and refused with the range. */
#define DCSIM_COST_KWH_USD_MIN    0.01
#define DCSIM_COST_KWH_USD_MAX    1.0
#define DCSIM_COST_LIFETIME_YEARS 5.0 /* Tom's Hardware 2014-09-08: servers live 3 to 5 years */
#define DCSIM_COST_MAX_PRICES     32
/* Plausible ranges: a tariff up to 100 USD/kWh (10^3 x the default's order of
 * magnitude, 0.0688: no grid has charged that); a lifetime from 0.01 year (3.65 days, the shortest
 * span a purchase is written off over is months) to 100 years. */
#define DCSIM_COST_KWH_MAX_USD        100.0
#define DCSIM_COST_LIFETIME_MIN_YEARS 0.01
#define DCSIM_COST_LIFETIME_MAX_YEARS 100.0

typedef struct dcsim_price_set {
  const char *name; /* a CPU or GPU profile name */
  double usd;       /* > 0, per unit */
} dcsim_price_set;

typedef struct dcsim_cost_opts {
  double kwh_usd;        /* >= 0 */
  double lifetime_years; /* > 0 */
  size_t n_prices;
  const dcsim_price_set *prices; /* --price: set or override a profile's price */
} dcsim_cost_opts;

/* The defaults above, no --price. */
void dcsim_cost_opts_default(dcsim_cost_opts *o);

/* Checks the options against a loaded scenario: kwh_usd 0 to DCSIM_COST_KWH_MAX_USD, lifetime_years
 * within DCSIM_COST_LIFETIME_{MIN,MAX}_YEARS, each price within DCSIM_PRICE_{MIN,MAX}_USD, each
 * --price name a CPU or GPU profile the scenario loaded (with a suggestion), given once. Errors
 * name "command line". */
int dcsim_cost_check(const dcsim_cost_opts *o, const dcsim_scenario *s, dcsim_error *err);

typedef enum dcsim_cost_scope {
  DCSIM_COST_HELD,  /* the energy and node-seconds of what the jobs held */
  DCSIM_COST_CENTRE /* every node from 0 to the makespan */
} dcsim_cost_scope;

typedef struct dcsim_cost {
  int known;           /* 0: a used node group's CPU or GPU has no price */
  double usd;          /* energy_usd + hardware_usd; NaN when unknown */
  double energy_usd;   /* always known */
  double hardware_usd; /* NaN when unknown */
  char missing[64];    /* unknown: the profile without a price */
} dcsim_cost;

/* The unit price of a CPU or GPU profile: a --price of that name, else the profile's own. */
int dcsim_cost_unit_price(const dcsim_cost_opts *o, const char *name, dcsim_hw_price hp,
                          double *usd);

/* The cost of a finished run of s (its engine's statistics). */
void dcsim_cost_of_run(const dcsim_scenario *s, const dcsim_run_stats *st, const dcsim_cost_opts *o,
                       dcsim_cost_scope scope, dcsim_cost *out);

/* Every derived figure of a finished run finite — its makespan, the energy of each node
 * group (naming the group and its CPU and GPU profiles, whose power figures are the input), of each
 * job, and a known cost c (naming --price, --kwh-price and --lifetime-years) — or an error saying
 * which figure overflowed; never inf or null in an output. c may be NULL. file: the run's input. */
int dcsim_cost_check_figures(const dcsim_scenario *s, const dcsim_run_stats *st,
                             const dcsim_cost *c, const char *file, dcsim_error *err);

/* The cost of job k of the run: its energy and its allocation (the nodes its workflow's plan holds
 * per group, from when it took them to its end); the job costs of a run add up to its
 * DCSIM_COST_HELD cost. */
void dcsim_cost_of_job(const dcsim_scenario *s, const dcsim_run_stats *st, size_t k,
                       const dcsim_cost_opts *o, dcsim_cost *out);

/* "no price for NAME (give --price NAME=USD)" into buf, for an unknown cost. */
void dcsim_cost_reason(const dcsim_cost *c, char *buf, size_t size);

#endif
