/* sweep_io.c — the points of a sweep in files: JSON, CSV and text out, JSON and CSV back in
 * (see dcsim/sweep_io.h, doc/sweep.md). */
#include "dcsim/sweep_io.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "dcsim/json.h"
#include "dcsim/numfmt.h"
#include "dcsim/provenance.h"
#include "dcsim/stats.h"
#include "dcsim/strutil.h"
#include "sweep/sweep_fields.h"
#include "sweep/sweep_file_fields.h"
#include "util/csv.h"
#include "util/fileio.h"
#include "util/record.h"

void dcsim_sweep_points_free(dcsim_sweep_point *pts, size_t n) {
  if (!pts) return;
  for (size_t i = 0; i < n; i++) free(pts[i].reason);
  free(pts);
}

/* ---- objectives and cost notes ---- */

int dcsim_objectives_parse(const char *s, unsigned *out, dcsim_error *err) {
  static const char *const names[] = { "time", "energy", "cost" };
  unsigned obj = 0, n = 0;
  const char *p = s;
  while (p && *p) {
    const char *c = strchr(p, ',');
    size_t l = c ? (size_t)(c - p) : strlen(p);
    int k = 0;
    while (k < 3 && !(strlen(names[k]) == l && strncmp(p, names[k], l) == 0)) k++;
    if (k == 3 || (obj & (1u << k)))
      return DCSIM_PERR(err, DCSIM_EUSAGE, "objectives", -1,
                        "'%s': expected two or three of time, energy, cost, each once "
                        "(time,energy; time,cost; energy,cost; time,energy,cost)",
                        s);
    obj |= 1u << k;
    n++;
    p = c ? c + 1 : NULL;
  }
  if (n < 2)
    return DCSIM_PERR(err, DCSIM_EUSAGE, "objectives", -1,
                      "'%s': a front needs two or three of time, energy, cost", s);
  *out = obj;
  return 0;
}

const char *dcsim_objectives_name(unsigned obj) {
  switch (obj) {
    case DCSIM_OBJ_TIME | DCSIM_OBJ_COST: return "time,cost";
    case DCSIM_OBJ_ENERGY | DCSIM_OBJ_COST: return "energy,cost";
    case DCSIM_OBJ_TIME | DCSIM_OBJ_ENERGY | DCSIM_OBJ_COST: return "time,energy,cost";
    default: return "time,energy";
  }
}

/* the cost note of p (dcsim_sweep_cost_note) appended to b */
static void cost_note_add(dcsim_str *b, const dcsim_sweep_point *p) {
  if (p->feasible && p->cost_missing[0] && p->gpu[0] && !strcmp(p->cost_missing, p->host_cpu))
    dcsim_str_addf(
        b, "no price for %s (give --price %s=USD, or choose the GPU nodes' CPU with --host-cpu)",
        p->cost_missing, p->cost_missing);
  else if (p->feasible && p->cost_missing[0])
    dcsim_str_addf(b, "no price for %s (give --price %s=USD)", p->cost_missing, p->cost_missing);
  else if (p->feasible && !isfinite(p->energy_j))
    dcsim_str_add(b, "energy unknown, so its electricity cost is");
}

void dcsim_sweep_cost_note(const dcsim_sweep_point *p, char *buf, size_t size) {
  dcsim_str b = DCSIM_STR_INIT;
  cost_note_add(&b, p);
  dcsim_str_copy_to(&b, buf, size); /* cut to the caller's buffer, as before */
  dcsim_str_release(&b);
}

int dcsim_sweep_check_objectives(const dcsim_sweep_point *pts, size_t n, unsigned obj,
                                 const char *file, dcsim_error *err) {
  if (!(obj & DCSIM_OBJ_COST)) return 0; /* time and energy are known for every feasible point */
  size_t feasible = 0;
  const dcsim_sweep_point *first = NULL;
  for (size_t i = 0; i < n; i++) {
    if (!pts[i].done || !pts[i].feasible) continue;
    feasible++;
    if (isfinite(pts[i].cost_usd)) return 0;
    if (!first) first = &pts[i];
  }
  if (!first) return 0; /* no feasible point: the caller's own error */
  dcsim_str note = DCSIM_STR_INIT;
  cost_note_add(&note, first);
  int rc = DCSIM_ERR(err, DCSIM_ERANGE, file, 0,
                     "--objectives %s: the cost of every feasible point (%zu) is unknown, so the "
                     "front is empty: %s%s",
                     dcsim_objectives_name(obj), feasible, note.len ? note.s : "no cost recorded",
                     feasible > 1 ? " (the first; see the cost_note column of --format csv)" : "");
  dcsim_str_release(&note);
  return rc;
}

/* ---- the file field table (sweep/sweep_file_fields.h) ---- */

/* how a file field's value is written and read (KIND) */
typedef enum sfk {
  DCSIM__SFK_INDEX,  /* uint32_t: a number; read when 0 <= it < 4e9, else 0 */
  DCSIM__SFK_TEXT,   /* a char array: a CSV cell, a JSON string; read as it is (cut to fit) */
  DCSIM__SFK_COUNT,  /* unsigned: a number; read when 1 <= it <= MAX, else 0 */
  DCSIM__SFK_REAL,   /* double: %.10g; read: empty or null is NaN (unknown) */
  DCSIM__SFK_FLAG,   /* int 0/1: CSV 0 or 1, JSON false or true; read: 1 or true is 1 */
  DCSIM__SFK_REASON, /* the point's char *reason (JSON: "" when NULL); read when not empty */
  DCSIM__SFK_PROV,   /* unsigned char dcsim_prov_kind: its name; read: the name, or table when
                        empty; another word is an error */
  DCSIM__SFK_NOTE,   /* written: dcsim_sweep_cost_note(); read: the profile it names into the char
                        array cost_missing */
  DCSIM__SFK_BAND,   /* double[2]: two CSV cells, a JSON [low, high]; never read (recomputed) */
  DCSIM__SFK_VARIANT /* a char array, "" written as "measured" (--threading); read as TEXT */
} sfk;

