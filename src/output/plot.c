/* plot.c — pictures through gnuplot (see dcsim/plot.h). */
#include "dcsim/plot.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dcsim/numfmt.h"
#include "dcsim/strutil.h"

extern char **environ;

static const char *const palette[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                       "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22" };
#define N_PALETTE (sizeof palette / sizeof palette[0])

int dcsim_plot_format_of(const char *path, const char *fmt, dcsim_plot_format *out,
                         dcsim_error *err) {
  const char *f = fmt;
  if (!f && path) {
    const char *dot = strrchr(path, '.');
    f = dot ? dot + 1 : "";
  }
  if (f && (strcmp(f, "png") == 0 || strcmp(f, "PNG") == 0)) {
    *out = DCSIM_PLOT_PNG;
    return 0;
  }
  if (f && (strcmp(f, "svg") == 0 || strcmp(f, "SVG") == 0)) {
    *out = DCSIM_PLOT_SVG;
    return 0;
  }
  return DCSIM_ERR(err, DCSIM_EUSAGE, "command line", 0, "%s: a picture is .png or .svg",
                   path ? path : "(no file)");
}

static int executable(const char *p) { return access(p, X_OK) == 0; }

int dcsim_plot_find_gnuplot(char *buf, size_t size, dcsim_error *err) {
  const char *env = getenv("DCSIM_GNUPLOT");
  if (env && *env) {
    if (executable(env)) {
      snprintf(buf, size, "%s", env);
      return 0;
    }
    return DCSIM_ERR(err, DCSIM_EIO, env, 0,
                     "DCSIM_GNUPLOT names no executable gnuplot; install gnuplot (Debian: apt-get "
                     "install gnuplot-nox)");
  }
  if (executable("/usr/bin/gnuplot")) {
    snprintf(buf, size, "/usr/bin/gnuplot");
    return 0;
  }
  const char *path = getenv("PATH");
  if (path) {
    const char *p = path;
    while (*p) {
      const char *c = strchr(p, ':');
      size_t l = c ? (size_t)(c - p) : strlen(p);
      if (l > 0 && l + 10 < size) {
        snprintf(buf, size, "%.*s/gnuplot", (int)l, p);
        if (executable(buf)) return 0;
      }
      p += l;
      if (*p == ':') p++;
    }
  }
  return DCSIM_ERR(err, DCSIM_EIO, "", 0,
                   "gnuplot not found (not /usr/bin/gnuplot, not on PATH): install it (Debian: "
                   "apt-get install gnuplot-nox) to draw pictures");
}

/* ---- a temporary directory with the script and data ---- */

typedef struct gp {
  char dir[512];
  char script[600];
  FILE *f; /* the script */
  int oom;
} gp;

static void gp_str(FILE *f, const char *s);

/* What made the picture, small and grey along the bottom edge, under the plot (which moves up to
 * leave it room): wrapped at a comma or semicolon into lines of at most 190 characters. */
static void gp_caption(FILE *f, const char *caption, int height) {
  if (!caption || !*caption) return;
  char text[1024];
  size_t n = 0, line = 0, lines = 1;
  for (const char *c = caption; *c && n + 2 < sizeof text; c++) {
    text[n++] = *c;
    line++;
    if ((*c == ',' || *c == ';') && c[1] == ' ' && line > 150 && lines < 3) {
      text[n++] = '\n';
      c++; /* the blank */
      line = 0;
      lines++;
    }
  }
  text[n] = '\0';
  double lh = 12.0 / height; /* one line of the 7-point font, as a fraction of the picture */
  fprintf(f, "set origin 0, %.4f\nset size 1, %.4f\nset label 999 ", lines * lh + 0.01,
          1 - lines * lh - 0.01);
  gp_str(f, text);
  fprintf(f, " at screen 0.005, screen %.4f left front font ',7' tc rgb '#888888'\n",
          (lines - 0.5) * lh + 0.004);
}

