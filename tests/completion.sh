#!/usr/bin/env bash
# completion.sh DCSIM — the bash completion script of `dcsim completion bash` completes commands,
# options, option values and data-file names as a shell would ask it to (doc/cli.md).
set -u
bin=$1
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
ln -s "$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")" "$dir/dcsim"
export PATH="$dir:$PATH"
unset DCSIM_DATA
source <(dcsim completion bash) || { echo "the script does not load"; exit 1; }
fails=0
# complete WORDS... -> the sorted candidates for the last word
complete_line() {
  COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
  _dcsim
  printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}
expect() { # expect "WANT" WORDS...
  local want=$1; shift
  [ -n "$want" ] || { echo "dcsim ${*:2}<TAB>: nothing expected (no such data file?)"; fails=$((fails + 1)); return; }
  local got; got=$(complete_line "$@")
  if [ "$got" != "$want" ]; then echo "dcsim ${*:2}<TAB>: got '$got', want '$want'"; fails=$((fails + 1)); fi
}
expect "sweep" dcsim swe
expect "merge model" dcsim m
expect "--platform --policy --power --power-off-after --price" dcsim run workflows/alaro.xml --p
expect "--d35 --db --deadline-s" dcsim sweep alaro.xml --d
expect "json" dcsim model --format js
expect "easy easy+energy easy+heft energy" dcsim run x.xml --policy e
# data-file names: what the data root holds (other branches add profiles)
names() { (cd "$1" && ls | sed -n "s/^\($2.*\)\.xml$/\1/p" | sort | tr '\n' ' ' | sed 's/ $//'); }
expect "$(names hw-profiles/cpu xeon-e5-2697)" dcsim model --cpu xeon-e5-2697
expect "$(names hw-profiles/gpu tesla-k | sed 's/^/xeon-gold-6148,/; s/ / xeon-gold-6148,/g')" dcsim sweep w.xml --gpu xeon-gold-6148,tesla-k
expect "$(names dwarfs sph)" dcsim roofline --dwarf sph
expect "cache-aware classic" dcsim roofline --kind ""
expect "import-kerncraft import-likwid" dcsim calibrate imp
expect "roofline" dcsim help roo
expect "bash" dcsim completion ""
expect "workflows/alaro.xml" dcsim run workflows/alaro.x
expect "nominal" dcsim model --freq nom
expect "sampling scaling" dcsim calibrate s
expect "workflows" dcsim calibrate cpu --template workf
expect "time,cost time,energy time,energy,cost" dcsim sweep workflows/alaro.xml --objectives time
# --case: the cases of the dwarf given earlier on the line, by name or path (`dcsim list DWARF`)
expect "200x200x80 20x20x80" dcsim model --dwarf acraneb2 --case 2
expect "10 100 20 200 300 5 50" dcsim model --dwarf transt-like --gpu a100-sxm4-80gb --case ""
expect "alaro alaro-operational" dcsim energy --cpu xeon-gold-6148 --dwarf=bifft --case al
expect "alaro alaro-operational" dcsim roofline --dwarf = dwarfs/bifft.xml --case al
expect "TCO639" dcsim model --dwarf "$PWD/dwarfs/spherical-harmonics.xml" --case TC
expect "order-24 order-26" dcsim roofline --cpu xeon-gold-6148 --dwarf fd-vti --case order-2
expect "200x200x80 20x20x80" dcsim model --dwarf = acraneb2 --case = 2 # --case=2, as bash splits it
expect "json" dcsim sweep w.xml --format = j
expect "10 100 20 200 300 5 50" dcsim model --dwarf=transt-like --case = # --case=<TAB>
# nothing without a --dwarf, for an unknown dwarf, or when --dwarf has no value yet
none() { # none WORDS...: no candidate (the expected list is empty)
  local got; got=$(complete_line "$@")
  if [ -n "$got" ]; then echo "dcsim ${*:2}<TAB>: got '$got', want nothing"; fails=$((fails + 1)); fi
}
none dcsim model --case ""
none dcsim model --dwarf nosuch --case ""
none dcsim model --dwarf --case ""
[ "$fails" = 0 ] && echo "completion: all cases pass"
exit "$fails"
