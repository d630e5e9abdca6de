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
  int regular_only;      /* 1: refuse a path that is not a regular file (a FIFO, a device, a
                          * directory) before opening it (dcsim__file_check_input); 0: a pipe is
                          * read to its end */
} dcsim_file_rules;

/* The whole file at path (a pipe too, unless the rules say regular_only: it is read to its end,
 * not measured first) as *text,
 * NUL-terminated; *len (may be NULL) is its length in bytes. rules may be NULL (no limit, NUL
 * bytes read). Errors name path, line 0: DCSIM_EIO "cannot open: REASON" or "read error",
 * DCSIM_ENOMEM "out of memory", and the two of the rules. */
int dcsim__file_read(const char *path, const dcsim_file_rules *rules, char **text, size_t *len,
                     dcsim_error *err);

/* The whole file as a NUL-terminated string: 64 MiB at most, no NUL byte (dcsim__file_read). */
int dcsim__file_read_text(const char *path, char **text, dcsim_error *err);

/* The temporary file a whole file is written to before it is published: path.tmpPID (malloc'd;
 * NULL when out of memory). */
char *dcsim__file_tmp_path(const char *path);

/* Renames the finished temporary file tmp to path (removing tmp when that fails). */
int dcsim__file_publish(const char *tmp, const char *path, dcsim_error *err);

/* Writes text to path through a temporary file and rename (never half a file). */
int dcsim__file_write_atomic(const char *path, const char *text, dcsim_error *err);
/* The same for len bytes of data (a picture: NUL bytes are data). */
int dcsim__file_write_atomic_bytes(const char *path, const void *data, size_t len,
                                   dcsim_error *err);

/* A new directory dir holding the n files names[i] (plain names) with the texts texts[i], all or
 * nothing: they are written into a temporary directory beside it (dir.tmpPID) which is renamed to
 * dir at the end; a failure removes what was written. dir must not exist or be an empty directory
 * (else DCSIM_EIO naming dir: "exists and is not empty" or "exists and is not a directory", and
 * nothing is written); missing parents are made. */
int dcsim__dir_write_atomic(const char *dir, const char *const *names, const char *const *texts,
                            size_t n, dcsim_error *err);

/* Creates directory dir and its missing parents (mkdir -p); an existing non-directory is an
 * error naming dir. */
int dcsim__mkdir_p(const char *dir, dcsim_error *err);

/* 0 when path names a regular file (following symbolic links), else DCSIM_EIO naming path, line 0,
 * with the reason: "cannot open: No such file or directory", "is a directory", "is a FIFO (named
 * pipe)", "is a character device", ... ", not a regular file". Checked with stat() before any
 * open, so a FIFO without a writer cannot block the caller. Inputs whose documentation allows a
 * pipe (sweep points) do not call it. */
int dcsim__file_check_input(const char *path, dcsim_error *err);

#endif
