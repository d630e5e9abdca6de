#!/usr/bin/env bash
# tools/realcode/measure.sh — runs real-code benchmark drivers that the user built beforehand
# (ectrans' ectrans-benchmark-cpu-dp and ectrans-lam-benchmark-cpu-dp, dwarf-p-cloudsc's
# dwarf-cloudsc-fortran and dwarf-cloudsc-c) under the conditions of a plan, and records the
# machine, the build flags and every run into calibration/realcode/<machine>/ (README.md there and
# in this folder say how each number is obtained). It builds nothing and fetches nothing.
#
# usage: tools/realcode/measure.sh --plan PLAN.csv --out DIR [options]
#   --plan FILE          the conditions (tools/realcode/plan-*.csv: code,case,T,N,octahedral,NLON,
#                        NLAT,NLEV,NFLD,NGPTOT,NPROMA,threads,iters,repeats,variant,role)
#   --out DIR            where measurements.csv, machine.csv, build.csv and raw/ are written
#   --ectrans-bin DIR    folder holding the two ectrans drivers        (or RC_ECTRANS_BIN)
#   --ectrans-build DIR  ectrans' build folder, for its flags          (or RC_ECTRANS_BUILD)
#   --cloudsc-bin DIR    folder holding dwarf-cloudsc-fortran/-c       (or RC_CLOUDSC_BIN)
#   --cloudsc-build DIR  dwarf-p-cloudsc's build folder, for its flags (or RC_CLOUDSC_BUILD)
#   --cloudsc-data DIR   folder holding input.h5 and reference.h5      (or RC_CLOUDSC_DATA)
#   --tools DIR          where rc-clock and librc_marks.so are (default build/tools)
#   --upstream TEXT      e.g. "ectrans=1.7.0@5f63b00" recorded in build.csv (repeatable)
#   --only CODE          run only the plan's rows of CODE (ectrans-global|ectrans-lam|cloudsc)
#   --case REGEX         run only the plan's rows whose case name matches REGEX (grep -E, whole name)
#   --max-gib N          skip (and say so) a CLOUDSC condition needing more than N GiB
#                        (about 105 KiB per column, as measured in the first trial;
#                        default: half of MemTotal)
#   --no-machine         keep machine.csv as it is (a second campaign on the same machine)
# A condition already in measurements.csv (same code, case, parameters, threads and variant) is
# replaced by the new measurement; the others are kept. Each condition is written when it is done,
# to a temporary name then renamed: an interrupted run keeps the finished conditions and never
# leaves a half-written table.
set -euo pipefail
export LC_ALL=C

die() { echo "measure.sh: $*" >&2; exit 2; }

plan="" out="" tools_dir="build/tools" only="" case_re="" max_gib="" write_machine=1
ectrans_bin="${RC_ECTRANS_BIN:-}" ectrans_build="${RC_ECTRANS_BUILD:-}"
cloudsc_bin="${RC_CLOUDSC_BIN:-}" cloudsc_build="${RC_CLOUDSC_BUILD:-}"
cloudsc_data="${RC_CLOUDSC_DATA:-}"
upstream=()
while [ $# -gt 0 ]; do
  case "$1" in
    --plan) plan="${2:?}"; shift 2 ;;
    --out) out="${2:?}"; shift 2 ;;
    --ectrans-bin) ectrans_bin="${2:?}"; shift 2 ;;
    --ectrans-build) ectrans_build="${2:?}"; shift 2 ;;
    --cloudsc-bin) cloudsc_bin="${2:?}"; shift 2 ;;
    --cloudsc-build) cloudsc_build="${2:?}"; shift 2 ;;
    --cloudsc-data) cloudsc_data="${2:?}"; shift 2 ;;
    --tools) tools_dir="${2:?}"; shift 2 ;;
    --upstream) upstream+=("${2:?}"); shift 2 ;;
    --only) only="${2:?}"; shift 2 ;;
    --case) case_re="${2:?}"; shift 2 ;;
    --max-gib) max_gib="${2:?}"; shift 2 ;;
    --no-machine) write_machine=0; shift ;;
    -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
    *) die "unknown option '$1' (--help lists them)" ;;
  esac
