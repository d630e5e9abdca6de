/* validate.h — the checkers of `validate` (tools/derive/validate.c), which generates
 * doc/validation.md and runs its ctests.
 *
 * A section of doc/validation.md is one reference CSV (the CSVs of tests/reference listed in
 * tests/reference/sections.txt) whose rows are published numbers, and one checker that computes
 * dcsim's value of a row from the row's own columns. Every CSV has the common columns
 *
 *   source     where in the paper (Table 12, §7, Fig. 14)
 *   published  the printed number (empty for a not-covered row that stands for a group)
 *   tol        relative tolerance, abs:X for an absolute one (differences in %), or bool: a
 *              statement, published 1 (the paper states it) or 0, that holds when dcsim's
 *              value is non-zero
 *   evidence   what the row predicts (doc/validation/head.md, "Evidence"):
 *                out of sample: leave-one-out | held-out | other-hw (a CPU or GPU other than
 *                the one the model was fitted on);
 *                independent | consistency (the compared value is, or is computed only from,
 *                numbers of the same table, row or sentence) | measured | derived |
 *                construction | in-sample
 *   basis      derived: what it follows from; construction: which data were made from it;
 *              consistency: which numbers of its own table/row/sentence it is computed from;
 *              in-sample and out-of-sample rows: the fit
 *   inputs     required on compared independent, consistency, measured and out-of-sample rows: what
 * the dwarf and profile inputs were read from ("dwarfs/x.xml (Tables 7-9), ..."); an independent
 * row whose inputs cite its own source (the same Table N, Fig. N or §N of `source`) is refused: it
 * is consistency band       optional, out-of-sample rows only: PART/CLASS, the uncertainty band the
 * row's error is evidence for (calibration/bands.csv: `validate --bands`), PART one of cpu-time,
 * gpu-time, power and CLASS a provenance kind (dcsim/provenance.h); PART/CLASS/rate on a row
 * whose value is a rate (a bandwidth) and PART a time: its error e counts as the time's,
 * 1 / (1 + e) - 1 (a time is work over a rate) expect     reproduced |
 * not-reproduced | not-covered: the status the checker must find why        required for
 * not-reproduced and not-covered numbers    optional: how many published numbers a not-covered row
 * stands for (default 1; 0 for a number the paper withholds) predict    optional, 1 on a
 * not-covered row: the checker still computes dcsim's value, a prediction printed for whoever holds
 * the number (not judged, not counted as evidence)
 *
 * and the checker's own columns (dwarf, case, hardware, quantity ...). `validate` computes the
 * status (within tolerance: reproduced) and fails a row whose status is not its `expect`, so a
 * number that stops (or starts) being reproduced changes the CSV deliberately.
 *
 * Adding a checker: write check_<name>.c with a `const val_checker val_<name> = VAL_CHECKER(...)`
 * (its `what` says what it checks), list it in validate.c's table and tools/CMakeLists.txt, and
 * regenerate doc/design.md's list (tools/gen-design-checkers.sh). */
#ifndef DCSIM_TOOLS_VALIDATE_H
#define DCSIM_TOOLS_VALIDATE_H

#include <stddef.h>
#include <stdio.h>

#include "dcsim/error.h"
#include "util/csv.h"

typedef struct val_row {
  const dcsim_csv_t *t;
  size_t r;
  const char *path; /* the CSV */
} val_row;

/* The row's cell of column `name`; "" when the CSV has no such column. */
const char *val_col(const val_row *w, const char *name);
/* The cell as a number (DCSIM_ERANGE naming the file and line when it is not one). */
int val_num(const val_row *w, const char *name, double *out, dcsim_error *err);

typedef struct val_checker {
  const char *name;
  /* per-section state (may be NULL): made before the first row, freed after the last */
  int (*init)(void **state, dcsim_error *err);
  void (*fini)(void *state);
  /* what the row is, for the table's "quantity" column */
  void (*label)(const val_row *w, char *buf, size_t size);
  /* dcsim's value of the row */
  int (*compute)(void *state, const val_row *w, double *out, dcsim_error *err);
  /* generated markdown printed after the section's table (may be NULL) */
  int (*extra)(void *state, FILE *f, dcsim_error *err);
  /* the checker's own account of a compared row, printed after its status (may be NULL; called
   * after compute): what moves and by how much, a verdict under the other model. Leaves buf
   * empty when it has nothing to say. */
  int (*note)(void *state, const val_row *w, char *buf, size_t size, dcsim_error *err);
  /* what it checks, one sentence without the final full stop: doc/design.md's list of checkers
   * is made of these (`validate --checkers`, tools/gen-design-checkers.sh) */
  const char *what;
} val_checker;

/* A checker's entry, its fields in val_checker's order (NULL where it has no such function): one
 * call instead of the eight-line initialiser clang-format would spread each entry into. */
#define VAL_CHECKER(name, init, fini, label, compute, extra, note, what) \
  { name, init, fini, label, compute, extra, note, what }

/* ASK Fig. 3's sampled function (check_sampling.c): fills at most cap points of s(x), R2 ten
 * times denser, and counts the points of each region (R1 (0, 20], R2 (20, 40], R3 (40, 100]).
 * Returns the number of points; all 280 fit when cap >= 280. */
size_t val_ask_fig3_samples(double *x, double *y, double *w, size_t cap, size_t region_n[3]);

extern const val_checker val_d35, val_papers, val_conclusions, val_small_domain, val_sampling,
    val_gpu_default, val_leaveout, val_power, val_measured_gpus, val_modern;

#endif
