/* plot.c — pictures through gnuplot: finding and running it, the script's plumbing and what the
 * charts share (see dcsim/plot.h, output/internal.h); one file per chart (plot_*.c). */
#include "dcsim/plot.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <zlib.h>

#include "dcsim/numfmt.h"
#include "dcsim/repro.h"
#include "dcsim/strutil.h"
#include "output/internal.h"
#include "util/fileio.h"
#include "util/xmledit.h"

extern char **environ;

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
  return DCSIM_PERR(err, DCSIM_EUSAGE, "picture", -1, "%s: a picture is .png or .svg",
                    path ? path : "(no file)");
}

static int executable(const char *p) { return access(p, X_OK) == 0; }

/* the first executable "DIR/gnuplot" of the directories of $PATH, malloc'd (*found NULL when
 * there is none); -1 when out of memory */
static int gnuplot_on_path(char **found) {
  *found = NULL;
  for (const char *p = getenv("PATH"); p && *p;) {
    size_t l = strcspn(p, ":");
    if (l > 0) {
      char *c = dcsim_strdup_printf("%.*s/gnuplot", (int)l, p);
      if (!c) return -1;
      if (executable(c)) {
        *found = c;
        return 0;
      }
      free(c);
    }
    p += l;
    if (*p == ':') p++;
  }
  return 0;
}

int dcsim_plot_find_gnuplot(char **path, dcsim_error *err) {
  const char *env = getenv("DCSIM_GNUPLOT");
  char *found = NULL;
  if (path) *path = NULL;
  if (env && *env) {
    if (!executable(env))
      return DCSIM_ERR(err, DCSIM_EIO, env, 0,
                       "DCSIM_GNUPLOT names no executable gnuplot; install gnuplot (Debian: "
                       "apt-get install gnuplot-nox)");
    found = dcsim_strdup(env);
  } else if (executable("/usr/bin/gnuplot")) {
    found = dcsim_strdup("/usr/bin/gnuplot");
  } else {
    if (gnuplot_on_path(&found)) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
    if (!found)
      return DCSIM_ERR(err, DCSIM_EIO, "", 0,
                       "gnuplot not found (not /usr/bin/gnuplot, not on PATH): install it "
                       "(Debian: apt-get install gnuplot-nox) to draw pictures");
  }
  if (!found) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  if (path)
    *path = found;
  else
    free(found);
  return 0;
}

const char *dcsim__plot_color(size_t i) {
  static const char *const palette[] = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                         "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22" };
  return palette[i % (sizeof palette / sizeof palette[0])];
}

/* Colour i of n: the palette while it suffices, else n hues spread around the colour wheel with
 * alternating lightness (HSL with S = 0.65, L = 0.38 or 0.55), so no two series share a colour. */
const char *dcsim__plot_color_n(size_t i, size_t n, char buf[8]) {
  if (n <= 10) return dcsim__plot_color(i);
  double h = 6.0 * (double)(i % n) / (double)n, l = i % 2 ? 0.55 : 0.38, s = 0.65;
  double c = (1 - fabs(2 * l - 1)) * s, x = c * (1 - fabs(fmod(h, 2) - 1)), m = l - c / 2;
  double r = 0, g = 0, b = 0;
  if (h < 1)
    r = c, g = x;
  else if (h < 2)
    r = x, g = c;
  else if (h < 3)
    g = c, b = x;
  else if (h < 4)
    g = x, b = c;
  else if (h < 5)
    r = x, b = c;
  else
    r = c, b = x;
  snprintf(buf, 8, "#%02x%02x%02x", (unsigned char)lround((r + m) * 255), /* 0..255: r + m <= 1 */
           (unsigned char)lround((g + m) * 255), (unsigned char)lround((b + m) * 255));
  return buf;
}

/* ---- a temporary directory with the script and data ---- */

/* What made the picture, small and grey along the bottom edge, under the plot (which moves up to
 * leave it room): wrapped at a comma or semicolon into lines of at most 190 characters. 0, or -1
 * when out of memory. */
