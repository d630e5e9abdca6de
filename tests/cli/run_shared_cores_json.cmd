dcsim run tests/data/recorded/fork.xml --format json
