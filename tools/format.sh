#!/usr/bin/env bash
# tools/format.sh [--check] — formats every tracked C file with the project's .clang-format
# (clang-format 14, Debian 12), or with --check fails when one is not formatted (CI).
set -euo pipefail
cd "$(dirname "$0")/.."
cf=$(command -v clang-format-14 || command -v clang-format) || { echo "format: clang-format not found (apt-get install clang-format)" >&2; exit 1; }
mapfile -t files < <(git ls-files '*.c' '*.h' 2>/dev/null || find src include tests tools -name '*.[ch]')
if [ "${1:-}" = --check ]; then
  "$cf" --dry-run -Werror "${files[@]}"
  echo "format: ${#files[@]} files formatted as .clang-format says"
else
  "$cf" -i "${files[@]}"
fi
