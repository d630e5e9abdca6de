dcsim run tests/data/guard/edges-4.9e8.xml; dcsim validate tests/data/guard/edges-4.9e8.xml; dcsim sweep tests/data/guard/edges-4.9e8.xml --nodes 1,2
