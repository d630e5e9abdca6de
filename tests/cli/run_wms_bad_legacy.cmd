dcsim run tests/data/traces/wfc-pegasus.json --wms pegasus --io-bw-bps 1e6
