#!/usr/bin/env bash
# engine-scaling.sh [REPEAT [SIZES...]] — the engine's cost per task from one decade of concurrent
# tasks to the next (doc/performance.md, "Engine"): bench_engine N 1 N 0 (N one-task jobs on N
# nodes, all submitted at t = 0: the shape of tools/bench/vs-simgrid) for N = 10^5, 10^6, 10^7 (or
# SIZES), the best engine CPU time of REPEAT runs (default 3: CPU time, which other processes on a
# shared machine inflate less than wall time) and the peak resident memory per task (and the same
# above the process's start-up size), then the ratio of the time per task to the decade before
# (the goal: at most 1.3). Run from the source root after a release build (build/); 10^7 needs
# about 1.7 GiB.
set -euo pipefail
cd "$(dirname "$0")/../.."
rep=${1:-3}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100000 1000000 10000000)
bench=build/tools/bench/bench_engine
[ -x "$bench" ] || { echo "engine-scaling: build $bench first" >&2; exit 2; }
echo "machine: $(nproc) CPUs, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1); load $(cut -d' ' -f1-3 /proc/loadavg); best of $rep"
printf '%12s %10s %12s %10s %12s %12s %8s\n' tasks "engine CPU" "ns per task" "x decade" "peak MiB" "bytes/task" "above"
prev=""
for n in "${sizes[@]}"; do
  best="" line=""
  for ((r = 0; r < rep; r++)); do
    out=$("$bench" "$n" 1 "$n" 0)
    t=$(sed -n 's/^engine CPU *\([0-9.]*\) s.*/\1/p' <<<"$out")
    if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; line=$out; fi
  done
  ns=$(awk -v t="$best" -v n="$n" 'BEGIN { printf "%.1f", t / n * 1e9 }')
  ratio=-
  [ -n "$prev" ] && ratio=$(awk -v a="$ns" -v b="$prev" 'BEGIN { printf "%.2f", a / b }')
  read -r mib per above < <(sed -n 's/^peak memory *\([0-9.]*\) MiB.*: \([0-9]*\) bytes per task, \([0-9]*\) above.*/\1 \2 \3/p' <<<"$line")
  printf '%12s %10s %12s %10s %12s %12s %8s\n' "$n" "$best" "$ns" "$ratio" "$mib" "$per" "$above"
  prev=$ns
done
