/* dcsim/sampling.h — the protocol of the adaptive sampling kit (seed adaptive-sampling-kit.txt,
 * "ASK", §6) on a design space whose every response is known: each sampler draws batches of
 * points, a surrogate (ASK's boosted trees, dcsim/gbm.h, weighted as in ASK §5) is fitted on
 * the points drawn so far and predicts the whole space, and its error is recorded against the
 * number of samples; the median over seeds removes the effect of the random seed (ASK: nine).
 * Applied to dcsim's own problem (doc/calibration.md, `dcsim calibrate sampling`): which
 * (frequency, cores) states of a CPU to measure, the known tables of a profile standing for the
 * measurements.
 *
 * Bootstrap (ASK §6): every sampler but random starts from the same Latin hypercube batch of
 * the seed; random from random points.
 *
 * Ownership: results are written into caller-provided structs; nothing outlives a call. */
#ifndef DCSIM_SAMPLING_H
#define DCSIM_SAMPLING_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dcsim/error.h"
#include "dcsim/gbm.h"
#include "dcsim/hvs.h"
#include "dcsim/hwprofile.h"

#define DCSIM_SAMPLING_MAX_STEPS 64

typedef struct dcsim_sampling_problem {
  size_t n, dim;
  const double *x; /* n x dim coordinates of the design points */
  const double *y; /* the true response at each */
} dcsim_sampling_problem;

typedef struct dcsim_sampling_opts {
  size_t budget; /* samples in all (at most n) */
  size_t batch;  /* samples per step */
  unsigned seeds;
  uint64_t seed0;
  dcsim_gbm_params gbm;
  double target; /* mean relative error a sampler should reach (0: none) */
} dcsim_sampling_opts;

/* One sampler's median curve: after steps[i] samples, the median over the seeds of the
 * surrogate's root mean square error and mean relative error over every design point. */
typedef struct dcsim_sampling_curve {
  dcsim_sampler sampler;
  size_t n_steps;
  size_t samples[DCSIM_SAMPLING_MAX_STEPS];
  double rmse[DCSIM_SAMPLING_MAX_STEPS], mre[DCSIM_SAMPLING_MAX_STEPS];
  size_t to_target; /* fewest samples whose median error is <= target; 0: not reached */
} dcsim_sampling_curve;

/* The ASK defaults for dcsim's small spaces: batches of 8, nine seeds, 300 trees of depth 3 with
 * shrinkage 0.1 and leaves of 2 (ASK's 3000 trees of depth 8, shrinkage 0.01 and leaves of 10
 * are for thousands of samples). */
void dcsim_sampling_default_opts(dcsim_sampling_opts *o);

int dcsim_sampling_study(const dcsim_sampling_problem *p, const dcsim_sampling_opts *o,
                         const dcsim_sampler *samplers, size_t n_samplers,
                         dcsim_sampling_curve *out, dcsim_error *err);

/* dcsim's own problem: every plain (frequency, cores) state of a CPU profile (labelled states
 * such as turbo left out), coordinates (GHz, threads), the response the profile's table
 * `quantity` (flops, L1, L2, L3, DRAM; flop/s or B/s) gives there. *x (n x 2) and *y are
 * malloc'd, freed by the caller. Error: an unknown quantity, a profile without that table. */
int dcsim_sampling_profile_problem(const dcsim_cpu_profile_t *cpu, const char *quantity, double **x,
                                   double **y, size_t *n, dcsim_error *err);

/* The study as text: the median error of each sampler against samples, the samples each needs
 * for o->target, the saving against the full space, and the plan of the best sampler. */
void dcsim_sampling_write_text(FILE *f, const char *what, const dcsim_sampling_problem *p,
                               const dcsim_sampling_opts *o, const dcsim_sampling_curve *c,
                               size_t n_curves, const size_t *plan, size_t n_plan,
                               dcsim_sampler planned);

/* The points sampler s draws with seed o->seed0 until o->budget (measuring them means reading
 * p->y): points[0..*n-1], in the order drawn. */
int dcsim_sampling_plan(const dcsim_sampling_problem *p, dcsim_sampler s,
                        const dcsim_sampling_opts *o, size_t *points, size_t *n, dcsim_error *err);

#endif
