/* test_sweep_file_fields.c — the file field table of a sweep point (sweep/sweep_file_fields.h)
 * and the CSV and JSON writers and readers made from it (dcsim/sweep_io.h): the
 * table's JSON ranks are 1..N once each, its names unique; a write -> read -> write round trip is
 * byte-identical in both formats for points with every read-back field set and with every optional
 * field empty; the derived fields (front flags, bands) are written and not read back, a cost band
 * array included. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "dcsim/error.h"
#include "dcsim/lib.h"
#include "dcsim/provenance.h"
#include "dcsim/strutil.h"
#include "dcsim/sweep_io.h"
#include "sweep/sweep_file_fields.h"

typedef struct row {
  const char *csv, *json;
  int rank, read, trank;
} row;

#define TRANK(trank, header, width, gap, fit, cell) trank
#define ROW(csv, json, rank, member, kind, max, column, cw, kw, jw, read, unit, since, text) \
  { csv, json, rank, read, TRANK text },
static const row rows[] = { DCSIM_SWEEP_POINT_FILE_FIELDS(ROW) };
#define N_ROWS (sizeof rows / sizeof *rows)

/* ranks 1..N once each; text ranks positive (or 0: no text column) and distinct, the point's
 * index first; CSV names and JSON keys unique */
static void check_table(void) {
  int text_columns = 0;
  for (size_t i = 0; i < N_ROWS; i++) {
    CHECK(rows[i].trank >= 0);
    text_columns += rows[i].trank > 0;
    for (size_t k = i + 1; k < N_ROWS; k++) CHECK(!rows[i].trank || rows[i].trank != rows[k].trank);
    CHECK(!rows[i].trank || rows[i].trank >= rows[0].trank);
  }
  CHECK(text_columns >= 13);
  for (size_t r = 1; r <= N_ROWS; r++) {
    int seen = 0;
    for (size_t i = 0; i < N_ROWS; i++) seen += rows[i].rank == (int)r;
    CHECK_INT(seen, 1);
  }
  for (size_t i = 0; i < N_ROWS; i++)
    for (size_t k = i + 1; k < N_ROWS; k++) {
      CHECK(strcmp(rows[i].csv, rows[k].csv) != 0);
      CHECK(strcmp(rows[i].json, rows[k].json) != 0);
    }
  CHECK_STR(rows[0].csv, "index");
  CHECK_INT((int)N_ROWS, 26);
}

/* the bytes written by the writer (json: 1) into a temporary file, whose path goes to path */
static char *write_points(const dcsim_sweep_point *pts, size_t n, int json, char *path) {
  strcpy(path, "/tmp/dcsim-test-file-fields-XXXXXX");
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  FILE *f = fdopen(fd, "w+");
  if (json)
    dcsim_sweep_write_json(f, pts, n, NULL);
  else
    dcsim_sweep_write_csv(f, pts, n, NULL);
  long len = ftell(f);
  rewind(f);
  char *s = calloc((size_t)len + 1, 1);
  CHECK(fread(s, 1, (size_t)len, f) == (size_t)len);
  fclose(f);
  return s;
}

/* point 0: every field the files read back set; point 1: infeasible, every optional field
 * empty; point 2: feasible, energy and cost unknown, no names */
static void fill(dcsim_sweep_point p[3]) {
  memset(p, 0, 3 * sizeof *p);
  p[0].index = 7;
  strcpy(p[0].cpu, "xeon, \"8480\"");
  strcpy(p[0].gpu, "a100");
  p[0].nodes = 4;
  p[0].cores = 56;
  strcpy(p[0].freq, "2.1");
  p[0].done = p[0].feasible = 1;
  p[0].time_s = 12.385;
  p[0].energy_j = 4812.25;
  p[0].reason = dcsim_strdup("energy unknown: a note, kept");
  p[0].time_prov = DCSIM_PROV_INTERPOLATED;
  p[0].energy_prov = DCSIM_PROV_SPEC;
  p[0].cost_usd = 0.0371;
  strcpy(p[0].cost_missing, "a100");
  p[0].gpus = 8;
  strcpy(p[0].host_cpu, "epyc-7763");
  strcpy(p[0].threading, "ideal");
  p[0].turbo_unmeasured = 1;
  p[0].time_cover = 1.25;
  p[1].index = 8;
  p[1].done = 1;
  p[1].time_s = p[1].energy_j = p[1].cost_usd = NAN;
  p[2].index = 9;
  p[2].done = p[2].feasible = 1;
  p[2].time_s = 3.5;
  p[2].energy_j = p[2].cost_usd = NAN;
  p[2].reason = dcsim_strdup("energy unknown: no power data");
  strcpy(p[2].threading, "measured");
}

static void check_round_trip(int json) {
  dcsim_sweep_point p[3];
  fill(p);
  char path[64], path2[64];
  char *first = write_points(p, 3, json, path);
  dcsim_sweep_point *back = NULL;
  size_t n = 0;
  dcsim_error err = { 0 };
  CHECK_INT(dcsim_sweep_points_read(path, &back, &n, &err), 0);
  CHECK_INT((int)n, 3);
  if (n == 3) {
    CHECK_STR(back[0].cpu, p[0].cpu);
    CHECK_INT(back[0].gpus, 8);
    CHECK_STR(back[0].cost_missing, "a100");
    CHECK_INT(back[0].time_prov, DCSIM_PROV_INTERPOLATED);
    CHECK_INT(back[1].feasible, 0);
    CHECK(back[1].reason == NULL);
    CHECK(isnan(back[2].energy_j));
    CHECK_INT(back[0].turbo_unmeasured, 1);
    CHECK_INT(back[2].turbo_unmeasured, 0);
    CHECK_ABS(back[0].time_cover, 1.25, 0);
    CHECK(!(back[2].time_cover > 1)); /* no cover: an empty cell, a key left out */
    char *second = write_points(back, n, json, path2);
    CHECK_STR(second, first);
    free(second);
    unlink(path2);
  }
  dcsim_sweep_points_free(back, n);
  free(first);
  unlink(path);
  free(p[0].reason);
  free(p[2].reason);
}

