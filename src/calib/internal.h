/* calib_internal.h — helpers shared by the files of the calib module (calib.c, calib_fit.c,
 * calib_gpu.c, calib_import.c, calib_kerncraft.c). Not a public header.
 * Ownership: functions returning char * give malloc'd strings the caller frees. */
#ifndef DCSIM_CALIB_INTERNAL_H
#define DCSIM_CALIB_INTERNAL_H

#include <stddef.h>
#include <stdio.h>

#include <libxml/tree.h>

#include "dcsim/error.h"
#include "dcsim/strutil.h"
#include "dcsim/xmlio.h"

/* The whole file as a NUL-terminated string: 64 MiB at most, no NUL byte (dcsim_file_read). */
int dcsim_calib_read_text(const char *path, char **text, dcsim_error *err);

/* The document at path to edit: checked against its schema (dcsim_xml_validate_file), then
 * parsed as libxml2 keeps it (comments and layout stay). The caller frees *doc (xmlFreeDoc). */
int dcsim_calib_xml_open(const char *path, xmlDoc **doc, dcsim_error *err);

/* The first <elem name="name"> child of parent (a document being edited), or NULL. */
xmlNode *dcsim_calib_xml_named(xmlNode *parent, const char *elem, const char *name);

/* Writes doc to path as libxml2 prints it (UTF-8), atomically (dcsim_calib_write_file). */
int dcsim_calib_xml_save(xmlDoc *doc, const char *path, dcsim_error *err);

/* Creates directory dir if it does not exist (one level). */
int dcsim_calib_mkdir(const char *dir, dcsim_error *err);

/* What a unit measures. */
typedef enum {
  DCSIM_UNIT_PLAIN,   /* no unit */
  DCSIM_UNIT_PERCENT, /* % (scale 0.01) */
  DCSIM_UNIT_COUNT,   /* inst, warp, cycle, thread, sector, request (K, M, G prefixes) */
  DCSIM_UNIT_RATIO,   /* inst/cycle */
  DCSIM_UNIT_BYTES,   /* B, byte */
  DCSIM_UNIT_RATE,    /* B/s, byte/second */
  DCSIM_UNIT_TIME,    /* s, second (n, u, m prefixes) */
  DCSIM_UNIT_FREQ     /* Hz */
} dcsim_unit_kind;

/* Parses a unit such as "GB/s", "Gbyte/second", "kB", "usecond", "ms", "GHz", "Kinst", "%":
 * decimal prefixes k/K, M, G, T, P (K = 1000, as nvprof, ncu, Kerncraft and likwid write them),
 * binary with 'i' (KiB = 1024), n/u/m for time only. 0, or -1 for an unknown unit. */
int dcsim_calib_parse_unit(const char *unit, dcsim_unit_kind *kind, double *scale);

/* A number with an optional unit after it ("84.07 GB/s", "12.5GB/s", "98.1%", "1,234,567"):
 * thousands separators are dropped, *value is in the unit's base (B, B/s, s, Hz, count). 0, or -1
 * when not a finite number followed by a known unit. */
int dcsim_calib_parse_quantity(const char *s, double *value, dcsim_unit_kind *kind);

/* Writes s as one CSV cell (quoted when it holds a comma, a quote or leading/trailing blanks). */
void dcsim_calib_csv_cell(FILE *f, const char *s);

/* One row of a calibration table CSV (frequency, threads, value, unit, source). */
typedef struct dcsim_calib_row {
  unsigned threads;
  char value[64];   /* cell text, copied into the profile unchanged */
  char source[768]; /* provenance of this row */
} dcsim_calib_row;

/* Writes dir/<quantity>.csv (quantity: flops, L1, L2, L3, DRAM; unit GFLOP/s or GB/s), rows sorted
 * by thread count, with `comment` as the leading # lines (may hold newlines). */
int dcsim_calib_write_table(const char *dir, const char *quantity, const char *freq_id,
                            const char *unit, dcsim_calib_row *rows, size_t n_rows,
                            const char *comment, dcsim_error *err);

/* XML comment text: "--" cannot appear inside a comment; it is written as "- -". */
void dcsim_calib_xml_comment_text(FILE *f, const char *s);

/* ` NAME="value"` of node's attribute NAME, XML-escaped; nothing when it is absent. */
void dcsim_calib_attr(FILE *f, const dcsim_xml_doc_t *doc, xmlNode *n, const char *name);

/* The RAPL power table of a calibration directory (machine.xml <energy>, its CSV) as numbers:
 * idle PKG and DRAM, then one row per core count, ascending. For the power-model fits. */
typedef struct dcsim_calib_power_table {
  char *path; /* the CSV read (malloc'd) */
  double pkg_idle_w, dram_idle_w;
  size_t n;
  unsigned cores[64];
  double pkg_w[64], dram_w[64];
} dcsim_calib_power_table;
int dcsim_calib_power_rows(const char *dir, const dcsim_xml_doc_t *doc, xmlNode *en,
                           dcsim_calib_power_table *out, dcsim_error *err);

/* <power-spec> and <power-model> of the profile from machine.xml (calib_power.c): copied, or with
 * fit="energy" fitted to the directory's power table (doc/calibration.md, "Power model"). */
int dcsim_calib_emit_power(FILE *f, const char *dir, const dcsim_xml_doc_t *doc, xmlNode *root,
                           dcsim_error *err);

#endif