static int gp_open(gp *g, const char *out, dcsim_plot_format fmt, int width, int height,
                   const char *caption, dcsim_error *err) {
  memset(g, 0, sizeof *g);
  const char *tmp = getenv("TMPDIR");
  snprintf(g->dir, sizeof g->dir, "%s/dcsim-plot-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(g->dir))
    return DCSIM_ERR(err, DCSIM_EIO, g->dir, 0, "cannot create a temporary directory: %s",
                     strerror(errno));
  snprintf(g->script, sizeof g->script, "%s/plot.gp", g->dir);
  if (!(g->f = fopen(g->script, "w"))) {
    rmdir(g->dir);
    return DCSIM_ERR(err, DCSIM_EIO, g->script, 0, "cannot write: %s", strerror(errno));
  }
  if (fmt == DCSIM_PLOT_PNG)
    fprintf(g->f, "set terminal pngcairo size %d,%d font 'DejaVu Sans,11' noenhanced\n", width,
            height);
  else
    fprintf(g->f,
            "set terminal svg size %d,%d dynamic font 'DejaVu Sans,11' noenhanced background "
            "'#ffffff'\n",
            width, height);
  fputs("set output '", g->f);
  for (const char *c = out; *c; c++) { /* single-quoted gnuplot string: a quote is doubled */
    if (*c == '\'') fputc('\'', g->f);
    fputc(*c, g->f);
  }
  fputs("'\nset encoding utf8\nset termoption noenhanced\n", g->f);
  gp_caption(g->f, caption, height);
  return 0;
}

/* a double-quoted gnuplot string (data files and script) */
static void gp_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '\n') {
      fputs("\\n", f);
      continue;
    } /* a line break in a title */
    if (*s == '"' || *s == '\\') fputc('\\', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static void gp_cleanup(gp *g) {
  if (g->f) fclose(g->f);
  g->f = NULL;
  char p[700];
  static const char *const files[] = { "plot.gp", "gnuplot.log" };
  for (size_t i = 0; i < 2; i++) {
    snprintf(p, sizeof p, "%s/%s", g->dir, files[i]);
    unlink(p);
  }
  rmdir(g->dir);
}

static int gp_run(gp *g, const char *out, dcsim_error *err) {
  char exe[1024];
  int rc = dcsim_plot_find_gnuplot(exe, sizeof exe, err);
  if (!rc && (fputs("unset output\n", g->f) < 0 || fclose(g->f) != 0))
    rc = DCSIM_ERR(err, DCSIM_EIO, g->script, 0, "cannot write the gnuplot script");
  g->f = NULL;
  if (rc) {
    gp_cleanup(g);
    return rc;
  }
  char log[600];
  snprintf(log, sizeof log, "%s/gnuplot.log", g->dir);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  char *argv[] = { exe, g->script, NULL };
  pid_t pid;
  int s = posix_spawn(&pid, exe, &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (s != 0) {
    rc = DCSIM_ERR(err, DCSIM_EIO, exe, 0, "cannot run gnuplot: %s", strerror(s));
  } else {
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    struct stat sb;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || stat(out, &sb) != 0 || sb.st_size == 0) {
      char msg[512] = "";
      FILE *l = fopen(log, "r");
      if (l) { /* the first line gnuplot complained with */
        char line[512];
        while (fgets(line, sizeof line, l))
          if (strstr(line, "rror") || strstr(line, "arning") || !msg[0]) {
            snprintf(msg, sizeof msg, "%s", line);
            if (strstr(line, "rror")) break;
          }
        fclose(l);
        msg[strcspn(msg, "\n")] = '\0';
      }
      rc = DCSIM_ERR(err, DCSIM_EIO, out, 0, "gnuplot (%s) failed%s%s", exe, msg[0] ? ": " : "",
                     msg);
    }
  }
  gp_cleanup(g);
  return rc;
}

/* ---- Pareto plot ---- */

/* A point's frequency for a picture: GHz with its unit ("2.4 GHz"), a state label as it is
 * ("turbo"); a sweep point holds the GHz a name resolved to (doc/sweep.md). */
static const char *freq_text(const char *freq, char *buf, size_t size) {
  double ghz;
  if (dcsim_parse_ghz(freq, &ghz) == 0)
    snprintf(buf, size, "%s GHz", freq);
  else
    snprintf(buf, size, "%s", freq);
  return buf;
}

/* a log axis over [lo, hi] with a margin and tics at 1, 2, 5 x 10^k */
static void log_axis(FILE *f, char axis, double lo, double hi) {
  double a = lo / 1.2, b = hi * 1.2;
  fprintf(f, "set %crange [%.6g:%.6g]\nset %ctics (", axis, a, b, axis);
  int first = 1;
  for (int k = (int)floor(log10(a)); k <= (int)ceil(log10(b)); k++)
    for (int m = 1; m <= 5; m += m == 1 ? 1 : 3) {
      double v = m * pow(10, k);
      if (v < a || v > b) continue;
      fprintf(f, "%s'%g' %.6g", first ? "" : ", ", v, v);
      first = 0;
    }
  fputs(")\n", f);
}

typedef struct series {
  char key[140];
} series;

static const char *energy_unit(double emax, double *scale) {
  if (emax >= 1e7) {
    *scale = 1e-6;
    return "MJ";
  }
  if (emax >= 1e4) {
    *scale = 1e-3;
    return "kJ";
  }
  *scale = 1;
  return "J";
}

/* The points of a Pareto plot and what the phases of dcsim_plot_pareto() learn about them. */
typedef struct pareto_view {
  const dcsim_sweep_point *pts;
  size_t n, nf, n_done; /* points; feasible ones; done ones */
  size_t first;         /* the first feasible point */
  long knee;            /* the (last) knee point, -1 = none */
  double tmin, tmax, emin, emax;
  int var_cpu, var_gpu, var_nodes, var_cores, var_freq; /* what varies among feasible points */
  double es;                                            /* energy scale to unit eu */
  const char *eu;
  /* the axes (issue 26, --objectives): x holds time_s, y energy_j of the points drawn */
  const char *xq, *xu, *yq, *xbest, *ybest, *deftitle;
  series *ser; /* n_ser series; sid: each feasible point's series */
  size_t *sid, n_ser;
} pareto_view;

/* Ranges of the feasible points, what varies among them, counts and the knee. */
static void pareto_scan(pareto_view *v) {
  const dcsim_sweep_point *pts = v->pts;
  size_t n = v->n;
  v->first = n;
  v->knee = -1;
  v->tmin = INFINITY;
  v->emin = INFINITY;
  for (size_t i = 0; i < n; i++) {
    const dcsim_sweep_point *p = &pts[i];
    v->n_done += p->done != 0;
    if (p->knee) v->knee = (long)i;
    if (!p->done || !p->feasible) continue;
    if (v->first == n) v->first = i;
    const dcsim_sweep_point *q = &pts[v->first];
    v->var_cpu |= strcmp(p->cpu, q->cpu) != 0;
    v->var_gpu |= strcmp(p->gpu, q->gpu) != 0;
    v->var_nodes |= p->nodes != q->nodes;
    v->var_cores |= p->cores != q->cores;
    v->var_freq |= strcmp(p->freq, q->freq) != 0;
    v->nf++;
    if (p->time_s < v->tmin) v->tmin = p->time_s;
    if (p->time_s > v->tmax) v->tmax = p->time_s;
    if (p->energy_j < v->emin) v->emin = p->energy_j;
    if (p->energy_j > v->emax) v->emax = p->energy_j;
  }
}

/* series: one per CPU+GPU when they vary (D3.5 Figure 30), else one per node count (Figure 28) */
static int pareto_series(pareto_view *v, dcsim_error *err) {
  int by_hw = v->var_cpu || v->var_gpu;
  v->ser = calloc(v->n, sizeof *v->ser);
  v->sid = calloc(v->n, sizeof *v->sid);
  if (!v->ser || !v->sid) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  for (size_t i = 0; i < v->n; i++) {
    const dcsim_sweep_point *p = &v->pts[i];
    if (!p->done || !p->feasible) continue;
    char key[140];
    if (by_hw)
      snprintf(key, sizeof key, "%s%s%s", v->var_cpu ? p->cpu : "",
               v->var_cpu && v->var_gpu ? " + " : "", v->var_gpu ? p->gpu : "");
    else if (v->var_nodes)
      snprintf(key, sizeof key, "%u node%s", p->nodes, p->nodes == 1 ? "" : "s");
    else
      snprintf(key, sizeof key, "configurations");
    size_t k = 0;
    while (k < v->n_ser && strcmp(v->ser[k].key, key) != 0) k++;
    if (k == v->n_ser) snprintf(v->ser[v->n_ser++].key, sizeof v->ser->key, "%s", key);
    v->sid[i] = k;
  }
  return 0;
}

/* The title (counts, what the labels show, the knee), axes, grid and margins. */
static void pareto_header(FILE *f, const pareto_view *v, const char *title) {
  int logx = v->tmax > 10 * v->tmin, logy = v->emax > 10 * v->emin;
  fprintf(f, "set title ");
  char t2[1024], kd[400] = "";
  if (v->knee >= 0) {
    const dcsim_sweep_point *p = &v->pts[v->knee];
    char nodes[16] = "-", cores[16] = "-";
    if (p->nodes) snprintf(nodes, sizeof nodes, "%u", p->nodes);
    if (p->cores) snprintf(cores, sizeof cores, "%u", p->cores);
    char fq[40];
    snprintf(kd, sizeof kd, "\nknee: %s%s%s, %s node%s x %s core%s @ %s: %.4g %s, %.4g %s", p->cpu,
             p->cpu[0] && p->gpu[0] ? " + " : "", p->gpu, nodes, p->nodes == 1 ? "" : "s", cores,
             p->cores == 1 ? "" : "s", p->freq[0] ? freq_text(p->freq, fq, sizeof fq) : "-",
             p->time_s, v->xu, p->energy_j * v->es, v->eu);
  }
  snprintf(t2, sizeof t2,
           "%s\n%zu feasible point%s of %zu%s; A, B, C...: the front's extremes, knee and a "
           "few more (see the key)%s",
           title && *title ? title : v->deftitle, v->nf, v->nf == 1 ? "" : "s", v->n_done,
           v->n_done > v->nf ? " (infeasible ones not shown)" : "", kd);
  gp_str(f, t2);
  fprintf(f, "\nset xlabel '%s [%s]%s'\nset ylabel '%s [%s]%s'\n", v->xq, v->xu,
          logx ? " (log scale)" : "", v->yq, v->eu, logy ? " (log scale)" : "");
  if (logx) {
    fputs("set logscale x\n", f);
    log_axis(f, 'x', v->tmin, v->tmax);
  }
  if (logy) {
    fputs("set logscale y\n", f);
    log_axis(f, 'y', v->emin * v->es, v->emax * v->es);
  }
  fputs(
      "set grid back lc rgb '#dddddd'\nset key below horizontal Left reverse samplen 2 spacing 1.2 "
      "width 2 maxrows 4\n"
      "set border lw 1.2\nset format x '%g'\nset format y '%g'\n",
      f);
  fprintf(f, "set offsets graph %g, graph %g, graph %g, graph %g\n", logx ? 0 : 0.04,
          logx ? 0 : 0.06, logy ? 0 : 0.06, logy ? 0 : 0.04);
}

/* front in time order (points are in index order; the front is sorted by time) */
static int pareto_front(FILE *f, const pareto_view *v, dcsim_error *err) {
  const dcsim_sweep_point *pts = v->pts;
  size_t n_front = 0, m = 0;
  for (size_t i = 0; i < v->n; i++) n_front += pts[i].pareto != 0;
  size_t *fi = malloc((n_front ? n_front : 1) * sizeof *fi);
  if (!fi) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  for (size_t i = 0; i < v->n; i++)
    if (pts[i].pareto) fi[m++] = i;
  for (size_t a = 1; a < m; a++) /* insertion sort by time, then energy (fronts are short) */
    for (size_t b = a; b > 0 && (pts[fi[b]].time_s < pts[fi[b - 1]].time_s ||
                                 (pts[fi[b]].time_s == pts[fi[b - 1]].time_s &&
                                  pts[fi[b]].energy_j < pts[fi[b - 1]].energy_j));
         b--) {
      size_t t = fi[b];
      fi[b] = fi[b - 1];
      fi[b - 1] = t;
    }
  fputs("$front << EOD\n", f);
  for (size_t a = 0; a < m; a++)
    fprintf(f, "%.10g %.10g\n", pts[fi[a]].time_s, pts[fi[a]].energy_j * v->es);
  fputs("EOD\n", f);
  free(fi);
  return 0;
}

/* What varies among the points, for a label: "8 nodes", "4 nodes x 2 cores", "x2 @ 2.4 GHz". */
static void point_words(const pareto_view *v, const dcsim_sweep_point *p, char *lab, size_t size) {
  size_t n = 0;
  lab[0] = '\0';
  if (v->var_nodes || (!v->var_cores && !v->var_freq))
    n += (size_t)snprintf(lab + n, size - n, "%u %s", p->nodes, p->nodes == 1 ? "node" : "nodes");
  if (v->var_cores && n < size)
    n += (size_t)snprintf(lab + n, size - n, "%s%u %s", n ? " x " : "", p->cores,
                          p->cores == 1 ? "core" : "cores");
  char fq[40];
  if (v->var_freq && n < size)
    snprintf(lab + n, size - n, "%s@ %s", n ? " " : "", freq_text(p->freq, fq, sizeof fq));
}

/* Labels where they help (issue 17: a label on every point smeared on large fronts): the fastest
 * and the least-energy points of the front, the knee, and up to two more front points spread along
 * it, marked A, B, C... beside the point and explained in the key ("A  16 nodes: fastest, 1705 s");
 * a front of at most 5 points is marked whole. Writes the marks and *keys (one per line) for the
 * plot command. */
static int pareto_labels(FILE *f, const pareto_view *v, char *keys, size_t size, dcsim_error *err) {
  const dcsim_sweep_point *pts = v->pts;
  size_t m = 0, len = 0;
  size_t *fi = malloc((v->n ? v->n : 1) * sizeof *fi);
  if (!fi) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  for (size_t i = 0; i < v->n; i++)
    if (pts[i].pareto) fi[m++] = i;
  for (size_t a = 1; a < m; a++) /* by time (the front's energy falls as its time grows) */
    for (size_t b = a; b > 0 && pts[fi[b]].time_s < pts[fi[b - 1]].time_s; b--) {
      size_t t = fi[b];
      fi[b] = fi[b - 1];
      fi[b - 1] = t;
    }
  /* which to mark: the extremes and the knee always, the others when no marked point is close
   * (within 4 % of either axis: their letters would overlap) */
  unsigned char *take = calloc(m ? m : 1, 1);
  if (!take) {
    free(fi);
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  }
  double dx = fmax(v->tmax - v->tmin, 1e-300), dy = fmax((v->emax - v->emin) * v->es, 1e-300);
  for (int pass = 0; pass < 2; pass++)
    for (size_t a = 0; a < m; a++) {
      int must = a == 0 || a + 1 == m || (long)fi[a] == v->knee;
      int spread = m <= 5 || a == m / 3 || a == 2 * m / 3;
      if (pass == 0 ? !must : (must || !spread)) continue;
      int near = 0;
      for (size_t b = 0; b < m && pass; b++)
        near |= take[b] && fabs(pts[fi[a]].time_s - pts[fi[b]].time_s) / dx < 0.04 &&
                fabs(pts[fi[a]].energy_j - pts[fi[b]].energy_j) * v->es / dy < 0.04;
      take[a] = !near;
    }
  char w[96], lab[200], mark = 'A';
  keys[0] = '\0';
  for (size_t a = 0; a < m && mark <= 'Z'; a++) {
    const dcsim_sweep_point *p = &pts[fi[a]];
    int first = a == 0, last = a + 1 == m && m > 1, knee = (long)fi[a] == v->knee;
    if (!take[a]) continue;
    point_words(v, p, w, sizeof w);
    if (first)
      snprintf(lab, sizeof lab, "%c  %s: %s, %.4g %s", mark, w, v->xbest, p->time_s, v->xu);
    else if (last)
      snprintf(lab, sizeof lab, "%c  %s: %s, %.4g %s", mark, w, v->ybest, p->energy_j * v->es,
               v->eu);
    else
      snprintf(lab, sizeof lab, "%c  %s%s, %.4g %s, %.4g %s", mark, w, knee ? " (the knee)" : "",
               p->time_s, v->xu, p->energy_j * v->es, v->eu);
    fprintf(f,
            "set label '%c' at %.10g, %.10g left offset char %s font ',10' tc rgb '#000000' "
            "front\n",
            mark, p->time_s, p->energy_j * v->es, knee ? "1.9,-0.9" : "0.8,0.7");
    len += (size_t)snprintf(keys + len, len < size ? size - len : 0, "%s\n", lab);
    mark++;
  }
  free(take);
  free(fi);
  return 0;
}

/* the data: one block per series, the front, the labels, the knee */
static int pareto_data(FILE *f, const pareto_view *v, char *keys, size_t ksize, dcsim_error *err) {
  int rc;
  for (size_t k = 0; k < v->n_ser; k++) {
    fprintf(f, "$s%zu << EOD\n", k);
    for (size_t i = 0; i < v->n; i++)
      if (v->pts[i].done && v->pts[i].feasible && v->sid[i] == k)
        fprintf(f, "%.10g %.10g\n", v->pts[i].time_s, v->pts[i].energy_j * v->es);
    fputs("EOD\n", f);
  }
  if ((rc = pareto_front(f, v, err)) || (rc = pareto_labels(f, v, keys, ksize, err))) return rc;
  if (v->knee >= 0) {
    const dcsim_sweep_point *p = &v->pts[v->knee];
    char lab[200];
    snprintf(lab, sizeof lab, "knee (closest to the utopia point)");
    fprintf(f, "$knee << EOD\n%.10g %.10g\nEOD\n", p->time_s, p->energy_j * v->es);
    fputs("knee_title = ", f);
    gp_str(f, lab);
    fputc('\n', f);
  }
  return 0;
}

/* The plot command: the series, the front, the knee, the labels. */
static void pareto_plot_cmd(FILE *f, const pareto_view *v, const char *keys) {
  fputs("plot ", f);
  for (size_t k = 0; k < v->n_ser; k++) {
    fprintf(f, "$s%zu using 1:2 with points pt 7 ps 1.1 lc rgb '%s' title ", k,
            palette[k % N_PALETTE]);
    gp_str(f, v->ser[k].key);
    fputs(", \\\n     ", f);
  }
  fputs(
      "$front using 1:2 with lines lw 1.5 dt 2 lc rgb '#000000' title 'Pareto front', \\\n"
      "     $front using 1:2 with points pt 6 ps 1.6 lw 1.5 lc rgb '#000000' notitle, \\\n",
      f);
  if (v->knee >= 0)
    fputs(
        "     $knee using 1:2 with points pt 6 ps 3.5 lw 2.5 lc rgb '#d62728' title knee_title, "
        "\\\n",
        f);
  for (const char *k = keys; *k;) { /* the marked points, explained in the key */
    const char *e = strchr(k, '\n');
    char one[200];
    snprintf(one, sizeof one, "%.*s", (int)(e ? e - k : (long)strlen(k)), k);
    fputs("     NaN with points ps 0 lc rgb '#ffffff' title ", f);
    gp_str(f, one);
    fputs(", \\\n", f);
    k = e ? e + 1 : k + strlen(k);
  }
  fputs("     NaN notitle\n", f);
}

int dcsim_plot_pareto(const dcsim_sweep_point *pts, size_t n, const char *title,
                      const char *caption, const char *out, dcsim_plot_format fmt,
                      dcsim_error *err) {
  return dcsim_plot_pareto_on(pts, n, DCSIM_OBJ_DEFAULT, title, caption, out, fmt, err);
}

/* The points as drawn over the objectives obj: x (time_s) the time, else the energy; y (energy_j)
 * the cost when it is an objective, else the energy. A point without a value is left out (as an
 * infeasible one). Three objectives are drawn over time and cost, the front being the points no
 * point beats in all three. */
static dcsim_sweep_point *axes_points(const dcsim_sweep_point *pts, size_t n, unsigned obj) {
  dcsim_sweep_point *q = malloc((n ? n : 1) * sizeof *q);
  for (size_t i = 0; q && i < n; i++) {
    q[i] = pts[i];
    q[i].time_s = obj & DCSIM_OBJ_TIME ? pts[i].time_s : pts[i].energy_j;
    q[i].energy_j = obj & DCSIM_OBJ_COST ? pts[i].cost_usd : pts[i].energy_j;
    if (!isfinite(q[i].time_s) || !isfinite(q[i].energy_j)) q[i].feasible = 0;
  }
  return q;
}

int dcsim_plot_pareto_on(const dcsim_sweep_point *pts0, size_t n, unsigned obj, const char *title,
                         const char *caption, const char *out, dcsim_plot_format fmt,
                         dcsim_error *err) {
  if (obj == 0) obj = DCSIM_OBJ_DEFAULT;
  dcsim_sweep_point *copy = obj == DCSIM_OBJ_DEFAULT ? NULL : axes_points(pts0, n, obj);
  if (obj != DCSIM_OBJ_DEFAULT && !copy)
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  const dcsim_sweep_point *pts = copy ? copy : pts0;
  int xt = (obj & DCSIM_OBJ_TIME) != 0, yc = (obj & DCSIM_OBJ_COST) != 0;
  pareto_view v = { .pts = pts,
                    .n = n,
                    .xq = xt ? "time-to-solution" : "energy-to-solution",
                    .xu = xt ? "s" : "J",
                    .yq = yc ? "cost" : "energy-to-solution",
                    .xbest = xt ? "fastest" : "least energy",
                    .ybest = yc ? "least cost" : "least energy",
                    .deftitle =
                        obj == DCSIM_OBJ_DEFAULT ? "Time-to-solution vs energy-to-solution"
                        : obj == (DCSIM_OBJ_TIME | DCSIM_OBJ_COST) ? "Time-to-solution vs cost"
                        : obj == (DCSIM_OBJ_ENERGY | DCSIM_OBJ_COST)
                            ? "Energy-to-solution vs cost"
                            : "Time-to-solution vs cost (front over time, energy and cost)" };
  gp g;
  int rc = 0;
  pareto_scan(&v);
  if (v.nf == 0) {
    rc = DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "no feasible point%s to plot (%zu infeasible)",
                   yc ? " with a cost" : "", v.n_done);
    free(copy);
    return rc;
  }
  if (yc) {
    v.eu = "USD";
    v.es = 1;
  } else
    v.eu = energy_unit(v.emax, &v.es);
  if ((rc = pareto_series(&v, err)) || (rc = gp_open(&g, out, fmt, 1100, 760, caption, err)))
    goto out;
  pareto_header(g.f, &v, title);
  char keys[1600];
  if ((rc = pareto_data(g.f, &v, keys, sizeof keys, err))) {
    gp_cleanup(&g);
    goto out;
  }
  pareto_plot_cmd(g.f, &v, keys);
  rc = gp_run(&g, out, err);
out:
  free(v.ser);
  free(v.sid);
  free(copy);
  return rc;
}

