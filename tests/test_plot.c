/* test_plot.c — every picture kind comes out as a non-empty PNG and SVG (skipped, with a message,
 * when gnuplot is not installed), and a missing gnuplot is a clear error. The numbers in the
 * pictures are tested elsewhere (test_sweep, test_roofline, the validation ctests). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "dcsim/dwarf.h"
#include "dcsim/engine.h"
#include "dcsim/hwprofile.h"
#include "dcsim/lib.h"
#include "dcsim/plot.h"
#include "dcsim/roofline.h"
#include "dcsim/scenario.h"
#include "dcsim/sweep.h"
#include "dcsim/sweep_bands.h"
#include "output/internal.h"

static char dir[] = "/tmp/dcsim-test-plot-XXXXXX";

/* the file exists, is not tiny, and starts like a PNG or an SVG document */
static int picture_ok(const char *path, dcsim_plot_format fmt) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  char head[256] = { 0 };
  size_t n = fread(head, 1, sizeof head - 1, f);
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fclose(f);
  unlink(path);
  if (size < 2000) return 0;
  if (fmt == DCSIM_PLOT_PNG) return n >= 8 && memcmp(head, "\x89PNG\r\n\x1a\n", 8) == 0;
  return strstr(head, "<svg") != NULL || strstr(head, "<?xml") != NULL;
}

static void both(const char *name,
                 int (*draw)(const void *ctx, const char *out, dcsim_plot_format fmt,
                             dcsim_error *err),
                 const void *ctx) {
  for (int k = 0; k < 2; k++) {
    char out[256];
    dcsim_plot_format fmt = k ? DCSIM_PLOT_SVG : DCSIM_PLOT_PNG;
    snprintf(out, sizeof out, "%s/%s.%s", dir, name, k ? "svg" : "png");
    dcsim_error err;
    int rc = draw(ctx, out, fmt, &err);
    if (rc) fprintf(stderr, "%s: %s\n", out, err.msg);
    CHECK_INT(rc, 0);
    int ok = picture_ok(out, fmt);
    if (!ok) fprintf(stderr, "%s: not a proper picture\n", out);
    CHECK(ok);
  }
}

