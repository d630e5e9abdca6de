dcsim run tests/data/run/bad-gpus-memory.xml; echo "exit $?"
