/* check_conclusions.c — the `conclusions` checker of validate (validate.h): D3.5 §6's
 * conclusions, from sweeps of the shipped workflows run through the library (every point
 * simulated by the engine, doc/sweep.md), as numbers: 1 when the conclusion holds in dcsim,
 * 0 when not, or the number the row names.
 *
 * Columns: claim (the row's text), test, args, iter, mode. `iter` sets BiFFT's iterations per ALARO
 * step (the sweep's --set ITER; the shipped workflow has 100). The design spaces are those of D3.5
 * §6: ALARO on {E5-2697v3, Gold 6148} x {GTX 970, K20m, M2070-Q} x 1-16 BiFFT nodes at each CPU's
 * nominal frequency; ACRANEB2 alone on the three GPUs; SH TL159 and TCO639 on 1-8 nodes; BiFFT
 * 200x180 (525 fields) on 1-8 nodes x 1, 2, 4 cores. Tests: skylake_beats_haswell       ALARO:
 * Skylake faster and thriftier at every GPU and node count knee_at NODES CPU/GPU       ALARO: the
 * knee of the six CPU+GPU points at NODES is CPU/GPU global_knee CPU/GPU         ALARO: the knee of
 * the whole front is a CPU/GPU point least_energy CPU/GPU        ALARO: the least energy of the
 * whole space is a CPU/GPU point front_cpu CPU               ALARO: every point of the whole front
 * runs on CPU gtx_faster GPU              ALARO: GTX 970 faster than GPU at every CPU and node
 * count gtx_thriftier CPU N,N,..    ALARO: GTX 970 less energy than K20m and M2070-Q on CPU at N
 * nodes acraneb2_spread             ACRANEB2: slowest / fastest GPU time - 1 acraneb2_least_energy
 * GPU   ACRANEB2: GPU needs the least energy sh_time_scaling             SH TL159: largest |T_n n /
 * T_1 - 1| over 1-8 nodes sh_energy_constant          SH TL159: largest |E_n / E_1 - 1|
 *   sh_skylake_faster           SH TCO639: Skylake faster at every node count
 *   bifft_best_one_core NODES   BiFFT: NODES x 1 core fastest and thriftiest of the 1-core points
 *   bifft_knee NODESxCORES      BiFFT: the knee of the whole space is NODES x CORES
 *   bifft_time_scaling          BiFFT: largest |T_n n / T_1 - 1| over 1-8 nodes, every core count
 *   bifft_energy_constant       BiFFT: largest |E_n / E_1 - 1|, the same
 *   bifft_more_cores_costlier   BiFFT: on every node count, more cores are slower and costlier
 * `mode` default runs the ACRANEB2 and BiFFT sweeps in dcsim's default model (the GPU
 * architecture model, BiFFT's measured thread scaling: doc/models.md); any other value, D3.5's
 * models (--d35).
 * The extra tables: ALARO's knee per node count, and the GPU energy ranking over ITER. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/model.h"
#include "dcsim/pareto.h"
#include "dcsim/sweep.h"
#include "validate.h"

#define MAX_SWEEPS 32
static const char *const CPUS[] = { "xeon-e5-2697v3", "xeon-gold-6148" };
static const char *const GPUS[] = { "geforce-gtx970", "tesla-k20m", "tesla-m2070q" };
static const unsigned NODES[] = { 1, 2, 4, 8, 16 };
static const char *const NOMINAL[] = { "nominal" };
static const double ITERS[] = { 1, 10, 100 }; /* the extra table's sensitivity sweep */

typedef struct cached {
  char key[128];
  dcsim_sweep_t *sw;
} cached;

typedef struct cc_state {
  cached c[MAX_SWEEPS];
  int n;
} cc_state;

static int init(void **st, dcsim_error *err) {
  if (!(*st = calloc(1, sizeof(cc_state))))
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  return 0;
}

static void fini(void *st) {
  cc_state *s = st;
  for (int i = 0; s && i < s->n; i++) dcsim_sweep_free(s->c[i].sw);
  free(s);
}

/* the sweep `which` (alaro, acraneb2, sh-tl159, sh-tco639, bifft; "acraneb2 default", "bifft
 * default" in the default model) with ITER = iter (0: as is) */
