# the measured H100 SXM5 boards (calibration/h100-sxm5 = ../shared/data/gpu/h100, board 1;
# calibration/h100-sxm5-run2, board 3, tools/gpu-bench layout 2): layout 1 with its own power log
# gives the active idle from the settled idle samples (issue 25: within 10 % of 121 W, idle no
# higher); board 1's phases give the idle powers and board 5's ten synthetic phases
# (calibration/h100-sxm5-run4, with warp instructions and requested bytes: the issue and scatter
# terms) the activity model, which hw-profiles/gpu/h100-sxm5.xml must hold (the diffs print
# nothing when it does); board 3's seven phases have no warp or request rows (those two terms
# "not fitted")
dcsim calibrate gpu calibration/h100-sxm5/bench.csv calibration/h100-sxm5/power.csv --quiet | grep "<power"
dcsim calibrate gpu calibration/h100-sxm5/phases.csv --name h100-sxm5 | sed -n '/^power/,/^idle_context2/p'
dcsim calibrate gpu calibration/h100-sxm5-run2/phases.csv --name h100-sxm5 | sed -n '/^GPU/,/^idle_context2/p'
dcsim calibrate gpu calibration/h100-sxm5/phases.csv --quiet | grep -E "<power " > $TMPDIR/fit.txt; grep -E "<power " hw-profiles/gpu/h100-sxm5.xml | diff - $TMPDIR/fit.txt
dcsim calibrate gpu calibration/h100-sxm5-run4/phases.csv --name h100-sxm5 | sed -n '/^GPU/,/^idle_context2/p'
dcsim calibrate gpu calibration/h100-sxm5-run4/phases.csv --quiet | grep -E "<power-model " > $TMPDIR/fit2.txt; grep -E "<power-model " hw-profiles/gpu/h100-sxm5.xml | diff - $TMPDIR/fit2.txt
# board 7 (calibration/h100-sxm5-run6) adds the lowipc phase (8 warps per SM, 12 of 32 lanes,
# L2-resident gathers feeding FP64 chains): its held-out power shows what the model misses there
dcsim calibrate gpu calibration/h100-sxm5-run6/phases.csv --name h100-sxm5 | sed -n '/^power model/,/^idle_context2/p'
