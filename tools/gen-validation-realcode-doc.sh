#!/usr/bin/env bash
# Regenerates doc/validation-realcode.md (run after a build): what `realcode report
# calibration/realcode/machines.csv` prints — every measured row of the real codes with
# dcsim's prediction, its band and the error, fit and test rows apart (tools/derive/realcode.c).
# usage: tools/gen-validation-realcode-doc.sh [BUILD_DIR] [--stdout]
#   BUILD_DIR  where the tools were built (default build); --stdout prints instead of writing the
#   file (ctest doc_validation_realcode_current diffs that with doc/validation-realcode.md).
set -euo pipefail
cd "$(dirname "$0")/.."
build=build out=doc/validation-realcode.md
for a in "$@"; do
  case $a in --stdout) out=/dev/stdout ;; *) build=$a ;; esac
done
if [ "$out" = /dev/stdout ]; then
  "$build"/tools/realcode report calibration/realcode/machines.csv
else
  "$build"/tools/realcode report calibration/realcode/machines.csv > "$out.tmp" && mv "$out.tmp" "$out"
fi
