dcsim run tests/data/run/no-platform.xml
