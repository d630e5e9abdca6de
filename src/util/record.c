/* record.c — result records driven by field tables (see util/record.h). */
#include "util/record.h"

#include <math.h>

#include "util/csv.h"

#define MEMBER(p, f, type)  ((type *)(void *)((char *)(p) + (f)->offset))
#define CMEMBER(p, f, type) ((const type *)(const void *)((const char *)(p) + (f)->offset))

/* 1 when field f of row holds a value, 0 when it is NULL by its rule */
static int has_value(const dcsim__record_field *f, const void *row) {
  switch (f->nulls) {
    case DCSIM__RN_NEVER: break;
    case DCSIM__RN_ZERO: return *CMEMBER(row, f, long long) != 0;
    case DCSIM__RN_UNDEF: return !isnan(*CMEMBER(row, f, double));
  }
  return f->kind != DCSIM__RF_TEXT || *CMEMBER(row, f, const char *) != NULL;
}

int dcsim__record_sql_insert(const dcsim__record *r, const char *lead, int n_lead, dcsim_str *b) {
  dcsim_str_addf(b, "INSERT INTO %s(%s", r->table, lead);
  for (size_t i = 0; i < r->n_fields; i++)
    dcsim_str_addf(b, "%s%s", i || n_lead ? ", " : "", r->fields[i].name);
  dcsim_str_add(b, ") VALUES(");
  for (size_t i = 0; i < r->n_fields + (size_t)n_lead; i++) dcsim_str_add(b, i ? ",?" : "?");
  dcsim_str_add(b, ")");
  return b->oom ? -1 : 0;
}

int dcsim__record_sql_update(const dcsim__record *r, const char *key, dcsim_str *b) {
  dcsim_str_addf(b, "UPDATE %s SET ", r->table);
  for (size_t i = 0; i < r->n_fields; i++)
    dcsim_str_addf(b, "%s%s=?", i ? ", " : "", r->fields[i].name);
  dcsim_str_addf(b, " WHERE %s=?", key);
  return b->oom ? -1 : 0;
}

int dcsim__record_sql_defs(const dcsim__record *r, dcsim_str *b) {
  for (size_t i = 0; i < r->n_fields; i++)
    dcsim_str_addf(b, "%s%s %s", i ? ", " : "", r->fields[i].name, r->fields[i].sql);
  return b->oom ? -1 : 0;
}

void dcsim__record_sql_bind(const dcsim__record *r, sqlite3_stmt *st, int first, const void *row) {
  for (size_t i = 0; i < r->n_fields; i++) {
    const dcsim__record_field *f = &r->fields[i];
    int k = first + (int)i;
    if (!has_value(f, row)) {
      sqlite3_bind_null(st, k);
      continue;
    }
    switch (f->kind) {
      case DCSIM__RF_INT64: sqlite3_bind_int64(st, k, *CMEMBER(row, f, long long)); break;
      case DCSIM__RF_REAL: sqlite3_bind_double(st, k, *CMEMBER(row, f, double)); break;
      case DCSIM__RF_TEXT:
        sqlite3_bind_text(st, k, *CMEMBER(row, f, const char *), -1, SQLITE_TRANSIENT);
        break;
      case DCSIM__RF_BOOL: sqlite3_bind_int(st, k, *CMEMBER(row, f, int) != 0); break;
    }
  }
}

void dcsim__record_sql_read(const dcsim__record *r, sqlite3_stmt *st, int first, void *row) {
  for (size_t i = 0; i < r->n_fields; i++) {
    const dcsim__record_field *f = &r->fields[i];
    int k = first + (int)i, null = sqlite3_column_type(st, k) == SQLITE_NULL;
    switch (f->kind) {
      case DCSIM__RF_INT64: *MEMBER(row, f, long long) = sqlite3_column_int64(st, k); break;
      case DCSIM__RF_REAL:
        *MEMBER(row, f, double) = null ? NAN : sqlite3_column_double(st, k);
        break;
      case DCSIM__RF_TEXT:
        *MEMBER(row, f, const char *) = (const char *)sqlite3_column_text(st, k);
        break;
      case DCSIM__RF_BOOL: *MEMBER(row, f, int) = sqlite3_column_int(st, k) != 0; break;
    }
  }
}

void dcsim__record_json(const dcsim__record *r, dcsim_json *j, const void *row) {
  dcsim_json_obj_begin(j);
  for (size_t i = 0; i < r->n_fields; i++) {
    const dcsim__record_field *f = &r->fields[i];
    dcsim_json_key(j, f->name);
    if (!has_value(f, row)) {
      dcsim_json_null(j);
      continue;
    }
    switch (f->kind) {
      case DCSIM__RF_INT64: dcsim_json_int(j, *CMEMBER(row, f, long long)); break;
      case DCSIM__RF_REAL: dcsim_json_num(j, *CMEMBER(row, f, double)); break;
      case DCSIM__RF_TEXT: dcsim_json_str(j, *CMEMBER(row, f, const char *)); break;
      case DCSIM__RF_BOOL: dcsim_json_bool(j, *CMEMBER(row, f, int)); break;
    }
  }
  dcsim_json_obj_end(j);
}

void dcsim__record_csv_header(const dcsim__record *r, FILE *f) {
  for (size_t i = 0; i < r->n_fields; i++) fprintf(f, "%s%s", i ? "," : "", r->fields[i].name);
  fputc('\n', f);
}

void dcsim__record_csv_row(const dcsim__record *r, FILE *out, const void *row) {
  for (size_t i = 0; i < r->n_fields; i++) {
    const dcsim__record_field *f = &r->fields[i];
    if (i) fputc(',', out);
    if (!has_value(f, row)) continue;
    switch (f->kind) {
      case DCSIM__RF_INT64: fprintf(out, "%lld", *CMEMBER(row, f, long long)); break;
      case DCSIM__RF_REAL: fprintf(out, "%.10g", *CMEMBER(row, f, double)); break;
      case DCSIM__RF_TEXT: dcsim__csv_write_cell(out, *CMEMBER(row, f, const char *)); break;
      case DCSIM__RF_BOOL: fprintf(out, "%d", *CMEMBER(row, f, int) != 0); break;
    }
  }
  fputc('\n', out);
}
