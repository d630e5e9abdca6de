/* import_cpu.c — calibration directories to CPU profiles (see dcsim/import_cpu.h,
 * doc/calibration.md). */
#include "dcsim/import_cpu.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "calib/internal.h"
#include "dcsim/fit_perf.h"
#include "dcsim/import_template.h"
#include "input/internal.h"
#include "util/csv.h"
#include "util/fileio.h"
#include "util/xmlio.h"

typedef struct freq_state {
  const char *id;
} freq_state;

static void attr(FILE *f, const dcsim_xml_doc_t *doc, xmlNode *n, const char *name) {
  dcsim__xml_copy_attr(f, doc, n, name);
}

static int cmp_row(const void *a, const void *b) {
  const dcsim_calib_row *x = a, *y = b;
  return x->threads < y->threads ? -1 : x->threads > y->threads;
}

int dcsim__calib_write_table(const char *dir, const char *quantity, const char *freq_id,
                             const char *unit, dcsim_calib_row *rows, size_t n_rows,
                             const char *comment, dcsim_error *err) {
  char file[64];
  snprintf(file, sizeof file, "%s.csv", quantity);
  char *path = dcsim_path_in(dir, file), *buf = NULL;
  size_t len = 0;
  int rc = 0;
  FILE *f = path ? open_memstream(&buf, &len) : NULL;
  if (!f) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
    goto out;
  }
  qsort(rows, n_rows, sizeof *rows, cmp_row);
  for (const char *c = comment; c && *c;) {
    const char *nl = strchr(c, '\n');
    size_t l = nl ? (size_t)(nl - c) : strlen(c);
    fprintf(f, "# %.*s\n", (int)l, c);
    c += l + (nl != NULL);
  }
  fputs("frequency,threads,value,unit,source\n", f);
  for (size_t i = 0; i < n_rows; i++) {
    dcsim__csv_write_cell(f, freq_id);
    fprintf(f, ",%u,", rows[i].threads);
    dcsim__csv_write_cell(f, rows[i].value);
    fputc(',', f);
    dcsim__csv_write_cell(f, unit);
    fputc(',', f);
    dcsim__csv_write_cell(f, rows[i].source);
    fputc('\n', f);
  }
  if (fclose(f) != 0) {
    f = NULL;
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  f = NULL;
  rc = dcsim__file_write_atomic(path, buf, err);
out:
  if (f) fclose(f);
  free(buf);
  free(path);
  return rc;
}

/* The tables' cells collected for the parametric fit, and each table's source=. */
typedef struct cell_sink {
  dcsim_perf_obs *obs;
  size_t n, cap;
  const char *tsrc[DCSIM_CPU_NQTY];
} cell_sink;

/* The <table> element of the grid (T's frequency columns name ids). */
static void table_xml(FILE *f, const dcsim__calibdir_table *T, const char *const *ids,
                      const dcsim_xml_doc_t *doc, xmlNode *tn) {
  size_t nf = T->nf;
  fprintf(f, "  <table quantity=\"%s\" unit=\"", T->qty);
  dcsim__xml_escape(f, T->unit);
  fputs("\" freqs=\"", f);
  for (size_t ci = 0; ci < nf; ci++) fprintf(f, "%s%s", ci ? " " : "", ids[T->freq_of[ci]]);
  fputc('"', f);
  attr(f, doc, tn, "source");
  fputs(">\n", f);
  for (size_t ti = 0; ti < T->nt; ti++) {
    fprintf(f, "    <row threads=\"%u\"", T->th[ti]);
    if (*T->row_source[ti]) {
      fputs(" source=\"", f);
      dcsim__xml_escape(f, T->row_source[ti]);
      fputc('"', f);
    }
    fputc('>', f);
    for (size_t ci = 0; ci < nf; ci++) fprintf(f, "%s%s", ci ? " " : "", T->cells[ti * nf + ci]);
    fputs("</row>\n", f);
  }
  fputs("  </table>\n", f);
}

/* The grid's cells as numbers for the parametric fit: plain frequencies and the turbo state (other
 * labelled states have no clock to fit against). */
