# the measured H100 SXM5 (calibration/h100-sxm5, from ../shared/data/gpu/h100): tools/gpu-bench
# layout 1 with its own power log gives the active idle from the settled idle samples (issue 25:
# within 10 % of 121 W, idle no higher); the labelled phases give the activity model, which
# hw-profiles/gpu/h100-sxm5.xml must hold (the second command prints nothing when it does)
dcsim calibrate gpu calibration/h100-sxm5/bench.csv calibration/h100-sxm5/power.csv --quiet | grep "<power"
dcsim calibrate gpu calibration/h100-sxm5/phases.csv --name h100-sxm5 | sed -n '/^power/,/^idle_context2/p'
dcsim calibrate gpu calibration/h100-sxm5/phases.csv --quiet | grep -E "<power(-model)? " > $TMPDIR/fit.txt; grep -E "<power(-model)? " hw-profiles/gpu/h100-sxm5.xml | diff - $TMPDIR/fit.txt
