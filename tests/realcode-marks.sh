#!/usr/bin/env bash
# tests/realcode-marks.sh PROBE MODULE — tools/realcode/rc_marks.c brackets a program's timed region:
# preloaded into realcode_marks_probe (two omp_get_wtime() calls around 0.2 s of CPU work), it
# must report 2 calls and a CPU time of 0.2 s (+- 50 %: the probe stops on its own CPU clock, the
# module reads the process clock at the calls), a wall time no shorter than it; and a process that
# never calls a timer (a shell between the harness and the driver inherits the preload) must leave
# the file alone, or it would overwrite the driver's record when it exits after it.
set -euo pipefail
probe="$1" module="$2"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
RC_MARKS_FILE="$tmp/marks" LD_PRELOAD="$module" "$probe" > /dev/null
read -r line < "$tmp/marks"
echo "marks: $line"
set -- $(sed 's/[a-z_]*=//g' <<<"$line")
[ "$1" = 2 ] || { echo "FAIL: $1 timer calls seen, expected 2"; exit 1; }
awk -v c="$2" -v w="$3" 'BEGIN {exit !(c >= 0.1 && c <= 0.3 && w >= 0.99 * c)}' ||
  { echo "FAIL: cpu_s=$2 wall_s=$3, expected cpu 0.2 s +- 50 % and wall >= cpu"; exit 1; }
RC_MARKS_FILE="$tmp/marks" LD_PRELOAD="$module" bash -c "\"$probe\" > /dev/null"
[ "$(cat "$tmp/marks")" != "" ] && [ "$(sed 's/ .*//' "$tmp/marks")" = calls=2 ] ||
  { echo "FAIL: the shell around the probe overwrote its record: $(cat "$tmp/marks")"; exit 1; }
echo "ok"
