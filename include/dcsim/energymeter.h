/* dcsim/energymeter.h — reading energy on the machine that runs `dcsim bench`: Intel/AMD RAPL
 * through the Linux powercap sysfs tree (D3.5 §5.2 uses its PKG and DRAM domains), and NVIDIA GPU
 * power through nvidia-smi (§5.5).
 *
 * RAPL zones are found by their `name` file (package-N, dram), not by directory number; a counter
 * that passed max_energy_range_uj between two reads has wrapped once. Absent or unreadable trees
 * give DCSIM_EIO with a message that says which (no powercap, no RAPL zone, permission denied:
 * energy_uj is root-only on Linux >= 5.10).
 * Ownership: dcsim_rapl_open() returns a handle freed by dcsim_rapl_close(). */
#ifndef DCSIM_ENERGYMETER_H
#define DCSIM_ENERGYMETER_H

#include <stddef.h>
#include <stdint.h>

#include "dcsim/error.h"

typedef struct dcsim_rapl dcsim_rapl_t;

typedef enum { DCSIM_RAPL_PKG = 0, DCSIM_RAPL_DRAM = 1 } dcsim_rapl_domain;

int dcsim_rapl_open(const char *powercap_dir, dcsim_rapl_t **out, dcsim_error *err);
void dcsim_rapl_close(dcsim_rapl_t *r);
size_t dcsim_rapl_n_zones(const dcsim_rapl_t *r);
const char *dcsim_rapl_zone_name(const dcsim_rapl_t *r, size_t i);
dcsim_rapl_domain dcsim_rapl_zone_domain(const dcsim_rapl_t *r, size_t i);
/* current counters of every zone, microjoules (caller array of n_zones) */
int dcsim_rapl_read(const dcsim_rapl_t *r, uint64_t *uj, dcsim_error *err);
/* energy between two readings of zone i, joules, counting one wraparound */
double dcsim_rapl_delta_j(const dcsim_rapl_t *r, size_t i, uint64_t before_uj, uint64_t after_uj);
/* sum over the zones of a domain between two full readings */
double dcsim_rapl_domain_j(const dcsim_rapl_t *r, dcsim_rapl_domain d, const uint64_t *before,
                           const uint64_t *after);

/* One GPU as nvidia-smi reports it. */
typedef struct dcsim_gpu_power {
  unsigned index;
  char name[128];
  double power_w, limit_w, sm_clock_mhz;
} dcsim_gpu_power;
/* Parses the output of `nvidia-smi --query-gpu=index,name,power.draw,power.limit,clocks.sm
 * --format=csv,noheader,nounits` ("[N/A]" values become NAN). Returns the count (<= max) or < 0. */
int dcsim_nvsmi_parse(const char *text, dcsim_gpu_power *out, size_t max, dcsim_error *err);
/* Runs that command; DCSIM_EIO with a clear message where there is no nvidia-smi or no GPU. */
int dcsim_nvsmi_query(dcsim_gpu_power *out, size_t max, size_t *n, dcsim_error *err);

#endif
