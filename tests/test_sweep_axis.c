/* test_sweep_axis.c — a sweep point's value on the GPU-count, host-CPU and threading axes, their
 * distinct values and the filter of pareto and heatmap (dcsim/sweep_axis.h). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "dcsim/lib.h"
#include "dcsim/sweep_axis.h"

static void set(dcsim_sweep_point *p, unsigned gpus, const char *host, const char *thr) {
  memset(p, 0, sizeof *p);
  p->done = 1;
  p->gpus = gpus;
  snprintf(p->host_cpu, sizeof p->host_cpu, "%s", host);
  snprintf(p->threading, sizeof p->threading, "%s", thr);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  dcsim_sweep_axis ax;
  CHECK_INT(dcsim_sweep_axis_parse("host-cpu", &ax), 0);
  CHECK_INT(ax, DCSIM_AXIS_HOST_CPU);
  CHECK_INT(dcsim_sweep_axis_parse("cores", &ax), -1);
  CHECK_STR(dcsim_sweep_axis_name(DCSIM_AXIS_THREADING), "threading");
  /* 6 points: GPU counts 8, 4, 8, 0 (the platform's), 4, 12; the fifth not done */
  dcsim_sweep_point p[6];
  set(&p[0], 8, "epyc-9654", "ideal");
  set(&p[1], 4, "epyc-7763", "");
  set(&p[2], 8, "epyc-7763", "measured");
  set(&p[3], 0, "", "ideal");
  set(&p[4], 4, "epyc-9654", "ideal");
  p[4].done = 0;
  set(&p[5], 12, "epyc-9654", "measured");
  dcsim_sweep_axis_text buf;
  dcsim_sweep_axis_value(&p[1], DCSIM_AXIS_THREADING, buf);
  CHECK_STR(buf, "measured"); /* unset: measured */
  dcsim_sweep_axis_value(&p[3], DCSIM_AXIS_GPUS, buf);
  CHECK_STR(buf, ""); /* the platform's */
  dcsim_str s = DCSIM_STR_INIT;
  CHECK_INT(dcsim_sweep_axis_values(p, 6, DCSIM_AXIS_GPUS, &s), 4);
  CHECK_STR(dcsim_str_cstr(&s), "8, 4, (the platform's), 12");
  dcsim_str_release(&s);
  CHECK_INT(dcsim_sweep_axis_values(p, 6, DCSIM_AXIS_HOST_CPU, &s), 3);
  CHECK_STR(dcsim_str_cstr(&s), "epyc-9654, epyc-7763, (the platform's)");
  dcsim_str_release(&s);
  dcsim_sweep_axis_text v[2];
  CHECK_INT(dcsim_sweep_axis_distinct(p, 6, DCSIM_AXIS_GPUS, v, 2), 3); /* 2 kept, more exist */
  CHECK_STR(v[1], "4");
  /* the filter: a list of values; "1" does not match "12"; the point not done stays not done */
  CHECK_INT(dcsim_sweep_axis_keep(p, 6, DCSIM_AXIS_GPUS, "1,08,8"), 2); /* "08" is not 8 */
  CHECK_INT(p[0].done && p[2].done && !p[1].done && !p[3].done && !p[4].done && !p[5].done, 1);
  CHECK_INT(dcsim_sweep_axis_keep(p, 6, DCSIM_AXIS_THREADING, "measured"), 1);
  CHECK_INT(p[2].done, 1);
  CHECK_INT(dcsim_sweep_axis_keep(p, 6, DCSIM_AXIS_HOST_CPU, "epyc-9654"), 0);
  CHECK_DONE();
}
