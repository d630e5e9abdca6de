/* dcsim/wmsconf.h — a workflow management system description (schemas/wms.xsd, doc/wms.md): the
 * numbers of the Pegasus/DAGMan/HTCondor mechanisms that dcsim/wms.h simulates, in profiles
 * selected by the runtime system a workflow records (WfCommons runtimeSystem name and version).
 *
 * Every parameter is given once at the top level (shared) or in the profile, and every profile
 * must end up with all of them: a missing value is an error, never a silent default. Each value
 * carries its source; a fitted value also its fit grid (dcsim_wms_fit).
 *
 * Ownership: dcsim_wms_conf_load() stores in *out a heap object freed by dcsim_wms_conf_free()
 * (NULL-safe); every string in it is owned by it. Profiles returned by the select function are
 * borrowed from the description. */
#ifndef DCSIM_WMSCONF_H
#define DCSIM_WMSCONF_H

#include <stddef.h>

#include "dcsim/error.h"

/* How job files move (Pegasus's pegasus.data.configuration). */
typedef enum {
  DCSIM_WMS_SHAREDFS,    /* jobs read and write a shared file system inside their runtime */
  DCSIM_WMS_NONSHAREDFS, /* PegasusLite stages each job's files from/to the staging site */
  DCSIM_WMS_CONDORIO     /* HTCondor file transfer through the submit host */
} dcsim_wms_data;

/* The parameters, in the order of dcsim_wms_param_name(). Bandwidths of 0 mean unlimited;
 * counts of 0 (max_jobs, max_idle, matches_per_machine) mean no limit; claim_reuse is 0 (off) or
 * 1 (on). */
typedef enum {
  DCSIM_WMS_DAGMAN_START_S,
  DCSIM_WMS_DAGMAN_CYCLE_S,
  DCSIM_WMS_MAX_SUBMITS_PER_CYCLE,
  DCSIM_WMS_SUBMIT_S,
  DCSIM_WMS_MAX_JOBS,
  DCSIM_WMS_MAX_IDLE,
  DCSIM_WMS_PRE_SCRIPT_S,
  DCSIM_WMS_MAX_PRE,
  DCSIM_WMS_POST_SCRIPT_S,
  DCSIM_WMS_MAX_POST,
  DCSIM_WMS_NEGOTIATOR_CYCLE_S,
  DCSIM_WMS_MATCHES_PER_MACHINE,
  DCSIM_WMS_JOB_WRAPPER_S,
  DCSIM_WMS_WORKER_NIC_BPS,
  DCSIM_WMS_STAGING_BPS,
  DCSIM_WMS_INPUT_BPS,
  DCSIM_WMS_AUX_JOB_S,
  DCSIM_WMS_CLAIM_REUSE,
  DCSIM_WMS_CLAIM_WORKLIFE_S,
  DCSIM_WMS_FILE_S,
  DCSIM_WMS_JOB_PRIORITIES,
  DCSIM_WMS_N_PARAMS
} dcsim_wms_param;

typedef struct dcsim_wms_params {
  double v[DCSIM_WMS_N_PARAMS]; /* indexed by dcsim_wms_param */
  dcsim_wms_data data;
} dcsim_wms_params;

/* The grid a fitted parameter is searched on (tools/derive/fit_wms.c): steps points from min to
 * max, evenly spaced, on a logarithmic scale for bandwidths (names ending in -bps), which also
 * try 0 (unlimited). steps = 0: not fitted. */
typedef struct dcsim_wms_fit {
  double min, max;
  unsigned steps;
} dcsim_wms_fit;

typedef struct dcsim_wms_profile {
  char *name;
  char *description;    /* what the profile stands for (campaign, node type), NULL if not given */
  char *runtime_system; /* compared without case */
  char *version_prefix;
  unsigned machine_cores; /* applies only where every machine has this many cores; 0 = any */
  double band_rel;        /* uncertainty of a makespan mk under this profile: the recorded one lies
                           * in mk / (1 + band_rel) .. mk x (1 + band_rel); 0 = none stated
                           * (doc/wms.md, "Uncertainty band") */
  char *band_source;      /* NULL when band_rel is 0 */
  dcsim_wms_params p;
  char *source[DCSIM_WMS_N_PARAMS];
  dcsim_wms_fit fit[DCSIM_WMS_N_PARAMS];
  int line[DCSIM_WMS_N_PARAMS]; /* line of the value's <param> */
  int profile_line;
} dcsim_wms_profile;

typedef struct dcsim_wms_conf {
  char *path, *name;
  size_t n_profiles;
  dcsim_wms_profile *profiles;
  size_t default_profile; /* index into profiles */
} dcsim_wms_conf;

/* "dagman-cycle-s", ... (the XML names); NULL out of range. */
const char *dcsim_wms_param_name(dcsim_wms_param k);
/* The parameter called name, or -1. */
int dcsim_wms_param_find(const char *name);
/* Whether the parameter is a count (a whole number). */
int dcsim_wms_param_is_count(dcsim_wms_param k);
/* "sharedfs", "nonsharedfs", "condorio". */
const char *dcsim_wms_data_name(dcsim_wms_data d);

/* Loads and checks path: known and unique parameter names, whole counts, positive cycles, every
 * parameter valued in every profile, fit grids with min <= max (min > 0 for bandwidths) exactly on
 * parameters whose source starts with "fitted", unique profile names, an existing default profile.
 * Errors name the file and line. On failure *out is NULL. */
int dcsim_wms_conf_load(const char *path, dcsim_wms_conf **out, dcsim_error *err);
void dcsim_wms_conf_free(dcsim_wms_conf *c);

/* The profile for a workflow that records runtime system `system` (NULL or "" = none recorded)
 * at `version` (may be NULL) on machines of machine_cores cores each (0: unknown or mixed): the
 * first profile whose runtime-system equals system (without case), whose version-prefix starts
 * version and whose machine-cores, if it names one, is machine_cores; else, for a recorded system
 * some profile names, or for none recorded, the default profile; NULL for a runtime system no
 * profile describes. */
const dcsim_wms_profile *dcsim_wms_conf_select(const dcsim_wms_conf *c, const char *system,
                                               const char *version, unsigned machine_cores);

#endif
