/* dcsim/roofline_report.h — a roofline (dcsim/roofline.h) written for people and programs: text
 * (ceilings, points and the roof bounding each), JSON and CSV. Nothing is allocated for the caller.
 */
#ifndef DCSIM_ROOFLINE_REPORT_H
#define DCSIM_ROOFLINE_REPORT_H

#include <stdio.h>

#include "dcsim/repro.h"
#include "dcsim/roofline.h"

/* rp (may be NULL): the version, commit and inputs (dcsim/repro.h): a text footer, the JSON key
 * "dcsim", CSV comment lines before the header. */
void dcsim_roofline_write_text(FILE *f, const dcsim_roofline *r, const dcsim_repro *rp);
void dcsim_roofline_write_json(FILE *f, const dcsim_roofline *r, const dcsim_repro *rp);
void dcsim_roofline_write_csv(FILE *f, const dcsim_roofline *r, const dcsim_repro *rp);

#endif
