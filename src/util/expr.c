/* expr.c — formulas in data files: a recursive-descent parser (depth-limited) compiling to a flat
 * postfix program, run by a loop over a fixed-size value stack (see dcsim/expr.h). */
#include "dcsim/expr.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/strutil.h"

#define STACK_MAX 256 /* values pending at once; the depth limit keeps programs well below it */
#define QUOTE     "'%.256s'" /* how messages show the formula */

enum op {
  OP_NUM,
  OP_VAR,
  OP_NEG,
  OP_ADD,
  OP_SUB,
  OP_MUL,
  OP_DIV,
  OP_POW,
  OP_MIN,
  OP_MAX,
  OP_LOG,
  OP_LOG2,
  OP_LOG10,
  OP_EXP,
  OP_SQRT,
  OP_ABS,
  OP_FLOOR,
  OP_CEIL
};

/* Operand count and display name of each op; functions are found by this name. */
static const struct {
  int arity;
  const char *name;
} op_info[] = {
  [OP_NUM] = { 0, "number" },  [OP_VAR] = { 0, "name" },    [OP_NEG] = { 1, "unary -" },
  [OP_ADD] = { 2, "+" },       [OP_SUB] = { 2, "-" },       [OP_MUL] = { 2, "*" },
  [OP_DIV] = { 2, "/" },       [OP_POW] = { 2, "^" },       [OP_MIN] = { 2, "min" },
  [OP_MAX] = { 2, "max" },     [OP_LOG] = { 1, "log" },     [OP_LOG2] = { 1, "log2" },
  [OP_LOG10] = { 1, "log10" }, [OP_EXP] = { 1, "exp" },     [OP_SQRT] = { 1, "sqrt" },
  [OP_ABS] = { 1, "abs" },     [OP_FLOOR] = { 1, "floor" }, [OP_CEIL] = { 1, "ceil" },
};
#define FIRST_FUNC OP_MIN

typedef struct {
  enum op op;
  size_t pos; /* offset in text of the token, for messages */
  size_t len; /* length of that token (names) */
  size_t var; /* OP_VAR: index into names/values */
  double num; /* OP_NUM: the literal */
} insn;

struct dcsim_expr {
  char *text; /* points into this allocation, after code */
  size_t n_code;
  insn code[];
};

typedef struct {
  const char *text;
  size_t pos;
  const char *const *names;
  size_t n_names;
  dcsim_expr_t *e;
  int depth, sp;
  dcsim_error *err;
} parser;

