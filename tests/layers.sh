#!/usr/bin/env bash
# tests/layers.sh — tools/check-layers.sh passes on the tree and fails on planted violations
# (a lower layer including a higher one; calib and sim knowing each other; a public header going up).
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
plant src/calib/hvs.c '#include "dcsim/sched.h"' "layer 'calib' includes \"dcsim/sched.h\" of layer 'sim'"
plant src/sim/engine.c '#include "calib/internal.h"' "layer 'sim' includes \"calib/internal.h\" of layer 'calib'"
plant include/dcsim/dwarf.h '#include "dcsim/sweep.h"' "layer 'input' includes \"dcsim/sweep.h\" of layer 'sweep'"
echo "layers: 5 planted violations caught, tree clean"
