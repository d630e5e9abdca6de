#!/usr/bin/env bash
# tests/design-doc.sh [ROOT] — doc/design.md's architecture table and the files' first lines agree
# with the tree:
#  - every module (.c file) under src/<layer>/ is named in its layer's row of the table (as `name`,
#    `name.c` or a glob such as `plot_*.c`), and every module the row names exists there;
#  - the first line of every source names the file: "/* NAME — ..." with NAME the file's name
#    (a .c), "dcsim/X.h" (a public header) or its path under src/ (an internal header: util/csv.h).
# Prints every drift as FILE:LINE: what is wrong; exit 1 if there is any. Run by ctest
# (design_doc), which also plants drifts in a copy to show that it fails.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
shopt -s nullglob globstar
bad=0
doc=doc/design.md
for dir in src/*/; do
  layer=${dir#src/}; layer=${layer%/}
  row=$(grep -n -E "^\| [0-9]+ \| \`src/$layer\` \|" "$doc" || true)
  if [ -z "$row" ]; then echo "$doc:1: no row for src/$layer in the architecture table"; bad=1; continue; fi
  line=${row%%:*}
  cells=$(sed -n "${line}p" "$doc" | awk -F' \\| ' '{ print $3 }')
  # the backticked names of the modules cell: module names, file names and globs
  mapfile -t names < <(grep -o '`[^`]*`' <<<"$cells" | tr -d '`' |
    grep -E '^[a-z][a-z0-9_]*(\*[a-z0-9_]*)?(\.c)?$' | grep -v '^dcsim_' || true)
  for c in "src/$layer"/**/*.c; do
    m=$(basename "$c" .c); named=0
    for n in "${names[@]}"; do
      n=${n%.c}
      # shellcheck disable=SC2053
      if [[ $m == $n ]]; then named=1; break; fi
    done
    [ $named = 1 ] || { echo "$doc:$line: module $m ($c) is not in the row of src/$layer"; bad=1; }
  done
  for n in "${names[@]}"; do
    [[ $n == *'*'* ]] && { compgen -G "src/$layer/**/${n%.c}.c" >/dev/null || { echo "$doc:$line: \`$n\` matches no file of src/$layer"; bad=1; }; continue; }
    f=( "src/$layer"/**/"${n%.c}.c" )
    [ ${#f[@]} -gt 0 ] || { echo "$doc:$line: \`$n\` is no module of src/$layer (no ${n%.c}.c there)"; bad=1; }
  done
done
for f in src/**/*.c src/**/*.h include/dcsim/*.h; do
  case $f in
    include/*) want=${f#include/} ;;
    src/*.h | src/*/*.h | src/*/*/*.h) [[ $f == *.h ]] && want=${f#src/} ;;
  esac
  [[ $f == *.c ]] && want=$(basename "$f")
  first=$(head -n 1 "$f")
  [[ $first == "/* $want — "* ]] || { echo "$f:1: the first line names another file (want \"/* $want — ...\")"; bad=1; }
done
[ $bad = 0 ] && echo "design-doc: doc/design.md's modules and every first line match the tree"
exit $bad
