#!/usr/bin/env bash
# escape-payload.sh DCSIM — no text from an input or an option reaches a shell. Every
# channel through which text reaches a chart (the SWF "; Computer:" header, the input file name,
# the cpu/gpu names of a sweep CSV and database given to pareto and heatmap, the host CPU name of
# a sweep CSV (heat-map panels, Pareto keys, and the file names of --facet host-cpu), sweep/pareto/heatmap
# --title, the picture's path, workflow, task, platform, group, profile and dwarf names) is fed
# the payload below, for PNG and SVG; the test fails when a command of it ran (the files P or Q
# appear in the working directory, which is gnuplot's), when a picture that should be drawn is
# not, or when an SVG does not parse. Names that the input schemas restrict (workflow, task,
# platform, group, profile, dwarf and loop names: letters, digits and _ . : > + -) must be refused
# with exit 1 instead.
set -u
# without gnuplot no chart is drawn: skipped (ctest SKIP_RETURN_CODE 77), as test_plot is
if [ -z "${DCSIM_GNUPLOT:-}" ] && [ ! -x /usr/bin/gnuplot ] && ! command -v gnuplot >/dev/null; then
  echo "escape-payload: gnuplot not installed: skipped" >&2
  exit 77
fi
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 1
PAY='x`touch P`"'"'"'$(touch Q)\'
fail=0
ran() { # ran WHAT: a command of the payload ran
  if [ -e P ] || [ -e Q ]; then
    echo "FAIL: $1: the payload ran a command" >&2
    fail=1
    rm -f P Q
  fi
}
# drawn WHAT RC FILE: exit 0 and the picture there (an SVG parses)
drawn() {
  ran "$1"
  if [ "$2" != 0 ] || [ ! -s "$3" ]; then
    echo "FAIL: $1: exit $2, picture ${3} not drawn" >&2
    fail=1
  elif [ "${3##*.}" = svg ] && ! xmllint --noout "$3"; then
    echo "FAIL: $1: $3 does not parse" >&2
    fail=1
  fi
  rm -f "$3"
}
# refused WHAT RC: exit 1 (bad input), nothing ran
refused() {
  ran "$1"
  if [ "$2" != 1 ]; then
    echo "FAIL: $1: exit $2, expected the input refused (1)" >&2
    fail=1
  fi
}
export DCSIM_DATA=$src
xml_pay=$(printf '%s' "$PAY" | sed 's/&/\&amp;/g; s/</\&lt;/g; s/"/\&quot;/g')
sed_pay=${xml_pay//\\/\\\\} # a sed replacement: \ and & escaped
sed_pay=${sed_pay//&/\\&}
csv_pay=\"${PAY//\"/\"\"}\"
sql_pay=${PAY//\'/\'\'}

for ext in png svg; do
  # the SWF header and the input file name (the trace is named by the payload)
  printf '; Computer: %s\n; MaxNodes: 4\n1 0 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n' \
    "$PAY" >"$PAY.swf"
  "$bin" run "$PAY.swf" --power "p.$ext" >/dev/null 2>&1
  drawn "swf header, file name: run --power" $? "p.$ext"
  "$bin" run "$PAY.swf" --gantt "g.$ext" >/dev/null 2>&1
  drawn "swf header, file name: run --gantt" $? "g.$ext"
  # the picture's path
  "$bin" run "$PAY.swf" --gantt "$PAY.$ext" >/dev/null 2>&1
  drawn "picture path: run --gantt" $? "$PAY.$ext"

  # a sweep's points as CSV and in a database, their cpu and gpu names the payload
  "$bin" sweep "$src/workflows/alaro.xml" --cpu xeon-e5-2697v3,xeon-gold-6148 --nodes 1,2 \
    --quiet --format csv >s.csv 2>/dev/null
  awk -F, -v OFS=, -v p="$csv_pay" '/^#/ || /^index,/ { print; next } { $2 = p; $3 = p; print }' \
    s.csv >pay.csv
  "$bin" pareto pay.csv --out "pa.$ext" >/dev/null 2>&1
  drawn "sweep CSV cpu/gpu names: pareto" $? "pa.$ext"
  "$bin" heatmap pay.csv --out "h.$ext" >/dev/null 2>&1
  drawn "sweep CSV cpu/gpu names: heatmap" $? "h.$ext"
  rm -f s.db
  "$bin" sweep "$src/workflows/alaro.xml" --cpu xeon-e5-2697v3,xeon-gold-6148 --nodes 1,2 \
    --quiet --db s.db >/dev/null 2>&1
  sqlite3 s.db "UPDATE sweep_points SET cpu = '$sql_pay', gpu = '$sql_pay'"
  "$bin" pareto s.db --out "pa.$ext" >/dev/null 2>&1
  drawn "sweep database cpu/gpu names: pareto" $? "pa.$ext"
  "$bin" heatmap s.db --out "h.$ext" >/dev/null 2>&1
  drawn "sweep database cpu/gpu names: heatmap" $? "h.$ext"

  # the GPU nodes' host CPU of a sweep CSV: panel titles and keys, filtered by
  # it, and --facet host-cpu, whose file names take the value with its odd characters as _
  "$bin" sweep "$src/workflows/alaro-operational.xml" --cpu epyc-7763 --gpu geforce-gtx970 \
    --gpus 4,8 --host-cpu epyc-7763 --nodes 8,16 --quiet --format csv >g.csv 2>/dev/null
  CSV_PAY=$csv_pay awk -F, -v OFS=, 'BEGIN { p = ENVIRON["CSV_PAY"] } /^#/ { print; next }
    /^index,/ { for (c = 1; c <= NF; c++) if ($c == "host_cpu") h = c; print; next }
    { $h = p; print }' g.csv >gpay.csv
  "$bin" pareto gpay.csv --out "pa.$ext" >/dev/null 2>&1
  drawn "sweep CSV host CPU name: pareto" $? "pa.$ext"
  "$bin" heatmap gpay.csv --out "h.$ext" >/dev/null 2>&1
  drawn "sweep CSV host CPU name: heatmap" $? "h.$ext"
  "$bin" heatmap gpay.csv --host-cpu "$PAY" --out "h.$ext" >/dev/null 2>&1
  drawn "sweep CSV host CPU name: heatmap --host-cpu" $? "h.$ext"
  "$bin" pareto gpay.csv --facet host-cpu --out "pa.$ext" >/dev/null 2>&1
  drawn "sweep CSV host CPU name: pareto --facet host-cpu" $? "pa-host-cpu-x_touch_P_____touch_Q__.$ext"

  # titles
  "$bin" sweep "$src/workflows/alaro.xml" --nodes 1,2 --quiet --title "$PAY" --plot "pl.$ext" \
    --heatmap "h.$ext" >/dev/null 2>&1
  rc=$?
  drawn "sweep --title: --plot" $rc "pl.$ext"
  drawn "sweep --title: --heatmap" $rc "h.$ext"
  "$bin" pareto pay.csv --title "$PAY" --out "pa.$ext" >/dev/null 2>&1
  drawn "pareto --title" $? "pa.$ext"
  "$bin" heatmap pay.csv --title "$PAY" --out "h.$ext" >/dev/null 2>&1
  drawn "heatmap --title" $? "h.$ext"

  # names an input schema restricts: refused before anything is drawn
  sed "s|name=\"alaro\" platform=\"platforms/alaro-hsw-gtx970.xml\"|name=\"$sed_pay\" platform=\"$src/workflows/platforms/alaro-hsw-gtx970.xml\"|" \
    "$src/workflows/alaro.xml" >wf.xml
  "$bin" run wf.xml --gantt "g.$ext" >/dev/null 2>&1
  refused "workflow name" $?
  sed "s|platform=\"platforms/alaro-hsw-gtx970.xml\"|platform=\"$src/workflows/platforms/alaro-hsw-gtx970.xml\"|; s|task name=\"bifft\"|task name=\"$sed_pay\"|" \
    "$src/workflows/alaro.xml" >wf.xml
  "$bin" run wf.xml --gantt "g.$ext" >/dev/null 2>&1
  refused "task name" $?
  sed "s|name=\"alaro-hsw-gtx970\"|name=\"$sed_pay\"|" \
    "$src/workflows/platforms/alaro-hsw-gtx970.xml" >plat.xml
  sed "s|platform=\"platforms/alaro-hsw-gtx970.xml\"|platform=\"$dir/plat.xml\"|" \
    "$src/workflows/alaro.xml" >wf.xml
  "$bin" run wf.xml --power "p.$ext" >/dev/null 2>&1
  refused "platform name" $?
  sed "s|name=\"hsw\"|name=\"$sed_pay\"|" "$src/workflows/platforms/alaro-hsw-gtx970.xml" >plat.xml
  sed "s|group=\"hsw\"|group=\"$sed_pay\"|" wf.xml >wf2.xml
  "$bin" run wf2.xml --power "p.$ext" >/dev/null 2>&1
  refused "group name" $?
  sed "s|<cpu-profile name=\"xeon-e5-2697v3\"|<cpu-profile name=\"$sed_pay\"|" \
    "$src/hw-profiles/cpu/xeon-e5-2697v3.xml" >cpu.xml
  "$bin" roofline --cpu cpu.xml --out "r.$ext" >/dev/null 2>&1
  refused "profile name: roofline" $?
  sed "s|<dwarf name=\"bifft\"|<dwarf name=\"$sed_pay\"|" "$src/dwarfs/bifft.xml" >dw.xml
  "$bin" roofline --cpu xeon-e5-2697v3 --dwarf dw.xml --case 200x180_20 --out "r.$ext" \
    >/dev/null 2>&1
  refused "dwarf name: roofline" $?
  sed "s|<loop name=\"easre1b_mod.F90:72\"|<loop name=\"$sed_pay\"|" "$src/dwarfs/bifft.xml" >dw.xml
  "$bin" roofline --cpu xeon-e5-2697v3 --dwarf dw.xml --case 200x180_20 --out "r.$ext" \
    >/dev/null 2>&1
  refused "loop name: roofline" $?
done
# the writers of a run's results, fed a trace whose file name holds the payload and a line break:
# the database binds it (read back exactly), the JSON parses and holds it, every CSV row has the
# header's number of cells (the path's line break is a '?' in the "# input" comment)
name="$PAY"$'\n'"line.swf"
printf '; Computer: %s\n; MaxNodes: 4\n1 0 0 100 4 -1 -1 4 200 -1 1 1 1 1 1 -1 -1 -1\n' "$PAY" >"$name"
"$bin" run "$name" --db r.db --format json --tasks-csv t.csv >r.json 2>/dev/null
rc=$?
ran "writers: run --db --format json --tasks-csv"
[ "$rc" = 0 ] || { echo "FAIL: writers: exit $rc" >&2; fail=1; }
[ "$(sqlite3 r.db "SELECT input = '${name//\'/\'\'}' FROM runs")" = 1 ] ||
  { echo "FAIL: sqlite: the input path does not read back" >&2; fail=1; }
python3 - "$name" r.json <<'PY' || { echo "FAIL: json: does not parse or lost the path" >&2; fail=1; }
import json, sys
d = json.load(open(sys.argv[2], encoding="utf-8"))
sys.exit(0 if d["input"] == sys.argv[1] else 1)
PY
"$bin" run "$name" --format csv >r.csv 2>/dev/null
for c in r.csv t.csv; do
  python3 - "$c" <<'PY' || { echo "FAIL: csv: $c: rows of unequal width" >&2; fail=1; }
import csv, sys
rows = [r for r in csv.reader(l for l in open(sys.argv[1], encoding="utf-8", newline="") if not l.startswith("#"))]
sys.exit(0 if rows and all(len(r) == len(rows[0]) for r in rows) else 1)
PY
done
ran "the end"
[ "$fail" = 0 ] && echo "escape-payload: no command ran through any channel (png and svg)"
exit "$fail"
