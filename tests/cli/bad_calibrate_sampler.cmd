# an unknown sampler
dcsim calibrate sampling xeon-e5-2697v3 --sampler amart