/* when a CSV column, and the JSON key, is in the file (COLUMN) */
typedef enum sfc {
  DCSIM__SFC_ALL,
  DCSIM__SFC_AXES,
  DCSIM__SFC_VARIANTS,
  DCSIM__SFC_TURBO,
  DCSIM__SFC_COVER
} sfc;

/* when a cell holds the value, a key is there, a JSON value is not null (CSV_WHEN, KEY_WHEN,
 * JSON_WHEN), by the point */
typedef enum sfw {
  DCSIM__SFW_ALWAYS,
  DCSIM__SFW_NONZERO,        /* the count is not 0 */
  DCSIM__SFW_NONEMPTY,       /* the text is not "" */
  DCSIM__SFW_FEASIBLE,       /* the point is feasible */
  DCSIM__SFW_FINITE,         /* feasible and the value is finite */
  DCSIM__SFW_ENERGY,         /* feasible and its energy is known */
  DCSIM__SFW_REASON,         /* the point has a reason */
  DCSIM__SFW_WHY,            /* infeasible, or feasible with a reason (why its energy is unknown) */
  DCSIM__SFW_NOTE,           /* its cost note is not "" */
  DCSIM__SFW_BAND,           /* its bands are marked */
  DCSIM__SFW_BAND_FEAS,      /* feasible and its bands marked */
  DCSIM__SFW_BAND_ENERGY,    /* its bands marked and its energy known */
  DCSIM__SFW_COST_BAND,      /* its cost band is marked */
  DCSIM__SFW_COST_BAND_FEAS, /* feasible, its bands and its cost band marked */
  DCSIM__SFW_COVER,          /* feasible and its time cover above 1 */
} sfw;

/* the cell getters of the text table's columns (TEXT's CELL; written below) */
typedef const char *text_cell_fn(const dcsim__text_col *c, const void *row, dcsim_str *b,
                                 int *rest);
static text_cell_fn text_value, text_gpu, text_time, text_energy, text_cost, text_time_from,
    text_energy_from, text_front;
#define text_none NULL

typedef struct file_field {
  const char *csv, *json;
  int rank;
  size_t offset, size;
  sfk kind;
  double max;
  sfc column;
  sfw csv_when, key_when, json_when;
  int read;
  const char *unit, *since;
  /* the text table's column (dcsim__text_col): its place (0: none), header, least width, the
   * spaces before it, whether it widens to its cells, its cell getter */
  int trank;
  const char *theader;
  int twidth, tgap, tfit;
  text_cell_fn *tcell;
} file_field;

#define FILE_TEXT(trank, header, width, gap, fit, cell) trank, header, width, gap, fit, text_##cell
#define FILE_FIELD(csv, json, rank, member, kind, max, column, csv_when, key_when, json_when, \
                   read, unit, since, text)                                                   \
  { csv,                                                                                      \
    json,                                                                                     \
    rank,                                                                                     \
    offsetof(dcsim_sweep_point, member),                                                      \
    sizeof(((dcsim_sweep_point *)0)->member),                                                 \
    DCSIM__SFK_##kind,                                                                        \
    max,                                                                                      \
    DCSIM__SFC_##column,                                                                      \
    DCSIM__SFW_##csv_when,                                                                    \
    DCSIM__SFW_##key_when,                                                                    \
    DCSIM__SFW_##json_when,                                                                   \
    read,                                                                                     \
    unit,                                                                                     \
    since,                                                                                    \
    FILE_TEXT text },
static const file_field file_fields[] = { DCSIM_SWEEP_POINT_FILE_FIELDS(FILE_FIELD) };
#define N_FILE_FIELDS (sizeof file_fields / sizeof *file_fields)

#define MEMBER(p, f, type)  ((type *)(void *)((char *)(p) + (f)->offset))
#define CMEMBER(p, f, type) ((const type *)(const void *)((const char *)(p) + (f)->offset))

/* which columns an array of points has (COLUMN) */
typedef struct file_columns {
  int axes;     /* a point sets --gpus or --host-cpu */
  int variants; /* a point runs the ideal thread-scaling variant: only then do the
                   writers name each point's variant, so that the outputs of sweeps without
                   `--threading ideal` stay as they were; a missing column means measured */
  int turbo;    /* a point's time band reaches the nominal clock's time (turbo_unmeasured): only
                   then is the column there, likewise; a missing column means 0 */
  int cover;    /* a point's time band reaches beyond its class band (time_cover > 1): only
                   then is the column there, likewise; a missing column means no cover */
} file_columns;

static file_columns columns_of(const dcsim_sweep_point *pts, size_t n) {
  file_columns c = { 0, 0, 0, 0 };
  for (size_t i = 0; i < n; i++) {
    c.axes |= pts[i].gpus || pts[i].host_cpu[0];
    c.variants |= pts[i].done && strcmp(pts[i].threading, "ideal") == 0;
    c.turbo |= pts[i].done && pts[i].feasible && pts[i].turbo_unmeasured;
    c.cover |= pts[i].done && pts[i].feasible && pts[i].time_cover > 1;
  }
  return c;
}

static int has_column(const file_field *f, const file_columns *c) {
  return f->column == DCSIM__SFC_ALL || (f->column == DCSIM__SFC_AXES && c->axes) ||
         (f->column == DCSIM__SFC_VARIANTS && c->variants) ||
         (f->column == DCSIM__SFC_TURBO && c->turbo) || (f->column == DCSIM__SFC_COVER && c->cover);
}

