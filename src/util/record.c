/* record.c — result records driven by field tables (see util/record.h). */
#include "util/record.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include "dcsim/numfmt.h"
#include "util/csv.h"

#define MEMBER(p, f, type)  ((type *)(void *)((char *)(p) + (f)->offset))
#define CMEMBER(p, f, type) ((const type *)(const void *)((const char *)(p) + (f)->offset))

/* 1 when field f of row holds a value, 0 when it is NULL by its rule */
static int has_value(const dcsim__record_field *f, const void *row) {
  switch (f->nulls) {
    case DCSIM__RN_NEVER: break;
    case DCSIM__RN_ZERO:
      return f->kind == DCSIM__RF_BOOL ? *CMEMBER(row, f, int) != 0
                                       : *CMEMBER(row, f, long long) != 0;
    case DCSIM__RN_UNDEF: return !isnan(*CMEMBER(row, f, double));
    case DCSIM__RN_NEG: return *CMEMBER(row, f, long long) >= 0;
  }
  return f->kind != DCSIM__RF_TEXT || *CMEMBER(row, f, char *) != NULL;
}

/* 1 when field f is in one of the outputs of mask out (a PAIR never in SQLite or CSV) */
static int in(const dcsim__record_field *f, unsigned out) {
  unsigned mask = f->out;
  if (f->kind == DCSIM__RF_PAIR) mask &= ~(unsigned)(DCSIM__RO_SQL | DCSIM__RO_CSV);
  return (mask & out) != 0;
}

size_t dcsim__record_count(const dcsim__record *r, unsigned out) {
  size_t n = 0;
  for (size_t i = 0; i < r->n_fields; i++) n += in(&r->fields[i], out);
  return n;
}

size_t dcsim__record_find(const dcsim__record *r, const char *name) {
  size_t i = 0;
  while (i < r->n_fields && strcmp(r->fields[i].name, name)) i++;
  return i;
}

const dcsim__record_field *dcsim__record_member(const dcsim__record *r, size_t offset,
                                                unsigned out) {
  for (size_t i = 0; i < r->n_fields; i++)
    if (r->fields[i].offset == offset && in(&r->fields[i], out)) return &r->fields[i];
  return NULL;
}

int dcsim__record_sql_insert(const dcsim__record *r, const char *lead, int n_lead, dcsim_str *b) {
  dcsim_str_addf(b, "INSERT INTO %s(%s", r->table, lead);
  size_t n = (size_t)n_lead;
  for (size_t i = 0; i < r->n_fields; i++)
    if (in(&r->fields[i], DCSIM__RO_SQL))
      dcsim_str_addf(b, "%s%s", n++ ? ", " : "", r->fields[i].name);
  dcsim_str_add(b, ") VALUES(");
  for (size_t i = 0; i < n; i++) dcsim_str_add(b, i ? ",?" : "?");
  dcsim_str_add(b, ")");
  return b->oom ? -1 : 0;
}

int dcsim__record_sql_update(const dcsim__record *r, const char *key, dcsim_str *b) {
  dcsim_str_addf(b, "UPDATE %s SET ", r->table);
  size_t n = 0;
  for (size_t i = 0; i < r->n_fields; i++)
    if (in(&r->fields[i], DCSIM__RO_SQL))
      dcsim_str_addf(b, "%s%s=?", n++ ? ", " : "", r->fields[i].name);
  dcsim_str_addf(b, " WHERE %s=?", key);
  return b->oom ? -1 : 0;
}

int dcsim__record_sql_defs(const dcsim__record *r, dcsim_str *b) {
  size_t n = 0;
  for (size_t i = 0; i < r->n_fields; i++)
    if (in(&r->fields[i], DCSIM__RO_SQL))
      dcsim_str_addf(b, "%s%s %s", n++ ? ", " : "", r->fields[i].name, r->fields[i].sql);
  return b->oom ? -1 : 0;
}

