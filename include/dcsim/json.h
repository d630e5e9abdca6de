/* dcsim/json.h — a minimal streaming JSON writer (commas and escaping handled; no allocation).
 * Numbers are printed with %.10g so output bytes are stable; non-finite numbers become null. */
#ifndef DCSIM_JSON_H
#define DCSIM_JSON_H

#include <stdio.h>

typedef struct dcsim_json {
  FILE *f;
  int depth;
  int need_comma[64];
  int pretty;
} dcsim_json;

void dcsim_json_init(dcsim_json *j, FILE *f, int pretty);
void dcsim_json_obj_begin(dcsim_json *j);
void dcsim_json_obj_end(dcsim_json *j);
void dcsim_json_arr_begin(dcsim_json *j);
void dcsim_json_arr_end(dcsim_json *j);
void dcsim_json_key(dcsim_json *j, const char *key);
void dcsim_json_num(dcsim_json *j, double v);
void dcsim_json_int(dcsim_json *j, long long v);
void dcsim_json_str(dcsim_json *j, const char *s);
void dcsim_json_bool(dcsim_json *j, int b);
void dcsim_json_null(dcsim_json *j);
/* A member of the object being written, key and value in one call: "key": value. */
void dcsim_json_key_num(dcsim_json *j, const char *key, double v);
void dcsim_json_key_int(dcsim_json *j, const char *key, long long v);
void dcsim_json_key_str(dcsim_json *j, const char *key, const char *s);
/* finishes the document with a newline */
void dcsim_json_end(dcsim_json *j);

#endif