/* whether the condition w holds for field f of p (note: p's cost note) */
static int holds(sfw w, const file_field *f, const dcsim_sweep_point *p, const char *note) {
  switch (w) {
    case DCSIM__SFW_ALWAYS: return 1;
    case DCSIM__SFW_NONZERO: return *CMEMBER(p, f, unsigned) != 0;
    case DCSIM__SFW_NONEMPTY: return CMEMBER(p, f, char)[0] != '\0';
    case DCSIM__SFW_FEASIBLE: return p->feasible;
    case DCSIM__SFW_FINITE: return p->feasible && isfinite(*CMEMBER(p, f, double));
    case DCSIM__SFW_ENERGY: return p->feasible && isfinite(p->energy_j);
    case DCSIM__SFW_REASON: return p->reason != NULL;
    case DCSIM__SFW_WHY: return !p->feasible || p->reason;
    case DCSIM__SFW_NOTE: return note[0] != '\0';
    case DCSIM__SFW_BAND: return p->has_band;
    case DCSIM__SFW_BAND_FEAS: return p->feasible && p->has_band;
    case DCSIM__SFW_BAND_ENERGY: return p->has_band && isfinite(p->energy_j);
    case DCSIM__SFW_COST_BAND: return p->has_cost_band;
    case DCSIM__SFW_COST_BAND_FEAS: return p->feasible && p->has_band && p->has_cost_band;
    case DCSIM__SFW_COVER: return p->feasible && p->time_cover > 1;
  }
  return 0;
}

static const char *threading_of(const dcsim_sweep_point *p) {
  return p->threading[0] ? p->threading : "measured";
}

/* ---- writing ---- */

/* the value of field f of p as JSON (note: p's cost note) */
static void json_value(dcsim_json *j, const file_field *f, const dcsim_sweep_point *p,
                       const char *note) {
  switch (f->kind) {
    case DCSIM__SFK_INDEX: dcsim_json_int(j, *CMEMBER(p, f, uint32_t)); break;
    case DCSIM__SFK_TEXT: dcsim_json_str(j, CMEMBER(p, f, char)); break;
    case DCSIM__SFK_COUNT: dcsim_json_int(j, *CMEMBER(p, f, unsigned)); break;
    case DCSIM__SFK_REAL: dcsim_json_num(j, *CMEMBER(p, f, double)); break;
    case DCSIM__SFK_FLAG: dcsim_json_bool(j, *CMEMBER(p, f, int)); break;
    case DCSIM__SFK_REASON: dcsim_json_str(j, p->reason ? p->reason : ""); break;
    case DCSIM__SFK_PROV:
      dcsim_json_str(j, dcsim_prov_name((dcsim_prov_kind)*CMEMBER(p, f, unsigned char)));
      break;
    case DCSIM__SFK_NOTE: dcsim_json_str(j, note); break;
    case DCSIM__SFK_BAND:
      dcsim_json_arr_begin(j);
      dcsim_json_num(j, CMEMBER(p, f, double)[0]);
      dcsim_json_num(j, CMEMBER(p, f, double)[1]);
      dcsim_json_arr_end(j);
      break;
    case DCSIM__SFK_VARIANT: dcsim_json_str(j, threading_of(p)); break;
  }
}

/* the CSV cell of field f of p (a band: two cells) */
static void csv_value(FILE *out, const file_field *f, const dcsim_sweep_point *p,
                      const char *note) {
  switch (f->kind) {
    case DCSIM__SFK_INDEX: fprintf(out, "%u", (unsigned)*CMEMBER(p, f, uint32_t)); break;
    case DCSIM__SFK_TEXT: dcsim__csv_write_cell(out, CMEMBER(p, f, char)); break;
    case DCSIM__SFK_COUNT: fprintf(out, "%u", *CMEMBER(p, f, unsigned)); break;
    case DCSIM__SFK_REAL: fprintf(out, "%.10g", *CMEMBER(p, f, double)); break;
    case DCSIM__SFK_FLAG: fprintf(out, "%d", *CMEMBER(p, f, int)); break;
    case DCSIM__SFK_REASON: dcsim__csv_write_cell(out, p->reason ? p->reason : ""); break;
    case DCSIM__SFK_PROV:
      dcsim__csv_write_cell(out, dcsim_prov_name((dcsim_prov_kind)*CMEMBER(p, f, unsigned char)));
      break;
    case DCSIM__SFK_NOTE: dcsim__csv_write_cell(out, note); break;
    case DCSIM__SFK_BAND:
      fprintf(out, "%.10g,%.10g", CMEMBER(p, f, double)[0], CMEMBER(p, f, double)[1]);
      break;
    case DCSIM__SFK_VARIANT: dcsim__csv_write_cell(out, threading_of(p)); break;
  }
}

/* a point's JSON object: its keys in RANK order */
static void json_point(dcsim_json *j, const dcsim_sweep_point *p, const file_columns *c) {
  dcsim_str note = DCSIM_STR_INIT;
  cost_note_add(&note, p);
  const char *nt = dcsim_str_cstr(&note);
  dcsim_json_obj_begin(j);
  for (int rank = 1; rank <= (int)N_FILE_FIELDS; rank++)
    for (size_t i = 0; i < N_FILE_FIELDS; i++) {
      const file_field *f = &file_fields[i];
      if (f->rank != rank || !has_column(f, c) || !holds(f->key_when, f, p, nt)) continue;
      dcsim_json_key(j, f->json);
      if (holds(f->json_when, f, p, nt))
        json_value(j, f, p, nt);
      else
        dcsim_json_null(j);
    }
  dcsim_json_obj_end(j);
  dcsim_str_release(&note);
}

void dcsim_sweep_write_json(FILE *f, const dcsim_sweep_point *pts, size_t n,
                            const dcsim_repro *rp) {
  fputs("{", f);
  if (rp) {
    dcsim_json j;
    fputs("\n\"dcsim\": ", f);
    dcsim_json_init(&j, f, 0);
    dcsim_repro_json_value(&j, rp);
    fputc(',', f);
  }
  fputs("\n\"points\": [", f);
  file_columns c = columns_of(pts, n);
  int first = 1;
  for (size_t i = 0; i < n; i++) {
    if (!pts[i].done) continue;
    fputs(first ? "\n  " : ",\n  ", f);
    first = 0;
    dcsim_json j;
    dcsim_json_init(&j, f, 0);
    json_point(&j, &pts[i], &c);
  }
  fputs(first ? "]\n}\n" : "\n]\n}\n", f);
}

