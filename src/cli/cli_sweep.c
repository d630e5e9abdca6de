/* cli_sweep.c — `dcsim sweep`, `dcsim merge`, `dcsim pareto` and `dcsim heatmap` (doc/sweep.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "dcsim/bands.h"
#include "dcsim/catalog.h"
#include "dcsim/cli.h"
#include "dcsim/cost.h"
#include "dcsim/dwarf.h"
#include "dcsim/hwprofile.h"
#include "dcsim/numfmt.h"
#include "dcsim/platform.h"
#include "dcsim/plot.h"
#include "dcsim/repro.h"
#include "dcsim/scenario.h"
#include "dcsim/sched.h"
#include "dcsim/strutil.h"
#include "dcsim/sweep.h"
#include "dcsim/sweep_axis.h"
#include "dcsim/sweep_bands.h"
#include "dcsim/sweepdb.h"
#include "util/clock.h"
#include "util/xmlio.h"

/* A comma-separated option value split in place into a caller buffer. */
typedef struct list {
  char buf[2048];
  const char *v[DCSIM_SWEEP_MAX_LIST];
  size_t n;
} list;

static int split_list(const dcsim_args *a, const char *name, list *l, dcsim_error *err) {
  l->n = 0;
  const char *s = dcsim_arg(a, name);
  if (!s) return 0;
  if (strlen(s) >= sizeof l->buf)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, name),
                     "--%s: list too long", name);
  snprintf(l->buf, sizeof l->buf, "%s", s);
  char *save = NULL;
  for (char *t = strtok_r(l->buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    while (*t == ' ') t++;
    if (!*t) continue;
    if (l->n == DCSIM_SWEEP_MAX_LIST)
      return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, name),
                       "--%s: more than %d values", name, DCSIM_SWEEP_MAX_LIST);
    l->v[l->n++] = t;
  }
  if (!l->n)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, name),
                     "--%s: empty list", name);
  return 0;
}

/* --set NAME=VALUE (repeatable) into sets (dcsim_arg_sets); names point into set_names */
static int parse_sets(const dcsim_args *a, dcsim_param_set *sets, char (*names)[64], size_t *n,
                      dcsim_error *err) {
  dcsim_binding b[16];
  int rc = dcsim_arg_sets(a, b, names, sizeof b / sizeof *b, n, err);
  for (size_t i = 0; !rc && i < *n; i++) sets[i] = (dcsim_param_set){ names[i], b[i].value };
  return rc;
}

/* --sort KEY: a new array of the points in that order (dcsim/sweep_io.h; the caller frees the
 * array); NULL without --sort. With n = 0 it checks KEY before anything runs. */
static int sort_points(const dcsim_args *a, const dcsim_sweep_point *pts, size_t n,
                       dcsim_sweep_point **out, dcsim_error *err) {
  const char *key = dcsim_arg(a, "sort");
  *out = NULL;
  if (!key) return 0;
  int rc = dcsim_sweep_sorted(pts, n, key, out, err);
  if (rc) dcsim_error_at(err, NULL, dcsim_arg_index(a, "sort"));
  if (!n) free(*out), *out = NULL;
  return rc;
}

/* --objectives: time,energy (default), time,cost, energy,cost or all three */
static int parse_objectives(const dcsim_args *a, unsigned *obj, dcsim_error *err) {
  const char *s = dcsim_arg(a, "objectives");
  *obj = DCSIM_OBJ_DEFAULT;
  int rc = s ? dcsim_objectives_parse(s, obj, err) : 0;
  if (rc) dcsim_error_at(err, NULL, dcsim_arg_index(a, "objectives"));
  return rc;
}

/* whole numbers "1,2,4" with ranges "1-14", each at most max, at most DCSIM_SWEEP_MAX_LIST; for
 * --cores also `all` (0: each CPU's full node, resolved per CPU by the sweep) */
static int uint_list(const dcsim_args *a, const char *name, unsigned max, unsigned *out, size_t *n,
                     dcsim_error *err) {
  list l;
  int rc = split_list(a, name, &l, err);
  int at = dcsim_arg_index(a, name);
  *n = 0;
  if (rc) return rc;
  for (size_t i = 0; i < l.n; i++) {
    int all_ok = strcmp(name, "cores") == 0;
    if (all_ok && strcmp(l.v[i], "all") == 0) { /* each CPU's full node */
      if (*n == DCSIM_SWEEP_MAX_LIST)
        return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", at,
                         "--%s 'all': a list holds at most %d values (with those before it)", name,
                         DCSIM_SWEEP_MAX_LIST);
      out[(*n)++] = 0;
      continue;
    }
    char *end;
    unsigned long long lo = strtoull(l.v[i], &end, 10), hi = lo;
    if (end != l.v[i] && *end == '-') {
      const char *b = end + 1;
      hi = strtoull(b, &end, 10);
      if (end == b || *b == '-') end = (char *)b - 1;
    }
    if (end == l.v[i] || *end || lo < 1 || hi < lo || l.v[i][0] == '-')
      return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", at,
                       "--%s '%s': expected whole numbers >= 1%s ranges A-B%s, separated by commas",
                       name, l.v[i], all_ok ? "," : " or", all_ok ? " or all" : "");
    if (hi > max)
      return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", at, "--%s '%s': at most %u %s", name,
                       l.v[i], max,
                       strcmp(name, "nodes") == 0  ? "nodes"
                       : strcmp(name, "gpus") == 0 ? "GPUs per node"
                                                   : "cores per node");
    if (hi - lo + 1 > (unsigned long long)(DCSIM_SWEEP_MAX_LIST - *n))
      return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", at,
                       "--%s '%s': %llu values, and a list holds at most %d (with those before it)",
                       name, l.v[i], hi - lo + 1, DCSIM_SWEEP_MAX_LIST);
    for (unsigned long long v = lo; v <= hi; v++) out[(*n)++] = (unsigned)v;
  }
  return 0;
}

/* ---- progress on a terminal ---- */

typedef struct progress {
  int on;
  double last_s, start_s;
  size_t shown;
  FILE *f;
} progress;

static void on_progress(void *ctx, size_t done, size_t total) {
  progress *p = ctx;
  if (!p->on) return;
  double t = dcsim__clock_s();
  if (done < total && t - p->last_s < 0.1) return;
  p->last_s = t;
  int width = 40, fill = total ? (int)((double)done / (double)total * width) : width;
  fprintf(p->f, "\r[%.*s%*s] %zu/%zu points %3.0f%% %6.1f s", fill,
          "########################################", width - fill, "", done, total,
          total ? 100.0 * (double)done / (double)total : 100.0, t - p->start_s);
  if (done == total) fputc('\n', p->f);
  fflush(p->f);
  p->shown = done;
}

