dcsim run tests/data/traces/small.swf --policy easy --format json