/* a point's CSV line: its cells in table order, empty when CSV_WHEN does not hold */
static void csv_point(FILE *out, const dcsim_sweep_point *p, const file_columns *c) {
  dcsim_str note = DCSIM_STR_INIT;
  cost_note_add(&note, p);
  const char *nt = dcsim_str_cstr(&note);
  int first = 1;
  for (size_t i = 0; i < N_FILE_FIELDS; i++) {
    const file_field *f = &file_fields[i];
    if (!has_column(f, c)) continue;
    if (!first) fputc(',', out);
    first = 0;
    if (holds(f->csv_when, f, p, nt))
      csv_value(out, f, p, nt);
    else if (f->kind == DCSIM__SFK_BAND)
      fputc(',', out); /* its two cells */
  }
  fputc('\n', out);
  dcsim_str_release(&note);
}

void dcsim_sweep_write_csv(FILE *f, const dcsim_sweep_point *pts, size_t n, const dcsim_repro *rp) {
  if (rp) dcsim_repro_csv(f, rp);
  file_columns c = columns_of(pts, n);
  int first = 1;
  for (size_t i = 0; i < N_FILE_FIELDS; i++) {
    if (!has_column(&file_fields[i], &c)) continue;
    fprintf(f, "%s%s", first ? "" : ",", file_fields[i].csv);
    first = 0;
  }
  fputc('\n', f);
  for (size_t i = 0; i < n; i++)
    if (pts[i].done) csv_point(f, &pts[i], &c);
}

static const char *const sort_keys[] = { "point", "time", "energy", "cost" };

/* the value a point is sorted by (key: an index into sort_keys); NaN: unknown */
static double sort_value(const dcsim_sweep_point *p, int key) {
  if (key == 0) return p->index;
  if (!p->feasible) return NAN;
  return key == 1 ? p->time_s : key == 2 ? p->energy_j : p->cost_usd;
}

int dcsim_sweep_sorted(const dcsim_sweep_point *pts, size_t n, const char *key,
                       dcsim_sweep_point **out, dcsim_error *err) {
  int k = dcsim_sort_key_index(key, sort_keys, 4), rc = -1;
  *out = NULL;
  if (k < 0)
    return DCSIM_PERR(err, DCSIM_EUSAGE, "sort_key", -1,
                      "'%s': the points sort by point, time, energy or cost", key);
  double *v = malloc((n ? n : 1) * sizeof *v);
  size_t *by_index = malloc((n ? n : 1) * sizeof *by_index),
         *order = malloc((n ? n : 1) * sizeof *order);
  dcsim_sweep_point *r = malloc((n ? n : 1) * sizeof *r);
  if (!v || !by_index || !order || !r) goto out;
  /* first by point index, then by the key: equal keys keep the index order */
  for (size_t i = 0; i < n; i++) v[i] = pts[i].index;
  if (dcsim_sort_order(v, n, by_index)) goto out;
  for (size_t i = 0; i < n; i++) v[i] = sort_value(&pts[by_index[i]], k);
  if (dcsim_sort_order(v, n, order)) goto out;
  for (size_t i = 0; i < n; i++) r[i] = pts[by_index[order[i]]];
  *out = r;
  r = NULL;
  rc = 0;
out:
  if (rc) rc = DCSIM_ERR(err, DCSIM_ENOMEM, NULL, 0, "out of memory sorting %zu points", n);
  free(v);
  free(by_index);
  free(order);
  free(r);
  return rc;
}

/* ---- the text table: its columns from the file field table's TEXT ---- */

/* a column's point and field */
#define TEXT_POINT(row) ((const dcsim_sweep_point *)(row))
#define TEXT_FIELD(col) ((const file_field *)(col)->arg)

static const char *banded(dcsim_str *b, double x, const double *band);

/* CELL value: the field by its KIND; an empty text, a 0 count, an unknown or infeasible point's
 * number is "-" */
static const char *text_value(const dcsim__text_col *c, const void *row, dcsim_str *b, int *rest) {
  (void)rest;
  const file_field *f = TEXT_FIELD(c);
  const dcsim_sweep_point *p = TEXT_POINT(row);
  switch (f->kind) {
    case DCSIM__SFK_INDEX: dcsim_str_addf(b, "%u", (unsigned)*CMEMBER(p, f, uint32_t)); break;
    case DCSIM__SFK_TEXT: return CMEMBER(p, f, char)[0] ? CMEMBER(p, f, char) : "-";
    case DCSIM__SFK_COUNT:
      if (!*CMEMBER(p, f, unsigned)) return "-";
      dcsim_str_addf(b, "%u", *CMEMBER(p, f, unsigned));
      break;
    case DCSIM__SFK_REAL: /* a feasible point's finite value, DCSIM_NUM_DIGITS digits */
      if (!p->feasible || !isfinite(*CMEMBER(p, f, double))) return "-";
      return banded(b, *CMEMBER(p, f, double), NULL);
    case DCSIM__SFK_VARIANT: return threading_of(p);
    case DCSIM__SFK_PROV: return dcsim_prov_name((dcsim_prov_kind)*CMEMBER(p, f, unsigned char));
    default: return ""; /* a kind no text column has by value */
  }
  return dcsim_str_cstr(b);
}

/* CELL gpu: the GPU, "x N" per node with --gpus, "on HOST" with --host-cpu */
static const char *text_gpu(const dcsim__text_col *c, const void *row, dcsim_str *b, int *rest) {
  (void)c;
  (void)rest;
  const dcsim_sweep_point *p = TEXT_POINT(row);
  dcsim_str_add(b, p->gpu[0] ? p->gpu : "-");
  if (p->gpus) dcsim_str_addf(b, " x%u", p->gpus);
  if (p->host_cpu[0]) dcsim_str_addf(b, " on %s", p->host_cpu);
  return dcsim_str_cstr(b);
}

/* a feasible point's value with its band when marked (band: NULL when not), each to the digits
 * its band supports (dcsim/numfmt.h), into b */
