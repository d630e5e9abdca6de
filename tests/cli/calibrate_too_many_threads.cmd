# Issue 26, item 6: a table row at more threads than the CPU's hardware threads (cores per socket x
# threads per core x sockets) is refused naming its line: 100 threads on a 64-core, one-socket EPYC
# 7763 whose machine.xml gives no threads-per-core. With threads-per-core="2" (SMT: 128 hardware
# threads) the same row is accepted.
dcsim calibrate cpu tests/data/calibration/too-many-threads -o $TMPDIR/p.xml; echo "exit $?"; cp -r tests/data/calibration/too-many-threads $TMPDIR/smt && sed -i "s|sockets=\"1\"|sockets=\"1\" threads-per-core=\"2\"|; s|reference=\"[^\"]*\"|reference=\"$PWD/calibration/xeon-e5-2697v3\"|" $TMPDIR/smt/machine.xml && dcsim calibrate cpu $TMPDIR/smt -o $TMPDIR/p.xml >/dev/null; echo "exit $?"; grep '<row' $TMPDIR/p.xml