done
[ -n "$plan" ] || die "--plan FILE is required"
[ -n "$out" ] || die "--out DIR is required"
[ -r "$plan" ] || die "$plan: cannot read the plan"

HEADER="code,case,T,N,octahedral,NLON,NLAT,NLEV,NFLD,NGPTOT,NPROMA,threads,iters,repeats,cpu_s_min,cpu_s_median,wall_s_min,wall_s_median,load1,contended,variant,role"
PLAN_HEADER="code,case,T,N,octahedral,NLON,NLAT,NLEV,NFLD,NGPTOT,NPROMA,threads,iters,repeats,variant,role"
RAW_HEADER="code,case,T,N,octahedral,NLON,NLAT,NLEV,NFLD,NGPTOT,NPROMA,threads,variant,repeat,iters_lo,iters_hi,cpu_lo_s,cpu_hi_s,wall_lo_s,wall_hi_s,cpu_s,wall_s,load1,other_cores,steal_frac,energy_j,driver_s,max_rel_err_pct,started_utc"
[ "$(head -n1 "$plan")" = "$PLAN_HEADER" ] || die "$plan:1: the header must be '$PLAN_HEADER'"

# The environment every driver runs in (tools/realcode/README.md: why each one)
export GLIBC_TUNABLES="glibc.malloc.mmap_max=0:glibc.malloc.trim_threshold=4294967295"
export OPENBLAS_NUM_THREADS=1
export OMP_STACKSIZE=256M
export OMP_PROC_BIND=false
ulimit -s unlimited 2>/dev/null || die "cannot lift the stack limit (ulimit -s unlimited)"

mkdir -p "$out/raw"
NCPU=$(getconf _NPROCESSORS_ONLN)
HZ=$(getconf CLK_TCK)
memtotal_kib=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)
[ -n "$max_gib" ] || max_gib=$(awk -v k="$memtotal_kib" 'BEGIN {printf "%.1f", k / 1048576 / 2}')

# ---- machine.csv: key,value,source ----
csv_field() { printf '%s' "$1" | tr ',\n' ';  '; } # values never hold the separator
put() { printf '%s,%s,%s\n' "$1" "$(csv_field "$2")" "$(csv_field "$3")"; }

