# Issue 35 item 5: calibrate gpu refuses a bench value outside what any GPU can measure (a launch of
# 1e300 s, a STREAM triad of 1e-300 B/s: both used to become the profile) and a metric given twice
# (the last row used to win), naming the line, and an FMA rate above the peak of its architecture
# (SMs x per-clock rate x 2 x clock; 1.4e12 flop/s on a GTX 970 of 1.435e11); nothing is written.
export DCSIM_DATA=. D=tests/data/gpubench
for f in bad-launch bad-triad bad-twice bad-series-twice bad-fp64-peak; do dcsim calibrate gpu $D/$f.csv -o $TMPDIR/g.xml; echo "exit $?"; done; ls $TMPDIR