static int gp_caption(FILE *f, const char *caption, int height) {
  if (!caption || !*caption) return 0;
  char *text = malloc(strlen(caption) + 1); /* a line break takes a blank's place */
  if (!text) return -1;
  size_t n = 0, line = 0, lines = 1;
  for (const char *c = caption; *c; c++) {
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
  dcsim__plot_str(f, text);
  free(text);
  fprintf(f, " at screen 0.005, screen %.4f left front font ',7' tc rgb '#888888'\n",
          (lines - 0.5) * lh + 0.004);
  return 0;
}

/* Refuses an output path that exists and is not a regular file (a FIFO, a device, a socket, a
 * directory): a picture is written by renaming a finished file over it, and a FIFO without a
 * reader would block. Checked before any work. */
static int plot_target_ok(const char *out, dcsim_error *err) {
  struct stat st;
  if (!out || !*out) return DCSIM_PERR(err, DCSIM_EUSAGE, "picture", -1, "empty picture path");
  if (stat(out, &st) == 0 && !S_ISREG(st.st_mode))
    return DCSIM_ERR(err, DCSIM_EIO, out, 0,
                     "is not a regular file (a FIFO, device, socket or directory): a picture is "
                     "only written to a regular file");
  return 0;
}

int dcsim__plot_open(dcsim_plot_gp *g, const char *out, dcsim_plot_format fmt, int width,
                     int height, const char *caption, const volatile sig_atomic_t *stop,
                     dcsim_error *err) {
  memset(g, 0, sizeof *g);
  g->stop = stop;
  int rc = plot_target_ok(out, err);
  if (rc) return rc;
  const char *tmp = getenv("TMPDIR");
  if (!(g->dir = dcsim_path_in(tmp && *tmp ? tmp : "/tmp", "dcsim-plot-XXXXXX")))
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  if (!mkdtemp(g->dir)) {
    rc = DCSIM_ERR(err, DCSIM_EIO, g->dir, 0, "cannot create a temporary directory: %s",
                   strerror(errno));
    free(g->dir);
    g->dir = NULL;
    return rc;
  }
  g->script = dcsim_path_in(g->dir, "plot.gp");
  g->picture = dcsim_path_in(g->dir, fmt == DCSIM_PLOT_PNG ? "picture.png" : "picture.svg");
  g->meta = dcsim_strdup(caption ? caption : "");
  if (!g->script || !g->picture || !g->meta) {
    dcsim__plot_cleanup(g);
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  }
  if (!(g->f = fopen(g->script, "w"))) {
    rc = DCSIM_ERR(err, DCSIM_EIO, g->script, 0, "cannot write: %s", strerror(errno));
    dcsim__plot_cleanup(g);
    return rc;
  }
  if (fmt == DCSIM_PLOT_PNG)
    fprintf(g->f, "set terminal pngcairo size %d,%d font 'DejaVu Sans,11' noenhanced\n", width,
            height);
  else
    fprintf(g->f,
            "set terminal svg size %d,%d dynamic font 'DejaVu Sans,11' noenhanced background "
            "'#ffffff'\n",
            width, height);
  /* gnuplot draws into the temporary directory; dcsim__plot_run publishes the picture (no user
   * path in the script) */
  fputs("set output ", g->f);
  dcsim__plot_str(g->f, g->picture);
  fputs("\nset encoding utf8\nset termoption noenhanced\n", g->f);
  g->fmt = fmt;
  if (gp_caption(g->f, caption, height)) {
    dcsim__plot_cleanup(g);
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  }
  return 0;
}

/* ---- provenance in the picture's own metadata ---- */

static void put_be32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)(v >> 24);
  p[1] = (unsigned char)(v >> 16);
  p[2] = (unsigned char)(v >> 8);
  p[3] = (unsigned char)v;
}

/* a PNG tEXt chunk (PNG specification, 11.3.4.3: keyword, NUL, Latin-1 text; CRC-32 over type and
 * data) appended to buf */
static size_t png_text_chunk(unsigned char *buf, const char *key, const char *text) {
  size_t kl = strlen(key), tl = strlen(text), n = kl + 1 + tl;
  put_be32(buf, (uint32_t)n);
  memcpy(buf + 4, "tEXt", 4);
  memcpy(buf + 8, key, kl + 1);
  memcpy(buf + 8 + kl + 1, text, tl);
  put_be32(buf + 8 + n, (uint32_t)crc32(0L, buf + 4, (uInt)(n + 4)));
  return n + 12;
}

