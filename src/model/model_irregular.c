/* model_irregular.c — cache-line over-fetch model of irregular accesses on CPU cores and GPUs
 * (see dcsim/model_irregular.h, finite-volume paper §7-§9, Eq. 4-6). */
#include "dcsim/model_irregular.h"

#include <stdlib.h>
#include <string.h>

#include "dcsim/cache_rule.h"

static double level_bw(const dcsim_cpu_rates *rt, const char *name) {
  if (strcmp(name, "L1") == 0) return rt->l1_bps;
  if (strcmp(name, "L2") == 0) return rt->l2_bps;
  if (strcmp(name, "L3") == 0) return rt->l3_bps;
  return rt->dram_bps;
}

/* an empty machine named after its profile; error when the profile has no levels */
static int machine_begin(const char *name, const char *path, size_t n_levels,
                         dcsim_irregular_machine *m, dcsim_error *err) {
  memset(m, 0, sizeof *m);
  m->name = name;
  m->path = path;
  if (n_levels == 0)
    return DCSIM_ERR(err, DCSIM_EREF, path, 0,
                     "irregular accesses: profile %s needs a <cache-hierarchy>", name);
  return 0;
}

int dcsim_irregular_machine_cpu(const dcsim_cpu_profile_t *cpu, const dcsim_cpu_state *st,
                                const dcsim_cpu_rates *rt, dcsim_irregular_machine *m,
                                dcsim_error *err) {
  size_t nl = 0;
  const dcsim_cache_level *cl = dcsim_cpu_profile_cache_levels(cpu, &nl);
  int rc = machine_begin(dcsim_cpu_profile_name(cpu), dcsim_cpu_profile_path(cpu), nl, m, err);
  if (rc) return rc;
  /* FV §8: threads fill one socket, then spread evenly over the sockets they need */
  const unsigned cps = dcsim_cpu_profile_cores_per_socket(cpu), n = st->threads ? st->threads : 1;
  const unsigned sockets = (n + cps - 1) / cps, per_socket = (n + sockets - 1) / sockets;
  for (size_t i = 0; i < nl && i < DCSIM_IRREGULAR_MAX_LEVELS - 1; i++) {
    m->levels[i] = cl[i];
    if (cl[i].above_shared) { /* FV §8: the shared L3, divided among the cores that use it */
      m->levels[i].above_byte = cl[i].above_byte / per_socket;
      m->resident_byte = cl[i].above_byte * sockets;
    }
    m->bw_bps[i] = level_bw(rt, cl[i].name);
    if (!(m->bw_bps[i] > 0))
      return DCSIM_ERR(err, DCSIM_ERANGE, m->path, cl[i].line,
                       "profile %s: no %s bandwidth at this state", m->name, cl[i].name);
    m->n_levels++;
  }
  if (sockets > 1) m->link_bps = dcsim_cpu_profile_socket_link_bps(cpu); /* FV §8: QPI */
  return 0;
}

int dcsim_irregular_machine_gpu(const dcsim_gpu_profile_t *gpu, dcsim_irregular_machine *m,
                                dcsim_error *err) {
  size_t nl = 0;
  const dcsim_cache_level *cl = dcsim_gpu_profile_cache_levels(gpu, &nl);
  int rc = machine_begin(dcsim_gpu_profile_name(gpu), dcsim_gpu_profile_path(gpu), nl, m, err);
  if (rc) return rc;
  for (size_t i = 0; i < nl; i++) {
    m->levels[i] = cl[i];
    m->bw_bps[i] = cl[i].bw_bps;
  }
  m->n_levels = nl;
  return 0;
}

/* FV §9: traffic of level i for the node's share of the loop */
static void one_level(const dcsim_cpu_loop *loop, double share, const dcsim_irregular_machine *m,
                      size_t i, int resident, dcsim_irregular_level *lv) {
  const double w = loop->word_byte, work = loop->work_flop * share;
  const dcsim_cache_level *cl = &m->levels[i];
  double cap_word = cl->above_byte / w, line_word = cl->line_byte / w;
  lv->name = cl->name;
  lv->bw_bps = m->bw_bps[i];
  /* FV §9: cache hit rate min(1, C_i/W); an empty working set always hits */
  lv->hit_rate = dcsim_cache_resident_share(cap_word, loop->working_set_word);
  double per_irregular =
      loop->hit_word * lv->hit_rate + (1 - lv->hit_rate) * line_word; /* FV Eq. 4 (H = 1), 6 */
  double words = (loop->regular_word + loop->irregular_word * per_irregular) * share;
  lv->traffic_byte = w * words;
  if (resident && i == m->n_levels - 1) /* FV §8: the data stay in the caches above */
    lv->traffic_byte = loop->footprint_byte * share;
  lv->word_per_flop = work > 0 ? lv->traffic_byte / w / work : 0; /* WpF_i, FV Eq. 4 */
  lv->time_s = lv->traffic_byte / lv->bw_bps; /* = W/P_i, P_i = BW_i/(w*WpF_i) (FV Eq. 5) */
}

