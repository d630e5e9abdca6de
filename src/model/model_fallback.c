/* model_fallback.c — the time of a model kept when only its energy fails (dcsim/model_fallback.h).
 */
#include "dcsim/model_fallback.h"

#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"

int dcsim_model_run_time_first(dcsim_model_req *rq, dcsim_prediction *p, char **why,
                               dcsim_error *err) {
  dcsim_error first;
  memset(&first, 0, sizeof first);
  *why = NULL;
  int rc = dcsim_model_run(rq, p, &first);
  if (!rc) return 0;
  dcsim_energy_form form = rq->energy_form;
  if (form == DCSIM_ENERGY_NONE || (rq->flags & DCSIM_MODEL_STRICT)) {
    if (err) *err = first;
    return rc;
  }
  dcsim_prediction_release(p);
  memset(p, 0, sizeof *p);
  rq->energy_form = DCSIM_ENERGY_NONE;
  int rc2 = dcsim_model_run(rq, p, NULL);
  rq->energy_form = form;
  if (rc2) {
    if (err) *err = first;
    return rc;
  }
  char *rel = dcsim_catalog_relname(first.file, first.file); /* location-independent */
  if (!rel) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  if (strlen(rel) < sizeof first.file) /* else the path as the error gave it stays */
    memcpy(first.file, rel, strlen(rel) + 1);
  free(rel);
  size_t size = sizeof first.msg + sizeof first.file + 32; /* "FILE:LINE: msg" */
  if (!(*why = malloc(size))) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  dcsim_error_format(&first, *why, size);
  return 0;
}
