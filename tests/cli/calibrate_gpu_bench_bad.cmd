# bad gpu-bench and power CSVs: every error names the file and, where there is one, the line
export DCSIM_DATA=. D=tests/data/gpubench
for f in bad-sm bad-number bad-cc bad-arch bad-missing bad-metric; do dcsim calibrate gpu $D/$f.csv 2>&1; echo "exit $?"; done
for f in bad-pstate bad-noidle bad-columns bad-unit; do dcsim calibrate gpu $D/gtx970-bench.csv $D/$f.csv 2>&1; echo "exit $?"; done
# layout 2: phase rows (tools/gpu-bench labelled power phases), one defect each
for f in bad-phase-missing bad-phase-counts bad-phase-context bad-phase-twice bad-phase-busy bad-phase-layout1 bad-phase-noname bad-phase-warp; do dcsim calibrate gpu $D/$f.csv 2>&1; echo "exit $?"; done
dcsim calibrate gpu $D/gtx970-bench.csv $D/bad-timestamp.csv 2>&1; echo "exit $?"
