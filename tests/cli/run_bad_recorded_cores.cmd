dcsim run tests/data/recorded/bad-cores.xml
