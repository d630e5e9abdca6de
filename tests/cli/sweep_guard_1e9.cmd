dcsim sweep tests/data/guard/workload-1e9.xml --cpu xeon-e5-2697v3 --nodes 1,2
