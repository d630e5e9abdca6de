/* dcsim/sweep_io.h — the points of a design-space sweep (dcsim/sweep.h) and their files: written as
 * JSON, CSV or a text table (doc/sweep.md), read back from JSON or CSV (dcsim pareto).
 *
 * Ownership: dcsim_sweep_points_read() returns an array freed by dcsim_sweep_points_free(), which
 * also frees every point's reason. The writers only read the points. */
#ifndef DCSIM_SWEEP_IO_H
#define DCSIM_SWEEP_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dcsim/error.h"
#include "dcsim/repro.h"

/* One configuration and its result. Text fields hold what the point uses: the profile names and
 * values of the override, or the workflow's own value when it has a single one ("" / 0 when its
 * tasks differ). */
typedef struct dcsim_sweep_point {
  uint32_t index;
  char cpu[64], gpu[64];
  unsigned nodes, cores;
  char freq[24];
  int done; /* evaluated (or read back) */
  int feasible;
  double time_s;   /* makespan: the workflow's time-to-solution */
  double energy_j; /* energy of the nodes the workflow held, start to end (§5.7) */
  char *reason;    /* infeasible: why (owned by the sweep or the array) */
  int pareto;      /* feasible and not dominated in (time, energy) */
  int knee;        /* the knee of the front (dcsim/pareto.h) */
  int balance;     /* balance point of its series over nodes (dcsim/model_comm.h) */
  /* feasible: where its time and energy come from, the weakest task of its workflow
   * (dcsim_prov_kind of dcsim/provenance.h; the sources: dcsim run or model on that point) */
  unsigned char time_prov, energy_prov;
  /* feasible: > 1 when a task ran beyond its thread law's measured cores: the time band reaches
   * this multiple of the time (dcsim_scenario_time_cover); 0 or 1: no such range */
  double time_cover;
  /* feasible: 1 when a CPU task ran at a turbo clock not measured at its active cores (the
   * vendor's maximum boost: DCSIM_GROUP_TURBO_UNMEASURED of dcsim/scenario.h): its time band
   * reaches the time at the nominal clock (doc/models.md "Turbo"); 0: none did */
  int turbo_unmeasured;
  /* the CPU thread-scaling variant (sweep --threading): "measured" or "ideal" (dcsim/model.h) */
  char threading[12];
  /* feasible: its cost in USD (dcsim/cost.h: the energy of the nodes held at the kWh price plus
   * their purchase amortised over the node-seconds held), NaN when unknown; then cost_missing
   * names the CPU or GPU profile without a price ("" when known or infeasible) */
  double cost_usd;
  char cost_missing[64];
  /* --gpus, --host-cpu: GPUs per GPU node and the GPU nodes' CPU when the sweep sets
   * them (0 and "" when it does not: the platform's) */
  unsigned gpus;
  char host_cpu[64];
  /* uncertainty bands (dcsim/sweep_bands.h; has_band 0 until marked, never read back): [low,
   * high] in s, J and USD (cost: has_cost_band, when the cost is known), and near_front: off the
   * front but indistinguishable from it */
  int has_band, near_front, has_cost_band;
  double time_band[2], energy_band[2], cost_band[2];
} dcsim_sweep_point;

/* What the Pareto front is taken over (--objectives): two or three of time, energy, cost. */
#define DCSIM_OBJ_TIME    1u
#define DCSIM_OBJ_ENERGY  2u
#define DCSIM_OBJ_COST    4u
#define DCSIM_OBJ_DEFAULT (DCSIM_OBJ_TIME | DCSIM_OBJ_ENERGY)
/* "time,energy", "time,cost", "energy,cost" or "time,energy,cost" (any order, each once) */
int dcsim_objectives_parse(const char *s, unsigned *out, dcsim_error *err);
/* the canonical name: "time,energy" ... */
const char *dcsim_objectives_name(unsigned obj);
/* the sentence of an unknown cost: "no price for NAME (give --price NAME=USD)" into buf */
void dcsim_sweep_cost_note(const dcsim_sweep_point *p, char *buf, size_t size);
/* A front over obj that can hold no point, though feasible points were done, because
 * every one has an unknown objective (cost without a price) is an error naming what is missing
 * and the option that gives it (file: the input the error names); 0 otherwise. */
int dcsim_sweep_check_objectives(const dcsim_sweep_point *pts, size_t n, unsigned obj,
                                 const char *file, dcsim_error *err);

/* Output (doc/sweep.md): JSON {"dcsim": {version, commit, sweep_sha256, inputs}, "points": [one
 * object per line]}, CSV with the same identity as "# " comment lines before its header, or a text
 * table (the caller prints the footer, dcsim_repro_text). Only done points are written. rp may be
 * NULL: no "dcsim" key, no comment lines. */
void dcsim_sweep_write_json(FILE *f, const dcsim_sweep_point *pts, size_t n, const dcsim_repro *rp);
void dcsim_sweep_write_csv(FILE *f, const dcsim_sweep_point *pts, size_t n, const dcsim_repro *rp);
/* --sort KEY (doc/cli.md "Sorting"): a new array (the caller frees the array, not the points: they
 * stay the caller's) of the n points in the order of KEY, "point" (the point index), "time",
 * "energy" or "cost": increasing, equal keys by point index, unknown values (an unknown energy or
 * cost, an infeasible point's time) last (dcsim_sort_order). An unknown KEY is a DCSIM_EUSAGE error
 * naming the keys (n = 0 checks KEY alone). */
int dcsim_sweep_sorted(const dcsim_sweep_point *pts, size_t n, const char *key,
                       dcsim_sweep_point **out, dcsim_error *err);
/* summary: a last line "N points: F feasible, I infeasible; P on the Pareto front", then a line
 * for the points whose cost is unknown and why */
void dcsim_sweep_write_text(FILE *f, const dcsim_sweep_point *pts, size_t n, int summary);

/* Reads points written by dcsim_sweep_write_json or _csv (the format is recognised by the first
 * character: '{' or '[' is JSON, the bare array of points that older versions wrote being
 * read too); errors name the file and line, and the field or column. JSON keys and values are
 * decoded by jansson, CSV lines cut by dcsim__csv_split(); CSV lines starting with '#' are
 * comments. */
int dcsim_sweep_points_read(const char *path, dcsim_sweep_point **out, size_t *n, dcsim_error *err);
void dcsim_sweep_points_free(dcsim_sweep_point *pts, size_t n);

#endif
