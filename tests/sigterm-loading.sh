#!/usr/bin/env bash
# sigterm-loading.sh DCSIM — SIGTERM while `dcsim run` or `dcsim sweep` loads its inputs ends it
# cleanly (doc/robustness.md): exit 143, one line on stderr, nothing on stdout, the --db database,
# a new --db path and the --tasks-csv file untouched, and loading stopped at the step it was
# signalled in. The signal comes from the test hook DCSIM_TEST_SIGTERM_AT_STEP=N (dcsim raises
# SIGTERM at itself at the N-th step of loading), so nothing depends on timing or on the machine's
# load. TMPDIR=/tmp for dcsim: the MPI build's sweep makes its OpenMPI session directory there.
set -u
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail=0
say() { echo "sigterm-loading: $*"; }
bad() { echo "sigterm-loading: FAIL: $*" >&2; fail=1; }
dcsim() { TMPDIR=/tmp "$bin" "$@"; }
wf=workflows/alaro.xml # 3 steps: the workflow read, the platform read, the workflow prepared
stopped="while loading its inputs; nothing was"

# stopped CMD MSG KEEP: CMD... (ending in --db) stopped by SIGTERM at each step of loading, into
# the database KEEP (which holds a finished result) and into a new path: exit 143, exactly MSG on
# stderr, nothing on stdout, KEEP's bytes unchanged, no new database, journal, or --tasks-csv file
stopped() {
  local -n cmd=$1
  local msg=$2 keep=$3 step db rc f
  cp "$tmp/$keep" "$tmp/keep.ref"
  for step in 1 2 3; do
    for db in "$keep" new.db; do
      DCSIM_TEST_SIGTERM_AT_STEP=$step dcsim "${cmd[@]}" "$tmp/$db" >"$tmp/out" 2>"$tmp/err"
      rc=$?
      local what="${cmd[0]}, step $step, --db $db"
      [ $rc -eq 143 ] || bad "$what: exit $rc, want 143"
      [ "$(cat "$tmp/err")" = "$msg" ] || bad "$what: stderr '$(cat "$tmp/err")', want '$msg'"
      [ -s "$tmp/out" ] && bad "$what: stdout: $(head -c 200 "$tmp/out")"
      cmp -s "$tmp/$keep" "$tmp/keep.ref" || bad "$what: $keep changed"
      for f in new.db new.db-wal "$keep-wal" "$keep-journal" tasks.csv; do
        [ -e "$tmp/$f" ] && bad "$what: $f was written"
      done
    done
  done
  say "${cmd[0]}: SIGTERM at steps 1-3 of loading: exit 143, '$msg', nothing written"
}

# dcsim run: a database holding one complete run
run=(run "$wf" --tasks-csv "$tmp/tasks.csv" --db)
dcsim run "$wf" --db "$tmp/run.db" --format json >"$tmp/ref.json" || bad "the uninterrupted run failed"
stopped run "dcsim: $wf: run stopped by SIGTERM $stopped simulated or saved" run.db

# dcsim sweep (its loading is the same loader's): the database of a finished sweep
sweep=(sweep "$wf" --nodes 1,2 --format csv --db)
dcsim sweep "$wf" --nodes 1,2 --db "$tmp/sweep.db" >/dev/null 2>"$tmp/err" ||
  bad "the uninterrupted sweep failed: $(cat "$tmp/err")"
stopped sweep "dcsim: $wf: sweep stopped by SIGTERM $stopped evaluated or saved" sweep.db

# step 1 is before the platform is read: a workflow whose platform is missing stops there with
# the signal's message (without the hook it fails on the platform)
sed 's|platform="platforms/alaro-hsw-gtx970.xml"|platform="no-such-platform.xml"|' "$wf" >"$tmp/wf.xml"
grep -q 'platform="no-such-platform.xml"' "$tmp/wf.xml" || bad "$wf names another platform"
dcsim run "$tmp/wf.xml" >/dev/null 2>"$tmp/err" && bad "a missing platform was not refused"
grep -q "no-such-platform.xml" "$tmp/err" || bad "missing platform: $(cat "$tmp/err")"
DCSIM_TEST_SIGTERM_AT_STEP=1 dcsim run "$tmp/wf.xml" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 143 ] &&
  [ "$(cat "$tmp/err")" = "dcsim: $tmp/wf.xml: run stopped by SIGTERM $stopped simulated or saved" ] ||
  bad "SIGTERM at step 1, platform missing: exit $rc, '$(cat "$tmp/err")'"
say "SIGTERM at step 1 stops loading before the platform is read"

# a step loading never reaches: the run is the uninterrupted one (the hook does nothing else)
DCSIM_TEST_SIGTERM_AT_STEP=4 dcsim run "$wf" --format json >"$tmp/late.json" 2>"$tmp/err" ||
  bad "step 4 of 3: exit $?, $(cat "$tmp/err")"
cmp -s <(grep -v '"run_id"' "$tmp/ref.json") <(grep -v '"run_id"' "$tmp/late.json") ||
  bad "step 4 of 3: output differs from the uninterrupted run's"

# a bad hook value is refused before anything is read (exit 2)
DCSIM_TEST_SIGTERM_AT_STEP=0 dcsim run "$wf" --db "$tmp/new.db" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ ! -e "$tmp/new.db" ] &&
  grep -q "^dcsim: DCSIM_TEST_SIGTERM_AT_STEP: '0': " "$tmp/err" ||
  bad "DCSIM_TEST_SIGTERM_AT_STEP=0: exit $rc, '$(cat "$tmp/err")'"
[ "$fail" = 0 ] && say "all cases pass"
exit "$fail"
