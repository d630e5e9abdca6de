dcsim run tests/data/run/bad-gpus-one.xml; echo "exit $?"
