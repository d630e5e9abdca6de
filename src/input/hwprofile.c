/* hwprofile.c — loading CPU profiles and looking up table states, and what CPU and GPU profile
 * loading share (see dcsim/hwprofile.h; GPU profiles are in hwprofile_gpu.c). */
#include "dcsim/hwprofile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/catalog.h"
#include "dcsim/hwprofile_power.h"
#include "dcsim/strutil.h"
#include "input/internal.h"
#include "util/xmlio.h"

enum { Q_FLOPS, Q_L1, Q_L2, Q_L3, Q_DRAM, Q_COUNT };
static const char *const quantity_names[Q_COUNT] = { "flops", "L1", "L2", "L3", "DRAM" };

typedef struct freq_col {
  char *id;
  char *label; /* NULL for plain frequencies */
  double ghz;
} freq_col;

typedef struct table {
  int present;
  int line;
  size_t n_cols;
  size_t *col; /* index into profile freqs, per column */
  size_t n_rows;
  unsigned *threads; /* ascending */
  double *v;         /* n_rows x n_cols, SI units */
  char *source;      /* its source= (dcsim/provenance.h) */
} table;

typedef struct energy_row {
  unsigned cores;
  double pkg_w, dram_w;
} energy_row;

/* One <energy> table: RAPL power per active core count at one frequency state. */
typedef struct energy_table {
  size_t freq;        /* index into freqs */
  int same_all_freqs; /* other-frequencies="same" */
  int borrowed;       /* borrowed-from another processor (D3.5 §6.1.2) */
  double pkg_idle_w, dram_idle_w;
  size_t n_rows;
  energy_row *rows; /* ascending cores */
  int line;
  char *source; /* its source= (dcsim/provenance.h) */
} energy_table;

struct dcsim_cpu_profile {
  char *path, *name, *model;
  unsigned cores_per_socket, sockets;
  double nominal_ghz;
  dcsim_cpu_caches caches; /* <spec l1-byte l2-byte l3-byte>, 0 when not given */
  size_t n_freqs;
  freq_col *freqs;
  table tables[Q_COUNT];
  int has_energy;
  size_t n_levels;
  dcsim_cache_level levels[Q_COUNT - 1]; /* names point into quantity_names */
  double socket_link_bps;                /* <socket-link>, 0 if absent */
  size_t n_ceilings;
  dcsim_profile_ceiling ceilings[DCSIM_MAX_CEILINGS];
  size_t n_etabs;
  energy_table *etabs; /* one per <energy>, in document order; frequencies distinct */
  dcsim_cpu_datasheet ds;
  char *ds_isa_src, *ds_mem_src, *ds_meas_src[Q_COUNT];
  int has_perf;
  dcsim_cpu_perf_model pm;
  char *pm_src, *pm_level_src[Q_COUNT];
  dcsim_cpu_power_model power; /* <power-spec>, <power-model> (dcsim/hwprofile_power.h) */
  dcsim__price price;          /* <price> */
};

void dcsim_cpu_profile_free(dcsim_cpu_profile_t *p) {
  if (!p) return;
  for (size_t i = 0; i < p->n_freqs; i++) {
    free(p->freqs[i].id);
    free(p->freqs[i].label);
  }
  free(p->freqs);
  for (int q = 0; q < Q_COUNT; q++) {
    free(p->tables[q].col);
    free(p->tables[q].threads);
    free(p->tables[q].v);
    free(p->tables[q].source);
  }
  for (size_t i = 0; i < p->n_etabs; i++) {
    free(p->etabs[i].rows);
    free(p->etabs[i].source);
  }
  free(p->etabs);
  free(p->ds_isa_src);
  free(p->ds_mem_src);
  for (int q = 0; q < Q_COUNT; q++) free(p->ds_meas_src[q]);
  free(p->pm_src);
  for (int q = 0; q < Q_COUNT; q++) free(p->pm_level_src[q]);
  dcsim_cpu_power_model_release(&p->power);
  dcsim__price_release(&p->price);
  free(p->path);
  free(p->name);
  free(p->model);
  free(p);
}

static int find_freq_id(const dcsim_cpu_profile_t *p, const char *id, size_t *out) {
  for (size_t i = 0; i < p->n_freqs; i++)
    if (strcmp(p->freqs[i].id, id) == 0) {
      *out = i;
      return 0;
    }
  return -1;
}

static int load_table(dcsim_cpu_profile_t *p, const dcsim_xml_doc_t *doc, xmlNode *tn,
                      dcsim_error *err) {
  const char *qty = NULL, *unit = NULL, *freqs = NULL;
  int rc;
  if ((rc = dcsim__xml_str(doc, tn, "quantity", 1, &qty, err))) return rc;
  if ((rc = dcsim__xml_str(doc, tn, "unit", 1, &unit, err))) return rc;
  if ((rc = dcsim__xml_str(doc, tn, "freqs", 1, &freqs, err))) return rc;
  int q = dcsim_cpu_qty_parse(qty);
  if (q < 0)
    return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, tn, "<table>: unknown quantity '%s'", qty);
  table *t = &p->tables[q];
  if (t->present)
    return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, tn, "<table quantity=\"%s\">: given twice", qty);
  int is_flops = (q == Q_FLOPS);
  double scale;
  if (strcmp(unit, "flop/s") == 0 && is_flops)
    scale = 1;
  else if (strcmp(unit, "GFLOP/s") == 0 && is_flops)
    scale = 1e9;
  else if (strcmp(unit, "B/s") == 0 && !is_flops)
    scale = 1;
  else if (strcmp(unit, "GB/s") == 0 && !is_flops)
    scale = 1e9;
  else
    return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, tn,
                         "<table quantity=\"%s\">: unit '%s' does not fit the quantity", qty, unit);
  t->present = 1;
  t->line = (int)xmlGetLineNo(tn);
  const char *src = NULL;
  if ((rc = dcsim__xml_str(doc, tn, "source", 1, &src, err))) return rc;
  if (!(t->source = dcsim_strdup(src)))
    return DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, tn, "out of memory");
  /* columns */
  char *list = dcsim_strdup(freqs);
  if (!list) return DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, tn, "out of memory");
  size_t cap = 0;
  char *save = NULL;
  rc = 0;
  for (char *tok = strtok_r(list, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
    size_t idx;
    if (find_freq_id(p, tok, &idx) != 0) {
      rc = DCSIM_XML_ERR(
          err, DCSIM_EREF, doc, tn,
          "<table quantity=\"%s\">: unknown frequency id '%s' (not in <frequencies>)", qty, tok);
      break;
    }
    for (size_t j = 0; j < t->n_cols; j++)
      if (t->col[j] == idx) {
        rc = DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, tn,
                           "<table quantity=\"%s\">: frequency '%s' listed twice", qty, tok);
        break;
      }
    if (rc) break;
    if (DCSIM_GROW(t->col, cap, t->n_cols + 1)) {
      rc = DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, tn, "out of memory");
      break;
    }
    t->col[t->n_cols++] = idx;
  }
  free(list);
  if (rc) return rc;
  size_t nr = dcsim__xml_count(tn, "row");
  t->threads = calloc(nr ? nr : 1, sizeof *t->threads);
  t->v = calloc((nr ? nr : 1) * (t->n_cols ? t->n_cols : 1), sizeof *t->v);
  if (!t->threads || !t->v) return DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, tn, "out of memory");
  for (xmlNode *r = dcsim__xml_child(tn, "row"); r; r = dcsim__xml_next(r, "row")) {
    unsigned th = 0;
    if ((rc = dcsim__xml_u32(doc, r, "threads", 1, &th, err))) return rc;
    if (th == 0) return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, r, "<row>: threads must be >= 1");
    if (t->n_rows && th <= t->threads[t->n_rows - 1])
      return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, r,
                           "<row threads=\"%u\">: rows must be in increasing thread order", th);
    double *vals = NULL;
    size_t n = 0;
    if ((rc = dcsim__xml_numbers(doc, r, &vals, &n, err))) return rc;
    if (n != t->n_cols) {
      free(vals);
      return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, r,
                           "<row threads=\"%u\">: %zu values for %zu frequencies", th, n,
                           t->n_cols);
    }
    for (size_t j = 0; j < n; j++) {
      if (!(vals[j] > 0)) {
        free(vals);
        return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, r,
                             "<row threads=\"%u\">: value %zu must be positive", th, j + 1);
      }
      t->v[t->n_rows * t->n_cols + j] = vals[j] * scale;
    }
    free(vals);
    t->threads[t->n_rows++] = th;
  }
  return 0;
}