write_machine_csv() {
  local f="$out/machine.csv.tmp.$$" c
  {
    echo "key,value,source"
    put cpu_model "$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)" "/proc/cpuinfo model name"
    put cpu_vendor "$(awk -F': ' '/^vendor_id/ {print $2; exit}' /proc/cpuinfo)" "/proc/cpuinfo vendor_id"
    put cpu_family_model_stepping "$(awk -F': ' '/^cpu family/ {f=$2} /^model\t/ {m=$2} /^stepping/ {s=$2; print f "/" m "/" s; exit}' /proc/cpuinfo)" "/proc/cpuinfo cpu family/model/stepping"
    put cpu_mhz_reported "$(awk -F': ' '/^cpu MHz/ {print $2; exit}' /proc/cpuinfo)" "/proc/cpuinfo cpu MHz (what the kernel reports; not measured)"
    put simd "$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E '^(avx|avx2|fma|avx512f|avx512_vnni|sve|asimd)$' | tr '\n' ' ' | sed 's/ $//')" "/proc/cpuinfo flags"
    put hypervisor "$(grep -qw hypervisor /proc/cpuinfo && echo yes || echo no)" "/proc/cpuinfo flag hypervisor"
    put logical_cpus "$NCPU" "getconf _NPROCESSORS_ONLN"
    put threads_per_core "$(cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list 2>/dev/null | awk -F'[,-]' '{print (NF>1 ? $NF-$1+1 : 1)}')" "/sys/devices/system/cpu/cpu0/topology/thread_siblings_list"
    for c in /sys/devices/system/cpu/cpu0/cache/index*; do
      [ -r "$c/size" ] || continue
      put "cache_L$(cat "$c/level")_$(cat "$c/type" | tr 'A-Z' 'a-z')" \
        "$(cat "$c/size") shared by cpus $(cat "$c/shared_cpu_list")" "$c/size"
    done
    put mem_total_kib "$memtotal_kib" "/proc/meminfo MemTotal"
    if [ -x "$tools_dir/rc-clock" ]; then
      put clock_ghz_measured "$("$tools_dir/rc-clock")" "rc-clock: dcsim_bench_clock_probe_ghz (dependent register adds) fastest of 31 short probes at the start of the campaign"
    else
      put clock_ghz_measured "" "rc-clock not found in $tools_dir: not measured"
    fi
    put kernel "$(uname -r)" "uname -r"
    put glibc "$(ldd --version 2>/dev/null | head -n1 | awk '{print $NF}')" "ldd --version"
    put gfortran "$(gfortran -dumpfullversion 2>/dev/null || echo none)" "gfortran -dumpfullversion"
    put gcc "$(gcc -dumpfullversion 2>/dev/null || echo none)" "gcc -dumpfullversion"
    for p in libfftw3-dev libopenblas0-pthread libopenblas0-openmp libopenblas0-serial liblapack3 libhdf5-dev; do
      v=$(dpkg-query -W -f='${Version}' "$p" 2>/dev/null || true)
      [ -n "$v" ] && put "pkg_$p" "$v" "dpkg-query -W"
    done
    put blas_alternative "$(readlink -f /usr/lib/x86_64-linux-gnu/libblas.so.3 2>/dev/null || echo unknown)" "readlink -f libblas.so.3 (Debian alternatives)"
    if command -v nvidia-smi >/dev/null 2>&1; then
      put gpu "$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | tr '\n' ';')" "nvidia-smi --query-gpu"
    else
      put gpu "none" "nvidia-smi not found"
    fi
    if ls /sys/class/powercap/intel-rapl:*/energy_uj >/dev/null 2>&1 && cat /sys/class/powercap/intel-rapl:0/energy_uj >/dev/null 2>&1; then
      put rapl "readable" "/sys/class/powercap/intel-rapl:*/energy_uj"
    else
      put rapl "not readable" "/sys/class/powercap has no readable intel-rapl zone"
    fi
    put env_GLIBC_TUNABLES "$GLIBC_TUNABLES" "set by measure.sh for every run"
    put env_OPENBLAS_NUM_THREADS "$OPENBLAS_NUM_THREADS" "set by measure.sh for every run"
    put env_OMP_STACKSIZE "$OMP_STACKSIZE" "set by measure.sh for every run"
    put env_OMP_PROC_BIND "$OMP_PROC_BIND" "set by measure.sh for every run"
    put ulimit_stack "$(ulimit -s)" "ulimit -s in measure.sh"
    put load_at_start "$(cut -d' ' -f1-3 /proc/loadavg)" "/proc/loadavg"
    put campaign_start_utc "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "date -u"
  } > "$f"
  mv "$f" "$out/machine.csv"
}

# ---- build.csv: the flags each driver was built with ----
cache_get() { sed -n "s/^$2:[A-Z]*=//p" "$1/CMakeCache.txt" | head -n1; }

build_rows() { # code build-folder targets...
  local code="$1" b="$2" k fm t; shift 2
  [ -n "$b" ] || return 0
  [ -r "$b/CMakeCache.txt" ] || die "$b: no CMakeCache.txt (--$code-build must be the build folder)"
  for k in CMAKE_BUILD_TYPE CMAKE_Fortran_COMPILER CMAKE_C_COMPILER CMAKE_Fortran_FLAGS \
           CMAKE_Fortran_FLAGS_RELEASE CMAKE_C_FLAGS CMAKE_C_FLAGS_RELEASE CMAKE_TOOLCHAIN_FILE \
           CMAKE_HOME_DIRECTORY ENABLE_OMP ENABLE_MPI ENABLE_ETRANS ENABLE_GPU ENABLE_MKL \
           ENABLE_SINGLE_PRECISION ENABLE_FFTW ENABLE_HDF5 ENABLE_CLOUDSC_FORTRAN ENABLE_CLOUDSC_C \
           fiat_DIR FFTW_LIBRARIES BLAS_LIBRARIES LAPACK_LIBRARIES; do
    if grep -q "^$k:" "$b/CMakeCache.txt"; then put "$code.$k" "$(cache_get "$b" "$k")" "$b/CMakeCache.txt"; fi
  done
  local src; src=$(cache_get "$b" CMAKE_HOME_DIRECTORY)
  [ -n "$src" ] && [ -r "$src/VERSION" ] && put "$code.source_VERSION" "$(head -n1 "$src/VERSION")" "$src/VERSION"
  for t in "$@"; do # the compile lines CMake generated for each target (toolchain flags included)
    fm=$(find "$b" -path "*/CMakeFiles/$t.dir/flags.make" 2>/dev/null | head -n1)
    [ -n "$fm" ] || continue
    sed -n 's/^\(Fortran\|C\)_FLAGS = //p' "$fm" | while read -r line; do
      put "$code.$t.flags" "$line" "${fm#"$b"/}"
    done
  done
}

