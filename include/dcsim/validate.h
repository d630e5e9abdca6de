/* dcsim/validate.h — the check of `dcsim validate`: one input file loaded in full by its root
 * element (profiles, dwarfs and every case that sets all parameters, platforms and the profiles
 * they name, workflows with their dwarfs, cases and <set>s, workloads, WMS descriptions, SWF maps,
 * GPU architectures, SWF and WfCommons traces), the files it references included, within the
 * loaders' budget. Nothing is allocated for the caller. */
#ifndef DCSIM_VALIDATE_H
#define DCSIM_VALIDATE_H

#include "dcsim/budget.h"
#include "dcsim/error.h"

/* 0 when path and what it references load; else the first error. *runnable (may be NULL): whether
 * path is a workflow or workload naming its platform, which `dcsim run` takes as it is. */
int dcsim_validate_file(const char *path, const dcsim_budget *budget, int *runnable,
                        dcsim_error *err);

#endif
