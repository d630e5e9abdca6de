/* dcsim/strutil.h — the one home of the small helpers every layer needs: string duplication,
 * array growth, strict number parsing and path joining (SQLite's util.c, git's strbuf).
 *
 * Ownership: dcsim_strdup(), dcsim_path_join() and dcsim_path_in() return malloc'd strings the
 * caller frees (NULL when out of memory). dcsim_grow() reallocates an array the caller owns and
 * frees; on failure the array and its capacity are left as they were. A dcsim_str owns its text
 * (dcsim_str_release frees it, dcsim_str_take hands it over). Nothing here keeps state. */
#ifndef DCSIM_STRUTIL_H
#define DCSIM_STRUTIL_H

#include <stdarg.h>
#include <stddef.h>

#include "dcsim/error.h"

/* ---- strings ---- */

/* A copy of s, or NULL when s is NULL or out of memory. */
char *dcsim_strdup(const char *s);

/* s without its leading and trailing blanks (as isspace() says): the trailing ones are cut in
 * place, the result points into s. */
char *dcsim_trim(char *s);

/* snprintf into a fixed buffer that says when the text did not fit: 0, or -1 when it was cut (or
 * could not be formatted). For paths and names built in char arrays: a cut path names another
 * file, so every caller handles -1. */
int dcsim_bufprintf(char *buf, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The one growable string (git's strbuf, Redis's sds): text of any length built piece by piece.
 * `dcsim_str b = DCSIM_STR_INIT;` then dcsim_str_addf()/dcsim_str_add(); an allocation that fails
 * sets `oom` and every later add does nothing, so a caller checks once, at the end. */
typedef struct dcsim_str {
  char *s;         /* the text, NUL-terminated; NULL until the first add (dcsim_str_cstr: "") */
  size_t len, cap; /* bytes of text, bytes allocated */
  int oom;         /* an add failed: the text is incomplete */
} dcsim_str;
#define DCSIM_STR_INIT \
  { NULL, 0, 0, 0 }
/* Appends the formatted text; 0, or -1 when out of memory (b->oom set). */
int dcsim_str_addf(dcsim_str *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same with a va_list (for functions that take a format themselves). */
int dcsim_str_vaddf(dcsim_str *b, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* Appends s; 0 or -1 as dcsim_str_addf. */
int dcsim_str_add(dcsim_str *b, const char *s);
/* The text ("" when nothing was added). */
const char *dcsim_str_cstr(const dcsim_str *b);
/* The text as a malloc'd string the caller frees (NULL when out of memory); b is empty again. */
char *dcsim_str_take(dcsim_str *b);
/* The text into a fixed buffer of size bytes (> 0), as much as fits: 0, or -1 when it was cut (the
 * caller decides what a cut text says: "..."). */
int dcsim_str_copy_to(const dcsim_str *b, char *buf, size_t size);
/* Frees the text; b is empty again. NULL-safe. */
void dcsim_str_release(dcsim_str *b);

/* The formatted text in a new string of its own length (the caller frees it); NULL when out of
 * memory or the text could not be formatted. For texts of no fixed bound (names from inputs). */
char *dcsim_strdup_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The length in bytes (1 to 4) of the well-formed UTF-8 character s begins with (RFC 3629,
 * section 4: no overlong form, no surrogate, nothing above U+10FFFF), or 0 when s begins with a
 * byte that does not start one (or with the NUL byte). The one check of every writer that must
 * emit valid UTF-8 (XML, chart labels). */
size_t dcsim_utf8_len(const char *s);

/* ---- arrays ---- */

/* Makes room for `need` elements of elem_size bytes in *arr, whose room is *cap elements: when
 * need > *cap the capacity doubles (from 8) until it holds need, and *arr is reallocated. New
 * elements are not initialised. 0, or -1 when out of memory or when the size would overflow
 * (then *arr and *cap are unchanged). *arr may be NULL with *cap 0. */
int dcsim_grow(void **arr, size_t *cap, size_t need, size_t elem_size);

/* The same for an array that keeps no capacity, only its length n: makes room for element n,
 * assuming the room that growing from 0 one element at a time gives (8, 16, 32, ...). Such an array
 * must be grown by dcsim_grow_n() only. */
int dcsim_grow_n(void **arr, size_t n, size_t elem_size);

/* Reallocates *arr to exactly n elements of elem_size bytes (n > 0): for arrays sized by another
 * count (parallel arrays sharing one capacity, a capacity kept in a narrower type). 0, or -1 when
 * out of memory or when the size would overflow (then *arr is unchanged). */
int dcsim_resize(void **arr, size_t n, size_t elem_size);

/* DCSIM_GROW(p, cap, need) for `T *p; size_t cap;`, DCSIM_GROW_N(p, n) for `T *p; size_t n;`,
 * DCSIM_RESIZE(p, n) for `T *p;` to hold exactly n elements. */
#define DCSIM_GROW(arr, cap, need) dcsim_grow((void **)&(arr), &(cap), (need), sizeof *(arr))
#define DCSIM_GROW_N(arr, n)       dcsim_grow_n((void **)&(arr), (n), sizeof *(arr))
#define DCSIM_RESIZE(arr, n)       dcsim_resize((void **)&(arr), (n), sizeof *(arr))

/* ---- numbers ---- */

/* Strict number parsing shared by all text inputs and the command line: the whole string (blanks
 * around it allowed) in plain decimal notation (no hex, inf or nan), finite. 0 ok, -1 bad. */
int dcsim_parse_double(const char *s, double *out);

/* A whole number from lo to hi written as dcsim_parse_double() reads numbers ("16", "1e3" and
 * "4.0" are whole numbers). 0 ok, -1 bad or out of range. */
int dcsim_parse_uint(const char *s, unsigned lo, unsigned hi, unsigned *out);

/* A frequency as a number of GHz, the unit optionally written after it ("2.6", "2.6GHz", "2.6ghz").
 * 0, or -1 when it is not such a number (a state label such as "turbo"); its range is the caller's
 * to check. */
int dcsim_parse_ghz(const char *s, double *ghz);

/* ---- paths ---- */

/* `ref` as seen from the directory of the file `base_file`, lexically normalised ("a/./b/../c"
 * -> "a/c"); an absolute ref is only normalised. */
char *dcsim_path_join(const char *base_file, const char *ref);

/* "dir/file", as written (no normalisation). */
char *dcsim_path_in(const char *dir, const char *file);
/* Whether `path` can be written before any work is done (outputs are checked before inputs are
 * simulated, doc/cli.md): its directory exists and is writable, and the path is not a directory,
 * not anything else but a regular file (a FIFO, a device, which would block) nor an existing file
 * that cannot be written. 0 ok, else DCSIM_EIO with *err naming the path and what is wrong ("what"
 * names it: "--plot", "-o"). Nothing is created. */
int dcsim_path_check_writable(const char *path, const char *what, dcsim_error *err);

/* ---- suggestions ("did you mean") ---- */
/* The edit (Levenshtein) distance between a and b; strings longer than 63 bytes count as far. */
size_t dcsim_edit_distance(const char *a, const char *b);
/* The candidate closest to `word` when it is close enough to be what was meant (edit distance at
 * most max(2, length/3), or `word` is the beginning of it), else NULL. Ties: the first. */
const char *dcsim_suggest(const char *word, const char *const *cands, size_t n);
/* Every candidate as close as the closest (ties, in order), at most max of them into out[]; how
 * many. For "did you mean xeon-e5-2697v2 or xeon-e5-2697v3?". */
size_t dcsim_suggest_n(const char *word, const char *const *cands, size_t n, const char **out,
                       size_t max);

#endif
