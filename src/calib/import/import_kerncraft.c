/* import_kerncraft.c — a Kerncraft machine file (YAML, read with libyaml) into a calibration
 * directory: machine.xml, flops.csv, L1..DRAM.csv (dcsim/import_cpu.h, doc/calibration.md
 * "Importing a Kerncraft machine file"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "calib/internal.h"
#include "dcsim/import_kerncraft.h"
#include "util/xmlio.h"

/* One import: the options, the YAML document, and what the phases read from it. */
typedef struct kc {
  const char *path, *dir, *test, *src_file; /* src_file: path's last component */
  FILE *report;
  yaml_document_t doc;
  double ghz, flops_cy;  /* clock; DP FLOPs per cycle */
  unsigned sockets, cps; /* sockets; cores per socket */
  int clock_line, flops_line;
  const char *model, *arch; /* NULL when absent */
  double size[3];           /* L1, L2, L3 bytes (L3 per socket); 0 = unknown */
  char fid[32];             /* the one frequency state's id */
  char tsrc[4][512];        /* per level: source of its table */
  int have_level[4];
  char fsrc[512]; /* source of flops.csv */
} kc;

static int yline(const yaml_node_t *n) { return n ? (int)n->start_mark.line + 1 : 0; }

static yaml_node_t *node(kc *k, int id) { return yaml_document_get_node(&k->doc, id); }

/* Scalar text (NULL for a non-scalar or null node). */
static const char *text_of(const yaml_node_t *n) {
  if (!n || n->type != YAML_SCALAR_NODE) return NULL;
  return (const char *)n->data.scalar.value;
}

static yaml_node_t *get(kc *k, yaml_node_t *m, const char *key) {
  if (!m || m->type != YAML_MAPPING_NODE) return NULL;
  for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
    const char *kt = text_of(node(k, p->key));
    if (kt && strcmp(kt, key) == 0) return node(k, p->value);
  }
  return NULL;
}

static int need(kc *k, yaml_node_t *m, const char *key, yaml_node_t **out, dcsim_error *err) {
  *out = get(k, m, key);
  if (!*out) return DCSIM_ERR(err, DCSIM_EREF, k->path, yline(m), "no '%s:'", key);
  return 0;
}

static int uint_of(kc *k, yaml_node_t *n, const char *what, unsigned *out, dcsim_error *err) {
  const char *s = text_of(n);
  if (!s || dcsim_parse_uint(s, 1, 1000000, out) != 0)
    return DCSIM_ERR(err, DCSIM_ERANGE, k->path, yline(n), "%s: '%s' is not a whole number >= 1",
                     what, s ? s : "(not a scalar)");
  return 0;
}

static int qty_of(kc *k, yaml_node_t *n, const char *what, dcsim_unit_kind want,
                  const char *unit_hint, double *out, dcsim_error *err) {
  const char *s = text_of(n);
  dcsim_unit_kind kind;
  if (!s || dcsim__parse_quantity(s, out, &kind) != 0 || kind != want || !(*out > 0))
    return DCSIM_ERR(err, DCSIM_ERANGE, k->path, yline(n),
                     "%s: '%s' is not a positive quantity in %s", what, s ? s : "(not a scalar)",
                     unit_hint);
  return 0;
}

/* Name attribute from the file name: letters, digits and _ . : + - */
static void machine_name(const char *path, char *out, size_t size) {
  const char *b = strrchr(path, '/');
  b = b ? b + 1 : path;
  const char *ext = strrchr(b, '.'); /* drop .yml / .yaml, keep other dots */
  size_t n = ext && ext != b ? (size_t)(ext - b) : strlen(b);
  size_t j = 0;
  for (size_t i = 0; i < n && j + 1 < size; i++) {
    char c = b[i];
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             strchr("_.:+-", c);
    out[j++] = ok ? c : '_';
  }
  out[j] = '\0';
  if (!j) snprintf(out, size, "kerncraft");
}