write_build_csv() {
  local f="$out/build.csv.tmp.$$" u
  {
    echo "key,value,source"
    build_rows ectrans "$ectrans_build" ectrans-benchmark-cpu-dp ectrans-lam-benchmark-cpu-dp \
      ectrans_common ectrans_dp ectrans_etrans_dp
    build_rows cloudsc "$cloudsc_build" dwarf-cloudsc-fortran dwarf-cloudsc-c dwarf-cloudsc-c-lib \
      cloudsc-common-lib
    for u in "${upstream[@]+"${upstream[@]}"}"; do put "upstream.${u%%=*}" "${u#*=}" "given with --upstream"; done
  } > "$f"
  mv "$f" "$out/build.csv"
}

# ---- one run of a driver: its CPU and wall time, the other work on the machine ----
stat_busy() { awk '/^cpu / {b = $2+$3+$4+$7+$8+$9; print b, $9; exit}' /proc/stat; } # busy, steal
rapl_uj() {
  local z t=0 e
  for z in /sys/class/powercap/intel-rapl:[0-9]*; do
    [ -r "$z/energy_uj" ] || continue
    e=$(cat "$z/energy_uj" 2>/dev/null) || return 0
    t=$((t + e))
  done
  [ "$t" -gt 0 ] && echo "$t"
  return 0
}

# run_driver LOG DIR CMD... : sets R_CPU R_WALL R_LOAD R_OTHER R_STEAL R_ENERGY R_RC
run_driver() {
  local log="$1" dir="$2" tf; shift 2
  tf=$(mktemp)
  R_LOAD=$(cut -d' ' -f1 /proc/loadavg)
  local b0 b1 e0 e1
  b0=$(stat_busy); e0=$(rapl_uj)
  local TIMEFORMAT='%3R %3U %3S'
  { time (cd "$dir" && "$@" > "$log" 2>&1; echo $? > "$log.rc"); } 2> "$tf"
  b1=$(stat_busy); e1=$(rapl_uj)
  R_RC=$(cat "$log.rc"); rm -f "$log.rc"
  read -r R_WALL u s < "$tf"; rm -f "$tf"
  R_CPU=$(awk -v u="$u" -v s="$s" 'BEGIN {printf "%.3f", u + s}')
  set -- $b0 $b1
  R_OTHER=$(awk -v b0="$1" -v b1="$3" -v hz="$HZ" -v own="$R_CPU" -v w="$R_WALL" \
    'BEGIN {o = ((b1 - b0) / hz - own) / w; if (o < 0) o = 0; printf "%.2f", o}')
  R_STEAL=$(awk -v s0="$2" -v s1="$4" -v hz="$HZ" -v w="$R_WALL" -v n="$NCPU" \
    'BEGIN {printf "%.3f", (s1 - s0) / hz / w / n}')
  R_ENERGY=""
  if [ -n "$e0" ] && [ -n "$e1" ] && [ "$e1" -ge "$e0" ]; then
    R_ENERGY=$(awk -v a="$e0" -v b="$e1" 'BEGIN {printf "%.3f", (b - a) * 1e-6}')
  fi
}

