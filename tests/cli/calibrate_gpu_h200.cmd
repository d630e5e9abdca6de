# the measured H200 (calibration/h200-run1, tools/gpu-bench layout 2 with its ten synthetic
# phases, counts from Nsight Compute by tools/derive/gpu_phases.py --recount): the profile's
# <device>, <power>, <power-model> and <launch> are what calibrate gpu writes (the diff prints
# nothing when hw-profiles/gpu/h200.xml holds them)
dcsim calibrate gpu calibration/h200-run1/phases.csv --name h200 | sed -n '/^GPU/,/^idle_context2/p'
dcsim calibrate gpu calibration/h200-run1/phases.csv --name h200 --quiet | grep -E "<power|<launch" | sed 's/ source="[^"]*"//g; s/-source="[^"]*"//g' > $TMPDIR/fit.txt; grep -E "^  <power|^  <launch" hw-profiles/gpu/h200.xml | sed 's/ source="[^"]*"//g; s/-source="[^"]*"//g' | diff - $TMPDIR/fit.txt
dcsim calibrate gpu calibration/h200-run1/phases.csv --name h200 --quiet | grep -E "<device" | grep -o 'sm="[^"]*" clock-hz="[^"]*" memory-bw-bps="[^"]*"' > $TMPDIR/dev.txt; grep -E "^  <device" hw-profiles/gpu/h200.xml | grep -o 'sm="[^"]*" clock-hz="[^"]*" memory-bw-bps="[^"]*"' | diff - $TMPDIR/dev.txt
dcsim calibrate gpu calibration/h200-run1/phases.csv --name h200 --quiet > $TMPDIR/h200.xml; dcsim validate $TMPDIR/h200.xml | sed "s|$TMPDIR|TMP|"
