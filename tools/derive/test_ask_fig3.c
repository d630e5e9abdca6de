/* test_ask_fig3 — ASK Fig. 3's samples reach every region: R1 (0, 20] every 1, R2 (20, 40]
 * every 0.1, R3 (40, 100] every 1 (a buffer of 200 once stopped at x = 38 and never sampled R3).
 */
#include <stdio.h>

#include "validate.h"

int main(void) {
  enum { CAP = 280 };
  double x[CAP], y[CAP], w[CAP];
  size_t region_n[3];
  size_t n = val_ask_fig3_samples(x, y, w, CAP, region_n);
  int bad = 0;
  const size_t want[3] = { 20, 200, 60 };
  for (int r = 0; r < 3; r++)
    if (region_n[r] != want[r]) {
      fprintf(stderr, "test_ask_fig3: R%d has %zu samples, want %zu\n", r + 1, region_n[r],
              want[r]);
      bad = 1;
    }
  if (n != CAP || x[n - 1] != 100 || y[n - 1] != 20) {
    fprintf(stderr, "test_ask_fig3: %zu samples ending at x = %g, y = %g\n", n, x[n - 1], y[n - 1]);
    bad = 1;
  }
  /* a smaller buffer is cut, and says so through the counts */
  n = val_ask_fig3_samples(x, y, w, 200, region_n);
  if (n != 200 || region_n[2] != 0) {
    fprintf(stderr, "test_ask_fig3: cap 200 gave %zu samples, %zu in R3\n", n, region_n[2]);
    bad = 1;
  }
  return bad;
}
