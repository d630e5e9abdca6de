/* util/record.h — result records driven by field tables (doc/design.md "Result
 * records"): a record is a plain row struct and a table of its fields, {name, kind, offset, unit,
 * SQL type, NULL rule, since}; the generic code here writes a row as a JSON object, a CSV header
 * and line, and binds it to an SQLite INSERT whose column list it makes. A result column is then
 * one line of its record's table (plus the member that holds it).
 *
 * Ownership: tables are static data; the SQL lists are appended to the caller's dcsim_str. This
 * header is internal (it names sqlite3 types): not part of the public API. */
#ifndef DCSIM_UTIL_RECORD_H
#define DCSIM_UTIL_RECORD_H

#include <stddef.h>
#include <stdio.h>

#include <sqlite3.h>

#include "dcsim/json.h"
#include "dcsim/strutil.h"

/* the C type of a field's member and how it is written */
typedef enum dcsim__rf_kind {
  DCSIM__RF_INT64, /* long long: INTEGER, a JSON integer, %lld */
  DCSIM__RF_REAL,  /* double: REAL, a JSON number (%.10g, dcsim_json_num), CSV %.10g */
  DCSIM__RF_TEXT,  /* const char *: TEXT, a JSON string, a CSV cell (NULL: empty) */
  DCSIM__RF_BOOL   /* int 0/1: INTEGER, JSON true/false, CSV 0/1 */
} dcsim__rf_kind;

/* when a field is NULL (SQLite), null (JSON), an empty cell (CSV) */
typedef enum dcsim__rf_null {
  DCSIM__RN_NEVER,
  DCSIM__RN_ZERO, /* an integer 0 (an absent trace job number) */
  DCSIM__RN_UNDEF /* a real NaN (an undefined value: a ratio without a base) */
} dcsim__rf_null;

typedef struct dcsim__record_field {
  const char *name; /* the SQLite column, the JSON key and the CSV header cell */
  dcsim__rf_kind kind;
  size_t offset; /* of the member in the row struct */
  const char *unit, *sql;
  dcsim__rf_null nulls;
  const char *since; /* the dcsim version the field appeared in */
} dcsim__record_field;

typedef struct dcsim__record {
  const char *table; /* the SQLite table */
  const dcsim__record_field *fields;
  size_t n_fields;
} dcsim__record;

/* A table line: DCSIM__RECORD_FIELD(row_type, member, KIND, unit, sql, NULLS, since), the column
 * named as the member. */
#define DCSIM__RECORD_FIELD(type, member, kind, unit, sql, nulls, since) \
  { #member, DCSIM__RF_##kind, offsetof(type, member), unit, sql, DCSIM__RN_##nulls, since }

/* "INSERT INTO table(lead, f1, f2, ...) VALUES(?, ?, ...)" into b: lead is "" or the columns
 * the caller binds first ("run_id"), n_lead of them. 0, or -1 when out of memory. */
int dcsim__record_sql_insert(const dcsim__record *r, const char *lead, int n_lead, dcsim_str *b);
/* "UPDATE table SET f1=?, f2=?, ... WHERE key=?" into b: the fields bind from 1, the key last
 * (n_fields + 1). 0, or -1 when out of memory. */
int dcsim__record_sql_update(const dcsim__record *r, const char *key, dcsim_str *b);
/* "f1 TYPE, f2 TYPE, ..." (for a CREATE TABLE) into b. 0, or -1 when out of memory. */
int dcsim__record_sql_defs(const dcsim__record *r, dcsim_str *b);
/* Binds every field of row to parameters first, first+1, ... of st by its NULL rule. */
void dcsim__record_sql_bind(const dcsim__record *r, sqlite3_stmt *st, int first, const void *row);
/* Reads columns first, first+1, ... of a row of st into row (a TEXT: the statement's text, valid
 * until the next step; NULL: 0, NaN or NULL by the field's kind). */
void dcsim__record_sql_read(const dcsim__record *r, sqlite3_stmt *st, int first, void *row);

/* The row as a JSON object of its fields in table order. */
void dcsim__record_json(const dcsim__record *r, dcsim_json *j, const void *row);
/* The CSV header line (names, comma-separated, '\n') and one row's line. */
void dcsim__record_csv_header(const dcsim__record *r, FILE *f);
void dcsim__record_csv_row(const dcsim__record *r, FILE *f, const void *row);

#endif
