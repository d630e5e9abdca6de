/* sweep_fields.c — a sweep point's columns in SQLite, by its field table (see sweep/sweep_fields.h,
 * util/dbschema_sweep.h). */
#include "sweep/sweep_fields.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcsim/error.h"
#include "dcsim/provenance.h"
#include "dcsim/strutil.h"
#include "util/db.h"
#include "util/dbschema_sweep.h"

#define FIELD(name, member, kind, sql, constraint, unit, nulls, merge, result, since, added) \
  { #name,                                                                                   \
    offsetof(dcsim_sweep_point, member),                                                     \
    sizeof(((dcsim_sweep_point *)0)->member),                                                \
    DCSIM__SPF_##kind,                                                                       \
    sql,                                                                                     \
    constraint,                                                                              \
    unit,                                                                                    \
    DCSIM__SPN_##nulls,                                                                      \
    merge,                                                                                   \
    result,                                                                                  \
    since,                                                                                   \
    added },
const dcsim__sweep_field dcsim__sweep_fields[] = { DCSIM_SWEEP_POINT_FIELDS(FIELD) };
const size_t dcsim__n_sweep_fields = sizeof dcsim__sweep_fields / sizeof *dcsim__sweep_fields;

int dcsim__sweep_fields_list(dcsim_str *b, const char *prefix, int merge_only, sqlite3 *db,
                             const char *schema) {
  int first = 1;
  for (size_t i = 0; i < dcsim__n_sweep_fields; i++) {
    const dcsim__sweep_field *f = &dcsim__sweep_fields[i];
    if (merge_only && !f->merge) continue;
    int present = !db || dcsim__db_has_column(db, schema, "sweep_points", f->name);
    dcsim_str_addf(b, "%s%s%s", first ? "" : ", ", present ? prefix : "NULL AS ", f->name);
    first = 0;
  }
  return b->oom ? -1 : 0;
}

int dcsim__sweep_fields_defs(dcsim_str *b) {
  for (size_t i = 0; i < dcsim__n_sweep_fields; i++)
    dcsim_str_addf(b, "%s%s %s", i ? ", " : "", dcsim__sweep_fields[i].name,
                   dcsim__sweep_fields[i].sql);
  return b->oom ? -1 : 0;
}

int dcsim__sweep_fields_params(dcsim_str *b, int first) {
  for (size_t i = 0; i < dcsim__n_sweep_fields; i++)
    dcsim_str_addf(b, "%s?%d", i ? ", " : "", first + (int)i);
  return b->oom ? -1 : 0;
}

const char *dcsim__sweep_fields_merged(size_t k) {
  for (size_t i = 0; i < dcsim__n_sweep_fields; i++)
    if (dcsim__sweep_fields[i].merge && k-- == 0) return dcsim__sweep_fields[i].name;
  return NULL;
}

#define MEMBER(p, f, type)  ((type *)(void *)((char *)(p) + (f)->offset))
#define CMEMBER(p, f, type) ((const type *)(const void *)((const char *)(p) + (f)->offset))

/* 1 when the field of p is stored as a value, 0 when NULL (its rule) */
static int stored(const dcsim__sweep_field *f, const dcsim_sweep_point *p) {
  switch (f->nulls) {
    case DCSIM__SPN_ALWAYS: return 1;
    case DCSIM__SPN_ZERO: return *CMEMBER(p, f, unsigned) != 0;
    case DCSIM__SPN_EMPTY: /* a char array (the cost note: bound NULL when empty, below) */
      return f->kind == DCSIM__SPF_COST_NOTE || CMEMBER(p, f, char)[0] != '\0';
    case DCSIM__SPN_REASON: return !p->feasible || p->reason;
    case DCSIM__SPN_FEASIBLE: return p->feasible;
    case DCSIM__SPN_FINITE: return p->feasible && isfinite(*CMEMBER(p, f, double));
    case DCSIM__SPN_ENERGY: return p->feasible && isfinite(p->energy_j);
    case DCSIM__SPN_COVER: return p->feasible && *CMEMBER(p, f, double) > 1;
    case DCSIM__SPN_IDEAL: return strcmp(CMEMBER(p, f, char), "ideal") == 0;
  }
  return 0;
}

