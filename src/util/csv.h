/* util/csv.h — reading the comma-separated benchmark tables of calibration/.
 * Lines starting with '#' are comments; the first other line names the columns. A cell may be
 * double-quoted (RFC 4180: commas inside, "" for a quote; no line breaks inside quotes); an
 * unquoted cell loses its leading and trailing blanks (dcsim_trim: isspace(), so a CRLF line's
 * carriage return too).
 * Ownership: dcsim__csv_load() returns a table freed by dcsim__csv_free(); cell strings are
 * borrowed.
 */
#ifndef DCSIM_CSV_H
#define DCSIM_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "dcsim/error.h"

typedef struct dcsim_csv dcsim_csv_t;

int dcsim__csv_load(const char *path, dcsim_csv_t **out, dcsim_error *err);
void dcsim__csv_free(dcsim_csv_t *t);
size_t dcsim__csv_rows(const dcsim_csv_t *t);
/* column index by name, or DCSIM_EREF naming the file */
int dcsim__csv_col(const dcsim_csv_t *t, const char *name, size_t *col, dcsim_error *err);
const char *dcsim__csv_cell(const dcsim_csv_t *t, size_t row, size_t col);
int dcsim__csv_line(const dcsim_csv_t *t, size_t row);
/* the cell as a finite number, else DCSIM_ERANGE with file:line */
int dcsim__csv_num(const dcsim_csv_t *t, size_t row, size_t col, double *out, dcsim_error *err);

/* Cuts one line (without its newline) into cells in place, by the same rules; *cells (capacity
 * *cap) grows as needed and is freed by the caller. 0, -1 bad quoting, -2 out of memory. For
 * files that are not one table (profiler logs with several tables). */
int dcsim__csv_split(char *line, char ***cells, size_t *cap, size_t *n);

/* Writes one cell by the same rules (RFC 4180): as it is, or double-quoted (a quote doubled) when
 * it holds a comma, a quote, a line break or a carriage return, or begins or ends with white space
 * (which a reader would otherwise trim). A line break becomes a blank: the reader takes one line
 * per row (doc/robustness.md), every other byte round-trips. NULL is an empty cell. */
void dcsim__csv_write_cell(FILE *f, const char *s);

#endif
