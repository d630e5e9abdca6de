dcsim run tests/data/traces/wfc-bad-parent.json
