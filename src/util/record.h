/* util/record.h — result records driven by field tables (doc/design.md "Result
 * records"): a record is a plain row struct and a table of its fields, {name, kind, offset, unit,
 * SQL type, NULL rule, since, the outputs it is in, its text column}; the generic code here
 * writes a row as a JSON object, a CSV header and line, a text table's header and line, and binds
 * it to an SQLite INSERT whose column list it makes. A result column is then one line of its
 * record's table (plus the member that holds it).
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
  DCSIM__RF_BOOL,  /* int 0/1: INTEGER, JSON true/false, CSV 0/1 */
  /* double[2] (a band: low, high): a JSON array of the two numbers, a text cell "low..high";
   * never an SQLite column or a CSV cell (a mask with those outputs has no effect): its two
   * ends go there as two REAL fields of their own (DCSIM__RECORD_ELEM). Its NULL rule reads
   * the low end (UNDEF: NaN, JSON null). */
  DCSIM__RF_PAIR
} dcsim__rf_kind;

/* when a field is NULL (SQLite), null (JSON), an empty cell (CSV) */
typedef enum dcsim__rf_null {
  DCSIM__RN_NEVER,
  DCSIM__RN_ZERO,  /* an integer 0 (an absent trace job number), a BOOL 0 (a flag set only) */
  DCSIM__RN_UNDEF, /* a real NaN (an undefined value: a ratio without a base) */
  DCSIM__RN_NEG    /* a negative integer (no GPU slot) */
} dcsim__rf_null;

/* the outputs a field is in (a mask): a field of the report only has no SQL column, a column of
 * the database only has no JSON key */
enum {
  DCSIM__RO_SQL = 1,      /* a column of the record's SQLite table */
  DCSIM__RO_JSON = 2,     /* a key of the JSON object */
  DCSIM__RO_JSON_OPT = 4, /* a key of the JSON object only when the field holds a value */
  DCSIM__RO_CSV = 8,      /* a CSV column */
  DCSIM__RO_TEXT = 16,    /* a column of the text table (its header, width, format below) */
  DCSIM__RO_ALL = DCSIM__RO_SQL | DCSIM__RO_JSON | DCSIM__RO_CSV
};

/* how a text cell writes the value (a cell getter, when there is one, writes it instead) */
typedef enum dcsim__rt_fmt {
  DCSIM__RT_PLAIN,   /* a TEXT as it is, an INT64 %lld, a REAL %.10g */
  DCSIM__RT_SIG,     /* a REAL with DCSIM_NUM_DIGITS significant digits (dcsim/numfmt.h) */
  DCSIM__RT_PERCENT, /* a REAL fraction as a percentage with one decimal: 0.1234 -> "12.3%" */
  /* a note after the row's last column ("  <- least energy"): no header cell, no separating
   * space, no padding; nothing when the field holds no value or its cell getter returns "" */
  DCSIM__RT_NOTE
} dcsim__rt_fmt;

/* a derived text cell: the row's value (a band, a share, a part rounded to its total's place)
 * written into buf (size bytes, the cell's width is enough), returned */
typedef const char *(*dcsim__rt_cell)(const void *row, char *buf, size_t size);

typedef struct dcsim__record_field {
  const char *name; /* the SQLite column, the JSON key and the CSV header cell */
  dcsim__rf_kind kind;
  size_t offset; /* of the member in the row struct */
  const char *unit, *sql;
  dcsim__rf_null nulls;
  const char *since;  /* the dcsim version the field appeared in */
  unsigned out;       /* DCSIM__RO_*: the outputs it is in */
  const char *header; /* the text table's column header */
  int width;          /* of the text column; negative: left-aligned */
  dcsim__rt_fmt fmt;
  dcsim__rt_cell cell; /* NULL: the value by fmt */
  unsigned csv_at;     /* its column in the CSV (1, 2, ...) when the CSV's order is not the
                          table's; 0: in table order (a record gives it to every CSV field or none) */
  char csv_conv;       /* a REAL in the CSV: 'f' or 'g' with csv_prec digits; 0: %.10g */
  int csv_prec;
} dcsim__record_field;