static int load_energy(dcsim_cpu_profile_t *p, const dcsim_xml_doc_t *doc, xmlNode *en,
                       energy_table *t, dcsim_error *err) {
  const char *fid = NULL, *other = NULL;
  int rc;
  if ((rc = dcsim__xml_str(doc, en, "freq", 1, &fid, err))) return rc;
  if ((rc = dcsim__xml_str(doc, en, "other-frequencies", 1, &other, err))) return rc;
  if (find_freq_id(p, fid, &t->freq) != 0)
    return DCSIM_XML_ERR(err, DCSIM_EREF, doc, en, "<energy freq=\"%s\">: unknown frequency id",
                         fid);
  for (size_t i = 0; &p->etabs[i] != t; i++)
    if (p->etabs[i].freq == t->freq)
      return DCSIM_XML_ERR(
          err, DCSIM_ESCHEMA, doc, en,
          "<energy freq=\"%s\">: a table for this frequency is given twice (line %d)", fid,
          p->etabs[i].line);
  t->same_all_freqs = strcmp(other, "same") == 0;
  t->borrowed = dcsim__xml_attr(doc, en, "borrowed-from") != NULL;
  t->line = (int)xmlGetLineNo(en);
  const char *src = NULL;
  if ((rc = dcsim__xml_str(doc, en, "source", 1, &src, err))) return rc;
  if (!(t->source = dcsim_strdup(src)))
    return DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, en, "out of memory");
  xmlNode *idle = dcsim__xml_child(en, "idle");
  if ((rc = dcsim__xml_double(doc, idle, "pkg-w", 1, &t->pkg_idle_w, err))) return rc;
  if ((rc = dcsim__xml_double(doc, idle, "dram-w", 1, &t->dram_idle_w, err))) return rc;
  if (!(t->pkg_idle_w >= 0 && t->pkg_idle_w <= DCSIM_POWER_MAX_W && t->dram_idle_w >= 0 &&
        t->dram_idle_w <= DCSIM_POWER_MAX_W))
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, idle, "<idle>: pkg-w and dram-w are 0 to %g W",
                         DCSIM_POWER_MAX_W);
  size_t n = dcsim__xml_count(en, "state");
  t->rows = calloc(n ? n : 1, sizeof *t->rows);
  if (!t->rows) return DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, en, "out of memory");
  for (xmlNode *s = dcsim__xml_child(en, "state"); s; s = dcsim__xml_next(s, "state")) {
    energy_row *r = &t->rows[t->n_rows];
    if ((rc = dcsim__xml_u32(doc, s, "cores", 1, &r->cores, err))) return rc;
    if ((rc = dcsim__xml_double(doc, s, "pkg-w", 1, &r->pkg_w, err))) return rc;
    if ((rc = dcsim__xml_double(doc, s, "dram-w", 1, &r->dram_w, err))) return rc;
    if (r->cores == 0)
      return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, s, "<state>: cores must be >= 1");
    if (!(r->pkg_w >= 0 && r->pkg_w <= DCSIM_POWER_MAX_W && r->dram_w >= 0 &&
          r->dram_w <= DCSIM_POWER_MAX_W))
      return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, s, "<state>: pkg-w and dram-w are 0 to %g W",
                           DCSIM_POWER_MAX_W);
    if (t->n_rows && r->cores <= t->rows[t->n_rows - 1].cores)
      return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, s,
                           "<state cores=\"%u\">: states must be in increasing core order",
                           r->cores);
    t->n_rows++;
  }
  p->has_energy = 1;
  return 0;
}

int dcsim__profile_level_sizes(const dcsim_xml_doc_t *doc, xmlNode *l, const char *name,
                               dcsim_cache_level *cl, dcsim_error *err) {
  int rc;
  cl->line = (int)xmlGetLineNo(l);
  if ((rc = dcsim__xml_double(doc, l, "above-byte", 1, &cl->above_byte, err)) ||
      (rc = dcsim__xml_double(doc, l, "line-byte", 1, &cl->line_byte, err)))
    return rc;
  if (!(cl->line_byte > 0))
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, l,
                         "<level name=\"%s\">: line-byte must be positive", name);
  return 0;
}

/* <cache-hierarchy>: each level names a bandwidth table of the profile, once. */
static int load_cache_levels(dcsim_cpu_profile_t *p, const dcsim_xml_doc_t *doc, xmlNode *ch,
                             dcsim_error *err) {
  int rc;
  for (xmlNode *l = dcsim__xml_child(ch, "level"); l; l = dcsim__xml_next(l, "level")) {
    const char *name = NULL;
    if ((rc = dcsim__xml_str(doc, l, "name", 1, &name, err))) return rc;
    int q = dcsim_cpu_qty_parse(name);
    if (q < Q_L1 || p->n_levels >= Q_COUNT - 1)
      return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, l, "<level name=\"%s\">: not a memory level",
                           name);
    for (size_t i = 0; i < p->n_levels; i++)
      if (strcmp(p->levels[i].name, quantity_names[q]) == 0)
        return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, l, "<level name=\"%s\">: given twice", name);
    if (!p->tables[q].present)
      return DCSIM_XML_ERR(err, DCSIM_EREF, doc, l,
                           "<level name=\"%s\">: the profile has no %s bandwidth table", name,
                           name);
    dcsim_cache_level *cl = &p->levels[p->n_levels];
    cl->name = quantity_names[q];
    if ((rc = dcsim__profile_level_sizes(doc, l, name, cl, err))) return rc;
    const char *shared = NULL;
    if ((rc = dcsim__xml_str(doc, l, "above-shared", 0, &shared, err))) return rc;
    cl->above_shared = shared != NULL; /* the schema allows "socket" only */
    p->n_levels++;
  }
  return 0;
}

