#!/usr/bin/env bash
# Regenerates doc/validation.md (run after tools/setup.sh and a build): the prose of
# doc/validation/head.md, then what `validate tests/reference/sections.txt --markdown` prints —
# the summary and one section per reference CSV of the manifest, each with its prose
# (doc/validation/*.md), its rows and their status (tools/derive/validate.h).
# usage: tools/gen-validation-doc.sh [BUILD_DIR] [--stdout]
#   BUILD_DIR  where the tools were built (default build); --stdout prints instead of writing the
#   file (ctest doc_validation_current diffs that with doc/validation.md).
set -euo pipefail
cd "$(dirname "$0")/.."
build=build out=doc/validation.md
for a in "$@"; do
  case $a in --stdout) out=/dev/stdout ;; *) build=$a ;; esac
done
generate() {
  cat doc/validation/head.md
  echo
  # the rows' statuses are checked by the ctests validation_*; here a failing row still prints
  "$build"/tools/validate tests/reference/sections.txt --markdown || [ $? -eq 1 ]
}
if [ "$out" = /dev/stdout ]; then
  generate
else
  generate > "$out.tmp" && mv "$out.tmp" "$out"
fi
