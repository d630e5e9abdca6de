/* model_irregular.c — cache-line over-fetch model of irregular accesses (see
 * dcsim/model_irregular.h, finite-volume paper §9, Eq. 4-6). */
#include "dcsim/model_irregular.h"

#include <string.h>

static double level_bw(const dcsim_cpu_rates *rt, const char *name) {
  if (strcmp(name, "L1") == 0) return rt->l1_bps;
  if (strcmp(name, "L2") == 0) return rt->l2_bps;
  if (strcmp(name, "L3") == 0) return rt->l3_bps;
  return rt->dram_bps;
}

int dcsim_model_irregular(const dcsim_cpu_loop *loop, double share, const dcsim_cpu_profile_t *cpu,
                          const dcsim_cpu_rates *rt,
                          dcsim_irregular_level levels[DCSIM_IRREGULAR_MAX_LEVELS], size_t *n,
                          size_t *bottleneck, dcsim_error *err) {
  size_t nl = 0;
  const dcsim_cache_level *cl = dcsim_cpu_profile_cache_levels(cpu, &nl);
  if (!loop->irregular)
    return DCSIM_ERR(err, DCSIM_EREF, "", 0, "loop %s has no <irregular> element", loop->name);
  if (nl == 0)
    return DCSIM_ERR(err, DCSIM_EREF, dcsim_cpu_profile_path(cpu), 0,
                     "loop %s has irregular accesses: profile %s needs a <cache-hierarchy>",
                     loop->name, dcsim_cpu_profile_name(cpu));
  if (nl > DCSIM_IRREGULAR_MAX_LEVELS) nl = DCSIM_IRREGULAR_MAX_LEVELS;
  const double w = loop->word_byte;
  const double work = loop->work_flop * share;
  *bottleneck = 0;
  for (size_t i = 0; i < nl; i++) {
    dcsim_irregular_level *lv = &levels[i];
    lv->name = cl[i].name;
    lv->bw_bps = level_bw(rt, cl[i].name);
    if (!(lv->bw_bps > 0))
      return DCSIM_ERR(err, DCSIM_ERANGE, dcsim_cpu_profile_path(cpu), cl[i].line,
                       "profile %s: no %s bandwidth at this state", dcsim_cpu_profile_name(cpu),
                       cl[i].name);
    double cap_word = cl[i].above_byte / w, line_word = cl[i].line_byte / w;
    /* FV §9: cache hit rate min(1, C_i/W); an empty working set always hits */
    lv->hit_rate = loop->working_set_word > 0 && cap_word < loop->working_set_word
                       ? cap_word / loop->working_set_word
                       : 1;
    double per_irregular = loop->hit_word * lv->hit_rate +
                           (1 - lv->hit_rate) * line_word; /* FV Eq. 4 (H = 1), Eq. 6 (H = 0) */
    double words = (loop->regular_word + loop->irregular_word * per_irregular) *
                   share;                            /* words moved at level i */
    lv->word_per_flop = work > 0 ? words / work : 0; /* WpF_i, FV Eq. 4 */
    lv->traffic_byte = w * words;
    lv->time_s = lv->traffic_byte / lv->bw_bps; /* = W/P_i, P_i = BW_i/(w*WpF_i) (FV Eq. 5) */
    if (lv->time_s > levels[*bottleneck].time_s) *bottleneck = i; /* FV Eq. 5: P_min = min_i P_i */
  }
  *n = nl;
  return 0;
}