static int get(cc_state *s, const char *which, double iter, dcsim_sweep_t **out, dcsim_error *err) {
  char key[128];
  snprintf(key, sizeof key, "%s %g", which, iter);
  for (int i = 0; i < s->n; i++)
    if (strcmp(s->c[i].key, key) == 0) return *out = s->c[i].sw, 0;
  if (s->n == MAX_SWEEPS) return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "too many sweeps");
  static const unsigned n8[] = { 1, 2, 4, 8 }, c3[] = { 1, 2, 4 };
  dcsim_param_set it = { "ITER", iter };
  /* D3.5's models exactly (--d35): the conclusions are the paper's */
  dcsim_sweep_def d = { .model_flags = DCSIM_MODEL_D35 };
  if (strncmp(which, "alaro", 5) == 0) {
    d.input = "workflows/alaro.xml";
    d.n_cpus = 2, d.cpus = CPUS, d.n_gpus = 3, d.gpus = GPUS, d.n_nodes = 5, d.nodes = NODES;
    d.n_freqs = 1, d.freqs = NOMINAL, d.n_sets = iter > 0, d.sets = &it;
  } else if (strncmp(which, "acraneb2", 8) == 0) {
    d.input = "workflows/acraneb2.xml";
    d.n_gpus = 3, d.gpus = GPUS;
  } else if (strncmp(which, "sh-", 3) == 0) {
    int tco = strncmp(which, "sh-tco639", 9) == 0;
    d.input = tco ? "workflows/sh-tco639.xml" : "workflows/sh-tl159.xml";
    d.n_cpus = tco ? 2 : 0, d.cpus = CPUS, d.n_nodes = 4, d.nodes = n8;
  } else {
    d.input = "workflows/bifft.xml";
    d.n_nodes = 4, d.nodes = n8, d.n_cores = 3, d.cores = c3;
  }
  if (strstr(which, "default")) d.model_flags = 0; /* dcsim's default model */
  dcsim_sweep_t *sw = NULL;
  int rc;
  if ((rc = dcsim_sweep_new(&d, &sw, err)) || (rc = dcsim_sweep_run(sw, NULL, err))) {
    dcsim_sweep_free(sw);
    return rc;
  }
  snprintf(s->c[s->n].key, sizeof s->c[s->n].key, "%s", key);
  s->c[s->n++].sw = sw;
  *out = sw;
  return 0;
}

/* the point with these values ("" / 0: any), or NULL */
static const dcsim_sweep_point *pt(dcsim_sweep_t *sw, const char *cpu, const char *gpu,
                                   unsigned nodes, unsigned cores) {
  const dcsim_sweep_point *p = dcsim_sweep_points(sw);
  for (size_t i = 0; i < dcsim_sweep_n_points(sw); i++)
    if ((!*cpu || !strcmp(p[i].cpu, cpu)) && (!*gpu || !strcmp(p[i].gpu, gpu)) &&
        (!nodes || p[i].nodes == nodes) && (!cores || p[i].cores == cores) && p[i].feasible)
      return &p[i];
  return NULL;
}

/* index (cpu * 3 + gpu) of the knee of the six CPU+GPU points at `nodes` */
static int knee_at(dcsim_sweep_t *sw, unsigned nodes) {
  double t[6], e[6];
  unsigned char fr[6];
  for (int k = 0; k < 6; k++) {
    const dcsim_sweep_point *p = pt(sw, CPUS[k / 3], GPUS[k % 3], nodes, 0);
    t[k] = p ? p->time_s : NAN;
    e[k] = p ? p->energy_j : NAN;
  }
  if (dcsim_pareto_front(6, t, e, NULL, fr) < 1) return -1;
  return (int)dcsim_pareto_knee(6, t, e, fr);
}

static int combo(const char *arg, const dcsim_sweep_point *p) {
  char want[160];
  snprintf(want, sizeof want, "%s/%s", p->cpu, p->gpu);
  return strcmp(arg, want) == 0;
}

/* GPU g beats GPU h in energy on cpu at n nodes */
static int less_energy(dcsim_sweep_t *sw, const char *cpu, int g, int h, unsigned n) {
  const dcsim_sweep_point *a = pt(sw, cpu, GPUS[g], n, 0), *b = pt(sw, cpu, GPUS[h], n, 0);
  return a && b && a->energy_j < b->energy_j;
}