/* ---- adaptive sampling: error against samples ---- */

int dcsim_plot_sampling(const dcsim_sampling_curve *c, size_t n, const char *title, double target,
                        const char *caption, const char *out, dcsim_plot_format fmt,
                        dcsim_error *err) {
  gp g;
  int rc = gp_open(&g, out, fmt, 1000, 640, caption, err);
  if (rc) return rc;
  FILE *f = g.f;
  fputs("set title ", f);
  gp_str(f, title);
  fputs(
      "\nset logscale y 10\nset xlabel 'samples (states measured)'\n"
      "set ylabel 'mean relative error of the surrogate [%] (median over seeds)'\n"
      "set grid xtics ytics mytics back lc rgb '#e4e4e4', lc rgb '#f2f2f2'\n"
      "set key top right\nset format y '%g'\n",
      f);
  for (size_t s = 0; s < n; s++) {
    fprintf(f, "$s%zu << EOD\n", s);
    for (size_t t = 0; t < c[s].n_steps; t++)
      fprintf(f, "%zu %.10g\n", c[s].samples[t], 100 * c[s].mre[t]);
    fputs("EOD\n", f);
  }
  fputs("plot ", f);
  for (size_t s = 0; s < n; s++)
    fprintf(f, "$s%zu using 1:2 with linespoints lw 2 pt %zu lc rgb '%s' title '%s', \\\n     ", s,
            5 + 2 * s, palette[s % N_PALETTE], dcsim_sampler_name(c[s].sampler));
  if (target > 0)
    fprintf(f, "%.10g with lines dt 2 lc rgb '#777777' title 'target %.3g %%'\n", 100 * target,
            100 * target);
  else
    fputs("NaN notitle\n", f);
  return gp_run(&g, out, err);
}

