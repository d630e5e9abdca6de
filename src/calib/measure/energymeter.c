/* energymeter.c — RAPL through powercap, GPU power through nvidia-smi (see dcsim/energymeter.h). */
#include "dcsim/energymeter.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/strutil.h"

typedef struct zone {
  char *name; /* malloc'd */
  char *path; /* .../energy_uj, malloc'd */
  dcsim_rapl_domain domain;
  uint64_t max_uj;
} zone;

struct dcsim_rapl {
  size_t n;
  zone z[32];
};

static int read_text(const char *path, char *buf, size_t size, int *eno) {
  FILE *f = fopen(path, "r");
  if (!f) {
    *eno = errno;
    return -1;
  }
  int ok = fgets(buf, (int)size, f) != NULL;
  if (!ok) *eno = ferror(f) ? errno : EINVAL;
  fclose(f);
  if (!ok) return -1;
  buf[strcspn(buf, "\n")] = '\0';
  return 0;
}

static int cmp_zone(const void *a, const void *b) {
  return strcmp(((const zone *)a)->path, ((const zone *)b)->path);
}

void dcsim_rapl_close(dcsim_rapl_t *r) {
  if (!r) return;
  for (size_t i = 0; i < r->n; i++) {
    free(r->z[i].name);
    free(r->z[i].path);
  }
  free(r);
}

int dcsim_rapl_open(const char *dir, dcsim_rapl_t **out, dcsim_error *err) {
  DIR *d = opendir(dir);
  if (!d)
    return DCSIM_ERR(err, DCSIM_EIO, dir, 0, "no RAPL: the powercap interface is absent (%s)",
                     strerror(errno));
  dcsim_rapl_t *r = calloc(1, sizeof *r);
  if (!r) {
    closedir(d);
    return DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  }
  int rc = 0, denied = 0;
  struct dirent *e;
  while ((e = readdir(d)) && r->n < 32) {
    if (strncmp(e->d_name, "intel-rapl:", 11) != 0)
      continue;           /* AMD's RAPL uses this driver name too */
    char name[64], v[64]; /* a zone's name ("package-0", "dram") and a counter */
    int eno = 0;
    char *p = dcsim_strdup_printf("%s/%s/name", dir, e->d_name);
    int unread = !p || read_text(p, name, sizeof name, &eno) != 0;
    free(p);
    if (unread) continue;
    dcsim_rapl_domain dom;
    if (strncmp(name, "package-", 8) == 0)
      dom = DCSIM_RAPL_PKG;
    else if (strcmp(name, "dram") == 0)
      dom = DCSIM_RAPL_DRAM;
    else
      continue; /* core, uncore, psys: not used (D3.5 §5.2: PKG and DRAM only) */
    zone *z = &r->z[r->n];
    z->domain = dom;
    z->name = dcsim_strdup(name);
    z->path = dcsim_strdup_printf("%s/%s/energy_uj", dir, e->d_name);
    p = dcsim_strdup_printf("%s/%s/max_energy_range_uj", dir, e->d_name);
    if (!z->name || !z->path || !p) {
      free(p);
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
      break;
    }
    int ok = read_text(p, v, sizeof v, &eno) == 0;
    free(p);
    if (ok) z->max_uj = strtoull(v, NULL, 10);
    if (ok && (ok = read_text(z->path, v, sizeof v, &eno) == 0)) {
      r->n++;
      continue;
    }
    if (eno == EACCES || eno == EPERM) denied = 1;
    free(z->name);
    free(z->path);
    z->name = z->path = NULL;
  }
  closedir(d);
  if (rc) { /* out of memory: the zone being read is not counted in r->n */
    free(r->z[r->n].name);
    free(r->z[r->n].path);
    dcsim_rapl_close(r);
    return rc;
  }
  if (r->n == 0) {
    rc = denied ? DCSIM_ERR(err, DCSIM_EIO, dir, 0,
                            "RAPL zones present but energy_uj is not readable: permission denied "
                            "(root only since Linux 5.10; run as root or chmod the files)")
                : DCSIM_ERR(
                      err, DCSIM_EIO, dir, 0,
                      "no RAPL: no intel-rapl package or dram zone under the powercap interface");
    free(r);
    return rc;
  }
  qsort(r->z, r->n, sizeof r->z[0], cmp_zone);
  *out = r;
  return 0;
}

