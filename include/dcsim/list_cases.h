/* dcsim/list_cases.h — the whole listings of `dcsim list` on stdout, as text, JSON or CSV: the data
 * root (every kind, dcsim_list_kind of dcsim/list_report.h) and the cases of one dwarf
 * (dcsim_list_case each). Nothing is allocated for the caller. */
#ifndef DCSIM_LIST_CASES_H
#define DCSIM_LIST_CASES_H

#include "dcsim/dwarf.h"
#include "dcsim/error.h"
#include "dcsim/format.h"

/* Every kind of file of the data root; every file must load (a broken data file is an error). */
int dcsim_list_data_root(dcsim_format fmt, dcsim_error *err);
/* The cases of the dwarf d, loaded from path, with the parameter values each sets (the bash
 * completion of --case reads the CSV). */
void dcsim_list_dwarf_cases(const dcsim_dwarf_t *d, const char *path, dcsim_format fmt);

#endif
