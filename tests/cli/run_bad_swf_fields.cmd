dcsim run tests/data/traces/bad-fields.swf