static int alaro_test(dcsim_sweep_t *sw, const char *test, const char *args, double *out) {
  const dcsim_sweep_point *all = dcsim_sweep_points(sw);
  size_t n = dcsim_sweep_n_points(sw);
  *out = 1;
  if (strcmp(test, "skylake_beats_haswell") == 0) {
    for (int g = 0; g < 3; g++)
      for (int k = 0; k < 5; k++) {
        const dcsim_sweep_point *h = pt(sw, CPUS[0], GPUS[g], NODES[k], 0),
                                *s = pt(sw, CPUS[1], GPUS[g], NODES[k], 0);
        if (!h || !s || !(s->time_s < h->time_s && s->energy_j < h->energy_j)) *out = 0;
      }
  } else if (strcmp(test, "knee_at") == 0) {
    unsigned nodes = (unsigned)atoi(args);
    const char *c = strchr(args, ' ');
    int k = knee_at(sw, nodes);
    const dcsim_sweep_point *p = k < 0 ? NULL : pt(sw, CPUS[k / 3], GPUS[k % 3], nodes, 0);
    *out = p && c && combo(c + 1, p);
  } else if (strcmp(test, "global_knee") == 0 || strcmp(test, "least_energy") == 0) {
    size_t best = 0;
    for (size_t i = 0; i < n; i++)
      if (strcmp(test, "global_knee") == 0 ? all[i].knee : all[i].energy_j < all[best].energy_j)
        best = i;
    *out = combo(args, &all[best]);
  } else if (strcmp(test, "front_cpu") == 0) {
    for (size_t i = 0; i < n; i++)
      if (all[i].pareto && strcmp(all[i].cpu, args) != 0) *out = 0;
  } else if (strcmp(test, "gtx_faster") == 0) {
    for (int c = 0; c < 2; c++)
      for (int k = 0; k < 5; k++)
        if (!(pt(sw, CPUS[c], GPUS[0], NODES[k], 0)->time_s <
              pt(sw, CPUS[c], args, NODES[k], 0)->time_s))
          *out = 0;
  } else if (strcmp(test, "gtx_thriftier") == 0) {
    char cpu[64];
    const char *nl = strchr(args, ' ');
    snprintf(cpu, sizeof cpu, "%.*s", nl ? (int)(nl - args) : 0, args);
    for (const char *q = nl; q && *q; q = strchr(q + 1, ','))
      for (int h = 1; h < 3; h++)
        if (!less_energy(sw, cpu, 0, h, (unsigned)atoi(q + 1))) *out = 0;
  } else {
    return -1;
  }
  return 0;
}

static int other_test(cc_state *s, const char *test, const char *args, const char *mode,
                      double *out, dcsim_error *err) {
  dcsim_sweep_t *sw = NULL;
  int rc;
  *out = 1;
  const int dflt = strcmp(mode, "default") == 0;
  if (strncmp(test, "acraneb2_", 9) == 0) {
    if ((rc = get(s, dflt ? "acraneb2 default" : "acraneb2", 0, &sw, err))) return rc;
    const dcsim_sweep_point *p = dcsim_sweep_points(sw);
    double tmin = INFINITY, tmax = 0;
    size_t best = 0;
    for (size_t i = 0; i < 3; i++) {
      tmin = fmin(tmin, p[i].time_s);
      tmax = fmax(tmax, p[i].time_s);
      if (p[i].energy_j < p[best].energy_j) best = i;
    }
    *out = strcmp(test, "acraneb2_spread") == 0 ? tmax / tmin - 1 : !strcmp(p[best].gpu, args);
  } else if (strncmp(test, "sh_", 3) == 0) {
    int tco = strcmp(test, "sh_skylake_faster") == 0;
    if ((rc = get(s,
                  tco ? (dflt ? "sh-tco639 default" : "sh-tco639")
                      : (dflt ? "sh-tl159 default" : "sh-tl159"),
                  0, &sw, err)))
      return rc;
    const dcsim_sweep_point *one = pt(sw, tco ? CPUS[0] : "", "", 1, 0);
    *out = tco;
    for (unsigned n = 1; n <= 8; n *= 2) {
      const dcsim_sweep_point *p = pt(sw, tco ? CPUS[0] : "", "", n, 0);
      if (tco)
        *out = *out && pt(sw, CPUS[1], "", n, 0)->time_s < p->time_s;
      else if (strcmp(test, "sh_time_scaling") == 0) /* §6.1.1: T_n = T_1 / n */
        *out = fmax(*out, fabs(p->time_s * n / one->time_s - 1));
      else /* §6.1.1: E_n = E_1 */
        *out = fmax(*out, fabs(p->energy_j / one->energy_j - 1));
    }
  } else if (strncmp(test, "bifft_", 6) == 0) {
    if ((rc = get(s, dflt ? "bifft default" : "bifft", 0, &sw, err))) return rc;
    unsigned nodes = (unsigned)atoi(args),
             cores = strchr(args, 'x') ? atoi(strchr(args, 'x') + 1) : 1;
    const dcsim_sweep_point *b = pt(sw, "", "", nodes, cores);
    if (strcmp(test, "bifft_knee") == 0) {
      *out = b && b->knee;
    } else if (strcmp(test, "bifft_time_scaling") == 0 ||
               strcmp(test, "bifft_energy_constant") == 0) { /* as sh_*, at every core count */
      const int t = strcmp(test, "bifft_time_scaling") == 0;
      *out = 0;
      for (unsigned c = 1; c <= 4; c *= 2)
        for (unsigned n = 2; n <= 8; n *= 2) {
          const dcsim_sweep_point *one = pt(sw, "", "", 1, c), *p = pt(sw, "", "", n, c);
          *out = fmax(*out,
                      fabs(t ? p->time_s * n / one->time_s - 1 : p->energy_j / one->energy_j - 1));
        }
    } else if (strcmp(test, "bifft_more_cores_costlier") == 0) {
      for (unsigned n = 1; n <= 8; n *= 2)
        for (unsigned c = 2; c <= 4; c *= 2) {
          const dcsim_sweep_point *one = pt(sw, "", "", n, 1), *more = pt(sw, "", "", n, c);
          if (!(more->time_s > one->time_s && more->energy_j > one->energy_j)) *out = 0;
        }
    } else {
      for (unsigned n = 1; n <= 8; n *= 2)
        if (n != nodes && !(b->time_s < pt(sw, "", "", n, 1)->time_s &&
                            b->energy_j <= pt(sw, "", "", n, 1)->energy_j * (1 + 1e-9)))
          *out = 0;
    }
  } else {
    return DCSIM_ERR(err, DCSIM_EREF, "", 0, "unknown test %s", test);
  }
  return 0;
}