static const char *banded(dcsim_str *b, double x, const double *band) {
  char num[96]; /* a number and its band: bounded, as DCSIM_SIG */
  if (band)
    dcsim_fmt_band(num, sizeof num, x, band, NULL);
  else
    dcsim_fmt_sig(num, sizeof num, x, DCSIM_NUM_DIGITS);
  dcsim_str_add(b, num);
  return dcsim_str_cstr(b);
}

/* CELL time, energy, cost: "-" for an infeasible point; an unknown energy is "unknown" (the note
 * under the table says why), an unknown cost "-" */
static const char *text_time(const dcsim__text_col *c, const void *row, dcsim_str *b, int *rest) {
  (void)c;
  (void)rest;
  const dcsim_sweep_point *p = TEXT_POINT(row);
  if (!p->feasible) return "-";
  return banded(b, p->time_s, p->has_band ? p->time_band : NULL);
}

static const char *text_energy(const dcsim__text_col *c, const void *row, dcsim_str *b, int *rest) {
  (void)c;
  (void)rest;
  const dcsim_sweep_point *p = TEXT_POINT(row);
  if (!p->feasible) return "-";
  if (!isfinite(p->energy_j)) return "unknown";
  return banded(b, p->energy_j, p->has_band ? p->energy_band : NULL);
}

static const char *text_cost(const dcsim__text_col *c, const void *row, dcsim_str *b, int *rest) {
  (void)c;
  (void)rest;
  const dcsim_sweep_point *p = TEXT_POINT(row);
  if (!p->feasible) return "-";
  if (p->has_cost_band) return banded(b, p->cost_usd, p->cost_band);
  return isfinite(p->cost_usd) ? banded(b, p->cost_usd, NULL) : "-";
}

/* CELL time_from: where the time comes from; an infeasible point's "infeasible: why" instead,
 * taking the rest of the line */
static const char *text_time_from(const dcsim__text_col *c, const void *row, dcsim_str *b,
                                  int *rest) {
  const dcsim_sweep_point *p = TEXT_POINT(row);
  if (p->feasible) return text_value(c, row, b, rest);
  *rest = 1;
  dcsim_str_addf(b, "infeasible: %s", p->reason ? p->reason : "");
  return dcsim_str_cstr(b);
}

/* CELL energy_from: where the energy comes from, "unknown" when it is */
static const char *text_energy_from(const dcsim__text_col *c, const void *row, dcsim_str *b,
                                    int *rest) {
  return isfinite(TEXT_POINT(row)->energy_j) ? text_value(c, row, b, rest) : "unknown";
}

/* CELL front: the point's place on the front (knee, yes, indistinguishable) and whether it is the
 * balance point of its series */
static const char *text_front(const dcsim__text_col *c, const void *row, dcsim_str *b, int *rest) {
  (void)c;
  (void)rest;
  const dcsim_sweep_point *p = TEXT_POINT(row);
  dcsim_str_add(b, p->knee ? "knee" : p->pareto ? "yes" : p->near_front ? "indistinguishable" : "");
  if (p->balance)
    dcsim_str_add(b, p->pareto || p->near_front ? ", balance point" : "balance point");
  return dcsim_str_cstr(b);
}

/* The text table's columns shown for points of columns c, in increasing TRANK, into cols (room
 * for every field); their number. */
static size_t text_columns(dcsim__text_col *cols, const file_columns *c) {
  size_t n = 0;
  for (size_t i = 0; i < N_FILE_FIELDS; i++) {
    const file_field *f = &file_fields[i];
    if (!f->trank || !has_column(f, c)) continue;
    size_t k = n++; /* insertion: the table is short, its TRANKs distinct */
    for (; k > 0 && ((const file_field *)cols[k - 1].arg)->trank > f->trank; k--)
      cols[k] = cols[k - 1];
    cols[k] = (dcsim__text_col){ f->theader, f->twidth, f->tgap, f->tfit, f->tcell, f };
  }
  return n;
}

void dcsim_sweep_write_text(FILE *f, const dcsim_sweep_point *pts, size_t n, int summary) {
  size_t feasible = 0, front = 0, shown = 0;
  file_columns c = columns_of(pts, n);
  dcsim__text_col cols[N_FILE_FIELDS];
  size_t nc = text_columns(cols, &c);
  for (size_t i = 0; i < n; i++) /* the name columns widen for longer names */
    if (pts[i].done) dcsim__text_fit(cols, nc, &pts[i]);
  dcsim__text_header(cols, nc, f);
  size_t no_cost = 0, no_energy = 0;
  const dcsim_sweep_point *first_no_cost = NULL, *first_no_energy = NULL;
  for (size_t i = 0; i < n; i++) {
    const dcsim_sweep_point *p = &pts[i];
    if (!p->done) continue;
    shown++;
    dcsim__text_row(cols, nc, f, p);
    if (!p->feasible) continue;
    feasible++;
    front += p->pareto != 0;
    if (!isfinite(p->cost_usd) && !no_cost++) first_no_cost = p;
    if (!isfinite(p->energy_j) && !no_energy++) first_no_energy = p;
  }
  if (summary) {
    size_t near = 0;
    for (size_t i = 0; i < n; i++) near += pts[i].done && pts[i].near_front;
    fprintf(f, "\n%zu %s: %zu feasible, %zu infeasible; %zu on the Pareto front", shown,
            dcsim_plural(shown, "point", "points"), feasible, shown - feasible, front);
    if (near)
      fprintf(f, ", %zu more indistinguishable from it (their bands meet a front point's)", near);
    fputc('\n', f);
  }
  if (summary && no_cost) {
    dcsim_str note = DCSIM_STR_INIT;
    cost_note_add(&note, first_no_cost);
    fprintf(f, "cost unknown for %zu feasible %s: %s%s\n", no_cost,
            dcsim_plural(no_cost, "point", "points"), dcsim_str_cstr(&note),
            no_cost > 1 ? " (the first; see the cost_note column of --format csv)" : "");
    dcsim_str_release(&note);
  }
  if (summary && no_energy) { /* the times stand, the energies are not made up */
    const char *why = first_no_energy->reason ? first_no_energy->reason : "";
    if (strncmp(why, "energy unknown: ", 16) == 0) why += 16;
    fprintf(f, "energy unknown for %zu feasible %s (on no Pareto front): %s%s\n", no_energy,
            dcsim_plural(no_energy, "point", "points"), why,
            no_energy > 1 ? " (the first's reason; each point's is in the reason column)" : "");
  }
}