typedef struct dcsim__record {
  const char *table; /* the SQLite table */
  const dcsim__record_field *fields;
  size_t n_fields;
} dcsim__record;

/* clang-format off */
/* A table line: DCSIM__RECORD_FIELD(row_type, member, KIND, unit, sql, NULLS, since), the column
 * named as the member, in SQLite, JSON and CSV. */
#define DCSIM__RECORD_FIELD(type, member, kind, unit, sql, nulls, since)                        \
  { #member, DCSIM__RF_##kind, offsetof(type, member), unit, sql, DCSIM__RN_##nulls, since,     \
    DCSIM__RO_ALL, NULL, 0, DCSIM__RT_PLAIN, NULL, 0, 0, 0 }
/* A line with its outputs (out: a mask of DCSIM__RO_*) and text column (header, width, FMT, a
 * cell getter or NULL). */
#define DCSIM__RECORD_FIELD_OUT(type, member, kind, unit, sql, nulls, since, out, header, width, \
                                fmt, cell)                                                     \
  { #member, DCSIM__RF_##kind, offsetof(type, member), unit, sql, DCSIM__RN_##nulls, since,     \
    out, header, width, DCSIM__RT_##fmt, cell, 0, 0, 0 }
/* A line named apart from its member: name, then as DCSIM__RECORD_FIELD_OUT, member a member
 * designator (a member of an embedded row: `db.tasks`, named "tasks"). */
#define DCSIM__RECORD_FIELD_AT(name, type, member, kind, unit, sql, nulls, since, out, header,  \
                               width, fmt, cell)                                               \
  { name, DCSIM__RF_##kind, offsetof(type, member), unit, sql, DCSIM__RN_##nulls, since,        \
    out, header, width, DCSIM__RT_##fmt, cell, 0, 0, 0 }
/* A field named other than its member: element index of the array member (a band's low end
 * `time_band[0]` as the CSV's `time_band_low_s`), with its outputs and text column as above. */
#define DCSIM__RECORD_ELEM(type, name, member, index, kind, unit, sql, nulls, since, out,      \
                           header, width, fmt, cell)                                           \
  { name, DCSIM__RF_##kind, offsetof(type, member) + (index) * sizeof(((type *)0)->member[0]), \
    unit, sql, DCSIM__RN_##nulls, since, out, header, width, DCSIM__RT_##fmt, cell, 0, 0, 0 }
/* A derived column of the text table alone, written by its cell getter from the row's other
 * members (a shape "2 x 64" from the nodes and the cores): no member, no other output. */
#define DCSIM__RECORD_DERIVED(name, since, header, width, cell)                                 \
  { name, DCSIM__RF_TEXT, 0, "", "", DCSIM__RN_NEVER, since, DCSIM__RO_TEXT, header, width,     \
    DCSIM__RT_PLAIN, cell, 0, 0, 0 }
/* A line of a record whose CSV has its own order and number formats: the column name (SQLite,
 * JSON, CSV) apart from the member, its outputs (no text column), its CSV column csv_at (0: none
 * or table order) and the CSV format of a REAL: PLAIN (%.10g), F(digits) (%.*f) or G(digits)
 * (%.*g), e.g. DCSIM__RECORD_COLUMN(row, "median", med, REAL, "", "REAL", NEVER, "0.1.0",
 * DCSIM__RO_SQL | DCSIM__RO_CSV, 7, G(6)). */
#define DCSIM__RECORD_COLUMN(type, name, member, kind, unit, sql, nulls, since, out, csv_at, csv) \
  { name, DCSIM__RF_##kind, offsetof(type, member), unit, sql, DCSIM__RN_##nulls, since, out,      \
    NULL, 0, DCSIM__RT_PLAIN, NULL, csv_at, DCSIM__RC_##csv }
#define DCSIM__RC_PLAIN 0, 0
#define DCSIM__RC_F(digits) 'f', digits
#define DCSIM__RC_G(digits) 'g', digits
/* clang-format on */

/* The SQL functions take the fields in DCSIM__RO_SQL, in table order; the JSON, CSV and text
 * ones those in their output. */

/* the number of fields in the outputs of mask out */
size_t dcsim__record_count(const dcsim__record *r, unsigned out);
/* the index of the field named name, or r->n_fields */
size_t dcsim__record_find(const dcsim__record *r, const char *name);
/* the first field of r in the outputs of mask out whose member is at offset (offsetof(row_type,
 * member)), or NULL: a reader finds the column that fills a member by the record's name for it */
const dcsim__record_field *dcsim__record_member(const dcsim__record *r, size_t offset,
                                                unsigned out);

/* "INSERT INTO table(lead, f1, f2, ...) VALUES(?, ?, ...)" into b: lead is "" or the columns
 * the caller binds first ("run_id"), n_lead of them. 0, or -1 when out of memory. */
int dcsim__record_sql_insert(const dcsim__record *r, const char *lead, int n_lead, dcsim_str *b);
/* "UPDATE table SET f1=?, f2=?, ... WHERE key=?" into b: the fields bind from 1, the key last
 * (the number of SQL fields + 1). 0, or -1 when out of memory. */
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
/* The keys and values of fields from .. to - 1 into the object open in j (the caller writes
 * nested objects between two ranges). */
void dcsim__record_json_members(const dcsim__record *r, dcsim_json *j, const void *row, size_t from,
                                size_t to);
/* Rows 0..n-1 as JSON members by column (a timeline's arrays): for each field from .. to - 1 in
 * the JSON, its key and an array of its value in every row, a NULL value as null. at(ctx, k,
 * buf) returns row k: an element of the caller's array, or a row it fills into buf (a row of the
 * record's type). */
typedef const void *(*dcsim__record_row_at)(const void *ctx, size_t k, void *buf);
void dcsim__record_json_columns(const dcsim__record *r, dcsim_json *j, size_t from, size_t to,
                                size_t n, dcsim__record_row_at at, const void *ctx, void *buf);
/* The CSV header line (names, comma-separated, '\n') and one row's line, the columns in table
 * order or by their csv_at. */
void dcsim__record_csv_header(const dcsim__record *r, FILE *f);
void dcsim__record_csv_row(const dcsim__record *r, FILE *f, const void *row);
/* One line of a row of record r under the CSV columns of record cols (another record's header):
 * each CSV column of cols is r's CSV field of the same name, or an empty cell when r has none (a
 * total's row among the job rows). */
void dcsim__record_csv_row_under(const dcsim__record *cols, const dcsim__record *r, FILE *f,
                                 const void *row);
/* The text table's header line (each header in its column's width, one space between) and one
 * row's line; a row's cells are no wider than 64 bytes. */
void dcsim__record_text_header(const dcsim__record *r, FILE *f);
void dcsim__record_text_row(const dcsim__record *r, FILE *f, const void *row);

/* ---- text tables laid out at run time ----
 * The text layout under the record's: a column with a header, a width, the spaces before it, and a
 * cell getter writing a cell of any length into a dcsim_str. For tables whose columns widen to
 * their longest cell, sit two spaces apart, or whose row may end in one cell that takes the rest
 * of the line (a sweep point's "infeasible: why"); the caller leaves out a column it does not
 * show. */
typedef struct dcsim__text_col dcsim__text_col;
struct dcsim__text_col {
  const char *header;
  int width; /* the least width; negative: left-aligned; 0: unpadded (a last column) */
  int gap;   /* spaces before the column (none before the first) */
  int fit;   /* 1: widened to the longest cell (dcsim__text_fit) and to its header */
  /* the row's cell, added to b (empty on entry) or a string of its own; *rest set to 1: the cell
   * takes the rest of the line, unpadded, and the columns after it are left out */
  const char *(*cell)(const dcsim__text_col *col, const void *row, dcsim_str *b, int *rest);
  const void *arg; /* the caller's, for the getter (a field of its own table) */
};

/* Widens each fit column of cols[0..n) to its header and to row's cell (call once per row). */
void dcsim__text_fit(dcsim__text_col *cols, size_t n, const void *row);
/* The header line and one row's line. */
void dcsim__text_header(const dcsim__text_col *cols, size_t n, FILE *f);
void dcsim__text_row(const dcsim__text_col *cols, size_t n, FILE *f, const void *row);

#endif