static int table_cells(const dcsim__calibdir_table *T, int q, const dcsim__calibdir_freqs *fr,
                       cell_sink *sink, dcsim_error *err) {
  for (size_t ti = 0; ti < T->nt; ti++)
    for (size_t ci = 0; ci < T->nf; ci++) {
      size_t k = T->freq_of[ci];
      int turbo = fr->labels[k] && strcmp(fr->labels[k], "turbo") == 0;
      if (fr->labels[k] && !turbo) continue;
      double v;
      if (dcsim_parse_double(T->cells[ti * T->nf + ci], &v) != 0)
        return DCSIM_ERR(err, DCSIM_EPARSE, T->path, 0, "value '%s' is not a number",
                         T->cells[ti * T->nf + ci]);
      if (DCSIM_GROW(sink->obs, sink->cap, sink->n + 1))
        return DCSIM_ERR(err, DCSIM_ENOMEM, T->path, 0, "out of memory");
      sink->obs[sink->n++] = (dcsim_perf_obs){ (dcsim_cpu_qty)q, turbo ? 0 : fr->ghz[k], turbo,
                                               T->th[ti], v * T->scale };
    }
  return 0;
}

/* One <table> from its CSV (read by the input layer, input/calibdir.c), its cells into sink.
 * fr: the frequency states of the manifest. */
static int emit_table(FILE *f, const char *dir, const dcsim_xml_doc_t *doc, xmlNode *tn, int q,
                      const dcsim__calibdir_freqs *fr, const dcsim__calibdir_limits *lim,
                      cell_sink *sink, dcsim_error *err) {
  char *path = dcsim_path_in(dir, dcsim__xml_attr(doc, tn, "file"));
  if (!path) return DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  dcsim__calibdir_table T;
  int rc = dcsim__calibdir_table_load(path, dcsim__xml_attr(doc, tn, "quantity"), fr->ids, fr->n,
                                      lim, &T, err);
  if (!rc) rc = table_cells(&T, q, fr, sink, err);
  if (!rc) {
    table_xml(f, &T, fr->ids, doc, tn);
    sink->tsrc[q] = dcsim__xml_attr(doc, tn, "source");
  }
  dcsim__calibdir_table_free(&T);
  free(path);
  return rc;
}

/* The <energy> element of the states. */
static void energy_xml(FILE *f, const dcsim__power_table *P, const dcsim_xml_doc_t *doc,
                       xmlNode *en) {
  const dcsim__power_state *rows = P->states;
  fputs("  <energy", f);
  attr(f, doc, en, "freq");
  attr(f, doc, en, "other-frequencies");
  attr(f, doc, en, "borrowed-from");
  attr(f, doc, en, "source");
  fputs(">\n", f);
  for (size_t k = 0; k < P->n_states; k++) {
    if (rows[k].idle)
      fputs("    <idle pkg-w=\"", f);
    else
      fprintf(f, "    <state cores=\"%u\" pkg-w=\"", rows[k].cores);
    dcsim__xml_escape(f, rows[k].pkg); /* the cells as written (one escaping) */
    fputs("\" dram-w=\"", f);
    dcsim__xml_escape(f, rows[k].dram);
    fputc('"', f);
    if (*rows[k].source) {
      fputs(" source=\"", f);
      dcsim__xml_escape(f, rows[k].source);
      fputc('"', f);
    }
    fputs("/>\n", f);
  }
  fputs("  </energy>\n", f);
}

/* A power state's core count within the hardware threads of machine.xml (ctx: its
 * dcsim__calibdir_limits). */
static int power_cores_ok(const void *ctx, const char *path, int line, unsigned cores,
                          dcsim_error *err) {
  return dcsim__calibdir_threads_ok(path, line, cores, ctx, err);
}

/* The power table (input/power_table.c, checked against the limits) as <energy>. */
static int emit_energy(FILE *f, const char *dir, const dcsim_xml_doc_t *doc, xmlNode *en,
                       const dcsim__calibdir_limits *lim, dcsim_error *err) {
  char *path = dcsim_path_in(dir, dcsim__xml_attr(doc, en, "file"));
  if (!path) return DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  dcsim__power_table P;
  int rc =
      dcsim__power_table_load(path, dcsim__xml_attr(doc, en, "freq"), power_cores_ok, lim, &P, err);
  if (!rc) energy_xml(f, &P, doc, en);
  dcsim__power_table_free(&P);
  free(path);
  return rc;
}

