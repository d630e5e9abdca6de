# Issue 35 item 5: calibrate gpu refuses a bench value outside what any GPU can measure (a launch of
# 1e300 s, a STREAM triad of 1e-300 B/s: both used to become the profile) and a metric given twice
# (the last row used to win), naming the line; nothing is written.
export DCSIM_DATA=. D=tests/data/gpubench
for f in bad-launch bad-triad bad-twice bad-series-twice; do dcsim calibrate gpu $D/$f.csv -o $TMPDIR/g.xml; echo "exit $?"; done; ls $TMPDIR
