/* ask_fig3.c — the sampled function of ASK §5, Fig. 3 (validate.h), apart from its checker so
 * that test_ask_fig3 can check that every region is sampled. */
#include "validate.h"

size_t val_ask_fig3_samples(double *x, double *y, double *w, size_t cap, size_t region_n[3]) {
  size_t n = 0;
  region_n[0] = region_n[1] = region_n[2] = 0;
  for (int i = 1; i <= 100; i++) { /* R2 every 0.1, R1 and R3 every 1: ten times denser */
    const int region = i <= 20 ? 0 : i <= 40 ? 1 : 2, per = region == 1 ? 10 : 1;
    for (int k = 1; k <= per && n < cap; k++) { /* (i - 1, i] in `per` steps, counted exactly */
      double v = i - 1 + (double)k / per;
      x[n] = v;
      y[n] = region == 0 ? 1 : region == 1 ? v - 20 : 20; /* ASK §5's s(x) */
      w[n++] = region == 1 ? 0.1 : 1;                     /* w_r = s_r / n_r, up to a constant */
      region_n[region]++;
    }
  }
  return n;
}