typedef struct run_ctx {
  dcsim_sweepdb_t *db;
  progress pr;
} run_ctx;

static int on_batch(void *ctx, const dcsim_sweep_point *pts, const size_t *idx, size_t n,
                    dcsim_error *err) {
  run_ctx *c = ctx;
  return c->db ? dcsim_sweepdb_store(c->db, pts, idx, n, err) : 0;
}

static void on_progress_cb(void *ctx, size_t done, size_t total) {
  on_progress(&((run_ctx *)ctx)->pr, done, total);
}

/* ---- where the points are evaluated: this process, or every rank of an MPI job ---- */

#ifdef DCSIM_MPI
#include "dcsim/sweep_mpi.h"
/* an MPI build (-DDCSIM_MPI=ON): the ranks of MPI_COMM_WORLD share the points; rank 0 stores and
 * prints them (doc/scaling.md) */
static int dist_begin(int *rank, int *started, dcsim_error *err) {
  return dcsim_sweep_mpi_init(rank, started, err);
}
static int dist_run(dcsim_sweep_t *sw, int setup_rc, const dcsim_sweep_run_opts *o,
                    dcsim_error *err) {
  return dcsim_sweep_mpi_run(MPI_COMM_WORLD, sw, setup_rc, o, err);
}
static void dist_end(int started) { dcsim_sweep_mpi_finalize(started); }
#else
static int dist_begin(int *rank, int *started, dcsim_error *err) {
  (void)err;
  *rank = 0;
  *started = 0;
  return 0;
}
static int dist_run(dcsim_sweep_t *sw, int setup_rc, const dcsim_sweep_run_opts *o,
                    dcsim_error *err) {
  return setup_rc ? setup_rc : dcsim_sweep_run(sw, o, err);
}
static void dist_end(int started) { (void)started; }
#endif

/* --shard I/N */
static int parse_shard(const dcsim_args *a, unsigned *i, unsigned *n, dcsim_error *err) {
  const char *s = dcsim_arg(a, "shard");
  *i = *n = 0;
  if (!s) return 0;
  char *end;
  unsigned long si = strtoul(s, &end, 10), sn = 0;
  int ok = end != s && *end == '/' && s[0] >= '0' && s[0] <= '9';
  if (ok) {
    const char *b = end + 1;
    sn = strtoul(b, &end, 10);
    ok = end != b && !*end && b[0] >= '0' && b[0] <= '9' && sn >= 1 &&
         sn <= DCSIM_SWEEP_MAX_SHARDS && si < sn;
  }
  if (!ok)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "shard"),
                     "--shard '%s': expected I/N, shard I (0 to N-1) of N (1 to %u)", s,
                     DCSIM_SWEEP_MAX_SHARDS);
  if (!dcsim_arg(a, "db"))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "shard"),
                     "--shard needs --db PATH: each shard stores its points in its own database, "
                     "joined by dcsim merge");
  if (dcsim_arg(a, "plot"))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "plot"),
                     "--plot needs the whole sweep: draw it from the merged database (dcsim pareto "
                     "ALL.db --out FILE)");
  if (dcsim_arg(a, "heatmap"))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "heatmap"),
                     "--heatmap needs the whole sweep: draw it from the merged database (dcsim "
                     "heatmap ALL.db --out FILE)");
  *i = (unsigned)si;
  *n = (unsigned)sn;
  return 0;
}

/* What the sweep does with options that might surprise: node counts beyond the platform's groups
 * (one rule, doc/sweep.md: a sweep point sizes the CPU groups to its node count, dcsim run uses the
 * platform as written) and a deadline that the task policy does not plan with. */
static void sweep_notes(const dcsim_args *a, const dcsim_sweep_t *sw, const unsigned *nodes,
                        size_t n_nodes, double deadline_s) {
  const dcsim_scenario *s = dcsim_sweep_base(sw);
  unsigned most = 0;
  for (size_t i = 0; i < n_nodes; i++)
    if (nodes[i] > most) most = nodes[i];
  for (size_t g = 0; g < s->n_groups && most; g++)
    if (dcsim_scenario_cpu_group_used(s, g) && s->groups[g].g->count < most)
      fprintf(stderr,
              "dcsim: note: --nodes up to %u: the points size CPU group '%s' (%u %s in %s) to "
              "their node count; dcsim run uses the platform as written\n",
              most, s->groups[g].g->name, s->groups[g].g->count,
              dcsim_plural(s->groups[g].g->count, "node", "nodes"), s->platform->name);
  dcsim_job_policy jp;
  dcsim_task_policy tp;
  if (deadline_s > 0 && dcsim_sched_parse_policy(dcsim_arg(a, "policy"), &jp, &tp, NULL) == 0 &&
      tp != DCSIM_TASK_ENERGY)
    fprintf(stderr,
            "dcsim: note: --deadline-s: the task policy %s does not plan with a deadline (energy "
            "does); points that miss it are infeasible\n",
            dcsim_sched_task_name(tp));
}

/* The knee line of the text output: over time and energy as before issue 26, else naming the
 * objectives and giving the cost. */
/* A value of the knee line with its band when it has one (issue 37: bands wherever a number is
 * printed), in SI form (si) or plain, then its unit. */
static void print_knee_value(const char *before, double x, const double *band, int si,
                             const char *unit) {
  char num[96];
  if (si)
    band ? dcsim_fmt_band(num, sizeof num, x, band, unit)
         : dcsim_fmt_si(num, sizeof num, x, 6, unit);
  else
    band ? dcsim_fmt_band(num, sizeof num, x, band, NULL) : dcsim_fmt_sig(num, sizeof num, x, 6);
  printf("%s%s%s%s", before, num, si ? "" : " ", si ? "" : unit);
}

static void print_knee(const dcsim_sweep_point *pts, size_t n, unsigned obj) {
  for (size_t i = 0; i < n; i++) {
    if (!pts[i].knee) continue;
    const dcsim_sweep_point *p = &pts[i];
    if (obj == DCSIM_OBJ_DEFAULT)
      printf(
          "knee (closest to the utopia point, both axes scaled to [0,1] over the front): point "
          "%u",
          p->index);
    else
      printf(
          "knee (closest to the utopia point, %s each scaled to [0,1] over the front): point "
          "%u",
          dcsim_objectives_name(obj), p->index);
    print_knee_value(", ", p->time_s, p->has_band ? p->time_band : NULL, 0, "s");
    print_knee_value(", ", p->energy_j, p->has_band ? p->energy_band : NULL, 1, "J");
    if (obj != DCSIM_OBJ_DEFAULT)
      print_knee_value(", ", p->cost_usd, p->has_cost_band ? p->cost_band : NULL, 0, "USD");
    putchar('\n');
  }
}