/* XML-escaped text with "--" broken (it ends up in an XML comment of the profile). */
static void comment_text(FILE *f, const char *s) {
  for (; *s; s++) {
    if (*s == '&')
      fputs("&amp;", f);
    else if (*s == '<')
      fputs("&lt;", f);
    else if (*s == '>')
      fputs("&gt;", f);
    else
      fputc(*s, f);
    if (*s == '-' && (s[1] == '-' || !s[1])) fputc(' ', f);
  }
}

static const char *const kc_levels[] = { "L1", "L2", "L3", "MEM" };
static const char *const dc_levels[] = { "L1", "L2", "L3", "DRAM" };

/* Loads the YAML document of text into k->doc (nothing to delete on failure). */
static int load_document(kc *k, yaml_parser_t *parser, const char *text, dcsim_error *err) {
  yaml_parser_set_input_string(parser, (const unsigned char *)text, strlen(text));
  if (!yaml_parser_load(parser, &k->doc)) {
    char ctx[256] = "";
    if (parser->context)
      snprintf(ctx, sizeof ctx, " %s (from line %d)", parser->context,
               (int)parser->context_mark.line + 1);
    return DCSIM_ERR(err, DCSIM_EPARSE, k->path, (int)parser->problem_mark.line + 1, "YAML: %s%s",
                     parser->problem ? parser->problem : "syntax error", ctx);
  }
  return 0;
}

/* clock, sockets, cores per socket, model name, micro-architecture and DP FLOPs per cycle. */
static int read_machine(kc *k, yaml_node_t *root, dcsim_error *err) {
  yaml_node_t *n, *fl, *dp;
  double hz;
  int rc;
  if ((rc = need(k, root, "clock", &n, err)) ||
      (rc = qty_of(k, n, "clock", DCSIM_UNIT_FREQ, "Hz (e.g. 2.7 GHz)", &hz, err)))
    return rc;
  k->ghz = hz / 1e9;
  k->clock_line = yline(n);
  if ((rc = need(k, root, "sockets", &n, err)) || (rc = uint_of(k, n, "sockets", &k->sockets, err)))
    return rc;
  if ((rc = need(k, root, "cores per socket", &n, err)) ||
      (rc = uint_of(k, n, "cores per socket", &k->cps, err)))
    return rc;
  k->model = text_of(get(k, root, "model name"));
  k->arch = text_of(get(k, root, "micro-architecture"));
  if (!k->arch) k->arch = text_of(get(k, root, "model type"));
  if ((rc = need(k, root, "FLOPs per cycle", &fl, err)) || (rc = need(k, fl, "DP", &dp, err)))
    return rc;
  yaml_node_t *tot = dp->type == YAML_MAPPING_NODE ? get(k, dp, "total") : dp;
  const char *ft = text_of(tot);
  if (!ft || dcsim_parse_double(ft, &k->flops_cy) != 0 || !(k->flops_cy > 0))
    return DCSIM_ERR(err, DCSIM_ERANGE, k->path, yline(tot ? tot : dp),
                     "FLOPs per cycle: DP: total: '%s' is not a positive number",
                     ft ? ft : "(missing)");
  k->flops_line = yline(tot);
  /* the flops of one core per cycle within the range of every calibration cell */
  return dcsim__calibdir_cell_per_cycle(k->path, k->flops_line, "flops", ft,
                                        "flop/cycle (DP total)", 1, 1, k->ghz, "the file's clock",
                                        k->flops_cy * k->ghz * 1e9, err);
}

/* Size of cache level lv (named name, index li: 0..2) from 'size per group:' or 'cache per
 * group:'; L3 is scaled to a whole socket. */
