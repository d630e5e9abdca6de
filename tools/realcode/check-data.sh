#!/usr/bin/env bash
# tools/realcode/check-data.sh — checks the format and the consistency of the real-code records
# that tools/realcode/measure.sh writes (calibration/realcode/<machine>/): the agreed header, one
# row per condition, the parameter columns each code uses (and no other), positive times, min <=
# median, a fit/test role, and that every summary row is what its raw repeats give (the number of
# repeats, their min and median, each repeat's per-iteration time from its two runs).
# usage: tools/realcode/check-data.sh DIR...   (exit 0 when all hold; else one line per fault, 1)
set -uo pipefail
export LC_ALL=C

HEADER="code,case,T,N,octahedral,NLON,NLAT,NLEV,NFLD,NGPTOT,NPROMA,threads,iters,repeats,cpu_s_min,cpu_s_median,wall_s_min,wall_s_median,load1,contended,variant,role"
RAW_HEADER="code,case,T,N,octahedral,NLON,NLAT,NLEV,NFLD,NGPTOT,NPROMA,threads,variant,repeat,iters_lo,iters_hi,cpu_lo_s,cpu_hi_s,wall_lo_s,wall_hi_s,cpu_s,wall_s,load1,other_cores,steal_frac,energy_j,driver_s,max_rel_err_pct,started_utc"
REQUIRED_MACHINE_KEYS="cpu_model logical_cpus mem_total_kib clock_ghz_measured env_GLIBC_TUNABLES env_OPENBLAS_NUM_THREADS env_OMP_STACKSIZE"

