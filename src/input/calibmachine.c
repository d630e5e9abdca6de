/* calibmachine.c — a calibration directory's machine.xml read into typed members (see
 * input/internal.h, schemas/calibration-machine.xsd, doc/calibration.md): the one reader of the
 * manifest. calib/import/import_cpu.c and calib/fit/fit_power.c compose the profile from what it
 * returns, and the tables it names are read by calibdir.c and power_table.c. */
#include <stdlib.h>
#include <string.h>

#include "dcsim/strutil.h"
#include "input/internal.h"
#include "util/xmlio.h"

static int line_of(xmlNode *n) { return n ? (int)xmlGetLineNo(n) : 0; }

/* The root's names and <comment>, whose text becomes an XML comment of the profile. */
static int read_head(dcsim__calib_machine *m, xmlNode *root, dcsim_error *err) {
  const dcsim_xml_doc_t *doc = m->doc;
  m->line = line_of(root);
  m->name = dcsim__xml_attr(doc, root, "name");
  m->model = dcsim__xml_attr(doc, root, "model");
  m->microarch = dcsim__xml_attr(doc, root, "microarch");
  xmlNode *cm = dcsim__xml_child(root, "comment");
  if (!cm) return 0;
  xmlChar *c = xmlNodeGetContent(cm);
  m->comment = c ? dcsim_strdup((const char *)c) : NULL;
  xmlFree(c);
  if (!m->comment) return DCSIM_ERR(err, DCSIM_ENOMEM, m->path, 0, "out of memory");
  if (strstr(m->comment, "--"))
    return DCSIM_XML_ERR(err, DCSIM_EPARSE, doc, cm,
                         "<comment>: must not contain \"--\" (it becomes an XML comment)");
  return 0;
}

/* <spec>: its counts as numbers and every attribute as written. */
static int read_spec(dcsim__calib_machine *m, xmlNode *root, dcsim_error *err) {
  const dcsim_xml_doc_t *doc = m->doc;
  xmlNode *spec = dcsim__xml_child(root, "spec");
  dcsim__cm_spec *s = &m->spec;
  s->line = line_of(spec);
  int rc;
  if ((rc = dcsim__xml_u32(doc, spec, "cores-per-socket", 1, &s->cores_per_socket, err)) ||
      (rc = dcsim__xml_u32(doc, spec, "sockets", 1, &s->sockets, err)) ||
      (rc = dcsim__xml_u32(doc, spec, "threads-per-core", 0, &s->threads_per_core, err)) ||
      (rc = dcsim__xml_double(doc, spec, "nominal-ghz", 1, &s->nominal_ghz, err)) ||
      (rc = dcsim__xml_double(doc, spec, "l1-byte", 0, &s->cache_byte[0], err)) ||
      (rc = dcsim__xml_double(doc, spec, "l2-byte", 0, &s->cache_byte[1], err)) ||
      (rc = dcsim__xml_double(doc, spec, "l3-byte", 0, &s->cache_byte[2], err)))
    return rc;
  s->cores_per_socket_text = dcsim__xml_attr(doc, spec, "cores-per-socket");
  s->sockets_text = dcsim__xml_attr(doc, spec, "sockets");
  s->nominal_ghz_text = dcsim__xml_attr(doc, spec, "nominal-ghz");
  s->l1_byte = dcsim__xml_attr(doc, spec, "l1-byte");
  s->l2_byte = dcsim__xml_attr(doc, spec, "l2-byte");
  s->l3_byte = dcsim__xml_attr(doc, spec, "l3-byte");
  s->isa = dcsim__xml_attr(doc, spec, "isa");
  s->source = dcsim__xml_attr(doc, spec, "source");
  xmlNode *pr = dcsim__xml_child(root, "price");
  if (pr) {
    m->price_usd = dcsim__xml_attr(doc, pr, "usd");
    m->price_date = dcsim__xml_attr(doc, pr, "date");
    m->price_source = dcsim__xml_attr(doc, pr, "source");
  }
  return 0;
}

