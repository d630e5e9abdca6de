#!/usr/bin/env bash
# tools/bench/device-bench.sh OUT — run `dcsim bench` on a lent machine (issue #31).
#
# Needs an already-built dcsim at build/dcsim (and its shared libraries; DCSIM_LIBDIR names their
# folder when they are not found otherwise); compiles nothing. Run from the repository root (the
# catalogue and workflows are read from it through DCSIM_DATA). Runs, each under a time limit:
#   lscpu; dcsim bench --quick; dcsim bench --time-budget 2m --check workflows/alaro.xml
# both with --compare xeon-platinum-8480+ and one results database. Total under 4 minutes.
# Writes 8 files into OUT: lscpu.txt, quick.out, quick.err, quick.tar.gz, budget2m.out,
# budget2m.err, budget2m.tar.gz, bench.db (*.out: the report; *.err: progress lines, then the
# exit status and wall-clock seconds; *.tar.gz: the calibration directory written).
set -u
out=${1:?usage: tools/bench/device-bench.sh OUT}
mkdir -p "$out" || exit 1
root=$(pwd)
dcsim=$root/build/dcsim
[ -x "$dcsim" ] || { echo "device-bench: no executable $dcsim" >&2; exit 1; }
export DCSIM_DATA=$root
[ -n "${DCSIM_LIBDIR:-}" ] && export LD_LIBRARY_PATH="$DCSIM_LIBDIR:${LD_LIBRARY_PATH:-}"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT

{ lscpu; echo; echo "# nproc: $(nproc)"; grep -m1 'model name' /proc/cpuinfo; } > "$out/lscpu.txt" 2>&1

# run NAME LIMIT_S ARGS...: one bench into $work/NAME, report, progress, status and wall time
run() {
  local name=$1 limit=$2
  shift 2
  local t0 t1 rc
  t0=$(date +%s.%N)
  timeout "$limit" "$dcsim" bench -o "$work/$name" --db "$out/bench.db" \
    --compare xeon-platinum-8480+ "$@" > "$out/$name.out" 2> "$out/$name.err"
  rc=$?
  t1=$(date +%s.%N)
  echo "# device-bench: exit $rc, wall $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s" \
    >> "$out/$name.err"
  tar -C "$work" -czf "$out/$name.tar.gz" "$name" 2>> "$out/$name.err"
}

run quick 80 --quick
run budget2m 145 --time-budget 2m --check workflows/alaro.xml
ls -l "$out"
