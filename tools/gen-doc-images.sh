#!/usr/bin/env bash
# Draws every picture of doc/img with the commands the documentation shows (doc/sweep.md,
# README.md), so the images are made by dcsim, never by hand, and (writing to doc/img) rewrites
# doc/sweep.md's tables of dcsim's numbers by tools/gen-sweep-doc.sh. Needs gnuplot
# (tools/setup.sh).
# usage: tools/gen-doc-images.sh [BUILD_DIR] [OUT_DIR]   (defaults: build, doc/img)
# ctest doc_images runs it into a temporary directory and checks that every picture is drawn, is a
# PNG, and is one of doc/img (and that doc/img holds no picture the script does not draw).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build} out=${2:-doc/img}
dcsim() { "$build/dcsim" "$@"; }
mkdir -p "$out"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
alaro_space=(--cpu xeon-e5-2697v3,xeon-gold-6148 --gpu geforce-gtx970,tesla-k20m,tesla-m2070q
             --nodes 1,2,4,8,16 --freq nominal)
# D3.5 Figure 30: the ALARO workflow on two CPUs and three GPUs
dcsim sweep workflows/alaro.xml "${alaro_space[@]}" --quiet --plot "$out/pareto-alaro.png" \
  --title "ALARO, 100 steps: BiFFT on 1-16 CPU nodes + ACRANEB2 on one GPU (D3.5 Figure 30)" >/dev/null
# the README's headline picture must draw every point's band (issue 37): the same chart as SVG,
# whose text says so in its key, else the script (and ctest doc_images) fails
dcsim sweep workflows/alaro.xml "${alaro_space[@]}" --quiet --plot "$tmp/headline.svg" >/dev/null
grep -q 'uncertainty band' "$tmp/headline.svg" ||
  { echo "gen-doc-images: the headline Pareto picture draws no uncertainty bands" >&2; exit 1; }
# D3.5 Figure 28: BiFFT over nodes x cores
dcsim sweep workflows/bifft.xml --nodes 1,2,4,8 --cores 1,2,4 --quiet --plot "$out/pareto-bifft.png" \
  --heatmap "$out/heatmap-bifft.png" --title "BiFFT 200x180, 525 fields: nodes x cores (D3.5 Figure 28)" >/dev/null
# the ALARO space over nodes x cores as heat maps (one panel per CPU + GPU), from its database
dcsim sweep workflows/alaro.xml --cpu xeon-e5-2697v3,xeon-gold-6148 --gpu geforce-gtx970,tesla-k20m \
  --nodes 1,2,4,8,16 --cores 1-14 --freq nominal --quiet --db "$tmp/alaro.db" >/dev/null
dcsim heatmap "$tmp/alaro.db" --out "$out/heatmap-alaro.png" \
  --title "ALARO: energy-to-solution over nodes x cores per node (default power model)"
# the cost axis (issue 26): BiFFT on EPYC 7763 nodes, time against cost (its list price, EIA's kWh)
dcsim sweep workflows/bifft.xml --cpu epyc-7763 --nodes 1,2,4,8,16 --cores 8,16,32,64,128 \
  --objectives time,cost --quiet --plot "$out/pareto-cost-bifft.png" \
  --title "BiFFT 200x180 on EPYC 7763 nodes: time vs cost (list price amortised over 5 years + energy)" >/dev/null
# rooflines (D3.5 Figures 17, 24, 21 and 4)
dcsim roofline --cpu xeon-gold-6148 --dwarf spherical-harmonics --case TCO639 --out "$out/roofline-skylake-sh.png"
dcsim roofline --cpu xeon-e5-2697v3 --dwarf bifft --case 200x180_525 --out "$out/roofline-haswell-bifft.png"
dcsim roofline --cpu xeon-e5-2697v3 --dwarf bifft --case 200x180_525 --kind classic \
  --out "$out/roofline-classic-haswell-bifft.png"
dcsim roofline --gpu geforce-gtx970 --dwarf acraneb2 --case 200x200x80 --out "$out/roofline-gtx970-acraneb2.png"
# a run: tasks per node, and the power stacked by node group; a day of the centre's workload
dcsim run workflows/alaro.xml --gantt "$out/gantt-alaro.png" --power "$out/power-alaro.png" >/dev/null
dcsim run workflows/datacentre-day.xml --policy easy --power-off-after 600 \
  --power "$out/power-datacentre-day.png" >/dev/null
# the tables of doc/sweep.md with dcsim's numbers (issue 37), when the pictures go to doc/img
if [ "$out" = doc/img ]; then bash tools/gen-sweep-doc.sh "$build"; fi