void dcsim__sweep_fields_bind(sqlite3_stmt *st, int first, const dcsim_sweep_point *p) {
  for (size_t i = 0; i < dcsim__n_sweep_fields; i++) {
    const dcsim__sweep_field *f = &dcsim__sweep_fields[i];
    int k = first + (int)i;
    if (!stored(f, p)) {
      sqlite3_bind_null(st, k);
      continue;
    }
    switch (f->kind) {
      case DCSIM__SPF_U32: sqlite3_bind_int64(st, k, *CMEMBER(p, f, uint32_t)); break;
      case DCSIM__SPF_UINT: sqlite3_bind_int64(st, k, *CMEMBER(p, f, unsigned)); break;
      case DCSIM__SPF_BOOL: sqlite3_bind_int(st, k, *CMEMBER(p, f, int)); break;
      case DCSIM__SPF_TEXT: sqlite3_bind_text(st, k, CMEMBER(p, f, char), -1, SQLITE_STATIC); break;
      case DCSIM__SPF_REASON: /* an infeasible point without a reason stores "" */
        sqlite3_bind_text(st, k, p->reason ? p->reason : "", -1, SQLITE_STATIC);
        break;
      case DCSIM__SPF_REAL: sqlite3_bind_double(st, k, *CMEMBER(p, f, double)); break;
      case DCSIM__SPF_PROV:
        sqlite3_bind_text(st, k, dcsim_prov_name((dcsim_prov_kind)*CMEMBER(p, f, unsigned char)),
                          -1, SQLITE_STATIC);
        break;
      case DCSIM__SPF_COST_NOTE: { /* made from the point; NULL when empty */
        char note[256];
        dcsim_sweep_cost_note(p, note, sizeof note);
        if (note[0])
          sqlite3_bind_text(st, k, note, -1, SQLITE_TRANSIENT);
        else
          sqlite3_bind_null(st, k);
        break;
      }
    }
  }
}

/* fields read only for a feasible point (an infeasible one's are NaN or 0) */
static int feasible_only(const dcsim__sweep_field *f) {
  return f->nulls == DCSIM__SPN_FEASIBLE || f->nulls == DCSIM__SPN_FINITE ||
         f->nulls == DCSIM__SPN_ENERGY || f->nulls == DCSIM__SPN_COVER ||
         f->kind == DCSIM__SPF_COST_NOTE;
}

int dcsim__sweep_fields_read(sqlite3_stmt *st, int first, dcsim_sweep_point *p, const char *path,
                             dcsim_error *err) {
  int rc = 0;
  p->done = 1;
  /* the feasible flag first: other fields are read by it */
  for (size_t i = 0; i < dcsim__n_sweep_fields; i++)
    if (dcsim__sweep_fields[i].kind == DCSIM__SPF_BOOL &&
        strcmp(dcsim__sweep_fields[i].name, "feasible") == 0)
      p->feasible = sqlite3_column_int(st, first + (int)i) != 0;
  for (size_t i = 0; i < dcsim__n_sweep_fields; i++) {
    const dcsim__sweep_field *f = &dcsim__sweep_fields[i];
    int k = first + (int)i, null = sqlite3_column_type(st, k) == SQLITE_NULL;
    const char *text = (const char *)sqlite3_column_text(st, k);
    if (!p->feasible && feasible_only(f)) {
      if (f->kind == DCSIM__SPF_REAL && f->nulls != DCSIM__SPN_COVER) *MEMBER(p, f, double) = NAN;
      continue;
    }
    switch (f->kind) {
      case DCSIM__SPF_U32: *MEMBER(p, f, uint32_t) = (uint32_t)sqlite3_column_int64(st, k); break;
      case DCSIM__SPF_UINT: *MEMBER(p, f, unsigned) = (unsigned)sqlite3_column_int64(st, k); break;
      case DCSIM__SPF_BOOL: *MEMBER(p, f, int) = sqlite3_column_int(st, k) != 0; break;
      case DCSIM__SPF_TEXT: /* a name cut to fit would be looked up as another profile */
        if (text && dcsim_bufprintf(MEMBER(p, f, char), f->size, "%s", text) != 0 && !rc)
          rc = DCSIM_ERR(err, DCSIM_ERANGE, path, 0,
                         "stored point: %s '%.40s...' is longer than %zu bytes, the most a sweep "
                         "point holds",
                         f->name, text, f->size - 1);
        break;
      case DCSIM__SPF_REASON: /* infeasible: why ("infeasible" when not stored); feasible: why
                                 its energy is unknown, when stored */
        if ((!p->feasible || (text && text[0])) &&
            !(p->reason = dcsim_strdup(!p->feasible && !text ? "infeasible" : text)) && !rc)
          rc = DCSIM_ERR(err, DCSIM_ENOMEM, path, 0, "out of memory");
        break;
      case DCSIM__SPF_REAL: /* NULL: NaN (unknown), or 0 for the time cover (no cover) */
        *MEMBER(p, f, double) =
            null ? (f->nulls == DCSIM__SPN_COVER ? 0 : NAN) : sqlite3_column_double(st, k);
        break;
      case DCSIM__SPF_PROV: {
        dcsim_prov_kind kind = DCSIM_PROV_TABLE;
        if (text) dcsim_prov_parse(text, &kind);
        *MEMBER(p, f, unsigned char) = (unsigned char)kind;
        break;
      }
      case DCSIM__SPF_COST_NOTE:
        dcsim__sweep_cost_missing_parse(text, MEMBER(p, f, char), f->size);
        break;
    }
  }
  return rc;
}

