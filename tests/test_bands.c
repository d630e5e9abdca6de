/* test_bands.c — the uncertainty bands of dcsim/bands.h: calibration/bands.csv as validate derives
 * it, their use on a prediction, and bad files. */
#include "dcsim/bands.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

static double width(const dcsim_bands_t *b, dcsim_band_part part, dcsim_prov_kind k) {
  double r[2];
  dcsim_bands_rel(b, part, k, r);
  return r[1] - r[0];
}

/* the shipped bands: a measured (table) value is known better than an extrapolated one, and
 * weaker evidence never has a narrower band (the rule of doc/validation/head.md) */
static void test_shipped(void) {
  dcsim_bands_t *b = NULL;
  dcsim_error e;
  CHECK(dcsim_bands_load("calibration/bands.csv", &b, &e) == 0);
  if (!b) return;
  /* the GPU time: table from the leave-one-size-out inside the GTX 970's fitted sizes, extrapolated
   * from the smallest and largest size, outside the other nine */
  CHECK(width(b, DCSIM_BAND_GPU_TIME, DCSIM_PROV_TABLE) <
        width(b, DCSIM_BAND_GPU_TIME, DCSIM_PROV_EXTRAPOLATED));
  for (int p = 0; p < DCSIM_BAND_PARTS; p++)
    for (int k = 1; k < DCSIM_PROV_N; k++) {
      double s[2], w[2];
      dcsim_bands_rel(b, (dcsim_band_part)p, (dcsim_prov_kind)(k - 1), s);
      dcsim_bands_rel(b, (dcsim_band_part)p, (dcsim_prov_kind)k, w);
      CHECK(w[0] <= s[0] && w[1] >= s[1]);
      CHECK(w[0] <= 0 && w[1] >= 0);
    }
  /* a table GPU time of 11.8637 s (ACRANEB2 on the GTX 970) and its energy of 1079.6 J */
  double tb[2], eb[2], rt[2], rp[2];
  dcsim_bands_apply(b, 0, 1, DCSIM_PROV_TABLE, DCSIM_PROV_TABLE, 11.8637, 1079.6, tb, eb);
  dcsim_bands_rel(b, DCSIM_BAND_GPU_TIME, DCSIM_PROV_TABLE, rt);
  dcsim_bands_rel(b, DCSIM_BAND_POWER, DCSIM_PROV_TABLE, rp);
  CHECK_REL(tb[0], 11.8637 * (1 + rt[0]), 1e-12);
  CHECK_REL(tb[1], 11.8637 * (1 + rt[1]), 1e-12);
  CHECK_REL(eb[0], 1079.6 * (1 + rt[0]) * (1 + rp[0]), 1e-12);
  CHECK_REL(eb[1], 1079.6 * (1 + rt[1]) * (1 + rp[1]), 1e-12);
  CHECK(tb[0] < 11.8637 && 11.8637 < tb[1]);
  /* a workflow on both devices: the union of the CPU's and the GPU's time bands */
  double both[2], cpu[2];
  dcsim_bands_apply(b, 1, 1, DCSIM_PROV_SPEC, DCSIM_PROV_SPEC, 1, 1, both, eb);
  dcsim_bands_rel(b, DCSIM_BAND_CPU_TIME, DCSIM_PROV_SPEC, cpu);
  dcsim_bands_rel(b, DCSIM_BAND_GPU_TIME, DCSIM_PROV_SPEC, rt);
  CHECK_REL(both[0], 1 + (cpu[0] < rt[0] ? cpu[0] : rt[0]), 1e-12);
  CHECK_REL(both[1], 1 + (cpu[1] > rt[1] ? cpu[1] : rt[1]), 1e-12);
  dcsim_bands_free(b);
}

static int load_text(const char *text, dcsim_error *e) {
  char path[] = "/tmp/dcsim_bandsXXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return -100;
  FILE *f = fdopen(fd, "w");
  fputs(text, f);
  fclose(f);
  dcsim_bands_t *b = NULL;
  int rc = dcsim_bands_load(path, &b, e);
  dcsim_bands_free(b);
  unlink(path);
  return rc;
}

/* one bad file per class of error: a missing class, a twice-given one, an unknown part, a band
 * that does not contain the value */
static void test_bad(void) {
  dcsim_error e;
  const char *hdr = "part,class,low,high,rows,source\n";
  char all[4096];
  size_t n = 0;
  static const char *const parts[] = { "cpu-time", "gpu-time", "power" };
  static const char *const cls[] = { "table", "interpolated", "extrapolated", "spec" };
  n += (size_t)snprintf(all + n, sizeof all - n, "%s", hdr);
  for (int p = 0; p < 3; p++)
    for (int k = 0; k < 4; k++)
      n += (size_t)snprintf(all + n, sizeof all - n, "%s,%s,-0.1,0.2,1,x\n", parts[p], cls[k]);
  CHECK(load_text(all, &e) == 0);
  char bad[4200];
  snprintf(bad, sizeof bad, "%s", all);
  bad[strlen(bad) - strlen("power,spec,-0.1,0.2,1,x\n")] = '\0'; /* power spec missing */
  CHECK(load_text(bad, &e) != 0 && strstr(e.msg, "no band for power spec"));
  snprintf(bad, sizeof bad, "%scpu-time,table,-0.1,0.2,1,x\n", all);
  CHECK(load_text(bad, &e) != 0 && strstr(e.msg, "twice"));
  snprintf(bad, sizeof bad, "%sdisk-time,table,-0.1,0.2,1,x\n", all);
  CHECK(load_text(bad, &e) != 0 && strstr(e.msg, "part 'disk-time'"));
  snprintf(bad, sizeof bad, "%s", all);
  char *q = strstr(bad, "cpu-time,table,-0.1,0.2");
  q[15] = '+'; /* low +0.1: the band would not contain the value */
  CHECK(load_text(bad, &e) != 0 && strstr(e.msg, "low must lie in (-1, 0]"));
}

