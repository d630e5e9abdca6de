# dcsim calibrate scaling: a run without the 1-thread run of its case is refused at its line; a CSV not named DWARF-runs.csv needs --dwarf
DCSIM_DATA=. dcsim calibrate scaling tests/data/calib/scaling-no-reference.csv --dwarf bifft --cpu xeon-e5-2697v3; echo "exit $?"; DCSIM_DATA=. dcsim calibrate scaling tests/data/calib/scaling-no-reference.csv --cpu xeon-e5-2697v3
