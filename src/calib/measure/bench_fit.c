/* bench_fit.c — `dcsim bench`'s loop fits (weighted by each point's spread, through the same
 * code as `dcsim calibrate loops`) and the held-out test: every thread count of the loops left
 * out in turn and predicted by `dcsim model` (doc/calibration.md "dcsim bench"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calib/measure/bench_internal.h"
#include "dcsim/dwarf.h"
#include "dcsim/fit_coeffs.h"
#include "dcsim/model.h"

/* Predicted time of the loop point p with the dwarf file dw: the same path as `dcsim model`. */
static int predict(const char *dw, const dcsim_cpu_profile_t *cpu, const bench_run *R,
                   const bench_point *p, double *t_s, dcsim_error *err) {
  dcsim_dwarf_t *d = NULL;
  dcsim_dwarf_eval *ev = NULL;
  dcsim_prediction pr;
  memset(&pr, 0, sizeof pr);
  int rc = dcsim_dwarf_load(dw, &d, err);
  if (rc) return rc;
  int l2 = strcmp(p->level, "L2") == 0;
  dcsim_binding b[4] = { { "N_L2", l2 ? (double)p->n_elem : 1, "bench", 0 },
                         { "N_DRAM", l2 ? 1 : (double)p->n_elem, "bench", 0 },
                         { "THREADS", p->threads, "bench", 0 },
                         { "ITER", (double)p->passes, "bench", 0 } };
  if ((rc = dcsim_dwarf_evaluate(d, NULL, b, 4, &ev, err))) goto out;
  dcsim_model_req rq;
  memset(&rq, 0, sizeof rq);
  rq.ev = ev;
  rq.cpu = cpu;
  rq.nodes = 1;
  if ((rc = dcsim_cpu_profile_freq(cpu, R->freq_id, &rq.state, err))) goto out;
  rq.state.threads = p->threads;
  rq.energy_form = DCSIM_ENERGY_NONE;
  if ((rc = dcsim_model_run(&rq, &pr, err))) goto out;
  rc = DCSIM_ERR(err, DCSIM_EREF, dw, 0, "loop %s not in the model result", p->kernel);
  for (size_t l = 0; l < pr.cpu->n_loops; l++)
    if (strcmp(pr.cpu->parts[l].name, p->kernel) == 0) {
      *t_s = pr.cpu->parts[l].time_s;
      rc = 0;
    }
out:
  dcsim_prediction_release(&pr);
  dcsim_dwarf_eval_free(ev);
  dcsim_dwarf_free(d);
  return rc;
}

/* dcsim__bench_fit_heldout with the run's files: loops.csv, the dwarf dw, the fold's dwarf and the
 * source= of the fit on every thread count */
static int fit_heldout(bench_run *R, const dcsim_cpu_profile_t *cpu, const char *loops,
                       const char *dw, const char *fold, const char *src, bench_heldout **ho,
                       size_t *nho, dcsim_loop_fit **fits_out, size_t *nfits, dcsim_error *err) {
  dcsim_loop_fit *fits = NULL;
  size_t nf = 0;
  dcsim_loop_fit_opts o = { DCSIM_FIT_LAD, DCSIM_FIT_LSQ, NULL, 0 };
  int rc = dcsim_calib_fit_loops(loops, cpu, &o, &fits, &nf, err);
  if (!rc) rc = dcsim_calib_update_dwarf(dw, dw, fits, nf, src, err);
  if (rc) {
    free(fits);
    return rc;
  }
  *fits_out = fits;
  *nfits = nf;
  bench_heldout *h = calloc(R->np ? R->np : 1, sizeof *h);
  if (!h) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  size_t n = 0;
  for (unsigned ti = 0; ti < R->ntc_loops && R->ntc_loops >= 2; ti++) {
    unsigned t = R->tc_loops[ti];
    dcsim_loop_fit *ff = NULL;
    size_t nff = 0;
    dcsim_loop_fit_opts of = { DCSIM_FIT_LAD, DCSIM_FIT_LSQ, NULL, t };
    char *fsrc =
        dcsim_strdup_printf("fitted without the %u-thread measurements (held-out test)", t);
    if (!fsrc)
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    else if (!(rc = dcsim_calib_fit_loops(loops, cpu, &of, &ff, &nff, err)))
      rc = dcsim_calib_update_dwarf(dw, fold, ff, nff, fsrc, err);
    free(fsrc);
    free(ff);
    if (rc) break;
    for (size_t i = 0; i < R->np && !rc; i++) {
      const bench_point *p = &R->pts[i];
      if (strcmp(p->phase, "loop") != 0 || p->threads != t) continue;
      bench_heldout *x = &h[n];
      *x = (bench_heldout){ dcsim_strdup(p->kernel), t, p->med, 0, 0 };
      if (!x->loop)
        rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
      else if (!(rc = predict(fold, cpu, R, p, &x->predicted_s, err)) &&
               !(rc = predict(dw, cpu, R, p, &x->insample_s, err)))
        n++;
      else
        free(x->loop);
    }
    remove(fold);
    if (rc) break;
  }
  if (rc) {
    dcsim__bench_heldout_free(h, n);
    return rc;
  }
  *ho = h;
  *nho = n;
  return 0;
}

void dcsim__bench_heldout_free(bench_heldout *ho, size_t n) {
  for (size_t i = 0; ho && i < n; i++) free(ho[i].loop);
  free(ho);
}

int dcsim__bench_fit_heldout(bench_run *R, const dcsim_cpu_profile_t *cpu, const char *profile_path,
                             bench_heldout **ho, size_t *nho, dcsim_loop_fit **fits_out,
                             size_t *nfits, dcsim_error *err) {
  const char *out = R->o->out_dir;
  char *loops = dcsim_path_in(out, "loops.csv"), *dw = dcsim_path_in(out, "bench-kernels.xml"),
       *fold = dcsim_path_in(out, ".heldout-fold.xml");
  char *src = dcsim_strdup_printf(
      "fitted: dcsim bench (LAD V,X,Y,Z; least-squares U,S; weights 1/spread) on all thread "
      "counts against %s",
      profile_path);
  int rc = loops && dw && fold && src
               ? fit_heldout(R, cpu, loops, dw, fold, src, ho, nho, fits_out, nfits, err)
               : DCSIM_ERR(err, DCSIM_ENOMEM, out, 0, "out of memory");
  free(loops);
  free(dw);
  free(fold);
  free(src);
  return rc;
}

/* Each loop point's fit weight: 1/max(disp, 0.5 %) — a point whose repetitions spread twice as
 * wide counts half as much (LAD minimises the weighted sum of relative deviations, so this is the
 * L1 analogue of inverse-variance weights); normalised to mean 1 per loop. */
void dcsim__bench_loop_weights(bench_run *R) {
  for (size_t i = 0; i < R->np; i++) {
    if (strcmp(R->pts[i].phase, "loop") != 0) continue;
    double sum = 0;
    size_t n = 0;
    for (size_t j = 0; j < R->np; j++)
      if (strcmp(R->pts[j].phase, "loop") == 0 && strcmp(R->pts[j].kernel, R->pts[i].kernel) == 0) {
        sum += 1 / fmax(R->pts[j].disp, 0.005);
        n++;
      }
    R->pts[i].weight = (1 / fmax(R->pts[i].disp, 0.005)) / (sum / (double)n);
  }
}
