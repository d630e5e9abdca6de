#!/usr/bin/env bash
# crash-kill.sh DCSIM — nothing lost (doc/robustness.md). Kills `dcsim run --db` and `dcsim sweep --db`
# with SIGKILL at pseudo-random moments (fixed seed, spread over the measured length of an
# uninterrupted run) and checks after every kill that the database opens, passes
# `PRAGMA integrity_check`, and holds only complete runs (summary filled, every task, workflow and node
# row there) and complete sweep points; then that SIGTERM/SIGINT stop dcsim cleanly (exit 128+N, a
# message saying what was saved, exactly that in the database), and that resuming the sweep at 2
# threads gives the bytes of an uninterrupted 1-thread sweep.
set -u
bin=$1
RANDOM=20240607                      # fixed seed: the same kill moments every time (relative to T)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
say() { echo "crash-kill: $*"; }
bad() { echo "crash-kill: FAIL: $*" >&2; fail=1; }
q() { sqlite3 -batch -noheader "$1" "$2" 2>&1; }
now() { date +%s.%N; }
# a pseudo-random moment in [lo, hi] fractions of T seconds
moment() { awk -v t="$1" -v lo="$2" -v hi="$3" -v r="$RANDOM" 'BEGIN { printf "%.3f", t * (lo + (hi - lo) * r / 32767) }'; }

