dcsim run tests/data/traces/too-big.swf