/* ---- roofline ---- */

int dcsim_plot_roofline(const dcsim_roofline *r, int cache_aware, const char *caption,
                        const char *out, dcsim_plot_format fmt, dcsim_error *err) {
  gp g;
  int rc = gp_open(&g, out, fmt, 1100, 720, caption, err);
  if (rc) return rc;
  FILE *f = g.f;
  /* x range: from below the smallest intensity to beyond the largest ridge or point */
  double imin = INFINITY, imax = 0, pmin = INFINITY;
  size_t c0 = cache_aware ? 0 : r->n_ceilings - 1;
  for (size_t c = c0; c < r->n_ceilings; c++) {
    double ridge = r->peak_flops / r->ceilings[c].bw_bps;
    if (ridge > imax) imax = ridge;
    if (ridge < imin) imin = ridge;
  }
  for (size_t i = 0; i < r->n_points; i++) {
    if (r->points[i].intensity < imin) imin = r->points[i].intensity;
    if (r->points[i].intensity > imax) imax = r->points[i].intensity;
    if (r->points[i].perf_flops < pmin) pmin = r->points[i].perf_flops;
  }
  double x0 = pow(10, floor(log10(imin / 3))), x1 = pow(10, ceil(log10(imax * 3)));
  double ylo = r->ceilings[r->n_ceilings - 1].bw_bps * x0;
  if (pmin < ylo) ylo = pmin;
  double y0 = pow(10, floor(log10(ylo * 1e-9 / 2))),
         y1 = pow(10, ceil(log10(r->peak_flops * 1e-9 * 3)));
  if (r->peak_sp_flops > 0) y1 = pow(10, ceil(log10(r->peak_sp_flops * 1e-9 * 2)));
  char t[512];
  snprintf(t, sizeof t, "%s roofline: %s%s%s%s%s",
           cache_aware && r->n_ceilings > 1 ? "Cache-aware" : "", r->device,
           r->state[0] ? " at " : "", r->state, r->dwarf[0] ? ", " : "", r->dwarf);
  if (t[0] == ' ') memmove(t, t + 1, strlen(t));
  if (!(cache_aware && r->n_ceilings > 1)) t[0] = 'R';
  if (r->dwarf[0]) {
    size_t l = strlen(t);
    if (r->peak_sp_flops > 0)
      snprintf(t + l, sizeof t - l,
               "\nkernels at (W/Q, W/T): W = 2 x DP instructions (Table 11), Q = requested global "
               "bytes, T = model time");
    else
      snprintf(
          t + l, sizeof t - l, "\nloops at (W/Q, W/T), T = the §4.3 model time of the loop%s%s",
          r->n_unplaced ? "; loops without flops not shown" : "",
          cache_aware
              ? ""
              : "\nclassic roofline (DRAM only): loops served from the caches can lie above it");
  }
  fputs("set title ", f);
  gp_str(f, t);
  fprintf(f, "\nset logscale xy 10\nset xrange [%g:%g]\nset yrange [%g:%g]\n", x0, x1, y0, y1);
  fputs(
      "set xlabel 'operational intensity W/Q [flop/byte] (log scale)'\n"
      "set ylabel 'performance [GFLOP/s] (log scale)'\n"
      "set format x '%g'\nset format y '%g'\nset grid xtics ytics mxtics mytics back lc rgb "
      "'#e4e4e4', lc rgb '#f2f2f2'\n"
      "set key outside right top Left reverse samplen 2 spacing 1.1 font ',9'\nset samples 2000\n",
      f);
  fprintf(f, "P = %.10g\n", r->peak_flops * 1e-9);
  for (size_t c = c0; c < r->n_ceilings; c++)
    fprintf(f, "b%zu = %.10g\nroof%zu(x) = x*b%zu < P ? x*b%zu : P\n", c,
            r->ceilings[c].bw_bps * 1e-9, c, c, c);
  fprintf(f, "set label 20 'peak %s%.4g GFLOP/s' at %g,%g font ',9' offset 0,0.7\n",
          r->peak_sp_flops > 0 ? "DP " : "", r->peak_flops * 1e-9, x1 / 40, r->peak_flops * 1e-9);
  if (r->peak_sp_flops > 0)
    fprintf(
        f, "set label 21 'peak SP %.4g GFLOP/s' at %g,%g font ',9' tc rgb '#777777' offset 0,0.7\n",
        r->peak_sp_flops * 1e-9, x1 / 40, r->peak_sp_flops * 1e-9);
  for (size_t i = 0; i < r->n_points; i++) {
    fprintf(f, "$p%zu << EOD\n%.10g %.10g\nEOD\n", i, r->points[i].intensity,
            r->points[i].perf_flops * 1e-9);
  }
  fputs("plot ", f);
  for (size_t c = c0; c < r->n_ceilings; c++)
    fprintf(f, "roof%zu(x) with lines lw 2 lc rgb '%s' title '%s %.4g GB/s', \\\n     ", c,
            palette[c % N_PALETTE], r->ceilings[c].name, r->ceilings[c].bw_bps * 1e-9);
  if (r->peak_sp_flops > 0)
    fprintf(f,
            "(x*b%zu < %.10g ? x*b%zu : %.10g) with lines lw 1.5 dt 2 lc rgb '#777777' title 'SP "
            "peak', \\\n     ",
            r->n_ceilings - 1, r->peak_sp_flops * 1e-9, r->n_ceilings - 1, r->peak_sp_flops * 1e-9);
  /* the optimisation ceilings under the roofs (CACM 2009 Fig. 2): in-core ones flat from where the
   * DRAM roof reaches them, memory ones diagonal up to the peak; dashed */
  for (size_t c = 0; c < r->n_optim; c++) {
    double v = r->optim[c].value * 1e-9;
    if (r->optim[c].memory)
      fprintf(f, "(x*%.10g < P ? x*%.10g : P) with lines lw 1.2 dt 2 lc rgb '#8c564b' title ", v,
              v);
    else
      fprintf(f, "(x*b%zu < %.10g ? x*b%zu : %.10g) with lines lw 1.2 dt 4 lc rgb '#1f77b4' title ",
              r->n_ceilings - 1, v, r->n_ceilings - 1, v);
    char lab[112];
    snprintf(lab, sizeof lab, "%s %.3g %s", r->optim[c].name, v,
             r->optim[c].memory ? "GB/s" : "GFLOP/s");
    gp_str(f, lab);
    fputs(", \\\n     ", f);
  }
  static const int ptypes[] = { 5, 7, 9, 11, 13, 4, 6, 8, 10, 12 };
  size_t k = 0;
  for (size_t i = 0; i < r->n_points; i++) {
    const dcsim_roofline_point *p = &r->points[i];
    if (p->is_total)
      fprintf(f, "$p%zu using 1:2 with points pt 3 ps 3 lw 2.5 lc rgb '#000000' title ", i);
    else {
      fprintf(f, "$p%zu using 1:2 with points pt %d ps 1.5 lc rgb '%s' title ", i, ptypes[k % 10],
              palette[(k / 10 + k) % N_PALETTE]);
      k++;
    }
    gp_str(f, p->name);
    fputs(i + 1 < r->n_points ? ", \\\n     " : "\n", f);
  }
  if (!r->n_points) fputs("NaN notitle\n", f);
  return gp_run(&g, out, err);
}