/* <ceilings>: compute ceilings in GFLOP/s, memory ceilings in GB/s (CACM 2009) */
static int load_ceilings(dcsim_cpu_profile_t *p, const dcsim_xml_doc_t *doc, xmlNode *cs,
                         dcsim_error *err) {
  int rc;
  for (xmlNode *c = dcsim__xml_child(cs, "ceiling"); c; c = dcsim__xml_next(c, "ceiling")) {
    dcsim_profile_ceiling *pc = &p->ceilings[p->n_ceilings];
    const char *kind = NULL, *name = NULL;
    if (p->n_ceilings == DCSIM_MAX_CEILINGS)
      return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, c, "more than %d <ceiling>s",
                           DCSIM_MAX_CEILINGS);
    if ((rc = dcsim__xml_str(doc, c, "kind", 1, &kind, err)) ||
        (rc = dcsim__xml_str(doc, c, "name", 1, &name, err)) ||
        (rc = dcsim__xml_double(doc, c, "value", 1, &pc->value, err)))
      return rc;
    if (!(pc->value > 0))
      return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, c,
                           "<ceiling name=\"%s\">: value must be positive", name);
    pc->memory = strcmp(kind, "memory") == 0;
    pc->value *= 1e9; /* GFLOP/s or GB/s */
    snprintf(pc->name, sizeof pc->name, "%s", name);
    p->n_ceilings++;
  }
  return 0;
}

/* a source= attribute copied (required) */
int dcsim__profile_dup_source(const dcsim_xml_doc_t *doc, xmlNode *n, char **out,
                              dcsim_error *err) {
  const char *src = NULL;
  int rc = dcsim__xml_str(doc, n, "source", 1, &src, err);
  if (rc) return rc;
  if (!(*out = dcsim_strdup(src))) return DCSIM_XML_ERR(err, DCSIM_ENOMEM, doc, n, "out of memory");
  return 0;
}

/* <datasheet>: <isa flop-per-cycle> and <memory peak-bps [sustained-bps]>, each positive. */
static int load_datasheet(dcsim_cpu_profile_t *p, const dcsim_xml_doc_t *doc, xmlNode *dn,
                          dcsim_error *err) {
  int rc;
  xmlNode *isa = dcsim__xml_child(dn, "isa"), *mem = dcsim__xml_child(dn, "memory");
  if (isa) {
    if ((rc = dcsim__xml_double(doc, isa, "flop-per-cycle", 1, &p->ds.isa_flop_per_cycle, err)))
      return rc;
    if (!(p->ds.isa_flop_per_cycle > 0))
      return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, isa, "<isa>: flop-per-cycle must be positive");
    if ((rc = dcsim__profile_dup_source(doc, isa, &p->ds_isa_src, err))) return rc;
    p->ds.isa_source = p->ds_isa_src;
  }
  if (mem) {
    if ((rc = dcsim__xml_double(doc, mem, "peak-bps", 1, &p->ds.mem_peak_bps, err)) ||
        (rc = dcsim__xml_double(doc, mem, "sustained-bps", 0, &p->ds.mem_sustained_bps, err)))
      return rc;
    if (!(p->ds.mem_peak_bps > 0))
      return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, mem, "<memory>: peak-bps must be positive");
    if ((rc = dcsim__profile_dup_source(doc, mem, &p->ds_mem_src, err))) return rc;
    p->ds.mem_source = p->ds_mem_src;
  }
  /* <measured level=...>: published bandwidths the model was anchored on (dcsim_cpu_measured_bw) */
  for (xmlNode *m = dcsim__xml_child(dn, "measured"); m; m = dcsim__xml_next(m, "measured")) {
    int q;
    if ((rc = dcsim__cpu_measured_parse(doc, m, p->ds.measured, &q, err)) ||
        (rc = dcsim__profile_dup_source(doc, m, &p->ds_meas_src[q], err)))
      return rc;
    p->ds.measured[q].source = p->ds_meas_src[q]; /* owned by the profile, not the document */
  }
  return 0;
}

int dcsim__cpu_measured_parse(const dcsim_xml_doc_t *doc, xmlNode *m,
                              dcsim_cpu_measured_bw measured[Q_COUNT], int *q_out,
                              dcsim_error *err) {
  const char *lv = dcsim__xml_attr(doc, m, "level");
  int q = dcsim_cpu_qty_parse(lv), rc;
  if (q < Q_L1 || measured[q].one_core_bps > 0)
    return DCSIM_XML_ERR(
        err, DCSIM_EPARSE, doc, m, "<measured level=\"%s\">: %s", lv ? lv : "",
        q < 0 ? "level must be L1, L2, L3 or DRAM" : "a second one for this level");
  dcsim_cpu_measured_bw *b = &measured[q];
  if ((rc = dcsim__xml_double(doc, m, "one-core-bps", 1, &b->one_core_bps, err)) ||
      (rc = dcsim__xml_double(doc, m, "ghz", 1, &b->ghz, err)) ||
      (rc = dcsim__xml_double(doc, m, "socket-bps", 0, &b->socket_bps, err)) ||
      (rc = dcsim__xml_u32(doc, m, "socket-cores", 0, &b->socket_cores, err)))
    return rc;
  if (!(b->one_core_bps > 0) || !(b->ghz > 0) || (b->socket_bps > 0) != (b->socket_cores >= 1))
    return DCSIM_XML_ERR(err, DCSIM_EPARSE, doc, m,
                         "<measured level=\"%s\">: one-core-bps and ghz must be > 0, and "
                         "socket-bps and socket-cores given together",
                         lv);
  /* basis: whose measurement it is (doc/models.md "Per-core rates"); required, never guessed */
  const char *bs = dcsim__xml_attr(doc, m, "basis");
  int basis = -1;
  for (int i = DCSIM_RATES_OWN; i <= DCSIM_RATES_ESTIMATE; i++)
    if (bs && strcmp(bs, dcsim_rates_basis_name((dcsim_rates_basis)i)) == 0) basis = i;
  if (basis < 0)
    return DCSIM_XML_ERR(err, DCSIM_EPARSE, doc, m,
                         "<measured level=\"%s\">: basis \"%s\" must be own, variant, sibling or "
                         "estimate (whose measurement it is)",
                         lv, bs ? bs : "");
  b->basis = (dcsim_rates_basis)basis;
  b->source = dcsim__xml_attr(doc, m, "source");
  *q_out = q;
  return 0;
}

const dcsim_profile_ceiling *dcsim_cpu_profile_ceilings(const dcsim_cpu_profile_t *p, size_t *n) {
  *n = p->n_ceilings;
  return p->n_ceilings ? p->ceilings : NULL;
}

/* <socket-link bw-bps>: the link between sockets (FV §8) */
static int load_socket_link(dcsim_cpu_profile_t *p, const dcsim_xml_doc_t *doc, xmlNode *sl,
                            dcsim_error *err) {
  int rc = dcsim__xml_double(doc, sl, "bw-bps", 1, &p->socket_link_bps, err);
  if (!rc && !(p->socket_link_bps > 0))
    rc = DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, sl, "<socket-link bw-bps>: must be positive");
  return rc;
}