void dcsim__sweep_cost_missing_parse(const char *note, char *name, size_t size) {
  static const char lead[] = "no price for ";
  const char *s = note && strncmp(note, lead, sizeof lead - 1) == 0 ? note + sizeof lead - 1 : "";
  size_t len = strcspn(s, " \t\n");
  if (len >= size) len = size - 1; /* as the 63 bytes of the "%63s" before */
  memcpy(name, s, len);
  name[len] = '\0';
}

void dcsim__sweep_fields_wire_put(const dcsim_sweep_point *p,
                                  void (*put)(void *ctx, const void *v, size_t n), void *ctx) {
  for (size_t i = 0; i < dcsim__n_sweep_fields; i++) {
    const dcsim__sweep_field *f = &dcsim__sweep_fields[i];
    if (!f->result) continue;
    if (f->kind == DCSIM__SPF_REASON) {
      uint32_t len = p->reason ? (uint32_t)strlen(p->reason) + 1 : 0;
      put(ctx, &len, sizeof len);
      if (len > 1) put(ctx, p->reason, len - 1);
    } else {
      put(ctx, CMEMBER(p, f, char), f->size);
    }
  }
}

int dcsim__sweep_fields_wire_get(dcsim_sweep_point *p, const unsigned char *buf, size_t n,
                                 size_t *at) {
  for (size_t i = 0; i < dcsim__n_sweep_fields; i++) {
    const dcsim__sweep_field *f = &dcsim__sweep_fields[i];
    if (!f->result) continue;
    if (f->kind == DCSIM__SPF_REASON) {
      uint32_t len;
      if (n - *at < sizeof len) return DCSIM_EINTERNAL;
      memcpy(&len, buf + *at, sizeof len);
      *at += sizeof len;
      if (!len) continue;
      if (n - *at < (size_t)len - 1) return DCSIM_EINTERNAL;
      char *r = malloc(len);
      if (!r) return DCSIM_ENOMEM;
      memcpy(r, buf + *at, len - 1);
      r[len - 1] = '\0';
      *at += len - 1;
      free(p->reason);
      p->reason = r;
      continue;
    }
    if (n - *at < f->size) return DCSIM_EINTERNAL;
    memcpy(MEMBER(p, f, char), buf + *at, f->size);
    *at += f->size;
    if (f->kind == DCSIM__SPF_TEXT || f->kind == DCSIM__SPF_COST_NOTE)
      MEMBER(p, f, char)[f->size - 1] = '\0';
    if (f->kind == DCSIM__SPF_PROV && *MEMBER(p, f, unsigned char) >= DCSIM_PROV_N)
      return DCSIM_EINTERNAL;
  }
  return 0;
}

int dcsim__sweep_fields_copy_results(dcsim_sweep_point *dst, const dcsim_sweep_point *src) {
  for (size_t i = 0; i < dcsim__n_sweep_fields; i++) {
    const dcsim__sweep_field *f = &dcsim__sweep_fields[i];
    if (!f->result) continue;
    if (f->kind == DCSIM__SPF_REASON) {
      char *r = NULL;
      if (src->reason && !(r = dcsim_strdup(src->reason))) return DCSIM_ENOMEM;
      free(dst->reason);
      dst->reason = r;
    } else {
      memcpy(MEMBER(dst, f, char), CMEMBER(src, f, char), f->size);
    }
  }
  dst->done = 1;
  return 0;
}