/* Issue 26: the cores column is what a point's CPU tasks use per node; say what each CPU's node
 * has (its profile's cores per socket x sockets, as `--cores all`). */
static void print_cores_available(const dcsim_scenario *s, const dcsim_sweep_point *pts, size_t n) {
  int first = 1;
  for (size_t c = 0; c < s->n_cpus; c++) {
    const char *name = dcsim_cpu_profile_name(s->cpus[c]);
    size_t i = 0;
    while (i < n && !(pts[i].done && strcmp(pts[i].cpu, name) == 0)) i++;
    if (i == n) continue;
    printf("%s%s %u", first ? "cores per node available (the cores column: in use): " : ", ", name,
           dcsim_cpu_profile_cores_per_socket(s->cpus[c]) * dcsim_cpu_profile_sockets(s->cpus[c]));
    first = 0;
  }
  if (!first) putchar('\n');
}

/* Issue 37 item 4: why some points' bands are wider — the CPUs whose per-core rates are a
 * sibling's or an estimate (dcsim_bands_cpu_transferred 2, doc/models.md "Per-core rates"). */
static void print_rates_borrowed(const dcsim_scenario *s, const dcsim_sweep_point *pts, size_t n) {
  int first = 1;
  for (size_t c = 0; c < s->n_cpus; c++) {
    const char *name = dcsim_cpu_profile_name(s->cpus[c]);
    size_t i = 0;
    while (i < n && !(pts[i].done && strcmp(pts[i].cpu, name) == 0)) i++;
    if (i == n || dcsim_bands_cpu_transferred(s->cpus[c]) < 2) continue;
    printf("%s%s (%s)",
           first ? "per-core rates borrowed, their time bands the cpu-time spec band twice "
                   "(doc/models.md \"Per-core rates\"): "
                 : ", ",
           name, dcsim_rates_basis_name(dcsim_cpu_profile_rates_basis(s->cpus[c], NULL)));
    first = 0;
  }
  if (!first) putchar('\n');
}

/* Issue 37: a sweep over GPU nodes without --host-cpu says which CPU those nodes have (the
 * platform's), since it weighs in their power and cost. */
static void print_gpu_host(const dcsim_args *a, const dcsim_sweep_point *pts, size_t n) {
  if (dcsim_arg(a, "host-cpu")) return;
  for (size_t i = 0; i < n; i++)
    if (pts[i].done && pts[i].gpu[0] && pts[i].host_cpu[0]) {
      printf("GPU nodes' host CPU: %s, the platform's (--host-cpu chooses others)\n",
             pts[i].host_cpu);
      return;
    }
}

/* Issue 40 item 3: the tariff and lifetime a cost column is at, the default tariff with its year
 * and source (dcsim/cost.h), when a point's cost is known. */
static void print_tariff(const dcsim_cost_opts *o, int kwh_default, const dcsim_sweep_point *pts,
                         size_t n) {
  size_t i = 0;
  while (i < n && !(pts[i].done && pts[i].feasible && isfinite(pts[i].cost_usd))) i++;
  if (i == n) return;
  printf("cost at %s USD/kWh (%s) and list prices amortised over %s years\n", DCSIM_SIG(o->kwh_usd),
         kwh_default ? "default: " DCSIM_COST_KWH_SOURCE : "--kwh-price",
         DCSIM_SIG(o->lifetime_years));
}

typedef struct sweep_cmd {
  dcsim_repro rp;
  dcsim_cost_opts cost; /* the tariff and lifetime the costs are at */
  int kwh_default;      /* no --kwh-price: the tariff is printed with its year and source */
  dcsim_format fmt;
  unsigned threads, stop_after, shard_i, shard_n;
  const char *plot, *heat, *dbpath;
  dcsim_plot_format pf, hf;
  int64_t sweep_id;
  dcsim_sweep_t *sw;
  run_ctx ctx;
  dcsim_cli_loading ld; /* SIGINT/SIGTERM and the test hook, from loading to output */
} sweep_cmd;

/* Everything before the points are evaluated: options, inputs, and (on the rank that stores the
 * results) gnuplot and the database. Inputs are read and checked before the database is touched. */
