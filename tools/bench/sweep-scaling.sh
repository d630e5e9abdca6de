#!/usr/bin/env bash
# sweep-scaling.sh MPI_BUILD_DIR [REPEAT] — wall time of one sweep (the whole `dcsim sweep` command:
# start, inputs, evaluation, output) on 1 and 2 threads, 1 and 2 MPI ranks, and 2 shards run side by
# side then merged; best of REPEAT (default 3). Every run must print the same bytes. Run from the
# source root after tools/setup.sh and an MPI build:
#   cmake -S . -B build-mpi -DDCSIM_MPI=ON && cmake --build build-mpi -j
#   tools/bench/sweep-scaling.sh build-mpi 5
# The sweep: a data-centre day (workflows/datacentre-day.xml: 42 jobs, 8,400 tasks) for 2 CPUs x
# 3 GPUs x 1-64 nodes x 1-4 cores = 1536 points, all feasible, of different costs.
set -euo pipefail
mpibuild=${1:?usage: sweep-scaling.sh MPI_BUILD_DIR [REPEAT]}
rep=${2:-3}
one=build/dcsim
mpi=$mpibuild/dcsim
mpirun=(mpirun --oversubscribe)
[ "$(id -u)" = 0 ] && mpirun+=(--allow-run-as-root)
S=(workflows/datacentre-day.xml --cpu xeon-e5-2697v3,xeon-gold-6148 --gpu geforce-gtx970,tesla-k20m,tesla-m2070q
   --nodes 1-64 --cores 1-4 --freq nominal
   --format csv --quiet)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

best() { # best() LABEL CMD... : best wall time of REPEAT runs, output checked against the reference
  local label=$1 b=999999 t0 t1
  shift
  for _ in $(seq "$rep"); do
    rm -f "$tmp"/*.db "$tmp"/*.db-*
    t0=$(date +%s.%N)
    "$@" >"$tmp/out"
    t1=$(date +%s.%N)
    b=$(awk -v a="$t0" -v z="$t1" -v b="$b" 'BEGIN { t = z - a; print (t < b ? t : b) }')
    if [ -s "$tmp/ref" ] && ! cmp -s "$tmp/ref" "$tmp/out"; then echo "$label: output differs" >&2; exit 1; fi
  done
  printf '| %-58s | %6.2f s |\n' "$label" "$b"
}

shards() { # two shards side by side, merged, the front printed from the merged database
  "$one" sweep "${S[@]}" --threads 1 --shard 0/2 --db "$tmp/s0.db" >/dev/null 2>&1 &
  "$one" sweep "${S[@]}" --threads 1 --shard 1/2 --db "$tmp/s1.db" >/dev/null 2>&1
  wait
  "$one" merge "$tmp/s0.db" "$tmp/s1.db" -o "$tmp/all.db" >/dev/null
  "$one" sweep "${S[@]}" --db "$tmp/all.db"
}

"$one" sweep "${S[@]}" --threads 1 >"$tmp/ref"
echo "| configuration | wall time (best of $rep) |"
echo "|---|---|"
best "default build, 1 thread" "$one" sweep "${S[@]}" --threads 1
best "default build, 2 threads" "$one" sweep "${S[@]}" --threads 2
best "MPI build, mpirun -np 1, 1 thread" "${mpirun[@]}" -np 1 "$mpi" sweep "${S[@]}" --threads 1
best "MPI build, mpirun -np 2, 1 thread per rank" "${mpirun[@]}" -np 2 "$mpi" sweep "${S[@]}" --threads 1
best "MPI build, mpirun -np 1 --bind-to none, 2 threads" "${mpirun[@]}" -np 1 --bind-to none "$mpi" sweep "${S[@]}" --threads 2
best "MPI build, mpirun -np 1 (bound to a core), 2 threads" "${mpirun[@]}" -np 1 "$mpi" sweep "${S[@]}" --threads 2
best "MPI build, mpirun -np 2 --bind-to none, 2 threads per rank" "${mpirun[@]}" -np 2 --bind-to none "$mpi" sweep "${S[@]}" --threads 2
best "2 shards side by side (1 thread each) + merge + output" shards
