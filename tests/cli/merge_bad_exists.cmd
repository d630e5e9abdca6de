# merge writes a new database and never overwrites one
dcsim merge no-such-shard.db -o workflows/alaro.xml
