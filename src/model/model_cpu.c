/* model_cpu.c — CPU per-loop model and multinode split (see dcsim/model_cpu.h, D3.5 §4.3). */
#include "dcsim/model_cpu.h"

#include "dcsim/cache_rule.h"
#include "dcsim/model_comm.h"
#include "dcsim/model_irregular.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/strutil.h"

void dcsim_cpu_result_free(dcsim_cpu_result *r) {
  if (!r) return;
  free(r->parts);
  free(r->node_time_s);
  free(r->node_comm_s);
  free(r->weights_note);
  free(r);
}

/* The evidence a loop's time rests on: the peak's when it is compute-bound, else the levels its
 * memory term uses (a nonzero V, X, Y, Z of D3.5 §4.3); a rate the loop does not use does not
 * weaken it (doc/models.md "Provenance"). Irregular loops: every rate. */
static dcsim_prov loop_prov(const dcsim_cpu_loop *lp, const double coef[5],
                            const dcsim_loop_part *p, const dcsim_cpu_rates *rt) {
  if (lp->irregular) return rt->prov;
  if (p->compute_bound) return rt->qprov[DCSIM_CPU_FLOPS];
  dcsim_prov w = dcsim_prov_make(DCSIM_PROV_TABLE, "");
  int any = 0;
  for (int q = DCSIM_CPU_L1; q <= DCSIM_CPU_DRAM; q++) {
    if (!(coef[q] > 0)) continue;
    w = any ? dcsim_prov_weakest(w, rt->qprov[q]) : rt->qprov[q];
    any = 1;
  }
  return any ? w : rt->prov;
}

#define MIB 1048576.0 /* bytes, for the note: caches are sized in binary units */

/* static: a provenance outlives the result it came from (the weights_note says the numbers) */
#define CACHE_RULE_SRC                                                                        \
  "level weights moved by the cache rule from the CPU they were measured on (doc/models.md, " \
  "Level weights on another CPU)"

/* The cache rule's move for node ns (dcsim/cache_rule.h): none under --d35 (D3.5's weights), for
 * a dwarf without a working set, or on a CPU without an L3 size. Writes the reason text of the
 * first node whose weights moved (or could not be placed: no L3 size) into r->weights_note. */
static int node_cache_move(const dcsim_dwarf_eval *ev, const dcsim_cpu_node_spec *ns,
                           dcsim_cpu_result *r, dcsim_cache_move *mv, dcsim_error *err) {
  *mv = (dcsim_cache_move){ 0 };
  if (ns->table_only || !ev->has_working_set) return 0;
  const dcsim_cpu_caches *dst = dcsim_cpu_profile_caches(ns->cpu);
  dcsim_cache_rule(ev->working_set_byte * ns->share, ev->weights_caches, dst, ns->state.threads,
                   mv);
  if (r->weights_note) return 0;
  if (!(dst->l3_byte > 0)) /* say why nothing moved where the rule cannot decide */
    r->weights_note = dcsim_strdup_printf(
        "level weights as measured on %s: %s gives no L3 size, the cache rule cannot place the "
        "working set (%.4g MiB)",
        ev->weights_cpu, dcsim_cpu_profile_name(ns->cpu), mv->ws_byte / MIB);
  else if (mv->fraction > 0)
    r->weights_note = dcsim_strdup_printf(
        "level weights moved by the cache rule: working set %.4g MiB in %u x %.4g MiB L3 (%.3g %% "
        "resident; %u x %.4g MiB on %s, where they were measured: %.3g %%): %.3g %% of the %s "
        "weight to %s",
        mv->ws_byte / MIB, mv->dst_sockets, mv->dst_l3_byte / MIB, 100 * mv->dst_share,
        mv->src_sockets, mv->src_l3_byte / MIB, ev->weights_cpu, 100 * mv->src_share,
        100 * mv->fraction, mv->inward ? "DRAM" : "L3", mv->inward ? "L3" : "DRAM");
  else
    return 0;
  return r->weights_note ? 0 : DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
}