static int level_size(kc *k, yaml_node_t *lv, const char *name, int li, double *out,
                      dcsim_error *err) {
  yaml_node_t *spg = get(k, lv, "size per group"), *cpg = get(k, lv, "cache per group");
  double s = 0;
  int rc;
  if (text_of(spg) && *text_of(spg)) {
    if ((rc = qty_of(k, spg, "size per group", DCSIM_UNIT_BYTES, "bytes (e.g. 32.00 kB)", &s, err)))
      return rc;
  } else if (cpg) {
    unsigned sets, ways, cl;
    yaml_node_t *a, *b, *c;
    if ((rc = need(k, cpg, "sets", &a, err)) || (rc = need(k, cpg, "ways", &b, err)) ||
        (rc = need(k, cpg, "cl_size", &c, err)) || (rc = uint_of(k, a, "sets", &sets, err)) ||
        (rc = uint_of(k, b, "ways", &ways, err)) || (rc = uint_of(k, c, "cl_size", &cl, err)))
      return rc;
    s = (double)sets * ways * cl;
  } else {
    return DCSIM_ERR(err, DCSIM_EREF, k->path, yline(lv),
                     "memory hierarchy level %s: no 'size per group:' nor 'cache per group:'",
                     name);
  }
  if (li == 2) { /* the profile's l3-byte is per socket */
    unsigned cores = k->cps;
    yaml_node_t *cg = get(k, lv, "cores per group");
    if (cg && (rc = uint_of(k, cg, "cores per group", &cores, err))) return rc;
    if (cores < k->cps) s *= (double)k->cps / cores;
  }
  *out = s;
  return 0;
}

/* memory hierarchy: sizes of L1, L2, L3 */
static int read_cache_sizes(kc *k, yaml_node_t *root, dcsim_error *err) {
  yaml_node_t *mh;
  int rc;
  if ((rc = need(k, root, "memory hierarchy", &mh, err))) return rc;
  if (mh->type != YAML_SEQUENCE_NODE)
    return DCSIM_ERR(err, DCSIM_EPARSE, k->path, yline(mh),
                     "memory hierarchy: expected a list of levels");
  for (yaml_node_item_t *it = mh->data.sequence.items.start; it < mh->data.sequence.items.top;
       it++) {
    yaml_node_t *lv = node(k, *it), *ln;
    if ((rc = need(k, lv, "level", &ln, err))) return rc;
    const char *name = text_of(ln);
    int li = -1;
    for (int j = 0; j < 3; j++)
      if (name && strcmp(name, kc_levels[j]) == 0) li = j;
    if (li < 0) continue; /* MEM has no size */
    if ((rc = level_size(k, lv, name, li, &k->size[li], err))) return rc;
  }
  return 0;
}

/* The thread counts (*thr) and the bandwidths of kernel k->test (*kern) of measurement block m
 * of level li, checked to be lists of one length. */
static int find_kernel(kc *k, int li, yaml_node_t *m, yaml_node_t **thr, yaml_node_t **kern,
                       dcsim_error *err) {
  yaml_node_t *tpc, *res;
  int rc;
  if (!(tpc = get(k, m, "1")))
    return DCSIM_ERR(err, DCSIM_EREF, k->path, yline(m),
                     "measurements %s: no '1:' block (1 thread per core)", kc_levels[li]);
  *thr = get(k, tpc, "threads");
  if (!*thr) *thr = get(k, tpc, "cores");
  if ((rc = need(k, tpc, "results", &res, err))) return rc;
  if (!*thr || (*thr)->type != YAML_SEQUENCE_NODE)
    return DCSIM_ERR(err, DCSIM_EREF, k->path, yline(tpc),
                     "measurements %s: no 'threads:' (or 'cores:') list", kc_levels[li]);
  *kern = get(k, res, k->test);
  if (!*kern) {
    dcsim_str have = DCSIM_STR_INIT;
    if (res->type == YAML_MAPPING_NODE)
      for (yaml_node_pair_t *p = res->data.mapping.pairs.start; p < res->data.mapping.pairs.top;
           p++) {
        const char *kt = text_of(node(k, p->key));
        dcsim_str_addf(&have, "%s%s", have.len ? ", " : "", kt ? kt : "?");
      }
    if (have.oom) return DCSIM_ERR(err, DCSIM_ENOMEM, k->path, yline(res), "out of memory");
    rc = DCSIM_ERR(
        err, DCSIM_EREF, k->path, yline(res),
        "measurements %s: no results for kernel '%s' (there are: %s); choose one with --test",
        kc_levels[li], k->test, dcsim_str_cstr(&have));
    dcsim_str_release(&have);
    return rc;
  }
  size_t nt = (size_t)((*thr)->data.sequence.items.top - (*thr)->data.sequence.items.start);
  if ((*kern)->type != YAML_SEQUENCE_NODE ||
      (size_t)((*kern)->data.sequence.items.top - (*kern)->data.sequence.items.start) != nt)
    return DCSIM_ERR(
        err, DCSIM_EPARSE, k->path, yline(*kern),
        "measurements %s: results %s: expected a list of %zu bandwidths, one per thread count",
        kc_levels[li], k->test, nt);
  return 0;
}