/* One <level> of <perf-model>: a rate per cycle > 0, and a saturation given whole or not at all. */
static int load_perf_level(dcsim_cpu_profile_t *p, const dcsim_xml_doc_t *doc, xmlNode *l,
                           dcsim_error *err) {
  const char *name = NULL;
  int rc = dcsim__xml_str(doc, l, "name", 1, &name, err);
  if (rc) return rc;
  int q = dcsim_cpu_qty_parse(name);
  if (q < 0)
    return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, l, "<level name=\"%s\">: unknown quantity", name);
  dcsim_cpu_perf_level *v = &p->pm.q[q];
  if (v->present)
    return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, l, "<level name=\"%s\">: given twice", name);
  v->line = (int)xmlGetLineNo(l);
  if ((rc = dcsim__xml_double(doc, l, "per-cycle", 1, &v->per_cycle, err)) ||
      (rc = dcsim__xml_double(doc, l, "freq-exp", 1, &v->freq_exp, err)))
    return rc;
  if (!(v->per_cycle > 0))
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, l,
                         "<level name=\"%s\">: per-cycle must be positive", name);
  int n_sat = !!dcsim__xml_attr(doc, l, "sat-bps") + !!dcsim__xml_attr(doc, l, "sat-freq-exp") +
              !!dcsim__xml_attr(doc, l, "knee");
  if (n_sat != 0 && n_sat != 3)
    return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, l,
                         "<level name=\"%s\">: a saturation needs sat-bps, sat-freq-exp and knee",
                         name);
  if (n_sat == 3) {
    v->saturates = 1;
    if ((rc = dcsim__xml_double(doc, l, "sat-bps", 1, &v->sat_bps, err)) ||
        (rc = dcsim__xml_double(doc, l, "sat-freq-exp", 1, &v->sat_freq_exp, err)) ||
        (rc = dcsim__xml_double(doc, l, "knee", 1, &v->knee, err)))
      return rc;
    if (!(v->sat_bps > 0) || !(v->knee > 0))
      return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, l,
                           "<level name=\"%s\">: sat-bps and knee must be positive", name);
  }
  if ((rc = dcsim__profile_dup_source(doc, l, &p->pm_level_src[q], err))) return rc;
  v->source = p->pm_level_src[q];
  v->present = 1;
  return 0;
}

/* <perf-model>: placement, levels, turbo bins in increasing core order. */
static int load_perf_model(dcsim_cpu_profile_t *p, const dcsim_xml_doc_t *doc, xmlNode *pn,
                           dcsim_error *err) {
  const char *pl = NULL;
  int rc = dcsim__xml_str(doc, pn, "placement", 1, &pl, err);
  if (rc) return rc;
  p->has_perf = 1;
  p->pm.scatter = strcmp(pl, "scatter") == 0;
  p->pm.line = (int)xmlGetLineNo(pn);
  if ((rc = dcsim__profile_dup_source(doc, pn, &p->pm_src, err))) return rc;
  p->pm.source = p->pm_src;
  for (xmlNode *l = dcsim__xml_child(pn, "level"); l; l = dcsim__xml_next(l, "level"))
    if ((rc = load_perf_level(p, doc, l, err))) return rc;
  for (xmlNode *t = dcsim__xml_child(pn, "turbo"); t; t = dcsim__xml_next(t, "turbo")) {
    if (p->pm.n_turbo == DCSIM_CPU_MAX_TURBO_BINS)
      return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, t, "<turbo>: more than %d bins",
                           DCSIM_CPU_MAX_TURBO_BINS);
    dcsim_cpu_turbo_bin *b = &p->pm.turbo[p->pm.n_turbo];
    if ((rc = dcsim__xml_u32(doc, t, "cores", 1, &b->cores, err)) ||
        (rc = dcsim__xml_double(doc, t, "ghz", 1, &b->ghz, err)))
      return rc;
    if (b->cores == 0 || !(b->ghz > 0) ||
        (p->pm.n_turbo && b->cores <= p->pm.turbo[p->pm.n_turbo - 1].cores))
      return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, t,
                           "<turbo cores=\"%u\">: cores must increase from bin to bin and ghz be "
                           "positive",
                           b->cores);
    p->pm.n_turbo++;
  }
  return 0;
}

/* What the model needs (doc/models.md, "Parametric CPU model"): a profile that gives datasheet
 * figures or a parametric model must cover the peak and the DRAM bandwidth, by a table or a
 * <perf-model> level; a profile with neither tables nor model is an energy-only profile. */
static int check_model_needs(const dcsim_cpu_profile_t *p, const dcsim_xml_doc_t *doc,
                             xmlNode *root, xmlNode *dn, dcsim_error *err) {
  int tables = 0;
  for (int q = 0; q < Q_COUNT; q++) tables |= p->tables[q].present;
  if (!p->has_perf && !dn) return 0;
  if (!p->has_perf && !tables)
    return DCSIM_XML_ERR(err, DCSIM_EREF, doc, dn,
                         "spec-only profile %s: <datasheet> without tables needs a <perf-model> "
                         "(dcsim calibrate cpu derives it, doc/calibration.md)",
                         p->name);
  if (!p->has_perf) return 0;
  static const int needed[] = { Q_FLOPS, Q_DRAM };
  for (size_t i = 0; i < 2; i++) {
    int q = needed[i];
    if (!p->tables[q].present && !p->pm.q[q].present)
      return DCSIM_ERR(err, DCSIM_EREF, p->path, p->pm.line,
                       "<perf-model>: profile %s has neither a %s table nor a <level name=\"%s\">; "
                       "the model needs one",
                       p->name, quantity_names[q], quantity_names[q]);
  }
  (void)root;
  return 0;
}

/* see input/internal.h (dwarf.c uses it too) */
int dcsim__input_open(const char *path, const char *root_name, dcsim_xml_doc_t **doc,
                      char **path_copy, char **name_copy, dcsim_error *err) {
  const char *name = NULL;
  int rc = dcsim__xml_load(path, root_name, doc, err);
  if (rc || (rc = dcsim__xml_str(*doc, dcsim__xml_root(*doc), "name", 1, &name, err))) return rc;
  *path_copy = dcsim_strdup(path);
  *name_copy = dcsim_strdup(name);
  if (!*path_copy || !*name_copy) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  return 0;
}

int dcsim__profile_open(const char *path, const char *root_name, dcsim_xml_doc_t **doc,
                        char **path_copy, char **name_copy, char **model_copy, dcsim_error *err) {
  const char *model = NULL;
  int rc = dcsim__input_open(path, root_name, doc, path_copy, name_copy, err);
  if (rc || (rc = dcsim__xml_str(*doc, dcsim__xml_root(*doc), "model", 1, &model, err))) return rc;
  if (!(*model_copy = dcsim_strdup(model)))
    return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  return 0;
}

