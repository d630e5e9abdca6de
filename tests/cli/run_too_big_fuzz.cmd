dcsim run tests/data/guard/ensemble-2043200.xml
