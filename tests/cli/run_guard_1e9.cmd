dcsim run tests/data/guard/workload-1e9.xml
