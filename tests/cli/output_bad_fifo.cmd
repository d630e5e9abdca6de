# issue 35: an output that is a FIFO or a device is refused before any work (a picture, -o), and
# an existing picture stays whole when drawing fails (it is replaced by rename, never rewritten)
mkfifo $TMPDIR/p.png && timeout 20 dcsim run workflows/alaro.xml --power $TMPDIR/p.png 2>&1 | sed "s|$TMPDIR|TMP|"; echo "exit ${PIPESTATUS[0]}"
timeout 20 dcsim calibrate cpu calibration/xeon-e5-2697v3 -o /dev/null 2>&1; echo "exit $?"
mkfifo $TMPDIR/o.xml && timeout 20 dcsim calibrate cpu calibration/xeon-e5-2697v3 -o $TMPDIR/o.xml 2>&1 | sed "s|$TMPDIR|TMP|"; echo "exit ${PIPESTATUS[0]}"
dcsim sweep workflows/alaro.xml --nodes 1,2 --quiet --format csv > $TMPDIR/s.csv && timeout 20 dcsim pareto $TMPDIR/s.csv --out $TMPDIR/p.png 2>&1 | sed "s|$TMPDIR|TMP|"; echo "exit ${PIPESTATUS[0]}"
echo keep > $TMPDIR/old.png && DCSIM_GNUPLOT=/bin/false dcsim run workflows/alaro.xml --gantt $TMPDIR/old.png 2>&1 >/dev/null | sed "s|$TMPDIR|TMP|"; echo "exit ${PIPESTATUS[0]}"; cat $TMPDIR/old.png; ls $TMPDIR | grep -v '^std'