# ---- dcsim run --db -------------------------------------------------------------------------------
run_args=(run tests/data/crash/long-run.xml --format json)
check_run_db() { # DB: every run complete
  local db=$1 what=$2
  [ -f "$db" ] || return 0
  local ic; ic=$(q "$db" "PRAGMA integrity_check;")
  [ "$ic" = ok ] || { bad "$what: integrity_check: $ic"; return; }
  local incomplete
  incomplete=$(q "$db" "SELECT count(*) FROM runs r WHERE r.time_to_solution_s IS NULL OR r.energy_to_solution_j IS NULL
    OR r.tasks != (SELECT count(*) FROM tasks t WHERE t.run_id = r.id)
    OR r.jobs != (SELECT count(*) FROM workflows w WHERE w.run_id = r.id)
    OR r.nodes != (SELECT count(*) FROM nodes n WHERE n.run_id = r.id)
    OR (SELECT count(*) FROM inputs i WHERE i.run_id = r.id) = 0
    OR (SELECT count(*) FROM power p WHERE p.run_id = r.id) = 0;")
  [ "$incomplete" = 0 ] || bad "$what: $incomplete incomplete run(s)"
  local orphans
  orphans=$(q "$db" "SELECT (SELECT count(*) FROM tasks WHERE run_id NOT IN (SELECT id FROM runs))
                          + (SELECT count(*) FROM power WHERE run_id NOT IN (SELECT id FROM runs));")
  [ "$orphans" = 0 ] || bad "$what: $orphans row(s) of no run"
}

db=$tmp/run.db
t0=$(now)
"$bin" "${run_args[@]}" --db "$db" >"$tmp/ref-run.json" || bad "uninterrupted run failed"
T=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
say "uninterrupted run: $T s, $(q "$db" 'SELECT tasks FROM runs') tasks"
check_run_db "$db" "uninterrupted run"
ref=$(q "$db" "SELECT time_to_solution_s, energy_to_solution_j, tasks, events FROM runs WHERE id = 1")

# killed runs into the same file: run 1 stays intact, no partial run ever appears
for k in 1 2 3 4 5; do
  at=$(moment "$T" 0.02 0.98)
  "$bin" "${run_args[@]}" --db "$db" >/dev/null 2>&1 & pid=$!
  sleep "$at"; kill -KILL $pid 2>/dev/null; wait $pid 2>/dev/null; rc=$?
  check_run_db "$db" "run killed at $at s (exit $rc)"
  [ "$(q "$db" "SELECT time_to_solution_s, energy_to_solution_j, tasks, events FROM runs WHERE id = 1")" = "$ref" ] ||
    bad "run killed at $at s: run 1 changed"
  say "run killed at $at s (exit $rc): $(q "$db" 'SELECT count(*) FROM runs') complete run(s), database consistent"
done
"$bin" "${run_args[@]}" --db "$db" >"$tmp/run.json" || bad "run after the kills failed"
check_run_db "$db" "run after the kills"
# the last run is the uninterrupted one, bit for bit
b=$(q "$db" "SELECT time_to_solution_s, energy_to_solution_j, tasks, events FROM runs ORDER BY id DESC LIMIT 1")
[ "$ref" = "$b" ] || bad "run after the kills: '$b', uninterrupted '$ref'"
grep -v '"run_id"' "$tmp/ref-run.json" >"$tmp/a.json"; grep -v '"run_id"' "$tmp/run.json" >"$tmp/b.json"
cmp -s "$tmp/a.json" "$tmp/b.json" || bad "run output differs from the uninterrupted run's"

# SIGINT: the engine stops, the run's transaction is rolled back, exit 130
runs_before=$(q "$db" "SELECT count(*) FROM runs")
"$bin" "${run_args[@]}" --db "$db" >/dev/null 2>"$tmp/int.err" & pid=$!
# the -wal file appears when dcsim opens the database, after it has installed its handler
for _ in $(seq 500); do [ -f "$db-wal" ] && break; sleep 0.01; done
sleep "$(moment "$T" 0.1 0.3)"
if kill -INT $pid 2>/dev/null; then
  wait $pid; rc=$?
  if [ $rc -eq 0 ]; then
    say "note: the run ended before SIGINT reached it"
  else
    [ $rc -eq 130 ] || bad "SIGINT: exit $rc, want 130"
    grep -q "^dcsim: run stopped by SIGINT (interrupted at simulated time .*); nothing was saved to $db\$" "$tmp/int.err" ||
      bad "SIGINT message: $(cat "$tmp/int.err")"
    [ "$(q "$db" "SELECT count(*) FROM runs")" = "$runs_before" ] || bad "SIGINT: a run row was left behind"
    check_run_db "$db" "run stopped by SIGINT"
    say "run stopped by SIGINT: exit 130, '$(cut -c1-90 "$tmp/int.err")...', nothing saved"
  fi
else
  wait $pid; say "note: the run ended before SIGINT could be sent"
fi

# ---- dcsim sweep --db -----------------------------------------------------------------------------
sweep_args=(sweep tests/data/crash/sweep.xml --cpu xeon-e5-2697v3 --gpu geforce-gtx970,tesla-k20m,tesla-m2070q
            --nodes 1,2,4,8,16 --cores 1-4 --freq 1.2,1.4,1.6,1.8,2.0,2.4,2.6,turbo --format json --quiet)
N=480
check_sweep_db() {
  local db=$1 what=$2
  [ -f "$db" ] || return 0
  local ic; ic=$(q "$db" "PRAGMA integrity_check;")
  [ "$ic" = ok ] || { bad "$what: integrity_check: $ic"; return; }
  local r
  r=$(q "$db" "SELECT count(*) FROM sweep_points p JOIN sweeps s ON s.id = p.sweep_id WHERE p.feasible IS NULL
    OR (p.feasible = 1 AND (p.time_s IS NULL OR p.energy_j IS NULL OR p.time_s <= 0))
    OR (p.feasible = 0 AND (p.reason IS NULL OR p.reason = '')) OR p.idx < 0 OR p.idx >= s.n_points;")
  [ "$r" = 0 ] || bad "$what: $r incomplete point(s)"
  r=$(q "$db" "SELECT count(*) - count(DISTINCT sweep_id || ':' || idx) FROM sweep_points;")
  [ "$r" = 0 ] || bad "$what: $r point(s) stored twice"
  r=$(q "$db" "SELECT count(*) FROM sweeps;")
  [ "$r" -le 1 ] || bad "$what: $r sweeps, want 1"
}
points() { [ -f "$1" ] && q "$1" "SELECT count(*) FROM sweep_points" || echo 0; }

"$bin" "${sweep_args[@]}" --threads 1 >"$tmp/ref-sweep.json" || bad "uninterrupted sweep failed"
t0=$(now)
"$bin" "${sweep_args[@]}" --threads 2 --db "$tmp/timing.db" >/dev/null || bad "uninterrupted sweep failed"
T=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
say "uninterrupted sweep: $T s at 2 threads with --db, $N points"

db=$tmp/sweep.db
# SIGTERM: the points in progress are committed, the message says how many, exit 143
"$bin" "${sweep_args[@]}" --threads 2 --db "$db" >/dev/null 2>"$tmp/term.err" & pid=$!
# a new batch committed: dcsim is sweeping, with its handler installed
before=$(points "$db")
for _ in $(seq 500); do [ "$(points "$db")" -gt "$before" ] && break; sleep 0.01; done
sleep "$(moment "$T" 0.02 0.1)"
if kill -TERM $pid 2>/dev/null; then
  wait $pid; rc=$?
  if [ $rc -eq 0 ]; then
    say "note: the sweep ended before SIGTERM reached it"
  else
    [ $rc -eq 143 ] || bad "SIGTERM: exit $rc, want 143"
    p=$(points "$db")
    grep -q "^dcsim: sweep interrupted by SIGTERM: $p of $N points saved in $db; rerun the same command to resume\$" "$tmp/term.err" ||
      bad "SIGTERM message (database holds $p points): $(cat "$tmp/term.err")"
    check_sweep_db "$db" "sweep stopped by SIGTERM"
    say "sweep stopped by SIGTERM: exit 143, '$(cat "$tmp/term.err")'"
  fi
else
  wait $pid; say "note: the sweep ended before SIGTERM could be sent"
fi

last=$(points "$db")
for k in 1 2 3 4 5 6; do
  # within what is left to do: a resumed sweep evaluates only the points not stored yet
  at=$(moment "$(awk -v t="$T" -v p="$last" -v n=$N 'BEGIN { printf "%.3f", t * (n - p) / n + 0.05 }')" 0.2 0.9)
  "$bin" "${sweep_args[@]}" --threads 2 --db "$db" >/dev/null 2>&1 & pid=$!
  sleep "$at"; kill -KILL $pid 2>/dev/null; wait $pid 2>/dev/null; rc=$?
  check_sweep_db "$db" "sweep killed at $at s"
  p=$(points "$db")
  [ "$p" -ge "$last" ] || bad "sweep killed at $at s: $p points stored, $last before"
  last=$p
  say "sweep killed at $at s (exit $rc): $p of $N points stored, database consistent"
done

# resume to the end at 2 threads: the bytes of the uninterrupted 1-thread sweep
"$bin" "${sweep_args[@]}" --threads 2 --db "$db" >"$tmp/resumed.json" || bad "resumed sweep failed"
check_sweep_db "$db" "resumed sweep"
[ "$(points "$db")" = $N ] || bad "resumed sweep: $(points "$db") points stored, want $N"
cmp -s "$tmp/ref-sweep.json" "$tmp/resumed.json" || bad "resumed sweep output differs from the uninterrupted one"
say "resumed sweep (2 threads) = uninterrupted sweep (1 thread), $N points, byte for byte"

[ $fail = 0 ] && say "ok"
exit $fail
