#!/usr/bin/env bash
# tests/realcode-data.sh — the recorded real-code measurements (calibration/realcode/<machine>/,
# tools/realcode/README.md) pass tools/realcode/check-data.sh, and the checker catches a planted
# fault of each kind: a changed header, a code given a parameter it does not use, a role that is
# neither fit nor test, a duplicated condition, a summary that is not its repeats' median, a lost
# repeat, a repeat whose per-iteration time is not its two runs' difference, a contended flag that
# contradicts the recorded other work, a machine record without its measured clock. Uses only the
# recorded files (never the drivers, never the network).
set -euo pipefail
check=$PWD/tools/realcode/check-data.sh
dirs=(calibration/realcode/*/)
[ -d "${dirs[0]}" ] || { echo "FAIL: no calibration/realcode/<machine>/ folder"; exit 1; }
"$check" "${dirs[@]}" || { echo "FAIL: the recorded real-code data do not pass the checker"; exit 1; }
src=${dirs[0]%/}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
plant() { # description, expected message, then a command run inside the copy
  local what="$1" expect="$2"; shift 2
  rm -rf "$tmp/d"; cp -r "$src" "$tmp/d"
  (cd "$tmp/d" && eval "$@")
  if out=$("$check" "$tmp/d" 2>&1); then echo "FAIL: planted $what was not caught"; exit 1; fi
  grep -qF "$expect" <<<"$out" || { echo "FAIL: unexpected report for $what:"; echo "$out"; exit 1; }
  echo "caught $what: $(grep -F "$expect" <<<"$out" | head -n1)"
}
plant "header" "the header is not the agreed one" "sed -i '1s/cpu_s_min/cpu_min_s/' measurements.csv"
plant "a parameter its code does not use" "does not use " \
  "awk -F, -v OFS=, 'NR == 2 && \$1 != \"cloudsc\" {\$10 = 4096} NR == 2 && \$1 == \"cloudsc\" {\$3 = 159} 1' measurements.csv > m && mv m measurements.csv"
plant "a role" "role is fit or test" \
  "awk -F, -v OFS=, 'NR == 2 {\$22 = \"train\"} 1' measurements.csv > m && mv m measurements.csv"
plant "a duplicated condition" "the same condition as line 2" "sed -n 2p measurements.csv >> measurements.csv"
plant "a median" "is not the median of the repeats" \
  "awk -F, -v OFS=, 'NR == 2 {\$16 = \$16 * 1.13} 1' measurements.csv > m && mv m measurements.csv"
plant "a lost repeat" "holds 2" "sed -i 2d raw/runs.csv"
plant "a per-iteration time" "cpu_s is not (cpu_hi_s - cpu_lo_s)" \
  "awk -F, -v OFS=, 'NR == 2 {\$18 = \$18 + 0.731} 1' raw/runs.csv > m && mv m raw/runs.csv"
plant "a contended flag" "contended must be 1 exactly when" \
  "awk -F, -v OFS=, 'NR == 2 {\$20 = 1 - \$20} 1' measurements.csv > m && mv m measurements.csv"
plant "a machine without its clock" "no value for clock_ghz_measured" \
  "sed -i 's/^clock_ghz_measured,[^,]*,/clock_ghz_measured,,/' machine.csv"
echo "ok: ${#dirs[@]} machine folder(s) checked, 9 planted faults caught"
