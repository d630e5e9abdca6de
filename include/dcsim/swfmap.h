/* dcsim/swfmap.h — rules that turn the jobs of an SWF trace into dwarf calls
 * (schemas/swf-map.xsd, doc/workloads.md). The first rule whose criteria all hold applies;
 * criteria are inclusive ranges on processors and run time and equalities on the SWF queue,
 * user, group, executable and partition fields.
 *
 * Ownership: dcsim_swf_map_load() stores a heap object in *out freed by dcsim_swf_map_free()
 * (NULL-safe); its strings and arrays are owned by it. */
#ifndef DCSIM_SWFMAP_H
#define DCSIM_SWFMAP_H

#include <stddef.h>

#include "dcsim/error.h"
#include "dcsim/swf.h"
#include "dcsim/workflow.h"

typedef struct dcsim_swf_rule {
  char *name;
  char *dwarf, *case_name; /* case_name may be NULL */
  dcsim_device device;
  unsigned nodes;          /* 0 = the job's node count */
  unsigned cores_per_node; /* 0 = every core; DCSIM_SWF_RULE_JOB = the job's cores per node */
  size_t n_sets;
  dcsim_param_set *sets;
  /* criteria; a negative bound or id means "any" */
  double min_procs, max_procs, min_run_s, max_run_s;
  long long queue, user, group, app, partition;
  int line;
} dcsim_swf_rule;

#define DCSIM_SWF_RULE_JOB 0xffffffffu

typedef struct dcsim_swf_map {
  char *path, *name;
  int skip_unmatched; /* unmatched="skip" */
  size_t n_rules;
  dcsim_swf_rule *rules;
} dcsim_swf_map;

int dcsim_swf_map_load(const char *path, dcsim_swf_map **out, dcsim_error *err);
void dcsim_swf_map_free(dcsim_swf_map *m);

/* Index of the first rule matching job j (with `procs` processors), or -1. */
long dcsim_swf_map_match(const dcsim_swf_map *m, const dcsim_swf_job *j, long long procs);

#endif