/* the picture's bytes with ins (ins_len bytes) in place of the skip bytes at `at`, written to out
 * atomically (dcsim__file_write_atomic_bytes: a temporary file beside it, then rename) */
static int publish_spliced(const char *out, const unsigned char *data, size_t len, size_t at,
                           const void *ins, size_t ins_len, size_t skip, dcsim_error *err) {
  size_t total = len - skip + ins_len;
  unsigned char *buf = malloc(total ? total : 1);
  if (!buf) return DCSIM_ERR(err, DCSIM_ENOMEM, out, 0, "out of memory");
  memcpy(buf, data, at);
  memcpy(buf + at, ins, ins_len);
  memcpy(buf + at + ins_len, data + at + skip, len - at - skip);
  int rc = dcsim__file_write_atomic_bytes(out, buf, total, err);
  free(buf);
  return rc;
}

/* the SVG's <title> (what made it) and <desc> (the caption), XML-escaped by the one helper
 * (dcsim__xml_escape); malloc'd, NULL when out of memory */
static char *svg_meta(const char *soft, const char *meta, size_t *len) {
  char *text = NULL;
  FILE *m = open_memstream(&text, len);
  if (!m) return NULL;
  fputs("<title>", m);
  dcsim__xml_escape(m, soft);
  fputs("</title>\n<desc>", m);
  dcsim__xml_escape(m, meta);
  fputs("</desc>", m);
  if (fclose(m) != 0) {
    free(text);
    return NULL;
  }
  return text;
}

/* Publishes gnuplot's picture (data, len bytes) at out with its provenance: PNG, tEXt
 * "Software" (dcsim and its commit) and "Comment" (the caption) after IHDR; SVG, the caption as
 * its <title> and <desc> in place of gnuplot's. */
static int publish_picture(const char *out, dcsim_plot_format fmt, const unsigned char *data,
                           size_t len, const char *meta, dcsim_error *err) {
  int rc;
  char *soft = dcsim_strdup_printf("dcsim %s, commit %s", dcsim_version(), dcsim_commit());
  if (!soft) return DCSIM_ERR(err, DCSIM_ENOMEM, out, 0, "out of memory");
  if (fmt == DCSIM_PLOT_PNG && len > 33 && memcmp(data + 12, "IHDR", 4) == 0) {
    /* two chunks: 12 bytes of length, type and CRC, the keyword and its NUL, the text */
    unsigned char *ins =
        malloc(2 * 12 + sizeof "Software" + sizeof "Comment" + strlen(soft) + strlen(meta));
    if (!ins) {
      free(soft);
      return DCSIM_ERR(err, DCSIM_ENOMEM, out, 0, "out of memory");
    }
    size_t n = png_text_chunk(ins, "Software", soft);
    n += png_text_chunk(ins + n, "Comment", meta);
    rc = publish_spliced(out, data, len, 33, ins, n, 0, err); /* 8 signature + 25 IHDR */
    free(ins);
    free(soft);
    return rc;
  }
  const char *t =
      fmt == DCSIM_PLOT_SVG ? strstr((const char *)data, "<title>Gnuplot</title>") : NULL;
  const char *d = t ? strstr(t, "</desc>") : NULL;
  if (!t || !d) {
    free(soft);
    return dcsim__file_write_atomic_bytes(out, data, len, err);
  }
  size_t il = 0;
  char *ins = svg_meta(soft, meta, &il);
  free(soft);
  if (!ins) return DCSIM_ERR(err, DCSIM_ENOMEM, out, 0, "out of memory");
  size_t at = (size_t)(t - (const char *)data), skip = (size_t)(d + 7 - t);
  rc = publish_spliced(out, data, len, at, ins, il, skip, err);
  free(ins);
  return rc;
}

