dcsim run tests/data/guard/steps-4e7.xml --max-memory 1G