/* ---- reading points back (dcsim pareto) ---- */

/* the field read back under a CSV column name or a JSON key (json: 1), NULL when none is */
static const file_field *field_named(const char *name, int json) {
  for (size_t i = 0; i < N_FILE_FIELDS; i++)
    if (strcmp(json ? file_fields[i].json : file_fields[i].csv, name) == 0) return &file_fields[i];
  return NULL;
}

/* whether a CSV cell of field f is text (else a number, as an unknown column's cells are) */
static int csv_text(const file_field *f) {
  return f &&
         (f->kind == DCSIM__SFK_TEXT || f->kind == DCSIM__SFK_VARIANT ||
          f->kind == DCSIM__SFK_REASON || f->kind == DCSIM__SFK_PROV || f->kind == DCSIM__SFK_NOTE);
}

/* Sets field f of pt from a cell or a JSON scalar (str: its text, "" for a number or null; num:
 * its number, NaN for a text; is_null: empty or null). 0; -2 for a provenance that is none; -3
 * for a text longer than its member holds; -1 when out of memory. Fields not read back (READ 0) are
 * left as they are. */
static int set_field(dcsim_sweep_point *pt, const file_field *f, const char *str, double num,
                     int is_null) {
  if (!f || !f->read) return 0;
  switch (f->kind) {
    case DCSIM__SFK_INDEX:
      *MEMBER(pt, f, uint32_t) = num >= 0 && num < 4e9 ? (uint32_t)num : 0;
      break;
    case DCSIM__SFK_TEXT:
    case DCSIM__SFK_VARIANT: /* a name cut to fit would be looked up as another profile */
      if (dcsim_bufprintf(MEMBER(pt, f, char), f->size, "%s", str) != 0) return -3;
      break;
    case DCSIM__SFK_COUNT:
      *MEMBER(pt, f, unsigned) = is_null || !(num >= 1 && num <= f->max) ? 0 : (unsigned)num;
      break;
    case DCSIM__SFK_REAL: *MEMBER(pt, f, double) = is_null ? NAN : num; break;
    case DCSIM__SFK_FLAG: *MEMBER(pt, f, int) = num == 1; break;
    case DCSIM__SFK_REASON:
      if (!str[0]) break;
      free(pt->reason);
      if (!(pt->reason = dcsim_strdup(str))) return -1;
      break;
    case DCSIM__SFK_PROV: {
      dcsim_prov_kind k = DCSIM_PROV_TABLE;
      if (!is_null && str[0] && dcsim_prov_parse(str, &k) != 0) return -2;
      *MEMBER(pt, f, unsigned char) = (unsigned char)k;
      break;
    }
    case DCSIM__SFK_NOTE:
      if (str[0]) dcsim__sweep_cost_missing_parse(str, MEMBER(pt, f, char), f->size);
      break;
    case DCSIM__SFK_BAND: break; /* recomputed from the provenance (dcsim/sweep_bands.h) */
  }
  return 0;
}

/* a new point at the end of *pts: done, feasible until read otherwise, its position as index */
static dcsim_sweep_point *new_point(dcsim_sweep_point **pts, size_t *n, size_t *cap) {
  if (DCSIM_GROW(*pts, *cap, *n + 1)) return NULL;
  dcsim_sweep_point *pt = &(*pts)[(*n)++];
  memset(pt, 0, sizeof *pt);
  pt->index = (uint32_t)(*n - 1);
  pt->done = 1;
  pt->feasible = 1;
  pt->time_s = pt->energy_j = pt->cost_usd = NAN;
  return pt;
}

/* a feasible point: finite, non-negative time; energy the same, or empty/null = unknown (a
 * profile without power data: on no front) */
static int check_feasible(const dcsim_sweep_point *pt) {
  return !pt->feasible || (isfinite(pt->time_s) && pt->time_s >= 0 &&
                           (isnan(pt->energy_j) || (isfinite(pt->energy_j) && pt->energy_j >= 0)));
}

/* JSON: an array of flat objects. The structure is walked here so that every error names its line
 * and field; each key and value is decoded by jansson. */
typedef struct jwalk {
  const char *s;
  size_t i, n;
  int line;
} jwalk;

static void jw_ws(jwalk *w) {
  while (w->i < w->n && isspace((unsigned char)w->s[w->i])) {
    if (w->s[w->i] == '\n') w->line++;
    w->i++;
  }
}

/* skips blanks; consumes c when it comes next */
static int jw_is(jwalk *w, char c) {
  jw_ws(w);
  if (w->i >= w->n || w->s[w->i] != c) return 0;
  w->i++;
  return 1;
}

/* the JSON value at the cursor (after blanks), decoded by jansson; NULL when there is none */
static json_t *jw_value(jwalk *w) {
  json_error_t je;
  jw_ws(w);
  json_t *v = json_loadb(w->s + w->i, w->n - w->i, JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK, &je);
  if (v) w->i += (size_t)je.position; /* a value holds no raw line break */
  return v;
}

/* a string, number, true/false (*num 1/0) or null (*is_null) as set_field takes it (*str: the
 * string, valid while v is, or ""); -1 for an array or object */
static int scalar_of(const json_t *v, const char **str, double *num, int *is_null) {
  *is_null = 0;
  *str = "";
  *num = NAN;
  if (json_is_string(v))
    *str = json_string_value(v);
  else if (json_is_number(v))
    *num = json_number_value(v);
  else if (json_is_boolean(v))
    *num = json_is_true(v);
  else if (json_is_null(v))
    *is_null = 1;
  else
    return -1;
  return 0;
}

