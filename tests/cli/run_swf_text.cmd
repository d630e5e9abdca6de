dcsim run tests/data/traces/small.swf