int dcsim_model_cpu(const dcsim_dwarf_eval *ev, const dcsim_cpu_node_spec *nodes, size_t n_nodes,
                    double net_s_per_byte, dcsim_cpu_result **out, dcsim_error *err) {
  const char *dpath = dcsim_dwarf_path(ev->dwarf);
  if (ev->n_loops == 0)
    return DCSIM_ERR(err, DCSIM_EREF, dpath, 0, "dwarf %s has no CPU model (<loops>)",
                     dcsim_dwarf_name(ev->dwarf));
  if (n_nodes == 0) return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "node count must be >= 1");
  if (!(net_s_per_byte >= 0) || !isfinite(net_s_per_byte))
    return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "network time per byte must be finite and >= 0");
  int rc = 0;
  dcsim_cpu_result *r = calloc(1, sizeof *r);
  if (!r) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  r->n_nodes = n_nodes;
  r->n_loops = ev->n_loops;
  r->parts = calloc(n_nodes * (ev->n_loops ? ev->n_loops : 1), sizeof *r->parts);
  r->node_time_s = calloc(n_nodes, sizeof *r->node_time_s);
  r->node_comm_s = calloc(n_nodes, sizeof *r->node_comm_s);
  if (!r->parts || !r->node_time_s || !r->node_comm_s) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    goto out;
  }
  double comm = 0; /* the same for every node: patterns are per node (dcsim/model_comm.h) */
  const dcsim_network net = { 0, net_s_per_byte };
  if ((rc = dcsim_comm_time(ev, (unsigned)n_nodes, &net, &comm, err))) goto out;
  for (size_t i = 0; i < n_nodes; i++) {
    const dcsim_cpu_node_spec *ns = &nodes[i];
    if (!(ns->share > 0) || ns->share > 1) {
      rc = DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "node %zu: share of the work must be in (0, 1]", i);
      goto out;
    }
    dcsim_cpu_rates rt;
    dcsim_irregular_machine im;
    int have_im = 0;
    if ((rc = dcsim_cpu_rates_at(ns->cpu, &ns->state, ns->table_only, &rt, err))) goto out;
    dcsim_cache_move mv;
    if ((rc = node_cache_move(ev, ns, r, &mv, err))) goto out;
    double t = 0;
    dcsim_prov used = dcsim_prov_make(DCSIM_PROV_TABLE, "");
    int any_used = 0;
    for (size_t l = 0; l < ev->n_loops; l++) {
      const dcsim_cpu_loop *lp = &ev->loops[l];
      dcsim_loop_part *p = &r->parts[i * ev->n_loops + l];
      double coef[5] = { 0, lp->V, lp->X, lp->Y, lp->Z }; /* §4.3's V, X, Y, Z on this node */
      dcsim_cache_rule_apply(&mv, &coef[DCSIM_CPU_L3], &coef[DCSIM_CPU_DRAM]);
      int moved = mv.fraction > 0 && (lp->Y > 0 || lp->Z > 0);
      p->name = lp->name;
      p->work_flop = lp->work_flop * ns->share;       /* §4.3: node i processes W/n */
      p->traffic_byte = lp->traffic_byte * ns->share; /* §4.3: and Q/n */
      if (p->work_flop > 0) {
        double flops = rt.flops * lp->U + lp->S_flops; /* §4.3/§6.1.2: 1/Tflop = P*U + S */
        p->flop_time_s = p->work_flop / flops;         /* W*Tflop */
      }
      if (lp->irregular) { /* FV Eq. 5: the bottleneck level of the cache-line model */
        dcsim_irregular_level lv[DCSIM_IRREGULAR_MAX_LEVELS];
        size_t nlv = 0, b = 0;
        if (!have_im && (rc = dcsim_irregular_machine_cpu(ns->cpu, &ns->state, &rt, &im, err)))
          goto out;
        have_im = 1;
        if ((rc = dcsim_model_irregular(lp, ns->share, &im, lv, &nlv, &b, err))) goto out;
        p->traffic_byte = lv[b].traffic_byte;
        p->mem_time_s = lv[b].time_s;
        p->level = lv[b].name;
        for (size_t k = 0; k < nlv; k++)
          if (strcmp(lv[k].name, "DRAM") == 0) p->dram_byte = lv[k].traffic_byte;
      } else if (p->traffic_byte > 0) {
        const char *miss = coef[DCSIM_CPU_L1] > 0 && !rt.has_l1   ? "L1"
                           : coef[DCSIM_CPU_L2] > 0 && !rt.has_l2 ? "L2"
                           : coef[DCSIM_CPU_L3] > 0 && !rt.has_l3 ? "L3"
                                                                  : NULL;
        if (miss) {
          rc = DCSIM_ERR(err, DCSIM_EREF, dcsim_cpu_profile_path(ns->cpu), 0,
                         "loop %s uses the %s bandwidth, profile %s has no %s table%s", lp->name,
                         miss, dcsim_cpu_profile_name(ns->cpu), miss,
                         ns->table_only ? "" : " and no model of it");
          goto out;
        }
        double bps = rt.l1_bps * coef[DCSIM_CPU_L1] + rt.l2_bps * coef[DCSIM_CPU_L2] +
                     rt.l3_bps * coef[DCSIM_CPU_L3] + rt.dram_bps * coef[DCSIM_CPU_DRAM]; /* §4.3 */
        p->mem_time_s = p->traffic_byte / bps;                                     /* Q*Tmop */
        p->dram_byte = p->traffic_byte * rt.dram_bps * coef[DCSIM_CPU_DRAM] / bps; /* DRAM's */
      }
      /* a loop on the ridge (equal times, as BiFFT's fitted loops are) counts as memory-bound */
      p->compute_bound = p->flop_time_s > p->mem_time_s * (1 + 1e-9);
      p->time_s = p->compute_bound ? p->flop_time_s
                                   : p->mem_time_s; /* §4.3: T_func = max(W*Tflop, Q*Tmop) */
      t += p->time_s;                               /* §4.3: T = sum of T_func */
      if (p->work_flop > 0 || p->traffic_byte > 0) {
        dcsim_prov lpv = loop_prov(lp, coef, p, &rt);
        /* weights the cache rule moved are a model beyond D3.5's fit: extrapolated at best */
        if (moved && !p->compute_bound)
          lpv = dcsim_prov_weakest(lpv, dcsim_prov_make(DCSIM_PROV_EXTRAPOLATED, CACHE_RULE_SRC));
        used = any_used ? dcsim_prov_weakest(used, lpv) : lpv;
        any_used = 1;
      }
    }
    /* as weak as every rate: name the first weakest of all, as the rates do (stable sources) */
    if (!any_used || used.kind == rt.prov.kind) used = rt.prov;
    r->node_comm_s[i] = comm; /* §4.3: T_comm_i, dcsim/model_comm.h */
    r->node_time_s[i] =
        dcsim_comm_compose(t, comm, ev->comm_overlap); /* §4.3: T_i = sum of T_func + T_comm_i */
    if (r->node_time_s[i] > r->time_s) r->time_s = r->node_time_s[i]; /* §4.3: T = max_i T_i */
    r->prov = i == 0 ? used : dcsim_prov_weakest(r->prov, used);
  }
  *out = r;
  r = NULL;
out:
  dcsim_cpu_result_free(r);
  return rc;
}
