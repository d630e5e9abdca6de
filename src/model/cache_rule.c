/* cache_rule.c — level weights carried to another CPU by the residence of the working set (see
 * dcsim/cache_rule.h, doc/models.md "Level weights on another CPU"). */
#include "dcsim/cache_rule.h"

double dcsim_cache_resident_share(double cap_byte, double ws_byte) {
  /* FV §9 (finite-volume paper Eq. 4-6): hit rate min(1, C/W); an empty working set always hits */
  return ws_byte > 0 && cap_byte < ws_byte ? cap_byte / ws_byte : 1;
}

unsigned dcsim_cache_sockets_used(const dcsim_cpu_caches *c, unsigned threads) {
  unsigned cps = c->cores_per_socket ? c->cores_per_socket : 1;
  /* the sockets dcsim_cpu_split_threads gives threads on: compact fills them one after the
   * other, scatter puts one thread on each before the second */
  unsigned used = c->scatter ? threads : (threads + cps - 1) / cps;
  if (used > c->sockets) used = c->sockets;
  return used ? used : 1;
}

void dcsim_cache_rule(double ws_byte, const dcsim_cpu_caches *src, const dcsim_cpu_caches *dst,
                      unsigned threads, dcsim_cache_move *mv) {
  *mv = (dcsim_cache_move){ 0 };
  mv->ws_byte = ws_byte;
  mv->src_l3_byte = src->l3_byte;
  mv->dst_l3_byte = dst->l3_byte;
  if (!(src->l3_byte > 0) || !(dst->l3_byte > 0)) return; /* a capacity unknown: nothing moves */
  /* the source at the same thread count, as far as its node goes (its weights were fitted there) */
  unsigned src_cores = src->cores_per_socket * src->sockets;
  mv->src_sockets = dcsim_cache_sockets_used(src, threads < src_cores ? threads : src_cores);
  mv->dst_sockets = dcsim_cache_sockets_used(dst, threads);
  /* the share of the working set the L3s of the sockets in use hold (shared per socket) */
  mv->src_share = dcsim_cache_resident_share(src->l3_byte * mv->src_sockets, ws_byte);
  mv->dst_share = dcsim_cache_resident_share(dst->l3_byte * mv->dst_sockets, ws_byte);
  if (mv->dst_share > mv->src_share) { /* more fits: the DRAM traffic of that share goes to L3 */
    mv->inward = 1;
    mv->fraction = (mv->dst_share - mv->src_share) / (1 - mv->src_share);
  } else if (mv->dst_share < mv->src_share) { /* less fits: that share of the L3 traffic to DRAM */
    mv->fraction = (mv->src_share - mv->dst_share) / mv->src_share;
  }
}

void dcsim_cache_rule_apply(const dcsim_cache_move *mv, double *Y, double *Z) {
  if (!(mv->fraction > 0)) return; /* identity: the weights as published, bit for bit */
  if (mv->inward) {
    double m = *Z * mv->fraction;
    *Y += m;
    *Z -= m;
  } else {
    double m = *Y * mv->fraction;
    *Z += m;
    *Y -= m;
  }
}
