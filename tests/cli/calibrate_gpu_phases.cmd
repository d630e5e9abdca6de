# the activity power model fitted on labelled phases (synthetic, exact: tests/data/gpubench/README.md):
# coefficients 20/300/100/150/10 W must come back; phases without counts are reported only
dcsim calibrate gpu tests/data/gpubench/phases-gtx970.csv --name phases-gtx970
