# Issue 35 item 5: a front over an objective no point has (time,cost without any price) is an error
# naming what is missing and the option that gives it, not an empty front with exit 0 — in sweep and
# in pareto on the sweep's CSV.
dcsim sweep workflows/bifft.xml --cpu xeon-gold-6148 --nodes 1,8 --objectives time,cost --quiet >/dev/null; echo "exit $?"
dcsim sweep workflows/bifft.xml --cpu xeon-gold-6148 --nodes 1,8 --quiet --format csv > $TMPDIR/s.csv; dcsim pareto $TMPDIR/s.csv --objectives energy,cost 2>&1 | sed "s|$TMPDIR|TMP|"; echo "exit ${PIPESTATUS[0]}"
