/* test_sweep_bands.c — a sweep's bands and the points indistinguishable from its front
 * (dcsim/sweep_bands.h), on hand-made points and bands. */
#include "dcsim/sweep_bands.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

/* bands of -10 % / +20 % for every CPU class but spec (-25 % / +50 %), -30 % / +40 % for every
 * GPU and power class */
static dcsim_bands_t *make_bands(void) {
  char path[] = "/tmp/dcsim_sweep_bandsXXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return NULL;
  FILE *f = fdopen(fd, "w");
  static const char *const cls[] = { "table", "interpolated", "extrapolated", "spec" };
  fputs("part,class,low,high,rows,source\n", f);
  for (int k = 0; k < 4; k++)
    fprintf(f, "cpu-time,%s,%s,1,t\ngpu-time,%s,-0.3,0.4,1,t\npower,%s,-0.3,0.4,1,t\n", cls[k],
            k == 3 ? "-0.25,0.5" : "-0.1,0.2", cls[k], cls[k]);
  fclose(f);
  dcsim_bands_t *b = NULL;
  dcsim_error e;
  if (dcsim_bands_load(path, &b, &e)) fprintf(stderr, "%s\n", e.msg);
  unlink(path);
  return b;
}

static dcsim_sweep_point point(double t, double e, int pareto, const char *gpu) {
  dcsim_sweep_point p;
  memset(&p, 0, sizeof p);
  p.done = p.feasible = 1;
  p.time_s = t;
  p.energy_j = e;
  p.pareto = pareto;
  snprintf(p.cpu, sizeof p.cpu, "c");
  snprintf(p.gpu, sizeof p.gpu, "%s", gpu);
  return p;
}

int main(void) {
  dcsim_bands_t *b = make_bands();
  CHECK(b != NULL);
  if (!b) CHECK_DONE();
  dcsim_sweep_point p[6];
  p[0] = point(100, 1000, 1, ""); /* the front */
  p[1] = point(110, 1100, 0, ""); /* dominated, but its bands meet the front's: indistinguishable */
  p[2] = point(300, 3000, 0, ""); /* surely worse: time 270 > 120 and energy 1890 > 1680 */
  p[3] = point(300, 1100, 0, ""); /* its time band [270, 360] meets no front point's: told apart */
  p[4] = point(400, 4000, 0, "g"); /* a GPU point: the union of the two time bands */
  p[5] = point(115, 1150, 0, "");  /* its bands meet the front's, nothing surely beats it: near */
  for (int i = 0; i < 6; i++) p[i].cost_usd = NAN;
  dcsim_sweep_bands_mark(p, 6, b, NULL, DCSIM_OBJ_DEFAULT);
  for (int i = 0; i < 5; i++) CHECK(p[i].has_band);
  CHECK_REL(p[0].time_band[0], 90, 1e-12);
  CHECK_REL(p[0].time_band[1], 120, 1e-12);
  CHECK_REL(p[0].energy_band[0], 1000 * 0.9 * 0.7, 1e-12); /* time band x power band */
  CHECK_REL(p[0].energy_band[1], 1000 * 1.2 * 1.4, 1e-12);
  CHECK_REL(p[4].time_band[0], 400 * 0.7, 1e-12);
  CHECK_REL(p[4].time_band[1], 400 * 1.4, 1e-12);
  CHECK(!p[0].near_front); /* on the front: not "near" it */
  CHECK(p[1].near_front);
  CHECK(!p[2].near_front);
  CHECK(!p[3].near_front); /* not surely dominated, but its bands meet no front point's */
  CHECK(!p[4].near_front);
  CHECK(p[5].near_front);
  CHECK(!p[0].has_cost_band); /* no cost: no cost band */
  /* a point that meets the front's bands but that another point surely beats is ruled out */
  p[5] = point(118, 1180, 0, "");
  p[1] = point(40, 300, 0, ""); /* off the front as marked here, surely better than p[5] */
  p[5].cost_usd = p[1].cost_usd = NAN;
  dcsim_sweep_bands_mark(p, 6, b, NULL, DCSIM_OBJ_DEFAULT);
  CHECK(!p[5].near_front);
  p[1] = point(110, 1100, 0, "");
  p[1].cost_usd = NAN;
  /* the cost band: cost x the smaller and the larger of the relative time and energy bands, and
   * the front over time and cost */
  for (int i = 0; i < 6; i++) p[i].cost_usd = 2.385 * p[i].time_s;
  p[3].cost_usd = NAN; /* unknown cost: no cost band, on no cost front, never near it */
  dcsim_sweep_bands_mark(p, 6, b, NULL, DCSIM_OBJ_TIME | DCSIM_OBJ_COST);
  CHECK(p[0].has_cost_band && !p[3].has_cost_band);
  CHECK_REL(p[0].cost_band[0], 238.5 * 0.9 * 0.7, 1e-12);
  CHECK_REL(p[0].cost_band[1], 238.5 * 1.2 * 1.4, 1e-12);
  CHECK(p[1].near_front && !p[3].near_front && !p[2].near_front);
  /* an infeasible point gets no band */
  p[2].feasible = 0;
  dcsim_sweep_bands_mark(p, 6, b, NULL, DCSIM_OBJ_DEFAULT);
  CHECK(!p[2].has_band && !p[2].near_front);
  /* a point on a CPU whose rates were carried from another: the cpu-time spec band at its class
   * (here table; make_bands gives spec -25 % / +50 %) */
  unsigned char tr[6] = { 1, 0, 0, 0, 0, 0 };
  dcsim_sweep_bands_mark(p, 6, b, tr, DCSIM_OBJ_DEFAULT);
  CHECK_REL(p[0].time_band[0], 75, 1e-12);
  CHECK_REL(p[0].time_band[1], 150, 1e-12);
  CHECK_REL(p[1].time_band[1], 110 * 1.2, 1e-12);
  /* a point whose task ran beyond its thread law's measured cores (time_cover
   * 2.385: the law continued over the time) has its time band reach 2.385 x its time with the
   * class band's relative width, and its energy band stretched by the same factor (the rule of
   * dcsim model, dcsim_bands_cover); 0 and 1 mean none */
  p[1].time_cover = 2.385;
  p[5].time_cover = 1;
  dcsim_sweep_bands_mark(p, 6, b, NULL, DCSIM_OBJ_DEFAULT);
  CHECK_REL(p[1].time_band[0], 110 * 0.9, 1e-12);
  CHECK_REL(p[1].time_band[1], 110 * 2.385 * 1.2, 1e-12);
  CHECK_REL(p[1].energy_band[0], 1100 * 0.9 * 0.7, 1e-12);
  CHECK_REL(p[1].energy_band[1], 1100 * 2.385 * 1.2 * 1.4, 1e-12);
  CHECK_REL(p[5].time_band[1], p[5].time_s * 1.2, 1e-12);
  CHECK_REL(p[0].time_band[1], 120, 1e-12);
  dcsim_bands_free(b);
  CHECK_DONE();
}