/* the row's conclusion in `mode` ("default": dcsim's default model, else --d35) */
static int verdict(cc_state *s, const val_row *w, const char *mode, double *out, dcsim_error *err) {
  const char *test = val_col(w, "test"), *args = val_col(w, "args");
  double iter = atof(val_col(w, "iter"));
  if (strncmp(test, "acraneb2_", 9) && strncmp(test, "sh_", 3) && strncmp(test, "bifft_", 6)) {
    dcsim_sweep_t *sw = NULL;
    int rc = get(s, strcmp(mode, "default") == 0 ? "alaro default" : "alaro", iter, &sw, err);
    if (rc) return rc;
    if (alaro_test(sw, test, args, out) == 0) return 0;
  }
  int rc = other_test(s, test, args, mode, out, err);
  if (rc) dcsim_error_at(err, w->path, dcsim__csv_line(w->t, w->r));
  return rc;
}

static int compute(void *st, const val_row *w, double *out, dcsim_error *err) {
  return verdict(st, w, val_col(w, "mode"), out, err);
}

static void say(char *buf, size_t size, const val_row *w, double v) {
  if (strcmp(val_col(w, "tol"), "bool") == 0)
    snprintf(buf, size, "%s", v != 0 ? "holds" : "does not hold");
  else
    snprintf(buf, size, "%.3g", v);
}

/* Among the one-core BiFFT points of the row's model: how many share the least energy. */
static int ties(cc_state *s, const val_row *w, char *buf, size_t size, dcsim_error *err) {
  dcsim_sweep_t *sw = NULL;
  int dflt = strcmp(val_col(w, "mode"), "default") == 0;
  int rc = get(s, dflt ? "bifft default" : "bifft", 0, &sw, err);
  if (rc) return rc;
  double least = INFINITY;
  for (unsigned n = 1; n <= 8; n *= 2) least = fmin(least, pt(sw, "", "", n, 1)->energy_j);
  char who[64] = "";
  int k = 0;
  for (unsigned n = 1; n <= 8; n *= 2)
    if (pt(sw, "", "", n, 1)->energy_j <= least * (1 + 1e-9)) {
      size_t l = strlen(who);
      snprintf(who + l, sizeof who - l, "%s%u", k++ ? ", " : "", n);
    }
  if (k > 1)
    snprintf(buf, size, "; the least energy is a %d-way tie (%s nodes, within 1e-9) in %s", k, who,
             dflt ? "the default model" : "--d35");
  return 0;
}

/* Every conclusion under both models side by side, and what flips it (the `flip` column). */
static int note(void *st, const val_row *w, char *buf, size_t size, dcsim_error *err) {
  double d35 = 0, dflt = 0;
  int rc;
  if ((rc = verdict(st, w, "d35", &d35, err)) || (rc = verdict(st, w, "default", &dflt, err)))
    return rc;
  char a[32], b[32];
  say(a, sizeof a, w, d35);
  say(b, sizeof b, w, dflt);
  const char *flip = val_col(w, "flip");
  size_t n = (size_t)snprintf(buf, size, "under --d35 %s, in the default model %s%s%s", a, b,
                              *flip ? "; " : "", flip);
  if (strcmp(val_col(w, "test"), "bifft_best_one_core") == 0 && n < size)
    rc = ties(st, w, buf + n, size - n, err);
  return rc;
}