/* the key at the cursor (a JSON string) in a new string, or NULL (*oom 1 when out of memory) */
static char *jw_key(jwalk *w, int *oom) {
  json_t *v = jw_value(w);
  char *key = json_is_string(v) ? dcsim_strdup(json_string_value(v)) : NULL;
  *oom = json_is_string(v) && !key;
  json_decref(v);
  return key;
}

/* one "key": value of a point, at the cursor */
static int read_json_field(jwalk *w, const char *path, dcsim_sweep_point *pt, dcsim_error *err) {
  int line = w->line, oom, rc = 0;
  char *key = jw_key(w, &oom);
  json_t *v = NULL;
  if (!key)
    return DCSIM_ERR(err, oom ? DCSIM_ENOMEM : DCSIM_EPARSE, path, line,
                     oom ? "out of memory" : "expected a key");
  if (!jw_is(w, ':')) {
    rc = DCSIM_ERR(err, DCSIM_EPARSE, path, w->line, "expected ':' after \"%s\"", key);
    goto out;
  }
  jw_ws(w);
  line = w->line;
  v = jw_value(w);
  const file_field *f = field_named(key, 1);
  const char *str;
  double num;
  int is_null;
  /* a band is an array, recomputed from the provenance (dcsim/sweep_bands.h): skipped */
  int skip = v && json_is_array(v) && f && f->kind == DCSIM__SFK_BAND;
  if (!v || (!skip && scalar_of(v, &str, &num, &is_null) != 0)) {
    rc = DCSIM_ERR(err, DCSIM_EPARSE, path, line,
                   "\"%s\": expected a string, number, true, false or null", key);
    goto out;
  }
  int sf = skip ? 0 : set_field(pt, f, str, num, is_null);
  if (sf == -2)
    rc = DCSIM_ERR(err, DCSIM_EPARSE, path, line,
                   "\"%s\": '%s' is not table, interpolated, extrapolated or spec", key, str);
  else if (sf == -3)
    rc = DCSIM_ERR(err, DCSIM_ERANGE, path, line,
                   "\"%s\": '%.40s...' is longer than %zu bytes, the most a sweep point holds", key,
                   str, f->size - 1);
  else if (sf)
    rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, w->line, "out of memory");
out:
  json_decref(v);
  free(key);
  return rc;
}

/* the fields of one point, after its '{' */
static int read_json_fields(jwalk *w, const char *path, dcsim_sweep_point *pt, dcsim_error *err) {
  if (jw_is(w, '}')) return 0;
  for (;;) {
    jw_ws(w);
    int rc = read_json_field(w, path, pt, err);
    if (rc) return rc;
    if (jw_is(w, ',')) continue;
    if (jw_is(w, '}')) return 0;
    return DCSIM_ERR(err, DCSIM_EPARSE, path, w->line, "expected ',' or '}'");
  }
}

/* the points of the array, after its '[' */
static int read_json_points(jwalk *w, const char *path, dcsim_sweep_point **pts, size_t *n,
                            dcsim_error *err) {
  size_t cap = 0;
  if (jw_is(w, ']')) return 0;
  for (;;) {
    if (!jw_is(w, '{'))
      return DCSIM_ERR(err, DCSIM_EPARSE, path, w->line, "expected '{' (a sweep point)");
    int line = w->line, rc;
    dcsim_sweep_point *pt = new_point(pts, n, &cap);
    if (!pt) return DCSIM_ERR(err, DCSIM_ENOMEM, path, line, "out of memory");
    if ((rc = read_json_fields(w, path, pt, err))) return rc;
    if (!check_feasible(pt))
      return DCSIM_ERR(err, DCSIM_ERANGE, path, line,
                       "point %zu: a feasible point needs finite, non-negative time_s and "
                       "energy_j",
                       *n - 1);
    if (jw_is(w, ',')) continue;
    if (jw_is(w, ']')) return 0;
    return DCSIM_ERR(err, DCSIM_EPARSE, path, w->line, "expected ',' or ']'");
  }
}

/* one "key": value of {"dcsim": {...}, "points": [...]}, at the cursor: the points (*seen 1);
 * other keys are skipped */
static int read_json_member(jwalk *w, const char *path, dcsim_sweep_point **pts, size_t *n,
                            int *seen, dcsim_error *err) {
  int line = w->line, oom, rc = 0;
  char *key = jw_key(w, &oom);
  if (!key)
    return DCSIM_ERR(err, oom ? DCSIM_ENOMEM : DCSIM_EPARSE, path, line,
                     oom ? "out of memory" : "expected a key");
  if (!jw_is(w, ':')) {
    rc = DCSIM_ERR(err, DCSIM_EPARSE, path, w->line, "expected ':' after \"%s\"", key);
  } else if (strcmp(key, "points") == 0) {
    if (!jw_is(w, '['))
      rc = DCSIM_ERR(err, DCSIM_EPARSE, path, w->line, "\"points\": expected an array");
    else if (!(rc = read_json_points(w, path, pts, n, err)))
      *seen = 1;
  } else {
    json_t *v = jw_value(w); /* "dcsim" and keys of later versions */
    if (!v) rc = DCSIM_ERR(err, DCSIM_EPARSE, path, w->line, "\"%s\": bad value", key);
    json_decref(v);
  }
  free(key);
  return rc;
}

/* {"dcsim": {...}, "points": [...]}, after its '{': the points; other keys are skipped */
static int read_json_object(jwalk *w, const char *path, dcsim_sweep_point **pts, size_t *n,
                            dcsim_error *err) {
  int seen = 0, rc;
  for (;;) {
    jw_ws(w);
    if ((rc = read_json_member(w, path, pts, n, &seen, err))) return rc;
    if (jw_is(w, ',')) continue;
    if (jw_is(w, '}')) break;
    return DCSIM_ERR(err, DCSIM_EPARSE, path, w->line, "expected ',' or '}'");
  }
  if (!seen) return DCSIM_ERR(err, DCSIM_EPARSE, path, w->line, "no \"points\" array");
  return 0;
}