/* rows[i]: thread count thr[i] and bandwidth kern[i] in GB/s (digits kept as written). */
static int bandwidth_rows(kc *k, int li, yaml_node_t *thr, yaml_node_t *kern, dcsim_calib_row *rows,
                          size_t nt, dcsim_error *err) {
  int rc;
  for (size_t i = 0; i < nt; i++) {
    yaml_node_t *tn = node(k, thr->data.sequence.items.start[i]),
                *bn = node(k, kern->data.sequence.items.start[i]);
    double bw;
    if ((rc = uint_of(k, tn, "threads", &rows[i].threads, err))) return rc;
    for (size_t j = 0; j < i; j++)
      if (rows[j].threads == rows[i].threads)
        return DCSIM_ERR(err, DCSIM_EPARSE, k->path, yline(tn),
                         "measurements %s: %u threads listed twice", kc_levels[li],
                         rows[i].threads);
    if ((rc = qty_of(k, bn, "bandwidth", DCSIM_UNIT_RATE, "B/s (e.g. 24.15 GB/s)", &bw, err)))
      return rc;
    const char *bt = text_of(bn);
    /* the rule of every calibration cell, at the file's clock */
    if ((rc = dcsim__calibdir_cell_per_cycle(k->path, yline(bn), dc_levels[li], bt, "",
                                             rows[i].threads, k->cps * k->sockets, k->ghz,
                                             "the file's clock", bw, err)))
      return rc;
    size_t num = strspn(bt, "0123456789.");
    if (num && strcmp(bt + num, " GB/s") == 0 &&
        num < sizeof rows[i].value) /* copy the digits as written */
      snprintf(rows[i].value, sizeof rows[i].value, "%.*s", (int)num, bt);
    else
      snprintf(rows[i].value, sizeof rows[i].value, "%.10g", bw / 1e9);
  }
  return 0;
}

/* benchmarks: measurements: LEVEL: 1 (thread per core): threads, results: KERNEL: [bandwidths]
 * of level li (block m) into dir/<level>.csv. */
static int import_level(kc *k, int li, yaml_node_t *m, dcsim_error *err) {
  dcsim_calib_row *rows = NULL;
  yaml_node_t *thr = NULL, *kern = NULL;
  int rc;
  if ((rc = find_kernel(k, li, m, &thr, &kern, err))) goto out;
  size_t nt = (size_t)(thr->data.sequence.items.top - thr->data.sequence.items.start);
  rows = calloc(nt ? nt : 1, sizeof *rows);
  if (!rows) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, k->path, 0, "out of memory");
    goto out;
  }
  if ((rc = bandwidth_rows(k, li, thr, kern, rows, nt, err))) goto out;
  snprintf(
      k->tsrc[li], sizeof k->tsrc[li],
      "Kerncraft machine file %s:%d (benchmarks, measurements, %s, 1 thread per core, kernel %s)",
      k->src_file, yline(kern), kc_levels[li], k->test);
  char *comment = dcsim_strdup_printf(
      "GENERATED by dcsim calibrate import-kerncraft %s (doc/calibration.md):\n%s bandwidth, %s",
      k->src_file, dc_levels[li], k->tsrc[li]);
  rc = comment
           ? dcsim__calib_write_table(k->dir, dc_levels[li], k->fid, "GB/s", rows, nt, comment, err)
           : DCSIM_ERR(err, DCSIM_ENOMEM, k->dir, 0, "out of memory");
  free(comment);
  if (rc) goto out;
  k->have_level[li] = 1;
  if (k->report)
    fprintf(k->report, "%s.csv: %zu thread counts from %s, kernel %s\n", dc_levels[li], nt,
            kc_levels[li], k->test);
