/* test_swfmap.c — SWF job -> dwarf rules: loading, first-match order, criteria, bad rules. */
#include <stdio.h>

#include "check.h"
#include "dcsim/lib.h"
#include "dcsim/swfmap.h"

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  dcsim_swf_map *m = NULL;
  dcsim_error err = { 0 };
  int rc = dcsim_swf_map_load("tests/data/traces/map.xml", &m, &err);
  CHECK_INT(rc, 0);
  if (rc) {
    fprintf(stderr, "  %s:%d: %s\n", err.file, err.line, err.msg);
    CHECK_DONE();
  }
  CHECK_INT((long long)m->n_rules, 2);
  CHECK_STR(m->rules[0].dwarf, "bifft");
  CHECK_INT(m->rules[0].nodes, 0); /* "job" */
  CHECK_INT(m->rules[0].cores_per_node, DCSIM_SWF_RULE_JOB);
  CHECK_INT(m->rules[1].nodes, 1);
  CHECK_INT(m->rules[1].cores_per_node, 2);
  CHECK_INT((long long)m->rules[1].n_sets, 1);
  CHECK_STR(m->rules[1].sets[0].name, "ITER");
  CHECK(!m->skip_unmatched);
  dcsim_swf_job j = { .id = 1, .run_s = 100, .procs = 8, .user = 1, .queue = 1 };
  CHECK_INT(dcsim_swf_map_match(m, &j, 8), 0);
  j.user = 2; /* rule 0 is for user 1 only */
  CHECK_INT(dcsim_swf_map_match(m, &j, 8), -1);
  CHECK_INT(dcsim_swf_map_match(m, &j, 3), 1);
  CHECK_INT(dcsim_swf_map_match(m, &j, 4), -1);
  dcsim_swf_map_free(m);
  /* a bad rule names the file and line */
  m = NULL;
  rc = dcsim_swf_map_load("tests/data/traces/bad-map.xml", &m, &err);
  CHECK_INT(rc, DCSIM_ERANGE);
  CHECK_INT(err.line, 4);
  CHECK(strstr(err.msg, "min- bound above its max- bound") != NULL);
  CHECK(m == NULL);
  /* an id out of range, or not whole, is an error naming the attribute, never a cast */
  rc = dcsim_swf_map_load("tests/data/traces/bad-map-id.xml", &m, &err);
  CHECK_INT(rc, DCSIM_ERANGE);
  CHECK_INT(err.line, 5);
  CHECK(strstr(err.msg, "user must be a whole number") != NULL);
  CHECK(m == NULL);
  CHECK_DONE();
}
