#!/usr/bin/env bash
# picture-data.sh BUILD_DIR — the pictures `dcsim heatmap` and `dcsim pareto` draw
# with --gpus, --host-cpu, --threading and --facet are looked at, not only found: each is drawn as
# SVG and its text (panel titles, keys, the value written in every heat-map cell, the point count of
# a Pareto title) is compared with the points of the sweep's own CSV that the filter or facet
# chooses: the right points, the right filter, keys naming the full hardware. Skipped (77) without
# gnuplot. Run from the source root.
set -u
bin=$1/dcsim
command -v gnuplot >/dev/null || [ -x /usr/bin/gnuplot ] || { echo "no gnuplot: skipped"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# every <text> of an SVG, one a line, blank ones left out
svg_text() { grep -o '<text>[^<]*' "$1" | sed 's/^<text>//' | grep -v '^ *$'; }
# the sweep: GPU count x host CPU x threading variant x nodes x cores, as CSV and in a database
"$bin" sweep workflows/alaro-operational.xml --cpu epyc-7763 --gpu geforce-gtx970 --gpus 4,8 \
  --host-cpu epyc-7763,xeon-gold-6148 --threading measured,ideal --nodes 8,16,32 --cores 1,4,16 \
  --quiet --db "$tmp/s.db" --format csv | grep -v '^#' >"$tmp/s.csv" || { echo "sweep failed"; exit 1; }
# expected: the points (cols: hw name, time_s) that an awk condition on the CSV's columns keeps
pick() {
  awk -F, -v cond="$1" '
    NR == 1 { for (c = 1; c <= NF; c++) col[$c] = c; next }
    { gsub(/"[^"]*"/, "q") # a quoted field (the cost note) holds commas: one column
      g = $(col["gpus"]); h = $(col["host_cpu"]); t = $(col["threading"])
      if (cond == "gpus8" && g != 8) next
      if (cond == "gold" && h != "xeon-gold-6148") next
      if (cond == "epyc" && h != "epyc-7763") next
      if (cond == "ideal" && t != "ideal") next
      if (cond == "gpus4gold" && (g != 4 || h != "xeon-gold-6148")) next
      hw = $(col["cpu"]) " + " $(col["gpu"]) " x" g " on " h
      print hw "\t" $(col["freq"]) "\t" t "\t" $(col["time_s"]) "\t" $(col["feasible"]) }' "$tmp/s.csv"
}
# a heat map's panel titles and cell values, against the chosen points (time in the picture's unit)
check_heat() { # NAME SVG CONDITION
  local scale
  svg_text "$2" >"$tmp/text"
  case $(grep -o 'time \[[a-z]*\]' "$tmp/text" | head -1) in
    'time [s]') scale=1 ;; 'time [h]') scale=3600 ;; 'time [d]') scale=86400 ;;
    *) fail "$1: no time colour label"; return ;;
  esac
  pick "$3" | awk -F'\t' '{ print $1 " @ " $2 " GHz" ($3 == "ideal" ? ", ideal threads" : "") }' |
    sort -u >"$tmp/want-panels"
  # a panel title: "HW @ FREQ", or (a long one) "HW" and "FREQ" on two lines
  awk '/^epyc-7763 \+ / { if ($0 ~ / @ /) print; else { h = $0; getline; print h " @ " $0 } }' \
    "$tmp/text" | sort -u >"$tmp/got-panels"
  diff -u "$tmp/want-panels" "$tmp/got-panels" >/dev/null || { fail "$1: panel titles differ"; diff -u "$tmp/want-panels" "$tmp/got-panels"; }
  pick "$3" | awk -F'\t' -v s="$scale" '$5 == 1 { printf "%.4g\n", $4 / s }' | sort >"$tmp/want-cells"
  # the cell labels: the numbers of the text that are neither tics nor the colour scale's
  grep -E '^[0-9.]+(e[+-]?[0-9]+)?$' "$tmp/text" | sort >"$tmp/all-numbers"
  comm -23 "$tmp/want-cells" "$tmp/all-numbers" >"$tmp/missing"
  [ -s "$tmp/missing" ] && fail "$1: cells missing: $(tr '\n' ' ' <"$tmp/missing")"
  local n_want n_panels
  n_want=$(wc -l <"$tmp/want-cells"); n_panels=$(wc -l <"$tmp/want-panels")
  [ "$n_want" -gt 0 ] && [ "$n_panels" -gt 0 ] || fail "$1: the filter chose no point"
  echo "$1: $n_panels panels, $n_want cells, as the CSV's points"
}
"$bin" heatmap "$tmp/s.db" --gpus 8 --color time --out "$tmp/h8.svg" || fail "heatmap --gpus 8 failed"
check_heat "heatmap --gpus 8" "$tmp/h8.svg" gpus8
grep -q ' x4 on ' "$tmp/h8.svg" && fail "heatmap --gpus 8 draws a 4-GPU panel"
"$bin" heatmap "$tmp/s.db" --facet host-cpu --color time --out "$tmp/h.svg" >"$tmp/facets" ||
  fail "heatmap --facet host-cpu failed"
[ "$(cat "$tmp/facets")" = "$tmp/h-host-cpu-epyc-7763.svg: host-cpu epyc-7763, 36 points
$tmp/h-host-cpu-xeon-gold-6148.svg: host-cpu xeon-gold-6148, 36 points" ] || fail "heatmap --facet host-cpu: $(cat "$tmp/facets")"
check_heat "heatmap --facet host-cpu (epyc-7763)" "$tmp/h-host-cpu-epyc-7763.svg" epyc
check_heat "heatmap --facet host-cpu (xeon-gold-6148)" "$tmp/h-host-cpu-xeon-gold-6148.svg" gold
# a Pareto picture: one key per hardware chosen, its full name; the title counts the chosen points
check_pareto() { # NAME SVG CONDITION
  svg_text "$2" >"$tmp/text"
  pick "$3" | awk -F'\t' '{ print $1 ($3 == "ideal" ? ", ideal threads" : "") }' | sort -u >"$tmp/want-keys"
  grep -E '^epyc-7763 \+ ' "$tmp/text" | sort -u >"$tmp/got-keys"
  diff -u "$tmp/want-keys" "$tmp/got-keys" >/dev/null || { fail "$1: keys differ"; diff -u "$tmp/want-keys" "$tmp/got-keys"; }
  local n
  n=$(pick "$3" | awk -F'\t' '$5 == 1' | wc -l)
  grep -q "^$n feasible points of $n;" "$tmp/text" || fail "$1: the title does not count $n points"
  echo "$1: $(wc -l <"$tmp/want-keys") keys, $n points, as the CSV's points"
}
"$bin" pareto "$tmp/s.db" --threading ideal --out "$tmp/pi.svg" || fail "pareto --threading ideal failed"
check_pareto "pareto --threading ideal" "$tmp/pi.svg" ideal
"$bin" pareto "$tmp/s.csv" --gpus 4 --host-cpu xeon-gold-6148 --out "$tmp/p4.svg" ||
  fail "pareto --gpus 4 --host-cpu xeon-gold-6148 failed"
check_pareto "pareto --gpus 4 --host-cpu xeon-gold-6148" "$tmp/p4.svg" gpus4gold
[ "$fails" = 0 ] && echo "picture data: every picture shows the points its filter chose"
exit "$fails"
