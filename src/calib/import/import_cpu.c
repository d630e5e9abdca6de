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

/* ` NAME="value"` as written in machine.xml; nothing when absent. */
static void attr(FILE *f, const char *name, const char *value) {
  dcsim__xml_put_attr(f, name, value);
}

static int cmp_row(const void *a, const void *b) {
  const dcsim_calib_row *x = a, *y = b;
  return x->threads < y->threads ? -1 : x->threads > y->threads;
}

int dcsim__calib_write_table(const char *dir, const char *quantity, const char *freq_id,
                             const char *unit, dcsim_calib_row *rows, size_t n_rows,
                             const char *comment, dcsim_error *err) {
  char *file = dcsim_strdup_printf("%s.csv", quantity);
  char *path = file ? dcsim_path_in(dir, file) : NULL, *buf = NULL;
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
  free(file);
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
                      const dcsim__cm_table *tn) {
  size_t nf = T->nf;
  fprintf(f, "  <table quantity=\"%s\" unit=\"", T->qty);
  dcsim__xml_escape(f, T->unit);
  fputs("\" freqs=\"", f);
  for (size_t ci = 0; ci < nf; ci++) fprintf(f, "%s%s", ci ? " " : "", ids[T->freq_of[ci]]);
  fputc('"', f);
  attr(f, "source", tn->source);
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

/* Quantity q's <table> from its CSV (read by the input layer, input/calibdir.c), its cells into
 * sink. */
static int emit_table(FILE *f, const char *dir, const dcsim__calib_machine *m, int q,
                      cell_sink *sink, dcsim_error *err) {
  const dcsim__cm_table *tn = &m->table[q];
  char *path = dcsim_path_in(dir, tn->file);
  if (!path) return DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  dcsim__calibdir_table T;
  int rc = dcsim__calibdir_table_load(path, dcsim_cpu_qty_name((dcsim_cpu_qty)q), m->fr.ids,
                                      m->fr.n, &m->lim, &T, err);
  if (!rc) rc = table_cells(&T, q, &m->fr, sink, err);
  if (!rc) {
    table_xml(f, &T, m->fr.ids, tn);
    sink->tsrc[q] = tn->source;
  }
  dcsim__calibdir_table_free(&T);
  free(path);
  return rc;
}

/* The <energy> element of the states. */
static void energy_xml(FILE *f, const dcsim__power_table *P, const dcsim__cm_energy *en) {
  const dcsim__power_state *rows = P->states;
  fputs("  <energy", f);
  attr(f, "freq", en->freq);
  attr(f, "other-frequencies", en->other_frequencies);
  attr(f, "borrowed-from", en->borrowed_from);
  attr(f, "source", en->source);
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
static int emit_energy(FILE *f, const char *dir, const dcsim__calib_machine *m, dcsim_error *err) {
  char *path = dcsim_path_in(dir, m->energy.file);
  if (!path) return DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  dcsim__power_table P;
  int rc = dcsim__power_table_load(path, m->energy.freq, power_cores_ok, &m->lim, &P, err);
  if (!rc) energy_xml(f, &P, &m->energy);
  dcsim__power_table_free(&P);
  free(path);
  return rc;
}

/* The generated-file comment (with machine.xml's <comment>), <cpu-profile> and its <spec>. */
static int profile_head(FILE *f, const char *dir, const dcsim__calib_machine *m, dcsim_error *err) {
  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
  size_t dl = strlen(dir);
  while (dl > 1 && dir[dl - 1] == '/') dl--; /* the directory as it was given */
  char *shown = strndup(dir, dl);
  if (!shown) return DCSIM_ERR(err, DCSIM_ENOMEM, m->path, 0, "out of memory");
  fputs("<!-- GENERATED by \"dcsim calibrate cpu ", f);
  dcsim__xml_comment_text(f, shown); /* the directory used, "--" made safe for a comment */
  free(shown);
  fputs(
      "\" from the tables of that directory\n"
      "     (doc/calibration.md); do not edit by hand: edit them and re-run it.",
      f);
  if (m->comment) fprintf(f, "\n\n     %s", m->comment); /* without "--" (input/calibmachine.c) */
  fputs(" -->\n<cpu-profile", f);
  attr(f, "name", m->name);
  attr(f, "model", m->model);
  attr(f, "microarch", m->microarch);
  fputs(">\n  <spec", f);
  const dcsim__cm_spec *s = &m->spec;
  attr(f, "cores-per-socket", s->cores_per_socket_text);
  attr(f, "sockets", s->sockets_text);
  attr(f, "nominal-ghz", s->nominal_ghz_text);
  attr(f, "l1-byte", s->l1_byte);
  attr(f, "l2-byte", s->l2_byte);
  attr(f, "l3-byte", s->l3_byte);
  attr(f, "isa", s->isa);
  attr(f, "source", s->source);
  fputs("/>\n", f);
  return 0;
}

/* <price> copied as it is, after <spec>, when the machine has one. */
static void profile_price(FILE *f, const dcsim__calib_machine *m) {
  if (!m->price_usd) return;
  fputs("  <price", f);
  attr(f, "usd", m->price_usd);
  attr(f, "date", m->price_date);
  attr(f, "source", m->price_source);
  fputs("/>\n", f);
}

/* <datasheet> copied as it is (its figures are in m->ds). */
static void profile_datasheet(FILE *f, const dcsim__calib_machine *m) {
  const dcsim__cm_datasheet *d = &m->datasheet;
  if (!d->line) return;
  fputs("  <datasheet>\n", f);
  if (d->isa_flop_per_cycle) {
    fputs("    <isa", f);
    attr(f, "flop-per-cycle", d->isa_flop_per_cycle);
    attr(f, "source", d->isa_source);
    fputs("/>\n", f);
  }
  if (d->mem_peak_bps) {
    fputs("    <memory", f);
    attr(f, "peak-bps", d->mem_peak_bps);
    attr(f, "sustained-bps", d->mem_sustained_bps);
    attr(f, "source", d->mem_source);
    fputs("/>\n", f);
  }
  for (size_t i = 0; i < d->n_measured; i++) {
    const dcsim__cm_measured *e = &d->measured[i];
    fputs("    <measured", f);
    attr(f, "level", e->level);
    attr(f, "one-core-bps", e->one_core_bps);
    attr(f, "ghz", e->ghz);
    attr(f, "socket-bps", e->socket_bps);
    attr(f, "socket-cores", e->socket_cores);
    attr(f, "basis", e->basis);
    attr(f, "source", e->source);
    fputs("/>\n", f);
  }
  fputs("  </datasheet>\n", f);
}

/* <frequencies> as written. */
static void profile_freqs(FILE *f, const dcsim__calibdir_freqs *fr) {
  fputs("  <frequencies>\n", f);
  for (size_t k = 0; k < fr->n; k++) {
    fputs("    <freq", f);
    attr(f, "id", fr->ids[k]);
    attr(f, "ghz", fr->ghz_text[k]);
    attr(f, "label", fr->labels[k]);
    attr(f, "source", fr->sources[k]);
    fputs("/>\n", f);
  }
  fputs("  </frequencies>\n", f);
}

/* The tables (flops, L1..DRAM, each at most once: input/calibmachine.c), their cells into sink. */
static int profile_tables(FILE *f, const char *dir, const dcsim__calib_machine *m, cell_sink *sink,
                          dcsim_error *err) {
  int rc;
  for (int q = 0; q < DCSIM_CPU_NQTY; q++)
    if (m->table[q].file && (rc = emit_table(f, dir, m, q, sink, err))) return rc;
  return 0;
}

/* The power table of the profile (its freq= one of the frequency ids: input/calibmachine.c). */
static int profile_energy(FILE *f, const char *dir, const dcsim__calib_machine *m,
                          dcsim_error *err) {
  int rc;
  if (m->energy.line && (rc = emit_energy(f, dir, m, err))) return rc;
  return dcsim__calib_emit_power(f, dir, m, err); /* reads the table itself (input/) */
}

/* One calibration directory turned into a profile: its document, cells, fit and reference. */
typedef struct cpu_gen {
  char *mpath;
  dcsim__calib_machine m; /* machine.xml as read by the input layer */
  cell_sink sink;
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
  dcsim__calib_machine_release(&g->m);
  free(g->mpath);
}

static int gen_run(const char *dir, int depth, FILE *f, FILE *report, cpu_gen *g, dcsim_error *err);

/* <perf-fit>: placement and the reference directory (generated first, depth-limited). */
static int gen_reference(const char *dir, int depth, cpu_gen *g, dcsim_error *err) {
  const dcsim__cm_perf_fit *pf = &g->m.perf_fit;
  const char *ref = pf->reference;
  if (!ref) return 0;
  if (depth >= 4)
    return DCSIM_ERR(err, DCSIM_ERANGE, g->m.path, pf->line,
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
    rc = DCSIM_ERR(err, DCSIM_EREF, g->m.path, pf->line,
                   "<perf-fit reference=\"%s\">: that directory has no parametric model", ref);
  }
  if (sink) fclose(sink);
  free(buf);
  free(rdir);
  return rc;
}

/* <perf-fit><turbo>: published clocks per active cores of a socket, the model's turbo
 * bins with their own sources; refused beside bins read off a turbo column of the peak table. */
static int published_turbo(cpu_gen *g, dcsim_error *err) {
  dcsim_cpu_perf_model *pm = &g->fit->model;
  const dcsim__cm_perf_fit *pf = &g->m.perf_fit;
  for (size_t i = 0; i < pf->n_turbo; i++) {
    const dcsim__cm_turbo *t = &pf->turbo[i];
    if (pm->n_turbo && !g->fit->turbo_bin_src[0])
      return DCSIM_ERR(err, DCSIM_EREF, g->m.path, t->line,
                       "<turbo>: the peak table's turbo column already gives the clock per "
                       "active cores; give one or the other");
    dcsim_cpu_turbo_bin b = { .cores = t->cores, .ghz = t->ghz };
    if (pm->n_turbo == DCSIM_CPU_MAX_TURBO_BINS || !(b.ghz > 0) ||
        b.cores > g->fit->machine.cores_per_socket ||
        (pm->n_turbo && b.cores <= pm->turbo[pm->n_turbo - 1].cores))
      return DCSIM_ERR(err, DCSIM_ERANGE, g->m.path, t->line,
                       "<turbo cores=\"%u\">: cores must increase from bin to bin up to the "
                       "cores of a socket (%u), ghz be positive, at most %d bins",
                       b.cores, g->fit->machine.cores_per_socket, DCSIM_CPU_MAX_TURBO_BINS);
    g->fit->turbo_bin_src[pm->n_turbo] = t->source;
    pm->turbo[pm->n_turbo++] = b;
  }
  return 0;
}

/* The parametric model of the directory: fitted to its cells, the rest from its datasheet and
 * reference (dcsim/fit_perf.h); none for an energy-only directory. */
static int gen_fit(const char *dir, int depth, cpu_gen *g, FILE *f, FILE *report,
                   dcsim_error *err) {
  const dcsim__calib_machine *cm = &g->m;
  const dcsim__cm_perf_fit *pf = &cm->perf_fit;
  int rc;
  if (!g->sink.n && !cm->datasheet.line && !pf->line) return 0; /* energy only */
  if (pf->line && (rc = gen_reference(dir, depth, g, err))) return rc;
  dcsim_perf_machine m = { .name = cm->name,
                           .cores_per_socket = cm->spec.cores_per_socket,
                           .sockets = cm->spec.sockets,
                           .nominal_ghz = cm->spec.nominal_ghz,
                           .scatter = pf->scatter,
                           .ds = cm->ds };
  if (m.cores_per_socket == 0 || m.sockets == 0 || !(m.nominal_ghz > 0))
    return DCSIM_ERR(err, DCSIM_ERANGE, cm->path, cm->spec.line,
                     "<spec>: cores-per-socket, sockets and nominal-ghz must be positive");
  memcpy(m.table_source, g->sink.tsrc, sizeof m.table_source);
  if (!(g->fit = malloc(sizeof *g->fit)))
    return DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  if ((rc = dcsim_perf_fit_run(&m, g->sink.obs, g->sink.n, g->ref ? g->ref->fit : NULL, g->fit,
                               err))) {
    dcsim_error_at(err, g->mpath, pf->line ? pf->line : cm->line);
    return rc;
  }
  if (pf->line && (rc = published_turbo(g, err))) return rc;
  dcsim_perf_fit_xml(f, g->fit);
  if (report) dcsim_perf_fit_report(g->fit, report);
  return 0;
}

/* machine.xml of dir and its tables into the profile text written to f. */
static int gen_run(const char *dir, int depth, FILE *f, FILE *report, cpu_gen *g,
                   dcsim_error *err) {
  int rc;
  if (!(g->mpath = dcsim_path_in(dir, "machine.xml")))
    return DCSIM_ERR(err, DCSIM_ENOMEM, dir, 0, "out of memory");
  /* a skeleton of `calibrate cpu --template` still holding FILL makes no profile */
  if ((rc = dcsim_calib_cpu_unfilled(dir, NULL, err))) return rc;
  if ((rc = dcsim__calib_machine_load(g->mpath, &g->m, err)) ||
      (rc = profile_head(f, dir, &g->m, err)))
    return rc;
  profile_price(f, &g->m);
  profile_datasheet(f, &g->m);
  profile_freqs(f, &g->m.fr);
  if ((rc = profile_tables(f, dir, &g->m, &g->sink, err)) ||
      (rc = gen_fit(dir, depth, g, f, report, err)) || (rc = profile_energy(f, dir, &g->m, err)))
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