/* ---- run traces: Gantt and power ---- */

typedef struct bar {
  uint32_t node;
  int64_t t0, t1;
  uint32_t label;
  int gpu;
} bar;
typedef struct seg {
  uint32_t node;
  int64_t t0, t1;
  double w;
} seg;

struct dcsim_plot_trace {
  const dcsim_scenario *s;
  const dcsim_engine_sink *next;
  dcsim_engine_sink sink;
  bar *bars;
  size_t n_bars, cap_bars;
  seg *segs;
  size_t n_segs, cap_segs;
  const char **labels;
  size_t n_labels;
  int64_t end_ns;
};

#define DCSIM_PLOT_MAX_BARS 2000000u

static int on_task(void *ctx, const dcsim_task_record *r, dcsim_error *err) {
  dcsim_plot_trace_t *t = ctx;
  const char *name = r->wf->wf->templates[r->wf->wf->tasks[r->task].tmpl].name;
  uint32_t lab = 0;
  while (lab < t->n_labels && strcmp(t->labels[lab], name) != 0) lab++;
  if (lab == t->n_labels) {
    const char **nl = realloc(t->labels, (t->n_labels + 1) * sizeof *nl);
    if (!nl) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    t->labels = nl;
    t->labels[t->n_labels++] = name;
  }
  for (uint32_t i = 0; i < r->n_nodes; i++) {
    if (t->n_bars == t->cap_bars) {
      if (t->cap_bars >= DCSIM_PLOT_MAX_BARS)
        return DCSIM_ERR(err, DCSIM_ERANGE, "", 0,
                         "more than %u task bars: too many for a Gantt chart", DCSIM_PLOT_MAX_BARS);
      size_t nc = t->cap_bars ? 2 * t->cap_bars : 1024;
      bar *nb = realloc(t->bars, nc * sizeof *nb);
      if (!nb) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
      t->bars = nb;
      t->cap_bars = nc;
    }
    t->bars[t->n_bars++] = (bar){ r->nodes[i], r->start_ns, r->end_ns, lab, r->gpu_slot >= 0 };
  }
  if (r->end_ns > t->end_ns) t->end_ns = r->end_ns;
  return t->next && t->next->task ? t->next->task(t->next->ctx, r, err) : 0;
}