static int sweep_setup(const dcsim_args *a, int root, sweep_cmd *c, dcsim_error *err) {
  static const dcsim_format formats[] = { DCSIM_FMT_TEXT, DCSIM_FMT_JSON, DCSIM_FMT_CSV,
                                          DCSIM_FMT_END };
  int rc;
  list cpus, gpus, freqs, hosts, thr;
  unsigned nodes[DCSIM_SWEEP_MAX_LIST], cores[DCSIM_SWEEP_MAX_LIST], gcounts[DCSIM_SWEEP_MAX_LIST],
      threadings[2];
  size_t n_gcounts = 0, n_threadings = 0;
  dcsim_param_set sets[16];
  char set_names[16][64], price_names[16][64];
  dcsim_price_set prices[16];
  dcsim_cost_opts cost;
  unsigned objectives = DCSIM_OBJ_DEFAULT;
  size_t n_sets = 0;
  size_t n_nodes = 0, n_cores = 0;
  if ((rc = dcsim_arg_format(a, formats, &c->fmt, err)) ||
      (rc = split_list(a, "cpu", &cpus, err)) || (rc = split_list(a, "gpu", &gpus, err)) ||
      (rc = split_list(a, "freq", &freqs, err)) || (rc = split_list(a, "host-cpu", &hosts, err)) ||
      (rc = split_list(a, "threading", &thr, err)) ||
      (rc = uint_list(a, "gpus", 64, gcounts, &n_gcounts, err)) ||
      (rc = uint_list(a, "nodes", DCSIM_SWEEP_MAX_NODES, nodes, &n_nodes, err)) ||
      (rc = uint_list(a, "cores", DCSIM_SWEEP_MAX_CORES, cores, &n_cores, err)) ||
      (rc = dcsim_arg_uint(a, "threads", 0, &c->threads, err)) ||
      (rc = dcsim_arg_uint(a, "stop-after", 0, &c->stop_after, err)) ||
      (rc = parse_shard(a, &c->shard_i, &c->shard_n, err)) ||
      (rc = parse_sets(a, sets, set_names, &n_sets, err)) ||
      (rc = dcsim_arg_cost(a, &cost, prices, price_names, err)) ||
      (rc = parse_objectives(a, &objectives, err)))
    return rc;
  dcsim_sweep_point *none;
  if ((rc = sort_points(a, NULL, 0, &none, err))) return rc; /* before sweeping */
  c->cost = cost;
  c->kwh_default = !dcsim_arg(a, "kwh-price");
  c->plot = dcsim_arg(a, "plot");
  c->pf = DCSIM_PLOT_PNG;
  if (c->plot && (rc = dcsim_plot_format_of(c->plot, NULL, &c->pf, err))) {
    dcsim_error_at(err, "command line", dcsim_arg_index(a, "plot"));
    return rc;
  }
  if (root && c->plot && (rc = dcsim_path_check_writable(c->plot, "--plot", err)))
    return rc; /* before sweeping */
  c->heat = dcsim_arg(a, "heatmap");
  c->hf = DCSIM_PLOT_PNG;
  if (c->heat && ((rc = dcsim_plot_format_of(c->heat, NULL, &c->hf, err)) ||
                  (root && (rc = dcsim_path_check_writable(c->heat, "--heatmap", err))))) {
    if (err && !err->file[0]) dcsim_error_at(err, "command line", dcsim_arg_index(a, "heatmap"));
    return rc;
  }
  if (!c->plot && !c->heat && dcsim_arg(a, "title")) /* no option silently ignored (issue 35) */
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "title"),
                     "--title names the pictures of --plot and --heatmap; there is none");
  if (root && (c->plot || c->heat) && (rc = dcsim_plot_find_gnuplot(NULL, err)))
    return rc; /* before sweeping */
  dcsim_sweep_def def = { .input = a->positional[0],
                          .platform = dcsim_arg(a, "platform"),
                          .policy = dcsim_arg(a, "policy"),
                          .n_cpus = cpus.n,
                          .cpus = cpus.v,
                          .n_gpus = gpus.n,
                          .gpus = gpus.v,
                          .n_nodes = n_nodes,
                          .nodes = nodes,
                          .n_cores = n_cores,
                          .cores = cores,
                          .n_freqs = freqs.n,
                          .freqs = freqs.v,
                          .n_sets = n_sets,
                          .sets = sets };
  def.cost = &cost; /* issue 26 */
  def.objectives = objectives;
  def.n_gpu_counts = n_gcounts;
  def.gpu_counts = gcounts;
  def.n_host_cpus = hosts.n;
  def.host_cpus = hosts.v;
  if ((rc = dcsim_arg_quantity(a, "deadline-s", "s", 0, &def.deadline_s, err))) return rc;
  if (c->threads > (unsigned)dcsim_sweep_max_threads())
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "threads"),
                     "--threads %u: at most %d on this machine (4 per online processor, at least "
                     "16)",
                     c->threads, dcsim_sweep_max_threads());
  dcsim_budget budget;
  if ((rc = dcsim_cli_budget(a, &budget, err))) return rc;
  def.model_flags = dcsim_arg_model_flags(a);
  for (size_t k = 0; k < thr.n; k++) { /* --threading measured,ideal: an axis (dcsim/sweep.h) */
    if (k >= 2 || dcsim_threading_parse(thr.v[k], &threadings[k]) ||
        (k == 1 && threadings[0] == threadings[1]))
      return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "threading"),
                       "--threading %s: a list of measured and ideal, each at most once",
                       dcsim_arg(a, "threading"));
    n_threadings = k + 1;
  }
  def.n_threadings = n_threadings;
  def.threadings = threadings;
  /* SIGINT/SIGTERM while loading stop it at its next step (issue 26), while planning a point
   * before its next task (issue 35) */
  if ((rc = dcsim_cli_loading_init(&c->ld, err))) return rc;
  def.stop_loading = dcsim_cli_loading_stop;
  def.stop_loading_ctx = &c->ld;
  def.stop_planning = dcsim_cli_planning_stop;
  def.stop_planning_ctx = &c->ld;
  rc = dcsim_sweep_new_within(&def, &budget, c->threads, &c->sw, err);
  if (rc == DCSIM_EINTR || (!rc && *c->ld.flag))
    return DCSIM_ERR(err, DCSIM_EINTR, a->positional[0], 0,
                     "sweep stopped by %s while loading its inputs; nothing was evaluated or saved",
                     dcsim_cli_interrupted_by());
  if (rc) return rc; /* an error about a parameter is located by dcsim_cli_locate_param */
  if (root && !dcsim_arg_flag(a, "quiet")) sweep_notes(a, c->sw, nodes, n_nodes, def.deadline_s);
  if ((rc = dcsim_sweep_set_shard(c->sw, c->shard_i, c->shard_n, err)) ||
      (rc = dcsim_sweep_repro(c->sw, &c->rp, err)))
    return rc;
  c->dbpath = dcsim_arg(a, "db");
  if (!root) return 0;
  size_t restored = 0;
  if (c->dbpath) {
    /* the workflow as the definition names it (location-independent) */
    char *in_name = dcsim_catalog_relname(a->positional[0], a->positional[0]);
    if (!in_name) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    if (!(rc = dcsim_sweepdb_open(c->dbpath, &c->ctx.db, err)))
      rc = dcsim_sweepdb_attach(c->ctx.db, c->sw, in_name, &c->sweep_id, &restored, err);
    free(in_name);
    if (rc) return rc;
  }
  if (c->dbpath && dcsim_sweepdb_read_only(c->ctx.db)) { /* complete, or nowhere to store */
    size_t todo = 0, n = dcsim_sweep_n_points(c->sw);
    const dcsim_sweep_point *pts = dcsim_sweep_points(c->sw);
    for (size_t i = 0; i < n; i++) todo += !pts[i].done && dcsim_sweep_in_shard(c->sw, i);
    if (todo)
      return DCSIM_ERR(err, DCSIM_EDB, c->dbpath, 0,
                       "read-only: %zu of this sweep's points remain to compute and cannot be "
                       "stored here (copy the database somewhere writable to resume)",
                       todo);
  }
  c->ctx.pr.on = isatty(2) && !dcsim_arg_flag(a, "quiet");
  if (dcsim_sweep_note(c->sw) && !dcsim_arg_flag(a, "quiet"))
    fprintf(stderr, "dcsim: note: %s\n", dcsim_sweep_note(c->sw));
  c->ctx.pr.f = stderr;
  c->ctx.pr.start_s = c->ctx.pr.last_s = dcsim__clock_s();
  if (restored && !dcsim_arg_flag(a, "quiet"))
    fprintf(stderr, "dcsim: %s: resuming sweep %lld, %zu of %zu points already done\n", c->dbpath,
            (long long)c->sweep_id, restored, dcsim_sweep_n_points(c->sw));
  return 0;
}

/* SIGINT/SIGTERM in the output stage (issue 35): DCSIM_EINTR before the next output, saying what
 * was written (`done`) and where the points are. */
static int output_stop(const dcsim_args *a, const sweep_cmd *c, const char *done,
                       dcsim_error *err) {
  if (!*dcsim_cli_catch_interrupts()) return 0;
  return DCSIM_ERR(err, DCSIM_EINTR, a->positional[0], 0,
                   "sweep stopped by %s while writing its outputs; %s%s%s",
                   dcsim_cli_interrupted_by(), done,
                   c->dbpath ? "; every point is saved in " : " (nothing was saved)",
                   c->dbpath ? c->dbpath : "");
}