/* s as a gnuplot string expression that no substitution reaches (gnuplot 5.4 manual, "quote
 * marks" and "substitution": backquoted commands and @macros are not expanded inside strings
 * delimited by single quotes, where a backslash is an ordinary character and a quote is doubled):
 * every line single-quoted, the lines joined by ."\n". (a fixed double-quoted line break, the
 * only text dcsim itself puts in double quotes); a control character or a byte that does not
 * begin a UTF-8 character is drawn as U+FFFD, so no input byte can end the string or the line. */
void dcsim__plot_str(FILE *f, const char *s) {
  fputc('\'', f);
  while (s && *s) {
    unsigned char c = (unsigned char)*s;
    size_t n = dcsim_utf8_len(s);
    if (c == '\n') {
      fputs("'.\"\\n\".'", f);
      s++;
    } else if (n == 0 || c < 0x20 || c == 0x7f) {
      fputs("\xEF\xBF\xBD", f); /* U+FFFD REPLACEMENT CHARACTER */
      s++;
    } else {
      if (c == '\'') fputc('\'', f);
      fwrite(s, 1, n, f);
      s += n;
    }
  }
  fputc('\'', f);
}

void dcsim__plot_cleanup(dcsim_plot_gp *g) {
  if (g->f) fclose(g->f);
  g->f = NULL;
  if (g->picture) unlink(g->picture);
  if (g->script) unlink(g->script);
  char *log = g->dir ? dcsim_path_in(g->dir, "gnuplot.log") : NULL;
  if (log) unlink(log);
  free(log);
  if (g->dir) rmdir(g->dir);
  free(g->dir);
  free(g->script);
  free(g->picture);
  free(g->meta);
  g->dir = g->script = g->picture = g->meta = NULL;
}

/* gnuplot failed: the error quotes its first complaint in its log (the first error, else the
 * last warning, else the first line; nothing when the log is empty or unreadable) */
static int gnuplot_failed(const char *out, const char *exe, const char *log, dcsim_error *err) {
  char *msg = NULL, *line = NULL;
  size_t cap = 0;
  FILE *l = fopen(log, "r");
  while (l && getline(&line, &cap, l) != -1)
    if (strstr(line, "rror") || strstr(line, "arning") || !msg) {
      free(msg);
      msg = dcsim_strdup(line); /* out of memory: quoted as nothing */
      if (strstr(line, "rror")) break;
    }
  if (l) fclose(l);
  free(line);
  if (msg) msg[strcspn(msg, "\n")] = '\0';
  int rc = DCSIM_ERR(err, DCSIM_EIO, out, 0, "gnuplot (%s) failed%s%s", exe,
                     msg && msg[0] ? ": " : "", msg ? msg : "");
  free(msg);
  return rc;
}

/* Starts gnuplot on the script, its output in log: fork and exec, so that the child can ask the
 * kernel (Linux prctl PR_SET_PDEATHSIG) to kill it when dcsim dies: no gnuplot outlives dcsim
 * (a second signal orphaned it). Only async-signal-safe calls in the child. */
static int spawn_gnuplot(const char *exe, const char *script, const char *log, pid_t *pid,
                         dcsim_error *err) {
  pid_t parent = getpid();
  pid_t p = fork();
  if (p < 0) return DCSIM_ERR(err, DCSIM_EIO, exe, 0, "cannot run gnuplot: %s", strerror(errno));
  if (p == 0) {
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127); /* dcsim died before the request */
#else
    (void)parent;
#endif
    int in = open("/dev/null", O_RDONLY), o = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (in < 0 || o < 0 || dup2(in, 0) < 0 || dup2(o, 1) < 0 || dup2(o, 2) < 0) _exit(127);
    char *argv[] = { (char *)exe, (char *)script, NULL };
    execve(exe, argv, environ);
    _exit(127);
  }
  *pid = p;
  return 0;
}

/* Waits for gnuplot; when *stop is set (a SIGINT/SIGTERM flag, may be NULL) it is killed and
 * reaped, DCSIM_EINTR. Polls every 10 ms, so a signal is answered within a second. */
