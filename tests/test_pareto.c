/* test_pareto.c — the Pareto front and its knee on hand-made point sets (doc/sweep.md's rule). */
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "dcsim/lib.h"
#include "dcsim/pareto.h"

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  /* A hand-made front with a clear elbow, plus dominated points, a duplicate, a tie in time and
   * an invalid point. Times and energies are "high-entropy" so a swapped axis would show. */
  /*                     0      1      2      3      4      5      6      7      8      9 */
  double t[] = { 10.5, 20.25, 40.75, 80.5, 25.0, 20.25, 60.0, 20.25, 5.125, NAN };
  double e[] = { 98.0, 41.5, 30.25, 28.0, 60.0, 41.5, 35.0, 55.0, 300.0, 1.0 };
  unsigned char valid[] = { 1, 1, 1, 1, 1, 1, 1, 1, 0, 1 };
  unsigned char fr[10];
  long n = dcsim_pareto_front(10, t, e, valid, fr);
  /* front: 0 (fastest valid), 1 and 5 (identical: neither dominates the other), 2, 3;
   * 4 is dominated by 1 (slower, more energy), 6 by 2, 7 by 1 (same time, more energy);
   * 8 is not valid, 9 has a non-finite time */
  CHECK_INT(n, 5);
  int want[] = { 1, 1, 1, 1, 0, 1, 0, 0, 0, 0 };
  for (int i = 0; i < 10; i++) CHECK_INT(fr[i], want[i]);
  /* knee: scaled over the front t' = (t-10.5)/70, e' = (e-28)/70:
   *   0: (0, 1) -> 1;  1: (0.139, 0.193) -> 0.238;  2: (0.432, 0.032) -> 0.433;  3: (1, 0) -> 1
   * so point 1 (its duplicate 5 ties; the lower index wins) */
  CHECK_INT(dcsim_pareto_knee(10, t, e, fr), 1);

  /* every point valid and equal energies: only the fastest is on the front (the others have as
   * much energy and more time), and it is the knee */
  double t2[] = { 21.25, 10.625, 5.3125, 2.65625 }, e2[] = { 892.12, 892.12, 892.12, 892.12 };
  unsigned char f2[4];
  CHECK_INT(dcsim_pareto_front(4, t2, e2, NULL, f2), 1);
  CHECK_INT(f2[3], 1);
  CHECK_INT(dcsim_pareto_knee(4, t2, e2, f2), 3);

  /* a front of one axis only (equal times): the least energy alone */
  double t3[] = { 7.5, 7.5, 7.5 }, e3[] = { 3.25, 1.75, 2.5 };
  unsigned char f3[3];
  CHECK_INT(dcsim_pareto_front(3, t3, e3, NULL, f3), 1);
  CHECK_INT(f3[1], 1);
  CHECK_INT(dcsim_pareto_knee(3, t3, e3, f3), 1);

  /* the knee is the elbow of a convex front, not an end: a classic L shape */
  double t4[] = { 1.0, 1.25, 2.5, 6.0, 12.0 }, e4[] = { 100.0, 20.0, 12.0, 10.5, 10.0 };
  unsigned char f4[5];
  CHECK_INT(dcsim_pareto_front(5, t4, e4, NULL, f4), 5);
  CHECK_INT(dcsim_pareto_knee(5, t4, e4, f4), 1);

  /* a two-point front: both ends are at distance 1, the smaller energy-delay product wins
   * (11433.4 x 706.7 < 11425.7 x 869.3: the slightly slower, much thriftier point) */
  double t6[] = { 11425.7, 11433.4, 11451.0 }, e6[] = { 869.3, 706.7, 836.2 };
  unsigned char f6[3];
  CHECK_INT(dcsim_pareto_front(3, t6, e6, NULL, f6), 2);
  CHECK_INT(f6[2], 0);
  CHECK_INT(dcsim_pareto_knee(3, t6, e6, f6), 1);

  /* ties within the tolerance: SH on 4 and 8 nodes, the same energy up to the rounding of its
   * sums (59918.52514 J printed for both) and 8 nodes twice as fast; 8 nodes dominates 4 */
  double t7[] = { 357.0243309, 178.5121654 }, e7[] = { 59918.525140000001, 59918.525140000016 };
  unsigned char f7[2];
  CHECK_INT(dcsim_pareto_front(2, t7, e7, NULL, f7), 1);
  CHECK_INT(f7[1], 1);
  /* ... also the other way round (the faster run's sum a few ulps larger or smaller) */
  e7[0] = 59918.525140000016;
  e7[1] = 59918.525140000001;
  CHECK_INT(dcsim_pareto_front(2, t7, e7, NULL, f7), 1);
  CHECK_INT(f7[1], 1);
  /* a tie in time, energies apart by more than the tolerance: the lower energy only */
  double t8[] = { 42.125, 42.125 * (1 + 1e-12) }, e8[] = { 9.75, 9.5 };
  unsigned char f8[2];
  CHECK_INT(dcsim_pareto_front(2, t8, e8, NULL, f8), 1);
  CHECK_INT(f8[1], 1);

  /* nothing valid: no front, no knee */
  unsigned char none[3] = { 0, 0, 0 }, f5[3];
  CHECK_INT(dcsim_pareto_front(3, t3, e3, none, f5), 0);
  CHECK_INT(dcsim_pareto_knee(3, t3, e3, f5), -1);

  /* three objectives (time, energy, cost), worked by hand: point 3 is beaten by 0 in all
   * three; 1 is the fastest, 2 the cheapest, 0 the least energy; 4 equals 0 (both stay); 5 is
   * dominated by 1 only through its cost (same time and energy, cost higher) */
  double ta[] = { 30.5, 10.25, 50.75, 31.5, 30.5, 10.25 },
         eb[] = { 100.5, 300.25, 200.5, 101.5, 100.5, 300.25 },
         cc[] = { 7.25, 9.5, 2.125, 7.5, 7.25, 9.625 };
  unsigned char f9[6];
  CHECK_INT(dcsim_pareto_front3(6, ta, eb, cc, NULL, f9), 4);
  CHECK_INT(f9[0] && f9[1] && f9[2] && f9[4], 1);
  CHECK_INT(f9[3] || f9[5], 0);
  /* the knee: scaled to [0,1] over the front (t 10.25..50.75, e 100.5..300.25, c 2.125..9.5),
   * point 0 is at (0.5, 0, 0.695) -> 0.856, 1 at (0, 1, 1) -> 1.414, 2 at (1, 0.5, 0) -> 1.118;
   * 0 and 4 tie, the lower index wins */
  CHECK_INT(dcsim_pareto_knee3(6, ta, eb, cc, f9), 0);
  unsigned char only2[6] = { 0, 0, 1, 1, 0, 0 };
  CHECK_INT(dcsim_pareto_front3(6, ta, eb, cc, only2, f9),
            2); /* 2 and 3: neither beats the other */
  CHECK_DONE();
}
