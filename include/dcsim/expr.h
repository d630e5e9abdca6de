/* dcsim/expr.h — safe arithmetic formulas over named parameters, as written in data files
 * ("NSMAX^2*GRIDN*0.833*ITER*F*2", "log2(NX)*NX").
 *
 * Ownership: dcsim_expr_parse() stores in *out a heap object that the caller frees with
 * dcsim_expr_free(). It copies `text` and keeps no pointer to `names` or its strings.
 * dcsim_expr_text() returns a string owned by the expression, valid until dcsim_expr_free().
 * A compiled expression is immutable: dcsim_expr_eval() may run on one from many threads at once.
 * Errors follow dcsim/error.h; their file/line are left ""/0 for the caller (who knows the input
 * file and line) to fill.
 *
 * Grammar (whitespace allowed between tokens):
 *   expr    := term (('+' | '-') term)*
 *   term    := unary (('*' | '/') unary)*
 *   unary   := ('+' | '-') unary | power        so -2^2 = -4
 *   power   := primary ('^' unary)?             right-associative: 2^3^2 = 512
 *   primary := number | name | func '(' expr (',' expr)* ')' | '(' expr ')'
 *   number  := decimal digits with optional fraction and exponent: 12, 0.833, .5, 1.5e9
 *   name    := [A-Za-z_][A-Za-z0-9_]*, case-sensitive, one of the names given to parse
 *   func    := min max (2 arguments) | log (natural) log2 log10 exp sqrt abs floor ceil (1)
 * Limits: DCSIM_EXPR_TEXT_MAX characters, DCSIM_EXPR_DEPTH_MAX nested operators/parentheses. */
#ifndef DCSIM_EXPR_H
#define DCSIM_EXPR_H

#include <stddef.h>

#include "dcsim/error.h"

#define DCSIM_EXPR_TEXT_MAX  4096
#define DCSIM_EXPR_DEPTH_MAX 64

typedef struct dcsim_expr dcsim_expr_t;

/* Compiles text; identifiers must be among names[0..n_names-1], else DCSIM_EREF. Syntax errors
 * (and too long or too deeply nested text) give DCSIM_EPARSE with the column; a literal that is
 * not finite (1e999) gives DCSIM_ERANGE. On failure *out is set to NULL. */
int dcsim_expr_parse(const char *text, const char *const *names, size_t n_names, dcsim_expr_t **out,
                     dcsim_error *err);

/* Evaluates with values[i] bound to names[i] (values holds n_names entries). The result and every
 * intermediate value must be finite: division by zero, log of a non-positive value, sqrt of a
 * negative value, overflow, NaN or inf give DCSIM_ERANGE naming the formula. */
int dcsim_expr_eval(const dcsim_expr_t *e, const double *values, double *out, dcsim_error *err);

/* 1 if the expression references names[i], else 0. */
int dcsim_expr_uses(const dcsim_expr_t *e, size_t i);

/* The formula text as given to dcsim_expr_parse(). */
const char *dcsim_expr_text(const dcsim_expr_t *e);

void dcsim_expr_free(dcsim_expr_t *e); /* NULL-safe */

#endif
