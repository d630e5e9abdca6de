# Issue 26, item 10: a sweep with no feasible point prints its points and reasons, then exits 1;
# item 9: --nodes has one limit, said the same way by the option parser and the sweep.
dcsim sweep workflows/bifft.xml --nodes 100000000 --quiet
dcsim sweep workflows/bifft.xml --nodes 10000000 --quiet
dcsim sweep workflows/bifft.xml --cpu xeon-e5-2640v3 --nodes 1,2 --d35 --quiet --format csv > $TMPDIR/o.csv; echo "sweep exit $?"; grep -v '^#' $TMPDIR/o.csv | cut -d, -f1-6,11