void dcsim__record_sql_bind(const dcsim__record *r, sqlite3_stmt *st, int first, const void *row) {
  int k = first - 1;
  for (size_t i = 0; i < r->n_fields; i++) {
    const dcsim__record_field *f = &r->fields[i];
    if (!in(f, DCSIM__RO_SQL)) continue;
    k++;
    if (!has_value(f, row)) {
      sqlite3_bind_null(st, k);
      continue;
    }
    switch (f->kind) {
      case DCSIM__RF_INT64: sqlite3_bind_int64(st, k, *CMEMBER(row, f, long long)); break;
      case DCSIM__RF_REAL: sqlite3_bind_double(st, k, *CMEMBER(row, f, double)); break;
      case DCSIM__RF_TEXT:
        sqlite3_bind_text(st, k, *CMEMBER(row, f, char *), -1, SQLITE_TRANSIENT);
        break;
      case DCSIM__RF_BOOL: sqlite3_bind_int(st, k, *CMEMBER(row, f, int) != 0); break;
      case DCSIM__RF_PAIR: break; /* never an SQL field (in) */
    }
  }
}

void dcsim__record_sql_read(const dcsim__record *r, sqlite3_stmt *st, int first, void *row) {
  int k = first - 1;
  for (size_t i = 0; i < r->n_fields; i++) {
    const dcsim__record_field *f = &r->fields[i];
    if (!in(f, DCSIM__RO_SQL)) continue;
    k++;
    int null = sqlite3_column_type(st, k) == SQLITE_NULL;
    switch (f->kind) {
      case DCSIM__RF_INT64: *MEMBER(row, f, long long) = sqlite3_column_int64(st, k); break;
      case DCSIM__RF_REAL:
        *MEMBER(row, f, double) = null ? NAN : sqlite3_column_double(st, k);
        break;
      case DCSIM__RF_TEXT:
        *MEMBER(row, f, const char *) = (const char *)sqlite3_column_text(st, k);
        break;
      case DCSIM__RF_BOOL: *MEMBER(row, f, int) = sqlite3_column_int(st, k) != 0; break;
      case DCSIM__RF_PAIR: break; /* never an SQL field (in) */
    }
  }
}

void dcsim__record_json(const dcsim__record *r, dcsim_json *j, const void *row) {
  dcsim_json_obj_begin(j);
  dcsim__record_json_members(r, j, row, 0, r->n_fields);
  dcsim_json_obj_end(j);
}

/* field f of row as a JSON value (null when it is NULL by its rule) */
static void json_value(const dcsim__record_field *f, dcsim_json *j, const void *row) {
  if (!has_value(f, row)) {
    dcsim_json_null(j);
    return;
  }
  switch (f->kind) {
    case DCSIM__RF_INT64: dcsim_json_int(j, *CMEMBER(row, f, long long)); break;
    case DCSIM__RF_REAL: dcsim_json_num(j, *CMEMBER(row, f, double)); break;
    case DCSIM__RF_TEXT: dcsim_json_str(j, *CMEMBER(row, f, char *)); break;
    case DCSIM__RF_BOOL: dcsim_json_bool(j, *CMEMBER(row, f, int)); break;
    case DCSIM__RF_PAIR: {
      const double *v = CMEMBER(row, f, double);
      dcsim_json_arr_begin(j);
      dcsim_json_num(j, v[0]);
      dcsim_json_num(j, v[1]);
      dcsim_json_arr_end(j);
      break;
    }
  }
}

void dcsim__record_json_members(const dcsim__record *r, dcsim_json *j, const void *row, size_t from,
                                size_t to) {
  for (size_t i = from; i < to && i < r->n_fields; i++) {
    const dcsim__record_field *f = &r->fields[i];
    if (!in(f, DCSIM__RO_JSON | DCSIM__RO_JSON_OPT) ||
        (!has_value(f, row) && in(f, DCSIM__RO_JSON_OPT)))
      continue;
    dcsim_json_key(j, f->name);
    json_value(f, j, row);
  }
}