/* front flags and bands are written, never read back (recomputed by dcsim pareto) */
static void check_derived(int json) {
  dcsim_sweep_point p[3];
  fill(p);
  p[0].pareto = p[0].knee = p[0].balance = 1;
  p[0].has_band = p[0].has_cost_band = p[0].near_front = 1;
  p[0].time_band[0] = 11.5;
  p[0].time_band[1] = 13.25;
  p[0].energy_band[0] = 4400;
  p[0].energy_band[1] = 5100;
  p[0].cost_band[0] = 0.031;
  p[0].cost_band[1] = 0.044;
  char path[64];
  char *text = write_points(p, 3, json, path);
  CHECK(strstr(text, json ? "\"cost_band\":[0.031,0.044]" : ",0.031,0.044,") != NULL);
  CHECK(strstr(text, json ? "\"time_band\":[11.5,13.25]" : ",11.5,13.25,4400,5100,1,") != NULL);
  dcsim_sweep_point *back = NULL;
  size_t n = 0;
  dcsim_error err = { 0 };
  CHECK_INT(dcsim_sweep_points_read(path, &back, &n, &err), 0);
  CHECK_INT((int)n, 3);
  if (n == 3) {
    CHECK_INT(back[0].pareto, 0);
    CHECK_INT(back[0].knee, 0);
    CHECK_INT(back[0].balance, 0);
    CHECK_INT(back[0].has_band, 0);
    CHECK_INT(back[0].near_front, 0);
    CHECK_REL(back[0].time_s, 12.385, 1e-12);
  }
  dcsim_sweep_points_free(back, n);
  free(text);
  unlink(path);
  free(p[0].reason);
  free(p[2].reason);
}

/* The text table (dcsim_sweep_write_text): a GPU cell merged from three members and longer than
 * any fixed cell (133 bytes) is written whole and widens its column, the columns after it staying
 * aligned; threading shown (a point runs ideal) after freq; an infeasible point's "infeasible:"
 * takes the rest of its line; an unknown energy reads "unknown". */
static void check_text(void) {
  dcsim_sweep_point p[3];
  fill(p);
  memset(p[0].gpu, 'g', 63);
  p[0].gpu[63] = '\0';
  memset(p[0].host_cpu, 'h', 63);
  p[0].host_cpu[63] = '\0';
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  dcsim_sweep_write_text(f, p, 3, 0);
  fclose(f);
  char cell[160];
  snprintf(cell, sizeof cell, "%s x8 on %s", p[0].gpu, p[0].host_cpu);
  CHECK_INT((int)strlen(cell), 133);
  CHECK(strstr(buf, cell) != NULL);
  /* point (6), 2 spaces, cpu (16), a space, gpu (133), a space: nodes (5) */
  size_t at = 6 + 2 + 16 + 1 + 133 + 1;
  const char *line[4] = { buf, NULL, NULL, NULL };
  for (int i = 1; i < 4; i++) {
    line[i] = line[i - 1] ? strchr(line[i - 1], '\n') : NULL;
    CHECK(line[i] != NULL);
    if (line[i]) line[i]++;
  }
  if (!line[3]) goto out;
  CHECK(strncmp(line[0] + at, "nodes cores freq     threading ", 31) == 0);
  CHECK(strncmp(line[1] + at, "    4    56 2.1      ideal     ", 31) == 0);
  CHECK(strncmp(line[2] + at, "    -     - -        measured  ", 31) == 0);
  CHECK(strstr(line[2],
               "                       -                              -                "
               "          -  infeasible: \n") != NULL);
  CHECK(strstr(line[3],
               "3.5                        unknown                          -  table"
               "        unknown       \n") != NULL);
out:
  free(buf);
  free(p[0].reason);
  free(p[2].reason);
}

/* the time_cover and turbo_unmeasured columns and keys (doc/sweep.md "Uncertainty bands"): there
 * only when a feasible point's time band reaches beyond its class band, or its nominal clock's
 * time, so that other sweeps' files stay as they were; then the cover (empty or no key when none)
 * and 1/true or 0/false per feasible point */
static void check_turbo_column(int json) {
  dcsim_sweep_point p[3];
  fill(p);
  char path[64];
  p[0].turbo_unmeasured = 0;
  p[0].time_cover = 1;
  char *none = write_points(p, 3, json, path);
  CHECK(strstr(none, "turbo_unmeasured") == NULL);
  CHECK(strstr(none, "time_cover") == NULL);
  p[0].time_cover = 1.25;
  free(none);
  unlink(path);
  p[2].turbo_unmeasured = 1;
  char *some = write_points(p, 3, json, path);
  CHECK(strstr(some, json ? "\"time_cover\":1.25,\"turbo_unmeasured\":false}"
                          : ",ideal,1.25,0\n") != NULL);
  CHECK(strstr(some, json ? "\"threading\":\"measured\",\"turbo_unmeasured\":true}"
                          : ",measured,,1\n") != NULL);
  free(some);
  unlink(path);
  for (int k = 0; k < 3; k++) free(p[k].reason);
}

int main(void) {
  if (dcsim_lib_init() != 0) return 1;
  check_table();
  check_round_trip(0);
  check_round_trip(1);
  check_derived(0);
  check_derived(1);
  check_turbo_column(0);
  check_turbo_column(1);
  check_text();
  CHECK_DONE();
}
