#!/usr/bin/env bash
# tools/check-layers.sh [ROOT] — fails when a lower layer of src/ includes a higher one (doc/design.md).
#
# Layers, lowest first: util < input < model < {calib, sim} < sweep < output < cli; calib and sim
# do not know each other. A file's layer is its folder under src/. A public header
# include/dcsim/X.h belongs to the folder that holds X.c; a header without a .c of its own
# (scenario_types.h) to the module named by its name up to the last '_' (scenario), repeatedly.
# A private header "F/internal.h" belongs to folder F. Both the sources and the public headers
# are checked. Prints every violation as FILE:LINE: what is wrong; exit 1 if there is any.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

declare -A rank=([util]=0 [input]=1 [model]=2 [calib]=3 [sim]=3 [sweep]=4 [output]=5 [cli]=6)
declare -A layer_of # module name -> layer folder
for c in src/*/*.c; do
  d=${c#src/}; d=${d%%/*}
  [ -n "${rank[$d]+x}" ] || { echo "$c:1: src/$d is not a known layer (${!rank[*]})"; exit 1; }
  layer_of[$(basename "$c" .c)]=$d
done

header_layer() { # $1 = module name of include/dcsim/$1.h; prints the layer or nothing
  local m=$1
  while :; do
    if [ -n "${layer_of[$m]+x}" ]; then echo "${layer_of[$m]}"; return; fi
    case $m in *_*) m=${m%_*} ;; *) return ;; esac
  done
}

allowed() { # from-layer to-layer -> 0 if the include is allowed
  local a=$1 b=$2
  [ "$a" = "$b" ] && return 0
  if { [ "$a" = calib ] && [ "$b" = sim ]; } || { [ "$a" = sim ] && [ "$b" = calib ]; }; then return 1; fi
  [ "${rank[$b]}" -le "${rank[$a]}" ]
}

bad=0
check_file() { # file its-layer
  local f=$1 from=$2 n line inc to
  while IFS=: read -r n line; do
    inc=$(sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]+"([^"]+)".*/\1/' <<<"$line")
    case $inc in
      dcsim/*.h) to=$(header_layer "$(basename "$inc" .h)") ;;
      */internal.h) to=${inc%%/*} ;;
      *) continue ;;
    esac
    if [ -z "$to" ]; then
      echo "$f:$n: includes \"$inc\", which belongs to no layer (no src/*/$(basename "$inc" .h).c)"
      bad=1
    elif ! allowed "$from" "$to"; then
      echo "$f:$n: layer '$from' includes \"$inc\" of layer '$to' (util < input < model < calib|sim < sweep < output < cli)"
      bad=1
    fi
  done < <(grep -n -E '^[[:space:]]*#[[:space:]]*include[[:space:]]+"' "$f" || true)
}

for f in src/*/*.c src/*/*.h; do
  [ -e "$f" ] || continue
  d=${f#src/}; check_file "$f" "${d%%/*}"
done
for h in include/dcsim/*.h; do
  l=$(header_layer "$(basename "$h" .h)")
  if [ -z "$l" ]; then echo "$h:1: public header of no module (no src/*/$(basename "$h" .h).c)"; bad=1; continue; fi
  check_file "$h" "$l"
done
[ "$bad" = 0 ] && echo "layers: $(ls src/*/*.c | wc -l) sources and $(ls include/dcsim/*.h | wc -l) headers respect util < input < model < calib|sim < sweep < output < cli"
exit "$bad"
