dcsim run tests/data/traces/wfc-pegasus.json --wms condor