static void label(const val_row *w, char *buf, size_t size) {
  const char *iter = val_col(w, "iter");
  snprintf(buf, size, "%s%s%s%s", val_col(w, "claim"), *iter ? " (ITER = " : "", iter,
           *iter ? ")" : "");
}

static void knee_table(FILE *f, dcsim_sweep_t *sw, const char *model) {
  fprintf(f,
          "ALARO (ITER = 100) per BiFFT node count, %s: the knee of the six CPU+GPU points, and "
          "the fastest and the thriftiest of them.\n\n| BiFFT nodes | knee | time [s] | "
          "energy [kJ] | fastest | least energy |\n|---|---|---|---|---|---|\n",
          model);
  for (int k = 0; k < 5; k++) {
    int kn = knee_at(sw, NODES[k]), fast = 0, thrift = 0;
    for (int c = 1; c < 6; c++) {
      const dcsim_sweep_point *p = pt(sw, CPUS[c / 3], GPUS[c % 3], NODES[k], 0);
      if (p->time_s < pt(sw, CPUS[fast / 3], GPUS[fast % 3], NODES[k], 0)->time_s) fast = c;
      if (p->energy_j < pt(sw, CPUS[thrift / 3], GPUS[thrift % 3], NODES[k], 0)->energy_j)
        thrift = c;
    }
    const dcsim_sweep_point *p = pt(sw, CPUS[kn / 3], GPUS[kn % 3], NODES[k], 0);
    fprintf(f, "| %u | %s + %s | %.0f | %.1f | %s + %s | %s + %s |\n", NODES[k], p->cpu, p->gpu,
            p->time_s, p->energy_j / 1e3, CPUS[fast / 3], GPUS[fast % 3], CPUS[thrift / 3],
            GPUS[thrift % 3]);
  }
  const dcsim_sweep_point *all = dcsim_sweep_points(sw);
  for (size_t i = 0; i < dcsim_sweep_n_points(sw); i++)
    if (all[i].knee)
      fprintf(f,
              "\nThe knee of the whole front (all node counts together): %s + %s on %u nodes, "
              "%.0f s, %.1f kJ.\n",
              all[i].cpu, all[i].gpu, all[i].nodes, all[i].time_s, all[i].energy_j / 1e3);
}

static int extra(void *st, FILE *f, dcsim_error *err) {
  cc_state *s = st;
  dcsim_sweep_t *sw = NULL;
  int rc = get(s, "alaro", 100, &sw, err);
  if (rc) return rc;
  knee_table(f, sw, "under --d35");
  if ((rc = get(s, "alaro default", 100, &sw, err))) return rc;
  fputc('\n', f);
  knee_table(f, sw, "in dcsim's default model");
  fprintf(f,
          "\nGPU energy of ALARO over BiFFT's iterations per step (`dcsim sweep "
          "workflows/alaro.xml --set ITER=N ...`): energy of the whole workflow in kJ with the "
          "GTX 970 / with the K20m, and which needs less.\n\n| ITER | CPU |");
  for (int k = 0; k < 5; k++) fprintf(f, " %u node%s |", NODES[k], NODES[k] > 1 ? "s" : "");
  fprintf(f, "\n|---|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < sizeof ITERS / sizeof *ITERS; i++) {
    if ((rc = get(s, "alaro", ITERS[i], &sw, err))) return rc;
    for (int c = 0; c < 2; c++) {
      fprintf(f, "| %g | %s |", ITERS[i], CPUS[c]);
      for (int k = 0; k < 5; k++) {
        const dcsim_sweep_point *g = pt(sw, CPUS[c], GPUS[0], NODES[k], 0),
                                *h = pt(sw, CPUS[c], GPUS[1], NODES[k], 0);
        fprintf(f, " %.1f / %.1f %s |", g->energy_j / 1e3, h->energy_j / 1e3,
                g->energy_j < h->energy_j ? "GTX" : "K20m");
      }
      fputc('\n', f);
    }
  }
  return 0;
}

const val_checker val_conclusions = VAL_CHECKER(
    "conclusions", init, fini, label, compute, extra, note,
    "D3.5 §6's conclusions by sweeps, in --d35 mode or (a `mode` column) the default models");