static int wait_gnuplot(pid_t pid, const volatile sig_atomic_t *stop, int *st, dcsim_error *err) {
  for (;;) {
    pid_t w = waitpid(pid, st, WNOHANG);
    if (w == pid) return 0;
    if (w < 0 && errno != EINTR)
      return DCSIM_ERR(err, DCSIM_EIO, "", 0, "waiting for gnuplot: %s", strerror(errno));
    if (stop && *stop) {
      kill(pid, SIGKILL);
      while (waitpid(pid, st, 0) < 0 && errno == EINTR) {}
      return DCSIM_ERR(err, DCSIM_EINTR, "", 0, "stopped while gnuplot was drawing");
    }
    nanosleep(&(struct timespec){ 0, 10000000L }, NULL);
  }
}

/* the finished picture read back: malloc'd, NUL-terminated (an SVG is searched as text) */
static int read_picture(const dcsim_plot_gp *g, const char *out, const char *exe, const char *log,
                        unsigned char **data, size_t *len, dcsim_error *err) {
  char *text = NULL;
  dcsim_error e;
  if (dcsim__file_read(g->picture, NULL, &text, len, &e) != 0 || *len == 0) {
    free(text);
    return gnuplot_failed(out, exe, log, err);
  }
  *data = (unsigned char *)text;
  return 0;
}

int dcsim__plot_run(dcsim_plot_gp *g, const char *out, dcsim_error *err) {
  char *exe = NULL, *log = dcsim_path_in(g->dir, "gnuplot.log");
  int rc = log ? dcsim_plot_find_gnuplot(&exe, err)
               : DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  if (!rc) { /* else dcsim__plot_cleanup closes the script */
    int bad = fputs("unset output\n", g->f) < 0;
    bad |= fclose(g->f) != 0;
    g->f = NULL;
    if (bad) rc = DCSIM_ERR(err, DCSIM_EIO, g->script, 0, "cannot write the gnuplot script");
  }
  pid_t pid = -1;
  int st = 0;
  if (!rc) rc = spawn_gnuplot(exe, g->script, log, &pid, err);
  if (!rc) rc = wait_gnuplot(pid, g->stop, &st, err);
  unsigned char *data = NULL;
  size_t len = 0;
  if (!rc && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) rc = gnuplot_failed(out, exe, log, err);
  if (!rc) rc = read_picture(g, out, exe, log, &data, &len, err);
  if (!rc) rc = publish_picture(out, g->fmt, data, len, g->meta, err);
  free(data);
  free(exe);
  free(log);
  dcsim__plot_cleanup(g);
  return rc;
}

/* A point's frequency for a picture: GHz with its unit ("2.4 GHz"), a state label as it is
 * ("turbo"); a sweep point holds the GHz a name resolved to (doc/sweep.md). */
void dcsim__plot_freq_text(const char *freq, dcsim_str *out) {
  double ghz;
  dcsim_str_addf(out, "%s%s", freq, dcsim_parse_ghz(freq, &ghz) == 0 ? " GHz" : "");
}

/* the one rule for naming a point's hardware in a picture */
int dcsim__plot_hw_name(const dcsim_sweep_point *p, int with_freq, dcsim_str *out) {
  dcsim_str_addf(out, "%s%s%s", p->cpu, p->cpu[0] && p->gpu[0] ? " + " : "", p->gpu);
  if (p->gpu[0] && p->gpus) dcsim_str_addf(out, " x%u", p->gpus);
  dcsim_str_addf(out, "%s%s", p->gpu[0] && p->host_cpu[0] ? " on " : "",
                 p->gpu[0] ? p->host_cpu : "");
  if (with_freq && p->freq[0]) {
    dcsim_str_add(out, " @ ");
    dcsim__plot_freq_text(p->freq, out);
  }
  dcsim_str_add(out, strcmp(p->threading, "ideal") == 0 ? ", ideal threads" : "");
  return out->oom ? -1 : 0;
}

const char *dcsim__plot_energy_unit(double emax, double *scale) {
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

const char *dcsim__plot_time_unit(double t_s, double *scale) {
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
size_t dcsim__plot_group_of(const dcsim_scenario *s, uint32_t node) {
  for (size_t g = 0; g < s->n_groups; g++)
    if (node >= s->groups[g].g->first_node &&
        node < s->groups[g].g->first_node + s->groups[g].g->count)
      return g;
  return 0;
}
