dcsim run tests/data/traces/wfc-15.json --format json
