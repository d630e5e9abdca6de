dcsim run --d35 tests/data/run/bad-cores.xml; echo "exit $?"
