/* validate-d35 — recomputes every reproducible number of ESCAPE D3.5 listed in
 * tests/reference/d35.csv with libdcsim and compares it with the published value.
 *
 * usage: validate-d35 REFERENCE.csv (--check | --markdown)
 *   --check     prints the rows out of tolerance and exits 1 if there is any (ctest d35_tables)
 *   --markdown  prints the comparison table of doc/validation.md */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"
#include "dcsim/csv.h"
#include "dcsim/model.h"

static int die(const dcsim_error *e) {
  char b[2048];
  dcsim_error_format(e, b, sizeof b);
  fprintf(stderr, "validate-d35: %s\n", b);
  return 2;
}

/* Computes the dcsim value of one reference row. */
static int compute(const char *dwarf, const char *cs, const char *hw, unsigned nodes,
                   unsigned cores, const char *item, const char *qty, double *out,
                   dcsim_error *err) {
  char dpath[4096], hpath[4096];
  dcsim_dwarf_t *d = NULL;
  dcsim_dwarf_eval *ev = NULL;
  dcsim_cpu_profile_t *cpu = NULL;
  dcsim_gpu_profile_t *gpu = NULL;
  dcsim_prediction p;
  memset(&p, 0, sizeof p);
  int rc;
  if ((rc = dcsim_catalog_resolve(DCSIM_KIND_DWARF, dwarf, NULL, 0, dpath, sizeof dpath, err)) ||
      (rc = dcsim_dwarf_load(dpath, &d, err)))
    goto out;
  int is_gpu = dcsim_dwarf_device_of(d) == DCSIM_DWARF_GPU;
  if ((rc = dcsim_catalog_resolve(is_gpu ? DCSIM_KIND_GPU : DCSIM_KIND_CPU, hw, NULL, 0, hpath,
                                  sizeof hpath, err)))
    goto out;
  if (is_gpu)
    rc = dcsim_gpu_profile_load(hpath, &gpu, err);
  else
    rc = dcsim_cpu_profile_load(hpath, &cpu, err);
  if (rc) goto out;
  if (strcmp(qty, "pkg_j") == 0 || strcmp(qty, "dram_j") == 0 || strcmp(qty, "energy_j") == 0) {
    /* measured time in `item`: the §5.3 energy of that run (Table 35) */
    dcsim_energy_coeffs ec;
    dcsim_cpu_power pw;
    dcsim_cpu_state st = { dcsim_cpu_profile_nominal_ghz(cpu), NULL, cores };
    if ((rc = dcsim_dwarf_energy_coeffs(d, &ec, err)) ||
        (rc = dcsim_cpu_profile_power(cpu, &st, &pw, err)))
      goto out;
    dcsim_cpu_energy e = dcsim_energy_cpu_53(&ec, &pw, atof(item));
    *out = strcmp(qty, "pkg_j") == 0 ? e.pkg_j : strcmp(qty, "dram_j") == 0 ? e.dram_j : e.energy_j;
    goto out;
  }
  if ((rc = dcsim_dwarf_evaluate(d, *cs ? cs : NULL, NULL, 0, &ev, err))) goto out;
  dcsim_model_req rq;
  memset(&rq, 0, sizeof rq);
  rq.ev = ev;
  rq.cpu = cpu;
  rq.gpu = gpu;
  rq.nodes = nodes;
  rq.state.threads = cores ? cores : 1;
  rq.state.ghz = cpu ? dcsim_cpu_profile_nominal_ghz(cpu) : 0;
  rq.energy_form = DCSIM_ENERGY_NONE;
  rq.flags = DCSIM_MODEL_D35; /* D3.5's published numbers: its model exactly */
  if ((rc = dcsim_model_run(&rq, &p, err))) goto out;
  if (strcmp(item, "*") == 0) {
    if (strcmp(qty, "time_s") == 0)
      *out = p.time_s;
    else if (p.gpu && strcmp(qty, "compute_s") == 0)
      *out = p.gpu->compute_s;
    else if (p.gpu && strcmp(qty, "transfer_s") == 0)
      *out = p.gpu->transfer_s;
    else if (p.gpu && strcmp(qty, "inactive_s") == 0)
      *out = p.gpu->inactive_s;
    else
      rc = DCSIM_ERR(err, DCSIM_EREF, "", 0, "unknown quantity %s", qty);
    goto out;
  }
  rc = DCSIM_ERR(err, DCSIM_EREF, "", 0, "no part '%s' in %s", item, dwarf);
  for (size_t k = 0; p.gpu && k < p.gpu->n_kernels; k++) {
    const dcsim_kernel_part *kp = &p.gpu->parts[k];
    if (strcmp(kp->name, item) != 0) continue;
    rc = 0;
    *out = strcmp(qty, "compute_s") == 0    ? kp->compute_s
           : strcmp(qty, "transfer_s") == 0 ? kp->transfer_s
           : strcmp(qty, "inactive_s") == 0 ? kp->inactive_s
                                            : kp->time_s;
  }
  for (size_t l = 0; p.cpu && l < p.cpu->n_loops; l++) {
    const dcsim_loop_part *lp = &p.cpu->parts[l];
    if (strcmp(lp->name, item) != 0) continue;
    rc = 0;
    *out = strcmp(qty, "work_flop") == 0      ? lp->work_flop
           : strcmp(qty, "traffic_byte") == 0 ? lp->traffic_byte
                                              : lp->time_s;
  }
out:
  dcsim_prediction_release(&p);
  dcsim_dwarf_eval_free(ev);
  dcsim_dwarf_free(d);
  dcsim_cpu_profile_free(cpu);
  dcsim_gpu_profile_free(gpu);
  return rc;
}

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[2], "--check") != 0 && strcmp(argv[2], "--markdown") != 0)) {
    fprintf(stderr, "usage: validate-d35 REFERENCE.csv (--check | --markdown)\n");
    return 2;
  }
  int md = strcmp(argv[2], "--markdown") == 0;
  dcsim_error err;
  dcsim_csv_t *t = NULL;
  if (dcsim_csv_load(argv[1], &t, &err)) return die(&err);
  const char *cols[] = { "table", "dwarf", "case",     "hw",        "nodes",
                         "cores", "item",  "quantity", "published", "tol" };
  size_t c[10];
  for (int i = 0; i < 10; i++)
    if (dcsim_csv_col(t, cols[i], &c[i], &err)) return die(&err);
  int failures = 0, rows = 0;
  double worst = 0;
  if (md) {
    printf(
        "| D3.5 | dwarf | case | hardware | nodes | cores | item | quantity | published | dcsim | "
        "difference | tolerance |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  }
  for (size_t r = 0; r < dcsim_csv_rows(t); r++) {
    double nodes, cores, pub, tol, got = NAN;
    if (dcsim_csv_num(t, r, c[4], &nodes, &err) || dcsim_csv_num(t, r, c[5], &cores, &err) ||
        dcsim_csv_num(t, r, c[8], &pub, &err) || dcsim_csv_num(t, r, c[9], &tol, &err))
      return die(&err);
    if (compute(dcsim_csv_cell(t, r, c[1]), dcsim_csv_cell(t, r, c[2]), dcsim_csv_cell(t, r, c[3]),
                (unsigned)nodes, (unsigned)cores, dcsim_csv_cell(t, r, c[6]),
                dcsim_csv_cell(t, r, c[7]), &got, &err))
      return die(&err);
    double diff = (got - pub) / pub;
    int ok = fabs(diff) <= tol;
    rows++;
    if (fabs(diff) > worst) worst = fabs(diff);
    if (!ok) failures++;
    if (md)
      printf("| %s | %s | %s | %s | %.0f | %.0f | %s | %s | %.6g | %.6g | %+.2f%% | %.1f%%%s |\n",
             dcsim_csv_cell(t, r, c[0]), dcsim_csv_cell(t, r, c[1]), dcsim_csv_cell(t, r, c[2]),
             dcsim_csv_cell(t, r, c[3]), nodes, cores, dcsim_csv_cell(t, r, c[6]),
             dcsim_csv_cell(t, r, c[7]), pub, got, 100 * diff, 100 * tol, ok ? "" : " **FAIL**");
    else if (!ok)
      fprintf(
          stderr, "%s:%d: %s %s %s %s: dcsim %.6g, published %.6g (%+.2f%%, tolerance %.1f%%)\n",
          argv[1], dcsim_csv_line(t, r), dcsim_csv_cell(t, r, c[0]), dcsim_csv_cell(t, r, c[2]),
          dcsim_csv_cell(t, r, c[6]), dcsim_csv_cell(t, r, c[7]), got, pub, 100 * diff, 100 * tol);
  }
  if (md)
    printf("\n%d numbers compared, %d out of tolerance, largest difference %.2f%%.\n", rows,
           failures, 100 * worst);
  else
    printf("%d passed, %d failed\n", rows - failures, failures);
  dcsim_csv_free(t);
  return failures ? 1 : 0;
}
