# D3.5 Tables 42-43 (BiFFT energy coefficients): the endpoints fit reproduces U, S and X; Y differs (D3.5 divided by the PKG idle power, doc/calibration.md)
dcsim calibrate energy tests/data/calib/energy-bifft.csv --cpu xeon-e5-2697v3 --method endpoints
