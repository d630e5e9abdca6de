/* util/fileio.h — reading a whole input file into memory, the one way every reader does it
 * (XML documents, CSV tables, calibration exports, sweep points).
 *
 * Also the one way files are written whole (dcsim__file_write_atomic) and directories made.
 *
 * Ownership: dcsim__file_read() gives a malloc'd, NUL-terminated *text the caller frees; on
 * failure *text is left untouched. Nothing here keeps state. */
#ifndef DCSIM_FILEIO_H
#define DCSIM_FILEIO_H

#include <stddef.h>

#include "dcsim/error.h"

/* What a reader accepts, and the words it refuses the rest with (each reader keeps its own). */
typedef struct dcsim_file_rules {
  size_t max_bytes;      /* a longer file is DCSIM_ERANGE with the message too_large; 0: no limit */
  const char *too_large; /* that message */
  const char *nul_byte;  /* NULL: NUL bytes are read like any other; else a file holding one is
                          * DCSIM_EPARSE with this message */
} dcsim_file_rules;

/* The whole file at path (a pipe too: it is read to its end, not measured first) as *text,
 * NUL-terminated; *len (may be NULL) is its length in bytes. rules may be NULL (no limit, NUL
 * bytes read). Errors name path, line 0: DCSIM_EIO "cannot open: REASON" or "read error",
 * DCSIM_ENOMEM "out of memory", and the two of the rules. */
int dcsim__file_read(const char *path, const dcsim_file_rules *rules, char **text, size_t *len,
                     dcsim_error *err);

/* The whole file as a NUL-terminated string: 64 MiB at most, no NUL byte (dcsim__file_read). */
int dcsim__file_read_text(const char *path, char **text, dcsim_error *err);

/* Writes text to path through a temporary file and rename (never half a file). */
int dcsim__file_write_atomic(const char *path, const char *text, dcsim_error *err);

/* Creates directory dir if it does not exist (one level); an existing non-directory is an error. */
int dcsim__mkdir(const char *dir, dcsim_error *err);

#endif