int dcsim_cmd_sweep(const dcsim_args *a, dcsim_error *err) {
  int rank = 0, started = 0, rc;
  sweep_cmd c;
  dcsim_sweep_point *sorted = NULL; /* --sort: the points as printed */
  memset(&c, 0, sizeof c);
  dcsim_repro_init(&c.rp, a->positional[0]);
  if ((rc = dist_begin(&rank, &started, err))) {
    dist_end(started);
    return rc;
  }
  rc = sweep_setup(a, rank == 0, &c, err);
  dcsim_sweep_sink sink = { &c.ctx, on_batch, on_progress_cb };
  dcsim_sweep_run_opts ro = { (int)c.threads, c.stop_after, 0, &sink };
  /* SIGINT/SIGTERM: the points in progress finish and are committed, then dcsim stops */
  if (!rc && c.sw) dcsim_sweep_set_interrupt(c.sw, dcsim_cli_catch_interrupts());
  if (!rc && c.sw) dcsim_cli_stage(&c.ld, DCSIM_CLI_STAGE_SIMULATION);
  rc = dist_run(c.sw, rc, &ro, err);
  if (rc == DCSIM_EINTR && rank == 0 && c.sw) {
    size_t n_all = dcsim_sweep_n_points(c.sw), n_done = 0;
    dcsim_sweep_point *all = dcsim_sweep_points(c.sw);
    for (size_t i = 0; i < n_all; i++) n_done += all[i].done != 0;
    if (c.ctx.pr.on && c.ctx.pr.shown) fputc('\n', stderr);
    if (c.dbpath)
      DCSIM_ERR(err, DCSIM_EINTR, "", 0,
                "sweep interrupted by %s: %zu of %zu points saved in %s; rerun the same "
                "command to resume",
                dcsim_cli_interrupted_by(), n_done, n_all, c.dbpath);
    else
      DCSIM_ERR(err, DCSIM_EINTR, "", 0,
                "sweep interrupted by %s after %zu of %zu points; nothing saved "
                "(use --db PATH to make a sweep resumable)",
                dcsim_cli_interrupted_by(), n_done, n_all);
  }
  if (rank != 0) { /* rank 0 prints the results, or the job's error (naming the rank), and its
                      status is the job's */
    rc = 0;
    goto out;
  }
  if (rc) goto out;
  size_t n = dcsim_sweep_n_points(c.sw), done = 0, todo = 0;
  dcsim_sweep_point *pts = dcsim_sweep_points(c.sw);
  for (size_t i = 0; i < n; i++) {
    done += pts[i].done != 0;
    todo += !pts[i].done && dcsim_sweep_in_shard(c.sw, i);
  }
  if (todo) { /* --stop-after: as if interrupted */
    fprintf(stderr, "dcsim: sweep stopped after %u new points (%zu of %zu done)%s\n", c.stop_after,
            done, n, c.dbpath ? "; run the same command to resume" : "");
    goto out;
  }
  /* the bands and the points indistinguishable from a time-energy front (dcsim/sweep_bands.h) */
  if ((rc = dcsim_sweep_bands_mark_run(c.sw, err))) goto out;
  dcsim_cli_stage(&c.ld, DCSIM_CLI_STAGE_OUTPUT);
  if ((rc = output_stop(a, &c, "nothing was printed", err))) goto out;
  if ((rc = sort_points(a, pts, n, &sorted, err))) goto out;
  const dcsim_sweep_point *shown = sorted ? sorted : pts;
  if (c.fmt == DCSIM_FMT_JSON)
    dcsim_sweep_write_json(stdout, shown, n, &c.rp);
  else if (c.fmt == DCSIM_FMT_CSV)
    dcsim_sweep_write_csv(stdout, shown, n, &c.rp);
  else {
    dcsim_sweep_write_text(stdout, shown, n, 1);
    print_knee(pts, n, dcsim_sweep_objectives(c.sw));
    print_cores_available(dcsim_sweep_base(c.sw), pts, n);
    print_rates_borrowed(dcsim_sweep_base(c.sw), pts, n);
    print_gpu_host(a, pts, n);
    print_tariff(&c.cost, c.kwh_default, pts, n);
    if (c.dbpath) printf("results: %s, sweep %lld\n", c.dbpath, (long long)c.sweep_id);
    dcsim_repro_text(stdout, &c.rp);
  }
  if (done < n && !dcsim_arg_flag(a, "quiet")) /* a shard: the front needs every point */
    fprintf(stderr,
            "dcsim: shard %u/%u done; %s holds %zu of the sweep's %zu points: join the shards' "
            "databases with"
            " dcsim merge, then dcsim pareto\n",
            c.shard_i, c.shard_n, c.dbpath, done, n);
  size_t feasible = 0;
  for (size_t i = 0; i < n; i++) feasible += pts[i].done && pts[i].feasible;
  if (!feasible && done == n) { /* issue 26: nothing to choose from is a failure, not a result */
    if (n == 1)
      rc =
          DCSIM_ERR(err, DCSIM_ERANGE, a->positional[0], 0,
                    "no feasible point: the sweep's one point is infeasible (the reason is above)");
    else
      rc = DCSIM_ERR(err, DCSIM_ERANGE, a->positional[0], 0,
                     "no feasible point: all %zu points are infeasible (the reasons are above)", n);
    goto out;
  }
  if (done == n && (rc = dcsim_sweep_check_objectives(pts, n, dcsim_sweep_objectives(c.sw),
                                                      a->positional[0], err)))
    goto out;
  char caption[512];
  dcsim_repro_caption(&c.rp, caption, sizeof caption);
  if ((c.plot || c.heat) &&
      (rc = output_stop(a, &c, "its results were printed, no picture was drawn", err)))
    goto out;
  if (c.plot)
    rc = dcsim_plot_pareto_on(pts, n, dcsim_sweep_objectives(c.sw), dcsim_arg(a, "title"), caption,
                              c.plot, c.pf, dcsim_cli_catch_interrupts(), err);
  if (!rc && c.heat)
    rc = dcsim_plot_heatmap(pts, n, 0, dcsim_arg(a, "title"), caption, c.heat, c.hf,
                            dcsim_cli_catch_interrupts(), err);
out:
  free(sorted);
  dcsim_repro_release(&c.rp);
  dcsim_sweepdb_close(c.ctx.db);
  dcsim_sweep_free(c.sw);
  dist_end(started);
  return rc;
}

/* ---- dcsim merge ---- */

