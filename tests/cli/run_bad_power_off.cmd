dcsim run tests/data/traces/small.swf --power-off-after nan
