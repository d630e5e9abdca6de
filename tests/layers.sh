#!/usr/bin/env bash
# tests/layers.sh — tools/check-layers.sh passes on the tree and fails on planted violations
# (a lower layer including a higher one; calib and sim knowing each other; a public header going up;
# a calib job including a higher job or calling a function of one; a bench file calling one of its
# rank or above (a circle); a public header including a src/ header, exposing sqlite3 or
# libxml2, or declaring a dcsim__ function; a src/ header declaring a dcsim_ function; library
# code changing process-wide state outside dcsim_lib_init; a source folder without README.md).
set -euo pipefail
check=$PWD/tools/check-layers.sh
"$check" "$PWD" >/dev/null || { "$check" "$PWD"; echo "FAIL: the tree violates its layering"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
plant() { # file line-to-append expected-message
  rm -rf "$tmp/t"; mkdir "$tmp/t"; cp -r src include "$tmp/t/"
  echo "$2" >>"$tmp/t/$1"
  if out=$("$check" "$tmp/t" 2>&1); then echo "FAIL: planted '$2' in $1 was not caught"; exit 1; fi
  grep -qF "$3" <<<"$out" || { echo "FAIL: unexpected report for '$2' in $1:"; echo "$out"; exit 1; }
  echo "caught: $out"
}
plant src/util/error.c '#include "dcsim/cli.h"' "layer 'util' includes \"dcsim/cli.h\" of layer 'cli'"
plant src/model/model_cpu.c '#include "dcsim/engine.h"' "layer 'model' includes \"dcsim/engine.h\" of layer 'sim'"
plant src/calib/sample/hvs.c '#include "dcsim/sched.h"' "layer 'calib' includes \"dcsim/sched.h\" of layer 'sim'"
plant src/sim/engine.c '#include "calib/internal.h"' "layer 'sim' includes \"calib/internal.h\" of layer 'calib'"
plant include/dcsim/dwarf.h '#include "dcsim/sweep.h"' "layer 'input' includes \"dcsim/sweep.h\" of layer 'sweep'"
plant src/calib/fit/fit.c '#include "dcsim/bench.h"' "job 'calib/fit' includes \"dcsim/bench.h\" of job 'calib/measure'"
plant src/calib/sample/gbm.c '#include "dcsim/fit.h"' "job 'calib/sample' includes \"dcsim/fit.h\" of job 'calib/fit'"
plant include/dcsim/fit_perf.h '#include "dcsim/import_cpu.h"' "job 'calib/fit' includes \"dcsim/import_cpu.h\" of job 'calib/import'"
plant src/calib/fit/fit.c 'static int g(void) { return dcsim__calib_write_table(0, 0, 0, 0, 0, 0, 0, 0); }' "src/calib/fit/fit.c:$(($(wc -l <src/calib/fit/fit.c) + 1)): job 'calib/fit' calls dcsim__calib_write_table of job 'calib/import'"
plant src/calib/sample/hvs.c 'static int g(void) { return dcsim_fit_method_parse(0, 0); }' "job 'calib/sample' calls dcsim_fit_method_parse of job 'calib/fit'"
# the bench files' chain (src/calib/measure/README.md "Files, lowest first"): a call up makes a circle
plant src/calib/measure/bench_measure.c 'static const void *g(void) { return dcsim__bench_find(0, 0, 0, 0); }' "calls dcsim__bench_find of src/calib/measure/bench_phases.c, which is not lower in the file order of src/calib/measure/README.md"
plant src/calib/measure/bench_tables.c 'static void g(void) { dcsim__bench_report(0, 0, 0, 0); }' "calls dcsim__bench_report of src/calib/measure/bench_report.c, which is not lower in the file order"
plant src/calib/measure/bench_extra.c 'static double g(void) { return dcsim__bench_elapsed_s(0); }' "src/calib/measure/bench_extra.c:1: src/calib/measure/bench_extra.c is not in the file order of src/calib/measure/README.md"
plant include/dcsim/dwarf.h '#include "util/csv.h"' "include/dcsim/dwarf.h:$(($(wc -l <include/dcsim/dwarf.h) + 1)): public header includes \"util/csv.h\", a header of src/ (internal)"
plant include/dcsim/dwarf.h 'int dcsim_dwarf_db(sqlite3 *db);' "include/dcsim/dwarf.h:$(($(wc -l <include/dcsim/dwarf.h) + 1)): a public header exposes a library type"
plant include/dcsim/dwarf.h 'int dcsim__dwarf_x(void);' "include/dcsim/dwarf.h:$(($(wc -l <include/dcsim/dwarf.h) + 1)): a public header declares an internal function"
plant src/util/csv.h 'int dcsim_csv_x(void);' "src/util/csv.h:$(($(wc -l <src/util/csv.h) + 1)): a header of src/ declares a public name"
plant src/calib/fit/fit_perf.c 'static void f(void) { gsl_set_error_handler_off(); }' "src/calib/fit/fit_perf.c:$(($(wc -l <src/calib/fit/fit_perf.c) + 1)): library code changes process-wide state"
# a source folder without its README (the one job it holds)
rm -rf "$tmp/t"; mkdir "$tmp/t"; cp -r src include "$tmp/t/"; rm "$tmp/t/src/calib/sample/README.md"
if out=$("$check" "$tmp/t" 2>&1); then echo "FAIL: a folder without README.md was not caught"; exit 1; fi
grep -qF "src/calib/sample:1: a source folder without README.md" <<<"$out" || { echo "FAIL: unexpected report: $out"; exit 1; }
echo "caught: $out"
echo "layers: 16 planted violations caught, tree clean"
