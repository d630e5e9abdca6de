#!/usr/bin/env bash
# readme-commands.sh DCSIM — runs every dcsim command line of README.md as a reader would paste it
#: the indented lines that start with `dcsim`, `build/dcsim` or `source <(dcsim`, joined
# over their trailing backslashes, the part before ` && ` dropped (tools/setup.sh), comments cut.
# They run in a scratch folder that links every top-level entry of the source tree, so the files
# they write (pareto.png, sweep.db, /tmp/... made scratch paths) land there; `dcsim` is DCSIM.
# Fails on the first command that exits non-zero, naming it (4, "results written but the run missed
# its --deadline-s", doc/cli.md, is an answer and passes, and so is `dcsim bench`'s refusal to
# write a profile on a busy machine); at least 20 commands must be found.
set -euo pipefail
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/w" "$tmp/bin"
for e in "$root"/*; do ln -s "$e" "$tmp/w/$(basename "$e")"; done
rm -f "$tmp/w/build"; mkdir "$tmp/w/build"; ln -s "$bin" "$tmp/w/build/dcsim"; ln -s "$bin" "$tmp/bin/dcsim"
awk '
  /^    / { line = substr($0, 5); sub(/^ +/, "", line)
            if (cont) { cmd = cmd " " line } else { cmd = line }
            sub(/^tools\/setup\.sh && /, "", cmd)
            if (cmd ~ /\\$/) { sub(/\\$/, "", cmd); cont = 1; next }
            cont = 0
            if (cmd ~ /^(build\/)?dcsim / || cmd ~ /^source <\(dcsim /) {
              sub(/[ ]+# .*$/, "", cmd); print cmd } next }
  { cont = 0 }' "$root/README.md" > "$tmp/cmds"
n=0
while IFS= read -r c; do
  n=$((n + 1))
  c=${c//\/tmp\//$tmp\/}
  rc=0; (cd "$tmp/w" && PATH="$tmp/bin:$PATH" bash -c "$c" > "$tmp/out" 2>&1) || rc=$?
  # a measurement of this machine (dcsim bench without --from) may refuse on a busy machine: exit 1
  # with "bench refused:" and its reason is the documented answer (README, doc/calibration.md)
  refused=0; [ "$rc" -eq 1 ] && [[ $c == *"dcsim bench"* ]] && grep -q '^dcsim: bench refused:' "$tmp/out" && refused=1
  if [ "$rc" -ne 0 ] && [ "$refused" = 0 ] && ! { [ "$rc" -eq 4 ] && [[ $c == *--deadline-s* ]]; }; then
    echo "README command $n failed (exit $rc): $c"; tail -5 "$tmp/out"; exit 1
  fi
  echo "ok $n: $c"
done < "$tmp/cmds"
[ "$n" -ge 20 ] || { echo "expected at least 20 README commands, found $n"; exit 1; }
echo "$n README commands ran"