static int read_json(const char *path, const char *text, size_t len, dcsim_sweep_point **out,
                     size_t *n_out, dcsim_error *err) {
  jwalk w = { text, 0, len, 1 };
  dcsim_sweep_point *pts = NULL;
  size_t n = 0;
  int rc = -1;
  if (jw_is(&w, '{'))
    rc = read_json_object(&w, path, &pts, &n, err);
  else if (jw_is(&w, '['))
    rc = read_json_points(&w, path, &pts, &n, err);
  else
    rc = DCSIM_ERR(err, DCSIM_EPARSE, path, w.line,
                   "expected a JSON object with \"points\" (or an array) of sweep points");
  if (rc) goto out;
  jw_ws(&w);
  if (w.i < w.n) {
    rc = DCSIM_ERR(err, DCSIM_EPARSE, path, w.line, "text after the points");
    goto out;
  }
  *out = pts;
  *n_out = n;
  pts = NULL;
out:
  dcsim_sweep_points_free(pts, n);
  return rc;
}

/* CSV: a header naming the columns (time_s and energy_j at least), then one point per line */
static int read_csv_header(const char *path, int line, char **hdr, size_t nh, dcsim_error *err) {
  int has_t = 0, has_e = 0;
  for (size_t k = 0; k < nh; k++) {
    has_t |= strcmp(hdr[k], "time_s") == 0;
    has_e |= strcmp(hdr[k], "energy_j") == 0;
  }
  if (!has_t || !has_e)
    return DCSIM_ERR(err, DCSIM_EPARSE, path, line,
                     "CSV header needs the columns time_s and energy_j");
  return 0;
}

/* one point from its cells, under the header's column names */
static int read_csv_point(const char *path, int line, char *const *hdr, size_t nh,
                          char *const *cells, size_t nc, dcsim_sweep_point *pt, dcsim_error *err) {
  for (size_t k = 0; k < nh && k < nc; k++) {
    const char *key = hdr[k], *v = cells[k];
    const file_field *f = field_named(key, 0);
    double num = NAN;
    int is_null = !*v;
    if (!is_null && !csv_text(f) && dcsim_parse_double(v, &num) != 0)
      return DCSIM_ERR(err, DCSIM_EPARSE, path, line, "column %s: '%s' is not a number", key, v);
    int sf = set_field(pt, f, v, num, is_null);
    if (sf == -2)
      return DCSIM_ERR(err, DCSIM_EPARSE, path, line,
                       "column %s: '%s' is not table, interpolated, extrapolated or spec", key, v);
    if (sf == -3)
      return DCSIM_ERR(
          err, DCSIM_ERANGE, path, line,
          "column %s: '%.40s...' is longer than %zu bytes, the most a sweep point holds", key, v,
          f->size - 1);
    if (sf) return DCSIM_ERR(err, DCSIM_ENOMEM, path, line, "out of memory");
  }
  if (!check_feasible(pt))
    return DCSIM_ERR(err, DCSIM_ERANGE, path, line,
                     "a feasible point needs finite, non-negative time_s and energy_j");
  return 0;
}

static int read_csv(const char *path, char *text, dcsim_sweep_point **out, size_t *n_out,
                    dcsim_error *err) {
  char **hdr = NULL, **cells = NULL;
  dcsim_sweep_point *pts = NULL;
  size_t n = 0, cap = 0, nh = 0, hdr_cap = 0, cells_cap = 0;
  int rc = 0, line = 0;
  char *save = NULL;
  for (char *l = strtok_r(text, "\n", &save); l && !rc; l = strtok_r(NULL, "\n", &save)) {
    line++;
    size_t ll = strlen(l);
    if (ll && l[ll - 1] == '\r') l[--ll] = '\0';
    if (!ll || l[0] == '#') continue;
    size_t nc = 0;
    int split;
    if (!nh) {
      if (!(split = dcsim__csv_split(l, &hdr, &hdr_cap, &nh)))
        rc = read_csv_header(path, line, hdr, nh, err);
    } else if (!(split = dcsim__csv_split(l, &cells, &cells_cap, &nc))) {
      dcsim_sweep_point *pt = new_point(&pts, &n, &cap);
      rc = pt ? read_csv_point(path, line, hdr, nh, cells, nc, pt, err)
              : DCSIM_ERR(err, DCSIM_ENOMEM, path, line, "out of memory");
    }
    if (split)
      rc = split == -2 ? DCSIM_ERR(err, DCSIM_ENOMEM, path, line, "out of memory")
                       : DCSIM_ERR(err, DCSIM_EPARSE, path, line,
                                   "unterminated quoted cell or text after a closing quote");
  }
  if (!rc && !nh) rc = DCSIM_ERR(err, DCSIM_EPARSE, path, 0, "empty CSV file");
  if (!rc) {
    *out = pts;
    *n_out = n;
    pts = NULL;
  }
  dcsim_sweep_points_free(pts, n);
  free(hdr);
  free(cells);
  return rc;
}

int dcsim_sweep_points_read(const char *path, dcsim_sweep_point **out, size_t *n,
                            dcsim_error *err) {
  static const dcsim_file_rules rules = {
    0, NULL, "not a text file (a NUL byte); give a JSON or CSV file of sweep points", 0
  }; /* a pipe is fine: dcsim pareto /dev/stdin (doc/sweep.md) */
  *out = NULL;
  *n = 0;
  char *text = NULL;
  size_t len = 0;
  int rc = dcsim__file_read(path, &rules, &text, &len, err);
  if (rc) return rc;
  size_t i = 0;
  while (i < len && isspace((unsigned char)text[i])) i++;
  if (i < len && (text[i] == '[' || text[i] == '{'))
    rc = read_json(path, text, len, out, n, err);
  else
    rc = read_csv(path, text, out, n, err);
  free(text);
  return rc;
}
