/* dcsim/model_report.h — a model's prediction (dcsim/model.h) written for people and programs:
 * `dcsim model` (one prediction or a --nodes-scan) and `dcsim energy` as text, JSON and CSV on
 * stdout, with the uncertainty bands of their times and energies (dcsim/bands.h). Nothing is
 * allocated for the caller. rp (dcsim/repro.h): the text footer, the JSON key "dcsim", the CSV
 * comment lines. why (may be NULL): why the energy is unavailable. */
#ifndef DCSIM_MODEL_REPORT_H
#define DCSIM_MODEL_REPORT_H

#include <stddef.h>

#include "dcsim/energy_run.h"
#include "dcsim/error.h"
#include "dcsim/model.h"
#include "dcsim/model_comm.h"
#include "dcsim/provenance.h"
#include "dcsim/repro.h"

/* The uncertainty bands of one prediction (dcsim/bands.h), in seconds and joules. */
typedef struct dcsim_model_bands {
  double time[2], energy[2];
} dcsim_model_bands;

int dcsim_model_report_bands(const dcsim_model_req *rq, const dcsim_prediction *p, int gpu,
                             dcsim_model_bands *mb, dcsim_error *err);
void dcsim_model_report_text(const dcsim_model_req *rq, const dcsim_prediction *p,
                             const char *case_name, const char *why, const dcsim_repro *rp,
                             const dcsim_model_bands *mb);
void dcsim_model_report_json(const dcsim_model_req *rq, const dcsim_prediction *p,
                             const char *case_name, const char *why, const dcsim_repro *rp,
                             const dcsim_model_bands *mb);
void dcsim_model_report_csv(const dcsim_model_req *rq, const dcsim_prediction *p, const char *why,
                            const dcsim_repro *rp, const dcsim_model_bands *mb);

/* A --nodes-scan: the model at each node count and its balance point. */
typedef struct dcsim_node_scan {
  unsigned nodes[64];
  double t[64], comp[64], comm[64], e[64]; /* time, compute, communication, energy */
  double cover[64][2]; /* the range each time's band must reach (dcsim_prediction.time_cover_s) */
  size_t n;
  int has_e; /* energies computed */
  dcsim_balance b;
  double overlap;                    /* the communication overlap used */
  dcsim_prov time_prov, energy_prov; /* the weakest over the node counts */
  dcsim_model_bands band[64];        /* each node count's bands (dcsim_band_rule) */
  /* a turbo clock not measured at the cores asked (dcsim_prediction.turbo_unmeasured): each
   * node count's band reaches its time at the nominal clock, nominal_s */
  int turbo_unmeasured;
  double nominal_s[64];
} dcsim_node_scan;

/* The model at each node count of the scan (rq->nodes is changed), then the scan's bands. */
int dcsim_node_scan_models(dcsim_model_req *rq, dcsim_node_scan *S, dcsim_error *err);
int dcsim_node_scan_bands(const dcsim_model_req *rq, dcsim_node_scan *S, dcsim_error *err);
void dcsim_node_scan_text(const dcsim_model_req *rq, const dcsim_node_scan *S,
                          const char *case_name, const dcsim_repro *rp);
void dcsim_node_scan_json(const dcsim_model_req *rq, const dcsim_node_scan *S,
                          const char *case_name, const dcsim_repro *rp);
void dcsim_node_scan_csv(const dcsim_node_scan *S, const dcsim_repro *rp);

/* What `dcsim energy` prints: a dcsim_energy_report (dcsim/energy_run.h). */

/* d35: D3.5's §5.3 form (no node base power); t: the time in seconds. */
void dcsim_energy_report_text(int d35, const dcsim_dwarf_t *d, const dcsim_cpu_profile_t *cpu,
                              unsigned nodes, unsigned cores, double t,
                              const dcsim_energy_report *o, const dcsim_repro *rp);
void dcsim_energy_report_json(int d35, unsigned nodes, unsigned cores, double t,
                              const dcsim_energy_report *o, const dcsim_repro *rp);
void dcsim_energy_report_csv(int d35, unsigned nodes, unsigned cores, double t,
                             const dcsim_energy_report *o, const dcsim_repro *rp);

#endif
