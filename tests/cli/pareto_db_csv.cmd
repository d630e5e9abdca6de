dcsim sweep workflows/sh-tco639.xml --cpu xeon-e5-2697v3,xeon-gold-6148 --nodes 1,2,4,8 --db $TMPDIR/s.db --quiet > /dev/null && dcsim pareto $TMPDIR/s.db --format csv
