#!/usr/bin/env bash
# Draws every picture of doc/img with the commands the documentation shows (doc/sweep.md,
# README.md), so the images are made by dcsim, never by hand, and (writing to doc/img) rewrites
# doc/sweep.md's tables of dcsim's numbers by tools/gen-sweep-doc.sh. Needs gnuplot
# (tools/setup.sh).
# usage: tools/gen-doc-images.sh [BUILD_DIR] [OUT_DIR]   (defaults: build, doc/img)
# Beside each picture NAME.png it writes NAME.png.json, its provenance: the dcsim
# that drew it (version and commit), the command, and every input file with its SHA-256 (from the
# "reproduce" lines dcsim prints, or the profile and dwarf files a roofline reads); the picture
# itself carries the same in its PNG text chunks.
# ctest doc_images runs it into a temporary directory and checks that every picture is drawn, is a
# PNG, and is one of doc/img (and that doc/img holds no picture the script does not draw), and that
# the provenance of each picture in doc/img names inputs whose SHA-256 are those of the files now.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} out=${2:-doc/img}
dcsim() { "$build/dcsim" "$@"; }
mkdir -p "$out"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
identity=$(dcsim version)
# a JSON string of $1
json_str() { local s=${1//\\/\\\\}; s=${s//\"/\\\"}; printf '"%s"' "$s"; }
# provenance INPUTS COMMAND PICTURE...: NAME.json beside each picture; INPUTS is a file of dcsim's
# "sha256 HASH PATH" lines (its reproduce footer) or of paths, one a line, hashed here
provenance() {
  local inputs=$1 cmd=$2 p path hash first
  shift 2
  for p in "$@"; do
    {
      printf '{\n  "picture": %s,\n  "dcsim": %s,\n  "command": %s,\n  "inputs": [' \
        "$(json_str "$(basename "$p")")" "$(json_str "$identity")" "$(json_str "$cmd")"
      first=1
      while read -r path hash; do
        [ "$first" = 1 ] || printf ','
        printf '\n    {"path": %s, "sha256": %s}' "$(json_str "$path")" "$(json_str "$hash")"
        first=0
      done < <(if grep -q '^ *sha256 ' "$inputs"; then awk '$1 == "sha256" { print $3, $2 }' "$inputs"
               else while read -r f; do echo "$f $(sha256sum "$f" | cut -d' ' -f1)"; done <"$inputs"; fi)
      printf '\n  ]\n}\n'
    } >"$p.json"
  done
}
# draw COMMAND...: runs `dcsim COMMAND...`, its stdout kept in $tmp/stdout (the inputs)
draw() { dcsim "$@" >"$tmp/stdout"; }
# the command as the documentation shows it: dcsim, then its arguments ($out as doc/img)
shown() { local a s="dcsim"; for a in "$@"; do a=${a//$out\//doc/img/}; case $a in *[\ \"\']*) s+=" '$a'" ;; *) s+=" $a" ;; esac; done; printf '%s' "$s"; }
alaro_space=(--cpu xeon-e5-2697v3,xeon-gold-6148 --gpu geforce-gtx970,tesla-k20m,tesla-m2070q
             --nodes 1,2,4,8,16 --freq nominal)
# D3.5 Figure 30: the ALARO workflow on two CPUs and three GPUs
c=(sweep workflows/alaro.xml "${alaro_space[@]}" --quiet --plot "$out/pareto-alaro.png"
   --title "ALARO, 100 steps: BiFFT on 1-16 CPU nodes + ACRANEB2 on one GPU (D3.5 Figure 30)")
draw "${c[@]}"; provenance "$tmp/stdout" "$(shown "${c[@]}")" "$out/pareto-alaro.png"
# the README's headline picture must draw every point's band: the same chart as SVG,
# whose text says so in its key, else the script (and ctest doc_images) fails
dcsim sweep workflows/alaro.xml "${alaro_space[@]}" --quiet --plot "$tmp/headline.svg" >/dev/null
grep -q 'uncertainty band' "$tmp/headline.svg" ||
  { echo "gen-doc-images: the headline Pareto picture draws no uncertainty bands" >&2; exit 1; }
# D3.5 Figure 28: BiFFT over nodes x cores
c=(sweep workflows/bifft.xml --nodes 1,2,4,8 --cores 1,2,4 --quiet --plot "$out/pareto-bifft.png"
   --heatmap "$out/heatmap-bifft.png" --title "BiFFT 200x180, 525 fields: nodes x cores (D3.5 Figure 28)")
draw "${c[@]}"; provenance "$tmp/stdout" "$(shown "${c[@]}")" "$out/pareto-bifft.png" "$out/heatmap-bifft.png"
# the ALARO space over nodes x cores as heat maps (one panel per CPU + GPU), from its database
s=(sweep workflows/alaro.xml --cpu xeon-e5-2697v3,xeon-gold-6148 --gpu geforce-gtx970,tesla-k20m
   --nodes 1,2,4,8,16 --cores 1-14 --freq nominal --quiet --db "$tmp/alaro.db")
dcsim "${s[@]}" >"$tmp/alaro-sweep"
c=(heatmap "$tmp/alaro.db" --out "$out/heatmap-alaro.png"
   --title "ALARO: energy-to-solution over nodes x cores per node (default power model)")
draw "${c[@]}"
provenance "$tmp/alaro-sweep" "$(shown "${s[@]}" | sed "s#$tmp/##") && $(shown "${c[@]}" | sed "s#$tmp/##")" \
  "$out/heatmap-alaro.png"
# the cost axis: BiFFT on EPYC 7763 nodes, time against cost (its list price, EIA's kWh)
c=(sweep workflows/bifft.xml --cpu epyc-7763 --nodes 1,2,4,8,16 --cores 8,16,32,64,128
   --objectives time,cost --quiet --plot "$out/pareto-cost-bifft.png"
   --title "BiFFT 200x180 on EPYC 7763 nodes: time vs cost (list price amortised over 5 years + energy)")
draw "${c[@]}"; provenance "$tmp/stdout" "$(shown "${c[@]}")" "$out/pareto-cost-bifft.png"
# rooflines (D3.5 Figures 17, 24, 21 and 4): their inputs are the profile and the dwarf
roofline() { # roofline PICTURE PROFILE DWARF ARGS...
  local pic=$1 prof=$2 dw=$3
  shift 3
  dcsim roofline "$@" --out "$out/$pic"
  printf '%s\n' "$prof" "$dw" >"$tmp/inputs"
  provenance "$tmp/inputs" "$(shown roofline "$@" --out "$out/$pic")" "$out/$pic"
}
roofline roofline-skylake-sh.png hw-profiles/cpu/xeon-gold-6148.xml dwarfs/spherical-harmonics.xml \
  --cpu xeon-gold-6148 --dwarf spherical-harmonics --case TCO639
roofline roofline-haswell-bifft.png hw-profiles/cpu/xeon-e5-2697v3.xml dwarfs/bifft.xml \
  --cpu xeon-e5-2697v3 --dwarf bifft --case 200x180_525
roofline roofline-classic-haswell-bifft.png hw-profiles/cpu/xeon-e5-2697v3.xml dwarfs/bifft.xml \
  --cpu xeon-e5-2697v3 --dwarf bifft --case 200x180_525 --kind classic
roofline roofline-gtx970-acraneb2.png hw-profiles/gpu/geforce-gtx970.xml dwarfs/acraneb2.xml \
  --gpu geforce-gtx970 --dwarf acraneb2 --case 200x200x80
# a run: tasks per node, and the power stacked by node group; a day of the centre's workload
c=(run workflows/alaro.xml --gantt "$out/gantt-alaro.png" --power "$out/power-alaro.png")
draw "${c[@]}"; provenance "$tmp/stdout" "$(shown "${c[@]}")" "$out/gantt-alaro.png" "$out/power-alaro.png"
c=(run workflows/datacentre-day.xml --policy easy --power-off-after 600 --power "$out/power-datacentre-day.png")
draw "${c[@]}"; provenance "$tmp/stdout" "$(shown "${c[@]}")" "$out/power-datacentre-day.png"
# the new-user walk-through of doc/sweep.md: a node for the operational 60 h ALARO
# forecast within its 40-minute window, priced (the buyer's quotes are placeholders), one picture
# per axis: GPU count, host CPU, threading variant
s=(sweep workflows/alaro-2.5km-60h.xml --cpu epyc-7763 --gpu a100-sxm4-80gb,h100-sxm5 --gpus 4,8
   --host-cpu epyc-7763,epyc-9654 --threading measured,ideal --nodes 32,128,512 --cores all
   --deadline-s 40m --objectives time,cost --price a100-sxm4-80gb=15000 --price h100-sxm5=30000
   --price epyc-9654=10000 --quiet --db "$tmp/alaro-60h.db")
dcsim "${s[@]}" >"$tmp/alaro-60h-sweep" 2>/dev/null
made=$(shown "${s[@]}" | sed "s#$tmp/##")
walk=(pareto "$tmp/alaro-60h.db" --objectives time,cost --threading ideal --facet gpus
      --out "$out/alaro-60h-pareto.png")
draw "${walk[@]}"
provenance "$tmp/alaro-60h-sweep" "$made && $(shown "${walk[@]}" | sed "s#$tmp/##")" \
  "$out/alaro-60h-pareto-gpus-4.png" "$out/alaro-60h-pareto-gpus-8.png"
walk=(heatmap "$tmp/alaro-60h.db" --threading ideal --gpus 8 --color time --facet host-cpu
      --out "$out/alaro-60h-heat.png")
draw "${walk[@]}"
provenance "$tmp/alaro-60h-sweep" "$made && $(shown "${walk[@]}" | sed "s#$tmp/##")" \
  "$out/alaro-60h-heat-host-cpu-epyc-7763.png" "$out/alaro-60h-heat-host-cpu-epyc-9654.png"
walk=(heatmap "$tmp/alaro-60h.db" --host-cpu epyc-9654 --gpus 8 --color time
      --out "$out/alaro-60h-threading.png")
draw "${walk[@]}"
provenance "$tmp/alaro-60h-sweep" "$made && $(shown "${walk[@]}" | sed "s#$tmp/##")" "$out/alaro-60h-threading.png"
# the tables of doc/sweep.md with dcsim's numbers, when the pictures go to doc/img
if [ "$out" = doc/img ]; then bash tools/gen-sweep-doc.sh "$build"; fi
