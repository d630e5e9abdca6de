#!/usr/bin/env bash
# Regenerates the list of validation checkers in doc/design.md (run after a build): the lines
# between the markers "<!-- checkers: begin ... -->" and "<!-- checkers: end -->" become what
# `validate --checkers` prints (each checker's name, file and `what`, tools/derive/validate.h).
# usage: tools/gen-design-checkers.sh [BUILD_DIR] [--stdout]
#   BUILD_DIR  where the tools were built (default build); --stdout prints the whole page instead
#   of writing it (ctest doc_design_checkers_current diffs that with doc/design.md).
set -euo pipefail
cd "$(dirname "$0")/.."
build=build out=doc/design.md
for a in "$@"; do
  case $a in --stdout) out=/dev/stdout ;; *) build=$a ;; esac
done
list=$(mktemp)
trap 'rm -f "$list"' EXIT
"$build"/tools/validate --checkers > "$list"
grep -q '^<!-- checkers: begin' doc/design.md && grep -q '^<!-- checkers: end -->' doc/design.md || {
  echo "gen-design-checkers: doc/design.md has no <!-- checkers: begin/end --> markers" >&2
  exit 1
}
generate() {
  awk -v list="$list" '
    /^<!-- checkers: begin/ { print; while ((getline l < list) > 0) print l; skip = 1; next }
    /^<!-- checkers: end -->/ { skip = 0 }
    !skip' doc/design.md
}
if [ "$out" = /dev/stdout ]; then
  generate
else
  generate > "$out.tmp" && mv "$out.tmp" "$out"
fi
