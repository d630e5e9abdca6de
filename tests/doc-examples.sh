#!/usr/bin/env bash
# doc-examples.sh DCSIM — runs every ```sql block of doc/results.md against a fresh database of
# two runs; fails if a query errors or returns nothing.
set -euo pipefail
bin=$1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$bin" run workflows/alaro.xml --db "$tmp/r.db" > /dev/null
"$bin" run workflows/datacentre-day.xml --policy easy --db "$tmp/r.db" > /dev/null
awk '/^```sql$/{f=1; q=""; next} /^```$/{if(f){print q "\x1e"}; f=0; next} f{q=q $0 "\n"}' doc/results.md > "$tmp/queries"
n=0
while IFS= read -r -d $'\x1e' q; do
  q=${q#$'\n'}
  [ -n "${q//[$' \n']/}" ] || continue
  n=$((n + 1))
  out=$(sqlite3 "$tmp/r.db" "$q") || { echo "query $n failed:"; echo "$q"; exit 1; }
  [ -n "$out" ] || { echo "query $n returned nothing:"; echo "$q"; exit 1; }
  echo "query $n: $(echo "$out" | wc -l) row(s)"
done < "$tmp/queries"
[ "$n" -ge 6 ] || { echo "expected at least 6 queries, found $n"; exit 1; }
echo "$n passed, 0 failed"