/* <datasheet>: <isa>, <memory> and each <measured> as written, their figures into m->ds. */
static int read_datasheet(dcsim__calib_machine *m, xmlNode *root, dcsim_error *err) {
  const dcsim_xml_doc_t *doc = m->doc;
  xmlNode *dn = dcsim__xml_child(root, "datasheet");
  dcsim__cm_datasheet *d = &m->datasheet;
  if (!dn) return 0;
  d->line = line_of(dn);
  xmlNode *isa = dcsim__xml_child(dn, "isa"), *mem = dcsim__xml_child(dn, "memory");
  int rc;
  if ((isa &&
       (rc = dcsim__xml_double(doc, isa, "flop-per-cycle", 1, &m->ds.isa_flop_per_cycle, err))) ||
      (mem &&
       ((rc = dcsim__xml_double(doc, mem, "peak-bps", 1, &m->ds.mem_peak_bps, err)) ||
        (rc = dcsim__xml_double(doc, mem, "sustained-bps", 0, &m->ds.mem_sustained_bps, err)))))
    return rc;
  if (isa) {
    d->isa_flop_per_cycle = dcsim__xml_attr(doc, isa, "flop-per-cycle");
    d->isa_source = m->ds.isa_source = dcsim__xml_attr(doc, isa, "source");
  }
  if (mem) {
    d->mem_peak_bps = dcsim__xml_attr(doc, mem, "peak-bps");
    d->mem_sustained_bps = dcsim__xml_attr(doc, mem, "sustained-bps");
    d->mem_source = m->ds.mem_source = dcsim__xml_attr(doc, mem, "source");
  }
  size_t n = dcsim__xml_count(dn, "measured");
  if (n && !(d->measured = calloc(n, sizeof *d->measured)))
    return DCSIM_ERR(err, DCSIM_ENOMEM, m->path, 0, "out of memory");
  for (xmlNode *e = dcsim__xml_child(dn, "measured"); e; e = dcsim__xml_next(e, "measured")) {
    int q;
    if ((rc = dcsim__cpu_measured_parse(doc, e, m->ds.measured, &q, err))) return rc;
    d->measured[d->n_measured++] = (dcsim__cm_measured){
      dcsim__xml_attr(doc, e, "level"),        dcsim__xml_attr(doc, e, "one-core-bps"),
      dcsim__xml_attr(doc, e, "ghz"),          dcsim__xml_attr(doc, e, "socket-bps"),
      dcsim__xml_attr(doc, e, "socket-cores"), dcsim__xml_attr(doc, e, "basis"),
      dcsim__xml_attr(doc, e, "source")
    };
  }
  return 0;
}

/* <frequencies>: each id once, ghz a number. */
static int read_freqs(dcsim__calib_machine *m, xmlNode *root, dcsim_error *err) {
  const dcsim_xml_doc_t *doc = m->doc;
  dcsim__calibdir_freqs *fr = &m->fr;
  xmlNode *fq = dcsim__xml_child(root, "frequencies");
  size_t nf = dcsim__xml_count(fq, "freq"), cap = nf ? nf : 1;
  fr->ids = calloc(cap, sizeof *fr->ids);
  fr->labels = calloc(cap, sizeof *fr->labels);
  fr->ghz = calloc(cap, sizeof *fr->ghz);
  fr->ghz_text = calloc(cap, sizeof *fr->ghz_text);
  fr->sources = calloc(cap, sizeof *fr->sources);
  fr->lines = calloc(cap, sizeof *fr->lines);
  fr->line = line_of(fq);
  if (!fr->ids || !fr->labels || !fr->ghz || !fr->ghz_text || !fr->sources || !fr->lines)
    return DCSIM_ERR(err, DCSIM_ENOMEM, m->path, 0, "out of memory");
  int rc;
  for (xmlNode *q = dcsim__xml_child(fq, "freq"); q; q = dcsim__xml_next(q, "freq")) {
    size_t k = fr->n;
    fr->ids[k] = dcsim__xml_attr(doc, q, "id");
    fr->labels[k] = dcsim__xml_attr(doc, q, "label");
    fr->ghz_text[k] = dcsim__xml_attr(doc, q, "ghz");
    fr->sources[k] = dcsim__xml_attr(doc, q, "source");
    fr->lines[k] = line_of(q);
    if ((rc = dcsim__xml_double(doc, q, "ghz", 1, &fr->ghz[k], err))) return rc;
    for (size_t j = 0; j < k; j++)
      if (strcmp(fr->ids[j], fr->ids[k]) == 0)
        return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, q, "<freq id=\"%s\">: id given twice",
                             fr->ids[k]);
    fr->n++;
  }
  return 0;
}

