#!/usr/bin/env bash
# run-golden.sh DCSIM CASE.cmd — runs the command line in CASE.cmd (with `dcsim` meaning the built
# binary) from the source root and compares stdout+stderr+exit status with CASE.out.
# Set DCSIM_UPDATE_GOLDEN=1 to rewrite the .out file instead of comparing.
# The git commit dcsim was built from (dcsim/repro.h: 40 hex digits, maybe "-dirty", or "unknown")
# changes with every commit and is written as COMMIT; the version and every input's SHA-256 stay.
# A leading environment assignment in CASE.cmd (`DCSIM_DATA=. dcsim model ...`) applies to that
# command only; DCSIM_DATA from the caller's environment is cleared so that the .cmd decides.
set -u
unset DCSIM_DATA
bin=$1; case_file=$2; want=${case_file%.cmd}.out
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cmd=$(grep -v '^#' "$case_file")
export DCSIM_BIN=$bin TMPDIR=$tmp
( eval "${cmd//dcsim /\"\$DCSIM_BIN\" }" ) >"$tmp/stdout" 2>"$tmp/stderr"
rc=$?
{ cat "$tmp/stdout"; sed 's/^/stderr: /' "$tmp/stderr"; echo "exit $rc"; } |
  sed -E -e 's/\b[0-9a-f]{40}(-dirty)?\b/COMMIT/g' -e 's/(commit |"commit": ")unknown/\1COMMIT/g' >"$tmp/got"
if [ "${DCSIM_UPDATE_GOLDEN:-0}" = 1 ]; then cp "$tmp/got" "$want"; exit 0; fi
if ! diff -u "$want" "$tmp/got"; then echo "golden mismatch: $case_file" >&2; exit 1; fi