/* The generated-file comment (with machine.xml's <comment>), <cpu-profile> and its <spec>. */
static int profile_head(FILE *f, const char *dir, const char *mpath, const dcsim_xml_doc_t *doc,
                        xmlNode *root, dcsim_error *err) {
  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
  size_t dl = strlen(dir);
  while (dl > 1 && dir[dl - 1] == '/') dl--; /* the directory as it was given */
  char *shown = strndup(dir, dl);
  if (!shown) return DCSIM_ERR(err, DCSIM_ENOMEM, mpath, 0, "out of memory");
  fputs("<!-- GENERATED by \"dcsim calibrate cpu ", f);
  dcsim__xml_comment_text(f, shown); /* the directory used, "--" made safe for a comment */
  free(shown);
  fputs(
      "\" from the tables of that directory\n"
      "     (doc/calibration.md); do not edit by hand: edit them and re-run it.",
      f);
  xmlNode *cm = dcsim__xml_child(root, "comment");
  if (cm) {
    xmlChar *c = xmlNodeGetContent(cm);
    if (!c) return DCSIM_ERR(err, DCSIM_ENOMEM, mpath, 0, "out of memory");
    if (strstr((const char *)c, "--")) {
      xmlFree(c);
      return DCSIM_XML_ERR(err, DCSIM_EPARSE, doc, cm,
                           "<comment>: must not contain \"--\" (it becomes an XML comment)");
    }
    fprintf(f, "\n\n     %s", (const char *)c);
    xmlFree(c);
  }
  fputs(" -->\n<cpu-profile", f);
  attr(f, doc, root, "name");
  attr(f, doc, root, "model");
  attr(f, doc, root, "microarch");
  fputs(">\n  <spec", f);
  xmlNode *spec = dcsim__xml_child(root, "spec");
  const char *spec_attrs[] = { "cores-per-socket", "sockets", "nominal-ghz", "l1-byte",
                               "l2-byte",          "l3-byte", "isa",         "source" };
  for (size_t i = 0; i < sizeof spec_attrs / sizeof *spec_attrs; i++)
    attr(f, doc, spec, spec_attrs[i]);
  fputs("/>\n", f);
  return 0;
}

/* "<name a1=... a2=.../>" with the attributes node has among attrs, on a line of its own. */
static void copy_element(FILE *f, const char *indent, const char *name, const dcsim_xml_doc_t *doc,
                         xmlNode *node, const char *const *attrs, size_t n) {
  fprintf(f, "%s<%s", indent, name);
  for (size_t i = 0; i < n; i++) attr(f, doc, node, attrs[i]);
  fputs("/>\n", f);
}

static const char *const meas_attrs[] = { "level",        "one-core-bps", "ghz",   "socket-bps",
                                          "socket-cores", "basis",        "source" };

/* <price> copied as it is, after <spec>, when the machine has one. */
static void profile_price(FILE *f, const dcsim_xml_doc_t *doc, xmlNode *root) {
  static const char *const price_attrs[] = { "usd", "date", "source" };
  xmlNode *pn = dcsim__xml_child(root, "price");
  if (pn) copy_element(f, "  ", "price", doc, pn, price_attrs, 3);
}

/* <datasheet> copied as it is; its figures into ds (sources borrowed from the document). */
static int profile_datasheet(FILE *f, const dcsim_xml_doc_t *doc, xmlNode *root,
                             dcsim_cpu_datasheet *ds, dcsim_error *err) {
  static const char *const isa_attrs[] = { "flop-per-cycle", "source" };
  static const char *const mem_attrs[] = { "peak-bps", "sustained-bps", "source" };
  xmlNode *dn = dcsim__xml_child(root, "datasheet");
  if (!dn) return 0;
  xmlNode *isa = dcsim__xml_child(dn, "isa"), *mem = dcsim__xml_child(dn, "memory");
  int rc;
  if ((isa &&
       (rc = dcsim__xml_double(doc, isa, "flop-per-cycle", 1, &ds->isa_flop_per_cycle, err))) ||
      (mem &&
       ((rc = dcsim__xml_double(doc, mem, "peak-bps", 1, &ds->mem_peak_bps, err)) ||
        (rc = dcsim__xml_double(doc, mem, "sustained-bps", 0, &ds->mem_sustained_bps, err)))))
    return rc;
  fputs("  <datasheet>\n", f);
  if (isa) {
    ds->isa_source = dcsim__xml_attr(doc, isa, "source");
    copy_element(f, "    ", "isa", doc, isa, isa_attrs, 2);
  }
  if (mem) {
    ds->mem_source = dcsim__xml_attr(doc, mem, "source");
    copy_element(f, "    ", "memory", doc, mem, mem_attrs, 3);
  }
  for (xmlNode *m = dn->children; m; m = m->next) {
    if (m->type != XML_ELEMENT_NODE || !xmlStrEqual(m->name, BAD_CAST "measured")) continue;
    int q;
    if ((rc = dcsim__cpu_measured_parse(doc, m, ds->measured, &q, err))) return rc;
    copy_element(f, "    ", "measured", doc, m, meas_attrs, 7);
  }
  fputs("  </datasheet>\n", f);
  return 0;
}