int dcsim_cpu_profile_load(const char *path, dcsim_cpu_profile_t **out, dcsim_error *err) {
  dcsim_xml_doc_t *doc = NULL;
  dcsim_cpu_profile_t *p = calloc(1, sizeof *p);
  if (!p) return DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
  int rc = dcsim__profile_open(path, "cpu-profile", &doc, &p->path, &p->name, &p->model, err);
  if (rc) goto out;
  xmlNode *root = dcsim__xml_root(doc);
  xmlNode *spec = dcsim__xml_child(root, "spec");
  if ((rc = dcsim__xml_u32(doc, spec, "cores-per-socket", 1, &p->cores_per_socket, err))) goto out;
  if ((rc = dcsim__xml_u32(doc, spec, "sockets", 1, &p->sockets, err))) goto out;
  if ((rc = dcsim__xml_double(doc, spec, "nominal-ghz", 1, &p->nominal_ghz, err))) goto out;
  if ((rc = dcsim__xml_double(doc, spec, "l1-byte", 0, &p->caches.l1_byte, err)) ||
      (rc = dcsim__xml_double(doc, spec, "l2-byte", 0, &p->caches.l2_byte, err)) ||
      (rc = dcsim__xml_double(doc, spec, "l3-byte", 0, &p->caches.l3_byte, err)))
    goto out;
  p->caches.cores_per_socket = p->cores_per_socket;
  p->caches.sockets = p->sockets;
  if (!(p->nominal_ghz > 0)) {
    rc = DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, spec, "<spec>: nominal-ghz must be positive");
    goto out;
  }
  if ((rc = dcsim__price_load(doc, root, &p->price, err))) goto out;
  xmlNode *fr = dcsim__xml_child(root, "frequencies");
  size_t nf = dcsim__xml_count(fr, "freq");
  p->freqs = calloc(nf ? nf : 1, sizeof *p->freqs);
  if (!p->freqs) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  for (xmlNode *f = dcsim__xml_child(fr, "freq"); f; f = dcsim__xml_next(f, "freq")) {
    freq_col *c = &p->freqs[p->n_freqs];
    const char *id = NULL, *label = NULL;
    if ((rc = dcsim__xml_str(doc, f, "id", 1, &id, err))) goto out;
    if ((rc = dcsim__xml_str(doc, f, "label", 0, &label, err))) goto out;
    if ((rc = dcsim__xml_double(doc, f, "ghz", 1, &c->ghz, err))) goto out;
    if (!(c->ghz > 0)) {
      rc = DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, f, "<freq id=\"%s\">: ghz must be positive", id);
      goto out;
    }
    size_t dup;
    if (find_freq_id(p, id, &dup) == 0) {
      rc = DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, f, "<freq id=\"%s\">: id given twice", id);
      goto out;
    }
    c->id = dcsim_strdup(id);
    c->label = label ? dcsim_strdup(label) : NULL;
    p->n_freqs++;
    if (!c->id || (label && !c->label)) {
      rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
      goto out;
    }
  }
  for (xmlNode *t = dcsim__xml_child(root, "table"); t; t = dcsim__xml_next(t, "table"))
    if ((rc = load_table(p, doc, t, err))) goto out;
  xmlNode *ch = dcsim__xml_child(root, "cache-hierarchy"),
          *sl = dcsim__xml_child(root, "socket-link");
  if (ch && (rc = load_cache_levels(p, doc, ch, err))) goto out;
  if (sl && (rc = load_socket_link(p, doc, sl, err))) goto out;
  xmlNode *cs = dcsim__xml_child(root, "ceilings");
  if (cs && (rc = load_ceilings(p, doc, cs, err))) goto out;
  xmlNode *dn = dcsim__xml_child(root, "datasheet"), *pn = dcsim__xml_child(root, "perf-model");
  if (dn && (rc = load_datasheet(p, doc, dn, err))) goto out;
  if (pn && (rc = load_perf_model(p, doc, pn, err))) goto out;
  if ((rc = check_model_needs(p, doc, root, dn, err))) goto out;
  size_t ne = dcsim__xml_count(root, "energy");
  if (ne && !(p->etabs = calloc(ne, sizeof *p->etabs))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  for (xmlNode *en = dcsim__xml_child(root, "energy"); en; en = dcsim__xml_next(en, "energy")) {
    energy_table *t = &p->etabs[p->n_etabs++];
    if ((rc = load_energy(p, doc, en, t, err))) goto out;
  }
  if ((rc =
           dcsim__cpu_power_model_load(doc, root, p->cores_per_socket, p->n_etabs, &p->power, err)))
    goto out;
  p->caches.scatter = p->has_perf && p->pm.scatter;
  *out = p;
  p = NULL;
out:
  dcsim_cpu_profile_free(p);
  dcsim__xml_free(doc);
  return rc;
}

const char *dcsim_cpu_profile_name(const dcsim_cpu_profile_t *p) { return p->name; }
const char *dcsim_cpu_profile_model(const dcsim_cpu_profile_t *p) { return p->model; }
const char *dcsim_cpu_profile_path(const dcsim_cpu_profile_t *p) { return p->path; }
unsigned dcsim_cpu_profile_cores_per_socket(const dcsim_cpu_profile_t *p) {
  return p->cores_per_socket;
}
unsigned dcsim_cpu_profile_sockets(const dcsim_cpu_profile_t *p) { return p->sockets; }
const dcsim_cpu_caches *dcsim_cpu_profile_caches(const dcsim_cpu_profile_t *p) {
  return &p->caches;
}
double dcsim_cpu_profile_socket_link_bps(const dcsim_cpu_profile_t *p) {
  return p->socket_link_bps;
}
double dcsim_cpu_profile_nominal_ghz(const dcsim_cpu_profile_t *p) { return p->nominal_ghz; }
const dcsim_cache_level *dcsim_cpu_profile_cache_levels(const dcsim_cpu_profile_t *p, size_t *n) {
  *n = p->n_levels;
  return p->n_levels ? p->levels : NULL;
}
int dcsim_cpu_profile_has_energy(const dcsim_cpu_profile_t *p) { return p->has_energy; }
unsigned dcsim_cpu_profile_max_threads(const dcsim_cpu_profile_t *p) {
  const table *t = &p->tables[Q_FLOPS];
  return t->present && t->n_rows ? t->threads[t->n_rows - 1] : 0;
}

int dcsim_cpu_profile_freq(const dcsim_cpu_profile_t *p, const char *text, dcsim_cpu_state *s,
                           dcsim_error *err) {
  s->label = NULL;
  if (!text || !*text) {
    s->ghz = p->nominal_ghz;
    return 0;
  }
  for (size_t i = 0; i < p->n_freqs; i++)
    if (p->freqs[i].label && strcmp(p->freqs[i].label, text) == 0) {
      s->label = p->freqs[i].label;
      s->ghz = p->freqs[i].ghz;
      return 0;
    }
  /* names resolved for this CPU (dcsim/hwprofile.h) */
  if (strcmp(text, "nominal") == 0 || strcmp(text, "min") == 0 || strcmp(text, "max") == 0) {
    s->ghz = text[0] == 'n'   ? p->nominal_ghz
             : text[1] == 'i' ? dcsim_cpu_profile_min_ghz(p)
                              : dcsim_cpu_profile_max_ghz(p);
    return 0;
  }
  if (strcmp(text, "turbo") == 0)
    return DCSIM_ERR(err, DCSIM_ERANGE, p->path, 0,
                     "frequency 'turbo': profile %s has no state label 'turbo' (no <freq "
                     "label=\"turbo\">)",
                     p->name);
  double g;
  if (dcsim_parse_ghz(text, &g) != 0 || !(g > 0))
    return DCSIM_ERR(
        err, DCSIM_ERANGE, p->path, 0,
        "frequency '%s' is neither a positive number of GHz, nominal, min, max, turbo nor a state "
        "label of profile %s",
        text, p->name);
  s->ghz = g;
  return 0;
}