void dcsim__record_json_columns(const dcsim__record *r, dcsim_json *j, size_t from, size_t to,
                                size_t n, dcsim__record_row_at at, const void *ctx, void *buf) {
  for (size_t i = from; i < to && i < r->n_fields; i++) {
    const dcsim__record_field *f = &r->fields[i];
    if (!in(f, DCSIM__RO_JSON | DCSIM__RO_JSON_OPT)) continue;
    dcsim_json_key(j, f->name);
    dcsim_json_arr_begin(j);
    for (size_t k = 0; k < n; k++) json_value(f, j, at(ctx, k, buf));
    dcsim_json_arr_end(j);
  }
}

/* the CSV's column k (0, 1, ...): the CSV field whose csv_at is k + 1, else the k-th CSV field
 * in table order; NULL past the last */
static const dcsim__record_field *csv_field(const dcsim__record *r, size_t k) {
  size_t n = 0;
  for (size_t i = 0; i < r->n_fields; i++)
    if (in(&r->fields[i], DCSIM__RO_CSV) && r->fields[i].csv_at == k + 1) return &r->fields[i];
  for (size_t i = 0; i < r->n_fields; i++)
    if (in(&r->fields[i], DCSIM__RO_CSV) && !r->fields[i].csv_at && n++ == k) return &r->fields[i];
  return NULL;
}

void dcsim__record_csv_header(const dcsim__record *r, FILE *f) {
  const dcsim__record_field *c;
  for (size_t k = 0; (c = csv_field(r, k)) != NULL; k++) fprintf(f, "%s%s", k ? "," : "", c->name);
  fputc('\n', f);
}

/* field f of row as a CSV cell (nothing when it is NULL) */
static void csv_cell(FILE *out, const dcsim__record_field *f, const void *row) {
  if (!has_value(f, row)) return;
  switch (f->kind) {
    case DCSIM__RF_INT64: fprintf(out, "%lld", *CMEMBER(row, f, long long)); break;
    case DCSIM__RF_REAL: {
      double v = *CMEMBER(row, f, double);
      if (f->csv_conv == 'f')
        fprintf(out, "%.*f", f->csv_prec, v);
      else if (f->csv_conv == 'g')
        fprintf(out, "%.*g", f->csv_prec, v);
      else
        fprintf(out, "%.10g", v);
      break;
    }
    case DCSIM__RF_TEXT: dcsim__csv_write_cell(out, *CMEMBER(row, f, char *)); break;
    case DCSIM__RF_BOOL: fprintf(out, "%d", *CMEMBER(row, f, int) != 0); break;
    case DCSIM__RF_PAIR: break; /* never a CSV field (in) */
  }
}

void dcsim__record_csv_row(const dcsim__record *r, FILE *out, const void *row) {
  const dcsim__record_field *f;
  for (size_t k = 0; (f = csv_field(r, k)) != NULL; k++) {
    if (k) fputc(',', out);
    csv_cell(out, f, row);
  }
  fputc('\n', out);
}

void dcsim__record_csv_row_under(const dcsim__record *cols, const dcsim__record *r, FILE *out,
                                 const void *row) {
  const dcsim__record_field *c;
  for (size_t k = 0; (c = csv_field(cols, k)) != NULL; k++) {
    if (k) fputc(',', out);
    for (size_t i = 0; i < r->n_fields; i++)
      if (in(&r->fields[i], DCSIM__RO_CSV) && !strcmp(r->fields[i].name, c->name)) {
        csv_cell(out, &r->fields[i], row);
        break;
      }
  }
  fputc('\n', out);
}

/* one cell of a text column, padded to its width (negative: left-aligned), gap spaces before all
 * but the first (*n: the cells written so far) */
static void layout_cell(FILE *out, size_t *n, int gap, int width, const char *s) {
  if ((*n)++) fprintf(out, "%*s", gap, "");
  fprintf(out, "%*s", width, s);
}

/* a cell of a record's text table: one space apart */
static void text_cell(FILE *out, size_t *n, int width, const char *s) {
  layout_cell(out, n, 1, width, s);
}

/* ---- text tables laid out at run time ---- */

