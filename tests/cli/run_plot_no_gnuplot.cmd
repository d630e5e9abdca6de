DCSIM_GNUPLOT=/no/such/gnuplot dcsim run workflows/alaro.xml --gantt $TMPDIR/g.png --power $TMPDIR/p.png; echo "status $?"; test -e $TMPDIR/g.png || echo "no picture, nothing simulated"
