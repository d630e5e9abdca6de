# bad GPU exports: every error names the file and line
D=tests/data/calibration/gpu
dcsim calibrate gpu $D/bad-layout.csv --domain-size 3200000 2>&1; echo "exit status $?"
dcsim calibrate gpu $D/bad-missing-metric.csv $D/k20m-nvprof.csv --domain-size 3200000 2>&1; echo "exit status $?"
dcsim calibrate gpu $D/bad-manifest.csv 2>&1; echo "exit status $?"
dcsim calibrate gpu $D/gtx970-nvprof.csv --domain-size 0 2>&1; echo "exit status $?"
dcsim calibrate gpu $D/gtx970-nvprof.csv 2>&1; echo "exit status $?"
