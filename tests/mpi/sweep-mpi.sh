#!/usr/bin/env bash
# sweep-mpi.sh DCSIM MPIEXEC... — `dcsim sweep` over 2 MPI ranks (the MPI build) against the same
# binary in one process: the same bytes on stdout and the same rows in the database, resumed after
# an interruption, a shard run over 2 ranks merged with a shard run in one process, and errors of
# one rank reported once, by rank 0, naming the rank. Run from the source root.
set -u
bin=$1; shift
mpi=("$@")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if "$@"; then echo "ok: $*"; else echo "FAILED: $*"; fail=1; fi; }
S=(workflows/alaro.xml --cpu xeon-e5-2697v3,xeon-gold-6148 --gpu geforce-gtx970,tesla-k20m,tesla-m2070q
   --nodes 1,2,4,8,16 --cores 1-14 --freq 1.2,1.4,1.6,1.8,2.0,2.4,2.6,turbo --quiet)
rows() { sqlite3 "$1" "SELECT * FROM sweep_points ORDER BY sweep_id, idx"; }

"$bin" sweep "${S[@]}" --format json >"$tmp/one.json"
"$bin" sweep "${S[@]}" --db "$tmp/one.db" >"$tmp/one.txt"
"${mpi[@]}" -n 2 "$bin" sweep "${S[@]}" --format json >"$tmp/two.json"
check cmp "$tmp/one.json" "$tmp/two.json"
"${mpi[@]}" -n 2 "$bin" sweep "${S[@]}" --format json --threads 2 >"$tmp/two-t2.json"
check cmp "$tmp/one.json" "$tmp/two-t2.json"
"${mpi[@]}" -n 2 "$bin" sweep "${S[@]}" --db "$tmp/two.db" >"$tmp/two.txt"
sed -i "s#$tmp/two.db#$tmp/one.db#" "$tmp/two.txt"
check cmp "$tmp/one.txt" "$tmp/two.txt"
check cmp <(rows "$tmp/one.db") <(rows "$tmp/two.db")

# interrupted after 1000 points (--stop-after), resumed: every point once, the same bytes
"${mpi[@]}" -n 2 "$bin" sweep "${S[@]}" --db "$tmp/r.db" --stop-after 1000 2>"$tmp/stop.err" >/dev/null
check grep -q "sweep stopped after 1000 new points (1000 of 3360 done)" "$tmp/stop.err"
"${mpi[@]}" -n 2 "$bin" sweep "${S[@]}" --db "$tmp/r.db" --format json >"$tmp/r.json"
check cmp "$tmp/one.json" "$tmp/r.json"
check [ "$(sqlite3 "$tmp/r.db" 'SELECT count(*), count(DISTINCT idx) FROM sweep_points')" = "3360|3360" ]
check cmp <(rows "$tmp/one.db") <(rows "$tmp/r.db")

# a shard over 2 ranks + a shard in one process, merged = one run
"${mpi[@]}" -n 2 "$bin" sweep "${S[@]}" --shard 0/2 --db "$tmp/s0.db" --format csv >/dev/null
"$bin" sweep "${S[@]}" --shard 1/2 --db "$tmp/s1.db" --format csv >/dev/null
"$bin" merge "$tmp/s0.db" "$tmp/s1.db" -o "$tmp/all.db" >/dev/null
check cmp <(rows "$tmp/one.db") <(rows "$tmp/all.db")

# errors: rank 1's bad option or other files, reported once by rank 0 with the rank
"${mpi[@]}" -n 1 "$bin" sweep "${S[@]}" : -n 1 "$bin" sweep "${S[@]/xeon-e5-2697v3,xeon-gold-6148/pentium-4}" >"$tmp/e1.out" 2>"$tmp/e1.err"
check [ $? -ne 0 ]
check [ "$(grep -c '^dcsim:' "$tmp/e1.err")" = 1 ]
check grep -q "^dcsim: command line:[0-9]*: --cpu: unknown CPU profile 'pentium-4' .* (rank 1)$" "$tmp/e1.err"
check [ ! -s "$tmp/e1.out" ]
"${mpi[@]}" -n 1 "$bin" sweep "${S[@]}" : -n 1 "$bin" sweep "${S[@]/1,2,4,8,16/1,2}" >/dev/null 2>"$tmp/e2.err"
check [ $? -ne 0 ]
check grep -q "^dcsim: this rank's sweep is not rank 0's (definition or input files differ: .*); every rank must run the same command on the same files (rank 1)$" "$tmp/e2.err"
# a point beyond its thread law's measured cores carries its time cover over the wire:
# the widened band of the 192-core point comes back the same from rank 1
T=(workflows/bifft.xml --cpu epyc-9654 --nodes 1,2 --cores 14,all --quiet --format csv)
"$bin" sweep "${T[@]}" >"$tmp/cover-one.csv"
"${mpi[@]}" -n 2 "$bin" sweep "${T[@]}" >"$tmp/cover-two.csv"
check cmp "$tmp/cover-one.csv" "$tmp/cover-two.csv"

[ $fail = 0 ] || { echo "stderr of the error runs:"; cat "$tmp/e1.err" "$tmp/e2.err"; }
exit $fail
