/* output/results_records.h — the records of a run in its SQLite results database (results.c,
 * util/record.h; doc/results.md): the run's totals (table runs), a job's row (workflows), a node's
 * row (nodes) and a bucket of the utilisation timeline (utilisation). Their columns must be the
 * schema's (util/dbschema.c, checked by tests/test_record.c). Static data. */
#ifndef DCSIM_OUTPUT_RESULTS_RECORDS_H
#define DCSIM_OUTPUT_RESULTS_RECORDS_H

#include "util/record.h"

extern const dcsim__record dcsim__run_totals_record;
extern const dcsim__record dcsim__job_record;
extern const dcsim__record dcsim__node_record;
extern const dcsim__record dcsim__bucket_record;

#endif