double dcsim_cpu_profile_min_ghz(const dcsim_cpu_profile_t *p) {
  double m = p->nominal_ghz;
  for (size_t i = 0; i < p->n_freqs; i++)
    if (!p->freqs[i].label && p->freqs[i].ghz < m) m = p->freqs[i].ghz;
  return m;
}

double dcsim_cpu_profile_max_ghz(const dcsim_cpu_profile_t *p) {
  double m = p->nominal_ghz;
  for (size_t i = 0; i < p->n_freqs; i++)
    if (!p->freqs[i].label && p->freqs[i].ghz > m) m = p->freqs[i].ghz;
  return m;
}

double dcsim_cpu_profile_turbo_ghz(const dcsim_cpu_profile_t *p) {
  for (size_t i = 0; i < p->n_freqs; i++)
    if (p->freqs[i].label && strcmp(p->freqs[i].label, "turbo") == 0) return p->freqs[i].ghz;
  return 0;
}

char *dcsim_cpu_state_freq_text(const dcsim_cpu_state *s) {
  return s->label ? dcsim_strdup(s->label) : dcsim_strdup_printf("%g", s->ghz);
}

/* Finds the frequency columns bracketing the state: exact label match, or two plain columns. */
static int freq_bracket(const dcsim_cpu_profile_t *p, const table *t, const dcsim_cpu_state *s,
                        size_t *c0, size_t *c1, double *w, const char *what, dcsim_error *err) {
  double lo = -1, hi = -1;
  long ilo = -1, ihi = -1;
  for (size_t j = 0; j < t->n_cols; j++) {
    const freq_col *f = &p->freqs[t->col[j]];
    if (s->label) {
      if (f->label && strcmp(f->label, s->label) == 0) {
        *c0 = *c1 = j;
        *w = 0;
        return 0;
      }
      continue;
    }
    if (f->label) continue;
    if (fabs(f->ghz - s->ghz) < 1e-9) {
      *c0 = *c1 = j;
      *w = 0;
      return 0;
    }
    if (f->ghz < s->ghz && (ilo < 0 || f->ghz > lo)) {
      lo = f->ghz;
      ilo = (long)j;
    }
    if (f->ghz > s->ghz && (ihi < 0 || f->ghz < hi)) {
      hi = f->ghz;
      ihi = (long)j;
    }
  }
  if (s->label || ilo < 0 || ihi < 0) {
    char *fs = dcsim_cpu_state_freq_text(s);
    int rc = !fs ? DCSIM_ERR(err, DCSIM_ENOMEM, p->path, t->line, "out of memory")
                 : DCSIM_ERR(err, DCSIM_ERANGE, p->path, t->line,
                             "state outside table: frequency %s%s is not covered by the %s table "
                             "of %s",
                             fs, s->label ? "" : " GHz", what, p->name);
    free(fs);
    return rc;
  }
  *c0 = (size_t)ilo;
  *c1 = (size_t)ihi;
  *w = (s->ghz - lo) / (hi - lo);
  return 0;
}

static int thread_bracket(const dcsim_cpu_profile_t *p, const unsigned *th, size_t n, unsigned want,
                          int line, const char *what, size_t *r0, size_t *r1, double *w,
                          dcsim_error *err) {
  for (size_t i = 0; i < n; i++) {
    if (th[i] == want) {
      *r0 = *r1 = i;
      *w = 0;
      return 0;
    }
    if (th[i] > want) {
      if (i == 0) break;
      *r0 = i - 1;
      *r1 = i;
      *w = (double)(want - th[i - 1]) / (double)(th[i] - th[i - 1]);
      return 0;
    }
  }
  return DCSIM_ERR(
      err, DCSIM_ERANGE, p->path, line,
      "state outside table: %u threads/cores not covered by the %s table of %s (it covers %u..%u)",
      want, what, p->name, n ? th[0] : 0, n ? th[n - 1] : 0);
}

static int lookup(const dcsim_cpu_profile_t *p, int q, const dcsim_cpu_state *s, double *out,
                  dcsim_prov *prov, dcsim_error *err) {
  const table *t = &p->tables[q];
  if (!t->present)
    return DCSIM_ERR(err, DCSIM_EREF, p->path, 0, "profile %s has no %s table", p->name,
                     quantity_names[q]);
  if (s->threads == 0) return DCSIM_ERR(err, DCSIM_ERANGE, p->path, 0, "thread count must be >= 1");
  size_t c0 = 0, c1 = 0, r0 = 0, r1 = 0;
  double wf = 0, wt = 0;
  int rc = freq_bracket(p, t, s, &c0, &c1, &wf, quantity_names[q], err);
  if (rc) return rc;
  rc = thread_bracket(p, t->threads, t->n_rows, s->threads, t->line, quantity_names[q], &r0, &r1,
                      &wt, err);
  if (rc) return rc;
  /* bilinear interpolation between measured states (doc/models.md "Table lookups") */
  const double *v = t->v;
  size_t nc = t->n_cols;
  double a = v[r0 * nc + c0] * (1 - wf) + v[r0 * nc + c1] * wf;
  double b = v[r1 * nc + c0] * (1 - wf) + v[r1 * nc + c1] * wf;
  *out = a * (1 - wt) + b * wt;
  /* a measured cell, or a value between measured cells (dcsim/provenance.h) */
  *prov =
      dcsim_prov_make(c0 == c1 && r0 == r1 ? DCSIM_PROV_TABLE : DCSIM_PROV_INTERPOLATED, t->source);
  return 0;
}

/* one table of dcsim_cpu_profile_rates: its value and the weakest provenance so far */
static int lookup_into(const dcsim_cpu_profile_t *p, int q, const dcsim_cpu_state *s, double *out,
                       dcsim_cpu_rates *r, dcsim_error *err) {
  dcsim_prov here;
  int rc = lookup(p, q, s, out, &here, err);
  if (!rc) r->prov = q == Q_FLOPS ? here : dcsim_prov_weakest(r->prov, here);
  if (!rc) r->qprov[q] = here;
  return rc;
}

int dcsim_cpu_profile_rates(const dcsim_cpu_profile_t *p, const dcsim_cpu_state *s,
                            dcsim_cpu_rates *out, dcsim_error *err) {
  dcsim_cpu_rates r;
  memset(&r, 0, sizeof r);
  for (int q = 0; q < Q_COUNT; q++) r.qprov[q] = dcsim_prov_make(DCSIM_PROV_TABLE, "");
  int rc;
  if ((rc = lookup_into(p, Q_FLOPS, s, &r.flops, &r, err))) return rc;
  /* cache tables are optional (dcsim/hwprofile.h); absent ones stay 0 with their flag cleared */
  if ((r.has_l1 = p->tables[Q_L1].present) && (rc = lookup_into(p, Q_L1, s, &r.l1_bps, &r, err)))
    return rc;
  if ((r.has_l2 = p->tables[Q_L2].present) && (rc = lookup_into(p, Q_L2, s, &r.l2_bps, &r, err)))
    return rc;
  if ((r.has_l3 = p->tables[Q_L3].present) && (rc = lookup_into(p, Q_L3, s, &r.l3_bps, &r, err)))
    return rc;
  if ((rc = lookup_into(p, Q_DRAM, s, &r.dram_bps, &r, err))) return rc;
  *out = r;
  return 0;
}