# ---- the drivers ----
find_bin() { # folder name -> path
  [ -n "$1" ] || die "no folder given for $2 (--ectrans-bin / --cloudsc-bin)"
  [ -x "$1/$2" ] || die "$1/$2: not an executable driver"
  echo "$1/$2"
}

driver_cmd() { # fills CMD for the current row with ITERS iterations
  local it="$1"
  case "$code" in
    ectrans-global)
      local g; [ "$octa" = 1 ] && g="O$N" || g="F$N"
      CMD=("$(find_bin "$ectrans_bin" ectrans-benchmark-cpu-dp)" -t "$T" -g "$g" -l "$NLEV" -f "$NFLD"
           -n "$it" --niter-warmup 1) ;;
    ectrans-lam)
      CMD=("$(find_bin "$ectrans_bin" ectrans-lam-benchmark-cpu-dp)" --nlon "$NLON" --nlat "$NLAT"
           -l "$NLEV" -f "$NFLD" -n "$it") ;;
    cloudsc)
      local v="${variant#cloudsc-}"
      CMD=(env LD_PRELOAD="$marks_so" RC_MARKS_FILE="$marks_file"
           "$(find_bin "$cloudsc_bin" "dwarf-cloudsc-$v")" "$threads" "$NGPTOT" "$NPROMA") ;;
  esac
}

driver_step_s() { # the driver's own per-iteration figure from its log (empty when absent)
  case "$code" in
    ectrans-global) awk '/Start of time step stats/ {s=1} s && /^med  \(s\):/ {v=$3} END {print v}' "$1" ;;
    ectrans-lam) awk '/^med  \(s\):/ {v=$3} END {print v}' "$1" ;;
    cloudsc) awk '/TOTAL/ {for (i = 1; i <= NF; i++) if ($i == ":") {printf "%.3f", $(i+1) / 1000; exit}}' "$1" ;;
  esac
}

# CLOUDSC validates its output against reference.h5 and prints each field's MaxRelErr-% (it
# marks with !!!! anything above a few ulps, which FMA and -ffast-math reach, and exits 0 anyway):
# the largest of them is recorded, and a run beyond 1e-6 % (1e-8 relative) is refused.
CLOUDSC_MAX_REL_ERR_PCT=1e-6
max_rel_err_pct() {
  awk '/MaxRelErr-%/ {s = 1; next} s && NF >= 7 && $3 ~ /^[-0-9.]+[eE][-+][0-9]+$/ {v = $7 + 0; if (v > m) m = v} END {printf "%.3g", m}' "$1"
}
check_log() { # a driver that failed, or CLOUDSC output that differs from its reference
  [ "$R_RC" = 0 ] || die "$code $case: the driver exited with $R_RC (log: $1)"
  R_CHECK=""
  if [ "$code" = cloudsc ]; then
    grep -q 'MaxRelErr-%' "$1" || die "$code $case: no validation table in the driver's output (log: $1)"
    R_CHECK=$(max_rel_err_pct "$1")
    awk -v e="$R_CHECK" -v t="$CLOUDSC_MAX_REL_ERR_PCT" 'BEGIN {exit !(e > t)}' &&
      die "$code $case: validation: a field differs from reference.h5 by $R_CHECK % (> $CLOUDSC_MAX_REL_ERR_PCT %)"
  fi
  return 0
}

median() { sort -g | awk '{v[NR] = $1} END {if (NR % 2) print v[(NR + 1) / 2]; else printf "%.6g\n", (v[NR/2] + v[NR/2 + 1]) / 2}'; }
fmt() { awk -v x="$1" 'BEGIN {printf "%.6g", x}'; }

key_of() { echo "$1" | cut -d, -f1-12,21; } # code,case,params,threads + variant of a result row

marks_so="$(cd "$tools_dir" 2>/dev/null && pwd)/librc_marks.so"
logdir=$(mktemp -d)
trap 'rm -rf "$logdir"' EXIT
R_CHECK=""

[ "$write_machine" = 1 ] && write_machine_csv
[ -r "$out/machine.csv" ] || die "$out/machine.csv: missing (run once without --no-machine)"
write_build_csv
raw_new="$logdir/raw.csv"; : > "$raw_new"
res_new="$logdir/res.csv"; : > "$res_new"