/* <frequencies> (read by the input layer, input/calibdir.c, into fr; the caller releases it). */
static int profile_freqs(FILE *f, const char *mpath, const dcsim_xml_doc_t *doc, xmlNode *root,
                         dcsim__calibdir_freqs *fr, dcsim_error *err) {
  static const char *const freq_attrs[] = { "id", "ghz", "label", "source" };
  int rc = dcsim__calibdir_freqs_read(mpath, doc, root, fr, err);
  if (rc) return rc;
  fputs("  <frequencies>\n", f);
  xmlNode *fq = dcsim__xml_child(root, "frequencies");
  for (xmlNode *q = dcsim__xml_child(fq, "freq"); q; q = dcsim__xml_next(q, "freq"))
    copy_element(f, "    ", "freq", doc, q, freq_attrs, 4);
  fputs("  </frequencies>\n", f);
  return 0;
}

/* The tables (flops, L1..DRAM, each at most once), their cells into sink. */
static int profile_tables(FILE *f, const char *dir, const dcsim_xml_doc_t *doc, xmlNode *root,
                          const dcsim__calibdir_freqs *fr, const dcsim__calibdir_limits *lim,
                          cell_sink *sink, dcsim_error *err) {
  int rc;
  for (int q = 0; q < 5; q++) {
    xmlNode *found = NULL;
    for (xmlNode *tn = dcsim__xml_child(root, "table"); tn; tn = dcsim__xml_next(tn, "table")) {
      if (strcmp(dcsim__xml_attr(doc, tn, "quantity"), dcsim_cpu_qty_name((dcsim_cpu_qty)q)) != 0)
        continue;
      if (found)
        return DCSIM_XML_ERR(err, DCSIM_ESCHEMA, doc, tn, "<table quantity=\"%s\">: given twice",
                             dcsim_cpu_qty_name((dcsim_cpu_qty)q));
      found = tn;
    }
    if (found && (rc = emit_table(f, dir, doc, found, q, fr, lim, sink, err))) return rc;
  }
  return 0;
}

/* The power table of the profile. */
static int profile_energy(FILE *f, const char *dir, const dcsim_xml_doc_t *doc, xmlNode *root,
                          const dcsim__calibdir_freqs *fr, const dcsim__calibdir_limits *lim,
                          dcsim_error *err) {
  xmlNode *en = dcsim__xml_child(root, "energy");
  if (en) {
    const char *ef = dcsim__xml_attr(doc, en, "freq");
    size_t j = 0;
    while (j < fr->n && strcmp(fr->ids[j], ef) != 0) j++;
    if (j == fr->n)
      return DCSIM_XML_ERR(err, DCSIM_EREF, doc, en, "<energy freq=\"%s\">: unknown frequency id",
                           ef);
    int rc = emit_energy(f, dir, doc, en, lim, err);
    if (rc) return rc;
  }
  return dcsim__calib_emit_power(f, dir, doc, root, err); /* reads the table itself (input/) */
}

/* One calibration directory turned into a profile: its document, cells, fit and reference. */
typedef struct cpu_gen {
  char *mpath;
  dcsim_xml_doc_t *doc;
  dcsim__calibdir_freqs fr;
  cell_sink sink;
  dcsim_cpu_datasheet ds;
  struct cpu_gen *ref;
  dcsim_perf_fit *fit; /* NULL: no parametric model */
} cpu_gen;

