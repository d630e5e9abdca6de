#!/usr/bin/env bash
# Regenerates the tables of doc/sweep.md that show dcsim's numbers (the page once said
# whole EPYC 7763 nodes take 4544 s and 6.63 MJ on ALARO while the binary gave about 1300 s and
# 1 MJ): each block between the markers <!-- gen-sweep-doc: NAME --> and <!-- end gen-sweep-doc -->
# is replaced by what dcsim prints now: catalogue, the CPU table (each time and energy with its
# band); walk-noprice and walk-answer, the new-user walk-through's unpriced sweep and ranked front.
# usage: tools/gen-sweep-doc.sh [BUILD_DIR] [--stdout]
#   BUILD_DIR  where dcsim was built (default build); --stdout prints the page instead of writing it
#   (ctest doc_sweep_current diffs that with doc/sweep.md). tools/gen-doc-images.sh runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build out=doc/sweep.md
for a in "$@"; do
  case $a in --stdout) out=/dev/stdout ;; *) build=$a ;; esac
done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cpus=xeon-e5-2697v3,xeon-gold-6148,xeon-platinum-8480+,epyc-7763,epyc-9654,nvidia-grace,fujitsu-a64fx
"$build"/dcsim sweep workflows/alaro.xml --cpu "$cpus" --gpu geforce-gtx970 --nodes 8 --cores 1,all \
  --quiet >"$tmp/text"
"$build"/dcsim sweep workflows/alaro.xml --cpu "$cpus" --gpu geforce-gtx970 --nodes 8 --cores 1,all \
  --quiet --format csv | grep -v '^#' >"$tmp/csv"
# one row per CPU: its 1-core point, then its whole-node point (the sweep's order: cpu, cores)
awk -F, -v text="$tmp/text" '
  # "2580000 [1200000, 6000000]" (J; the value with at least 3 significant digits, doc/cli.md
  # "Numbers") as "2.58 [1.2, 6]" (MJ): the value keeps its digits, trailing zeros included
  function sig(s,   t) { t = s; sub(/^[-0.]+/, "", t); if (t !~ /\./) sub(/0+$/, "", t); gsub(/\./, "", t); return length(t) }
  function mj(s,   a, d) { gsub(/[][,]/, " ", s); split(s, a, " "); d = sig(a[1]); if (d < 3) d = 3
    return sprintf("%#." d "g [%g, %g]", a[1] / 1e6, a[2] / 1e6, a[3] / 1e6) }
  BEGIN {
    # the banded values of each point as dcsim prints them: "2900 [2300, 3600]"
    while ((getline l < text) > 0) {
      if (l !~ /^ *[0-9]+  /) continue
      split(l, w, " "); i = w[1]; k = 0
      while (match(l, /[^ ]+ \[[^]]+\]/) && k < 2) { v[i, k++] = substr(l, RSTART, RLENGTH); l = substr(l, RSTART + RLENGTH) }
    }
  }
  NR == 1 { for (c = 1; c <= NF; c++) col[$c] = c; next }
  {
    i = $(col["index"]); cpu = $(col["cpu"])
    if ($(col["feasible"]) != 1) cell = "infeasible: no power model (neither a <power-model> nor an <energy> table)"
    else {
      if ($(col["energy_j"]) == "") cell = v[i, 0] " s, energy unknown (no power model)"
      else cell = v[i, 0] " s, " mj(v[i, 1]) " MJ"
      if ($(col["knee"]) == 1) cell = cell " (the knee)"
      else if ($(col["pareto"]) == 1) cell = cell " (front)"
    }
    if (!(cpu in first)) { first[cpu] = cell; order[++n] = cpu }
    else row[cpu] = $(col["cores"]) ", " cell
  }
  END {
    print "| CPU | 1 core/node: time, energy [band] | whole node: cores, time, energy [band] |"
    print "|---|---|---|"
    for (k = 1; k <= n; k++) print "| " order[k] " | " first[order[k]] " | " row[order[k]] " |"
  }' "$tmp/csv" >"$tmp/catalogue"
# the new-user walk-through: a node for the operational 60 h ALARO forecast within its
# 40-minute window, first without prices (what dcsim says), then priced (the buyer's quotes are
# placeholders), and the ranked front with its bands; the same sweep as tools/gen-doc-images.sh's
walk=(workflows/alaro-2.5km-60h.xml --cpu epyc-7763 --gpu a100-sxm4-80gb,h100-sxm5 --gpus 4,8
      --host-cpu epyc-7763,epyc-9654 --threading measured,ideal --nodes 32,128,512 --cores all
      --deadline-s 40m --objectives time,cost --quiet)
"$build"/dcsim sweep "${walk[@]}" >"$tmp/noprice" 2>&1 || true
{ echo '```'; grep -Ev '^ *[0-9]+  |^ point |^reproduce|^  sha256|^$' "$tmp/noprice"; echo '```'; } >"$tmp/walk-noprice"
"$build"/dcsim sweep "${walk[@]}" --price a100-sxm4-80gb=15000 --price h100-sxm5=30000 \
  --price epyc-9654=10000 --db "$tmp/alaro-60h.db" >/dev/null 2>&1
{ echo '```'; "$build"/dcsim pareto "$tmp/alaro-60h.db" --objectives time,cost |
  awk '/^reproduce/ { exit } { print }' | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'; echo '```'; } >"$tmp/walk-answer"
# each block between <!-- gen-sweep-doc: NAME --> and <!-- end gen-sweep-doc --> from $tmp/NAME
awk -v dir="$tmp" '
  /^<!-- gen-sweep-doc: [a-z-]+ -->$/ {
    print; f = dir "/" $3; while ((getline l < f) > 0) print l; close(f); skip = 1; next }
  /^<!-- end gen-sweep-doc -->$/ { skip = 0 }
  !skip' doc/sweep.md >"$tmp/page"
cat "$tmp/page" >"$out"