size_t dcsim_rapl_n_zones(const dcsim_rapl_t *r) { return r->n; }
const char *dcsim_rapl_zone_name(const dcsim_rapl_t *r, size_t i) { return r->z[i].name; }
dcsim_rapl_domain dcsim_rapl_zone_domain(const dcsim_rapl_t *r, size_t i) { return r->z[i].domain; }

int dcsim_rapl_read(const dcsim_rapl_t *r, uint64_t *uj, dcsim_error *err) {
  for (size_t i = 0; i < r->n; i++) {
    char v[64];
    int eno = 0;
    if (read_text(r->z[i].path, v, sizeof v, &eno) != 0)
      return DCSIM_ERR(err, DCSIM_EIO, r->z[i].path, 0, "cannot read: %s", strerror(eno));
    uj[i] = strtoull(v, NULL, 10);
  }
  return 0;
}

double dcsim_rapl_delta_j(const dcsim_rapl_t *r, size_t i, uint64_t before, uint64_t after) {
  uint64_t d =
      after >= before ? after - before : r->z[i].max_uj - before + after; /* one wraparound */
  return (double)d * 1e-6;
}

double dcsim_rapl_domain_j(const dcsim_rapl_t *r, dcsim_rapl_domain dom, const uint64_t *b,
                           const uint64_t *a) {
  double j = 0;
  for (size_t i = 0; i < r->n; i++)
    if (r->z[i].domain == dom) j += dcsim_rapl_delta_j(r, i, b[i], a[i]);
  return j;
}

static double num_or_nan(const char *s) {
  while (*s == ' ') s++;
  char *end;
  double v = strtod(s, &end);
  return end == s ? NAN : v;
}

int dcsim_nvsmi_parse(const char *text, dcsim_gpu_power *out, size_t max, dcsim_error *err) {
  size_t n = 0;
  int line = 0;
  for (const char *p = text; *p && n < max;) {
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    char buf[512];
    line++;
    if (len >= sizeof buf) len = sizeof buf - 1;
    memcpy(buf, p, len);
    buf[len] = '\0';
    p = eol ? eol + 1 : p + len;
    if (!*buf) continue;
    char *f[5];
    size_t k = 0;
    for (char *s = buf, *save = NULL, *tok = strtok_r(s, ",", &save); tok && k < 5;
         tok = strtok_r(NULL, ",", &save))
      f[k++] = tok;
    if (k != 5)
      return DCSIM_ERR(err, DCSIM_EPARSE, "nvidia-smi output", line,
                       "expected 5 fields (index, name, power.draw, power.limit, clocks.sm)");
    dcsim_gpu_power *g = &out[n++];
    g->index = (unsigned)strtoul(f[0], NULL, 10);
    char *nm = f[1];
    while (*nm == ' ') nm++;
    snprintf(g->name, sizeof g->name, "%s", nm);
    g->power_w = num_or_nan(f[2]);
    g->limit_w = num_or_nan(f[3]);
    g->sm_clock_mhz = num_or_nan(f[4]);
  }
  return (int)n;
}

int dcsim_nvsmi_query(dcsim_gpu_power *out, size_t max, size_t *n, dcsim_error *err) {
  FILE *p = popen(
      "nvidia-smi --query-gpu=index,name,power.draw,power.limit,clocks.sm "
      "--format=csv,noheader,nounits 2>/dev/null",
      "r");
  if (!p) return DCSIM_ERR(err, DCSIM_EIO, "nvidia-smi", 0, "cannot run nvidia-smi");
  char text[8192];
  size_t len = fread(text, 1, sizeof text - 1, p);
  text[len] = '\0';
  int st = pclose(p);
  if (st != 0 || len == 0)
    return DCSIM_ERR(err, DCSIM_EIO, "nvidia-smi", 0,
                     "no NVIDIA GPU power: nvidia-smi is absent or found no GPU");
  int k = dcsim_nvsmi_parse(text, out, max, err);
  if (k < 0) return k;
  *n = (size_t)k;
  return 0;
}