static void gen_release(cpu_gen *g) {
  if (!g) return;
  if (g->ref) {
    gen_release(g->ref);
    free(g->ref);
  }
  free(g->fit);
  free(g->sink.obs);
  dcsim__calibdir_freqs_release(&g->fr);
  dcsim__xml_free(g->doc);
  free(g->mpath);
}

static int gen_run(const char *dir, int depth, FILE *f, FILE *report, cpu_gen *g, dcsim_error *err);

/* <perf-fit>: placement and the reference directory (generated first, depth-limited). */
static int gen_reference(const char *dir, int depth, cpu_gen *g, xmlNode *pf, int *scatter,
                         dcsim_error *err) {
  const char *pl = dcsim__xml_attr(g->doc, pf, "placement"), *ref = NULL;
  *scatter = pl && strcmp(pl, "scatter") == 0;
  ref = dcsim__xml_attr(g->doc, pf, "reference");
  if (!ref) return 0;
  if (depth >= 4)
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, g->doc, pf,
                         "<perf-fit reference>: more than 4 references in a chain");
  char *rdir = ref[0] == '/' ? dcsim_strdup(ref) : dcsim_path_in(dir, ref), *buf = NULL;
  size_t len = 0;
  FILE *sink = open_memstream(&buf, &len);
  int rc = 0;
  if (!rdir || !sink || !(g->ref = calloc(1, sizeof *g->ref))) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  } else if ((rc = gen_run(rdir, depth + 1, sink, NULL, g->ref, err))) {
    if (ref[0] == '/')
      dcsim_error_prefix(err, "reference %s of %s", ref, g->mpath);
    else /* a copied directory breaks relative references; say which path to fix */
      dcsim_error_prefix(err,
                         "reference %s of %s (a relative reference= is resolved against the "
                         "directory of that machine.xml, %s: fix <perf-fit reference> there)",
                         ref, g->mpath, dir);
  } else if (!g->ref->fit) {
    rc = DCSIM_XML_ERR(err, DCSIM_EREF, g->doc, pf,
                       "<perf-fit reference=\"%s\">: that directory has no parametric model", ref);
  }
  if (sink) fclose(sink);
  free(buf);
  free(rdir);
  return rc;
}

/* <perf-fit><turbo>: published clocks per active cores of a socket, the model's turbo
 * bins with their own sources; refused beside bins read off a turbo column of the peak table. */
static int published_turbo(cpu_gen *g, xmlNode *pf, dcsim_error *err) {
  dcsim_cpu_perf_model *pm = &g->fit->model;
  for (xmlNode *t = dcsim__xml_child(pf, "turbo"); t; t = dcsim__xml_next(t, "turbo")) {
    if (pm->n_turbo && !g->fit->turbo_bin_src[0])
      return DCSIM_XML_ERR(err, DCSIM_EREF, g->doc, t,
                           "<turbo>: the peak table's turbo column already gives the clock per "
                           "active cores; give one or the other");
    dcsim_cpu_turbo_bin b;
    int rc;
    if ((rc = dcsim__xml_u32(g->doc, t, "cores", 1, &b.cores, err)) ||
        (rc = dcsim__xml_double(g->doc, t, "ghz", 1, &b.ghz, err)))
      return rc;
    if (pm->n_turbo == DCSIM_CPU_MAX_TURBO_BINS || !(b.ghz > 0) ||
        b.cores > g->fit->machine.cores_per_socket ||
        (pm->n_turbo && b.cores <= pm->turbo[pm->n_turbo - 1].cores))
      return DCSIM_XML_ERR(err, DCSIM_ERANGE, g->doc, t,
                           "<turbo cores=\"%u\">: cores must increase from bin to bin up to the "
                           "cores of a socket (%u), ghz be positive, at most %d bins",
                           b.cores, g->fit->machine.cores_per_socket, DCSIM_CPU_MAX_TURBO_BINS);
    g->fit->turbo_bin_src[pm->n_turbo] = dcsim__xml_attr(g->doc, t, "source");
    pm->turbo[pm->n_turbo++] = b;
  }
  return 0;
}

/* The parametric model of the directory: fitted to its cells, the rest from its datasheet and
 * reference (dcsim/fit_perf.h); none for an energy-only directory. */
