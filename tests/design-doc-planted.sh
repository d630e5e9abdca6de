#!/usr/bin/env bash
# tests/design-doc-planted.sh — tests/design-doc.sh fails on each kind of drift planted in a copy
# of the tree: a module missing from doc/design.md's table, a module the table names that is gone,
# a first line naming another file.
set -euo pipefail
check=$PWD/tests/design-doc.sh
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fresh() { rm -rf "$tmp/t"; mkdir -p "$tmp/t/doc"; cp -r src include "$tmp/t/"; cp doc/design.md "$tmp/t/doc/"; }
expect() { # what-was-planted expected-message
  if out=$("$check" "$tmp/t" 2>&1); then echo "FAIL: $1 was not caught"; exit 1; fi
  grep -qF "$2" <<<"$out" || { echo "FAIL: unexpected report for $1:"; echo "$out"; exit 1; }
  echo "caught: $(grep -F "$2" <<<"$out")"
}
fresh; printf '/* newmod.c — a module nobody documented. */\n' >"$tmp/t/src/model/newmod.c"
expect "an undocumented module" "module newmod (src/model/newmod.c) is not in the row of src/model"
fresh; rm "$tmp/t/src/sim/metrics.c"
expect "a documented module that is gone" "\`metrics\` is no module of src/sim"
fresh; sed -i '1s/evq.c/queue.c/' "$tmp/t/src/sim/evq.c"
expect "a stale first line" "src/sim/evq.c:1: the first line names another file"
fresh; sed -i '1s|util/csv.h|dcsim/csv.h|' "$tmp/t/src/util/csv.h"
expect "a header's stale first line" "src/util/csv.h:1: the first line names another file"
echo "design-doc: 4 planted drifts caught"
