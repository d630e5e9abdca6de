/* dcsim/sweep_axis.h — the axes of a finished sweep that its pictures filter and facet by: the
 * GPUs per GPU node (--gpus), the GPU nodes' CPU (--host-cpu) and the CPU
 * thread-scaling variant (--threading). One rule for a point's value on an axis, used by `dcsim
 * pareto` and `dcsim heatmap` alike (doc/sweep.md "Pictures of every axis").
 *
 * Ownership: nothing is allocated but the text dcsim_sweep_axis_values() appends to the caller's
 * dcsim_str; the functions read or mark the caller's points. */
#ifndef DCSIM_SWEEP_AXIS_H
#define DCSIM_SWEEP_AXIS_H

#include <stddef.h>

#include "dcsim/strutil.h"
#include "dcsim/sweep_io.h"

typedef enum dcsim_sweep_axis {
  DCSIM_AXIS_GPUS,      /* "gpus": GPUs per GPU node, "4" ("" when the sweep left the platform's) */
  DCSIM_AXIS_HOST_CPU,  /* "host-cpu": the GPU nodes' CPU profile ("" when the platform's) */
  DCSIM_AXIS_THREADING, /* "threading": "measured" (also when unset) or "ideal" */
  DCSIM_AXIS_N
} dcsim_sweep_axis;

/* "gpus", "host-cpu", "threading" */
const char *dcsim_sweep_axis_name(dcsim_sweep_axis ax);
/* The axis named s (its name above); -1 when s names none. */
int dcsim_sweep_axis_parse(const char *s, dcsim_sweep_axis *ax);
/* A value on an axis as text: a CPU profile name (at most 63 characters, the width of
 * dcsim_sweep_point.host_cpu), a count or a variant: it always fits. */
typedef char dcsim_sweep_axis_text[64];
/* A point's value on the axis as text into out ("" when the sweep did not set it). */
void dcsim_sweep_axis_value(const dcsim_sweep_point *p, dcsim_sweep_axis ax,
                            dcsim_sweep_axis_text out);
/* The distinct values of the done points on the axis, in point order, the first max of them into
 * vals; returns how many it kept, plus 1 when there were more than max. O(n x max). */
size_t dcsim_sweep_axis_distinct(const dcsim_sweep_point *pts, size_t n, dcsim_sweep_axis ax,
                                 dcsim_sweep_axis_text *vals, size_t max);
/* The distinct values of the done points on the axis, in point order, as "4, 8" appended to out
 * (an unset value reads "(the platform's)"; after 64 values, "..."; out->oom set when out of
 * memory); returns how many there are. */
size_t dcsim_sweep_axis_values(const dcsim_sweep_point *pts, size_t n, dcsim_sweep_axis ax,
                               dcsim_str *out);
/* Keeps done only the points whose value on the axis is one of the comma-separated vals; returns
 * how many done points are left. */
size_t dcsim_sweep_axis_keep(dcsim_sweep_point *pts, size_t n, dcsim_sweep_axis ax,
                             const char *vals);

#endif