/* A CPU whose rates were carried from another (no measured tables) takes the cpu-time spec band,
 * the band of a model carried to another CPU, even at extrapolated: the Xeon Platinum 8480+,
 * anchored on a close variant's (the 8470's) published figures; the EPYC 9654, whose one-core
 * figures are a Zen 2 sibling's, takes that band twice (doc/models.md "Per-core rates"); the
 * E5-2697 v3 (its own D3.5 tables) keeps the extrapolated band of its leave-out experiments,
 * which is narrower. */
static void test_transferred(void) {
  dcsim_bands_t *b = NULL;
  dcsim_error e;
  CHECK(dcsim_bands_load(DCSIM_SOURCE_DIR "/calibration/bands.csv", &b, &e) == 0);
  if (!b) return;
  dcsim_cpu_profile_t *genoa = NULL, *spr = NULL, *e5 = NULL;
  CHECK(dcsim_cpu_profile_load(DCSIM_SOURCE_DIR "/hw-profiles/cpu/epyc-9654.xml", &genoa, &e) == 0);
  CHECK(dcsim_cpu_profile_load(DCSIM_SOURCE_DIR "/hw-profiles/cpu/xeon-platinum-8480+.xml", &spr,
                               &e) == 0);
  CHECK(dcsim_cpu_profile_load(DCSIM_SOURCE_DIR "/hw-profiles/cpu/xeon-e5-2697v3.xml", &e5, &e) ==
        0);
  if (!genoa || !spr || !e5) goto out;
  CHECK(dcsim_bands_cpu_transferred(genoa) == 2);
  CHECK(dcsim_bands_cpu_transferred(spr) == 1);
  CHECK(dcsim_bands_cpu_transferred(e5) == 0);
  double own[2], moved[2], borrowed[2], ext[2], spec[2];
  dcsim_bands_apply(b, 1 + dcsim_bands_cpu_transferred(e5), 0, DCSIM_PROV_EXTRAPOLATED,
                    DCSIM_PROV_SPEC, 1, 1, own, NULL);
  dcsim_bands_apply(b, 1 + dcsim_bands_cpu_transferred(spr), 0, DCSIM_PROV_EXTRAPOLATED,
                    DCSIM_PROV_SPEC, 1, 1, moved, NULL);
  dcsim_bands_apply(b, 1 + dcsim_bands_cpu_transferred(genoa), 0, DCSIM_PROV_EXTRAPOLATED,
                    DCSIM_PROV_SPEC, 1, 1, borrowed, NULL);
  dcsim_bands_rel(b, DCSIM_BAND_CPU_TIME, DCSIM_PROV_EXTRAPOLATED, ext);
  dcsim_bands_rel(b, DCSIM_BAND_CPU_TIME, DCSIM_PROV_SPEC, spec);
  CHECK_REL(own[0], 1 + ext[0], 1e-12);
  CHECK_REL(own[1], 1 + ext[1], 1e-12);
  CHECK_REL(moved[0], 1 + spec[0], 1e-12);
  CHECK_REL(moved[1], 1 + spec[1], 1e-12);
  CHECK_REL(borrowed[0], (1 + spec[0]) * (1 + spec[0]), 1e-12);
  CHECK_REL(borrowed[1], (1 + spec[1]) * (1 + spec[1]), 1e-12);
  CHECK(moved[0] < own[0] && moved[1] > own[1]);
  CHECK(borrowed[0] < moved[0] && borrowed[1] > moved[1]);
out:
  dcsim_cpu_profile_free(genoa);
  dcsim_cpu_profile_free(spr);
  dcsim_cpu_profile_free(e5);
  dcsim_bands_free(b);
}

/* A range the time band must reach (a thread law continued): each end with the class
 * band's relative width, the energy band stretched by the same factors; none leaves both alone. */
static void test_cover(void) {
  const double t = 2.385, e = 97.1;
  double tb[2] = { t * 0.9, t * 1.2 }, eb[2] = { e * 0.8, e * 1.5 };
  const double none[2] = { 0, 0 };
  dcsim_bands_cover(t, none, tb, eb);
  CHECK_REL(tb[0], t * 0.9, 0);
  CHECK_REL(eb[1], e * 1.5, 0);
  const double cover[2] = { t, 3 * t };
  dcsim_bands_cover(t, cover, tb, eb);
  CHECK_REL(tb[0], t * 0.9, 1e-15);
  CHECK_REL(tb[1], 3 * t * 1.2, 1e-15);
  CHECK_REL(eb[0], e * 0.8, 1e-15);
  CHECK_REL(eb[1], e * 1.5 * 3, 1e-15);
  double tb2[2] = { t * 0.9, t * 1.2 }; /* no energy band */
  dcsim_bands_cover(t, cover, tb2, NULL);
  CHECK_REL(tb2[1], 3 * t * 1.2, 1e-15);
}

int main(void) {
  test_cover();
  test_shipped();
  test_bad();
  test_transferred();
  CHECK_DONE();
}
