# Issue 40 item 1: --sort orders the tables of run (text and csv), sweep and pareto by any objective they carry; equal keys keep their order, unknown values come last
dcsim run tests/data/traces/small.swf --swf-map tests/data/traces/map.xml --sort energy | sed -n '/^workflow/,/^$/p'
dcsim run tests/data/traces/small.swf --swf-map tests/data/traces/map.xml --sort time --format csv | grep -v '^#' | cut -d, -f1-8
dcsim sweep workflows/bifft.xml --cpu xeon-gold-6148,xeon-e5-2697v3 --nodes 1,2,8 --quiet --sort time --price xeon-gold-6148=3072 | head -8
dcsim sweep workflows/bifft.xml --cpu xeon-e5-2697v3,xeon-gold-6148 --nodes 1,2,8 --quiet --sort cost --price xeon-gold-6148=3072 --format csv | grep -v '^#' | cut -d, -f1-7,16
dcsim sweep workflows/bifft.xml --cpu xeon-gold-6148,xeon-e5-2697v3 --nodes 1,2,8 --quiet --format csv > $TMPDIR/s.csv && dcsim pareto $TMPDIR/s.csv --sort energy | head -5
