/* dcsim/error.h — the one error value every fallible function fills.
 *
 * Ownership: dcsim_error is a caller-owned value (usually on the stack); it owns no heap memory.
 * Convention: functions return 0 on success or a negative DCSIM_E* status and fill *err, which is
 * left untouched on success. `err` may be NULL when the caller does not care. */
#ifndef DCSIM_ERROR_H
#define DCSIM_ERROR_H

#include <stdarg.h>

enum {
  DCSIM_OK = 0,
  DCSIM_EIO = -1,       /* cannot open/read/write a file */
  DCSIM_EPARSE = -2,    /* malformed XML/CSV/JSON, bad expression */
  DCSIM_ESCHEMA = -3,   /* schema violation */
  DCSIM_EREF = -4,      /* unknown reference (profile, dwarf, loop, parameter, case) */
  DCSIM_ERANGE = -5,    /* value out of range: negative, NaN, inf, state outside a table */
  DCSIM_EUSAGE = -6,    /* bad command-line use */
  DCSIM_ENOMEM = -7,    /* allocation failed */
  DCSIM_EDB = -8,       /* results database error */
  DCSIM_EINTERNAL = -9, /* a library (GSL, GLPK) failed */
  DCSIM_EINTR = -10     /* stopped on request (SIGINT/SIGTERM through an interrupt flag) */
};

typedef struct dcsim_error {
  int code;             /* one of DCSIM_E* */
  char file[512];       /* input that is wrong ("" when the error is not about an input) */
  int line;             /* line in that input, 0 if unknown */
  char param[48];       /* the parameter that is wrong, by its library name ("cpus", "kwh_usd");
                           "" when the error is about an input or nothing the caller passed */
  int index;            /* which value of that parameter (0-based), -1 for the whole parameter */
  char msg[1024];       /* what is wrong, one line, no trailing newline */
  const char *src_file; /* C source location that raised it (for debugging) */
  int src_line;
} dcsim_error;

/* The single point every error goes through (break here to catch all failures). Returns code. */
int dcsim_error_set(dcsim_error *err, const char *src_file, int src_line, int code,
                    const char *in_file, int in_line, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
int dcsim_error_vset(dcsim_error *err, const char *src_file, int src_line, int code,
                     const char *in_file, int in_line, const char *fmt, va_list ap);

/* DCSIM_ERR(err, code, input_file, input_line, "fmt", ...) records the C location too. */
#define DCSIM_ERR(err, code, in_file, in_line, ...) \
  dcsim_error_set((err), __FILE__, __LINE__, (code), (in_file), (in_line), __VA_ARGS__)

/* DCSIM_PERR(err, code, param, index, "fmt", ...): an error in a value the caller passed, named by
 * its parameter (no input file). The message says what is wrong without naming a command-line
 * option: the CLI maps the parameter to its option through its option table (cli.c) and prints
 * "command line:N: --OPTION: msg"; dcsim_error_format writes "PARAM: msg". */
#define DCSIM_PERR(err, code, param, index, ...) \
  dcsim_error_set_param((err), __FILE__, __LINE__, (code), (param), (index), __VA_ARGS__)
int dcsim_error_set_param(dcsim_error *err, const char *src_file, int src_line, int code,
                          const char *param, int index, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

/* Context for an error a callee has recorded, on its way up (err may be NULL: nothing happens).
 * The code and the C source location stay those of the callee. */
/* The input the error is about: file (NULL keeps the one recorded) and line. */
void dcsim_error_at(dcsim_error *err, const char *file, int line);
/* The same, only when the error names no input yet (its file is ""). */
void dcsim_error_at_if_unset(dcsim_error *err, const char *file, int line);
/* The parameter a callee's error is about (a profile name the callee could not resolve), only when
 * the error names no input and no parameter yet. */
void dcsim_error_param(dcsim_error *err, const char *param, int index);
/* "CONTEXT: msg": the formatted context goes before the message; the context is kept whole, the
 * message is cut when both do not fit. */
void dcsim_error_prefix(dcsim_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* "msg TEXT": the formatted text goes after the message; the text is kept whole, the message is
 * cut when both do not fit. */
void dcsim_error_suffix(dcsim_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Writes "FILE:LINE: msg" (or "FILE: msg", "PARAM: msg", or "msg") into buf. */
void dcsim_error_format(const dcsim_error *err, char *buf, unsigned long size);

#endif
