#!/usr/bin/env bash
# tests/char-arrays.sh — the fixed char arrays of src/ stay at or under tools/check-char-arrays.sh's
# ceiling, the check counts each declarator (a planted array fails it), and no error below src/cli
# is worded for the command line (the library names a parameter,
# dcsim_error.param; cli.c's table maps it to its option).
set -euo pipefail
check=$PWD/tools/check-char-arrays.sh
"$check" "$PWD"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/t"; cp -r src "$tmp/t/"
ceiling=$(sed -n 's/^ceiling=//p' "$check")
n=$("$check" "$PWD" | sed -n 's/^char-arrays: \([0-9]*\) .*/\1/p')
# one line with as many arrays as it takes to pass the ceiling, two declarators per declaration
k=$((ceiling - n + 1)); line=""
for ((i = 0; i < k; i++)); do line+="static char planted_a$i[16], planted_b$i[16];"; done
echo "$line" >>"$tmp/t/src/util/error.c"
if "$check" "$tmp/t" >/dev/null 2>&1; then echo "FAIL: $((2 * k)) planted arrays not caught"; exit 1; fi
echo "caught: $((2 * k)) planted arrays"
if out=$(grep -rn '"command line"' src | grep -v '^src/cli/'); then
  echo "FAIL: errors worded for the command line below src/cli (name the parameter: DCSIM_PERR):"
  echo "$out"
  exit 1
fi
echo "no \"command line\" below src/cli"
