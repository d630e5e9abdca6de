/* dcsim/list_report.h — what `dcsim list` prints on stdout: the files of one kind of the data root
 * (dcsim/catalog.h) with what each holds, and one case of a dwarf, as text, JSON or CSV. Nothing is
 * allocated for the caller. */
#ifndef DCSIM_LIST_REPORT_H
#define DCSIM_LIST_REPORT_H

#include "dcsim/catalog.h"
#include "dcsim/dwarf.h"
#include "dcsim/error.h"
#include "dcsim/format.h"
#include "dcsim/json.h"

/* Lists the kind's directory of the data root (a JSON array member of j, a text section, or CSV
 * rows); every file must load (a broken data file is an error). */
int dcsim_list_kind(dcsim_kind kind, dcsim_json *j, dcsim_format json, dcsim_error *err);
/* One case of a dwarf: its name and the values it sets, in parameter order. */
void dcsim_list_case(const dcsim_dwarf_t *d, const char *name, dcsim_json *j, dcsim_format fmt);

#endif
