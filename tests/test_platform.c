/* test_platform.c - platform loading, its checks and path resolution. Run from the source root. */
#include <stdlib.h>

#include "check.h"
#include "dcsim/lib.h"
#include "dcsim/platform.h"

#define DATA "tests/data/platform/"

static void check_join(const char *base, const char *ref, const char *want) {
  char *got = dcsim_path_join(base, ref);
  CHECK_STR(got, want);
  free(got);
}

/* Loading `file` must fail with `code` at `line`, with exactly `msg` (or containing it when
 * `exact` is 0, for messages written by libxml2). */
static void check_fail(const char *file, int code, int line, const char *msg, int exact) {
  dcsim_error err = { 0 };
  dcsim_platform *p = (dcsim_platform *)1;
  int rc = dcsim_platform_load(file, &p, &err);
  CHECK_INT(rc, code);
  CHECK(p == NULL);
  CHECK_STR(err.file, file);
  CHECK_INT(err.line, line);
  if (exact)
    CHECK_STR(err.msg, msg);
  else
    CHECK(strstr(err.msg, msg) != NULL);
  if (rc != code || err.line != line) fprintf(stderr, "  (%s: %s)\n", file, err.msg);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  check_join("a/b.xml", "c.xml", "a/c.xml");
  check_join("a/b.xml", "../c.xml", "c.xml");
  check_join("a/b.xml", "../../c.xml", "../c.xml");
  check_join("b.xml", "c.xml", "c.xml");
  check_join("x/../../b.xml", "c.xml", "../c.xml");
  check_join("/x/y/b.xml", "./../z//c.xml", "/x/z/c.xml");
  check_join("/b.xml", "../../c.xml", "/c.xml");
  check_join("a/b.xml", "/abs/./c.xml", "/abs/c.xml");
  check_join("a/b.xml", ".", "a");
  check_join("b.xml", ".", ".");

  dcsim_error err = { 0 };
  dcsim_platform *p = NULL;
  CHECK_INT(dcsim_platform_load(DATA "hybrid.xml", &p, &err), 0);
  if (!p) {
    fprintf(stderr, "%s:%d: %s\n", err.file, err.line, err.msg);
    CHECK_DONE();
  }
  CHECK_STR(p->name, "hybrid-hsw-gtx970");
  CHECK_STR(p->path, DATA "hybrid.xml");
  CHECK_REL(p->net_bw_bps, 1.25e10, 1e-15);
  CHECK_REL(p->net_latency_s, 1e-6, 1e-15);
  CHECK_INT(p->n_groups, 3);
  CHECK_INT(p->n_nodes, 75);
  const dcsim_node_group *g = &p->groups[0];
  CHECK_STR(g->name, "hsw");
  CHECK_INT(g->count, 64);
  CHECK_STR(g->cpu, "xeon-e5-2697v3");
  CHECK_INT(g->sockets, 2);
  CHECK(g->gpu == NULL);
  CHECK_INT(g->gpus_per_node, 0);
  CHECK_REL(g->memory_byte, 137438953472.0, 1e-15);
  CHECK_STR(g->rack, "r1");
  CHECK_INT(g->has_power_states, 1);
  CHECK_REL(g->off_w, 5, 1e-15);
  CHECK_REL(g->boot_s, 120, 1e-15);
  CHECK_REL(g->boot_j, 24000, 1e-15);
  CHECK_REL(g->shutdown_s, 30, 1e-15);
  CHECK_REL(g->shutdown_j, 3000, 1e-15);
  CHECK_INT(g->first_node, 0);
  CHECK_INT(g->line, 6);
  g = &p->groups[1];
  CHECK_STR(g->name, "gpu");
  CHECK_STR(g->cpu, "hw-profiles/cpu/xeon-e5-2697v3.xml"); /* path resolved from the file */
  CHECK_STR(g->gpu, "geforce-gtx970");
  CHECK_INT(g->gpus_per_node, 1);
  CHECK_INT(g->has_power_states, 0);
  CHECK_REL(g->memory_byte + 1, 1, 1e-15);
  CHECK_INT(g->first_node, 64);
  g = &p->groups[2];
  CHECK_STR(g->cpu, DATA "profiles/skl.xml");
  CHECK(g->rack == NULL);
  CHECK_INT(g->sockets, 1);
  CHECK_INT(g->first_node, 72);
  CHECK_INT(dcsim_platform_find_group(p, "skl"), 2);
  CHECK_INT(dcsim_platform_find_group(p, "nope"), -1);
  dcsim_platform_free(p);
  dcsim_platform_free(NULL);

  /* cores= and the in-memory builder (trace imports) */
  CHECK_INT(dcsim_platform_load("tests/data/recorded/platform.xml", &p, &err), 0);
  if (p) CHECK_INT(p->groups[0].cores, 0); /* absent: the profile's */
  dcsim_platform_free(p);
  dcsim_node_group gb[2] = {
    { .name = "a", .count = 3, .cpu = "xeon-e5-2697v3", .sockets = 2, .cores = 48 },
    { .name = "b",
      .count = 2,
      .cpu = "x.xml",
      .sockets = 1,
      .gpu = "geforce-gtx970",
      .gpus_per_node = 2 }
  };
  p = NULL;
  CHECK_INT(dcsim_platform_build("built", gb, 2, 1e10, 2e-6, &p, &err), 0);
  if (p) {
    CHECK_STR(p->name, "built");
    CHECK_INT(p->n_nodes, 5);
    CHECK_INT(p->groups[1].first_node, 3);
    CHECK_INT(p->groups[0].cores, 48);
    CHECK_STR(p->groups[1].gpu, "geforce-gtx970");
    CHECK(p->groups[0].name != gb[0].name); /* copied */
  }
  dcsim_platform_free(p);
  gb[1].name = "a";
  p = NULL;
  CHECK_INT(dcsim_platform_build("built", gb, 2, 0, 0, &p, &err), DCSIM_ESCHEMA);
  CHECK(strstr(err.msg, "duplicate name") != NULL);
  gb[1].name = "b";
  gb[1].count = 0;
  CHECK_INT(dcsim_platform_build("built", gb, 2, 0, 0, &p, &err), DCSIM_ERANGE);
  CHECK(p == NULL);

  check_fail(DATA "missing.xml", DCSIM_EIO, 0, "cannot open: No such file or directory", 1);
  check_fail(DATA "bad-malformed.xml", DCSIM_EPARSE, 4,
             "Opening and ending tag mismatch: node-group line 3", 0);
  check_fail(DATA "bad-no-sockets.xml", DCSIM_ESCHEMA, 3, "the attribute sockets is missing", 0);
  check_fail(DATA "bad-count0.xml", DCSIM_ERANGE, 4, "<node-group name=\"b\">: count must be >= 1",
             1);
  check_fail(DATA "bad-dup-group.xml", DCSIM_ESCHEMA, 4,
             "<node-group name=\"a\">: duplicate name (line 3)", 1);
  check_fail(DATA "bad-rack.xml", DCSIM_EREF, 4, "<node-group name=\"a\">: unknown rack 'r9'", 1);
  check_fail(DATA "bad-gpu-count.xml", DCSIM_ERANGE, 3,
             "<node-group name=\"a\">: gpu needs gpus-per-node >= 1", 1);
  check_fail(DATA "bad-too-many.xml", DCSIM_ERANGE, 4, "more than 10000000 nodes in the platform",
             1);
  check_fail("tests/data/workflow/alaro.xml", DCSIM_ESCHEMA, 3,
             "expected a <platform> document, found <workflow>", 1);
  CHECK_DONE();
}
