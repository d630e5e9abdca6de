/* sweep/sweep_fields.h — the field table of a sweep point (util/dbschema_sweep.h) made into data
 * with offsets, and the generic code that stores and reads a point's columns in SQLite by it: the
 * column lists of the INSERT, the SELECTs and the merge (doc/design.md "Result records").
 *
 * Ownership: static data; the lists are appended to the caller's dcsim_str. */
#ifndef DCSIM_SWEEP_FIELDS_H
#define DCSIM_SWEEP_FIELDS_H

#include <stddef.h>

#include <sqlite3.h>

#include "dcsim/strutil.h"
#include "dcsim/sweep_io.h"

/* how a field's value is bound and read (KIND of util/dbschema_sweep.h) */
typedef enum dcsim__spf_kind {
  DCSIM__SPF_U32,      /* uint32_t, INTEGER */
  DCSIM__SPF_UINT,     /* unsigned, INTEGER */
  DCSIM__SPF_BOOL,     /* int 0 or 1, INTEGER */
  DCSIM__SPF_TEXT,     /* a char array, TEXT */
  DCSIM__SPF_REASON,   /* the point's char *reason, TEXT */
  DCSIM__SPF_REAL,     /* double, REAL */
  DCSIM__SPF_PROV,     /* unsigned char dcsim_prov_kind, TEXT: its name (dcsim/provenance.h) */
  DCSIM__SPF_COST_NOTE /* stored: dcsim_sweep_cost_note(); read: the profile it names into the
                          char array cost_missing */
} dcsim__spf_kind;

/* when a field's column is NULL (NULLS of util/dbschema_sweep.h) */
typedef enum dcsim__spn_rule {
  DCSIM__SPN_ALWAYS,   /* never (a text is stored as it is, "" included) */
  DCSIM__SPN_ZERO,     /* when 0 */
  DCSIM__SPN_EMPTY,    /* when "" */
  DCSIM__SPN_REASON,   /* a feasible point without a reason (an infeasible one stores "" then) */
  DCSIM__SPN_FEASIBLE, /* when infeasible (read as NaN, or not read) */
  DCSIM__SPN_FINITE,   /* when infeasible or not finite (read back as NaN) */
  DCSIM__SPN_ENERGY,   /* when infeasible or the energy is unknown (energy_prov) */
  DCSIM__SPN_COVER,    /* when infeasible or not above 1 (no task beyond its thread law) */
  DCSIM__SPN_IDEAL     /* unless "ideal" (--threading: NULL is measured) */
} dcsim__spn_rule;

typedef struct dcsim__sweep_field {
  const char *name; /* the column */
  size_t offset;    /* of the member in dcsim_sweep_point */
  size_t size;      /* of the member (a char array's capacity) */
  dcsim__spf_kind kind;
  const char *sql, *constraint, *unit;
  dcsim__spn_rule nulls;
  int merge;         /* compared by `dcsim merge` */
  int result;        /* computed by evaluating the point: on the MPI wire, restored */
  const char *since; /* the dcsim version the column appeared in */
  const char *added; /* "" or the change that added it to an older table */
} dcsim__sweep_field;

extern const dcsim__sweep_field dcsim__sweep_fields[];
extern const size_t dcsim__n_sweep_fields;

/* Column lists appended to b (0, or -1 when out of memory: b->oom): every field's name,
 * comma-separated, each after prefix ("" or "m."), in table order; merge_only: only the fields
 * `dcsim merge` compares. When db is not NULL, a field whose column the table sweep_points of db's
 * schema (NULL: "main") lacks (an older database, read and not migrated) is "NULL AS name"
 * instead (PRAGMA table_info). */
int dcsim__sweep_fields_list(dcsim_str *b, const char *prefix, int merge_only, sqlite3 *db,
                             const char *schema);
/* "name TYPE, ..." of every field (no constraint), for a temporary table */
int dcsim__sweep_fields_defs(dcsim_str *b);
/* "?F, ?F+1, ..." for the fields, F = first */
int dcsim__sweep_fields_params(dcsim_str *b, int first);
/* The name of the k-th field `dcsim merge` compares (in table order), NULL past the last. */
const char *dcsim__sweep_fields_merged(size_t k);

/* Binds every field of p to parameters first, first+1, ... of st by its NULL rule. */
void dcsim__sweep_fields_bind(sqlite3_stmt *st, int first, const dcsim_sweep_point *p);
/* Reads every field of columns first, first+1, ... of st into p (done = 1). DCSIM_ERANGE (err
 * naming the database path) for a text longer than its member (a profile name cut to fit would be
 * looked up as another profile), DCSIM_ENOMEM when the reason cannot be copied (p->reason then
 * NULL). */
int dcsim__sweep_fields_read(sqlite3_stmt *st, int first, dcsim_sweep_point *p, const char *path,
                             dcsim_error *err);

/* The profile a cost note names ("no price for NAME (...)", dcsim_sweep_cost_note) into name
 * (size bytes, cut to fit); "" for another note or NULL. The one rule for the SQLite column and the
 * CSV and JSON cost_note (sweep_io.c). */
void dcsim__sweep_cost_missing_parse(const char *note, char *name, size_t size);

/* The results of p (the fields marked RESULT, in table order) as bytes for the MPI wire, each
 * through put(ctx, bytes, n): a fixed-size member as it is in memory (the ranks run one binary on
 * one kind of node), the reason as a uint32_t (0: none, else its length + 1) and its bytes. */
void dcsim__sweep_fields_wire_put(const dcsim_sweep_point *p,
                                  void (*put)(void *ctx, const void *v, size_t n), void *ctx);
/* Reads what dcsim__sweep_fields_wire_put wrote from buf[*at..n) into p (its reason allocated,
 * freed by the caller) and advances *at. DCSIM_EINTERNAL for a message cut short or a provenance
 * out of range, DCSIM_ENOMEM when the reason cannot be copied. */
int dcsim__sweep_fields_wire_get(dcsim_sweep_point *p, const unsigned char *buf, size_t n,
                                 size_t *at);
/* Copies the results of src into dst (done = 1; dst's reason freed, src's duplicated): what a
 * resumed or distributed sweep restores. DCSIM_ENOMEM when the reason cannot be copied. */
int dcsim__sweep_fields_copy_results(dcsim_sweep_point *dst, const dcsim_sweep_point *src);

#endif
