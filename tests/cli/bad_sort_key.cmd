# Issue 40 item 1: --sort names a column the table carries; a picture has no table to sort (no option silently ignored); checked before anything runs
dcsim run workflows/alaro.xml --sort makespan
dcsim sweep workflows/bifft.xml --cpu xeon-gold-6148 --nodes 1 --quiet --sort submit
dcsim sweep workflows/bifft.xml --cpu xeon-gold-6148 --nodes 1,8 --quiet --format csv > $TMPDIR/s.csv && dcsim pareto $TMPDIR/s.csv --sort wait
dcsim pareto $TMPDIR/s.csv --sort time --format svg --out $TMPDIR/p.svg