/* <table>: each quantity (flops, L1 .. DRAM) at most once. */
static int read_tables(dcsim__calib_machine *m, xmlNode *root, dcsim_error *err) {
  const dcsim_xml_doc_t *doc = m->doc;
  for (xmlNode *tn = dcsim__xml_child(root, "table"); tn; tn = dcsim__xml_next(tn, "table")) {
    int q = dcsim_cpu_qty_parse(dcsim__xml_attr(doc, tn, "quantity"));
    if (q < 0) continue; /* the schema allows none other */
    if (m->table[q].file)
      return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, tn, "<table quantity=\"%s\">: given twice",
                           dcsim_cpu_qty_name((dcsim_cpu_qty)q));
    m->table[q] = (dcsim__cm_table){ dcsim__xml_attr(doc, tn, "file"),
                                     dcsim__xml_attr(doc, tn, "source"), line_of(tn) };
  }
  return 0;
}

/* <perf-fit> and its <turbo> bins (cores and ghz numbers; their order and range are the fit's to
 * check, calib/import/import_cpu.c, against the bins it finds in the tables). */
static int read_perf_fit(dcsim__calib_machine *m, xmlNode *root, dcsim_error *err) {
  const dcsim_xml_doc_t *doc = m->doc;
  xmlNode *pf = dcsim__xml_child(root, "perf-fit");
  dcsim__cm_perf_fit *p = &m->perf_fit;
  if (!pf) return 0;
  p->line = line_of(pf);
  p->placement = dcsim__xml_attr(doc, pf, "placement");
  p->scatter = p->placement && strcmp(p->placement, "scatter") == 0;
  p->reference = dcsim__xml_attr(doc, pf, "reference");
  p->source = dcsim__xml_attr(doc, pf, "source");
  size_t n = dcsim__xml_count(pf, "turbo");
  if (n && !(p->turbo = calloc(n, sizeof *p->turbo)))
    return DCSIM_ERR(err, DCSIM_ENOMEM, m->path, 0, "out of memory");
  for (xmlNode *t = dcsim__xml_child(pf, "turbo"); t; t = dcsim__xml_next(t, "turbo")) {
    dcsim__cm_turbo *b = &p->turbo[p->n_turbo];
    int rc;
    if ((rc = dcsim__xml_u32(doc, t, "cores", 1, &b->cores, err)) ||
        (rc = dcsim__xml_double(doc, t, "ghz", 1, &b->ghz, err)))
      return rc;
    b->source = dcsim__xml_attr(doc, t, "source");
    b->line = line_of(t);
    p->n_turbo++;
  }
  return 0;
}

