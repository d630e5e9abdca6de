/* taskcsv.c — the per-task trace of a run as CSV (see dcsim/taskcsv.h). */
#include "dcsim/taskcsv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dcsim/strutil.h"
#include "util/csv.h"
#include "util/fileio.h"

struct dcsim_taskcsv {
  char *path, *tmp;
  FILE *f;
  const dcsim_scenario *s;
  const dcsim_engine_sink *next;
  dcsim_engine_sink sink;
  int finished;
};

static int on_task(void *ctx, const dcsim_task_record *t, dcsim_error *err) {
  dcsim_taskcsv_t *c = ctx;
  const dcsim_workflow *wf = t->wf->wf;
  const dcsim_task_template *tt = &wf->templates[wf->tasks[t->task].tmpl];
  int len = dcsim_workflow_task_name(wf, t->task, NULL, 0); /* the whole name, of any length */
  char *name = len >= 0 ? malloc((size_t)len + 1) : NULL;
  if (!name) return DCSIM_ERR(err, DCSIM_ENOMEM, c->path, 0, "out of memory");
  dcsim_workflow_task_name(wf, t->task, name, (size_t)len + 1);
  fprintf(c->f, "%u,", t->job);
  dcsim__csv_write_cell(c->f, wf->name);
  fprintf(c->f, ",%u,%u,", c->s->jobs[t->job].instance, t->task);
  dcsim__csv_write_cell(c->f, name);
  free(name);
  fputc(',', c->f);
  dcsim__csv_write_cell(c->f, tt->dwarf);
  fprintf(c->f, ",%s,", t->opt->gpus ? "gpu" : "cpu");
  dcsim__csv_write_cell(c->f, c->s->groups[t->opt->group].g->name);
  fprintf(c->f, ",%.10g,%.10g,", (double)t->start_ns * 1e-9, (double)t->end_ns * 1e-9);
  for (uint32_t i = 0; i < t->n_nodes; i++) fprintf(c->f, i ? " %u" : "%u", t->nodes[i]);
  fputc(',', c->f);
  if (t->gpu_slot >= 0) fprintf(c->f, "%d", t->gpu_slot);
  fprintf(c->f, ",%.10g,", t->energy_j == 0 ? 0.0 : t->energy_j);
  if (t->opt->ghz > 0) fprintf(c->f, "%.10g", t->opt->ghz);
  if (fputc('\n', c->f) == EOF)
    return DCSIM_ERR(err, DCSIM_EIO, c->path, 0, "write error: %s", strerror(errno));
  return c->next && c->next->task ? c->next->task(c->next->ctx, t, err) : 0;
}

static int on_power(void *ctx, uint32_t node, int64_t t0, int64_t t1, double w, dcsim_error *err) {
  dcsim_taskcsv_t *c = ctx;
  return c->next && c->next->power ? c->next->power(c->next->ctx, node, t0, t1, w, err) : 0;
}

int dcsim_taskcsv_open(const char *path, const dcsim_scenario *s, const dcsim_repro *rp,
                       const dcsim_engine_sink *next, dcsim_taskcsv_t **out, dcsim_error *err) {
  *out = NULL;
  dcsim_taskcsv_t *c = calloc(1, sizeof *c);
  if (!c || !(c->path = dcsim_strdup(path)) || !(c->tmp = dcsim__file_tmp_path(path))) {
    dcsim_taskcsv_close(c);
    return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  }
  if (!(c->f = fopen(c->tmp, "w"))) {
    int rc = DCSIM_ERR(err, DCSIM_EIO, path, 0, "cannot write: %s", strerror(errno));
    free(c->tmp);
    c->tmp = NULL; /* nothing to remove */
    dcsim_taskcsv_close(c);
    return rc;
  }
  c->s = s;
  c->next = next;
  c->sink = (dcsim_engine_sink){ c, on_task, on_power };
  if (rp) dcsim_repro_csv(c->f, rp);
  fputs(
      "job,workflow,instance,task,name,dwarf,device,node_group,start_s,end_s,nodes,gpu,energy_j,"
      "freq_ghz\n",
      c->f);
  *out = c;
  return 0;
}

const dcsim_engine_sink *dcsim_taskcsv_sink(dcsim_taskcsv_t *t) { return &t->sink; }

int dcsim_taskcsv_finish(dcsim_taskcsv_t *t, dcsim_error *err) {
  int bad = ferror(t->f) != 0;
  bad |= fclose(t->f) != 0;
  t->f = NULL;
  if (bad) return DCSIM_ERR(err, DCSIM_EIO, t->path, 0, "write error");
  int rc = dcsim__file_publish(t->tmp, t->path, err);
  if (rc) return rc;
  t->finished = 1;
  return 0;
}

void dcsim_taskcsv_close(dcsim_taskcsv_t *t) {
  if (!t) return;
  if (t->f) fclose(t->f);
  if (t->tmp && !t->finished) unlink(t->tmp);
  free(t->tmp);
  free(t->path);
  free(t);
}
