dcsim run tests/data/traces/mixed.xml --policy easy