int dcsim_cmd_merge(const dcsim_args *a, dcsim_error *err) {
  const char *out = dcsim_arg(a, "output");
  if (!out)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 0,
                     "dcsim merge needs -o OUT.db, the database to write");
  size_t n = (size_t)a->n_positional;
  size_t *rows = calloc(n, sizeof *rows);
  if (!rows) return DCSIM_ERR(err, DCSIM_ENOMEM, out, 0, "out of memory");
  dcsim_sweepdb_merge_report rep;
  int rc = dcsim_sweepdb_merge(a->positional, n, out, dcsim_arg(a, "sweep"), &rep, rows, err);
  if (!rc) {
    printf("sweep %.12s (%s): %zu points\n", rep.def_sha256, rep.input, rep.n_points);
    for (size_t k = 0; k < n; k++) printf("  %s: %zu points\n", a->positional[k], rows[k]);
    printf("%s: %zu of %zu points (%zu identical duplicate%s dropped)\n", out, rep.n_stored,
           rep.n_points, rep.n_duplicates, rep.n_duplicates == 1 ? "" : "s");
    if (rep.n_missing)
      fprintf(stderr,
              "dcsim: %s: %zu point%s missing (%s): run the sweep with --db %s to evaluate them\n",
              out, rep.n_missing, rep.n_missing == 1 ? "" : "s", rep.missing, out);
  }
  free(rows);
  return rc;
}

/* ---- dcsim pareto ---- */

static int is_sqlite(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  char h[16] = { 0 };
  size_t k = fread(h, 1, 16, f);
  fclose(f);
  return k == 16 && memcmp(h, "SQLite format 3", 16) == 0;
}

static int cmp_time(const void *a, const void *b) {
  const dcsim_sweep_point *x = a, *y = b;
  if (x->time_s != y->time_s) return x->time_s < y->time_s ? -1 : 1;
  if (x->energy_j != y->energy_j) return x->energy_j < y->energy_j ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

/* What made a sweep's JSON or CSV file (issue 26): its "# sweep HASH" and "# input SHA256 PATH"
 * comment lines, or its "dcsim" object's sweep_sha256 and inputs, kept in rp (so that `dcsim
 * pareto FILE.csv` lists the sweep's inputs, not only the file). A file without them adds nothing.
 */
static int file_repro(const char *path, dcsim_repro *rp, dcsim_error *err) {
  FILE *f = fopen(path, "r");
  if (!f) return 0; /* read_points has said what is wrong with it */
  char line[8192];
  int rc = 0, first = 1, json = 0;
  while (!rc && fgets(line, sizeof line, f)) {
    char sha[65], name[4096];
    if (first && (line[0] == '{' || line[0] == '[')) json = 1;
    first = 0;
    if (json) break;
    if (line[0] != '#') break; /* the comments come before the header */
    if (sscanf(line, "# sweep %64s", sha) == 1)
      snprintf(rp->sweep_sha256, sizeof rp->sweep_sha256, "%s", sha);
    else if (sscanf(line, "# input %64s %4095[^\n]", sha, name) == 2)
      rc = dcsim_repro_add_name(rp, name, sha, err);
  }
  fclose(f);
  if (rc || !json) return rc;
  json_error_t je;
  json_t *root = json_load_file(path, 0, &je), *d = json_object_get(root, "dcsim");
  const char *sw = json_string_value(json_object_get(d, "sweep_sha256"));
  if (sw) snprintf(rp->sweep_sha256, sizeof rp->sweep_sha256, "%s", sw);
  json_t *ins = json_object_get(d, "inputs");
  for (size_t i = 0; !rc && i < json_array_size(ins); i++) {
    json_t *in = json_array_get(ins, i);
    const char *p = json_string_value(json_object_get(in, "path")),
               *h = json_string_value(json_object_get(in, "sha256"));
    if (p && h) rc = dcsim_repro_add_name(rp, p, h, err);
  }
  json_decref(root);
  return rc;
}

/* The points of a sweep's results (INPUT: its JSON or CSV output, or a database, --sweep ID) and
 * what made them: a database gives the sweep's inputs, a file that file and the sweep's inputs it
 * lists. */
static int read_points(const dcsim_args *a, dcsim_sweep_point **pts, size_t *n, dcsim_repro *rp,
                       dcsim_error *err) {
  const char *in = a->positional[0];
  double sweep_d = 0;
  size_t total = 0;
  int rc = dcsim_arg_double(a, "sweep", 0, &sweep_d, err);
  if (rc) return rc;
  if (!is_sqlite(in))
    return (rc = dcsim_sweep_points_read(in, pts, n, err)) ||
                   (rc = dcsim_repro_add(rp, in, NULL, err))
               ? rc
               : file_repro(in, rp, err);
  if ((rc = dcsim_sweepdb_read(in, (int64_t)sweep_d, pts, n, &total, rp, err))) return rc;
  if (*n < total)
    fprintf(stderr,
            "dcsim: %s: the sweep has %zu of its %zu points (interrupted, or one shard: run it "
            "again to finish, or dcsim merge the shards)\n",
            in, *n, total);
  return 0;
}

/* ---- the axes pictures filter and facet by (issue 40 item 2; dcsim/sweep_axis.h) ---- */

/* --gpus, --host-cpu, --threading (the options are named as the axes): keeps done only the points
 * of the values they list; an option that leaves no point is an error naming the values there */
static int filter_axes(const dcsim_args *a, dcsim_sweep_point *pts, size_t n, const char *in,
                       dcsim_error *err) {
  const char *th = dcsim_arg(a, "threading");
  if (th && strcmp(th, "measured") != 0 && strcmp(th, "ideal") != 0)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "threading"),
                     "--threading '%s': measured or ideal", th);
  for (int k = 0; k < DCSIM_AXIS_N; k++) {
    const char *name = dcsim_sweep_axis_name((dcsim_sweep_axis)k), *vals = dcsim_arg(a, name);
    if (!vals) continue;
    dcsim_str present = DCSIM_STR_INIT;
    dcsim_sweep_axis_values(pts, n, (dcsim_sweep_axis)k, &present);
    int rc = 0;
    if (present.oom)
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    else if (dcsim_sweep_axis_keep(pts, n, (dcsim_sweep_axis)k, vals) == 0)
      rc = DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, name),
                     "--%s %s: no point of %s has it (its points have %s %s)", name, vals, in, name,
                     present.len ? dcsim_str_cstr(&present) : "none: no point left");
    dcsim_str_release(&present);
    if (rc) return rc;
  }
  return 0;
}

/* The file of one facet: out with "-AXIS-VALUE" before its extension, the value's characters
 * other than letters, digits and . + _ - written as '_' (an unset value: "platform"). */
