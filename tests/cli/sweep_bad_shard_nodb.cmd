dcsim sweep workflows/alaro.xml --nodes 1,2 --shard 0/2
