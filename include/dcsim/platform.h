/* dcsim/platform.h — a data centre: groups of identical nodes, racks and one network
 * (schemas/platform.xsd).
 *
 * Ownership: dcsim_platform_load() stores in *out a heap object that the caller frees with
 * dcsim_platform_free() (NULL-safe); every string in it is owned by it. Profile paths are
 * resolved with dcsim_path_join() (dcsim/strutil.h, included here).
 *
 * Nodes are numbered globally 0..n_nodes-1 in document order: group g holds nodes
 * first_node .. first_node + count - 1.
 * Hardware profiles: `cpu` and `gpu` are either a bare profile name, which the engine resolves as
 * hw-profiles/cpu/<name>.xml and hw-profiles/gpu/<name>.xml under the data root, or a path ending
 * in ".xml", which the loader has already resolved against the platform file's directory. */
#ifndef DCSIM_PLATFORM_H
#define DCSIM_PLATFORM_H

#include <stddef.h>

#include "dcsim/error.h"
#include "dcsim/strutil.h"

#define DCSIM_PLATFORM_MAX_NODES 10000000u

typedef struct dcsim_node_group {
  char *name;
  unsigned count;   /* nodes in the group, >= 1 */
  char *cpu;        /* profile name or resolved path (see above) */
  unsigned sockets; /* CPU sockets per node, >= 1 */
  unsigned cores;   /* cores per node tasks may use; 0 = the profile's cores per socket x sockets */
  char *gpu;        /* NULL if the nodes have no GPU */
  unsigned gpus_per_node; /* >= 1 iff gpu, else 0 */
  double memory_byte;     /* per node, 0 if not given */
  char *rack;             /* NULL if not given */
  int has_power_states;   /* the five values below are 0 unless set */
  double off_w, boot_s, boot_j, shutdown_s, shutdown_j;
  int has_node_power; /* <node-power>: overrides the CPU profile's default node base power */
  double node_base_w, node_load_overhead; /* (dcsim/hwprofile_power.h), 0 unless set */
  unsigned first_node;                    /* global index of its first node */
  int line;                               /* line of <node-group> in the platform file */
} dcsim_node_group;

typedef struct dcsim_platform {
  char *path; /* the file it was loaded from */
  char *name;
  double net_bw_bps, net_latency_s; /* 0 if no <network> */
  size_t n_groups;
  dcsim_node_group *groups;
  unsigned n_nodes; /* sum of the group counts, <= DCSIM_PLATFORM_MAX_NODES */
  char *wms;        /* the workflow management system of the centre's workflows that state none
                     * ("none", "pegasus"; doc/wms.md), NULL if not given */
} dcsim_platform;

/* Loads and checks path: group and rack names unique, rack references known, count >= 1,
 * sockets >= 1, gpus-per-node >= 1 exactly when gpu is given, bw-bps > 0, total nodes bounded.
 * Errors name the file and line. On failure *out is NULL. */
int dcsim_platform_load(const char *path, dcsim_platform **out, dcsim_error *err);
void dcsim_platform_free(dcsim_platform *p);

/* Builds a platform from memory (trace importers: dcsim/trace.h) with the loader's checks. Copies
 * every group and string; first_node and n_nodes are computed, `line` is kept for messages. `name`
 * is the platform's name and stands for its file in messages. */
int dcsim_platform_build(const char *name, const dcsim_node_group *groups, size_t n_groups,
                         double net_bw_bps, double net_latency_s, dcsim_platform **out,
                         dcsim_error *err);

/* Index of the group called name, or -1. */
long dcsim_platform_find_group(const dcsim_platform *p, const char *name);

#endif