void dcsim__text_fit(dcsim__text_col *cols, size_t n, const void *row) {
  dcsim_str b = DCSIM_STR_INIT;
  for (size_t i = 0; i < n; i++) {
    if (!cols[i].fit) continue;
    int rest = 0, w = cols[i].width < 0 ? -cols[i].width : cols[i].width;
    dcsim_str_release(&b);
    size_t len = strlen(cols[i].cell(&cols[i], row, &b, &rest)), hlen = strlen(cols[i].header);
    if (len < hlen) len = hlen;
    if (len > (size_t)w) w = len < INT_MAX ? (int)len : INT_MAX;
    cols[i].width = cols[i].width < 0 ? -w : w;
  }
  dcsim_str_release(&b);
}

void dcsim__text_header(const dcsim__text_col *cols, size_t n, FILE *out) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) layout_cell(out, &k, cols[i].gap, cols[i].width, cols[i].header);
  fputc('\n', out);
}

void dcsim__text_row(const dcsim__text_col *cols, size_t n, FILE *out, const void *row) {
  dcsim_str b = DCSIM_STR_INIT;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    int rest = 0;
    dcsim_str_release(&b);
    const char *s = cols[i].cell(&cols[i], row, &b, &rest);
    layout_cell(out, &k, cols[i].gap, rest ? 0 : cols[i].width, s);
    if (rest) break;
  }
  fputc('\n', out);
  dcsim_str_release(&b);
}

/* a REAL as a text cell by fmt ("%.10g", dcsim_fmt_sig or a percentage) into buf */
static char *text_real(char *buf, size_t size, double v, dcsim__rt_fmt fmt) {
  if (fmt == DCSIM__RT_SIG) return dcsim_fmt_sig(buf, size, v, DCSIM_NUM_DIGITS);
  if (fmt == DCSIM__RT_PERCENT) {
    if (dcsim_bufprintf(buf, size, "%.1f%%", 100 * v) != 0)
      snprintf(buf, size, "?%%"); /* a fraction of more than 10^60 %: no share a run produces */
    return buf;
  }
  snprintf(buf, size, "%.10g", v);
  return buf;
}

void dcsim__record_text_header(const dcsim__record *r, FILE *out) {
  size_t n = 0;
  for (size_t i = 0; i < r->n_fields; i++)
    if (in(&r->fields[i], DCSIM__RO_TEXT) && r->fields[i].fmt != DCSIM__RT_NOTE)
      text_cell(out, &n, r->fields[i].width, r->fields[i].header);
  fputc('\n', out);
}

void dcsim__record_text_row(const dcsim__record *r, FILE *out, const void *row) {
  size_t n = 0;
  for (size_t i = 0; i < r->n_fields; i++) {
    const dcsim__record_field *f = &r->fields[i];
    if (!in(f, DCSIM__RO_TEXT)) continue;
    char buf[64];
    const char *s = buf;
    if (f->cell)
      s = f->cell(row, buf, sizeof buf);
    else if (!has_value(f, row))
      s = "";
    else
      switch (f->kind) {
        case DCSIM__RF_INT64: snprintf(buf, sizeof buf, "%lld", *CMEMBER(row, f, long long)); break;
        case DCSIM__RF_REAL: text_real(buf, sizeof buf, *CMEMBER(row, f, double), f->fmt); break;
        case DCSIM__RF_TEXT: s = *CMEMBER(row, f, char *); break;
        case DCSIM__RF_BOOL: s = *CMEMBER(row, f, int) ? "1" : "0"; break;
        case DCSIM__RF_PAIR: { /* "low..high", each end in under half the cell */
          size_t k = strlen(text_real(buf, sizeof buf / 2 - 2, CMEMBER(row, f, double)[0], f->fmt));
          memcpy(buf + k, "..", 3);
          text_real(buf + k + 2, sizeof buf - k - 2, CMEMBER(row, f, double)[1], f->fmt);
          break;
        }
      }
    if (f->fmt == DCSIM__RT_NOTE)
      fputs(s, out);
    else
      text_cell(out, &n, f->width, s);
  }
  fputc('\n', out);
}
