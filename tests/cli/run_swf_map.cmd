dcsim run tests/data/traces/small.swf --swf-map tests/data/traces/map.xml
