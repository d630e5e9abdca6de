/* util/sha256.h — SHA-256 (FIPS 180-4) of a file, to trace results to their inputs.
 * Written here rather than adding a crypto library dependency for one digest (doc/design.md). */
#ifndef DCSIM_SHA256_H
#define DCSIM_SHA256_H

#include <stddef.h>
#include <stdint.h>

#include "dcsim/error.h"

typedef struct dcsim_sha256 {
  uint32_t h[8];
  uint64_t len;
  unsigned char buf[64];
  size_t n;
} dcsim_sha256;

void dcsim__sha256_init(dcsim_sha256 *c);
void dcsim__sha256_update(dcsim_sha256 *c, const void *data, size_t len);
void dcsim__sha256_hex(dcsim_sha256 *c, char out[65]); /* finishes */
int dcsim__sha256_file(const char *path, char out[65], dcsim_error *err);

#endif