[ $# -ge 1 ] || { echo "usage: check-data.sh DIR..." >&2; exit 2; }
bad=0
fault() { echo "$1"; bad=1; }

check_dir() {
  local d="$1" m="$1/measurements.csv" r="$1/raw/runs.csv" k
  for f in "$m" "$r" "$d/machine.csv" "$d/build.csv" "$d/README.md"; do
    [ -r "$f" ] || { fault "$f: missing"; return; }
  done
  [ "$(head -n1 "$m")" = "$HEADER" ] || fault "$m:1: the header is not the agreed one ($HEADER)"
  [ "$(head -n1 "$r")" = "$RAW_HEADER" ] || fault "$r:1: the header is not '$RAW_HEADER'"
  for f in "$d/machine.csv" "$d/build.csv"; do
    [ "$(head -n1 "$f")" = "key,value,source" ] || fault "$f:1: the header must be key,value,source"
    awk -F, -v f="$f" 'NR > 1 && (NF != 3 || $1 == "" || $3 == "") {
      printf "%s:%d: a row needs key,value,source (3 fields, a key and a source)\n", f, NR}' "$f"
  done | grep . && bad=1
  for k in $REQUIRED_MACHINE_KEYS; do
    grep -q "^$k,[^,]" "$d/machine.csv" || fault "$d/machine.csv: no value for $k"
  done

  # the summary rows, each on its own
  awk -F, -v f="$m" '
    function num(x) { return x ~ /^[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/ }
    function posint(x) { return x ~ /^[1-9][0-9]*$/ }
    function say(s) { printf "%s:%d: %s\n", f, NR, s }
    NR == 1 { next }
    NF != 22 { say("expected 22 fields, found " NF); next }
    {
      uses["ectrans-global"] = "T N octahedral NLEV NFLD"
      uses["ectrans-lam"] = "NLON NLAT NLEV NFLD"
      uses["cloudsc"] = "NGPTOT NPROMA"
      split("T N octahedral NLON NLAT NLEV NFLD NGPTOT NPROMA", pn, " ")
      if (!($1 in uses)) { say("unknown code \"" $1 "\""); next }
      if ($2 == "") say("no case name")
      for (i = 1; i <= 9; i++) {
        used = (" " uses[$1] " ") ~ (" " pn[i] " ")
        if (used && $(i + 2) == "") say($1 " needs " pn[i])
        if (!used && $(i + 2) != "") say($1 " does not use " pn[i] " (leave it empty)")
        if (used && pn[i] == "octahedral") { if ($(i + 2) !~ /^[01]$/) say("octahedral is 0 or 1") }
        else if (used && !posint($(i + 2))) say(pn[i] " must be a positive integer")
      }
      if (!posint($12)) say("threads must be a positive integer")
      if (!posint($13)) say("iters must be a positive integer")
      if (!posint($14) || $14 < 3) say("repeats must be 3 or more")
      for (i = 15; i <= 18; i++) if (!num($i) || $i <= 0) say("times must be positive numbers")
      if ($15 > $16) say("cpu_s_min > cpu_s_median")
      if ($17 > $18) say("wall_s_min > wall_s_median")
      if (!num($19)) say("load1 must be a number")
      if ($20 !~ /^[01]$/) say("contended is 0 or 1")
      if ($21 == "") say("no variant")
      if ($22 != "fit" && $22 != "test") say("role is fit or test")
      key = $1 FS $3 FS $4 FS $5 FS $6 FS $7 FS $8 FS $9 FS $10 FS $11 FS $12 FS $21
      if (key in seen) say("the same condition as line " seen[key])
      seen[key] = NR
      if (cname[$1 FS $2 FS $12 FS $21]++) say("case \"" $2 "\" appears twice for " $1 " at " $12 " threads, " $21)
      role[$1 FS $22]++; codes[$1] = 1
    }
    END {
      for (c in codes) for (x = 1; x <= 2; x++) {
        rr = x == 1 ? "fit" : "test"
        if (!role[c FS rr]) printf "%s: %s has no %s row\n", f, c, rr
      }
    }' "$m" | grep . && bad=1

  # the raw repeats against the summary
  awk -F, -v f="$m" -v rf="$r" '
    function abs(x) { return x < 0 ? -x : x }
    function near(a, b) { return abs(a - b) <= 1e-5 * abs(b) + 1e-9 }
    function sortn(a, n,   i, j, t) { for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t } }
    function med(a, n) { sortn(a, n); return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    FNR == 1 { next }
    FILENAME == rf {
      if (NF != 29) { printf "%s:%d: expected 29 fields, found %d\n", rf, FNR, NF; next }
      k = $1 FS $2 FS $3 FS $4 FS $5 FS $6 FS $7 FS $8 FS $9 FS $10 FS $11 FS $12 FS $13
      n = ++cnt[k]; cpu[k, n] = $21; wall[k, n] = $22; other[k] = (other[k] > $24) ? other[k] : $24
      if ($16 > $15) {
        if (!near($21, ($18 - $17) / ($16 - $15)) && abs($21 - ($18 - $17) / ($16 - $15)) > 5e-6)
          printf "%s:%d: cpu_s is not (cpu_hi_s - cpu_lo_s) / (iters_hi - iters_lo)\n", rf, FNR
        if (!near($22, ($20 - $19) / ($16 - $15)) && abs($22 - ($20 - $19) / ($16 - $15)) > 5e-6)
          printf "%s:%d: wall_s is not (wall_hi_s - wall_lo_s) / (iters_hi - iters_lo)\n", rf, FNR
      } else printf "%s:%d: iters_hi must exceed iters_lo\n", rf, FNR
      used[k] = 0
      next
    }
    {
      k = $1 FS $2 FS $3 FS $4 FS $5 FS $6 FS $7 FS $8 FS $9 FS $10 FS $11 FS $12 FS $21
      if (!(k in cnt)) { printf "%s:%d: no raw repeats in %s\n", f, FNR, rf; next }
      used[k] = 1
      n = cnt[k]
      if (n != $14) printf "%s:%d: repeats says %d, %s holds %d\n", f, FNR, $14, rf, n
      delete c; delete w
      cmin = cpu[k, 1]; wmin = wall[k, 1]
      for (i = 1; i <= n; i++) { c[i] = cpu[k, i]; w[i] = wall[k, i]; if (c[i] < cmin) cmin = c[i]; if (w[i] < wmin) wmin = w[i] }
      if (!near($15, cmin)) printf "%s:%d: cpu_s_min %s is not the min of the repeats (%s)\n", f, FNR, $15, cmin
      if (!near($16, med(c, n))) printf "%s:%d: cpu_s_median %s is not the median of the repeats\n", f, FNR, $16
      if (!near($17, wmin)) printf "%s:%d: wall_s_min %s is not the min of the repeats (%s)\n", f, FNR, $17, wmin
      if (!near($18, med(w, n))) printf "%s:%d: wall_s_median %s is not the median of the repeats\n", f, FNR, $18
      if (($20 == 1) != (other[k] >= 0.25)) printf "%s:%d: contended must be 1 exactly when other work reached 0.25 cores in a repeat\n", f, FNR
    }
    END { for (k in used) if (!used[k]) { split(k, p, FS); printf "%s: raw repeats of %s %s without a summary row\n", rf, p[1], p[2] } }
  ' "$r" "$m" | grep . && bad=1
  return 0
}

for d in "$@"; do check_dir "$d"; done
exit $bad