/* <energy> (its freq one of the frequency ids), <power-spec> and <power-model> as written. */
static int read_power(dcsim__calib_machine *m, xmlNode *root, dcsim_error *err) {
  const dcsim_xml_doc_t *doc = m->doc;
  xmlNode *en = dcsim__xml_child(root, "energy");
  if (en) {
    dcsim__cm_energy *e = &m->energy;
    e->line = line_of(en);
    e->file = dcsim__xml_attr(doc, en, "file");
    e->freq = dcsim__xml_attr(doc, en, "freq");
    e->other_frequencies = dcsim__xml_attr(doc, en, "other-frequencies");
    e->borrowed_from = dcsim__xml_attr(doc, en, "borrowed-from");
    e->source = dcsim__xml_attr(doc, en, "source");
    size_t j = 0;
    while (j < m->fr.n && strcmp(m->fr.ids[j], e->freq) != 0) j++;
    if (j == m->fr.n)
      return DCSIM_XML_ERR(err, DCSIM_EREF, doc, en, "<energy freq=\"%s\">: unknown frequency id",
                           e->freq);
  }
  xmlNode *ps = dcsim__xml_child(root, "power-spec");
  if (ps) {
    m->tdp_w = dcsim__xml_attr(doc, ps, "tdp-w");
    m->power_spec_source = dcsim__xml_attr(doc, ps, "source");
  }
  xmlNode *pm = dcsim__xml_child(root, "power-model");
  if (!pm) return 0;
  dcsim__cm_power_model *p = &m->power_model;
  xmlNode *pk = dcsim__xml_child(pm, "package"), *dr = dcsim__xml_child(pm, "dram");
  xmlNode *nd = dcsim__xml_child(pm, "node");
  p->line = line_of(pm);
  p->basis = dcsim__xml_attr(doc, pm, "basis");
  p->source = dcsim__xml_attr(doc, pm, "source");
  p->package.line = line_of(pk);
  p->package.idle_w = dcsim__xml_attr(doc, pk, "idle-w");
  p->package.awake_w = dcsim__xml_attr(doc, pk, "awake-w");
  p->package.core_w = dcsim__xml_attr(doc, pk, "core-w");
  p->package.voltage_slope = dcsim__xml_attr(doc, pk, "voltage-slope");
  p->package.fit = dcsim__xml_attr(doc, pk, "fit");
  p->package.source = dcsim__xml_attr(doc, pk, "source");
  p->dram.line = line_of(dr);
  p->dram.idle_w = dcsim__xml_attr(doc, dr, "idle-w");
  p->dram.j_per_byte = dcsim__xml_attr(doc, dr, "j-per-byte");
  p->dram.fit = dcsim__xml_attr(doc, dr, "fit");
  p->dram.bandwidth = dcsim__xml_attr(doc, dr, "bandwidth");
  p->dram.source = dcsim__xml_attr(doc, dr, "source");
  p->node.base_w = dcsim__xml_attr(doc, nd, "base-w");
  p->node.load_overhead = dcsim__xml_attr(doc, nd, "load-overhead");
  p->node.source = dcsim__xml_attr(doc, nd, "source");
  return 0;
}

/* The bounds of the tables' cells: <spec>'s hardware threads (1 to 10^6), the highest clock of
 * <frequencies>, <perf-fit placement> and the datasheet's figures (0 when absent). */
static int read_limits(dcsim__calib_machine *m, dcsim_error *err) {
  dcsim__calibdir_limits *lim = &m->lim;
  const dcsim__cm_spec *s = &m->spec;
  lim->cores_per_socket = s->cores_per_socket;
  lim->sockets = s->sockets;
  lim->threads_per_core = s->threads_per_core;
  double hw =
      (double)s->cores_per_socket * s->sockets * (s->threads_per_core ? s->threads_per_core : 1);
  if (hw < 1 || hw > 1000000)
    return DCSIM_ERR(err, DCSIM_ERANGE, m->path, s->line,
                     "<spec>: cores-per-socket x threads-per-core x sockets = %.0f hardware "
                     "threads (1 to 1000000)",
                     hw);
  lim->hw_threads = (unsigned)hw;
  lim->flop_per_cycle = m->ds.isa_flop_per_cycle;
  lim->mem_peak_bps = m->ds.mem_peak_bps;
  for (size_t k = 0; k < m->fr.n; k++)
    if (m->fr.ghz[k] > lim->max_ghz) lim->max_ghz = m->fr.ghz[k];
  lim->scatter = m->perf_fit.scatter;
  return 0;
}

int dcsim__calib_machine_load(const char *path, dcsim__calib_machine *m, dcsim_error *err) {
  memset(m, 0, sizeof *m);
  int rc = dcsim__xml_load(path, "calibration-machine", &m->doc, err);
  if (rc) return rc;
  m->path = dcsim__xml_path(m->doc);
  xmlNode *root = dcsim__xml_root(m->doc);
  if ((rc = read_head(m, root, err)) || (rc = read_spec(m, root, err)) ||
      (rc = read_datasheet(m, root, err)) || (rc = read_freqs(m, root, err)) ||
      (rc = read_tables(m, root, err)) || (rc = read_perf_fit(m, root, err)) ||
      (rc = read_power(m, root, err)) || (rc = read_limits(m, err)))
    return rc;
  return 0;
}

void dcsim__calib_machine_release(dcsim__calib_machine *m) {
  if (!m) return;
  free(m->comment);
  free(m->datasheet.measured);
  free(m->perf_fit.turbo);
  free(m->fr.ids);
  free(m->fr.labels);
  free(m->fr.ghz);
  free(m->fr.ghz_text);
  free(m->fr.sources);
  free(m->fr.lines);
  dcsim__xml_free(m->doc);
  memset(m, 0, sizeof *m);
}