static int facet_path(const char *out, const char *axis, const char *v, char **path,
                      dcsim_error *err) {
  const char *slash = strrchr(out, '/'), *dot = strrchr(out, '.');
  if (!dot || (slash && dot < slash)) dot = out + strlen(out);
  char *buf =
      dcsim_strdup_printf("%.*s-%s-%s%s", (int)(dot - out), out, axis, v[0] ? v : "platform", dot);
  if (!(*path = buf)) return DCSIM_ERR(err, DCSIM_ENOMEM, out, 0, "out of memory");
  size_t k = strlen(buf);
  for (char *c = buf + (dot - out) + 1; *c && c < buf + k - strlen(dot); c++)
    if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.+_-", *c)) *c = '_';
  return 0;
}

/* what a picture of pareto or heatmap is drawn with: pareto's objectives, heatmap's metric, and
 * what made the points (the caption) */
typedef struct draw_ctx {
  unsigned obj;
  int time;
  const dcsim_repro *rp;
} draw_ctx;

/* draws the done points of pts into out */
typedef int (*draw_fn)(const dcsim_args *a, dcsim_sweep_point *pts, size_t n, const char *out,
                       const draw_ctx *ctx, dcsim_error *err);

/* --facet AXIS: one picture per value of the axis among the done points (in point order), each
 * announced on stdout; without it, the one picture out */
static int draw_facets(const dcsim_args *a, dcsim_sweep_point *pts, size_t n, const char *out,
                       draw_fn draw, const draw_ctx *ctx, dcsim_error *err) {
  const char *fa = dcsim_arg(a, "facet");
  dcsim_sweep_axis ax;
  if (!fa) return draw(a, pts, n, out, ctx, err);
  if (dcsim_sweep_axis_parse(fa, &ax))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "facet"),
                     "--facet '%s': gpus, host-cpu or threading", fa);
  enum { MAX_FACETS = DCSIM_SWEEP_MAX_LIST };
  dcsim_sweep_axis_text vals[MAX_FACETS];
  size_t nv = dcsim_sweep_axis_distinct(pts, n, ax, vals, MAX_FACETS);
  if (nv > MAX_FACETS)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "facet"),
                     "--facet %s: more than %d values; choose some with --%s", fa, MAX_FACETS, fa);
  unsigned char *was = malloc(n ? n : 1);
  char **paths = calloc(nv ? nv : 1, sizeof *paths); /* malloc'd, each */
  int rc = 0;
  size_t drawn = 0;
  if (!was || !paths) rc = DCSIM_ERR(err, DCSIM_ENOMEM, out, 0, "out of memory");
  for (size_t i = 0; !rc && i < n; i++) was[i] = (unsigned char)(pts[i].done != 0);
  for (size_t k = 0; !rc && k < nv; k++) {
    const char *v = vals[k];
    if ((rc = facet_path(out, fa, v, &paths[k], err))) break;
    for (size_t q = 0; q < k; q++)
      if (strcmp(paths[q], paths[k]) == 0)
        rc = DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "facet"),
                       "--facet %s: two values are both written as %s", fa, paths[k]);
    if (rc || (rc = dcsim_path_check_writable(paths[k], "--out", err))) break;
    size_t m = 0, feasible = 0;
    for (size_t j = 0; j < n; j++) {
      dcsim_sweep_axis_text w;
      dcsim_sweep_axis_value(&pts[j], ax, w);
      pts[j].done = was[j] && strcmp(v, w) == 0;
      m += pts[j].done != 0;
      feasible += pts[j].done && pts[j].feasible;
    }
    /* a value none of whose points is feasible has nothing to draw: said, and the others drawn */
    if (!feasible)
      printf("%s: not drawn: %s %s, none of its %zu %s feasible\n", paths[k], fa,
             v[0] ? v : "(the platform's)", m, m == 1 ? "point is" : "points are");
    else if (!(rc = draw(a, pts, n, paths[k], ctx, err))) {
      printf("%s: %s %s, %zu %s\n", paths[k], fa, v[0] ? v : "(the platform's)", m,
             dcsim_plural(m, "point", "points"));
      drawn++;
    }
  }
  if (!rc && !drawn)
    rc = DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "--facet %s: no value has a feasible point to draw",
                   fa);
  for (size_t i = 0; was && i < n; i++) pts[i].done = was[i];
  free(was);
  for (size_t k = 0; paths && k < nv; k++) free(paths[k]);
  free(paths);
  return rc;
}

/* a Pareto picture of the done points: their front over obj (ctx), its knee and their bands */
static int draw_pareto(const dcsim_args *a, dcsim_sweep_point *pts, size_t n, const char *out,
                       const draw_ctx *ctx, dcsim_error *err) {
  const unsigned obj = ctx->obj;
  dcsim_sweep_mark_front_on(pts, n, obj);
  /* points read from a file: the platform of a point without a CPU name is unknown here */
  int rc = dcsim_sweep_bands_mark_default(pts, n, obj, err);
  if (rc) return rc;
  dcsim_plot_format pf = DCSIM_PLOT_PNG;
  if ((rc = dcsim_plot_format_of(out, dcsim_arg(a, "format"), &pf, err))) return rc;
  char caption[512];
  dcsim_repro_caption(ctx->rp, caption, sizeof caption);
  return dcsim_plot_pareto_on(pts, n, obj, dcsim_arg(a, "title"), caption, out, pf,
                              dcsim_cli_catch_interrupts(), err);
}

