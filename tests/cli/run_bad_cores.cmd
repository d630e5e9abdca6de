dcsim run tests/data/run/bad-cores.xml; echo "exit $?"
