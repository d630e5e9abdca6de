#!/usr/bin/env bash
# wfarchive.sh — tools/wfarchive.py on a synthetic archive: a held-out instance is never opened
# (it is not JSON, so reading it would fail), the split sends every fourth instance of a stratum
# (by the SHA-256 of its name) to the test share, shipped instances stay in the fit share, and
# --check accepts its own manifest. Skipped (77) without python3.
set -eu
command -v python3 >/dev/null || exit 77
tool=$PWD/tools/wfarchive.py
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
arc=$tmp/archive; mkdir -p "$arc/pegasus/demo"
inst() { # name makespan
  cat > "$arc/pegasus/demo/$1" <<JSON
{"name": "t", "schemaVersion": "1.5", "runtimeSystem": {"name": "Pegasus", "version": "4.9.3"},
 "workflow": {"specification": {"tasks": [{"id": "a", "name": "a", "parents": [], "children": []}],
  "files": []}, "execution": {"makespanInSeconds": $2, "tasks": [{"id": "a", "runtimeInSeconds": 1}],
  "machines": [{"nodeName": "m", "cpu": {"coreCount": 48}}]}}}
JSON
}
for i in 1 2 3 4 5 6 7 8; do inst "demo-chameleon-case$i-001.json" "$((100 + i))"; done
inst seismology-chameleon-100p-001.json 354 # shipped: always fit
echo 'not json: a held-out instance must never be read' > "$arc/pegasus/demo/1000genome-chameleon-8ch-250k-001.json"
python3 "$tool" "$arc" "$tmp/out" --manifest "$tmp/m.tsv" > "$tmp/log"
grep -q "9 instances (7 fit, 2 test)" "$tmp/log" || { cat "$tmp/log"; exit 1; }
if grep -q "^1000genome-chameleon-8ch-250k" "$tmp/m.tsv"; then echo "held-out listed"; exit 1; fi
grep -q "^seismology-chameleon-100p-001.json.*	fit$" "$tmp/m.tsv"
# the two test instances are positions 3 and 7 of the stratum ordered by the name's SHA-256
want=$(for i in 1 2 3 4 5 6 7 8; do n="demo-chameleon-case$i-001.json"
  echo "$(printf %s "$n" | sha256sum | cut -c1-64) $n"; done | sort | awk 'NR == 4 || NR == 8 { print $2 }')
got=$(awk -F'\t' '$13 == "test" { print $1 }' "$tmp/m.tsv" | sort)
[ "$(sort <<<"$want")" = "$got" ] || { echo "test share: want $want, got $got"; exit 1; }
[ -f "$tmp/out/test/pegasus/$(head -1 <<<"$got")" ]
python3 "$tool" "$arc" "$tmp/out2" --check "$tmp/m.tsv" > /dev/null
echo "wfarchive: held-out skipped unread, split and check as documented"
