/* model_multigpu.c — a GPU dwarf call split over several GPUs (see dcsim/model_multigpu.h). */
#include "dcsim/model_multigpu.h"

#include <math.h>
#include <stdlib.h>

void dcsim_multigpu_result_free(dcsim_multigpu_result *r) {
  if (!r) return;
  dcsim_gpu_result_free(r->gpu);
  free(r);
}

int dcsim_multigpu_check_fit(const dcsim_dwarf_eval *ev, const dcsim_gpu_profile_t *gpu,
                             unsigned gpus, unsigned *min_gpus, dcsim_error *err) {
  const dcsim_gpu_spec *g = dcsim_gpu_profile_spec(gpu);
  if (min_gpus) *min_gpus = 1;
  if (gpus == 0) return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "GPU count must be >= 1");
  if (!ev->has_multi_gpu || !(g->memory_byte > 0)) return 0;
  double need = ev->gpu_memory_byte_per_point * ev->domain_size; /* m*N */
  double gmin = ceil(need / g->memory_byte);                     /* G_min = ceil(m*N/M) */
  if (gmin < 1) gmin = 1;
  if (min_gpus) *min_gpus = gmin > 4e9 ? 4000000000u : (unsigned)gmin;
  if (need / gpus > g->memory_byte) /* m*N/G <= M */
    return DCSIM_ERR(err, DCSIM_ERANGE, dcsim_dwarf_path(ev->dwarf), 0,
                     "dwarf %s: %.6g points need %.4g GB of GPU memory (%.6g B per point), %.4g GB "
                     "on each of %u GPU(s); "
                     "%s holds %.4g GB: split the domain over at least %.0f GPUs",
                     dcsim_dwarf_name(ev->dwarf), ev->domain_size, need / 1e9,
                     ev->gpu_memory_byte_per_point, need / gpus / 1e9, gpus,
                     dcsim_gpu_profile_name(gpu), g->memory_byte / 1e9, gmin);
  return 0;
}

int dcsim_model_multigpu(const dcsim_dwarf_eval *ev, const dcsim_gpu_profile_t *gpu, unsigned gpus,
                         const dcsim_gpu_opts *mode, dcsim_multigpu_result **out,
                         dcsim_error *err) {
  const dcsim_gpu_spec *g = dcsim_gpu_profile_spec(gpu);
  if (!ev->has_multi_gpu)
    return DCSIM_ERR(err, DCSIM_EREF, dcsim_dwarf_path(ev->dwarf), 0,
                     "dwarf %s has no <multi-gpu> element: its domain cannot be split over GPUs",
                     dcsim_dwarf_name(ev->dwarf));
  if (!(g->host_link_bps > 0))
    return DCSIM_ERR(
        err, DCSIM_EREF, dcsim_gpu_profile_path(gpu), 0,
        "GPU profile %s has no <host-link>: the host-device transfer of a split domain is unknown",
        dcsim_gpu_profile_name(gpu));
  unsigned gmin = 1;
  int rc = dcsim_multigpu_check_fit(ev, gpu, gpus, &gmin, err);
  if (rc) return rc;
  dcsim_multigpu_result *r = calloc(1, sizeof *r);
  if (!r) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  r->gpus = gpus;
  r->min_gpus = gmin;
  r->domain_per_gpu = ev->domain_size / gpus;                                 /* N/G */
  r->memory_per_gpu_byte = ev->gpu_memory_byte_per_point * r->domain_per_gpu; /* m*N/G */
  dcsim_gpu_opts o = { mode && mode->small_domain, r->domain_per_gpu, mode && mode->arch };
  double halo = 0;
  if ((rc = dcsim_model_gpu_opts(ev, gpu, &o, &r->gpu, err))) goto out;
  if (gpus > 1 && (rc = dcsim_dwarf_gpu_halo(ev, gpus, &halo, err))) goto out;
  r->kernel_s = r->gpu->time_s; /* T_k at N/G */
  r->transfer_s = ev->gpu_transfer_byte_per_point * r->domain_per_gpu /
                  g->host_link_bps; /* T_x = x*(N/G)/B_link */
  r->halo_peer = o.arch && g->peer_link_bps > 0;
  r->halo_s = r->halo_peer ? halo / g->peer_link_bps      /* T_h = h(G)/B_peer, GPU to GPU */
                           : 2 * halo / g->host_link_bps; /* T_h = 2*h(G)/B_link */
  r->time_s = r->kernel_s + r->transfer_s + r->halo_s;    /* summed (D3.5 §3.4) */
  *out = r;
  r = NULL;
out:
  dcsim_multigpu_result_free(r);
  return rc;
}
