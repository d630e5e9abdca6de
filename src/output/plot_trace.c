/* plot_trace.c — recording a run for the Gantt and power charts (see dcsim/plot.h). */
#include "dcsim/plot.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/numfmt.h"
#include "dcsim/strutil.h"
#include "output/internal.h"

#define DCSIM_PLOT_MAX_BARS 2000000u

static int on_task(void *ctx, const dcsim_task_record *r, dcsim_error *err) {
  dcsim_plot_trace_t *t = ctx;
  const char *name = r->wf->wf->templates[r->wf->wf->tasks[r->task].tmpl].name;
  uint32_t lab = 0;
  while (lab < t->n_labels && strcmp(t->labels[lab], name) != 0) lab++;
  if (lab == t->n_labels) {
    if (DCSIM_GROW_N(t->labels, t->n_labels))
      return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    t->labels[t->n_labels++] = name;
  }
  for (uint32_t i = 0; i < r->n_nodes; i++) {
    if (t->n_bars == t->cap_bars) {
      if (t->cap_bars >= DCSIM_PLOT_MAX_BARS)
        return DCSIM_ERR(err, DCSIM_ERANGE, "", 0,
                         "more than %u task bars: too many for a Gantt chart", DCSIM_PLOT_MAX_BARS);
      size_t nc = t->cap_bars ? 2 * t->cap_bars : 1024;
      if (DCSIM_RESIZE(t->bars, nc)) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
      t->cap_bars = nc;
    }
    t->bars[t->n_bars++] =
        (dcsim_plot_bar){ r->nodes[i], r->start_ns, r->end_ns, lab, r->gpu_slot >= 0 };
  }
  if (r->end_ns > t->end_ns) t->end_ns = r->end_ns;
  return t->next && t->next->task ? t->next->task(t->next->ctx, r, err) : 0;
}

static int on_power(void *ctx, uint32_t node, int64_t t0, int64_t t1, double w, dcsim_error *err) {
  dcsim_plot_trace_t *t = ctx;
  if (DCSIM_GROW(t->segs, t->cap_segs, t->n_segs + 1))
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  t->segs[t->n_segs++] = (dcsim_plot_seg){ node, t0, t1, w };
  if (t1 > t->end_ns) t->end_ns = t1;
  return t->next && t->next->power ? t->next->power(t->next->ctx, node, t0, t1, w, err) : 0;
}

dcsim_plot_trace_t *dcsim_plot_trace_new(const dcsim_scenario *s, const dcsim_engine_sink *next,
                                         dcsim_error *err) {
  dcsim_plot_trace_t *t = calloc(1, sizeof *t);
  if (!t) {
    DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    return NULL;
  }
  t->s = s;
  t->next = next;
  t->sink = (dcsim_engine_sink){ t, on_task, on_power };
  return t;
}

uint64_t dcsim_plot_trace_bytes(uint64_t task_nodes) {
  uint64_t bars = task_nodes < DCSIM_PLOT_MAX_BARS ? task_nodes : DCSIM_PLOT_MAX_BARS;
  return 2 * (bars * sizeof(dcsim_plot_bar) + 2 * task_nodes * sizeof(dcsim_plot_seg));
}

void dcsim_plot_trace_free(dcsim_plot_trace_t *t) {
  if (!t) return;
  free(t->bars);
  free(t->segs);
  free(t->labels);
  free(t);
}

const dcsim_engine_sink *dcsim_plot_trace_sink(dcsim_plot_trace_t *t) { return &t->sink; }
