dcsim run tests/data/traces/wfc-bad-syntax.json
