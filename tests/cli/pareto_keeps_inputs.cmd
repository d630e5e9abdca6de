# Issue 26, item 10: `dcsim pareto FILE.csv` (or .json) keeps what made the sweep — its hash and its
# input files with their SHA-256, read from the file's comment lines (or "dcsim" object) — after
# the file itself.
dcsim sweep workflows/bifft.xml --nodes 1,2 --quiet --format csv > $TMPDIR/s.csv && dcsim pareto $TMPDIR/s.csv --format csv | grep '^#' | grep -v '^# dcsim' | sed 's/ [0-9a-f]\{64\} s.csv$/ HASH s.csv/'
dcsim sweep workflows/bifft.xml --nodes 1,2 --quiet --format json > $TMPDIR/s.json && dcsim pareto $TMPDIR/s.json --format json | grep -o '"sweep_sha256":"[0-9a-f]*"'