int dcsim_cmd_pareto(const dcsim_args *a, dcsim_error *err) {
  static const dcsim_format formats[] = { DCSIM_FMT_CSV, DCSIM_FMT_JSON, DCSIM_FMT_SVG,
                                          DCSIM_FMT_PNG, DCSIM_FMT_TEXT, DCSIM_FMT_END };
  dcsim_format fmt;
  int rc = dcsim_arg_out_format(a, formats, &fmt, err);
  if (rc) return rc;
  const char *out = dcsim_arg(a, "out");
  const int picture = dcsim_format_is_picture(fmt);
  if (!picture && dcsim_arg(a, "title")) /* no option silently ignored (issue 35) */
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "title"),
                     "--title is the title of a picture: --format png|svg or --out FILE.png|svg");
  if (picture && dcsim_arg(a, "sort"))
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "sort"),
                     "--sort orders the table of --format text|csv|json; a picture has none");
  const char *in = a->positional[0];
  dcsim_sweep_point *pts = NULL;
  size_t n = 0;
  FILE *f = NULL;
  dcsim_repro rp;
  dcsim_repro_init(&rp, in);
  unsigned obj;
  dcsim_sweep_point *sorted = NULL;
  if ((rc = parse_objectives(a, &obj, err)) || (rc = sort_points(a, NULL, 0, &sorted, err)) ||
      (rc = read_points(a, &pts, &n, &rp, err)) || (rc = filter_axes(a, pts, n, in, err)))
    goto out;
  if (dcsim_arg(a, "facet") && !picture) {
    rc = DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "facet"),
                   "--facet draws one picture per value: --format png|svg or --out FILE.png|svg");
    goto out;
  }
  dcsim_sweep_mark_front_on(pts, n, obj);
  if ((rc = dcsim_sweep_check_objectives(pts, n, obj, in, err))) {
    dcsim_error_suffix(err, "; --price is an option of dcsim sweep: run the sweep again with it");
    goto out;
  }
  if (picture) {
    draw_ctx ctx = { obj, 0, &rp };
    rc = draw_facets(a, pts, n, out, draw_pareto, &ctx, err);
    goto out;
  }
  /* points read from a file: the platform of a point without a CPU name is unknown here */
  if ((rc = dcsim_sweep_bands_mark_default(pts, n, obj, err))) goto out;
  /* the points the filters dropped are neither read nor listed */
  size_t kept = 0;
  for (size_t i = 0; i < n; i++)
    if (pts[i].done) {
      dcsim_sweep_point t = pts[kept];
      pts[kept++] = pts[i];
      pts[i] = t;
    }
  /* the front, and the points indistinguishable from it (dcsim/sweep_bands.h), by increasing
   * time */
  size_t m = 0, near = 0;
  for (size_t i = 0; i < kept; i++)
    if (pts[i].pareto || pts[i].near_front) {
      near += !pts[i].pareto;
      dcsim_sweep_point t = pts[m];
      pts[m] = pts[i];
      pts[i] = t;
      m++;
    }
  if (!dcsim_arg(a, "sort")) qsort(pts, m, sizeof *pts, cmp_time); /* the default: by time */
  if ((rc = sort_points(a, pts, m, &sorted, err))) goto out;
  if (sorted) memcpy(pts, sorted, m * sizeof *pts); /* the same points, in the order asked */
  f = out ? fopen(out, "w") : stdout;
  if (!f) {
    rc = DCSIM_ERR(err, DCSIM_EIO, out, 0, "cannot write");
    goto out;
  }
  if (fmt == DCSIM_FMT_CSV)
    dcsim_sweep_write_csv(f, pts, m, &rp);
  else if (fmt == DCSIM_FMT_JSON)
    dcsim_sweep_write_json(f, pts, m, &rp);
  else {
    size_t feas = 0;
    fprintf(f, "%zu %s read", n, dcsim_plural(n, "point", "points"));
    if (kept < n) fprintf(f, ", %zu of them chosen by --gpus, --host-cpu, --threading", kept);
    for (size_t i = 0; i < kept; i++) feas += pts[i].feasible != 0;
    fprintf(f,
            ", %zu of them feasible; the Pareto front over %s has %zu of them, and %zu "
            "more are indistinguishable from it (their uncertainty bands meet a front point's on "
            "every objective), listed below by %s (knee: closest to the utopia point after "
            "scaling each objective to [0,1]%s)\n\n",
            feas, dcsim_objectives_name(obj), m - near, near,
            dcsim_arg(a, "sort") ? dcsim_arg(a, "sort") : "time",
            obj & DCSIM_OBJ_COST ? "; a point of unknown cost is on no front" : "");
    dcsim_sweep_write_text(f, pts, m, 0);
    dcsim_repro_text(f, &rp);
  }
  if (out && fclose(f) != 0) rc = DCSIM_ERR(err, DCSIM_EIO, out, 0, "write error");
  f = NULL;
out:
  if (f && f != stdout) fclose(f);
  free(sorted);
  dcsim_repro_release(&rp);
  dcsim_sweep_points_free(pts, n);
  return rc;
}

/* ---- dcsim heatmap ---- */

/* whether v is one of the comma-separated values of option `name` (or the option is absent) */
static int selected(const dcsim_args *a, const char *name, const char *v) {
  const char *vals = dcsim_arg(a, name);
  if (!vals) return 1;
  size_t l = strlen(v);
  for (const char *p = vals; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
    if (strncmp(p, v, l) == 0 && (p[l] == ',' || p[l] == '\0')) return 1;
  return 0;
}

/* --color energy|time: 1 for time */
static int heat_metric(const dcsim_args *a, int *time, dcsim_error *err) {
  const char *c = dcsim_arg(a, "color");
  *time = c && strcmp(c, "time") == 0;
  if (c && !*time && strcmp(c, "energy") != 0)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", dcsim_arg_index(a, "color"),
                     "--color '%s': energy or time", c);
  return 0;
}

/* a heat map of the done points */
static int draw_heatmap(const dcsim_args *a, dcsim_sweep_point *pts, size_t n, const char *out,
                        const draw_ctx *ctx, dcsim_error *err) {
  dcsim_plot_format pf = DCSIM_PLOT_PNG;
  int rc = dcsim_plot_format_of(out, NULL, &pf, err);
  if (rc) return rc;
  char caption[512];
  dcsim_repro_caption(ctx->rp, caption, sizeof caption);
  return dcsim_plot_heatmap(pts, n, ctx->time, dcsim_arg(a, "title"), caption, out, pf,
                            dcsim_cli_catch_interrupts(), err);
}

int dcsim_cmd_heatmap(const dcsim_args *a, dcsim_error *err) {
  const char *out = dcsim_arg(a, "out");
  dcsim_plot_format pf = DCSIM_PLOT_PNG;
  int time = 0, rc;
  if (!out)
    return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 0,
                     "dcsim heatmap needs --out FILE.png|svg");
  if ((rc = heat_metric(a, &time, err)) || (rc = dcsim_plot_format_of(out, NULL, &pf, err)) ||
      (rc = dcsim_path_check_writable(out, "--out", err)) ||
      (rc = dcsim_plot_find_gnuplot(NULL, err)))
    return rc;
  dcsim_sweep_point *pts = NULL;
  size_t n = 0, m = 0;
  dcsim_repro rp;
  dcsim_repro_init(&rp, a->positional[0]);
  if (!(rc = read_points(a, &pts, &n, &rp, err))) {
    for (size_t i = 0; i < n; i++) /* --cpu, --gpu, --freq: the panels to draw */
      pts[i].done = pts[i].done && selected(a, "cpu", pts[i].cpu) &&
                    selected(a, "gpu", pts[i].gpu) && selected(a, "freq", pts[i].freq);
    for (size_t i = 0; i < n; i++) m += pts[i].done != 0;
    draw_ctx ctx = { 0, time, &rp };
    rc = !m ? DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 0,
                        "no point of %s matches --cpu, --gpu and --freq", a->positional[0])
            : filter_axes(a, pts, n, a->positional[0], err);
    if (!rc) rc = draw_facets(a, pts, n, out, draw_heatmap, &ctx, err);
  }
  dcsim_repro_release(&rp);
  dcsim_sweep_points_free(pts, n);
  return rc;
}