static int on_power(void *ctx, uint32_t node, int64_t t0, int64_t t1, double w, dcsim_error *err) {
  dcsim_plot_trace_t *t = ctx;
  if (DCSIM_GROW(t->segs, t->cap_segs, t->n_segs + 1))
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  t->segs[t->n_segs++] = (seg){ node, t0, t1, w };
  if (t1 > t->end_ns) t->end_ns = t1;
  return t->next && t->next->power ? t->next->power(t->next->ctx, node, t0, t1, w, err) : 0;
}

dcsim_plot_trace_t *dcsim_plot_trace_new(const dcsim_scenario *s, const dcsim_engine_sink *next,
                                         dcsim_error *err) {
  dcsim_plot_trace_t *t = calloc(1, sizeof *t);
  if (!t) {
    DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    return NULL;
  }
  t->s = s;
  t->next = next;
  t->sink = (dcsim_engine_sink){ t, on_task, on_power };
  return t;
}

uint64_t dcsim_plot_trace_bytes(uint64_t task_nodes) {
  uint64_t bars = task_nodes < DCSIM_PLOT_MAX_BARS ? task_nodes : DCSIM_PLOT_MAX_BARS;
  return 2 * (bars * sizeof(bar) + 2 * task_nodes * sizeof(seg));
}

void dcsim_plot_trace_free(dcsim_plot_trace_t *t) {
  if (!t) return;
  free(t->bars);
  free(t->segs);
  free(t->labels);
  free(t);
}

const dcsim_engine_sink *dcsim_plot_trace_sink(dcsim_plot_trace_t *t) { return &t->sink; }

static const char *time_unit(double t_s, double *scale) {
  if (t_s >= 2 * 86400) {
    *scale = 1.0 / 86400;
    return "d";
  }
  if (t_s >= 3 * 3600) {
    *scale = 1.0 / 3600;
    return "h";
  }
  *scale = 1;
  return "s";
}

/* the group of a global node number */
static size_t group_of(const dcsim_scenario *s, uint32_t node) {
  for (size_t g = 0; g < s->n_groups; g++)
    if (node >= s->groups[g].g->first_node &&
        node < s->groups[g].g->first_node + s->groups[g].g->count)
      return g;
  return 0;
}

int dcsim_plot_gantt(const dcsim_plot_trace_t *t, const char *caption, const char *out,
                     dcsim_plot_format fmt, dcsim_error *err) {
  const dcsim_scenario *s = t->s;
  if (!t->n_bars) return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "no task ran: nothing to draw");
  unsigned nn = s->platform->n_nodes;
  int32_t *row = malloc((nn ? nn : 1) * sizeof *row);
  if (!row) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  for (unsigned i = 0; i < nn; i++) row[i] = -1;
  for (size_t i = 0; i < t->n_bars; i++) row[t->bars[i].node] = 0;
  int32_t rows = 0;
  for (unsigned i = 0; i < nn; i++)
    if (row[i] == 0) row[i] = rows++; /* only nodes that ran something, in order */
  double ts;
  const char *tu = time_unit((double)t->end_ns * 1e-9, &ts);
  gp g;
  int height = 220 + 22 * (rows < 40 ? rows : 40);
  int rc = gp_open(&g, out, fmt, 1200, height, caption, err);
  if (rc) {
    free(row);
    return rc;
  }
  FILE *f = g.f;
  char title[512];
  snprintf(title, sizeof title,
           "Tasks per node: %s on %s (%zu task-node bars, %d of %u nodes used)",
           s->n_wfs == 1 ? s->wfs[0].wf->name : "workload", s->platform->name, t->n_bars, rows, nn);
  fputs("set title ", f);
  gp_str(f, title);
  fprintf(f,
          "\nset xlabel 'time [%s]'\nset ylabel 'node'\nset yrange [-0.7:%d]\nset xrange "
          "[0:*]\nset grid xtics back lc rgb '#e8e8e8'\n"
          "set key outside right top Left reverse samplen 2\nset style fill solid 0.9 noborder\n"
          "set ytics font ',9'\nset format x '%%g'\n",
          tu, rows);
  /* y tics: "group:index" for up to 40 rows, else let gnuplot choose numbers */
  if (rows <= 40) {
    fputs("set ytics (", f);
    int firstt = 1;
    for (unsigned i = 0; i < nn; i++) {
      if (row[i] < 0) continue;
      size_t gi = group_of(s, i);
      fprintf(f, "%s'%s %u' %d", firstt ? "" : ", ", s->groups[gi].g->name,
              i - s->groups[gi].g->first_node, row[i]);
      firstt = 0;
    }
    fputs(")\n", f);
  } else { /* many rows: numbers, with the groups named and separated */
    fputs("set key above horizontal\nset rmargin 12\n", f);
    int lo = -1, hi = -1, k = 0;
    for (size_t gi = 0; gi < s->n_groups; gi++) {
      lo = hi = -1;
      for (unsigned i = s->groups[gi].g->first_node;
           i < s->groups[gi].g->first_node + s->groups[gi].g->count; i++)
        if (row[i] >= 0) {
          if (lo < 0) lo = row[i];
          hi = row[i];
        }
      if (lo < 0) continue;
      fprintf(f, "set label %d '%s' at graph 1.01, first %g left font ',10'\n", ++k,
              s->groups[gi].g->name, (lo + hi) / 2.0);
      if (lo > 0)
        fprintf(f,
                "set arrow %d from graph 0, first %g to graph 1, first %g nohead dt 3 lc rgb "
                "'#888888'\n",
                k, lo - 0.5, lo - 0.5);
    }
  }
  for (size_t l = 0; l < t->n_labels; l++) {
    fprintf(f, "$b%zu << EOD\n", l);
    for (size_t i = 0; i < t->n_bars; i++) {
      const bar *b = &t->bars[i];
      if (b->label != l) continue;
      double x0 = (double)b->t0 * 1e-9 * ts, x1 = (double)b->t1 * 1e-9 * ts, y = row[b->node];
      fprintf(f, "%.9g %d %.9g %.9g %.2f %.2f\n", (x0 + x1) / 2, (int)y, x0, x1, y - 0.38,
              y + 0.38);
    }
    fputs("EOD\n", f);
  }
  fputs("plot ", f);
  for (size_t l = 0; l < t->n_labels; l++) {
    fprintf(f, "$b%zu using 1:2:3:4:5:6 with boxxyerror lc rgb '%s' title ", l,
            palette[l % N_PALETTE]);
    gp_str(f, t->labels[l]);
    fputs(l + 1 < t->n_labels ? ", \\\n     " : "\n", f);
  }
  free(row);
  return gp_run(&g, out, err);
}