int dcsim_model_irregular(const dcsim_cpu_loop *loop, double share,
                          const dcsim_irregular_machine *m,
                          dcsim_irregular_level levels[DCSIM_IRREGULAR_MAX_LEVELS], size_t *n,
                          size_t *bottleneck, dcsim_error *err) {
  if (!loop->irregular)
    return DCSIM_ERR(err, DCSIM_EREF, "", 0, "loop %s has no <irregular> element", loop->name);
  const int resident = loop->footprint_byte > 0 && m->resident_byte > 0 &&
                       loop->footprint_byte * share <= m->resident_byte;
  size_t nl = m->n_levels;
  for (size_t i = 0; i < nl; i++) one_level(loop, share, m, i, resident, &levels[i]);
  if (m->link_bps > 0 && loop->exchange_word > 0) { /* FV §8: across the socket link */
    dcsim_irregular_level *lv = &levels[nl++];
    const double work = loop->work_flop * share;
    memset(lv, 0, sizeof *lv);
    lv->name = "link";
    lv->hit_rate = 1;
    lv->bw_bps = m->link_bps;
    lv->traffic_byte = loop->word_byte * loop->exchange_word * share;
    lv->word_per_flop = work > 0 ? loop->exchange_word * share / work : 0;
    lv->time_s = lv->traffic_byte / lv->bw_bps;
  }
  *bottleneck = 0;
  for (size_t i = 1; i < nl; i++)
    if (levels[i].time_s > levels[*bottleneck].time_s) *bottleneck = i; /* FV Eq. 5: P_min */
  *n = nl;
  return 0;
}

int dcsim_model_irregular_gpu(const dcsim_dwarf_eval *ev, const dcsim_gpu_profile_t *gpu,
                              dcsim_cpu_result **out, dcsim_error *err) {
  dcsim_irregular_machine m;
  int rc = dcsim_irregular_machine_gpu(gpu, &m, err);
  if (rc) return rc;
  dcsim_cpu_result *r = calloc(1, sizeof *r);
  if (r) {
    r->parts = calloc(ev->n_loops ? ev->n_loops : 1, sizeof *r->parts);
    r->node_time_s = calloc(1, sizeof *r->node_time_s);
    r->node_comm_s = calloc(1, sizeof *r->node_comm_s);
  }
  if (!r || !r->parts || !r->node_time_s || !r->node_comm_s) {
    dcsim_cpu_result_free(r);
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  }
  r->n_nodes = 1;
  r->n_loops = ev->n_loops;
  const double peak = dcsim_gpu_profile_spec(gpu)->peak_dp_flops;
  for (size_t l = 0; l < ev->n_loops && !rc; l++) {
    const dcsim_cpu_loop *lp = &ev->loops[l];
    dcsim_loop_part *p = &r->parts[l];
    dcsim_irregular_level lv[DCSIM_IRREGULAR_MAX_LEVELS];
    size_t nlv = 0, b = 0;
    p->name = lp->name;
    p->work_flop = lp->work_flop;
    if (!lp->irregular) {
      rc = DCSIM_ERR(err, DCSIM_EREF, dcsim_dwarf_path(ev->dwarf), 0,
                     "loop %s has no <irregular> accesses: it has no model on a GPU", lp->name);
      break;
    }
    if (lp->work_flop > 0) p->flop_time_s = lp->work_flop / (peak * lp->U + lp->S_flops);
    if ((rc = dcsim_model_irregular(lp, 1, &m, lv, &nlv, &b, err))) break;
    p->traffic_byte = lv[b].traffic_byte;
    p->mem_time_s = lv[b].time_s;
    p->level = lv[b].name;
    p->compute_bound = p->flop_time_s > p->mem_time_s * (1 + 1e-9);
    p->time_s = p->compute_bound ? p->flop_time_s : p->mem_time_s; /* FV §7: the slower bound */
    r->time_s += p->time_s;
  }
  r->node_time_s[0] = r->time_s;
  if (rc) {
    dcsim_cpu_result_free(r);
    return rc;
  }
  *out = r;
  return 0;
}