static int is_alpha(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

static char peek(parser *p) {
  while (p->text[p->pos] == ' ' || p->text[p->pos] == '\t' || p->text[p->pos] == '\n' ||
         p->text[p->pos] == '\r')
    p->pos++;
  return p->text[p->pos];
}

/* Syntax error at the current token: "unexpected 'x' at column 3 in formula '...' (expected y)". */
static int syntax(parser *p, const char *expected) {
  char c = peek(p);
  int shown = c > ' ' && c < 127; /* the character itself, quoted: 'x' */
  const char *tok = c == '\0' ? "end" : shown ? "'" : "character";
  return DCSIM_ERR(p->err, DCSIM_EPARSE, "", 0,
                   "unexpected %s%.*s%s at column %zu in formula " QUOTE " (expected %s)", tok,
                   shown, p->text + p->pos, shown ? "'" : "", p->pos + 1, p->text, expected);
}

static int emit(parser *p, enum op op, size_t pos, size_t len, size_t var, double num) {
  p->sp += 1 - op_info[op].arity;
  if (p->sp > STACK_MAX)
    return DCSIM_ERR(p->err, DCSIM_EPARSE, "", 0,
                     "formula nested too deeply at column %zu in "
                     "formula " QUOTE,
                     pos + 1, p->text);
  p->e->code[p->e->n_code++] = (insn){ op, pos, len, var, num };
  return 0;
}

static int parse_expr(parser *p);
static int parse_unary(parser *p);

static int parse_number(parser *p) {
  const char *s = p->text + p->pos;
  size_t n = 0, digits = 0;
  while (is_digit(s[n])) n++, digits++;
  if (s[n] == '.')
    for (n++; is_digit(s[n]); n++) digits++;
  if (digits == 0) return syntax(p, "a number");
  if (s[n] == 'e' || s[n] == 'E') {
    size_t m = n + 1;
    if (s[m] == '+' || s[m] == '-') m++;
    if (!is_digit(s[m]))
      return DCSIM_ERR(p->err, DCSIM_EPARSE, "", 0,
                       "malformed number at column %zu in formula " QUOTE, p->pos + 1, p->text);
    for (n = m; is_digit(s[n]); n++) {}
  }
  if (is_alpha(s[n]) || s[n] == '.') { /* 12abc, 0x10, 1.2.3 */
    p->pos += n;
    return syntax(p, "an operator");
  }
  char *end; /* the checks above leave strtod nothing more to read (such as "0x1" or "inf") */
  double v = strtod(s, &end);
  if (end != s + n) /* a locale whose decimal point is not '.' */
    return DCSIM_ERR(p->err, DCSIM_EPARSE, "", 0,
                     "malformed number at column %zu in formula " QUOTE, p->pos + 1, p->text);
  if (!isfinite(v))
    return DCSIM_ERR(p->err, DCSIM_ERANGE, "", 0,
                     "number '%.*s' out of range at column %zu in "
                     "formula " QUOTE,
                     (int)n, s, p->pos + 1, p->text);
  int rc = emit(p, OP_NUM, p->pos, n, 0, v);
  p->pos += n;
  return rc;
}

static int parse_call(parser *p, const char *name, size_t len, size_t pos) {
  enum op op = FIRST_FUNC;
  while (op <= OP_CEIL && !(strncmp(op_info[op].name, name, len) == 0 && !op_info[op].name[len]))
    op++;
  if (op > OP_CEIL)
    return DCSIM_ERR(p->err, DCSIM_EREF, "", 0, "unknown function '%.*s' in formula " QUOTE,
                     (int)len, name, p->text);
  p->pos++; /* '(' */
  int n = 0, rc;
  for (;;) {
    if ((rc = parse_expr(p))) return rc;
    n++;
    if (peek(p) != ',' || n == op_info[op].arity) break;
    p->pos++;
  }
  if (n != op_info[op].arity || peek(p) == ',')
    return DCSIM_ERR(p->err, DCSIM_EPARSE, "", 0,
                     "%s() takes %d argument%s at column %zu in "
                     "formula " QUOTE,
                     op_info[op].name, op_info[op].arity, op_info[op].arity == 1 ? "" : "s",
                     pos + 1, p->text);
  if (peek(p) != ')') return syntax(p, "')'");
  p->pos++;
  return emit(p, op, pos, len, 0, 0);
}

static int parse_primary(parser *p) {
  char c = peek(p);
  if (is_digit(c) || c == '.') return parse_number(p);
  if (c == '(') {
    int rc;
    p->pos++;
    if ((rc = parse_expr(p))) return rc;
    if (peek(p) != ')') return syntax(p, "')'");
    p->pos++;
    return 0;
  }
  if (!is_alpha(c)) return syntax(p, "a number, name or '('");
  size_t pos = p->pos, len = 0;
  const char *name = p->text + pos;
  while (is_alpha(name[len]) || is_digit(name[len])) len++;
  p->pos += len;
  if (peek(p) == '(') return parse_call(p, name, len, pos);
  for (size_t i = 0; i < p->n_names; i++)
    if (p->names[i] && strncmp(p->names[i], name, len) == 0 && !p->names[i][len])
      return emit(p, OP_VAR, pos, len, i, 0);
  return DCSIM_ERR(p->err, DCSIM_EREF, "", 0, "unknown name '%.*s' in formula " QUOTE, (int)len,
                   name, p->text);
}

static int parse_power(parser *p) {
  int rc = parse_primary(p);
  if (rc || peek(p) != '^') return rc;
  size_t pos = p->pos++;
  if ((rc = parse_unary(p))) return rc;
  return emit(p, OP_POW, pos, 1, 0, 0);
}

static int parse_unary(parser *p) {
  if (++p->depth > DCSIM_EXPR_DEPTH_MAX)
    return DCSIM_ERR(p->err, DCSIM_EPARSE, "", 0,
                     "formula nested too deeply at column %zu in "
                     "formula " QUOTE,
                     p->pos + 1, p->text);
  char c = peek(p);
  size_t pos = p->pos;
  int rc;
  if (c == '+' || c == '-') {
    p->pos++;
    rc = parse_unary(p);
    if (!rc && c == '-') rc = emit(p, OP_NEG, pos, 1, 0, 0);
  } else {
    rc = parse_power(p);
  }
  p->depth--;
  return rc;
}

static int parse_term(parser *p) {
  int rc = parse_unary(p);
  while (!rc && (peek(p) == '*' || peek(p) == '/')) {
    size_t pos = p->pos;
    enum op op = p->text[p->pos++] == '*' ? OP_MUL : OP_DIV;
    if (!(rc = parse_unary(p))) rc = emit(p, op, pos, 1, 0, 0);
  }
  return rc;
}

static int parse_expr(parser *p) {
  int rc = parse_term(p);
  while (!rc && (peek(p) == '+' || peek(p) == '-')) {
    size_t pos = p->pos;
    enum op op = p->text[p->pos++] == '+' ? OP_ADD : OP_SUB;
    if (!(rc = parse_term(p))) rc = emit(p, op, pos, 1, 0, 0);
  }
  return rc;
}

int dcsim_expr_parse(const char *text, const char *const *names, size_t n_names, dcsim_expr_t **out,
                     dcsim_error *err) {
  int rc = 0;
  dcsim_expr_t *e = NULL;
  if (!out) return DCSIM_ERR(err, DCSIM_EUSAGE, "", 0, "dcsim_expr_parse: no output pointer");
  *out = NULL;
  if (!text) return DCSIM_ERR(err, DCSIM_EPARSE, "", 0, "missing formula");
  size_t len = strlen(text);
  if (len > DCSIM_EXPR_TEXT_MAX)
    return DCSIM_ERR(err, DCSIM_EPARSE, "", 0,
                     "formula too long (%zu characters, at most %d): " QUOTE, len,
                     DCSIM_EXPR_TEXT_MAX, text);
  /* every token emits at most one instruction, so len+1 is enough */
  e = malloc(sizeof *e + (len + 1) * sizeof(insn) + len + 1);
  if (!e) return DCSIM_ERR(err, DCSIM_ENOMEM, "", 0, "out of memory compiling formula");
  e->n_code = 0;
  e->text = (char *)(e->code + len + 1);
  memcpy(e->text, text, len + 1);
  parser p = { e->text, 0, names, n_names, e, 0, 0, err };
  if (peek(&p) == '\0') {
    rc = DCSIM_ERR(err, DCSIM_EPARSE, "", 0, "empty formula " QUOTE, text);
    goto out;
  }
  if ((rc = parse_expr(&p))) goto out;
  if (peek(&p) != '\0') rc = syntax(&p, "an operator or end");
out:
  if (rc)
    free(e);
  else
    *out = e;
  return rc;
}

__attribute__((format(printf, 4, 5))) static int range(const dcsim_expr_t *e, const insn *in,
                                                       dcsim_error *err, const char *fmt, ...) {
  dcsim_str what = DCSIM_STR_INIT;
  va_list ap;
  va_start(ap, fmt);
  dcsim_str_vaddf(&what, fmt, ap);
  va_end(ap);
  int rc = DCSIM_ERR(err, DCSIM_ERANGE, "", 0, "%s at column %zu in formula " QUOTE,
                     dcsim_str_cstr(&what), in->pos + 1, e->text);
  dcsim_str_release(&what);
  return rc;
}

int dcsim_expr_eval(const dcsim_expr_t *e, const double *values, double *out, dcsim_error *err) {
  double st[STACK_MAX];
  int sp = 0;
  if (!e || !out) return DCSIM_ERR(err, DCSIM_EUSAGE, "", 0, "dcsim_expr_eval: NULL argument");
  for (size_t i = 0; i < e->n_code; i++) {
    const insn *in = &e->code[i];
    double a = 0, b = 0, r = 0;
    if (op_info[in->op].arity == 2) b = st[--sp];
    if (op_info[in->op].arity >= 1) a = st[--sp];
    switch (in->op) {
      case OP_NUM: r = in->num; break;
      case OP_VAR:
        r = values[in->var];
        if (!isfinite(r))
          return range(e, in, err, "'%.*s' is %g", (int)in->len, e->text + in->pos, r);
        break;
      case OP_NEG: r = -a; break;
      case OP_ADD: r = a + b; break;
      case OP_SUB: r = a - b; break;
      case OP_MUL: r = a * b; break;
      case OP_DIV:
        if (b == 0) return range(e, in, err, "division by zero");
        r = a / b;
        break;
      case OP_POW: r = pow(a, b); break;
      case OP_MIN: r = fmin(a, b); break;
      case OP_MAX: r = fmax(a, b); break;
      case OP_LOG:
      case OP_LOG2:
      case OP_LOG10:
        if (a <= 0)
          return range(e, in, err, "%s of non-positive value %g", op_info[in->op].name, a);
        r = in->op == OP_LOG ? log(a) : in->op == OP_LOG2 ? log2(a) : log10(a);
        break;
      case OP_EXP: r = exp(a); break;
      case OP_SQRT:
        if (a < 0) return range(e, in, err, "sqrt of negative value %g", a);
        r = sqrt(a);
        break;
      case OP_ABS: r = fabs(a); break;
      case OP_FLOOR: r = floor(a); break;
      case OP_CEIL: r = ceil(a); break;
    }
    if (!isfinite(r)) return range(e, in, err, "'%s' gives %g", op_info[in->op].name, r);
    st[sp++] = r;
  }
  *out = st[0];
  return 0;
}

int dcsim_expr_uses(const dcsim_expr_t *e, size_t i) {
  if (!e) return 0;
  for (size_t k = 0; k < e->n_code; k++)
    if (e->code[k].op == OP_VAR && e->code[k].var == i) return 1;
  return 0;
}

const char *dcsim_expr_text(const dcsim_expr_t *e) { return e ? e->text : NULL; }

void dcsim_expr_free(dcsim_expr_t *e) { free(e); }
