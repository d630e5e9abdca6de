#!/usr/bin/env bash
# tools/check-layers.sh [ROOT] — fails when a lower layer of src/ includes a higher one (doc/design.md).
#
# Layers, lowest first: util < input < model < {calib, sim} < sweep < output < cli; calib and sim
# do not know each other. A file's layer is its folder under src/. A layer may hold job
# subfolders (src/calib/fit/...): within calib, fit | sample < import < measure (fit and sample do
# not know each other); a job's file includes no header of a higher job of its layer, and calls no
# function defined in a higher job (a call through calib/internal.h, which every job includes).
# Where a job's README.md gives its files' order ("Files, lowest first: a.c b.c < c.c"), a file
# calls functions of lower files of its folder only (src/calib/measure: no circle between them). Every folder
# under src/ that holds sources has a README.md (its one job). A public header
# include/dcsim/X.h belongs to the folder that holds X.c; a header without a .c of its own
# (scenario_types.h) to the module named by its name up to the last '_' (scenario), repeatedly.
# A private header "F/internal.h" belongs to folder F. Both the sources and the public headers
# are checked. Prints every violation as FILE:LINE: what is wrong; exit 1 if there is any.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
shopt -s nullglob
srcs=(src/*/*.c src/*/*.h src/*/*/*.c src/*/*/*.h)
hdrs=(include/dcsim/*.h)
# one pass: the module map (every src/*/*.c), then every quoted #include of every file
{
  for c in src/*/*.c src/*/*/*.c; do echo "MOD ${c}"; done
  for d in src/*/ src/*/*/; do
    if compgen -G "${d}*.c" >/dev/null && [ ! -f "${d}README.md" ]; then echo "NOREADME ${d%/}"; fi
  done
  grep -H -n -E '^[[:space:]]*#[[:space:]]*include[[:space:]]+"' "${srcs[@]}" "${hdrs[@]}" || true
  for h in "${hdrs[@]}"; do echo "HDR ${h}"; done
  # the public API (include/dcsim) exposes no sqlite3 or libxml2 type and declares no internal
  # function; a header of src/ declares only internal functions (doc/design.md, "Public and internal")
  grep -H -n -E '\bsqlite3(_stmt)?\b|\bxml(Node|Doc|Char)\b|<libxml/|<sqlite3\.h>' "${hdrs[@]}" | cut -d: -f1,2 | sed 's/^/EXPOSES /' || true
  grep -H -n -E '^[A-Za-z_].*[ *]dcsim__[A-Za-z0-9_]+\(' "${hdrs[@]}" | cut -d: -f1,2 | sed 's/^/PUBDECL /' || true
  grep -H -n -E '^[A-Za-z_].*[ *]dcsim_[A-Za-z0-9][A-Za-z0-9_]*\(' src/*/*.h src/*/*/*.h | cut -d: -f1,2 | sed 's/^/INTDECL /' || true
  # process-wide state of the linked libraries is set up in one place, dcsim_lib_init (dcsim/lib.h)
  grep -H -n -E '\b(gsl_set_error_handler(_off)?|xmlInitParser|sqlite3_initialize|sqlite3_config|setlocale|xmlSetGenericErrorFunc|xmlSetStructuredErrorFunc|glp_term_hook)\(' "${srcs[@]}" | grep -v '^src/util/lib\.c:' | cut -d: -f1,2 | sed 's/^/GLOBAL /' || true
  # the order of the files of a job folder, where its README.md gives one ("Files, lowest first:
  # a.c b.c < c.c < d.c"): a file calls functions of lower files only, so they form a chain
  for r in src/calib/*/README.md; do
    o=$(sed -n 's/^Files, lowest first: //p' "$r")
    if [ -n "$o" ]; then echo "ORDER ${r%/README.md} $o"; fi
  done
  # calls across calib's job folders: every function defined in a job (DEF), every call (CALL)
  for c in src/calib/*/*.c; do
    awk -v f="$c" '/^[A-Za-z_][^;(=]*[ *]dcsim_[A-Za-z0-9_]+\(/ && !/^static / {
      n = $0; sub(/\(.*/, "", n); sub(/.*[ *]/, "", n); print "DEF " f " " n }' "$c"
  done
  grep -H -n -o -E '\<dcsim_[A-Za-z0-9_]+\(' src/calib/*/*.c | sed 's/^/CALL /' || true
} | awk -v nsrc="$(ls src/*/*.c src/*/*/*.c | wc -l)" -v nhdr="${#hdrs[@]}" '
function base(p,  b) { b = p; sub(/.*\//, "", b); sub(/\.[ch]$/, "", b); return b }
function module_of(m) { # the module of name m, or "" (strip "_suffix" until a module matches)
  while (1) {
    if (m in mod) return m
    if (index(m, "_") == 0) return ""
    sub(/_[^_]*$/, "", m)
  }
}
function layer_of(m) { m = module_of(m); return m == "" ? "" : mod[m] }
function job_of(m) { m = module_of(m); return m == "" ? "" : job[m] }
function job_ok(a, b) { # jobs a (includer) and b (included) of one layer
  if (a == "" || b == "" || a == b) return 1
  if ((a == "fit" && b == "sample") || (a == "sample" && b == "fit")) return 0
  return jrank[b] <= jrank[a]
}
function allowed(a, b) {
  if (a == b) return 1
  if ((a == "calib" && b == "sim") || (a == "sim" && b == "calib")) return 0
  return rank[b] <= rank[a]
}
BEGIN {
  split("util input model calib sim sweep output cli", names, " ")
  split("0 1 2 3 3 4 5 6", ranks, " ")
  for (i = 1; i <= 8; i++) rank[names[i]] = ranks[i]
  order = "util < input < model < calib|sim < sweep < output < cli"
  split("fit sample import measure", jnames, " ")
  split("0 0 1 2", jranks, " ")
  for (i = 1; i <= 4; i++) jrank[jnames[i]] = jranks[i]
  jorder = "calib: fit|sample < import < measure"
}
/^EXPOSES / { printf "%s: a public header exposes a library type (sqlite3, libxml2): the header belongs in src/\n", $2; bad = 1; next }
/^PUBDECL / { printf "%s: a public header declares an internal function (dcsim__*)\n", $2; bad = 1; next }
/^INTDECL / { printf "%s: a header of src/ declares a public name (internal functions are dcsim__*)\n", $2; bad = 1; next }
/^GLOBAL / { printf "%s: library code changes process-wide state: only dcsim_lib_init (src/util/lib.c) may\n", $2; bad = 1; next }
/^DEF / { n = split($2, parts, "/"); defjob[$3] = parts[3]; deffile[$3] = $2; next }
/^ORDER / { # ORDER DIR a.c b.c < c.c < ...: the rank of each file in its folder
  d = $2; rk = 0; ordered[d] = 1; ordtext[d] = $3
  for (i = 4; i <= NF; i++) ordtext[d] = ordtext[d] " " $i
  for (i = 3; i <= NF; i++) {
    if ($i == "<") { rk++; continue }
    frank[d "/" $i] = rk
  }
  next
}
/^CALL / { # CALL FILE:LINE:name(
  split($2, cp, ":"); n = split(cp[1], parts, "/"); fn = cp[3]; sub(/\($/, "", fn)
  if ((fn in defjob) && !job_ok(parts[3], defjob[fn])) {
    printf "%s:%s: job '\''calib/%s'\'' calls %s of job '\''calib/%s'\'' (%s)\n", cp[1], cp[2],
           parts[3], fn, defjob[fn], jorder; bad = 1
  }
  d = cp[1]; sub(/\/[^\/]*$/, "", d); df = (fn in deffile) ? deffile[fn] : ""
  if ((d in ordered) && df != "" && df != cp[1] && index(df, d "/") == 1) {
    if (!(cp[1] in frank) || !(df in frank))
      printf "%s:1: %s is not in the file order of %s/README.md\n", (cp[1] in frank) ? df : cp[1],
             (cp[1] in frank) ? df : cp[1], d
    else if (frank[df] >= frank[cp[1]])
      printf "%s:%s: calls %s of %s, which is not lower in the file order of %s/README.md (%s)\n",
             cp[1], cp[2], fn, df, d, ordtext[d]
    else next
    bad = 1
  }
  next
}
/^NOREADME / { printf "%s:1: a source folder without README.md (its one job)\n", $2; bad = 1; next }
/^MOD / {
  f = $2; n = split(f, parts, "/"); d = parts[2]
  if (!(d in rank)) { printf "%s:1: src/%s is not a known layer\n", f, d; bad = 1; next }
  j = n == 4 ? parts[3] : ""
  if (j != "" && !(j in jrank)) { printf "%s:1: src/%s/%s is not a known job\n", f, d, j; bad = 1; next }
  mod[base(f)] = d; job[base(f)] = j; next
}
/^HDR / {
  h = $2
  if (layer_of(base(h)) == "") { printf "%s:1: public header of no module (no src/*/%s.c)\n", h, base(h); bad = 1 }
  next
}
{
  # FILE:LINE:#include "x"
  file = $0; sub(/:.*/, "", file)
  rest = substr($0, length(file) + 2); line = rest; sub(/:.*/, "", line)
  inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*/, "", inc)
  if (file ~ /^src\//) { n = split(file, parts, "/"); from = parts[2]; fjob = n == 4 ? parts[3] : "" }
  else { from = layer_of(base(file)); if (from == "") next; fjob = job_of(base(file)) }
  tjob = ""
  if (inc ~ /^dcsim\/.*\.h$/) { to = layer_of(base(inc)); tjob = job_of(base(inc)) }
  else if (inc ~ /^[a-z]+\/.*\.h$/) {
    if (file ~ /^include\//) { printf "%s:%s: public header includes \"%s\", a header of src/ (internal)\n", file, line, inc; bad = 1; next }
    n = split(inc, parts, "/"); to = parts[1]; tjob = n == 3 ? parts[2] : ""
    if (!(to in rank)) next
  }
  else next
  if (to == "") { printf "%s:%s: includes \"%s\", which belongs to no layer (no src/*/%s.c)\n", file, line, inc, base(inc); bad = 1 }
  else if (!allowed(from, to)) { printf "%s:%s: layer '\''%s'\'' includes \"%s\" of layer '\''%s'\'' (%s)\n", file, line, from, inc, to, order; bad = 1 }
  else if (from == to && !job_ok(fjob, tjob)) { printf "%s:%s: job '\''%s/%s'\'' includes \"%s\" of job '\''%s/%s'\'' (%s)\n", file, line, from, fjob, inc, to, tjob, jorder; bad = 1 }
}
END {
  if (!bad) printf "layers: %d sources and %d headers respect %s\n", nsrc, nhdr, order
  exit bad
}'