const char *dcsim_cpu_qty_name(dcsim_cpu_qty q) {
  return (int)q >= 0 && (int)q < Q_COUNT ? quantity_names[q] : "?";
}

int dcsim_cpu_qty_parse(const char *name) {
  for (int i = 0; name && i < Q_COUNT; i++)
    if (strcmp(name, quantity_names[i]) == 0) return i;
  return -1;
}

int dcsim_cpu_profile_lookup(const dcsim_cpu_profile_t *p, dcsim_cpu_qty q,
                             const dcsim_cpu_state *s, double *out, dcsim_prov *prov,
                             dcsim_error *err) {
  if ((int)q < 0 || (int)q >= Q_COUNT)
    return DCSIM_ERR(err, DCSIM_EINTERNAL, "", 0, "bad quantity");
  return lookup(p, (int)q, s, out, prov, err);
}

void dcsim_cpu_profile_table_info(const dcsim_cpu_profile_t *p, dcsim_cpu_qty q,
                                  dcsim_cpu_table_info *out) {
  memset(out, 0, sizeof *out);
  if ((int)q < 0 || (int)q >= Q_COUNT || !p->tables[q].present) return;
  const table *t = &p->tables[q];
  out->present = 1;
  out->n_rows = t->n_rows;
  out->n_cols = t->n_cols;
  out->min_threads = t->n_rows ? t->threads[0] : 0;
  out->max_threads = t->n_rows ? t->threads[t->n_rows - 1] : 0;
  out->line = t->line;
  out->source = t->source;
  for (size_t j = 0; j < t->n_cols; j++) {
    const freq_col *f = &p->freqs[t->col[j]];
    if (f->label) {
      out->has_turbo |= strcmp(f->label, "turbo") == 0;
      continue;
    }
    if (out->min_ghz == 0 || f->ghz < out->min_ghz) out->min_ghz = f->ghz;
    if (f->ghz > out->max_ghz) out->max_ghz = f->ghz;
  }
}

int dcsim_cpu_profile_anchor(const dcsim_cpu_profile_t *p, dcsim_cpu_qty q,
                             const dcsim_cpu_state *s, dcsim_cpu_state *a, dcsim_error *err) {
  dcsim_cpu_table_info ti;
  dcsim_cpu_profile_table_info(p, q, &ti);
  if (!ti.present || ti.n_rows == 0)
    return DCSIM_ERR(err, DCSIM_EREF, p->path, 0, "profile %s has no %s table", p->name,
                     dcsim_cpu_qty_name(q));
  *a = *s;
  a->threads = s->threads < ti.min_threads   ? ti.min_threads
               : s->threads > ti.max_threads ? ti.max_threads
                                             : s->threads;
  if (s->label) {
    const table *t = &p->tables[q];
    for (size_t j = 0; j < t->n_cols; j++) {
      const freq_col *f = &p->freqs[t->col[j]];
      if (f->label && strcmp(f->label, s->label) == 0) return 0; /* its own column */
    }
    a->label = NULL;
  }
  if (ti.max_ghz == 0)
    return DCSIM_ERR(err, DCSIM_EREF, p->path, ti.line,
                     "the %s table of %s has no plain frequency column to start the model from",
                     dcsim_cpu_qty_name(q), p->name);
  a->ghz = a->ghz < ti.min_ghz ? ti.min_ghz : a->ghz > ti.max_ghz ? ti.max_ghz : a->ghz;
  return 0;
}

const dcsim_cpu_datasheet *dcsim_cpu_profile_datasheet(const dcsim_cpu_profile_t *p) {
  return &p->ds;
}

const char *dcsim_rates_basis_name(dcsim_rates_basis b) {
  static const char *const names[] = { "own", "variant", "sibling", "estimate" };
  return b >= DCSIM_RATES_OWN && b <= DCSIM_RATES_ESTIMATE ? names[b] : "?";
}

dcsim_rates_basis dcsim_cpu_profile_rates_basis(const dcsim_cpu_profile_t *p, unsigned *levels) {
  dcsim_rates_basis worst = DCSIM_RATES_OWN;
  unsigned mask = 0;
  int any = 0;
  if (dcsim_cpu_profile_max_threads(p) == 0) {
    for (int q = Q_L1; q < Q_COUNT; q++) {
      const dcsim_cpu_measured_bw *b = &p->ds.measured[q];
      if (!(b->one_core_bps > 0)) continue;
      if (!any || b->basis > worst) worst = b->basis, mask = 0;
      if (b->basis == worst) mask |= 1u << q;
      any = 1;
    }
    if (!any) /* no measurement at all: the reference's per-cycle rates, by the datasheet */
      for (int q = Q_L1; q < Q_COUNT; q++) worst = DCSIM_RATES_ESTIMATE, mask |= 1u << q;
  }
  if (levels) *levels = mask;
  return worst;
}

const dcsim_cpu_perf_model *dcsim_cpu_profile_perf_model(const dcsim_cpu_profile_t *p) {
  return p->has_perf ? &p->pm : NULL;
}

static int state_is_freq(const freq_col *f, const dcsim_cpu_state *s) {
  return s->label ? (f->label && strcmp(f->label, s->label) == 0)
                  : (!f->label && fabs(f->ghz - s->ghz) < 1e-9);
}

/* Power of one table at s->threads cores (linear between measured core counts). */
static int table_power(const dcsim_cpu_profile_t *p, const energy_table *t, unsigned cores,
                       dcsim_cpu_power *out, dcsim_error *err) {
  unsigned th[64];
  size_t n = t->n_rows < 64 ? t->n_rows : 64;
  for (size_t i = 0; i < n; i++) th[i] = t->rows[i].cores;
  size_t r0, r1;
  double w;
  if (cores == 0) return DCSIM_ERR(err, DCSIM_ERANGE, p->path, 0, "core count must be >= 1");
  int rc = thread_bracket(p, th, n, cores, t->line, "energy", &r0, &r1, &w, err);
  if (rc) return rc;
  out->pkg_w = t->rows[r0].pkg_w * (1 - w) + t->rows[r1].pkg_w * w;
  out->dram_w = t->rows[r0].dram_w * (1 - w) + t->rows[r1].dram_w * w;
  out->pkg_idle_w = t->pkg_idle_w;
  out->dram_idle_w = t->dram_idle_w;
  out->prov = dcsim_prov_make(r0 == r1 ? DCSIM_PROV_TABLE : DCSIM_PROV_INTERPOLATED, t->source);
  return 0;
}

/* Linear in GHz between the tables lo and hi (plain frequencies below and above s's). */
static int between_tables(const dcsim_cpu_profile_t *p, long lo, long hi, const dcsim_cpu_state *s,
                          dcsim_cpu_power *out, dcsim_error *err) {
  dcsim_cpu_power a, b;
  int rc;
  if ((rc = table_power(p, &p->etabs[lo], s->threads, &a, err)) ||
      (rc = table_power(p, &p->etabs[hi], s->threads, &b, err)))
    return rc;
  double f0 = p->freqs[p->etabs[lo].freq].ghz, f1 = p->freqs[p->etabs[hi].freq].ghz;
  double w = (s->ghz - f0) / (f1 - f0);
  out->pkg_w = a.pkg_w * (1 - w) + b.pkg_w * w;
  out->dram_w = a.dram_w * (1 - w) + b.dram_w * w;
  out->pkg_idle_w = a.pkg_idle_w * (1 - w) + b.pkg_idle_w * w;
  out->dram_idle_w = a.dram_idle_w * (1 - w) + b.dram_idle_w * w;
  out->prov = dcsim_prov_make(DCSIM_PROV_INTERPOLATED, a.prov.source);
  return 0;
}