out:
  free(rows);
  return rc;
}

/* flops: the theoretical peak, FLOPs per cycle x clock x cores (Kerncraft measures no peak) */
static int write_flops(kc *k, dcsim_error *err) {
  dcsim_calib_row *rows = calloc(k->cps, sizeof *rows);
  int rc;
  if (!rows) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, k->path, 0, "out of memory");
    goto out;
  }
  for (unsigned c = 1; c <= k->cps; c++) {
    rows[c - 1].threads = c;
    snprintf(rows[c - 1].value, sizeof rows[c - 1].value, "%.10g", k->flops_cy * k->ghz * c);
  }
  snprintf(k->fsrc, sizeof k->fsrc,
           "derived: Kerncraft machine file %s:%d FLOPs per cycle DP total %.10g x clock %.10g GHz "
           "x cores (theoretical peak, not measured)",
           k->src_file, k->flops_line, k->flops_cy, k->ghz);
  char *fcomment = dcsim_strdup_printf(
      "GENERATED by dcsim calibrate import-kerncraft %s (doc/calibration.md):\n%s", k->src_file,
      k->fsrc);
  rc = fcomment ? dcsim__calib_write_table(k->dir, "flops", k->fid, "GFLOP/s", rows, k->cps,
                                           fcomment, err)
                : DCSIM_ERR(err, DCSIM_ENOMEM, k->dir, 0, "out of memory");
  free(fcomment);
  if (rc) goto out;
  if (k->report)
    fprintf(k->report, "flops.csv: 1..%u cores, %.10g flop/cycle x %.10g GHz (theoretical)\n",
            k->cps, k->flops_cy, k->ghz);
out:
  free(rows);
  return rc;
}

/* The text of machine.xml (named name) on f. */
static void emit_machine_xml(FILE *f, const kc *k, const char *name) {
  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
  fprintf(f,
          "<!-- GENERATED by \"dcsim calibrate import-kerncraft\" from the Kerncraft machine file "
          "%s\n     (doc/calibration.md). -->\n",
          k->src_file);
  fputs("<calibration-machine name=\"", f);
  dcsim__xml_escape(f, name);
  fputs("\" model=\"", f);
  dcsim__xml_escape(f, k->model ? k->model : name);
  fputc('"', f);
  if (k->arch) {
    fputs(" microarch=\"", f);
    dcsim__xml_escape(f, k->arch);
    fputc('"', f);
  }
  fputs(">\n  <comment>", f);
  char ctext[1024];
  snprintf(ctext, sizeof ctext,
           "Imported from the Kerncraft machine file %s by dcsim calibrate import-kerncraft.\n"
           "     * Bandwidths: benchmarks/measurements (likwid-bench runs by Kerncraft), kernel "
           "%s, 1 thread per core.\n"
           "     * flops: theoretical peak, %.10g DP flop/cycle x %.10g GHz x cores; Kerncraft "
           "measures no peak.\n"
           "     * One frequency state, the file's clock; no energy table.",
           k->src_file, k->test, k->flops_cy, k->ghz);
  comment_text(f, ctext);
  fprintf(f, "</comment>\n  <spec cores-per-socket=\"%u\" sockets=\"%u\" nominal-ghz=\"%.10g\"",
          k->cps, k->sockets, k->ghz);
  static const char *const sattr[3] = { "l1-byte", "l2-byte", "l3-byte" };
  for (int j = 0; j < 3; j++)
    if (k->size[j] > 0) fprintf(f, " %s=\"%.10g\"", sattr[j], k->size[j]);
  fputs(" source=\"Kerncraft machine file ", f);
  dcsim__xml_escape(f, k->src_file);
  fputs(" (clock, sockets, cores per socket, memory hierarchy)\"/>\n  <frequencies>\n", f);
  fprintf(f, "    <freq id=\"%s\" ghz=\"%.10g\" source=\"Kerncraft machine file ", k->fid, k->ghz);
  dcsim__xml_escape(f, k->src_file);
  fprintf(
      f,
      ":%d clock\"/>\n  </frequencies>\n  <table quantity=\"flops\" file=\"flops.csv\" source=\"",
      k->clock_line);
  dcsim__xml_escape(f, k->fsrc);
  fputs("\"/>\n", f);
  for (int li = 0; li < 4; li++) {
    if (!k->have_level[li]) continue;
    fprintf(f, "  <table quantity=\"%s\" file=\"%s.csv\" source=\"", dc_levels[li], dc_levels[li]);
    dcsim__xml_escape(f, k->tsrc[li]);
    fputs("\"/>\n", f);
  }
  fputs("</calibration-machine>\n", f);
}

