# D3.5 Table 9 back from two nvprof exports (GTX 970, K20m) made from it for N = 3,200,000
# (tests/data/calibration/README.md): report per GPU and the <kernels> element of the means
dcsim calibrate gpu tests/data/calibration/gpu/manifest.csv