static int gen_fit(const char *dir, int depth, cpu_gen *g, FILE *f, FILE *report,
                   dcsim_error *err) {
  xmlNode *root = dcsim__xml_root(g->doc), *pf = dcsim__xml_child(root, "perf-fit");
  xmlNode *spec = dcsim__xml_child(root, "spec");
  int scatter = 0, rc;
  if (!g->sink.n && !dcsim__xml_child(root, "datasheet") && !pf) return 0; /* energy only */
  if (pf && (rc = gen_reference(dir, depth, g, pf, &scatter, err))) return rc;
  dcsim_perf_machine m = { .name = dcsim__xml_attr(g->doc, root, "name"),
                           .scatter = scatter,
                           .ds = g->ds };
  if ((rc = dcsim__xml_u32(g->doc, spec, "cores-per-socket", 1, &m.cores_per_socket, err)) ||
      (rc = dcsim__xml_u32(g->doc, spec, "sockets", 1, &m.sockets, err)) ||
      (rc = dcsim__xml_double(g->doc, spec, "nominal-ghz", 1, &m.nominal_ghz, err)))
    return rc;
  if (m.cores_per_socket == 0 || m.sockets == 0 || !(m.nominal_ghz > 0))
    return DCSIM_XML_ERR(err, DCSIM_ERANGE, g->doc, spec,
                         "<spec>: cores-per-socket, sockets and nominal-ghz must be positive");
  memcpy(m.table_source, g->sink.tsrc, sizeof m.table_source);
  if (!(g->fit = malloc(sizeof *g->fit)))
    return DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  if ((rc = dcsim_perf_fit_run(&m, g->sink.obs, g->sink.n, g->ref ? g->ref->fit : NULL, g->fit,
                               err))) {
    dcsim_error_at(err, g->mpath, (int)xmlGetLineNo(pf ? pf : root));
    return rc;
  }
  if (pf && (rc = published_turbo(g, pf, err))) return rc;
  dcsim_perf_fit_xml(f, g->fit);
  if (report) dcsim_perf_fit_report(g->fit, report);
  return 0;
}

/* machine.xml of dir and its tables into the profile text written to f. */
static int gen_run(const char *dir, int depth, FILE *f, FILE *report, cpu_gen *g,
                   dcsim_error *err) {
  int rc;
  dcsim__calibdir_limits lim;
  if (!(g->mpath = dcsim_path_in(dir, "machine.xml")))
    return DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  /* a skeleton of `calibrate cpu --template` still holding FILL makes no profile */
  if ((rc = dcsim_calib_cpu_unfilled(dir, NULL, err))) return rc;
  if ((rc = dcsim__xml_load(g->mpath, "calibration-machine", &g->doc, err))) return rc;
  xmlNode *root = dcsim__xml_root(g->doc);
  if ((rc = profile_head(f, dir, g->mpath, g->doc, root, err)) ||
      (profile_price(f, g->doc, root), 0) ||
      (rc = profile_datasheet(f, g->doc, root, &g->ds, err)) ||
      (rc = profile_freqs(f, g->mpath, g->doc, root, &g->fr, err)) ||
      (rc = dcsim__calibdir_limits_read(g->doc, root, &g->fr, g->ds.isa_flop_per_cycle,
                                        g->ds.mem_peak_bps, &lim, err)) ||
      (rc = profile_tables(f, dir, g->doc, root, &g->fr, &lim, &g->sink, err)) ||
      (rc = gen_fit(dir, depth, g, f, report, err)) ||
      (rc = profile_energy(f, dir, g->doc, root, &g->fr, &lim, err)))
    return rc;
  fputs("</cpu-profile>\n", f);
  return 0;
}

int dcsim_calib_cpu_profile_report(const char *dir, char **text, FILE *report, dcsim_error *err) {
  cpu_gen g;
  memset(&g, 0, sizeof g);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  int rc = f ? gen_run(dir, 0, f, report, &g, err)
             : DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  if (f && fclose(f) != 0 && !rc) rc = DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  if (!rc) {
    *text = buf;
    buf = NULL;
  }
  free(buf);
  gen_release(&g);
  return rc;
}

int dcsim_calib_cpu_profile(const char *dir, char **text, dcsim_error *err) {
  return dcsim_calib_cpu_profile_report(dir, text, NULL, err);
}