/* dir/machine.xml */
static int write_machine(kc *k, dcsim_error *err) {
  char *mx = NULL, *mpath = NULL;
  size_t mxlen = 0;
  char name[128];
  int rc;
  machine_name(k->path, name, sizeof name);
  FILE *f = open_memstream(&mx, &mxlen);
  if (!f) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, k->path, 0, "out of memory");
    goto out;
  }
  emit_machine_xml(f, k, name);
  if (fclose(f) != 0) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, k->path, 0, "out of memory");
    goto out;
  }
  mpath = dcsim_path_in(k->dir, "machine.xml");
  if (!mpath) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, k->dir, 0, "out of memory");
    goto out;
  }
  if ((rc = dcsim__file_write_atomic(mpath, mx, err))) goto out;
  if (k->report)
    fprintf(k->report, "machine.xml: %s, %u socket%s x %u cores, %.10g GHz; wrote %s\n", name,
            k->sockets, k->sockets == 1 ? "" : "s", k->cps, k->ghz, k->dir);
out:
  free(mx);
  free(mpath);
  return rc;
}

int dcsim_calib_import_kerncraft(const char *path, const char *dir, const char *test, FILE *report,
                                 dcsim_error *err) {
  kc K = { .path = path, .dir = dir, .test = test ? test : "load", .report = report };
  kc *k = &K;
  yaml_parser_t parser;
  int have_parser = 0, have_doc = 0, rc;
  char *text = NULL;
  yaml_node_t *root, *bench, *meas;
  k->src_file = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  if ((rc = dcsim__file_read_text(path, &text, err))) goto out;
  if (!yaml_parser_initialize(&parser)) {
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
    goto out;
  }
  have_parser = 1;
  if ((rc = load_document(k, &parser, text, err))) goto out;
  have_doc = 1;
  root = yaml_document_get_root_node(&k->doc);
  if (!root || root->type != YAML_MAPPING_NODE) {
    rc = DCSIM_ERR(err, DCSIM_EPARSE, path, root ? yline(root) : 1,
                   "not a Kerncraft machine file: the document is not a mapping");
    goto out;
  }
  if ((rc = read_machine(k, root, err)) || (rc = read_cache_sizes(k, root, err)) ||
      (rc = need(k, root, "benchmarks", &bench, err)) ||
      (rc = need(k, bench, "measurements", &meas, err)) || (rc = dcsim__mkdir_p(dir, err)))
    goto out;
  snprintf(k->fid, sizeof k->fid, "%.10g", k->ghz);
  for (int li = 0; li < 4; li++) {
    yaml_node_t *m = get(k, meas, kc_levels[li]);
    if (m && (rc = import_level(k, li, m, err))) goto out;
  }
  if ((rc = write_flops(k, err)) || (rc = write_machine(k, err))) goto out;
out:
  if (have_doc) yaml_document_delete(&k->doc);
  if (have_parser) yaml_parser_delete(&parser);
  free(text);
  return rc;
}