typedef struct pev {
  int64_t t;
  uint32_t group;
  double dw;
} pev;

static int cmp_pev(const void *a, const void *b) {
  const pev *x = a, *y = b;
  return (x->t > y->t) - (x->t < y->t);
}

/* Title, axes, one filled band per group (stacked, with its energy) and the centre's outline. */
static void power_plot(FILE *f, const dcsim_plot_trace_t *t, const double *gj, double energy,
                       double pmax, double ts, const char *tu) {
  const dcsim_scenario *s = t->s;
  size_t ng = s->n_groups;
  double ps = pmax >= 2e4 ? 1e-3 : 1;
  char title[512], et[64], kwh[48];
  snprintf(et, sizeof et, "%s = %s kWh", dcsim_fmt_si(kwh, sizeof kwh, energy, 4, "J"),
           dcsim_fmt_sig((char[48]){ 0 }, 48, energy / 3.6e6, 4));
  snprintf(title, sizeof title,
           "Power of the centre, stacked by node group: %s on %s (energy %s over %.4g %s)",
           s->n_wfs == 1 ? s->wfs[0].wf->name : "workload", s->platform->name, et,
           (double)t->end_ns * 1e-9 * ts, tu);
  fputs("set title ", f);
  gp_str(f, title);
  fprintf(f,
          "\nset xlabel 'time [%s]'\nset ylabel 'power [%s]'\nset yrange [0:*]\nset xrange [0:*]\n"
          "set grid front lc rgb '#cccccc'\nset key outside right top Left reverse samplen 2\n"
          "set format x '%%g'\nset format y '%%g'\nset offsets 0, 0, graph 0.08, 0\n"
          "set style fill solid 0.8 noborder\nplot ",
          tu, ps >= 1 ? "W" : "kW");
  for (size_t gi = 0; gi < ng; gi++) {
    char lt[200], lo[48] = "(0)";
    if (gi) snprintf(lo, sizeof lo, "($%zu*%g)", gi + 1, ps);
    fprintf(f, "$p using 1:%s:($%zu*%g) with filledcurves lc rgb '%s' title ", lo, gi + 2, ps,
            palette[gi % N_PALETTE]);
    char ej[48];
    snprintf(lt, sizeof lt, "%s (%u node%s): %s", s->groups[gi].g->name, s->groups[gi].g->count,
             s->groups[gi].g->count == 1 ? "" : "s", dcsim_fmt_si(ej, sizeof ej, gj[gi], 4, "J"));
    gp_str(f, lt);
    fputs(", \\\n     ", f);
  }
  fprintf(f, "$p using 1:($%zu*%g) with lines lw 1.5 lc rgb '#000000' title 'centre (all nodes)'\n",
          ng + 1, ps);
}

/* The power of every group as stairs: at each instant with changes, one row with the levels
 * before and one with the levels after, cumulated over the groups (time, g0, g0+g1, ..., centre),
 * so that filled curves between consecutive columns stack the groups. *pmax: the highest total. */
static void power_stairs(FILE *f, const pev *ev, size_t ne, size_t ng, double ts, double *cur,
                         double *pmax) {
  fputs("$p << EOD\n", f);
  for (size_t i = 0; i < ne;) {
    int64_t now = ev[i].t;
    for (int side = 0; side < 2; side++) {
      if (side) /* apply every change at this instant */
        for (; i < ne && ev[i].t == now; i++) cur[ev[i].group] += ev[i].dw;
      double cum = 0;
      fprintf(f, "%.9g", (double)now * 1e-9 * ts);
      for (size_t gi = 0; gi < ng; gi++) {
        cum += fabs(cur[gi]) < 1e-9 ? 0 : cur[gi];
        fprintf(f, " %.9g", cum);
      }
      fputc('\n', f);
      if (cum > *pmax) *pmax = cum;
    }
  }
  fputs("EOD\n", f);
}

int dcsim_plot_power(const dcsim_plot_trace_t *t, const char *caption, const char *out,
                     dcsim_plot_format fmt, dcsim_error *err) {
  const dcsim_scenario *s = t->s;
  if (!t->n_segs) return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "no power record: nothing to draw");
  size_t ng = s->n_groups, ne = 2 * t->n_segs;
  pev *ev = malloc(ne * sizeof *ev);
  double *cur = calloc(ng + 1, sizeof *cur), *gj = calloc(ng + 1, sizeof *gj);
  if (!ev || !cur || !gj) {
    free(ev);
    free(cur);
    free(gj);
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  }
  double energy = 0;
  for (size_t i = 0; i < t->n_segs; i++) {
    const seg *sg = &t->segs[i];
    uint32_t gi = (uint32_t)group_of(s, sg->node);
    ev[2 * i] = (pev){ sg->t0, gi, sg->w };
    ev[2 * i + 1] = (pev){ sg->t1, gi, -sg->w };
    gj[gi] += sg->w * (double)(sg->t1 - sg->t0) * 1e-9;
    energy += sg->w * (double)(sg->t1 - sg->t0) * 1e-9;
  }
  qsort(ev, ne, sizeof *ev, cmp_pev);
  double ts, pmax = 0;
  const char *tu = time_unit((double)t->end_ns * 1e-9, &ts);
  gp g;
  int rc = gp_open(&g, out, fmt, 1200, 640, caption, err);
  if (!rc) {
    power_stairs(g.f, ev, ne, ng, ts, cur, &pmax);
    power_plot(g.f, t, gj, energy, pmax, ts, tu);
    rc = gp_run(&g, out, err);
  }
  free(ev);
  free(cur);
  free(gj);
  return rc;
}

/* ---- sweep heat map ---- */

/* The panels and axes of a heat map: the distinct node and core counts, and one panel per
 * CPU + GPU + frequency combination, in point order. */
typedef struct heat_view {
  const dcsim_sweep_point *pts;
  size_t n;
  unsigned nodes[DCSIM_SWEEP_MAX_LIST], cores[DCSIM_SWEEP_MAX_LIST];
  size_t nn, nc;
  size_t panel_of[DCSIM_PLOT_HEAT_MAX_PANELS]; /* a point of each panel */
  size_t np;
  double vmin, vmax, scale; /* of the feasible points' metric, and its display scale */
  const char *unit;
  int time; /* the metric: 1 time, 0 energy */
  int logc; /* a logarithmic colour scale (the values span 10x or more) */
} heat_view;

static double heat_value(const heat_view *h, const dcsim_sweep_point *p) {
  return (h->time ? p->time_s : p->energy_j) * h->scale;
}

static int same_panel(const dcsim_sweep_point *a, const dcsim_sweep_point *b) {
  return strcmp(a->cpu, b->cpu) == 0 && strcmp(a->gpu, b->gpu) == 0 &&
         strcmp(a->freq, b->freq) == 0;
}

static void add_sorted(unsigned *v, size_t *n, unsigned x) {
  size_t i = 0;
  while (i < *n && v[i] < x) i++;
  if (i < *n && v[i] == x) return;
  if (*n == DCSIM_SWEEP_MAX_LIST) return;
  memmove(v + i + 1, v + i, (*n - i) * sizeof *v);
  v[i] = x;
  (*n)++;
}

static size_t index_of(const unsigned *v, size_t n, unsigned x) {
  for (size_t i = 0; i < n; i++)
    if (v[i] == x) return i;
  return n;
}