# ---- merge: the kept rows, then the new ones (which replace rows of the same condition) ----
merge() { # file header new-rows
  local f="$1" h="$2" new="$3" tmp="$1.tmp.$$"
  {
    echo "$h"
    if [ -r "$f" ]; then
      tail -n +2 "$f" | while IFS= read -r row; do
        k=$(key_of "$row")
        grep -qxF -- "$k" <(while IFS= read -r n; do key_of "$n"; done < "$new") || echo "$row"
      done
    fi
    cat "$new"
  } > "$tmp"
  mv "$tmp" "$f"
}
# raw rows: the repeats of a re-measured condition replace the old ones
raw_merge() {
  local f="$out/raw/runs.csv" tmp="$out/raw/runs.csv.tmp.$$" row k
  {
    echo "$RAW_HEADER"
    if [ -r "$f" ]; then
      tail -n +2 "$f" | while IFS= read -r row; do
        k=$(echo "$row" | cut -d, -f1-13)
        grep -qxF -- "$k" <(cut -d, -f1-13 "$raw_new") || echo "$row"
      done
    fi
    cat "$raw_new"
  } > "$tmp"
  mv "$tmp" "$f"
}
lineno=1
while IFS=, read -r code case T N octa NLON NLAT NLEV NFLD NGPTOT NPROMA threads iters repeats variant role; do
  lineno=$((lineno + 1))
  [ -n "$code" ] || continue
  [ -z "$only" ] || [ "$only" = "$code" ] || continue
  [ -z "$case_re" ] || grep -qxE -- "$case_re" <<<"$case" || continue
  case "$code" in ectrans-global|ectrans-lam|cloudsc) ;; *) die "$plan:$lineno: unknown code '$code'" ;; esac
  case "$role" in fit|test) ;; *) die "$plan:$lineno: role must be fit or test, not '$role'" ;; esac
  params="$T,$N,$octa,$NLON,$NLAT,$NLEV,$NFLD,$NGPTOT,$NPROMA"
  export OMP_NUM_THREADS="$threads"
  if [ "$code" = cloudsc ]; then
    [ -r "$cloudsc_data/input.h5" ] && [ -r "$cloudsc_data/reference.h5" ] ||
      die "$cloudsc_data: input.h5 and reference.h5 are needed (--cloudsc-data)"
    [ -r "$marks_so" ] || die "$marks_so: missing (build dcsim: it builds tools/realcode/rc_marks.c)"
    need=$(awk -v n="$NGPTOT" 'BEGIN {printf "%.1f", n * 105 / 1048576}')
    if awk -v a="$need" -v b="$max_gib" 'BEGIN {exit !(a > b)}'; then
      echo "measure.sh: $plan:$lineno: skipped, needs about $need GiB (> --max-gib $max_gib)" >&2
      continue
    fi
  fi
  echo "measure.sh: $code $case $params threads=$threads $variant ($role)" >&2
  cpus=() walls=() loads=() others=()
  rep=0 tries=0
  while [ "$rep" -lt "$repeats" ]; do
    started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
    log="$logdir/run.log"; marks_file="$logdir/marks.txt"
    if [ "$code" = cloudsc ]; then
      # one pass over all columns per run; the CPU and wall time of the driver's own timed loop
      rm -f "$marks_file"
      driver_cmd 1
      run_driver "$log" "$cloudsc_data" "${CMD[@]}"
      check_log "$log"
      read -r mc mcpu mwall < <(sed 's/[a-z_]*=//g' "$marks_file")
      [ "${mc:-0}" -ge 2 ] || die "$code $case: the driver's timer was not seen (rc_marks calls=${mc:-0})"
      ilo=0 ihi=1 clo=0 chi="$mcpu" wlo=0 whi="$mwall"
      cpu_it="$mcpu" wall_it="$mwall"
      load="$R_LOAD" other="$R_OTHER" steal="$R_STEAL" energy="$R_ENERGY"
    else
      # n and 3n iterations: the difference over 2n is one iteration without set-up and warm-up
      ilo="$iters" ihi=$((3 * iters))
      driver_cmd "$ilo"; run_driver "$log" . "${CMD[@]}"; check_log "$log"
      clo="$R_CPU" wlo="$R_WALL" load="$R_LOAD" o1="$R_OTHER" s1="$R_STEAL" e1="$R_ENERGY"
      driver_cmd "$ihi"; run_driver "$log" . "${CMD[@]}"; check_log "$log"
      chi="$R_CPU" whi="$R_WALL"
      cpu_it=$(awk -v a="$clo" -v b="$chi" -v n=$((ihi - ilo)) 'BEGIN {printf "%.6g", (b - a) / n}')
      wall_it=$(awk -v a="$wlo" -v b="$whi" -v n=$((ihi - ilo)) 'BEGIN {printf "%.6g", (b - a) / n}')
      other=$(awk -v a="$o1" -v b="$R_OTHER" 'BEGIN {printf "%.2f", (a > b ? a : b)}')
      steal=$(awk -v a="$s1" -v b="$R_STEAL" 'BEGIN {printf "%.3f", (a > b ? a : b)}')
      energy=""
      if [ -n "$e1" ] && [ -n "$R_ENERGY" ]; then
        energy=$(awk -v a="$e1" -v b="$R_ENERGY" -v n=$((ihi - ilo)) 'BEGIN {printf "%.4g", (b - a) / n}')
      fi
    fi
    # with too few iterations on a busy machine the difference of two runs can come out <= 0: such
    # a repeat is run again, at most twice over the condition, then the condition fails
    if ! awk -v c="$cpu_it" -v w="$wall_it" 'BEGIN {exit !(c > 0 && w > 0)}'; then
      tries=$((tries + 1))
      [ "$tries" -le 2 ] ||
        die "$code $case: per-iteration CPU $cpu_it s / wall $wall_it s not positive three times (raise iters)"
      echo "measure.sh:   a repeat gave CPU $cpu_it s, wall $wall_it s per iteration: run again" >&2
      continue
    fi
    rep=$((rep + 1))
    dstep=$(driver_step_s "$log")
    echo "$code,$case,$params,$threads,$variant,$rep,$ilo,$ihi,$clo,$chi,$wlo,$whi,$cpu_it,$wall_it,$load,$other,$steal,$energy,$dstep,$R_CHECK,$started" >> "$raw_new"
    cpus+=("$cpu_it"); walls+=("$wall_it"); loads+=("$load"); others+=("$other")
  done
  cmin=$(printf '%s\n' "${cpus[@]}" | sort -g | head -n1)
  cmed=$(printf '%s\n' "${cpus[@]}" | median)
  wmin=$(printf '%s\n' "${walls[@]}" | sort -g | head -n1)
  wmed=$(printf '%s\n' "${walls[@]}" | median)
  lmed=$(printf '%s\n' "${loads[@]}" | median)
  omax=$(printf '%s\n' "${others[@]}" | sort -g | tail -n1)
  contended=$(awk -v o="$omax" 'BEGIN {print (o >= 0.25) ? 1 : 0}')
  echo "$code,$case,$params,$threads,$iters,$repeats,$(fmt "$cmin"),$(fmt "$cmed"),$(fmt "$wmin"),$(fmt "$wmed"),$lmed,$contended,$variant,$role" >> "$res_new"
  # each finished condition is written at once: an interrupted campaign keeps what it measured
  merge "$out/measurements.csv" "$HEADER" "$res_new"
  raw_merge
  : > "$res_new"; : > "$raw_new"
  echo "measure.sh:   cpu/iter min $(fmt "$cmin") s median $(fmt "$cmed") s; wall median $(fmt "$wmed") s; other work up to $omax cores" >&2
done < <(tail -n +2 "$plan")

sed -i "/^campaign_end_utc,/d" "$out/machine.csv"
put campaign_end_utc "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "date -u" >> "$out/machine.csv"
echo "measure.sh: wrote $out/measurements.csv ($(($(wc -l < "$out/measurements.csv") - 1)) conditions)" >&2
