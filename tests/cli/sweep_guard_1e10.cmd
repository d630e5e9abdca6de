dcsim sweep tests/data/guard/workload-1e10.xml --nodes 1,2