static int heat_scan(heat_view *h, dcsim_error *err) {
  h->vmin = INFINITY;
  h->vmax = 0;
  for (size_t i = 0; i < h->n; i++) {
    const dcsim_sweep_point *p = &h->pts[i];
    if (!p->done) continue;
    add_sorted(h->nodes, &h->nn, p->nodes);
    add_sorted(h->cores, &h->nc, p->cores);
    size_t k = 0;
    while (k < h->np && !same_panel(&h->pts[h->panel_of[k]], p)) k++;
    if (k == h->np) {
      if (h->np == DCSIM_PLOT_HEAT_MAX_PANELS)
        return DCSIM_ERR(err, DCSIM_ERANGE, "", 0,
                         "more than %d CPU + GPU + frequency combinations: a heat map draws one "
                         "panel each; choose some with --cpu, --gpu or --freq",
                         DCSIM_PLOT_HEAT_MAX_PANELS);
      h->panel_of[h->np++] = i;
    }
    if (!p->feasible) continue;
    double v = h->time ? p->time_s : p->energy_j;
    if (v < h->vmin) h->vmin = v;
    if (v > h->vmax) h->vmax = v;
  }
  if (!(h->vmax > 0)) return DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "no feasible point to draw");
  h->logc = h->vmin > 0 && h->vmax >= 10 * h->vmin;
  if (h->time)
    h->unit = time_unit(h->vmax, &h->scale);
  else
    h->unit = energy_unit(h->vmax, &h->scale);
  return 0;
}

/* "xeon-gold-6148 + tesla-k20m @ 2.4 GHz", what names a panel */
static void panel_name(const dcsim_sweep_point *p, char *buf, size_t size) {
  char fq[40];
  snprintf(buf, size, "%s%s%s%s%s", p->cpu[0] ? p->cpu : "", p->cpu[0] && p->gpu[0] ? " + " : "",
           p->gpu, p->freq[0] ? " @ " : "", freq_text(p->freq, fq, sizeof fq));
}

/* tics that name the counts at their positions 0..n-1 */
static void count_tics(FILE *f, char axis, const unsigned *v, size_t n) {
  fprintf(f, "set %ctics (", axis);
  for (size_t i = 0; i < n; i++) fprintf(f, "%s'%u' %zu", i ? ", " : "", v[i], i);
  fprintf(f, ")\nset %crange [-0.5:%zu.5]\n", axis, n - 1);
}

/* One panel: the cells of its points, their values written in them (white on the dark end of the
 * palette), infeasible cells crossed, the panel's best cell framed. */
static void heat_panel(FILE *f, const heat_view *h, size_t k, int last) {
  const dcsim_sweep_point *ref = &h->pts[h->panel_of[k]];
  char name[200];
  panel_name(ref, name, sizeof name);
  fputs("set title ", f);
  gp_str(f, name);
  fputc('\n', f);
  long best = -1;
  fprintf(f, "$h%zu << EOD\n", k);
  for (size_t i = 0; i < h->n; i++) {
    const dcsim_sweep_point *p = &h->pts[i];
    if (!p->done || !same_panel(p, ref)) continue;
    size_t x = index_of(h->nodes, h->nn, p->nodes), y = index_of(h->cores, h->nc, p->cores);
    if (!p->feasible) {
      fprintf(f, "%zu %zu NaN 2\n", x, y);
      continue;
    }
    double v = heat_value(h, p), lo = h->vmin * h->scale, hi = h->vmax * h->scale;
    double rel =
        h->logc ? (log(v) - log(lo)) / fmax(log(hi / lo), 1e-12) : (v - lo) / fmax(hi - lo, 1e-300);
    fprintf(f, "%zu %zu %.10g %d\n", x, y, v, rel < 0.45);
    if (best < 0 || v < heat_value(h, &h->pts[best])) best = (long)i;
  }
  fputs("EOD\n", f);
  int cells = h->nn * h->nc <= 120;
  if (best >= 0) {
    size_t bx = index_of(h->nodes, h->nn, h->pts[best].nodes),
           by = index_of(h->cores, h->nc, h->pts[best].cores);
    fprintf(f,
            "set object 1 rect from %g,%g to %g,%g front fillstyle empty border lc rgb '#d62728' "
            "lw 3\n",
            bx - 0.46, by - 0.46, bx + 0.46, by + 0.46);
  }
  if (last)
    fputs("set colorbox user origin screen 0.895, screen 0.2 size screen 0.018, screen 0.6\n", f);
  else
    fputs("unset colorbox\n", f);
  fprintf(f, "plot $h%zu using 1:2:3 with image notitle", k);
  if (cells)
    fprintf(
        f,
        ", \\\n     $h%zu using 1:2:($4 == 1 ? sprintf('%%.4g', $3) : '') with labels font ',8' "
        "tc rgb '#ffffff' notitle, \\\n     $h%zu using 1:2:($4 == 0 ? sprintf('%%.4g', $3) : "
        "'') with labels font ',8' tc rgb '#000000' notitle",
        k, k);
  fprintf(f,
          ", \\\n     $h%zu using 1:2:($4 == 2 ? 'x' : '') with labels font ',10' tc rgb "
          "'#999999' notitle",
          k);
  fputc('\n', f);
  fputs("unset label 999\nunset object 1\n", f); /* the caption is drawn once */
}

int dcsim_plot_heatmap(const dcsim_sweep_point *pts, size_t n, int time, const char *title,
                       const char *caption, const char *out, dcsim_plot_format fmt,
                       dcsim_error *err) {
  heat_view *h = calloc(1, sizeof *h);
  if (!h) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  h->pts = pts;
  h->n = n;
  h->time = time;
  gp g;
  int rc = heat_scan(h, err);
  size_t cols = h->np <= 1 ? 1 : h->np <= 4 ? 2 : 3, rows = (h->np + cols - 1) / (cols ? cols : 1);
  int width = 420 * (int)cols + 260;
  if (!rc)
    rc = gp_open(&g, out, fmt, width < 960 ? 960 : width, 330 * (int)rows + 170, caption, err);
  if (rc) {
    free(h);
    return rc;
  }
  FILE *f = g.f;
  char t[600];
  snprintf(t, sizeof t,
           "%s\n%s of every point [%s]%s, the least of each panel framed; x: not feasible",
           title && *title ? title : "Sweep heat map: nodes x cores",
           time ? "time-to-solution" : "energy-to-solution", h->unit,
           h->logc ? " (log colour scale)" : "");
  fprintf(f,
          "set palette defined (0 '#440154', 0.25 '#3b528b', 0.5 '#21918c', 0.75 '#5ec962', 1 "
          "'#fde725')\n%sset format cb '%%g'\n",
          h->logc ? "set logscale cb\n" : "");
  fprintf(f, "set cbrange [%.10g:%.10g]\nset cblabel '%s [%s]'\n", h->vmin * h->scale,
          h->vmax * h->scale * (h->vmax > h->vmin ? 1 : 1.01), time ? "time" : "energy", h->unit);
  fputs("set xlabel 'nodes'\nset ylabel 'cores per node'\nset tics out nomirror\n", f);
  count_tics(f, 'x', h->nodes, h->nn);
  count_tics(f, 'y', h->cores, h->nc);
  double height = 330.0 * (double)rows + 170; /* margins in pixels, as fractions */
  fprintf(f, "set multiplot layout %zu,%zu margins 0.08,0.85,%.3f,%.3f spacing 0.07,%.3f title ",
          rows, cols, 105 / height, 1 - 95 / height, 115 / height);
  gp_str(f, t);
  fputc('\n', f);
  for (size_t k = 0; k < h->np; k++) heat_panel(f, h, k, k + 1 == h->np);
  fputs("unset multiplot\n", f);
  free(h);
  return gp_run(&g, out, err);
}
