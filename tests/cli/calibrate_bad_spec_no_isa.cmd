dcsim calibrate cpu tests/data/calibration/spec-no-isa
