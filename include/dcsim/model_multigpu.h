/* dcsim/model_multigpu.h — one GPU dwarf call with its domain split over G GPUs of one node
 * (D3.5 §6.2: the operational ALARO grid 540x450x65 fits no single tested GPU; §7: "for
 * applications that use multi-accelerators the multinode model has to be extended").
 *
 * With the dwarf's <multi-gpu> (bytes per point of device memory m and of host-device traffic
 * x per call, halo bytes h(G) per GPU and call) and the GPU profile's memory M and host link
 * bandwidth B_link, each GPU takes N/G points and, per call:
 *   memory      m*N/G <= M, else the split is refused (G_min = ceil(m*N/M))
 *   kernels     T_k = the Table 11 model at N/G (dcsim/model_gpu.h; small-domain correction opt-in)
 *   transfer    T_x = x*(N/G)/B_link            each GPU has its own link (assumption)
 *   halo        T_h = 2*h(G)/B_link             device -> host -> device, G > 1 only
 *               T_h = h(G)/B_peer               architecture model with a <peer-link> (NVLink)
 *   T = T_k + T_x + T_h                         summed, as D3.5 §3.4 sums transfer and compute
 * The GPUs work in parallel on equal parts, so T is the call's time. The single-GPU D3.5 model
 * (no host transfer) stays dcsim_model_gpu(); dcsim_multigpu_check_fit() is its memory check.
 *
 * Ownership: dcsim_model_multigpu() returns a result freed with dcsim_multigpu_result_free(). */
#ifndef DCSIM_MODEL_MULTIGPU_H
#define DCSIM_MODEL_MULTIGPU_H

#include "dcsim/dwarf.h"
#include "dcsim/hwprofile.h"
#include "dcsim/model_gpu.h"

typedef struct dcsim_multigpu_result {
  unsigned gpus;
  double domain_per_gpu;      /* N/G */
  double memory_per_gpu_byte; /* m*N/G (0 without <multi-gpu>) */
  unsigned min_gpus;          /* G_min */
  double kernel_s, transfer_s, halo_s, time_s;
  int halo_peer;         /* 1: halos over the peer link (NVLink), 0: through the host */
  dcsim_gpu_result *gpu; /* one GPU's part (owned) */
} dcsim_multigpu_result;

/* Refuses a domain of N/gpus points that does not fit one GPU's memory (needs <multi-gpu> in the
 * dwarf and <memory> in the profile; otherwise nothing is checked). min_gpus may be NULL. */
int dcsim_multigpu_check_fit(const dcsim_dwarf_eval *ev, const dcsim_gpu_profile_t *gpu,
                             unsigned gpus, unsigned *min_gpus, dcsim_error *err);

/* mode: small_domain and arch as in dcsim_gpu_opts (its domain_size is ignored); NULL = D3.5. */
int dcsim_model_multigpu(const dcsim_dwarf_eval *ev, const dcsim_gpu_profile_t *gpu, unsigned gpus,
                         const dcsim_gpu_opts *mode, dcsim_multigpu_result **out, dcsim_error *err);
void dcsim_multigpu_result_free(dcsim_multigpu_result *r);

#endif
