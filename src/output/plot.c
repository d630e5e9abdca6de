/* plot.c — pictures through gnuplot: finding and running it, the script's plumbing and what the
 * charts share (see dcsim/plot.h, output/internal.h); one file per chart (plot_*.c). */
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

#include <zlib.h>

#include "dcsim/numfmt.h"
#include "dcsim/repro.h"
#include "dcsim/strutil.h"
#include "output/internal.h"

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
  snprintf(buf, 8, "#%02x%02x%02x", (unsigned)lround((r + m) * 255),
           (unsigned)lround((g + m) * 255), (unsigned)lround((b + m) * 255));
  return buf;
}

/* ---- a temporary directory with the script and data ---- */

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
  dcsim__plot_str(f, text);
  fprintf(f, " at screen 0.005, screen %.4f left front font ',7' tc rgb '#888888'\n",
          (lines - 0.5) * lh + 0.004);
}

int dcsim__plot_open(dcsim_plot_gp *g, const char *out, dcsim_plot_format fmt, int width,
                     int height, const char *caption, dcsim_error *err) {
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
  g->fmt = fmt;
  snprintf(g->meta, sizeof g->meta, "%s", caption ? caption : "");
  return 0;
}

/* ---- provenance in the picture's own metadata (issue 26) ---- */

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

/* the file's bytes with ins inserted at `at`, written over it (a temporary file, then rename) */
static int splice_file(const char *out, const unsigned char *data, size_t len, size_t at,
                       const void *ins, size_t ins_len, size_t skip, dcsim_error *err) {
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.meta-tmp", out);
  FILE *w = fopen(tmp, "wb");
  int ok = w && fwrite(data, 1, at, w) == at && fwrite(ins, 1, ins_len, w) == ins_len &&
           fwrite(data + at + skip, 1, len - at - skip, w) == len - at - skip;
  if (w && fclose(w) != 0) ok = 0;
  if (!ok || rename(tmp, out) != 0) {
    unlink(tmp);
    return DCSIM_ERR(err, DCSIM_EIO, out, 0, "cannot write its metadata");
  }
  return 0;
}

/* PNG: tEXt "Software" (dcsim and its commit) and "Comment" (the caption) after IHDR; SVG: the
 * caption as its <title> and <desc> in place of gnuplot's. */
static int embed_metadata(const char *out, dcsim_plot_format fmt, const char *meta,
                          dcsim_error *err) {
  FILE *f = fopen(out, "rb");
  if (!f) return DCSIM_ERR(err, DCSIM_EIO, out, 0, "cannot read it back");
  unsigned char *data = NULL;
  size_t len = 0, cap = 0, k;
  unsigned char chunk[65536];
  while ((k = fread(chunk, 1, sizeof chunk, f)) > 0) {
    if (DCSIM_GROW(data, cap, len + k)) {
      fclose(f);
      free(data);
      return DCSIM_ERR(err, DCSIM_ENOMEM, out, 0, "out of memory");
    }
    memcpy(data + len, chunk, k);
    len += k;
  }
  fclose(f);
  int rc = 0;
  char soft[256];
  snprintf(soft, sizeof soft, "dcsim %s, commit %s", dcsim_version(), dcsim_commit());
  if (fmt == DCSIM_PLOT_PNG && len > 33 && memcmp(data + 12, "IHDR", 4) == 0) {
    unsigned char ins[2 * 1400];
    size_t n = png_text_chunk(ins, "Software", soft);
    n += png_text_chunk(ins + n, "Comment", meta);
    rc = splice_file(out, data, len, 33, ins, n, 0, err); /* 8 signature + 25 IHDR */
  } else if (fmt == DCSIM_PLOT_SVG) {
    const char *t = data ? strstr((const char *)data, "<title>Gnuplot</title>") : NULL;
    const char *d = t ? strstr(t, "</desc>") : NULL;
    if (t && d) {
      char ins[4096], esc[2048];
      size_t e = 0;
      for (const char *c = meta; *c && e + 6 < sizeof esc; c++) /* XML text: & < > escaped */
        e += (size_t)snprintf(esc + e, sizeof esc - e, "%s",
                              *c == '&'   ? "&amp;"
                              : *c == '<' ? "&lt;"
                              : *c == '>' ? "&gt;"
                                          : (char[]){ *c, 0 });
      int m = snprintf(ins, sizeof ins, "<title>%s</title>\n<desc>%s</desc>", soft, esc);
      size_t at = (size_t)(t - (const char *)data), skip = (size_t)(d + 7 - t);
      rc = splice_file(out, data, len, at, ins, (size_t)m, skip, err);
    }
  }
  free(data);
  return rc;
}

/* a double-quoted gnuplot string (data files and script) */
void dcsim__plot_str(FILE *f, const char *s) {
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

void dcsim__plot_cleanup(dcsim_plot_gp *g) {
  if (g->f) fclose(g->f);
  g->f = NULL;
  char p[700];
  static const char *const files[] = { "plot.gp", "gnuplot.log" };
  for (size_t i = 0; i < 2; i++) {
    if (dcsim_bufprintf(p, sizeof p, "%s/%s", g->dir, files[i]) == 0) unlink(p);
  }
  rmdir(g->dir);
}

int dcsim__plot_run(dcsim_plot_gp *g, const char *out, dcsim_error *err) {
  char exe[1024];
  int rc = dcsim_plot_find_gnuplot(exe, sizeof exe, err);
  if (!rc && (fputs("unset output\n", g->f) < 0 || fclose(g->f) != 0))
    rc = DCSIM_ERR(err, DCSIM_EIO, g->script, 0, "cannot write the gnuplot script");
  g->f = NULL;
  if (rc) {
    dcsim__plot_cleanup(g);
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
  if (!rc) rc = embed_metadata(out, g->fmt, g->meta, err);
  dcsim__plot_cleanup(g);
  return rc;
}

/* A point's frequency for a picture: GHz with its unit ("2.4 GHz"), a state label as it is
 * ("turbo"); a sweep point holds the GHz a name resolved to (doc/sweep.md). */
const char *dcsim__plot_freq_text(const char *freq, char *buf, size_t size) {
  double ghz;
  if (dcsim_parse_ghz(freq, &ghz) == 0)
    snprintf(buf, size, "%s GHz", freq);
  else
    snprintf(buf, size, "%s", freq);
  return buf;
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
