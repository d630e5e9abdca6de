# bad gpu-bench and power CSVs: every error names the file and, where there is one, the line
export DCSIM_DATA=. D=tests/data/gpubench
for f in bad-sm bad-number bad-cc bad-arch bad-missing bad-metric; do dcsim calibrate gpu $D/$f.csv 2>&1; echo "exit $?"; done
for f in bad-pstate bad-oneutil bad-columns bad-unit; do dcsim calibrate gpu $D/gtx970-bench.csv $D/$f.csv 2>&1; echo "exit $?"; done