typedef struct pts {
  dcsim_sweep_point *p;
  size_t n;
} pts;
static int draw_pareto(const void *c, const char *out, dcsim_plot_format fmt, dcsim_error *err) {
  const pts *p = c;
  return dcsim_plot_pareto(p->p, p->n, "test", "dcsim test caption", out, fmt, NULL, err);
}
static int draw_heat(const void *c, const char *out, dcsim_plot_format fmt, dcsim_error *err) {
  const pts *p = c;
  return dcsim_plot_heatmap(p->p, p->n, 1, "test", "dcsim test caption", out, fmt, NULL, err);
}
static int draw_roof(const void *c, const char *out, dcsim_plot_format fmt, dcsim_error *err) {
  return dcsim_plot_roofline(c, 1, NULL, out, fmt, NULL, err);
}
static int draw_gantt(const void *c, const char *out, dcsim_plot_format fmt, dcsim_error *err) {
  return dcsim_plot_gantt(c, NULL, out, fmt, NULL, err);
}
static int draw_power(const void *c, const char *out, dcsim_plot_format fmt, dcsim_error *err) {
  return dcsim_plot_power(c, NULL, out, fmt, NULL, err);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  dcsim_error err;
  /* 25 series get 25 distinct colours (the palette has 10) */
  {
    char cols[25][8], buf[8];
    int same = 0;
    for (size_t i = 0; i < 25; i++) snprintf(cols[i], 8, "%s", dcsim__plot_color_n(i, 25, buf));
    for (size_t i = 0; i < 25; i++)
      for (size_t j = 0; j < i; j++) same += strcmp(cols[i], cols[j]) == 0;
    CHECK_INT(same, 0);
    CHECK_INT(strcmp(dcsim__plot_color_n(3, 10, buf), dcsim__plot_color(3)), 0);
  }
  /* a gnuplot that is not there: a clear error, not a crash */
  setenv("DCSIM_GNUPLOT", "/nonexistent/gnuplot", 1);
  char *gp_path = (char *)"untouched";
  CHECK_INT(dcsim_plot_find_gnuplot(&gp_path, &err), DCSIM_EIO);
  CHECK(gp_path == NULL); /* NULL on error */
  CHECK(strstr(err.msg, "gnuplot") != NULL);
  /* a $DCSIM_GNUPLOT longer than the 1024 bytes it was once copied into:
   * "/bin/./././.../sh", 2807 characters, an executable, comes back whole */
  char long_gp[2808] = "/bin";
  for (int i = 0; i < 1400; i++) strcat(long_gp, "/.");
  strcat(long_gp, "/sh");
  setenv("DCSIM_GNUPLOT", long_gp, 1);
  CHECK_INT(dcsim_plot_find_gnuplot(&gp_path, &err), 0);
  CHECK_INT(gp_path && strcmp(gp_path, long_gp) == 0, 1);
  free(gp_path);
  unsetenv("DCSIM_GNUPLOT");
  dcsim_plot_format fmt;
  CHECK_INT(dcsim_plot_format_of("a/b.svg", NULL, &fmt, &err), 0);
  CHECK_INT(fmt, DCSIM_PLOT_SVG);
  CHECK_INT(dcsim_plot_format_of("a/b.pdf", NULL, &fmt, &err), DCSIM_EUSAGE);
  if (dcsim_plot_find_gnuplot(NULL, &err)) {
    fprintf(stderr, "SKIPPED the pictures: %s\n", err.msg);
    CHECK_DONE();
  }
  CHECK(mkdtemp(dir) != NULL);

  /* pareto: a small ALARO sweep */
  static const char *const gpus[] = { "geforce-gtx970", "tesla-k20m" };
  static const unsigned nodes[] = { 1, 2, 4, 8 };
  dcsim_sweep_def d = {
    .input = "workflows/alaro.xml", .n_gpus = 2, .gpus = gpus, .n_nodes = 4, .nodes = nodes
  };
  dcsim_sweep_t *sw = NULL;
  CHECK_INT(dcsim_sweep_new(&d, &sw, &err), 0);
  if (sw && dcsim_sweep_run(sw, NULL, &err) == 0) {
    pts p = { dcsim_sweep_points(sw), dcsim_sweep_n_points(sw) };
    both("pareto", draw_pareto, &p);
    /* a TMPDIR longer than the 512 bytes the temporary directory was once built in, and a
     * caption longer than the 1024 bytes it was once cut to: the picture is
     * drawn, and the SVG's <desc> holds the whole caption */
    {
      const char *old_tmp = getenv("TMPDIR");
      char *keep = old_tmp ? strdup(old_tmp) : NULL;
      char tmp[1024], cap[1501], out[256];
      snprintf(tmp, sizeof tmp, "%s", dir);
      for (int i = 0; i < 300; i++) strcat(tmp, "/."); /* 627 bytes, the directory itself */
      for (int i = 0; i < 1497; i++) cap[i] = (char)('a' + i % 26);
      memcpy(cap + 1497, "END", 4);
      snprintf(out, sizeof out, "%s/long.svg", dir);
      setenv("TMPDIR", tmp, 1);
      int rc = dcsim_plot_pareto(p.p, p.n, "test", cap, out, DCSIM_PLOT_SVG, NULL, &err);
      if (keep)
        setenv("TMPDIR", keep, 1);
      else
        unsetenv("TMPDIR");
      free(keep);
      if (rc) fprintf(stderr, "%s: %s\n", out, err.msg);
      CHECK_INT(rc, 0);
      FILE *f = fopen(out, "rb");
      char *text = calloc(1, 1 << 20);
      size_t n = f && text ? fread(text, 1, (1 << 20) - 1, f) : 0;
      if (f) fclose(f);
      CHECK(n > 2000);
      CHECK(text && strstr(text, cap) != NULL);
      free(text);
      unlink(out);
    }
    /* with every point's uncertainty band drawn (dcsim/sweep_bands.h) */
    CHECK_INT(dcsim_sweep_bands_mark_run(sw, &err), 0);
    both("pareto-bands", draw_pareto, &p);
    both("heatmap", draw_heat, &p); /* 2 panels over 4 node counts x 1 core count */
    /* more panels than a heat map draws: refused with the filters to use */
    dcsim_sweep_point many[DCSIM_PLOT_HEAT_MAX_PANELS + 1];
    memset(many, 0, sizeof many);
    for (size_t i = 0; i <= DCSIM_PLOT_HEAT_MAX_PANELS; i++) {
      many[i] = p.p[0];
      many[i].reason = NULL;
      snprintf(many[i].freq, sizeof many[i].freq, "%zu", i + 1);
    }
    CHECK_INT(dcsim_plot_heatmap(many, DCSIM_PLOT_HEAT_MAX_PANELS + 1, 0, NULL, NULL,
                                 "/tmp/never.png", DCSIM_PLOT_PNG, NULL, &err),
              DCSIM_ERANGE);
    CHECK(strstr(err.msg, "--cpu, --gpu, --freq, --gpus, --host-cpu or --threading") != NULL);
  }
  dcsim_sweep_free(sw);

  /* rooflines: a CPU with a dwarf's loops, a GPU with its kernels */
  dcsim_cpu_profile_t *cpu = NULL;
  dcsim_gpu_profile_t *gpu = NULL;
  dcsim_dwarf_t *sh = NULL, *ac = NULL;
  dcsim_dwarf_eval *esh = NULL, *eac = NULL;
  dcsim_roofline *r = NULL;
  CHECK_INT(dcsim_cpu_profile_load("hw-profiles/cpu/xeon-e5-2697v3.xml", &cpu, &err), 0);
  CHECK_INT(dcsim_gpu_profile_load("hw-profiles/gpu/tesla-k20m.xml", &gpu, &err), 0);
  CHECK_INT(dcsim_dwarf_load("dwarfs/spherical-harmonics.xml", &sh, &err), 0);
  CHECK_INT(dcsim_dwarf_load("dwarfs/acraneb2.xml", &ac, &err), 0);
  if (cpu && gpu && sh && ac && dcsim_dwarf_evaluate(sh, "TL159", NULL, 0, &esh, &err) == 0 &&
      dcsim_dwarf_evaluate(ac, "200x200x80", NULL, 0, &eac, &err) == 0) {
    dcsim_cpu_state st = { 2.6, NULL, 4 };
    if (dcsim_roofline_cpu(cpu, &st, esh, "spherical-harmonics TL159", &r, &err) == 0)
      both("roofline-cpu", draw_roof, r);
    dcsim_roofline_free(r);
    r = NULL;
    if (dcsim_roofline_gpu(gpu, eac, "acraneb2 200x200x80", &r, &err) == 0)
      both("roofline-gpu", draw_roof, r);
    dcsim_roofline_free(r);
  }
  dcsim_dwarf_eval_free(esh);
  dcsim_dwarf_eval_free(eac);
  dcsim_dwarf_free(sh);
  dcsim_dwarf_free(ac);
  dcsim_cpu_profile_free(cpu);
  dcsim_gpu_profile_free(gpu);

  /* Gantt and power of a run */
  dcsim_scenario_opts so = { .platform_path = NULL };
  dcsim_scenario *s = NULL;
  CHECK_INT(dcsim_scenario_load("workflows/alaro.xml", &so, &s, &err), 0);
  dcsim_plot_trace_t *t = s ? dcsim_plot_trace_new(s, NULL, &err) : NULL;
  if (t) {
    dcsim_engine_opts eo = { .job_policy = DCSIM_JOB_FCFS, .sink = dcsim_plot_trace_sink(t) };
    dcsim_engine_t *e = dcsim_engine_new(s, &eo, &err);
    CHECK(e && dcsim_engine_run(e, &err) == 0);
    dcsim_engine_free(e);
    both("gantt", draw_gantt, t);
    both("power", draw_power, t);
  }
  dcsim_plot_trace_free(t);
  dcsim_scenario_free(s);
  rmdir(dir);
  CHECK_DONE();
}
