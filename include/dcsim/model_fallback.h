/* dcsim/model_fallback.h — a time answer not blocked by a missing energy model.
 *
 * Ownership: *why is malloc'd (NULL when the energy was kept); the caller frees it and releases
 * the prediction (dcsim_prediction_release of dcsim/model.h). */
#ifndef DCSIM_MODEL_FALLBACK_H
#define DCSIM_MODEL_FALLBACK_H

#include "dcsim/error.h"
#include "dcsim/model.h"

/* dcsim_model_run(rq, p); when it fails and the same request without energy succeeds, the failure
 * was the energy's (a CPU without power data, a state outside D3.5's energy table): the time is
 * kept and *why says why the energy is unavailable (the first error, formatted as dcsim prints
 * errors, its file named location-independently, dcsim_catalog_relname). DCSIM_MODEL_STRICT in
 * rq->flags refuses instead, as does a failure of DCSIM_ENERGY_NONE itself: then the first error is
 * returned. rq is left as it was. */
int dcsim_model_run_time_first(dcsim_model_req *rq, dcsim_prediction *p, char **why,
                               dcsim_error *err);

#endif
