#!/usr/bin/env bash
# bounds.sh [DCSIM] — the hostile inputs of doc/robustness.md, generated here (never checked in), each run
# under /usr/bin/time with a 60-s timeout and a 6 GiB address-space limit: exit status, wall time
# and peak resident memory per reproducer (doc/robustness.md, "One budget"). DCSIM defaults to
# build/dcsim; run from the source root; BOUNDS_ONLY=REGEX runs only the reproducers it matches. Needs python3 and about 30 MB of temporary disk.
set -uo pipefail
cd "$(dirname "$0")/../.."
dcsim=$(readlink -f "${1:-build/dcsim}")
root=$PWD
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
python3 - "$d" "$root" <<'PY'
import gzip, os, sys, zlib
d, root = sys.argv[1], sys.argv[2]
def gz(data, reps=1):
    m = gzip.compress(data, 9)
    return m * reps  # concatenated gzip members: one stream for zlib
def write(name, b):
    open(os.path.join(d, name), 'wb').write(b)
job = b"    1      0  -1   100   1  -1 -1   1   100 -1 1 1 1 1 1 -1 -1 -1\n"
hdr = b"; MaxNodes: 4\n; MaxProcs: 4\n"
# 1. header bomb: "; Key: value" lines in concatenated gzip members, ~9.8 MB
block = b"; Note: " + b"x" * 1000 + b"\n"
write("header-bomb.swf.gz", gz(block * 65536, 1) * 150)
# 1b. 5e7 valid jobs (~6.8 MB)
write("jobs-5e7.swf.gz", gz(hdr) + gz(job * 1000000) * 50)
# 5. status field 3e9 (undefined behaviour when cast to int)
write("status.swf", hdr + b"    1      0  -1   100   1  -1 -1   1   100 -1 3000000000 1 1 1 1 -1 -1 -1\n")
# 5b. one 2 GiB line; 5c. 2^31 + 1 blank lines
write("long-line.swf.gz", gz(b"1" * (1 << 26)) * 32 + gz(b"\n"))
write("blank-lines.swf.gz", gz(b"\n" * (1 << 26)) * 33)
plat = os.path.join(root, "workflows/platforms/centre.xml")
bif = '<task name="%s" dwarf="bifft" case="200x180_20" device="cpu" group="hsw"/>'
def wf(name, body):
    write(name, ('<?xml version="1.0"?>\n<workflow name="w" source="bounds reproducer" platform="%s">%s</workflow>\n' % (plat, body)).encode())
# 2. 1e9 and 1e10 tasks: steps of two BiFFT tasks x count x members
wf("steps2.xml", '<steps count="100000" overlap="false">%s%s</steps>' % (bif % "a", bif % "b"))
for n, c in (("1e9", 100), ("1e10", 1000)):
    write("workload-%s.xml" % n, ('<?xml version="1.0"?>\n<workload name="w" source="bounds reproducer" platform="%s"><submit workflow="steps2.xml" at-s="0" count="%d" interval-s="60" members="50"/></workload>\n' % (plat, c)).encode())
# 3. 100 tasks x 49000 overlapping steps = 4.9e8 edges; 4e7 steps of one task
wf("edges-4.9e8.xml", '<steps count="49000" overlap="true">%s</steps>' % "".join(bif % ("t%d" % i) for i in range(100)))
wf("steps-4e7.xml", '<steps count="40000000" overlap="false">%s</steps>' % (bif % "a"))
# 8. validate: freq="NaN" and an unknown label
wf("freq-nan.xml", bif.replace("/>", ' freq="NaN"/>') % "a")
wf("freq-label.xml", bif.replace("/>", ' freq="warp"/>') % "a")
PY
mkfifo "$d/fifo.xml"
mkdir "$d/dir.xml"
sqlite3 "$d/foreign.db" "CREATE TABLE sweeps(id INTEGER PRIMARY KEY, owner TEXT); INSERT INTO sweeps VALUES (1, 'another program');" 2>/dev/null ||
  python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('CREATE TABLE sweeps(id INTEGER PRIMARY KEY, owner TEXT)'); c.commit()" "$d/foreign.db"
sweep="workflows/bifft.xml --cpu xeon-e5-2697v3 --nodes 1,2"
printf '%-34s %5s %8s %10s  %s\n' reproducer exit "wall s" "peak MiB" "first line of stderr"
one() {
  local name=$1
  shift
  if [ -n "${BOUNDS_ONLY:-}" ] && ! [[ $name =~ $BOUNDS_ONLY ]]; then return; fi
  local out
  out=$( (ulimit -v 6291456; cd "$d" && timeout -k 5 60 /usr/bin/time -f 'TIME %e %M' "$@" 2>&1 >/dev/null) )
  local rc=$?
  local t m
  read -r t m < <(sed -n 's/^TIME //p' <<<"$out" | tail -1)
  local msg
  msg=$(grep -v '^TIME ' <<<"$out" | grep -v '^Command ' | head -1 | cut -c1-150)
  printf '%-34s %5s %8s %10s  %s\n' "$name" "$rc" "${t:--}" "$(awk -v k="${m:-0}" 'BEGIN { printf "%.0f", k / 1024 }')" "$msg"
}
one "swf header bomb (9.8 MB gz)" "$dcsim" run header-bomb.swf.gz
one "swf 5e7 jobs (6.8 MB gz)" "$dcsim" run jobs-5e7.swf.gz
one "swf 5e7 jobs, validate" "$dcsim" validate jobs-5e7.swf.gz
one "swf status 3e9" "$dcsim" run status.swf
one "swf 2 GiB line" "$dcsim" run long-line.swf.gz
one "swf 2^31 blank lines" "$dcsim" run blank-lines.swf.gz
one "workload 1e9 tasks, run" "$dcsim" run workload-1e9.xml
one "workload 1e9 tasks, sweep" "$dcsim" sweep workload-1e9.xml --cpu xeon-e5-2697v3 --nodes 1,2
one "workload 1e10 tasks, sweep" "$dcsim" sweep workload-1e10.xml --cpu xeon-e5-2697v3 --nodes 1,2
one "workflow 4.9e8 edges" "$dcsim" run edges-4.9e8.xml
one "workflow 4e7 steps" "$dcsim" run steps-4e7.xml
one "workflow 4e7 steps, --max-memory 4G" "$dcsim" run steps-4e7.xml --max-memory 4G
one "sweep --threads 100000" "$dcsim" sweep "$root"/$sweep --threads 100000
one "sweep --threads 30000" "$dcsim" sweep "$root"/$sweep --threads 30000
one "FIFO as workflow, run" "$dcsim" run fifo.xml
one "FIFO as workflow, validate" "$dcsim" validate fifo.xml
one "/dev/zero as workflow" "$dcsim" run /dev/zero
one "directory as workflow" "$dcsim" run dir.xml
one "--db another program's database" "$dcsim" sweep "$root"/$sweep --db foreign.db
one "validate freq=NaN" "$dcsim" validate freq-nan.xml
one "validate freq=warp" "$dcsim" validate freq-label.xml
