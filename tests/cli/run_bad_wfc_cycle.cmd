dcsim run tests/data/traces/wfc-bad-cycle.json