/* Which table(s) give the power at a state (dcsim/hwprofile.h): the table of that frequency;
 * else, between two plain-frequency tables, both (linear in GHz); else the nearest table if it
 * says other-frequencies="same". */
int dcsim_cpu_profile_power(const dcsim_cpu_profile_t *p, const dcsim_cpu_state *s,
                            dcsim_cpu_power *out, dcsim_error *err) {
  if (!p->has_energy)
    return DCSIM_ERR(err, DCSIM_EREF, p->path, 0, "profile %s has no <energy> table", p->name);
  long lo = -1, hi = -1, near = -1;
  for (size_t i = 0; i < p->n_etabs; i++) {
    const freq_col *f = &p->freqs[p->etabs[i].freq];
    if (state_is_freq(f, s)) return table_power(p, &p->etabs[i], s->threads, out, err);
    if (s->label || f->label) continue;
    if (f->ghz < s->ghz && (lo < 0 || f->ghz > p->freqs[p->etabs[lo].freq].ghz)) lo = (long)i;
    if (f->ghz > s->ghz && (hi < 0 || f->ghz < p->freqs[p->etabs[hi].freq].ghz)) hi = (long)i;
  }
  if (lo >= 0 && hi >= 0) return between_tables(p, lo, hi, s, out, err);
  near = lo >= 0 ? lo : hi;
  if (near < 0) near = 0; /* a labelled state, or only labelled tables: the first table */
  const energy_table *t = &p->etabs[near];
  if (!t->same_all_freqs) {
    char *fs = dcsim_cpu_state_freq_text(s);
    int rc =
        !fs ? DCSIM_ERR(err, DCSIM_ENOMEM, p->path, t->line, "out of memory")
        : p->n_etabs == 1
            ? DCSIM_ERR(err, DCSIM_ERANGE, p->path, t->line,
                        "state outside table: the energy table of %s was measured at %s GHz only, "
                        "not at %s",
                        p->name, p->freqs[t->freq].id, fs)
            : DCSIM_ERR(err, DCSIM_ERANGE, p->path, t->line,
                        "state outside table: frequency %s is not covered by the energy tables "
                        "of %s",
                        fs, p->name);
    free(fs);
    return rc;
  }
  int rc = table_power(p, t, s->threads, out, err);
  /* other-frequencies="same" at another frequency: the table carried beyond what it measured */
  if (!rc && !state_is_freq(&p->freqs[t->freq], s)) out->prov.kind = DCSIM_PROV_EXTRAPOLATED;
  return rc;
}

const dcsim_cpu_power_model *dcsim_cpu_profile_power_model(const dcsim_cpu_profile_t *p) {
  return &p->power;
}

/* A table of the profile's own (not borrowed) whose rows cover k cores: 1, else 0. */
static int own_covers(const energy_table *t, unsigned k) {
  return !t->borrowed && t->n_rows && k >= t->rows[0].cores && k <= t->rows[t->n_rows - 1].cores;
}

int dcsim_cpu_profile_own_power(const dcsim_cpu_profile_t *p, const dcsim_cpu_state *s,
                                dcsim_cpu_power *out, int *covered, dcsim_error *err) {
  *covered = 0;
  long lo = -1, hi = -1;
  for (size_t i = 0; i < p->n_etabs; i++) {
    const energy_table *t = &p->etabs[i];
    const freq_col *f = &p->freqs[t->freq];
    if (!own_covers(t, s->threads)) continue;
    if (state_is_freq(f, s)) {
      int rc = table_power(p, t, s->threads, out, err);
      *covered = rc == 0;
      return rc;
    }
    if (s->label || f->label) continue;
    if (f->ghz < s->ghz && (lo < 0 || f->ghz > p->freqs[p->etabs[lo].freq].ghz)) lo = (long)i;
    if (f->ghz > s->ghz && (hi < 0 || f->ghz < p->freqs[p->etabs[hi].freq].ghz)) hi = (long)i;
  }
  if (lo < 0 || hi < 0) return 0;
  int rc = between_tables(p, lo, hi, s, out, err);
  *covered = rc == 0;
  return rc;
}

size_t dcsim_cpu_profile_n_freqs(const dcsim_cpu_profile_t *p) { return p->n_freqs; }

int dcsim_cpu_profile_freq_at(const dcsim_cpu_profile_t *p, size_t i, dcsim_cpu_state *s) {
  if (i >= p->n_freqs) return DCSIM_ERANGE;
  s->ghz = p->freqs[i].ghz;
  s->label = p->freqs[i].label;
  return 0;
}

unsigned dcsim_cpu_profile_energy_max_cores(const dcsim_cpu_profile_t *p,
                                            const dcsim_cpu_state *s) {
  if (!p->has_energy) return 0;
  unsigned m = 0;
  for (size_t i = 0; i < p->n_etabs; i++) {
    const energy_table *t = &p->etabs[i];
    unsigned c = t->n_rows ? t->rows[t->n_rows - 1].cores : 0;
    if (state_is_freq(&p->freqs[t->freq], s)) return c;
    if (!m || c < m) m = c; /* interpolating between tables: the smaller full load covers both */
  }
  return m;
}

dcsim_hw_price dcsim_cpu_profile_price(const dcsim_cpu_profile_t *p) {
  return dcsim__price_public(&p->price);
}

/* ---- <price> of CPU and GPU profiles ---- */

int dcsim__price_load(const dcsim_xml_doc_t *doc, xmlNode *root, dcsim__price *pr,
                      dcsim_error *err) {
  xmlNode *n = dcsim__xml_child(root, "price");
  const char *date = NULL, *src = NULL;
  pr->usd = -1;
  if (!n) return 0;
  int rc;
  if ((rc = dcsim__xml_double(doc, n, "usd", 1, &pr->usd, err)) ||
      (rc = dcsim__xml_str(doc, n, "date", 1, &date, err)) ||
      (rc = dcsim__xml_str(doc, n, "source", 1, &src, err)))
    return rc;
  if (!(pr->usd >= DCSIM_PRICE_MIN_USD && pr->usd <= DCSIM_PRICE_MAX_USD))
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, doc, n,
                         "<price usd=\"%g\">: a unit price is %g to %g USD", pr->usd,
                         DCSIM_PRICE_MIN_USD, DCSIM_PRICE_MAX_USD);
  if (!(pr->date = dcsim_strdup(date)) || !(pr->source = dcsim_strdup(src)))
    return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory");
  return 0;
}

dcsim_hw_price dcsim__price_public(const dcsim__price *pr) {
  dcsim_hw_price h = { pr->usd > 0, pr->usd > 0 ? pr->usd : 0, pr->date, pr->source };
  return h;
}

void dcsim__price_release(dcsim__price *pr) {
  free(pr->date);
  free(pr->source);
  pr->date = pr->source = NULL;
}
