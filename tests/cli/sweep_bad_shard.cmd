dcsim sweep workflows/alaro.xml --nodes 1,2 --shard 2/2 --db x.db
